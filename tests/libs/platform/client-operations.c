/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The queue and management client against a real SoupServer on 127.0.0.1
 * (port 0), run on its own thread so that the synchronous calls, which
 * iterate a private context, can reach it: what each operation sends and
 * what comes back. Submission with a webhook, input refused before
 * sending, the error models, the management operations, rule 2 (runners
 * logs), and the API key kept out of every error text and log line.
 */

#include "client-test.h"

static void
check_http_error_scrubbed (const GstSessionHttpError * http_error)
{
  gchar *text = gst_session_http_error_to_string (http_error);
  guint i;

  fail_if (strstr (text, API_KEY) != NULL, "key in \"%s\"", text);
  fail_if (http_error->detail && strstr (http_error->detail, API_KEY));
  for (i = 0; i < http_error->items->len; i++) {
    GstSessionHttpErrorItem *item = g_ptr_array_index (http_error->items, i);

    fail_if (item->msg && strstr (item->msg, API_KEY));
  }
  g_free (text);
}

GST_START_TEST (test_submit)
{
  GstSessionPlatform *platform = make_platform ();
  const gchar *body = "{\"prompt\": \"a cat\", \"steps\": 4}";
  gchar *request_id = NULL, *gateway_request_id = NULL;
  guint retry_after = 99;
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  GstSessionRateLimiter *limiter;
  const Seen *seen;
  guint i;

  fail_unless (gst_session_platform_submit (platform, "owner/app", WEBHOOK,
          body, NULL, &request_id, &gateway_request_id, &retry_after,
          &http_error, &error), "%s", error ? error->message : "");
  fail_unless_equals_string (request_id, "req-1");
  fail_unless_equals_string (gateway_request_id, "gw-1");
  fail_unless_equals_int (retry_after, 0);
  fail_unless (http_error == NULL);

  fail_unless_equals_int (service_count (), 1);
  seen = service_seen (0);
  fail_unless_equals_string (seen->method, "POST");
  fail_unless_equals_string (seen->path, "/queue/owner/app");
  /* the whole webhook URL is one encoded query value */
  fail_unless_equals_string (seen->query, "svc_webhook="
      "https%3A%2F%2Fhooks.example.com%2Fdone%3Ftoken%3Da%26b%3Dc%20d");
  fail_unless_equals_string (seen->webhook, WEBHOOK);
  fail_unless_equals_string (seen->authorization, "Key " API_KEY);
  fail_unless_equals_string (seen->content_type, "application/json");
  fail_unless_equals_string (seen->body, body);
  g_free (request_id);
  g_free (gateway_request_id);

  /* segments are encoded one by one; a leading slash is allowed */
  fail_unless (gst_session_platform_submit (platform, "/owner/app/sub path",
          "http://127.0.0.1:9/hook", "{}", NULL, NULL, NULL, NULL, NULL,
          &error), "%s", error ? error->message : "");
  fail_unless_equals_string (service_seen (1)->path,
      "/queue/owner/app/sub%20path");

  /* submissions are not rate limited */
  limiter = gst_session_platform_get_rate_limiter (platform);
  for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++)
    fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter,
            NULL, i, fake_now, NULL), gst_session_management_op_per_minute (i));
  gst_session_rate_limiter_unref (limiter);
  gst_object_unref (platform);
}

GST_END_TEST;

