/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionhttpcall
 * @title: HTTP calls
 * @short_description: one session per owner, requests, bounded fetches,
 *   secrets kept out of texts
 *
 * The one HTTP call layer of the libraries (libsoup 3): the start-session
 * signaller, the queue and management client and the webhook verifier's
 * document fetches all go through it.
 *
 * - gst_session_http_session_new() makes the #SoupSession an owner keeps
 *   for all its calls, so that connections are kept alive and reused from
 *   one call to the next (libsoup reuses a connection for idempotent
 *   methods such as `GET`; a `POST` gets a connection of its own). Its own
 *   timeout is off: the caller's timer bounds each call.
 * - gst_session_http_request_new() and
 *   gst_session_http_request_new_from_uri() build a request: http or https
 *   only, redirects never followed (a key would follow them), an `Accept`
 *   header, `Authorization: Key <key>` when a key is given, an optional
 *   JSON body, and certificates left unverified only when asked.
 * - gst_session_http_fetch_async() sends a request and reads its answer
 *   into memory, bounded in time and in size; cancelling or timing out
 *   aborts that message only, never the owner's session.
 * - gst_session_http_safe_url() and gst_session_http_scrub() make texts
 *   for errors and logs: no user info, password or authentication
 *   parameters of a URL, and no API key anywhere.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/session/sessioninit.h>
#include <gst/session/http/call.h>
#include "../session-private.h"

/* ---------------------------------------------------------------------- */
/* the owner's session                                                    */

/* Per owner: one signalling attempt, or the calls of a client at once
 * (libsoup's default of 2 per host would queue the third behind the first
 * two, where a session per request never waited). */
#define MAX_CONNS 64
#define MAX_CONNS_PER_HOST 16

/**
 * gst_session_http_session_new:
 *
 * Makes the session an owner (a client, a signaller, a verifier) keeps for
 * all its calls: user agent `gst-session`, libsoup's own timeout off (each
 * call is bounded by its caller's timer). Connections stay open between
 * calls and are reused. Send on it from any thread with a thread-default
 * #GMainContext (libsoup 3.2); unref it when the owner goes away.
 *
 * Returns: (transfer full): a new session.
 */
SoupSession *
gst_session_http_session_new (void)
{
  return soup_session_new_with_options ("user-agent", "gst-session",
      "timeout", 0, "max-conns", MAX_CONNS,
      "max-conns-per-host", MAX_CONNS_PER_HOST, NULL);
}

/* ---------------------------------------------------------------------- */
/* URLs and secrets in texts                                              */

/**
 * gst_session_http_safe_url:
 * @uri: a URL.
 * @hide_query: whether the query and the fragment are left out too.
 *
 * The text of @uri for errors and logs: without user info, password and
 * authentication parameters, and without query and fragment when
 * @hide_query is set.
 *
 * Returns: (transfer full): the text.
 */
gchar *
gst_session_http_safe_url (GUri * uri, gboolean hide_query)
{
  GUriHideFlags flags = G_URI_HIDE_USERINFO | G_URI_HIDE_PASSWORD |
      G_URI_HIDE_AUTH_PARAMS;

  g_return_val_if_fail (uri != NULL, NULL);

  if (hide_query)
    flags |= G_URI_HIDE_QUERY | G_URI_HIDE_FRAGMENT;
  return g_uri_to_string_partial (uri, flags);
}

static gboolean
check_uri (GUri * uri, const gchar * what, GError ** error)
{
  const gchar *scheme = g_uri_get_scheme (uri);
  const gchar *host = g_uri_get_host (uri);
  gchar *safe;

  if (scheme && (g_ascii_strcasecmp (scheme, "http") == 0 ||
          g_ascii_strcasecmp (scheme, "https") == 0) && host && *host)
    return TRUE;

  safe = gst_session_http_safe_url (uri, FALSE);
  if (host && *host)
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "The %s is not http or https (%s)", what, safe);
  else
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "The %s has no host (%s)", what, safe);
  g_free (safe);
  return FALSE;
}

