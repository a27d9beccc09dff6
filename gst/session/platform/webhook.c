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

#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"
#include "webhook.h"

/* ---------------------------------------------------------------------- */
/* JSON documents: bounded before json-glib (recursive) sees them          */
/* ---------------------------------------------------------------------- */

/* The root object of a JSON document named @what ("The key set"), or NULL
 * with @error set. */
static JsonNode *
parse_object (const gchar * what, const gchar * data, gsize length,
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
static const gchar *
member_string (JsonObject * object, const gchar * name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* ---------------------------------------------------------------------- */
/* Key set                                                                */
/* ---------------------------------------------------------------------- */

struct _GstSessionWebhookKeySet
{
  gint refcount;
  guint n_keys;
  guint8 keys[GST_SESSION_WEBHOOK_MAX_KEYS][ED25519_KEY_SIZE];
  /* NULL-terminated: why entries of the document were skipped */
  gchar **skipped;
};

G_DEFINE_BOXED_TYPE (GstSessionWebhookKeySet, gst_session_webhook_key_set,
    gst_session_webhook_key_set_ref, gst_session_webhook_key_set_unref);

static gint
base64url_value (gchar c)
{
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= '0' && c <= '9')
    return c - '0' + 52;
  if (c == '-')
    return 62;
  if (c == '_')
    return 63;
  return -1;
}

/* Decodes base64url (RFC 4648 section 5) with or without its `=` padding
 * into at most @max bytes of @out. Padding, when present, must be complete.
 * Returns the decoded length, -1 when @text is not base64url, or -2 when it
 * decodes to more than @max bytes. */
static gssize
base64url_decode (const gchar * text, guint8 * out, gsize max)
{
  gsize len = strlen (text), pad = 0, i, n = 0;
  guint32 bits = 0;
  guint nbits = 0;

  while (len > 0 && text[len - 1] == '=') {
    len--;
    pad++;
  }
  if (pad > 2 || (pad > 0 && (len + pad) % 4 != 0) || len % 4 == 1)
    return -1;

  for (i = 0; i < len; i++) {
    gint v = base64url_value (text[i]);

    if (v < 0)
      return -1;
    bits = (bits << 6) | (guint32) v;
    nbits += 6;
    if (nbits >= 8) {
      nbits -= 8;
      if (n == max)
        return -2;
      out[n++] = (guint8) (bits >> nbits);
      bits &= (1u << nbits) - 1;
    }
  }
  return (gssize) n;
}

/* Adds entry @index of the `keys` array to @keys, or says in @skipped why
 * not. */
static void
key_set_add_entry (GstSessionWebhookKeySet * keys, guint index,
    JsonNode * node, GPtrArray * skipped)
{
  guint8 raw[ED25519_KEY_SIZE + 1];
  JsonObject *entry;
  const gchar *x, *kty, *crv;
  gssize n;
  guint i;

  if (!JSON_NODE_HOLDS_OBJECT (node)) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: not an object", index));
    return;
  }
  entry = json_node_get_object (node);
  /* `kty` and `crv` are not required (spec 001 names `x` only); when given
   * they must say Ed25519, so a mixed JWKS keeps its Ed25519 keys */
  kty = member_string (entry, "kty");
  crv = member_string (entry, "crv");
  if ((json_object_has_member (entry, "kty") && g_strcmp0 (kty, "OKP") != 0)
      || (json_object_has_member (entry, "crv")
          && g_strcmp0 (crv, "Ed25519") != 0)) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: not an Ed25519 key "
            "(kty or crv)", index));
    return;
  }
  x = member_string (entry, "x");
  if (x == NULL) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: no \"x\" string",
            index));
    return;
  }
  n = base64url_decode (x, raw, sizeof (raw));
  if (n == -1) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: \"x\" is not "
            "base64url", index));
    return;
  }
  if (n == -2) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: \"x\" is longer "
            "than %u bytes", index, ED25519_KEY_SIZE));
    return;
  }
  if (n != ED25519_KEY_SIZE) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: \"x\" is %"
            G_GSSIZE_FORMAT " bytes, not %u", index, n, ED25519_KEY_SIZE));
    return;
  }
  for (i = 0; i < keys->n_keys; i++) {
    if (memcmp (keys->keys[i], raw, ED25519_KEY_SIZE) == 0) {
      g_ptr_array_add (skipped, g_strdup_printf ("key %u: the same key as "
              "an earlier one", index));
      return;
    }
  }
  if (keys->n_keys == GST_SESSION_WEBHOOK_MAX_KEYS) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: over the limit of "
            "%u keys", index, GST_SESSION_WEBHOOK_MAX_KEYS));
    return;
  }
  memcpy (keys->keys[keys->n_keys++], raw, ED25519_KEY_SIZE);
}

/**
 * gst_session_webhook_key_set_parse:
 * @data: (array length=length) (element-type guint8): a JWKS document:
 *   `{"keys": [{"x": "<base64url>", ...}, ...]}`; it need not end with a
 *   NUL byte.
 * @length: the length of @data in bytes.
 * @error: return location for a #GError, or %NULL.
 *
 * Reads the Ed25519 public keys of a key set (spec 001). The `x` of each
 * entry is decoded as base64url with or without `=` padding and must be
 * exactly 32 bytes. An entry that is not usable (not an object, no `x`,
 * `x` not base64url or not 32 bytes, a `kty` other than `OKP` or a `crv`
 * other than `Ed25519`, the same key again, over
 * %GST_SESSION_WEBHOOK_MAX_KEYS) is skipped; the reasons are kept (see
 * gst_session_webhook_key_set_get_skipped()). Other members (`kid`, `use`,
 * `alg`, ...) are ignored.
 *
 * Returns: (transfer full) (nullable): the key set, or %NULL with @error
 *   set (domain %GST_SESSION_ERROR) when the document is over
 *   %GST_SESSION_WEBHOOK_KEY_SET_MAX_SIZE bytes or
 *   %GST_SESSION_WEBHOOK_MAX_DEPTH levels, not a JSON object, has no
 *   `keys` array, or has no usable key.
 */
GstSessionWebhookKeySet *
gst_session_webhook_key_set_parse (const gchar * data, gsize length,
    GError ** error)
{
  GstSessionWebhookKeySet *keys = NULL;
  GPtrArray *skipped;
  JsonNode *root, *array_node;
  JsonArray *array;
  guint i, n;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gst_session_init ();

  root = parse_object ("The key set", data, length,
      GST_SESSION_WEBHOOK_KEY_SET_MAX_SIZE, error);
  if (root == NULL)
    return NULL;

  array_node = json_object_get_member (json_node_get_object (root), "keys");
  if (array_node == NULL || !JSON_NODE_HOLDS_ARRAY (array_node)) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE, "The key set has no \"keys\" array");
    json_node_unref (root);
    return NULL;
  }
  array = json_node_get_array (array_node);
  n = json_array_get_length (array);

  keys = g_new0 (GstSessionWebhookKeySet, 1);
  keys->refcount = 1;
  skipped = g_ptr_array_new ();
  for (i = 0; i < n; i++)
    key_set_add_entry (keys, i, json_array_get_element (array, i), skipped);
  g_ptr_array_add (skipped, NULL);
  keys->skipped = (gchar **) g_ptr_array_free (skipped, FALSE);
  json_node_unref (root);

  for (i = 0; keys->skipped[i]; i++)
    GST_DEBUG ("key set: %s", keys->skipped[i]);

  if (keys->n_keys == 0) {
    gchar *why = g_strjoinv ("; ", keys->skipped);

    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
        "The key set has no usable key%s%s", *why ? ": " : "", why);
    g_free (why);
    gst_session_webhook_key_set_unref (keys);
    return NULL;
  }

  GST_DEBUG ("key set: %u usable keys of %u entries", keys->n_keys, n);
  return keys;
}

/**
 * gst_session_webhook_key_set_ref:
 * @keys: a key set.
 *
 * Returns: (transfer full): @keys, with one more reference.
 */
GstSessionWebhookKeySet *
gst_session_webhook_key_set_ref (GstSessionWebhookKeySet * keys)
{
  g_return_val_if_fail (keys != NULL, NULL);

  g_atomic_int_inc (&keys->refcount);
  return keys;
}

/**
 * gst_session_webhook_key_set_unref:
 * @keys: (transfer full) (nullable): a key set.
 *
 * Drops one reference; the last one frees @keys. %NULL is ignored.
 */
void
gst_session_webhook_key_set_unref (GstSessionWebhookKeySet * keys)
{
  if (keys == NULL || !g_atomic_int_dec_and_test (&keys->refcount))
    return;
  g_strfreev (keys->skipped);
  g_free (keys);
}

/**
 * gst_session_webhook_key_set_get_n_keys:
 * @keys: a key set.
 *
 * Returns: the number of usable keys (at least 1).
 */
guint
gst_session_webhook_key_set_get_n_keys (const GstSessionWebhookKeySet * keys)
{
  g_return_val_if_fail (keys != NULL, 0);

  return keys->n_keys;
}

/**
 * gst_session_webhook_key_set_get_skipped:
 * @keys: a key set.
 *
 * Why entries of the document were not used, one text per entry, such as
 * `key 2: "x" is 31 bytes, not 32`. The texts name entries by their index
 * in the `keys` array and never show key material.
 *
 * Returns: (transfer none) (array zero-terminated=1): the reasons; empty
 *   when every entry was used.
 */
