/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionplatform
 * @title: GstSessionPlatform
 * @short_description: queue submission and management operations over HTTP
 *
 * #GstSessionPlatform is the HTTP client (libsoup 3) of spec 001's queue
 * and management interfaces. Every call is one operation, asynchronous on
 * the #GMainContext that is thread-default when it is started, with a
 * synchronous wrapper for command-line tools. Requests carry
 * `Authorization: Key <api-key>` when #GstSessionPlatform:api-key is set;
 * the key is never logged, never put in an error text, and scrubbed from
 * texts the service sends back. Redirects are not followed (the key would
 * follow them).
 *
 * Queue submission (spec 001, "Submit with webhook"):
 * `POST {queue_url}/<app_path>?svc_webhook=<webhook_url>` with
 * `Content-Type: application/json` and the caller's JSON object as body.
 * Each segment of the app path and the whole webhook URL are
 * percent-encoded. Any 2xx answer must be a JSON object with non-empty
 * string `request_id` and `gateway_request_id`. Submissions are not rate
 * limited here (the spec gives no limit for them) and never resent: a
 * second POST would queue the request twice.
 *
 * Management operations (spec 001 gives only their limits; the paths and
 * payloads are this project's, and the reference service serves the same):
 *
 * | operation | request(s), relative to `{api_url}` |
 * |---|---|
 * | apps list | `GET /apps` |
 * | apps runners | `GET /apps/{app}/runners` |
 * | runners list, GET /runners | `GET /runners` |
 * | GET /runners/{runner_id} | `GET /runners/{runner_id}` |
 * | runners logs | `GET /runners/{runner_id}`, then `GET /runners/{runner_id}/logs` |
 * | runners shell/exec | `POST /runners/{runner_id}/exec`, body `{"command": [argv...]}` |
 * | runners stop | `POST /runners/{runner_id}/stop`, no body |
 * | runners kill | `POST /runners/{runner_id}/kill`, no body |
 *
 * Ids are percent-encoded as one path segment. A 2xx body is opaque JSON
 * handed to the caller (an empty body is JSON null); for `runners logs`
 * the result is `{"runner": <first body>, "logs": <second body>}`.
 *
 * Every management call first goes through the client's
 * #GstSessionRateLimiter (#GstSessionPlatform:rate-limiter): when a window
 * is full the call fails with %GST_SESSION_PLATFORM_ERROR_RATE_LIMITED and
 * nothing is sent. A 429 answer is read with `x-ratelimit-reset`, which
 * marks the limit full in the limiter until then, and is not retried (spec
 * 001: the CLI and SDK do not retry a rejected call). A rejected stop or
 * kill says plainly that the runner is still running (rule 3).
 *
 * Other non-2xx answers go through gst_session_http_error_parse(); the
 * error code follows gst_session_http_error_retry_decision():
 * %GST_SESSION_PLATFORM_ERROR_TRANSIENT when it would retry, else
 * %GST_SESSION_PLATFORM_ERROR_REFUSED. The parsed answer is handed out too.
 * A call makes one attempt; retrying is for the caller.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"

/* ---------------------------------------------------------------------- */
/* helpers: JSON, URLs                                                    */
/* ---------------------------------------------------------------------- */

/* the longest id, app path segment or JSON error quoted */
#define MAX_ID_LENGTH 1024
#define ERROR_TEXT_MAX 160

/* Parses @text as one JSON value; an empty text is null when @empty_ok.
 * On failure, says why in @why (static text or a short quote). */
static JsonNode *
parse_json (const gchar * text, gsize length, gboolean empty_ok, gchar ** why)
{
  JsonParser *parser;
  JsonNode *root = NULL;
  GError *err = NULL;
  gsize i;

  for (i = 0; i < length && g_ascii_isspace (text[i]); i++);
  if (i == length) {
    if (empty_ok)
      return json_node_new (JSON_NODE_NULL);
    *why = g_strdup ("it is empty");
    return NULL;
  }
  if (!g_utf8_validate_len (text, length, NULL)) {
    *why = g_strdup ("it is not UTF-8 text");
    return NULL;
  }
  if (!gst_session_json_check (text, length, G_MAXSIZE,
          GST_SESSION_PLATFORM_MAX_DEPTH, &err)) {
    *why = g_strdup_printf ("it is %s", err->message);
    g_clear_error (&err);
    return NULL;
  }
  parser = json_parser_new_immutable ();
  if (json_parser_load_from_data (parser, text, length, &err)) {
    root = json_parser_steal_root (parser);
  } else {
    /* json-glib quotes the offending token, which can be huge */
    gchar *quote = g_utf8_make_valid (err->message,
        MIN (strlen (err->message), ERROR_TEXT_MAX));

    *why = g_strdup_printf ("it is not JSON: %s%s", quote,
        strlen (err->message) > ERROR_TEXT_MAX ? "..." : "");
    g_free (quote);
    g_clear_error (&err);
  }
  g_object_unref (parser);
  if (root == NULL && *why == NULL)
    *why = g_strdup ("it is not JSON");
  return root;
}

/* An id or a path segment a caller gave: non-empty UTF-8 without control
 * characters, not "." or "..". */
static gboolean
segment_ok (const gchar * s, gsize length)
{
  const gchar *p;

  if (length == 0 || length > MAX_ID_LENGTH ||
      !g_utf8_validate_len (s, length, NULL))
    return FALSE;
  if ((length == 1 && s[0] == '.') || (length == 2 && strncmp (s, "..",
              2) == 0))
    return FALSE;
  for (p = s; p < s + length; p++) {
    if ((guchar) * p < 0x20 || *p == 0x7f)
      return FALSE;
  }
  return TRUE;
}

/* Appends @s (one path segment) percent-encoded: '/' included. */
static void
append_segment (GString * url, const gchar * s, gsize length)
{
  gchar *copy = g_strndup (s, length);
  gchar *escaped = g_uri_escape_string (copy, "!$&'()*+,;=:@", FALSE);

  g_string_append_c (url, '/');
  g_string_append (url, escaped);
  g_free (escaped);
  g_free (copy);
}

/* Checks a base URL: http or https with a host, no user info, no query or
 * fragment. Returns the text without a trailing '/'. */
static gchar *
base_url (const gchar * url, const gchar * what, GError ** error)
{
  GUri *uri;
  const gchar *scheme;
  gchar *base = NULL;

  if (url == NULL || *url == '\0') {
    g_set_error (error, GST_SESSION_ERROR,
        GST_SESSION_PLATFORM_ERROR_INVALID_INPUT, "No %s is set", what);
    return NULL;
  }
  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  scheme = uri ? g_uri_get_scheme (uri) : NULL;
  if (uri == NULL || (g_strcmp0 (scheme, "http") != 0 &&
          g_strcmp0 (scheme, "https") != 0) || g_uri_get_host (uri) == NULL
      || *g_uri_get_host (uri) == '\0' || g_uri_get_userinfo (uri) != NULL
      || g_uri_get_query (uri) != NULL || g_uri_get_fragment (uri) != NULL) {
    g_set_error (error, GST_SESSION_ERROR,
        GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        "The %s is not an http or https URL without user info, query or "
        "fragment", what);
  } else {
    gsize len = strlen (url);

    while (len > 0 && url[len - 1] == '/')
      len--;
    base = g_strndup (url, len);
  }
  g_clear_pointer (&uri, g_uri_unref);
  return base;
}

/* ---------------------------------------------------------------------- */
/* one call                                                               */
/* ---------------------------------------------------------------------- */

typedef enum
{
  CALL_SUBMIT,
  CALL_MANAGE,
} CallKind;

typedef struct
{
  gchar *request_id;
  gchar *gateway_request_id;
} Submission;

/* One submit or manage call: the task data of its GTask. Lives on the
 * context of the task (the caller's thread-default context); its requests
 * go through gst_session_http_fetch_async() with the caller's
 * cancellable. No lock: nothing here is shared. */
typedef struct
{
  GstSessionPlatform *self;
  CallKind kind;
  GstSessionManagementOp op;
  gchar *api_key;               /* never logged */
  guint timeout;
  gboolean tls_validation;
  GstSessionRateLimiter *limiter;

  /* the client's session; the whole call ends by @deadline (monotonic
   * time) when @timeout is set */
  SoupSession *session;
  gint64 deadline;
  SoupMessage *msg;
  GByteArray *body;

  /* the request under way: method, URL, path relative to the base (for
   * the limits it counts toward) and a name for people */
  const gchar *method;
  gchar *url;
  gchar *path;
  gchar *what;
  GBytes *request_body;

  /* runners logs: the second URL and the first result */
  gchar *logs_url;
  gchar *logs_path;
  JsonNode *runner;

  /* handed out by finish() with an error */
  guint retry_after;
  GstSessionHttpError *http_error;
} Call;

static void
call_free (gpointer data)
{
  Call *call = data;

  g_clear_object (&call->msg);
  g_clear_object (&call->session);
  g_clear_pointer (&call->body, g_byte_array_unref);
  g_clear_pointer (&call->request_body, g_bytes_unref);
  g_clear_pointer (&call->limiter, gst_session_rate_limiter_unref);
  g_clear_pointer (&call->runner, json_node_unref);
  g_clear_pointer (&call->http_error, gst_session_http_error_free);
  if (call->api_key)
    memset (call->api_key, 0, strlen (call->api_key));
  g_free (call->api_key);
  g_free (call->url);
  g_free (call->path);
  g_free (call->what);
  g_free (call->logs_url);
  g_free (call->logs_path);
  gst_object_unref (call->self);
  g_free (call);
}

static void
submission_free (gpointer data)
{
  Submission *submission = data;

  g_free (submission->request_id);
  g_free (submission->gateway_request_id);
  g_free (submission);
}

/* Ends the call with an error of our domain; takes @message. */
static void
call_fail (GTask * task, gint code, gchar * message)
{
  Call *call = g_task_get_task_data (task);

  gst_session_http_scrub (&message, call->api_key);
  GST_INFO_OBJECT (call->self, "%s", message);
  g_task_return_new_error (task, GST_SESSION_ERROR, code, "%s", message);
  g_free (message);
}

static gboolean
is_stop_or_kill (GstSessionManagementOp op)
{
  return op == GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP ||
      op == GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL;
}

/* The rate-limit refusal, local or 429 (rule 3 for stop and kill). */
static void
call_fail_rate_limited (GTask * task, const gchar * why)
{
  Call *call = g_task_get_task_data (task);
  const gchar *name = call->kind == CALL_SUBMIT ? "The submission" :
      gst_session_management_op_name (call->op);

  call_fail (task, GST_SESSION_PLATFORM_ERROR_RATE_LIMITED,
      g_strdup_printf ("%s was rejected: %s; %sretry after %u s", name, why,
          call->kind == CALL_MANAGE && is_stop_or_kill (call->op) ?
          "the runner is still running; " : "", call->retry_after));
}

/* A failed fetch: cancelled by the caller, timed out, too large, or the
 * network. Takes @error. */
static void
call_fail_io (GTask * task, GError * error)
{
  Call *call = g_task_get_task_data (task);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
        "%s was cancelled", call->what);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
    call_fail (task, GST_SESSION_PLATFORM_ERROR_TRANSIENT,
        g_strdup_printf ("%s: no answer within %u ms", call->what,
            call->timeout));
  else if (g_error_matches (error, GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP))
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
        g_strdup_printf ("%s: %s", call->what, error->message));
  else
    call_fail (task, GST_SESSION_PLATFORM_ERROR_TRANSIENT,
        g_strdup_printf ("%s: %s failed: %s", call->what,
            soup_message_get_status (call->msg) == SOUP_STATUS_NONE ?
            "sending" : "reading the answer", error->message));
  g_clear_error (&error);
}

