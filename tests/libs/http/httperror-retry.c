/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The retry decision and the backoff policy of spec 001 ("Errors", "Rate
 * limit errors"): rate limits and their reset, statuses without a known
 * type, and the policy (its backoff, jitter and attempts).
 */

#include <math.h>
#include "httperror-test.h"

static GstSessionRetryPolicy
no_jitter_policy (void)
{
  GstSessionRetryPolicy policy;

  gst_session_retry_policy_init (&policy);
  policy.jitter = 0.0;
  return policy;
}

/* ---------------------------------------------------------------------- */
/* Rate limits                                                            */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_ratelimit_reset_is_the_delay)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "12",
      NULL);
  GstSessionHttpError *error = parse_text (429, headers, NULL);
  GstSessionRetryPolicy policy;
  GstSessionRetryDecision d;
  gchar *text;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless_equals_int (error->status, 429);
  fail_unless (error->ratelimit_reset == 12.0);

  gst_session_retry_policy_init (&policy);
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 12 * GST_SECOND);
  /* not the backoff, at any attempt, and not capped at max_delay */
  d = gst_session_http_error_retry_decision (error, &policy, 4);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 12 * GST_SECOND);

  text = gst_session_http_error_to_string (error);
  assert_contains (text, "429");
  assert_contains (text, "rate limited");
  assert_contains (text, "12 s");
  g_free (text);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_reset_values)
{
  static const struct
  {
    const gchar *value;
    gdouble reset;
  } cases[] = {
    {"0", 0.0}, {"0.5", 0.5}, {" 45 ", 45.0}, {"59", 59.0},
    {"-5", -1}, {"soon", -1}, {"", -1}, {"12abc", -1}, {"nan", -1},
    {"inf", -1}, {"1e999", -1},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    SoupMessageHeaders *headers = make_headers ("X-RateLimit-Reset",
        cases[i].value, NULL);
    GstSessionHttpError *error = parse_text (429, headers, "");
    GstSessionRetryDecision d;

    fail_unless (error->ratelimit_reset == cases[i].reset,
        "'%s' gave %g", cases[i].value, error->ratelimit_reset);
    d = gst_session_http_error_retry_decision (error, NULL, 1);
    fail_unless (d.retry);
    if (cases[i].reset >= 0)
      fail_unless_equals_uint64 (d.delay,
          (GstClockTime) (cases[i].reset * GST_SECOND));
    gst_session_http_error_free (error);
    soup_message_headers_unref (headers);
  }
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_huge_reset_is_bounded)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset",
      "1e300", NULL);
  GstSessionHttpError *error = parse_text (429, headers, NULL);
  GstSessionRetryDecision d;

  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 24 * 3600 * GST_SECOND);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_without_reset_backs_off)
{
  GstSessionHttpError *error = parse_text (429, NULL, "Too Many Requests");

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless (error->ratelimit_reset < 0);
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_keeps_request_body)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "30",
      "X-Svc-Error-Type", "rate_limited", NULL);
  GstSessionHttpError *error = parse_text (429, headers,
      "{\"detail\": \"Too many requests for GET /runners\", "
      "\"error_type\": \"rate_limited\"}");
  GstSessionRetryDecision d;
  gchar *text;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless_equals_string (error->error_type, "rate_limited");
  fail_unless_equals_string (error->detail,
      "Too many requests for GET /runners");
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 30 * GST_SECOND);
  text = gst_session_http_error_to_string (error);
  assert_contains (text, "rate_limited");
  assert_contains (text, "Too many requests for GET /runners");
  g_free (text);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_keeps_model_body)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "3",
      NULL);
  GstSessionHttpError *error = parse_text (429, headers, ISE_BODY);
  GstSessionRetryDecision d;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
  fail_unless_equals_string (error->error_type, "internal_server_error");
  fail_unless_equals_int (error->items->len, 1);
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless_equals_uint64 (d.delay, 3 * GST_SECOND);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_with_retryable_header)
{
  SoupMessageHeaders *headers;
  GstSessionHttpError *error;
  GstSessionRetryDecision d;

  headers = make_headers ("x-ratelimit-reset", "7", "X-Svc-Retryable",
      "false", NULL);
  error = parse_text (429, headers, NULL);
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_if (d.retry);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);

  /* true: retried, still after the window */
  headers = make_headers ("x-ratelimit-reset", "7", "X-Svc-Retryable",
      "true", NULL);
  error = parse_text (429, headers, NULL);
  d = gst_session_http_error_retry_decision (error, NULL, 1);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 7 * GST_SECOND);
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_ratelimit_respects_max_attempts)
{
  SoupMessageHeaders *headers = make_headers ("x-ratelimit-reset", "5",
      NULL);
  GstSessionHttpError *error = parse_text (429, headers, NULL);
  GstSessionRetryPolicy policy;
  GstSessionRetryDecision d;

  gst_session_retry_policy_init (&policy);
  policy.max_attempts = 2;
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_unless (d.retry);
  d = gst_session_http_error_retry_decision (error, &policy, 2);
  fail_if (d.retry);
  fail_unless_equals_uint64 (d.delay, 0);
  assert_contains (d.reason, "attempts exhausted");
  gst_session_http_error_free (error);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Statuses without a known type                                          */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_auth_errors_not_retried)
{
  static const guint statuses[] = { 401, 403 };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (statuses); i++) {
    GstSessionHttpError *error;

    error = parse_text (statuses[i], NULL, "{\"detail\": \"Invalid key\"}");
    fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
    assert_first_retry (error, FALSE);
    gst_session_http_error_free (error);

    error = parse_text (statuses[i], NULL, "Unauthorized");
    assert_first_retry (error, FALSE);
    gst_session_http_error_free (error);

    /* even with a transient type */
    error = parse_text (statuses[i], NULL, "{\"detail\": \"x\", "
        "\"error_type\": \"runner_server_error\"}");
    assert_first_retry (error, FALSE);
    gst_session_http_error_free (error);
  }
}

