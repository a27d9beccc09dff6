/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The HTTP call layer against a real SoupServer on 127.0.0.1 (port 0) on
 * the test's own context: one owner's calls share one connection, a call
 * that timed out or was cancelled leaves the session usable, the body
 * bounds, the request rules and the key kept out of texts.
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>

#define API_KEY "sk-live-0c4b1e9a77d24f6e93a1b5c8d2e7f301"

static SoupServer *server;
static gchar *base_url;
/* the remote ports the server saw requests from: one per connection */
static GHashTable *ports;
static guint n_requests;
static GPtrArray *held;
static gchar *authorization;

static void
on_request_started (SoupServer * srv, SoupServerMessage * msg, gpointer data)
{
  GSocketAddress *remote = soup_server_message_get_remote_address (msg);

  fail_unless (G_IS_INET_SOCKET_ADDRESS (remote));
  g_hash_table_add (ports, GUINT_TO_POINTER (g_inet_socket_address_get_port
          (G_INET_SOCKET_ADDRESS (remote))));
  n_requests++;
}

static void
handle (SoupServer * srv, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer data)
{
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  gchar *big;

  g_free (authorization);
  authorization = g_strdup (soup_message_headers_get_one (req,
          "Authorization"));

  if (g_str_equal (path, "/ok")) {
    soup_server_message_set_status (msg, 200, NULL);
    soup_server_message_set_response (msg, "application/json",
        SOUP_MEMORY_STATIC, "{\"ok\": true}", 12);
  } else if (g_str_equal (path, "/big") || g_str_equal (path, "/error")) {
    big = g_strnfill (100, 'x');
    soup_server_message_set_status (msg, g_str_equal (path, "/big") ? 200 :
        500, NULL);
    soup_server_message_set_response (msg, "text/plain", SOUP_MEMORY_TAKE,
        big, 100);
  } else if (g_str_equal (path, "/moved")) {
    soup_server_message_set_redirect (msg, 302, "/ok");
  } else if (g_str_equal (path, "/slow")) {
    /* never answers */
    g_ptr_array_add (held, g_object_ref (msg));
    soup_server_message_pause (msg);
  } else {
    soup_server_message_set_status (msg, 404, NULL);
  }
}

static void
setup (void)
{
  GError *error = NULL;
  GSList *uris;
  GInetAddress *loopback = g_inet_address_new_from_string ("127.0.0.1");
  GSocketAddress *address = g_inet_socket_address_new (loopback, 0);

  ports = g_hash_table_new (NULL, NULL);
  held = g_ptr_array_new_with_free_func (g_object_unref);
  n_requests = 0;
  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, handle, NULL, NULL);
  g_signal_connect (server, "request-started",
      G_CALLBACK (on_request_started), NULL);
  fail_unless (soup_server_listen (server, address, 0, &error), "%s",
      error ? error->message : "");
  uris = soup_server_get_uris (server);
  base_url = g_uri_to_string (uris->data);
  if (g_str_has_suffix (base_url, "/"))
    base_url[strlen (base_url) - 1] = '\0';
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_object_unref (address);
  g_object_unref (loopback);
}

static void
teardown (void)
{
  g_ptr_array_unref (held);
  soup_server_disconnect (server);
  g_clear_object (&server);
  while (g_main_context_iteration (NULL, FALSE));
  g_hash_table_unref (ports);
  g_clear_pointer (&base_url, g_free);
  g_clear_pointer (&authorization, g_free);
}

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

typedef struct
{
  GBytes *body;
  guint status;
  SoupMessageHeaders *headers;
  GError *error;
} Result;

static void
result_clear (Result * r)
{
  g_clear_pointer (&r->body, g_bytes_unref);
  g_clear_pointer (&r->headers, soup_message_headers_unref);
  g_clear_error (&r->error);
  r->status = 0;
}

