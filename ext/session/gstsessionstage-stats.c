/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session stage's transport statistics (gstsessionstage.c): what
 * webrtcbin's get-stats, the jitterbuffers and the rtpsession know of each
 * stream, gathered for the session/stats message, and the jitterbuffer
 * latency changed while running. And the congestion feedback the stage
 * sends: a REMB in a regular report once a second (rtpsession makes
 * none in GStreamer 1.22), and the count of rtpsession's TWCC feedback.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/webrtc/webrtc.h>
#include <gst/rtp/rtp.h>

#include "gstsessionarrival.h"
#include "gstsessionstage-private.h"

#define GST_CAT_DEFAULT session_stage_debug

/* Consecutive packets after which a jitterbuffer lets its first one go */
#define FASTSTART_PACKETS 2

/* Off loopback a jitterbuffer has the session's latency from its first
 * packet on, and lets that packet go once the next came (faststart), not
 * after the latency. At the short start latency webrtcbin gives it until
 * media flows, a packet lost in the first keyframe was given up before
 * its retransmission came, and the picture waited for a new keyframe. */
void
stage_on_new_jitterbuffer (GstElement * rtpbin, GstElement * jitterbuffer,
    guint session, guint ssrc, GstSessionStage * stage)
{
  g_object_set_data (G_OBJECT (jitterbuffer), "session-ssrc",
      GUINT_TO_POINTER (ssrc));
  if (!stage->config.loopback_only) {
    guint latency;

    g_mutex_lock (&stage->lock);
    latency = stage->config.latency_ms;
    g_mutex_unlock (&stage->lock);
    g_object_set (jitterbuffer, "faststart-min-packets", FASTSTART_PACKETS,
        "latency", latency, NULL);
  }
  /* the output tells the path's delay from the machine's by it */
  gst_session_arrival_watch (jitterbuffer, stage->config.clock);
  g_mutex_lock (&stage->lock);
  g_ptr_array_add (stage->jitterbuffers, gst_object_ref (jitterbuffer));
  g_mutex_unlock (&stage->lock);
}

/* ---- congestion feedback ---- */

/* The counters of the stream @ssrc that the estimate takes (RTCP thread,
 * with the session's lock free) */
static gboolean
stream_counters (GObject * session, guint ssrc, guint64 * octets,
    guint64 * packets, gint64 * lost)
{
  GObject *source = NULL;
  GstStructure *s = NULL;
  gint n = 0;
  gboolean ok;

  g_signal_emit_by_name (session, "get-source-by-ssrc", ssrc, &source);
  if (source == NULL)
    return FALSE;
  g_object_get (source, "stats", &s, NULL);
  g_object_unref (source);
  if (s == NULL)
    return FALSE;
  ok = gst_structure_get (s, "octets-received", G_TYPE_UINT64, octets,
      "packets-received", G_TYPE_UINT64, packets, "packets-lost", G_TYPE_INT,
      &n, NULL);
  gst_structure_free (s);
  *lost = n;
  return ok;
}

/* Appends a REMB about @ssrc from @sender to the compound packet; the
 * bitrate it says, 0 when it did not fit */
static guint64
add_remb (GstRTCPBuffer * rtcp, guint32 sender, guint32 ssrc, guint64 bitrate)
{
  GstRTCPPacket packet;
  guint64 said = 0;

  if (!gst_rtcp_buffer_add_packet (rtcp, GST_RTCP_TYPE_PSFB, &packet))
    return 0;
  gst_rtcp_packet_fb_set_type (&packet, GST_RTCP_PSFB_TYPE_AFB);
  gst_rtcp_packet_fb_set_sender_ssrc (&packet, sender);
  gst_rtcp_packet_fb_set_media_ssrc (&packet, 0);
  if (gst_rtcp_packet_fb_set_fci_length (&packet, GST_SESSION_REMB_FCI_WORDS))
    said = gst_session_remb_write_fci (gst_rtcp_packet_fb_get_fci (&packet),
        bitrate, ssrc);
  else
    gst_rtcp_packet_remove (&packet);
  return said;
}

