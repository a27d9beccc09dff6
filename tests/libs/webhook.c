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
  fail_unless_equals_string (skipped[3],
      "key 3: \"x\" is 33 bytes, not 32");
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

static Suite *
webhook_suite (void)
{
  Suite *s = suite_create ("webhook");
  TCase *tc = tcase_create ("keyset");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_key_set_padded_and_unpadded);
  tcase_add_test (tc, test_key_set_skips_bad_entries);
  tcase_add_test (tc, test_key_set_refused);
  return s;
}

GST_CHECK_MAIN (webhook);
