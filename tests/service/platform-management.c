/* gst-session: the reference service, platform side (spec 001):
 * management of apps and runners, its rate limits, the API key
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The client side is the library: GstSessionPlatform submits and manages,
 * gst_session_webhook_verify() and GstSessionWebhookVerifier check the
 * deliveries, which a SoupServer on 127.0.0.1 (port 0, its own thread)
 * receives. The service runs with --time-scale so retries take
 * milliseconds.
 */

#include "platform-test.h"

/* ---------------------------------------------------------------- *
 * management and its rate limits
 * ---------------------------------------------------------------- */

/* One plain request on a kept-alive session; the status, and the
 * x-ratelimit-reset header and JSON body when asked */
static guint
raw (SoupSession * session, const gchar * method, SvcProcess * p,
    const gchar * path, const gchar * key, gchar ** reset, JsonNode ** json)
{
  gchar *url = url_of (p, path);
  SoupMessage *msg = soup_message_new (method, url);
  GBytes *body;
  GError *error = NULL;
  guint status;

  if (key) {
    gchar *auth = g_strconcat ("Key ", key, NULL);

    soup_message_headers_replace (soup_message_get_request_headers (msg),
        "Authorization", auth);
    g_free (auth);
  }
  body = soup_session_send_and_read (session, msg, NULL, &error);
  fail_unless (body != NULL, "%s %s: %s", method, path,
      error ? error->message : "");
  status = soup_message_get_status (msg);
  if (reset)
    *reset = g_strdup (soup_message_headers_get_one
        (soup_message_get_response_headers (msg), "x-ratelimit-reset"));
  if (json)
    *json = json_from_string (g_bytes_get_data (body, NULL), NULL);
  g_bytes_unref (body);
  g_object_unref (msg);
  g_free (url);
  return status;
}

/* A client whose own limiter lets everything through, so that only the
 * service's limits count */
static GstSessionPlatform *
unlimited_platform (SvcProcess * p, const gchar * key)
{
  GstSessionPlatform *platform = platform_new (p, key);
  GstSessionRateLimiter *limiter =
      gst_session_platform_get_rate_limiter (platform);
  guint i;

  for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++)
    gst_session_rate_limiter_set_limit (limiter, i, 0);
  gst_session_rate_limiter_unref (limiter);
  return platform;
}

/* One management call: 0 when the service served it (2xx or another
 * error than 429), else the x-ratelimit-reset seconds of its 429. (After
 * a 429 the client refuses that limit on its own: use a new one.) */
static gdouble
manage (GstSessionPlatform * platform, GstSessionManagementOp op,
    const gchar * target)
{
  static const gchar *const command[] = { "true", NULL };
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  JsonNode *result;
  gdouble reset = 0;

  result = gst_session_platform_manage (platform, op, target,
      op == GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL ? command : NULL, NULL,
      NULL, &http_error, &error);
  if (result) {
    json_node_unref (result);
  } else if (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_PLATFORM_ERROR_RATE_LIMITED)) {
    /* refused by the service, not by the client */
    fail_unless (http_error != NULL);
    fail_unless_equals_int (http_error->status, 429);
    fail_unless_equals_int (http_error->kind,
        GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
    reset = http_error->ratelimit_reset;
    fail_unless (reset >= 1, "x-ratelimit-reset %g", reset);
  } else {
    fail_unless (http_error != NULL, "%s: %s",
        gst_session_management_op_name (op), error->message);
    fail_unless_equals_int (http_error->status, 404);
  }
  g_clear_error (&error);
  if (http_error)
    gst_session_http_error_free (http_error);
  return reset;
}

static const gchar *
runner_state (SoupSession * session, SvcProcess * p, const gchar * id,
    const gchar * key, gchar ** state)
{
  gchar *path = g_strconcat ("/runners/", id, NULL);
  JsonNode *json = NULL;

  fail_unless_equals_int (raw (session, "GET", p, path, key, NULL, &json), 200);
  *state = g_strdup (object_string (json, "state"));
  json_node_unref (json);
  g_free (path);
  return *state;
}

