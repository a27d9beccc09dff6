/* gst-session-service: the platform side of spec 001
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The base URL of the service is {api_url}; {queue_url} is {api_url}/queue.
 *
 *   POST /queue/<app_path>?svc_webhook=<url>        queue.c
 *   GET  /.well-known/jwks.json ({jwks_url}), GET /v1/meta
 *   GET  /apps, /apps/{app}/runners, /runners, /runners/{id},
 *        /runners/{id}/logs; POST /runners/{id}/exec|stop|kill
 *                                                   management.c
 *   admin (loopback peers): POST /admin/rotate-key, POST /admin/redeliver,
 *        GET /admin/deliveries, POST /admin/runners/reset,
 *        POST /admin/rate-limits/reset
 */

#include <string.h>

#include "routes.h"
#include "respond.h"
#include "queue.h"
#include "management.h"
#include "webhook-sender.h"

struct _SvcPlatform
{
  const SvcContext *ctx;
  SvcWebhooks *hooks;
  SvcManagement *management;
  SvcQueue *queue;
};

/* ---------------------------------------------------------------- *
 * routes
 * ---------------------------------------------------------------- */

static gboolean
is_get (SoupServerMessage * msg)
{
  return g_str_equal (soup_server_message_get_method (msg), "GET");
}

static void
respond_text (SoupServerMessage * msg, gchar * body)
{
  svc_respond_json (msg, 200, body);
}

gboolean
svc_platform_handle (SvcPlatform * platform, SoupServerMessage * msg,
    const gchar * path, GHashTable * query)
{
  gchar **segments;
  gboolean handled = TRUE;

  if (g_str_equal (path, "/.well-known/jwks.json")) {
    if (is_get (msg))
      respond_text (msg, svc_webhooks_jwks (platform->hooks));
    else
      svc_respond_request_error (msg, 405, "bad_request",
          "the key set takes GET");
    return TRUE;
  }
  if (g_str_equal (path, "/v1/meta")) {
    if (is_get (msg))
      respond_text (msg, svc_webhooks_meta (platform->hooks));
    else
      svc_respond_request_error (msg, 405, "bad_request",
          "the metadata takes GET");
    return TRUE;
  }

  segments = svc_path_segments (path);
  if (!segments || !segments[0]) {
    handled = FALSE;
  } else if (g_str_equal (segments[0], "queue")) {
    svc_queue_submit (platform->queue, msg, segments + 1, query);
  } else {
    handled = svc_management_handle (platform->management, msg, path, segments);
  }
  g_strfreev (segments);
  return handled;
}

static void
admin_rotate (SvcPlatform * platform, SoupServerMessage * msg)
{
  JsonBuilder *b = json_builder_new ();
  gchar *old_kid = NULL, *new_kid = NULL;

  svc_webhooks_rotate (platform->hooks, &old_kid, &new_kid);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "retired");
  json_builder_add_string_value (b, old_kid);
  json_builder_set_member_name (b, "kid");
  json_builder_add_string_value (b, new_kid);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
  g_free (old_kid);
  g_free (new_kid);
}

static void
admin_redeliver (SvcPlatform * platform, SoupServerMessage * msg)
{
  gchar *why = NULL;
  JsonNode *root = svc_read_json_body (msg, 64 * 1024, &why);
  const gchar *id = NULL;
  JsonNode *node;

  if (root && JSON_NODE_HOLDS_OBJECT (root) &&
      (node = json_object_get_member (json_node_get_object (root),
              "request_id")) && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    id = json_node_get_string (node);
  if (!id) {
    svc_respond_request_error (msg, 400, "bad_request", why ? why :
        "the body must be {\"request_id\": \"...\"}");
  } else if (!svc_webhooks_redeliver (platform->hooks, id)) {
    svc_respond_request_error (msg, 404, "bad_request",
        "no delivery of this request_id is known");
  } else {
    JsonBuilder *b = json_builder_new ();

    json_builder_begin_object (b);
    json_builder_set_member_name (b, "request_id");
    json_builder_add_string_value (b, id);
    json_builder_set_member_name (b, "redelivered");
    json_builder_add_boolean_value (b, TRUE);
    json_builder_end_object (b);
    svc_respond_json (msg, 200, svc_json_builder_finish (b));
  }
  g_free (why);
  if (root)
    json_node_unref (root);
}

static void
admin_deliveries (SvcPlatform * platform, SoupServerMessage * msg)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "deliveries");
  svc_webhooks_describe (platform->hooks, b);
  json_builder_end_object (b);
  svc_respond_json (msg, 200, svc_json_builder_finish (b));
}

static void
respond_done (SoupServerMessage * msg)
{
  svc_respond_json (msg, 200, g_strdup ("{\"done\":true}"));
}

gboolean
svc_platform_handle_admin (SvcPlatform * platform, SoupServerMessage * msg,
    const gchar * path)
{
  const gchar *method = soup_server_message_get_method (msg);
  gboolean post = g_str_equal (method, "POST");
  static const gchar *const posts[] = {
    "/admin/rotate-key", "/admin/redeliver", "/admin/runners/reset",
    "/admin/rate-limits/reset", NULL
  };

  if (g_str_equal (path, "/admin/deliveries")) {
    if (is_get (msg))
      admin_deliveries (platform, msg);
    else
      svc_respond_request_error (msg, 405, "bad_request",
          "/admin/deliveries takes GET");
    return TRUE;
  }
  if (!g_strv_contains (posts, path))
    return FALSE;
  if (!post)
    svc_respond_request_error (msg, 405, "bad_request",
        "this admin endpoint takes POST");
  else if (g_str_equal (path, "/admin/rotate-key"))
    admin_rotate (platform, msg);
  else if (g_str_equal (path, "/admin/redeliver"))
    admin_redeliver (platform, msg);
  else if (g_str_equal (path, "/admin/runners/reset")) {
    svc_management_reset_runners (platform->management);
    respond_done (msg);
  } else {
    svc_management_reset_limits (platform->management);
    respond_done (msg);
  }
  return TRUE;
}

/* ---------------------------------------------------------------- *
 * life
 * ---------------------------------------------------------------- */

SvcPlatform *
svc_platform_new (const SvcContext * ctx, GError ** error)
{
  SvcPlatform *platform = g_new0 (SvcPlatform, 1);

  platform->ctx = ctx;
  platform->hooks = svc_webhooks_new (ctx->config, error);
  if (!platform->hooks) {
    g_free (platform);
    return NULL;
  }
  platform->management = svc_management_new (ctx);
  platform->queue = svc_queue_new (ctx, platform->hooks, platform->management);
  return platform;
}

void
svc_platform_free (SvcPlatform * platform)
{
  svc_queue_free (platform->queue);
  svc_management_free (platform->management);
  svc_webhooks_free (platform->hooks);
  g_free (platform);
}
