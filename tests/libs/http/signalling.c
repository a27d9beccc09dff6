/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The start-session signalling client (GstSessionHttpSignaller) against a
 * real SoupServer on 127.0.0.1, and the pure event-stream parser.
 *
 * Every wait is a bounded loop on a condition that iterates the test's
 * main context; no fixed sleeps.
 */

#include <stdio.h>
#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#define TEST_KEY "sk-test-5f1c9a7e3b2d4c6a8e0f1b3d5c7a9e1f"
#define TEST_SESSION_ID "0b7f4c3e-1d2a-4e5b-9c8d-7a6f5e4d3c2b"
#define OFFER_SDP "v=0\r\no=- 42 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n" \
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n" \
    "c=IN IP4 0.0.0.0\r\na=mid:0\r\na=sctp-port:5000\r\n"
#define ANSWER_SDP "v=0\r\no=- 7 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n" \
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n" \
    "c=IN IP4 127.0.0.1\r\na=mid:0\r\na=setup:active\r\n"

/* the longest any wait may take, in milliseconds */
#define WAIT_MAX 10000

static GMainContext *test_ctx;

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

/* Iterates the test context until @cond holds or @ms pass; a ticking source
 * keeps the blocking iteration from waiting forever. */
#define WAIT_FOR_MS(cond, ms) G_STMT_START {                               \
  gint64 _deadline = g_get_monotonic_time () + (gint64) (ms) * 1000;       \
  GSource *_tick = g_timeout_source_new (5);                               \
  g_source_set_callback (_tick, wake_up, NULL, NULL);                      \
  g_source_attach (_tick, test_ctx);                                       \
  while (!(cond) && g_get_monotonic_time () < _deadline)                   \
    g_main_context_iteration (test_ctx, TRUE);                             \
  g_source_destroy (_tick);                                                \
  g_source_unref (_tick);                                                  \
} G_STMT_END

#define WAIT_FOR(cond) G_STMT_START {                                      \
  WAIT_FOR_MS (cond, WAIT_MAX);                                            \
  fail_unless (cond, "timed out waiting for: %s", #cond);                  \
} G_STMT_END

/* Runs what is ready now, without blocking (bounded). */
static void
drain_context (void)
{
  guint i;

  for (i = 0; i < 1000 && g_main_context_iteration (test_ctx, FALSE); i++);
}

static void
context_setup (void)
{
  test_ctx = g_main_context_new ();
  g_main_context_push_thread_default (test_ctx);
}

static void
context_teardown (void)
{
  drain_context ();
  g_main_context_pop_thread_default (test_ctx);
  g_main_context_unref (test_ctx);
  test_ctx = NULL;
}

/* ------------------------------------------------------------------------ */
/* the answer object                                                        */

static gchar *
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
/* the service                                                              */

typedef enum
{
  MODE_SSE_HOLD,                /* answer, then keepalives, held open */
  MODE_SSE_TINY,                /* BOM, CRLF, multi-line data, tiny chunks */
  MODE_SSE_CLOSE,               /* answer, two keepalives, then the end */
  MODE_SSE_SILENT,              /* answer, then nothing, held open */
  MODE_SSE_RAW,                 /* the stream text given, then the end */
  MODE_RESPONSE,                /* status, content type and body given */
  MODE_ECHO_KEY,                /* 401 whose detail echoes the key */
  MODE_SLOW,                    /* never answers */
} Mode;

typedef struct
{
  SoupServer *server;
  gchar *url;
  Mode mode;

  /* MODE_RESPONSE, MODE_SSE_RAW */
  guint status;
  const gchar *content_type;
  gchar *body;
  gsize body_length;
  const gchar *error_type_header;
  const gchar *retryable_header;
  const gchar *location;

  /* what came */
  guint requests;
  gchar *req_method;
  gchar *req_path;
  gchar *req_content_type;
  gchar *req_accept;
  gchar *req_authorization;
  gchar *req_body;

  /* the streamed or held answer */
  SoupServerMessage *held;
  GSource *ticker;
  gchar *stream;
  gsize stream_offset;
  guint keepalives;
  gboolean held_finished;
} TestServer;

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

static void
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

static TestServer *
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

static TestServer *
test_server_new (Mode mode)
{
  return test_server_new_full (mode, NULL);
}

static void
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

