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

#include <gst/session/sessioninit.h>
#include <gst/session/jsongate.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"
#include "client-private.h"

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

/* A call with the settings of now; @platform_base_url of the queue or the API. */
static GTask *
call_new (GstSessionPlatform * self, CallKind kind, gboolean queue,
    gchar ** base, GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data)
{
  Call *call = g_new0 (Call, 1);
  GTask *task;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_task_data (task, call, platform_call_free);

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

  *base = platform_base_url (raw, what, &err);
  g_free (raw);
  if (*base == NULL) {
    platform_call_fail (task, err->code, g_strdup (err->message));
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
  platform_call_send (task);
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
    if (!platform_segment_ok (segments[i], strlen (segments[i])))
      break;
    platform_append_segment (path, segments[i], strlen (segments[i]));
  }
  if (segments == NULL || segments[0] == NULL || segments[i] != NULL) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup ("The app path is empty or has an empty, \".\", \"..\" or "
            "invalid segment"));
    goto out;
  }

  if (webhook_url)
    hook = g_uri_parse (webhook_url, G_URI_FLAGS_NONE, NULL);
  if (hook == NULL || (g_strcmp0 (g_uri_get_scheme (hook), "http") != 0 &&
          g_strcmp0 (g_uri_get_scheme (hook), "https") != 0) ||
      g_uri_get_host (hook) == NULL || *g_uri_get_host (hook) == '\0') {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup ("The webhook URL is not an absolute http or https URL"));
    goto out;
  }

  if (body == NULL || strlen (body) > GST_SESSION_PLATFORM_MAX_BODY)
    why = g_strdup_printf ("it is missing or larger than %d bytes",
        GST_SESSION_PLATFORM_MAX_BODY);
  else if ((root = platform_parse_json (body, strlen (body), FALSE, &why)) &&
      !JSON_NODE_HOLDS_OBJECT (root))
    why = g_strdup ("it is not a JSON object");
  if (why) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
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
    platform_append_segment (path, target, strlen (target));
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
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%d is not a management operation", op));
    goto out;
  }
  call->what = g_strdup (gst_session_management_op_name (op));
  kind = op_target (op);
  if (kind && (target == NULL
          || !platform_segment_ok (target, strlen (target)))) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%s needs a %s: non-empty text of at most %d "
            "bytes without control characters", call->what, kind,
            MAX_ID_LENGTH));
    goto out;
  }
  if (!kind && target) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%s takes no app or runner id", call->what));
    goto out;
  }
  if (op == GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL) {
    for (i = 0; command && command[i]; i++) {
      if (!g_utf8_validate (command[i], -1, NULL))
        break;
    }
    if (command == NULL || command[0] == NULL || command[i] != NULL) {
      platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
          g_strdup_printf ("%s needs a command of UTF-8 words", call->what));
      goto out;
    }
    call->request_body = build_command (command);
  } else if (command) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
        g_strdup_printf ("%s takes no command", call->what));
    goto out;
  }
  if (!call_base_url (task, &base, "API URL"))
    goto out;

  call->method = op == GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL ||
      platform_is_stop_or_kill (op) ? SOUP_METHOD_POST : SOUP_METHOD_GET;
  call->path = op_path (op, target, &call->logs_path);
  call->url = g_strconcat (base, call->path, NULL);
  if (call->logs_path)
    call->logs_url = g_strconcat (base, call->logs_path, NULL);

  /* the limit is checked, and the call counted, before anything is sent */
  if (!gst_session_rate_limiter_try (call->limiter, op,
          gst_session_rate_limiter_get_time (call->limiter),
          &call->retry_after)) {
    platform_call_fail_rate_limited (task,
        "its per-minute limit is used up, so " "nothing was sent");
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
  platform_submission_free (submission);
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
