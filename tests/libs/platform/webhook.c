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
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include <nettle/eddsa.h>

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

/* key sets and metadata: https, or plain http to loopback only */
GST_START_TEST (test_url_allowed)
{
  const gchar *ok[] = { "https://keys.example/jwks.json",
    "http://127.0.0.1:8080/jwks.json", "http://127.1.2.3/k",
    "http://localhost/k", "http://[::1]:9/k"
  };
  const gchar *refused[] = { "http://keys.example/jwks.json",
    "http://10.1.2.3/k", "ftp://127.0.0.1/k", "http:///k", "jwks.json"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (ok); i++)
    fail_unless (gst_session_webhook_url_allowed (ok[i], FALSE, NULL), "%s",
        ok[i]);
  for (i = 0; i < G_N_ELEMENTS (refused); i++) {
    GError *err = NULL;

    fail_if (gst_session_webhook_url_allowed (refused[i], FALSE, &err), "%s",
        refused[i]);
    fail_unless (err != NULL);
    g_error_free (err);
  }
  fail_unless (gst_session_webhook_url_allowed ("http://keys.example/k",
          TRUE, NULL));
  fail_if (gst_session_webhook_url_allowed ("ftp://keys.example/k", TRUE,
          NULL));
}

GST_END_TEST;

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
  for (i = 0; i + 16 <= strlen (d->signature); i += 16) {
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
  assert_keys_refused ("{\"keys\": [", 10, "not strict JSON");
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
  assert_keys_refused (deep, strlen (deep), "nested deeper than 32");

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

/* ------------------------------------------------------------------------ */
/* the delivery body                                                        */

static GstSessionWebhookDelivery *
parse_ok (const gchar * body, const gchar * signed_request_id)
{
  GError *error = NULL;
  GstSessionWebhookDelivery *d;

  d = gst_session_webhook_delivery_parse (body, strlen (body), 0,
      signed_request_id, &error);
  fail_unless (d != NULL, "refused: %s", error ? error->message : "");
  return d;
}

static void
assert_parse_refused (const gchar * body, const gchar * signed_request_id,
    gint code, const gchar * text)
{
  GError *error = NULL;

  fail_unless (gst_session_webhook_delivery_parse (body, strlen (body), 0,
          signed_request_id, &error) == NULL);
  fail_unless (g_error_matches (error, GST_SESSION_ERROR, code), "%s",
      error ? error->message : "");
  fail_unless_equals_string (error->message, text);
  g_error_free (error);
}

GST_START_TEST (test_delivery_ok)
{
  GstSessionWebhookDelivery *d, *copy;
  JsonObject *payload;

  d = parse_ok (BODY, "req-1");
  fail_unless_equals_string (d->request_id, "req-1");
  fail_unless_equals_string (d->gateway_request_id, "req-1");
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_OK);
  fail_unless (d->payload != NULL && JSON_NODE_HOLDS_OBJECT (d->payload));
  payload = json_node_get_object (d->payload);
  fail_unless (json_object_has_member (payload, "images"));
  fail_unless (d->error == NULL && d->payload_error == NULL);
  fail_unless (d->detail != NULL && d->detail->len == 0);
  copy = gst_session_webhook_delivery_copy (d);
  fail_unless_equals_string (copy->gateway_request_id, "req-1");
  fail_unless (copy->payload == d->payload);
  gst_session_webhook_delivery_free (d);
  gst_session_webhook_delivery_free (copy);

  /* a retried request: the gateway id differs; unknown members ignored */
  d = parse_ok ("{\"request_id\": \"a\", \"gateway_request_id\": \"b\", "
      "\"status\": \"OK\", \"payload\": {}, \"extra\": [1]}", NULL);
  fail_unless_equals_string (d->gateway_request_id, "b");
  gst_session_webhook_delivery_free (d);
}

GST_END_TEST;

