/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionsignaller
 * @title: GstSessionSignaller
 * @short_description: start-session signalling: offer out, answer back
 *
 * #GstSessionSignaller is the interface a source element starts its
 * session through: gst_session_signaller_start() sends the SDP offer, then
 * the signaller reports, from the #GMainContext that was the thread-default
 * context of the start() call:
 *
 * - exactly one of #GstSessionSignaller::answer (the SDP answer and the
 *   whole answer object) or #GstSessionSignaller::error (this attempt
 *   failed; the #GstSessionHttpError is given when the service answered
 *   with a non-2xx status);
 * - after an answer that came as a stream, at most one
 *   #GstSessionSignaller::closed when the stream ends (the service closed
 *   it, nothing came for the keepalive timeout, or reading failed): the
 *   session is over.
 *
 * gst_session_signaller_stop() ends the attempt or the session (closing our
 * side of the stream ends the session for the service); no signal is
 * emitted after it returns when it is called from the signaller's context
 * thread. Called from another thread, a signal whose emission had already
 * begun may still arrive; handlers that care compare the signaller they get
 * with the one they still run.
 *
 * A signaller makes one attempt per start(): retrying is for the caller,
 * with gst_session_http_error_retry_decision().
 *
 * #GstSessionHttpSignaller is the implementation of the contract's
 * start-session operation (docs/protocol.md, DESIGN decision 1):
 *
 * - `POST <url>`, `Content-Type: application/json`,
 *   `Authorization: Key <api-key>` when #GstSessionHttpSignaller:api-key is
 *   set, body `{"sdp": "<offer>", "type": "offer", "session_id": "<id>"}`;
 * - a 2xx `text/event-stream` answer: the first event with data is the
 *   answer object; the stream then stays open, with `: keepalive` comments,
 *   as long as the session lives;
 * - a 2xx `application/json` answer (or one without a content type): the
 *   body is the answer object; there is no stream and no
 *   #GstSessionSignaller::closed;
 * - any other status: the body (at most
 *   %GST_SESSION_HTTP_SIGNALLER_MAX_ERROR_BODY bytes) goes through
 *   gst_session_http_error_parse(); redirects are not followed (the key
 *   would follow them).
 *
 * The answer object must be a JSON object with a non-empty `sdp` string and
 * `type` equal to `answer`; its other fields are kept. It is handed out as
 * a #GstStructure named `answer`, with JSON values mapped as
 * #GstSessionMessage maps them (strings, %G_TYPE_INT64, %G_TYPE_DOUBLE,
 * %G_TYPE_BOOLEAN, null as a %NULL string, arrays as %GST_TYPE_ARRAY).
 * Only `sdp`, `type` and `session_id` are fields: the service's other
 * fields are in %GST_SESSION_MESSAGE_OTHER_FIELDS, as the JSON text of one
 * object, since GStreamer keeps every field name for the life of the
 * process.
 *
 * The API key is never logged, never put in an error text, and scrubbed
 * from texts the service sends back.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include "../session-private.h"

/* ------------------------------------------------------------------------ */
/* GstSessionSignaller                                                      */

enum
{
  SIGNAL_ANSWER,
  SIGNAL_ERROR,
  SIGNAL_CLOSED,
  N_SIGNALS
};

static guint signaller_signals[N_SIGNALS];

G_DEFINE_INTERFACE (GstSessionSignaller, gst_session_signaller, G_TYPE_OBJECT);

static void
gst_session_signaller_default_init (GstSessionSignallerInterface * iface)
{
  /**
   * GstSessionSignaller::answer:
   * @signaller: the signaller.
   * @sdp: the SDP answer.
   * @answer: the whole answer object (a #GstStructure named `answer`:
   *   `sdp`, `type`, `session_id`, and whatever else the service sent as
   *   JSON text in %GST_SESSION_MESSAGE_OTHER_FIELDS).
   *
   * The service answered the offer. Emitted at most once per start().
   */
  signaller_signals[SIGNAL_ANSWER] = g_signal_new ("answer",
      G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, G_TYPE_STRING, gst_structure_get_type ());

  /**
   * GstSessionSignaller::error:
   * @signaller: the signaller.
   * @error: what failed, in words for people.
   * @http_error: (nullable): the parsed non-2xx answer, or %NULL when the
   *   failure was not an HTTP error status (no connection, timeout, an
   *   answer that is not one).
   *
   * The attempt failed; no answer comes. Decide on a retry with
   * gst_session_http_error_retry_decision() when @http_error is set.
   */
  signaller_signals[SIGNAL_ERROR] = g_signal_new ("error",
      G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, G_TYPE_ERROR, GST_SESSION_TYPE_HTTP_ERROR);

  /**
   * GstSessionSignaller::closed:
   * @signaller: the signaller.
   * @reason: why the session ended.
   * @error: (nullable): details, or %NULL when the service closed the
   *   stream cleanly.
   *
   * The session the answer started has ended from the service's side (or
   * the connection to it was lost). Not emitted after stop().
   */
  signaller_signals[SIGNAL_CLOSED] = g_signal_new ("closed",
      G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, GST_SESSION_TYPE_SIGNALLER_CLOSE_REASON, G_TYPE_ERROR);
}

