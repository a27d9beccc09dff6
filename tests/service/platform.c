/* gst-session: the reference service, platform side (spec 001): queue,
 * signed webhook deliveries, key set, management rate limits
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The client side is the library: GstSessionPlatform submits and manages,
 * gst_session_webhook_verify() and GstSessionWebhookVerifier check the
 * deliveries, which a SoupServer on 127.0.0.1 (port 0, its own thread)
 * receives. The service runs with --time-scale so retries take
 * milliseconds.
 */

#include <string.h>
#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000

/* ---------------------------------------------------------------- *
 * a webhook receiver on its own thread
 * ---------------------------------------------------------------- */

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

typedef struct
{
  SoupServerMessage *msg;
  guint status;
} Delayed;

static void
received_free (Received * r)
{
  g_bytes_unref (r->body);
  soup_message_headers_unref (r->headers);
  g_free (r->peer);
  g_free (r);
}

static gboolean
answer_delayed (gpointer data)
{
  Delayed *d = data;

  soup_server_message_set_status (d->msg, d->status, NULL);
  soup_server_message_unpause (d->msg);
  g_object_unref (d->msg);
  g_free (d);
  return G_SOURCE_REMOVE;
}

static void
copy_header (const char *name, const char *value, gpointer data)
{
  soup_message_headers_append (data, name, value);
}

static void
on_webhook (SoupServer * server, SoupServerMessage * msg, const char *path,
    GHashTable * query, gpointer data)
{
  Receiver *rv = data;
  Received *r = g_new0 (Received, 1);
  GSocketAddress *addr = soup_server_message_get_remote_address (msg);
  guint delay = 0;

  r->body = soup_message_body_flatten (soup_server_message_get_request_body
      (msg));
  r->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  soup_message_headers_foreach (soup_server_message_get_request_headers
      (msg), copy_header, r->headers);
  if (addr && G_IS_INET_SOCKET_ADDRESS (addr))
    r->peer = g_inet_address_to_string (g_inet_socket_address_get_address
        (G_INET_SOCKET_ADDRESS (addr)));
  r->at = g_get_monotonic_time ();

  g_mutex_lock (&rv->lock);
  r->answered = rv->answers.length ?
      GPOINTER_TO_UINT (g_queue_pop_head (&rv->answers)) : 200;
  if (rv->delay_count) {
    rv->delay_count--;
    delay = rv->delay_ms;
  }
  g_ptr_array_add (rv->received, r);
  g_cond_broadcast (&rv->cond);
  g_mutex_unlock (&rv->lock);

  if (delay) {
    Delayed *d = g_new0 (Delayed, 1);
    GSource *source = g_timeout_source_new (delay);

    d->msg = g_object_ref (msg);
    d->status = r->answered;
    soup_server_message_pause (msg);
    g_source_set_callback (source, answer_delayed, d, NULL);
    g_source_attach (source, rv->context);
    g_source_unref (source);
  } else {
    soup_server_message_set_status (msg, r->answered, NULL);
  }
}

static gpointer
receiver_thread (gpointer data)
{
  Receiver *rv = data;
  GError *error = NULL;
  GSocketAddress *addr;
  GSList *uris;

  g_main_context_push_thread_default (rv->context);
  rv->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (rv->server, NULL, on_webhook, rv, NULL);
  addr = g_inet_socket_address_new_from_string ("127.0.0.1", rv->port);
  g_mutex_lock (&rv->lock);
  if (soup_server_listen (rv->server, addr, 0, &error)) {
    uris = soup_server_get_uris (rv->server);
    rv->port = g_uri_get_port (uris->data);
    g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  } else {
    rv->listen_error = g_strdup (error->message);
    g_clear_error (&error);
  }
  g_object_unref (addr);
  rv->ready = TRUE;
  g_cond_broadcast (&rv->cond);
  g_mutex_unlock (&rv->lock);

  if (!rv->listen_error)
    g_main_loop_run (rv->loop);
  soup_server_disconnect (rv->server);
  g_object_unref (rv->server);
  /* let the server's sources go */
  while (g_main_context_iteration (rv->context, FALSE));
  g_main_context_pop_thread_default (rv->context);
  return NULL;
}

