/* gst-session-service: the queue host and its apps (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * POST {queue_url}/<app_path>?svc_webhook=<url>, {queue_url} being the
 * service's base URL + "/queue". The input is checked at once (400 for a
 * malformed request, 422 model-level errors for values out of range),
 * then the request is answered 202 {"request_id", "gateway_request_id"}
 * and processed on a runner of the app after a short time; its outcome
 * is delivered to the webhook URL (webhook-sender.c). Everything runs on
 * the main thread.
 */

#include <string.h>
#include <json-glib/json-glib.h>

#include "queue.h"
#include "apps.h"
#include "faults.h"

#define MAX_INPUT_SIZE (1024 * 1024)
#define MAX_WEBHOOK_URL 2048
/* seconds (times --time-scale) from submission to the result */
#define PROCESSING_TIME 0.1
#define UPPER_MAX_LENGTH 10000
#define SLOW_MAX_SECONDS 60.0

struct _SvcQueue
{
  const SvcContext *ctx;
  const SvcConfig *config;
  SvcWebhooks *hooks;
  SvcManagement *management;
  GList *requests;              /* Request, being processed */
};

typedef struct
{
  SvcQueue *queue;
  gchar *request_id;
  gchar *gateway_request_id;
  const SvcQueueApp *app;
  gchar *app_id;
  gchar *runner_id;
  gchar *webhook_url;
  JsonNode *input;
  gdouble seconds;              /* processing time, before the scale */
  guint timer;
} Request;

static void
request_free (Request * r)
{
  if (r->timer)
    g_source_remove (r->timer);
  g_free (r->request_id);
  g_free (r->gateway_request_id);
  g_free (r->app_id);
  g_free (r->runner_id);
  g_free (r->webhook_url);
  json_node_unref (r->input);
  g_free (r);
}

/* ---------------------------------------------------------------- *
 * the outcome of a request: the delivery body
 * ---------------------------------------------------------------- */

static void
begin_body (JsonBuilder * b, Request * r, const gchar * status)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "request_id");
  json_builder_add_string_value (b, r->request_id);
  json_builder_set_member_name (b, "gateway_request_id");
  json_builder_add_string_value (b, r->gateway_request_id);
  json_builder_set_member_name (b, "status");
  json_builder_add_string_value (b, status);
}

