/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstSessionWebhookVerifier: fetching the key set and the metadata, and
 * the verifications that wait for them.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <nettle/eddsa.h>

#include <gst/session/sessioninit.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include "../session-private.h"
#include "webhook.h"
#include "webhook-private.h"
#include "webhook-verifier-private.h"

/* ---------------------------------------------------------------------- */
/* Fetching the key set and the metadata                                  */

/* One fetch of a document, from fetch_start() to fetch_finish(), in the
 * thread-default context of the job that started it, through
 * gst_session_http_fetch_async() on the verifier's session. Holds a
 * reference on the verifier. */
typedef struct
{
  GstSessionWebhookVerifier *self;
  DocKind kind;
  gchar *url;                   /* for texts: no user info, no query */
  guint timeout;
} Fetch;

/* Ends @f: stores @value (taken) or the failure @error (taken), resumes the
 * jobs that waited, frees @f. */
static void
fetch_finish (Fetch * f, gpointer value, GError * error)
{
  GstSessionWebhookVerifier *self = f->self;
  Cache *cache = &self->caches[f->kind];
  gchar *failure = NULL;
  gint64 now = webhook_verifier_now (self);
  GArray *waiters;
  guint i;

  if (value == NULL) {
    /* a timeout says "no answer within <timeout> ms" */
    failure = g_strdup_printf ("The %s could not be fetched from %s: %s",
        webhook_doc_names[f->kind], f->url, error ? error->message : "failed");
    GST_WARNING_OBJECT (self, "%s", failure);
  } else {
    GST_INFO_OBJECT (self, "%s fetched from %s", webhook_doc_names[f->kind],
        f->url);
  }

  GST_OBJECT_LOCK (self);
  cache->fetching = FALSE;
  if (value) {
    webhook_cache_clear_value (cache, f->kind);
    cache->value = value;
    cache->stored_at = now;
    g_clear_pointer (&cache->failure, g_free);
  } else {
    g_free (cache->failure);
    cache->failure = failure;
    failure = NULL;
  }
  waiters = cache->waiters;
  cache->waiters = g_array_new (FALSE, FALSE, sizeof (Waiter));
  GST_OBJECT_UNLOCK (self);

  g_clear_error (&error);
  g_free (f->url);
  g_free (f);

  for (i = 0; i < waiters->len; i++) {
    Waiter *w = &g_array_index (waiters, Waiter, i);

    w->resume (w->task);
  }
  g_array_unref (waiters);
  gst_object_unref (self);
}

static void
on_fetched (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Fetch *f = user_data;
  GError *error = NULL;
  gpointer value = NULL;
  const gchar *data;
  GBytes *body;
  gsize length;
  guint status;

  body = gst_session_http_fetch_finish (SOUP_SESSION (source), res, &status,
      NULL, &error);
  if (body == NULL) {
    fetch_finish (f, NULL, error);
    return;
  }
  if (!SOUP_STATUS_IS_SUCCESSFUL (status)) {
    const gchar *phrase = soup_status_get_phrase (status);

    g_bytes_unref (body);
    fetch_finish (f, NULL, g_error_new (GST_SESSION_ERROR,
            GST_SESSION_ERROR_HTTP, "HTTP %u%s%s", status, phrase ? " " : "",
            phrase ? phrase : ""));
    return;
  }
  data = g_bytes_get_data (body, &length);
  if (data == NULL)
    data = "";
  if (f->kind == DOC_KEY_SET)
    value = gst_session_webhook_key_set_parse (data, length, &error);
  else
    value = gst_session_webhook_ip_ranges_parse (data, length, &error);
  g_bytes_unref (body);
  fetch_finish (f, value, error);
}

/* Starts fetching @kind from @url (taken), in the thread-default context.
 * The caller has set the cache's `fetching` under the lock. */
