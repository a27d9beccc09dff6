/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_WEBHOOK_H__
#define __GST_SESSION_WEBHOOK_H__

#include <gst/session/platform/platform-prelude.h>
#include <gst/session/platform/platform-enumtypes.h>
#include <gst/session/sessionerror.h>
#include <gst/session/http/httperror.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* ---------------------------------------------------------------------- */
/* Constants of spec 001 and the limits of this library                   */

/**
 * GST_SESSION_WEBHOOK_HEADER_REQUEST_ID:
 *
 * The header holding the unique request id (signed).
 */
#define GST_SESSION_WEBHOOK_HEADER_REQUEST_ID "X-Svc-Webhook-Request-Id"
/**
 * GST_SESSION_WEBHOOK_HEADER_USER_ID:
 *
 * The header holding the receiving account's user id (signed).
 */
#define GST_SESSION_WEBHOOK_HEADER_USER_ID "X-Svc-Webhook-User-Id"
/**
 * GST_SESSION_WEBHOOK_HEADER_TIMESTAMP:
 *
 * The header holding the generation time, Unix epoch seconds (signed).
 */
#define GST_SESSION_WEBHOOK_HEADER_TIMESTAMP "X-Svc-Webhook-Timestamp"
/**
 * GST_SESSION_WEBHOOK_HEADER_SIGNATURE:
 *
 * The header holding the Ed25519 signature, hexadecimal.
 */
#define GST_SESSION_WEBHOOK_HEADER_SIGNATURE "X-Svc-Webhook-Signature"

/**
 * GST_SESSION_WEBHOOK_LEEWAY:
 *
 * The largest difference, in seconds and in either direction, between the
 * timestamp of a delivery and the current time (spec 001: 300 s).
 */
#define GST_SESSION_WEBHOOK_LEEWAY 300

/**
 * GST_SESSION_WEBHOOK_KEY_SET_MAX_AGE:
 *
 * The longest a fetched key set is used, in seconds (spec 001: 24 hours).
 */
#define GST_SESSION_WEBHOOK_KEY_SET_MAX_AGE (24 * 60 * 60)

/**
 * GST_SESSION_WEBHOOK_KEY_SET_MAX_SIZE:
 *
 * The largest key set document read, in bytes (64 KiB).
 */
#define GST_SESSION_WEBHOOK_KEY_SET_MAX_SIZE (64 * 1024)

/**
 * GST_SESSION_WEBHOOK_MAX_KEYS:
 *
 * The most usable keys kept from one key set; every one is tried on every
 * delivery, so this bounds the work of one verification.
 */
#define GST_SESSION_WEBHOOK_MAX_KEYS 32

/**
 * GST_SESSION_WEBHOOK_MAX_DEPTH:
 *
 * The deepest nesting of JSON arrays and objects accepted in a key set, a
 * metadata document or a delivery body.
 */
#define GST_SESSION_WEBHOOK_MAX_DEPTH 32

/**
 * GST_SESSION_WEBHOOK_MAX_HEADER:
 *
 * The longest value of a webhook header, in bytes.
 */
#define GST_SESSION_WEBHOOK_MAX_HEADER 1024

/* ---------------------------------------------------------------------- */
/* Key set                                                                */

/**
 * GstSessionWebhookKeySet:
 *
 * The usable Ed25519 public keys of one JWKS document. Immutable and
 * reference counted: it may be shared between threads.
 */
typedef struct _GstSessionWebhookKeySet GstSessionWebhookKeySet;

GST_SESSION_PLATFORM_API
GType gst_session_webhook_key_set_get_type (void);
#define GST_SESSION_TYPE_WEBHOOK_KEY_SET (gst_session_webhook_key_set_get_type ())

GST_SESSION_PLATFORM_API
GstSessionWebhookKeySet * gst_session_webhook_key_set_parse (const gchar * data,
    gsize length, GError ** error);

GST_SESSION_PLATFORM_API
GstSessionWebhookKeySet * gst_session_webhook_key_set_ref (GstSessionWebhookKeySet * keys);

GST_SESSION_PLATFORM_API
void gst_session_webhook_key_set_unref (GstSessionWebhookKeySet * keys);

GST_SESSION_PLATFORM_API
guint gst_session_webhook_key_set_get_n_keys (const GstSessionWebhookKeySet * keys);

GST_SESSION_PLATFORM_API
const gchar * const * gst_session_webhook_key_set_get_skipped (const GstSessionWebhookKeySet * keys);

/* ---------------------------------------------------------------------- */
/* Verification of one delivery                                           */

