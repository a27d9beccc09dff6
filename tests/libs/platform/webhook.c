/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Webhooks (spec 001): key sets, the URLs they come from, the delivery
 * body, source IP ranges.
 */

#include "webhook-test.h"


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


static Suite *
webhook_suite (void)
{
  Suite *s = suite_create ("webhook");
  TCase *tc = tcase_create ("documents");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_key_set_padded_and_unpadded);
  tcase_add_test (tc, test_key_set_skips_bad_entries);
  tcase_add_test (tc, test_key_set_refused);
  tcase_add_test (tc, test_url_allowed);
  tcase_add_test (tc, test_delivery_ok);
  tcase_add_test (tc, test_delivery_error_with_detail);
  tcase_add_test (tc, test_delivery_payload_error);
  tcase_add_test (tc, test_delivery_refused);
  tcase_add_test (tc, test_ip_ranges);
  tcase_add_checked_fixture (tc, NULL, test_keys_cleanup);
  return s;
}

GST_CHECK_MAIN (webhook);
