/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * tools/service/ratecontrol.c on its own: the service's send rate from
 * the TWCC feedback's loss and queue, under the receiver's REMB.
 */

#include <gst/check/gstcheck.h>

#include "ratecontrol.h"

#define MS 1000000

/* starts at its maximum; under 2 % lost and no queue, +8 % a second up
 * to it; 2 to 10 %: held; over 10 %: down by half the loss */
GST_START_TEST (test_loss)
{
  SvcRateControl rc;
  guint i;

  svc_rate_control_init (&rc, 100000, 1500000);
  fail_unless_equals_uint64 (rc.target, 1500000);
  fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 0, 1400000, 0),
      1500000);
  fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 20, 1400000, 0),
      1350000);
  fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 5, 1200000, 0),
      1350000);
  fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 1, 1200000, 0),
      1459000);
  /* never below the minimum */
  for (i = 0; i < 50; i++)
    svc_rate_control_twcc (&rc, 100, 0, 0);
  fail_unless_equals_uint64 (rc.target, 100000);
}

GST_END_TEST;

/* a growing queue (delta of delta over 2 ms): 85 % of what arrived */
GST_START_TEST (test_queue)
{
  SvcRateControl rc;

  svc_rate_control_init (&rc, 100000, 1500000);
  fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 0, 1000000, 5 * MS),
      850000);
  fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 0, 1000000, 1 * MS),
      919000);
}

GST_END_TEST;

/* the REMB is the ceiling: the target falls to it at once and rises no
 * higher; a higher REMB lets it rise again */
GST_START_TEST (test_remb_ceiling)
{
  SvcRateControl rc;
  guint i;

  svc_rate_control_init (&rc, 100000, 1500000);
  fail_unless_equals_uint64 (svc_rate_control_remb (&rc, 300000), 300000);
  for (i = 0; i < 5; i++)
    fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 0, 300000, 0),
        300000);
  svc_rate_control_remb (&rc, 2000000);
  fail_unless_equals_uint64 (svc_rate_control_twcc (&rc, 0, 300000, 0), 325000);
  /* below the minimum: the minimum */
  fail_unless_equals_uint64 (svc_rate_control_remb (&rc, 1000), 100000);
}

GST_END_TEST;

static Suite *
ratecontrol_suite (void)
{
  Suite *s = suite_create ("ratecontrol");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_loss);
  tcase_add_test (tc, test_queue);
  tcase_add_test (tc, test_remb_ceiling);
  return s;
}

GST_CHECK_MAIN (ratecontrol);
