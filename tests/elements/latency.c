/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * latency=-1 off loopback, alone (its source compiled in): the latency a
 * path's measurements give, and when the element probes the path. The
 * net suite (net/loss-*, net/latency) shows the same across an emulated
 * path.
 */

#include <gst/check/gstcheck.h>

#include "gstsessionlatency.h"

#define MS(x) ((GstClockTime) (x) * GST_MSECOND)
#define NONE GST_CLOCK_TIME_NONE

#define WORLD_FRAME (GST_SECOND / 16)
#define DIRECTOR_FRAME (GST_SECOND / 24)

/* nothing measured: what the frame interval alone asks for (a frame's
 * last packet lost is missed only when the next frame comes), and 20 ms */
GST_START_TEST (test_start)
{
  /* 62.5 + 20 */
  fail_unless_equals_int (gst_session_latency_for_path (NONE, NONE, 0,
          WORLD_FRAME), 90);
  /* 41.7 + 20 */
  fail_unless_equals_int (gst_session_latency_for_path (NONE, NONE, 0,
          DIRECTOR_FRAME), 70);
  fail_unless_equals_int (gst_session_latency_for_path (NONE, NONE, NONE,
          NONE), 40);
}

GST_END_TEST;

/* until the jitterbuffer asks (a frame, or twice the jitter, at least 20
 * ms), then two requests' round trips with twice the jitter each, and 20
 * ms, in steps of 10 ms */
GST_START_TEST (test_follows_round_trip_and_jitter)
{
  /* a LAN (2 ms, no jitter): no more than the start */
  fail_unless_equals_int (gst_session_latency_for_path (MS (2), NONE, 0,
          WORLD_FRAME), 90);
  fail_unless_equals_int (gst_session_latency_for_path (MS (2), NONE, 0,
          DIRECTOR_FRAME), 70);
  /* 50 ms, 4 ms of jitter: 62.5 + 58 + 20 + 58 */
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), NONE,
          MS (4), WORLD_FRAME), 200);
  /* 42 + 58 + 20 + 58 */
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), NONE,
          MS (4), DIRECTOR_FRAME), 180);
  /* jitter beyond a frame: the jitterbuffer waits twice it to ask */
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), NONE,
          MS (40), WORLD_FRAME), 80 + 130 + 20 + 130);
  /* retransmissions that take longer than the probes say (a queue on
   * the way, which a probe's least of five escapes): the larger */
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), MS (100),
          0, NONE), 20 + 100 + 20 + 100);
  fail_unless_equals_int (gst_session_latency_for_path (NONE, MS (100),
          0, NONE), 240);
  fail_unless_equals_int (gst_session_latency_for_path (MS (100), MS (50),
          0, NONE), 240);
  /* bounded */
  fail_unless_equals_int (gst_session_latency_for_path (MS (5000), NONE,
          MS (900), WORLD_FRAME), GST_SESSION_LATENCY_MAX_MS);
}

GST_END_TEST;

/* probes at once, 250 ms later, 1 s after that, then every 2 s; the
 * least of the last five round trips, once two counted (two pongs queued
 * behind a lost message do not) */