GST_START_TEST (test_submit_invalid)
{
  GstSessionPlatform *platform = make_platform ();
  const gchar *paths[] = { "", "/", "owner//app", "owner/../app", "./app",
    "owner/a\tb", NULL
  };
  const gchar *hooks[] = { "ftp://example.com/", "not a url", "/relative",
    "https://", NULL
  };
  const gchar *bodies[] = { "[1, 2]", "{", "", "\"text\"", NULL };
  GError *error = NULL;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (paths); i++) {
    fail_if (gst_session_platform_submit (platform, paths[i], WEBHOOK, "{}",
            NULL, NULL, NULL, NULL, NULL, &error), "path %s", paths[i]);
    check_error (error, PF_ERROR (INVALID_INPUT));
    g_clear_error (&error);
  }
  for (i = 0; i < G_N_ELEMENTS (hooks); i++) {
    fail_if (gst_session_platform_submit (platform, "owner/app", hooks[i],
            "{}", NULL, NULL, NULL, NULL, NULL, &error), "hook %s", hooks[i]);
    check_error (error, PF_ERROR (INVALID_INPUT));
    g_clear_error (&error);
  }
  for (i = 0; i < G_N_ELEMENTS (bodies); i++) {
    fail_if (gst_session_platform_submit (platform, "owner/app", WEBHOOK,
            bodies[i], NULL, NULL, NULL, NULL, NULL, &error), "body %s",
        bodies[i]);
    check_error (error, PF_ERROR (INVALID_INPUT));
    g_clear_error (&error);
  }
  g_object_set (platform, "queue-url", "ftp://127.0.0.1/", NULL);
  fail_if (gst_session_platform_submit (platform, "owner/app", WEBHOOK, "{}",
          NULL, NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (INVALID_INPUT));
  g_clear_error (&error);
  g_object_set (platform, "queue-url", NULL, NULL);
  fail_if (gst_session_platform_submit (platform, "owner/app", WEBHOOK, "{}",
          NULL, NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (INVALID_INPUT));
  g_clear_error (&error);

  /* nothing was sent */
  fail_unless_equals_int (service_count (), 0);
  gst_object_unref (platform);
}

GST_END_TEST;

static gint key_logged;

static void
log_catcher (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (text && strstr (text, API_KEY))
    g_atomic_int_set (&key_logged, 1);
}

GST_START_TEST (test_submit_errors)
{
  GstSessionPlatform *platform = make_platform ();
  GstSessionHttpError *http_error = NULL;
  GstSessionHttpErrorItem *item;
  GError *error = NULL;
  guint retry_after = 99;
  gchar *request_id = NULL;

  /* 422, model level: refused, the items kept, the key scrubbed */
  fail_if (gst_session_platform_submit (platform, "owner/bad", WEBHOOK, "{}",
          NULL, &request_id, NULL, &retry_after, &http_error, &error));
  check_error (error, PF_ERROR (REFUSED));
  fail_unless (request_id == NULL);
  fail_unless_equals_int (retry_after, 0);
  fail_unless (http_error != NULL);
  fail_unless_equals_int (http_error->status, 422);
  fail_unless_equals_int (http_error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  item = g_ptr_array_index (http_error->items, 0);
  fail_unless_equals_string (item->type, "less_than_equal");
  fail_unless_equals_string (item->loc, "/body/steps");
  fail_unless (strstr (error->message, "Too many steps") != NULL);
  check_http_error_scrubbed (http_error);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 1);

  /* 503, request level: transient, sent once */
  fail_if (gst_session_platform_submit (platform, "owner/busy", WEBHOOK, "{}",
          NULL, NULL, NULL, &retry_after, &http_error, &error));
  check_error (error, PF_ERROR (TRANSIENT));
  fail_unless_equals_int (http_error->kind,
      GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (http_error->error_type,
      "runner_scheduling_failure");
  check_http_error_scrubbed (http_error);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 2);

  /* 2xx without gateway_request_id */
  fail_if (gst_session_platform_submit (platform, "owner/noid", WEBHOOK, "{}",
          NULL, NULL, NULL, NULL, &http_error, &error));
  check_error (error, PF_ERROR (INVALID_RESPONSE));
  fail_unless (strstr (error->message, "gateway_request_id") != NULL);
  fail_unless (http_error == NULL);
  g_clear_error (&error);

  /* a 401 whose text echoes the key, with every log line read */
  gst_debug_set_threshold_for_name ("session", GST_LEVEL_TRACE);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (log_catcher, NULL, NULL);
  fail_if (gst_session_platform_submit (platform, "owner/echo", WEBHOOK,
          "{}", NULL, NULL, NULL, NULL, &http_error, &error));
  check_error (error, PF_ERROR (REFUSED));
  fail_unless_equals_int (http_error->status, 401);
  check_http_error_scrubbed (http_error);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);
  fail_if (gst_session_platform_submit (platform, "owner/bad", WEBHOOK, "{}",
          NULL, NULL, NULL, NULL, NULL, &error));
  g_clear_error (&error);
  gst_debug_remove_log_function (log_catcher);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  gst_debug_unset_threshold_for_name ("session");
  fail_if (g_atomic_int_get (&key_logged), "the key was logged");

  /* unknown app: 404 */
  fail_if (gst_session_platform_submit (platform, "owner/none", WEBHOOK,
          "{}", NULL, NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (REFUSED));
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 6);
  gst_object_unref (platform);
}

