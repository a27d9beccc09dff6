/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The management rate limits of spec 001 ("Limits"): the table, fixed
 * one-minute windows, shared limits, rule 2 (runners logs also counts a
 * GET /runners/{id}), 429 resets, per-client counting for a service, and
 * thread safety.
 */

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/platform/platform.h>

#define SEC G_USEC_PER_SEC
#define T0 (1000 * SEC)

#define OP(x) GST_SESSION_MANAGEMENT_OP_##x

/* spec 001, Limits, in the order of GstSessionManagementOp */
static const guint table[GST_SESSION_MANAGEMENT_N_OPS] = {
  120, 300, 120, 120, 90, 60, 300, 120, 120
};

GST_START_TEST (test_table)
{
  GEnumClass *klass;
  guint i;

  klass = g_type_class_ref (GST_SESSION_TYPE_MANAGEMENT_OP);
  fail_unless_equals_int (klass->n_values, GST_SESSION_MANAGEMENT_N_OPS);
  g_type_class_unref (klass);

  for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++) {
    fail_unless_equals_int (gst_session_management_op_per_minute (i), table[i]);
    fail_unless (gst_session_management_op_name (i) != NULL);
  }
  fail_unless_equals_string (gst_session_management_op_name (OP
          (RUNNERS_SHELL)), "runners shell/exec");
}

GST_END_TEST;

/* Every operation passes N times in one window, and the call N+1 is
 * refused until the window (opened by the first call) ends. */
GST_START_TEST (test_each_limit_at_n_plus_one)
{
  guint op, n;

  for (op = 0; op < GST_SESSION_MANAGEMENT_N_OPS; op++) {
    GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
    guint retry_after = 99;

    for (n = 0; n < table[op]; n++) {
      fail_unless (gst_session_rate_limiter_try (limiter, op, T0 + n * 1000,
              &retry_after), "%s refused at call %u",
          gst_session_management_op_name (op), n + 1);
      fail_unless_equals_int (retry_after, 0);
    }
    fail_if (gst_session_rate_limiter_try (limiter, op, T0 + 10 * SEC,
            &retry_after), "%s allowed at call %u",
        gst_session_management_op_name (op), n + 1);
    fail_unless_equals_int (retry_after, 50);
    fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter,
            NULL, op, T0 + 10 * SEC, NULL), 0);
    gst_session_rate_limiter_unref (limiter);
  }
}

GST_END_TEST;

/* The same, limit by limit, through try_costs (a service's view). */
GST_START_TEST (test_each_limit_by_cost)
{
  guint op, n;

  for (op = 0; op < GST_SESSION_MANAGEMENT_N_OPS; op++) {
    GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
    GstSessionRateCost cost = { op, 1 };

    for (n = 0; n < table[op]; n++)
      fail_unless (gst_session_rate_limiter_try_costs (limiter, "client",
              &cost, 1, T0, NULL));
    fail_if (gst_session_rate_limiter_try_costs (limiter, "client", &cost, 1,
            T0, NULL));
    gst_session_rate_limiter_unref (limiter);
  }
}

GST_END_TEST;

GST_START_TEST (test_window_reset)
{
  GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
  const GstSessionManagementOp stop = OP (RUNNERS_STOP);
  guint n, retry_after, reset;

  /* the window opens at the first call (T0 + 10 s), not before */
  for (n = 0; n < 60; n++)
    fail_unless (gst_session_rate_limiter_try (limiter, stop,
            T0 + 10 * SEC + n * SEC / 2, NULL));
  fail_if (gst_session_rate_limiter_try (limiter, stop, T0 + 40 * SEC,
          &retry_after));
  fail_unless_equals_int (retry_after, 30);
  /* rounded up: half a second left is 1 s */
  fail_if (gst_session_rate_limiter_try (limiter, stop, T0 + 69 * SEC +
          SEC / 2, &retry_after));
  fail_unless_equals_int (retry_after, 1);
  /* refused calls were not counted and did not move the window */
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          stop, T0 + 69 * SEC, &reset), 0);
  fail_unless_equals_int (reset, 1);

  /* 60 s after the first call: a new window, opened by this call */
  fail_unless (gst_session_rate_limiter_try (limiter, stop, T0 + 70 * SEC,
          &retry_after));
  fail_unless_equals_int (retry_after, 0);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          stop, T0 + 75 * SEC, &reset), 59);
  fail_unless_equals_int (reset, 55);

  gst_session_rate_limiter_unref (limiter);
}