static void on_fetched (GObject * source, GAsyncResult * res, gpointer data);

/* Sends call->method to call->url with call->request_body. */
static void
call_send (GTask * task)
{
  Call *call = g_task_get_task_data (task);
  gint64 left = 0;

  g_clear_object (&call->msg);
  g_clear_pointer (&call->body, g_byte_array_unref);

  call->msg = gst_session_http_request_new (call->method, call->url,
      "application/json", call->api_key, call->request_body,
      call->tls_validation, NULL);
  if (call->msg == NULL) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%s: the request URL is not valid", call->what));
    return;
  }
  if (call->timeout > 0) {
    /* what is left of the call's time (runners logs sends twice) */
    left = (call->deadline - g_get_monotonic_time () + 999) / 1000;
    if (left <= 0) {
      call_fail_io (task, g_error_new_literal (G_IO_ERROR,
              G_IO_ERROR_TIMED_OUT, "timed out"));
      return;
    }
  }

  GST_INFO_OBJECT (call->self, "%s: %s %s", call->what, call->method,
      call->path);
  gst_session_http_fetch_async (call->session, call->msg, (guint) left,
      GST_SESSION_PLATFORM_MAX_BODY, GST_SESSION_PLATFORM_MAX_ERROR_BODY,
      g_task_get_cancellable (task), on_fetched, g_object_ref (task));
}

