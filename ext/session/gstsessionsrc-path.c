/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session source's latency with latency=-1 off loopback: what the
 * path asks for (gstsessionlatency.c), from the start-session exchange,
 * the element's own probes of the path and the transport's statistics;
 * and the outputs' recovery delay that follows it. In the session
 * thread.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsessionsrc-private.h"

#define GST_CAT_DEFAULT gst_session_src_debug

/* Every output places media @recovery later (time for a retransmission);
 * a latency message when that changed what the pads report */
void
src_set_recovery (GstSessionSrc * self, GstClockTime recovery)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gboolean changed = FALSE;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
    if (priv->outputs[i])
      changed |= gst_session_output_set_recovery (priv->outputs[i], recovery);
  if (changed)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
}

/* the jitter counts once a stream brought this many packets */
#define JITTER_AFTER_PACKETS 100
/* the least rise: each moves the timeline (a few frames repeated, a gap in
 * the audio), small refinements of the measures are not worth one */
#define RISE_MIN_MS 30
/* the most the start-session exchange sets it to
 * (src_guess_from_signalling) */
#define GUESS_MAX_MS 200u

/* the larger jitter of the two streams, NONE before either brought
 * JITTER_AFTER_PACKETS: the jitter of a stream's first packets (queued
 * while the session set up, then a keyframe's burst) says little of the
 * path */
static GstClockTime
streams_jitter (const GstSessionTransportStats * v,
    const GstSessionTransportStats * a)
{
  GstClockTime jitter = GST_CLOCK_TIME_NONE;

  if (v->packets_received >= JITTER_AFTER_PACKETS)
    jitter = v->jitter;
  if (a->packets_received >= JITTER_AFTER_PACKETS)
    jitter = GST_CLOCK_TIME_IS_VALID (jitter) ? MAX (jitter, a->jitter) :
        a->jitter;
  return jitter;
}

static GstClockTime
frame_interval (GstSessionSrc * self)
{
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);

  return gst_util_uint64_scale_int (GST_SECOND, klass->fps_d, klass->fps_n);
}

/* latency=-1 off loopback before the path is measured: what the frame
 * interval alone asks for (LAN paths need no more: no step later) */
guint
src_start_latency (GstSessionSrc * self)
{
  return gst_session_latency_for_path (GST_CLOCK_TIME_NONE,
      GST_CLOCK_TIME_NONE, 0, frame_interval (self));
}

/* latency=-1 off loopback: the outputs' placement delay at a session's
 * start, ms. Interactive: what the jitter asks for, the jitterbuffer
 * keeping its latency for the retransmissions that still come (late) */
guint
src_start_recovery (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  if (priv->interactive)
    return MAX (priv->auto_recovery,
        gst_session_latency_interactive (GST_CLOCK_TIME_NONE));
  return MAX (src_start_latency (self), priv->auto_latency);
}


/* latency=-1 off loopback: the latency from now on, @target ms, higher
 * than before: the jitterbuffers take it (once media flows) and the
 * outputs place media that much later */
static void
take_latency (GstSessionSrc * self, guint target)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  priv->auto_latency = target;
  gst_session_stage_set_latency (priv->stage, target);
  if (!priv->interactive)
    src_set_recovery (self, target * GST_MSECOND);
}

/* interactive: the outputs place media @target ms after its least
 * delayed arrival from now on */
static void
take_recovery (GstSessionSrc * self, guint target)
{
  PRIV (self)->auto_recovery = target;
  src_set_recovery (self, target * GST_MSECOND);
}

/* latency=-1 off loopback: the jitterbuffer waits long enough for a lost
 * packet to be asked for twice (gst_session_latency_for_path: the wait
 * for the request, the round trip, the jitter). The session starts at what
 * the frame interval alone asks for and pings the service on the control
 * channel (a probe at once, 250 ms and 1.25 s later, then every 2 s:
 * gst_session_path_probe_due); the latency rises when the
 * probes' round trip, or the retransmissions' round trip and the jitter
 * the path kept for 3 s, ask for RISE_MIN_MS more (never down within the
 * element's life, so that the timeline moves only forward), and the output
 * places media that much later. Every second, or at once when a probe came. */
