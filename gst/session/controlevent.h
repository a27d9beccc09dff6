/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_CONTROL_EVENT_H__
#define __GST_SESSION_CONTROL_EVENT_H__

#include <gst/session/message.h>

G_BEGIN_DECLS

/**
 * GstSessionControlEventType:
 * @GST_SESSION_CONTROL_EVENT_SEND: send @json on the control channel.
 * @GST_SESSION_CONTROL_EVENT_MESSAGE: a service message arrived: post
 *   @details (an element message) and hand @message to the application.
 * @GST_SESSION_CONTROL_EVENT_WARNING: tell the application @error (a
 *   malformed service message, a refused control); the session goes on.
 * @GST_SESSION_CONTROL_EVENT_ENDED: the service ended the stream
 *   (`stream_exhausted`); @message is that message.
 * @GST_SESSION_CONTROL_EVENT_OUTPUT_OPEN: the session is set up (its
 *   configure acknowledged or refused): its media may reach the output.
 *   @details (`session/output-open`) has the `width` and `height` (int)
 *   of the video the settings give, 0 when they give none. Comes before
 *   the MESSAGE event of the message that opened it.
 * @GST_SESSION_CONTROL_EVENT_VIDEO_SIZE: the service announced the size
 *   of its video: @details (`session/video-size`) has `width` and `height`
 *   (int, 1 to 8192). Comes before the message's MESSAGE event.
 * @GST_SESSION_CONTROL_EVENT_MEDIA_PAUSE: the service announced that no
 *   media will come for a while (a late chunk): @details
 *   (`session/media-pause`) has `seconds` (double, 0 or more, finite).
 *   Comes before the message's MESSAGE event.
 * @GST_SESSION_CONTROL_EVENT_ROUND_TRIP: the pong of one of the
 *   controller's own pings (its probe of the path, see
 *   gst_session_world_controller_probe()) came: @details
 *   (`session/round-trip`) has `ms` (double, 0 or more), the time from the
 *   ping to its pong. Takes the place of the pong's MESSAGE event: nothing
 *   is posted for it.
 *
 * The last four carry what an element needs from the app's messages
 * without knowing their names.
 *
 * What a session controller asks its element to do. Controllers queue these
 * while their caller holds its lock; the caller takes them and acts on them
 * after unlocking, so no signal is emitted and nothing is sent under a lock.
 */
typedef enum {
  GST_SESSION_CONTROL_EVENT_SEND,
  GST_SESSION_CONTROL_EVENT_MESSAGE,
  GST_SESSION_CONTROL_EVENT_WARNING,
  GST_SESSION_CONTROL_EVENT_ENDED,
  GST_SESSION_CONTROL_EVENT_OUTPUT_OPEN,
  GST_SESSION_CONTROL_EVENT_VIDEO_SIZE,
  GST_SESSION_CONTROL_EVENT_MEDIA_PAUSE,
  GST_SESSION_CONTROL_EVENT_ROUND_TRIP,
} GstSessionControlEventType;

/**
 * GstSessionControlEvent:
 * @type: what to do
 * @json: the text to send (SEND)
 * @message: the service message (MESSAGE, ENDED)
 * @details: the element message to post (MESSAGE, ENDED): named
 *   `<app>/<type>` with the message's fields and any measured extras;
 *   what OUTPUT_OPEN, VIDEO_SIZE and MEDIA_PAUSE say (not posted)
 * @error: the warning (WARNING)
 * @final: for ENDED: whether the stream ended for good (no new session
 *   may follow it: the director's `stopped`), whatever the element's
 *   `renew`
 */
typedef struct {
  GstSessionControlEventType type;
  gchar *json;
  GstSessionMessage *message;
  GstStructure *details;
  GError *error;
  gboolean final;
} GstSessionControlEvent;

GST_SESSION_API
void gst_session_control_event_free (GstSessionControlEvent * event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionControlEvent, gst_session_control_event_free)

G_END_DECLS

#endif /* __GST_SESSION_CONTROL_EVENT_H__ */
