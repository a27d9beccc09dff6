/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The queue and management client against a real SoupServer on 127.0.0.1
 * (port 0), run on its own thread: how a call goes. A 429 not retried and
 * rule 3 (a rejected stop), the local limiter refusing before sending, a
 * refused connection and a timeout, the async calls answering on the
 * caller's context, and one connection kept for the calls.
 */

#include "client-test.h"

/* A 429 is not retried; its reset fills the window here; a rejected stop
 * says the runner is still running (rule 3). */
GST_START_TEST (test_429)
{
  GstSessionPlatform *platform = make_platform ();
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  guint retry_after = 0;
  JsonNode *node;

  node = gst_session_platform_manage (platform, OP (RUNNERS_STOP), "r-busy",
      NULL, NULL, &retry_after, &http_error, &error);
  fail_unless (node == NULL);
  check_error (error, PF_ERROR (RATE_LIMITED));
  fail_unless (strstr (error->message,
          "the runner is still running; retry after 7 s") != NULL, "%s",
      error->message);
  fail_unless_equals_int (retry_after, 7);
  fail_unless_equals_int (http_error->status, 429);
  fail_unless (http_error->ratelimit_reset == 7.0);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);
  /* once: no retry */
  fail_unless_equals_int (service_count (), 1);

  /* the window is full until the reset: refused here, nothing sent */
  fake_now += 3 * SEC;
  node = gst_session_platform_manage (platform, OP (RUNNERS_STOP), "r-ok",
      NULL, NULL, &retry_after, &http_error, &error);
  fail_unless (node == NULL);
  check_error (error, PF_ERROR (RATE_LIMITED));
  fail_unless (strstr (error->message, "nothing was sent") != NULL);
  fail_unless (strstr (error->message,
          "the runner is still running; retry after 4 s") != NULL, "%s",
      error->message);
  fail_unless_equals_int (retry_after, 4);
  fail_unless (http_error == NULL);
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 1);

  /* after it, the call goes out */
  fake_now += 4 * SEC;
  check_json (manage (platform, OP (RUNNERS_STOP), "r-ok", NULL), "null");
  fail_unless_equals_int (service_count (), 2);

  /* kill says the same; a GET does not talk about a running runner */
  fail_if (gst_session_platform_manage (platform, OP (RUNNERS_KILL),
          "r-busy", NULL, NULL, &retry_after, NULL, &error));
  check_error (error, PF_ERROR (RATE_LIMITED));
  fail_unless (strstr (error->message,
          "the runner is still running; retry after 7 s") != NULL);
  g_clear_error (&error);
  fail_if (gst_session_platform_manage (platform, OP (GET_RUNNER),
          "r-busy", NULL, NULL, &retry_after, NULL, &error));
  check_error (error, PF_ERROR (RATE_LIMITED));
  fail_unless (strstr (error->message, "still running") == NULL);
  fail_unless (strstr (error->message, "retry after 7 s") != NULL);
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 4);

  /* the GET /runners/{id} window is full: logs is refused before its
   * first request */
  fail_if (gst_session_platform_manage (platform, OP (RUNNERS_LOGS), "r-1",
          NULL, NULL, &retry_after, NULL, &error));
  check_error (error, PF_ERROR (RATE_LIMITED));
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 4);
  gst_object_unref (platform);
}

GST_END_TEST;