/**
 * gst_session_signaller_start:
 * @signaller: a signaller.
 * @offer_sdp: the complete SDP offer (ICE gathered, no trickle).
 * @session_id: (nullable): the session id to send, or %NULL for a new
 *   random UUID.
 * @error: return location for a #GError, or %NULL.
 *
 * Starts one attempt. Call it with the #GMainContext that should run the
 * signaller pushed as thread-default; every signal is emitted from it.
 *
 * Returns: %TRUE when the attempt started (an #GstSessionSignaller::answer
 *   or #GstSessionSignaller::error follows); %FALSE with @error set when
 *   nothing started (no URL, an attempt still running, ...).
 */
gboolean
gst_session_signaller_start (GstSessionSignaller * signaller,
    const gchar * offer_sdp, const gchar * session_id, GError ** error)
{
  GstSessionSignallerInterface *iface;
  gchar *generated = NULL;
  gboolean ret;

  g_return_val_if_fail (GST_SESSION_IS_SIGNALLER (signaller), FALSE);
  g_return_val_if_fail (offer_sdp != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = GST_SESSION_SIGNALLER_GET_IFACE (signaller);
  g_return_val_if_fail (iface->start != NULL, FALSE);

  if (session_id == NULL)
    session_id = generated = g_uuid_string_random ();

  ret = iface->start (signaller, offer_sdp, session_id, error);
  g_free (generated);

  return ret;
}

/**
 * gst_session_signaller_stop:
 * @signaller: a signaller.
 *
 * Ends the running attempt, or the session it started: an open answer
 * stream is closed, which ends the session for the service. Safe to call
 * at any time, from any thread, more than once.
 */
void
gst_session_signaller_stop (GstSessionSignaller * signaller)
{
  GstSessionSignallerInterface *iface;

  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));

  iface = GST_SESSION_SIGNALLER_GET_IFACE (signaller);
  if (iface->stop)
    iface->stop (signaller);
}

/**
 * gst_session_signaller_prepare:
 * @signaller: a signaller.
 *
 * A start() is near (the offer is being made): the signaller may open now
 * what the start will need, so that it overlaps with the offer. Optional
 * (@prepare may be %NULL); nothing is emitted, and a failure here only
 * means the start opens it itself.
 */
void
gst_session_signaller_prepare (GstSessionSignaller * signaller)
{
  GstSessionSignallerInterface *iface;

  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));

  iface = GST_SESSION_SIGNALLER_GET_IFACE (signaller);
  if (iface->prepare)
    iface->prepare (signaller);
}

/**
 * gst_session_signaller_emit_answer:
 * @signaller: a signaller.
 * @sdp: the SDP answer.
 * @answer: the answer object.
 *
 * For implementations: emits #GstSessionSignaller::answer.
 */
void
gst_session_signaller_emit_answer (GstSessionSignaller * signaller,
    const gchar * sdp, const GstStructure * answer)
{
  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));
  g_return_if_fail (sdp != NULL && answer != NULL);

  g_signal_emit (signaller, signaller_signals[SIGNAL_ANSWER], 0, sdp, answer);
}

/**
 * gst_session_signaller_emit_error:
 * @signaller: a signaller.
 * @error: the error.
 * @http_error: (nullable): the parsed HTTP error, if any.
 *
 * For implementations: emits #GstSessionSignaller::error.
 */
void
gst_session_signaller_emit_error (GstSessionSignaller * signaller,
    const GError * error, const GstSessionHttpError * http_error)
{
  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));
  g_return_if_fail (error != NULL);

  g_signal_emit (signaller, signaller_signals[SIGNAL_ERROR], 0, error,
      http_error);
}

/**
 * gst_session_signaller_emit_closed:
 * @signaller: a signaller.
 * @reason: why the session ended.
 * @error: (nullable): details.
 *
 * For implementations: emits #GstSessionSignaller::closed.
 */
void
gst_session_signaller_emit_closed (GstSessionSignaller * signaller,
    GstSessionSignallerCloseReason reason, const GError * error)
{
  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));

  g_signal_emit (signaller, signaller_signals[SIGNAL_CLOSED], 0, reason, error);
}

/* ------------------------------------------------------------------------ */
/* helpers: the answer object, secrets                                      */

static void
scrub_error (GError * error, const gchar * key)
{
  if (error)
    gst_session_http_scrub (&error->message, key);
}

/* The log shows at most this much of a text the service sent. */
#define LOG_TEXT_MAX 512

static gchar *
text_for_log (const gchar * text, gsize length, const gchar * key)
{
  gchar *valid = g_utf8_make_valid (text, MIN (length, LOG_TEXT_MAX));

  gst_session_http_scrub (&valid, key);
  return valid;
}