static void call_answered (GTask * task);

static void
on_fetched (GObject * source, GAsyncResult * res, gpointer data)
{
  GTask *task = data;
  Call *call = g_task_get_task_data (task);
  GError *error = NULL;
  GBytes *body;

  body = gst_session_http_fetch_finish (SOUP_SESSION (source), res, NULL,
      NULL, &error);
  if (body == NULL) {
    call_fail_io (task, error);
  } else {
    GST_DEBUG_OBJECT (call->self, "%s: HTTP %u", call->what,
        soup_message_get_status (call->msg));
    call->body = g_bytes_unref_to_array (body);
    call_answered (task);
  }
  g_object_unref (task);
}

/* 2xx of a submission. */
static void
call_submitted (GTask * task, JsonNode * root)
{
  Call *call = g_task_get_task_data (task);
  JsonObject *object;
  const gchar *ids[2] = { NULL, NULL };
  const gchar *names[2] = { "request_id", "gateway_request_id" };
  Submission *submission;
  guint i;

  if (!JSON_NODE_HOLDS_OBJECT (root)) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
        g_strdup_printf ("%s: the answer is not a JSON object", call->what));
    return;
  }
  object = json_node_get_object (root);
  for (i = 0; i < 2; i++) {
    JsonNode *node = json_object_get_member (object, names[i]);

    if (node && JSON_NODE_HOLDS_VALUE (node) &&
        json_node_get_value_type (node) == G_TYPE_STRING)
      ids[i] = json_node_get_string (node);
    if (ids[i] == NULL || *ids[i] == '\0') {
      call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
          g_strdup_printf ("%s: the answer has no \"%s\" string", call->what,
              names[i]));
      return;
    }
  }
  submission = g_new0 (Submission, 1);
  submission->request_id = g_strdup (ids[0]);
  submission->gateway_request_id = g_strdup (ids[1]);
  GST_INFO_OBJECT (call->self, "%s: queued as %s", call->what, ids[0]);
  g_task_return_pointer (task, submission, submission_free);
}

/* 2xx of a management request. Takes @root. */
static void
call_managed (GTask * task, JsonNode * root)
{
  Call *call = g_task_get_task_data (task);
  JsonObject *object;
  JsonNode *result;

  if (call->op != GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS) {
    g_task_return_pointer (task, root, (GDestroyNotify) json_node_unref);
    return;
  }
  if (call->runner == NULL) {
    /* rule 2: the runner's details first, then its logs */
    call->runner = root;
    g_free (call->url);
    g_free (call->path);
    call->url = g_steal_pointer (&call->logs_url);
    call->path = g_steal_pointer (&call->logs_path);
    call_send (task);
    return;
  }
  object = json_object_new ();
  json_object_set_member (object, "runner", g_steal_pointer (&call->runner));
  json_object_set_member (object, "logs", root);
  result = json_node_init_object (json_node_alloc (), object);
  json_object_unref (object);
  g_task_return_pointer (task, result, (GDestroyNotify) json_node_unref);
}