/**
 * gst_session_http_parse_url:
 * @url: (nullable): the URL text.
 * @what: what the URL is, for error texts (`start-session URL`).
 * @error: return location for a #GError, or %NULL.
 *
 * Parses @url as an http or https URL with a host. The errors
 * (%GST_SESSION_ERROR_INVALID_ARGUMENT) say which rule failed: `No <what>
 * is set`, `Invalid <what>: ...`, `The <what> is not http or https
 * (<url>)`, `The <what> has no host (<url>)`; the URL in them is the
 * gst_session_http_safe_url() text.
 *
 * Returns: (transfer full) (nullable): the URL, or %NULL with @error set.
 */
GUri *
gst_session_http_parse_url (const gchar * url, const gchar * what,
    GError ** error)
{
  GError *err = NULL;
  GUri *uri;

  g_return_val_if_fail (what != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (url == NULL || *url == '\0') {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "No %s is set", what);
    return NULL;
  }
  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, &err);
  if (uri == NULL) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "Invalid %s: %s", what, err->message);
    g_clear_error (&err);
    return NULL;
  }
  if (!check_uri (uri, what, error)) {
    g_uri_unref (uri);
    return NULL;
  }
  return uri;
}

/**
 * gst_session_http_scrub:
 * @text: (inout) (nullable) (transfer full): a text, replaced when it
 *   changes.
 * @key: (nullable): the API key; nothing is done when %NULL or empty.
 *
 * Replaces every occurrence of @key in *@text by
 * %GST_SESSION_HTTP_KEY_PLACEHOLDER: for every text that may hold what a
 * service sent back (errors, logs).
 */
void
gst_session_http_scrub (gchar ** text, const gchar * key)
{
  GString *s;

  g_return_if_fail (text != NULL);

  if (*text == NULL || key == NULL || *key == '\0' || !strstr (*text, key))
    return;
  s = g_string_new (*text);
  g_string_replace (s, key, GST_SESSION_HTTP_KEY_PLACEHOLDER, 0);
  g_free (*text);
  *text = g_string_free (s, FALSE);
}

/**
 * gst_session_http_scrub_error:
 * @http_error: (nullable): a parsed error answer.
 * @key: (nullable): the API key.
 *
 * gst_session_http_scrub() on every text of @http_error and of its items.
 * An item's `ctx` holds typed values: when its text holds the key, the
 * whole `ctx` is dropped.
 */
void
gst_session_http_scrub_error (GstSessionHttpError * http_error,
    const gchar * key)
{
  guint i;

  if (http_error == NULL || key == NULL || *key == '\0')
    return;
  gst_session_http_scrub (&http_error->error_type, key);
  gst_session_http_scrub (&http_error->detail, key);
  for (i = 0; http_error->items && i < http_error->items->len; i++) {
    GstSessionHttpErrorItem *item = g_ptr_array_index (http_error->items, i);

    gst_session_http_scrub (&item->type, key);
    gst_session_http_scrub (&item->msg, key);
    gst_session_http_scrub (&item->url, key);
    gst_session_http_scrub (&item->loc, key);
    gst_session_http_scrub (&item->input, key);
    if (item->ctx) {
      gchar *text = gst_structure_to_string (item->ctx);

      if (strstr (text, key))
        g_clear_pointer (&item->ctx, gst_structure_free);
      g_free (text);
    }
  }
}

/* ---------------------------------------------------------------------- */
/* requests                                                               */

static gboolean
accept_any_certificate (SoupMessage * msg, GTlsCertificate * certificate,
    GTlsCertificateFlags errors, gpointer user_data)
{
  return TRUE;
}

