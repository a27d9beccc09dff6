/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The source IP ranges of /v1/meta (GstSessionWebhookIpRanges).
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
#include "webhook-private.h"

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

  root = webhook_parse_object ("The metadata", data, length,
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