GST_START_TEST (test_management)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  static const gchar *const command[] = { "echo", "hi", "there", NULL };
  static const gchar *const unknown[] = { "rm", "-rf", "/", NULL };
  gchar *hook = receiver_url (rv), *id, *line;
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  JsonNode *node;
  JsonObject *obj;
  JsonArray *array;
  guint i, found = 0;

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL, NULL, NULL, NULL, NULL,
      &error);
  fail_unless (node != NULL);
  array = json_object_get_array_member (json_node_get_object (node), "apps");
  fail_unless (json_array_get_length (array) >= 5);
  for (i = 0; i < json_array_get_length (array); i++)
    found += g_str_equal (json_object_get_string_member
        (json_array_get_object_element (array, i), "app_id"), "reference/echo");
  fail_unless_equals_int (found, 1);
  json_node_unref (node);

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS, "reference/echo", NULL, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  array = json_object_get_array_member (json_node_get_object (node), "runners");
  fail_unless_equals_int (json_array_get_length (array), 2);
  json_node_unref (node);

  /* a request on a runner shows in its details and logs */
  id = submit (platform, "upper", hook, "{\"text\": \"x\"}");
  fail_unless (receiver_wait (rv, 1, TIMEOUT) != NULL);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS, "runner-upper-1", NULL, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  obj = json_node_get_object (node);
  fail_unless_equals_int (json_object_get_int_member
      (json_object_get_object_member (obj, "runner"), "requests_served"), 1);
  array = json_object_get_array_member (json_object_get_object_member (obj,
          "logs"), "lines");
  line = g_strdup_printf ("request %s (gateway %s): OK", id, id);
  fail_unless (g_str_has_suffix (json_array_get_string_element (array,
              json_array_get_length (array) - 1), line));
  g_free (line);
  json_node_unref (node);
  g_free (id);

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-1", command, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  obj = json_node_get_object (node);
  fail_unless_equals_int (json_object_get_int_member (obj, "exit_code"), 0);
  fail_unless_equals_string (json_object_get_string_member (obj, "stdout"),
      "hi there\n");
  json_node_unref (node);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-1", unknown, NULL,
      NULL, NULL, &error);
  fail_unless_equals_int (json_object_get_int_member (json_node_get_object
          (node), "exit_code"), 127);
  json_node_unref (node);

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP, "runner-echo-2", NULL, NULL,
      NULL, NULL, &error);
  fail_unless_equals_string (object_string (node, "previous_state"), "running");
  fail_unless_equals_string (object_string (node, "state"), "stopped");
  json_node_unref (node);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL, "runner-echo-2", NULL, NULL,
      NULL, NULL, &error);
  fail_unless_equals_string (object_string (node, "state"), "killed");
  json_node_unref (node);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_GET_RUNNER, "runner-echo-2", NULL, NULL,
      NULL, NULL, &error);
  fail_unless_equals_string (object_string (node, "state"), "killed");
  json_node_unref (node);
  /* exec on a runner that is not running */
  fail_if (gst_session_platform_manage (platform,
          GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-2", command,
          NULL, NULL, &http_error, &error));
  fail_unless_equals_int (http_error->status, 409);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);
  /* unknown runner */
  fail_if (gst_session_platform_manage (platform,
          GST_SESSION_MANAGEMENT_OP_GET_RUNNER, "runner-nope", NULL,
          NULL, NULL, &http_error, &error));
  fail_unless_equals_int (http_error->status, 404);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);

  g_free (hook);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* each key a client of its own: the service checks them (a key nobody
 * checks would not separate clients) */
