/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The start-session signalling client (GstSessionHttpSignaller) against a
 * real SoupServer on 127.0.0.1: the signaller's own part. Its properties,
 * the key sent or not, starts refused, prepare(), stops, https validation,
 * a private thread, and the key never logged.
 *
 * Every wait is a bounded loop on a condition that iterates the test's
 * main context; no fixed sleeps.
 */

#include <stdio.h>
#include "signalling-test.h"

GST_START_TEST (test_no_key_no_authorization)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, NULL, &r);
  gchar *answer = answer_json ("answer", TRUE);
  JsonParser *parser = json_parser_new ();
  gchar *id;

  test_server_set_response (ts, 200, "application/json", answer);
  start (sig, NULL, &r);
  WAIT_FOR (r.answers == 1);
  check_offer_request (ts, NULL, NULL);

  /* the generated id is the one sent */
  id = gst_session_http_signaller_get_session_id (sig);
  fail_unless (g_uuid_string_is_valid (id));
  fail_unless (json_parser_load_from_data (parser, ts->req_body, -1, NULL));
  fail_unless_equals_string (json_object_get_string_member
      (json_node_get_object (json_parser_get_root (parser)), "session_id"), id);
  g_free (id);

  /* an empty key is no key either */
  g_object_set (sig, "api-key", "", NULL);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 2);
  check_offer_request (ts, NULL, TEST_SESSION_ID);

  g_object_unref (parser);
  g_free (answer);
  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_start_refused)
{
  TestServer *ts = test_server_new (MODE_SLOW);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (NULL, TEST_KEY, &r);
  GError *error = NULL;
  gchar *url;

  fail_if (gst_session_signaller_start (GST_SESSION_SIGNALLER (sig),
          OFFER_SDP, NULL, &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  g_clear_error (&error);

  g_object_set (sig, "url", "ftp://127.0.0.1/start", NULL);
  fail_if (gst_session_signaller_start (GST_SESSION_SIGNALLER (sig),
          OFFER_SDP, NULL, &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  g_clear_error (&error);

  g_object_set (sig, "url", "not a url", NULL);
  fail_if (gst_session_signaller_start (GST_SESSION_SIGNALLER (sig),
          OFFER_SDP, NULL, &error));
  g_clear_error (&error);

  /* one attempt at a time */
  g_object_set (sig, "url", ts->url, NULL);
  start (sig, TEST_SESSION_ID, &r);
  fail_if (gst_session_signaller_start (GST_SESSION_SIGNALLER (sig),
          OFFER_SDP, NULL, &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  g_clear_error (&error);
  WAIT_FOR (ts->requests == 1);

  /* after a stop, a start is accepted again */
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  url = refused_url ();
  g_object_set (sig, "url", url, NULL);
  g_free (url);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.errors == 1);
  assert_equals_int (r.answers, 0);

  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

/* ESTABLISHED TCP connections of this machine toward @port (each seen
 * from its client end), from /proc/net/tcp */
static guint
connections_to (guint port)
{
  gchar *text = NULL, **lines;
  guint i, n = 0;

  if (!g_file_get_contents ("/proc/net/tcp", &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (i = 1; lines[i] && i < 100000; i++) {
    guint local_port = 0, rem_port = 0, state = 0;

    /* sl local_address:port rem_address:port st ... */
    if (sscanf (lines[i], "%*s %*8[0-9A-F]:%X %*8[0-9A-F]:%X %X",
            &local_port, &rem_port, &state) == 3 && rem_port == port &&
        state == 0x01)
      n++;
  }
  g_strfreev (lines);
  g_free (text);
  return n;
}

/* prepare() opens the connection the next start's POST then takes: while
 * the service holds the request, one connection toward it, not two (a
 * round trip less in start-session) */
GST_START_TEST (test_prepare_opens_the_connection)
{
  TestServer *ts = test_server_new (MODE_SLOW);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  GUri *uri = g_uri_parse (ts->url, G_URI_FLAGS_NONE, NULL);
  guint port = g_uri_get_port (uri);

  gst_session_signaller_prepare (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR (connections_to (port) == 1);
  /* and libsoup's side of it done (its callbacks run here) */
  drain_context ();
  assert_equals_int (ts->requests, 0);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (ts->requests == 1);
  assert_equals_int (connections_to (port), 1);
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));

  g_uri_unref (uri);
  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

/* Start and stop cycles the way an element runs them (prepare(), the
 * start, its end, stop()), each ending another way: a JSON answer, a
 * refusal, an event stream the service ends, a prepare() with no start.
 * libsoup keeps a connection whose answer was read whole for a next
 * request: after the last stop none toward the service stays open
 * (issue 28: 200 sessions of an element left up to 4 once it stopped). */
GST_START_TEST (test_stop_closes_connections)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  GUri *uri = g_uri_parse (ts->url, G_URI_FLAGS_NONE, NULL);
  guint port = g_uri_get_port (uri);
  gchar *answer = answer_json ("answer", TRUE);
  guint i, left;

  for (i = 0; i < 3; i++) {
    test_server_set_response (ts, 200, "application/json", answer);
    gst_session_signaller_prepare (GST_SESSION_SIGNALLER (sig));
    start (sig, TEST_SESSION_ID, &r);
    WAIT_FOR (r.answers == i + 1);
    gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  }

  test_server_set_response (ts, 503, "application/json",
      "{\"detail\": \"busy\", \"error_type\": "
      "\"runner_scheduling_failure\"}");
  gst_session_signaller_prepare (GST_SESSION_SIGNALLER (sig));
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.errors == 1);
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));

  ts->mode = MODE_SSE_CLOSE;
  gst_session_signaller_prepare (GST_SESSION_SIGNALLER (sig));
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.closeds == 1);
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));

  /* the next session's connection opened ahead, then no session */
  gst_session_signaller_prepare (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR (connections_to (port) >= 1);
  drain_context ();
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));

  WAIT_FOR_MS ((left = connections_to (port)) == 0, 2000);
  fail_unless (left == 0, "%u connection(s) toward the service still open "
      "after the last stop", left);
  assert_equals_int (ts->requests, 5);

  /* and a start after it still takes the connection opened ahead */
  ts->mode = MODE_SLOW;
  gst_session_signaller_prepare (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR (connections_to (port) == 1);
  drain_context ();
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (ts->requests == 6);
  assert_equals_int (connections_to (port), 1);
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR_MS ((left = connections_to (port)) == 0, 2000);
  fail_unless (left == 0, "%u connection(s) toward the service still open "
      "after the last stop", left);

  g_free (answer);
  g_uri_unref (uri);
  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_stop_before_answer)
{
  TestServer *ts = test_server_new (MODE_SLOW);
  TestServer *clock = test_server_new (MODE_SLOW);
  TestServer *hold_ts;
  Record r = { 0, }, rc = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  GstSessionHttpSignaller *timer = signaller_new (clock->url, NULL, &rc);

  g_object_set (sig, "timeout", 200, NULL);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (ts->requests == 1);
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));

  /* a second signaller's timeout, longer than the first one's, is the
   * clock: when it fires, the stopped one would have fired too */
  g_object_set (timer, "timeout", 600, NULL);
  start (timer, NULL, &rc);
  WAIT_FOR (rc.errors == 1);
  assert_equals_int (r.errors, 0);
  assert_equals_int (r.answers, 0);
  assert_equals_int (r.closeds, 0);

  /* dropping a running signaller stops it too */
  hold_ts = test_server_new (MODE_SSE_HOLD);
  g_object_set (sig, "url", hold_ts->url, NULL);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  gst_object_unref (sig);
  WAIT_FOR (hold_ts->held_finished);
  assert_equals_int (r.closeds, 0);

  signaller_free (timer);
  test_server_free (hold_ts);
  test_server_free (ts);
  test_server_free (clock);
  record_clear (&r);
  record_clear (&rc);
}