/* A non-2xx answer. */
static void
call_refused (GTask * task, guint status)
{
  Call *call = g_task_get_task_data (task);
  const gchar *text = call->body->len ? (const gchar *) call->body->data : "";
  GstSessionHttpError *http_error;
  GstSessionRetryPolicy policy;
  GstSessionRetryDecision decision;
  gchar *why;

  /* a service may echo the key: out of the body before the parser (which
   * logs) sees it, and out of what was parsed. (A NUL ends the text: an
   * error body holding one is not JSON anyway.) */
  if (call->api_key && *call->api_key && call->body->len > 0) {
    gchar *copy = g_strndup (text, call->body->len);

    if (strstr (copy, call->api_key)) {
      gsize len;

      gst_session_http_scrub (&copy, call->api_key);
      len = strlen (copy);
      g_byte_array_set_size (call->body, 0);
      g_byte_array_append (call->body, (const guint8 *) copy, len);
      text = len ? (const gchar *) call->body->data : "";
    }
    g_free (copy);
  }
  http_error = gst_session_http_error_parse (status,
      soup_message_get_response_headers (call->msg), text, call->body->len);
  gst_session_http_scrub_error (http_error, call->api_key);
  call->http_error = http_error;
  why = gst_session_http_error_to_string (http_error);

  if (status == 429) {
    const GstSessionRateCost *costs = NULL;
    guint i, n_costs = 0;
    gint64 now = gst_session_rate_limiter_get_time (call->limiter);
    gchar *rejected;

    /* the window of the limits this request counts toward is full */
    call->retry_after = 0;
    if (call->kind == CALL_MANAGE)
      gst_session_management_request_costs (call->method, call->path, &costs,
          &n_costs);
    for (i = 0; i < n_costs; i++)
      call->retry_after = MAX (call->retry_after,
          gst_session_rate_limiter_note_reset (call->limiter, NULL,
              costs[i].limit, now, http_error->ratelimit_reset));
    if (n_costs == 0)
      call->retry_after = http_error->ratelimit_reset >= 0 ?
          (guint) MIN (http_error->ratelimit_reset + 0.999, 86400) : 60;
    call->retry_after = MAX (call->retry_after, 1);
    rejected = g_strdup_printf ("the service rate-limited it (%s on %s %s)",
        why, call->method, call->path);
    call_fail_rate_limited (task, rejected);
    g_free (rejected);
  } else if (SOUP_STATUS_IS_REDIRECTION (status) || status < 200) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
        g_strdup_printf ("%s: the service answered HTTP %u, which is not "
            "followed", call->what, status));
  } else {
    /* one attempt: the decision only says whether a retry could help */
    gst_session_retry_policy_init (&policy);
    policy.max_attempts = 0;
    decision = gst_session_http_error_retry_decision (http_error, &policy, 1);
    call_fail (task, decision.retry ? GST_SESSION_PLATFORM_ERROR_TRANSIENT :
        GST_SESSION_PLATFORM_ERROR_REFUSED,
        g_strdup_printf ("%s %s: %s", call->what, decision.retry ?
            "failed (a later retry may succeed)" : "was refused", why));
  }
  g_free (why);
}

static void
call_answered (GTask * task)
{
  Call *call = g_task_get_task_data (task);
  guint status = soup_message_get_status (call->msg);
  const gchar *text = call->body->len ? (const gchar *) call->body->data : "";
  JsonNode *root;
  gchar *why = NULL;

  if (!SOUP_STATUS_IS_SUCCESSFUL (status)) {
    call_refused (task, status);
    return;
  }
  root = parse_json (text, call->body->len, call->kind == CALL_MANAGE, &why);
  if (root == NULL) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
        g_strdup_printf ("%s: the answer (HTTP %u) is not usable: %s",
            call->what, status, why));
    g_free (why);
    return;
  }
  if (call->kind == CALL_SUBMIT) {
    call_submitted (task, root);
    json_node_unref (root);
  } else {
    call_managed (task, root);
  }
}

/* ---------------------------------------------------------------------- */
/* GstSessionPlatform                                                     */
/* ---------------------------------------------------------------------- */

/**
 * GstSessionPlatform:
 *
 * The queue and management client. Properties are read when a call starts.
 */
struct _GstSessionPlatform
{
  GstObject parent;

  /* protected by the object lock; calls copy what they use at their start */
  gchar *queue_url;
  gchar *api_url;
  gchar *api_key;
  guint timeout;
  gboolean tls_validation;
  GstSessionRateLimiter *limiter;
  /* made at the first call, kept for all (its connections are reused) */
  SoupSession *session;
};

#define DEFAULT_TIMEOUT 30000
#define DEFAULT_TLS_VALIDATION TRUE

enum
{
  PROP_0,
  PROP_QUEUE_URL,
  PROP_API_URL,
  PROP_API_KEY,
  PROP_TIMEOUT,
  PROP_TLS_VALIDATION,
  PROP_RATE_LIMITER,
};

G_DEFINE_TYPE (GstSessionPlatform, gst_session_platform, GST_TYPE_OBJECT);

/* A call with the settings of now; @base_url of the queue or the API. */
static GTask *
call_new (GstSessionPlatform * self, CallKind kind, gboolean queue,
    gchar ** base, GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data)
{
  Call *call = g_new0 (Call, 1);
  GTask *task;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_task_data (task, call, call_free);

  call->self = gst_object_ref (self);
  call->kind = kind;
  GST_OBJECT_LOCK (self);
  *base = g_strdup (queue ? self->queue_url : self->api_url);
  call->api_key = g_strdup (self->api_key);
  call->timeout = self->timeout;
  call->tls_validation = self->tls_validation;
  call->limiter = gst_session_rate_limiter_ref (self->limiter);
  if (self->session == NULL)
    self->session = gst_session_http_session_new ();
  call->session = g_object_ref (self->session);
  GST_OBJECT_UNLOCK (self);
  return task;
}

