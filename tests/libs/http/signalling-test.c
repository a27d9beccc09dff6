/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "signalling-test.h"

GMainContext *test_ctx;

gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Runs what is ready now, without blocking (bounded). */
void
drain_context (void)
{
  guint i;

  for (i = 0; i < 1000 && g_main_context_iteration (test_ctx, FALSE); i++);
}

void
context_setup (void)
{
  test_ctx = g_main_context_new ();
  g_main_context_push_thread_default (test_ctx);
}

void
context_teardown (void)
{
  drain_context ();
  g_main_context_pop_thread_default (test_ctx);
  g_main_context_unref (test_ctx);
  test_ctx = NULL;
}

/* ------------------------------------------------------------------------ */
/* the answer object                                                        */

gchar *
answer_json (const gchar * type, gboolean with_sdp)
{
  JsonBuilder *b = json_builder_new ();
  JsonGenerator *gen = json_generator_new ();
  JsonNode *root;
  gchar *text;

  json_builder_begin_object (b);
  if (with_sdp) {
    json_builder_set_member_name (b, "sdp");
    json_builder_add_string_value (b, ANSWER_SDP);
  }
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, type);
  json_builder_set_member_name (b, "session_id");
  json_builder_add_string_value (b, TEST_SESSION_ID);
  json_builder_set_member_name (b, "expires_in");
  json_builder_add_int_value (b, 600);
  json_builder_set_member_name (b, "ratio");
  json_builder_add_double_value (b, 0.5);
  json_builder_set_member_name (b, "debug");
  json_builder_add_boolean_value (b, FALSE);
  json_builder_set_member_name (b, "note");
  json_builder_add_null_value (b);
  json_builder_set_member_name (b, "ice_servers");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "urls");
  json_builder_add_string_value (b, "stun:127.0.0.1:3478");
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "runner");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "region");
  json_builder_add_string_value (b, "local");
  json_builder_end_object (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  text = json_generator_to_data (gen, NULL);
  json_node_unref (root);
  g_object_unref (gen);
  g_object_unref (b);
  return text;
}

/* ------------------------------------------------------------------------ */
/* the service                                                              */

static void
held_finished (SoupServerMessage * msg, TestServer * ts)
{
  GST_DEBUG ("held message finished");
  ts->held_finished = TRUE;
  if (ts->ticker) {
    g_source_destroy (ts->ticker);
    g_source_unref (ts->ticker);
    ts->ticker = NULL;
  }
}

static void
held_append (TestServer * ts, const gchar * text, gsize length)
{
  SoupMessageBody *body = soup_server_message_get_response_body (ts->held);

  soup_message_body_append (body, SOUP_MEMORY_COPY, text, length);
  soup_server_message_unpause (ts->held);
}

static void
held_complete (TestServer * ts)
{
  soup_message_body_complete (soup_server_message_get_response_body (ts->held));
  soup_server_message_unpause (ts->held);
}

static gboolean
tick (gpointer user_data)
{
  TestServer *ts = user_data;

  if (ts->held_finished)
    return G_SOURCE_REMOVE;

  if (ts->mode == MODE_SSE_TINY && ts->stream[ts->stream_offset] != '\0') {
    /* 1 to 5 bytes at a time, so boundaries fall everywhere */
    gsize n = MIN (strlen (ts->stream + ts->stream_offset),
        1 + ts->stream_offset % 5);

    held_append (ts, ts->stream + ts->stream_offset, n);
    ts->stream_offset += n;
    return G_SOURCE_CONTINUE;
  }

  if (ts->mode == MODE_SSE_CLOSE && ts->keepalives == 2) {
    held_complete (ts);
    g_source_unref (ts->ticker);
    ts->ticker = NULL;
    return G_SOURCE_REMOVE;
  }

  held_append (ts, ": keepalive\n\n", 13);
  ts->keepalives++;
  return G_SOURCE_CONTINUE;
}

