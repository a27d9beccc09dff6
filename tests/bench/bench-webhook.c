/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Webhook verification: deliveries verified per second by
 * gst_session_webhook_verify() (the four headers read from a
 * SoupMessageHeaders, the timestamp checked, the body hashed, the signed
 * message rebuilt, Ed25519 checked with a one-key key set) and by
 * gst_session_webhook_verify_values(), against nettle's
 * ed25519_sha512_verify() alone on the same signed message: the overhead
 * of everything around the signature check. A fixed key, a fixed 1 KiB
 * body and its signature; alternating blocks timed in CPU time of the
 * thread (the machine is shared), medians.
 */

#include <gst/session/webhook.h>
#include <nettle/eddsa.h>
#include <nettle/sha2.h>
#include <string.h>

#include "bench-common.h"

#define REQUEST_ID "9b2f6d0e-4c1a-4d53-9a57-1f0e8c2d7b31"
#define USER_ID "user-0042"

static GstSessionWebhookKeySet *keys;
static SoupMessageHeaders *headers;
static guint8 pub[ED25519_KEY_SIZE];
static guint8 sig[ED25519_SIGNATURE_SIZE];
static gchar *body, *message, *timestamp, *sig_hex;
static gint64 now;

typedef gboolean (*Op) (void);

static gboolean
lib_verify (void)
{
  GstSessionWebhookVerification *v = gst_session_webhook_verify (keys,
      headers, (const guint8 *) body, strlen (body), now,
      GST_SESSION_WEBHOOK_LEEWAY);
  gboolean ok = v->result == GST_SESSION_WEBHOOK_RESULT_VALID;

  gst_session_webhook_verification_free (v);
  return ok;
}

static gboolean
lib_verify_values (void)
{
  GstSessionWebhookVerification *v = gst_session_webhook_verify_values (keys,
      REQUEST_ID, USER_ID, timestamp, sig_hex, (const guint8 *) body,
      strlen (body), now, GST_SESSION_WEBHOOK_LEEWAY);
  gboolean ok = v->result == GST_SESSION_WEBHOOK_RESULT_VALID;

  gst_session_webhook_verification_free (v);
  return ok;
}

static gboolean
raw_verify (void)
{
  return ed25519_sha512_verify (pub, strlen (message),
      (const guint8 *) message, sig);
}

static gdouble
rate (Op op, guint ms)
{
  gdouble t0 = bench_thread_cpu_ms (), t;
  guint n = 0, i;

  do {
    for (i = 0; i < 20; i++)
      if (!op ())
        g_error ("a verification failed");
    n += 20;
    t = bench_thread_cpu_ms ();
  } while (t - t0 < ms);
  return n * 1000.0 / (t - t0);
}

static gchar *
hex (const guint8 * data, gsize len)
{
  gchar *s = g_malloc (2 * len + 1);
  gsize i;

  for (i = 0; i < len; i++) {
    s[2 * i] = "0123456789abcdef"[data[i] >> 4];
    s[2 * i + 1] = "0123456789abcdef"[data[i] & 0xf];
  }
  s[2 * len] = '\0';
  return s;
}

static void
setup (void)
{
  guint8 priv[ED25519_KEY_SIZE], digest[SHA256_DIGEST_SIZE];
  struct sha256_ctx sha;
  GString *b = g_string_new ("{\"request_id\": \"" REQUEST_ID "\", "
      "\"status\": \"OK\", \"payload\": {\"text\": \"");
  gchar *x, *p, *keyset, *digest_hex;
  guint i;
  GError *err = NULL;

  for (i = 0; i < ED25519_KEY_SIZE; i++)
    priv[i] = (guint8) (i * 7 + 1);
  ed25519_sha512_public_key (pub, priv);

  while (b->len < 1000)
    g_string_append (b, "a generated answer ");
  g_string_append (b, "\"}}");
  body = g_string_free (b, FALSE);

  now = g_get_real_time () / G_USEC_PER_SEC;
  timestamp = g_strdup_printf ("%" G_GINT64_FORMAT, now);
  sha256_init (&sha);
  sha256_update (&sha, strlen (body), (const guint8 *) body);
  sha256_digest (&sha, sizeof (digest), digest);
  digest_hex = hex (digest, sizeof (digest));
  message = g_strjoin ("\n", REQUEST_ID, USER_ID, timestamp, digest_hex, NULL);
  g_free (digest_hex);
  ed25519_sha512_sign (pub, priv, strlen (message), (const guint8 *) message,
      sig);
  sig_hex = hex (sig, sizeof (sig));

  x = g_base64_encode (pub, sizeof (pub));
  for (p = x; *p; p++)
    *p = *p == '+' ? '-' : *p == '/' ? '_' : *p;
  if ((p = strchr (x, '=')))
    *p = '\0';
  keyset = g_strdup_printf ("{\"keys\": [{\"kty\": \"OKP\", \"crv\": "
      "\"Ed25519\", \"kid\": \"bench\", \"x\": \"%s\"}]}", x);
  keys = gst_session_webhook_key_set_parse (keyset, strlen (keyset), &err);
  if (keys == NULL)
    g_error ("key set: %s", err->message);
  g_free (keyset);
  g_free (x);

  headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  soup_message_headers_append (headers, "Content-Type", "application/json");
  soup_message_headers_append (headers, "User-Agent", "bench");
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_REQUEST_ID,
      REQUEST_ID);
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_USER_ID,
      USER_ID);
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_TIMESTAMP,
      timestamp);
  soup_message_headers_append (headers, GST_SESSION_WEBHOOK_HEADER_SIGNATURE,
      sig_hex);
}

int
main (int argc, char **argv)
{
  GArray *lib = bench_values_new (), *vals = bench_values_new ();
  GArray *raw = bench_values_new ();
  JsonBuilder *b;
  guint blocks, ms, i;

  bench_init (&argc, &argv, "Webhook deliveries verified per second, vs "
      "nettle's Ed25519 verification alone", NULL, 7);
  blocks = bench_quick ? 2 : bench_runs;
  ms = bench_quick ? 100 : 700;
  setup ();
  if (!lib_verify () || !lib_verify_values () || !raw_verify ())
    g_error ("the fixed delivery does not verify");

  for (i = 0; i < blocks; i++) {
    /* rotate the order */
    Op order[3] = { lib_verify, lib_verify_values, raw_verify };
    GArray *into[3] = { lib, vals, raw };
    guint k;

    for (k = 0; k < 3; k++)
      bench_values_add (into[(i + k) % 3], rate (order[(i + k) % 3], ms));
  }
  g_printerr ("webhook: %.0f/s verify, %.0f/s verify_values, %.0f/s nettle "
      "alone\n", bench_median (lib), bench_median (vals), bench_median (raw));

  b = bench_result_begin ("webhook");
  bench_result_int (b, "body_bytes", strlen (body));
  bench_result_values (b, "verify", lib);
  bench_result_values (b, "verify_values", vals);
  bench_result_values (b, "nettle", raw);
  bench_result_end (b);

  g_array_unref (lib);
  g_array_unref (vals);
  g_array_unref (raw);
  soup_message_headers_unref (headers);
  gst_session_webhook_key_set_unref (keys);
  g_free (body);
  g_free (message);
  g_free (timestamp);
  g_free (sig_hex);
  return 0;
}