/* Replaces *@base with its checked form; fails the call when it is not
 * usable. */
static gboolean
call_base_url (GTask * task, gchar ** base, const gchar * what)
{
  gchar *raw = *base;
  GError *err = NULL;

  *base = base_url (raw, what, &err);
  g_free (raw);
  if (*base == NULL) {
    call_fail (task, err->code, g_strdup (err->message));
    g_clear_error (&err);
    return FALSE;
  }
  return TRUE;
}

/* Starts the first request of a call whose URL and body are set. */
static void
call_start (GTask * task)
{
  Call *call = g_task_get_task_data (task);

  if (call->timeout > 0)
    call->deadline = g_get_monotonic_time () +
        (gint64) call->timeout * G_TIME_SPAN_MILLISECOND;
  call_send (task);
}

/**
 * gst_session_platform_submit_async:
 * @platform: a client.
 * @app_path: the app, as `owner/app` or a longer path (unencoded; each
 *   segment is percent-encoded).
 * @webhook_url: the http or https URL that receives the result
 *   (`svc_webhook`).
 * @body: the app's input: the text of one JSON object.
 * @cancellable: (nullable): cancels the call.
 * @callback: called on the thread-default context of this call.
 * @user_data: data for @callback.
 *
 * Queues a request (spec 001, "Submit with webhook"). Sent once, never
 * resent.
 */
void
gst_session_platform_submit_async (GstSessionPlatform * platform,
    const gchar * app_path, const gchar * webhook_url, const gchar * body,
    GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data)
{
  GTask *task;
  Call *call;
  gchar *base, *escaped, *why = NULL, **segments = NULL;
  GString *path;
  JsonNode *root = NULL;
  GUri *hook = NULL;
  guint i;

  g_return_if_fail (GST_SESSION_IS_PLATFORM (platform));

  task = call_new (platform, CALL_SUBMIT, TRUE, &base, cancellable, callback,
      user_data);
  g_task_set_source_tag (task, gst_session_platform_submit_async);
  call = g_task_get_task_data (task);
  call->what = g_strdup ("The submission");
  call->method = SOUP_METHOD_POST;
  path = g_string_new (NULL);

  if (!call_base_url (task, &base, "queue URL"))
    goto out;

  if (app_path)
    segments = g_strsplit (app_path[0] == '/' ? app_path + 1 : app_path, "/",
        -1);
  for (i = 0; segments && segments[i]; i++) {
    if (!segment_ok (segments[i], strlen (segments[i])))
      break;
    append_segment (path, segments[i], strlen (segments[i]));
  }
  if (segments == NULL || segments[0] == NULL || segments[i] != NULL) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup ("The app path is empty or has an empty, \".\", \"..\" or "
            "invalid segment"));
    goto out;
  }

  if (webhook_url)
    hook = g_uri_parse (webhook_url, G_URI_FLAGS_NONE, NULL);
  if (hook == NULL || (g_strcmp0 (g_uri_get_scheme (hook), "http") != 0 &&
          g_strcmp0 (g_uri_get_scheme (hook), "https") != 0) ||
      g_uri_get_host (hook) == NULL || *g_uri_get_host (hook) == '\0') {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup ("The webhook URL is not an absolute http or https URL"));
    goto out;
  }

  if (body == NULL || strlen (body) > GST_SESSION_PLATFORM_MAX_BODY)
    why = g_strdup_printf ("it is missing or larger than %d bytes",
        GST_SESSION_PLATFORM_MAX_BODY);
  else if ((root = parse_json (body, strlen (body), FALSE, &why)) &&
      !JSON_NODE_HOLDS_OBJECT (root))
    why = g_strdup ("it is not a JSON object");
  if (why) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("The request body is not usable: %s", why));
    goto out;
  }
  call->request_body = g_bytes_new (body, strlen (body));

  escaped = g_uri_escape_string (webhook_url, NULL, FALSE);
  call->path = g_strdup (path->str);
  call->url = g_strconcat (base, path->str, "?svc_webhook=", escaped, NULL);
  g_free (escaped);
  call_start (task);

out:
  g_clear_pointer (&root, json_node_unref);
  g_clear_pointer (&hook, g_uri_unref);
  g_strfreev (segments);
  g_string_free (path, TRUE);
  g_free (why);
  g_free (base);
  g_object_unref (task);
}

/* Which operations name a target, and its kind. */
static const gchar *
op_target (GstSessionManagementOp op)
{
  switch (op) {
    case GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS:
      return "app";
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS:
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL:
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP:
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL:
    case GST_SESSION_MANAGEMENT_OP_GET_RUNNER:
      return "runner id";
    default:
      return NULL;
  }
}

static GBytes *
build_command (const gchar * const *command)
{
  JsonBuilder *builder = json_builder_new_immutable ();
  JsonNode *root;
  gchar *text;
  gsize length;
  guint i;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "command");
  json_builder_begin_array (builder);
  for (i = 0; command[i]; i++)
    json_builder_add_string_value (builder, command[i]);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  text = gst_session_json_write (root, FALSE);
  length = strlen (text);
  json_node_unref (root);
  g_object_unref (builder);
  return g_bytes_new_take (text, length);
}

