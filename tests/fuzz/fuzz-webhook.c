/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Webhook deliveries: gst_session_webhook_verify() of the signed headers
 * and body, gst_session_webhook_delivery_parse() of the body, and
 * gst_session_webhook_ip_ranges_parse() of the metadata document.
 *
 * Input: one selector byte. Bit 0 clear: a delivery: header lines
 * `Name: value` up to the first empty line (lines whose name is not an
 * HTTP token are skipped), then the body; it is verified at a fixed time
 * (2026-01-01) with the key set below. Bit 0 set: a metadata document.
 *
 * The seeds of tests/fuzz/corpus/webhook hold deliveries signed with the
 * private key of KEY_X (made with openssl; the key itself is not kept), so
 * the paths past a valid signature are reached.
 *
 * Invariants beyond "no crash": a verification always comes back, with a
 * valid result and a UTF-8 text that never shows the signature; a valid
 * one has the signed ids; gst_session_webhook_verify_values() agrees when
 * each header came once; a parsed delivery keeps the rules of its
 * documentation; IP ranges are within their bound.
 */

#include "fuzz-common.h"

#define KEY_X "Bjvsnk90Hy1ISJFaWvlTwSQyqI1504Q4AWoKGwjrZlw"
#define NOW G_GINT64_CONSTANT (1767225600)

static GstSessionWebhookKeySet *keys;

static const gchar *const signed_headers[] = {
  GST_SESSION_WEBHOOK_HEADER_REQUEST_ID,
  GST_SESSION_WEBHOOK_HEADER_USER_ID,
  GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
  GST_SESSION_WEBHOOK_HEADER_SIGNATURE,
};

static gboolean
is_token (const gchar * s, gsize len)
{
  gsize i;

  if (len == 0)
    return FALSE;
  for (i = 0; i < len; i++) {
    if (s[i] == '\0' || (!g_ascii_isalnum (s[i])
            && !strchr ("!#$%&'*+-.^_`|~", s[i])))
      return FALSE;
  }
  return TRUE;
}

/* Reads header lines into @headers; returns the length of the block with
 * its empty line. */
static gsize
read_headers (const gchar * text, gsize size, SoupMessageHeaders * headers)
{
  gsize pos = 0;

  while (pos < size) {
    const gchar *line = text + pos;
    const gchar *eol = memchr (line, '\n', size - pos);
    gsize len = eol ? (gsize) (eol - line) : size - pos;
    const gchar *colon;

    pos += len + (eol ? 1 : 0);
    if (len > 0 && line[len - 1] == '\r')
      len--;
    if (len == 0)
      break;
    colon = memchr (line, ':', len);
    if (colon && is_token (line, colon - line)) {
      gchar *name = g_strndup (line, colon - line);
      gchar *value = g_strndup (colon + 1, len - (colon + 1 - line));

      /* a value holds no NUL, CR or LF */
      if (strlen (value) == len - (colon + 1 - line) && !strchr (value, '\r'))
        soup_message_headers_append (headers, name, g_strstrip (value));
      g_free (name);
      g_free (value);
    }
  }
  return pos;
}

static gboolean
all_hex (const gchar * s)
{
  for (; *s; s++) {
    if (!g_ascii_isxdigit (*s))
      return FALSE;
  }
  return TRUE;
}

static void
check_utf8 (const gchar * what, const gchar * text)
{
  fuzz_assert (text == NULL || g_utf8_validate (text, -1, NULL),
      "%s is not UTF-8", what);
}

static void
check_delivery (const gchar * body, gsize length, const gchar * request_id)
{
  GstSessionWebhookDelivery *d, *copy;
  GError *error = NULL;
  guint i;

  d = gst_session_webhook_delivery_parse (body, length,
      GST_SESSION_WEBHOOK_MAX_BODY, request_id, &error);
  fuzz_assert ((d == NULL) == (error != NULL), "error set iff no delivery");
  if (error) {
    check_utf8 ("the error", error->message);
    g_clear_error (&error);
    return;
  }
  fuzz_assert (d->request_id != NULL, "no request_id");
  fuzz_assert (request_id == NULL || strcmp (d->request_id, request_id) == 0,
      "request_id differs from the signed one");
  check_utf8 ("request_id", d->request_id);
  check_utf8 ("gateway_request_id", d->gateway_request_id);
  check_utf8 ("error", d->error);
  check_utf8 ("payload_error", d->payload_error);
  fuzz_assert (d->detail != NULL, "detail is NULL");
  fuzz_assert (d->status != GST_SESSION_WEBHOOK_STATUS_ERROR
      || d->error != NULL, "an ERROR without its error");
  fuzz_assert (d->status != GST_SESSION_WEBHOOK_STATUS_OK || d->payload
      || d->payload_error, "an OK with neither payload nor payload_error");
  fuzz_assert (d->payload == NULL || JSON_NODE_HOLDS_OBJECT (d->payload),
      "a payload that is not an object");
  for (i = 0; i < d->detail->len; i++) {
    GstSessionHttpErrorItem *item = g_ptr_array_index (d->detail, i);

    check_utf8 ("type", item->type);
    check_utf8 ("msg", item->msg);
    check_utf8 ("loc", item->loc);
    check_utf8 ("input", item->input);
  }
  copy = gst_session_webhook_delivery_copy (d);
  fuzz_assert (copy && g_strcmp0 (copy->request_id, d->request_id) == 0,
      "copy");
  gst_session_webhook_delivery_free (copy);
  gst_session_webhook_delivery_free (d);
}