static void
fetch_start (GstSessionWebhookVerifier * self, DocKind kind, gchar * url,
    guint timeout)
{
  Fetch *f = g_new0 (Fetch, 1);
  GError *error = NULL;
  SoupSession *session;
  SoupMessage *msg = NULL;
  GUri *uri;

  f->self = gst_object_ref (self);
  f->kind = kind;
  f->timeout = timeout;

  uri = g_uri_parse (url, SOUP_HTTP_URI_FLAGS, NULL);
  if (uri && gst_session_webhook_url_allowed (url, self->allow_insecure_http,
          &error))
    /* the document is trusted for being at this URL: no redirects */
    msg = gst_session_http_request_new_from_uri (SOUP_METHOD_GET, uri,
        "application/json", NULL, NULL, TRUE, NULL);
  g_free (url);
  if (msg == NULL) {
    f->url = g_strdup ("its URL");
    if (error == NULL)
      g_set_error_literal (&error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT, "not an http or https URL");
    g_clear_pointer (&uri, g_uri_unref);
    fetch_finish (f, NULL, error);
    return;
  }
  f->url = gst_session_http_safe_url (uri, TRUE);
  g_uri_unref (uri);
  GST_INFO_OBJECT (self, "fetching the %s from %s", webhook_doc_names[kind],
      f->url);

  GST_OBJECT_LOCK (self);
  if (self->session == NULL)
    self->session = gst_session_http_session_new ();
  session = g_object_ref (self->session);
  GST_OBJECT_UNLOCK (self);

  gst_session_http_fetch_async (session, msg, timeout,
      kind == DOC_KEY_SET ? GST_SESSION_WEBHOOK_KEY_SET_MAX_SIZE :
      GST_SESSION_WEBHOOK_META_MAX_SIZE, 0, NULL, on_fetched, f);
  g_object_unref (msg);
  g_object_unref (session);
}

/* ---------------------------------------------------------------------- */
/* Jobs waiting for fetches                                               */

/* With the lock held: the URL of @kind, or NULL when none is set. */
static gchar *
doc_url_locked (GstSessionWebhookVerifier * self, DocKind kind)
{
  gchar *base, *url;
  gsize n;

  if (kind == DOC_KEY_SET)
    return self->jwks_url && *self->jwks_url ? g_strdup (self->jwks_url) : NULL;
  if (self->api_url == NULL || *self->api_url == '\0')
    return NULL;
  base = g_strdup (self->api_url);
  for (n = strlen (base); n > 0 && base[n - 1] == '/'; n--)
    base[n - 1] = '\0';
  url = g_strconcat (base, "/v1/meta", NULL);
  g_free (base);
  return url;
}

/* With the lock held: makes @task wait for a fetch of @kind, joining the
 * running one or starting one. A new fetch is not started when there is
 * no URL, nor (unless @force) within the cooldown after a failed fetch.
 * Returns FALSE when the task does not wait. When *@start_url is set, the
 * caller calls fetch_start() with it after unlocking. */
static gboolean
cache_wait_locked (GstSessionWebhookVerifier * self, DocKind kind,
    gint64 now, gboolean force, GTask * task, void (*resume) (GTask * task),
    gchar ** start_url, guint * timeout)
{
  Cache *cache = &self->caches[kind];
  Waiter w;

  *start_url = NULL;
  *timeout = self->timeout;
  if (!cache->fetching) {
    gchar *url = doc_url_locked (self, kind);

    if (url == NULL)
      return FALSE;
    if (!force && cache->attempted && cache->failure
        && webhook_elapsed_since (now,
            cache->attempted_at) < self->refetch_cooldown) {
      GST_DEBUG_OBJECT (self,
          "not fetching the %s: the last fetch failed " "less than %u s ago",
          webhook_doc_names[kind], self->refetch_cooldown);
      g_free (url);
      return FALSE;
    }
    cache->fetching = TRUE;
    cache->attempted = TRUE;
    cache->attempted_at = now;
    *start_url = url;
  }
  w.resume = resume;
  w.task = task;
  g_array_append_val (cache->waiters, w);
  return TRUE;
}