GST_END_TEST;

static void
stop_on_answer (GstSessionSignaller * sig, const gchar * sdp,
    const GstStructure * answer, gpointer user_data)
{
  gst_session_signaller_stop (sig);
}

GST_START_TEST (test_stop_from_handler)
{
  TestServer *ts = test_server_new (MODE_SSE_HOLD);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);

  g_signal_connect (sig, "answer", G_CALLBACK (stop_on_answer), NULL);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  WAIT_FOR (ts->held_finished);
  assert_equals_int (r.closeds, 0);
  assert_equals_int (r.errors, 0);

  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_properties)
{
  GstSessionHttpSignaller *sig = gst_session_http_signaller_new ("http://x");
  GParamSpec *pspec;
  gchar *url;
  gboolean tls;

  fail_unless (GST_SESSION_IS_SIGNALLER (sig));
  g_object_get (sig, "url", &url, "tls-validation", &tls, NULL);
  fail_unless_equals_string (url, "http://x");
  fail_unless (tls);
  g_free (url);

  /* the key can be set, never read */
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (sig), "api-key");
  fail_unless (pspec != NULL);
  fail_unless (pspec->flags & G_PARAM_WRITABLE);
  fail_if (pspec->flags & G_PARAM_READABLE);

  fail_unless (gst_session_http_signaller_get_session_id (sig) == NULL);
  fail_unless (g_type_is_a (GST_SESSION_TYPE_SIGNALLER_CLOSE_REASON,
          G_TYPE_ENUM));

  gst_object_unref (sig);
}