GST_END_TEST;

GST_START_TEST (test_manage)
{
  GstSessionPlatform *platform = make_platform ();
  const gchar *command[] = { "sh", "-c", "echo \"hi\"", NULL };
  guint i;

  check_json (manage (platform, OP (APPS_LIST), NULL, NULL),
      "[{\"id\":\"owner/app\"}]");
  check_json (manage (platform, OP (APPS_RUNNERS), "owner/app", NULL),
      "{\"runners\":[\"r-1\"]}");
  check_json (manage (platform, OP (RUNNERS_LIST), NULL, NULL),
      "{\"runners\":[]}");
  check_json (manage (platform, OP (GET_RUNNERS), NULL, NULL),
      "{\"runners\":[]}");
  check_json (manage (platform, OP (GET_RUNNER), "r-1", NULL),
      "{\"id\":\"r-1\",\"state\":\"running\"}");
  /* the service echoes the exec body */
  check_json (manage (platform, OP (RUNNERS_SHELL), "r-1", command),
      "{\"command\":[\"sh\",\"-c\",\"echo \\\"hi\\\"\"]}");
  /* empty 2xx bodies are JSON null */
  check_json (manage (platform, OP (RUNNERS_STOP), "r-1", NULL), "null");
  check_json (manage (platform, OP (RUNNERS_KILL), "r-1", NULL), "null");

  fail_unless_equals_int (service_count (), 8);
  fail_unless_equals_string (service_seen (0)->path, "/api/apps");
  fail_unless_equals_string (service_seen (1)->path,
      "/api/apps/owner%2Fapp/runners");
  fail_unless_equals_string (service_seen (2)->path, "/api/runners");
  fail_unless_equals_string (service_seen (4)->path, "/api/runners/r-1");
  fail_unless_equals_string (service_seen (5)->method, "POST");
  fail_unless_equals_string (service_seen (5)->path, "/api/runners/r-1/exec");
  fail_unless_equals_string (service_seen (5)->content_type,
      "application/json");
  fail_unless_equals_string (service_seen (6)->method, "POST");
  fail_unless_equals_string (service_seen (6)->path, "/api/runners/r-1/stop");
  fail_unless_equals_string (service_seen (6)->body, "");
  fail_unless_equals_string (service_seen (7)->path, "/api/runners/r-1/kill");
  for (i = 0; i < 8; i++) {
    fail_unless_equals_string (service_seen (i)->authorization, "Key " API_KEY);
    fail_unless (service_seen (i)->query == NULL);
  }
  gst_object_unref (platform);
}

GST_END_TEST;

/* Rule 2: runners logs GETs the runner, then its logs; both are counted. */
GST_START_TEST (test_logs)
{
  GstSessionPlatform *platform = make_platform ();
  GstSessionRateLimiter *limiter;

  check_json (manage (platform, OP (RUNNERS_LOGS), "r-1", NULL),
      "{\"runner\":{\"id\":\"r-1\",\"state\":\"running\"},"
      "\"logs\":{\"lines\":[\"starting\",\"ready\"]}}");
  fail_unless_equals_int (service_count (), 2);
  fail_unless_equals_string (service_seen (0)->method, "GET");
  fail_unless_equals_string (service_seen (0)->path, "/api/runners/r-1");
  fail_unless_equals_string (service_seen (1)->method, "GET");
  fail_unless_equals_string (service_seen (1)->path, "/api/runners/r-1/logs");

  limiter = gst_session_platform_get_rate_limiter (platform);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          OP (RUNNERS_LOGS), fake_now, NULL), 119);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          OP (GET_RUNNER), fake_now, NULL), 119);
  gst_session_rate_limiter_unref (limiter);
  gst_object_unref (platform);
}

