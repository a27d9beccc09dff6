/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Webhooks (spec 001): GstSessionWebhookVerifier against a key host on
 * 127.0.0.1, with a clock the test moves.
 */

#include "webhook-test.h"

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


static Suite *
webhook_verifier_suite (void)
{
  Suite *s = suite_create ("webhook-verifier");
  TCase *tc = tcase_create ("verifier");

  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, context_setup, context_teardown);
  tcase_add_test (tc, test_verifier_fetches_and_caches);
  tcase_add_test (tc, test_verifier_rotation);
  tcase_add_test (tc, test_verifier_key_host_down);
  tcase_add_test (tc, test_verifier_shares_one_fetch);
  tcase_add_test (tc, test_verifier_source_ranges);
  tcase_add_test (tc, test_verifier_limits_and_pinned_keys);
  tcase_add_test (tc, test_verifier_sync_and_refresh);
  return s;
}

GST_CHECK_MAIN (webhook_verifier);
