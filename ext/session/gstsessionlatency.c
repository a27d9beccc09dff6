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

/* the first probe at once, a second one soon (the first may be lost), a
 * third a second after that (past the channel's retransmission timeout:
 * not queued behind a lost message as the first two may be), then every
 * 2 s: one small message each */
#define PROBE_SOON_US (250 * G_TIME_SPAN_MILLISECOND)
#define PROBE_THIRD_US G_TIME_SPAN_SECOND
#define PROBE_EVERY_US (2 * G_TIME_SPAN_SECOND)

void
gst_session_path_probe_reset (GstSessionPathProbe * probe)
{
  memset (probe, 0, sizeof (*probe));
}

gboolean
gst_session_path_probe_due (const GstSessionPathProbe * probe, gint64 now)
{
  gint64 wait = probe->sent < 2 ? PROBE_SOON_US :
      probe->sent == 2 ? PROBE_THIRD_US : PROBE_EVERY_US;

  return probe->sent == 0 || now - probe->last_sent >= wait;
}

void
gst_session_path_probe_sent (GstSessionPathProbe * probe, gint64 now)
{
  probe->sent++;
  probe->last_sent = now;
}

/* two pongs that come this close together (one delivery of the channel),
 * their pings at least QUEUED_PINGS_US further apart: the first waited
 * for the second's time */
#define QUEUED_PONGS_US (50 * G_TIME_SPAN_MILLISECOND)
#define QUEUED_PINGS_US (100 * G_TIME_SPAN_MILLISECOND)

void
gst_session_path_probe_add (GstSessionPathProbe * probe,
    GstClockTime round_trip, gint64 now)
{
  gint64 ping;
  gboolean queued;

  if (!GST_CLOCK_TIME_IS_VALID (round_trip))
    return;
  ping = now - (gint64) (round_trip / GST_USECOND);
  queued = probe->n_samples > 0 && now - probe->last_pong < QUEUED_PONGS_US
      && ping - probe->last_ping > now - probe->last_pong + QUEUED_PINGS_US;
  if (queued) {
    /* the last pong waited for this one's time too: neither counts (a
     * slot of NONE keeps the last few probes' time) */
    guint last = (probe->next_sample + GST_SESSION_PATH_SAMPLES - 1) %
        GST_SESSION_PATH_SAMPLES;

    if (GST_CLOCK_TIME_IS_VALID (probe->samples[last]))
      probe->dropped++;
    probe->samples[last] = GST_CLOCK_TIME_NONE;
    probe->dropped++;
  }
  probe->samples[probe->next_sample] = queued ? GST_CLOCK_TIME_NONE :
      round_trip;
  probe->next_sample = (probe->next_sample + 1) % GST_SESSION_PATH_SAMPLES;
  probe->n_samples = MIN (probe->n_samples + 1, GST_SESSION_PATH_SAMPLES);
  probe->last_pong = now;
  probe->last_ping = ping;
}

GstClockTime
gst_session_path_probe_round_trip (const GstSessionPathProbe * probe)
{
  GstClockTime least = GST_CLOCK_TIME_NONE;
  guint i, counted = 0;

  for (i = 0; i < probe->n_samples; i++)
    if (GST_CLOCK_TIME_IS_VALID (probe->samples[i])) {
      least = MIN (least, probe->samples[i]);
      counted++;
    }
  return counted >= GST_SESSION_PATH_MIN_SAMPLES ? least : GST_CLOCK_TIME_NONE;
}

/* a reading a second, give or take the session thread's wakeups */
#define READ_EVERY_US (900 * G_TIME_SPAN_MILLISECOND)

void
gst_session_path_readings_reset (GstSessionPathReadings * readings)
{
  memset (readings, 0, sizeof (*readings));
}

gboolean
gst_session_path_readings_add (GstSessionPathReadings * readings,
    GstClockTime jitter, GstClockTime rtx_round_trip, gint64 now)
{
  if (readings->n_readings > 0 && now - readings->last_read < READ_EVERY_US)
    return FALSE;
  readings->jitter[readings->next_reading] = jitter;
  readings->rtx_round_trip[readings->next_reading] = rtx_round_trip;
  readings->next_reading = (readings->next_reading + 1) %
      GST_SESSION_PATH_READINGS;
  readings->n_readings = MIN (readings->n_readings + 1,
      GST_SESSION_PATH_READINGS);
  readings->last_read = now;
  return TRUE;
}

/* the least of the readings, NONE unless all are there and valid */
static GstClockTime
sustained (const GstClockTime * values, guint n)
{
  GstClockTime least = GST_CLOCK_TIME_NONE;
  guint i;

  if (n < GST_SESSION_PATH_READINGS)
    return GST_CLOCK_TIME_NONE;
  for (i = 0; i < n; i++) {
    if (!GST_CLOCK_TIME_IS_VALID (values[i]))
      return GST_CLOCK_TIME_NONE;
    least = MIN (least, values[i]);
  }
  return least;
}

GstClockTime
gst_session_path_readings_jitter (const GstSessionPathReadings * readings)
{
  return sustained (readings->jitter, readings->n_readings);
}

GstClockTime
gst_session_path_readings_rtx_round_trip (const GstSessionPathReadings *
    readings)
{
  return sustained (readings->rtx_round_trip, readings->n_readings);
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
  return (guint) CLAMP (ms, GST_SESSION_LATENCY_FLOOR_MS,
      GST_SESSION_LATENCY_MAX_MS);
}

/* interactive: the machine's own spread (decoding, the threads' wakeups) */
#define INTERACTIVE_MARGIN_MS 7u

guint
gst_session_latency_interactive (GstClockTime jitter)
{
  guint64 j = GST_CLOCK_TIME_IS_VALID (jitter) ? jitter / GST_MSECOND : 0;

  return (guint) CLAMP (3 * j + INTERACTIVE_MARGIN_MS,
      GST_SESSION_LATENCY_INTERACTIVE_FLOOR_MS, GST_SESSION_LATENCY_MAX_MS);
}
