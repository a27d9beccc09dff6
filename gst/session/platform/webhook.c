/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionwebhook
 * @title: Webhooks
 * @short_description: verifying and reading the webhook deliveries of
 *   spec 001
 *
 * The service calls a client's webhook URL back when a queued request is
 * done (spec 001). This module is the receiving side, without an HTTP
 * server of its own:
 *
 * - #GstSessionWebhookKeySet: the Ed25519 keys of a JWKS document
 *   (`{"keys": [{"x": "<base64url>"}, ...]}`), each `x` exactly 32 bytes,
 *   with or without base64 padding; unusable entries are skipped with a
 *   reason.
 * - gst_session_webhook_verify(): one delivery checked as the
 *   Authentication section says, with no network access: the four
 *   `X-Svc-Webhook-*` headers, the timestamp within 300 s of now (either
 *   direction; exactly 300 passes), and an Ed25519 signature over
 *   `request_id LF user_id LF timestamp LF hex(sha256(raw body))` that
 *   any key verifies. The verdict is a #GstSessionWebhookResult and a
 *   sentence; neither ever holds a key, the signature or a header value.
 * - #GstSessionWebhookVerifier: what a receiver keeps: the key set fetched
 *   from `{jwks_url}` with libsoup and cached for at most 24 hours; one more
 *   fetch when no cached key verifies a delivery (key rotation), at most
 *   once per cooldown (60 s) so bad signatures cannot hammer the key host;
 *   %GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE when no key set can be had, so
 *   the receiver answers 503 and the service delivers again; optionally,
 *   the source address checked against the `webhook_ip_ranges` of
 *   `{api_url}/v1/meta` (#GstSessionWebhookIpRanges), refreshed
 *   periodically.
 * - gst_session_webhook_delivery_parse(): the delivery body of a verified
 *   delivery (`request_id` equal to the signed one, `status` `OK` or
 *   `ERROR`, `payload`, `error`, `payload_error`, and the `detail` items of
 *   an error payload).
 *
 * A receiver, in short:
 * |[<!-- language="C" -->
 * verifier = gst_session_webhook_verifier_new (jwks_url);
 * ...
 * // for each POST: headers, raw body (at most max-body-size), peer address
 * gst_session_webhook_verifier_verify_async (verifier, headers, body, len,
 *     peer, NULL, on_verified, msg);
 * ...
 * v = gst_session_webhook_verifier_verify_finish (verifier, res, NULL);
 * status = gst_session_webhook_result_to_http_status (v->result);
 * if (v->result == GST_SESSION_WEBHOOK_RESULT_VALID)
 *   delivery = gst_session_webhook_delivery_parse (body, len, 0,
 *       v->request_id, &error);
 * ]|
 *
 * The same `request_id` can be delivered more than once: a receiver must
 * be idempotent.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <nettle/eddsa.h>

#include <gst/session/sessioninit.h>
#include <gst/session/jsongate.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"
#include "webhook.h"
#include "webhook-private.h"

/* ---------------------------------------------------------------------- */
/* JSON documents: bounded before json-glib (recursive) sees them          */
/* ---------------------------------------------------------------------- */

/* The root object of a JSON document named @what ("The key set"), or NULL
 * with @error set. */
JsonNode *
webhook_parse_object (const gchar * what, const gchar * data, gsize length,
    gsize max_length, GError ** error)
{
  JsonParser *parser;
  JsonNode *root;
  GError *err = NULL;

  if (data == NULL || length == 0) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%s is empty", what);
    return NULL;
  }
  if (length > max_length) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%s is larger than %" G_GSIZE_FORMAT " bytes", what, max_length);
    return NULL;
  }
  /* also refuses NUL bytes */
  if (!g_utf8_validate_len (data, length, NULL)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%s is not UTF-8 text", what);
    return NULL;
  }
  if (!gst_session_json_check (data, length, max_length,
          GST_SESSION_WEBHOOK_MAX_DEPTH, &err)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%s is %s", what, err->message);
    g_clear_error (&err);
    return NULL;
  }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, data, (gssize) length, &err)) {
    /* json-glib quotes the offending token: not repeated here */
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%s is not JSON", what);
    GST_DEBUG ("%s: %s", what, err->message);
    g_clear_error (&err);
    g_object_unref (parser);
    return NULL;
  }
  root = json_parser_steal_root (parser);
  g_object_unref (parser);

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%s is not a JSON object", what);
    g_clear_pointer (&root, json_node_unref);
  }
  return root;
}

/* The member @name of @object when it is a JSON string, else NULL. */
const gchar *
webhook_member_string (JsonObject * object, const gchar * name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/**
 * gst_session_webhook_result_to_http_status:
 * @result: a result.
 *
 * The status a receiver answers the delivery with. Spec 001 does not say;
 * this library's choice: 200 for a valid delivery, 503 when nothing could
 * be decided (%GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE,
 * %GST_SESSION_WEBHOOK_RESULT_NO_KEYS: the service delivers again later),
 * 413 for a body over the limit, 403 for a source outside the IP ranges
 * and 401 for every other failed verification.
 *
 * Returns: the HTTP status code.
 */
guint
gst_session_webhook_result_to_http_status (GstSessionWebhookResult result)
{
  switch (result) {
    case GST_SESSION_WEBHOOK_RESULT_VALID:
      return SOUP_STATUS_OK;
    case GST_SESSION_WEBHOOK_RESULT_NO_KEYS:
    case GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE:
      return SOUP_STATUS_SERVICE_UNAVAILABLE;
    case GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE:
      return SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE;
    case GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED:
    case GST_SESSION_WEBHOOK_RESULT_WRONG_ACCOUNT:
      return SOUP_STATUS_FORBIDDEN;
    default:
      return SOUP_STATUS_UNAUTHORIZED;
  }
}

/**
 * gst_session_webhook_url_allowed:
 * @url: where a key set or the metadata is fetched from
 * @allow_insecure_http: accept plain http to any host
 * @error: (out) (optional): where to put the error
 *
 * Whoever sits on the path of a plain http fetch can substitute the key set
 * (and accept forged deliveries) or the IP ranges: they are fetched over
 * https, or plain http to a loopback host (localhost, 127.0.0.0/8, ::1),
 * unless @allow_insecure_http.
 *
 * Returns: %TRUE when @url may be used.
 */
gboolean
gst_session_webhook_url_allowed (const gchar * url,
    gboolean allow_insecure_http, GError ** error)
{
  GUri *uri = url ? g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL) : NULL;
  const gchar *scheme, *host;
  gboolean ok = FALSE;

  if (uri == NULL || g_uri_get_host (uri) == NULL ||
      g_uri_get_host (uri)[0] == '\0') {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT, "not an http or https URL");
    g_clear_pointer (&uri, g_uri_unref);
    return FALSE;
  }
  scheme = g_uri_get_scheme (uri);
  host = g_uri_get_host (uri);
  if (g_ascii_strcasecmp (scheme, "https") == 0) {
    ok = TRUE;
  } else if (g_ascii_strcasecmp (scheme, "http") == 0) {
    GInetAddress *addr = g_inet_address_new_from_string (host);

    ok = allow_insecure_http || g_ascii_strcasecmp (host, "localhost") == 0
        || (addr && g_inet_address_get_is_loopback (addr));
    g_clear_object (&addr);
    if (!ok)
      g_set_error (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT, "plain http to %s: anyone on "
          "the path could substitute what is fetched; use https (plain "
          "http only to a loopback host, or when insecure http is allowed "
          "explicitly)", host);
  } else {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT, "not an http or https URL");
  }
  g_uri_unref (uri);
  return ok;
}
