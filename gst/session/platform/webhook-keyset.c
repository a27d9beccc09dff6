/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The Ed25519 key set of a JWKS document (GstSessionWebhookKeySet).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <nettle/eddsa.h>

#include <gst/session/sessioninit.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"
#include "webhook.h"
#include <nettle/base64.h>

#include "webhook-private.h"

/* ---------------------------------------------------------------------- */
/* Key set                                                                */
/* ---------------------------------------------------------------------- */

G_DEFINE_BOXED_TYPE (GstSessionWebhookKeySet, gst_session_webhook_key_set,
    gst_session_webhook_key_set_ref, gst_session_webhook_key_set_unref);

/* Decodes base64url (RFC 4648 section 5) with or without its `=` padding
 * into at most @max bytes of @out. Padding, when present, must be complete.
 * Returns the decoded length, -1 when @text is not base64url, or -2 when it
 * decodes to more than @max bytes. nettle decodes; what it would let pass
 * is refused first: characters outside the alphabet (it skips white
 * space) and a length no padding can complete. */
static gssize
base64url_decode (const gchar * text, guint8 * out, gsize max)
{
  static const gchar alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
      "abcdefghijklmnopqrstuvwxyz0123456789-_";
  struct base64_decode_ctx ctx;
  gsize len = strlen (text), pad = 0, n;
  gchar *padded;
  guint8 *buf;
  gboolean ok;

  while (len > 0 && text[len - 1] == '=') {
    len--;
    pad++;
  }
  if (pad > 2 || (pad > 0 && (len + pad) % 4 != 0) || len % 4 == 1 ||
      strspn (text, alphabet) != len)
    return -1;
  /* 3 bytes per 4 characters, the last group short */
  if (len / 4 * 3 + (len % 4 ? len % 4 - 1 : 0) > max)
    return -2;
  /* nettle wants the padding */
  padded = g_strnfill (len + (4 - len % 4) % 4, '=');
  memcpy (padded, text, len);
  buf = g_malloc (BASE64_DECODE_LENGTH (strlen (padded)) + 1);
  base64url_decode_init (&ctx);
  ok = base64_decode_update (&ctx, &n, buf, strlen (padded), padded) &&
      base64_decode_final (&ctx) && n <= max;
  if (ok)
    memcpy (out, buf, n);
  g_free (buf);
  g_free (padded);
  return ok ? (gssize) n : -1;
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
  kty = webhook_member_string (entry, "kty");
  crv = webhook_member_string (entry, "crv");
  if ((json_object_has_member (entry, "kty") && g_strcmp0 (kty, "OKP") != 0)
      || (json_object_has_member (entry, "crv")
          && g_strcmp0 (crv, "Ed25519") != 0)) {
    g_ptr_array_add (skipped, g_strdup_printf ("key %u: not an Ed25519 key "
            "(kty or crv)", index));
    return;
  }
  x = webhook_member_string (entry, "x");
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

  root = webhook_parse_object ("The key set", data, length,
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