/* With the lock held: a fetch of the key set caused by a delivery no key
 * verified is allowed, or one is running. */
static gboolean
refetch_allowed_locked (GstSessionWebhookVerifier * self, gint64 now)
{
  Cache *cache = &self->caches[DOC_KEY_SET];

  return cache->fetching || !cache->attempted ||
      webhook_elapsed_since (now,
      cache->attempted_at) >= self->refetch_cooldown;
}

typedef struct
{
  /* the verdict reached from the headers alone, or NULL */
  GstSessionWebhookVerification *early;
  SignedDelivery d;
  /* NULL once checked */
  GInetAddress *source;
  gboolean waited_ranges;
  gboolean waited_keys;
  gboolean refetched;
  /* the refetch failed: why */
  gchar *refetch_failure;
} VerifyJob;

static void
verify_job_free (gpointer data)
{
  VerifyJob *job = data;

  gst_session_webhook_verification_free (job->early);
  webhook_signed_delivery_clear (&job->d);
  g_clear_object (&job->source);
  g_free (job->refetch_failure);
  g_free (job);
}

static void verify_job_run (GTask * task);

static void
verify_job_resume_ranges (GTask * task)
{
  VerifyJob *job = g_task_get_task_data (task);

  job->waited_ranges = TRUE;
  verify_job_run (task);
}

static void
verify_job_resume_keys (GTask * task)
{
  VerifyJob *job = g_task_get_task_data (task);

  job->waited_keys = TRUE;
  verify_job_run (task);
}

static void
verify_job_resume_refetch (GTask * task)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);

  job->waited_keys = TRUE;
  job->refetched = TRUE;
  GST_OBJECT_LOCK (self);
  job->refetch_failure = g_strdup (self->caches[DOC_KEY_SET].failure);
  GST_OBJECT_UNLOCK (self);
  verify_job_run (task);
}

static void
verify_job_return (GTask * task, GstSessionWebhookVerification * v)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);

  v->refetched = job->refetched;
  GST_DEBUG_OBJECT (self, "webhook delivery: %s%s", v->text,
      v->refetched ? " (key set fetched again)" : "");
  g_task_return_pointer (task, v,
      (GDestroyNotify) gst_session_webhook_verification_free);
  g_object_unref (task);
}

typedef enum
{
  STEP_PASSED,
  STEP_WAITING,
  STEP_DONE,
} StepResult;

/* The source allowlist, when an api-url is set and the source is known.
 * Old ranges are used when fetching them again fails. */
static StepResult
verify_job_check_source (GTask * task, gint64 now,
    GstSessionWebhookVerification ** v)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);
  Cache *cache = &self->caches[DOC_IP_RANGES];
  GstSessionWebhookIpRanges *ranges;
  gchar *url, *failure, *address;
  gboolean fresh, allowed;
  guint timeout;

  if (job->source == NULL)
    return STEP_PASSED;

  GST_OBJECT_LOCK (self);
  if (self->api_url == NULL || *self->api_url == '\0') {
    GST_OBJECT_UNLOCK (self);
    g_clear_object (&job->source);
    return STEP_PASSED;
  }
  fresh = cache->value && webhook_elapsed_since (now, cache->stored_at) <=
      self->ip_ranges_max_age;
  if (!fresh && !job->waited_ranges && cache_wait_locked (self,
          DOC_IP_RANGES, now, FALSE, task, verify_job_resume_ranges, &url,
          &timeout)) {
    GST_OBJECT_UNLOCK (self);
    if (url)
      fetch_start (self, DOC_IP_RANGES, url, timeout);
    return STEP_WAITING;
  }
  ranges = webhook_cache_ref_value (cache, DOC_IP_RANGES);
  failure = g_strdup (cache->failure);
  GST_OBJECT_UNLOCK (self);

  if (ranges == NULL) {
    *v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL,
        "%s", failure ? failure : "The webhook IP ranges are not known");
    g_free (failure);
    return STEP_DONE;
  }
  g_free (failure);
  allowed = gst_session_webhook_ip_ranges_contains (ranges, job->source);
  gst_session_webhook_ip_ranges_unref (ranges);
  if (!allowed) {
    address = g_inet_address_to_string (job->source);
    *v = webhook_verification_new
        (GST_SESSION_WEBHOOK_RESULT_SOURCE_NOT_ALLOWED, NULL,
        "The delivery comes from %s, outside the webhook IP ranges", address);
    g_free (address);
    return STEP_DONE;
  }
  g_clear_object (&job->source);
  return STEP_PASSED;
}

