/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the session source's files share: gstsessionsrc.c (the element:
 * properties, states, the session thread), gstsessionsrc-session.c (the
 * sessions) and gstsessionsrc-control.c (controller events, the control
 * script).
 */

#ifndef __GST_SESSION_SRC_PRIVATE_H__
#define __GST_SESSION_SRC_PRIVATE_H__

#include <gst/webrtc/webrtc.h>

#include "gstsessionsrc.h"
#include "gstsessioncontext.h"
#include "gstsessionlifecycle.h"
#include "gstsessionscheduler.h"
#include "gstsessionstats.h"
#include "gstsessionlatency.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_session_src_debug);

#define DEFAULT_MEDIA_TIMEOUT 5000

/* jitterbuffer latency (ms) with latency=-1 on loopback; elsewhere it
 * follows the path (gstsessionlatency.h) */
#define AUTO_LATENCY_LOOPBACK 5

/* the longest stall announced by deadline_missed (late_by_seconds) that is
 * waited out before media-timeout counts: a service-sent number, clamped */
#define MAX_ANNOUNCED_LATE_S 60.0

#define WATCHDOG_MS 100
/* the longest wait for `configured` after the control channel opened
 * (director): then the session counts as lost */
#define CONFIGURED_TIMEOUT_MS 20000
#define TEARDOWN_WAIT (5 * G_TIME_SPAN_SECOND)

typedef struct
{
  /* properties, under the object lock */
  gchar *url;
  gchar *api_key;
  gchar *stun_server;
  gchar *turn_server;
  gint latency;
  GstSessionPlayout playout;
  gboolean decode;
  gchar *channel_label;
  gboolean renew;
  guint max_retries;
  guint max_retry_wait;
  guint renew_min_media;
  guint start_timeout;
  guint gathering_timeout;
  guint media_timeout;
  guint stop_timeout;
  gchar *session_id;
  gchar *control_script;
  guint stats_interval;
  guint max_bitrate;            /* bit/s; 0: no cap */
  gboolean ice_tcp;
  GstWebRTCICETransportPolicy ice_transport_policy;

  /* output stage, lives as long as the element */
  GstSessionOutputOrigin origin;
  gint session_number;          /* lifecycle.sessions, for streaming threads
                                 * (atomic) */
  GstSessionOutput *outputs[2];

  /* the session thread */
  GstSessionContext ctx;
  GMainContext *context;        /* ctx's, while it runs */
  GThread *dtls_thread;         /* making the DTLS key ahead of need */

  /* ctrl_lock: the subclass controller and the outbox */
  GMutex ctrl_lock;
  GQueue outbox;
  gboolean flush_pending;

  /* context thread only */
  GstSessionStage *stage;
  GstSessionSignaller *signaller;       /* the current attempt's */
  gboolean prepared;            /* the configured one was told to prepare */
  /* object lock: the one the property sets (an HTTP one by default) */
  GstSessionSignaller *configured_signaller;
  GstSessionLifecycle lifecycle;
  GSource *retry_source;
  GSource *watchdog_source;
  GstSessionStatsState stats_state;
  guint auto_latency;           /* latency=-1 off loopback: ms, or 0 */
  guint auto_recovery;          /* and the interactive placement delay */
  gboolean follows_path;        /* the session's latency is auto_latency */
  gboolean interactive;         /* the run's playout (copied at its start) */
  gint64 latency_checked;       /* monotonic µs */
  GstSessionPathProbe path_probe;       /* this session's own pings */
  GstSessionPathReadings path_readings; /* jitter, rtx round trip: 1/s */
  gboolean path_measured;       /* a probe came since latency_checked */
  GSource *stop_source;
  GSource *drain_source;        /* the end, once what is in flight came */
  gint64 drain_started;
  gboolean want_session;
  gboolean channel_open;
  gboolean stopping;
  gboolean ended;
  gint64 started_at;
  gint64 opened_at;             /* control channel open (0: not yet) */
  gpointer first_frame_at;      /* atomic: monotonic µs, NULL: none yet */
  gint session_frames;          /* atomic: video frames this session placed */
  gint64 media_grace_until;     /* a late chunk was announced: wait */
  gint gate_open;               /* atomic: output flows (see wait_configured) */
  gint64 gate_opened_at;        /* monotonic µs it opened (0: not yet) */
  gint kept_out;                /* atomic: frames of another size kept out */
  gint kept_out_width;          /* atomic: the last one's size */
  gint kept_out_height;
  gint expected_width;          /* atomic: the configured video size, or 0 */
  gint expected_height;
  GstSessionScheduler scheduler;        /* plays the control script */

  /* object lock: refusals made while in NULL, before there is a bus to
   * tell (gst-launch sets properties first): control -> "Refused ..." */
  GHashTable *early_refusals;
} GstSessionSrcPrivate;

G_GNUC_INTERNAL
GstSessionSrcPrivate *gst_session_src_priv (GstSessionSrc * src);
#define PRIV(s) gst_session_src_priv (GST_SESSION_SRC (s))

/* gstsessionsrc.c */
G_GNUC_INTERNAL void src_invoke (GstSessionSrc * self, GSourceFunc func);
G_GNUC_INTERNAL void src_emit_control_message (GstSessionSrc * self,
    GstSessionMessage * message);

/* gstsessionsrc-control.c */
G_GNUC_INTERNAL gint64 src_last_input (GstSessionSrc * self);
G_GNUC_INTERNAL gint64 src_last_frame (GstSessionSrc * self);
G_GNUC_INTERNAL void src_drain_then_end (GstSessionSrc * self);
G_GNUC_INTERNAL gboolean src_flush_outbox (gpointer data);
G_GNUC_INTERNAL gboolean src_script_act (const GstSessionControlAction * a,
    gpointer data);
G_GNUC_INTERNAL gboolean src_load_script (GstSessionSrc * self);

/* gstsessionsrc-session.c */
G_GNUC_INTERNAL void src_outputs_end (GstSessionSrc * self);
G_GNUC_INTERNAL gboolean src_outputs_started (GstSessionSrc * self);
G_GNUC_INTERNAL void src_clear_source (GSource ** source);
G_GNUC_INTERNAL void src_teardown_session (GstSessionSrc * self);
G_GNUC_INTERNAL void src_end_stream (GstSessionSrc * self);
G_GNUC_INTERNAL void src_start_session (GstSessionSrc * self);
G_GNUC_INTERNAL void src_renew (GstSessionSrc * self, const gchar * why,
    gboolean lost);
G_GNUC_INTERNAL gboolean src_start_in_context (gpointer data);
G_GNUC_INTERNAL gboolean src_pause_script_in_context (gpointer data);
G_GNUC_INTERNAL void src_stop_in_context (gpointer data);
G_GNUC_INTERNAL gboolean src_stop_timeout (gpointer data);

/* gstsessionsrc-path.c */
G_GNUC_INTERNAL void src_set_recovery (GstSessionSrc * self,
    GstClockTime recovery);
G_GNUC_INTERNAL guint src_start_latency (GstSessionSrc * self);
G_GNUC_INTERNAL guint src_start_recovery (GstSessionSrc * self);
G_GNUC_INTERNAL void src_follow_path (GstSessionSrc * self, gint64 now);
G_GNUC_INTERNAL void src_guess_from_signalling (GstSessionSrc * self);
G_GNUC_INTERNAL void src_path_round_trip (GstSessionSrc * self, gdouble ms);
G_GNUC_INTERNAL gboolean src_eos_in_context (gpointer data);

G_END_DECLS

#endif /* __GST_SESSION_SRC_PRIVATE_H__ */
