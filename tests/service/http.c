/* gst-session: the reference service, HTTP endpoints
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000

/* A start-session body: errors before the offer is read do not need a
 * real offer */
static gchar *
start_body (void)
{
  gchar *id = g_uuid_string_random ();
  gchar *body = g_strdup_printf ("{\"sdp\": \"v=0\\r\\n\", \"type\": "
      "\"offer\", \"session_id\": \"%s\"}", id);

  g_free (id);
  return body;
}

static SvcHttpReply *
post_start (SvcProcess * p, const gchar * app, const gchar * body,
    const gchar * key)
{
  gchar *url = g_strdup_printf ("%s/%s/start-session", svc_process_url (p),
      app);
  gchar *own = body ? NULL : start_body ();
  SvcHttpReply *r = svc_http ("POST", url, body ? body : own, key);

  g_free (url);
  g_free (own);
  return r;
}

static void
assert_request_error (SvcHttpReply * r, guint status, const gchar * type)
{
  JsonObject *obj;

  fail_unless_equals_int (r->status, status);
  fail_unless_equals_string (r->error_type, type);
  fail_unless (r->json != NULL && JSON_NODE_HOLDS_OBJECT (r->json));
  obj = json_node_get_object (r->json);
  fail_unless_equals_string (json_object_get_string_member (obj,
          "error_type"), type);
  fail_unless (json_object_get_string_member (obj, "detail") != NULL);
  svc_http_reply_free (r);
}

static gint64
healthz_sessions (SvcProcess * p, const gchar * app)
{
  gchar *url = g_strdup_printf ("%s/healthz", svc_process_url (p));
  SvcHttpReply *r = svc_http ("GET", url, NULL, NULL);
  gint64 n;

  g_free (url);
  fail_unless_equals_int (r->status, 200);
  n = json_object_get_int_member (json_object_get_object_member
      (json_node_get_object (r->json), "sessions"), app);
  svc_http_reply_free (r);
  return n;
}

static SvcHttpReply *
admin (SvcProcess * p, const gchar * method, const gchar * body)
{
  gchar *url = g_strdup_printf ("%s/admin/faults", svc_process_url (p));
  SvcHttpReply *r = svc_http (method, url, body, NULL);

  g_free (url);
  return r;
}

GST_START_TEST (test_http_endpoints)
{
  SvcProcess *p = svc_process_start (NULL, NULL);
  gchar *url = g_strdup_printf ("%s/healthz", svc_process_url (p));
  SvcHttpReply *r = svc_http ("GET", url, NULL, NULL);

  fail_unless_equals_int (r->status, 200);
  fail_unless_equals_string (r->content_type, "application/json");
  fail_unless_equals_string (json_object_get_string_member
      (json_node_get_object (r->json), "status"), "ok");
  svc_http_reply_free (r);
  g_free (url);

  url = g_strdup_printf ("%s/nowhere", svc_process_url (p));
  assert_request_error (svc_http ("GET", url, NULL, NULL), 404, "bad_request");
  g_free (url);
  url = g_strdup_printf ("%s/world/start-session", svc_process_url (p));
  assert_request_error (svc_http ("GET", url, NULL, NULL), 405, "bad_request");
  g_free (url);

  /* bodies that are not a start-session request */
  assert_request_error (post_start (p, "world", "not json", NULL), 400,
      "bad_request");
  assert_request_error (post_start (p, "world", "[1]", NULL), 400,
      "bad_request");
  assert_request_error (post_start (p, "world", "{\"type\": \"offer\", "
          "\"session_id\": \"0d9ab1e4-4b8d-4a47-9a43-5a2c1f6e2b11\"}", NULL),
      400, "bad_request");
  assert_request_error (post_start (p, "director", "{\"sdp\": \"v=0\", "
          "\"type\": \"answer\", "
          "\"session_id\": \"0d9ab1e4-4b8d-4a47-9a43-5a2c1f6e2b11\"}", NULL),
      400, "bad_request");
  assert_request_error (post_start (p, "director", "{\"sdp\": \"v=0\", "
          "\"type\": \"offer\", \"session_id\": \"42\"}", NULL), 400,
      "bad_request");
  assert_request_error (post_start (p, "world", NULL, NULL), 400,
      "bad_request");

  /* the admin endpoint checks its rules */
  r = admin (p, "POST", "{\"refuse\": \"no_such_type\"}");
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);
  r = admin (p, "POST", "{\"count\": 2}");
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);
  r = admin (p, "POST", "[{\"app\": \"world\", \"answer_delay\": 0.1}, "
      "{\"stall\": {\"at\": 1, \"duration\": 2}, \"count\": -1}]");
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  r = admin (p, "GET", NULL);
  fail_unless_equals_int (r->status, 200);
  fail_unless_equals_int (json_array_get_length (json_object_get_array_member
          (json_node_get_object (r->json), "rules")), 2);
  svc_http_reply_free (r);
  r = admin (p, "DELETE", NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);

  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_http_api_key)
{
  SvcProcess *p;
  SvcClientOptions options = { NULL, };
  SvcClient *c;
  gchar *log = NULL;

  g_setenv ("GST_DEBUG", "session-service:7", TRUE);
  p = svc_process_start ("--api-key=sekrit-key-1234", "--media=cached", NULL);
  g_unsetenv ("GST_DEBUG");

  assert_request_error (post_start (p, "world", NULL, NULL), 401,
      "bad_request");
  assert_request_error (post_start (p, "world", NULL, "wrong"), 401,
      "bad_request");
  assert_request_error (post_start (p, "director", NULL, "sekrit-key-12345"),
      401, "bad_request");

  options.key = "sekrit-key-1234";
  c = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD, &options);
  fail_unless_equals_int (svc_client_start (c), 200);
  fail_unless (svc_client_wait_open (c, TIMEOUT));
  fail_unless (svc_client_wait_message (c, "session_info", TIMEOUT));
  svc_client_free (c);

  fail_unless_equals_int (svc_process_stop (p, &log), 0);
  fail_unless (strstr (log, "sekrit") == NULL, "the key is in the log");
  g_free (log);
}