/* A key set no older than key-set-max-age, fetched first when needed. */
static StepResult
verify_job_get_keys (GTask * task, gint64 now, GstSessionWebhookKeySet **
    keys, GstSessionWebhookVerification ** v)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);
  Cache *cache = &self->caches[DOC_KEY_SET];
  gchar *url, *failure;
  gboolean fresh, have_url, had_value;
  guint timeout, max_age;
  gint64 age;

  GST_OBJECT_LOCK (self);
  max_age = self->key_set_max_age;
  age = webhook_elapsed_since (now, cache->stored_at);
  fresh = cache->value && age <= max_age;
  if (!fresh && !job->waited_keys && cache_wait_locked (self, DOC_KEY_SET,
          now, FALSE, task, verify_job_resume_keys, &url, &timeout)) {
    GST_OBJECT_UNLOCK (self);
    if (url)
      fetch_start (self, DOC_KEY_SET, url, timeout);
    return STEP_WAITING;
  }
  *keys = fresh ? webhook_cache_ref_value (cache, DOC_KEY_SET) : NULL;
  failure = g_strdup (cache->failure);
  have_url = self->jwks_url && *self->jwks_url;
  had_value = cache->value != NULL;
  GST_OBJECT_UNLOCK (self);

  if (*keys) {
    g_free (failure);
    return STEP_PASSED;
  }
  if (failure)
    *v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL,
        "%s", failure);
  else if (!have_url && had_value)
    *v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEYS, NULL,
        "The key set is older than %u s and no JWKS URL is set", max_age);
  else if (!have_url)
    *v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_NO_KEYS, NULL,
        "There is no key set and no JWKS URL is set");
  else
    *v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL,
        "The key set could not be fetched");
  g_free (failure);
  return STEP_DONE;
}

static void
verify_job_run (GTask * task)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  VerifyJob *job = g_task_get_task_data (task);
  GstSessionWebhookVerification *v = NULL;
  GstSessionWebhookKeySet *keys = NULL;
  gchar *url;
  guint timeout;
  gint64 now;

  if (g_task_return_error_if_cancelled (task)) {
    g_object_unref (task);
    return;
  }
  now = webhook_verifier_now (self);

  /* 1. where it comes from; 2. its headers; 3. the keys */
  switch (verify_job_check_source (task, now, &v)) {
    case STEP_WAITING:
      return;
    case STEP_DONE:
      verify_job_return (task, v);
      return;
    default:
      break;
  }
  if (job->early) {
    v = job->early;
    job->early = NULL;
    verify_job_return (task, v);
    return;
  }
  switch (verify_job_get_keys (task, now, &keys, &v)) {
    case STEP_WAITING:
      return;
    case STEP_DONE:
      verify_job_return (task, v);
      return;
    default:
      break;
  }

  v = webhook_signed_delivery_verify (&job->d, keys);
  gst_session_webhook_key_set_unref (keys);

  /* 4. the keys may have rotated: fetch them once more */
  if (v->result == GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED
      && !job->waited_keys) {
    GST_OBJECT_LOCK (self);
    if (refetch_allowed_locked (self, now) && cache_wait_locked (self,
            DOC_KEY_SET, now, TRUE, task, verify_job_resume_refetch, &url,
            &timeout)) {
      GST_OBJECT_UNLOCK (self);
      GST_INFO_OBJECT (self, "no cached key verifies a delivery: fetching "
          "the key set again");
      gst_session_webhook_verification_free (v);
      if (url)
        fetch_start (self, DOC_KEY_SET, url, timeout);
      return;
    }
    GST_OBJECT_UNLOCK (self);
  }
  if (v->result == GST_SESSION_WEBHOOK_RESULT_NO_KEY_MATCHED
      && job->refetch_failure) {
    gst_session_webhook_verification_free (v);
    v = webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, NULL,
        "No cached key verifies the signature, and fetching the key set "
        "again failed: %s", job->refetch_failure);
  }
  verify_job_return (task, v);
}