/* A receiver on 127.0.0.1:@port (0: any free port) */
static Receiver *
receiver_new (guint port)
{
  Receiver *rv = g_new0 (Receiver, 1);

  g_mutex_init (&rv->lock);
  g_cond_init (&rv->cond);
  g_queue_init (&rv->answers);
  rv->received = g_ptr_array_new_with_free_func ((GDestroyNotify)
      received_free);
  rv->port = port;
  rv->context = g_main_context_new ();
  rv->loop = g_main_loop_new (rv->context, FALSE);
  rv->thread = g_thread_new ("receiver", receiver_thread, rv);
  g_mutex_lock (&rv->lock);
  while (!rv->ready)
    g_cond_wait (&rv->cond, &rv->lock);
  g_mutex_unlock (&rv->lock);
  fail_unless (rv->listen_error == NULL, "receiver: %s", rv->listen_error);
  return rv;
}

static void
receiver_free (Receiver * rv)
{
  g_main_loop_quit (rv->loop);
  g_thread_join (rv->thread);
  g_main_loop_unref (rv->loop);
  g_main_context_unref (rv->context);
  g_ptr_array_unref (rv->received);
  g_queue_clear (&rv->answers);
  g_free (rv->listen_error);
  g_mutex_clear (&rv->lock);
  g_cond_clear (&rv->cond);
  g_free (rv);
}

static gchar *
receiver_url (Receiver * rv)
{
  return g_strdup_printf ("http://127.0.0.1:%u/hook?token=t1", rv->port);
}

/* the next answers, then 200 */
static void
receiver_answer (Receiver * rv, guint status, guint times)
{
  g_mutex_lock (&rv->lock);
  while (times--)
    g_queue_push_tail (&rv->answers, GUINT_TO_POINTER (status));
  g_mutex_unlock (&rv->lock);
}

static void
receiver_delay (Receiver * rv, guint times, guint ms)
{
  g_mutex_lock (&rv->lock);
  rv->delay_count = times;
  rv->delay_ms = ms;
  g_mutex_unlock (&rv->lock);
}

static guint
receiver_count (Receiver * rv)
{
  guint n;

  g_mutex_lock (&rv->lock);
  n = rv->received->len;
  g_mutex_unlock (&rv->lock);
  return n;
}

/* The @n-th delivery received (from 1), waiting for it; NULL after
 * @timeout_ms. It stays owned by the receiver. */
static Received *
receiver_wait (Receiver * rv, guint n, gint timeout_ms)
{
  gint64 end = g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  Received *r = NULL;

  g_mutex_lock (&rv->lock);
  while (rv->received->len < n)
    if (!g_cond_wait_until (&rv->cond, &rv->lock, end))
      break;
  if (rv->received->len >= n)
    r = g_ptr_array_index (rv->received, n - 1);
  g_mutex_unlock (&rv->lock);
  return r;
}

/* ---------------------------------------------------------------- *
 * the service's side
 * ---------------------------------------------------------------- */

static gchar *
url_of (SvcProcess * p, const gchar * path)
{
  return g_strconcat (svc_process_url (p), path, NULL);
}

static SvcHttpReply *
http_get (SvcProcess * p, const gchar * path, const gchar * key)
{
  gchar *url = url_of (p, path);
  SvcHttpReply *r = svc_http ("GET", url, NULL, key);

  g_free (url);
  return r;
}

static SvcHttpReply *
http_post (SvcProcess * p, const gchar * path, const gchar * body,
    const gchar * key)
{
  gchar *url = url_of (p, path);
  SvcHttpReply *r = svc_http ("POST", url, body, key);

  g_free (url);
  return r;
}

