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
} GstSessionControlEventType;

/**
 * GstSessionControlEvent:
 * @type: what to do
 * @json: the text to send (SEND)
 * @message: the service message (MESSAGE, ENDED)
 * @details: the element message to post (MESSAGE, ENDED): named
 *   `<app>/<type>` with the message's fields and any measured extras
 * @error: the warning (WARNING)
 */
typedef struct {
  GstSessionControlEventType type;
  gchar *json;
  GstSessionMessage *message;
  GstStructure *details;
  GError *error;
} GstSessionControlEvent;

GST_SESSION_API
void gst_session_control_event_free (GstSessionControlEvent * event);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionControlEvent, gst_session_control_event_free)

G_END_DECLS

#endif /* __GST_SESSION_CONTROL_EVENT_H__ */