GST_END_TEST;

/* A self-signed certificate for 127.0.0.1 (a test fixture, nothing
 * else), valid for a century. */
static const gchar test_certificate[] =
    "-----BEGIN CERTIFICATE-----\n"
    "MIIBkDCCATagAwIBAgIUY5GsTR8xQnewE5uFesCpVc/bLz0wCgYIKoZIzj0EAwIw\n"
    "FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyMTA3MzEwNFoYDzIxMjYxMDI4\n"
    "MDczMTA0WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO\n"
    "PQMBBwNCAAQhIvPfK4xUeeH1AWDMtssnkq16RaF1z0U6UPDk0JsnDO7+5tPwOGVh\n"
    "Cx0TbUEGQHdJtaJ7qUCUKWj9MgPM9apLo2QwYjAdBgNVHQ4EFgQUyDvV7PX+j8LX\n"
    "+Hgh86pWU96+grgwHwYDVR0jBBgwFoAUyDvV7PX+j8LX+Hgh86pWU96+grgwDwYD\n"
    "VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0gAMEUC\n"
    "IEhd5cdY0y7SJxVHmbkLnksX7UzFLSwFtQodHQOxAJ5TAiEAyg/NDeoQ9N6gMGLr\n"
    "Z9qMb5vQbDUMXEQb1vJtIMs8Wsw=\n"
    "-----END CERTIFICATE-----\n"
    "-----BEGIN PRIVATE KEY-----\n"
    "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgdlYK2S7m4Cg6slM0\n"
    "zEBUWlHb2RGEUwGT6f0oBNuqCwqhRANCAAQhIvPfK4xUeeH1AWDMtssnkq16RaF1\n"
    "z0U6UPDk0JsnDO7+5tPwOGVhCx0TbUEGQHdJtaJ7qUCUKWj9MgPM9apL\n"
    "-----END PRIVATE KEY-----\n";

GST_START_TEST (test_https_validation)
{
  TestServer *ts;
  Record r = { 0, };
  GstSessionHttpSignaller *sig;
  GTlsCertificate *certificate;
  GError *error = NULL;

  if (!g_tls_backend_supports_tls (g_tls_backend_get_default ())) {
    GST_WARNING ("no TLS backend (glib-networking): https not tested");
    return;
  }
  certificate = g_tls_certificate_new_from_pem (test_certificate, -1, &error);
  fail_unless (certificate != NULL, "%s", error ? error->message : "");
  ts = test_server_new_full (MODE_SSE_HOLD, certificate);
  fail_unless (g_str_has_prefix (ts->url, "https://"));

  /* verified by default: an unknown authority is refused */
  sig = signaller_new (ts->url, TEST_KEY, &r);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.errors == 1);
  GST_INFO ("refused: %s", r.error->message);
  fail_unless (r.error->domain == G_TLS_ERROR, "%s", r.error->message);
  fail_unless (r.http_error == NULL);
  assert_equals_int (ts->requests, 0);
  assert_equals_int (r.answers, 0);

  /* unless told not to */
  g_object_set (sig, "tls-validation", FALSE, NULL);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  fail_unless_equals_string (r.sdp, ANSWER_SDP);
  check_offer_request (ts, TEST_KEY, TEST_SESSION_ID);
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR (ts->held_finished);
  assert_equals_int (r.errors, 1);

  signaller_free (sig);
  test_server_free (ts);
  g_object_unref (certificate);
  record_clear (&r);
}

