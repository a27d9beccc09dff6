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
#define GST_SESSION_LATENCY_FLOOR_MS 40u
/* the most it rises to (ms) */
#define GST_SESSION_LATENCY_MAX_MS 500u

/* the round trips of the last few probes of the path (the element's own
 * pings on the control channel; NONE for one that did not count) and when
 * the next one is due */
#define GST_SESSION_PATH_SAMPLES 5

typedef struct
{
  GstClockTime samples[GST_SESSION_PATH_SAMPLES];
  guint n_samples;
  guint next_sample;
  guint sent;                   /* probes sent this session */
  gint64 last_sent;             /* monotonic µs */
  gint64 last_pong;             /* monotonic µs: the last pong's arrival */
  gint64 last_ping;             /* monotonic µs: its ping's departure */
  guint dropped;                /* round trips not counted: queued pongs */
} GstSessionPathProbe;

G_GNUC_INTERNAL
void gst_session_path_probe_reset (GstSessionPathProbe * probe);

/* Whether a probe is due at @now (monotonic µs): at once, again 250 ms
 * later, a third 1 s after that, then every 2 s. */
G_GNUC_INTERNAL
gboolean gst_session_path_probe_due (const GstSessionPathProbe * probe,
    gint64 now);

G_GNUC_INTERNAL
void gst_session_path_probe_sent (GstSessionPathProbe * probe, gint64 now);

/* A pong that came at @now (monotonic µs), @round_trip after its ping.
 * Two pongs that come together (within 50 ms), their pings 100 ms or more
 * further apart, waited
 * behind a lost message on the ordered channel (the channel's
 * retransmission timeout, 1 s): neither round trip counts (2 of 4 runs at
 * 2 % loss took 1050 ms from such a first pong as the path's round trip,
 * and the latency to 500 ms for good). */
G_GNUC_INTERNAL
void gst_session_path_probe_add (GstSessionPathProbe * probe,
    GstClockTime round_trip, gint64 now);

/* the probes' round trip counts once this many counted */
#define GST_SESSION_PATH_MIN_SAMPLES 2

/* The least round trip of the last GST_SESSION_PATH_SAMPLES probes, or
 * GST_CLOCK_TIME_NONE before GST_SESSION_PATH_MIN_SAMPLES counted: a
 * first pong alone may have waited behind a lost message that the second
 * did not. */
G_GNUC_INTERNAL
GstClockTime gst_session_path_probe_round_trip (const GstSessionPathProbe *
    probe);

/* the path's jitter and retransmissions' round trip, read once a second:
 * a rise asks for them sustained */
#define GST_SESSION_PATH_READINGS 3

typedef struct
{
  GstClockTime jitter[GST_SESSION_PATH_READINGS];
  GstClockTime rtx_round_trip[GST_SESSION_PATH_READINGS];
  guint n_readings;
  guint next_reading;
  gint64 last_read;             /* monotonic µs */
} GstSessionPathReadings;

G_GNUC_INTERNAL
void gst_session_path_readings_reset (GstSessionPathReadings * readings);

/* A reading at @now (monotonic µs) of the interarrival jitter and the
 * retransmissions' round trip (NONE: none measured yet), kept when the
 * last one kept is a second old or more: TRUE when kept. */
G_GNUC_INTERNAL
gboolean gst_session_path_readings_add (GstSessionPathReadings * readings,
    GstClockTime jitter, GstClockTime rtx_round_trip, gint64 now);

/* What the path kept for GST_SESSION_PATH_READINGS readings (3 s): the
 * least of them, GST_CLOCK_TIME_NONE before there are that many valid
 * ones. The jitterbuffer's figures are running averages (the jitter moves
 * by a 16th of each packet's, the round trip by an 8th of each
 * retransmission's): a delay spike of the path, or a stall of the machine,
 * lifts them for a second or more (a 600 ms spike: 28 ms of jitter on a
 * path of none, 280 ms of latency for good, since the latency never comes
 * down). */
G_GNUC_INTERNAL
GstClockTime gst_session_path_readings_jitter (const GstSessionPathReadings *
    readings);
G_GNUC_INTERNAL
GstClockTime gst_session_path_readings_rtx_round_trip (const
    GstSessionPathReadings * readings);

/* The latency in ms, rounded up to 10 ms, that lets a lost packet be asked
 * for again twice and come before its time (a request or its
 * retransmission may be lost too: with one request's time, 2 % loss each
 * way lost a packet for good in 2 of 4 ten-second runs): until the
 * jitterbuffer asks (twice the jitter, at least 20 ms, and at least
 * @frame_interval: a frame's last packet lost is only missed when the next
 * frame comes), the round trip (the larger of the probes' and the
 * retransmissions': a retransmission waits in the queues a probe's least
 * of five escapes; either NONE when not measured: 0), the
 * retransmission's own jitter and a margin; then the jitterbuffer's retry
 * timeout (the round trip and twice the jitter) and a second round trip.
 * With nothing measured it is what the frame interval alone asks for. At
 * least GST_SESSION_LATENCY_FLOOR_MS, at most GST_SESSION_LATENCY_MAX_MS. */
G_GNUC_INTERNAL
guint gst_session_latency_for_path (GstClockTime round_trip,
    GstClockTime rtx_round_trip, GstClockTime jitter,
    GstClockTime frame_interval);

/* interactive playout: the least placement delay, ms */
#define GST_SESSION_LATENCY_INTERACTIVE_FLOOR_MS 10u

/* Interactive playout, as libwebrtc's frame timing: how long after its
 * least delayed arrival a frame is shown, ms: three times the @jitter
 * (NONE: not measured yet) and a margin for the machine. A frame that
 * waited for a retransmission comes later than that: it is shown late
 * (the jitterbuffer still waits for it, so that it can be decoded). */
G_GNUC_INTERNAL
guint gst_session_latency_interactive (GstClockTime jitter);

G_END_DECLS

#endif