/* The limiter refuses the call 61 of runners stop before sending it. */
GST_START_TEST (test_local_limit)
{
  GstSessionPlatform *platform = make_platform ();
  GError *error = NULL;
  guint i, retry_after = 0;

  for (i = 0; i < 60; i++)
    check_json (manage (platform, OP (RUNNERS_STOP), "r-ok", NULL), "null");
  fail_unless_equals_int (service_count (), 60);

  fake_now += 15 * SEC;
  fail_if (gst_session_platform_manage (platform, OP (RUNNERS_STOP), "r-ok",
          NULL, NULL, &retry_after, NULL, &error));
  check_error (error, PF_ERROR (RATE_LIMITED));
  fail_unless (strstr (error->message,
          "the runner is still running; retry after 45 s") != NULL, "%s",
      error->message);
  fail_unless_equals_int (retry_after, 45);
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 60);

  /* other operations are not affected */
  check_json (manage (platform, OP (RUNNERS_KILL), "r-ok", NULL), "null");
  fake_now += 45 * SEC;
  check_json (manage (platform, OP (RUNNERS_STOP), "r-ok", NULL), "null");
  fail_unless_equals_int (service_count (), 62);
  gst_object_unref (platform);
}

GST_END_TEST;

GST_START_TEST (test_network)
{
  GstSessionPlatform *platform = make_platform ();
  GSocketListener *listener = g_socket_listener_new ();
  GInetAddress *loopback = g_inet_address_new_from_string ("127.0.0.1");
  GSocketAddress *address = g_inet_socket_address_new (loopback, 0);
  GSocketAddress *bound = NULL;
  GError *error = NULL;
  gint64 start;
  gchar *url;

  /* a port that was free a moment ago: connection refused */
  fail_unless (g_socket_listener_add_address (listener, address,
          G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, NULL, &bound, NULL));
  url = g_strdup_printf ("http://127.0.0.1:%u/api",
      g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound)));
  g_socket_listener_close (listener);
  g_object_set (platform, "api-url", url, NULL);
  fail_if (gst_session_platform_manage (platform, OP (APPS_LIST), NULL, NULL,
          NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (TRANSIENT));
  g_clear_error (&error);

  /* no answer within the timeout */
  g_object_set (platform, "api-url", service->api_url, "timeout", 300, NULL);
  start = g_get_monotonic_time ();
  fail_if (gst_session_platform_manage (platform, OP (GET_RUNNER), "r-slow",
          NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (TRANSIENT));
  fail_unless (strstr (error->message, "no answer within 300 ms") != NULL,
      "%s", error->message);
  fail_unless (g_get_monotonic_time () - start < 5 * SEC);
  g_clear_error (&error);
  fail_if (gst_session_platform_submit (platform, "owner/slow", WEBHOOK, "{}",
          NULL, NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (TRANSIENT));
  g_clear_error (&error);

  g_free (url);
  g_object_unref (bound);
  g_object_unref (address);
  g_object_unref (loopback);
  g_object_unref (listener);
  gst_object_unref (platform);
}

GST_END_TEST;

static void
on_done (GObject * source, GAsyncResult * res, gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (res);
}

static gboolean
on_too_long (gpointer user_data)
{
  fail ("no answer within 10 s");
  return G_SOURCE_REMOVE;
}

/* Waits for @result on @context, at most 10 s. */
static void
wait_result (GMainContext * context, GAsyncResult ** result)
{
  GSource *guard = g_timeout_source_new_seconds (10);

  g_source_set_callback (guard, on_too_long, NULL, NULL);
  g_source_attach (guard, context);
  while (*result == NULL)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (guard);
  g_source_unref (guard);
}

/* The async calls answer on the caller's thread-default context. */
GST_START_TEST (test_async)
{
  GstSessionPlatform *platform = make_platform ();
  GMainContext *context = g_main_context_new ();
  GCancellable *cancellable = g_cancellable_new ();
  GstSessionRateLimiter *limiter;
  GAsyncResult *result = NULL;
  GError *error = NULL;
  gchar *request_id = NULL;
  JsonNode *node;

  g_main_context_push_thread_default (context);

  gst_session_platform_manage_async (platform, OP (RUNNERS_LOGS), "r-1",
      NULL, NULL, on_done, &result);
  fail_unless (result == NULL);
  wait_result (context, &result);
  node = gst_session_platform_manage_finish (platform, result, NULL, NULL,
      &error);
  fail_unless (node != NULL, "%s", error ? error->message : "");
  fail_unless (JSON_NODE_HOLDS_OBJECT (node));
  json_node_unref (node);
  g_clear_object (&result);

  gst_session_platform_submit_async (platform, "owner/app", WEBHOOK, "{}",
      NULL, on_done, &result);
  wait_result (context, &result);
  fail_unless (gst_session_platform_submit_finish (platform, result,
          &request_id, NULL, NULL, NULL, &error));
  fail_unless_equals_string (request_id, "req-1");
  g_free (request_id);
  g_clear_object (&result);

  /* a refusal of the limiter also comes through the callback */
  limiter = gst_session_platform_get_rate_limiter (platform);
  gst_session_rate_limiter_note_reset (limiter, NULL, OP (APPS_LIST),
      fake_now, 30);
  gst_session_rate_limiter_unref (limiter);
  gst_session_platform_manage_async (platform, OP (APPS_LIST), NULL, NULL,
      NULL, on_done, &result);
  wait_result (context, &result);
  fail_if (gst_session_platform_manage_finish (platform, result, NULL, NULL,
          &error));
  check_error (error, PF_ERROR (RATE_LIMITED));
  g_clear_error (&error);
  g_clear_object (&result);

  /* cancelled: G_IO_ERROR_CANCELLED */
  gst_session_platform_manage_async (platform, OP (GET_RUNNER), "r-slow",
      NULL, cancellable, on_done, &result);
  g_cancellable_cancel (cancellable);
  wait_result (context, &result);
  fail_if (gst_session_platform_manage_finish (platform, result, NULL, NULL,
          &error));
  fail_unless (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_clear_error (&error);
  g_clear_object (&result);

  /* the cancelled call never reached the service */
  fail_unless_equals_int (service_count (), 3);
  gst_object_unref (platform);
  while (g_main_context_iteration (context, FALSE));
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  g_object_unref (cancellable);
}

GST_END_TEST;

/* One client keeps one connection for its calls; a call that timed out
 * does not break the next one. */
GST_START_TEST (test_reuse)
{
  GstSessionPlatform *platform = make_platform ();
  GMainContext *context = g_main_context_new ();
  GAsyncResult *result = NULL;
  GError *error = NULL;
  JsonNode *node;
  guint i;

  g_main_context_push_thread_default (context);
  g_object_set (platform, "timeout", 300, NULL);
  for (i = 0; i < 4; i++) {
    gboolean slow = i == 2;

    gst_session_platform_manage_async (platform, slow ? OP (GET_RUNNER) :
        OP (APPS_LIST), slow ? "r-slow" : NULL, NULL, NULL, on_done, &result);
    wait_result (context, &result);
    node = gst_session_platform_manage_finish (platform, result, NULL, NULL,
        &error);
    if (slow) {
      fail_unless (node == NULL);
      check_error (error, PF_ERROR (TRANSIENT));
      fail_unless (strstr (error->message, "no answer within 300 ms") !=
          NULL, "%s", error->message);
      g_clear_error (&error);
    } else {
      fail_unless (node != NULL, "%s", error ? error->message : "");
      json_node_unref (node);
    }
    g_clear_object (&result);
  }
  fail_unless_equals_int (service_count (), 4);
  /* the second call went over the first one's connection */
  fail_unless_equals_int (service_seen (1)->port, service_seen (0)->port);

  gst_object_unref (platform);
  while (g_main_context_iteration (context, FALSE));
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
}

GST_END_TEST;

static Suite *
client_calls_suite (void)
{
  Suite *s = suite_create ("client-calls");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_429);
  tcase_add_test (tc, test_local_limit);
  tcase_add_test (tc, test_network);
  tcase_add_test (tc, test_async);
  tcase_add_test (tc, test_reuse);
  return s;
}

GST_CHECK_MAIN (client_calls);