/* The path of @op (and of the second request of runners logs). */
static gchar *
op_path (GstSessionManagementOp op, const gchar * target, gchar ** logs_path)
{
  GString *path = g_string_new (NULL);
  const gchar *tail = NULL;

  switch (op) {
    case GST_SESSION_MANAGEMENT_OP_APPS_LIST:
      g_string_append (path, "/apps");
      break;
    case GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS:
      g_string_append (path, "/apps");
      tail = "/runners";
      break;
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST:
    case GST_SESSION_MANAGEMENT_OP_GET_RUNNERS:
      g_string_append (path, "/runners");
      break;
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL:
      tail = "/exec";
      /* fall through */
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP:
      tail = tail ? tail : "/stop";
      /* fall through */
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL:
      tail = tail ? tail : "/kill";
      /* fall through */
    case GST_SESSION_MANAGEMENT_OP_GET_RUNNER:
    case GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS:
      g_string_append (path, "/runners");
      break;
  }
  if (target)
    append_segment (path, target, strlen (target));
  if (op == GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS)
    *logs_path = g_strconcat (path->str, "/logs", NULL);
  if (tail)
    g_string_append (path, tail);
  return g_string_free (path, FALSE);
}

/**
 * gst_session_platform_manage_async:
 * @platform: a client.
 * @op: the operation.
 * @target: (nullable): the app (apps runners) or the runner id (runner
 *   operations); %NULL for the lists.
 * @command: (nullable) (array zero-terminated=1): for runners shell/exec,
 *   the command and its arguments; %NULL otherwise.
 * @cancellable: (nullable): cancels the call.
 * @callback: called on the thread-default context of this call.
 * @user_data: data for @callback.
 *
 * Calls a management operation (see the table above). The client's rate
 * limiter is asked first; refused, nothing is sent.
 */
void
gst_session_platform_manage_async (GstSessionPlatform * platform,
    GstSessionManagementOp op, const gchar * target,
    const gchar * const *command, GCancellable * cancellable,
    GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *task;
  Call *call;
  const gchar *kind;
  gchar *base;
  guint i;

  g_return_if_fail (GST_SESSION_IS_PLATFORM (platform));

  task = call_new (platform, CALL_MANAGE, FALSE, &base, cancellable,
      callback, user_data);
  g_task_set_source_tag (task, gst_session_platform_manage_async);
  call = g_task_get_task_data (task);
  call->op = op;

  if ((guint) op >= GST_SESSION_MANAGEMENT_N_OPS) {
    call->what = g_strdup ("The management call");
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%d is not a management operation", op));
    goto out;
  }
  call->what = g_strdup (gst_session_management_op_name (op));
  kind = op_target (op);
  if (kind && (target == NULL || !segment_ok (target, strlen (target)))) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%s needs a %s: non-empty text of at most %d "
            "bytes without control characters", call->what, kind,
            MAX_ID_LENGTH));
    goto out;
  }
  if (!kind && target) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%s takes no app or runner id", call->what));
    goto out;
  }
  if (op == GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL) {
    for (i = 0; command && command[i]; i++) {
      if (!g_utf8_validate (command[i], -1, NULL))
        break;
    }
    if (command == NULL || command[0] == NULL || command[i] != NULL) {
      call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
          g_strdup_printf ("%s needs a command of UTF-8 words", call->what));
      goto out;
    }
    call->request_body = build_command (command);
  } else if (command) {
    call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%s takes no command", call->what));
    goto out;
  }
  if (!call_base_url (task, &base, "API URL"))
    goto out;

  call->method = op == GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL ||
      is_stop_or_kill (op) ? SOUP_METHOD_POST : SOUP_METHOD_GET;
  call->path = op_path (op, target, &call->logs_path);
  call->url = g_strconcat (base, call->path, NULL);
  if (call->logs_path)
    call->logs_url = g_strconcat (base, call->logs_path, NULL);

  /* the limit is checked, and the call counted, before anything is sent */
  if (!gst_session_rate_limiter_try (call->limiter, op,
          gst_session_rate_limiter_get_time (call->limiter),
          &call->retry_after)) {
    call_fail_rate_limited (task, "its per-minute limit is used up, so "
        "nothing was sent");
    goto out;
  }
  call_start (task);

out:
  g_free (base);
  g_object_unref (task);
}

/* The details of a failure, for finish(). */
static void
call_details (GTask * task, guint * retry_after,
    GstSessionHttpError ** http_error)
{
  Call *call = g_task_get_task_data (task);

  if (retry_after)
    *retry_after = call->retry_after;
  if (http_error)
    *http_error = call->http_error ?
        gst_session_http_error_copy (call->http_error) : NULL;
}

/**
 * gst_session_platform_submit_finish:
 * @platform: the client.
 * @result: the result given to the callback.
 * @request_id: (out) (optional) (transfer full): the id of the queued
 *   request.
 * @gateway_request_id: (out) (optional) (transfer full): the gateway's id.
 * @retry_after: (out) (optional): with
 *   %GST_SESSION_PLATFORM_ERROR_RATE_LIMITED, the seconds until the window
 *   resets; else 0.
 * @http_error: (out) (optional) (transfer full) (nullable): the parsed
 *   answer when the service answered with an error status; else %NULL.
 * @error: return location for a #GError, or %NULL.
 *
 * Returns: %TRUE when the request was queued.
 */
