/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session/stats element message: what the transport did (from the
 * jitterbuffer and rtpsession of the session stage) and what the output
 * made of it, per stream, every stats-interval ms. Field by field in
 * docs/worldsrc.md ("session/stats").
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <gobject/gvaluecollector.h>

#include "gstsessionstats.h"

static const gchar *const prefix[2] = { "video", "audio" };

void
gst_session_stats_reset (GstSessionStatsState * state)
{
  memset (state, 0, sizeof (*state));
}

static void
set (GstStructure * s, GstSessionOutputKind kind, const gchar * name,
    GType type, ...)
{
  gchar *field = g_strdup_printf ("%s-%s", prefix[kind], name);
  GValue v = G_VALUE_INIT;
  va_list args;
  gchar *err = NULL;

  va_start (args, type);
  G_VALUE_COLLECT_INIT (&v, type, args, 0, &err);
  va_end (args);
  if (err == NULL)
    gst_structure_take_value (s, field, &v);
  g_free (err);
  g_free (field);
}

/* Builds the message's structure; @state keeps what the rates need.
 * Call on the element's context (it owns @stage). */
GstStructure *
gst_session_stats_build (GstSessionStage * stage,
    GstSessionOutput * outputs[2], guint session,
    GstSessionStatsState * state, gint64 now)
{
  GstStructure *s = gst_structure_new ("session/stats", "session",
      G_TYPE_UINT, session, NULL);
  GstClockTime rtt = GST_CLOCK_TIME_NONE;
  guint latency = 0;
  gint k;

  for (k = 0; k < 2; k++) {
    GstSessionTransportStats t;
    GstSessionOutputStats o;
    gdouble secs = state->at ? (now - state->at) / 1e6 : 0;

    if (outputs[k] == NULL)
      continue;
    gst_session_stage_get_transport_stats (stage, k, &t);
    gst_session_output_get_stats (outputs[k], &o);
    set (s, k, "packets-received", G_TYPE_UINT64, t.packets_received);
    set (s, k, "packets-lost", G_TYPE_UINT64, t.packets_lost);
    set (s, k, "packets-recovered", G_TYPE_UINT64, t.packets_recovered);
    set (s, k, "retransmissions-asked", G_TYPE_UINT64, t.retransmissions_asked);
    set (s, k, "nacks-sent", G_TYPE_UINT, t.nacks_sent);
    set (s, k, "plis-sent", G_TYPE_UINT, t.plis_sent + t.firs_sent);
    set (s, k, "jitter-ms", G_TYPE_DOUBLE, t.jitter / 1e6);
    set (s, k, "bitrate", G_TYPE_UINT64, secs > 0 &&
        t.bytes_received >= state->bytes[k] ?
        (guint64) ((t.bytes_received - state->bytes[k]) * 8 / secs) :
        (guint64) 0);
    state->bytes[k] = t.bytes_received;
    if (k == GST_SESSION_OUTPUT_VIDEO) {
      set (s, k, "frames-in", G_TYPE_UINT64, o.in);
      set (s, k, "frames-repeated", G_TYPE_UINT64, o.repeated);
      set (s, k, "frames-dropped", G_TYPE_UINT64, o.dropped);
      set (s, k, "frames-scaled", G_TYPE_UINT64, o.scaled);
      set (s, k, "frames-refused", G_TYPE_UINT64, o.refused);
      set (s, k, "frames-late", G_TYPE_UINT64, o.late);
      set (s, k, "received-width", G_TYPE_INT, o.received_width);
      set (s, k, "received-height", G_TYPE_INT, o.received_height);
      set (s, k, "arrival-to-output-ms", G_TYPE_DOUBLE, o.arrival_to_output_ms);
      set (s, k, "output-ahead-ms", G_TYPE_DOUBLE, o.ahead_ms);
    } else {
      set (s, k, "buffers-in", G_TYPE_UINT64, o.in);
      set (s, k, "silence-ms", G_TYPE_DOUBLE, o.filled / 1e6);
      set (s, k, "buffers-dropped", G_TYPE_UINT64, o.dropped);
    }
    set (s, k, "queue-dropped", G_TYPE_UINT64, o.queue_dropped);
    if (GST_CLOCK_TIME_IS_VALID (t.rtx_round_trip))
      rtt = t.rtx_round_trip;
    latency = MAX (latency, t.jitterbuffer_latency_ms);
  }
  {
    gchar *type = gst_session_stage_get_candidate_type (stage);

    gst_structure_set (s, "candidate-type", G_TYPE_STRING, type ? type : "",
        NULL);
    g_free (type);
    /* the answer comes by the next message */
    gst_session_stage_query_transport (stage);
  }
  {
    GstSessionFeedbackStats f;

    /* what the sender was told; video-bitrate is what arrives */
    gst_session_stage_get_feedback_stats (stage, &f);
    gst_structure_set (s, "remb-bitrate", G_TYPE_UINT64, f.remb_bitrate,
        "rembs-sent", G_TYPE_UINT64, f.rembs_sent, "twcc-feedback-sent",
        G_TYPE_UINT64, f.twcc_sent, NULL);
  }
  gst_structure_set (s, "round-trip-ms", G_TYPE_DOUBLE,
      GST_CLOCK_TIME_IS_VALID (rtt) ? rtt / 1e6 : -1.0,
      "jitterbuffer-latency-ms", G_TYPE_UINT, latency, NULL);
  state->at = now;
  return s;
}