GST_END_TEST;

/* The way an element runs it: the signaller on a private thread with its
 * own context, stop() from another thread. */
typedef struct
{
  GMainContext *ctx;
  GMainLoop *loop;
  GThread *thread;
  GstSessionHttpSignaller *sig;
  gint started;
  gint answers;
  gint errors;
  gint closeds;
  gint wrong_thread;
} Worker;

static void
worker_check_thread (Worker * w)
{
  if (g_thread_self () != w->thread || !g_main_context_is_owner (w->ctx))
    g_atomic_int_set (&w->wrong_thread, 1);
}

static void
worker_on_answer (GstSessionSignaller * sig, const gchar * sdp,
    const GstStructure * answer, Worker * w)
{
  worker_check_thread (w);
  g_atomic_int_inc (&w->answers);
}

static void
worker_on_error (GstSessionSignaller * sig, const GError * error,
    const GstSessionHttpError * http_error, Worker * w)
{
  worker_check_thread (w);
  g_atomic_int_inc (&w->errors);
}

static void
worker_on_closed (GstSessionSignaller * sig,
    GstSessionSignallerCloseReason reason, const GError * error, Worker * w)
{
  worker_check_thread (w);
  g_atomic_int_inc (&w->closeds);
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;

  g_main_context_push_thread_default (w->ctx);
  g_main_loop_run (w->loop);
  g_main_context_pop_thread_default (w->ctx);
  return NULL;
}

static gboolean
worker_start (gpointer data)
{
  Worker *w = data;

  if (gst_session_signaller_start (GST_SESSION_SIGNALLER (w->sig), OFFER_SDP,
          NULL, NULL))
    g_atomic_int_inc (&w->started);
  return G_SOURCE_REMOVE;
}

static gboolean
worker_finish (gpointer data)
{
  Worker *w = data;

  gst_object_unref (w->sig);
  w->sig = NULL;
  g_main_loop_quit (w->loop);
  return G_SOURCE_REMOVE;
}

GST_START_TEST (test_private_thread)
{
  TestServer *ts = test_server_new (MODE_SSE_HOLD);
  Worker w = { 0, };

  w.ctx = g_main_context_new ();
  w.loop = g_main_loop_new (w.ctx, FALSE);
  w.sig = gst_session_http_signaller_new (ts->url);
  g_signal_connect (w.sig, "answer", G_CALLBACK (worker_on_answer), &w);
  g_signal_connect (w.sig, "error", G_CALLBACK (worker_on_error), &w);
  g_signal_connect (w.sig, "closed", G_CALLBACK (worker_on_closed), &w);
  w.thread = g_thread_new ("signaller", worker_main, &w);

  g_main_context_invoke (w.ctx, worker_start, &w);
  WAIT_FOR (g_atomic_int_get (&w.answers) == 1);
  WAIT_FOR (ts->keepalives >= 2);

  /* from this thread, while the private one runs it */
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (w.sig));
  WAIT_FOR (ts->held_finished);
  assert_equals_int (g_atomic_int_get (&w.closeds), 0);
  assert_equals_int (g_atomic_int_get (&w.errors), 0);

  /* a session the service ends: "closed" comes on the private thread */
  ts->mode = MODE_SSE_CLOSE;
  g_main_context_invoke (w.ctx, worker_start, &w);
  WAIT_FOR (g_atomic_int_get (&w.closeds) == 1);
  assert_equals_int (g_atomic_int_get (&w.started), 2);
  assert_equals_int (g_atomic_int_get (&w.answers), 2);
  assert_equals_int (g_atomic_int_get (&w.errors), 0);
  assert_equals_int (g_atomic_int_get (&w.wrong_thread), 0);

  g_main_context_invoke (w.ctx, worker_finish, &w);
  g_thread_join (w.thread);
  g_main_loop_unref (w.loop);
  g_main_context_unref (w.ctx);
  test_server_free (ts);
}

