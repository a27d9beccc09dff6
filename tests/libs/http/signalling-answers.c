/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The start-session signalling client (GstSessionHttpSignaller) against a
 * real SoupServer on 127.0.0.1: what the service answers and what comes of
 * it. An answer as an event stream or as JSON, a stream the service ends or
 * lets go silent, errors (HTTP, a timeout, a refused connection), and bad,
 * oversized and redirected answers.
 *
 * Every wait is a bounded loop on a condition that iterates the test's
 * main context; no fixed sleeps.
 */

#include "signalling-test.h"

/* The service's other fields are JSON text: their names are not made
 * field names, which GStreamer would keep for the life of the process. */
static void
check_answer_structure (const GstStructure * s)
{
  const gchar *text;
  JsonNode *other;
  JsonObject *o, *sub;
  JsonArray *servers;

  fail_unless (gst_structure_has_name (s, "answer"));
  fail_unless_equals_string (gst_structure_get_string (s, "sdp"), ANSWER_SDP);
  fail_unless_equals_string (gst_structure_get_string (s, "type"), "answer");
  fail_unless_equals_string (gst_structure_get_string (s, "session_id"),
      TEST_SESSION_ID);
  assert_equals_int (gst_structure_n_fields (s), 4);

  text = gst_structure_get_string (s, GST_SESSION_MESSAGE_OTHER_FIELDS);
  fail_unless (text != NULL);
  other = json_from_string (text, NULL);
  fail_unless (other != NULL && JSON_NODE_HOLDS_OBJECT (other), "%s", text);
  o = json_node_get_object (other);
  assert_equals_int (json_object_get_size (o), 6);
  assert_equals_int64 (json_object_get_int_member (o, "expires_in"), 600);
  fail_unless (json_object_get_double_member (o, "ratio") == 0.5);
  fail_unless (!json_object_get_boolean_member (o, "debug"));
  fail_unless (json_object_get_null_member (o, "note"));
  servers = json_object_get_array_member (o, "ice_servers");
  assert_equals_int (json_array_get_length (servers), 1);
  fail_unless_equals_string (json_object_get_string_member
      (json_array_get_object_element (servers, 0), "urls"),
      "stun:127.0.0.1:3478");
  sub = json_object_get_object_member (o, "runner");
  fail_unless_equals_string (json_object_get_string_member (sub, "region"),
      "local");
  json_node_unref (other);
}

/* ------------------------------------------------------------------------ */
/* signaller tests                                                          */

GST_START_TEST (test_sse_answer_then_stop)
{
  TestServer *ts = test_server_new (MODE_SSE_HOLD);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  gchar *id = NULL;

  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  fail_if (r.wrong_context);
  fail_unless_equals_string (r.sdp, ANSWER_SDP);
  check_answer_structure (r.answer);
  check_offer_request (ts, TEST_KEY, TEST_SESSION_ID);
  assert_equals_int (ts->requests, 1);

  g_object_get (sig, "session-id", &id, NULL);
  fail_unless_equals_string (id, TEST_SESSION_ID);
  g_free (id);

  /* the session lives across keepalives */
  WAIT_FOR (ts->keepalives >= 3);
  assert_equals_int (r.closeds, 0);
  assert_equals_int (r.errors, 0);
  fail_if (ts->held_finished);

  /* closing our side ends it: the service sees the connection go */
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR (ts->held_finished);
  assert_equals_int (r.answers, 1);
  assert_equals_int (r.closeds, 0);
  assert_equals_int (r.errors, 0);

  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_sse_tiny_chunks_crlf)
{
  TestServer *ts = test_server_new (MODE_SSE_TINY);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, NULL, &r);

  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  fail_unless_equals_string (r.sdp, ANSWER_SDP);
  check_answer_structure (r.answer);
  /* the whole stream went out in pieces, the keepalives follow */
  WAIT_FOR (ts->keepalives >= 2);
  assert_equals_int (r.errors, 0);
  assert_equals_int (r.closeds, 0);

  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  WAIT_FOR (ts->held_finished);
  assert_equals_int (r.closeds, 0);

  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

