/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstSessionPlatform's calls: checking ids and URLs, reading JSON
 * answers, and one submit or manage call from its first request to its
 * result (client.c starts them).
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
/* helpers: JSON, URLs                                                    */
/* ---------------------------------------------------------------------- */


/* Parses @text as one JSON value; an empty text is null when @empty_ok.
 * On failure, says why in @why (static text or a short quote). */
JsonNode *
platform_parse_json (const gchar * text, gsize length, gboolean empty_ok,
    gchar ** why)
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
gboolean
platform_segment_ok (const gchar * s, gsize length)
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
void
platform_append_segment (GString * url, const gchar * s, gsize length)
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
gchar *
platform_base_url (const gchar * url, const gchar * what, GError ** error)
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

void
platform_call_free (gpointer data)
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

void
platform_submission_free (gpointer data)
{
  Submission *submission = data;

  g_free (submission->request_id);
  g_free (submission->gateway_request_id);
  g_free (submission);
}

/* Ends the call with an error of our domain; takes @message. */
void
platform_call_fail (GTask * task, gint code, gchar * message)
{
  Call *call = g_task_get_task_data (task);

  gst_session_http_scrub (&message, call->api_key);
  GST_INFO_OBJECT (call->self, "%s", message);
  g_task_return_new_error (task, GST_SESSION_ERROR, code, "%s", message);
  g_free (message);
}

gboolean
platform_is_stop_or_kill (GstSessionManagementOp op)
{
  return op == GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP ||
      op == GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL;
}

/* The rate-limit refusal, local or 429 (rule 3 for stop and kill). */
void
platform_call_fail_rate_limited (GTask * task, const gchar * why)
{
  Call *call = g_task_get_task_data (task);
  const gchar *name = call->kind == CALL_SUBMIT ? "The submission" :
      gst_session_management_op_name (call->op);

  platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_RATE_LIMITED,
      g_strdup_printf ("%s was rejected: %s; %sretry after %u s", name, why,
          call->kind == CALL_MANAGE && platform_is_stop_or_kill (call->op) ?
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
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_TRANSIENT,
        g_strdup_printf ("%s: no answer within %u ms", call->what,
            call->timeout));
  else if (g_error_matches (error, GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP))
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
        g_strdup_printf ("%s: %s", call->what, error->message));
  else
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_TRANSIENT,
        g_strdup_printf ("%s: %s failed: %s", call->what,
            soup_message_get_status (call->msg) == SOUP_STATUS_NONE ?
            "sending" : "reading the answer", error->message));
  g_clear_error (&error);
}

static void on_fetched (GObject * source, GAsyncResult * res, gpointer data);

/* Sends call->method to call->url with call->request_body. */
void
platform_call_send (GTask * task)
{
  Call *call = g_task_get_task_data (task);
  gint64 left = 0;

  g_clear_object (&call->msg);
  g_clear_pointer (&call->body, g_byte_array_unref);

  call->msg = gst_session_http_request_new (call->method, call->url,
      "application/json", call->api_key, call->request_body,
      call->tls_validation, NULL);
  if (call->msg == NULL) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_INPUT,
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
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
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
      platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
          g_strdup_printf ("%s: the answer has no \"%s\" string", call->what,
              names[i]));
      return;
    }
  }
  submission = g_new0 (Submission, 1);
  submission->request_id = g_strdup (ids[0]);
  submission->gateway_request_id = g_strdup (ids[1]);
  GST_INFO_OBJECT (call->self, "%s: queued as %s", call->what, ids[0]);
  g_task_return_pointer (task, submission, platform_submission_free);
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
    platform_call_send (task);
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
    platform_call_fail_rate_limited (task, rejected);
    g_free (rejected);
  } else if (SOUP_STATUS_IS_REDIRECTION (status) || status < 200) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
        g_strdup_printf ("%s: the service answered HTTP %u, which is not "
            "followed", call->what, status));
  } else {
    /* one attempt: the decision only says whether a retry could help */
    gst_session_retry_policy_init (&policy);
    policy.max_attempts = 0;
    decision = gst_session_http_error_retry_decision (http_error, &policy, 1);
    platform_call_fail (task,
        decision.retry ? GST_SESSION_PLATFORM_ERROR_TRANSIENT :
        GST_SESSION_PLATFORM_ERROR_REFUSED, g_strdup_printf ("%s %s: %s",
            call->what,
            decision.retry ? "failed (a later retry may succeed)" :
            "was refused", why));
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
  root =
      platform_parse_json (text, call->body->len, call->kind == CALL_MANAGE,
      &why);
  if (root == NULL) {
    platform_call_fail (task, GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
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
