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
 * #GstSessionWebhookKeySet holds the Ed25519 keys of a JWKS document.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <nettle/eddsa.h>
#include <nettle/sha2.h>

#include "session.h"
#include "session-private.h"
#include "webhook.h"

/* ---------------------------------------------------------------------- */
/* JSON documents: bounded before json-glib (recursive) sees them          */
/* ---------------------------------------------------------------------- */

/* Only brackets outside strings count. */
static gboolean
json_depth_ok (const gchar * text, gsize length, guint max)
{
  gboolean in_string = FALSE, escaped = FALSE;
  guint depth = 0;
  gsize i;

  for (i = 0; i < length; i++) {
    gchar c = text[i];

    if (in_string) {
      if (escaped)
        escaped = FALSE;
      else if (c == '\\')
        escaped = TRUE;
      else if (c == '"')
        in_string = FALSE;
    } else if (c == '"') {
      in_string = TRUE;
    } else if (c == '[' || c == '{') {
      if (++depth > max)
        return FALSE;
    } else if ((c == ']' || c == '}') && depth > 0) {
      depth--;
    }
  }
  return TRUE;
}

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
  if (!json_depth_ok (data, length, GST_SESSION_WEBHOOK_MAX_DEPTH)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%s nests deeper than %d levels", what, GST_SESSION_WEBHOOK_MAX_DEPTH);
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

/* ---------------------------------------------------------------------- */
/* Verification                                                           */
/* ---------------------------------------------------------------------- */

GType
gst_session_webhook_result_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_SESSION_WEBHOOK_RESULT_VALID, "GST_SESSION_WEBHOOK_RESULT_VALID",
        "valid"},
    {GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER,
        "GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER", "missing-header"},
    {GST_SESSION_WEBHOOK_RESULT_BAD_HEADER,
        "GST_SESSION_WEBHOOK_RESULT_BAD_HEADER", "bad-header"},
    {GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP,
        "GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP", "bad-timestamp"},
    {GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP,
        "GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP", "stale-timestamp"},
    {GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP,
        "GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP", "future-timestamp"},
    {GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING,
          "GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING",
        "bad-signature-encoding"},
    {GST_SESSION_WEBHOOK_RESULT_NO_KEYS, "GST_SESSION_WEBHOOK_RESULT_NO_KEYS",
        "no-keys"},
    {GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED,
        "GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED", "no-key-matched"},
    {GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE,
        "GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE", "body-too-large"},
    {GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED,
        "GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED", "source-not-allowed"},
    {GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE,
        "GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE", "unavailable"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstSessionWebhookResult", values);
    g_once_init_leave (&type, t);
  }
  return type;
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
      return SOUP_STATUS_FORBIDDEN;
    default:
      return SOUP_STATUS_UNAUTHORIZED;
  }
}

static GstSessionWebhookVerification *verification_new
    (GstSessionWebhookResult result, const gchar * header,
    const gchar * format, ...) G_GNUC_PRINTF (3, 4);

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
  guint8 digest[SHA256_DIGEST_SIZE];
  gchar hash[2 * SHA256_DIGEST_SIZE + 1];
  struct sha256_ctx sha;
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
  sha256_init (&sha);
  sha256_update (&sha, body_length, body);
  sha256_digest (&sha, sizeof (digest), digest);
  for (i = 0; i < SHA256_DIGEST_SIZE; i++) {
    hash[2 * i] = "0123456789abcdef"[digest[i] >> 4];
    hash[2 * i + 1] = "0123456789abcdef"[digest[i] & 0xf];
  }
  hash[2 * SHA256_DIGEST_SIZE] = '\0';

  /* step 5: four lines joined by a line feed; the headers are UTF-8 */
  d->message = g_strjoin ("\n", values[HEADER_REQUEST_ID],
      values[HEADER_USER_ID], ts_text, hash, NULL);
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
