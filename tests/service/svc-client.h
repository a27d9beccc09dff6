/* gst-session: a test client of the reference service
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_CLIENT_H__
#define __SVC_CLIENT_H__

#include <gst/gst.h>
#include <libsoup/soup.h>
#include <json-glib/json-glib.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>

/* the test programs include this header alone: the service's process and
 * plain HTTP come with it */
#include "svc-process.h"
#include "svc-http.h"

G_BEGIN_DECLS

/* ---- the WebRTC client ---- */

typedef struct _SvcClient SvcClient;

typedef struct
{
  const gchar *key;
  gboolean h264;                /* offer H.264 instead of VP8 */
  gboolean no_audio;            /* director: offer no audio */
  gboolean expect_invalid;      /* invalid service messages are expected */
} SvcClientOptions;

SvcClient *svc_client_new (const gchar * base_url, GstSessionApp app,
    const SvcClientOptions * options);
const gchar *svc_client_session_id (SvcClient * client);
/* Offers, posts, waits for the answer: the HTTP status (200 on success) */
guint svc_client_start (SvcClient * client);
SvcHttpReply *svc_client_error_reply (SvcClient * client);
gboolean svc_client_wait_open (SvcClient * client, gint timeout_ms);
gboolean svc_client_send (SvcClient * client, const gchar * text);
/* pings from a thread of the client's until it is freed (its pipeline
 * stops while they go) */
void svc_client_start_pinging (SvcClient * client);
guint svc_client_pings_sent (SvcClient * client);
/* the next message of @type not returned before, or NULL after the
 * timeout; the object stays owned by the client */
JsonObject *svc_client_wait_message (SvcClient * client, const gchar * type,
    gint timeout_ms);
/* waits until @n service messages failed validation */
gboolean svc_client_wait_invalid (SvcClient * client, guint n,
    gint timeout_ms);
guint svc_client_count_messages (SvcClient * client, const gchar * type);
gboolean svc_client_wait_video_frames (SvcClient * client, guint64 frames,
    gint timeout_ms);
guint64 svc_client_video_frames (SvcClient * client);
/* the frames so far, and the last one's capture time on the sender's
 * clock (@sender, from the sender reports; NONE before them) and its
 * @running_time: not when a loaded machine let the frame through */
guint64 svc_client_video_frames_at (SvcClient * client, GstClockTime * sender,
    GstClockTime * running_time);
void svc_client_video_size (SvcClient * client, gint * width, gint * height);
/* mean absolute luma difference of the last frame and @reference over the
 * rows from @top to the bottom */
GstSample *svc_client_last_video (SvcClient * client);
gdouble svc_sample_luma_diff (GstSample * a, GstSample * b, gdouble top);
gboolean svc_client_wait_audio (SvcClient * client, guint64 samples,
    gint timeout_ms);
gint svc_client_audio_rate (SvcClient * client);
gdouble svc_client_audio_rms (SvcClient * client);
gboolean svc_client_sync_marks (SvcClient * client, gboolean * by_sender,
    GstClockTime * video,
    GstClockTime * audio);
gboolean svc_client_wait_response_end (SvcClient * client, gint timeout_ms);
guint svc_client_keepalives (SvcClient * client);
gboolean svc_client_channel_closed (SvcClient * client);
/* closes the response (the session ends) and frees everything */
void svc_client_free (SvcClient * client);

G_END_DECLS

#endif /* __SVC_CLIENT_H__ */