GST_END_TEST;

GST_START_TEST (test_http_runners)
{
  SvcProcess *p = svc_process_start ("--runners=1", "--media=cached",
      "--keepalive=1", NULL);
  SvcClient *a, *b, *d;
  gchar *log = NULL;
  gint i;

  a = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD, NULL);
  fail_unless_equals_int (svc_client_start (a), 200);
  fail_unless (svc_client_wait_open (a, TIMEOUT));
  fail_unless_equals_int (healthz_sessions (p, "world"), 1);

  /* the second concurrent world session has no runner */
  assert_request_error (post_start (p, "world", NULL, NULL), 503,
      "runner_scheduling_failure");
  /* the director has its own */
  d = svc_client_new (svc_process_url (p), GST_SESSION_APP_DIRECTOR, NULL);
  fail_unless_equals_int (svc_client_start (d), 200);
  fail_unless (svc_client_wait_open (d, TIMEOUT));

  /* the client closing its response ends the session */
  svc_client_free (a);
  for (i = 0; i < 100 && healthz_sessions (p, "world") > 0; i++)
    svc_client_wait_video_frames (d, svc_client_video_frames (d) + 2, TIMEOUT);
  fail_unless_equals_int (healthz_sessions (p, "world"), 0);

  b = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD, NULL);
  fail_unless_equals_int (svc_client_start (b), 200);
  fail_unless (svc_client_wait_open (b, TIMEOUT));
  fail_unless (svc_client_wait_video_frames (b, 2, TIMEOUT));

  /* SIGTERM with a session of each app streaming: both responses end and
   * the service exits 0, once its sessions are gone and its threads have
   * ended, within its bounds */
  fail_unless_equals_int (svc_process_stop (p, &log), 0);
  fail_unless (strstr (log, "still closing") == NULL, "%s", log);
  fail_unless (strstr (log, "threads still ending") == NULL, "%s", log);
  g_free (log);
  fail_unless (svc_client_wait_response_end (b, TIMEOUT));
  fail_unless (svc_client_wait_response_end (d, TIMEOUT));
  svc_client_free (b);
  svc_client_free (d);
}

GST_END_TEST;