static void
fuzz_delivery (const gchar * data, gsize size)
{
  SoupMessageHeaders *headers =
      soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  GstSessionWebhookVerification *v, *w;
  const gchar *values[G_N_ELEMENTS (signed_headers)];
  gboolean once = TRUE;
  gsize consumed, body_length;
  guint8 *body;
  guint i, status;

  consumed = read_headers (data, size, headers);
  body_length = size - consumed;
  body = (guint8 *) fuzz_dup ((const uint8_t *) data + consumed, body_length);

  v = gst_session_webhook_verify (keys, headers, body, body_length, NOW,
      GST_SESSION_WEBHOOK_LEEWAY);
  fuzz_assert (v != NULL, "no verification");
  fuzz_assert (v->result <= GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE,
      "result %d", v->result);
  fuzz_assert (v->text != NULL, "no text");
  check_utf8 ("the text", v->text);
  status = gst_session_webhook_result_to_http_status (v->result);
  fuzz_assert (status >= 200 && status <= 599, "HTTP status %u", status);

  for (i = 0; i < G_N_ELEMENTS (signed_headers); i++) {
    values[i] = soup_message_headers_get_one (headers, signed_headers[i]);
    if (soup_message_headers_get_list (headers, signed_headers[i])
        && strchr (soup_message_headers_get_list (headers,
                signed_headers[i]), ','))
      once = FALSE;
  }
  /* the signature never shows (a hex value long enough to tell) */
  if (values[3] && strlen (values[3]) >= 32 && all_hex (values[3]))
    fuzz_assert (strstr (v->text, values[3]) == NULL, "the text \"%s\" shows "
        "the signature", v->text);

  if (v->result == GST_SESSION_WEBHOOK_RESULT_VALID) {
    fuzz_assert (v->request_id && v->user_id, "a valid one without ids");
    fuzz_assert (g_strcmp0 (v->request_id, values[0]) == 0, "request id");
    fuzz_assert (v->key_index >= 0, "a valid one without its key");
  }

  /* the same values given one by one give the same answer */
  if (once) {
    w = gst_session_webhook_verify_values (keys, values[0], values[1],
        values[2], values[3], body, body_length, NOW,
        GST_SESSION_WEBHOOK_LEEWAY);
    fuzz_assert (w && w->result == v->result, "verify gave %d, "
        "verify_values %d", v->result, w ? (gint) w->result : -1);
    gst_session_webhook_verification_free (w);
  }

  w = gst_session_webhook_verification_copy (v);
  fuzz_assert (w && w->result == v->result
      && g_strcmp0 (w->text, v->text) == 0, "copy");
  gst_session_webhook_verification_free (w);

  /* the body as the application reads it once verified (or whatever it
   * is: parsing does not depend on the signature) */
  check_delivery ((const gchar *) body, body_length,
      v->result == GST_SESSION_WEBHOOK_RESULT_VALID ? v->request_id : NULL);

  gst_session_webhook_verification_free (v);
  free (body);
  soup_message_headers_unref (headers);
}

static void
fuzz_ip_ranges (const gchar * data, gsize size)
{
  GstSessionWebhookIpRanges *ranges;
  GError *error = NULL;
  const gchar *const addresses[] = { "127.0.0.1", "10.1.2.3", "0.0.0.0",
    "255.255.255.255", "::1", "2001:db8::7", "::ffff:192.168.1.7", "fe80::1"
  };
  gchar *text = fuzz_dup ((const uint8_t *) data, size);
  guint i;

  ranges = gst_session_webhook_ip_ranges_parse (text, size, &error);
  fuzz_assert ((ranges == NULL) == (error != NULL), "error set iff none");
  if (error) {
    check_utf8 ("the error", error->message);
    g_clear_error (&error);
  }
  if (ranges) {
    const gchar *const *skipped =
        gst_session_webhook_ip_ranges_get_skipped (ranges);

    fuzz_assert (gst_session_webhook_ip_ranges_get_n_ranges (ranges) <=
        GST_SESSION_WEBHOOK_MAX_RANGES, "too many ranges");
    for (i = 0; skipped && skipped[i]; i++)
      check_utf8 ("a skipped reason", skipped[i]);
    for (i = 0; i < G_N_ELEMENTS (addresses); i++) {
      GInetAddress *a = g_inet_address_new_from_string (addresses[i]);

      gst_session_webhook_ip_ranges_contains (ranges, a);
      g_object_unref (a);
    }
    gst_session_webhook_ip_ranges_unref (ranges);
  }
  free (text);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  const gchar *jwks = "{\"keys\": [{\"kty\": \"OKP\", \"crv\": \"Ed25519\", "
      "\"x\": \"" KEY_X "\", \"kid\": \"fuzz\"}]}";

  fuzz_init ();
  keys = gst_session_webhook_key_set_parse (jwks, strlen (jwks), NULL);
  if (keys == NULL)
    abort ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  if (size < 1)
    return 0;
  if (data[0] & 1)
    fuzz_ip_ranges ((const gchar *) data + 1, size - 1);
  else
    fuzz_delivery ((const gchar *) data + 1, size - 1);
  return 0;
}
