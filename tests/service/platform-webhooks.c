/* gst-session: the reference service, platform side (spec 001): the queue
 * and its signed webhook deliveries: key set and metadata, signatures,
 * delivery bodies, submission errors, retries, key rotation, redelivery
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The client side is the library: GstSessionPlatform submits and manages,
 * gst_session_webhook_verify() and GstSessionWebhookVerifier check the
 * deliveries, which a SoupServer on 127.0.0.1 (port 0, its own thread)
 * receives. The service runs with --time-scale so retries take
 * milliseconds.
 */

#include "platform-test.h"

/* ---------------------------------------------------------------- *
 * the service's side
 * ---------------------------------------------------------------- */

static SvcHttpReply *
http_post (SvcProcess * p, const gchar * path, const gchar * body,
    const gchar * key)
{
  gchar *url = url_of (p, path);
  SvcHttpReply *r = svc_http ("POST", url, body, key);

  g_free (url);
  return r;
}

/* The service's record of the deliveries of @request_id (the first one,
 * or the @nth), a new reference, or NULL */
static JsonObject *
delivery_record (SvcProcess * p, const gchar * request_id, guint nth)
{
  SvcHttpReply *r = http_get (p, "/admin/deliveries", NULL);
  JsonArray *array;
  JsonObject *found = NULL;
  guint i, seen = 0;

  fail_unless_equals_int (r->status, 200);
  array = json_object_get_array_member (json_node_get_object (r->json),
      "deliveries");
  for (i = 0; i < json_array_get_length (array) && !found; i++) {
    JsonObject *d = json_array_get_object_element (array, i);

    if (g_str_equal (json_object_get_string_member (d, "request_id"),
            request_id) && seen++ == nth)
      found = json_object_ref (d);
  }
  svc_http_reply_free (r);
  return found;
}

/* Waits until the service's first delivery of @request_id is in @state */
static JsonObject *
wait_delivery_state (SvcProcess * p, const gchar * request_id,
    const gchar * state, gint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;

  for (;;) {
    JsonObject *d = delivery_record (p, request_id, 0);

    if (d && g_str_equal (json_object_get_string_member (d, "state"), state))
      return d;
    if (d)
      json_object_unref (d);
    if (g_get_monotonic_time () > end)
      return NULL;
    g_usleep (10 * 1000);
  }
}

static guint
attempt_count (JsonObject * d)
{
  return json_array_get_length (json_object_get_array_member (d, "attempts"));
}

/* Verifies a received delivery with @keys: the result */
static GstSessionWebhookResult
verify (GstSessionWebhookKeySet * keys, Received * r)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (r->body, &size);
  GstSessionWebhookVerification *v = gst_session_webhook_verify (keys,
      r->headers, data, size, g_get_real_time () / G_USEC_PER_SEC,
      GST_SESSION_WEBHOOK_LEEWAY);
  GstSessionWebhookResult result = v->result;

  gst_session_webhook_verification_free (v);
  return result;
}

/* ---------------------------------------------------------------- *
 * key set, metadata, signed deliveries
 * ---------------------------------------------------------------- */