static void
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
static gchar *
refused_url (void)
{
  TestServer *ts = test_server_new (MODE_SLOW);
  gchar *url = g_strdup (ts->url);

  test_server_free (ts);
  return url;
}

/* ------------------------------------------------------------------------ */
/* the client side                                                          */

typedef struct
{
  guint answers;
  guint errors;
  guint closeds;
  gchar *sdp;
  GstStructure *answer;
  GError *error;
  GstSessionHttpError *http_error;
  GstSessionSignallerCloseReason reason;
  GError *close_error;
  gboolean wrong_context;
  gint64 started;
  gint64 ended;
} Record;

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

static void
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

static GstSessionHttpSignaller *
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

static void
start (GstSessionHttpSignaller * sig, const gchar * session_id, Record * r)
{
  GError *error = NULL;

  r->started = g_get_monotonic_time ();
  fail_unless (gst_session_signaller_start (GST_SESSION_SIGNALLER (sig),
          OFFER_SDP, session_id, &error), "start: %s",
      error ? error->message : "");
}

static void
signaller_free (GstSessionHttpSignaller * sig)
{
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  gst_object_unref (sig);
  drain_context ();
}

/* Starts against @ts and waits for the error. */
static void
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

/* ------------------------------------------------------------------------ */
/* signaller tests                                                          */

static void
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

/* ------------------------------------------------------------------------ */
/* event-stream parser tests                                                */

static void
log_event (GstSessionSseParser * parser, const GstSessionSseEvent * event,
    gpointer user_data)
{
  GString *out = user_data;

  fail_unless (g_utf8_validate (event->type, -1, NULL));
  fail_unless (g_utf8_validate (event->id, -1, NULL));
  fail_unless (g_utf8_validate (event->data, event->length, NULL));
  assert_equals_uint64 (strlen (event->data), event->length);
  g_string_append_printf (out, "E[%s|%s|%s]", event->type, event->id,
      event->data);
}

static void
log_comment (GstSessionSseParser * parser, const gchar * text, gsize length,
    gpointer user_data)
{
  GString *out = user_data;

  fail_unless (g_utf8_validate (text, length, NULL));
  assert_equals_uint64 (strlen (text), length);
  g_string_append_printf (out, "C[%s]", text);
}

/* Feeds @input cut at @cuts (increasing offsets), then finishes. Returns
 * the callbacks' log; *ok tells whether every feed succeeded. */
static gchar *
parse_cut (const gchar * input, gsize length, const gsize * cuts,
    guint n_cuts, gboolean * ok)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);
  gsize pos = 0;
  guint i;

  *ok = TRUE;
  for (i = 0; i <= n_cuts; i++) {
    gsize end = i < n_cuts ? cuts[i] : length;

    if (!gst_session_sse_parser_feed (parser, (const guint8 *) input + pos,
            end - pos, NULL))
      *ok = FALSE;
    pos = end;
  }
  gst_session_sse_parser_finish (parser);
  gst_session_sse_parser_free (parser);
  return g_string_free (out, FALSE);
}

static gchar *
parse_all (const gchar * input)
{
  gboolean ok;
  gchar *out = parse_cut (input, strlen (input), NULL, 0, &ok);

  fail_unless (ok);
  return out;
}

#define assert_parses(input, expected) G_STMT_START {                      \
  gchar *_out = parse_all (input);                                         \
  fail_unless_equals_string (_out, expected);                              \
  g_free (_out);                                                           \
} G_STMT_END

GST_START_TEST (test_sse_basic)
{
  assert_parses ("data: hello\n\n", "E[message||hello]");
  assert_parses ("data: a\ndata: b\n\ndata:c\n\n", "E[message||a\nb]"
      "E[message||c]");
  /* one space dropped, not more; no space is fine */
  assert_parses ("data:  two\n\n", "E[message|| two]");
  assert_parses ("data:\n\n", "E[message||]");
  assert_parses ("data\n\n", "E[message||]");
  assert_parses ("data:\ndata:\n\n", "E[message||\n]");
  /* no data: nothing dispatched; blank lines alone neither */
  assert_parses ("\n\n\nevent: x\n\nid: 1\n\n", "");
  assert_parses ("data: x", "");
  assert_parses ("data: x\n", "");
  /* a colon in the value stays */
  assert_parses ("data: {\"a\": \"b:c\"}\n\n", "E[message||{\"a\": \"b:c\"}]");
}