GST_END_TEST;

/* Rule 1: a CLI command and its SDK method are one value, one limit; the
 * two callers of GET /runners (runners list, the REST row) count both. */
GST_START_TEST (test_shared_limits)
{
  GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
  guint n;

  /* `runners stop` from the CLI and client.runners.stop() alternate */
  for (n = 0; n < 60; n++)
    fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_STOP),
            T0, NULL));
  fail_if (gst_session_rate_limiter_try (limiter, OP (RUNNERS_STOP), T0, NULL));
  /* another limit is untouched */
  fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_KILL), T0,
          NULL));

  for (n = 0; n < 60; n++) {
    fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_LIST),
            T0, NULL));
    fail_unless (gst_session_rate_limiter_try (limiter, OP (GET_RUNNERS),
            T0, NULL));
  }
  fail_if (gst_session_rate_limiter_try (limiter, OP (RUNNERS_LIST), T0, NULL));
  fail_if (gst_session_rate_limiter_try (limiter, OP (GET_RUNNERS), T0, NULL));

  gst_session_rate_limiter_unref (limiter);
}

GST_END_TEST;

/* Rule 2: runners logs also consumes one GET /runners/{runner_id}. */
GST_START_TEST (test_logs_count_get_runner)
{
  GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
  const GstSessionRateCost *costs;
  guint n, n_costs, retry_after;

  costs = gst_session_management_op_costs (OP (RUNNERS_LOGS), &n_costs);
  fail_unless_equals_int (n_costs, 2);
  fail_unless_equals_int (costs[0].limit, OP (RUNNERS_LOGS));
  fail_unless_equals_int (costs[1].limit, OP (GET_RUNNER));

  for (n = 0; n < 60; n++)
    fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_LOGS),
            T0, NULL));
  for (n = 0; n < 60; n++)
    fail_unless (gst_session_rate_limiter_try (limiter, OP (GET_RUNNER),
            T0 + SEC, NULL));
  fail_if (gst_session_rate_limiter_try (limiter, OP (GET_RUNNER), T0 + SEC,
          &retry_after));
  fail_unless_equals_int (retry_after, 59);

  /* logs has 60 left, but its GET /runners/{id} does not: refused, and
   * nothing is counted */
  fail_if (gst_session_rate_limiter_try (limiter, OP (RUNNERS_LOGS),
          T0 + 2 * SEC, &retry_after));
  fail_unless_equals_int (retry_after, 58);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          OP (RUNNERS_LOGS), T0 + 2 * SEC, NULL), 60);

  gst_session_rate_limiter_unref (limiter);
}

GST_END_TEST;

/* A 429's x-ratelimit-reset: the window is full until then. */
GST_START_TEST (test_429_reset)
{
  GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
  const GstSessionManagementOp kill = OP (RUNNERS_KILL);
  guint retry_after;

  /* counted only once here, but the service says it is full for 12 s */
  fail_unless (gst_session_rate_limiter_try (limiter, kill, T0, NULL));
  fail_unless_equals_int (gst_session_rate_limiter_note_reset (limiter, NULL,
          kill, T0 + SEC, 12.0), 12);
  fail_if (gst_session_rate_limiter_try (limiter, kill, T0 + 2 * SEC,
          &retry_after));
  fail_unless_equals_int (retry_after, 11);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          kill, T0 + 2 * SEC, NULL), 0);
  /* honoured even past the window this client counted (T0 + 60 s) ... */
  fail_unless_equals_int (gst_session_rate_limiter_note_reset (limiter, NULL,
          kill, T0 + 50 * SEC, 30.0), 30);
  fail_if (gst_session_rate_limiter_try (limiter, kill, T0 + 70 * SEC,
          &retry_after));
  fail_unless_equals_int (retry_after, 10);
  /* ... and then a new window opens */
  fail_unless (gst_session_rate_limiter_try (limiter, kill, T0 + 80 * SEC,
          NULL));
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          kill, T0 + 80 * SEC, NULL), 299);

  /* fractions round up; without the header a whole window is assumed */
  fail_unless_equals_int (gst_session_rate_limiter_note_reset (limiter, NULL,
          OP (APPS_LIST), T0, 2.5), 3);
  fail_unless_equals_int (gst_session_rate_limiter_note_reset (limiter, NULL,
          OP (APPS_RUNNERS), T0, -1), 60);
  fail_if (gst_session_rate_limiter_try (limiter, OP (APPS_RUNNERS),
          T0 + 59 * SEC, NULL));
  /* a reset of 0 ends the window now */
  fail_unless_equals_int (gst_session_rate_limiter_note_reset (limiter, NULL,
          OP (APPS_RUNNERS), T0 + 59 * SEC, 0), 0);
  fail_unless (gst_session_rate_limiter_try (limiter, OP (APPS_RUNNERS),
          T0 + 59 * SEC, NULL));

  gst_session_rate_limiter_unref (limiter);
}