GST_START_TEST (test_delivery_error_with_detail)
{
  GstSessionWebhookDelivery *d, *copy;
  GstSessionHttpErrorItem *item;
  gint64 min_width = 0;

  d = parse_ok ("{\"request_id\": \"r\", \"gateway_request_id\": \"r\", "
      "\"status\": \"ERROR\", \"error\": \"Invalid status code: 422\", "
      "\"payload\": {\"detail\": [{\"loc\": [\"body\", \"image_url\"], "
      "\"msg\": \"Image too small\", \"type\": \"image_too_small\", "
      "\"url\": \"https://docs/errors/#image_too_small\", "
      "\"ctx\": {\"min_width\": 512, \"min_height\": 512}, "
      "\"input\": \"https://x/y.png\"}, 5, "
      "{\"loc\": [\"body\"], \"msg\": \"Flagged\", "
      "\"type\": \"content_policy_violation\"}]}}", "r");
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_ERROR);
  fail_unless_equals_string (d->error, "Invalid status code: 422");
  fail_unless_equals_int (d->detail->len, 2);
  item = g_ptr_array_index (d->detail, 0);
  fail_unless_equals_string (item->type, "image_too_small");
  fail_unless_equals_string (item->msg, "Image too small");
  fail_unless_equals_string (item->loc, "/body/image_url");
  fail_unless_equals_string (item->input, "\"https://x/y.png\"");
  fail_unless (gst_structure_get_int64 (item->ctx, "min_width", &min_width));
  fail_unless (min_width == 512);
  item = g_ptr_array_index (d->detail, 1);
  fail_unless_equals_string (item->type, "content_policy_violation");
  fail_unless_equals_string (item->loc, "/body");

  copy = gst_session_webhook_delivery_copy (d);
  gst_session_webhook_delivery_free (d);
  fail_unless_equals_int (copy->detail->len, 2);
  item = g_ptr_array_index (copy->detail, 0);
  fail_unless_equals_string (item->loc, "/body/image_url");
  gst_session_webhook_delivery_free (copy);

  /* a detail that is not an array, or no payload: no items */
  d = parse_ok ("{\"request_id\": \"r\", \"gateway_request_id\": \"r\", "
      "\"status\": \"ERROR\", \"error\": \"boom\", \"payload\": "
      "{\"detail\": \"text\"}}", "r");
  fail_unless_equals_int (d->detail->len, 0);
  gst_session_webhook_delivery_free (d);
  d = parse_ok ("{\"request_id\": \"r\", \"gateway_request_id\": \"r\", "
      "\"status\": \"ERROR\", \"error\": \"boom\", \"payload\": null}", "r");
  fail_unless (d->payload == NULL);
  fail_unless_equals_int (d->detail->len, 0);
  gst_session_webhook_delivery_free (d);
}

GST_END_TEST;

GST_START_TEST (test_delivery_payload_error)
{
  GstSessionWebhookDelivery *d;

  d = parse_ok ("{\"request_id\": \"r\", \"gateway_request_id\": \"r\", "
      "\"status\": \"OK\", \"payload\": null, \"payload_error\": "
      "\"Object of type bytes is not JSON serializable\"}", "r");
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_OK);
  fail_unless (d->payload == NULL);
  fail_unless_equals_string (d->payload_error,
      "Object of type bytes is not JSON serializable");
  gst_session_webhook_delivery_free (d);

  assert_parse_refused ("{\"request_id\": \"r\", \"gateway_request_id\": "
      "\"r\", \"status\": \"OK\", \"payload\": null}", "r",
      GST_SESSION_ERROR_INVALID_MESSAGE, "webhook delivery: /payload_error "
      "is missing (status is \"OK\" and the payload is null)");
}

GST_END_TEST;