GST_END_TEST;

GST_START_TEST (test_sse_fields)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser;
  const gchar *text;

  assert_parses ("event: answer\ndata: x\n\ndata: y\n\n",
      "E[answer||x]E[message||y]");
  /* the id stays for later events; an empty id clears it */
  assert_parses ("id: 7\ndata: x\n\ndata: y\n\nid\ndata: z\n\n",
      "E[message|7|x]E[message|7|y]E[message||z]");
  /* unknown fields, a field that is not "data" exactly */
  assert_parses ("foo: bar\nDATA: no\ndata : no\ndatax: no\ndata: yes\n\n",
      "E[message||yes]");
  /* the last event field wins */
  assert_parses ("event: a\nevent: b\ndata: x\n\n", "E[b||x]");

  parser = gst_session_sse_parser_new (log_event, log_comment, out, NULL);
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), -1);
  text = "retry: 1500\nretry: 12a\nretry:\nid: abc\n\n";
  fail_unless (gst_session_sse_parser_feed (parser, (const guint8 *) text,
          strlen (text), NULL));
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), 1500);
  fail_unless_equals_string (gst_session_sse_parser_get_last_event_id
      (parser), "abc");
  /* the last event id and retry outlive the end of a stream */
  gst_session_sse_parser_finish (parser);
  fail_unless_equals_string (gst_session_sse_parser_get_last_event_id
      (parser), "abc");
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), 1500);
  gst_session_sse_parser_reset (parser);
  fail_unless_equals_string (gst_session_sse_parser_get_last_event_id
      (parser), "");
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), -1);
  fail_unless_equals_string (out->str, "");
  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_sse_comments)
{
  assert_parses (": keepalive\n\n", "C[keepalive]");
  assert_parses (":keepalive\n:\n:  two\n", "C[keepalive]C[]C[ two]");
  /* comments inside an event do not end it */
  assert_parses ("data: a\n: keepalive\ndata: b\n\n",
      "C[keepalive]E[message||a\nb]");
}

GST_END_TEST;

GST_START_TEST (test_sse_line_ends)
{
  const gchar *expected = "C[k]E[answer|1|a\nb]E[message|1|c]";

  assert_parses (": k\nevent: answer\nid: 1\ndata: a\ndata: b\n\ndata: c\n\n",
      expected);
  assert_parses (": k\r\nevent: answer\r\nid: 1\r\ndata: a\r\ndata: b\r\n\r\n"
      "data: c\r\n\r\n", expected);
  assert_parses (": k\revent: answer\rid: 1\rdata: a\rdata: b\r\r"
      "data: c\r\r", expected);
  assert_parses (": k\r\nevent: answer\nid: 1\rdata: a\r\ndata: b\n\r"
      "data: c\r\n\n", expected);
  /* CR LF is one line end, LF CR two */
  assert_parses ("data: a\r\n\r\n", "E[message||a]");
  assert_parses ("data: a\n\rdata: b\n\n", "E[message||a]E[message||b]");
}

GST_END_TEST;

/* Every way of cutting the input in two and three pieces, and byte by
 * byte, parses as the whole. */
static void
check_all_cuts (const gchar * input)
{
  gsize length = strlen (input), i, j;
  gchar *whole = parse_all (input);
  gsize *cuts = g_new (gsize, length);
  gboolean ok;
  gchar *out;

  for (i = 0; i <= length; i++) {
    cuts[0] = i;
    out = parse_cut (input, length, cuts, 1, &ok);
    fail_unless (ok);
    fail_unless_equals_string (out, whole);
    g_free (out);
    for (j = i; j <= length; j++) {
      cuts[1] = j;
      out = parse_cut (input, length, cuts, 2, &ok);
      fail_unless (ok);
      fail_unless_equals_string (out, whole);
      g_free (out);
    }
  }

  for (i = 0; i < length; i++)
    cuts[i] = i + 1;
  out = parse_cut (input, length, cuts, length > 0 ? length - 1 : 0, &ok);
  fail_unless (ok);
  fail_unless_equals_string (out, whole);
  g_free (out);

  g_free (cuts);
  g_free (whole);
}

