/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session stage's transport statistics (gstsessionstage.c): what
 * webrtcbin's get-stats, the jitterbuffers and the rtpsession know of each
 * stream, gathered for the session/stats message, and the jitterbuffer
 * latency changed while running.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/webrtc/webrtc.h>

#include "gstsessionarrival.h"
#include "gstsessionstage-private.h"

#define GST_CAT_DEFAULT session_stage_debug

void
stage_on_new_jitterbuffer (GstElement * rtpbin, GstElement * jitterbuffer,
    guint session, guint ssrc, GstSessionStage * stage)
{
  g_object_set_data (G_OBJECT (jitterbuffer), "session-ssrc",
      GUINT_TO_POINTER (ssrc));
  /* the output tells the path's delay from the machine's by it */
  gst_session_arrival_watch (jitterbuffer, stage->config.clock);
  g_mutex_lock (&stage->lock);
  g_ptr_array_add (stage->jitterbuffers, gst_object_ref (jitterbuffer));
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
  /* until every stream's first packet came, the jitterbuffers keep
   * START_LATENCY_MS, which their first packet waits for; then
   * raise_latency takes this one (set here, the first packet of each
   * stream waited the new latency, 200 ms, and the director's streams
   * began apart: a 200-375 ms gap 2 s in on the Internet profile, 3 runs
   * of 4) */
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
