/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the webhook files share, inside libgstsessionplatform only. */

#ifndef __GST_SESSION_WEBHOOK_PRIVATE_H__
#define __GST_SESSION_WEBHOOK_PRIVATE_H__

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <nettle/eddsa.h>
#include "webhook.h"

G_BEGIN_DECLS

/* webhook.c: JSON documents, bounded before json-glib sees them */
G_GNUC_INTERNAL
JsonNode *webhook_parse_object (const gchar * what, const gchar * data,
    gsize length, gsize max_length, GError ** error);
G_GNUC_INTERNAL
const gchar *webhook_member_string (JsonObject * object, const gchar * name);

/* webhook-keyset.c: the keys, read by webhook-verify.c */
struct _GstSessionWebhookKeySet
{
  gint refcount;
  guint n_keys;
  guint8 keys[GST_SESSION_WEBHOOK_MAX_KEYS][ED25519_KEY_SIZE];
  /* NULL-terminated: why entries of the document were skipped */
  gchar **skipped;
};

/* webhook-verify.c: one delivery's headers and signature */
/* The four signed headers, in the order of the signed message. */
enum
{
  HEADER_REQUEST_ID,
  HEADER_USER_ID,
  HEADER_TIMESTAMP,
  HEADER_SIGNATURE,
  N_HEADERS
};

G_GNUC_INTERNAL
extern const gchar *const webhook_header_names[N_HEADERS];

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

typedef struct
{
  const gchar *values[N_HEADERS];
  guint counts[N_HEADERS];
} HeaderScan;

G_GNUC_INTERNAL
void webhook_signed_delivery_clear (SignedDelivery * d);
G_GNUC_INTERNAL
GstSessionWebhookVerification *webhook_verification_new
    (GstSessionWebhookResult result, const gchar * header,
    const gchar * format, ...) G_GNUC_PRINTF (3, 4);
G_GNUC_INTERNAL
GstSessionWebhookVerification *webhook_signed_delivery_read
    (SignedDelivery * d, const gchar * const *values, const guint * counts,
    const guint8 * body, gsize body_length, gint64 now, guint leeway);
G_GNUC_INTERNAL
GstSessionWebhookVerification *webhook_signed_delivery_verify
    (const SignedDelivery * d, const GstSessionWebhookKeySet * keys);
G_GNUC_INTERNAL
void webhook_scan_header (const char *name, const char *value,
    gpointer user_data);

G_END_DECLS

#endif /* __GST_SESSION_WEBHOOK_PRIVATE_H__ */