GST_END_TEST;

GST_START_TEST (test_manage_errors)
{
  GstSessionPlatform *platform = make_platform ();
  const gchar *command[] = { "ls", NULL };
  const gchar *empty[] = { NULL };
  GstSessionHttpError *http_error = NULL;
  GstSessionRateLimiter *limiter;
  GError *error = NULL;
  guint i;
  struct
  {
    GstSessionManagementOp op;
    const gchar *target;
    const gchar *const *command;
  } invalid[] = {
    {OP (GET_RUNNER), NULL, NULL},
    {OP (GET_RUNNER), "", NULL},
    {OP (GET_RUNNER), "..", NULL},
    {OP (GET_RUNNER), "r\n1", NULL},
    {OP (APPS_LIST), "owner/app", NULL},
    {OP (RUNNERS_SHELL), "r-1", NULL},
    {OP (RUNNERS_SHELL), "r-1", empty},
    {OP (RUNNERS_STOP), "r-1", command},
    {(GstSessionManagementOp) 99, NULL, NULL},
  };

  /* 500 internal_error: transient (the retry decision would retry) */
  fail_if (gst_session_platform_manage (platform, OP (GET_RUNNER), "r-down",
          NULL, NULL, NULL, &http_error, &error));
  check_error (error, PF_ERROR (TRANSIENT));
  fail_unless_equals_string (http_error->error_type, "internal_error");
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);
  /* 404: refused */
  fail_if (gst_session_platform_manage (platform, OP (RUNNERS_KILL), "r-x",
          NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (REFUSED));
  g_clear_error (&error);
  /* a 2xx that is not JSON */
  fail_if (gst_session_platform_manage (platform, OP (APPS_RUNNERS),
          "broken", NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (INVALID_RESPONSE));
  g_clear_error (&error);
  /* a redirect is not followed */
  fail_if (gst_session_platform_manage (platform, OP (GET_RUNNER), "r-moved",
          NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (INVALID_RESPONSE));
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 4);

  /* invalid input: nothing sent, nothing counted */
  for (i = 0; i < G_N_ELEMENTS (invalid); i++) {
    fail_if (gst_session_platform_manage (platform, invalid[i].op,
            invalid[i].target, invalid[i].command, NULL, NULL, NULL,
            &error), "invalid %u passed", i);
    check_error (error, PF_ERROR (INVALID_INPUT));
    g_clear_error (&error);
  }
  g_object_set (platform, "api-url", "http://user:pw@127.0.0.1/", NULL);
  fail_if (gst_session_platform_manage (platform, OP (APPS_LIST), NULL,
          NULL, NULL, NULL, NULL, &error));
  check_error (error, PF_ERROR (INVALID_INPUT));
  g_clear_error (&error);
  fail_unless_equals_int (service_count (), 4);
  limiter = gst_session_platform_get_rate_limiter (platform);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          OP (RUNNERS_SHELL), fake_now, NULL), 90);
  fail_unless_equals_int (gst_session_rate_limiter_remaining (limiter, NULL,
          OP (GET_RUNNER), fake_now, NULL), 118);
  gst_session_rate_limiter_unref (limiter);
  gst_object_unref (platform);
}

GST_END_TEST;

static Suite *
client_operations_suite (void)
{
  Suite *s = suite_create ("client-operations");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_submit);
  tcase_add_test (tc, test_submit_invalid);
  tcase_add_test (tc, test_submit_errors);
  tcase_add_test (tc, test_manage);
  tcase_add_test (tc, test_logs);
  tcase_add_test (tc, test_manage_errors);
  return s;
}

GST_CHECK_MAIN (client_operations);
