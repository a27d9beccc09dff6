/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the session stage's files share (gstsessionstage.c: construction,
 * ICE and the offer, the data channel; gstsessionstage-media.c: the
 * incoming streams and their loss recovery; gstsessionstage-stats.c:
 * transport statistics and the congestion feedback sent).
 */

#ifndef __GST_SESSION_STAGE_PRIVATE_H__
#define __GST_SESSION_STAGE_PRIVATE_H__

#include <gst/webrtc/webrtc.h>

#include "gstsessionstage.h"
#include "gstsessionremb.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (session_stage_debug);

/* the promises given to webrtcbin, one in flight of each kind (see
 * stage_promise_new) */
typedef enum
{
  STAGE_PROMISE_OFFER,          /* create-offer */
  STAGE_PROMISE_LOCAL,          /* set-local-description */
  STAGE_PROMISE_ANSWER,         /* set-remote-description */
  STAGE_PROMISE_STATS,          /* get-stats */
  STAGE_N_PROMISES
} StagePromise;

struct _GstSessionStage
{
  gint refcount;
  GstElement *owner;
  GMainContext *context;
  GstSessionStageCallbacks cb;
  gpointer user_data;
  GstSessionStageConfig config;
  gchar *stun_server;
  gchar *turn_server;
  gchar *channel_label;

  GstElement *pipeline;
  GstTaskPool *task_pool;       /* its streaming threads, joined */
  GstElement *webrtc;
  GObject *paced_agent;         /* libnice agent whose pacing we set */
  guint own_pacing;             /* its own, restored when ICE connects */
  GstWebRTCDataChannel *channel;
  GSource *bus_source;
  GSource *gather_source;

  /* lock protects dead, promises, times, ssrc, jitterbuffers,
   * video_sink, keyframe_asked, rtp_session, the feedback fields and (for
   * other threads) config.latency_ms; never held while calling out */
  GMutex lock;
  gboolean dead;
  /* each in flight (a reference) until its change function ran, or
   * interrupted by gst_session_stage_free: webrtcbin frees an operation
   * still queued when it stops without replying to its promise */
  GstPromise *promises[STAGE_N_PROMISES];
  gboolean offer_sent;
  gint64 host_seen;             /* context: the first UDP host candidate */
  GstSessionStageTimes times;
  guint streams_out;            /* streams whose first packet left (lock) */
  guint ssrc[2];                /* per GstSessionOutputKind; 0: none yet */
  gchar *candidate_type;        /* of the selected pair's local candidate */
  GPtrArray *jitterbuffers;     /* rtpjitterbuffer, "ssrc" data set */
  GstPad *video_sink;           /* the video chain's first pad */
  gint64 keyframe_asked;        /* monotonic µs of the last request */
  gint dropout_rtp;             /* atomic: a video gap this long (90 kHz
                                 * RTP time) is a dropout (on_video_rtp) */
  /* congestion feedback (gstsessionstage-stats.c) */
  GObject *rtp_session;         /* RTPSession whose reports carry REMB */
  GstSessionRemb remb;          /* the estimate (RTCP thread) */
  GstSessionFeedbackStats feedback;
};

/* a function run in the owner's context (see stage_invoke) */
typedef void (*StageFunc) (GstSessionStage * stage, gpointer data);

G_GNUC_INTERNAL GstSessionStage *stage_ref (GstSessionStage * stage);
G_GNUC_INTERNAL void stage_unref (GstSessionStage * stage);
G_GNUC_INTERNAL gboolean stage_is_dead (GstSessionStage * stage);
G_GNUC_INTERNAL void stage_mark (GstSessionStage * stage, gint64 * field);
G_GNUC_INTERNAL gboolean stage_streams_out (GstSessionStage * stage);
G_GNUC_INTERNAL void stage_invoke (GstSessionStage * stage, StageFunc func,
    gpointer data, GDestroyNotify free_data);
G_GNUC_INTERNAL void stage_fail (GstSessionStage * stage, GError * error);
G_GNUC_INTERNAL void stage_fail_async (GstSessionStage * stage,
    GError * error);
G_GNUC_INTERNAL GstPromise *stage_promise_new (GstSessionStage * stage,
    StagePromise kind, GstPromiseChangeFunc func);
G_GNUC_INTERNAL gboolean stage_promise_replied (GstSessionStage * stage,
    GstPromise * promise);
G_GNUC_INTERNAL void stage_promise_release (GstSessionStage * stage,
    StagePromise kind, GstPromise * promise);

/* gstsessionstage-media.c */
G_GNUC_INTERNAL void stage_on_pad_added (GstElement * webrtc, GstPad * pad,
    GstSessionStage * stage);
G_GNUC_INTERNAL GstElement *stage_find_jitterbuffer (GstSessionStage * stage,
    guint ssrc);
G_GNUC_INTERNAL void stage_set_dropout (GstSessionStage * stage,
    GstElement * jb);

/* gstsessionstage-stats.c */
G_GNUC_INTERNAL void stage_on_new_jitterbuffer (GstElement * rtpbin,
    GstElement * jitterbuffer, guint session, guint ssrc,
    GstSessionStage * stage);
G_GNUC_INTERNAL void stage_watch_feedback (GstSessionStage * stage,
    GstElement * rtpsession);
G_GNUC_INTERNAL void stage_unwatch_feedback (GstSessionStage * stage);

G_END_DECLS

#endif /* __GST_SESSION_STAGE_PRIVATE_H__ */
