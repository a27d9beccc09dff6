/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One start-session attempt of GstSessionHttpSignaller (httpsignaller.c
 * starts it): the POST's answer read as JSON, as an event stream or as an
 * HTTP error, the answer handed out, the stream watched for its keepalives
 * until the session ends, and the one terminal signal of the attempt.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <libsoup/soup.h>

#include <gst/session/sessioninit.h>
#include <gst/session/answer.h>
#include <gst/session/http/http.h>
#include "../session-private.h"
#include "signalling-private.h"

/* ------------------------------------------------------------------------ */
/* helpers: secrets                                                         */

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

/* ------------------------------------------------------------------------ */
/* one attempt                                                              */

/* How much is asked of the network per read. */
#define READ_SIZE 16384

Call *
signalling_call_ref (Call * call)
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

void
signalling_call_unref (Call * call)
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

gboolean
signalling_call_is_done (Call * call)
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
void
signalling_call_stop (Call * call)
{
  g_atomic_int_set (&call->done, TRUE);
  g_cancellable_cancel (call->cancellable);
  g_main_context_invoke_full (call->context, G_PRIORITY_DEFAULT,
      call_shutdown_in_context, signalling_call_ref (call),
      (GDestroyNotify) signalling_call_unref);
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
  } else if (signalling_call_is_done (call)) {
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

gboolean
signalling_on_start_timeout (gpointer user_data)
{
  Call *call = user_data;

  if (!signalling_call_is_done (call))
    call_fail (call, g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
            "The session service did not answer within %u ms",
            call->timeout), NULL);

  return G_SOURCE_REMOVE;
}

static gboolean
on_keepalive_timeout (gpointer user_data)
{
  Call *call = user_data;

  if (!signalling_call_is_done (call))
    call_closed (call, GST_SESSION_SIGNALLER_CLOSE_REASON_KEEPALIVE_TIMEOUT,
        g_error_new (G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
            "Nothing came from the session service for %u ms",
            call->keepalive_timeout));

  return G_SOURCE_REMOVE;
}

GSource *
signalling_call_add_timer (Call * call, guint ms, GSourceFunc func)
{
  GSource *source = g_timeout_source_new (ms);

  g_source_set_callback (source, func, signalling_call_ref (call),
      (GDestroyNotify) signalling_call_unref);
  g_source_attach (source, call->context);
  return source;
}

static void
call_restart_keepalive (Call * call)
{
  clear_timer (&call->keepalive_timer);
  if (call->keepalive_timeout > 0)
    call->keepalive_timer =
        signalling_call_add_timer (call, call->keepalive_timeout,
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
      on_body_read, signalling_call_ref (call));
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

  if (signalling_call_is_done (call))
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
  signalling_call_unref (call);
  return;

finished:
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_error (&error);
  call->io_busy = FALSE;
  if (signalling_call_is_done (call))
    call_release_io (call);
  signalling_call_unref (call);
}

static void
on_sse_event (GstSessionSseParser * parser, const GstSessionSseEvent * event,
    gpointer user_data)
{
  Call *call = user_data;

  if (signalling_call_is_done (call))
    return;

  if (call->answered) {
    GST_LOG ("event '%s' (%" G_GSIZE_FORMAT " bytes) after the answer, "
        "ignored", event->type, event->length);
    return;
  }

  call_answer (call, event->data, event->length, FALSE);
  if (!signalling_call_is_done (call))
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

  if (signalling_call_is_done (call))
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

  if (signalling_call_is_done (call))
    goto finished;

  g_bytes_unref (bytes);
  call_read (call);
  signalling_call_unref (call);
  return;

finished:
  g_clear_pointer (&bytes, g_bytes_unref);
  g_clear_error (&error);
  call->io_busy = FALSE;
  if (signalling_call_is_done (call))
    call_release_io (call);
  signalling_call_unref (call);
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

void
signalling_on_sent (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Call *call = user_data;
  GError *error = NULL;
  GInputStream *stream;
  const gchar *content_type;
  guint status;

  stream = soup_session_send_finish (SOUP_SESSION (source), res, &error);

  if (signalling_call_is_done (call)) {
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
  signalling_call_unref (call);
  return;

finished:
  g_clear_error (&error);
  call->io_busy = FALSE;
  if (signalling_call_is_done (call))
    call_release_io (call);
  signalling_call_unref (call);
}