/**
 * gst_session_http_request_new_from_uri:
 * @method: the method (`GET`, `POST`, ...).
 * @uri: the URL: http or https, with a host.
 * @accept: (nullable): the `Accept` header, or %NULL for none.
 * @api_key: (nullable): the key sent as `Authorization: Key <api_key>`;
 *   none is sent when %NULL or empty. The header text is zeroed once set.
 * @json_body: (nullable): the request body, sent as `application/json`.
 * @tls_validation: whether an https server's certificate is verified;
 *   %FALSE accepts any certificate.
 * @error: return location for a #GError, or %NULL.
 *
 * Builds a request that never follows a redirect (the key would follow
 * it). Send it with gst_session_http_fetch_async() or, to stream its
 * answer, soup_session_send_async().
 *
 * Returns: (transfer full) (nullable): the message, or %NULL with @error
 *   set (%GST_SESSION_ERROR_INVALID_ARGUMENT) when @uri is not http or
 *   https.
 */
SoupMessage *
gst_session_http_request_new_from_uri (const gchar * method, GUri * uri,
    const gchar * accept, const gchar * api_key, GBytes * json_body,
    gboolean tls_validation, GError ** error)
{
  SoupMessageHeaders *headers;
  SoupMessage *msg;

  g_return_val_if_fail (method != NULL, NULL);
  g_return_val_if_fail (uri != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!check_uri (uri, "request URL", error))
    return NULL;

  msg = soup_message_new_from_uri (method, uri);
  soup_message_add_flags (msg, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (msg);
  if (accept)
    soup_message_headers_replace (headers, "Accept", accept);
  if (api_key && *api_key) {
    gchar *auth = g_strconcat ("Key ", api_key, NULL);

    soup_message_headers_replace (headers, "Authorization", auth);
    memset (auth, 0, strlen (auth));
    g_free (auth);
  }
  if (!tls_validation)
    g_signal_connect (msg, "accept-certificate",
        G_CALLBACK (accept_any_certificate), NULL);
  if (json_body)
    soup_message_set_request_body_from_bytes (msg, "application/json",
        json_body);
  return msg;
}

/**
 * gst_session_http_request_new:
 * @method: the method (`GET`, `POST`, ...).
 * @url: the URL text: http or https, with a host.
 * @accept: (nullable): the `Accept` header, or %NULL for none.
 * @api_key: (nullable): the key sent as `Authorization: Key <api_key>`;
 *   none is sent when %NULL or empty.
 * @json_body: (nullable): the request body, sent as `application/json`.
 * @tls_validation: whether an https server's certificate is verified.
 * @error: return location for a #GError, or %NULL.
 *
 * gst_session_http_request_new_from_uri() on @url parsed with
 * gst_session_http_parse_url() (as the `request URL`).
 *
 * Returns: (transfer full) (nullable): the message, or %NULL with @error
 *   set.
 */
SoupMessage *
gst_session_http_request_new (const gchar * method, const gchar * url,
    const gchar * accept, const gchar * api_key, GBytes * json_body,
    gboolean tls_validation, GError ** error)
{
  SoupMessage *msg;
  GUri *uri;

  g_return_val_if_fail (method != NULL, NULL);

  uri = gst_session_http_parse_url (url, "request URL", error);
  if (uri == NULL)
    return NULL;
  msg = gst_session_http_request_new_from_uri (method, uri, accept, api_key,
      json_body, tls_validation, error);
  g_uri_unref (uri);
  return msg;
}

/* ---------------------------------------------------------------------- */
/* a bounded fetch                                                        */

/* How much is asked of the network per read. */
#define READ_SIZE 16384

/* The task data of one fetch. Lives on the task's context (the caller's
 * thread-default context); only the caller's cancellable may fire from
 * another thread, and it only cancels @cancellable. */
typedef struct
{
  SoupMessage *msg;
  GInputStream *stream;
  GByteArray *body;
  gsize max_body;
  gsize max_error_body;
  /* the bound of this answer: max_body for a 2xx, else max_error_body */
  gsize max;
  guint timeout;

  /* this message's I/O: cancelled by the timer or the caller */
  GCancellable *cancellable;
  GCancellable *caller;
  gulong caller_handler;
  GSource *timer;
  gboolean timed_out;
} Fetch;

static void
fetch_free (gpointer data)
{
  Fetch *f = data;

  if (f->caller)
    g_cancellable_disconnect (f->caller, f->caller_handler);
  g_clear_object (&f->caller);
  if (f->timer) {
    g_source_destroy (f->timer);
    g_source_unref (f->timer);
  }
  /* a body not read to its end: abort this message (its connection is
   * closed) rather than let closing the stream read the rest */
  if (f->stream && !g_input_stream_is_closed (f->stream))
    g_cancellable_cancel (f->cancellable);
  g_clear_object (&f->stream);
  g_clear_object (&f->msg);
  g_clear_object (&f->cancellable);
  g_clear_pointer (&f->body, g_byte_array_unref);
  g_free (f);
}

static void
on_caller_cancelled (GCancellable * caller, gpointer user_data)
{
  /* any thread; the fetch's cancellable lives as long as the handler */
  g_cancellable_cancel (G_CANCELLABLE (user_data));
}

static gboolean
on_fetch_timeout (gpointer user_data)
{
  Fetch *f = user_data;

  f->timed_out = TRUE;
  g_cancellable_cancel (f->cancellable);
  return G_SOURCE_REMOVE;
}

/* A failed send or read. Takes @error. */
static void
fetch_fail_io (GTask * task, GError * error)
{
  Fetch *f = g_task_get_task_data (task);

  if (f->caller && g_cancellable_is_cancelled (f->caller)) {
    g_clear_error (&error);
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
        "The call was cancelled");
  } else if (f->timed_out) {
    g_clear_error (&error);
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
        "no answer within %u ms", f->timeout);
  } else {
    g_task_return_error (task, error);
  }
}

