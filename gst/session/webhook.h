/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_WEBHOOK_H__
#define __GST_SESSION_WEBHOOK_H__

#include <gst/session/session-prelude.h>
#include <gst/session/sessionerror.h>
#include <gst/session/httperror.h>
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

GST_SESSION_API
GType gst_session_webhook_key_set_get_type (void);
#define GST_SESSION_TYPE_WEBHOOK_KEY_SET (gst_session_webhook_key_set_get_type ())

GST_SESSION_API
GstSessionWebhookKeySet * gst_session_webhook_key_set_parse (const gchar * data,
    gsize length, GError ** error);

GST_SESSION_API
GstSessionWebhookKeySet * gst_session_webhook_key_set_ref (GstSessionWebhookKeySet * keys);

GST_SESSION_API
void gst_session_webhook_key_set_unref (GstSessionWebhookKeySet * keys);

GST_SESSION_API
guint gst_session_webhook_key_set_get_n_keys (const GstSessionWebhookKeySet * keys);

GST_SESSION_API
const gchar * const * gst_session_webhook_key_set_get_skipped (const GstSessionWebhookKeySet * keys);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionWebhookKeySet, gst_session_webhook_key_set_unref)

G_END_DECLS

#endif /* __GST_SESSION_WEBHOOK_H__ */