GST_END_TEST;

/* Every line of the GStreamer debug log, at the highest level. */
static GString *debug_log;
static guint debug_lines_of_session;

static void
collect_log (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (text == NULL)
    return;
  g_string_append (debug_log, text);
  g_string_append_c (debug_log, '\n');
  if (g_strcmp0 (gst_debug_category_get_name (category), "session") == 0)
    debug_lines_of_session++;
}

GST_START_TEST (test_key_never_logged)
{
  TestServer *ts;
  Record r = { 0, };
  GstSessionHttpSignaller *sig;
  gchar *url;

  debug_log = g_string_new (NULL);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (collect_log, NULL, NULL);
  gst_debug_set_active (TRUE);
  gst_debug_set_threshold_from_string ("*:9", TRUE);

  /* an answer and a session */
  ts = test_server_new (MODE_SSE_HOLD);
  sig = signaller_new (ts->url, TEST_KEY, &r);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  WAIT_FOR (ts->keepalives >= 1);
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR (ts->held_finished);
  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);

  /* errors of every kind, one echoing the key */
  ts = test_server_new (MODE_ECHO_KEY);
  run_to_error (ts, TEST_KEY, &r);
  fail_if (strstr (r.error->message, TEST_KEY));
  test_server_free (ts);
  record_clear (&r);

  ts = test_server_new (MODE_RESPONSE);
  test_server_set_response (ts, 503, "application/json",
      "{\"detail\": \"no runner for " TEST_KEY "\", "
      "\"error_type\": \"runner_scheduling_failure\"}");
  run_to_error (ts, TEST_KEY, &r);
  fail_if (strstr (r.error->message, TEST_KEY));
  fail_if (strstr (r.http_error->detail, TEST_KEY));
  test_server_free (ts);
  record_clear (&r);

  ts = test_server_new (MODE_RESPONSE);
  test_server_set_response (ts, 200, "application/json", "{\"x\": 1}");
  run_to_error (ts, TEST_KEY, &r);
  fail_if (strstr (r.error->message, TEST_KEY));
  test_server_free (ts);
  record_clear (&r);

  url = refused_url ();
  ts = test_server_new (MODE_SLOW);
  g_free (ts->url);
  ts->url = url;
  run_to_error (ts, TEST_KEY, &r);
  fail_if (strstr (r.error->message, TEST_KEY));
  test_server_free (ts);
  record_clear (&r);

  gst_debug_set_threshold_from_string ("*:0", TRUE);
  gst_debug_remove_log_function (collect_log);

  /* the log is not empty: the library did log, at every level */
  fail_unless (debug_lines_of_session > 5, "only %u lines",
      debug_lines_of_session);
  fail_unless (strstr (debug_log->str, "POST") != NULL);
  fail_if (strstr (debug_log->str, TEST_KEY) != NULL,
      "the API key is in the debug log");
  g_string_free (debug_log, TRUE);
  debug_log = NULL;
}

GST_END_TEST;

static Suite *
signalling_lifecycle_suite (void)
{
  Suite *s = suite_create ("signalling-lifecycle");
  TCase *tc = tcase_create ("http");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, context_setup, context_teardown);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_no_key_no_authorization);
  tcase_add_test (tc, test_start_refused);
  tcase_add_test (tc, test_stop_before_answer);
  tcase_add_test (tc, test_prepare_opens_the_connection);
  tcase_add_test (tc, test_stop_closes_connections);
  tcase_add_test (tc, test_stop_from_handler);
  tcase_add_test (tc, test_https_validation);
  tcase_add_test (tc, test_private_thread);
  tcase_add_test (tc, test_key_never_logged);
  return s;
}

GST_CHECK_MAIN (signalling_lifecycle);