const gchar *const *
gst_session_webhook_key_set_get_skipped (const GstSessionWebhookKeySet * keys)
{
  g_return_val_if_fail (keys != NULL, NULL);

  return (const gchar * const *) keys->skipped;
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

static GstSessionWebhookVerification *verification_new
    (GstSessionWebhookResult result, const gchar * header,
    const gchar * format, ...) G_GNUC_PRINTF (3, 4);

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

/**
 * gst_session_webhook_verification_check_account:
 * @verification: a verification
 * @user_id: (nullable): the receiving account's user id; %NULL accepts
 *   any account
 *
 * Spec 001 signs "the receiving account's user id": a delivery validly
 * signed for another account must not be accepted by this one. When
 * @verification is valid, @user_id is set and the signed user id differs,
 * turns it into %GST_SESSION_WEBHOOK_RESULT_WRONG_ACCOUNT (HTTP 403).
 *
 * Returns: %TRUE when @verification is (still) valid.
 */
gboolean
gst_session_webhook_verification_check_account (GstSessionWebhookVerification
    * verification, const gchar * user_id)
{
  g_return_val_if_fail (verification != NULL, FALSE);

  if (verification->result != GST_SESSION_WEBHOOK_RESULT_VALID)
    return FALSE;
  if (user_id == NULL || g_strcmp0 (verification->user_id, user_id) == 0)
    return TRUE;
  verification->result = GST_SESSION_WEBHOOK_RESULT_WRONG_ACCOUNT;
  g_free (verification->text);
  verification->text = g_strdup ("The delivery is signed for another "
      "account: its user id is not this receiver's (--user-id)");
  return FALSE;
}

static GstSessionWebhookVerification *
verification_new (GstSessionWebhookResult result, const gchar * header,
    const gchar * format, ...)
{
  GstSessionWebhookVerification *v = g_new0 (GstSessionWebhookVerification, 1);
  va_list args;

  v->result = result;
  v->header = header;
  v->key_index = -1;
  va_start (args, format);
  v->text = g_strdup_vprintf (format, args);
  va_end (args);
  return v;
}

/**
 * gst_session_webhook_verification_copy:
 * @verification: a verification.
 *
 * Returns: (transfer full): a copy of @verification.
 */
GstSessionWebhookVerification *
gst_session_webhook_verification_copy (const GstSessionWebhookVerification *
    verification)
{
  GstSessionWebhookVerification *copy;

  g_return_val_if_fail (verification != NULL, NULL);

  copy = g_memdup2 (verification, sizeof (GstSessionWebhookVerification));
  copy->text = g_strdup (verification->text);
  copy->request_id = g_strdup (verification->request_id);
  copy->user_id = g_strdup (verification->user_id);
  return copy;
}

/**
 * gst_session_webhook_verification_free:
 * @verification: (transfer full) (nullable): a verification.
 *
 * Frees @verification. %NULL is ignored.
 */
void
gst_session_webhook_verification_free (GstSessionWebhookVerification *
    verification)
{
  if (verification == NULL)
    return;
  g_free (verification->text);
  g_free (verification->request_id);
  g_free (verification->user_id);
  g_free (verification);
}

G_DEFINE_BOXED_TYPE (GstSessionWebhookVerification,
    gst_session_webhook_verification, gst_session_webhook_verification_copy,
    gst_session_webhook_verification_free);

/* The four signed headers, in the order of the signed message. */
enum
{
  HEADER_REQUEST_ID,
  HEADER_USER_ID,
  HEADER_TIMESTAMP,
  HEADER_SIGNATURE,
  N_HEADERS
};

static const gchar *const header_names[N_HEADERS] = {
  GST_SESSION_WEBHOOK_HEADER_REQUEST_ID,
  GST_SESSION_WEBHOOK_HEADER_USER_ID,
  GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
  GST_SESSION_WEBHOOK_HEADER_SIGNATURE,
};

/* A timestamp further than this from now is reported as this far (s). */
#define MAX_REPORTED_SKEW G_GINT64_CONSTANT (1000000000000)

/* One delivery whose headers were read: all that checking its signature
 * needs. The body is not kept: its hash is in @message. */
typedef struct
{
  gchar *request_id;
  gchar *user_id;
  gint64 timestamp;
  gint64 skew;
  guint8 signature[ED25519_SIGNATURE_SIZE];
  gchar *message;
  gsize message_length;
} SignedDelivery;

static void
signed_delivery_clear (SignedDelivery * d)
{
  g_clear_pointer (&d->request_id, g_free);
  g_clear_pointer (&d->user_id, g_free);
  g_clear_pointer (&d->message, g_free);
}

/* NULL when @value may be signed, else why not. */
static const gchar *
header_value_problem (const gchar * value)
{
  gsize length = strlen (value), i;

  if (length > GST_SESSION_WEBHOOK_MAX_HEADER)
    return "is longer than " G_STRINGIFY (GST_SESSION_WEBHOOK_MAX_HEADER)
        " bytes";
  if (!g_utf8_validate_len (value, length, NULL))
    return "is not UTF-8";
  for (i = 0; i < length; i++) {
    if ((guchar) value[i] < 0x20 || value[i] == 0x7f)
      return "holds control characters";
  }
  return NULL;
}

/* An optional '-' and 1 or more decimal digits that fit a gint64. */
static gboolean
parse_timestamp (const gchar * text, gint64 * out)
{
  const gchar *p = text;
  gboolean negative = *p == '-';
  guint64 v = 0;

  if (negative)
    p++;
  if (*p == '\0')
    return FALSE;
  for (; *p; p++) {
    guint digit = (guint) (*p - '0');

    if (!g_ascii_isdigit (*p) || v > ((guint64) G_MAXINT64 - digit) / 10)
      return FALSE;
    v = v * 10 + digit;
  }
  *out = negative ? -(gint64) v : (gint64) v;
  return TRUE;
}

/* Exactly 2 * @n hexadecimal digits of either case into @out. */
static gboolean
hex_decode (const gchar * text, guint8 * out, gsize n)
{
  gsize i;

  if (strlen (text) != 2 * n)
    return FALSE;
  for (i = 0; i < n; i++) {
    gint hi = g_ascii_xdigit_value (text[2 * i]);
    gint lo = g_ascii_xdigit_value (text[2 * i + 1]);

    if (hi < 0 || lo < 0)
      return FALSE;
    out[i] = (guint8) (hi << 4 | lo);
  }
  return TRUE;
}

/* Reads the four header values (@counts: how often each was present, or
 * NULL for once) and the body into @d: spec 001 steps 2 to 5 and the
 * decoding of step 6. Returns NULL when the delivery can be verified, else
 * why not; @d is then cleared. */
static GstSessionWebhookVerification *
signed_delivery_read (SignedDelivery * d, const gchar * const *values,
    const guint * counts, const guint8 * body, gsize body_length, gint64 now,
    guint leeway)
{
  GstSessionWebhookVerification *v;
  const gchar *ts_text, *problem;
  GString *missing = NULL;
  const gchar *first = NULL;
  gchar *hash;
  gint64 clamped;
  guint i;

  memset (d, 0, sizeof (SignedDelivery));

  for (i = 0; i < N_HEADERS; i++) {
    if (values[i] != NULL && *values[i] != '\0')
      continue;
    if (missing == NULL) {
      missing = g_string_new (header_names[i]);
      first = header_names[i];
    } else {
      g_string_append_printf (missing, ", %s", header_names[i]);
    }
  }
  if (missing) {
    v = verification_new (GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER, first,
        "The webhook header%s %s %s missing or empty",
        strchr (missing->str, ',') ? "s" : "", missing->str,
        strchr (missing->str, ',') ? "are" : "is");
    g_string_free (missing, TRUE);
    return v;
  }
  for (i = 0; i < N_HEADERS; i++) {
    if (counts && counts[i] > 1)
      return verification_new (GST_SESSION_WEBHOOK_RESULT_BAD_HEADER,
          header_names[i], "The webhook header %s is present %u times",
          header_names[i], counts[i]);
    problem = header_value_problem (values[i]);
    if (problem)
      return verification_new (GST_SESSION_WEBHOOK_RESULT_BAD_HEADER,
          header_names[i], "The webhook header %s %s", header_names[i],
          problem);
  }

  ts_text = values[HEADER_TIMESTAMP];
  if (!parse_timestamp (ts_text, &d->timestamp))
    return verification_new (GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP,
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
        "The webhook header %s is not an integer number of seconds",
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP);
  /* now +- leeway and the skew cannot overflow for any timestamp */
  clamped = CLAMP (d->timestamp, now - MAX_REPORTED_SKEW,
      now + MAX_REPORTED_SKEW);
  d->skew = now - clamped;
  if (d->skew > (gint64) leeway) {
    v = verification_new (GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP,
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP, "The delivery is %"
        G_GINT64_FORMAT " s old, more than the %u s allowed", d->skew, leeway);
    v->skew = d->skew;
    return v;
  }
  if (d->skew < -(gint64) leeway) {
    v = verification_new (GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP,
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP, "The delivery is dated %"
        G_GINT64_FORMAT " s ahead, more than the %u s allowed", -d->skew,
        leeway);
    v->skew = d->skew;
    return v;
  }

  if (!hex_decode (values[HEADER_SIGNATURE], d->signature,
          ED25519_SIGNATURE_SIZE)) {
    v = verification_new (GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING,
        GST_SESSION_WEBHOOK_HEADER_SIGNATURE, "The webhook header %s is not "
        "%d hexadecimal digits (%d bytes)",
        GST_SESSION_WEBHOOK_HEADER_SIGNATURE, 2 * ED25519_SIGNATURE_SIZE,
        ED25519_SIGNATURE_SIZE);
    v->skew = d->skew;
    return v;
  }

  /* step 4: the hash of the raw body bytes, lowercase hex */
  hash = g_compute_checksum_for_data (G_CHECKSUM_SHA256, body, body_length);

  /* step 5: four lines joined by a line feed; the headers are UTF-8 */
  d->message = g_strjoin ("\n", values[HEADER_REQUEST_ID],
      values[HEADER_USER_ID], ts_text, hash, NULL);
  g_free (hash);
  d->message_length = strlen (d->message);
  d->request_id = g_strdup (values[HEADER_REQUEST_ID]);
  d->user_id = g_strdup (values[HEADER_USER_ID]);
  return NULL;
}

/* Spec 001 steps 6 and 7: valid when any key verifies. */
static GstSessionWebhookVerification *
signed_delivery_verify (const SignedDelivery * d,
    const GstSessionWebhookKeySet * keys)
{
  GstSessionWebhookVerification *v;
  guint i;

  if (keys == NULL || keys->n_keys == 0) {
    v = verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEYS, NULL,
        "There is no key to verify the delivery with");
    v->skew = d->skew;
    return v;
  }
  for (i = 0; i < keys->n_keys; i++) {
    if (ed25519_sha512_verify (keys->keys[i], d->message_length,
            (const guint8 *) d->message, d->signature)) {
      v = verification_new (GST_SESSION_WEBHOOK_RESULT_VALID, NULL,
          "The signature is valid (key %u of the key set)", i);
      v->skew = d->skew;
      v->key_index = (gint) i;
      v->request_id = g_strdup (d->request_id);
      v->user_id = g_strdup (d->user_id);
      v->timestamp = d->timestamp;
      return v;
    }
  }
  v = verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED, NULL,
      "No key of the key set (%u) verifies the signature", keys->n_keys);
  v->skew = d->skew;
  return v;
}

static GstSessionWebhookVerification *
verify_values (const GstSessionWebhookKeySet * keys,
    const gchar * const *values, const guint * counts, const guint8 * body,
    gsize body_length, gint64 now, guint leeway)
{
  GstSessionWebhookVerification *v;
  SignedDelivery d;

  gst_session_init ();

  v = signed_delivery_read (&d, values, counts, body, body_length, now, leeway);
  if (v == NULL)
    v = signed_delivery_verify (&d, keys);
  signed_delivery_clear (&d);

  GST_DEBUG ("webhook delivery: %s", v->text);
  return v;
}

typedef struct
{
  const gchar *values[N_HEADERS];
  guint counts[N_HEADERS];
} HeaderScan;