static GBytes *
build_offer (const gchar * sdp, const gchar * session_id)
{
  JsonBuilder *builder = json_builder_new_immutable ();
  JsonNode *root;
  gchar *text;
  gsize length;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sdp");
  json_builder_add_string_value (builder, sdp);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "offer");
  json_builder_set_member_name (builder, "session_id");
  json_builder_add_string_value (builder, session_id);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = gst_session_json_write (root, FALSE);
  length = strlen (text);

  json_node_unref (root);
  g_object_unref (builder);

  return g_bytes_new_take (text, length);
}

/* ------------------------------------------------------------------------ */
/* one attempt                                                              */

/* How much is asked of the network per read. */
#define READ_SIZE 16384

typedef enum
{
  BODY_NONE,
  BODY_ANSWER,                  /* a JSON answer */
  BODY_ERROR,                   /* a non-2xx answer */
  BODY_STREAM,                  /* an event stream */
} BodyKind;

/* One start(): the request and, after an event-stream answer, the session.
 *
 * Threads: @done and @cancellable may be touched from any thread (stop());
 * everything else only from @context (stop() defers its part there with
 * g_main_context_invoke). An attempt holds no lock: it never touches its
 * signaller's fields, only emits its signals.
 *
 * References: the signaller's current attempt, every pending operation and
 * every attached timer each hold one. */
typedef struct
{
  gint refcount;
  /* set (0 -> 1, atomically) by the terminal signal or by stop(): once
   * set, nothing is emitted */
  gint done;
  GWeakRef signaller;
  GMainContext *context;
  GCancellable *cancellable;

  /* context thread only */
  gchar *api_key;               /* for scrubbing; never logged */
  guint timeout;
  guint keepalive_timeout;
  SoupSession *session;
  SoupMessage *msg;
  GInputStream *stream;
  /* an operation is pending or its completion is running: the I/O objects
   * stay until it returns */
  gboolean io_busy;
  BodyKind body_kind;
  GByteArray *body;
  GstSessionSseParser *parser;
  gboolean answered;
  GSource *start_timer;
  GSource *keepalive_timer;
} Call;

struct _GstSessionHttpSignaller
{
  GstObject parent;

  /* protected by the object lock */
  gchar *url;
  gchar *api_key;
  guint timeout;
  guint keepalive_timeout;
  gboolean tls_validation;
  gchar *session_id;
  Call *call;
  /* made at the first start(), kept for all; each attempt holds a
   * reference (the attempt may outlive the signaller) */
  SoupSession *session;
  /* prepare(): the connection made ahead of the next start */
  GCancellable *preconnect;
  gboolean preconnected;
};

static Call *
call_ref (Call * call)
{
  g_atomic_int_inc (&call->refcount);
  return call;
}

static void
call_release_io (Call * call)
{
  g_clear_pointer (&call->parser, gst_session_sse_parser_free);
  g_clear_pointer (&call->body, g_byte_array_unref);
  /* an unfinished body: this message is aborted and its connection closed
   * (for an event stream that ends the session), not the shared session;
   * closing the stream would read the rest */
  if (call->stream && !g_input_stream_is_closed (call->stream))
    g_cancellable_cancel (call->cancellable);
  g_clear_object (&call->stream);
  g_clear_object (&call->msg);
  g_clear_object (&call->session);
}

static void
clear_timer (GSource ** timer)
{
  if (*timer) {
    g_source_destroy (*timer);
    g_source_unref (*timer);
    *timer = NULL;
  }
}

static void
call_unref (Call * call)
{
  if (!g_atomic_int_dec_and_test (&call->refcount))
    return;

  /* attached timers hold a reference: they are all destroyed by now */
  clear_timer (&call->start_timer);
  clear_timer (&call->keepalive_timer);
  call_release_io (call);
  g_weak_ref_clear (&call->signaller);
  g_main_context_unref (call->context);
  g_object_unref (call->cancellable);
  g_free (call->api_key);
  g_free (call);
}

static gboolean
call_is_done (Call * call)
{
  return g_atomic_int_get (&call->done);
}

/* Context thread: after done is set. */
static void
call_shutdown (Call * call)
{
  g_cancellable_cancel (call->cancellable);
  clear_timer (&call->start_timer);
  clear_timer (&call->keepalive_timer);
  if (!call->io_busy)
    call_release_io (call);
}

static gboolean
call_shutdown_in_context (gpointer user_data)
{
  call_shutdown (user_data);
  return G_SOURCE_REMOVE;
}

/* Any thread. */
static void
call_stop (Call * call)
{
  g_atomic_int_set (&call->done, TRUE);
  g_cancellable_cancel (call->cancellable);
  g_main_context_invoke_full (call->context, G_PRIORITY_DEFAULT,
      call_shutdown_in_context, call_ref (call), (GDestroyNotify) call_unref);
}

/* Ends the attempt with an error. Takes @error and @http_error. */
static void
call_fail (Call * call, GError * error, GstSessionHttpError * http_error)
{
  GstSessionHttpSignaller *self;

  if (!g_atomic_int_compare_and_exchange (&call->done, FALSE, TRUE)) {
    g_clear_error (&error);
    g_clear_pointer (&http_error, gst_session_http_error_free);
    return;
  }
  call_shutdown (call);

  scrub_error (error, call->api_key);
  gst_session_http_scrub_error (http_error, call->api_key);

  self = g_weak_ref_get (&call->signaller);
  if (self) {
    GST_WARNING_OBJECT (self, "start-session failed: %s", error->message);
    gst_session_signaller_emit_error (GST_SESSION_SIGNALLER (self), error,
        http_error);
    gst_object_unref (self);
  }
  g_clear_error (&error);
  g_clear_pointer (&http_error, gst_session_http_error_free);
}