GST_END_TEST;

/* A service: requests by path, counted per client key. */
GST_START_TEST (test_service_requests)
{
  GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
  const GstSessionRateCost *costs;
  guint n, n_costs, retry_after;

  fail_unless (gst_session_management_request_costs ("GET", "/runners/r-1",
          &costs, &n_costs));
  fail_unless_equals_int (n_costs, 1);
  fail_unless_equals_int (costs[0].limit, OP (GET_RUNNER));
  fail_unless (gst_session_management_request_costs ("GET",
          "/runners/r-1/logs?tail=10", &costs, &n_costs));
  fail_unless_equals_int (n_costs, 1);
  fail_unless_equals_int (costs[0].limit, OP (RUNNERS_LOGS));
  fail_unless (gst_session_management_request_costs ("GET", "/runners",
          &costs, &n_costs));
  fail_unless_equals_int (n_costs, 2);
  fail_unless (gst_session_management_request_costs ("GET",
          "/apps/owner%2Fapp/runners", &costs, &n_costs));
  fail_unless_equals_int (costs[0].limit, OP (APPS_RUNNERS));
  /* a service that decodes paths sees the app id's slash */
  fail_unless (gst_session_management_request_costs ("GET",
          "/apps/owner/app/runners/", &costs, &n_costs));
  fail_unless_equals_int (costs[0].limit, OP (APPS_RUNNERS));
  fail_if (gst_session_management_request_costs ("GET", "/apps//runners",
          NULL, NULL));
  fail_if (gst_session_management_request_costs ("GET", "/apps/runners",
          NULL, NULL));
  fail_if (gst_session_management_request_costs ("GET", "runners", NULL, NULL));
  fail_unless (gst_session_management_request_costs ("post",
          "/runners/r-1/exec", &costs, &n_costs));
  fail_unless_equals_int (costs[0].limit, OP (RUNNERS_SHELL));
  /* not limited: app endpoints, metadata, wrong methods, other shapes */
  fail_if (gst_session_management_request_costs ("POST", "/owner/app",
          NULL, NULL));
  fail_if (gst_session_management_request_costs ("GET", "/v1/meta", NULL,
          NULL));
  fail_if (gst_session_management_request_costs ("GET", "/runners/r-1/stop",
          NULL, NULL));
  fail_if (gst_session_management_request_costs ("GET", "/runners//logs",
          NULL, NULL));
  fail_unless (gst_session_rate_limiter_try_request (limiter, "a", "POST",
          "/owner/app", T0, NULL));

  /* client a uses up its stops; client b is counted apart */
  for (n = 0; n < 60; n++)
    fail_unless (gst_session_rate_limiter_try_request (limiter, "a", "POST",
            "/runners/r-1/stop", T0, NULL));
  fail_if (gst_session_rate_limiter_try_request (limiter, "a", "POST",
          "/runners/r-2/stop", T0 + 15 * SEC, &retry_after));
  fail_unless_equals_int (retry_after, 45);
  fail_unless (gst_session_rate_limiter_try_request (limiter, "b", "POST",
          "/runners/r-1/stop", T0 + 15 * SEC, NULL));
  fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_STOP),
          T0 + 15 * SEC, NULL));

  /* the two requests of runners logs add up to the operation's costs */
  for (n = 0; n < 120; n++) {
    fail_unless (gst_session_rate_limiter_try_request (limiter, "c", "GET",
            "/runners/r-1", T0, NULL));
    fail_unless (gst_session_rate_limiter_try_request (limiter, "c", "GET",
            "/runners/r-1/logs", T0, NULL));
  }
  fail_if (gst_session_rate_limiter_try_request (limiter, "c", "GET",
          "/runners/r-1", T0, NULL));
  fail_if (gst_session_rate_limiter_try_request (limiter, "c", "GET",
          "/runners/r-1/logs", T0, NULL));

  /* idle clients are forgotten once their windows are over */
  gst_session_rate_limiter_prune (limiter, T0 + 61 * SEC);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, "a",
          OP (RUNNERS_STOP), T0 + 61 * SEC, NULL), 60);

  gst_session_rate_limiter_unref (limiter);
}