GST_START_TEST (test_delivery_refused)
{
  GString *s;
  gchar *big;
  GError *error = NULL;

  /* the body's id must be the signed one */
  assert_parse_refused (BODY, "req-2", GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /request_id differs from the signed "
      "X-Svc-Webhook-Request-Id header");
  assert_parse_refused ("{\"gateway_request_id\": \"r\", \"status\": \"OK\", "
      "\"payload\": {}}", NULL, GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /request_id is missing");
  assert_parse_refused ("{\"request_id\": 5, \"gateway_request_id\": \"r\", "
      "\"status\": \"OK\", \"payload\": {}}", NULL,
      GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /request_id must be a string");
  assert_parse_refused ("{\"request_id\": \"\", \"gateway_request_id\": "
      "\"r\", \"status\": \"OK\", \"payload\": {}}", NULL,
      GST_SESSION_ERROR_INVALID_MESSAGE, "webhook delivery: /request_id is "
      "empty");
  assert_parse_refused ("{\"request_id\": \"r\", \"status\": \"OK\", "
      "\"payload\": {}}", NULL, GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /gateway_request_id is missing");
  assert_parse_refused ("{\"request_id\": \"r\", \"gateway_request_id\": "
      "\"r\", \"status\": \"ok\", \"payload\": {}}", NULL,
      GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /status must be \"OK\" or \"ERROR\"");
  assert_parse_refused ("{\"request_id\": \"r\", \"gateway_request_id\": "
      "\"r\", \"status\": \"OK\"}", NULL, GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /payload is missing");
  assert_parse_refused ("{\"request_id\": \"r\", \"gateway_request_id\": "
      "\"r\", \"status\": \"OK\", \"payload\": [1]}", NULL,
      GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /payload must be an object or null");
  assert_parse_refused ("{\"request_id\": \"r\", \"gateway_request_id\": "
      "\"r\", \"status\": \"ERROR\", \"payload\": {}}", NULL,
      GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /error is missing (status is \"ERROR\")");
  assert_parse_refused ("{\"request_id\": \"r\", \"gateway_request_id\": "
      "\"r\", \"status\": \"ERROR\", \"error\": 1, \"payload\": {}}", NULL,
      GST_SESSION_ERROR_INVALID_MESSAGE,
      "webhook delivery: /error must be a string");
  assert_parse_refused ("[]", NULL, GST_SESSION_ERROR_INVALID_JSON,
      "webhook delivery: the body is not a JSON object");

  /* the size limit is the caller's */
  fail_unless (gst_session_webhook_delivery_parse (BODY, strlen (BODY),
          strlen (BODY) - 1, NULL, &error) == NULL);
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_JSON));
  fail_unless (strstr (error->message, "is larger than") != NULL);
  g_clear_error (&error);

  /* nesting */
  s = g_string_new ("{\"request_id\": \"r\", \"gateway_request_id\": \"r\", "
      "\"status\": \"OK\", \"payload\": {\"a\": ");
  while (s->len < 200)
    g_string_append_c (s, '[');
  big = g_string_free (s, FALSE);
  assert_parse_refused (big, NULL, GST_SESSION_ERROR_INVALID_JSON,
      "webhook delivery: the body is nested deeper than 32 levels (at byte "
      "110)");
  g_free (big);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* source IP ranges                                                         */

static gboolean
in_ranges (const GstSessionWebhookIpRanges * ranges, const gchar * text)
{
  GInetAddress *address = g_inet_address_new_from_string (text);
  gboolean found;

  fail_unless (address != NULL, "%s", text);
  found = gst_session_webhook_ip_ranges_contains (ranges, address);
  g_object_unref (address);
  return found;
}

#define META "{\"webhook_ip_ranges\": [\"192.0.2.0/24\", \"198.51.100.7\", " \
    "\"10.1.2.3/8\", \"2001:db8:abcd::/48\", \"::1/128\", \"bogus/8\", " \
    "\"192.0.2.0/33\", \"2001:db8::/129\", \"1.2.3.4/\", \"1.2.3.4/-1\", " \
    "42], \"other\": {\"x\": 1}}"

GST_START_TEST (test_ip_ranges)
{
  GstSessionWebhookIpRanges *ranges;
  const gchar *const *skipped;
  GError *error = NULL;

  ranges = gst_session_webhook_ip_ranges_parse (META, strlen (META), &error);
  fail_unless (ranges != NULL, "%s", error ? error->message : "");
  fail_unless_equals_int (gst_session_webhook_ip_ranges_get_n_ranges (ranges),
      5);
  skipped = gst_session_webhook_ip_ranges_get_skipped (ranges);
  fail_unless_equals_int (g_strv_length ((gchar **) skipped), 6);
  fail_unless_equals_string (skipped[0],
      "range 5: not an IPv4 or IPv6 address");
  fail_unless_equals_string (skipped[1],
      "range 6: not a prefix length of the address family");
  fail_unless_equals_string (skipped[5], "range 10: not a string");

  /* IPv4 */
  fail_unless (in_ranges (ranges, "192.0.2.0"));
  fail_unless (in_ranges (ranges, "192.0.2.255"));
  fail_if (in_ranges (ranges, "192.0.3.0"));
  fail_unless (in_ranges (ranges, "198.51.100.7"));
  fail_if (in_ranges (ranges, "198.51.100.8"));
  /* host bits past the prefix are ignored */
  fail_unless (in_ranges (ranges, "10.200.0.1"));
  fail_if (in_ranges (ranges, "11.0.0.1"));
  /* IPv6 */
  fail_unless (in_ranges (ranges, "2001:db8:abcd:1::5"));
  fail_unless (in_ranges (ranges, "2001:DB8:ABCD:FFFF:FFFF:FFFF:FFFF:FFFF"));
  fail_if (in_ranges (ranges, "2001:db8:abce::1"));
  fail_unless (in_ranges (ranges, "::1"));
  fail_if (in_ranges (ranges, "::2"));
  /* an IPv4 peer seen on a dual-stack socket */
  fail_unless (in_ranges (ranges, "::ffff:192.0.2.9"));
  fail_if (in_ranges (ranges, "::ffff:192.0.3.9"));
  /* families do not mix otherwise */
  fail_if (in_ranges (ranges, "::c000:209"));
  gst_session_webhook_ip_ranges_unref (ranges);

  /* refused documents */
  fail_unless (gst_session_webhook_ip_ranges_parse ("{\"webhook_ip_ranges\": "
          "[\"x\"]}", 28, &error) == NULL);
  fail_unless_equals_string (error->message, "The metadata has no usable "
      "webhook IP range: range 0: not an IPv4 or IPv6 address");
  g_clear_error (&error);
  fail_unless (gst_session_webhook_ip_ranges_parse ("{}", 2, &error) == NULL);
  fail_unless_equals_string (error->message,
      "The metadata has no \"webhook_ip_ranges\" array");
  g_clear_error (&error);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* the verifier: a key host on 127.0.0.1, a clock the test moves            */

#define WAIT_MAX 5000

static GMainContext *test_ctx;
static gint64 fake_now;

static gint64
fake_clock (gpointer user_data)
{
  return fake_now;
}

static gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

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

static void
context_setup (void)
{
  test_ctx = g_main_context_new ();
  g_main_context_push_thread_default (test_ctx);
  fake_now = NOW;
}

static void
context_teardown (void)
{
  guint i;

  for (i = 0; i < 1000 && g_main_context_iteration (test_ctx, FALSE); i++);
  g_main_context_pop_thread_default (test_ctx);
  g_main_context_unref (test_ctx);
  test_ctx = NULL;
  tmp_cleanup ();
}

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

static void
key_host_cb (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer user_data)
{
  KeyHost *host = user_data;
  const gchar *body = NULL;

  if (g_strcmp0 (path, "/jwks") == 0) {
    g_atomic_int_inc (&host->jwks_requests);
    body = host->jwks;
  } else if (g_strcmp0 (path, "/v1/meta") == 0) {
    g_atomic_int_inc (&host->meta_requests);
    body = host->meta;
  }
  if (body == NULL) {
    soup_server_message_set_status (msg, SOUP_STATUS_NOT_FOUND, NULL);
    return;
  }
  if (host->hang) {
    soup_server_message_pause (msg);
    g_ptr_array_add (host->held, g_object_ref (msg));
    return;
  }
  soup_server_message_set_status (msg, host->status, NULL);
  soup_server_message_set_response (msg, "application/json",
      SOUP_MEMORY_COPY, body, strlen (body));
}

/* A key host in the thread-default context of the caller. */
static KeyHost *
key_host_new (void)
{
  KeyHost *host = g_new0 (KeyHost, 1);
  GInetAddress *loopback = g_inet_address_new_from_string ("127.0.0.1");
  GSocketAddress *address = g_inet_socket_address_new (loopback, 0);
  GError *error = NULL;
  GSList *uris;

  host->status = SOUP_STATUS_OK;
  host->held = g_ptr_array_new_with_free_func (g_object_unref);
  host->server = soup_server_new ("server-header", "test-key-host", NULL);
  soup_server_add_handler (host->server, NULL, key_host_cb, host, NULL);
  fail_unless (soup_server_listen (host->server, address, 0, &error),
      "listen: %s", error ? error->message : "");
  uris = soup_server_get_uris (host->server);
  host->base = g_strdup_printf ("http://127.0.0.1:%d",
      g_uri_get_port (uris->data));
  host->jwks_url = g_strconcat (host->base, "/jwks", NULL);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  g_object_unref (address);
  g_object_unref (loopback);
  return host;
}

static void
key_host_serve_keys (KeyHost * host, const TestKey * a, const TestKey * b)
{
  g_free (host->jwks);
  host->jwks = b ? g_strdup_printf ("{\"keys\": [{\"kty\": \"OKP\", \"crv\": "
      "\"Ed25519\", \"x\": \"%s\"}, {\"x\": \"%s\"}]}", a->x, b->x) :
      g_strdup_printf ("{\"keys\": [{\"kty\": \"OKP\", \"crv\": "
      "\"Ed25519\", \"x\": \"%s\", \"kid\": \"k1\"}]}", a->x);
}

static void
key_host_free (KeyHost * host)
{
  guint i;

  for (i = 0; i < host->held->len; i++) {
    SoupServerMessage *msg = g_ptr_array_index (host->held, i);

    soup_server_message_set_status (msg, SOUP_STATUS_SERVICE_UNAVAILABLE, NULL);
    soup_server_message_unpause (msg);
  }
  g_ptr_array_unref (host->held);
  soup_server_disconnect (host->server);
  g_object_unref (host->server);
  g_free (host->base);
  g_free (host->jwks_url);
  g_free (host->jwks);
  g_free (host->meta);
  g_free (host);
}

/* A URL nothing listens on: a key host's, after it is gone. */
static gchar *
refused_url (void)
{
  KeyHost *host = key_host_new ();
  gchar *url = g_strdup (host->jwks_url);

  key_host_free (host);
  return url;
}

static GstSessionWebhookVerifier *
verifier_new (const gchar * jwks_url)
{
  GstSessionWebhookVerifier *verifier =
      gst_session_webhook_verifier_new (jwks_url);

  gst_session_webhook_verifier_set_clock_func (verifier, fake_clock, NULL,
      NULL);
  return verifier;
}

static void
verified_cb (GObject * source, GAsyncResult * res, gpointer user_data)
{
  GstSessionWebhookVerification **v = user_data;
  GError *error = NULL;

  fail_unless (g_main_context_is_owner (test_ctx));
  *v = gst_session_webhook_verifier_verify_finish
      (GST_SESSION_WEBHOOK_VERIFIER (source), res, &error);
  fail_unless (*v != NULL, "%s", error ? error->message : "");
}

/* Verifies @d (signed at @d's timestamp) from @source through the verifier
 * and waits for the verdict. */
static GstSessionWebhookVerification *
verifier_check (GstSessionWebhookVerifier * verifier, const Delivery * d,
    const gchar * source)
{
  GstSessionWebhookVerification *v = NULL;
  SoupMessageHeaders *h = delivery_headers (d);
  GInetAddress *address = source ? g_inet_address_new_from_string (source) :
      NULL;

  gst_session_webhook_verifier_verify_async (verifier, h,
      (const guint8 *) d->body, strlen (d->body), address, NULL, verified_cb,
      &v);
  soup_message_headers_unref (h);
  g_clear_object (&address);
  WAIT_FOR (v != NULL);
  return v;
}

#define ASSERT_VERDICT(v, expected, key, d) G_STMT_START {                 \
  fail_unless ((v)->result == (expected), "verdict %d, not %d: %s",       \
      (v)->result, (expected), (v)->text);                                 \
  assert_text_clean ((v), (key), (d));                                     \
} G_STMT_END

GST_START_TEST (test_verifier_fetches_and_caches)
{
  TestKey *key = test_key_new ();
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  GstSessionWebhookKeySet *cached;
  KeyHost *host;
  Delivery *d;

  REQUIRE_KEY (key);
  host = key_host_new ();
  key_host_serve_keys (host, key, NULL);
  verifier = verifier_new (host->jwks_url);
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);

  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  fail_if (v->refetched);
  fail_unless_equals_string (v->request_id, "req-1");
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);
  cached = gst_session_webhook_verifier_get_key_set (verifier);
  fail_unless (cached != NULL);
  fail_unless_equals_int (gst_session_webhook_key_set_get_n_keys (cached), 1);
  gst_session_webhook_key_set_unref (cached);

  /* cached: no request */
  fake_now += 100;
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);

  /* the verifier's clock decides the timestamp's age */
  fake_now = NOW + 301;
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_STALE_TIMESTAMP, key, d);
  gst_session_webhook_verification_free (v);
  g_object_set (verifier, "leeway", 400, NULL);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);

  /* at most 24 hours: fetched again after that */
  delivery_free (d);
  fake_now = NOW + 24 * 3600;
  d = delivery_new (key, "req-2", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);
  fake_now += 1;
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 2);

  /* a shorter max age */
  g_object_set (verifier, "key-set-max-age", 10, NULL);
  fake_now += 11;
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 3);

  delivery_free (d);
  gst_object_unref (verifier);
  key_host_free (host);
  test_key_free (key);
}