static void
scan_header (const char *name, const char *value, gpointer user_data)
{
  HeaderScan *scan = user_data;
  guint i;

  for (i = 0; i < N_HEADERS; i++) {
    if (g_ascii_strcasecmp (name, header_names[i]) == 0) {
      scan->values[i] = value;
      scan->counts[i]++;
    }
  }
}

/**
 * gst_session_webhook_verify:
 * @keys: (nullable): the key set, or %NULL.
 * @headers: the request headers of the delivery.
 * @body: (nullable) (array length=body_length) (element-type guint8): the
 *   raw request body, as received.
 * @body_length: the length of @body in bytes.
 * @now: the current Unix time in seconds (g_get_real_time() /
 *   %G_USEC_PER_SEC).
 * @leeway: the allowed difference between @now and the timestamp, in
 *   seconds: %GST_SESSION_WEBHOOK_LEEWAY (tests may pass another).
 *
 * Verifies one delivery as spec 001 says, without any network access:
 * the four `X-Svc-Webhook-*` headers (names matched without regard to
 * case) must each be present once; the timestamp must be an integer within
 * @leeway of @now (a difference of exactly @leeway passes); the signature
 * must be 128 hexadecimal digits; the Ed25519 signature over
 * `request_id LF user_id LF timestamp LF hex(sha256(body))` must verify
 * with at least one key of @keys.
 *
 * Returns: (transfer full): the verification; never %NULL.
 */
GstSessionWebhookVerification *
gst_session_webhook_verify (const GstSessionWebhookKeySet * keys,
    SoupMessageHeaders * headers, const guint8 * body, gsize body_length,
    gint64 now, guint leeway)
{
  HeaderScan scan = { {NULL}, {0} };

  g_return_val_if_fail (headers != NULL, NULL);
  g_return_val_if_fail (body != NULL || body_length == 0, NULL);

  soup_message_headers_foreach (headers, scan_header, &scan);
  return verify_values (keys, scan.values, scan.counts, body, body_length,
      now, leeway);
}

/**
 * gst_session_webhook_verify_values:
 * @keys: (nullable): the key set, or %NULL.
 * @request_id: (nullable): the value of `X-Svc-Webhook-Request-Id`, or
 *   %NULL when it is missing.
 * @user_id: (nullable): the value of `X-Svc-Webhook-User-Id`.
 * @timestamp: (nullable): the value of `X-Svc-Webhook-Timestamp`.
 * @signature: (nullable): the value of `X-Svc-Webhook-Signature`.
 * @body: (nullable) (array length=body_length) (element-type guint8): the
 *   raw request body.
 * @body_length: the length of @body in bytes.
 * @now: the current Unix time in seconds.
 * @leeway: the allowed clock difference in seconds.
 *
 * Like gst_session_webhook_verify(), for a receiver that is not libsoup's:
 * the caller looks the four headers up itself (without regard to case).
 *
 * Returns: (transfer full): the verification; never %NULL.
 */
GstSessionWebhookVerification *
gst_session_webhook_verify_values (const GstSessionWebhookKeySet * keys,
    const gchar * request_id, const gchar * user_id, const gchar * timestamp,
    const gchar * signature, const guint8 * body, gsize body_length,
    gint64 now, guint leeway)
{
  const gchar *values[N_HEADERS] = { request_id, user_id, timestamp,
    signature
  };

  g_return_val_if_fail (body != NULL || body_length == 0, NULL);

  return verify_values (keys, values, NULL, body, body_length, now, leeway);
}

typedef enum
{
  FIELD_STRING,
  FIELD_OBJECT_OR_NULL,
} FieldKind;

typedef struct
{
  const gchar *name;
  FieldKind kind;
  gboolean required;
} DeliveryField;

/* Spec 001, "Webhook delivery body". Fields the table does not mark
 * conditional ("present when ...") are required; the conditions are in
 * delivery_check_rules(). Other members are ignored. */
static const DeliveryField delivery_fields[] = {
  {"request_id", FIELD_STRING, TRUE},
  {"gateway_request_id", FIELD_STRING, TRUE},
  {"status", FIELD_STRING, TRUE},
  {"payload", FIELD_OBJECT_OR_NULL, TRUE},
  {"error", FIELD_STRING, FALSE},
  {"payload_error", FIELD_STRING, FALSE},
};

#define DELIVERY_INVALID(error, ...) \
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE, \
        "webhook delivery: " __VA_ARGS__)

static gboolean
delivery_check_fields (JsonObject * object, GError ** error)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (delivery_fields); i++) {
    const DeliveryField *f = &delivery_fields[i];
    JsonNode *node = json_object_get_member (object, f->name);

    if (node == NULL) {
      if (!f->required)
        continue;
      DELIVERY_INVALID (error, "/%s is missing", f->name);
      return FALSE;
    }
    if (f->kind == FIELD_STRING && member_string (object, f->name) == NULL) {
      DELIVERY_INVALID (error, "/%s must be a string", f->name);
      return FALSE;
    }
    if (f->kind == FIELD_OBJECT_OR_NULL && !JSON_NODE_HOLDS_OBJECT (node)
        && !JSON_NODE_HOLDS_NULL (node)) {
      DELIVERY_INVALID (error, "/%s must be an object or null", f->name);
      return FALSE;
    }
  }
  return TRUE;
}

/* The rules between fields (spec 001, delivery body and Events). */
static gboolean
delivery_check_rules (GstSessionWebhookDelivery * d, const gchar * status,
    const gchar * signed_request_id, GError ** error)
{
  if (g_strcmp0 (status, "OK") == 0) {
    d->status = GST_SESSION_WEBHOOK_STATUS_OK;
  } else if (g_strcmp0 (status, "ERROR") == 0) {
    d->status = GST_SESSION_WEBHOOK_STATUS_ERROR;
  } else {
    DELIVERY_INVALID (error, "/status must be \"OK\" or \"ERROR\"");
    return FALSE;
  }
  if (*d->request_id == '\0') {
    DELIVERY_INVALID (error, "/request_id is empty");
    return FALSE;
  }
  if (signed_request_id && strcmp (d->request_id, signed_request_id) != 0) {
    DELIVERY_INVALID (error, "/request_id differs from the signed %s header",
        GST_SESSION_WEBHOOK_HEADER_REQUEST_ID);
    return FALSE;
  }
  if (d->status == GST_SESSION_WEBHOOK_STATUS_ERROR && d->error == NULL) {
    DELIVERY_INVALID (error, "/error is missing (status is \"ERROR\")");
    return FALSE;
  }
  if (d->status == GST_SESSION_WEBHOOK_STATUS_OK && d->payload == NULL
      && d->payload_error == NULL) {
    DELIVERY_INVALID (error, "/payload_error is missing (status is \"OK\" "
        "and the payload is null)");
    return FALSE;
  }
  return TRUE;
}

/* The error objects of the payload's `detail` array, read by the model-level
 * error parser of httperror.c. A `detail` that is not an array gives none:
 * spec 001 says some endpoints do not follow the structure yet. */
static void
delivery_read_detail (GstSessionWebhookDelivery * d)
{
  JsonNode *detail;
  GstSessionHttpError *parsed;
  gchar *array, *text;

  if (d->status != GST_SESSION_WEBHOOK_STATUS_ERROR || d->payload == NULL)
    return;
  detail = json_object_get_member (json_node_get_object (d->payload), "detail");
  if (detail == NULL || !JSON_NODE_HOLDS_ARRAY (detail))
    return;

  array = gst_session_json_write (detail, FALSE);
  text = g_strconcat ("{\"detail\": ", array, "}", NULL);
  parsed = gst_session_http_error_parse (0, NULL, text, strlen (text));
  if (parsed->kind == GST_SESSION_HTTP_ERROR_KIND_MODEL) {
    g_ptr_array_unref (d->detail);
    d->detail = g_ptr_array_ref (parsed->items);
  }
  gst_session_http_error_free (parsed);
  g_free (text);
  g_free (array);
}

/**
 * gst_session_webhook_delivery_parse:
 * @body: (array length=length) (element-type guint8): the raw delivery
 *   body; it need not end with a NUL byte.
 * @length: the length of @body in bytes.
 * @max_length: the largest body accepted, in bytes; 0 for
 *   %GST_SESSION_WEBHOOK_MAX_BODY.
 * @signed_request_id: (nullable): the request id of the verified
 *   `X-Svc-Webhook-Request-Id` header (#GstSessionWebhookVerification's
 *   `request_id`); the body's must be equal. %NULL skips that check.
 * @error: return location for a #GError, or %NULL.
 *
 * Reads a webhook delivery body (spec 001). Parse only a body whose
 * signature was verified. The rules:
 *
 * - `request_id` (a non-empty string, equal to @signed_request_id),
 *   `gateway_request_id` (a string), `status` (`"OK"` or `"ERROR"`) and
 *   `payload` (an object or null) must be present;
 * - `error` and `payload_error`, when present, are strings;
 * - status `ERROR` needs `error`; status `OK` with a null payload needs
 *   `payload_error`;
 * - with status `ERROR`, the error objects of the payload's `detail`
 *   array are read into @detail.
 *
 * Other members are ignored.
 *
 * Returns: (transfer full) (nullable): the delivery, or %NULL with @error
 *   set: %GST_SESSION_ERROR_INVALID_JSON when the body is over
 *   @max_length, %GST_SESSION_WEBHOOK_MAX_DEPTH levels, not UTF-8 or not a
 *   JSON object; %GST_SESSION_ERROR_INVALID_MESSAGE, naming the field as a
 *   JSON pointer, when a rule is broken.
 */
GstSessionWebhookDelivery *
gst_session_webhook_delivery_parse (const gchar * body, gsize length,
    gsize max_length, const gchar * signed_request_id, GError ** error)
{
  GstSessionWebhookDelivery *d;
  JsonNode *root, *payload;
  JsonObject *object;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gst_session_init ();

  root = parse_object ("webhook delivery: the body", body, length,
      max_length ? max_length : GST_SESSION_WEBHOOK_MAX_BODY, error);
  if (root == NULL)
    return NULL;
  object = json_node_get_object (root);
  if (!delivery_check_fields (object, error)) {
    json_node_unref (root);
    return NULL;
  }

  d = g_new0 (GstSessionWebhookDelivery, 1);
  d->request_id = g_strdup (member_string (object, "request_id"));
  d->gateway_request_id = g_strdup (member_string (object,
          "gateway_request_id"));
  payload = json_object_get_member (object, "payload");
  if (JSON_NODE_HOLDS_OBJECT (payload))
    d->payload = json_node_ref (payload);
  d->error = g_strdup (member_string (object, "error"));
  d->payload_error = g_strdup (member_string (object, "payload_error"));
  d->detail = g_ptr_array_new ();

  if (!delivery_check_rules (d, member_string (object, "status"),
          signed_request_id, error)) {
    gst_session_webhook_delivery_free (d);
    json_node_unref (root);
    return NULL;
  }
  delivery_read_detail (d);
  json_node_unref (root);

  GST_DEBUG ("webhook delivery %.128s: %s, %s payload, %u detail items",
      d->request_id, d->status == GST_SESSION_WEBHOOK_STATUS_OK ? "OK" :
      "ERROR", d->payload ? "an object" : "a null", d->detail->len);
  return d;
}

