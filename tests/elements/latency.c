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

/* nothing measured: it starts low */
GST_START_TEST (test_starts_low)
{
  fail_unless_equals_int (gst_session_latency_for_path (NONE, NONE, NONE, 0,
          NONE), GST_SESSION_LATENCY_START_MS);
  fail_unless_equals_int (gst_session_latency_for_path (NONE, NONE, MS (3),
          0.02, MS (62)), GST_SESSION_LATENCY_START_MS);
  fail_unless (GST_SESSION_LATENCY_START_MS < 200);
}

GST_END_TEST;

/* the NACK's wait (at least 20 ms, twice the jitter), the round trip, the
 * retransmission's jitter and 20 ms, in steps of 10 ms */
GST_START_TEST (test_follows_round_trip_and_jitter)
{
  /* a LAN: 2 ms round trip, no jitter: the least */
  fail_unless_equals_int (gst_session_latency_for_path (MS (2), NONE, 0, 0,
          NONE), GST_SESSION_LATENCY_START_MS + 10);
  /* 50 ms, 4 ms of jitter: 20 + 50 + 8 + 20 */
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), NONE,
          MS (4), 0, NONE), 100);
  /* more jitter: the NACK waits twice it */
  fail_unless_equals_int (gst_session_latency_for_path (MS (120), NONE,
          MS (15), 0, NONE), 30 + 120 + 30 + 20);
  /* retransmissions that take longer than the probes say (a queue on
   * the way): the larger */
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), MS (150),
          MS (4), 0, NONE), 200);
  fail_unless_equals_int (gst_session_latency_for_path (NONE, MS (150),
          MS (4), 0, NONE), 200);
  fail_unless_equals_int (gst_session_latency_for_path (MS (150), MS (50),
          MS (4), 0, NONE), 200);
  /* bounded */
  fail_unless_equals_int (gst_session_latency_for_path (MS (5000), NONE,
          MS (900), 0, NONE), GST_SESSION_LATENCY_MAX_MS);
}

GST_END_TEST;

/* a path that loses packets often enough loses a request or its
 * retransmission too: time for a second request, a retry timeout (the
 * round trip and twice the jitter) later */
GST_START_TEST (test_second_request_on_a_lossy_path)
{
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), NONE,
          MS (4), GST_SESSION_LATENCY_SECOND_ASK / 2, NONE), 100);
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), NONE,
          MS (4), GST_SESSION_LATENCY_SECOND_ASK, NONE), 100 + 60);
  /* a frame's last packet lost is missed only when the next frame comes:
   * a frame interval before the request (16 fps: 62.5 ms) */
  fail_unless_equals_int (gst_session_latency_for_path (MS (42), NONE,
          0, 0, GST_SECOND / 16), 130);
  fail_unless_equals_int (gst_session_latency_for_path (MS (42), NONE,
          0, 0.02, GST_SECOND / 16), 170);
  fail_unless_equals_int (gst_session_latency_for_path (MS (50), NONE,
          MS (40), 0, GST_SECOND / 16), 80 + 50 + 80 + 20);
  /* 20 + 42 + 20 + 42 = 124 */
  fail_unless_equals_int (gst_session_latency_for_path (MS (40), MS (42),
          0, 0.02, NONE), 130);
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
  tcase_add_test (tc, test_starts_low);
  tcase_add_test (tc, test_follows_round_trip_and_jitter);
  tcase_add_test (tc, test_second_request_on_a_lossy_path);
  tcase_add_test (tc, test_probes);
  return s;
}

GST_CHECK_MAIN (latency);