/* Ends a session that was answered. Takes @error. */
static void
call_closed (Call * call, GstSessionSignallerCloseReason reason, GError * error)
{
  GstSessionHttpSignaller *self;

  if (!g_atomic_int_compare_and_exchange (&call->done, FALSE, TRUE)) {
    g_clear_error (&error);
    return;
  }
  call_shutdown (call);

  scrub_error (error, call->api_key);

  self = g_weak_ref_get (&call->signaller);
  if (self) {
    GST_INFO_OBJECT (self, "session closed (%d): %s", reason,
        error ? error->message : "by the service");
    gst_session_signaller_emit_closed (GST_SESSION_SIGNALLER (self), reason,
        error);
    gst_object_unref (self);
  }
  g_clear_error (&error);
}

/* Hands out the answer. Returns FALSE when the text is not one (the attempt
 * then failed). */
static gboolean
call_answer (Call * call, const gchar * text, gsize length, gboolean terminal)
{
  GstSessionHttpSignaller *self;
  GstStructure *answer;
  GError *error = NULL;

  answer = gst_session_answer_parse (text, length, &error);
  if (answer == NULL) {
    call_fail (call, error, NULL);
    return FALSE;
  }

  if (terminal) {
    if (!g_atomic_int_compare_and_exchange (&call->done, FALSE, TRUE))
      goto out;
    call_shutdown (call);
  } else if (call_is_done (call)) {
    goto out;
  }

  call->answered = TRUE;
  clear_timer (&call->start_timer);

  self = g_weak_ref_get (&call->signaller);
  if (self) {
    const gchar *sdp = gst_structure_get_string (answer, "sdp");

    GST_INFO_OBJECT (self, "answer received (%" G_GSIZE_FORMAT " bytes)%s",
        length, terminal ? ", no stream to watch" : "");
    gst_session_signaller_emit_answer (GST_SESSION_SIGNALLER (self), sdp,
        answer);
    gst_object_unref (self);
  }

out:
  gst_structure_free (answer);
  return TRUE;
}

static gboolean
on_start_timeout (gpointer user_data)
{
  Call *call = user_data;

  if (!call_is_done (call))
    call_fail (call, g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
            "The session service did not answer within %u ms",
            call->timeout), NULL);

  return G_SOURCE_REMOVE;
}

static gboolean
on_keepalive_timeout (gpointer user_data)
{
  Call *call = user_data;

  if (!call_is_done (call))
    call_closed (call, GST_SESSION_SIGNALLER_CLOSE_REASON_KEEPALIVE_TIMEOUT,
        g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
            "Nothing came from the session service for %u ms",
            call->keepalive_timeout));

  return G_SOURCE_REMOVE;
}

static GSource *
call_add_timer (Call * call, guint ms, GSourceFunc func)
{
  GSource *source = g_timeout_source_new (ms);

  g_source_set_callback (source, func, call_ref (call),
      (GDestroyNotify) call_unref);
  g_source_attach (source, call->context);
  return source;
}

static void
call_restart_keepalive (Call * call)
{
  clear_timer (&call->keepalive_timer);
  if (call->keepalive_timeout > 0)
    call->keepalive_timer = call_add_timer (call, call->keepalive_timeout,
        on_keepalive_timeout);
}

static void on_body_read (GObject * source, GAsyncResult * res,
    gpointer user_data);
static void on_stream_read (GObject * source, GAsyncResult * res,
    gpointer user_data);

static void
call_read (Call * call)
{
  gsize size = READ_SIZE;

  if (call->body_kind == BODY_ERROR)
    size = MIN (size, GST_SESSION_HTTP_SIGNALLER_MAX_ERROR_BODY -
        call->body->len);

  call->io_busy = TRUE;
  g_input_stream_read_bytes_async (call->stream, size, G_PRIORITY_DEFAULT,
      call->cancellable, call->body_kind == BODY_STREAM ? on_stream_read :
      on_body_read, call_ref (call));
}

static void
call_body_complete (Call * call)
{
  /* an empty array may have no data at all */
  const gchar *text = call->body->len ? (const gchar *) call->body->data : "";
  gsize length = call->body->len;

  if (call->body_kind == BODY_ANSWER) {
    call_answer (call, text, length, TRUE);
  } else {
    SoupMessageHeaders *headers = soup_message_get_response_headers (call->msg);
    guint status = soup_message_get_status (call->msg);
    GstSessionHttpError *http_error;
    GError *error;

    if (gst_debug_category_get_threshold (GST_CAT_DEFAULT) >= GST_LEVEL_DEBUG) {
      gchar *log = text_for_log (text, length, call->api_key);

      GST_DEBUG ("status %u, body: %s", status, log);
      g_free (log);
    }

    http_error = gst_session_http_error_parse (status, headers, text, length);
    /* the service may echo the key: scrubbed before any text is made */
    gst_session_http_scrub_error (http_error, call->api_key);
    error = gst_session_http_error_to_gerror (http_error);
    g_prefix_error (&error, "The session service refused the session: ");
    call_fail (call, error, http_error);
  }
}