GST_START_TEST (test_key_set_and_meta)
{
  SvcProcess *p = svc_process_start (NULL, NULL);
  SvcHttpReply *r = http_get (p, "/.well-known/jwks.json", NULL);
  GstSessionWebhookKeySet *keys;
  GstSessionWebhookIpRanges *ranges;
  JsonObject *key;
  GInetAddress *addr;
  GError *error = NULL;

  fail_unless_equals_int (r->status, 200);
  fail_unless_equals_string (r->content_type, "application/json");
  key = json_array_get_object_element (json_object_get_array_member
      (json_node_get_object (r->json), "keys"), 0);
  fail_unless_equals_string (json_object_get_string_member (key, "kty"), "OKP");
  fail_unless_equals_string (json_object_get_string_member (key, "crv"),
      "Ed25519");
  /* 32 bytes as base64url without padding */
  fail_unless_equals_int (strlen (json_object_get_string_member (key, "x")),
      43);
  svc_http_reply_free (r);
  keys = fetch_keys (p);
  fail_unless_equals_int (gst_session_webhook_key_set_get_n_keys (keys), 1);
  gst_session_webhook_key_set_unref (keys);

  r = http_get (p, "/v1/meta", NULL);
  fail_unless_equals_int (r->status, 200);
  ranges = gst_session_webhook_ip_ranges_parse (r->body, strlen (r->body),
      &error);
  fail_unless (ranges != NULL);
  addr = g_inet_address_new_from_string ("127.0.0.1");
  fail_unless (gst_session_webhook_ip_ranges_contains (ranges, addr));
  g_object_unref (addr);
  addr = g_inet_address_new_from_string ("::1");
  fail_unless (gst_session_webhook_ip_ranges_contains (ranges, addr));
  g_object_unref (addr);
  addr = g_inet_address_new_from_string ("10.1.2.3");
  fail_if (gst_session_webhook_ip_ranges_contains (ranges, addr));
  g_object_unref (addr);
  gst_session_webhook_ip_ranges_unref (ranges);
  svc_http_reply_free (r);

  r = http_post (p, "/v1/meta", "{}", NULL);
  fail_unless_equals_int (r->status, 405);
  svc_http_reply_free (r);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_delivery_signed)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  gchar *hook = receiver_url (rv), *id, *jwks_url;
  GstSessionPlatform *platform = platform_new (p, NULL);
  GstSessionWebhookKeySet *keys = fetch_keys (p);
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  GstSessionWebhookDelivery *d;
  GInetAddress *peer;
  JsonObject *payload;
  Received *r;
  GBytes *tampered;
  gsize size;
  gchar *copy;
  GError *error = NULL;

  id = submit (platform, "reference/echo", hook,
      "{\"hello\": \"world\", \"n\": [1, 2]}");
  r = receiver_wait (rv, 1, TIMEOUT);
  fail_unless (r != NULL);
  fail_unless_equals_string (soup_message_headers_get_content_type
      (r->headers, NULL), "application/json");
  fail_unless_equals_string (soup_message_headers_get_one (r->headers,
          GST_SESSION_WEBHOOK_HEADER_REQUEST_ID), id);
  d = verified_delivery (keys, r, id);
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_OK);
  fail_unless_equals_string (d->gateway_request_id, id);
  fail_unless (d->payload != NULL);
  payload = json_node_get_object (d->payload);
  fail_unless_equals_string (json_object_get_string_member (payload,
          "hello"), "world");
  fail_unless_equals_int (json_array_get_length (json_object_get_array_member
          (payload, "n")), 2);
  fail_unless (d->error == NULL && d->payload_error == NULL);
  gst_session_webhook_delivery_free (d);

  /* the signature covers the body */
  copy = g_strndup (g_bytes_get_data (r->body, &size), g_bytes_get_size
      (r->body));
  copy[strlen (copy) - 2] = copy[strlen (copy) - 2] == '}' ? ']' : '}';
  tampered = r->body;
  r->body = g_bytes_new_take (copy, size);
  fail_unless_equals_int (verify (keys, r),
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  g_bytes_unref (r->body);
  r->body = tampered;

  /* the caching verifier, with the source checked against /v1/meta */
  jwks_url = url_of (p, "/.well-known/jwks.json");
  verifier = gst_session_webhook_verifier_new (jwks_url);
  g_object_set (verifier, "api-url", svc_process_url (p), NULL);
  peer = g_inet_address_new_from_string (r->peer);
  v = gst_session_webhook_verifier_verify_sync (verifier, r->headers,
      g_bytes_get_data (r->body, NULL), g_bytes_get_size (r->body), peer,
      NULL, &error);
  fail_unless (v != NULL);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
  gst_session_webhook_verification_free (v);
  g_object_unref (peer);
  gst_object_unref (verifier);
  g_free (jwks_url);

  /* upper: the text in upper case, the other members kept */
  g_free (id);
  id = submit (platform, "upper", hook, "{\"text\": \"hello, world\", "
      "\"keep\": true}");
  r = receiver_wait (rv, 2, TIMEOUT);
  fail_unless (r != NULL);
  d = verified_delivery (keys, r, id);
  payload = json_node_get_object (d->payload);
  fail_unless_equals_string (json_object_get_string_member (payload, "text"),
      "HELLO, WORLD");
  fail_unless (json_object_get_boolean_member (payload, "keep"));
  gst_session_webhook_delivery_free (d);
  /* no key was sent anywhere */
  fail_unless (soup_message_headers_get_one (r->headers, "Authorization") ==
      NULL);

  g_free (id);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (platform);
  g_free (hook);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* The delivery of one request of @app */
static GstSessionWebhookDelivery *
deliver_one (SvcProcess * p, GstSessionPlatform * platform, Receiver * rv,
    GstSessionWebhookKeySet * keys, const gchar * app, const gchar * body)
{
  gchar *hook = receiver_url (rv);
  /* counted before the submission: its delivery can come before submit()
   * returns (an instant app at --time-scale=0.01, a loaded machine) */
  guint before = receiver_count (rv);
  gchar *id = submit (platform, app, hook, body);
  Received *r = receiver_wait (rv, before + 1, TIMEOUT);
  GstSessionWebhookDelivery *d;

  fail_unless (r != NULL, "no delivery of %s", app);
  d = verified_delivery (keys, r, id);
  fail_unless_equals_string (d->request_id, id);
  g_free (id);
  g_free (hook);
  return d;
}

GST_START_TEST (test_delivery_bodies)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  GstSessionWebhookKeySet *keys = fetch_keys (p);
  GstSessionWebhookDelivery *d;
  GstSessionHttpErrorItem *item;
  gint64 min_height = 0;
  gint64 before;

  /* rule 2: the app fails: ERROR, error, payload.detail */
  d = deliver_one (p, platform, rv, keys, "reference/fail",
      "{\"type\": \"image_too_small\", \"field\": \"image_url\", "
      "\"image_url\": \"https://example.com/a.png\", \"message\": \"too "
      "small\"}");
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_ERROR);
  fail_unless_equals_string (d->error, "Invalid status code: 422");
  fail_unless (d->payload != NULL);
  fail_unless_equals_int (d->detail->len, 1);
  item = g_ptr_array_index (d->detail, 0);
  fail_unless_equals_string (item->type, "image_too_small");
  fail_unless_equals_string (item->msg, "too small");
  fail_unless_equals_string (item->loc, "/body/image_url");
  fail_unless (g_str_has_suffix (item->url, "/docs/errors/#image_too_small"));
  fail_unless (item->ctx != NULL);
  fail_unless (gst_structure_get_int64 (item->ctx, "min_height", &min_height));
  fail_unless_equals_int (min_height, 512);
  fail_unless_equals_string (item->input, "\"https://example.com/a.png\"");
  gst_session_webhook_delivery_free (d);

  d = deliver_one (p, platform, rv, keys, "fail", "{}");
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_ERROR);
  fail_unless_equals_string (d->error, "Invalid status code: 500");
  item = g_ptr_array_index (d->detail, 0);
  fail_unless_equals_string (item->type, "internal_server_error");
  fail_unless_equals_string (item->loc, "/body");
  gst_session_webhook_delivery_free (d);

  /* rule 1: a result that is not JSON: OK, payload null, payload_error */
  d = deliver_one (p, platform, rv, keys, "reference/not-json", "{}");
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_OK);
  fail_unless (d->payload == NULL);
  fail_unless (d->payload_error != NULL && d->payload_error[0]);
  fail_unless (d->error == NULL);
  gst_session_webhook_delivery_free (d);

  /* a retried request: gateway_request_id names the last try */
  d = deliver_one (p, platform, rv, keys, "flaky", "{\"x\": 1}");
  fail_unless_equals_int (d->status, GST_SESSION_WEBHOOK_STATUS_OK);
  fail_unless (g_uuid_string_is_valid (d->gateway_request_id));
  fail_if (g_str_equal (d->gateway_request_id, d->request_id));
  gst_session_webhook_delivery_free (d);

  /* slow: 5 s at a scale of 0.01 */
  before = g_get_monotonic_time ();
  d = deliver_one (p, platform, rv, keys, "slow", "{\"seconds\": 5}");
  fail_unless (g_get_monotonic_time () - before >= 45 * 1000);
  fail_unless_equals_int (json_object_get_double_member (json_node_get_object
          (d->payload), "slept_seconds"), 5);
  gst_session_webhook_delivery_free (d);

  fail_unless_equals_int (receiver_count (rv), 5);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