GST_END_TEST;

GST_START_TEST (test_verifier_rotation)
{
  TestKey *old_key = test_key_new (), *new_key, *stranger;
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  GstSessionWebhookKeySet *old_set;
  KeyHost *host;
  Delivery *d;

  REQUIRE_KEY (old_key);
  new_key = test_key_new ();
  stranger = test_key_new ();
  host = key_host_new ();

  /* the cached set holds only the old key; the host now serves only the
   * new one */
  key_host_serve_keys (host, new_key, NULL);
  verifier = verifier_new (host->jwks_url);
  old_set = keys_of (old_key, NULL);
  gst_session_webhook_verifier_set_key_set (verifier, old_set);

  d = delivery_new (new_key, "req-1", "user-9", NOW, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, new_key, d);
  fail_unless (v->refetched);
  fail_unless_equals_int (v->key_index, 0);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);
  delivery_free (d);

  /* a bad signature within the cooldown: no request */
  fake_now += 30;
  d = delivery_new (stranger, "req-2", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED, stranger, d);
  fail_if (v->refetched);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);

  /* after the cooldown, one request, still no match */
  fake_now += 31;
  gst_session_webhook_verification_free (verifier_check (verifier, d, NULL));
  fake_now += 1;
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED, stranger, d);
  fail_if (v->refetched);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 2);
  delivery_free (d);

  /* rotation after a fetch: old key fetched, host switches, cooldown over */
  key_host_serve_keys (host, old_key, NULL);
  gst_session_webhook_verifier_set_key_set (verifier, NULL);
  fake_now += 61;
  d = delivery_new (old_key, "req-3", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, old_key, d);
  fail_if (v->refetched);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 3);
  delivery_free (d);
  key_host_serve_keys (host, new_key, NULL);
  fake_now += 61;
  d = delivery_new (new_key, "req-4", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, new_key, d);
  fail_unless (v->refetched);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 4);
  delivery_free (d);

  gst_session_webhook_key_set_unref (old_set);
  gst_object_unref (verifier);
  key_host_free (host);
  test_key_free (stranger);
  test_key_free (new_key);
  test_key_free (old_key);
}