/**
 * gst_session_webhook_verifier_verify_async:
 * @verifier: a verifier.
 * @headers: the request headers of the delivery.
 * @body: (nullable) (array length=body_length) (element-type guint8): the
 *   raw request body, as received; it is not kept after this call returns.
 * @body_length: the length of @body in bytes.
 * @source: (nullable): the address the delivery came from, or %NULL to
 *   skip the source check.
 * @cancellable: (nullable): a #GCancellable.
 * @callback: called with the verdict, from the thread-default
 *   #GMainContext of this call.
 * @user_data: data for @callback.
 *
 * Verifies one delivery, in this order:
 *
 * 1. a body over #GstSessionWebhookVerifier:max-body-size gives
 *    %GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE;
 * 2. with #GstSessionWebhookVerifier:api-url set and @source given, the
 *    source must be in the `webhook_ip_ranges` of the metadata, fetched
 *    when missing or older than #GstSessionWebhookVerifier:ip-ranges-max-age;
 * 3. the headers, as gst_session_webhook_verify() checks them, against the
 *    verifier's clock and #GstSessionWebhookVerifier:leeway;
 * 4. the signature, with the cached key set, fetched first when missing or
 *    older than #GstSessionWebhookVerifier:key-set-max-age;
 * 5. when no cached key verifies it, the key set is fetched once more (the
 *    keys may have rotated) unless the last fetch is less than
 *    #GstSessionWebhookVerifier:refetch-cooldown old, and the signature is
 *    checked again.
 *
 * Concurrent verifications share one fetch. When the key set (or the
 * ranges) cannot be fetched, the verdict is
 * %GST_SESSION_WEBHOOK_RESULT_UNAVAILABLE, whose text says why; after a
 * failed fetch, deliveries get that verdict without a new fetch for the
 * cooldown. A fetch runs in the thread-default context of the call that
 * started it, which must keep running for every verification that waits
 * for it.
 */
void
gst_session_webhook_verifier_verify_async (GstSessionWebhookVerifier *
    verifier, SoupMessageHeaders * headers, const guint8 * body,
    gsize body_length, GInetAddress * source, GCancellable * cancellable,
    GAsyncReadyCallback callback, gpointer user_data)
{
  HeaderScan scan = { {NULL}, {0} };
  VerifyJob *job;
  GTask *task;
  guint leeway, max_body_size;
  gint64 now;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));
  g_return_if_fail (headers != NULL);
  g_return_if_fail (body != NULL || body_length == 0);
  g_return_if_fail (source == NULL || G_IS_INET_ADDRESS (source));

  task = g_task_new (verifier, cancellable, callback, user_data);
  g_task_set_source_tag (task, gst_session_webhook_verifier_verify_async);
  job = g_new0 (VerifyJob, 1);
  g_task_set_task_data (task, job, verify_job_free);

  GST_OBJECT_LOCK (verifier);
  leeway = verifier->leeway;
  max_body_size = verifier->max_body_size;
  GST_OBJECT_UNLOCK (verifier);

  if (body_length > max_body_size) {
    verify_job_return (task,
        webhook_verification_new (GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE,
            NULL,
            "The delivery body is %" G_GSIZE_FORMAT " bytes, more than the "
            "%u allowed", body_length, max_body_size));
    return;
  }

  now = webhook_verifier_now (verifier);
  soup_message_headers_foreach (headers, webhook_scan_header, &scan);
  job->early =
      webhook_signed_delivery_read (&job->d, scan.values, scan.counts, body,
      body_length, now, leeway);
  if (source)
    job->source = g_object_ref (source);
  verify_job_run (task);
}