/**
 * GstSessionWebhookResult:
 * @GST_SESSION_WEBHOOK_RESULT_VALID: a key verified the signature: the
 *   delivery comes from the service.
 * @GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER: one of the four webhook
 *   headers is missing or empty (the text names it).
 * @GST_SESSION_WEBHOOK_RESULT_BAD_HEADER: a webhook header is present more
 *   than once, longer than %GST_SESSION_WEBHOOK_MAX_HEADER bytes, not
 *   UTF-8 or holds control characters (the text names it).
 * @GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP: the timestamp is not an
 *   integer (an optional `-` and decimal digits, nothing else).
 * @GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP: the timestamp is older than
 *   the current time by more than the leeway.
 * @GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP: the timestamp is newer than
 *   the current time by more than the leeway.
 * @GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING: the signature is not
 *   128 hexadecimal digits (64 bytes).
 * @GST_SESSION_WEBHOOK_RESULT_NO_KEYS: there is no key to verify with.
 * @GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED: no key verified the
 *   signature: the body, a header or the signature was changed, or it was
 *   signed with a key that is not in the key set.
 * @GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE: the body is over the size
 *   limit; it was not read.
 * @GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED: the sender's address is
 *   not in the `webhook_ip_ranges` of the metadata.
 * @GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE: the key set (or the IP ranges)
 *   could not be fetched, so nothing could be decided: answer 503 so the
 *   service delivers again later.
 * @GST_SESSION_WEBHOOK_RESULT_WRONG_ACCOUNT: the signature is valid but
 *   the signed user id is not the receiving account's (see
 *   gst_session_webhook_verification_check_account()): a delivery meant for
 *   another account.
 *
 * The outcome of verifying one delivery (spec 001, Authentication).
 */
typedef enum {
  GST_SESSION_WEBHOOK_RESULT_VALID,
  GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER,
  GST_SESSION_WEBHOOK_RESULT_BAD_HEADER,
  GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP,
  GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP,
  GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP,
  GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING,
  GST_SESSION_WEBHOOK_RESULT_NO_KEYS,
  GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED,
  GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE,
  GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED,
  GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE,
  GST_SESSION_WEBHOOK_RESULT_WRONG_ACCOUNT,
} GstSessionWebhookResult;

#define GST_SESSION_TYPE_WEBHOOK_RESULT (gst_session_webhook_result_get_type ())

GST_SESSION_PLATFORM_API
guint gst_session_webhook_result_to_http_status (GstSessionWebhookResult result);

/**
 * GstSessionWebhookVerification:
 * @result: the outcome.
 * @text: one sentence for people and logs saying why. It names headers,
 *   sizes and time differences, never a key, the signature or a header
 *   value.
 * @header: (nullable): the name of the header at fault (a static string),
 *   for %GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER,
 *   %GST_SESSION_WEBHOOK_RESULT_BAD_HEADER and the timestamp and signature
 *   results; %NULL otherwise.
 * @skew: the current time minus the timestamp, in seconds, once the
 *   timestamp was read (positive: the delivery is older); 0 before.
 * @key_index: which usable key of the key set verified, or -1.
 * @refetched: %TRUE when the key set was fetched again for this delivery
 *   because no cached key verified it.
 * @request_id: (nullable): the signed request id, when @result is
 *   %GST_SESSION_WEBHOOK_RESULT_VALID; compare it with the body's
 *   (gst_session_webhook_delivery_parse() does).
 * @user_id: (nullable): the signed user id, when valid.
 * @timestamp: the signed timestamp, when valid; else 0.
 *
 * The answer of one verification.
 */
typedef struct {
  GstSessionWebhookResult result;
  gchar *text;
  const gchar *header;
  gint64 skew;
  gint key_index;
  gboolean refetched;
  gchar *request_id;
  gchar *user_id;
  gint64 timestamp;
} GstSessionWebhookVerification;

GST_SESSION_PLATFORM_API
GType gst_session_webhook_verification_get_type (void);
#define GST_SESSION_TYPE_WEBHOOK_VERIFICATION \
    (gst_session_webhook_verification_get_type ())

GST_SESSION_PLATFORM_API
gboolean gst_session_webhook_url_allowed (const gchar * url,
    gboolean allow_insecure_http, GError ** error);

GST_SESSION_PLATFORM_API
gboolean gst_session_webhook_verification_check_account
    (GstSessionWebhookVerification * verification, const gchar * user_id);

GST_SESSION_PLATFORM_API
GstSessionWebhookVerification * gst_session_webhook_verify (const GstSessionWebhookKeySet * keys,
    SoupMessageHeaders * headers, const guint8 * body, gsize body_length,
    gint64 now, guint leeway);

GST_SESSION_PLATFORM_API
GstSessionWebhookVerification * gst_session_webhook_verify_values (const GstSessionWebhookKeySet * keys,
    const gchar * request_id, const gchar * user_id, const gchar * timestamp,
    const gchar * signature, const guint8 * body, gsize body_length,
    gint64 now, guint leeway);