GST_END_TEST;

static gint64
fake_clock (gpointer user_data)
{
  return *(gint64 *) user_data;
}

GST_START_TEST (test_clock_and_limits)
{
  GstSessionRateLimiter *limiter = gst_session_rate_limiter_new ();
  gint64 now = 5 * SEC;
  guint n;

  gst_session_rate_limiter_set_clock (limiter, fake_clock, &now, NULL);
  fail_unless_equals_int64 (gst_session_rate_limiter_get_time (limiter),
      5 * SEC);

  gst_session_rate_limiter_set_limit (limiter, OP (RUNNERS_STOP), 2);
  fail_unless_equals_int (gst_session_rate_limiter_get_limit (limiter,
          OP (RUNNERS_STOP)), 2);
  fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_STOP),
          gst_session_rate_limiter_get_time (limiter), NULL));
  fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_STOP),
          gst_session_rate_limiter_get_time (limiter), NULL));
  fail_if (gst_session_rate_limiter_try (limiter, OP (RUNNERS_STOP),
          gst_session_rate_limiter_get_time (limiter), NULL));
  now += 60 * SEC;
  fail_unless (gst_session_rate_limiter_try (limiter, OP (RUNNERS_STOP),
          gst_session_rate_limiter_get_time (limiter), NULL));

  /* 0: no limit */
  gst_session_rate_limiter_set_limit (limiter, OP (APPS_LIST), 0);
  for (n = 0; n < 1000; n++)
    fail_unless (gst_session_rate_limiter_try (limiter, OP (APPS_LIST), now,
            NULL));
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          OP (APPS_LIST), now, NULL), G_MAXUINT);

  gst_session_rate_limiter_set_clock (limiter, NULL, NULL, NULL);
  fail_unless (gst_session_rate_limiter_get_time (limiter) > 0);
  gst_session_rate_limiter_unref (limiter);
}

GST_END_TEST;

#define N_THREADS 8
#define TRIES_PER_THREAD 200

typedef struct
{
  GstSessionRateLimiter *limiter;
  gint allowed;
} Shared;

static gpointer
hammer (gpointer data)
{
  Shared *shared = data;
  guint i;

  for (i = 0; i < TRIES_PER_THREAD; i++) {
    if (gst_session_rate_limiter_try (shared->limiter, OP (APPS_RUNNERS), T0,
            NULL))
      g_atomic_int_inc (&shared->allowed);
    /* a service's clients and 429s on the side */
    gst_session_rate_limiter_try_key (shared->limiter, i % 2 ? "x" : "y",
        OP (RUNNERS_LOGS), T0, NULL);
    if (i % 50 == 0)
      gst_session_rate_limiter_note_reset (shared->limiter, "z",
          OP (RUNNERS_KILL), T0, 1);
  }
  return NULL;
}

/* 1600 tries from 8 threads at once: exactly the limit passes. */
GST_START_TEST (test_threads)
{
  Shared shared = { gst_session_rate_limiter_new (), 0 };
  GThread *threads[N_THREADS];
  guint i;

  for (i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("hammer", hammer, &shared);
  for (i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);

  fail_unless_equals_int (shared.allowed, 300);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (shared.limiter,
          "x", OP (GET_RUNNER), T0, NULL), 0);
  gst_session_rate_limiter_unref (shared.limiter);
}

GST_END_TEST;

static Suite *
ratelimit_suite (void)
{
  Suite *s = suite_create ("ratelimit");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_table);
  tcase_add_test (tc, test_each_limit_at_n_plus_one);
  tcase_add_test (tc, test_each_limit_by_cost);
  tcase_add_test (tc, test_window_reset);
  tcase_add_test (tc, test_shared_limits);
  tcase_add_test (tc, test_logs_count_get_runner);
  tcase_add_test (tc, test_429_reset);
  tcase_add_test (tc, test_service_requests);
  tcase_add_test (tc, test_clock_and_limits);
  tcase_add_test (tc, test_threads);
  return s;
}

GST_CHECK_MAIN (ratelimit);