/**
 * gst_session_webhook_verifier_verify_finish:
 * @verifier: a verifier.
 * @result: the result given to the callback.
 * @error: return location for a #GError, or %NULL.
 *
 * Returns: (transfer full) (nullable): the verdict, or %NULL with @error
 *   set only when the verification was cancelled.
 */
GstSessionWebhookVerification *
gst_session_webhook_verifier_verify_finish (GstSessionWebhookVerifier *
    verifier, GAsyncResult * result, GError ** error)
{
  g_return_val_if_fail (g_task_is_valid (result, verifier), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sync_done (GObject * source, GAsyncResult * res, gpointer user_data)
{
  GAsyncResult **result = user_data;

  *result = g_object_ref (res);
}

/* Runs a private context until *@result is set. */
static void
sync_wait (GMainContext * context, GAsyncResult ** result)
{
  while (*result == NULL)
    g_main_context_iteration (context, TRUE);
}

/**
 * gst_session_webhook_verifier_verify_sync:
 * @verifier: a verifier.
 * @headers: the request headers of the delivery.
 * @body: (nullable) (array length=body_length) (element-type guint8): the
 *   raw request body.
 * @body_length: the length of @body in bytes.
 * @source: (nullable): the address the delivery came from, or %NULL.
 * @cancellable: (nullable): a #GCancellable.
 * @error: return location for a #GError, or %NULL.
 *
 * gst_session_webhook_verifier_verify_async(), waiting for the verdict in
 * a private #GMainContext; for command-line tools. Do not call it while
 * an asynchronous call of the same verifier started from this thread is
 * fetching: that fetch needs this thread's context to run.
 *
 * Returns: (transfer full) (nullable): the verdict, or %NULL with @error
 *   set when cancelled.
 */
GstSessionWebhookVerification *
gst_session_webhook_verifier_verify_sync (GstSessionWebhookVerifier *
    verifier, SoupMessageHeaders * headers, const guint8 * body,
    gsize body_length, GInetAddress * source, GCancellable * cancellable,
    GError ** error)
{
  GMainContext *context = g_main_context_new ();
  GAsyncResult *result = NULL;
  GstSessionWebhookVerification *v;

  g_main_context_push_thread_default (context);
  gst_session_webhook_verifier_verify_async (verifier, headers, body,
      body_length, source, cancellable, sync_done, &result);
  sync_wait (context, &result);
  g_main_context_pop_thread_default (context);

  v = gst_session_webhook_verifier_verify_finish (verifier, result, error);
  g_object_unref (result);
  g_main_context_unref (context);
  return v;
}

typedef struct
{
  guint pending;
  GString *failures;
} RefreshJob;

static void
refresh_job_free (gpointer data)
{
  RefreshJob *job = data;

  g_string_free (job->failures, TRUE);
  g_free (job);
}

static void
refresh_job_resume (GTask * task, DocKind kind)
{
  GstSessionWebhookVerifier *self = g_task_get_source_object (task);
  RefreshJob *job = g_task_get_task_data (task);

  GST_OBJECT_LOCK (self);
  if (self->caches[kind].failure) {
    if (job->failures->len)
      g_string_append (job->failures, "; ");
    g_string_append (job->failures, self->caches[kind].failure);
  }
  GST_OBJECT_UNLOCK (self);

  if (--job->pending > 0) {
    g_object_unref (task);
    return;
  }
  if (job->failures->len)
    g_task_return_new_error (task, GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP,
        "%s", job->failures->str);
  else
    g_task_return_boolean (task, TRUE);
  g_object_unref (task);
}

static void
refresh_job_resume_keys (GTask * task)
{
  refresh_job_resume (task, DOC_KEY_SET);
}

static void
refresh_job_resume_ranges (GTask * task)
{
  refresh_job_resume (task, DOC_IP_RANGES);
}

/**
 * gst_session_webhook_verifier_refresh_async:
 * @verifier: a verifier.
 * @cancellable: (nullable): a #GCancellable; cancelling does not stop the
 *   fetches, which other verifications may share.
 * @callback: called when the fetches are over, from the thread-default
 *   #GMainContext of this call.
 * @user_data: data for @callback.
 *
 * Fetches the key set now, and the IP ranges when
 * #GstSessionWebhookVerifier:api-url is set, whatever the age of the
 * cached ones and without a cooldown (a fetch that is already running is
 * joined). For a receiver to fail early at start-up.
 */
void
gst_session_webhook_verifier_refresh_async (GstSessionWebhookVerifier *
    verifier, GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data)
{
  void (*resume[N_DOCS]) (GTask * task) = {
    refresh_job_resume_keys, refresh_job_resume_ranges
  };
  gchar *urls[N_DOCS] = { NULL, NULL };
  guint timeout = 0, i;
  gint64 now;
  RefreshJob *job;
  GTask *task;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));

  task = g_task_new (verifier, cancellable, callback, user_data);
  g_task_set_source_tag (task, gst_session_webhook_verifier_refresh_async);
  job = g_new0 (RefreshJob, 1);
  job->failures = g_string_new (NULL);
  g_task_set_task_data (task, job, refresh_job_free);

  now = webhook_verifier_now (verifier);
  GST_OBJECT_LOCK (verifier);
  for (i = 0; i < N_DOCS; i++) {
    if (cache_wait_locked (verifier, i, now, TRUE, task, resume[i], &urls[i],
            &timeout)) {
      job->pending++;
      g_object_ref (task);
    }
  }
  GST_OBJECT_UNLOCK (verifier);

  if (job->pending == 0)
    g_task_return_new_error (task, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT, "No JWKS URL is set");
  for (i = 0; i < N_DOCS; i++) {
    if (urls[i])
      fetch_start (verifier, i, urls[i], timeout);
  }
  g_object_unref (task);
}