static void
assert_model_error (GstSessionHttpError * e, const gchar * type,
    const gchar * loc)
{
  GstSessionHttpErrorItem *item;

  fail_unless_equals_int (e->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_int (e->retryable, 0);
  fail_unless_equals_int (e->items->len, 1);
  item = g_ptr_array_index (e->items, 0);
  fail_unless_equals_string (item->type, type);
  fail_unless_equals_string (item->loc, loc);
  fail_unless (item->msg != NULL && item->url != NULL);
  gst_session_http_error_free (e);
}

GST_START_TEST (test_submission_errors)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  gchar *hook = receiver_url (rv), *path;
  GstSessionHttpError *e;
  SvcHttpReply *r;

  /* values out of range: model-level 422 */
  e = submit_refused (platform, "upper", hook, "{\"text\": \"\"}", 422);
  assert_model_error (e, "sequence_too_short", "/body/text");
  e = submit_refused (platform, "upper", hook,
      "{\"text\": \"a forbidden word\"}", 422);
  assert_model_error (e, "content_policy_violation", "/body/text");
  e = submit_refused (platform, "slow", hook, "{\"seconds\": 61}", 422);
  fail_unless (gst_structure_has_field (((GstSessionHttpErrorItem *)
              g_ptr_array_index (e->items, 0))->ctx, "le"));
  assert_model_error (e, "less_than_equal", "/body/seconds");
  e = submit_refused (platform, "slow", hook, "{\"seconds\": -1}", 422);
  assert_model_error (e, "greater_than_equal", "/body/seconds");
  e = submit_refused (platform, "fail", hook, "{\"type\": \"nope\"}", 422);
  assert_model_error (e, "one_of", "/body/type");

  /* malformed requests: request-level */
  e = submit_refused (platform, "upper", hook, "{\"text\": 3}", 400);
  assert_request_error (e, "bad_request");
  e = submit_refused (platform, "nobody/echo", hook, "{}", 404);
  assert_request_error (e, "bad_request");
  path = g_strdup_printf ("/queue/echo?svc_webhook=%s", "http%3A%2F%2F"
      "127.0.0.1%3A1%2Fh");
  r = http_post (p, path, "[1, 2]", NULL);
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);
  r = http_post (p, path, "not json", NULL);
  fail_unless_equals_int (r->status, 400);
  fail_unless_equals_string (r->error_type, "bad_request");
  svc_http_reply_free (r);
  r = http_get (p, path, NULL);
  fail_unless_equals_int (r->status, 405);
  svc_http_reply_free (r);
  r = http_post (p, "/queue/echo", "{}", NULL);
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);
  r = http_post (p, "/queue/echo?svc_webhook=ftp%3A%2F%2F127.0.0.1%2Fx", "{}",
      NULL);
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);
  g_free (path);

  /* nothing of these was queued */
  r = http_get (p, "/admin/deliveries", NULL);
  fail_unless_equals_int (json_array_get_length (json_object_get_array_member
          (json_node_get_object (r->json), "deliveries")), 0);
  svc_http_reply_free (r);
  fail_unless_equals_int (receiver_count (rv), 0);

  /* no runner of the app running: runner_scheduling_failure */
  r = http_post (p, "/runners/runner-upper-1/stop", NULL, NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  e = submit_refused (platform, "upper", hook, "{\"text\": \"x\"}", 503);
  assert_request_error (e, "runner_scheduling_failure");
  r = http_post (p, "/admin/runners/reset", NULL, NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  g_free (submit (platform, "upper", hook, "{\"text\": \"x\"}"));

  g_free (hook);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* ---------------------------------------------------------------- *
 * retries
 * ---------------------------------------------------------------- */

static gdouble
attempt_at (JsonObject * d, guint i)
{
  return json_object_get_double_member (json_array_get_object_element
      (json_object_get_array_member (d, "attempts"), i), "at");
}

static const gchar *
attempt_result (JsonObject * d, guint i)
{
  return json_object_get_string_member (json_array_get_object_element
      (json_object_get_array_member (d, "attempts"), i), "result");
}

GST_START_TEST (test_retry_until_2xx)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  GstSessionWebhookKeySet *keys = fetch_keys (p);
  gchar *hook = receiver_url (rv), *id;
  JsonObject *d;
  guint i;

  /* 500 twice, then 200: three deliveries of the same body */
  receiver_answer (rv, 500, 2);
  id = submit (platform, "echo", hook, "{\"attempt\": \"all\"}");
  fail_unless (receiver_wait (rv, 3, TIMEOUT) != NULL);
  d = wait_delivery_state (p, id, "delivered", TIMEOUT);
  fail_unless (d != NULL);
  fail_unless_equals_int (attempt_count (d), 3);
  fail_unless_equals_string (attempt_result (d, 0), "HTTP 500");
  fail_unless_equals_string (attempt_result (d, 1), "HTTP 500");
  fail_unless_equals_string (attempt_result (d, 2), "HTTP 200");
  /* 5 s then 10 s, scaled */
  fail_unless (attempt_at (d, 1) - attempt_at (d, 0) >= 0.045);
  fail_unless (attempt_at (d, 2) - attempt_at (d, 1) >= 0.095);
  json_object_unref (d);
  for (i = 1; i <= 3; i++) {
    Received *r = receiver_wait (rv, i, 0);

    /* each attempt is signed anew; the body bytes are the same */
    fail_unless_equals_int (verify (keys, r), GST_SESSION_WEBHOOK_RESULT_VALID);
    fail_unless (g_bytes_equal (r->body, receiver_wait (rv, 1, 0)->body));
    fail_unless_equals_int (r->answered, i < 3 ? 500 : 200);
  }
  fail_unless_equals_int (receiver_count (rv), 3);
  g_free (id);

  /* an answer later than the timeout (15 s, scaled: 150 ms) is a failed
   * attempt */
  receiver_delay (rv, 1, 600);
  id = submit (platform, "echo", hook, "{\"attempt\": \"slow\"}");
  d = wait_delivery_state (p, id, "delivered", TIMEOUT);
  fail_unless (d != NULL);
  fail_unless_equals_int (attempt_count (d), 2);
  fail_unless_equals_string (attempt_result (d, 0), "timeout");
  fail_unless_equals_string (attempt_result (d, 1), "HTTP 200");
  json_object_unref (d);
  fail_unless (receiver_wait (rv, 5, TIMEOUT) != NULL);
  g_free (id);

  /* a redirect is not followed and not a success */
  receiver_answer (rv, 307, 1);
  id = submit (platform, "echo", hook, "{}");
  d = wait_delivery_state (p, id, "delivered", TIMEOUT);
  fail_unless (d != NULL);
  fail_unless_equals_string (attempt_result (d, 0), "HTTP 307");
  fail_unless_equals_int (attempt_count (d), 2);
  json_object_unref (d);
  g_free (id);

  g_free (hook);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_retry_receiver_down)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  guint port = rv->port;
  GstSessionPlatform *platform = platform_new (p, NULL);
  GstSessionWebhookKeySet *keys = fetch_keys (p);
  gchar *hook = receiver_url (rv), *id;
  gint64 end = g_get_monotonic_time () + TIMEOUT * G_TIME_SPAN_MILLISECOND;
  GstSessionWebhookDelivery *delivery;
  JsonObject *d = NULL;
  guint n;

  /* nobody listens on the port for a while */
  receiver_free (rv);
  id = submit (platform, "echo", hook, "{\"down\": true}");
  do {
    if (d)
      json_object_unref (d);
    g_usleep (10 * 1000);
    d = delivery_record (p, id, 0);
  } while ((!d || attempt_count (d) < 2 ||
          g_str_equal (attempt_result (d, 1), "sending")) &&
      g_get_monotonic_time () < end);
  /* two attempts failed: nobody listens */
  fail_unless (d != NULL && attempt_count (d) >= 2);
  fail_unless (g_str_has_prefix (attempt_result (d, 0), "error: "));
  fail_unless (g_str_has_prefix (attempt_result (d, 1), "error: "),
      "attempt 2: %s", attempt_result (d, 1));
  json_object_unref (d);

  /* it comes back: the next retry reaches it */
  rv = receiver_new (port);
  fail_unless (receiver_wait (rv, 1, TIMEOUT) != NULL);
  d = wait_delivery_state (p, id, "delivered", TIMEOUT);
  fail_unless (d != NULL);
  n = attempt_count (d);
  fail_unless (n >= 3);
  fail_unless_equals_string (attempt_result (d, n - 1), "HTTP 200");
  json_object_unref (d);
  delivery = verified_delivery (keys, receiver_wait (rv, 1, 0), id);
  fail_unless (json_object_get_boolean_member (json_node_get_object
          (delivery->payload), "down"));
  gst_session_webhook_delivery_free (delivery);
  fail_unless_equals_int (receiver_count (rv), 1);

  g_free (id);
  g_free (hook);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_retry_gives_up)
{
  /* 10 retries: 5 + 10 + ... + 2560 = 5115 s, 5.1 s at this scale */
  SvcProcess *p = svc_process_start ("--time-scale=0.001", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  gchar *hook = receiver_url (rv), *id;
  JsonObject *d;
  guint i;

  receiver_answer (rv, 503, 100);
  id = submit (platform, "echo", hook, "{}");
  d = wait_delivery_state (p, id, "failed", 20000);
  fail_unless (d != NULL);
  /* the first attempt and 10 retries */
  fail_unless_equals_int (attempt_count (d), 11);
  for (i = 0; i < 11; i++) {
    const gchar *result = attempt_result (d, i);

    fail_unless (g_str_equal (result, "HTTP 503") ||
        g_str_equal (result, "timeout"), "attempt %u: %s", i, result);
  }
  /* exponential: retry n starts 5 s * 2^(n-1) (scaled) after attempt n
   * failed, which took at most the 15 s timeout */
  for (i = 1; i < 11; i++) {
    gdouble gap = attempt_at (d, i) - attempt_at (d, i - 1);
    gdouble delay = 0.005 * (1 << (i - 1));

    fail_unless (gap >= delay - 0.001 && gap <= delay + 0.015 + 0.25,
        "retry %u after %.3f s", i, gap);
  }
  /* within 2 hours (7.2 s at this scale) */
  fail_unless (attempt_at (d, 10) < 7.2);
  fail_unless (json_object_get_null_member (d, "next_attempt_in"));
  json_object_unref (d);
  fail_unless (receiver_count (rv) <= 11);

  g_free (id);
  g_free (hook);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* ---------------------------------------------------------------- *
 * key rotation, duplicates
 * ---------------------------------------------------------------- */

GST_START_TEST (test_key_rotation)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  GstSessionWebhookKeySet *old_keys = fetch_keys (p), *new_keys;
  gchar *hook = receiver_url (rv), *id1, *id2, *jwks_url;
  GstSessionWebhookVerifier *verifier;
  GstSessionWebhookVerification *v;
  Received *got1, *got2;
  SvcHttpReply *r;
  GError *error = NULL;

  jwks_url = url_of (p, "/.well-known/jwks.json");
  verifier = gst_session_webhook_verifier_new (jwks_url);
  g_object_set (verifier, "refetch-cooldown", 0, NULL);

  id1 = submit (platform, "echo", hook, "{\"key\": 1}");
  got1 = receiver_wait (rv, 1, TIMEOUT);
  fail_unless (got1 != NULL);
  fail_unless_equals_int (verify (old_keys, got1),
      GST_SESSION_WEBHOOK_RESULT_VALID);
  v = gst_session_webhook_verifier_verify_sync (verifier, got1->headers,
      g_bytes_get_data (got1->body, NULL), g_bytes_get_size (got1->body),
      NULL, NULL, &error);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
  gst_session_webhook_verification_free (v);

  r = http_post (p, "/admin/rotate-key", NULL, NULL);
  fail_unless_equals_int (r->status, 200);
  fail_if (g_str_equal (object_string (r->json, "kid"),
          object_string (r->json, "retired")));
  svc_http_reply_free (r);
  new_keys = fetch_keys (p);
  /* the old key left the set */
  fail_unless_equals_int (gst_session_webhook_key_set_get_n_keys (new_keys), 1);
  fail_unless_equals_int (verify (new_keys, got1),
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);

  id2 = submit (platform, "echo", hook, "{\"key\": 2}");
  got2 = receiver_wait (rv, 2, TIMEOUT);
  fail_unless (got2 != NULL);
  fail_unless_equals_int (verify (new_keys, got2),
      GST_SESSION_WEBHOOK_RESULT_VALID);
  fail_unless_equals_int (verify (old_keys, got2),
      GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED);
  /* a receiver caching the old set fetches it again */
  v = gst_session_webhook_verifier_verify_sync (verifier, got2->headers,
      g_bytes_get_data (got2->body, NULL), g_bytes_get_size (got2->body),
      NULL, NULL, &error);
  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
  fail_unless (v->refetched);
  gst_session_webhook_verification_free (v);

  /* --webhook-key-rotate rotates on its own */
  {
    SvcProcess *q = svc_process_start ("--webhook-key-rotate=0.2", NULL);
    SvcHttpReply *a = http_get (q, "/.well-known/jwks.json", NULL), *b;
    gint64 end = g_get_monotonic_time () + TIMEOUT * G_TIME_SPAN_MILLISECOND;
    gboolean changed = FALSE;

    while (!changed && g_get_monotonic_time () < end) {
      g_usleep (20 * 1000);
      b = http_get (q, "/.well-known/jwks.json", NULL);
      changed = !g_str_equal (a->body, b->body);
      svc_http_reply_free (b);
    }
    fail_unless (changed);
    svc_http_reply_free (a);
    fail_unless_equals_int (svc_process_stop (q, NULL), 0);
  }

  gst_object_unref (verifier);
  g_free (jwks_url);
  g_free (id1);
  g_free (id2);
  g_free (hook);
  gst_session_webhook_key_set_unref (old_keys);
  gst_session_webhook_key_set_unref (new_keys);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_redeliver)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  GstSessionWebhookKeySet *keys = fetch_keys (p);
  gchar *hook = receiver_url (rv), *id, *body;
  Received *got1, *again;
  JsonObject *d;
  SvcHttpReply *r;

  id = submit (platform, "echo", hook, "{\"once\": \"or twice\"}");
  got1 = receiver_wait (rv, 1, TIMEOUT);
  fail_unless (got1 != NULL);
  body = g_strdup_printf ("{\"request_id\": \"%s\"}", id);
  r = http_post (p, "/admin/redeliver", body, NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  again = receiver_wait (rv, 2, TIMEOUT);
  fail_unless (again != NULL);
  /* the same delivery: same id, same body bytes, valid signature */
  fail_unless_equals_string (soup_message_headers_get_one (again->headers,
          GST_SESSION_WEBHOOK_HEADER_REQUEST_ID), id);
  fail_unless (g_bytes_equal (got1->body, again->body));
  gst_session_webhook_delivery_free (verified_delivery (keys, again, id));
  d = delivery_record (p, id, 1);
  fail_unless (d != NULL);
  fail_unless (json_object_get_boolean_member (d, "redelivery"));
  json_object_unref (d);

  r = http_post (p, "/admin/redeliver", "{\"request_id\": \"nope\"}", NULL);
  fail_unless_equals_int (r->status, 404);
  svc_http_reply_free (r);
  r = http_post (p, "/admin/redeliver", "{}", NULL);
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);

  g_free (body);
  g_free (id);
  g_free (hook);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

static Suite *
platform_webhooks_suite (void)
{
  Suite *s = suite_create ("service-platform-webhooks");
  TCase *tc = tcase_create ("webhooks");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  tcase_add_test (tc, test_key_set_and_meta);
  tcase_add_test (tc, test_delivery_signed);
  tcase_add_test (tc, test_delivery_bodies);
  tcase_add_test (tc, test_submission_errors);
  tcase_add_test (tc, test_retry_until_2xx);
  tcase_add_test (tc, test_retry_receiver_down);
  tcase_add_test (tc, test_retry_gives_up);
  tcase_add_test (tc, test_key_rotation);
  tcase_add_test (tc, test_redeliver);
  return s;
}

GST_CHECK_MAIN (platform_webhooks);