/**
 * gst_session_webhook_delivery_copy:
 * @delivery: a delivery.
 *
 * Returns: (transfer full): a deep copy of @delivery (the sealed payload
 *   is shared).
 */
GstSessionWebhookDelivery *
gst_session_webhook_delivery_copy (const GstSessionWebhookDelivery * delivery)
{
  GstSessionWebhookDelivery *copy;
  GstSessionHttpError holder = { 0, }, *items;

  g_return_val_if_fail (delivery != NULL, NULL);

  copy = g_new0 (GstSessionWebhookDelivery, 1);
  copy->request_id = g_strdup (delivery->request_id);
  copy->gateway_request_id = g_strdup (delivery->gateway_request_id);
  copy->status = delivery->status;
  if (delivery->payload)
    copy->payload = json_node_ref (delivery->payload);
  copy->error = g_strdup (delivery->error);
  copy->payload_error = g_strdup (delivery->payload_error);
  /* httperror.c knows how to copy its items */
  holder.items = delivery->detail;
  items = gst_session_http_error_copy (&holder);
  copy->detail = g_ptr_array_ref (items->items);
  gst_session_http_error_free (items);
  return copy;
}

/**
 * gst_session_webhook_delivery_free:
 * @delivery: (transfer full) (nullable): a delivery.
 *
 * Frees @delivery. %NULL is ignored.
 */
void
gst_session_webhook_delivery_free (GstSessionWebhookDelivery * delivery)
{
  if (delivery == NULL)
    return;
  g_free (delivery->request_id);
  g_free (delivery->gateway_request_id);
  g_clear_pointer (&delivery->payload, json_node_unref);
  g_free (delivery->error);
  g_free (delivery->payload_error);
  g_clear_pointer (&delivery->detail, g_ptr_array_unref);
  g_free (delivery);
}

G_DEFINE_BOXED_TYPE (GstSessionWebhookDelivery, gst_session_webhook_delivery,
    gst_session_webhook_delivery_copy, gst_session_webhook_delivery_free);

/* ---------------------------------------------------------------------- */
/* Source IP ranges                                                       */
/* ---------------------------------------------------------------------- */

struct _GstSessionWebhookIpRanges
{
  gint refcount;
  /* GInetAddressMask */
  GPtrArray *masks;
  gchar **skipped;
};

G_DEFINE_BOXED_TYPE (GstSessionWebhookIpRanges, gst_session_webhook_ip_ranges,
    gst_session_webhook_ip_ranges_ref, gst_session_webhook_ip_ranges_unref);

/* "address/length" (or a bare address: the whole address) as a mask. Bits
 * past the prefix are cleared: "10.1.2.3/8" is 10.0.0.0/8. NULL with @why
 * set when @text is not a CIDR range. */
static GInetAddressMask *
parse_cidr (const gchar * text, const gchar ** why)
{
  const gchar *slash = strchr (text, '/');
  gchar *host = g_strndup (text, slash ? (gsize) (slash - text) :
      strlen (text));
  GInetAddress *address = g_inet_address_new_from_string (host), *network;
  GInetAddressMask *mask = NULL;
  guint8 bytes[16];
  guint bits, length = 0, i;
  const gchar *p;

  g_free (host);
  if (address == NULL) {
    *why = "not an IPv4 or IPv6 address";
    return NULL;
  }
  bits = g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV4 ? 32 : 128;
  if (slash == NULL) {
    length = bits;
  } else {
    for (p = slash + 1; g_ascii_isdigit (*p) && length <= bits; p++)
      length = length * 10 + (guint) (*p - '0');
    if (p == slash + 1 || *p != '\0' || length > bits || p - slash > 4) {
      *why = "not a prefix length of the address family";
      g_object_unref (address);
      return NULL;
    }
  }

  memcpy (bytes, g_inet_address_to_bytes (address), bits / 8);
  for (i = 0; i < bits / 8; i++) {
    if (i * 8 >= length)
      bytes[i] = 0;
    else if (i * 8 + 8 > length)
      bytes[i] &= (guint8) (0xff << (8 - (length - i * 8)));
  }
  network = g_inet_address_new_from_bytes (bytes,
      g_inet_address_get_family (address));
  mask = g_inet_address_mask_new (network, length, NULL);
  if (mask == NULL)
    *why = "not a CIDR range";
  g_object_unref (network);
  g_object_unref (address);
  return mask;
}

/**
 * gst_session_webhook_ip_ranges_parse:
 * @data: (array length=length) (element-type guint8): the metadata
 *   document (`GET {api_url}/v1/meta`), a JSON object with a
 *   `webhook_ip_ranges` array of CIDR strings.
 * @length: the length of @data in bytes.
 * @error: return location for a #GError, or %NULL.
 *
 * Reads the ranges webhooks are sent from. IPv4 (`192.0.2.0/24`) and IPv6
 * (`2001:db8::/32`) ranges are read; a bare address is a range of one
 * address; bits past the prefix length are ignored. Entries that are not
 * ranges, and those over %GST_SESSION_WEBHOOK_MAX_RANGES, are skipped
 * (see gst_session_webhook_ip_ranges_get_skipped()). Other members of the
 * document are ignored.
 *
 * Returns: (transfer full) (nullable): the ranges, or %NULL with @error
 *   set when the document is over %GST_SESSION_WEBHOOK_META_MAX_SIZE bytes
 *   or %GST_SESSION_WEBHOOK_MAX_DEPTH levels, not a JSON object, has no
 *   `webhook_ip_ranges` array, or no usable range.
 */
GstSessionWebhookIpRanges *
gst_session_webhook_ip_ranges_parse (const gchar * data, gsize length,
    GError ** error)
{
  GstSessionWebhookIpRanges *ranges;
  GPtrArray *skipped;
  JsonNode *root, *node;
  JsonArray *array;
  guint i, n;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  gst_session_init ();

  root = parse_object ("The metadata", data, length,
      GST_SESSION_WEBHOOK_META_MAX_SIZE, error);
  if (root == NULL)
    return NULL;
  node = json_object_get_member (json_node_get_object (root),
      "webhook_ip_ranges");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node)) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE,
        "The metadata has no \"webhook_ip_ranges\" array");
    json_node_unref (root);
    return NULL;
  }
  array = json_node_get_array (node);
  n = json_array_get_length (array);

  ranges = g_new0 (GstSessionWebhookIpRanges, 1);
  ranges->refcount = 1;
  ranges->masks = g_ptr_array_new_with_free_func (g_object_unref);
  skipped = g_ptr_array_new ();
  for (i = 0; i < n; i++) {
    JsonNode *element = json_array_get_element (array, i);
    const gchar *why = NULL;
    GInetAddressMask *mask = NULL;

    if (!JSON_NODE_HOLDS_VALUE (element)
        || json_node_get_value_type (element) != G_TYPE_STRING)
      why = "not a string";
    else if (ranges->masks->len == GST_SESSION_WEBHOOK_MAX_RANGES)
      why = "over the limit of " G_STRINGIFY (GST_SESSION_WEBHOOK_MAX_RANGES)
          " ranges";
    else
      mask = parse_cidr (json_node_get_string (element), &why);
    if (mask)
      g_ptr_array_add (ranges->masks, mask);
    else
      g_ptr_array_add (skipped, g_strdup_printf ("range %u: %s", i, why));
  }
  g_ptr_array_add (skipped, NULL);
  ranges->skipped = (gchar **) g_ptr_array_free (skipped, FALSE);
  json_node_unref (root);

  if (ranges->masks->len == 0) {
    gchar *why = g_strjoinv ("; ", ranges->skipped);

    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
        "The metadata has no usable webhook IP range%s%s", *why ? ": " : "",
        why);
    g_free (why);
    gst_session_webhook_ip_ranges_unref (ranges);
    return NULL;
  }
  GST_DEBUG ("webhook IP ranges: %u of %u entries", ranges->masks->len, n);
  return ranges;
}

/**
 * gst_session_webhook_ip_ranges_ref:
 * @ranges: the ranges.
 *
 * Returns: (transfer full): @ranges, with one more reference.
 */
GstSessionWebhookIpRanges *
gst_session_webhook_ip_ranges_ref (GstSessionWebhookIpRanges * ranges)
{
  g_return_val_if_fail (ranges != NULL, NULL);

  g_atomic_int_inc (&ranges->refcount);
  return ranges;
}

/**
 * gst_session_webhook_ip_ranges_unref:
 * @ranges: (transfer full) (nullable): the ranges.
 *
 * Drops one reference; the last one frees @ranges. %NULL is ignored.
 */
void
gst_session_webhook_ip_ranges_unref (GstSessionWebhookIpRanges * ranges)
{
  if (ranges == NULL || !g_atomic_int_dec_and_test (&ranges->refcount))
    return;
  g_ptr_array_unref (ranges->masks);
  g_strfreev (ranges->skipped);
  g_free (ranges);
}

/**
 * gst_session_webhook_ip_ranges_get_n_ranges:
 * @ranges: the ranges.
 *
 * Returns: the number of usable ranges (at least 1).
 */
guint
gst_session_webhook_ip_ranges_get_n_ranges (const GstSessionWebhookIpRanges *
    ranges)
{
  g_return_val_if_fail (ranges != NULL, 0);

  return ranges->masks->len;
}

/**
 * gst_session_webhook_ip_ranges_get_skipped:
 * @ranges: the ranges.
 *
 * Why entries of `webhook_ip_ranges` were not used, such as `range 3: not
 * an IPv4 or IPv6 address`.
 *
 * Returns: (transfer none) (array zero-terminated=1): the reasons; empty
 *   when every entry was used.
 */
const gchar *const *
gst_session_webhook_ip_ranges_get_skipped (const GstSessionWebhookIpRanges *
    ranges)
{
  g_return_val_if_fail (ranges != NULL, NULL);

  return (const gchar * const *) ranges->skipped;
}

/**
 * gst_session_webhook_ip_ranges_contains:
 * @ranges: the ranges.
 * @address: the address a delivery came from.
 *
 * Whether @address is in one of @ranges. An IPv4-mapped IPv6 address
 * (`::ffff:192.0.2.1`, as a dual-stack socket reports an IPv4 peer) is
 * matched as the IPv4 address it holds.
 *
 * Returns: %TRUE when a range holds @address.
 */
