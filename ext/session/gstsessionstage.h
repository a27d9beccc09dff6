/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_STAGE_H__
#define __GST_SESSION_STAGE_H__

#include <gst/gst.h>
#include "gstsessionoutput.h"

G_BEGIN_DECLS

typedef struct _GstSessionStage GstSessionStage;

/* Callbacks of a stage. All but channel_message and sample run on the
 * context given at creation; channel_message runs on the SCTP thread and
 * sample on a streaming thread. None runs after gst_session_stage_free()
 * returned. */
typedef struct
{
  void (*offer_ready) (GstSessionStage * stage, const gchar * sdp,
      gpointer user_data);
  void (*channel_open) (GstSessionStage * stage, gpointer user_data);
  void (*channel_closed) (GstSessionStage * stage, gpointer user_data);
  void (*channel_message) (GstSessionStage * stage, const gchar * text,
      gpointer user_data);
  void (*sample) (GstSessionStage * stage, GstSessionOutputKind kind,
      GstSample * sample, gpointer user_data);
  void (*connected) (GstSessionStage * stage, gpointer user_data);
  void (*failed) (GstSessionStage * stage, const GError * error,
      gpointer user_data);
} GstSessionStageCallbacks;

typedef struct
{
  gboolean video;
  gboolean audio;
  gboolean decode;
  guint latency_ms;
  const gchar *stun_server;
  const gchar *turn_server;
  const gchar *channel_label;
  gboolean loopback_only;
  gboolean ice_tcp;             /* gather TCP candidates too */
  gboolean relay_only;          /* ICE through the TURN server only */
  GstClockTime gathering_timeout;
  gint audio_rate;              /* raw audio output rate */
  gint audio_channels;          /* raw audio output channels */
  guint max_bitrate;            /* video bit/s the sender is told at most
                                 * (REMB, b=TIAS); 0: no cap */
  GstClock *clock;
  GstClockTime base_time;
} GstSessionStageConfig;

/* timestamps (monotonic µs) of the steps of one negotiation */
typedef struct
{
  gint64 created;
  gint64 offer_created;
  gint64 gathered;
  gint64 answer_set;
  gint64 connected;
  gint64 channel_open;
  gint64 first_rtp;
} GstSessionStageTimes;

G_GNUC_INTERNAL
GstSessionStage *gst_session_stage_new (GstElement * owner,
    const GstSessionStageConfig * config,
    const GstSessionStageCallbacks * callbacks, gpointer user_data,
    GMainContext * context, GError ** error);

G_GNUC_INTERNAL
void gst_session_stage_start (GstSessionStage * stage);

/* FALSE with @error when @sdp is not an SDP with media. webrtcbin's own
 * verdict comes later: an answer it refuses (no or a wrong fingerprint,
 * a missing mid...) is the failed callback's, "The service's answer was
 * refused by webrtcbin: <its reason>" */
G_GNUC_INTERNAL
gboolean gst_session_stage_set_answer (GstSessionStage * stage,
    const gchar * sdp, GError ** error);

G_GNUC_INTERNAL
gboolean gst_session_stage_send (GstSessionStage * stage, const gchar * text,
    GError ** error);

G_GNUC_INTERNAL
void gst_session_stage_get_times (GstSessionStage * stage,
    GstSessionStageTimes * times);

/* What the transport did for one incoming stream, since it began. */
typedef struct
{
  gboolean valid;               /* the stream exists */
  guint64 packets_received;     /* RTP packets, retransmissions included */
  guint64 bytes_received;       /* RTP payload bytes */
  guint64 packets_lost;         /* given up by the jitterbuffer */
  guint64 packets_recovered;    /* lost, then retransmitted in time */
  guint64 retransmissions_asked; /* NACKed sequence numbers (requests) */
  guint nacks_sent;             /* RTCP NACK packets */
  guint plis_sent;              /* RTCP PLIs (keyframe requests) */
  guint firs_sent;
  GstClockTime jitter;          /* interarrival jitter */
  GstClockTime rtx_round_trip;  /* NACK to retransmission, average; NONE */
  guint jitterbuffer_latency_ms;
} GstSessionTransportStats;

G_GNUC_INTERNAL
void gst_session_stage_get_transport_stats (GstSessionStage * stage,
    GstSessionOutputKind kind, GstSessionTransportStats * stats);

/* The congestion feedback sent to the sender, since the stage began */
typedef struct
{
  gboolean remb;                /* the answer took REMB: it is sent */
  guint64 remb_bitrate;         /* the last REMB's, bit/s; 0: none yet */
  guint64 rembs_sent;
  guint64 twcc_sent;            /* transport-cc feedback packets */
} GstSessionFeedbackStats;

G_GNUC_INTERNAL
void gst_session_stage_get_feedback_stats (GstSessionStage * stage,
    GstSessionFeedbackStats * stats);

G_GNUC_INTERNAL
void gst_session_stage_query_transport (GstSessionStage * stage);

G_GNUC_INTERNAL
void gst_session_stage_set_latency (GstSessionStage * stage,
    guint latency_ms);

G_GNUC_INTERNAL
void gst_session_stage_request_keyframe (GstSessionStage * stage);

G_GNUC_INTERNAL
gchar *gst_session_stage_get_candidate_type (GstSessionStage * stage);

G_GNUC_INTERNAL
void gst_session_stage_free (GstSessionStage * stage);

G_GNUC_INTERNAL
gboolean gst_session_stage_check_plugins (gboolean audio, GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_STAGE_H__ */
