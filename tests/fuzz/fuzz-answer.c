/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The start-session answer: how GstSessionHttpSignaller turns what the
 * service sends back into an answer (or an error).
 *
 * The answer itself is parsed by gst_session_answer_parse() (the
 * contract, gst/session/answer.c); this goes through the HTTP layer's
 * public entry point around it: a GstSessionHttpSignaller started against
 * a SoupServer on 127.0.0.1 (same thread, same GMainContext) that answers
 * with the input. That covers both answer forms (a JSON body and the
 * first event of an event stream), the event stream after the answer, and
 * non-2xx bodies through gst_session_http_error_parse() with the key
 * scrubbing.
 *
 * Input: one selector byte, then the body.
 *   selector % 5: 0 200 application/json, 1 200 text/event-stream,
 *     2 200 without a content type, 3 a 4xx/5xx application/json (status
 *     from selector / 5), 4 200 text/plain.
 *
 * Invariants beyond "no crash": exactly one answer or error per attempt;
 * an answer has a non-empty sdp and type "answer", and only UTF-8 text;
 * the API key never shows in an error text or a parsed HTTP error.
 */

#include "fuzz-common.h"
#include <libsoup/soup.h>

#define API_KEY "fz-Secret-4711"

static GMainContext *context;
static SoupServer *server;
static gchar *url;

/* what the server answers next */
static guint reply_status;
static const gchar *reply_type;
static const gchar *reply_body;
static gsize reply_length;

typedef struct
{
  guint answers, errors, closed;
} Record;

static void
server_cb (SoupServer * srv, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (msg);

  soup_server_message_set_status (msg, reply_status, NULL);
  if (reply_type)
    soup_message_headers_set_content_type (headers, reply_type, NULL);
  soup_message_body_append (soup_server_message_get_response_body (msg),
      SOUP_MEMORY_COPY, reply_body, reply_length);
}

static void
assert_no_key (const gchar * text)
{
  fuzz_assert (text == NULL || strstr (text, API_KEY) == NULL,
      "the key shows in \"%s\"", text);
}

static void
on_answer (GstSessionSignaller * sig, const gchar * sdp,
    const GstStructure * answer, Record * r)
{
  gchar *text;

  fuzz_assert (sdp != NULL && *sdp != '\0', "an empty sdp");
  fuzz_assert (g_strcmp0 (gst_structure_get_string (answer, "type"),
          "answer") == 0, "type is not answer");
  fuzz_assert (g_strcmp0 (gst_structure_get_string (answer, "sdp"), sdp) == 0,
      "sdp differs");
  text = gst_structure_to_string (answer);
  fuzz_assert (g_utf8_validate (text, -1, NULL), "the answer %s is not UTF-8",
      text);
  g_free (text);
  r->answers++;
}

static void
on_error (GstSessionSignaller * sig, const GError * error,
    const GstSessionHttpError * http_error, Record * r)
{
  guint i;

  fuzz_assert (error != NULL, "an error signal without an error");
  assert_no_key (error->message);
  if (http_error) {
    assert_no_key (http_error->error_type);
    assert_no_key (http_error->detail);
    for (i = 0; i < http_error->items->len; i++) {
      GstSessionHttpErrorItem *item = g_ptr_array_index (http_error->items, i);

      assert_no_key (item->type);
      assert_no_key (item->msg);
      assert_no_key (item->loc);
      assert_no_key (item->input);
    }
  }
  r->errors++;
}

static void
on_closed (GstSessionSignaller * sig, GstSessionSignallerCloseReason reason,
    const GError * error, Record * r)
{
  if (error)
    assert_no_key (error->message);
  r->closed++;
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  GError *error = NULL;
  GSList *uris;
  GUri *uri;

  fuzz_init ();
  context = g_main_context_new ();
  g_main_context_push_thread_default (context);

  server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server, NULL, server_cb, NULL, NULL);
  if (!soup_server_listen_local (server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY,
          &error)) {
    g_printerr ("cannot listen on 127.0.0.1: %s\n", error->message);
    abort ();
  }
  uris = soup_server_get_uris (server);
  uri = uris->data;
  url = g_strdup_printf ("http://127.0.0.1:%d/world/start-session",
      g_uri_get_port (uri));
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstSessionHttpSignaller *sig;
  Record r = { 0, 0, 0 };
  GError *error = NULL;
  gchar *body;
  guint mode;
  gboolean stream;

  if (size < 1)
    return 0;
  mode = data[0] % 5;
  stream = mode == 1;
  reply_status = 200;
  switch (mode) {
    case 0:
      reply_type = "application/json";
      break;
    case 1:
      reply_type = "text/event-stream";
      break;
    case 2:
      reply_type = NULL;
      break;
    case 3:
      reply_type = "application/json";
      reply_status = 400 + (data[0] / 5) % 200;
      break;
    default:
      reply_type = "text/plain";
      break;
  }
  body = fuzz_dup (data + 1, size - 1);
  reply_body = body;
  reply_length = size - 1;

  sig = gst_session_http_signaller_new (url);
  g_object_set (sig, "api-key", API_KEY, "timeout", 20000,
      "keepalive-timeout", 0, NULL);
  g_signal_connect (sig, "answer", G_CALLBACK (on_answer), &r);
  g_signal_connect (sig, "error", G_CALLBACK (on_error), &r);
  g_signal_connect (sig, "closed", G_CALLBACK (on_closed), &r);

  if (!gst_session_signaller_start (GST_SESSION_SIGNALLER (sig),
          "v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n", "fuzz",
          &error)) {
    g_printerr ("start failed: %s\n", error->message);
    abort ();
  }

  /* an attempt ends with an error, or an answer (and, for a stream, its
   * end: the body is all there is) */
  while (r.errors == 0 && (r.answers == 0 || (stream && r.closed == 0)))
    g_main_context_iteration (context, TRUE);

  fuzz_assert (r.answers + r.errors == 1, "%u answers and %u errors",
      r.answers, r.errors);
  fuzz_assert (r.closed <= r.answers, "closed without an answer");

  gst_session_signaller_stop (GST_SESSION_SIGNALLER (sig));
  gst_object_unref (sig);
  /* let the server and the stopped attempt finish their work */
  while (g_main_context_iteration (context, FALSE));

  free (body);
  return 0;
}