gboolean
gst_session_webhook_ip_ranges_contains (const GstSessionWebhookIpRanges *
    ranges, GInetAddress * address)
{
  static const guint8 v4_mapped[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff,
    0xff
  };
  GInetAddress *v4 = NULL;
  gboolean found = FALSE;
  guint i;

  g_return_val_if_fail (ranges != NULL, FALSE);
  g_return_val_if_fail (G_IS_INET_ADDRESS (address), FALSE);

  if (g_inet_address_get_family (address) == G_SOCKET_FAMILY_IPV6 &&
      memcmp (g_inet_address_to_bytes (address), v4_mapped, 12) == 0) {
    v4 = g_inet_address_new_from_bytes (g_inet_address_to_bytes (address) +
        12, G_SOCKET_FAMILY_IPV4);
    address = v4;
  }
  for (i = 0; i < ranges->masks->len && !found; i++)
    found = g_inet_address_mask_matches (g_ptr_array_index (ranges->masks, i),
        address);
  g_clear_object (&v4);
  return found;
}

/* ---------------------------------------------------------------------- */
/* GstSessionWebhookVerifier                                              */
/* ---------------------------------------------------------------------- */

#define DEFAULT_JWKS_URL NULL
#define DEFAULT_API_URL NULL
#define DEFAULT_KEY_SET_MAX_AGE GST_SESSION_WEBHOOK_KEY_SET_MAX_AGE
#define DEFAULT_REFETCH_COOLDOWN GST_SESSION_WEBHOOK_REFETCH_COOLDOWN
#define DEFAULT_IP_RANGES_MAX_AGE GST_SESSION_WEBHOOK_IP_RANGES_MAX_AGE
#define DEFAULT_LEEWAY GST_SESSION_WEBHOOK_LEEWAY
#define DEFAULT_MAX_BODY_SIZE GST_SESSION_WEBHOOK_MAX_BODY
#define DEFAULT_TIMEOUT 10000

enum
{
  PROP_0,
  PROP_JWKS_URL,
  PROP_API_URL,
  PROP_KEY_SET_MAX_AGE,
  PROP_REFETCH_COOLDOWN,
  PROP_IP_RANGES_MAX_AGE,
  PROP_LEEWAY,
  PROP_MAX_BODY_SIZE,
  PROP_TIMEOUT,
  PROP_ALLOW_INSECURE_HTTP,
};

/* The two documents a verifier fetches. */
typedef enum
{
  DOC_KEY_SET,
  DOC_IP_RANGES,
  N_DOCS
} DocKind;

static const gchar *const doc_names[N_DOCS] = { "key set", "IP ranges" };

/* A continuation of a job waiting for a fetch. */
typedef struct
{
  void (*resume) (GTask * task);
  GTask *task;
} Waiter;

/* One cached document and its fetching. */
typedef struct
{
  /* GstSessionWebhookKeySet or GstSessionWebhookIpRanges, or NULL */
  gpointer value;
  /* clock seconds: when @value was stored, when a fetch last started */
  gint64 stored_at;
  gint64 attempted_at;
  gboolean attempted;
  /* the last fetch failed: why (for people; no secrets) */
  gchar *failure;
  gboolean fetching;
  /* Waiter, resumed when the running fetch ends */
  GArray *waiters;
} Cache;

/* Locking: the object lock protects every field below, the caches
 * included. It is never held while calling out: not around the clock
 * function, libsoup, parsing, verification or returning a GTask. */
struct _GstSessionWebhookVerifier
{
  GstObject parent;

  gchar *jwks_url;
  gchar *api_url;
  guint key_set_max_age;
  guint refetch_cooldown;
  guint ip_ranges_max_age;
  guint leeway;
  guint max_body_size;
  guint timeout;
  gboolean allow_insecure_http;

  GstSessionWebhookClockFunc clock_func;
  gpointer clock_data;
  GDestroyNotify clock_notify;

  Cache caches[N_DOCS];
  /* made at the first fetch, kept for all (its connections are reused) */
  SoupSession *session;
};

G_DEFINE_TYPE (GstSessionWebhookVerifier, gst_session_webhook_verifier,
    GST_TYPE_OBJECT);

static void
cache_clear_value (Cache * cache, DocKind kind)
{
  if (cache->value == NULL)
    return;
  if (kind == DOC_KEY_SET)
    gst_session_webhook_key_set_unref (cache->value);
  else
    gst_session_webhook_ip_ranges_unref (cache->value);
  cache->value = NULL;
}

static gpointer
cache_ref_value (const Cache * cache, DocKind kind)
{
  if (cache->value == NULL)
    return NULL;
  if (kind == DOC_KEY_SET)
    return gst_session_webhook_key_set_ref (cache->value);
  return gst_session_webhook_ip_ranges_ref (cache->value);
}

static gint64
verifier_now (GstSessionWebhookVerifier * self)
{
  GstSessionWebhookClockFunc func;
  gpointer data;

  GST_OBJECT_LOCK (self);
  func = self->clock_func;
  data = self->clock_data;
  GST_OBJECT_UNLOCK (self);

  if (func)
    return func (data);
  return g_get_real_time () / G_USEC_PER_SEC;
}

/* Seconds since @then; a clock that went back counts as long ago. */
static gint64
elapsed_since (gint64 now, gint64 then)
{
  return now >= then ? now - then : G_MAXINT64;
}

