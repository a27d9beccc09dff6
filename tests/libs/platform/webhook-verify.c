/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Webhooks (spec 001): one delivery verified, and the rates of
 * verification (printed as a seed for the benchmark, not asserted).
 */

#include "webhook-test.h"


GST_START_TEST (test_verify_valid)
{
  TestKey *key = test_key_new (), *other;
  GstSessionWebhookKeySet *keys;
  GstSessionWebhookVerification *v, *copy;
  SoupMessageHeaders *h;
  Delivery *d;

  REQUIRE_KEY (key);
  other = test_key_new ();
  d = delivery_new (key, "req-1", "user-9", NOW - 10, BODY);

  /* through SoupMessageHeaders, names in any case */
  keys = keys_of (key, NULL);
  h = delivery_headers (d);
  v = gst_session_webhook_verify (keys, h, (const guint8 *) d->body,
      strlen (d->body), NOW, GST_SESSION_WEBHOOK_LEEWAY);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
  fail_unless_equals_int (v->key_index, 0);
  fail_unless_equals_int (v->skew, 10);
  fail_unless_equals_string (v->request_id, "req-1");
  fail_unless_equals_string (v->user_id, "user-9");
  fail_unless (v->timestamp == NOW - 10);
  fail_unless (v->header == NULL);
  fail_if (v->refetched);
  fail_unless_equals_int (gst_session_webhook_result_to_http_status
      (v->result), 200);
  assert_text_clean (v, key, d);
  copy = gst_session_webhook_verification_copy (v);
  fail_unless_equals_string (copy->text, v->text);
  fail_unless_equals_string (copy->request_id, "req-1");
  gst_session_webhook_verification_free (copy);
  gst_session_webhook_verification_free (v);
  gst_session_webhook_key_set_unref (keys);

  /* the second key of a set verifies */
  keys = keys_of (other, key);
  v = verify_delivery (keys, d, NOW);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
  fail_unless_equals_int (v->key_index, 1);
  gst_session_webhook_verification_free (v);
  gst_session_webhook_key_set_unref (keys);

  /* an uppercase signature is hexadecimal too */
  keys = keys_of (key, NULL);
  {
    gchar *lower = d->signature;

    d->signature = g_ascii_strup (lower, -1);
    v = verify_delivery (keys, d, NOW);
    fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
    gst_session_webhook_verification_free (v);
    g_free (d->signature);
    d->signature = lower;
  }
  gst_session_webhook_key_set_unref (keys);

  soup_message_headers_unref (h);
  delivery_free (d);
  test_key_free (other);
  test_key_free (key);
}

GST_END_TEST;

/* Verifies @d with one field set to @value (NULL: missing), expects
 * @result. */
static void
assert_tampered (const GstSessionWebhookKeySet * keys, const TestKey * key,
    const Delivery * d, gchar ** field, const gchar * value,
    GstSessionWebhookResult result)
{
  GstSessionWebhookVerification *v;
  gchar *saved = *field;

  *field = (gchar *) value;
  v = verify_delivery (keys, d, NOW);
  *field = saved;
  fail_unless_equals_int (v->result, result);
  fail_unless (v->request_id == NULL && v->key_index == -1);
  assert_text_clean (v, key, d);
  gst_session_webhook_verification_free (v);
}

