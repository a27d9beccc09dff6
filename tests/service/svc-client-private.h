/* gst-session: a test client of the reference service
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* The test client's insides, shared by svc-client.c (the offer, the event
 * stream, the data channel) and svc-media.c (the media it receives). */

#ifndef __SVC_CLIENT_PRIVATE_H__
#define __SVC_CLIENT_PRIVATE_H__

#ifndef GST_USE_UNSTABLE_API
#define GST_USE_UNSTABLE_API
#endif
#include <gst/webrtc/webrtc.h>

#include "svc-client.h"

G_BEGIN_DECLS

struct _SvcClient
{
  GMutex lock;
  GCond cond;
  GstSessionApp app;
  SvcClientOptions options;
  gchar *base_url;
  gchar *key;
  gchar *session_id;

  GstElement *pipeline;
  GstElement *webrtc;
  GstWebRTCDataChannel *channel;
  GThread *http_thread;
  GCancellable *cancel;
  GThread *ping_thread;
  gint ping_stop;               /* atomic */
  gint pings_sent;              /* atomic */
  gchar *offer;

  /* lock */
  gboolean channel_open;
  gboolean channel_closed;
  GPtrArray *messages;
  guint invalid;
  guint64 video_frames;
  GstClockTime last_video_sender;       /* the last frame's capture time */
  GstClockTime last_video_running;      /* and its running time */
  gint width, height;
  GstSample *last_video;
  guint64 audio_samples;
  gint audio_rate;
  gdouble audio_rms;
  gboolean mark_prev;
  guint quiet_run;
  GArray *video_marks;          /* Mark */
  GArray *audio_marks;
  gboolean answered;
  gboolean response_ended;
  guint keepalives;
  gchar *answer;
  SvcHttpReply *error_reply;
};

static inline void
signal_change (SvcClient * c)
{
  g_cond_broadcast (&c->cond);
}

/* Waits on the client's condition until @pred holds; lock held */
#define WAIT_LOCKED(c, pred, timeout_ms) G_STMT_START {                 \
  gint64 _end = g_get_monotonic_time () + (gint64) (timeout_ms) * 1000; \
  while (!(pred))                                                       \
    if (!g_cond_wait_until (&(c)->cond, &(c)->lock, _end))              \
      break;                                                            \
} G_STMT_END

/* svc-media.c: the media state of a new client, and its end */
void svc_media_init (SvcClient * c);
void svc_media_clear (SvcClient * c);
/* webrtcbin's pad-added: a decoding branch into an appsink per stream */
void svc_media_pad_added (GstElement * webrtc, GstPad * pad, SvcClient * c);

G_END_DECLS

#endif /* __SVC_CLIENT_PRIVATE_H__ */