GST_START_TEST (test_http_refusals)
{
  SvcProcess *p =
      svc_process_start ("--fault-refuse=runner_connection_refused:1",
      "--media=cached", NULL);
  SvcHttpReply *r;
  JsonObject *item, *ctx;
  SvcClient *c;

  /* the first start is refused, the next one goes through */
  assert_request_error (post_start (p, "world", NULL, NULL), 503,
      "runner_connection_refused");
  c = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD, NULL);
  fail_unless_equals_int (svc_client_start (c), 200);
  svc_client_free (c);

  /* a model-level error with its ctx and X-Svc-Retryable */
  r = admin (p, "POST", "{\"app\": \"director\", \"refuse\": "
      "{\"error_type\": \"image_too_small\"}}");
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  r = post_start (p, "director", NULL, NULL);
  fail_unless_equals_int (r->status, 422);
  fail_unless_equals_string (r->retryable, "false");
  item = json_array_get_object_element (json_object_get_array_member
      (json_node_get_object (r->json), "detail"), 0);
  fail_unless_equals_string (json_object_get_string_member (item, "type"),
      "image_too_small");
  fail_unless_equals_string (json_array_get_string_element
      (json_object_get_array_member (item, "loc"), 0), "body");
  fail_unless (json_object_get_string_member (item, "msg") != NULL);
  fail_unless (g_str_has_suffix (json_object_get_string_member (item, "url"),
          "/errors/#image_too_small"));
  ctx = json_object_get_object_member (item, "ctx");
  fail_unless_equals_int (json_object_get_int_member (ctx, "min_width"), 512);
  svc_http_reply_free (r);

  r = admin (p, "POST", "{\"refuse\": {\"error_type\": "
      "\"generation_timeout\", \"retryable\": true}}");
  svc_http_reply_free (r);
  r = post_start (p, "director", NULL, NULL);
  fail_unless_equals_int (r->status, 504);
  fail_unless_equals_string (r->retryable, "true");
  svc_http_reply_free (r);

  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_http_answer_delay_and_shutdown)
{
  SvcProcess *p = svc_process_start ("--fault-answer-delay=1.5",
      "--media=cached", NULL);
  SvcClient *c = svc_client_new (svc_process_url (p),
      GST_SESSION_APP_DIRECTOR, NULL);
  gint64 start = g_get_monotonic_time ();

  fail_unless_equals_int (svc_client_start (c), 200);
  fail_unless (g_get_monotonic_time () - start >= 1400000);
  fail_unless (svc_client_wait_open (c, TIMEOUT));
  fail_unless (svc_client_wait_message (c, "session_info", TIMEOUT));

  /* SIGTERM: every session closes, the process exits 0 */
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));
  svc_client_free (c);
}

GST_END_TEST;

/* Teardowns while the control channel carries messages both ways: the
 * client pings without a pause (the service answers each with a pong),
 * then stops its pipeline with pings on their way, and the service closes
 * that session with pongs on their way; a second client pings while the
 * service gets SIGTERM. Every side tears down cleanly and the service
 * exits 0. GStreamer 1.22.0's sctpenc closed the service's SCTP socket
 * while a pong was still in usrsctp_sendv() (a SIGSEGV of the service in
 * its data channel's thread: see tools/service/peer.c); rare as is, it
 * happened every time with that thread slowed down inside usrsctp. */
GST_START_TEST (test_http_shutdown_while_sending)
{
  guint round;

  for (round = 0; round < 2; round++) {
    SvcProcess *p = svc_process_start ("--media=cached", NULL);
    SvcClient *a, *b;
    gint i;

    a = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD, NULL);
    fail_unless_equals_int (svc_client_start (a), 200);
    fail_unless (svc_client_wait_open (a, TIMEOUT));
    svc_client_start_pinging (a);
    fail_unless (svc_client_wait_message (a, "pong", TIMEOUT) != NULL);
    g_usleep (100000);
    fail_unless (svc_client_pings_sent (a) > 10);
    svc_client_free (a);
    for (i = 0; i < 100 && healthz_sessions (p, "world") > 0; i++)
      g_usleep (20000);
    fail_unless_equals_int (healthz_sessions (p, "world"), 0);

    b = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD, NULL);
    fail_unless_equals_int (svc_client_start (b), 200);
    fail_unless (svc_client_wait_open (b, TIMEOUT));
    svc_client_start_pinging (b);
    fail_unless (svc_client_wait_message (b, "pong", TIMEOUT) != NULL);
    g_usleep (100000);
    fail_unless_equals_int (svc_process_stop (p, NULL), 0);
    fail_unless (svc_client_wait_response_end (b, TIMEOUT));
    svc_client_free (b);
  }
}

GST_END_TEST;

static Suite *
http_suite (void)
{
  Suite *s = suite_create ("service-http");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  tcase_add_test (tc, test_http_endpoints);
  tcase_add_test (tc, test_http_api_key);
  tcase_add_test (tc, test_http_runners);
  tcase_add_test (tc, test_http_refusals);
  tcase_add_test (tc, test_http_answer_delay_and_shutdown);
  tcase_add_test (tc, test_http_shutdown_while_sending);
  return s;
}

GST_CHECK_MAIN (http);
