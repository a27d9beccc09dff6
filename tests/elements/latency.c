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
          NONE), GST_SESSION_LATENCY_START_MS);
  fail_unless (GST_SESSION_LATENCY_START_MS < 200);
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
   * the way): the larger */
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

/* probes at once, 250 ms later, then every 2 s; the least of the last
 * five round trips (one retransmitted on the channel does not count) */
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
  fail_if (gst_session_path_probe_due (&p, t + 2249000));
  fail_unless (gst_session_path_probe_due (&p, t + 2250000));

  gst_session_path_probe_add (&p, MS (1050));
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (1050));
  gst_session_path_probe_add (&p, MS (52));
  gst_session_path_probe_add (&p, NONE);
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (52));
  /* the path grew slower: once five later probes say so */
  gst_session_path_probe_add (&p, MS (90));
  gst_session_path_probe_add (&p, MS (91));
  gst_session_path_probe_add (&p, MS (92));
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (52));
  gst_session_path_probe_add (&p, MS (93));
  gst_session_path_probe_add (&p, MS (94));
  fail_unless_equals_uint64 (gst_session_path_probe_round_trip (&p), MS (90));
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
  return s;
}

GST_CHECK_MAIN (latency);