static void
on_body_read (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Call *call = user_data;
  GError *error = NULL;
  GBytes *bytes;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), res,
      &error);

  if (call_is_done (call))
    goto finished;

  if (bytes == NULL) {
    g_prefix_error (&error, "Reading the start-session answer failed: ");
    call_fail (call, error, NULL);
    error = NULL;
    goto finished;
  }

  if (g_bytes_get_size (bytes) == 0) {
    /* the whole answer: its connection can serve the next call */
    g_input_stream_close (call->stream, NULL, NULL);
    call_body_complete (call);
    goto finished;
  }

  g_byte_array_append (call->body, g_bytes_get_data (bytes, NULL),
      g_bytes_get_size (bytes));

  if (call->body_kind == BODY_ERROR &&
      call->body->len >= GST_SESSION_HTTP_SIGNALLER_MAX_ERROR_BODY) {
    /* enough for the error model: the rest is not read */
    call_body_complete (call);
    goto finished;
  }
  if (call->body_kind == BODY_ANSWER &&
      call->body->len > GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER) {
    call_fail (call, g_error_new (GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP,
            "The start-session answer is larger than %d bytes",
            GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER), NULL);
    goto finished;
  }

  g_bytes_unref (bytes);
  call_read (call);
  call_unref (call);
  return;

finished:
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_error (&error);
  call->io_busy = FALSE;
  if (call_is_done (call))
    call_release_io (call);
  call_unref (call);
}

static void
on_sse_event (GstSessionSseParser * parser, const GstSessionSseEvent * event,
    gpointer user_data)
{
  Call *call = user_data;

  if (call_is_done (call))
    return;

  if (call->answered) {
    GST_LOG ("event '%s' (%" G_GSIZE_FORMAT " bytes) after the answer, "
        "ignored", event->type, event->length);
    return;
  }

  call_answer (call, event->data, event->length, FALSE);
  if (!call_is_done (call))
    call_restart_keepalive (call);
}

static void
on_sse_comment (GstSessionSseParser * parser, const gchar * text,
    gsize length, gpointer user_data)
{
  GST_TRACE ("event stream comment (%" G_GSIZE_FORMAT " bytes)", length);
}

static void
on_stream_read (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Call *call = user_data;
  GError *error = NULL;
  GBytes *bytes;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), res,
      &error);

  if (call_is_done (call))
    goto finished;

  if (bytes == NULL) {
    if (call->answered) {
      g_prefix_error (&error, "The session stream failed: ");
      call_closed (call, GST_SESSION_SIGNALLER_CLOSE_REASON_NETWORK_ERROR,
          error);
    } else {
      g_prefix_error (&error, "Reading the start-session answer failed: ");
      call_fail (call, error, NULL);
    }
    error = NULL;
    goto finished;
  }

  if (g_bytes_get_size (bytes) == 0) {
    gst_session_sse_parser_finish (call->parser);
    if (call->answered)
      call_closed (call, GST_SESSION_SIGNALLER_CLOSE_REASON_SERVICE, NULL);
    else
      call_fail (call, g_error_new_literal (G_IO_ERROR,
              G_IO_ERROR_CONNECTION_CLOSED,
              "The session service closed the answer stream before "
              "answering"), NULL);
    goto finished;
  }

  if (call->answered)
    call_restart_keepalive (call);

  if (!gst_session_sse_parser_feed (call->parser,
          g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error)) {
    if (call->answered)
      call_closed (call, GST_SESSION_SIGNALLER_CLOSE_REASON_PROTOCOL_ERROR,
          error);
    else
      call_fail (call, error, NULL);
    error = NULL;
    goto finished;
  }

  if (call_is_done (call))
    goto finished;

  g_bytes_unref (bytes);
  call_read (call);
  call_unref (call);
  return;

finished:
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_error (&error);
  call->io_busy = FALSE;
  if (call_is_done (call))
    call_release_io (call);
  call_unref (call);
}

static gboolean
content_type_is (const gchar * content_type, const gchar * expected)
{
  return content_type && g_ascii_strcasecmp (content_type, expected) == 0;
}

static gboolean
content_type_is_json (const gchar * content_type)
{
  return content_type == NULL ||
      content_type_is (content_type, "application/json") ||
      (g_str_has_prefix (content_type, "application/") &&
      g_str_has_suffix (content_type, "+json"));
}