GST_END_TEST;

GST_START_TEST (test_verifier_key_host_down)
{
  TestKey *key = test_key_new (), *new_key;
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  KeyHost *host;
  Delivery *d;
  gchar *url;

  REQUIRE_KEY (key);
  new_key = test_key_new ();
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);

  /* nothing listens */
  url = refused_url ();
  verifier = verifier_new (url);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, key, d);
  fail_unless_equals_int (gst_session_webhook_result_to_http_status
      (v->result), 503);
  fail_unless (strstr (v->text, "The key set could not be fetched from "
          "http://127.0.0.1:") != NULL, "%s", v->text);
  gst_session_webhook_verification_free (v);
  gst_object_unref (verifier);
  g_free (url);

  /* an error status: the failure is kept for the cooldown */
  host = key_host_new ();
  host->status = SOUP_STATUS_INTERNAL_SERVER_ERROR;
  key_host_serve_keys (host, key, NULL);
  verifier = verifier_new (host->jwks_url);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, key, d);
  fail_unless (strstr (v->text, "HTTP 500 Internal Server Error") != NULL);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 1);
  /* back up, after the cooldown */
  host->status = SOUP_STATUS_OK;
  fake_now += 60;
  delivery_free (d);
  d = delivery_new (key, "req-1", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 2);

  /* rotated while the host fails: 503, so the service delivers again */
  host->status = SOUP_STATUS_BAD_GATEWAY;
  fake_now += 60;
  delivery_free (d);
  d = delivery_new (new_key, "req-2", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, new_key, d);
  fail_unless (v->refetched);
  fail_unless (strstr (v->text, "fetching the key set again failed") != NULL);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->jwks_requests, 3);
  /* the old key still works meanwhile */
  delivery_free (d);
  d = delivery_new (key, "req-3", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  gst_object_unref (verifier);

  /* a key set without a usable key is a failed fetch */
  host->status = SOUP_STATUS_OK;
  g_free (host->jwks);
  host->jwks = g_strdup ("{\"keys\": [{\"x\": \"AAAA\"}]}");
  verifier = verifier_new (host->jwks_url);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, key, d);
  fail_unless (strstr (v->text, "no usable key: key 0: \"x\" is 3 bytes, "
          "not 32") != NULL, "%s", v->text);
  gst_session_webhook_verification_free (v);
  gst_object_unref (verifier);

  /* a host that does not answer: the timeout */
  host->hang = TRUE;
  verifier = verifier_new (host->jwks_url);
  g_object_set (verifier, "timeout", 200, NULL);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, key, d);
  fail_unless (strstr (v->text, "no answer within 200 ms") != NULL, "%s",
      v->text);
  gst_session_webhook_verification_free (v);
  gst_object_unref (verifier);

  delivery_free (d);
  key_host_free (host);
  test_key_free (new_key);
  test_key_free (key);
}