static GstSessionWebhookKeySet *
fetch_keys (SvcProcess * p)
{
  SvcHttpReply *r = http_get (p, "/.well-known/jwks.json", NULL);
  GstSessionWebhookKeySet *keys;
  GError *error = NULL;

  fail_unless_equals_int (r->status, 200);
  keys = gst_session_webhook_key_set_parse (r->body, strlen (r->body), &error);
  fail_unless (keys != NULL, "key set: %s", error ? error->message : "");
  svc_http_reply_free (r);
  return keys;
}

static const gchar *
object_string (JsonNode * node, const gchar * name)
{
  return json_object_get_string_member (json_node_get_object (node), name);
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

static GstSessionPlatform *
platform_new (SvcProcess * p, const gchar * key)
{
  gchar *queue = url_of (p, "/queue");
  GstSessionPlatform *platform = gst_session_platform_new (queue,
      svc_process_url (p), key);

  g_free (queue);
  return platform;
}

/* Submits and checks the answer; the request id */
static gchar *
submit (GstSessionPlatform * platform, const gchar * app,
    const gchar * webhook, const gchar * body)
{
  gchar *request_id = NULL, *gateway = NULL;
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  gboolean ok;

  ok = gst_session_platform_submit (platform, app, webhook, body, NULL,
      &request_id, &gateway, NULL, &http_error, &error);
  fail_unless (ok, "submit %s: %s", app, error ? error->message : "");
  fail_unless (g_uuid_string_is_valid (request_id));
  fail_unless_equals_string (gateway, request_id);
  g_free (gateway);
  return request_id;
}

/* Submits a request the service refuses: the parsed answer */
static GstSessionHttpError *
submit_refused (GstSessionPlatform * platform, const gchar * app,
    const gchar * webhook, const gchar * body, guint status)
{
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;

  fail_if (gst_session_platform_submit (platform, app, webhook, body, NULL,
          NULL, NULL, NULL, &http_error, &error));
  fail_unless (http_error != NULL, "no HTTP error: %s", error->message);
  fail_unless_equals_int (http_error->status, status);
  g_clear_error (&error);
  return http_error;
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

/* Verifies and parses a received delivery with @keys */
static GstSessionWebhookDelivery *
verified_delivery (GstSessionWebhookKeySet * keys, Received * r,
    const gchar * request_id)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (r->body, &size);
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  GstSessionWebhookVerification *v = gst_session_webhook_verify (keys,
      r->headers, data, size, now, GST_SESSION_WEBHOOK_LEEWAY);
  GstSessionWebhookDelivery *d;
  GError *error = NULL;

  fail_unless_equals_int (v->result, GST_SESSION_WEBHOOK_RESULT_VALID);
  fail_unless_equals_string (v->request_id, request_id);
  fail_unless_equals_string (v->user_id, "user-reference");
  fail_unless (ABS (now - v->timestamp) <= 5);
  d = gst_session_webhook_delivery_parse ((const gchar *) data, size, 0,
      v->request_id, &error);
  fail_unless (d != NULL, "delivery: %s", error ? error->message : "");
  gst_session_webhook_verification_free (v);
  return d;
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

static void
assert_request_error (GstSessionHttpError * e, const gchar * type)
{
  fail_unless_equals_int (e->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (e->error_type, type);
  fail_unless (e->detail != NULL);
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

/* ---------------------------------------------------------------- *
 * management and its rate limits
 * ---------------------------------------------------------------- */

/* One plain request on a kept-alive session; the status, and the
 * x-ratelimit-reset header and JSON body when asked */
static guint
raw (SoupSession * session, const gchar * method, SvcProcess * p,
    const gchar * path, const gchar * key, gchar ** reset, JsonNode ** json)
{
  gchar *url = url_of (p, path);
  SoupMessage *msg = soup_message_new (method, url);
  GBytes *body;
  GError *error = NULL;
  guint status;

  if (key) {
    gchar *auth = g_strconcat ("Key ", key, NULL);

    soup_message_headers_replace (soup_message_get_request_headers (msg),
        "Authorization", auth);
    g_free (auth);
  }
  body = soup_session_send_and_read (session, msg, NULL, &error);
  fail_unless (body != NULL, "%s %s: %s", method, path,
      error ? error->message : "");
  status = soup_message_get_status (msg);
  if (reset)
    *reset = g_strdup (soup_message_headers_get_one
        (soup_message_get_response_headers (msg), "x-ratelimit-reset"));
  if (json)
    *json = json_from_string (g_bytes_get_data (body, NULL), NULL);
  g_bytes_unref (body);
  g_object_unref (msg);
  g_free (url);
  return status;
}

/* A client whose own limiter lets everything through, so that only the
 * service's limits count */
static GstSessionPlatform *
unlimited_platform (SvcProcess * p, const gchar * key)
{
  GstSessionPlatform *platform = platform_new (p, key);
  GstSessionRateLimiter *limiter =
      gst_session_platform_get_rate_limiter (platform);
  guint i;

  for (i = 0; i < GST_SESSION_MANAGEMENT_N_OPS; i++)
    gst_session_rate_limiter_set_limit (limiter, i, 0);
  gst_session_rate_limiter_unref (limiter);
  return platform;
}

/* One management call: 0 when the service served it (2xx or another
 * error than 429), else the x-ratelimit-reset seconds of its 429. (After
 * a 429 the client refuses that limit on its own: use a new one.) */
static gdouble
manage (GstSessionPlatform * platform, GstSessionManagementOp op,
    const gchar * target)
{
  static const gchar *const command[] = { "true", NULL };
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  JsonNode *result;
  gdouble reset = 0;

  result = gst_session_platform_manage (platform, op, target,
      op == GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL ? command : NULL, NULL,
      NULL, &http_error, &error);
  if (result) {
    json_node_unref (result);
  } else if (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_PLATFORM_ERROR_RATE_LIMITED)) {
    /* refused by the service, not by the client */
    fail_unless (http_error != NULL);
    fail_unless_equals_int (http_error->status, 429);
    fail_unless_equals_int (http_error->kind,
        GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT);
    reset = http_error->ratelimit_reset;
    fail_unless (reset >= 1, "x-ratelimit-reset %g", reset);
  } else {
    fail_unless (http_error != NULL, "%s: %s",
        gst_session_management_op_name (op), error->message);
    fail_unless_equals_int (http_error->status, 404);
  }
  g_clear_error (&error);
  if (http_error)
    gst_session_http_error_free (http_error);
  return reset;
}

static const gchar *
runner_state (SoupSession * session, SvcProcess * p, const gchar * id,
    const gchar * key, gchar ** state)
{
  gchar *path = g_strconcat ("/runners/", id, NULL);
  JsonNode *json = NULL;

  fail_unless_equals_int (raw (session, "GET", p, path, key, NULL, &json), 200);
  *state = g_strdup (object_string (json, "state"));
  json_node_unref (json);
  g_free (path);
  return *state;
}

GST_START_TEST (test_management)
{
  SvcProcess *p = svc_process_start ("--time-scale=0.01", NULL);
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *platform = platform_new (p, NULL);
  static const gchar *const command[] = { "echo", "hi", "there", NULL };
  static const gchar *const unknown[] = { "rm", "-rf", "/", NULL };
  gchar *hook = receiver_url (rv), *id, *line;
  GstSessionHttpError *http_error = NULL;
  GError *error = NULL;
  JsonNode *node;
  JsonObject *obj;
  JsonArray *array;
  guint i, found = 0;

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL, NULL, NULL, NULL, NULL,
      &error);
  fail_unless (node != NULL);
  array = json_object_get_array_member (json_node_get_object (node), "apps");
  fail_unless (json_array_get_length (array) >= 5);
  for (i = 0; i < json_array_get_length (array); i++)
    found += g_str_equal (json_object_get_string_member
        (json_array_get_object_element (array, i), "app_id"), "reference/echo");
  fail_unless_equals_int (found, 1);
  json_node_unref (node);

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS, "reference/echo", NULL, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  array = json_object_get_array_member (json_node_get_object (node), "runners");
  fail_unless_equals_int (json_array_get_length (array), 2);
  json_node_unref (node);

  /* a request on a runner shows in its details and logs */
  id = submit (platform, "upper", hook, "{\"text\": \"x\"}");
  fail_unless (receiver_wait (rv, 1, TIMEOUT) != NULL);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS, "runner-upper-1", NULL, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  obj = json_node_get_object (node);
  fail_unless_equals_int (json_object_get_int_member
      (json_object_get_object_member (obj, "runner"), "requests_served"), 1);
  array = json_object_get_array_member (json_object_get_object_member (obj,
          "logs"), "lines");
  line = g_strdup_printf ("request %s (gateway %s): OK", id, id);
  fail_unless (g_str_has_suffix (json_array_get_string_element (array,
              json_array_get_length (array) - 1), line));
  g_free (line);
  json_node_unref (node);
  g_free (id);

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-1", command, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  obj = json_node_get_object (node);
  fail_unless_equals_int (json_object_get_int_member (obj, "exit_code"), 0);
  fail_unless_equals_string (json_object_get_string_member (obj, "stdout"),
      "hi there\n");
  json_node_unref (node);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-1", unknown, NULL,
      NULL, NULL, &error);
  fail_unless_equals_int (json_object_get_int_member (json_node_get_object
          (node), "exit_code"), 127);
  json_node_unref (node);

  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP, "runner-echo-2", NULL, NULL,
      NULL, NULL, &error);
  fail_unless_equals_string (object_string (node, "previous_state"), "running");
  fail_unless_equals_string (object_string (node, "state"), "stopped");
  json_node_unref (node);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL, "runner-echo-2", NULL, NULL,
      NULL, NULL, &error);
  fail_unless_equals_string (object_string (node, "state"), "killed");
  json_node_unref (node);
  node = gst_session_platform_manage (platform,
      GST_SESSION_MANAGEMENT_OP_GET_RUNNER, "runner-echo-2", NULL, NULL,
      NULL, NULL, &error);
  fail_unless_equals_string (object_string (node, "state"), "killed");
  json_node_unref (node);
  /* exec on a runner that is not running */
  fail_if (gst_session_platform_manage (platform,
          GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-2", command,
          NULL, NULL, &http_error, &error));
  fail_unless_equals_int (http_error->status, 409);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);
  /* unknown runner */
  fail_if (gst_session_platform_manage (platform,
          GST_SESSION_MANAGEMENT_OP_GET_RUNNER, "runner-nope", NULL,
          NULL, NULL, &http_error, &error));
  fail_unless_equals_int (http_error->status, 404);
  g_clear_pointer (&http_error, gst_session_http_error_free);
  g_clear_error (&error);

  g_free (hook);
  gst_object_unref (platform);
  receiver_free (rv);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* each key a client of its own: the service checks them (a key nobody
 * checks would not separate clients) */