GST_START_TEST (test_sse_cut_everywhere)
{
  check_all_cuts ("\xef\xbb\xbf: hi\r\nevent: answer\r\nid: 42\r\n"
      "data: {\"sdp\": \"v=0\\r\\n\",\r\ndata:  \"type\": \"answer\"}\r\n"
      "\r\n: keepalive\r\n\r\ndata: \xc3\xa9t\xc3\xa9\r\rdata: x\n\n");
  check_all_cuts ("data: a\rdata: b\r\r: c\r\n\n\r\ndata: \xe2\x82\xac\n\n");
  check_all_cuts ("\xef\xbb\xbf\xef\xbb\xbf" "data: bom twice\n\n");
}

GST_END_TEST;

GST_START_TEST (test_sse_bom)
{
  /* skipped once at the start, even when split */
  assert_parses ("\xef\xbb\xbf" "data: x\n\n", "E[message||x]");
  /* a second one is content: U+FEFF starts a field name ("\ufeffdata") */
  assert_parses ("\xef\xbb\xbf\xef\xbb\xbf" "data: x\n\n", "");
  assert_parses ("data: \xef\xbb\xbfx\n\n", "E[message||\xef\xbb\xbfx]");
  /* a partial BOM is content (not UTF-8 alone: repaired) */
  assert_parses ("\xef\xbb" "data: x\n\n", "");
  assert_parses ("\xef\n" "data: x\n\n", "E[message||x]");
  assert_parses ("\xef\xbb\xbf", "");
}

GST_END_TEST;

GST_START_TEST (test_sse_not_utf8)
{
  static const gchar input[] = "data: a\xff" "b\x00" "c\xc3\n"
      "event: \xe2\x82\n" "id: \x80\n\n" ": \xf8\n";
  gboolean ok;
  gchar *out = parse_cut (input, sizeof (input) - 1, NULL, 0, &ok);

  /* one U+FFFD per byte that is not UTF-8, NUL included */
  fail_unless (ok);
  fail_unless_equals_string (out,
      "E[\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd|a\xef\xbf\xbd" "b\xef\xbf\xbd"
      "c\xef\xbf\xbd]" "C[\xef\xbf\xbd]");
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_sse_overlong_line)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);
  GError *error = NULL;
  guint i;

  gst_session_sse_parser_set_limits (parser, 16, 64);
  /* 16 bytes is the bound: it passes */
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: 0123456789\n\n", 18, NULL));
  fail_unless_equals_string (out->str, "E[message||0123456789]");

  /* 17 bytes, even when they come one at a time and never end */
  for (i = 0; i < 16; i++)
    fail_unless (gst_session_sse_parser_feed (parser,
            (const guint8 *) "x", 1, NULL));
  fail_if (gst_session_sse_parser_feed (parser, (const guint8 *) "x", 1,
          &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  g_clear_error (&error);
  /* refused until reset */
  fail_if (gst_session_sse_parser_feed (parser, (const guint8 *) "\n\n", 2,
          &error));
  fail_unless (error != NULL);
  g_clear_error (&error);
  gst_session_sse_parser_reset (parser);
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: ok\n\n", 10, NULL));
  fail_unless_equals_string (out->str, "E[message||0123456789]"
      "E[message||ok]");

  /* a comment or an unknown field is bounded alike */
  gst_session_sse_parser_reset (parser);
  fail_if (gst_session_sse_parser_feed (parser,
          (const guint8 *) ": 0123456789abcdefgh\n", 21, NULL));
  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_sse_event_too_big)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);
  GError *error = NULL;
  guint i;

  gst_session_sse_parser_set_limits (parser, 64, 16);
  /* data of 16 bytes in all (4 lines of 3 and their line feeds) passes */
  for (i = 0; i < 4; i++)
    fail_unless (gst_session_sse_parser_feed (parser,
            (const guint8 *) "data: abc\n", 10, NULL));
  fail_unless (gst_session_sse_parser_feed (parser, (const guint8 *) "\n", 1,
          NULL));
  fail_unless_equals_string (out->str, "E[message||abc\nabc\nabc\nabc]");

  for (i = 0; i < 4; i++)
    fail_unless (gst_session_sse_parser_feed (parser,
            (const guint8 *) "data: abc\n", 10, NULL));
  fail_if (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: \n", 7, &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  g_clear_error (&error);
  fail_unless_equals_string (out->str, "E[message||abc\nabc\nabc\nabc]");

  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_sse_finish)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);

  fail_if (gst_session_sse_parser_finish (parser));
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: a\n", 8, NULL));
  /* the incomplete event is dropped, not dispatched */
  fail_unless (gst_session_sse_parser_finish (parser));
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "\n", 1, NULL));
  fail_unless_equals_string (out->str, "");
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: b", 7, NULL));
  fail_unless (gst_session_sse_parser_finish (parser));
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: c\n\n", 9, NULL));
  fail_unless_equals_string (out->str, "E[message||c]");
  fail_if (gst_session_sse_parser_finish (parser));

  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