/* rtpsession about to send @buffer (its RTCP thread): TWCC feedback is
 * counted and never suppressed; a regular report (it starts with an RR
 * or SR) takes a REMB about the video once a second, when the answer
 * took REMB. */
static gboolean
on_sending_rtcp (GObject * session, GstBuffer * buffer, gboolean early,
    GstSessionStage * stage)
{
  GstRTCPBuffer rtcp = GST_RTCP_BUFFER_INIT;
  GstRTCPPacket first;
  GstRTCPType type;
  gint64 now = g_get_monotonic_time ();
  guint64 octets = 0, packets = 0, bitrate = 0, said;
  gint64 lost = 0;
  guint32 sender = 0, ssrc;
  gboolean due;

  if (!gst_buffer_is_writable (buffer) ||
      !gst_rtcp_buffer_map (buffer, GST_MAP_READWRITE, &rtcp))
    return FALSE;
  if (!gst_rtcp_buffer_get_first_packet (&rtcp, &first)) {
    gst_rtcp_buffer_unmap (&rtcp);
    return FALSE;
  }
  type = gst_rtcp_packet_get_type (&first);
  if (type == GST_RTCP_TYPE_RTPFB &&
      gst_rtcp_packet_fb_get_type (&first) == GST_RTCP_RTPFB_TYPE_TWCC) {
    gst_rtcp_buffer_unmap (&rtcp);
    GST_LOG_OBJECT (stage->owner, "TWCC feedback of %" G_GSIZE_FORMAT
        " bytes", gst_buffer_get_size (buffer));
    g_mutex_lock (&stage->lock);
    stage->feedback.twcc_sent++;
    g_mutex_unlock (&stage->lock);
    return TRUE;
  }
  if (type == GST_RTCP_TYPE_RR)
    sender = gst_rtcp_packet_rr_get_ssrc (&first);
  else if (type == GST_RTCP_TYPE_SR)
    gst_rtcp_packet_sr_get_sender_info (&first, &sender, NULL, NULL, NULL,
        NULL);
  g_mutex_lock (&stage->lock);
  ssrc = stage->ssrc[GST_SESSION_OUTPUT_VIDEO];
  due = !stage->dead && stage->feedback.remb && ssrc != 0 && sender != 0 &&
      (stage->remb.at == 0 || now - stage->remb.at >=
      GST_SESSION_REMB_INTERVAL);
  g_mutex_unlock (&stage->lock);
  if (due && stream_counters (session, ssrc, &octets, &packets, &lost)) {
    g_mutex_lock (&stage->lock);
    due = gst_session_remb_update (&stage->remb, now, octets, packets, lost,
        &bitrate);
    g_mutex_unlock (&stage->lock);
    if (due && (said = add_remb (&rtcp, sender, ssrc, bitrate)) > 0) {
      g_mutex_lock (&stage->lock);
      stage->feedback.remb_bitrate = said;
      stage->feedback.rembs_sent++;
      g_mutex_unlock (&stage->lock);
    }
  }
  gst_rtcp_buffer_unmap (&rtcp);
  return FALSE;
}

/* The rtpsession of the bundled session sends the stage's feedback */
void
stage_watch_feedback (GstSessionStage * stage, GstElement * rtpsession)
{
  GObject *internal = NULL;

  g_object_get (rtpsession, "internal-session", &internal, NULL);
  if (internal == NULL)
    return;
  g_mutex_lock (&stage->lock);
  if (stage->rtp_session == NULL && !stage->dead) {
    /* no stage reference: disconnected in gst_session_stage_free */
    g_signal_connect (internal, "on-sending-rtcp",
        G_CALLBACK (on_sending_rtcp), stage);
    stage->rtp_session = internal;
    internal = NULL;
  }
  g_mutex_unlock (&stage->lock);
  g_clear_object (&internal);
}