static void
gst_session_webhook_verifier_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSessionWebhookVerifier *self = GST_SESSION_WEBHOOK_VERIFIER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_JWKS_URL:
      g_free (self->jwks_url);
      self->jwks_url = g_value_dup_string (value);
      break;
    case PROP_API_URL:
      g_free (self->api_url);
      self->api_url = g_value_dup_string (value);
      break;
    case PROP_KEY_SET_MAX_AGE:
      self->key_set_max_age = g_value_get_uint (value);
      break;
    case PROP_REFETCH_COOLDOWN:
      self->refetch_cooldown = g_value_get_uint (value);
      break;
    case PROP_IP_RANGES_MAX_AGE:
      self->ip_ranges_max_age = g_value_get_uint (value);
      break;
    case PROP_LEEWAY:
      self->leeway = g_value_get_uint (value);
      break;
    case PROP_MAX_BODY_SIZE:
      self->max_body_size = g_value_get_uint (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_ALLOW_INSECURE_HTTP:
      self->allow_insecure_http = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_webhook_verifier_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSessionWebhookVerifier *self = GST_SESSION_WEBHOOK_VERIFIER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_JWKS_URL:
      g_value_set_string (value, self->jwks_url);
      break;
    case PROP_API_URL:
      g_value_set_string (value, self->api_url);
      break;
    case PROP_KEY_SET_MAX_AGE:
      g_value_set_uint (value, self->key_set_max_age);
      break;
    case PROP_REFETCH_COOLDOWN:
      g_value_set_uint (value, self->refetch_cooldown);
      break;
    case PROP_IP_RANGES_MAX_AGE:
      g_value_set_uint (value, self->ip_ranges_max_age);
      break;
    case PROP_LEEWAY:
      g_value_set_uint (value, self->leeway);
      break;
    case PROP_MAX_BODY_SIZE:
      g_value_set_uint (value, self->max_body_size);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_ALLOW_INSECURE_HTTP:
      g_value_set_boolean (value, self->allow_insecure_http);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_webhook_verifier_finalize (GObject * object)
{
  GstSessionWebhookVerifier *self = GST_SESSION_WEBHOOK_VERIFIER (object);
  guint i;

  for (i = 0; i < N_DOCS; i++) {
    cache_clear_value (&self->caches[i], i);
    g_free (self->caches[i].failure);
    /* every waiting job holds a reference on the verifier: none is left */
    g_array_unref (self->caches[i].waiters);
  }
  g_free (self->jwks_url);
  g_free (self->api_url);
  g_clear_object (&self->session);
  if (self->clock_notify)
    self->clock_notify (self->clock_data);

  G_OBJECT_CLASS (gst_session_webhook_verifier_parent_class)->finalize (object);
}

static void
gst_session_webhook_verifier_class_init (GstSessionWebhookVerifierClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gst_session_init ();

  gobject_class->set_property = gst_session_webhook_verifier_set_property;
  gobject_class->get_property = gst_session_webhook_verifier_get_property;
  gobject_class->finalize = gst_session_webhook_verifier_finalize;

  /**
   * GstSessionWebhookVerifier:jwks-url:
   *
   * Where the key set is fetched from (`{jwks_url}` of spec 001, http or
   * https; redirects are not followed). Unset: the key set is only what
   * gst_session_webhook_verifier_set_key_set() gave.
   */
  g_object_class_install_property (gobject_class, PROP_JWKS_URL,
      g_param_spec_string ("jwks-url", "JWKS URL",
          "Where the webhook key set is fetched from", DEFAULT_JWKS_URL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:api-url:
   *
   * The API base URL (`{api_url}`). When set, deliveries whose source
   * address is given are only accepted from the `webhook_ip_ranges` of
   * `GET {api_url}/v1/meta`. Unset: sources are not checked.
   */
  g_object_class_install_property (gobject_class, PROP_API_URL,
      g_param_spec_string ("api-url", "API URL",
          "Base URL of the metadata holding webhook_ip_ranges (unset: "
          "sources are not checked)", DEFAULT_API_URL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:key-set-max-age:
   *
   * The longest a fetched key set is used, in seconds; spec 001 allows at
   * most 24 hours. An older key set is fetched again before use and is not
   * used when that fails.
   */
  g_object_class_install_property (gobject_class, PROP_KEY_SET_MAX_AGE,
      g_param_spec_uint ("key-set-max-age", "Key set max age",
          "Longest use of a fetched key set, in seconds", 1,
          GST_SESSION_WEBHOOK_KEY_SET_MAX_AGE, DEFAULT_KEY_SET_MAX_AGE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:refetch-cooldown:
   *
   * When no cached key verifies a delivery, the key set is fetched again
   * once (the keys may have rotated), but not within this many seconds of
   * the last fetch, so a flood of bad signatures does not hammer the key
   * host. The same wait applies after a failed fetch.
   */
  g_object_class_install_property (gobject_class, PROP_REFETCH_COOLDOWN,
      g_param_spec_uint ("refetch-cooldown", "Refetch cooldown",
          "Shortest time between fetches caused by deliveries, in seconds",
          0, G_MAXUINT, DEFAULT_REFETCH_COOLDOWN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:ip-ranges-max-age:
   *
   * How long fetched IP ranges are used before they are fetched again, in
   * seconds. When that fetch fails, the old ranges stay in use.
   */
  g_object_class_install_property (gobject_class, PROP_IP_RANGES_MAX_AGE,
      g_param_spec_uint ("ip-ranges-max-age", "IP ranges max age",
          "Refresh period of the webhook IP ranges, in seconds", 1,
          G_MAXUINT, DEFAULT_IP_RANGES_MAX_AGE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:leeway:
   *
   * The allowed difference between a delivery's timestamp and the clock,
   * in seconds. Spec 001 fixes it at 300; other values are for tests.
   */
  g_object_class_install_property (gobject_class, PROP_LEEWAY,
      g_param_spec_uint ("leeway", "Leeway",
          "Allowed clock difference in seconds (spec: 300; for tests)", 0,
          G_MAXUINT, DEFAULT_LEEWAY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:max-body-size:
   *
   * The largest delivery body verified, in bytes; a larger one gives
   * %GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE. A receiver should stop
   * reading a body at this size too.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_BODY_SIZE,
      g_param_spec_uint ("max-body-size", "Max body size",
          "Largest delivery body, in bytes", 0, G_MAXUINT,
          DEFAULT_MAX_BODY_SIZE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:timeout:
   *
   * The longest one fetch of the key set or the metadata may take,
   * connecting included, in milliseconds; 0 waits forever.
   */
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Longest fetch of the key set or metadata, in milliseconds "
          "(0 = forever)", 0, G_MAXUINT, DEFAULT_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:allow-insecure-http:
   *
   * Fetch the key set and the metadata over plain http from any host.
   * Without it, plain http is refused except to a loopback host (see
   * gst_session_webhook_url_allowed()): on any other path, whoever sits on
   * it could substitute the key set.
   */
  g_object_class_install_property (gobject_class, PROP_ALLOW_INSECURE_HTTP,
      g_param_spec_boolean ("allow-insecure-http", "Allow insecure http",
          "Fetch the key set and metadata over plain http from any host",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
gst_session_webhook_verifier_init (GstSessionWebhookVerifier * self)
{
  guint i;

  self->jwks_url = g_strdup (DEFAULT_JWKS_URL);
  self->api_url = g_strdup (DEFAULT_API_URL);
  self->key_set_max_age = DEFAULT_KEY_SET_MAX_AGE;
  self->refetch_cooldown = DEFAULT_REFETCH_COOLDOWN;
  self->ip_ranges_max_age = DEFAULT_IP_RANGES_MAX_AGE;
  self->leeway = DEFAULT_LEEWAY;
  self->max_body_size = DEFAULT_MAX_BODY_SIZE;
  self->timeout = DEFAULT_TIMEOUT;
  for (i = 0; i < N_DOCS; i++)
    self->caches[i].waiters = g_array_new (FALSE, FALSE, sizeof (Waiter));
}

/**
 * gst_session_webhook_verifier_new:
 * @jwks_url: (nullable): where the key set is fetched from.
 *
 * Returns: (transfer full): a new verifier.
 */
GstSessionWebhookVerifier *
gst_session_webhook_verifier_new (const gchar * jwks_url)
{
  return g_object_new (GST_SESSION_TYPE_WEBHOOK_VERIFIER, "jwks-url",
      jwks_url, NULL);
}

/**
 * gst_session_webhook_verifier_set_clock_func:
 * @verifier: a verifier.
 * @func: (nullable) (scope notified): the clock, or %NULL for the real
 *   time.
 * @user_data: data for @func.
 * @notify: (nullable): frees @user_data.
 *
 * Replaces the clock the verifier compares timestamps with and ages its
 * caches by. For tests; set it before the verifier is used.
 */
void
gst_session_webhook_verifier_set_clock_func (GstSessionWebhookVerifier *
    verifier, GstSessionWebhookClockFunc func, gpointer user_data,
    GDestroyNotify notify)
{
  GDestroyNotify old_notify;
  gpointer old_data;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));

  GST_OBJECT_LOCK (verifier);
  old_notify = verifier->clock_notify;
  old_data = verifier->clock_data;
  verifier->clock_func = func;
  verifier->clock_data = user_data;
  verifier->clock_notify = notify;
  GST_OBJECT_UNLOCK (verifier);

  if (old_notify)
    old_notify (old_data);
}

/**
 * gst_session_webhook_verifier_set_key_set:
 * @verifier: a verifier.
 * @keys: (nullable): a key set, or %NULL to forget the cached one.
 *
 * Puts @keys in the cache as if it had just been fetched: it is used for
 * #GstSessionWebhookVerifier:key-set-max-age. With a
 * #GstSessionWebhookVerifier:jwks-url, a delivery no key of @keys verifies
 * still causes a fetch (at once when nothing was fetched yet, else after
 * the cooldown). Without one, @keys is all the verifier has: pinned keys
 * for offline checks.
 */
void
gst_session_webhook_verifier_set_key_set (GstSessionWebhookVerifier *
    verifier, GstSessionWebhookKeySet * keys)
{
  gint64 now;
  Cache *cache;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));

  now = verifier_now (verifier);
  GST_OBJECT_LOCK (verifier);
  cache = &verifier->caches[DOC_KEY_SET];
  cache_clear_value (cache, DOC_KEY_SET);
  if (keys)
    cache->value = gst_session_webhook_key_set_ref (keys);
  cache->stored_at = now;
  GST_OBJECT_UNLOCK (verifier);
}

/**
 * gst_session_webhook_verifier_get_key_set:
 * @verifier: a verifier.
 *
 * Returns: (transfer full) (nullable): the cached key set, however old, or
 *   %NULL.
 */
GstSessionWebhookKeySet *
gst_session_webhook_verifier_get_key_set (GstSessionWebhookVerifier * verifier)
{
  GstSessionWebhookKeySet *keys;

  g_return_val_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier), NULL);

  GST_OBJECT_LOCK (verifier);
  keys = cache_ref_value (&verifier->caches[DOC_KEY_SET], DOC_KEY_SET);
  GST_OBJECT_UNLOCK (verifier);
  return keys;
}

/**
 * gst_session_webhook_verifier_get_ip_ranges:
 * @verifier: a verifier.
 *
 * Returns: (transfer full) (nullable): the cached IP ranges, however old,
 *   or %NULL.
 */
GstSessionWebhookIpRanges *
gst_session_webhook_verifier_get_ip_ranges (GstSessionWebhookVerifier *
    verifier)
{
  GstSessionWebhookIpRanges *ranges;

  g_return_val_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier), NULL);

  GST_OBJECT_LOCK (verifier);
  ranges = cache_ref_value (&verifier->caches[DOC_IP_RANGES], DOC_IP_RANGES);
  GST_OBJECT_UNLOCK (verifier);
  return ranges;
}

/* ---------------------------------------------------------------------- */
/* Fetching the key set and the metadata                                  */

/* One fetch of a document, from fetch_start() to fetch_finish(), in the
 * thread-default context of the job that started it, through
 * gst_session_http_fetch_async() on the verifier's session. Holds a
 * reference on the verifier. */
typedef struct
{
  GstSessionWebhookVerifier *self;
  DocKind kind;
  gchar *url;                   /* for texts: no user info, no query */
  guint timeout;
} Fetch;

/* Ends @f: stores @value (taken) or the failure @error (taken), resumes the
 * jobs that waited, frees @f. */
static void
fetch_finish (Fetch * f, gpointer value, GError * error)
{
  GstSessionWebhookVerifier *self = f->self;
  Cache *cache = &self->caches[f->kind];
  gchar *failure = NULL;
  gint64 now = verifier_now (self);
  GArray *waiters;
  guint i;

  if (value == NULL) {
    /* a timeout says "no answer within <timeout> ms" */
    failure = g_strdup_printf ("The %s could not be fetched from %s: %s",
        doc_names[f->kind], f->url, error ? error->message : "failed");
    GST_WARNING_OBJECT (self, "%s", failure);
  } else {
    GST_INFO_OBJECT (self, "%s fetched from %s", doc_names[f->kind], f->url);
  }

  GST_OBJECT_LOCK (self);
  cache->fetching = FALSE;
  if (value) {
    cache_clear_value (cache, f->kind);
    cache->value = value;
    cache->stored_at = now;
    g_clear_pointer (&cache->failure, g_free);
  } else {
    g_free (cache->failure);
    cache->failure = failure;
    failure = NULL;
  }
  waiters = cache->waiters;
  cache->waiters = g_array_new (FALSE, FALSE, sizeof (Waiter));
  GST_OBJECT_UNLOCK (self);

  g_clear_error (&error);
  g_free (f->url);
  g_free (f);

  for (i = 0; i < waiters->len; i++) {
    Waiter *w = &g_array_index (waiters, Waiter, i);

    w->resume (w->task);
  }
  g_array_unref (waiters);
  gst_object_unref (self);
}

static void
on_fetched (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Fetch *f = user_data;
  GError *error = NULL;
  gpointer value = NULL;
  const gchar *data;
  GBytes *body;
  gsize length;
  guint status;

  body = gst_session_http_fetch_finish (SOUP_SESSION (source), res, &status,
      NULL, &error);
  if (body == NULL) {
    fetch_finish (f, NULL, error);
    return;
  }
  if (!SOUP_STATUS_IS_SUCCESSFUL (status)) {
    const gchar *phrase = soup_status_get_phrase (status);

    g_bytes_unref (body);
    fetch_finish (f, NULL, g_error_new (GST_SESSION_ERROR,
            GST_SESSION_ERROR_HTTP, "HTTP %u%s%s", status, phrase ? " " : "",
            phrase ? phrase : ""));
    return;
  }
  data = g_bytes_get_data (body, &length);
  if (data == NULL)
    data = "";
  if (f->kind == DOC_KEY_SET)
    value = gst_session_webhook_key_set_parse (data, length, &error);
  else
    value = gst_session_webhook_ip_ranges_parse (data, length, &error);
  g_bytes_unref (body);
  fetch_finish (f, value, error);
}

/* Starts fetching @kind from @url (taken), in the thread-default context.
 * The caller has set the cache's `fetching` under the lock. */
static void
fetch_start (GstSessionWebhookVerifier * self, DocKind kind, gchar * url,
    guint timeout)
{
  Fetch *f = g_new0 (Fetch, 1);
  GError *error = NULL;
  SoupSession *session;
  SoupMessage *msg = NULL;
  GUri *uri;

  f->self = gst_object_ref (self);
  f->kind = kind;
  f->timeout = timeout;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri && gst_session_webhook_url_allowed (url, self->allow_insecure_http,
          &error))
    /* the document is trusted for being at this URL: no redirects */
    msg = gst_session_http_request_new_from_uri (SOUP_METHOD_GET, uri,
        "application/json", NULL, NULL, TRUE, NULL);
  g_free (url);
  if (msg == NULL) {
    f->url = g_strdup ("its URL");
    if (error == NULL)
      g_set_error_literal (&error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT, "not an http or https URL");
    g_clear_pointer (&uri, g_uri_unref);
    fetch_finish (f, NULL, error);
    return;
  }
  f->url = gst_session_http_safe_url (uri, TRUE);
  g_uri_unref (uri);
  GST_INFO_OBJECT (self, "fetching the %s from %s", doc_names[kind], f->url);

  GST_OBJECT_LOCK (self);
  if (self->session == NULL)
    self->session = gst_session_http_session_new ();
  session = g_object_ref (self->session);
  GST_OBJECT_UNLOCK (self);

  gst_session_http_fetch_async (session, msg, timeout,
      kind == DOC_KEY_SET ? GST_SESSION_WEBHOOK_KEY_SET_MAX_SIZE :
      GST_SESSION_WEBHOOK_META_MAX_SIZE, 0, NULL, on_fetched, f);
  g_object_unref (msg);
  g_object_unref (session);
}

/* ---------------------------------------------------------------------- */
/* Jobs waiting for fetches                                               */

/* With the lock held: the URL of @kind, or NULL when none is set. */
static gchar *
doc_url_locked (GstSessionWebhookVerifier * self, DocKind kind)
{
  gchar *base, *url;
  gsize n;

  if (kind == DOC_KEY_SET)
    return self->jwks_url && *self->jwks_url ? g_strdup (self->jwks_url) : NULL;
  if (self->api_url == NULL || *self->api_url == '\0')
    return NULL;
  base = g_strdup (self->api_url);
  for (n = strlen (base); n > 0 && base[n - 1] == '/'; n--)
    base[n - 1] = '\0';
  url = g_strconcat (base, "/v1/meta", NULL);
  g_free (base);
  return url;
}

/* With the lock held: makes @task wait for a fetch of @kind, joining the
 * running one or starting one. A new fetch is not started when there is
 * no URL, nor (unless @force) within the cooldown after a failed fetch.
 * Returns FALSE when the task does not wait. When *@start_url is set, the
 * caller calls fetch_start() with it after unlocking. */
static gboolean
cache_wait_locked (GstSessionWebhookVerifier * self, DocKind kind,
    gint64 now, gboolean force, GTask * task, void (*resume) (GTask * task),
    gchar ** start_url, guint * timeout)
{
  Cache *cache = &self->caches[kind];
  Waiter w;

  *start_url = NULL;
  *timeout = self->timeout;
  if (!cache->fetching) {
    gchar *url = doc_url_locked (self, kind);

    if (url == NULL)
      return FALSE;
    if (!force && cache->attempted && cache->failure
        && elapsed_since (now, cache->attempted_at) < self->refetch_cooldown) {
      GST_DEBUG_OBJECT (self, "not fetching the %s: the last fetch failed "
          "less than %u s ago", doc_names[kind], self->refetch_cooldown);
      g_free (url);
      return FALSE;
    }
    cache->fetching = TRUE;
    cache->attempted = TRUE;
    cache->attempted_at = now;
    *start_url = url;
  }
  w.resume = resume;
  w.task = task;
  g_array_append_val (cache->waiters, w);
  return TRUE;
}

/* With the lock held: a fetch of the key set caused by a delivery no key
 * verified is allowed, or one is running. */
static gboolean
refetch_allowed_locked (GstSessionWebhookVerifier * self, gint64 now)
{
  Cache *cache = &self->caches[DOC_KEY_SET];

  return cache->fetching || !cache->attempted ||
      elapsed_since (now, cache->attempted_at) >= self->refetch_cooldown;
}

typedef struct
{
  /* the verdict reached from the headers alone, or NULL */
  GstSessionWebhookVerification *early;
  SignedDelivery d;
  /* NULL once checked */
  GInetAddress *source;
  gboolean waited_ranges;
  gboolean waited_keys;
  gboolean refetched;
  /* the refetch failed: why */
  gchar *refetch_failure;
} VerifyJob;

static void
verify_job_free (gpointer data)
{
  VerifyJob *job = data;

  gst_session_webhook_verification_free (job->early);
  signed_delivery_clear (&job->d);
  g_clear_object (&job->source);
  g_free (job->refetch_failure);
  g_free (job);
}

static void verify_job_run (GTask * task);

static void
verify_job_resume_ranges (GTask * task)
{
  VerifyJob *job = g_task_get_task_data (task);

  job->waited_ranges = TRUE;
  verify_job_run (task);
}

static void
verify_job_resume_keys (GTask * task)
{
  VerifyJob *job = g_task_get_task_data (task);

  job->waited_keys = TRUE;
  verify_job_run (task);
}

static void
verify_job_resume_refetch (GTask * task)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);

  job->waited_keys = TRUE;
  job->refetched = TRUE;
  GST_OBJECT_LOCK (self);
  job->refetch_failure = g_strdup (self->caches[DOC_KEY_SET].failure);
  GST_OBJECT_UNLOCK (self);
  verify_job_run (task);
}

static void
verify_job_return (GTask * task, GstSessionWebhookVerification * v)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);

  v->refetched = job->refetched;
  GST_DEBUG_OBJECT (self, "webhook delivery: %s%s", v->text,
      v->refetched ? " (key set fetched again)" : "");
  g_task_return_pointer (task, v,
      (GDestroyNotify) gst_session_webhook_verification_free);
  g_object_unref (task);
}

typedef enum
{
  STEP_PASSED,
  STEP_WAITING,
  STEP_DONE,
} StepResult;

/* The source allowlist, when an api-url is set and the source is known.
 * Old ranges are used when fetching them again fails. */
static StepResult
verify_job_check_source (GTask * task, gint64 now,
    GstSessionWebhookVerification ** v)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);
  Cache *cache = &self->caches[DOC_IP_RANGES];
  GstSessionWebhookIpRanges *ranges;
  gchar *url, *failure, *address;
  gboolean fresh, allowed;
  guint timeout;

  if (job->source == NULL)
    return STEP_PASSED;

  GST_OBJECT_LOCK (self);
  if (self->api_url == NULL || *self->api_url == '\0') {
    GST_OBJECT_UNLOCK (self);
    g_clear_object (&job->source);
    return STEP_PASSED;
  }
  fresh = cache->value && elapsed_since (now, cache->stored_at) <=
      self->ip_ranges_max_age;
  if (!fresh && !job->waited_ranges && cache_wait_locked (self,
          DOC_IP_RANGES, now, FALSE, task, verify_job_resume_ranges, &url,
          &timeout)) {
    GST_OBJECT_UNLOCK (self);
    if (url)
      fetch_start (self, DOC_IP_RANGES, url, timeout);
    return STEP_WAITING;
  }
  ranges = cache_ref_value (cache, DOC_IP_RANGES);
  failure = g_strdup (cache->failure);
  GST_OBJECT_UNLOCK (self);

  if (ranges == NULL) {
    *v = verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL,
        "%s", failure ? failure : "The webhook IP ranges are not known");
    g_free (failure);
    return STEP_DONE;
  }
  g_free (failure);
  allowed = gst_session_webhook_ip_ranges_contains (ranges, job->source);
  gst_session_webhook_ip_ranges_unref (ranges);
  if (!allowed) {
    address = g_inet_address_to_string (job->source);
    *v = verification_new (GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED,
        NULL, "The delivery comes from %s, outside the webhook IP ranges",
        address);
    g_free (address);
    return STEP_DONE;
  }
  g_clear_object (&job->source);
  return STEP_PASSED;
}

/* A key set no older than key-set-max-age, fetched first when needed. */
static StepResult
verify_job_get_keys (GTask * task, gint64 now, GstSessionWebhookKeySet **
    keys, GstSessionWebhookVerification ** v)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);
  Cache *cache = &self->caches[DOC_KEY_SET];
  gchar *url, *failure;
  gboolean fresh, have_url, had_value;
  guint timeout, max_age;
  gint64 age;

  GST_OBJECT_LOCK (self);
  max_age = self->key_set_max_age;
  age = elapsed_since (now, cache->stored_at);
  fresh = cache->value && age <= max_age;
  if (!fresh && !job->waited_keys && cache_wait_locked (self, DOC_KEY_SET,
          now, FALSE, task, verify_job_resume_keys, &url, &timeout)) {
    GST_OBJECT_UNLOCK (self);
    if (url)
      fetch_start (self, DOC_KEY_SET, url, timeout);
    return STEP_WAITING;
  }
  *keys = fresh ? cache_ref_value (cache, DOC_KEY_SET) : NULL;
  failure = g_strdup (cache->failure);
  have_url = self->jwks_url && *self->jwks_url;
  had_value = cache->value != NULL;
  GST_OBJECT_UNLOCK (self);

  if (*keys) {
    g_free (failure);
    return STEP_PASSED;
  }
  if (failure)
    *v = verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL, "%s",
        failure);
  else if (!have_url && had_value)
    *v = verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEYS, NULL,
        "The key set is older than %u s and no JWKS URL is set", max_age);
  else if (!have_url)
    *v = verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEYS, NULL,
        "There is no key set and no JWKS URL is set");
  else
    *v = verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL,
        "The key set could not be fetched");
  g_free (failure);
  return STEP_DONE;
}