static void
on_sent (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Call *call = user_data;
  GError *error = NULL;
  GInputStream *stream;
  const gchar *content_type;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (source), res, &error);

  if (call_is_done (call)) {
    g_clear_object (&stream);
    goto finished;
  }

  if (stream == NULL) {
    g_prefix_error (&error, "Could not reach the session service: ");
    call_fail (call, error, NULL);
    error = NULL;
    goto finished;
  }
  call->stream = stream;

  status = soup_message_get_status (call->msg);
  content_type =
      soup_message_headers_get_content_type (soup_message_get_response_headers
      (call->msg), NULL);
  GST_DEBUG ("start-session answer: status %u, content type %s", status,
      GST_STR_NULL (content_type));

  if (!SOUP_STATUS_IS_SUCCESSFUL (status)) {
    call->body_kind = BODY_ERROR;
    call->body = g_byte_array_new ();
  } else if (content_type_is (content_type, "text/event-stream")) {
    call->body_kind = BODY_STREAM;
    call->parser = gst_session_sse_parser_new (on_sse_event, on_sse_comment,
        call, NULL);
    gst_session_sse_parser_set_limits (call->parser,
        GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER + 256,
        GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER);
  } else if (content_type_is_json (content_type)) {
    call->body_kind = BODY_ANSWER;
    call->body = g_byte_array_new ();
  } else {
    call_fail (call, g_error_new (GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP,
            "The session service answered with status %u and content type "
            "\"%s\", neither an event stream nor JSON", status,
            content_type), NULL);
    goto finished;
  }

  call_read (call);
  call_unref (call);
  return;

finished:
  g_clear_error (&error);
  call->io_busy = FALSE;
  if (call_is_done (call))
    call_release_io (call);
  call_unref (call);
}

/* ------------------------------------------------------------------------ */
/* GstSessionHttpSignaller                                                  */

/**
 * GstSessionHttpSignaller:
 *
 * The start-session signalling of the contract over HTTP (libsoup): see
 * #GstSessionSignaller for the exchange. Properties are read at start();
 * changing them affects the next attempt.
 */

#define DEFAULT_URL NULL
#define DEFAULT_TIMEOUT 30000
#define DEFAULT_KEEPALIVE_TIMEOUT 45000
#define DEFAULT_TLS_VALIDATION TRUE

enum
{
  PROP_0,
  PROP_URL,
  PROP_API_KEY,
  PROP_TIMEOUT,
  PROP_KEEPALIVE_TIMEOUT,
  PROP_TLS_VALIDATION,
  PROP_SESSION_ID,
};

static void gst_session_http_signaller_iface_init (GstSessionSignallerInterface
    * iface);

G_DEFINE_TYPE_WITH_CODE (GstSessionHttpSignaller, gst_session_http_signaller,
    GST_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE (GST_SESSION_TYPE_SIGNALLER,
        gst_session_http_signaller_iface_init));

static gboolean
gst_session_http_signaller_start (GstSessionSignaller * signaller,
    const gchar * offer_sdp, const gchar * session_id, GError ** error)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (signaller);
  gchar *url, *api_key, *safe_url;
  guint timeout, keepalive_timeout;
  gboolean tls_validation;
  GUri *uri;
  Call *call, *old = NULL;
  SoupSession *session;
  GBytes *body;

  GST_OBJECT_LOCK (self);
  url = g_strdup (self->url);
  api_key = g_strdup (self->api_key);
  timeout = self->timeout;
  keepalive_timeout = self->keepalive_timeout;
  tls_validation = self->tls_validation;
  if (self->session == NULL)
    self->session = gst_session_http_session_new ();
  session = g_object_ref (self->session);
  GST_OBJECT_UNLOCK (self);

  uri = gst_session_http_parse_url (url, "start-session URL", error);
  if (uri == NULL) {
    g_object_unref (session);
    goto refused;
  }

  call = g_new0 (Call, 1);
  call->refcount = 1;
  g_weak_ref_init (&call->signaller, self);
  call->context = g_main_context_ref_thread_default ();
  call->cancellable = g_cancellable_new ();
  call->api_key = api_key;
  api_key = NULL;
  call->timeout = timeout;
  call->keepalive_timeout = keepalive_timeout;

  call->session = session;
  /* no redirects: a redirect would take the key elsewhere */
  body = build_offer (offer_sdp, session_id);
  call->msg = gst_session_http_request_new_from_uri (SOUP_METHOD_POST, uri,
      "text/event-stream, application/json", call->api_key, body,
      tls_validation, NULL);
  g_bytes_unref (body);

  GST_OBJECT_LOCK (self);
  if (self->preconnect || self->preconnected) {
    /* libsoup gives a POST a connection of its own, never an idle one,
     * unless the request may be sent twice: the one prepare() opened has
     * carried no request, so it is taken (measured: the TCP handshake's
     * round trip left start-session's time) and nothing is resent on it */
    soup_message_add_flags (call->msg, SOUP_MESSAGE_IDEMPOTENT);
    self->preconnected = FALSE;
    g_clear_object (&self->preconnect);
  }
  if (self->call && !call_is_done (self->call)) {
    GST_OBJECT_UNLOCK (self);
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT,
        "A start-session attempt is already running");
    g_atomic_int_set (&call->done, TRUE);
    call_unref (call);
    g_uri_unref (uri);
    goto refused;
  }
  old = self->call;
  self->call = call_ref (call);
  g_free (self->session_id);
  self->session_id = g_strdup (session_id);
  GST_OBJECT_UNLOCK (self);

  if (old)
    call_unref (old);

  safe_url = gst_session_http_safe_url (uri, FALSE);
  GST_INFO_OBJECT (self, "POST %s, session %s, key %s, timeout %u ms%s",
      safe_url, session_id, call->api_key ? "set" : "not set", timeout,
      tls_validation ? "" : ", certificates not verified");
  g_free (safe_url);
  g_uri_unref (uri);

  if (!tls_validation)
    GST_WARNING_OBJECT (self, "TLS certificates are not verified");

  if (timeout > 0)
    call->start_timer = call_add_timer (call, timeout, on_start_timeout);

  call->io_busy = TRUE;
  soup_session_send_async (call->session, call->msg, G_PRIORITY_DEFAULT,
      call->cancellable, on_sent, call_ref (call));

  call_unref (call);
  g_free (url);
  return TRUE;