void
start_ticker (TestServer * ts, guint ms)
{
  ts->ticker = g_timeout_source_new (ms);
  g_source_set_callback (ts->ticker, tick, ts, NULL);
  g_source_attach (ts->ticker, test_ctx);
}

static void
test_server_release_held (TestServer * ts)
{
  if (ts->ticker) {
    g_source_destroy (ts->ticker);
    g_source_unref (ts->ticker);
    ts->ticker = NULL;
  }
  if (ts->held) {
    g_signal_handlers_disconnect_by_data (ts->held, ts);
    g_clear_object (&ts->held);
  }
  ts->held_finished = FALSE;
  ts->keepalives = 0;
}

static void
hold (TestServer * ts, SoupServerMessage * msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  test_server_release_held (ts);
  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_replace (headers, "Cache-Control", "no-cache");
  ts->held = g_object_ref (msg);
  g_signal_connect (msg, "finished", G_CALLBACK (held_finished), ts);
}

static gchar *
dup_header (SoupMessageHeaders * headers, const gchar * name)
{
  return g_strdup (soup_message_headers_get_one (headers, name));
}

static void
server_cb (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  TestServer *ts = user_data;
  SoupMessageHeaders *req = soup_server_message_get_request_headers (msg);
  SoupMessageHeaders *resp = soup_server_message_get_response_headers (msg);
  GBytes *bytes;
  gchar *answer = NULL, *text;

  ts->requests++;
  g_free (ts->req_method);
  ts->req_method = g_strdup (soup_server_message_get_method (msg));
  g_free (ts->req_path);
  ts->req_path = g_strdup (path);
  g_free (ts->req_content_type);
  ts->req_content_type = dup_header (req, "Content-Type");
  g_free (ts->req_accept);
  ts->req_accept = dup_header (req, "Accept");
  g_free (ts->req_authorization);
  ts->req_authorization = dup_header (req, "Authorization");
  bytes = soup_message_body_flatten (soup_server_message_get_request_body
      (msg));
  g_free (ts->req_body);
  ts->req_body = g_strndup (g_bytes_get_data (bytes, NULL),
      g_bytes_get_size (bytes));
  g_bytes_unref (bytes);

  switch (ts->mode) {
    case MODE_SSE_HOLD:
    case MODE_SSE_CLOSE:
    case MODE_SSE_SILENT:
      hold (ts, msg);
      answer = answer_json ("answer", TRUE);
      text = g_strdup_printf (": welcome\n\ndata: %s\n\n", answer);
      held_append (ts, text, strlen (text));
      g_free (text);
      if (ts->mode != MODE_SSE_SILENT)
        start_ticker (ts, 30);
      break;
    case MODE_SSE_TINY:{
      gchar **lines;

      hold (ts, msg);
      answer = answer_json ("answer", TRUE);
      /* the object over three data lines, split after its first member
       * and before "type" (JSON allows the joining line feeds) */
      text = strstr (answer, ",\"type\"");
      fail_unless (text != NULL);
      *text = '\0';
      lines = g_strsplit (text + 1, ",\"session_id\"", 2);
      ts->stream = g_strdup_printf ("\xef\xbb\xbf: stream start\r\n"
          "retry: 1000\r\nid: 7\r\nevent: answer\r\n"
          "data: %s,\r\ndata:  %s,\r\ndata:\"session_id\"%s\r\n\r\n"
          ": keepalive\r\n\r\n", answer, lines[0], lines[1]);
      g_strfreev (lines);
      ts->stream_offset = 0;
      start_ticker (ts, 1);
      break;
    }
    case MODE_SSE_RAW:
      hold (ts, msg);
      held_append (ts, ts->body, ts->body_length);
      held_complete (ts);
      break;
    case MODE_RESPONSE:
      if (ts->error_type_header)
        soup_message_headers_replace (resp, "X-Svc-Error-Type",
            ts->error_type_header);
      if (ts->retryable_header)
        soup_message_headers_replace (resp, "X-Svc-Retryable",
            ts->retryable_header);
      if (ts->location)
        soup_message_headers_replace (resp, "Location", ts->location);
      soup_server_message_set_status (msg, ts->status, NULL);
      soup_server_message_set_response (msg, ts->content_type,
          SOUP_MEMORY_COPY, ts->body, ts->body_length);
      break;
    case MODE_ECHO_KEY:
      text = g_strdup_printf ("{\"detail\": \"Invalid credentials: %s\"}",
          GST_STR_NULL (ts->req_authorization));
      soup_server_message_set_status (msg, SOUP_STATUS_UNAUTHORIZED, NULL);
      soup_server_message_set_response (msg, "application/json",
          SOUP_MEMORY_TAKE, text, strlen (text));
      break;
    case MODE_SLOW:
      test_server_release_held (ts);
      ts->held = g_object_ref (msg);
      g_signal_connect (msg, "finished", G_CALLBACK (held_finished), ts);
      soup_server_message_pause (msg);
      break;
  }
  g_free (answer);
}