/* One fetch of @path on @session, waited for (at most 10 s). */
static void
fetch (SoupSession * session, const gchar * path, guint timeout,
    GCancellable * cancellable, Result * r)
{
  GAsyncResult *result = NULL;
  GSource *guard = g_timeout_source_new_seconds (10);
  SoupMessage *msg;
  GError *error = NULL;
  gchar *url = g_strconcat (base_url, path, NULL);

  msg = gst_session_http_request_new ("GET", url, "application/json",
      API_KEY, NULL, TRUE, &error);
  fail_unless (msg != NULL, "%s", error ? error->message : "");
  g_source_set_callback (guard, on_too_long, NULL, NULL);
  g_source_attach (guard, NULL);

  gst_session_http_fetch_async (session, msg, timeout, 64, 16, cancellable,
      on_done, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  r->body = gst_session_http_fetch_finish (session, result, &r->status,
      &r->headers, &r->error);

  g_source_destroy (guard);
  g_source_unref (guard);
  g_object_unref (result);
  g_object_unref (msg);
  g_free (url);
}

static void
check_ok (const Result * r)
{
  fail_unless (r->body != NULL, "%s", r->error ? r->error->message : "");
  fail_unless_equals_int (r->status, 200);
  fail_unless (r->headers != NULL);
  fail_unless_equals_int (g_bytes_get_size (r->body), 12);
  fail_unless (memcmp (g_bytes_get_data (r->body, NULL), "{\"ok\": true}",
          12) == 0);
}

/* Two calls of one owner go over one TCP connection. */
GST_START_TEST (test_reuse)
{
  SoupSession *session = gst_session_http_session_new ();
  Result r = { 0, };

  fetch (session, "/ok", 5000, NULL, &r);
  check_ok (&r);
  fail_unless_equals_string (authorization, "Key " API_KEY);
  result_clear (&r);
  fetch (session, "/ok", 5000, NULL, &r);
  check_ok (&r);
  result_clear (&r);
  fetch (session, "/error", 5000, NULL, &r);
  fail_unless_equals_int (r.status, 500);
  result_clear (&r);

  fail_unless_equals_int (n_requests, 3);
  fail_unless_equals_int (g_hash_table_size (ports), 1);
  g_object_unref (session);
}

GST_END_TEST;

/* A call that timed out, or was cancelled, does not break the next one. */
GST_START_TEST (test_timeout_then_next)
{
  SoupSession *session = gst_session_http_session_new ();
  GCancellable *cancellable = g_cancellable_new ();
  Result r = { 0, };
  gint64 start = g_get_monotonic_time ();

  fetch (session, "/ok", 5000, NULL, &r);
  check_ok (&r);
  result_clear (&r);

  fetch (session, "/slow", 200, NULL, &r);
  fail_unless (r.body == NULL);
  fail_unless (g_error_matches (r.error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT),
      "%s", r.error->message);
  fail_unless_equals_string (r.error->message, "no answer within 200 ms");
  fail_unless (g_get_monotonic_time () - start < 5 * G_USEC_PER_SEC);
  result_clear (&r);

  fetch (session, "/ok", 5000, NULL, &r);
  check_ok (&r);
  result_clear (&r);

  /* cancelled while waiting, then cancelled before starting */
  g_timeout_add_once (100, (GSourceOnceFunc) g_cancellable_cancel, cancellable);
  fetch (session, "/slow", 5000, cancellable, &r);
  fail_unless (g_error_matches (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED),
      "%s", r.error->message);
  result_clear (&r);
  fetch (session, "/ok", 5000, cancellable, &r);
  fail_unless (g_error_matches (r.error, G_IO_ERROR, G_IO_ERROR_CANCELLED),
      "%s", r.error->message);
  result_clear (&r);

  fetch (session, "/ok", 5000, NULL, &r);
  check_ok (&r);
  result_clear (&r);

  /* /slow twice, the first /ok and the last one; the one cancelled before
   * starting never reached the server */
  fail_unless_equals_int (n_requests, 5);
  g_object_unref (cancellable);
  g_object_unref (session);
}

GST_END_TEST;

/* A 2xx body over its bound is an error; an error body is cut. Redirects
 * are answers, not followed. */
GST_START_TEST (test_bounds)
{
  SoupSession *session = gst_session_http_session_new ();
  Result r = { 0, };

  fetch (session, "/big", 5000, NULL, &r);
  fail_unless (g_error_matches (r.error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_HTTP));
  fail_unless_equals_string (r.error->message,
      "the answer is larger than 64 bytes");
  fail_unless_equals_int (r.status, 200);
  result_clear (&r);

  fetch (session, "/error", 5000, NULL, &r);
  fail_unless (r.body != NULL);
  fail_unless_equals_int (r.status, 500);
  fail_unless_equals_int (g_bytes_get_size (r.body), 16);
  result_clear (&r);

  fetch (session, "/moved", 5000, NULL, &r);
  fail_unless (r.body != NULL);
  fail_unless_equals_int (r.status, 302);
  fail_unless (g_str_has_suffix (soup_message_headers_get_one (r.headers,
              "Location"), "/ok"));
  result_clear (&r);

  fetch (session, "/ok", 5000, NULL, &r);
  check_ok (&r);
  result_clear (&r);
  g_object_unref (session);
}

GST_END_TEST;

/* The request rules and the texts: URLs without secrets, the key
 * scrubbed. */
GST_START_TEST (test_request)
{
  GError *error = NULL;
  SoupMessage *msg;
  GUri *uri;
  gchar *text;

  fail_if (gst_session_http_request_new ("GET", NULL, NULL, NULL, NULL, TRUE,
          &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  fail_unless_equals_string (error->message, "No request URL is set");
  g_clear_error (&error);

  fail_if (gst_session_http_request_new ("GET",
          "ftp://user:secret@example.com/x", NULL, NULL, NULL, TRUE, &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  fail_unless (strstr (error->message, "not http or https") != NULL, "%s",
      error->message);
  fail_unless (strstr (error->message, "secret") == NULL, "%s", error->message);
  fail_unless (strstr (error->message, "user") == NULL, "%s", error->message);
  g_clear_error (&error);

  uri = gst_session_http_parse_url ("https://user:secret@example.com/a?b=c#d",
      "key set URL", &error);
  fail_unless (uri != NULL);
  text = gst_session_http_safe_url (uri, FALSE);
  fail_unless_equals_string (text, "https://example.com/a?b=c#d");
  g_free (text);
  text = gst_session_http_safe_url (uri, TRUE);
  fail_unless_equals_string (text, "https://example.com/a");
  g_free (text);

  msg = gst_session_http_request_new_from_uri ("POST", uri, "text/plain",
      API_KEY, NULL, TRUE, &error);
  fail_unless (msg != NULL);
  fail_unless (soup_message_query_flags (msg, SOUP_MESSAGE_NO_REDIRECT));
  fail_unless_equals_string (soup_message_headers_get_one
      (soup_message_get_request_headers (msg), "Authorization"),
      "Key " API_KEY);
  fail_unless_equals_string (soup_message_headers_get_one
      (soup_message_get_request_headers (msg), "Accept"), "text/plain");
  g_object_unref (msg);
  msg = gst_session_http_request_new_from_uri ("GET", uri, NULL, "", NULL,
      TRUE, &error);
  fail_unless (soup_message_headers_get_one (soup_message_get_request_headers
          (msg), "Authorization") == NULL);
  g_object_unref (msg);
  g_uri_unref (uri);

  text = g_strdup ("bad key " API_KEY ", again " API_KEY);
  gst_session_http_scrub (&text, API_KEY);
  fail_unless_equals_string (text, "bad key <api-key>, again <api-key>");
  gst_session_http_scrub (&text, NULL);
  fail_unless_equals_string (text, "bad key <api-key>, again <api-key>");
  g_free (text);
}

GST_END_TEST;

static Suite *
call_suite (void)
{
  Suite *s = suite_create ("http-call");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, setup, teardown);
  tcase_add_test (tc, test_reuse);
  tcase_add_test (tc, test_timeout_then_next);
  tcase_add_test (tc, test_bounds);
  tcase_add_test (tc, test_request);
  return s;
}

GST_CHECK_MAIN (call);