static void
check_json_answer (guint status)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  gchar *answer = answer_json ("answer", TRUE);

  test_server_set_response (ts, status, "application/json", answer);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  fail_if (r.wrong_context);
  fail_unless_equals_string (r.sdp, ANSWER_SDP);
  check_answer_structure (r.answer);
  check_offer_request (ts, TEST_KEY, TEST_SESSION_ID);
  assert_equals_int (r.errors, 0);
  assert_equals_int (r.closeds, 0);

  /* nothing to watch: a new start is accepted at once */
  start (sig, NULL, &r);
  WAIT_FOR (r.answers == 2);
  assert_equals_int (ts->requests, 2);
  check_offer_request (ts, TEST_KEY, NULL);
  assert_equals_int (r.closeds, 0);

  g_free (answer);
  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_START_TEST (test_json_answer_200)
{
  check_json_answer (200);
}

GST_END_TEST;

GST_START_TEST (test_json_answer_201)
{
  check_json_answer (201);
}

GST_END_TEST;

/* The service's own field names are not interned (GStreamer keeps every
 * quark for the life of the process): they stay JSON text. */
GST_START_TEST (test_answer_names_not_interned)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint i, j;

  for (i = 0; i < 20; i++) {
    GString *answer = g_string_new ("{\"type\":\"answer\",\"sdp\":\"");
    JsonNode *other;

    {
      /* as JSON text: CR and LF escaped (strict JSON has no raw control
       * characters in strings) */
      gchar *escaped = g_strescape (ANSWER_SDP, NULL);

      g_string_append (answer, escaped);
      g_free (escaped);
    }
    g_string_append (answer, "\"");
    for (j = 0; j < 500; j++) {
      gchar *name = g_strdup_printf ("qk-answer-%08x-%u-%u",
          g_random_int (), i, j);

      g_string_append_printf (answer, ",\"%s\":{\"%s\":%u}", name, name, j);
      g_ptr_array_add (names, name);
    }
    g_string_append_c (answer, '}');
    test_server_set_response (ts, 200, "application/json", answer->str);
    start (sig, NULL, &r);
    WAIT_FOR (r.answers == i + 1);
    fail_unless_equals_string (gst_structure_get_string (r.answer, "sdp"),
        ANSWER_SDP);
    assert_equals_int (gst_structure_n_fields (r.answer), 3);
    other = json_from_string (gst_structure_get_string (r.answer,
            GST_SESSION_MESSAGE_OTHER_FIELDS), NULL);
    fail_unless (other != NULL && JSON_NODE_HOLDS_OBJECT (other));
    assert_equals_int (json_object_get_size (json_node_get_object (other)),
        500);
    json_node_unref (other);
    g_string_free (answer, TRUE);
  }
  for (i = 0; i < names->len; i++)
    fail_unless (g_quark_try_string (g_ptr_array_index (names, i)) == 0,
        "%s was interned", (gchar *) g_ptr_array_index (names, i));

  g_ptr_array_unref (names);
  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_service_closes_stream)
{
  TestServer *ts = test_server_new (MODE_SSE_CLOSE);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);

  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.closeds == 1);
  fail_if (r.wrong_context);
  assert_equals_int (r.answers, 1);
  assert_equals_int (r.errors, 0);
  assert_equals_int (r.reason, GST_SESSION_SIGNALLER_CLOSE_REASON_SERVICE);
  fail_unless (r.close_error == NULL);
  assert_equals_int (ts->keepalives, 2);

  /* over: another start works without a stop */
  ts->mode = MODE_SSE_HOLD;
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 2);
  assert_equals_int (r.closeds, 1);

  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_keepalive_timeout)
{
  TestServer *ts = test_server_new (MODE_SSE_SILENT);
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  guint keepalive_timeout = 0;
  gint64 answered;

  g_object_get (sig, "keepalive-timeout", &keepalive_timeout, NULL);
  assert_equals_int (keepalive_timeout, 45000);
  g_object_set (sig, "keepalive-timeout", 300, NULL);

  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.answers == 1);
  answered = g_get_monotonic_time ();
  WAIT_FOR (r.closeds == 1);
  fail_if (r.wrong_context);
  assert_equals_int (r.errors, 0);
  assert_equals_int (r.reason,
      GST_SESSION_SIGNALLER_CLOSE_REASON_KEEPALIVE_TIMEOUT);
  fail_unless (g_error_matches (r.close_error, G_IO_ERROR,
          G_IO_ERROR_TIMED_OUT));
  fail_unless (r.ended - answered >= 250 * 1000);

  /* the signaller closed its side: the next write of the service fails */
  if (!ts->held_finished)
    start_ticker (ts, 30);
  WAIT_FOR (ts->held_finished);

  signaller_free (sig);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_error_503_request_level)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };
  GstSessionRetryDecision decision;

  test_server_set_response (ts, 503, "application/json",
      "{\"detail\": \"No runner could be allocated\", "
      "\"error_type\": \"runner_scheduling_failure\"}");
  ts->error_type_header = "runner_scheduling_failure";
  ts->retryable_header = "true";
  run_to_error (ts, TEST_KEY, &r);

  fail_unless (g_error_matches (r.error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_HTTP), "%s", r.error->message);
  fail_unless (strstr (r.error->message, "runner_scheduling_failure") ||
      strstr (r.error->message, "No runner"), "%s", r.error->message);
  fail_unless (r.http_error != NULL);
  assert_equals_int (r.http_error->status, 503);
  assert_equals_int (r.http_error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (r.http_error->error_type,
      "runner_scheduling_failure");
  fail_unless_equals_string (r.http_error->detail,
      "No runner could be allocated");
  assert_equals_int (r.http_error->retryable, 1);

  /* what the element does with it */
  decision = gst_session_http_error_retry_decision (r.http_error, NULL, 1);
  fail_unless (decision.retry);

  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_error_422_model_level)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };
  GstSessionHttpErrorItem *item;

  test_server_set_response (ts, 422, "application/json",
      "{\"detail\": [{\"loc\": [\"body\", \"sdp\"], "
      "\"msg\": \"The offer has no data channel\", "
      "\"type\": \"feature_not_supported\", "
      "\"url\": \"https://docs.example/errors/#feature_not_supported\"}]}");
  ts->retryable_header = "false";
  run_to_error (ts, TEST_KEY, &r);

  fail_unless (g_error_matches (r.error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_HTTP));
  fail_unless (r.http_error != NULL);
  assert_equals_int (r.http_error->status, 422);
  assert_equals_int (r.http_error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_string (r.http_error->error_type, "feature_not_supported");
  assert_equals_int (r.http_error->retryable, 0);
  assert_equals_int (r.http_error->items->len, 1);
  item = g_ptr_array_index (r.http_error->items, 0);
  fail_unless_equals_string (item->type, "feature_not_supported");
  fail_unless_equals_string (item->loc, "/body/sdp");
  fail_unless_equals_string (item->msg, "The offer has no data channel");
  fail_if (gst_session_http_error_retry_decision (r.http_error, NULL, 1).retry);

  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_error_401_key_scrubbed)
{
  TestServer *ts = test_server_new (MODE_ECHO_KEY);
  Record r = { 0, };
  guint i;

  run_to_error (ts, TEST_KEY, &r);
  /* the service did echo it */
  fail_unless (strstr (ts->req_authorization, TEST_KEY) != NULL);

  fail_unless (r.http_error != NULL);
  assert_equals_int (r.http_error->status, 401);
  fail_unless (strstr (r.error->message, "401") != NULL, "%s",
      r.error->message);
  fail_if (strstr (r.error->message, TEST_KEY), "%s", r.error->message);
  fail_if (r.http_error->detail && strstr (r.http_error->detail, TEST_KEY));
  for (i = 0; i < r.http_error->items->len; i++) {
    GstSessionHttpErrorItem *item = g_ptr_array_index (r.http_error->items,
        i);

    fail_if (item->msg && strstr (item->msg, TEST_KEY));
  }

  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_error_502_not_json)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };

  test_server_set_response (ts, 502, "text/html",
      "<html><body><h1>502 Bad Gateway</h1></body></html>");
  run_to_error (ts, TEST_KEY, &r);

  fail_unless (r.http_error != NULL);
  assert_equals_int (r.http_error->status, 502);
  assert_equals_int (r.http_error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);
  fail_unless (strstr (r.error->message, "502") != NULL);
  /* mapped, never printed raw */
  fail_if (strstr (r.error->message, "<html>"), "%s", r.error->message);

  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_error_body_bounded)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  Record r = { 0, };
  gsize size = 4 * 1024 * 1024;
  gchar *big = g_malloc (size + 1);

  /* 4 MiB of a JSON-looking body: only the first 64 KiB is read */
  memset (big, ' ', size);
  big[0] = '{';
  big[size] = '\0';
  test_server_set_response (ts, 500, "application/json", big);
  run_to_error (ts, TEST_KEY, &r);
  fail_unless (r.http_error != NULL);
  assert_equals_int (r.http_error->status, 500);
  assert_equals_int (r.http_error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);

  g_free (big);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_timeout)
{
  TestServer *ts = test_server_new (MODE_SLOW), *ts2;
  Record r = { 0, };
  gchar *answer;
  GstSessionHttpSignaller *sig = signaller_new (ts->url, TEST_KEY, &r);
  guint timeout = 0;

  g_object_get (sig, "timeout", &timeout, NULL);
  assert_equals_int (timeout, 30000);
  g_object_set (sig, "timeout", 300, NULL);
  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.errors == 1);
  assert_equals_int (ts->requests, 1);
  assert_equals_int (r.answers, 0);
  fail_unless (g_error_matches (r.error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT),
      "%s", r.error->message);
  fail_unless (r.http_error == NULL);
  fail_unless (r.ended - r.started >= 250 * 1000);
  fail_if (strstr (r.error->message, TEST_KEY));

  /* the attempt that timed out left the signaller's session usable */
  ts2 = test_server_new (MODE_RESPONSE);
  answer = answer_json ("answer", TRUE);
  test_server_set_response (ts2, 200, "application/json", answer);
  g_object_set (sig, "url", ts2->url, NULL);
  start (sig, NULL, &r);
  WAIT_FOR (r.answers == 1);
  fail_unless_equals_string (r.sdp, ANSWER_SDP);
  assert_equals_int (r.errors, 1);
  assert_equals_int (ts2->requests, 1);

  g_free (answer);
  signaller_free (sig);
  test_server_free (ts2);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_connection_refused)
{
  gchar *url = refused_url ();
  Record r = { 0, };
  GstSessionHttpSignaller *sig = signaller_new (url, TEST_KEY, &r);

  start (sig, TEST_SESSION_ID, &r);
  WAIT_FOR (r.errors == 1);
  fail_if (r.wrong_context);
  fail_unless (g_error_matches (r.error, G_IO_ERROR,
          G_IO_ERROR_CONNECTION_REFUSED), "%s", r.error->message);
  fail_unless (r.http_error == NULL);
  fail_if (strstr (r.error->message, TEST_KEY));
  assert_equals_int (r.answers, 0);
  assert_equals_int (r.closeds, 0);

  signaller_free (sig);
  g_free (url);
  record_clear (&r);
}

