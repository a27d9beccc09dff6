/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The queue and management client against a real SoupServer on 127.0.0.1
 * (port 0), run on its own thread so that the synchronous calls, which
 * iterate a private context, can reach it: submission with a webhook, the
 * error models, 429 without retry, the local limiter refusing before
 * sending, rule 2 (runners logs), rule 3 (a rejected stop), and the API key
 * kept out of every error text.
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>

#define API_KEY "sk-live-7f3a9c2e11d04b5e8a6f0c9d2b1e4a77"
#define WEBHOOK "https://hooks.example.com/done?token=a&b=c d"
#define SEC G_USEC_PER_SEC

#define OP(x) GST_SESSION_MANAGEMENT_OP_##x
#define PF_ERROR(x) GST_SESSION_PLATFORM_ERROR_##x

/* ---------------------------------------------------------------------- */
/* The service: a thread with its own context                             */
/* ---------------------------------------------------------------------- */

typedef struct
{
  gchar *method;
  gchar *path;                  /* percent-encoded, as sent */
  gchar *query;                 /* percent-encoded, as sent */
  gchar *webhook;               /* svc_webhook, decoded */
  gchar *authorization;
  gchar *content_type;
  gchar *body;
  guint port;                   /* the client's: one per connection */
} Seen;

typedef struct
{
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  SoupServer *server;
  gchar *queue_url;
  gchar *api_url;

  /* protects everything below */
  GMutex lock;
  GCond cond;
  gboolean ready;
  GPtrArray *seen;
  GPtrArray *held;              /* paused messages that never answer */
} Service;

static Service *service;

static void
seen_free (gpointer data)
{
  Seen *seen = data;

  g_free (seen->method);
  g_free (seen->path);
  g_free (seen->query);
  g_free (seen->webhook);
  g_free (seen->authorization);
  g_free (seen->content_type);
  g_free (seen->body);
  g_free (seen);
}

static void
answer (SoupServerMessage * msg, guint status, const gchar * body)
{
  soup_server_message_set_status (msg, status, NULL);
  if (body)
    soup_server_message_set_response (msg, "application/json",
        SOUP_MEMORY_COPY, body, strlen (body));
}

/* The routes of the test; see the tests for what each one checks. */
static void
respond (SoupServerMessage * msg, const Seen * seen)
{
  SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);
  const gchar *p = seen->path;
  gchar *text;

  if (g_str_equal (p, "/queue/owner/app") ||
      g_str_equal (p, "/queue/owner/app/sub%20path")) {
    answer (msg, 202, "{\"request_id\": \"req-1\", "
        "\"gateway_request_id\": \"gw-1\", \"extra\": true}");
  } else if (g_str_equal (p, "/queue/owner/echo")) {
    /* not JSON, echoing the key */
    text = g_strdup_printf ("bad credentials: %s", seen->authorization);
    answer (msg, 401, text);
    g_free (text);
  } else if (g_str_equal (p, "/queue/owner/noid")) {
    answer (msg, 200, "{\"request_id\": \"req-1\"}");
  } else if (g_str_equal (p, "/queue/owner/bad")) {
    /* model level; the service echoes the key (it must be scrubbed) */
    text = g_strdup_printf ("{\"detail\": [{\"loc\": [\"body\", \"steps\"], "
        "\"msg\": \"Too many steps for %s\", \"type\": \"less_than_equal\", "
        "\"url\": \"https://docs.example.com/errors/#less_than_equal\", "
        "\"ctx\": {\"le\": 50}, \"input\": 80}]}", seen->authorization);
    soup_message_headers_replace (resp, "X-Svc-Retryable", "false");
    answer (msg, 422, text);
    g_free (text);
  } else if (g_str_equal (p, "/queue/owner/busy")) {
    text = g_strdup_printf ("{\"detail\": \"No runner for %s\", "
        "\"error_type\": \"runner_scheduling_failure\"}", seen->authorization);
    soup_message_headers_replace (resp, "X-Svc-Error-Type",
        "runner_scheduling_failure");
    answer (msg, 503, text);
    g_free (text);
  } else if (g_str_equal (p, "/queue/owner/slow") ||
      g_str_equal (p, "/api/runners/r-slow")) {
    g_ptr_array_add (service->held, g_object_ref (msg));
    soup_server_message_pause (msg);
  } else if (g_str_equal (p, "/api/apps")) {
    answer (msg, 200, "[{\"id\": \"owner/app\"}]");
  } else if (g_str_equal (p, "/api/apps/owner%2Fapp/runners")) {
    answer (msg, 200, "{\"runners\": [\"r-1\"]}");
  } else if (g_str_equal (p, "/api/apps/broken/runners")) {
    answer (msg, 200, "runners: r-1");
  } else if (g_str_equal (p, "/api/runners")) {
    answer (msg, 200, "{\"runners\": []}");
  } else if (g_str_equal (p, "/api/runners/r-1")) {
    answer (msg, 200, "{\"id\": \"r-1\", \"state\": \"running\"}");
  } else if (g_str_equal (p, "/api/runners/r-1/logs")) {
    answer (msg, 200, "{\"lines\": [\"starting\", \"ready\"]}");
  } else if (g_str_equal (p, "/api/runners/r-1/exec")) {
    answer (msg, 200, seen->body);
  } else if (g_str_has_prefix (p, "/api/runners/r-1/") ||
      g_str_has_prefix (p, "/api/runners/r-ok/")) {
    /* stop, kill: nothing to say */
    answer (msg, 204, NULL);
  } else if (g_str_has_prefix (p, "/api/runners/r-busy")) {
    soup_message_headers_replace (resp, "x-ratelimit-reset", "7");
    answer (msg, 429, "{\"detail\": \"Too many requests\"}");
  } else if (g_str_equal (p, "/api/runners/r-down")) {
    answer (msg, 500, "{\"detail\": \"Internal error\", "
        "\"error_type\": \"internal_error\"}");
  } else if (g_str_equal (p, "/api/runners/r-moved")) {
    soup_message_headers_replace (resp, "Location", "http://127.0.0.1:1/");
    answer (msg, 302, NULL);
  } else {
    GST_INFO ("no route for %s", p);
    answer (msg, 404, "{\"detail\": \"Not found\"}");
  }
}

