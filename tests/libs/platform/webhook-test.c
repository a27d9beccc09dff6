/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "webhook-test.h"

GstSessionWebhookKeySet *
keys_from (const gchar * json)
{
  GError *error = NULL;
  GstSessionWebhookKeySet *keys;

  keys = gst_session_webhook_key_set_parse (json, strlen (json), &error);
  fail_unless (keys != NULL, "key set refused: %s",
      error ? error->message : "");
  return keys;
}

Delivery *
delivery_new (const TestKey * key, const gchar * request_id,
    const gchar * user_id, gint64 timestamp, const gchar * body)
{
  Delivery *d = g_new0 (Delivery, 1);

  d->request_id = g_strdup (request_id);
  d->user_id = g_strdup (user_id);
  d->timestamp = g_strdup_printf ("%" G_GINT64_FORMAT, timestamp);
  d->body = g_strdup (body);
  d->signature = test_key_sign_delivery (key, request_id, user_id,
      d->timestamp, body, strlen (body));
  return d;
}

void
delivery_free (Delivery * d)
{
  g_free (d->request_id);
  g_free (d->user_id);
  g_free (d->timestamp);
  g_free (d->signature);
  g_free (d->body);
  g_free (d);
}

SoupMessageHeaders *
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
GstSessionWebhookVerification *
verify_delivery (const GstSessionWebhookKeySet * keys, const Delivery * d,
    gint64 now)
{
  return gst_session_webhook_verify_values (keys, d->request_id, d->user_id,
      d->timestamp, d->signature, (const guint8 *) d->body, strlen (d->body),
      now, GST_SESSION_WEBHOOK_LEEWAY);
}

GstSessionWebhookKeySet *
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
void
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

GMainContext *test_ctx;
gint64 fake_now;

gint64
fake_clock (gpointer user_data)
{
  return fake_now;
}

gboolean
wake_up (gpointer data)
{
  return G_SOURCE_CONTINUE;
}

void
context_setup (void)
{
  test_ctx = g_main_context_new ();
  g_main_context_push_thread_default (test_ctx);
  fake_now = NOW;
}

void
context_teardown (void)
{
  guint i;

  for (i = 0; i < 1000 && g_main_context_iteration (test_ctx, FALSE); i++);
  g_main_context_pop_thread_default (test_ctx);
  g_main_context_unref (test_ctx);
  test_ctx = NULL;
  test_keys_cleanup ();
}

void
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
KeyHost *
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

void
key_host_serve_keys (KeyHost * host, const TestKey * a, const TestKey * b)
{
  g_free (host->jwks);
  host->jwks = b ? g_strdup_printf ("{\"keys\": [{\"kty\": \"OKP\", \"crv\": "
      "\"Ed25519\", \"x\": \"%s\"}, {\"x\": \"%s\"}]}", a->x, b->x) :
      g_strdup_printf ("{\"keys\": [{\"kty\": \"OKP\", \"crv\": "
      "\"Ed25519\", \"x\": \"%s\", \"kid\": \"k1\"}]}", a->x);
}

void
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
gchar *
refused_url (void)
{
  KeyHost *host = key_host_new ();
  gchar *url = g_strdup (host->jwks_url);

  key_host_free (host);
  return url;
}

GstSessionWebhookVerifier *
verifier_new (const gchar * jwks_url)
{
  GstSessionWebhookVerifier *verifier =
      gst_session_webhook_verifier_new (jwks_url);

  gst_session_webhook_verifier_set_clock_func (verifier, fake_clock, NULL,
      NULL);
  return verifier;
}

void
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
GstSessionWebhookVerification *
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