GST_END_TEST;

GST_START_TEST (test_verifier_shares_one_fetch)
{
  GstSessionWebhookVerification *v[8] = { NULL };
  TestKey *key = test_key_new ();
  GstSessionWebhookVerifier *verifier;
  SoupMessageHeaders *h;
  KeyHost *host;
  Delivery *d;
  guint i, done = 0;

  REQUIRE_KEY (key);
  host = key_host_new ();
  key_host_serve_keys (host, key, NULL);
  verifier = verifier_new (host->jwks_url);
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);
  h = delivery_headers (d);
  for (i = 0; i < G_N_ELEMENTS (v); i++)
    gst_session_webhook_verifier_verify_async (verifier, h,
        (const guint8 *) d->body, strlen (d->body), NULL, NULL, verified_cb,
        &v[i]);
  soup_message_headers_unref (h);
  /* the body was only borrowed */
  memset (d->body, 'x', strlen (d->body));
  while (done < G_N_ELEMENTS (v)) {
    WAIT_FOR (v[done] != NULL);
    ASSERT_VERDICT (v[done], GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
    gst_session_webhook_verification_free (v[done]);
    done++;
  }
  fail_unless_equals_int (host->jwks_requests, 1);

  delivery_free (d);
  gst_object_unref (verifier);
  key_host_free (host);
  test_key_free (key);
}

GST_END_TEST;