GST_SESSION_PLATFORM_API
GstSessionWebhookVerification * gst_session_webhook_verification_copy (const GstSessionWebhookVerification * verification);

GST_SESSION_PLATFORM_API
void gst_session_webhook_verification_free (GstSessionWebhookVerification * verification);

/* ---------------------------------------------------------------------- */
/* The delivery body                                                      */

/**
 * GST_SESSION_WEBHOOK_MAX_BODY:
 *
 * The default largest delivery body, in bytes (4 MiB).
 */
#define GST_SESSION_WEBHOOK_MAX_BODY (4 * 1024 * 1024)

/**
 * GstSessionWebhookStatus:
 * @GST_SESSION_WEBHOOK_STATUS_OK: `"OK"`: the request succeeded; the
 *   payload is the app's result (or null with `payload_error`).
 * @GST_SESSION_WEBHOOK_STATUS_ERROR: `"ERROR"`: the app failed; `error`
 *   says why and the payload holds the error details.
 *
 * The `status` of a delivery.
 */
typedef enum {
  GST_SESSION_WEBHOOK_STATUS_OK,
  GST_SESSION_WEBHOOK_STATUS_ERROR,
} GstSessionWebhookStatus;

#define GST_SESSION_TYPE_WEBHOOK_STATUS (gst_session_webhook_status_get_type ())

/**
 * GstSessionWebhookDelivery:
 * @request_id: the request id (equal to the signed header's).
 * @gateway_request_id: the gateway request id.
 * @status: `OK` or `ERROR`.
 * @payload: (nullable): the `payload` object (a sealed #JsonNode holding
 *   an object), or %NULL when it is null.
 * @error: (nullable): the `error` text; always set when @status is
 *   %GST_SESSION_WEBHOOK_STATUS_ERROR.
 * @payload_error: (nullable): why the payload is null; always set when
 *   @status is %GST_SESSION_WEBHOOK_STATUS_OK and @payload is %NULL.
 * @detail: (element-type GstSessionHttpErrorItem): the error objects of the
 *   payload's `detail` array when @status is
 *   %GST_SESSION_WEBHOOK_STATUS_ERROR, read as
 *   gst_session_http_error_parse() reads them (`loc` as a JSON pointer,
 *   `ctx` as a #GstStructure); never %NULL, often empty.
 *
 * One webhook delivery body (spec 001).
 */
typedef struct {
  gchar *request_id;
  gchar *gateway_request_id;
  GstSessionWebhookStatus status;
  JsonNode *payload;
  gchar *error;
  gchar *payload_error;
  GPtrArray *detail;
} GstSessionWebhookDelivery;

GST_SESSION_PLATFORM_API
GType gst_session_webhook_delivery_get_type (void);
#define GST_SESSION_TYPE_WEBHOOK_DELIVERY (gst_session_webhook_delivery_get_type ())

GST_SESSION_PLATFORM_API
GstSessionWebhookDelivery * gst_session_webhook_delivery_parse (const gchar * body,
    gsize length, gsize max_length, const gchar * signed_request_id,
    GError ** error);

GST_SESSION_PLATFORM_API
GstSessionWebhookDelivery * gst_session_webhook_delivery_copy (const GstSessionWebhookDelivery * delivery);

GST_SESSION_PLATFORM_API
void gst_session_webhook_delivery_free (GstSessionWebhookDelivery * delivery);

/* ---------------------------------------------------------------------- */
/* Source IP ranges                                                       */

/**
 * GST_SESSION_WEBHOOK_META_MAX_SIZE:
 *
 * The largest metadata document read, in bytes (256 KiB).
 */
#define GST_SESSION_WEBHOOK_META_MAX_SIZE (256 * 1024)

/**
 * GST_SESSION_WEBHOOK_MAX_RANGES:
 *
 * The most IP ranges kept from one metadata document.
 */
#define GST_SESSION_WEBHOOK_MAX_RANGES 1024

/**
 * GstSessionWebhookIpRanges:
 *
 * The `webhook_ip_ranges` of a metadata document: the networks webhooks
 * are sent from. Immutable and reference counted.
 */
typedef struct _GstSessionWebhookIpRanges GstSessionWebhookIpRanges;

GST_SESSION_PLATFORM_API
GType gst_session_webhook_ip_ranges_get_type (void);
#define GST_SESSION_TYPE_WEBHOOK_IP_RANGES (gst_session_webhook_ip_ranges_get_type ())

GST_SESSION_PLATFORM_API
GstSessionWebhookIpRanges * gst_session_webhook_ip_ranges_parse (const gchar * data,
    gsize length, GError ** error);

GST_SESSION_PLATFORM_API
GstSessionWebhookIpRanges * gst_session_webhook_ip_ranges_ref (GstSessionWebhookIpRanges * ranges);

