/* gst-session-service: answers and checks every endpoint module shares
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "respond.h"

gchar *
svc_json_builder_finish (JsonBuilder * b)
{
  JsonNode *root = json_builder_get_root (b);
  gchar *text = gst_session_json_write (root, FALSE);

  json_node_unref (root);
  g_object_unref (b);
  return text;
}

void
svc_respond_json (SoupServerMessage * msg, guint status, gchar * body)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "application/json",
      SOUP_MEMORY_TAKE, body, strlen (body));
}

void
svc_respond_request_error (SoupServerMessage * msg, guint status,
    const gchar * type, const gchar * detail)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "detail");
  json_builder_add_string_value (b, detail);
  json_builder_set_member_name (b, "error_type");
  json_builder_add_string_value (b, type);
  json_builder_end_object (b);
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "X-Svc-Error-Type", type);
  svc_respond_json (msg, status, svc_json_builder_finish (b));
}

static gboolean
secure_equal (const gchar * a, const gchar * b)
{
  gsize la = strlen (a), lb = strlen (b), i;
  guint diff = la ^ lb;

  for (i = 0; i < la; i++)
    diff |= (guchar) a[i] ^ (guchar) b[i % MAX (lb, 1)];
  return diff == 0;
}

/* `Authorization: Key <key>` when the service has a key. The key is
 * never logged. */
gboolean
svc_check_auth (const SvcConfig * config, SoupServerMessage * msg)
{
  const gchar *header;
  gchar **k;

  if (!config->api_keys)
    return TRUE;
  header = soup_message_headers_get_one (soup_server_message_get_request_headers
      (msg), "Authorization");
  for (k = config->api_keys; header && *k; k++)
    if (g_str_has_prefix (header, "Key ") && secure_equal (header + 4, *k))
      return TRUE;
  GST_INFO ("refusing a request without the right key");
  svc_respond_request_error (msg, 401, "bad_request",
      header ? "the API key is not valid" :
      "an API key is required: send the header Authorization: Key <key>");
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "WWW-Authenticate", "Key");
  return FALSE;
}

gboolean
svc_is_loopback_peer (SoupServerMessage * msg)
{
  GSocketAddress *addr = soup_server_message_get_remote_address (msg);

  return addr && G_IS_INET_SOCKET_ADDRESS (addr) &&
      g_inet_address_get_is_loopback (g_inet_socket_address_get_address
      (G_INET_SOCKET_ADDRESS (addr)));
}

gchar **
svc_path_segments (const gchar * path)
{
  gchar **segments;
  gsize len;
  guint i;

  if (path[0] != '/')
    return NULL;
  len = strlen (path);
  /* one trailing slash is allowed */
  segments = g_strsplit (path + 1, "/", -1);
  if (len > 1 && path[len - 1] == '/') {
    guint n = g_strv_length (segments);

    g_free (segments[n - 1]);
    segments[n - 1] = NULL;
  }
  for (i = 0; segments[i]; i++) {
    gchar *decoded = g_uri_unescape_string (segments[i], NULL);

    if (!decoded || !decoded[0] || !g_utf8_validate (decoded, -1, NULL)) {
      g_free (decoded);
      g_strfreev (segments);
      return NULL;
    }
    g_free (segments[i]);
    segments[i] = decoded;
  }
  return segments;
}

/* the deepest nesting a request body may have */
#define MAX_DEPTH 64

JsonNode *
svc_read_json_body (SoupServerMessage * msg, gsize max, gchar ** why)
{
  SoupMessageBody *body = soup_server_message_get_request_body (msg);
  GBytes *bytes = soup_message_body_flatten (body);
  GError *error = NULL;
  gsize size;
  const gchar *data = g_bytes_get_data (bytes, &size);
  JsonNode *root = NULL;

  /* the library's one JSON gate: strict JSON, size and depth, before
   * json-glib (which recurses) sees it */
  if (size == 0)
    *why = g_strdup ("the body is empty");
  else if ((root = gst_session_json_parse (data, size, max, MAX_DEPTH,
              &error)) == NULL)
    *why = g_strdup_printf ("the body is %s", error->message);
  g_clear_error (&error);
  g_bytes_unref (bytes);
  return root;
}

JsonNode *
svc_json_object_int (const gchar * member, gint64 value)
{
  JsonBuilder *b = json_builder_new ();
  JsonNode *node;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, member);
  json_builder_add_int_value (b, value);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  g_object_unref (b);
  return node;
}

void
svc_add_model_error_item (JsonBuilder * b, const SvcContext * ctx,
    const gchar * type, const gchar * const *loc, const gchar * text,
    JsonNode * ctx_node, JsonNode * input)
{
  gchar *url = g_strdup_printf ("%s/docs/errors/#%s", ctx->base_url, type);
  guint i;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "loc");
  json_builder_begin_array (b);
  for (i = 0; loc && loc[i]; i++)
    json_builder_add_string_value (b, loc[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "msg");
  json_builder_add_string_value (b, text);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, type);
  json_builder_set_member_name (b, "url");
  json_builder_add_string_value (b, url);
  if (ctx_node) {
    json_builder_set_member_name (b, "ctx");
    json_builder_add_value (b, json_node_copy (ctx_node));
  }
  if (input) {
    json_builder_set_member_name (b, "input");
    json_builder_add_value (b, json_node_copy (input));
  }
  json_builder_end_object (b);
  g_free (url);
}

void
svc_respond_model_error (SoupServerMessage * msg, const SvcContext * ctx,
    guint status, gboolean retryable, const gchar * type,
    const gchar * const *loc, const gchar * text, JsonNode * ctx_node,
    JsonNode * input)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "detail");
  json_builder_begin_array (b);
  svc_add_model_error_item (b, ctx, type, loc, text, ctx_node, input);
  json_builder_end_array (b);
  json_builder_end_object (b);
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "X-Svc-Retryable", retryable ? "true" : "false");
  svc_respond_json (msg, status, svc_json_builder_finish (b));
}