static const gchar *
member_string (JsonNode * input, const gchar * name)
{
  JsonNode *node = json_object_get_member (json_node_get_object (input),
      name);

  if (!node || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* the app's result: *@status_text "OK" or "ERROR" */
static gchar *
outcome (Request * r, const gchar ** status_text)
{
  JsonBuilder *b = json_builder_new ();
  const gchar *name = r->app->name;

  *status_text = "OK";
  if (g_str_equal (name, "fail")) {
    const gchar *type = member_string (r->input, "type");
    const gchar *text = member_string (r->input, "message");
    const gchar *field = member_string (r->input, "field");
    const gchar *loc[3] = { "body", field, NULL };
    const gchar *ctx = NULL;
    JsonNode *input = NULL, *ctx_node;
    guint status = 500;
    gchar *error;

    if (!type)
      type = "internal_server_error";
    svc_model_error_type (type, &status, NULL, &ctx);
    if (field)
      input = json_object_get_member (json_node_get_object (r->input), field);
    error = g_strdup_printf ("Invalid status code: %u", status);
    *status_text = "ERROR";
    begin_body (b, r, "ERROR");
    json_builder_set_member_name (b, "error");
    json_builder_add_string_value (b, error);
    json_builder_set_member_name (b, "payload");
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "detail");
    json_builder_begin_array (b);
    ctx_node = ctx ? json_from_string (ctx, NULL) : NULL;
    svc_add_model_error_item (b, r->queue->ctx, type, loc, text ? text :
        "the app failed (reference app \"fail\")", ctx_node, input);
    if (ctx_node)
      json_node_unref (ctx_node);
    json_builder_end_array (b);
    json_builder_end_object (b);
    g_free (error);
  } else if (g_str_equal (name, "not-json")) {
    begin_body (b, r, "OK");
    json_builder_set_member_name (b, "payload");
    json_builder_add_null_value (b);
    json_builder_set_member_name (b, "payload_error");
    json_builder_add_string_value (b, "the result is not JSON serializable: "
        "Out of range float values are not JSON compliant: nan");
  } else {
    JsonNode *payload;
    JsonObject *object;

    if (g_str_equal (name, "upper")) {
      /* the input is sealed: a new object with every member, text upper */
      JsonObject *in = json_node_get_object (r->input);
      GList *members = json_object_get_members (in), *l;
      gchar *up = g_utf8_strup (member_string (r->input, "text"), -1);

      object = json_object_new ();
      for (l = members; l; l = l->next)
        json_object_set_member (object, l->data,
            json_node_copy (json_object_get_member (in, l->data)));
      json_object_set_string_member (object, "text", up);
      g_list_free (members);
      g_free (up);
      payload = json_node_init_object (json_node_alloc (), object);
      json_object_unref (object);
    } else if (g_str_equal (name, "slow")) {
      object = json_object_new ();
      json_object_set_double_member (object, "slept_seconds", r->seconds);
      payload = json_node_init_object (json_node_alloc (), object);
      json_object_unref (object);
    } else {
      payload = json_node_copy (r->input);
    }
    begin_body (b, r, "OK");
    json_builder_set_member_name (b, "payload");
    json_builder_add_value (b, payload);
  }
  json_builder_end_object (b);
  return svc_json_builder_finish (b);
}

static gboolean
on_processed (gpointer data)
{
  Request *r = data;
  SvcQueue *queue = r->queue;
  const gchar *status;
  gchar *body, *line;
  GBytes *bytes;

  r->timer = 0;
  if (g_str_equal (r->app->name, "flaky")) {
    /* the first try failed inside the service; the retry has its own id */
    line = g_strdup_printf ("request %s: runner_disconnected on try %s, "
        "retried", r->request_id, r->gateway_request_id);
    svc_management_runner_log (queue->management, r->runner_id, FALSE, line);
    g_free (line);
    g_free (r->gateway_request_id);
    r->gateway_request_id = g_uuid_string_random ();
  }
  body = outcome (r, &status);
  line = g_strdup_printf ("request %s (gateway %s): %s", r->request_id,
      r->gateway_request_id, status);
  svc_management_runner_log (queue->management, r->runner_id, TRUE, line);
  g_free (line);
  GST_INFO ("queue: request %s done (%s)", r->request_id, status);

  bytes = g_bytes_new_take (body, strlen (body));
  svc_webhooks_send (queue->hooks, r->webhook_url, r->request_id, bytes);
  g_bytes_unref (bytes);
  queue->requests = g_list_remove (queue->requests, r);
  request_free (r);
  return G_SOURCE_REMOVE;
}

/* ---------------------------------------------------------------- *
 * the input of each app
 * ---------------------------------------------------------------- */

static void
refuse_field (SoupServerMessage * msg, const SvcContext * ctx,
    const gchar * type, const gchar * field, const gchar * text,
    JsonNode * ctx_node, JsonNode * input)
{
  const gchar *loc[] = { "body", field, NULL };

  svc_respond_model_error (msg, ctx, 422, FALSE, type, loc, text, ctx_node,
      input);
}

static gboolean
contains_blocked (const SvcConfig * config, const gchar * text)
{
  gchar *lower = g_utf8_strdown (text, -1);
  gboolean found = FALSE;
  guint i;

  for (i = 0; config->blocked_words && config->blocked_words[i] && !found; i++) {
    gchar *word = g_utf8_strdown (config->blocked_words[i], -1);

    found = word[0] && strstr (lower, word) != NULL;
    g_free (word);
  }
  g_free (lower);
  return found;
}

/* TRUE when @r->input suits its app; else the answer is set */
static gboolean
check_input (SvcQueue * queue, SoupServerMessage * msg, Request * r)
{
  JsonObject *object = json_node_get_object (r->input);
  const gchar *name = r->app->name;
  JsonNode *node;

  if (g_str_equal (name, "upper")) {
    const gchar *text = member_string (r->input, "text");

    node = json_object_get_member (object, "text");
    if (!text) {
      svc_respond_request_error (msg, 400, "bad_request",
          "upper needs a string member \"text\"");
      return FALSE;
    }
    if (!text[0]) {
      JsonNode *ctx = svc_json_object_int ("min_length", 1);

      refuse_field (msg, queue->ctx, "sequence_too_short", "text",
          "text must not be empty", ctx, node);
      json_node_unref (ctx);
      return FALSE;
    }
    if (g_utf8_strlen (text, -1) > UPPER_MAX_LENGTH) {
      JsonNode *ctx = svc_json_object_int ("max_length", UPPER_MAX_LENGTH);

      refuse_field (msg, queue->ctx, "sequence_too_long", "text",
          "text is too long", ctx, NULL);
      json_node_unref (ctx);
      return FALSE;
    }
    if (contains_blocked (queue->config, text)) {
      refuse_field (msg, queue->ctx, "content_policy_violation", "text",
          "the text was flagged by the content checker", NULL, node);
      return FALSE;
    }
  } else if (g_str_equal (name, "slow")) {
    node = json_object_get_member (object, "seconds");
    r->seconds = 1.0;
    if (node) {
      if (!JSON_NODE_HOLDS_VALUE (node) ||
          (json_node_get_value_type (node) != G_TYPE_INT64 &&
              json_node_get_value_type (node) != G_TYPE_DOUBLE)) {
        svc_respond_request_error (msg, 400, "bad_request",
            "\"seconds\" must be a number");
        return FALSE;
      }
      r->seconds = json_node_get_double (node);
      if (r->seconds < 0) {
        JsonNode *ctx = svc_json_object_int ("ge", 0);

        refuse_field (msg, queue->ctx, "greater_than_equal", "seconds",
            "seconds must be at least 0", ctx, node);
        json_node_unref (ctx);
        return FALSE;
      }
      if (r->seconds > SLOW_MAX_SECONDS) {
        JsonNode *ctx = svc_json_object_int ("le", SLOW_MAX_SECONDS);

        refuse_field (msg, queue->ctx, "less_than_equal", "seconds",
            "seconds must be at most 60", ctx, node);
        json_node_unref (ctx);
        return FALSE;
      }
    }
  } else if (g_str_equal (name, "fail")) {
    static const gchar *const names[] = { "type", "message", "field" };
    const gchar *type;
    guint i;

    for (i = 0; i < G_N_ELEMENTS (names); i++) {
      node = json_object_get_member (object, names[i]);
      if (node && !member_string (r->input, names[i])) {
        gchar *detail = g_strdup_printf ("\"%s\" must be a string",
            names[i]);

        svc_respond_request_error (msg, 400, "bad_request", detail);
        g_free (detail);
        return FALSE;
      }
    }
    type = member_string (r->input, "type");
    if (type && !svc_model_error_type (type, NULL, NULL, NULL)) {
      JsonBuilder *b = json_builder_new ();
      const gchar *t;
      JsonNode *ctx;

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "expected");
      json_builder_begin_array (b);
      for (i = 0; (t = svc_model_error_type_nth (i)); i++)
        json_builder_add_string_value (b, t);
      json_builder_end_array (b);
      json_builder_end_object (b);
      ctx = json_builder_get_root (b);
      g_object_unref (b);
      refuse_field (msg, queue->ctx, "one_of", "type",
          "type must be a model-level error type of spec 001", ctx,
          json_object_get_member (object, "type"));
      json_node_unref (ctx);
      return FALSE;
    }
  }
  return TRUE;
}