static void on_fetch_read (GObject * source, GAsyncResult * res, gpointer data);

static void
fetch_read (GTask * task)
{
  Fetch *f = g_task_get_task_data (task);

  /* one byte more than the bound tells a body over it */
  g_input_stream_read_bytes_async (f->stream,
      MIN (READ_SIZE, f->max + 1 - f->body->len), G_PRIORITY_DEFAULT,
      f->cancellable, on_fetch_read, task);
}

static void
on_fetch_read (GObject * source, GAsyncResult * res, gpointer data)
{
  GTask *task = data;
  Fetch *f = g_task_get_task_data (task);
  GError *error = NULL;
  GBytes *bytes;
  gsize size;

  bytes = g_input_stream_read_bytes_finish (G_INPUT_STREAM (source), res,
      &error);
  if (bytes == NULL) {
    fetch_fail_io (task, error);
    goto out;
  }
  size = g_bytes_get_size (bytes);
  g_byte_array_append (f->body, g_bytes_get_data (bytes, NULL), size);
  g_bytes_unref (bytes);

  if (size > 0 && f->body->len <= f->max) {
    fetch_read (task);
    return;
  }
  if (size == 0)
    g_input_stream_close (f->stream, NULL, NULL);

  if (f->body->len > f->max && f->max == f->max_body &&
      SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (f->msg))) {
    g_task_return_new_error (task, GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP,
        "the answer is larger than %" G_GSIZE_FORMAT " bytes", f->max);
  } else {
    /* the whole body, or enough of an error body */
    if (f->body->len > f->max)
      g_byte_array_set_size (f->body, f->max);
    g_task_return_pointer (task, g_byte_array_free_to_bytes (f->body),
        (GDestroyNotify) g_bytes_unref);
    f->body = NULL;
  }

out:
  g_object_unref (task);
}

static void
on_fetch_sent (GObject * source, GAsyncResult * res, gpointer data)
{
  GTask *task = data;
  Fetch *f = g_task_get_task_data (task);
  GError *error = NULL;
  guint status;

  f->stream = soup_session_send_finish (SOUP_SESSION (source), res, &error);
  if (f->stream == NULL) {
    fetch_fail_io (task, error);
    g_object_unref (task);
    return;
  }
  status = soup_message_get_status (f->msg);
  f->max = SOUP_STATUS_IS_SUCCESSFUL (status) ? f->max_body : f->max_error_body;
  f->body = g_byte_array_new ();
  fetch_read (task);
}

