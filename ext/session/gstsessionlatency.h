/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * latency=-1 off loopback: the jitterbuffer's latency for the path, from
 * what the session measures of it (the round trip of the element's own
 * pings, the retransmissions' round trip, the interarrival jitter).
 */

#ifndef __GST_SESSION_LATENCY_H__
#define __GST_SESSION_LATENCY_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* the least latency it takes (ms) */
#define GST_SESSION_LATENCY_START_MS 40u
/* the most it rises to (ms) */
#define GST_SESSION_LATENCY_MAX_MS 500u

/* the round trips of the last few probes of the path (the element's own
 * pings on the control channel) and when the next one is due */
#define GST_SESSION_PATH_SAMPLES 5

typedef struct
{
  GstClockTime samples[GST_SESSION_PATH_SAMPLES];
  guint n_samples;
  guint next_sample;
  guint sent;                   /* probes sent this session */
  gint64 last_sent;             /* monotonic µs */
} GstSessionPathProbe;

G_GNUC_INTERNAL
void gst_session_path_probe_reset (GstSessionPathProbe * probe);

/* Whether a probe is due at @now (monotonic µs): at once, again 250 ms
 * later, then every 2 s. */
G_GNUC_INTERNAL
gboolean gst_session_path_probe_due (const GstSessionPathProbe * probe,
    gint64 now);

G_GNUC_INTERNAL
void gst_session_path_probe_sent (GstSessionPathProbe * probe, gint64 now);

G_GNUC_INTERNAL
void gst_session_path_probe_add (GstSessionPathProbe * probe,
    GstClockTime round_trip);

/* The least round trip of the last GST_SESSION_PATH_SAMPLES probes (a
 * probe whose ping or pong was retransmitted on the channel counts one
 * retransmission too many), or GST_CLOCK_TIME_NONE. */
G_GNUC_INTERNAL
GstClockTime gst_session_path_probe_round_trip (const GstSessionPathProbe *
    probe);

/* The latency in ms, rounded up to 10 ms, that lets a lost packet be asked
 * for again twice and come before its time (a request or its
 * retransmission may be lost too: with one request's time, 2 % loss each
 * way lost a packet for good in 2 of 4 ten-second runs): until the
 * jitterbuffer asks (twice the jitter, at least 20 ms, and at least
 * @frame_interval: a frame's last packet lost is only missed when the next
 * frame comes), the round trip (the larger of the probes' and the
 * retransmissions', either NONE when not measured: 0), the
 * retransmission's own jitter and a margin; then the jitterbuffer's retry
 * timeout (the round trip and twice the jitter) and a second round trip.
 * With nothing measured it is what the frame interval alone asks for. At
 * least GST_SESSION_LATENCY_START_MS, at most GST_SESSION_LATENCY_MAX_MS. */
G_GNUC_INTERNAL
guint gst_session_latency_for_path (GstClockTime round_trip,
    GstClockTime rtx_round_trip, GstClockTime jitter,
    GstClockTime frame_interval);

G_END_DECLS

#endif