gboolean
gst_session_platform_submit_finish (GstSessionPlatform * platform,
    GAsyncResult * result, gchar ** request_id, gchar ** gateway_request_id,
    guint * retry_after, GstSessionHttpError ** http_error, GError ** error)
{
  Submission *submission;

  g_return_val_if_fail (g_task_is_valid (result, platform), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
      gst_session_platform_submit_async, FALSE);

  call_details (G_TASK (result), retry_after, http_error);
  submission = g_task_propagate_pointer (G_TASK (result), error);
  if (submission == NULL)
    return FALSE;
  if (request_id)
    *request_id = g_steal_pointer (&submission->request_id);
  if (gateway_request_id)
    *gateway_request_id = g_steal_pointer (&submission->gateway_request_id);
  submission_free (submission);
  return TRUE;
}

/**
 * gst_session_platform_manage_finish:
 * @platform: the client.
 * @result: the result given to the callback.
 * @retry_after: (out) (optional): with
 *   %GST_SESSION_PLATFORM_ERROR_RATE_LIMITED, the seconds until the window
 *   resets; else 0.
 * @http_error: (out) (optional) (transfer full) (nullable): the parsed
 *   answer when the service answered with an error status; else %NULL.
 * @error: return location for a #GError, or %NULL.
 *
 * Returns: (transfer full) (nullable): the JSON the service answered (null
 *   for an empty body; `{"runner": ..., "logs": ...}` for runners logs), or
 *   %NULL with @error set.
 */
JsonNode *
gst_session_platform_manage_finish (GstSessionPlatform * platform,
    GAsyncResult * result, guint * retry_after,
    GstSessionHttpError ** http_error, GError ** error)
{
  g_return_val_if_fail (g_task_is_valid (result, platform), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) ==
      gst_session_platform_manage_async, NULL);

  call_details (G_TASK (result), retry_after, http_error);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* sync wrappers: the async call on a private context */

static void
on_sync_done (GObject * source, GAsyncResult * res, gpointer user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (res);
}

static GMainContext *
sync_begin (void)
{
  GMainContext *context = g_main_context_new ();

  g_main_context_push_thread_default (context);
  return context;
}

static void
sync_wait (GMainContext * context, GAsyncResult ** result)
{
  /* bounded by the call's timeout */
  while (*result == NULL)
    g_main_context_iteration (context, TRUE);
}

static void
sync_end (GMainContext * context, GAsyncResult * result)
{
  g_object_unref (result);
  /* let the finished call release its connection on its context */
  while (g_main_context_iteration (context, FALSE));
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
}

/**
 * gst_session_platform_submit:
 * @platform: a client.
 * @app_path: the app path.
 * @webhook_url: the webhook URL.
 * @body: the JSON object text.
 * @cancellable: (nullable): cancels the call.
 * @request_id: (out) (optional) (transfer full): the request id.
 * @gateway_request_id: (out) (optional) (transfer full): the gateway id.
 * @retry_after: (out) (optional): seconds, when rate limited.
 * @http_error: (out) (optional) (transfer full) (nullable): the parsed
 *   error answer.
 * @error: return location for a #GError, or %NULL.
 *
 * gst_session_platform_submit_async(), waited for on a private context
 * (at most the #GstSessionPlatform:timeout).
 *
 * Returns: %TRUE when the request was queued.
 */
gboolean
gst_session_platform_submit (GstSessionPlatform * platform,
    const gchar * app_path, const gchar * webhook_url, const gchar * body,
    GCancellable * cancellable, gchar ** request_id,
    gchar ** gateway_request_id, guint * retry_after,
    GstSessionHttpError ** http_error, GError ** error)
{
  GMainContext *context;
  GAsyncResult *result = NULL;
  gboolean ret;

  g_return_val_if_fail (GST_SESSION_IS_PLATFORM (platform), FALSE);

  context = sync_begin ();
  gst_session_platform_submit_async (platform, app_path, webhook_url, body,
      cancellable, on_sync_done, &result);
  sync_wait (context, &result);
  ret = gst_session_platform_submit_finish (platform, result, request_id,
      gateway_request_id, retry_after, http_error, error);
  sync_end (context, result);
  return ret;
}

/**
 * gst_session_platform_manage:
 * @platform: a client.
 * @op: the operation.
 * @target: (nullable): the app or runner id.
 * @command: (nullable) (array zero-terminated=1): the command of runners
 *   shell/exec.
 * @cancellable: (nullable): cancels the call.
 * @retry_after: (out) (optional): seconds, when rate limited.
 * @http_error: (out) (optional) (transfer full) (nullable): the parsed
 *   error answer.
 * @error: return location for a #GError, or %NULL.
 *
 * gst_session_platform_manage_async(), waited for on a private context
 * (at most the #GstSessionPlatform:timeout).
 *
 * Returns: (transfer full) (nullable): the JSON answer, or %NULL.
 */
JsonNode *
gst_session_platform_manage (GstSessionPlatform * platform,
    GstSessionManagementOp op, const gchar * target,
    const gchar * const *command, GCancellable * cancellable,
    guint * retry_after, GstSessionHttpError ** http_error, GError ** error)
{
  GMainContext *context;
  GAsyncResult *result = NULL;
  JsonNode *ret;

  g_return_val_if_fail (GST_SESSION_IS_PLATFORM (platform), NULL);

  context = sync_begin ();
  gst_session_platform_manage_async (platform, op, target, command,
      cancellable, on_sync_done, &result);
  sync_wait (context, &result);
  ret = gst_session_platform_manage_finish (platform, result, retry_after,
      http_error, error);
  sync_end (context, result);
  return ret;
}