refused:
  GST_WARNING_OBJECT (self, "start-session not started: %s",
      error && *error ? (*error)->message : "");
  g_free (url);
  g_free (api_key);
  return FALSE;
}

typedef struct
{
  GWeakRef signaller;
  GCancellable *cancellable;    /* which preconnect this is */
} Preconnect;

static void
on_preconnected (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Preconnect *p = user_data;
  GstSessionHttpSignaller *self = g_weak_ref_get (&p->signaller);
  GError *error = NULL;
  gboolean ok;

  ok = soup_session_preconnect_finish (SOUP_SESSION (source), res, &error);
  if (self) {
    GST_DEBUG_OBJECT (self, "connection ahead of the start: %s",
        ok ? "open" : error->message);
    GST_OBJECT_LOCK (self);
    /* only while no start took it (a start flags its POST as able to
     * take an idle connection only for this fresh one) */
    if (self->preconnect == p->cancellable) {
      self->preconnected = ok;
      g_clear_object (&self->preconnect);
    }
    GST_OBJECT_UNLOCK (self);
    gst_object_unref (self);
  }
  g_clear_error (&error);
  g_weak_ref_clear (&p->signaller);
  g_object_unref (p->cancellable);
  g_free (p);
}

/* Opens the connection the next start's POST takes (a TCP handshake, and
 * TLS, while the offer is made): start-session then costs one round trip
 * less. Nothing when no valid URL is set or one is already open. */
static void
gst_session_http_signaller_prepare (GstSessionSignaller * signaller)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (signaller);
  GCancellable *cancellable;
  SoupSession *session;
  SoupMessage *msg;
  gboolean tls_validation;
  Preconnect *p;
  GUri *uri;
  gchar *url;

  GST_OBJECT_LOCK (self);
  if (self->preconnect || self->preconnected ||
      (self->call && !call_is_done (self->call))) {
    GST_OBJECT_UNLOCK (self);
    return;
  }
  url = g_strdup (self->url);
  tls_validation = self->tls_validation;
  if (self->session == NULL)
    self->session = gst_session_http_session_new ();
  session = g_object_ref (self->session);
  GST_OBJECT_UNLOCK (self);

  uri = gst_session_http_parse_url (url, "start-session URL", NULL);
  g_free (url);
  msg = uri ? gst_session_http_request_new_from_uri (SOUP_METHOD_POST, uri,
      NULL, NULL, NULL, tls_validation, NULL) : NULL;
  g_clear_pointer (&uri, g_uri_unref);
  if (msg == NULL) {
    g_object_unref (session);
    return;
  }
  cancellable = g_cancellable_new ();
  GST_OBJECT_LOCK (self);
  self->preconnect = g_object_ref (cancellable);
  GST_OBJECT_UNLOCK (self);
  p = g_new0 (Preconnect, 1);
  g_weak_ref_init (&p->signaller, self);
  p->cancellable = cancellable;
  soup_session_preconnect_async (session, msg, G_PRIORITY_DEFAULT,
      cancellable, on_preconnected, p);
  g_object_unref (msg);
  g_object_unref (session);
}

static void
gst_session_http_signaller_stop (GstSessionSignaller * signaller)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (signaller);
  GCancellable *preconnect;
  Call *call;

  GST_OBJECT_LOCK (self);
  call = self->call;
  self->call = NULL;
  preconnect = g_steal_pointer (&self->preconnect);
  self->preconnected = FALSE;
  GST_OBJECT_UNLOCK (self);

  if (preconnect) {
    g_cancellable_cancel (preconnect);
    g_object_unref (preconnect);
  }

  if (call) {
    GST_DEBUG_OBJECT (self, "stopping%s",
        call_is_done (call) ? " (already over)" : "");
    call_stop (call);
    call_unref (call);
  }
}

static void
gst_session_http_signaller_iface_init (GstSessionSignallerInterface * iface)
{
  iface->start = gst_session_http_signaller_start;
  iface->stop = gst_session_http_signaller_stop;
  iface->prepare = gst_session_http_signaller_prepare;
}

