/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* Keys and signatures from an independent implementation, shared by the
 * webhook tests of the library (tests/libs/platform/webhook-test.c) and of
 * the command-line tool (tests/tools/cli-harness.c): Ed25519 keys made by
 * the OpenSSL command line at test time, and the spec's signed message
 * (request id, user id, timestamp, SHA-256 of the body) signed by it. Its
 * files go to a temporary directory of its own, removed by
 * test_keys_cleanup(). */

#ifndef __TEST_KEYS_H__
#define __TEST_KEYS_H__

#include <gst/check/gstcheck.h>

G_BEGIN_DECLS

/* base64url of @data, with or without its padding, by GLib's base64 */
gchar *b64url (const guint8 * data, gsize len, gboolean pad);

typedef struct
{
  gchar *pem;                   /* private key file */
  guint8 pub[32];
  gchar *x;                     /* base64url, unpadded */
} TestKey;

/* A new Ed25519 key made by openssl, or NULL when openssl is missing or
 * cannot make one (the test is then skipped: REQUIRE_KEY). */
TestKey *test_key_new (void);

void test_key_free (TestKey * key);

#define REQUIRE_KEY(k) G_STMT_START {                                      \
  if ((k) == NULL) {                                                       \
    g_print ("SKIP %s: openssl with Ed25519 is not available\n", __func__);  \
    return;                                                                \
  }                                                                        \
} G_STMT_END

/* The signature of @message by @key, lowercase hex, made by openssl. */
gchar *test_key_sign (const TestKey * key, const gchar * message);

/* The signature (as test_key_sign()) of the spec's message over @body. */
gchar *test_key_sign_delivery (const TestKey * key, const gchar * request_id,
    const gchar * user_id, const gchar * timestamp, const gchar * body,
    gsize body_length);

/* Removes the keys' directory with everything in it. */
void test_keys_cleanup (void);

G_END_DECLS

#endif