GST_END_TEST;

GST_START_TEST (test_status_rule)
{
  static const struct
  {
    guint status;
    gboolean retry;
  } cases[] = {
    {408, TRUE}, {500, TRUE}, {502, TRUE}, {503, TRUE}, {504, TRUE},
    {400, FALSE}, {404, FALSE}, {409, FALSE}, {413, FALSE}, {422, FALSE},
    {499, FALSE}, {501, FALSE}, {505, FALSE}, {0, FALSE}, {302, FALSE},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstSessionHttpError *error = parse_text (cases[i].status, NULL,
        "<html>error</html>");

    GST_INFO ("status %u", cases[i].status);
    fail_unless_equals_int (error->status, cases[i].status);
    assert_first_retry (error, cases[i].retry);
    gst_session_http_error_free (error);
  }
}

GST_END_TEST;

GST_START_TEST (test_unknown_request_type_uses_status)
{
  GstSessionHttpError *error;

  error = parse_text (503, NULL,
      "{\"detail\": \"?\", \"error_type\": \"brand_new_type\"}");
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);

  error = parse_text (418, NULL,
      "{\"detail\": \"?\", \"error_type\": \"brand_new_type\"}");
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_mixed_items_not_retried)
{
  /* one transient item and one invalid input: retrying cannot help */
  GstSessionHttpError *error = parse_text (500, NULL,
      "{\"detail\": [{\"loc\": [\"body\"], \"msg\": \"Internal\", "
      "\"type\": \"internal_server_error\"}, {\"loc\": [\"body\", \"seed\"], "
      "\"msg\": \"Too big\", \"type\": \"less_than\", \"ctx\": {\"lt\": 10}}]}");

  fail_unless_equals_int (error->items->len, 2);
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_type_is_transient)
{
  fail_if (gst_session_http_error_type_is_transient (NULL));
  fail_if (gst_session_http_error_type_is_transient (""));
  fail_if (gst_session_http_error_type_is_transient ("brand_new_type"));
  fail_if (gst_session_http_error_type_is_transient ("REQUEST_TIMEOUT"));
  fail_unless (gst_session_http_error_type_is_transient ("request_timeout"));
  fail_unless (gst_session_http_error_type_is_transient ("internal_error"));
  fail_unless (gst_session_http_error_type_is_transient
      ("downstream_service_unavailable"));
  fail_if (gst_session_http_error_type_is_transient ("client_cancelled"));
  fail_if (gst_session_http_error_type_is_transient ("image_too_small"));
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Retry policy                                                           */
/* ---------------------------------------------------------------------- */

GST_START_TEST (test_policy_defaults)
{
  GstSessionRetryPolicy policy;

  gst_session_retry_policy_init (&policy);
  fail_unless_equals_int (policy.max_attempts, 5);
  fail_unless_equals_uint64 (policy.initial_delay, 500 * GST_MSECOND);
  fail_unless_equals_uint64 (policy.max_delay, 30 * GST_SECOND);
  fail_unless (policy.multiplier == 2.0);
  fail_unless (policy.jitter == 0.2);
}

GST_END_TEST;

GST_START_TEST (test_backoff_grows_and_is_capped)
{
  static const GstClockTime expected[] = {
    500 * GST_MSECOND, 500 * GST_MSECOND, GST_SECOND, 2 * GST_SECOND,
    4 * GST_SECOND, 8 * GST_SECOND, 16 * GST_SECOND, 30 * GST_SECOND,
    30 * GST_SECOND, 30 * GST_SECOND,
  };
  GstSessionRetryPolicy policy = no_jitter_policy ();
  guint attempt;

  /* attempt 0 counts as 1 */
  for (attempt = 0; attempt < G_N_ELEMENTS (expected); attempt++)
    fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy,
            attempt), expected[attempt]);
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy,
          1000), 30 * GST_SECOND);
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy,
          G_MAXUINT), 30 * GST_SECOND);
}