#define CLIENT_KEYS "--api-key=client-0", "--api-key=client-1", \
    "--api-key=client-2", "--api-key=client-3", "--api-key=client-4", \
    "--api-key=client-5", "--api-key=client-6", "--api-key=client-7", \
    "--api-key=client-8", "--api-key=client-9", "--api-key=client-10", \
    "--api-key=client-11", "--api-key=client-a", "--api-key=client-b", \
    "--api-key=client-c", "--api-key=another-client"

GST_START_TEST (test_rate_limits_exact)
{
  SvcProcess *p = svc_process_start (CLIENT_KEYS, NULL);
  SoupSession *session = soup_session_new ();
  static const struct
  {
    GstSessionManagementOp op;
    const gchar *target;
  } cases[] = {
    {GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL},
    {GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS, "reference/echo"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST, NULL},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS, "runner-echo-1"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-1"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP, "runner-none"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL, "runner-none"},
    {GST_SESSION_MANAGEMENT_OP_GET_RUNNER, "runner-echo-1"},
    {GST_SESSION_MANAGEMENT_OP_GET_RUNNERS, NULL},
  };
  guint i, n;

  /* each limit: N calls served, the call N + 1 refused by the service;
   * one client (API key) per limit */
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *key = g_strdup_printf ("client-%u", i);
    GstSessionPlatform *platform = unlimited_platform (p, key);
    guint limit = gst_session_management_op_per_minute (cases[i].op);
    gdouble reset;
    gchar *state = NULL;

    for (n = 0; n < limit; n++)
      fail_unless (manage (platform, cases[i].op, cases[i].target) == 0,
          "%s: call %u refused", gst_session_management_op_name
          (cases[i].op), n + 1);
    reset = manage (platform, cases[i].op, cases[i].target);
    fail_unless (reset >= 1 && reset <= 60, "%s: call %u not refused",
        gst_session_management_op_name (cases[i].op), limit + 1);

    /* rule 3: a refused stop or kill leaves the runner running */
    if (cases[i].op == GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP ||
        cases[i].op == GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL) {
      const gchar *path = cases[i].op == GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP
          ? "/runners/runner-echo-2/stop" : "/runners/runner-echo-2/kill";
      JsonNode *json = NULL;

      fail_unless_equals_int (raw (session, "POST", p, path, key, NULL,
              &json), 429);
      fail_unless (strstr (object_string (json, "detail"), "keeps running"));
      json_node_unref (json);
      fail_unless_equals_string (runner_state (session, p, "runner-echo-2",
              "another-client", &state), "running");
      g_free (state);
    }
    gst_object_unref (platform);
    g_free (key);
  }

  g_object_unref (session);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_rate_limits_shared)
{
  SvcProcess *p = svc_process_start (CLIENT_KEYS, NULL), *keyless;
  SoupSession *session = soup_session_new ();
  GstSessionPlatform *a = unlimited_platform (p, "client-a");
  GstSessionPlatform *b = unlimited_platform (p, "client-b");
  guint n;

  /* rule 2: runners logs first fetches the runner: 60 logs and 60
   * GET /runners/{id} fill the 120 of GET /runners/{runner_id} */
  for (n = 0; n < 60; n++)
    fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS,
            "runner-echo-1") == 0);
  for (n = 0; n < 60; n++)
    fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_GET_RUNNER,
            "runner-echo-1") == 0);
  fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_GET_RUNNER,
          "runner-echo-1") > 0);
  gst_object_unref (a);
  a = unlimited_platform (p, "client-a");
  fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS,
          "runner-echo-1") > 0);
  /* the logs themselves have used 60 of their 120 */
  fail_unless_equals_int (raw (session, "GET", p, "/runners/runner-echo-1/logs",
          "client-a", NULL, NULL), 200);
  /* other limits and other clients are untouched */
  fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL) == 0);
  fail_unless (manage (b, GST_SESSION_MANAGEMENT_OP_GET_RUNNER,
          "runner-echo-1") == 0);

  /* runners list and GET /runners are one request here: it counts toward
   * both */
  for (n = 0; n < 120; n++)
    fail_unless_equals_int (raw (session, "GET", p, "/runners", "client-b",
            NULL, NULL), 200);
  fail_unless (manage (b, GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST, NULL) > 0);
  gst_object_unref (b);
  b = unlimited_platform (p, "client-b");
  fail_unless (manage (b, GST_SESSION_MANAGEMENT_OP_GET_RUNNERS, NULL) > 0);

  /* a checked key is a client of its own */
  fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop",
          "client-c", NULL, NULL), 404);

  /* a service that checks no key: the client is the peer address, and a
   * key it does not check (rotated at will) escapes nothing */
  keyless = svc_process_start (NULL, NULL);
  for (n = 0; n < 60; n++)
    fail_unless_equals_int (raw (session, "POST", keyless,
            "/runners/none/stop", NULL, NULL, NULL), 404);
  fail_unless_equals_int (raw (session, "POST", keyless, "/runners/none/stop",
          NULL, NULL, NULL), 429);
  fail_unless_equals_int (raw (session, "POST", keyless, "/runners/none/stop",
          "rotated-key-1", NULL, NULL), 429);
  /* the admin reset closes every window */
  fail_unless_equals_int (raw (session, "POST", keyless,
          "/admin/rate-limits/reset", NULL, NULL, NULL), 200);
  fail_unless_equals_int (raw (session, "POST", keyless, "/runners/none/stop",
          NULL, NULL, NULL), 404);
  fail_unless_equals_int (svc_process_stop (keyless, NULL), 0);
  /* with keys, the admin endpoints want one too */
  fail_unless_equals_int (raw (session, "POST", p, "/admin/rate-limits/reset",
          NULL, NULL, NULL), 401);
  fail_unless_equals_int (raw (session, "POST", p, "/admin/rate-limits/reset",
          "client-a", NULL, NULL), 200);
  fail_unless_equals_int (raw (session, "GET", p, "/runners", "client-b",
          NULL, NULL), 200);

  gst_object_unref (a);
  gst_object_unref (b);
  g_object_unref (session);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_rate_window_resets)
{
  SvcProcess *p = svc_process_start ("--rate-window=3", NULL);
  SoupSession *session = soup_session_new ();
  gint64 start = g_get_monotonic_time (), end;
  gchar *reset = NULL, *state = NULL;
  JsonNode *json = NULL;
  guint n, status;
  gdouble waited;

  for (n = 0; n < 60; n++)
    fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop",
            "k", NULL, NULL), 404);
  fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop", "k",
          &reset, &json), 429);
  /* x-ratelimit-reset: real seconds of the 3-got2 window */
  fail_unless (reset != NULL);
  fail_unless (atoi (reset) >= 1 && atoi (reset) <= 3, "reset %s", reset);
  fail_unless_equals_string (object_string (json, "error_type"), "bad_request");
  fail_unless (object_string (json, "detail") != NULL);
  json_node_unref (json);
  g_free (reset);

  /* rule 3 */
  fail_unless_equals_int (raw (session, "POST", p,
          "/runners/runner-echo-2/stop", "k", NULL, NULL), 429);
  fail_unless_equals_string (runner_state (session, p, "runner-echo-2", "k",
          &state), "running");
  g_free (state);

  /* refused until the window ends, then a new window */
  end = start + 8 * G_USEC_PER_SEC;
  do {
    g_usleep (50 * 1000);
    status = raw (session, "POST", p, "/runners/none/stop", "k", NULL, NULL);
  } while (status == 429 && g_get_monotonic_time () < end);
  fail_unless_equals_int (status, 404);
  waited = (g_get_monotonic_time () - start) / (gdouble) G_USEC_PER_SEC;
  fail_unless (waited >= 2.9, "the window ended after %.2f s", waited);
  for (n = 1; n < 60; n++)
    fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop",
            "k", NULL, NULL), 404);
  fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop", "k",
          NULL, NULL), 429);

  g_object_unref (session);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* ---------------------------------------------------------------- *
 * the API key
 * ---------------------------------------------------------------- */