static void
gst_session_http_signaller_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_URL:
      g_free (self->url);
      self->url = g_value_dup_string (value);
      break;
    case PROP_API_KEY:
      g_free (self->api_key);
      self->api_key = g_value_dup_string (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_KEEPALIVE_TIMEOUT:
      self->keepalive_timeout = g_value_get_uint (value);
      break;
    case PROP_TLS_VALIDATION:
      self->tls_validation = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_http_signaller_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_KEEPALIVE_TIMEOUT:
      g_value_set_uint (value, self->keepalive_timeout);
      break;
    case PROP_TLS_VALIDATION:
      g_value_set_boolean (value, self->tls_validation);
      break;
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_http_signaller_dispose (GObject * object)
{
  gst_session_http_signaller_stop (GST_SESSION_SIGNALLER (object));

  G_OBJECT_CLASS (gst_session_http_signaller_parent_class)->dispose (object);
}

static void
gst_session_http_signaller_finalize (GObject * object)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (object);

  g_free (self->url);
  if (self->api_key)
    memset (self->api_key, 0, strlen (self->api_key));
  g_free (self->api_key);
  g_free (self->session_id);
  if (self->preconnect)
    g_cancellable_cancel (self->preconnect);
  g_clear_object (&self->preconnect);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (gst_session_http_signaller_parent_class)->finalize (object);
}

static void
gst_session_http_signaller_class_init (GstSessionHttpSignallerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gst_session_init ();

  gobject_class->set_property = gst_session_http_signaller_set_property;
  gobject_class->get_property = gst_session_http_signaller_get_property;
  gobject_class->dispose = gst_session_http_signaller_dispose;
  gobject_class->finalize = gst_session_http_signaller_finalize;

  /**
   * GstSessionHttpSignaller:url:
   *
   * The full start-session endpoint (http or https).
   */
  g_object_class_install_property (gobject_class, PROP_URL,
      g_param_spec_string ("url", "URL", "The start-session endpoint",
          DEFAULT_URL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:api-key:
   *
   * The key sent as `Authorization: Key <api-key>`; none is sent when
   * unset or empty. Write-only, never logged.
   */
  g_object_class_install_property (gobject_class, PROP_API_KEY,
      g_param_spec_string ("api-key", "API key",
          "The key of the Authorization header (write-only)", NULL,
          G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:timeout:
   *
   * How long the service may take to answer, from start() to the answer
   * (connecting included), in milliseconds; 0 waits forever.
   */
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Longest wait for the answer, in milliseconds (0 = forever)", 0,
          G_MAXUINT, DEFAULT_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:keepalive-timeout:
   *
   * After an event-stream answer: when nothing (no data, no keepalive
   * comment) comes for this long, in milliseconds, the stream is closed
   * and #GstSessionSignaller::closed emitted; 0 never. The service sends a
   * keepalive at least every 15 s.
   */
  g_object_class_install_property (gobject_class, PROP_KEEPALIVE_TIMEOUT,
      g_param_spec_uint ("keepalive-timeout", "Keepalive timeout",
          "Longest silence of the session stream, in milliseconds "
          "(0 = no limit)", 0, G_MAXUINT, DEFAULT_KEEPALIVE_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:tls-validation:
   *
   * Whether the certificate of an https service is verified.
   */
  g_object_class_install_property (gobject_class, PROP_TLS_VALIDATION,
      g_param_spec_boolean ("tls-validation", "TLS validation",
          "Verify the certificate of an https service",
          DEFAULT_TLS_VALIDATION, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:session-id:
   *
   * The session id sent by the last start(), or %NULL.
   */
  g_object_class_install_property (gobject_class, PROP_SESSION_ID,
      g_param_spec_string ("session-id", "Session id",
          "The session id of the last start", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
gst_session_http_signaller_init (GstSessionHttpSignaller * self)
{
  self->url = g_strdup (DEFAULT_URL);
  self->timeout = DEFAULT_TIMEOUT;
  self->keepalive_timeout = DEFAULT_KEEPALIVE_TIMEOUT;
  self->tls_validation = DEFAULT_TLS_VALIDATION;
}

/**
 * gst_session_http_signaller_new:
 * @url: (nullable): the start-session endpoint.
 *
 * Returns: (transfer full): a new signaller.
 */
GstSessionHttpSignaller *
gst_session_http_signaller_new (const gchar * url)
{
  return g_object_new (GST_SESSION_TYPE_HTTP_SIGNALLER, "url", url, NULL);
}

/**
 * gst_session_http_signaller_get_session_id:
 * @signaller: a signaller.
 *
 * Returns: (transfer full) (nullable): the session id the last start()
 *   sent.
 */
gchar *
gst_session_http_signaller_get_session_id (GstSessionHttpSignaller * signaller)
{
  gchar *id;

  g_return_val_if_fail (GST_SESSION_IS_HTTP_SIGNALLER (signaller), NULL);

  GST_OBJECT_LOCK (signaller);
  id = g_strdup (signaller->session_id);
  GST_OBJECT_UNLOCK (signaller);
  return id;
}
