#include <gst/check/gstcheck.h>
#include <gst/session/session.h>

GST_START_TEST (test_placeholder)
{
  fail_unless (TRUE);
}

GST_END_TEST;

static Suite *
platform_suite (void)
{
  Suite *s = suite_create ("platform");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_placeholder);
  return s;
}

GST_CHECK_MAIN (platform);
