/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One delivery verified from its headers and body, with no network access:
 * the signed headers, the timestamp window and the Ed25519 signature
 * (gst_session_webhook_verify(), GstSessionWebhookVerification).
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
#include <nettle/base16.h>

#include "webhook-private.h"

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

GstSessionWebhookVerification *
webhook_verification_new (GstSessionWebhookResult result, const gchar * header,
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

const gchar *const webhook_header_names[N_HEADERS] = {
  GST_SESSION_WEBHOOK_HEADER_REQUEST_ID,
  GST_SESSION_WEBHOOK_HEADER_USER_ID,
  GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
  GST_SESSION_WEBHOOK_HEADER_SIGNATURE,
};

void
webhook_signed_delivery_clear (SignedDelivery * d)
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

/* Exactly 2 * @n hexadecimal digits of either case into @out (nettle
 * decodes; it would skip white space, so the digits are checked first). */
static gboolean
hex_decode (const gchar * text, guint8 * out, gsize n)
{
  struct base16_decode_ctx ctx;
  gsize i, length = n;

  if (strlen (text) != 2 * n)
    return FALSE;
  for (i = 0; i < 2 * n; i++) {
    if (!g_ascii_isxdigit (text[i]))
      return FALSE;
  }
  base16_decode_init (&ctx);
  return base16_decode_update (&ctx, &length, out, 2 * n, text) &&
      base16_decode_final (&ctx) && length == n;
}

/* Reads the four header values (@counts: how often each was present, or
 * NULL for once) and the body into @d: spec 001 steps 2 to 5 and the
 * decoding of step 6. Returns NULL when the delivery can be verified, else
 * why not; @d is then cleared. */
GstSessionWebhookVerification *
webhook_signed_delivery_read (SignedDelivery * d, const gchar * const *values,
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
      missing = g_string_new (webhook_header_names[i]);
      first = webhook_header_names[i];
    } else {
      g_string_append_printf (missing, ", %s", webhook_header_names[i]);
    }
  }
  if (missing) {
    v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER,
        first, "The webhook header%s %s %s missing or empty",
        strchr (missing->str, ',') ? "s" : "", missing->str,
        strchr (missing->str, ',') ? "are" : "is");
    g_string_free (missing, TRUE);
    return v;
  }
  for (i = 0; i < N_HEADERS; i++) {
    if (counts && counts[i] > 1)
      return webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_BAD_HEADER,
          webhook_header_names[i], "The webhook header %s is present %u times",
          webhook_header_names[i], counts[i]);
    problem = header_value_problem (values[i]);
    if (problem)
      return webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_BAD_HEADER,
          webhook_header_names[i], "The webhook header %s %s",
          webhook_header_names[i], problem);
  }

  ts_text = values[HEADER_TIMESTAMP];
  if (!parse_timestamp (ts_text, &d->timestamp))
    return webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP,
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
        "The webhook header %s is not an integer number of seconds",
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP);
  /* now +- leeway and the skew cannot overflow for any timestamp */
  clamped = CLAMP (d->timestamp, now - MAX_REPORTED_SKEW,
      now + MAX_REPORTED_SKEW);
  d->skew = now - clamped;
  if (d->skew > (gint64) leeway) {
    v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP,
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP, "The delivery is %"
        G_GINT64_FORMAT " s old, more than the %u s allowed", d->skew, leeway);
    v->skew = d->skew;
    return v;
  }
  if (d->skew < -(gint64) leeway) {
    v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP,
        GST_SESSION_WEBHOOK_HEADER_TIMESTAMP, "The delivery is dated %"
        G_GINT64_FORMAT " s ahead, more than the %u s allowed", -d->skew,
        leeway);
    v->skew = d->skew;
    return v;
  }

  if (!hex_decode (values[HEADER_SIGNATURE], d->signature,
          ED25519_SIGNATURE_SIZE)) {
    v = webhook_verification_new
        (GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING,
        GST_SESSION_WEBHOOK_HEADER_SIGNATURE,
        "The webhook header %s is not " "%d hexadecimal digits (%d bytes)",
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
GstSessionWebhookVerification *
webhook_signed_delivery_verify (const SignedDelivery * d,
    const GstSessionWebhookKeySet * keys)
{
  GstSessionWebhookVerification *v;
  guint i;

  if (keys == NULL || keys->n_keys == 0) {
    v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEYS, NULL,
        "There is no key to verify the delivery with");
    v->skew = d->skew;
    return v;
  }
  for (i = 0; i < keys->n_keys; i++) {
    if (ed25519_sha512_verify (keys->keys[i], d->message_length,
            (const guint8 *) d->message, d->signature)) {
      v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_VALID, NULL,
          "The signature is valid (key %u of the key set)", i);
      v->skew = d->skew;
      v->key_index = (gint) i;
      v->request_id = g_strdup (d->request_id);
      v->user_id = g_strdup (d->user_id);
      v->timestamp = d->timestamp;
      return v;
    }
  }
  v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED, NULL,
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

  v = webhook_signed_delivery_read (&d, values, counts, body, body_length, now,
      leeway);
  if (v == NULL)
    v = webhook_signed_delivery_verify (&d, keys);
  webhook_signed_delivery_clear (&d);

  GST_DEBUG ("webhook delivery: %s", v->text);
  return v;
}

void
webhook_scan_header (const char *name, const char *value, gpointer user_data)
{
  HeaderScan *scan = user_data;
  guint i;

  for (i = 0; i < N_HEADERS; i++) {
    if (g_ascii_strcasecmp (name, webhook_header_names[i]) == 0) {
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

  soup_message_headers_foreach (headers, webhook_scan_header, &scan);
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