static void
verify_job_run (GTask * task)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);
  GstSessionWebhookVerification *v = NULL;
  GstSessionWebhookKeySet *keys = NULL;
  gchar *url;
  guint timeout;
  gint64 now;

  if (g_task_return_error_if_cancelled (task)) {
    g_object_unref (task);
    return;
  }
  now = verifier_now (self);

  /* 1. where it comes from; 2. its headers; 3. the keys */
  switch (verify_job_check_source (task, now, &v)) {
    case STEP_WAITING:
      return;
    case STEP_DONE:
      verify_job_return (task, v);
      return;
    default:
      break;
  }
  if (job->early) {
    v = job->early;
    job->early = NULL;
    verify_job_return (task, v);
    return;
  }
  switch (verify_job_get_keys (task, now, &keys, &v)) {
    case STEP_WAITING:
      return;
    case STEP_DONE:
      verify_job_return (task, v);
      return;
    default:
      break;
  }

  v = signed_delivery_verify (&job->d, keys);
  gst_session_webhook_key_set_unref (keys);

  /* 4. the keys may have rotated: fetch them once more */
  if (v->result == GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED
      && !job->waited_keys) {
    GST_OBJECT_LOCK (self);
    if (refetch_allowed_locked (self, now) && cache_wait_locked (self,
            DOC_KEY_SET, now, TRUE, task, verify_job_resume_refetch, &url,
            &timeout)) {
      GST_OBJECT_UNLOCK (self);
      GST_INFO_OBJECT (self, "no cached key verifies a delivery: fetching "
          "the key set again");
      gst_session_webhook_verification_free (v);
      if (url)
        fetch_start (self, DOC_KEY_SET, url, timeout);
      return;
    }
    GST_OBJECT_UNLOCK (self);
  }
  if (v->result == GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED
      && job->refetch_failure) {
    gst_session_webhook_verification_free (v);
    v = verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL,
        "No cached key verifies the signature, and fetching the key set "
        "again failed: %s", job->refetch_failure);
  }
  verify_job_return (task, v);
}