static void
count_bytes (GstSessionSseParser * parser, const GstSessionSseEvent * event,
    gpointer user_data)
{
  gsize *max = user_data;

  fail_unless (g_utf8_validate (event->data, event->length, NULL));
  fail_unless (g_utf8_validate (event->type, -1, NULL));
  fail_unless (g_utf8_validate (event->id, -1, NULL));
  *max = MAX (*max, event->length);
}

static void
count_comment (GstSessionSseParser * parser, const gchar * text,
    gsize length, gpointer user_data)
{
  fail_unless (g_utf8_validate (text, length, NULL));
}

/* A small deterministic fuzz: random bytes drawn mostly from the format's
 * own alphabet, in random pieces. Nothing breaks, every string is UTF-8,
 * no event passes the bound. */
GST_START_TEST (test_sse_random)
{
  static const gchar alphabet[] = "data:event:id:retry: \r\n\n\n:x\xef\xbb\xbf"
      "\xff\xc3\xa9\x00";
  GRand *rand = g_rand_new_with_seed (0x5e55);
  guint round;

  for (round = 0; round < 300; round++) {
    gsize max_event = 0;
    GstSessionSseParser *parser = gst_session_sse_parser_new (count_bytes,
        count_comment, &max_event, NULL);
    guint8 buf[4096];
    guint n, i;

    gst_session_sse_parser_set_limits (parser, 1 + g_rand_int_range (rand, 0,
            200), 1 + g_rand_int_range (rand, 0, 300));
    n = g_rand_int_range (rand, 0, sizeof (buf));
    for (i = 0; i < n; i++)
      buf[i] = g_rand_boolean (rand) ?
          alphabet[g_rand_int_range (rand, 0, sizeof (alphabet) - 1)] :
          (guint8) g_rand_int_range (rand, 0, 256);

    for (i = 0; i < n;) {
      guint piece = MIN (n - i, (guint) g_rand_int_range (rand, 0, 64));

      if (!gst_session_sse_parser_feed (parser, buf + i, piece, NULL))
        gst_session_sse_parser_reset (parser);
      i += piece;
    }
    gst_session_sse_parser_finish (parser);
    fail_unless (max_event < 300);
    gst_session_sse_parser_free (parser);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
signalling_suite (void)
{
  Suite *s = suite_create ("signalling");
  TCase *tc_sse = tcase_create ("sse");
  TCase *tc = tcase_create ("http");

  suite_add_tcase (s, tc_sse);
  tcase_add_test (tc_sse, test_sse_basic);
  tcase_add_test (tc_sse, test_sse_fields);
  tcase_add_test (tc_sse, test_sse_comments);
  tcase_add_test (tc_sse, test_sse_line_ends);
  tcase_add_test (tc_sse, test_sse_cut_everywhere);
  tcase_add_test (tc_sse, test_sse_bom);
  tcase_add_test (tc_sse, test_sse_not_utf8);
  tcase_add_test (tc_sse, test_sse_overlong_line);
  tcase_add_test (tc_sse, test_sse_event_too_big);
  tcase_add_test (tc_sse, test_sse_finish);
  tcase_add_test (tc_sse, test_sse_random);

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, context_setup, context_teardown);
  tcase_add_test (tc, test_properties);
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
  tcase_add_test (tc, test_no_key_no_authorization);
  tcase_add_test (tc, test_bad_answers);
  tcase_add_test (tc, test_redirect_not_followed);
  tcase_add_test (tc, test_oversized_answer);
  tcase_add_test (tc, test_start_refused);
  tcase_add_test (tc, test_stop_before_answer);
  tcase_add_test (tc, test_prepare_opens_the_connection);
  tcase_add_test (tc, test_stop_from_handler);
  tcase_add_test (tc, test_https_validation);
  tcase_add_test (tc, test_private_thread);
  tcase_add_test (tc, test_key_never_logged);
  return s;
}

GST_CHECK_MAIN (signalling);
