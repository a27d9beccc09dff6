/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the platform programs of the service (platform-webhooks.c,
 * platform-management.c) share: a webhook receiver on its own thread, and
 * the service's side as the library's client sees it (its URLs, plain
 * requests, the key set, submissions, verified deliveries). */

#ifndef __PLATFORM_TEST_H__
#define __PLATFORM_TEST_H__

#include <string.h>
#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000

/* ---- a webhook receiver on its own thread ---- */

typedef struct
{
  GBytes *body;
  SoupMessageHeaders *headers;
  gchar *peer;
  guint answered;
  gint64 at;                    /* monotonic */
} Received;

typedef struct
{
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  SoupServer *server;
  guint port;

  GMutex lock;
  GCond cond;
  /* lock */
  gboolean ready;
  gchar *listen_error;
  GPtrArray *received;          /* Received */
  GQueue answers;               /* statuses for the next requests */
  guint delay_count;            /* the next N answers wait delay_ms */
  guint delay_ms;
} Receiver;

/* A receiver on 127.0.0.1:@port (0: any free port) */
Receiver *receiver_new (guint port);
void receiver_free (Receiver * rv);
gchar *receiver_url (Receiver * rv);
/* the next answers, then 200 */
void receiver_answer (Receiver * rv, guint status, guint times);
void receiver_delay (Receiver * rv, guint times, guint ms);
guint receiver_count (Receiver * rv);
/* The @n-th delivery received (from 1), waiting for it; NULL after
 * @timeout_ms. It stays owned by the receiver. */
Received *receiver_wait (Receiver * rv, guint n, gint timeout_ms);

/* ---- the service's side ---- */

gchar *url_of (SvcProcess * p, const gchar * path);
SvcHttpReply *http_get (SvcProcess * p, const gchar * path,
    const gchar * key);
GstSessionWebhookKeySet *fetch_keys (SvcProcess * p);
const gchar *object_string (JsonNode * node, const gchar * name);
GstSessionPlatform *platform_new (SvcProcess * p, const gchar * key);
/* Submits and checks the answer; the request id */
gchar *submit (GstSessionPlatform * platform, const gchar * app,
    const gchar * webhook, const gchar * body);
/* Submits a request the service refuses: the parsed answer */
GstSessionHttpError *submit_refused (GstSessionPlatform * platform,
    const gchar * app, const gchar * webhook, const gchar * body,
    guint status);
/* Verifies and parses a received delivery with @keys */
GstSessionWebhookDelivery *verified_delivery (GstSessionWebhookKeySet * keys,
    Received * r, const gchar * request_id);
/* A request-level error of @type (frees @e) */
void assert_request_error (GstSessionHttpError * e, const gchar * type);

#endif /* __PLATFORM_TEST_H__ */