GST_END_TEST;

static void
check_bad_answer (Mode mode, guint status, const gchar * content_type,
    const gchar * body, gsize length, GQuark domain, gint code)
{
  TestServer *ts = test_server_new (mode);
  Record r = { 0, };

  ts->status = status;
  ts->content_type = content_type;
  ts->body = g_memdup2 (body, length);
  ts->body_length = length;
  run_to_error (ts, TEST_KEY, &r);
  fail_unless (r.http_error == NULL);
  fail_unless (g_error_matches (r.error, domain, code), "%s (%d)",
      r.error->message, r.error->code);
  GST_INFO ("refused as expected: %s", r.error->message);

  test_server_free (ts);
  record_clear (&r);
}

GST_START_TEST (test_bad_answers)
{
  gchar *no_sdp = answer_json ("answer", FALSE);
  gchar *offer = answer_json ("offer", TRUE);
  gchar *sse;
  GString *deep = g_string_new ("{\"sdp\": \"x\", \"type\": \"answer\", "
      "\"n\": ");
  guint i;

#define CHECK_BAD(mode, status, ct, body, domain, code) \
  check_bad_answer (mode, status, ct, body, strlen (body), domain, code)

  CHECK_BAD (MODE_RESPONSE, 200, "application/json", no_sdp,
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE);
  CHECK_BAD (MODE_RESPONSE, 200, "application/json", offer,
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE);
  CHECK_BAD (MODE_RESPONSE, 200, "application/json", "[1, 2]",
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON);
  CHECK_BAD (MODE_RESPONSE, 200, "application/json", "{\"sdp\": ",
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON);
  CHECK_BAD (MODE_RESPONSE, 200, "application/json", "",
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON);
  CHECK_BAD (MODE_RESPONSE, 200, "text/plain", "v=0",
      GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP);
  CHECK_BAD (MODE_RESPONSE, 200, "application/json",
      "{\"sdp\": 5, \"type\": \"answer\"}",
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE);
  CHECK_BAD (MODE_RESPONSE, 200, "application/json",
      "{\"sdp\": {\"a\": 1}, \"type\": [\"answer\"]}",
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE);
  CHECK_BAD (MODE_RESPONSE, 200, "application/json",
      "{\"sdp\": \"\xff\", \"type\": \"answer\"}",
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON);

  /* nested beyond the limit: refused before the JSON parser */
  for (i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_string_append (deep, "}");
  CHECK_BAD (MODE_RESPONSE, 200, "application/json", deep->str,
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON);
  sse = g_strdup_printf ("data: %s\n\n", deep->str);
  CHECK_BAD (MODE_SSE_RAW, 200, NULL, sse, GST_SESSION_ERROR,
      GST_SESSION_ERROR_INVALID_JSON);
  g_free (sse);

  /* streams */
  CHECK_BAD (MODE_SSE_RAW, 200, NULL, "data: not json\n\n",
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON);
  sse = g_strdup_printf ("data: %s\n\n", no_sdp);
  CHECK_BAD (MODE_SSE_RAW, 200, NULL, sse, GST_SESSION_ERROR,
      GST_SESSION_ERROR_INVALID_MESSAGE);
  g_free (sse);
  /* ended before the answer, or with an event left incomplete */
  CHECK_BAD (MODE_SSE_RAW, 200, NULL, ": keepalive\n\n", G_IO_ERROR,
      G_IO_ERROR_CONNECTION_CLOSED);
  sse = g_strdup_printf ("data: %s\n", offer);
  CHECK_BAD (MODE_SSE_RAW, 200, NULL, sse, G_IO_ERROR,
      G_IO_ERROR_CONNECTION_CLOSED);
  g_free (sse);

#undef CHECK_BAD
  g_string_free (deep, TRUE);
  g_free (no_sdp);
  g_free (offer);
}

GST_END_TEST;

/* A redirect is not followed: the key would go with it. */
GST_START_TEST (test_redirect_not_followed)
{
  TestServer *ts = test_server_new (MODE_RESPONSE);
  TestServer *other = test_server_new (MODE_SSE_HOLD);
  Record r = { 0, };

  test_server_set_response (ts, 307, "text/plain", "");
  ts->location = other->url;
  run_to_error (ts, TEST_KEY, &r);
  fail_unless (r.http_error != NULL);
  assert_equals_int (r.http_error->status, 307);
  assert_equals_int (other->requests, 0);

  test_server_free (other);
  test_server_free (ts);
  record_clear (&r);
}

GST_END_TEST;

GST_START_TEST (test_oversized_answer)
{
  gsize size = GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER + 10;
  gchar *body = g_malloc (size + 16);
  gchar *p, *line;
  GString *lines = g_string_new (NULL);
  gsize i;

  /* one event over the bound, on one line and over many */
  p = g_stpcpy (body, "data: ");
  memset (p, 'a', size);
  strcpy (p + size, "\n\n");
  check_bad_answer (MODE_SSE_RAW, 200, NULL, body, strlen (body),
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE);

  line = g_strnfill (1000, 'a');
  /* each line adds 1001 bytes of data (its line feed included) */
  for (i = 0; i * 1001 <= GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER; i++)
    g_string_append_printf (lines, "data: %s\n", line);
  g_string_append (lines, "\n");
  check_bad_answer (MODE_SSE_RAW, 200, NULL, lines->str, lines->len,
      GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE);
  g_string_free (lines, TRUE);
  g_free (line);

  /* a JSON answer over the bound */
  memset (body, ' ', size);
  body[0] = '{';
  body[size] = '\0';
  check_bad_answer (MODE_RESPONSE, 200, "application/json", body, size,
      GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP);

  g_free (body);
}

GST_END_TEST;

static Suite *
signalling_answers_suite (void)
{
  Suite *s = suite_create ("signalling-answers");
  TCase *tc = tcase_create ("http");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, context_setup, context_teardown);
  tcase_add_test (tc, test_sse_answer_then_stop);
  tcase_add_test (tc, test_sse_tiny_chunks_crlf);
  tcase_add_test (tc, test_json_answer_200);
  tcase_add_test (tc, test_answer_names_not_interned);
  tcase_add_test (tc, test_json_answer_201);
  tcase_add_test (tc, test_service_closes_stream);
  tcase_add_test (tc, test_keepalive_timeout);
  tcase_add_test (tc, test_error_503_request_level);
  tcase_add_test (tc, test_error_422_model_level);
  tcase_add_test (tc, test_error_401_key_scrubbed);
  tcase_add_test (tc, test_error_502_not_json);
  tcase_add_test (tc, test_error_body_bounded);
  tcase_add_test (tc, test_timeout);
  tcase_add_test (tc, test_connection_refused);
  tcase_add_test (tc, test_bad_answers);
  tcase_add_test (tc, test_redirect_not_followed);
  tcase_add_test (tc, test_oversized_answer);
  return s;
}

GST_CHECK_MAIN (signalling_answers);