#define CLIENT_KEYS "--api-key=client-0", "--api-key=client-1", \
    "--api-key=client-2", "--api-key=client-3", "--api-key=client-4", \
    "--api-key=client-5", "--api-key=client-6", "--api-key=client-7", \
    "--api-key=client-8", "--api-key=client-9", "--api-key=client-10", \
    "--api-key=client-11", "--api-key=client-a", "--api-key=client-b", \
    "--api-key=client-c", "--api-key=another-client"

GST_START_TEST (test_rate_limits_exact)
{
  SvcProcess *p = svc_process_start (CLIENT_KEYS, NULL);
  SoupSession *session = soup_session_new ();
  static const struct
  {
    GstSessionManagementOp op;
    const gchar *target;
  } cases[] = {
    {GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL},
    {GST_SESSION_MANAGEMENT_OP_APPS_RUNNERS, "reference/echo"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST, NULL},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS, "runner-echo-1"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_SHELL, "runner-echo-1"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP, "runner-none"},
    {GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL, "runner-none"},
    {GST_SESSION_MANAGEMENT_OP_GET_RUNNER, "runner-echo-1"},
    {GST_SESSION_MANAGEMENT_OP_GET_RUNNERS, NULL},
  };
  guint i, n;

  /* each limit: N calls served, the call N + 1 refused by the service;
   * one client (API key) per limit */
  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    gchar *key = g_strdup_printf ("client-%u", i);
    GstSessionPlatform *platform = unlimited_platform (p, key);
    guint limit = gst_session_management_op_per_minute (cases[i].op);
    gdouble reset;
    gchar *state = NULL;

    for (n = 0; n < limit; n++)
      fail_unless (manage (platform, cases[i].op, cases[i].target) == 0,
          "%s: call %u refused", gst_session_management_op_name
          (cases[i].op), n + 1);
    reset = manage (platform, cases[i].op, cases[i].target);
    fail_unless (reset >= 1 && reset <= 60, "%s: call %u not refused",
        gst_session_management_op_name (cases[i].op), limit + 1);

    /* rule 3: a refused stop or kill leaves the runner running */
    if (cases[i].op == GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP ||
        cases[i].op == GST_SESSION_MANAGEMENT_OP_RUNNERS_KILL) {
      const gchar *path = cases[i].op == GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP
          ? "/runners/runner-echo-2/stop" : "/runners/runner-echo-2/kill";
      JsonNode *json = NULL;

      fail_unless_equals_int (raw (session, "POST", p, path, key, NULL,
              &json), 429);
      fail_unless (strstr (object_string (json, "detail"), "keeps running"));
      json_node_unref (json);
      fail_unless_equals_string (runner_state (session, p, "runner-echo-2",
              "another-client", &state), "running");
      g_free (state);
    }
    gst_object_unref (platform);
    g_free (key);
  }

  g_object_unref (session);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_rate_limits_shared)
{
  SvcProcess *p = svc_process_start (CLIENT_KEYS, NULL), *keyless;
  SoupSession *session = soup_session_new ();
  GstSessionPlatform *a = unlimited_platform (p, "client-a");
  GstSessionPlatform *b = unlimited_platform (p, "client-b");
  guint n;

  /* rule 2: runners logs first fetches the runner: 60 logs and 60
   * GET /runners/{id} fill the 120 of GET /runners/{runner_id} */
  for (n = 0; n < 60; n++)
    fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS,
            "runner-echo-1") == 0);
  for (n = 0; n < 60; n++)
    fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_GET_RUNNER,
            "runner-echo-1") == 0);
  fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_GET_RUNNER,
          "runner-echo-1") > 0);
  gst_object_unref (a);
  a = unlimited_platform (p, "client-a");
  fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS,
          "runner-echo-1") > 0);
  /* the logs themselves have used 60 of their 120 */
  fail_unless_equals_int (raw (session, "GET", p, "/runners/runner-echo-1/logs",
          "client-a", NULL, NULL), 200);
  /* other limits and other clients are untouched */
  fail_unless (manage (a, GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL) == 0);
  fail_unless (manage (b, GST_SESSION_MANAGEMENT_OP_GET_RUNNER,
          "runner-echo-1") == 0);

  /* runners list and GET /runners are one request here: it counts toward
   * both */
  for (n = 0; n < 120; n++)
    fail_unless_equals_int (raw (session, "GET", p, "/runners", "client-b",
            NULL, NULL), 200);
  fail_unless (manage (b, GST_SESSION_MANAGEMENT_OP_RUNNERS_LIST, NULL) > 0);
  gst_object_unref (b);
  b = unlimited_platform (p, "client-b");
  fail_unless (manage (b, GST_SESSION_MANAGEMENT_OP_GET_RUNNERS, NULL) > 0);

  /* a checked key is a client of its own */
  fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop",
          "client-c", NULL, NULL), 404);

  /* a service that checks no key: the client is the peer address, and a
   * key it does not check (rotated at will) escapes nothing */
  keyless = svc_process_start (NULL, NULL);
  for (n = 0; n < 60; n++)
    fail_unless_equals_int (raw (session, "POST", keyless,
            "/runners/none/stop", NULL, NULL, NULL), 404);
  fail_unless_equals_int (raw (session, "POST", keyless, "/runners/none/stop",
          NULL, NULL, NULL), 429);
  fail_unless_equals_int (raw (session, "POST", keyless, "/runners/none/stop",
          "rotated-key-1", NULL, NULL), 429);
  /* the admin reset closes every window */
  fail_unless_equals_int (raw (session, "POST", keyless,
          "/admin/rate-limits/reset", NULL, NULL, NULL), 200);
  fail_unless_equals_int (raw (session, "POST", keyless, "/runners/none/stop",
          NULL, NULL, NULL), 404);
  fail_unless_equals_int (svc_process_stop (keyless, NULL), 0);
  /* with keys, the admin endpoints want one too */
  fail_unless_equals_int (raw (session, "POST", p, "/admin/rate-limits/reset",
          NULL, NULL, NULL), 401);
  fail_unless_equals_int (raw (session, "POST", p, "/admin/rate-limits/reset",
          "client-a", NULL, NULL), 200);
  fail_unless_equals_int (raw (session, "GET", p, "/runners", "client-b",
          NULL, NULL), 200);

  gst_object_unref (a);
  gst_object_unref (b);
  g_object_unref (session);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_rate_window_resets)
{
  SvcProcess *p = svc_process_start ("--rate-window=3", NULL);
  SoupSession *session = soup_session_new ();
  gint64 start = g_get_monotonic_time (), end;
  gchar *reset = NULL, *state = NULL;
  JsonNode *json = NULL;
  guint n, status;
  gdouble waited;

  for (n = 0; n < 60; n++)
    fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop",
            "k", NULL, NULL), 404);
  fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop", "k",
          &reset, &json), 429);
  /* x-ratelimit-reset: real seconds of the 3-got2 window */
  fail_unless (reset != NULL);
  fail_unless (atoi (reset) >= 1 && atoi (reset) <= 3, "reset %s", reset);
  fail_unless_equals_string (object_string (json, "error_type"), "bad_request");
  fail_unless (object_string (json, "detail") != NULL);
  json_node_unref (json);
  g_free (reset);

  /* rule 3 */
  fail_unless_equals_int (raw (session, "POST", p,
          "/runners/runner-echo-2/stop", "k", NULL, NULL), 429);
  fail_unless_equals_string (runner_state (session, p, "runner-echo-2", "k",
          &state), "running");
  g_free (state);

  /* refused until the window ends, then a new window */
  end = start + 8 * G_USEC_PER_SEC;
  do {
    g_usleep (50 * 1000);
    status = raw (session, "POST", p, "/runners/none/stop", "k", NULL, NULL);
  } while (status == 429 && g_get_monotonic_time () < end);
  fail_unless_equals_int (status, 404);
  waited = (g_get_monotonic_time () - start) / (gdouble) G_USEC_PER_SEC;
  fail_unless (waited >= 2.9, "the window ended after %.2f s", waited);
  for (n = 1; n < 60; n++)
    fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop",
            "k", NULL, NULL), 404);
  fail_unless_equals_int (raw (session, "POST", p, "/runners/none/stop", "k",
          NULL, NULL), 429);

  g_object_unref (session);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* ---------------------------------------------------------------- *
 * the API key
 * ---------------------------------------------------------------- */