/* ---------------------------------------------------------------- *
 * submission
 * ---------------------------------------------------------------- */

static gboolean
webhook_url_ok (const gchar * url)
{
  GUri *uri;
  gboolean ok;

  if (!url || strlen (url) > MAX_WEBHOOK_URL)
    return FALSE;
  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  if (!uri)
    return FALSE;
  ok = (g_str_equal (g_uri_get_scheme (uri), "http") ||
      g_str_equal (g_uri_get_scheme (uri), "https")) &&
      g_uri_get_host (uri) && g_uri_get_host (uri)[0];
  g_uri_unref (uri);
  return ok;
}

void
svc_queue_submit (SvcQueue * queue, SoupServerMessage * msg,
    gchar ** segments, GHashTable * query)
{
  const gchar *webhook = query ? g_hash_table_lookup (query, "svc_webhook") :
      NULL;
  const SvcQueueApp *app;
  const gchar *runner;
  gchar *why = NULL;
  JsonNode *input;
  JsonBuilder *b;
  Request *r;

  if (!g_str_equal (soup_server_message_get_method (msg), "POST")) {
    svc_respond_request_error (msg, 405, "bad_request", "the queue takes POST");
    return;
  }
  if (!svc_check_auth (queue->config, msg))
    return;
  app = svc_queue_find_app (segments);
  if (!app) {
    svc_respond_request_error (msg, 404, "bad_request", "no such app");
    return;
  }
  if (!webhook_url_ok (webhook)) {
    svc_respond_request_error (msg, 400, "bad_request", webhook ?
        "svc_webhook must be an http or https URL" :
        "the reference queue delivers results by webhook only: "
        "svc_webhook is required");
    return;
  }
  input = svc_read_json_body (msg, MAX_INPUT_SIZE, &why);
  if (!input || !JSON_NODE_HOLDS_OBJECT (input)) {
    svc_respond_request_error (msg, 400, "bad_request", why ? why :
        "the body must be a JSON object");
    g_free (why);
    if (input)
      json_node_unref (input);
    return;
  }

  r = g_new0 (Request, 1);
  r->queue = queue;
  r->app = app;
  r->app_id = g_strconcat (SVC_APP_OWNER "/", app->name, NULL);
  r->input = input;
  r->seconds = PROCESSING_TIME;
  if (!check_input (queue, msg, r)) {
    request_free (r);
    return;
  }
  runner = svc_management_pick_runner (queue->management, r->app_id);
  if (!runner) {
    svc_respond_request_error (msg, 503, "runner_scheduling_failure",
        "no runner of this app is running");
    request_free (r);
    return;
  }

  r->runner_id = g_strdup (runner);
  r->request_id = g_uuid_string_random ();
  r->gateway_request_id = g_strdup (r->request_id);
  r->webhook_url = g_strdup (webhook);
  r->timer = g_timeout_add ((guint) (r->seconds * queue->config->time_scale *
          1000.0 + 0.5), on_processed, r);
  queue->requests = g_list_prepend (queue->requests, r);
  GST_INFO ("queue: request %s for %s on %s", r->request_id, r->app_id,
      r->runner_id);

  b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "request_id");
  json_builder_add_string_value (b, r->request_id);
  json_builder_set_member_name (b, "gateway_request_id");
  json_builder_add_string_value (b, r->gateway_request_id);
  json_builder_end_object (b);
  svc_respond_json (msg, 202, svc_json_builder_finish (b));
}

/* ---------------------------------------------------------------- *
 * life
 * ---------------------------------------------------------------- */

SvcQueue *
svc_queue_new (const SvcContext * ctx, SvcWebhooks * hooks,
    SvcManagement * management)
{
  SvcQueue *queue = g_new0 (SvcQueue, 1);

  queue->ctx = ctx;
  queue->config = ctx->config;
  queue->hooks = hooks;
  queue->management = management;
  return queue;
}

void
svc_queue_free (SvcQueue * queue)
{
  g_list_free_full (queue->requests, (GDestroyNotify) request_free);
  g_free (queue);
}
