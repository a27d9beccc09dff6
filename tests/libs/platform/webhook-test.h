/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the webhook test programs share: deliveries signed with keys from
 * an independent implementation (the OpenSSL command line, run at test
 * time: tests/common/testkeys.h), and the verifier's surroundings (a key
 * host on 127.0.0.1, a clock the test moves, a context to iterate). */

#ifndef __WEBHOOK_TEST_H__
#define __WEBHOOK_TEST_H__

#include <string.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include <nettle/eddsa.h>

#include "testkeys.h"

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

GstSessionWebhookKeySet *keys_from (const gchar * json);

/* ------------------------------------------------------------------------ */
/* deliveries signed by openssl                                             */

/* One delivery as the service would send it: the spec's signed message,
 * built with GLib's SHA-256 and signed by openssl (testkeys.h). */
typedef struct
{
  gchar *request_id;
  gchar *user_id;
  gchar *timestamp;
  gchar *signature;
  gchar *body;
} Delivery;

Delivery *delivery_new (const TestKey * key, const gchar * request_id,
    const gchar * user_id, gint64 timestamp, const gchar * body);

void delivery_free (Delivery * d);

SoupMessageHeaders *delivery_headers (const Delivery * d);

GstSessionWebhookVerification *verify_delivery
    (const GstSessionWebhookKeySet * keys,
    const Delivery * d, gint64 now);

GstSessionWebhookKeySet *keys_of (const TestKey * a, const TestKey * b);

void assert_text_clean (const GstSessionWebhookVerification * v,
    const TestKey * key, const Delivery * d);

#define NOW G_GINT64_CONSTANT (1767225600)
#define BODY "{\"request_id\": \"req-1\", \"gateway_request_id\": \"req-1\", " \
    "\"status\": \"OK\", \"payload\": {\"images\": [{\"url\": \"u\"}]}}"

/* ------------------------------------------------------------------------ */
/* the verifier: a key host on 127.0.0.1, a clock the test moves            */

#define WAIT_MAX 5000

extern GMainContext *test_ctx;
extern gint64 fake_now;

gint64 fake_clock (gpointer user_data);

gboolean wake_up (gpointer data);

/* Iterates the test context until @cond holds or WAIT_MAX ms pass. */
#define WAIT_FOR(cond) G_STMT_START {                                      \
  gint64 _deadline = g_get_monotonic_time () + WAIT_MAX * 1000;           \
  GSource *_tick = g_timeout_source_new (5);                               \
  g_source_set_callback (_tick, wake_up, NULL, NULL);                      \
  g_source_attach (_tick, test_ctx);                                       \
  while (!(cond) && g_get_monotonic_time () < _deadline)                   \
    g_main_context_iteration (test_ctx, TRUE);                             \
  g_source_destroy (_tick);                                                \
  g_source_unref (_tick);                                                  \
  fail_unless (cond, "timed out waiting for: %s", #cond);                  \
} G_STMT_END

void context_setup (void);

void context_teardown (void);

typedef struct
{
  SoupServer *server;
  gchar *base;                  /* http://127.0.0.1:<port> */
  gchar *jwks_url;
  guint status;
  gchar *jwks;
  gchar *meta;
  gboolean hang;
  GPtrArray *held;
  gint jwks_requests;
  gint meta_requests;
} KeyHost;

void key_host_cb (SoupServer * server, SoupServerMessage * msg,
    const char *path, GHashTable * query, gpointer user_data);

KeyHost *key_host_new (void);

void key_host_serve_keys (KeyHost * host, const TestKey * a,
    const TestKey * b);

void key_host_free (KeyHost * host);

gchar *refused_url (void);

GstSessionWebhookVerifier *verifier_new (const gchar * jwks_url);

void verified_cb (GObject * source, GAsyncResult * res, gpointer user_data);

GstSessionWebhookVerification *verifier_check
    (GstSessionWebhookVerifier * verifier,
    const Delivery * d, const gchar * source);

#define ASSERT_VERDICT(v, expected, key, d) G_STMT_START {                 \
  fail_unless ((v)->result == (expected), "verdict %d, not %d: %s",       \
      (v)->result, (expected), (v)->text);                                 \
  assert_text_clean ((v), (key), (d));                                     \
} G_STMT_END

#endif
