/* gst-session-service: signed webhook deliveries (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_WEBHOOK_SENDER_H__
#define __SVC_WEBHOOK_SENDER_H__

#include <json-glib/json-glib.h>
#include "service.h"

G_BEGIN_DECLS

/* spec 001, "Webhook constants", in seconds (before --time-scale) */
#define SVC_WEBHOOK_TIMEOUT 15.0
#define SVC_WEBHOOK_MAX_RETRIES 10
#define SVC_WEBHOOK_RETRY_WINDOW (2.0 * 60.0 * 60.0)
/* this service's schedule: retry n (1..10) waits FIRST * 2^(n-1) after
 * attempt n failed: 5, 10, 20 ... 2560 s, 5115 s in all */
#define SVC_WEBHOOK_FIRST_RETRY_DELAY 5.0

typedef struct _SvcWebhooks SvcWebhooks;

SvcWebhooks *svc_webhooks_new (const SvcConfig * config, GError ** error);
void svc_webhooks_free (SvcWebhooks * hooks);

/* GET /.well-known/jwks.json and GET /v1/meta bodies */
gchar *svc_webhooks_jwks (SvcWebhooks * hooks);
gchar *svc_webhooks_meta (SvcWebhooks * hooks);

/* A new key replaces the current one; the kids through the pointers */
void svc_webhooks_rotate (SvcWebhooks * hooks, gchar ** old_kid,
    gchar ** new_kid);

/* Delivers @body (the delivery body) to @url, with retries */
void svc_webhooks_send (SvcWebhooks * hooks, const gchar * url,
    const gchar * request_id, GBytes * body);
/* Delivers the body of @request_id's first delivery once more, as a new
 * delivery; FALSE when no delivery of that request is known */
gboolean svc_webhooks_redeliver (SvcWebhooks * hooks,
    const gchar * request_id);
/* An array of the deliveries, oldest first (GET /admin/deliveries) */
void svc_webhooks_describe (SvcWebhooks * hooks, JsonBuilder * b);

G_END_DECLS

#endif /* __SVC_WEBHOOK_SENDER_H__ */
