/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "client-test.h"

/* ---------------------------------------------------------------------- */
/* The service: a thread with its own context                             */
/* ---------------------------------------------------------------------- */

Service *service;

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

guint
service_count (void)
{
  guint n;

  g_mutex_lock (&service->lock);
  n = service->seen->len;
  g_mutex_unlock (&service->lock);
  return n;
}

/* A copy of request @i (from the end when negative). */
const Seen *
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

gint64 fake_now;

static gint64
fake_clock (gpointer user_data)
{
  return fake_now;
}

void
setup (void)
{
  fake_now = 1000 * SEC;
  service_start ();
}

void
teardown (void)
{
  service_stop ();
}

GstSessionPlatform *
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
void
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

JsonNode *
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

void
check_json (JsonNode * node, const gchar * expected)
{
  gchar *text = json_to_string (node, FALSE);

  fail_unless_equals_string (text, expected);
  g_free (text);
  json_node_unref (node);
}