void
src_follow_path (GstSessionSrc * self, gint64 now)
{
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionTransportStats v, a;
  GstClockTime round_trip, rtx, jitter;
  guint current, target;

  if (!priv->follows_path || !priv->channel_open)
    return;
  if (klass->probe && gst_session_path_probe_due (&priv->path_probe, now)) {
    gboolean sent;

    g_mutex_lock (&priv->ctrl_lock);
    sent = klass->probe (self);
    gst_session_src_collect_events (self);
    g_mutex_unlock (&priv->ctrl_lock);
    if (sent)
      gst_session_path_probe_sent (&priv->path_probe, now);
  }
  if (!priv->path_measured && now - priv->latency_checked < G_USEC_PER_SEC)
    return;
  priv->latency_checked = now;
  priv->path_measured = FALSE;
  gst_session_stage_get_transport_stats (priv->stage, GST_SESSION_OUTPUT_VIDEO,
      &v);
  gst_session_stage_get_transport_stats (priv->stage, GST_SESSION_OUTPUT_AUDIO,
      &a);
  rtx = v.rtx_round_trip;
  if (GST_CLOCK_TIME_IS_VALID (a.rtx_round_trip))
    rtx = GST_CLOCK_TIME_IS_VALID (rtx) ? MAX (rtx, a.rtx_round_trip) :
        a.rtx_round_trip;
  /* a spike of the path or a stall of the machine lifts both figures for
   * a second or more: only what three readings a second apart agree on
   * counts */
  gst_session_path_readings_add (&priv->path_readings,
      streams_jitter (&v, &a), rtx, now);
  current = MAX (src_start_latency (self), priv->auto_latency);
  round_trip = gst_session_path_probe_round_trip (&priv->path_probe);
  rtx = gst_session_path_readings_rtx_round_trip (&priv->path_readings);
  jitter = gst_session_path_readings_jitter (&priv->path_readings);
  if (priv->interactive) {
    guint shown = gst_session_latency_interactive (jitter);

    /* a rise moves every later frame a whole slot: only for half of one
     * (at 16 fps, +24 ms for 9 ms of jitter put the LAN's 26 ms at 88) */
    if (shown >= src_start_recovery (self) + frame_interval (self) /
        GST_MSECOND / 2) {
      GST_INFO_OBJECT (self, "interactive: media shown %u ms after its "
          "least delayed arrival, was %u", shown, src_start_recovery (self));
      take_recovery (self, shown);
    }
  }
  target = gst_session_latency_for_path (round_trip, rtx, jitter,
      frame_interval (self));
  if (target < current + RISE_MIN_MS)
    return;
  GST_INFO_OBJECT (self, "round trip %" GST_TIME_FORMAT " (probes), %"
      GST_TIME_FORMAT " (retransmissions), jitter %" GST_TIME_FORMAT
      ": latency %u ms, was %u", GST_TIME_ARGS (round_trip),
      GST_TIME_ARGS (rtx), GST_TIME_ARGS (jitter), target, current);
  take_latency (self, target);
}

/* latency=-1 off loopback, once the answer came: the start-session
 * exchange took one round trip and the service's time, or two (a TCP
 * handshake, when the connection prepared for it was not up yet). Half of
 * it is taken as the path's round trip until a probe measures it, so that
 * media placed before the first pong is not placed again later (a step of
 * the timeline: on the bench's Internet path, 70 to 170 ms at 2 s, a
 * 120 ms gap in the director's audio). At most GUESS_MAX_MS (what
 * latency=-1 was before it followed the path): a signalling server
 * farther than the media costs no more than that; one nearer leaves the
 * probes a rise to make. Before any media, so nothing moves. */
void
src_guess_from_signalling (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionStageTimes t;
  guint current, target;

  if (!priv->follows_path || priv->stage == NULL)
    return;
  gst_session_stage_get_times (priv->stage, &t);
  if (t.gathered == 0 || t.answer_set <= t.gathered)
    return;
  target = gst_session_latency_for_path ((t.answer_set - t.gathered) *
      GST_USECOND / 2, GST_CLOCK_TIME_NONE, 0, frame_interval (self));
  target = MIN (target, GUESS_MAX_MS);
  current = MAX (src_start_latency (self), priv->auto_latency);
  if (target <= current)
    return;
  GST_INFO_OBJECT (self, "start-session took %" G_GINT64_FORMAT " ms: "
      "latency %u ms until the path is measured, was %u",
      (t.answer_set - t.gathered) / 1000, target, current);
  take_latency (self, target);
}

/* A probe's pong: the path's round trip (on the session thread) */
void
src_path_round_trip (GstSessionSrc * self, gdouble ms)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gint64 now = g_get_monotonic_time ();
  guint dropped = priv->path_probe.dropped;

  if (!(ms >= 0) || ms > 60000)
    return;
  gst_session_path_probe_add (&priv->path_probe,
      (GstClockTime) (ms * GST_MSECOND), now);
  GST_DEBUG_OBJECT (self, "probe: round trip %.1f ms%s", ms,
      priv->path_probe.dropped > dropped ? ", with the one before it queued "
      "behind a lost message: not counted" : "");
  priv->path_measured = TRUE;
  src_follow_path (self, now);
}