/**
 * gst_session_webhook_verifier_verify_async:
 * @verifier: a verifier.
 * @headers: the request headers of the delivery.
 * @body: (nullable) (array length=body_length) (element-type guint8): the
 *   raw request body, as received; it is not kept after this call returns.
 * @body_length: the length of @body in bytes.
 * @source: (nullable): the address the delivery came from, or %NULL to
 *   skip the source check.
 * @cancellable: (nullable): a #GCancellable.
 * @callback: called with the verdict, from the thread-default
 *   #GMainContext of this call.
 * @user_data: data for @callback.
 *
 * Verifies one delivery, in this order:
 *
 * 1. a body over #GstSessionWebhookVerifier:max-body-size gives
 *    %GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE;
 * 2. with #GstSessionWebhookVerifier:api-url set and @source given, the
 *    source must be in the `webhook_ip_ranges` of the metadata, fetched
 *    when missing or older than #GstSessionWebhookVerifier:ip-ranges-max-age;
 * 3. the headers, as gst_session_webhook_verify() checks them, against the
 *    verifier's clock and #GstSessionWebhookVerifier:leeway;
 * 4. the signature, with the cached key set, fetched first when missing or
 *    older than #GstSessionWebhookVerifier:key-set-max-age;
 * 5. when no cached key verifies it, the key set is fetched once more (the
 *    keys may have rotated) unless the last fetch is less than
 *    #GstSessionWebhookVerifier:refetch-cooldown old, and the signature is
 *    checked again.
 *
 * Concurrent verifications share one fetch. When the key set (or the
 * ranges) cannot be fetched, the verdict is
 * %GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, whose text says why; after a
 * failed fetch, deliveries get that verdict without a new fetch for the
 * cooldown. A fetch runs in the thread-default context of the call that
 * started it, which must keep running for every verification that waits
 * for it.
 */
void
gst_session_webhook_verifier_verify_async (GstSessionWebhookVerifier *
    verifier, SoupMessageHeaders * headers, const guint8 * body,
    gsize body_length, GInetAddress * source, GCancellable * cancellable,
    GAsyncReadyCallback callback, gpointer user_data)
{
  HeaderScan scan = { {NULL}, {0} };
  VerifyJob *job;
  GTask *task;
  guint leeway, max_body_size;
  gint64 now;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));
  g_return_if_fail (headers != NULL);
  g_return_if_fail (body != NULL || body_length == 0);
  g_return_if_fail (source == NULL || G_IS_INET_ADDRESS (source));

  task = g_task_new (verifier, cancellable, callback, user_data);
  g_task_set_source_tag (task, gst_session_webhook_verifier_verify_async);
  job = g_new0 (VerifyJob, 1);
  g_task_set_task_data (task, job, verify_job_free);

  GST_OBJECT_LOCK (verifier);
  leeway = verifier->leeway;
  max_body_size = verifier->max_body_size;
  GST_OBJECT_UNLOCK (verifier);

  if (body_length > max_body_size) {
    verify_job_return (task,
        verification_new (GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE, NULL,
            "The delivery body is %" G_GSIZE_FORMAT " bytes, more than the "
            "%u allowed", body_length, max_body_size));
    return;
  }

  now = verifier_now (verifier);
  soup_message_headers_foreach (headers, scan_header, &scan);
  job->early = signed_delivery_read (&job->d, scan.values, scan.counts, body,
      body_length, now, leeway);
  if (source)
    job->source = g_object_ref (source);
  verify_job_run (task);
}

/**
 * gst_session_webhook_verifier_verify_finish:
 * @verifier: a verifier.
 * @result: the result given to the callback.
 * @error: return location for a #GError, or %NULL.
 *
 * Returns: (transfer full) (nullable): the verdict, or %NULL with @error
 *   set only when the verification was cancelled.
 */
GstSessionWebhookVerification *
gst_session_webhook_verifier_verify_finish (GstSessionWebhookVerifier *
    verifier, GAsyncResult * result, GError ** error)
{
  g_return_val_if_fail (g_task_is_valid (result, verifier), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sync_done (GObject * source, GAsyncResult * res, gpointer user_data)
{
  GAsyncResult **result = user_data;

  *result = g_object_ref (res);
}

/* Runs a private context until *@result is set. */
static void
sync_wait (GMainContext * context, GAsyncResult ** result)
{
  while (*result == NULL)
    g_main_context_iteration (context, TRUE);
}

/**
 * gst_session_webhook_verifier_verify_sync:
 * @verifier: a verifier.
 * @headers: the request headers of the delivery.
 * @body: (nullable) (array length=body_length) (element-type guint8): the
 *   raw request body.
 * @body_length: the length of @body in bytes.
 * @source: (nullable): the address the delivery came from, or %NULL.
 * @cancellable: (nullable): a #GCancellable.
 * @error: return location for a #GError, or %NULL.
 *
 * gst_session_webhook_verifier_verify_async(), waiting for the verdict in
 * a private #GMainContext; for command-line tools. Do not call it while
 * an asynchronous call of the same verifier started from this thread is
 * fetching: that fetch needs this thread's context to run.
 *
 * Returns: (transfer full) (nullable): the verdict, or %NULL with @error
 *   set when cancelled.
 */
GstSessionWebhookVerification *
gst_session_webhook_verifier_verify_sync (GstSessionWebhookVerifier *
    verifier, SoupMessageHeaders * headers, const guint8 * body,
    gsize body_length, GInetAddress * source, GCancellable * cancellable,
    GError ** error)
{
  GMainContext *context = g_main_context_new ();
  GAsyncResult *result = NULL;
  GstSessionWebhookVerification *v;

  g_main_context_push_thread_default (context);
  gst_session_webhook_verifier_verify_async (verifier, headers, body,
      body_length, source, cancellable, sync_done, &result);
  sync_wait (context, &result);
  g_main_context_pop_thread_default (context);

  v = gst_session_webhook_verifier_verify_finish (verifier, result, error);
  g_object_unref (result);
  g_main_context_unref (context);
  return v;
}

typedef struct
{
  guint pending;
  GString *failures;
} RefreshJob;

static void
refresh_job_free (gpointer data)
{
  RefreshJob *job = data;

  g_string_free (job->failures, TRUE);
  g_free (job);
}

static void
refresh_job_resume (GTask * task, DocKind kind)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  RefreshJob *job = g_task_get_task_data (task);

  GST_OBJECT_LOCK (self);
  if (self->caches[kind].failure) {
    if (job->failures->len)
      g_string_append (job->failures, "; ");
    g_string_append (job->failures, self->caches[kind].failure);
  }
  GST_OBJECT_UNLOCK (self);

  if (--job->pending > 0) {
    g_object_unref (task);
    return;
  }
  if (job->failures->len)
    g_task_return_new_error (task, GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP,
        "%s", job->failures->str);
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
refresh_job_resume_keys (GTask * task)
{
  refresh_job_resume (task, DOC_KEY_SET);
}

static void
refresh_job_resume_ranges (GTask * task)
{
  refresh_job_resume (task, DOC_IP_RANGES);
}

/**
 * gst_session_webhook_verifier_refresh_async:
 * @verifier: a verifier.
 * @cancellable: (nullable): a #GCancellable; cancelling does not stop the
 *   fetches, which other verifications may share.
 * @callback: called when the fetches are over, from the thread-default
 *   #GMainContext of this call.
 * @user_data: data for @callback.
 *
 * Fetches the key set now, and the IP ranges when
 * #GstSessionWebhookVerifier:api-url is set, whatever the age of the
 * cached ones and without a cooldown (a fetch that is already running is
 * joined). For a receiver to fail early at start-up.
 */
void
gst_session_webhook_verifier_refresh_async (GstSessionWebhookVerifier *
    verifier, GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data)
{
  void (*resume[N_DOCS]) (GTask * task) = {
    refresh_job_resume_keys, refresh_job_resume_ranges
  };
  gchar *urls[N_DOCS] = { NULL, NULL };
  guint timeout = 0, i;
  gint64 now;
  RefreshJob *job;
  GTask *task;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));

  task = g_task_new (verifier, cancellable, callback, user_data);
  g_task_set_source_tag (task, gst_session_webhook_verifier_refresh_async);
  job = g_new0 (RefreshJob, 1);
  job->failures = g_string_new (NULL);
  g_task_set_task_data (task, job, refresh_job_free);

  now = verifier_now (verifier);
  GST_OBJECT_LOCK (verifier);
  for (i = 0; i < N_DOCS; i++) {
    if (cache_wait_locked (verifier, i, now, TRUE, task, resume[i], &urls[i],
            &timeout)) {
      job->pending++;
      g_object_ref (task);
    }
  }
  GST_OBJECT_UNLOCK (verifier);

  if (job->pending == 0)
    g_task_return_new_error (task, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT, "No JWKS URL is set");
  for (i = 0; i < N_DOCS; i++) {
    if (urls[i])
      fetch_start (verifier, i, urls[i], timeout);
  }
  g_object_unref (task);
}

/**
 * gst_session_webhook_verifier_refresh_finish:
 * @verifier: a verifier.
 * @result: the result given to the callback.
 * @error: return location for a #GError, or %NULL.
 *
 * Returns: %TRUE when every document was fetched and is usable; %FALSE
 *   with @error set (saying which and why) otherwise.
 */
gboolean
gst_session_webhook_verifier_refresh_finish (GstSessionWebhookVerifier *
    verifier, GAsyncResult * result, GError ** error)
{
  g_return_val_if_fail (g_task_is_valid (result, verifier), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * gst_session_webhook_verifier_refresh_sync:
 * @verifier: a verifier.
 * @cancellable: (nullable): a #GCancellable.
 * @error: return location for a #GError, or %NULL.
 *
 * gst_session_webhook_verifier_refresh_async(), waiting in a private
 * #GMainContext; for command-line tools (see
 * gst_session_webhook_verifier_verify_sync() for the one caveat).
 *
 * Returns: %TRUE when every document was fetched and is usable.
 */
gboolean
gst_session_webhook_verifier_refresh_sync (GstSessionWebhookVerifier *
    verifier, GCancellable * cancellable, GError ** error)
{
  GMainContext *context = g_main_context_new ();
  GAsyncResult *result = NULL;
  gboolean ok;

  g_main_context_push_thread_default (context);
  gst_session_webhook_verifier_refresh_async (verifier, cancellable,
      sync_done, &result);
  sync_wait (context, &result);
  g_main_context_pop_thread_default (context);

  ok = gst_session_webhook_verifier_refresh_finish (verifier, result, error);
  g_object_unref (result);
  g_main_context_unref (context);
  return ok;
}