static void
gst_session_platform_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSessionPlatform *self = GST_SESSION_PLATFORM (object);
  GstSessionRateLimiter *old = NULL;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_QUEUE_URL:
      g_free (self->queue_url);
      self->queue_url = g_value_dup_string (value);
      break;
    case PROP_API_URL:
      g_free (self->api_url);
      self->api_url = g_value_dup_string (value);
      break;
    case PROP_API_KEY:
      if (self->api_key)
        memset (self->api_key, 0, strlen (self->api_key));
      g_free (self->api_key);
      self->api_key = g_value_dup_string (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_TLS_VALIDATION:
      self->tls_validation = g_value_get_boolean (value);
      break;
    case PROP_RATE_LIMITER:
      old = self->limiter;
      self->limiter = g_value_dup_boxed (value);
      if (self->limiter == NULL)
        self->limiter = gst_session_rate_limiter_new ();
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);

  if (old)
    gst_session_rate_limiter_unref (old);
}

static void
gst_session_platform_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSessionPlatform *self = GST_SESSION_PLATFORM (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_QUEUE_URL:
      g_value_set_string (value, self->queue_url);
      break;
    case PROP_API_URL:
      g_value_set_string (value, self->api_url);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_TLS_VALIDATION:
      g_value_set_boolean (value, self->tls_validation);
      break;
    case PROP_RATE_LIMITER:
      g_value_set_boxed (value, self->limiter);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_platform_finalize (GObject * object)
{
  GstSessionPlatform *self = GST_SESSION_PLATFORM (object);

  g_free (self->queue_url);
  g_free (self->api_url);
  if (self->api_key)
    memset (self->api_key, 0, strlen (self->api_key));
  g_free (self->api_key);
  gst_session_rate_limiter_unref (self->limiter);
  g_clear_object (&self->session);

  G_OBJECT_CLASS (gst_session_platform_parent_class)->finalize (object);
}

static void
gst_session_platform_class_init (GstSessionPlatformClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gst_session_init ();

  gobject_class->set_property = gst_session_platform_set_property;
  gobject_class->get_property = gst_session_platform_get_property;
  gobject_class->finalize = gst_session_platform_finalize;

  /**
   * GstSessionPlatform:queue-url:
   *
   * `{queue_url}`: the base of queue submissions (http or https).
   */
  g_object_class_install_property (gobject_class, PROP_QUEUE_URL,
      g_param_spec_string ("queue-url", "Queue URL",
          "The base URL of queue submissions", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionPlatform:api-url:
   *
   * `{api_url}`: the base of the management paths (http or https).
   */
  g_object_class_install_property (gobject_class, PROP_API_URL,
      g_param_spec_string ("api-url", "API URL",
          "The base URL of the management operations", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionPlatform:api-key:
   *
   * The key sent as `Authorization: Key <api-key>` with every request;
   * none is sent when unset or empty. Write-only, never logged.
   */
  g_object_class_install_property (gobject_class, PROP_API_KEY,
      g_param_spec_string ("api-key", "API key",
          "The key of the Authorization header (write-only)", NULL,
          G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionPlatform:timeout:
   *
   * The longest a call may take, connecting and both requests of runners
   * logs included, in milliseconds; 0 waits forever.
   */
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Longest call, in milliseconds (0 = forever)", 0, G_MAXUINT,
          DEFAULT_TIMEOUT, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionPlatform:tls-validation:
   *
   * Whether the certificate of an https service is verified.
   */
  g_object_class_install_property (gobject_class, PROP_TLS_VALIDATION,
      g_param_spec_boolean ("tls-validation", "TLS validation",
          "Verify the certificate of an https service",
          DEFAULT_TLS_VALIDATION, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionPlatform:rate-limiter:
   *
   * The client-side limiter every management call goes through (a new one
   * with spec 001's limits by default; setting %NULL makes a new one).
   * Share one between clients that share the service's count.
   */
  g_object_class_install_property (gobject_class, PROP_RATE_LIMITER,
      g_param_spec_boxed ("rate-limiter", "Rate limiter",
          "The limiter of the management calls",
          GST_SESSION_TYPE_RATE_LIMITER,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
gst_session_platform_init (GstSessionPlatform * self)
{
  self->timeout = DEFAULT_TIMEOUT;
  self->tls_validation = DEFAULT_TLS_VALIDATION;
  self->limiter = gst_session_rate_limiter_new ();
}

/**
 * gst_session_platform_new:
 * @queue_url: (nullable): `{queue_url}`.
 * @api_url: (nullable): `{api_url}`.
 * @api_key: (nullable): the API key.
 *
 * Returns: (transfer full): a new client.
 */
GstSessionPlatform *
gst_session_platform_new (const gchar * queue_url, const gchar * api_url,
    const gchar * api_key)
{
  return g_object_new (GST_SESSION_TYPE_PLATFORM, "queue-url", queue_url,
      "api-url", api_url, "api-key", api_key, NULL);
}

/**
 * gst_session_platform_get_rate_limiter:
 * @platform: a client.
 *
 * Returns: (transfer full): the limiter of the management calls.
 */
GstSessionRateLimiter *
gst_session_platform_get_rate_limiter (GstSessionPlatform * platform)
{
  GstSessionRateLimiter *limiter;

  g_return_val_if_fail (GST_SESSION_IS_PLATFORM (platform), NULL);

  GST_OBJECT_LOCK (platform);
  limiter = gst_session_rate_limiter_ref (platform->limiter);
  GST_OBJECT_UNLOCK (platform);
  return limiter;
}