GST_START_TEST (test_verifier_source_ranges)
{
  TestKey *key = test_key_new ();
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  GstSessionWebhookIpRanges *ranges;
  KeyHost *host;
  Delivery *d;

  REQUIRE_KEY (key);
  host = key_host_new ();
  key_host_serve_keys (host, key, NULL);
  host->meta = g_strdup ("{\"webhook_ip_ranges\": [\"127.0.0.0/8\", "
      "\"2001:db8::/32\"]}");
  verifier = verifier_new (host->jwks_url);
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);

  /* no api-url: sources are not checked */
  v = verifier_check (verifier, d, "192.0.2.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->meta_requests, 0);

  /* a trailing slash in the base URL is fine */
  {
    gchar *api = g_strconcat (host->base, "/", NULL);

    g_object_set (verifier, "api-url", api, NULL);
    g_free (api);
  }
  v = verifier_check (verifier, d, "192.0.2.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED, key, d);
  fail_unless_equals_int (gst_session_webhook_result_to_http_status
      (v->result), 403);
  fail_unless (strstr (v->text, "192.0.2.1") != NULL);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->meta_requests, 1);
  v = verifier_check (verifier, d, "127.0.0.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  v = verifier_check (verifier, d, "::ffff:127.0.0.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  v = verifier_check (verifier, d, "2001:db8:1::1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  v = verifier_check (verifier, d, "2001:db9::1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED, key, d);
  gst_session_webhook_verification_free (v);
  /* no source given: not checked */
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->meta_requests, 1);
  ranges = gst_session_webhook_verifier_get_ip_ranges (verifier);
  fail_unless_equals_int (gst_session_webhook_ip_ranges_get_n_ranges (ranges),
      2);
  gst_session_webhook_ip_ranges_unref (ranges);

  /* refreshed periodically: the list changes */
  g_object_set (verifier, "ip-ranges-max-age", 120, NULL);
  g_free (host->meta);
  host->meta = g_strdup ("{\"webhook_ip_ranges\": [\"192.0.2.0/24\"]}");
  fake_now += 121;
  delivery_free (d);
  d = delivery_new (key, "req-1", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, "192.0.2.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->meta_requests, 2);
  v = verifier_check (verifier, d, "127.0.0.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED, key, d);
  gst_session_webhook_verification_free (v);

  /* a failed refresh keeps the old list */
  g_free (host->meta);
  host->meta = g_strdup ("{\"webhook_ip_ranges\": 5}");
  fake_now += 121;
  v = verifier_check (verifier, d, "192.0.2.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->meta_requests, 3);
  gst_object_unref (verifier);

  /* never fetched: nothing can be decided */
  verifier = verifier_new (host->jwks_url);
  g_object_set (verifier, "api-url", host->base, NULL);
  v = verifier_check (verifier, d, "192.0.2.1");
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, key, d);
  fail_unless (strstr (v->text, "The IP ranges could not be fetched") !=
      NULL, "%s", v->text);
  gst_session_webhook_verification_free (v);
  fail_unless_equals_int (host->meta_requests, 4);

  delivery_free (d);
  gst_object_unref (verifier);
  key_host_free (host);
  test_key_free (key);
}

GST_END_TEST;

GST_START_TEST (test_verifier_limits_and_pinned_keys)
{
  TestKey *key = test_key_new ();
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  GstSessionWebhookKeySet *keys;
  Delivery *d;
  guint max = 0;

  REQUIRE_KEY (key);
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);
  keys = keys_of (key, NULL);

  /* no URL: only the key set given */
  verifier = verifier_new (NULL);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_NO_KEYS, key, d);
  fail_unless_equals_string (v->text,
      "There is no key set and no JWKS URL is set");
  gst_session_webhook_verification_free (v);
  gst_session_webhook_verifier_set_key_set (verifier, keys);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);

  /* header problems come before any key */
  {
    gchar *saved = d->signature;

    d->signature = g_strdup ("abc");
    v = verifier_check (verifier, d, NULL);
    ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_BAD_SIGNATURE_ENCODING,
        key, d);
    gst_session_webhook_verification_free (v);
    g_free (d->signature);
    d->signature = saved;
  }

  /* the body limit */
  g_object_get (verifier, "max-body-size", &max, NULL);
  fail_unless_equals_int (max, GST_SESSION_WEBHOOK_MAX_BODY);
  g_object_set (verifier, "max-body-size", (guint) strlen (d->body) - 1, NULL);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE, key, d);
  fail_unless_equals_int (gst_session_webhook_result_to_http_status
      (v->result), 413);
  gst_session_webhook_verification_free (v);
  g_object_set (verifier, "max-body-size", (guint) strlen (d->body), NULL);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);

  /* a given key set ages too */
  fake_now += GST_SESSION_WEBHOOK_KEY_SET_MAX_AGE + 1;
  delivery_free (d);
  d = delivery_new (key, "req-1", "user-9", fake_now, BODY);
  v = verifier_check (verifier, d, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_NO_KEYS, key, d);
  gst_session_webhook_verification_free (v);

  /* cancelled */
  {
    GCancellable *cancellable = g_cancellable_new ();
    SoupMessageHeaders *h = delivery_headers (d);
    GError *error = NULL;

    g_cancellable_cancel (cancellable);
    v = gst_session_webhook_verifier_verify_sync (verifier, h,
        (const guint8 *) d->body, strlen (d->body), NULL, cancellable, &error);
    fail_unless (v == NULL);
    fail_unless (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
    g_clear_error (&error);
    soup_message_headers_unref (h);
    g_object_unref (cancellable);
  }

  delivery_free (d);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (verifier);
  test_key_free (key);
}

GST_END_TEST;

/* A key host on its own thread, for the blocking calls. */
typedef struct
{
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  KeyHost *host;
  const TestKey *key;
  GMutex lock;
  GCond cond;
  gboolean ready;
} ThreadHost;

static gpointer
thread_host_run (gpointer data)
{
  ThreadHost *th = data;

  g_main_context_push_thread_default (th->context);
  th->host = key_host_new ();
  key_host_serve_keys (th->host, th->key, NULL);
  th->host->meta = g_strdup ("{\"webhook_ip_ranges\": [\"127.0.0.1\"]}");
  g_mutex_lock (&th->lock);
  th->ready = TRUE;
  g_cond_signal (&th->cond);
  g_mutex_unlock (&th->lock);
  g_main_loop_run (th->loop);
  key_host_free (th->host);
  g_main_context_pop_thread_default (th->context);
  return NULL;
}

static ThreadHost *
thread_host_new (const TestKey * key)
{
  ThreadHost *th = g_new0 (ThreadHost, 1);

  th->key = key;
  th->context = g_main_context_new ();
  th->loop = g_main_loop_new (th->context, FALSE);
  g_mutex_init (&th->lock);
  g_cond_init (&th->cond);
  th->thread = g_thread_new ("key-host", thread_host_run, th);
  g_mutex_lock (&th->lock);
  while (!th->ready)
    g_cond_wait (&th->cond, &th->lock);
  g_mutex_unlock (&th->lock);
  return th;
}

static gboolean
quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static void
thread_host_free (ThreadHost * th)
{
  g_main_context_invoke (th->context, quit_loop, th->loop);
  g_thread_join (th->thread);
  g_main_loop_unref (th->loop);
  g_main_context_unref (th->context);
  g_mutex_clear (&th->lock);
  g_cond_clear (&th->cond);
  g_free (th);
}

static void
refreshed_cb (GObject * source, GAsyncResult * res, gpointer user_data)
{
  gint *outcome = user_data;

  *outcome = gst_session_webhook_verifier_refresh_finish
      (GST_SESSION_WEBHOOK_VERIFIER (source), res, NULL) ? 1 : 2;
}