GST_START_TEST (test_verify_tampering)
{
  TestKey *key = test_key_new (), *other;
  GstSessionWebhookKeySet *keys, *wrong;
  GstSessionWebhookVerification *v;
  Delivery *d;
  gchar *body, *sig, *ts;

  REQUIRE_KEY (key);
  other = test_key_new ();
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);
  keys = keys_of (key, NULL);

  body = g_strdup (d->body);
  body[20] ^= 0x01;
  assert_tampered (keys, key, d, &d->body, body,
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  /* one byte more: a trailing newline is a different body */
  g_free (body);
  body = g_strconcat (d->body, "\n", NULL);
  assert_tampered (keys, key, d, &d->body, body,
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  assert_tampered (keys, key, d, &d->request_id, "req-2",
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  assert_tampered (keys, key, d, &d->user_id, "user-8",
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  ts = g_strdup_printf ("%" G_GINT64_FORMAT, NOW + 1);
  assert_tampered (keys, key, d, &d->timestamp, ts,
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  g_free (ts);
  /* the same time written otherwise is another signed message */
  ts = g_strdup_printf ("0%" G_GINT64_FORMAT, NOW);
  assert_tampered (keys, key, d, &d->timestamp, ts,
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  g_free (ts);
  sig = g_strdup (d->signature);
  sig[70] = sig[70] == '0' ? '1' : '0';
  assert_tampered (keys, key, d, &d->signature, sig,
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  g_free (sig);

  /* the right delivery, the wrong key */
  wrong = keys_of (other, NULL);
  v = verify_delivery (wrong, d, NOW);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  fail_unless_equals_int (gst_session_webhook_result_to_http_status
      (v->result), 401);
  assert_text_clean (v, key, d);
  assert_text_clean (v, other, d);
  gst_session_webhook_verification_free (v);

  /* no key set at all */
  v = verify_delivery (NULL, d, NOW);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_NO_KEYS);
  fail_unless_equals_int (gst_session_webhook_result_to_http_status
      (v->result), 503);
  gst_session_webhook_verification_free (v);

  /* untouched, it still verifies */
  v = verify_delivery (keys, d, NOW);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
  gst_session_webhook_verification_free (v);

  g_free (body);
  gst_session_webhook_key_set_unref (wrong);
  gst_session_webhook_key_set_unref (keys);
  delivery_free (d);
  test_key_free (other);
  test_key_free (key);
}

GST_END_TEST;

GST_START_TEST (test_verify_skew)
{
  static const struct
  {
    gint64 offset;              /* timestamp - now */
    GstSessionWebhookResult result;
  } cases[] = {
    {0, GST_SESSION_WEBHOOK_RESULT_VALID},
    {300, GST_SESSION_WEBHOOK_RESULT_VALID},
    {-300, GST_SESSION_WEBHOOK_RESULT_VALID},
    {301, GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP},
    {-301, GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP},
    {-86400, GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP},
  };
  TestKey *key = test_key_new ();
  GstSessionWebhookKeySet *keys;
  guint i;

  REQUIRE_KEY (key);
  keys = keys_of (key, NULL);
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    Delivery *d = delivery_new (key, "req-1", "user-9", NOW + cases[i].offset,
        BODY);
    GstSessionWebhookVerification *v = verify_delivery (keys, d, NOW);

    fail_unless_equals_int (v->result, cases[i].result);
    fail_unless (v->skew == -cases[i].offset, "case %u: skew %"
        G_GINT64_FORMAT, i, v->skew);
    if (cases[i].result != GST_SESSION_WEBHOOK_RESULT_VALID)
      fail_unless_equals_string (v->header, "X-Svc-Webhook-Timestamp");
    assert_text_clean (v, key, d);
    gst_session_webhook_verification_free (v);
    delivery_free (d);
  }

  /* a test may narrow the leeway */
  {
    Delivery *d = delivery_new (key, "req-1", "user-9", NOW - 5, BODY);
    GstSessionWebhookVerification *v;

    v = gst_session_webhook_verify_values (keys, d->request_id, d->user_id,
        d->timestamp, d->signature, (const guint8 *) d->body,
        strlen (d->body), NOW, 4);
    fail_unless_equals_int (v->result,
        GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP);
    fail_unless (strstr (v->text, "5 s old, more than the 4 s allowed"));
    gst_session_webhook_verification_free (v);
    delivery_free (d);
  }
  gst_session_webhook_key_set_unref (keys);
  test_key_free (key);
}

GST_END_TEST;

GST_START_TEST (test_verify_headers)
{
  static const gchar *names[] = { "X-Svc-Webhook-Request-Id",
    "X-Svc-Webhook-User-Id", "X-Svc-Webhook-Timestamp",
    "X-Svc-Webhook-Signature"
  };
  TestKey *key = test_key_new ();
  GstSessionWebhookKeySet *keys;
  GstSessionWebhookVerification *v;
  SoupMessageHeaders *h;
  Delivery *d;
  gchar *long_id;
  guint i;

  REQUIRE_KEY (key);
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);
  keys = keys_of (key, NULL);

  /* each header missing, then empty */
  for (i = 0; i < 4; i++) {
    gchar **field[] = { &d->request_id, &d->user_id, &d->timestamp,
      &d->signature
    };

    assert_tampered (keys, key, d, field[i], NULL,
        GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER);
    assert_tampered (keys, key, d, field[i], "",
        GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER);

    h = delivery_headers (d);
    soup_message_headers_remove (h, names[i]);
    v = gst_session_webhook_verify (keys, h, (const guint8 *) d->body,
        strlen (d->body), NOW, GST_SESSION_WEBHOOK_LEEWAY);
    fail_unless_equals_int (v->result,
        GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER);
    fail_unless_equals_string (v->header, names[i]);
    fail_unless (strstr (v->text, names[i]) != NULL);
    assert_text_clean (v, key, d);
    gst_session_webhook_verification_free (v);

    /* twice is refused too */
    soup_message_headers_append (h, names[i], "a");
    soup_message_headers_append (h, names[i], "a");
    v = gst_session_webhook_verify (keys, h, (const guint8 *) d->body,
        strlen (d->body), NOW, GST_SESSION_WEBHOOK_LEEWAY);
    fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_BAD_HEADER);
    fail_unless_equals_string (v->header, names[i]);
    fail_unless (strstr (v->text, "present 2 times") != NULL);
    gst_session_webhook_verification_free (v);
    soup_message_headers_unref (h);
  }

  /* all missing: every name is given */
  h = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  v = gst_session_webhook_verify (keys, h, NULL, 0, NOW, 300);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_MISSING_HEADER);
  fail_unless_equals_string (v->text, "The webhook headers "
      "X-Svc-Webhook-Request-Id, X-Svc-Webhook-User-Id, "
      "X-Svc-Webhook-Timestamp, X-Svc-Webhook-Signature are missing or empty");
  gst_session_webhook_verification_free (v);
  soup_message_headers_unref (h);

  /* values that cannot be signed */
  assert_tampered (keys, key, d, &d->user_id, "user\x01",
      GST_SESSION_WEBHOOK_RESULT_BAD_HEADER);
  assert_tampered (keys, key, d, &d->request_id, "req\n1",
      GST_SESSION_WEBHOOK_RESULT_BAD_HEADER);
  assert_tampered (keys, key, d, &d->request_id, "req\xff",
      GST_SESSION_WEBHOOK_RESULT_BAD_HEADER);
  long_id = g_strnfill (GST_SESSION_WEBHOOK_MAX_HEADER + 1, 'a');
  assert_tampered (keys, key, d, &d->request_id, long_id,
      GST_SESSION_WEBHOOK_RESULT_BAD_HEADER);
  g_free (long_id);

  /* timestamps that are not integers */
  assert_tampered (keys, key, d, &d->timestamp, "1767225600.5",
      GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP);
  assert_tampered (keys, key, d, &d->timestamp, "+1767225600",
      GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP);
  assert_tampered (keys, key, d, &d->timestamp, " 1767225600",
      GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP);
  assert_tampered (keys, key, d, &d->timestamp, "1767225600x",
      GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP);
  assert_tampered (keys, key, d, &d->timestamp, "-",
      GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP);
  assert_tampered (keys, key, d, &d->timestamp, "99999999999999999999",
      GST_SESSION_WEBHOOK_RESULT_BAD_TIMESTAMP);
  /* integers far away are stale or in the future, whatever their size */
  assert_tampered (keys, key, d, &d->timestamp, "9223372036854775807",
      GST_SESSION_WEBHOOK_RESULT_FUTURE_TIMESTAMP);
  assert_tampered (keys, key, d, &d->timestamp, "-9223372036854775807",
      GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP);

  /* signatures that are not 64 bytes of hex */
  {
    gchar *sig = g_strdup (d->signature);

    sig[127] = '\0';
    assert_tampered (keys, key, d, &d->signature, sig,
        GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING);
    g_free (sig);
    sig = g_strconcat (d->signature, "00", NULL);
    assert_tampered (keys, key, d, &d->signature, sig,
        GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING);
    g_free (sig);
    sig = g_strdup (d->signature);
    sig[3] = 'g';
    assert_tampered (keys, key, d, &d->signature, sig,
        GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING);
    g_free (sig);
    sig = g_base64_encode ((const guint8 *) d->signature, 64);
    assert_tampered (keys, key, d, &d->signature, sig,
        GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING);
    g_free (sig);
  }

  gst_session_webhook_key_set_unref (keys);
  delivery_free (d);
  test_key_free (key);
}

GST_END_TEST;


/* ------------------------------------------------------------------------ */
/* rates, printed as a seed for the benchmark (not asserted)                */

#define BENCH_SECONDS 2
#define BENCH_MAX_ROUNDS 10000000

typedef gboolean (*BenchRound) (gpointer data);

/* Runs @round for about BENCH_SECONDS (bounded in rounds too); returns the
 * rounds per second. */
static gdouble
bench (BenchRound round, gpointer data)
{
  gint64 start = g_get_monotonic_time (), end = start;
  guint n = 0;

  while (n < BENCH_MAX_ROUNDS) {
    fail_unless (round (data));
    n++;
    if ((n & 15) == 0) {
      end = g_get_monotonic_time ();
      if (end - start >= BENCH_SECONDS * G_USEC_PER_SEC)
        break;
    }
  }
  end = g_get_monotonic_time ();
  return n / ((end - start) / (gdouble) G_USEC_PER_SEC);
}

typedef struct
{
  const Delivery *d;
  GstSessionWebhookKeySet *keys;
  SoupMessageHeaders *headers;
  guint8 pub[32];
  guint8 sig[64];
  gchar *message;
  GstSessionWebhookVerifier *verifier;
} Bench;

static gboolean
bench_raw (gpointer data)
{
  Bench *b = data;

  return ed25519_sha512_verify (b->pub, strlen (b->message),
      (const guint8 *) b->message, b->sig) == 1;
}

static gboolean
bench_verify (gpointer data)
{
  Bench *b = data;
  GstSessionWebhookVerification *v;
  gboolean ok;

  v = gst_session_webhook_verify (b->keys, b->headers,
      (const guint8 *) b->d->body, strlen (b->d->body), NOW,
      GST_SESSION_WEBHOOK_LEEWAY);
  ok = v->result == GST_SESSION_WEBHOOK_RESULT_VALID;
  gst_session_webhook_verification_free (v);
  return ok;
}

static gboolean
bench_verifier (gpointer data)
{
  Bench *b = data;
  GstSessionWebhookVerification *v = NULL;
  gboolean ok;

  gst_session_webhook_verifier_verify_async (b->verifier, b->headers,
      (const guint8 *) b->d->body, strlen (b->d->body), NULL, NULL,
      verified_cb, &v);
  while (v == NULL)
    g_main_context_iteration (test_ctx, TRUE);
  ok = v->result == GST_SESSION_WEBHOOK_RESULT_VALID;
  gst_session_webhook_verification_free (v);
  return ok;
}

GST_START_TEST (test_verify_rates)
{
  TestKey *key = test_key_new (), *others[3];
  Bench b = { NULL };
  Delivery *d;
  gchar *hash, *json;
  gdouble raw, one, four, async;
  guint i;

  REQUIRE_KEY (key);
  for (i = 0; i < 3; i++)
    others[i] = test_key_new ();
  d = delivery_new (key, "3f7c1a52-7d7b-4f7e-9a53-0d1b3c4e5f60",
      "user-123456", NOW, BODY);
  b.d = d;
  b.headers = delivery_headers (d);
  memcpy (b.pub, key->pub, 32);
  for (i = 0; i < 64; i++)
    b.sig[i] = (guint8) (g_ascii_xdigit_value (d->signature[2 * i]) << 4 |
        g_ascii_xdigit_value (d->signature[2 * i + 1]));
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, d->body, -1);
  b.message = g_strdup_printf ("%s\n%s\n%s\n%s", d->request_id, d->user_id,
      d->timestamp, hash);

  /* the machine may be busy: the raw rate is the mean of a run before and
   * a run after the others */
  raw = bench (bench_raw, &b);

  b.keys = keys_of (key, NULL);
  one = bench (bench_verify, &b);
  b.verifier = verifier_new (NULL);
  gst_session_webhook_verifier_set_key_set (b.verifier, b.keys);
  async = bench (bench_verifier, &b);
  gst_session_webhook_key_set_unref (b.keys);

  /* the worst case of a rotation: the right key is the last of four */
  json = g_strdup_printf ("{\"keys\": [{\"x\": \"%s\"}, {\"x\": \"%s\"}, "
      "{\"x\": \"%s\"}, {\"x\": \"%s\"}]}", others[0]->x, others[1]->x,
      others[2]->x, key->x);
  b.keys = keys_from (json);
  four = bench (bench_verify, &b);
  gst_session_webhook_key_set_unref (b.keys);
  raw = (raw + bench (bench_raw, &b)) / 2;

  g_print ("webhook verify rates (body %" G_GSIZE_FORMAT " bytes, ~%d s "
      "each):\n", strlen (d->body), BENCH_SECONDS);
  g_print ("  raw ed25519_sha512_verify:              %10.0f /s\n", raw);
  g_print ("  gst_session_webhook_verify, 1 key:      %10.0f /s (%.0f %%)\n",
      one, 100.0 * one / raw);
  g_print ("  verifier async (cached keys), 1 key:    %10.0f /s (%.0f %%)\n",
      async, 100.0 * async / raw);
  g_print ("  gst_session_webhook_verify, key 4 of 4: %10.0f /s (%.0f %%)\n",
      four, 100.0 * four / raw);

  gst_object_unref (b.verifier);
  g_free (json);
  g_free (b.message);
  g_free (hash);
  soup_message_headers_unref (b.headers);
  delivery_free (d);
  for (i = 0; i < 3; i++)
    test_key_free (others[i]);
  test_key_free (key);
}

GST_END_TEST;


static Suite *
webhook_verify_suite (void)
{
  Suite *s = suite_create ("webhook-verify");
  TCase *tc = tcase_create ("verify");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_verify_valid);
  tcase_add_test (tc, test_verify_tampering);
  tcase_add_test (tc, test_verify_skew);
  tcase_add_test (tc, test_verify_headers);
  tcase_add_checked_fixture (tc, NULL, test_keys_cleanup);

  tc = tcase_create ("rates");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, context_setup, context_teardown);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_verify_rates);
  return s;
}

GST_CHECK_MAIN (webhook_verify);
