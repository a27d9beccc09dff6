/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "platform-test.h"

/* ---------------------------------------------------------------- *
 * a webhook receiver on its own thread
 * ---------------------------------------------------------------- */

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
Receiver *
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

void
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

gchar *
receiver_url (Receiver * rv)
{
  return g_strdup_printf ("http://127.0.0.1:%u/hook?token=t1", rv->port);
}

/* the next answers, then 200 */
void
receiver_answer (Receiver * rv, guint status, guint times)
{
  g_mutex_lock (&rv->lock);
  while (times--)
    g_queue_push_tail (&rv->answers, GUINT_TO_POINTER (status));
  g_mutex_unlock (&rv->lock);
}

void
receiver_delay (Receiver * rv, guint times, guint ms)
{
  g_mutex_lock (&rv->lock);
  rv->delay_count = times;
  rv->delay_ms = ms;
  g_mutex_unlock (&rv->lock);
}

guint
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
Received *
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

gchar *
url_of (SvcProcess * p, const gchar * path)
{
  return g_strconcat (svc_process_url (p), path, NULL);
}

SvcHttpReply *
http_get (SvcProcess * p, const gchar * path, const gchar * key)
{
  gchar *url = url_of (p, path);
  SvcHttpReply *r = svc_http ("GET", url, NULL, key);

  g_free (url);
  return r;
}

GstSessionWebhookKeySet *
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

const gchar *
object_string (JsonNode * node, const gchar * name)
{
  return json_object_get_string_member (json_node_get_object (node), name);
}

GstSessionPlatform *
platform_new (SvcProcess * p, const gchar * key)
{
  gchar *queue = url_of (p, "/queue");
  GstSessionPlatform *platform = gst_session_platform_new (queue,
      svc_process_url (p), key);

  g_free (queue);
  return platform;
}

/* Submits and checks the answer; the request id */
gchar *
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
GstSessionHttpError *
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

/* Verifies and parses a received delivery with @keys */
GstSessionWebhookDelivery *
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

void
assert_request_error (GstSessionHttpError * e, const gchar * type)
{
  fail_unless_equals_int (e->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (e->error_type, type);
  fail_unless (e->detail != NULL);
  gst_session_http_error_free (e);
}
