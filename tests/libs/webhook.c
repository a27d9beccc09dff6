/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Webhook verification (spec 001). Keys and signatures come from an
 * independent implementation: the OpenSSL command line, run at test time.
 */

#include <string.h>
#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>

/* ------------------------------------------------------------------------ */
/* helpers                                                                  */

/* base64url of @data, with or without its padding, by GLib's base64 */
static gchar *
b64url (const guint8 * data, gsize len, gboolean pad)
{
  gchar *s = g_base64_encode (data, len), *p;

  for (p = s; *p; p++) {
    if (*p == '+')
      *p = '-';
    else if (*p == '/')
      *p = '_';
    else if (*p == '=' && !pad)
      *p = '\0';
  }
  return s;
}

static GstSessionWebhookKeySet *
keys_from (const gchar * json)
{
  GError *error = NULL;
  GstSessionWebhookKeySet *keys;

  keys = gst_session_webhook_key_set_parse (json, strlen (json), &error);
  fail_unless (keys != NULL, "key set refused: %s",
      error ? error->message : "");
  return keys;
}

static void
assert_keys_refused (const gchar * json, gsize len, const gchar * part)
{
  GError *error = NULL;

  fail_unless (gst_session_webhook_key_set_parse (json, len, &error) == NULL);
  fail_unless (error != NULL);
  fail_unless (error->domain == GST_SESSION_ERROR);
  fail_unless (strstr (error->message, part) != NULL, "'%s' not in '%s'",
      part, error->message);
  g_error_free (error);
}


/* ------------------------------------------------------------------------ */
/* OpenSSL: keys and signatures from an independent implementation           */

typedef struct
{
  gchar *pem;                   /* private key file */
  guint8 pub[32];
  gchar *x;                     /* base64url, unpadded */
} TestKey;

static gchar *tmp_dir;
static guint tmp_serial;

/* Runs openssl with @args; FALSE (and a message) when it fails. */
static gboolean
run_openssl (const gchar * const *args)
{
  GPtrArray *argv = g_ptr_array_new ();
  gchar *err_text = NULL;
  gint status = 0;
  GError *error = NULL;
  gboolean ok;

  g_ptr_array_add (argv, (gpointer) "openssl");
  for (; *args; args++)
    g_ptr_array_add (argv, (gpointer) * args);
  g_ptr_array_add (argv, NULL);
  ok = g_spawn_sync (NULL, (gchar **) argv->pdata, NULL,
      G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
      &err_text, &status, &error) && g_spawn_check_wait_status (status, NULL);
  if (!ok)
    GST_WARNING ("openssl %s failed: %s%s", (gchar *) argv->pdata[1],
        error ? error->message : "", err_text ? err_text : "");
  g_clear_error (&error);
  g_free (err_text);
  g_ptr_array_free (argv, TRUE);
  return ok;
}

static gchar *
tmp_path (const gchar * ext)
{
  if (tmp_dir == NULL) {
    tmp_dir = g_dir_make_tmp ("gst-session-webhook-XXXXXX", NULL);
    fail_unless (tmp_dir != NULL);
  }
  return g_strdup_printf ("%s/f%u.%s", tmp_dir, tmp_serial++, ext);
}

static void
tmp_cleanup (void)
{
  GDir *dir;
  const gchar *name;

  if (tmp_dir == NULL)
    return;
  dir = g_dir_open (tmp_dir, 0, NULL);
  while (dir && (name = g_dir_read_name (dir))) {
    gchar *path = g_build_filename (tmp_dir, name, NULL);

    g_unlink (path);
    g_free (path);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);
}

/* A new Ed25519 key made by openssl, or NULL when openssl is missing or
 * cannot make one (the test is then skipped). */
static TestKey *
test_key_new (void)
{
  TestKey *key;
  gchar *der, *data = NULL;
  gsize len = 0;
  gchar *program = g_find_program_in_path ("openssl");

  if (program == NULL)
    return NULL;
  g_free (program);
  key = g_new0 (TestKey, 1);
  key->pem = tmp_path ("pem");
  der = tmp_path ("der");
  {
    const gchar *genpkey[] = { "genpkey", "-algorithm", "ed25519", "-out",
      key->pem, NULL
    };
    const gchar *pkey[] = { "pkey", "-in", key->pem, "-pubout", "-outform",
      "DER", "-out", der, NULL
    };

    if (!run_openssl (genpkey) || !run_openssl (pkey)
        || !g_file_get_contents (der, &data, &len, NULL) || len < 32) {
      g_free (key->pem);
      g_free (key);
      key = NULL;
    } else {
      /* the DER SubjectPublicKeyInfo ends with the raw key */
      memcpy (key->pub, data + len - 32, 32);
      key->x = b64url (key->pub, 32, FALSE);
    }
  }
  g_free (data);
  g_free (der);
  return key;
}