/* Once the pipeline is in NULL (its RTCP thread joined) */
void
stage_unwatch_feedback (GstSessionStage * stage)
{
  GObject *session;

  g_mutex_lock (&stage->lock);
  session = stage->rtp_session;
  stage->rtp_session = NULL;
  g_mutex_unlock (&stage->lock);
  if (session) {
    g_signal_handlers_disconnect_by_data (session, stage);
    g_object_unref (session);
  }
}

void
gst_session_stage_get_feedback_stats (GstSessionStage * stage,
    GstSessionFeedbackStats * stats)
{
  g_mutex_lock (&stage->lock);
  *stats = stage->feedback;
  g_mutex_unlock (&stage->lock);
}

/* the rtpsession's view of @ssrc: bytes, and the feedback sent about it */
static void
session_source_stats (GstSessionStage * stage, guint ssrc,
    GstSessionTransportStats * stats)
{
  GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (stage->webrtc),
      "rtpbin");
  GstElement *session = NULL;
  GstStructure *all = NULL;
  const GValue *sources;
  guint i, n;

  if (rtpbin == NULL)
    return;
  /* one bundled session, id 0 */
  g_signal_emit_by_name (rtpbin, "get-session", 0u, &session);
  gst_object_unref (rtpbin);
  if (session == NULL)
    return;
  g_object_get (session, "stats", &all, NULL);
  gst_object_unref (session);
  if (all == NULL)
    return;
  /* rtpsession gives a GValueArray (deprecated in GLib, its API here) */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  sources = gst_structure_get_value (all, "source-stats");
  n = sources && G_VALUE_HOLDS (sources, g_value_array_get_type ())?
      ((GValueArray *) g_value_get_boxed (sources))->n_values : 0;
  G_GNUC_END_IGNORE_DEPRECATIONS;
  for (i = 0; i < n; i++) {
    const GstStructure *src;
    guint id = 0;

    G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
    src = gst_value_get_structure (g_value_array_get_nth (g_value_get_boxed
            (sources), i));
    G_GNUC_END_IGNORE_DEPRECATIONS;

    if (!gst_structure_get_uint (src, "ssrc", &id) || id != ssrc)
      continue;
    gst_structure_get (src, "octets-received", G_TYPE_UINT64,
        &stats->bytes_received, "packets-received", G_TYPE_UINT64,
        &stats->packets_received, "sent-nack-count", G_TYPE_UINT,
        &stats->nacks_sent, "sent-pli-count", G_TYPE_UINT, &stats->plis_sent,
        "sent-fir-count", G_TYPE_UINT, &stats->firs_sent, NULL);
  }
  gst_structure_free (all);
}

/* webrtcbin's statistics, for one fact: the type of the local candidate
 * of the selected pair (host, srflx, prflx, relay): whether the session
 * goes through the TURN relay. Only that is kept: a relay candidate's
 * statistics name the TURN server's URL, which may carry its password. */
static void
on_webrtc_stats (GstPromise * promise, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  const GstStructure *all = NULL;
  const gchar *type = NULL;
  gint i, n;

  if (stage_promise_replied (stage, promise))
    all = gst_promise_get_reply (promise);
  n = all ? gst_structure_n_fields (all) : 0;
  for (i = 0; i < n && type == NULL; i++) {
    const GValue *v = gst_structure_get_value (all,
        gst_structure_nth_field_name (all, i));
    const GstStructure *pair, *local;
    const gchar *local_id;
    GstWebRTCStatsType t;

    if (!GST_VALUE_HOLDS_STRUCTURE (v))
      continue;
    pair = gst_value_get_structure (v);
    if (!gst_structure_get (pair, "type", GST_TYPE_WEBRTC_STATS_TYPE, &t,
            NULL) || t != GST_WEBRTC_STATS_CANDIDATE_PAIR)
      continue;
    local_id = gst_structure_get_string (pair, "local-candidate-id");
    v = local_id ? gst_structure_get_value (all, local_id) : NULL;
    if (v && GST_VALUE_HOLDS_STRUCTURE (v)) {
      local = gst_value_get_structure (v);
      type = gst_structure_get_string (local, "candidate-type");
    }
  }
  if (type) {
    g_mutex_lock (&stage->lock);
    if (g_strcmp0 (stage->candidate_type, type) != 0) {
      g_free (stage->candidate_type);
      stage->candidate_type = g_strdup (type);
    }
    g_mutex_unlock (&stage->lock);
  }
  stage_promise_release (stage, STAGE_PROMISE_STATS, promise);
}