#define KEY "s3cret-platform-key-4c1d"

GST_START_TEST (test_api_key)
{
  SvcProcess *p;
  Receiver *rv = receiver_new (0);
  GstSessionPlatform *none, *wrong, *right;
  GstSessionWebhookKeySet *keys;
  GstSessionHttpError *e;
  gchar *hook = receiver_url (rv), *id, *log = NULL;
  SvcHttpReply *r;
  Received *got;
  GError *error = NULL;
  JsonNode *node;

  /* everything the service logs, to look for the key in it */
  g_setenv ("GST_DEBUG", "session*:7", TRUE);
  p = svc_process_start ("--time-scale=0.01", "--api-key=" KEY, NULL);
  g_unsetenv ("GST_DEBUG");
  none = platform_new (p, NULL);
  wrong = platform_new (p, "not-the-key");
  right = platform_new (p, KEY);

  e = submit_refused (none, "echo", hook, "{}", 401);
  assert_request_error (e, "bad_request");
  e = submit_refused (wrong, "echo", hook, "{}", 401);
  assert_request_error (e, "bad_request");
  fail_if (gst_session_platform_manage (none,
          GST_SESSION_MANAGEMENT_OP_APPS_LIST, NULL, NULL, NULL, NULL, &e,
          &error));
  fail_unless_equals_int (e->status, 401);
  g_clear_pointer (&e, gst_session_http_error_free);
  g_clear_error (&error);
  fail_if (gst_session_platform_manage (wrong,
          GST_SESSION_MANAGEMENT_OP_RUNNERS_STOP, "runner-echo-1", NULL, NULL,
          NULL, &e, &error));
  fail_unless_equals_int (e->status, 401);
  g_clear_pointer (&e, gst_session_http_error_free);
  g_clear_error (&error);

  /* the key set and the metadata need no key; the admin endpoints do */
  keys = fetch_keys (p);
  r = http_get (p, "/v1/meta", NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  r = http_get (p, "/admin/deliveries", NULL);
  fail_unless_equals_int (r->status, 401);
  svc_http_reply_free (r);
  r = http_get (p, "/admin/deliveries", KEY);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);

  id = submit (right, "echo", hook, "{\"with\": \"key\"}");
  got = receiver_wait (rv, 1, TIMEOUT);
  fail_unless (got != NULL);
  gst_session_webhook_delivery_free (verified_delivery (keys, got, id));
  /* the key does not go to the webhook */
  fail_unless (soup_message_headers_get_one (got->headers,
          "Authorization") == NULL);
  fail_if (g_strstr_len (g_bytes_get_data (got->body, NULL),
          g_bytes_get_size (got->body), KEY));
  node = gst_session_platform_manage (right,
      GST_SESSION_MANAGEMENT_OP_RUNNERS_LOGS, "runner-echo-1", NULL, NULL,
      NULL, NULL, &error);
  fail_unless (node != NULL);
  json_node_unref (node);
  fail_unless_equals_int (receiver_count (rv), 1);

  fail_unless_equals_int (svc_process_stop (p, &log), 0);
  /* verbose enough to have said something, never the key */
  fail_unless (strstr (log, "queue: request") != NULL);
  fail_if (strstr (log, KEY) != NULL);
  g_free (log);

  g_free (id);
  g_free (hook);
  gst_session_webhook_key_set_unref (keys);
  gst_object_unref (none);
  gst_object_unref (wrong);
  gst_object_unref (right);
  receiver_free (rv);
}

GST_END_TEST;

static Suite *
platform_suite (void)
{
  Suite *s = suite_create ("service-platform");
  TCase *tc = tcase_create ("webhooks");
  TCase *tm = tcase_create ("management");

  tcase_set_timeout (tc, 60);
  tcase_set_timeout (tm, 120);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  suite_add_tcase (s, tm);
  tcase_add_test (tc, test_key_set_and_meta);
  tcase_add_test (tc, test_delivery_signed);
  tcase_add_test (tc, test_delivery_bodies);
  tcase_add_test (tc, test_submission_errors);
  tcase_add_test (tc, test_retry_until_2xx);
  tcase_add_test (tc, test_retry_receiver_down);
  tcase_add_test (tc, test_retry_gives_up);
  tcase_add_test (tc, test_key_rotation);
  tcase_add_test (tc, test_redeliver);
  tcase_add_test (tm, test_management);
  tcase_add_test (tm, test_rate_limits_exact);
  tcase_add_test (tm, test_rate_limits_shared);
  tcase_add_test (tm, test_rate_window_resets);
  tcase_add_test (tm, test_api_key);
  return s;
}

GST_CHECK_MAIN (platform);