GST_SESSION_PLATFORM_API
void gst_session_webhook_ip_ranges_unref (GstSessionWebhookIpRanges * ranges);

GST_SESSION_PLATFORM_API
guint gst_session_webhook_ip_ranges_get_n_ranges (const GstSessionWebhookIpRanges * ranges);

GST_SESSION_PLATFORM_API
const gchar * const * gst_session_webhook_ip_ranges_get_skipped (const GstSessionWebhookIpRanges * ranges);

GST_SESSION_PLATFORM_API
gboolean gst_session_webhook_ip_ranges_contains (const GstSessionWebhookIpRanges * ranges,
    GInetAddress * address);

/* ---------------------------------------------------------------------- */
/* GstSessionWebhookVerifier: key set cache, fetcher and verifier         */

/**
 * GST_SESSION_WEBHOOK_REFETCH_COOLDOWN:
 *
 * The default shortest time between two fetches of a key set caused by a
 * delivery no cached key verifies, or after a failed fetch, in seconds.
 */
#define GST_SESSION_WEBHOOK_REFETCH_COOLDOWN 60

/**
 * GST_SESSION_WEBHOOK_IP_RANGES_MAX_AGE:
 *
 * The default longest time fetched IP ranges are used before they are
 * fetched again, in seconds (1 hour).
 */
#define GST_SESSION_WEBHOOK_IP_RANGES_MAX_AGE (60 * 60)

/**
 * GstSessionWebhookClockFunc:
 * @user_data: the data given with the function.
 *
 * A clock for a #GstSessionWebhookVerifier.
 *
 * Returns: the current Unix time in seconds.
 */
typedef gint64 (*GstSessionWebhookClockFunc) (gpointer user_data);

#define GST_SESSION_TYPE_WEBHOOK_VERIFIER (gst_session_webhook_verifier_get_type ())
GST_SESSION_PLATFORM_API
G_DECLARE_FINAL_TYPE (GstSessionWebhookVerifier, gst_session_webhook_verifier,
    GST_SESSION, WEBHOOK_VERIFIER, GstObject)

GST_SESSION_PLATFORM_API
GstSessionWebhookVerifier * gst_session_webhook_verifier_new (const gchar * jwks_url);

GST_SESSION_PLATFORM_API
void gst_session_webhook_verifier_set_clock_func (GstSessionWebhookVerifier * verifier,
    GstSessionWebhookClockFunc func, gpointer user_data, GDestroyNotify notify);

GST_SESSION_PLATFORM_API
void gst_session_webhook_verifier_set_key_set (GstSessionWebhookVerifier * verifier,
    GstSessionWebhookKeySet * keys);

GST_SESSION_PLATFORM_API
GstSessionWebhookKeySet * gst_session_webhook_verifier_get_key_set (GstSessionWebhookVerifier * verifier);

GST_SESSION_PLATFORM_API
GstSessionWebhookIpRanges * gst_session_webhook_verifier_get_ip_ranges (GstSessionWebhookVerifier * verifier);

GST_SESSION_PLATFORM_API
void gst_session_webhook_verifier_verify_async (GstSessionWebhookVerifier * verifier,
    SoupMessageHeaders * headers, const guint8 * body, gsize body_length,
    GInetAddress * source, GCancellable * cancellable,
    GAsyncReadyCallback callback, gpointer user_data);

GST_SESSION_PLATFORM_API
GstSessionWebhookVerification * gst_session_webhook_verifier_verify_finish (GstSessionWebhookVerifier * verifier,
    GAsyncResult * result, GError ** error);

GST_SESSION_PLATFORM_API
GstSessionWebhookVerification * gst_session_webhook_verifier_verify_sync (GstSessionWebhookVerifier * verifier,
    SoupMessageHeaders * headers, const guint8 * body, gsize body_length,
    GInetAddress * source, GCancellable * cancellable, GError ** error);

GST_SESSION_PLATFORM_API
void gst_session_webhook_verifier_refresh_async (GstSessionWebhookVerifier * verifier,
    GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data);

GST_SESSION_PLATFORM_API
gboolean gst_session_webhook_verifier_refresh_finish (GstSessionWebhookVerifier * verifier,
    GAsyncResult * result, GError ** error);

GST_SESSION_PLATFORM_API
gboolean gst_session_webhook_verifier_refresh_sync (GstSessionWebhookVerifier * verifier,
    GCancellable * cancellable, GError ** error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionWebhookKeySet, gst_session_webhook_key_set_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionWebhookVerification, gst_session_webhook_verification_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionWebhookDelivery, gst_session_webhook_delivery_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionWebhookIpRanges, gst_session_webhook_ip_ranges_unref)

G_END_DECLS

#endif /* __GST_SESSION_WEBHOOK_H__ */