GST_START_TEST (test_probes)
{
  GstSessionPathProbe p;
  gint64 t = 1000000;

  gst_session_path_probe_reset (&p);
  fail_unless (gst_session_path_probe_round_trip (&p) == NONE);
  fail_unless (gst_session_path_probe_due (&p, t));
  gst_session_path_probe_sent (&p, t);
  fail_if (gst_session_path_probe_due (&p, t + 249000));
  fail_unless (gst_session_path_probe_due (&p, t + 250000));
  gst_session_path_probe_sent (&p, t + 250000);
  fail_if (gst_session_path_probe_due (&p, t + 1249000));
  fail_unless (gst_session_path_probe_due (&p, t + 1250000));
  gst_session_path_probe_sent (&p, t + 1250000);
  fail_if (gst_session_path_probe_due (&p, t + 3249000));
  fail_unless (gst_session_path_probe_due (&p, t + 3250000));

  /* a first pong a retransmission timeout late (its ping lost), the
   * next, sent 250 ms after it, queued behind it on the ordered channel:
   * they come together, and neither counts */
  t = 10000000;
  gst_session_path_probe_add (&p, MS (1050), t + 1050000);
  fail_unless (gst_session_path_probe_round_trip (&p) == NONE);
  gst_session_path_probe_add (&p, MS (801), t + 1051000);
  fail_unless_equals_int (p.dropped, 2);
  gst_session_path_probe_add (&p, NONE, t + 1052000);
  fail_unless (gst_session_path_probe_round_trip (&p) == NONE);
  /* the third, 1 s later, alone: not yet */
  gst_session_path_probe_add (&p, MS (52), t + 2302000);
  fail_unless (gst_session_path_probe_round_trip (&p) == NONE);
  gst_session_path_probe_add (&p, MS (53), t + 4303000);
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (52));
  fail_unless_equals_int (p.dropped, 2);
  /* pongs that come apart as their pings went: both count */
  gst_session_path_probe_reset (&p);
  gst_session_path_probe_add (&p, MS (130), t + 130000);
  gst_session_path_probe_add (&p, MS (120), t + 370000);
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (120));
  gst_session_path_probe_add (&p, MS (52), t + 2000000);
  gst_session_path_probe_add (&p, MS (52), t + 4000000);
  fail_unless_equals_int (p.dropped, 0);
  /* the path grew slower: once five later probes say so */
  gst_session_path_probe_add (&p, MS (90), t + 6000000);
  gst_session_path_probe_add (&p, MS (91), t + 8000000);
  gst_session_path_probe_add (&p, MS (92), t + 10000000);
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (52));
  gst_session_path_probe_add (&p, MS (93), t + 12000000);
  gst_session_path_probe_add (&p, MS (94), t + 14000000);
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (90));
}

GST_END_TEST;

/* the jitter and the retransmissions' round trip count as the least of
 * three readings a second apart: a delay spike of the path (netpath
 * --hold 4:0.6 on a 20 ms path lifted the jitterbuffer's jitter to 28 ms
 * for a second, and the latency to 280 ms for good) is not the path's;
 * what stays is */
GST_START_TEST (test_readings_sustained)
{
  GstSessionPathReadings r;
  gint64 t = 1000000;

  gst_session_path_readings_reset (&r);
  fail_unless (gst_session_path_readings_jitter (&r) == NONE);
  fail_unless (gst_session_path_readings_rtx_round_trip (&r) == NONE);
  fail_unless (gst_session_path_readings_add (&r, MS (1), NONE, t));
  /* a reading a second at most */
  fail_if (gst_session_path_readings_add (&r, MS (28), MS (43), t + 500000));
  fail_unless (gst_session_path_readings_add (&r, MS (28), MS (43),
          t + 1000000));
  fail_unless (gst_session_path_readings_jitter (&r) == NONE);
  fail_unless (gst_session_path_readings_add (&r, MS (2), MS (45),
          t + 2000000));
  fail_unless_equals_uint64 (gst_session_path_readings_jitter (&r), MS (1));
  /* no retransmission measured in the first reading: none sustained */
  fail_unless (gst_session_path_readings_rtx_round_trip (&r) == NONE);
  /* the spike: a latency of a 20 ms path with no jitter, not 280 ms */
  fail_unless_equals_int (gst_session_latency_for_path (MS (40), NONE,
          gst_session_path_readings_jitter (&r), WORLD_FRAME), 170);
  fail_unless_equals_int (gst_session_latency_for_path (MS (42), MS (42),
          MS (28), WORLD_FRAME), 280);
  /* what stays counts after three readings */
  fail_unless (gst_session_path_readings_add (&r, MS (20), MS (120),
          t + 3000000));
  fail_unless_equals_uint64 (gst_session_path_readings_rtx_round_trip (&r),
      MS (43));
  fail_unless (gst_session_path_readings_add (&r, MS (22), MS (110),
          t + 4000000));
  fail_unless_equals_uint64 (gst_session_path_readings_jitter (&r), MS (2));
  fail_unless (gst_session_path_readings_add (&r, MS (21), MS (130),
          t + 5000000));
  fail_unless_equals_uint64 (gst_session_path_readings_jitter (&r), MS (20));
  fail_unless_equals_uint64 (gst_session_path_readings_rtx_round_trip (&r),
      MS (110));
}

GST_END_TEST;

static Suite *
latency_suite (void)
{
  Suite *s = suite_create ("latency");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_start);
  tcase_add_test (tc, test_follows_round_trip_and_jitter);
  tcase_add_test (tc, test_probes);
  tcase_add_test (tc, test_readings_sustained);
  return s;
}

GST_CHECK_MAIN (latency);