TestServer *
test_server_new_full (Mode mode, GTlsCertificate * certificate)
{
  TestServer *ts = g_new0 (TestServer, 1);
  GInetAddress *loopback = g_inet_address_new_from_string ("127.0.0.1");
  GSocketAddress *address = g_inet_socket_address_new (loopback, 0);
  GError *error = NULL;
  GSList *uris;

  ts->mode = mode;
  ts->server = soup_server_new ("server-header", "test-service",
      "tls-certificate", certificate, NULL);
  soup_server_add_handler (ts->server, NULL, server_cb, ts, NULL);
  fail_unless (soup_server_listen (ts->server, address,
          certificate ? SOUP_SERVER_LISTEN_HTTPS : 0, &error),
      "listen: %s", error ? error->message : "");
  uris = soup_server_get_uris (ts->server);
  fail_unless (uris != NULL);
  ts->url = g_strdup_printf ("%s://127.0.0.1:%d/start_session",
      g_uri_get_scheme (uris->data), g_uri_get_port (uris->data));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_object_unref (address);
  g_object_unref (loopback);
  return ts;
}

TestServer *
test_server_new (Mode mode)
{
  return test_server_new_full (mode, NULL);
}

void
test_server_set_response (TestServer * ts, guint status,
    const gchar * content_type, const gchar * body)
{
  ts->mode = MODE_RESPONSE;
  ts->status = status;
  ts->content_type = content_type;
  g_free (ts->body);
  ts->body = g_strdup (body);
  ts->body_length = strlen (body);
}

void
test_server_free (TestServer * ts)
{
  test_server_release_held (ts);
  soup_server_disconnect (ts->server);
  g_object_unref (ts->server);
  drain_context ();
  g_free (ts->url);
  g_free (ts->body);
  g_free (ts->req_method);
  g_free (ts->req_path);
  g_free (ts->req_content_type);
  g_free (ts->req_accept);
  g_free (ts->req_authorization);
  g_free (ts->req_body);
  g_free (ts->stream);
  g_free (ts);
}

/* A URL on which nothing listens: a server's port, after it is gone. */
gchar *
refused_url (void)
{
  TestServer *ts = test_server_new (MODE_SLOW);
  gchar *url = g_strdup (ts->url);

  test_server_free (ts);
  return url;
}

/* ------------------------------------------------------------------------ */
/* the client side                                                          */

static void
on_answer (GstSessionSignaller * sig, const gchar * sdp,
    const GstStructure * answer, Record * r)
{
  if (!g_main_context_is_owner (test_ctx))
    r->wrong_context = TRUE;
  r->answers++;
  g_free (r->sdp);
  r->sdp = g_strdup (sdp);
  if (r->answer)
    gst_structure_free (r->answer);
  r->answer = gst_structure_copy (answer);
}

static void
on_error (GstSessionSignaller * sig, const GError * error,
    const GstSessionHttpError * http_error, Record * r)
{
  if (!g_main_context_is_owner (test_ctx))
    r->wrong_context = TRUE;
  r->errors++;
  g_clear_error (&r->error);
  r->error = g_error_copy (error);
  g_clear_pointer (&r->http_error, gst_session_http_error_free);
  if (http_error)
    r->http_error = gst_session_http_error_copy (http_error);
  r->ended = g_get_monotonic_time ();
}