GST_END_TEST;

GST_START_TEST (test_backoff_jitter_bounds)
{
  GstSessionRetryPolicy policy;
  GstClockTime first = 0, d;
  gboolean varied = FALSE;
  guint i;

  gst_session_retry_policy_init (&policy);
  for (i = 0; i < 1000; i++) {
    /* attempt 3: 2 s +-20 % */
    d = gst_session_retry_policy_backoff (&policy, 3);
    fail_unless (d >= 1600 * GST_MSECOND && d <= 2400 * GST_MSECOND,
        "%" GST_TIME_FORMAT, GST_TIME_ARGS (d));
    if (i == 0)
      first = d;
    else if (d != first)
      varied = TRUE;
    /* at the cap: never above it */
    d = gst_session_retry_policy_backoff (&policy, 20);
    fail_unless (d >= 24 * GST_SECOND && d <= 30 * GST_SECOND,
        "%" GST_TIME_FORMAT, GST_TIME_ARGS (d));
  }
  fail_unless (varied);
}

GST_END_TEST;

GST_START_TEST (test_backoff_odd_policies)
{
  GstSessionRetryPolicy policy;
  GstClockTime d;
  guint i;

  /* jitter over 1 is clamped to 1: 0 .. 2x, never negative, never over cap */
  gst_session_retry_policy_init (&policy);
  policy.jitter = 5.0;
  for (i = 0; i < 200; i++) {
    d = gst_session_retry_policy_backoff (&policy, 2);
    fail_unless (d <= 2 * GST_SECOND);
  }

  /* negative and NaN jitter: none */
  policy = no_jitter_policy ();
  policy.jitter = -1.0;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 2),
      GST_SECOND);
  policy.jitter = NAN;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 2),
      GST_SECOND);

  /* multiplier under 1, or NaN: constant */
  policy = no_jitter_policy ();
  policy.multiplier = 0.5;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 4),
      500 * GST_MSECOND);
  policy.multiplier = NAN;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 4),
      500 * GST_MSECOND);
  policy.multiplier = INFINITY;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 4),
      30 * GST_SECOND);

  /* a tiny growth over many attempts terminates */
  policy.multiplier = 1.0000001;
  d = gst_session_retry_policy_backoff (&policy, G_MAXUINT);
  fail_unless_equals_uint64 (d, 30 * GST_SECOND);

  /* initial over the cap: the cap */
  policy = no_jitter_policy ();
  policy.initial_delay = 60 * GST_SECOND;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 1),
      30 * GST_SECOND);

  /* no initial delay: no delay */
  policy.initial_delay = 0;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 9), 0);

  /* no cap */
  policy = no_jitter_policy ();
  policy.max_delay = GST_CLOCK_TIME_NONE;
  fail_unless_equals_uint64 (gst_session_retry_policy_backoff (&policy, 11),
      512 * GST_SECOND);
  d = gst_session_retry_policy_backoff (&policy, G_MAXUINT);
  fail_unless (d > (GstClockTime) 100 * 365 * 24 * 3600 * GST_SECOND);
  fail_unless (GST_CLOCK_TIME_IS_VALID (d));

  /* NULL: the defaults */
  d = gst_session_retry_policy_backoff (NULL, 1);
  fail_unless (d >= 400 * GST_MSECOND && d <= 600 * GST_MSECOND);
}