static void
test_key_free (TestKey * key)
{
  if (key == NULL)
    return;
  g_free (key->pem);
  g_free (key->x);
  g_free (key);
}

#define REQUIRE_KEY(k) G_STMT_START {                                      \
  if ((k) == NULL) {                                                       \
    g_print ("SKIP %s: openssl with Ed25519 is not available\n", __func__);  \
    return;                                                                \
  }                                                                        \
} G_STMT_END

/* The signature of @message by @key, lowercase hex, made by openssl. */
static gchar *
openssl_sign (const TestKey * key, const gchar * message)
{
  gchar *msg = tmp_path ("msg"), *sig = tmp_path ("sig"), *data = NULL;
  const gchar *pkeyutl[] = { "pkeyutl", "-sign", "-inkey", key->pem,
    "-rawin", "-in", msg, "-out", sig, NULL
  };
  gchar *hex;
  gsize len = 0, i;

  fail_unless (g_file_set_contents (msg, message, -1, NULL));
  fail_unless (run_openssl (pkeyutl));
  fail_unless (g_file_get_contents (sig, &data, &len, NULL));
  fail_unless_equals_int (len, 64);
  hex = g_malloc (129);
  for (i = 0; i < 64; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", (guint8) data[i]);
  g_free (data);
  g_free (msg);
  g_free (sig);
  return hex;
}

/* One delivery as the service would send it: the spec's signed message,
 * built here with GLib's SHA-256 and signed by openssl. */
typedef struct
{
  gchar *request_id;
  gchar *user_id;
  gchar *timestamp;
  gchar *signature;
  gchar *body;
} Delivery;

static Delivery *
delivery_new (const TestKey * key, const gchar * request_id,
    const gchar * user_id, gint64 timestamp, const gchar * body)
{
  Delivery *d = g_new0 (Delivery, 1);
  gchar *hash, *message;

  d->request_id = g_strdup (request_id);
  d->user_id = g_strdup (user_id);
  d->timestamp = g_strdup_printf ("%" G_GINT64_FORMAT, timestamp);
  d->body = g_strdup (body);
  hash = g_compute_checksum_for_string (G_CHECKSUM_SHA256, body, -1);
  message = g_strdup_printf ("%s\n%s\n%s\n%s", request_id, user_id,
      d->timestamp, hash);
  d->signature = openssl_sign (key, message);
  g_free (message);
  g_free (hash);
  return d;
}

static void
delivery_free (Delivery * d)
{
  g_free (d->request_id);
  g_free (d->user_id);
  g_free (d->timestamp);
  g_free (d->signature);
  g_free (d->body);
  g_free (d);
}

static SoupMessageHeaders *
delivery_headers (const Delivery * d)
{
  SoupMessageHeaders *h = soup_message_headers_new
      (SOUP_MESSAGE_HEADERS_REQUEST);

  /* names in other cases than the spec's */
  soup_message_headers_append (h, "x-svc-webhook-request-id", d->request_id);
  soup_message_headers_append (h, "X-SVC-WEBHOOK-USER-ID", d->user_id);
  soup_message_headers_append (h, "X-Svc-Webhook-Timestamp", d->timestamp);
  soup_message_headers_append (h, "x-Svc-webhook-Signature", d->signature);
  soup_message_headers_append (h, "Content-Type", "application/json");
  return h;
}

/* Verifies @d against @keys at @now with the spec's leeway. */
static GstSessionWebhookVerification *
verify_delivery (const GstSessionWebhookKeySet * keys, const Delivery * d,
    gint64 now)
{
  return gst_session_webhook_verify_values (keys, d->request_id, d->user_id,
      d->timestamp, d->signature, (const guint8 *) d->body, strlen (d->body),
      now, GST_SESSION_WEBHOOK_LEEWAY);
}

static GstSessionWebhookKeySet *
keys_of (const TestKey * a, const TestKey * b)
{
  gchar *json = b ? g_strdup_printf ("{\"keys\": [{\"x\": \"%s\"}, "
      "{\"x\": \"%s\"}]}", a->x, b->x) :
      g_strdup_printf ("{\"keys\": [{\"x\": \"%s\"}]}", a->x);
  GstSessionWebhookKeySet *keys = keys_from (json);

  g_free (json);
  return keys;
}

/* No text may show key material or the signature. */
static void
assert_text_clean (const GstSessionWebhookVerification * v,
    const TestKey * key, const Delivery * d)
{
  gchar *upper = g_ascii_strup (d->signature, -1);
  gchar *pad = b64url (key->pub, 32, TRUE);
  gchar *hex = g_malloc (65);
  gsize i;

  for (i = 0; i < 32; i++)
    g_snprintf (hex + 2 * i, 3, "%02x", key->pub[i]);
  fail_unless (v->text != NULL && *v->text != '\0');
  /* 16 characters of any of them would already be too much */
  fail_if (strstr (v->text, d->signature) || strstr (v->text, upper));
  fail_if (g_strstr_len (v->text, -1, key->x)
      || g_strstr_len (v->text, -1, pad) || g_strstr_len (v->text, -1, hex));
  for (i = 0; i + 16 <= 128; i += 16) {
    gchar *part = g_strndup (d->signature + i, 16);

    fail_if (strstr (v->text, part), "signature part in '%s'", v->text);
    g_free (part);
  }
  g_free (upper);
  g_free (pad);
  g_free (hex);
}

/* ------------------------------------------------------------------------ */
/* key set                                                                  */

GST_START_TEST (test_key_set_padded_and_unpadded)
{
  guint8 raw[32];
  gchar *padded, *unpadded, *json;
  GstSessionWebhookKeySet *keys;
  guint i;

  for (i = 0; i < 32; i++)
    raw[i] = (guint8) (i * 37 + 250);
  padded = b64url (raw, 32, TRUE);
  fail_unless (g_str_has_suffix (padded, "="));
  raw[0] ^= 1;
  unpadded = b64url (raw, 32, FALSE);
  fail_if (strchr (unpadded, '='));

  json = g_strdup_printf ("{\"keys\": [{\"kty\": \"OKP\", \"crv\": "
      "\"Ed25519\", \"x\": \"%s\", \"kid\": \"a\"}, {\"x\": \"%s\"}]}",
      padded, unpadded);
  keys = keys_from (json);
  fail_unless_equals_int (gst_session_webhook_key_set_get_n_keys (keys), 2);
  fail_unless (gst_session_webhook_key_set_get_skipped (keys)[0] == NULL);
  gst_session_webhook_key_set_unref (keys);

  g_free (json);
  g_free (padded);
  g_free (unpadded);
}

GST_END_TEST;

GST_START_TEST (test_key_set_skips_bad_entries)
{
  guint8 raw[33] = { 0 };
  gchar *k31, *k32, *k33, *std, *json;
  const gchar *const *skipped;
  GstSessionWebhookKeySet *keys;

  raw[5] = 0xfb;                /* gives '-' or '_' somewhere, '+' or '/' in std */
  raw[6] = 0xff;
  k31 = b64url (raw, 31, FALSE);
  k32 = b64url (raw, 32, FALSE);
  k33 = b64url (raw, 33, FALSE);
  std = g_base64_encode (raw, 32);
  fail_unless (strpbrk (std, "+/") != NULL);

  json = g_strdup_printf ("{\"keys\": [{\"x\": \"%s\"}, 7, {\"y\": 1}, "
      "{\"x\": \"%s\"}, {\"x\": \"%s\"}, {\"x\": \"%s\"}, {\"x\": \"%s\"}, "
      "{\"x\": \"%s\", \"kty\": \"EC\"}, {\"x\": \"%s\", \"crv\": \"X25519\"}, "
      "{\"x\": \"%s==\"}, {\"x\": \"a\"}]}", k31, k33, std, k32, k32, k32, k32,
      k32);
  keys = keys_from (json);
  fail_unless_equals_int (gst_session_webhook_key_set_get_n_keys (keys), 1);
  skipped = gst_session_webhook_key_set_get_skipped (keys);
  fail_unless_equals_int (g_strv_length ((gchar **) skipped), 10);
  fail_unless_equals_string (skipped[0], "key 0: \"x\" is 31 bytes, not 32");
  fail_unless_equals_string (skipped[1], "key 1: not an object");
  fail_unless_equals_string (skipped[2], "key 2: no \"x\" string");
  fail_unless_equals_string (skipped[3], "key 3: \"x\" is 33 bytes, not 32");
  fail_unless_equals_string (skipped[4], "key 4: \"x\" is not base64url");
  fail_unless_equals_string (skipped[5],
      "key 6: the same key as an earlier one");
  fail_unless (g_str_has_prefix (skipped[6], "key 7: not an Ed25519 key"));
  fail_unless (g_str_has_prefix (skipped[7], "key 8: not an Ed25519 key"));
  /* two '=' after 43 characters is wrong padding */
  fail_unless_equals_string (skipped[8], "key 9: \"x\" is not base64url");
  fail_unless_equals_string (skipped[9], "key 10: \"x\" is not base64url");
  gst_session_webhook_key_set_unref (keys);

  g_free (json);
  g_free (k31);
  g_free (k32);
  g_free (k33);
  g_free (std);
}

GST_END_TEST;

GST_START_TEST (test_key_set_refused)
{
  guint8 raw[31] = { 1 };
  gchar *k31 = b64url (raw, 31, TRUE), *json, *big, *deep;
  GString *s;
  guint i;

  json = g_strdup_printf ("{\"keys\": [{\"x\": \"%s\"}]}", k31);
  assert_keys_refused (json, strlen (json),
      "no usable key: key 0: \"x\" is 31 bytes, not 32");
  g_free (json);
  json = g_strdup ("{\"keys\": [{\"x\": \"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
      "AAAAAAAAAAAAAAAAAAAA\"}]}");
  assert_keys_refused (json, strlen (json), "\"x\" is longer than 32 bytes");
  assert_keys_refused ("{\"keys\": []}", 12, "no usable key");
  assert_keys_refused ("{\"keys\": {}}", 12, "no \"keys\" array");
  assert_keys_refused ("{}", 2, "no \"keys\" array");
  assert_keys_refused ("[]", 2, "not a JSON object");
  assert_keys_refused ("{\"keys\": [", 10, "not JSON");
  assert_keys_refused ("", 0, "empty");
  assert_keys_refused ("{\"keys\": [\xff]}", 12, "not UTF-8");

  s = g_string_new ("{\"keys\": [{\"x\": \"");
  while (s->len <= GST_SESSION_WEBHOOK_KEY_SET_MAX_SIZE)
    g_string_append_c (s, 'A');
  g_string_append (s, "\"}]}");
  big = g_string_free (s, FALSE);
  assert_keys_refused (big, strlen (big), "larger than 65536 bytes");

  s = g_string_new ("{\"keys\": [], \"n\": ");
  for (i = 0; i < 40; i++)
    g_string_append_c (s, '[');
  for (i = 0; i < 40; i++)
    g_string_append_c (s, ']');
  g_string_append_c (s, '}');
  deep = g_string_free (s, FALSE);
  assert_keys_refused (deep, strlen (deep), "nests deeper than 32");

  g_free (deep);
  g_free (big);
  g_free (json);
  g_free (k31);
}

GST_END_TEST;


/* ------------------------------------------------------------------------ */
/* verification of one delivery                                             */

#define NOW G_GINT64_CONSTANT (1767225600)
#define BODY "{\"request_id\": \"req-1\", \"gateway_request_id\": \"req-1\", " \
    "\"status\": \"OK\", \"payload\": {\"images\": [{\"url\": \"u\"}]}}"

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

static Suite *
webhook_suite (void)
{
  Suite *s = suite_create ("webhook");
  TCase *tc = tcase_create ("keyset");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_key_set_padded_and_unpadded);
  tcase_add_test (tc, test_key_set_skips_bad_entries);
  tcase_add_test (tc, test_key_set_refused);
  tcase_add_test (tc, test_verify_valid);
  tcase_add_test (tc, test_verify_tampering);
  tcase_add_test (tc, test_verify_skew);
  tcase_add_test (tc, test_verify_headers);
  tcase_add_checked_fixture (tc, NULL, tmp_cleanup);
  return s;
}

GST_CHECK_MAIN (webhook);