GST_START_TEST (test_verifier_sync_and_refresh)
{
  TestKey *key = test_key_new ();
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  SoupMessageHeaders *h;
  GInetAddress *source;
  GError *error = NULL;
  ThreadHost *th;
  KeyHost *host;
  Delivery *d;
  gchar *url;
  gint outcome = 0;

  REQUIRE_KEY (key);
  d = delivery_new (key, "req-1", "user-9", NOW, BODY);
  h = delivery_headers (d);
  source = g_inet_address_new_from_string ("127.0.0.1");

  /* the blocking calls, as a command-line tool makes them */
  th = thread_host_new (key);
  verifier = verifier_new (th->host->jwks_url);
  g_object_set (verifier, "api-url", th->host->base, NULL);
  fail_unless (gst_session_webhook_verifier_refresh_sync (verifier, NULL,
          &error), "%s", error ? error->message : "");
  fail_unless_equals_int (g_atomic_int_get (&th->host->jwks_requests), 1);
  fail_unless_equals_int (g_atomic_int_get (&th->host->meta_requests), 1);
  v = gst_session_webhook_verifier_verify_sync (verifier, h,
      (const guint8 *) d->body, strlen (d->body), source, NULL, &error);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_VALID, key, d);
  gst_session_webhook_verification_free (v);
  /* a refresh ignores the age and the cooldown */
  fail_unless (gst_session_webhook_verifier_refresh_sync (verifier, NULL,
          NULL));
  fail_unless_equals_int (g_atomic_int_get (&th->host->jwks_requests), 2);
  gst_object_unref (verifier);
  thread_host_free (th);

  /* nothing listens */
  url = refused_url ();
  verifier = verifier_new (url);
  fail_if (gst_session_webhook_verifier_refresh_sync (verifier, NULL, &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_HTTP));
  fail_unless (g_str_has_prefix (error->message,
          "The key set could not be fetched from http://127.0.0.1:"), "%s",
      error->message);
  g_clear_error (&error);
  v = gst_session_webhook_verifier_verify_sync (verifier, h,
      (const guint8 *) d->body, strlen (d->body), NULL, NULL, NULL);
  ASSERT_VERDICT (v, GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, key, d);
  gst_session_webhook_verification_free (v);
  gst_object_unref (verifier);
  g_free (url);

  /* not an http URL */
  verifier = verifier_new ("file:///etc/passwd");
  fail_if (gst_session_webhook_verifier_refresh_sync (verifier, NULL, &error));
  fail_unless (strstr (error->message, "not an http or https URL") != NULL);
  g_clear_error (&error);
  gst_object_unref (verifier);

  /* nothing to fetch */
  verifier = verifier_new (NULL);
  fail_if (gst_session_webhook_verifier_refresh_sync (verifier, NULL, &error));
  fail_unless_equals_string (error->message, "No JWKS URL is set");
  g_clear_error (&error);
  gst_object_unref (verifier);

  /* the asynchronous refresh */
  host = key_host_new ();
  key_host_serve_keys (host, key, NULL);
  verifier = verifier_new (host->jwks_url);
  gst_session_webhook_verifier_refresh_async (verifier, NULL, refreshed_cb,
      &outcome);
  WAIT_FOR (outcome != 0);
  fail_unless_equals_int (outcome, 1);
  fail_unless_equals_int (host->jwks_requests, 1);
  gst_object_unref (verifier);
  key_host_free (host);

  g_object_unref (source);
  soup_message_headers_unref (h);
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
webhook_suite (void)
{
  Suite *s = suite_create ("webhook");
  TCase *tc = tcase_create ("keyset");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_key_set_padded_and_unpadded);
  tcase_add_test (tc, test_key_set_skips_bad_entries);
  tcase_add_test (tc, test_key_set_refused);
  tcase_add_test (tc, test_url_allowed);
  tcase_add_test (tc, test_verify_valid);
  tcase_add_test (tc, test_verify_tampering);
  tcase_add_test (tc, test_verify_skew);
  tcase_add_test (tc, test_verify_headers);
  tcase_add_test (tc, test_delivery_ok);
  tcase_add_test (tc, test_delivery_error_with_detail);
  tcase_add_test (tc, test_delivery_payload_error);
  tcase_add_test (tc, test_delivery_refused);
  tcase_add_test (tc, test_ip_ranges);
  tcase_add_checked_fixture (tc, NULL, tmp_cleanup);

  tc = tcase_create ("verifier");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, context_setup, context_teardown);
  tcase_add_test (tc, test_verifier_fetches_and_caches);
  tcase_add_test (tc, test_verifier_rotation);
  tcase_add_test (tc, test_verifier_key_host_down);
  tcase_add_test (tc, test_verifier_shares_one_fetch);
  tcase_add_test (tc, test_verifier_source_ranges);
  tcase_add_test (tc, test_verifier_limits_and_pinned_keys);
  tcase_add_test (tc, test_verifier_sync_and_refresh);

  tc = tcase_create ("rates");
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, context_setup, context_teardown);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_verify_rates);
  return s;
}

GST_CHECK_MAIN (webhook);