GST_END_TEST;

GST_START_TEST (test_max_attempts)
{
  GstSessionHttpError *error = parse_text (503, NULL,
      "{\"detail\": \"No runner\", \"error_type\": "
      "\"runner_scheduling_failure\"}");
  GstSessionRetryPolicy policy = no_jitter_policy ();
  GstSessionRetryDecision d;
  guint attempt;

  /* 5 attempts in all: retried after attempts 1 to 4 */
  for (attempt = 1; attempt < 5; attempt++) {
    d = gst_session_http_error_retry_decision (error, &policy, attempt);
    fail_unless (d.retry, "attempt %u", attempt);
    fail_unless_equals_uint64 (d.delay,
        gst_session_retry_policy_backoff (&policy, attempt));
  }
  d = gst_session_http_error_retry_decision (error, &policy, 5);
  fail_if (d.retry);
  fail_unless_equals_uint64 (d.delay, 0);
  assert_contains (d.reason, "attempts exhausted");
  d = gst_session_http_error_retry_decision (error, &policy, 6);
  fail_if (d.retry);

  /* 0: unlimited */
  policy.max_attempts = 0;
  d = gst_session_http_error_retry_decision (error, &policy, 1000);
  fail_unless (d.retry);
  fail_unless_equals_uint64 (d.delay, 30 * GST_SECOND);

  /* 1: never retried */
  policy.max_attempts = 1;
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_if (d.retry);

  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_not_retryable_reason_wins_over_exhausted)
{
  GstSessionHttpError *error = parse_text (400, NULL,
      "{\"detail\": \"Bad\", \"error_type\": \"bad_request\"}");
  GstSessionRetryDecision d;

  d = gst_session_http_error_retry_decision (error, NULL, 5);
  fail_if (d.retry);
  fail_if (strstr (d.reason, "attempts exhausted") != NULL, "%s", d.reason);
  gst_session_http_error_free (error);

  d = gst_session_http_error_retry_decision (NULL, NULL, 1);
  fail_if (d.retry);
}

GST_END_TEST;

static Suite *
httperror_retry_suite (void)
{
  Suite *s = suite_create ("httperror-retry");
  TCase *tc_ratelimit = tcase_create ("ratelimit");
  TCase *tc_retry = tcase_create ("retry");

  suite_add_tcase (s, tc_ratelimit);
  tcase_add_test (tc_ratelimit, test_ratelimit_reset_is_the_delay);
  tcase_add_test (tc_ratelimit, test_ratelimit_reset_values);
  tcase_add_test (tc_ratelimit, test_ratelimit_huge_reset_is_bounded);
  tcase_add_test (tc_ratelimit, test_ratelimit_without_reset_backs_off);
  tcase_add_test (tc_ratelimit, test_ratelimit_keeps_request_body);
  tcase_add_test (tc_ratelimit, test_ratelimit_keeps_model_body);
  tcase_add_test (tc_ratelimit, test_ratelimit_with_retryable_header);
  tcase_add_test (tc_ratelimit, test_ratelimit_respects_max_attempts);

  suite_add_tcase (s, tc_retry);
  tcase_add_test (tc_retry, test_auth_errors_not_retried);
  tcase_add_test (tc_retry, test_status_rule);
  tcase_add_test (tc_retry, test_unknown_request_type_uses_status);
  tcase_add_test (tc_retry, test_mixed_items_not_retried);
  tcase_add_test (tc_retry, test_type_is_transient);
  tcase_add_test (tc_retry, test_policy_defaults);
  tcase_add_test (tc_retry, test_backoff_grows_and_is_capped);
  tcase_add_test (tc_retry, test_backoff_jitter_bounds);
  tcase_add_test (tc_retry, test_backoff_odd_policies);
  tcase_add_test (tc_retry, test_max_attempts);
  tcase_add_test (tc_retry, test_not_retryable_reason_wins_over_exhausted);
  return s;
}

GST_CHECK_MAIN (httperror_retry);