/**
 * gst_session_webhook_verifier_refresh_finish:
 * @verifier: a verifier.
 * @result: the result given to the callback.
 * @error: return location for a #GError, or %NULL.
 *
 * Returns: %TRUE when every document was fetched and is usable; %FALSE
 *   with @error set (saying which and why) otherwise.
 */
gboolean
gst_session_webhook_verifier_refresh_finish (GstSessionWebhookVerifier *
    verifier, GAsyncResult * result, GError ** error)
{
  g_return_val_if_fail (g_task_is_valid (result, verifier), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * gst_session_webhook_verifier_refresh_sync:
 * @verifier: a verifier.
 * @cancellable: (nullable): a #GCancellable.
 * @error: return location for a #GError, or %NULL.
 *
 * gst_session_webhook_verifier_refresh_async(), waiting in a private
 * #GMainContext; for command-line tools (see
 * gst_session_webhook_verifier_verify_sync() for the one caveat).
 *
 * Returns: %TRUE when every document was fetched and is usable.
 */
gboolean
gst_session_webhook_verifier_refresh_sync (GstSessionWebhookVerifier *
    verifier, GCancellable * cancellable, GError ** error)
{
  GMainContext *context = g_main_context_new ();
  GAsyncResult *result = NULL;
  gboolean ok;

  g_main_context_push_thread_default (context);
  gst_session_webhook_verifier_refresh_async (verifier, cancellable,
      sync_done, &result);
  sync_wait (context, &result);
  g_main_context_pop_thread_default (context);

  ok = gst_session_webhook_verifier_refresh_finish (verifier, result, error);
  g_object_unref (result);
  g_main_context_unref (context);
  return ok;
}