static void
on_closed (GstSessionSignaller * sig, GstSessionSignallerCloseReason reason,
    const GError * error, Record * r)
{
  if (!g_main_context_is_owner (test_ctx))
    r->wrong_context = TRUE;
  r->closeds++;
  r->reason = reason;
  g_clear_error (&r->close_error);
  if (error)
    r->close_error = g_error_copy (error);
  r->ended = g_get_monotonic_time ();
}

void
record_clear (Record * r)
{
  g_free (r->sdp);
  if (r->answer)
    gst_structure_free (r->answer);
  g_clear_error (&r->error);
  g_clear_pointer (&r->http_error, gst_session_http_error_free);
  g_clear_error (&r->close_error);
  memset (r, 0, sizeof (*r));
}

GstSessionHttpSignaller *
signaller_new (const gchar * url, const gchar * key, Record * r)
{
  GstSessionHttpSignaller *sig = gst_session_http_signaller_new (url);

  if (key)
    g_object_set (sig, "api-key", key, NULL);
  g_signal_connect (sig, "answer", G_CALLBACK (on_answer), r);
  g_signal_connect (sig, "error", G_CALLBACK (on_error), r);
  g_signal_connect (sig, "closed", G_CALLBACK (on_closed), r);
  return sig;
}

void
start (GstSessionHttpSignaller * sig, const gchar * session_id, Record * r)
{
  GError *error = NULL;

  r->started = g_get_monotonic_time ();
  fail_unless (gst_session_signaller_start (GST_SESSION_SIGNALLER (sig),
          OFFER_SDP, session_id, &error), "start: %s",
      error ? error->message : "");
}

void
signaller_free (GstSessionHttpSignaller * sig)
{
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  gst_object_unref (sig);
  drain_context ();
}

/* Starts against @ts and waits for the error. */
void
run_to_error (TestServer * ts, const gchar * key, Record * r)
{
  GstSessionHttpSignaller *sig = signaller_new (ts->url, key, r);

  start (sig, TEST_SESSION_ID, r);
  WAIT_FOR (r->errors > 0);
  assert_equals_int (r->answers, 0);
  assert_equals_int (r->closeds, 0);
  assert_equals_int (r->errors, 1);
  fail_if (r->wrong_context);
  signaller_free (sig);
}

void
check_offer_request (TestServer * ts, const gchar * key,
    const gchar * session_id)
{
  JsonParser *parser = json_parser_new ();
  JsonObject *object;
  GError *error = NULL;

  fail_unless_equals_string (ts->req_method, "POST");
  fail_unless_equals_string (ts->req_path, "/start_session");
  fail_unless_equals_string (ts->req_content_type, "application/json");
  fail_unless (ts->req_accept && strstr (ts->req_accept, "text/event-stream"));
  if (key) {
    gchar *expected = g_strconcat ("Key ", key, NULL);

    fail_unless_equals_string (ts->req_authorization, expected);
    g_free (expected);
  } else {
    fail_unless (ts->req_authorization == NULL,
        "unexpected Authorization header");
  }

  fail_unless (json_parser_load_from_data (parser, ts->req_body, -1,
          &error), "request body: %s", error ? error->message : "");
  fail_unless (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)));
  object = json_node_get_object (json_parser_get_root (parser));
  assert_equals_int (json_object_get_size (object), 3);
  fail_unless_equals_string (json_object_get_string_member (object, "sdp"),
      OFFER_SDP);
  fail_unless_equals_string (json_object_get_string_member (object, "type"),
      "offer");
  if (session_id) {
    fail_unless_equals_string (json_object_get_string_member (object,
            "session_id"), session_id);
  } else {
    fail_unless (g_uuid_string_is_valid (json_object_get_string_member
            (object, "session_id")));
  }
  g_object_unref (parser);
}