/* Asks webrtcbin for its statistics; the answer comes on its thread and
 * updates what gst_session_stage_get_candidate_type returns. Skipped
 * while the last request is still unanswered (see stage_promise_new). */
void
gst_session_stage_query_transport (GstSessionStage * stage)
{
  GstPromise *promise;

  if (stage->webrtc == NULL)
    return;
  promise = stage_promise_new (stage, STAGE_PROMISE_STATS, on_webrtc_stats);
  if (promise == NULL)
    return;
  g_signal_emit_by_name (stage->webrtc, "get-stats", NULL, promise);
  gst_promise_unref (promise);
}

/* The local candidate type of the selected pair, or NULL (not known yet).
 * Free with g_free. */
gchar *
gst_session_stage_get_candidate_type (GstSessionStage * stage)
{
  gchar *type;

  g_mutex_lock (&stage->lock);
  type = g_strdup (stage->candidate_type);
  g_mutex_unlock (&stage->lock);
  return type;
}

/* A new jitterbuffer latency from now on (the path turned out slower than
 * the latency allows a retransmission). Call on the context. */
void
gst_session_stage_set_latency (GstSessionStage * stage, guint latency_ms)
{
  GstElement *jb;
  gboolean flowing;
  guint ssrc;

  g_mutex_lock (&stage->lock);
  stage->config.latency_ms = latency_ms;
  ssrc = stage->ssrc[GST_SESSION_OUTPUT_VIDEO];
  flowing = stage_streams_out (stage);
  g_mutex_unlock (&stage->lock);
  /* until every stream's first packet came, webrtcbin keeps its start
   * latency (on loopback the jitterbuffers' first packets wait it); then
   * raise_latency takes this one. A jitterbuffer made meanwhile takes it
   * (stage_on_new_jitterbuffer) */
  if (flowing)
    g_object_set (stage->webrtc, "latency", latency_ms, NULL);
  if (!stage->config.loopback_only
      && (jb = stage_find_jitterbuffer (stage, ssrc))) {
    stage_set_dropout (stage, jb);
    gst_object_unref (jb);
  }
}

/* Gathers what the jitterbuffer and rtpsession know of the @kind stream.
 * Any thread; bounded (two property reads). */
void
gst_session_stage_get_transport_stats (GstSessionStage * stage,
    GstSessionOutputKind kind, GstSessionTransportStats * stats)
{
  GstElement *jb;
  GstStructure *s = NULL;
  guint ssrc;
  guint64 rtt = 0, jitter = 0;

  memset (stats, 0, sizeof (*stats));
  stats->rtx_round_trip = GST_CLOCK_TIME_NONE;
  g_mutex_lock (&stage->lock);
  ssrc = stage->ssrc[kind];
  g_mutex_unlock (&stage->lock);
  if (ssrc == 0 || stage->webrtc == NULL)
    return;
  jb = stage_find_jitterbuffer (stage, ssrc);
  stats->valid = TRUE;
  session_source_stats (stage, ssrc, stats);
  if (jb == NULL)
    return;
  g_object_get (jb, "stats", &s, "latency", &stats->jitterbuffer_latency_ms,
      NULL);
  gst_object_unref (jb);
  if (s == NULL)
    return;
  gst_structure_get (s, "num-lost", G_TYPE_UINT64, &stats->packets_lost,
      "rtx-success-count", G_TYPE_UINT64, &stats->packets_recovered,
      "rtx-count", G_TYPE_UINT64, &stats->retransmissions_asked,
      "rtx-rtt", G_TYPE_UINT64, &rtt, "avg-jitter", G_TYPE_UINT64, &jitter,
      NULL);
  stats->jitter = jitter;
  if (rtt > 0)
    stats->rtx_round_trip = rtt;
  gst_structure_free (s);
}
