/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * latency=-1 off loopback: the jitterbuffer's latency for the path. The
 * latency decides both how late media is shown (the output places it
 * that much after its arrival) and whether a lost packet's retransmission
 * can still be used: it is the round trip plus what a retransmission
 * waits for, from the path's own measurements, not a fixed figure.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsessionlatency.h"

/* rtpjitterbuffer's automatic rtx-delay: twice the jitter (or half the
 * packet spacing), at least this */
#define NACK_WAIT_MIN_MS 20u
/* the sender's answer to a NACK, a frame's packets spread, the rest */
#define MARGIN_MS 20u

/* the first probe at once, a second one soon (the first may be lost),
 * then every 2 s: one small message each */
#define PROBE_SOON_US (250 * G_TIME_SPAN_MILLISECOND)
#define PROBE_EVERY_US (2 * G_TIME_SPAN_SECOND)

void
gst_session_path_probe_reset (GstSessionPathProbe * probe)
{
  memset (probe, 0, sizeof (*probe));
}

gboolean
gst_session_path_probe_due (const GstSessionPathProbe * probe, gint64 now)
{
  gint64 wait = probe->sent < 2 ? PROBE_SOON_US : PROBE_EVERY_US;

  return probe->sent == 0 || now - probe->last_sent >= wait;
}

void
gst_session_path_probe_sent (GstSessionPathProbe * probe, gint64 now)
{
  probe->sent++;
  probe->last_sent = now;
}

void
gst_session_path_probe_add (GstSessionPathProbe * probe,
    GstClockTime round_trip)
{
  if (!GST_CLOCK_TIME_IS_VALID (round_trip))
    return;
  probe->samples[probe->next_sample] = round_trip;
  probe->next_sample = (probe->next_sample + 1) % GST_SESSION_PATH_SAMPLES;
  probe->n_samples = MIN (probe->n_samples + 1, GST_SESSION_PATH_SAMPLES);
}

GstClockTime
gst_session_path_probe_round_trip (const GstSessionPathProbe * probe)
{
  GstClockTime least = GST_CLOCK_TIME_NONE;
  guint i;

  for (i = 0; i < probe->n_samples; i++)
    least = MIN (least, probe->samples[i]);
  return least;
}

guint
gst_session_latency_for_path (GstClockTime round_trip,
    GstClockTime rtx_round_trip, GstClockTime jitter,
    GstClockTime frame_interval)
{
  guint64 rt = 0, j, ask, ms;

  if (GST_CLOCK_TIME_IS_VALID (round_trip))
    rt = round_trip;
  if (GST_CLOCK_TIME_IS_VALID (rtx_round_trip))
    rt = MAX (rt, rtx_round_trip);
  rt /= GST_MSECOND;
  j = GST_CLOCK_TIME_IS_VALID (jitter) ? jitter / GST_MSECOND : 0;
  ask = MAX (NACK_WAIT_MIN_MS, 2 * j);
  if (GST_CLOCK_TIME_IS_VALID (frame_interval))
    ask = MAX (ask, (frame_interval + GST_MSECOND - 1) / GST_MSECOND);
  /* the first request and its retransmission, then the second */
  ms = ask + rt + 2 * j + MARGIN_MS + rt + 2 * j;
  ms = (ms + 9) / 10 * 10;
  return (guint) CLAMP (ms, GST_SESSION_LATENCY_START_MS,
      GST_SESSION_LATENCY_MAX_MS);
}