static void
server_cb (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  GUri *uri = soup_server_message_get_uri (msg);
  Seen *seen = g_new0 (Seen, 1);
  GBytes *bytes;

  seen->method = g_strdup (soup_server_message_get_method (msg));
  seen->path = g_strdup (g_uri_get_path (uri));
  seen->query = g_strdup (g_uri_get_query (uri));
  seen->webhook = g_strdup (query ? g_hash_table_lookup (query,
          "svc_webhook") : NULL);
  seen->authorization =
      g_strdup (soup_message_headers_get_one (req, "Authorization"));
  seen->content_type =
      g_strdup (soup_message_headers_get_one (req, "Content-Type"));
  bytes = soup_message_body_flatten (soup_server_message_get_request_body
      (msg));
  seen->body = g_strndup (g_bytes_get_data (bytes, NULL),
      g_bytes_get_size (bytes));
  g_bytes_unref (bytes);
  seen->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS
      (soup_server_message_get_remote_address (msg)));

  g_mutex_lock (&service->lock);
  g_ptr_array_add (service->seen, seen);
  respond (msg, seen);
  g_mutex_unlock (&service->lock);
}

static gpointer
service_thread (gpointer data)
{
  GInetAddress *loopback = g_inet_address_new_from_string ("127.0.0.1");
  GSocketAddress *address = g_inet_socket_address_new (loopback, 0);
  GError *error = NULL;
  GSList *uris;
  guint port;

  g_main_context_push_thread_default (service->context);
  /* raw paths: the test checks the encoding the client sent */
  service->server = soup_server_new ("server-header", "test-service",
      "raw-paths", TRUE, NULL);
  soup_server_add_handler (service->server, NULL, server_cb, NULL, NULL);
  fail_unless (soup_server_listen (service->server, address, 0, &error),
      "listen: %s", error ? error->message : "");
  uris = soup_server_get_uris (service->server);
  port = g_uri_get_port (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_object_unref (address);
  g_object_unref (loopback);

  g_mutex_lock (&service->lock);
  service->queue_url = g_strdup_printf ("http://127.0.0.1:%u/queue/", port);
  service->api_url = g_strdup_printf ("http://127.0.0.1:%u/api", port);
  service->ready = TRUE;
  g_cond_signal (&service->cond);
  g_mutex_unlock (&service->lock);

  g_main_loop_run (service->loop);

  g_ptr_array_set_size (service->held, 0);
  soup_server_disconnect (service->server);
  g_clear_object (&service->server);
  while (g_main_context_iteration (service->context, FALSE));
  g_main_context_pop_thread_default (service->context);
  return NULL;
}

static void
service_start (void)
{
  service = g_new0 (Service, 1);
  g_mutex_init (&service->lock);
  g_cond_init (&service->cond);
  service->seen = g_ptr_array_new_with_free_func (seen_free);
  service->held = g_ptr_array_new_with_free_func (g_object_unref);
  service->context = g_main_context_new ();
  service->loop = g_main_loop_new (service->context, FALSE);
  service->thread = g_thread_new ("service", service_thread, NULL);

  g_mutex_lock (&service->lock);
  while (!service->ready)
    g_cond_wait (&service->cond, &service->lock);
  g_mutex_unlock (&service->lock);
}

static gboolean
quit_loop (gpointer user_data)
{
  g_main_loop_quit (user_data);
  return G_SOURCE_REMOVE;
}

static void
service_stop (void)
{
  GSource *idle = g_idle_source_new ();

  /* from the loop itself: a quit before the loop runs would be lost */
  g_source_set_callback (idle, quit_loop, service->loop, NULL);
  g_source_attach (idle, service->context);
  g_source_unref (idle);
  g_thread_join (service->thread);
  g_main_loop_unref (service->loop);
  g_main_context_unref (service->context);
  g_ptr_array_unref (service->seen);
  g_ptr_array_unref (service->held);
  g_mutex_clear (&service->lock);
  g_cond_clear (&service->cond);
  g_free (service->queue_url);
  g_free (service->api_url);
  g_clear_pointer (&service, g_free);
}

static guint
service_count (void)
{
  guint n;

  g_mutex_lock (&service->lock);
  n = service->seen->len;
  g_mutex_unlock (&service->lock);
  return n;
}

/* A copy of request @i (from the end when negative). */
static const Seen *
service_seen (gint i)
{
  const Seen *seen;

  g_mutex_lock (&service->lock);
  if (i < 0)
    i += service->seen->len;
  fail_unless (i >= 0 && (guint) i < service->seen->len, "no request %d", i);
  seen = g_ptr_array_index (service->seen, i);
  g_mutex_unlock (&service->lock);
  /* entries are never removed while a test runs */
  return seen;
}

/* ---------------------------------------------------------------------- */
/* The client                                                             */
/* ---------------------------------------------------------------------- */

static gint64 fake_now;

static gint64
fake_clock (gpointer user_data)
{
  return fake_now;
}

static void
setup (void)
{
  fake_now = 1000 * SEC;
  service_start ();
}

static void
teardown (void)
{
  service_stop ();
}

static GstSessionPlatform *
make_platform (void)
{
  GstSessionPlatform *platform = gst_session_platform_new (service->queue_url,
      service->api_url, API_KEY);
  GstSessionRateLimiter *limiter;

  limiter = gst_session_platform_get_rate_limiter (platform);
  gst_session_rate_limiter_set_clock (limiter, fake_clock, NULL, NULL);
  gst_session_rate_limiter_unref (limiter);
  /* bounded: no call of these tests waits longer */
  g_object_set (platform, "timeout", 10000, NULL);
  return platform;
}

/* The error is of @code and keeps the key out. */
static void
check_error (GError * error, gint code)
{
  fail_unless (error != NULL, "no error, expected %d", code);
  fail_unless (error->domain == GST_SESSION_ERROR && error->code == code,
      "error %s %d (%s), expected %d", g_quark_to_string (error->domain),
      error->code, error->message, code);
  fail_if (strstr (error->message, API_KEY) != NULL, "key in \"%s\"",
      error->message);
  GST_INFO ("expected error: %s", error->message);
}

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

static JsonNode *
manage (GstSessionPlatform * platform, GstSessionManagementOp op,
    const gchar * target, const gchar * const *command)
{
  GError *error = NULL;
  JsonNode *node;

  node = gst_session_platform_manage (platform, op, target, command, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL, "%s %s: %s",
      gst_session_management_op_name (op), GST_STR_NULL (target),
      error ? error->message : "");
  return node;
}

static void
check_json (JsonNode * node, const gchar * expected)
{
  gchar *text = json_to_string (node, FALSE);

  fail_unless_equals_string (text, expected);
  g_free (text);
  json_node_unref (node);
}

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
platform_suite (void)
{
  Suite *s = suite_create ("platform");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_submit);
  tcase_add_test (tc, test_submit_invalid);
  tcase_add_test (tc, test_submit_errors);
  tcase_add_test (tc, test_manage);
  tcase_add_test (tc, test_logs);
  tcase_add_test (tc, test_429);
  tcase_add_test (tc, test_local_limit);
  tcase_add_test (tc, test_manage_errors);
  tcase_add_test (tc, test_network);
  tcase_add_test (tc, test_async);
  tcase_add_test (tc, test_reuse);
  return s;
}

GST_CHECK_MAIN (platform);