#define KEY "s3cret-platform-key-4c1d"

GST_START_TEST (test_api_key)
{
  SvcProcess *p;
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *none, *wrong, *right;
  GstSessionWebhookKeySet *keys;
  GstSessionHttpError *e;
  gchar *hook = receiver_url (rv), *id, *log = NULL;
  SvcHttpReply *r;
  Received *got;
  GError *error = NULL;
  JsonNode *node;

  /* everything the service logs, to look for the key in it */
  g_setenv ("GST_DEBUG", "session*:7", TRUE);
  p = svc_process_start ("--time-scale=0.01", "--api-key=" KEY, NULL);
  g_unsetenv ("GST_DEBUG");
  none = platform_new (p, NULL);
  wrong = platform_new (p, "not-the-key");
  right = platform_new (p, KEY);

  e = submit_refused (none, "echo", hook, "{}", 401);
  assert_request_error (e, "bad_request");
  e = submit_refused (wrong, "echo", hook, "{}", 401);
  assert_request_error (e, "bad_request");
  fail_if (gst_session_platform_manage (none,
          GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL, NULL, NULL, NULL, &e,
          &error));
  fail_unless_equals_int (e->status, 401);
  g_clear_pointer (&e, gst_session_http_error_free);
  g_clear_error (&error);
  fail_if (gst_session_platform_manage (wrong,
          GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP, "runner-echo-1", NULL, NULL,
          NULL, &e, &error));
  fail_unless_equals_int (e->status, 401);
  g_clear_pointer (&e, gst_session_http_error_free);
  g_clear_error (&error);

  /* the key set and the metadata need no key; the admin endpoints do */
  keys = fetch_keys (p);
  r = http_get (p, "/v1/meta", NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  r = http_get (p, "/admin/deliveries", NULL);
  fail_unless_equals_int (r->status, 401);
  svc_http_reply_free (r);
  r = http_get (p, "/admin/deliveries", KEY);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);

  id = submit (right, "echo", hook, "{\"with\": \"key\"}");
  got = receiver_wait (rv, 1, TIMEOUT);
  fail_unless (got != NULL);
  gst_session_webhook_delivery_free (verified_delivery (keys, got, id));
  /* the key does not go to the webhook */
  fail_unless (soup_message_headers_get_one (got->headers,
          "Authorization") == NULL);
  fail_if (g_strstr_len (g_bytes_get_data (got->body, NULL),
          g_bytes_get_size (got->body), KEY));
  node = gst_session_platform_manage (right,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS, "runner-echo-1", NULL, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  json_node_unref (node);
  fail_unless_equals_int (receiver_count (rv), 1);

  fail_unless_equals_int (svc_process_stop (p, &log), 0);
  /* verbose enough to have said something, never the key */
  fail_unless (strstr (log, "queue: request") != NULL);
  fail_if (strstr (log, KEY) != NULL);
  g_free (log);

  g_free (id);
  g_free (hook);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (none);
  gst_object_unref (wrong);
  gst_object_unref (right);
  receiver_free (rv);
}

GST_END_TEST;

static Suite *
platform_management_suite (void)
{
  Suite *s = suite_create ("service-platform-management");
  TCase *tm = tcase_create ("management");

  tcase_set_timeout (tm, 120);
  suite_add_tcase (s, tm);
  tcase_add_test (tm, test_management);
  tcase_add_test (tm, test_rate_limits_exact);
  tcase_add_test (tm, test_rate_limits_shared);
  tcase_add_test (tm, test_rate_window_resets);
  tcase_add_test (tm, test_api_key);
  return s;
}

GST_CHECK_MAIN (platform_management);