/**
 * gst_session_http_fetch_async:
 * @session: the owner's session (gst_session_http_session_new()).
 * @msg: the request (gst_session_http_request_new()).
 * @timeout: the longest wait, in milliseconds, from now to the end of the
 *   answer (connecting included); 0 waits forever.
 * @max_body: the largest 2xx body, in bytes; a larger one is an error.
 * @max_error_body: how much of a non-2xx body is kept, in bytes; the rest
 *   is not read (and not an error).
 * @cancellable: (nullable): cancels the call.
 * @callback: called on the thread-default context of this call.
 * @user_data: data for @callback.
 *
 * Sends @msg on @session and reads its whole answer. Cancelling or timing
 * out aborts @msg only: the session and its other calls go on.
 * Get the result with gst_session_http_fetch_finish().
 */
void
gst_session_http_fetch_async (SoupSession * session, SoupMessage * msg,
    guint timeout, gsize max_body, gsize max_error_body,
    GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data)
{
  Fetch *f;
  GTask *task;

  g_return_if_fail (SOUP_IS_SESSION (session));
  g_return_if_fail (SOUP_IS_MESSAGE (msg));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  f = g_new0 (Fetch, 1);
  f->msg = g_object_ref (msg);
  f->timeout = timeout;
  f->max_body = max_body;
  f->max_error_body = max_error_body;
  f->cancellable = g_cancellable_new ();

  /* the caller's cancellable is followed through our own: the task does
   * not check it, so that every error comes from here */
  task = g_task_new (session, NULL, callback, user_data);
  g_task_set_source_tag (task, gst_session_http_fetch_async);
  g_task_set_task_data (task, f, fetch_free);

  if (timeout > 0) {
    f->timer = g_timeout_source_new (timeout);
    g_source_set_callback (f->timer, on_fetch_timeout, f, NULL);
    g_source_attach (f->timer, g_task_get_context (task));
  }
  if (cancellable) {
    f->caller = g_object_ref (cancellable);
    /* runs at once when already cancelled */
    f->caller_handler = g_cancellable_connect (cancellable,
        G_CALLBACK (on_caller_cancelled), g_object_ref (f->cancellable),
        g_object_unref);
  }
  soup_session_send_async (session, msg, G_PRIORITY_DEFAULT, f->cancellable,
      on_fetch_sent, task);
}

/**
 * gst_session_http_fetch_finish:
 * @session: the session.
 * @result: the result given to the callback.
 * @status: (out) (optional): the HTTP status of the answer, when there was
 *   one.
 * @headers: (out) (optional) (transfer full): the answer's headers, when
 *   there was an answer.
 * @error: return location for a #GError, or %NULL.
 *
 * The answer of gst_session_http_fetch_async(). Any status is an answer
 * (the caller judges it); the errors are: %G_IO_ERROR_CANCELLED (`The call
 * was cancelled`), %G_IO_ERROR_TIMED_OUT (`no answer within <timeout>
 * ms`), %GST_SESSION_ERROR_HTTP for a 2xx body over its bound (`the answer
 * is larger than <max_body> bytes`, @status and @headers still set), or
 * libsoup's error when the service could not be reached or the answer not
 * read.
 *
 * Returns: (transfer full) (nullable): the body (at most @max_error_body
 *   bytes of a non-2xx one), or %NULL with @error set.
 */
GBytes *
gst_session_http_fetch_finish (SoupSession * session, GAsyncResult * result,
    guint * status, SoupMessageHeaders ** headers, GError ** error)
{
  Fetch *f;

  g_return_val_if_fail (g_task_is_valid (result, session), NULL);
  g_return_val_if_fail (g_async_result_is_tagged (result,
          gst_session_http_fetch_async), NULL);

  f = g_task_get_task_data (G_TASK (result));
  if (status)
    *status = soup_message_get_status (f->msg);
  if (headers)
    *headers = f->stream ?
        soup_message_headers_ref (soup_message_get_response_headers (f->msg)) :
        NULL;
  return g_task_propagate_pointer (G_TASK (result), error);
}
