/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What a receiver keeps (GstSessionWebhookVerifier): its properties, the
 * clock and the two cached documents.
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
/* GstSessionWebhookVerifier                                              */
/* ---------------------------------------------------------------------- */

#define DEFAULT_JWKS_URL NULL
#define DEFAULT_API_URL NULL
#define DEFAULT_KEY_SET_MAX_AGE GST_SESSION_WEBHOOK_KEY_SET_MAX_AGE
#define DEFAULT_REFETCH_COOLDOWN GST_SESSION_WEBHOOK_REFETCH_COOLDOWN
#define DEFAULT_IP_RANGES_MAX_AGE GST_SESSION_WEBHOOK_IP_RANGES_MAX_AGE
#define DEFAULT_LEEWAY GST_SESSION_WEBHOOK_LEEWAY
#define DEFAULT_MAX_BODY_SIZE GST_SESSION_WEBHOOK_MAX_BODY
#define DEFAULT_TIMEOUT 10000

enum
{
  PROP_0,
  PROP_JWKS_URL,
  PROP_API_URL,
  PROP_KEY_SET_MAX_AGE,
  PROP_REFETCH_COOLDOWN,
  PROP_IP_RANGES_MAX_AGE,
  PROP_LEEWAY,
  PROP_MAX_BODY_SIZE,
  PROP_TIMEOUT,
  PROP_ALLOW_INSECURE_HTTP,
};

const gchar *const webhook_doc_names[N_DOCS] = { "key set", "IP ranges" };

G_DEFINE_TYPE (GstSessionWebhookVerifier, gst_session_webhook_verifier,
    GST_TYPE_OBJECT);

void
webhook_cache_clear_value (Cache * cache, DocKind kind)
{
  if (cache->value == NULL)
    return;
  if (kind == DOC_KEY_SET)
    gst_session_webhook_key_set_unref (cache->value);
  else
    gst_session_webhook_ip_ranges_unref (cache->value);
  cache->value = NULL;
}

gpointer
webhook_cache_ref_value (const Cache * cache, DocKind kind)
{
  if (cache->value == NULL)
    return NULL;
  if (kind == DOC_KEY_SET)
    return gst_session_webhook_key_set_ref (cache->value);
  return gst_session_webhook_ip_ranges_ref (cache->value);
}

gint64
webhook_verifier_now (GstSessionWebhookVerifier * self)
{
  GstSessionWebhookClockFunc func;
  gpointer data;

  GST_OBJECT_LOCK (self);
  func = self->clock_func;
  data = self->clock_data;
  GST_OBJECT_UNLOCK (self);

  if (func)
    return func (data);
  return g_get_real_time () / G_USEC_PER_SEC;
}

/* Seconds since @then; a clock that went back counts as long ago. */
gint64
webhook_elapsed_since (gint64 now, gint64 then)
{
  return now >= then ? now - then : G_MAXINT64;
}

static void
gst_session_webhook_verifier_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSessionWebhookVerifier *self = GST_SESSION_WEBHOOK_VERIFIER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_JWKS_URL:
      g_free (self->jwks_url);
      self->jwks_url = g_value_dup_string (value);
      break;
    case PROP_API_URL:
      g_free (self->api_url);
      self->api_url = g_value_dup_string (value);
      break;
    case PROP_KEY_SET_MAX_AGE:
      self->key_set_max_age = g_value_get_uint (value);
      break;
    case PROP_REFETCH_COOLDOWN:
      self->refetch_cooldown = g_value_get_uint (value);
      break;
    case PROP_IP_RANGES_MAX_AGE:
      self->ip_ranges_max_age = g_value_get_uint (value);
      break;
    case PROP_LEEWAY:
      self->leeway = g_value_get_uint (value);
      break;
    case PROP_MAX_BODY_SIZE:
      self->max_body_size = g_value_get_uint (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_ALLOW_INSECURE_HTTP:
      self->allow_insecure_http = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_webhook_verifier_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSessionWebhookVerifier *self = GST_SESSION_WEBHOOK_VERIFIER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_JWKS_URL:
      g_value_set_string (value, self->jwks_url);
      break;
    case PROP_API_URL:
      g_value_set_string (value, self->api_url);
      break;
    case PROP_KEY_SET_MAX_AGE:
      g_value_set_uint (value, self->key_set_max_age);
      break;
    case PROP_REFETCH_COOLDOWN:
      g_value_set_uint (value, self->refetch_cooldown);
      break;
    case PROP_IP_RANGES_MAX_AGE:
      g_value_set_uint (value, self->ip_ranges_max_age);
      break;
    case PROP_LEEWAY:
      g_value_set_uint (value, self->leeway);
      break;
    case PROP_MAX_BODY_SIZE:
      g_value_set_uint (value, self->max_body_size);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_ALLOW_INSECURE_HTTP:
      g_value_set_boolean (value, self->allow_insecure_http);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_webhook_verifier_finalize (GObject * object)
{
  GstSessionWebhookVerifier *self = GST_SESSION_WEBHOOK_VERIFIER (object);
  guint i;

  for (i = 0; i < N_DOCS; i++) {
    webhook_cache_clear_value (&self->caches[i], i);
    g_free (self->caches[i].failure);
    /* every waiting job holds a reference on the verifier: none is left */
    g_array_unref (self->caches[i].waiters);
  }
  g_free (self->jwks_url);
  g_free (self->api_url);
  g_clear_object (&self->session);
  if (self->clock_notify)
    self->clock_notify (self->clock_data);

  G_OBJECT_CLASS (gst_session_webhook_verifier_parent_class)->finalize (object);
}

static void
gst_session_webhook_verifier_class_init (GstSessionWebhookVerifierClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gst_session_init ();

  gobject_class->set_property = gst_session_webhook_verifier_set_property;
  gobject_class->get_property = gst_session_webhook_verifier_get_property;
  gobject_class->finalize = gst_session_webhook_verifier_finalize;

  /**
   * GstSessionWebhookVerifier:jwks-url:
   *
   * Where the key set is fetched from (`{jwks_url}` of spec 001, http or
   * https; redirects are not followed). Unset: the key set is only what
   * gst_session_webhook_verifier_set_key_set() gave.
   */
  g_object_class_install_property (gobject_class, PROP_JWKS_URL,
      g_param_spec_string ("jwks-url", "JWKS URL",
          "Where the webhook key set is fetched from", DEFAULT_JWKS_URL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:api-url:
   *
   * The API base URL (`{api_url}`). When set, deliveries whose source
   * address is given are only accepted from the `webhook_ip_ranges` of
   * `GET {api_url}/v1/meta`. Unset: sources are not checked.
   */
  g_object_class_install_property (gobject_class, PROP_API_URL,
      g_param_spec_string ("api-url", "API URL",
          "Base URL of the metadata holding webhook_ip_ranges (unset: "
          "sources are not checked)", DEFAULT_API_URL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:key-set-max-age:
   *
   * The longest a fetched key set is used, in seconds; spec 001 allows at
   * most 24 hours. An older key set is fetched again before use and is not
   * used when that fails.
   */
  g_object_class_install_property (gobject_class, PROP_KEY_SET_MAX_AGE,
      g_param_spec_uint ("key-set-max-age", "Key set max age",
          "Longest use of a fetched key set, in seconds", 1,
          GST_SESSION_WEBHOOK_KEY_SET_MAX_AGE, DEFAULT_KEY_SET_MAX_AGE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:refetch-cooldown:
   *
   * When no cached key verifies a delivery, the key set is fetched again
   * once (the keys may have rotated), but not within this many seconds of
   * the last fetch, so a flood of bad signatures does not hammer the key
   * host. The same wait applies after a failed fetch.
   */
  g_object_class_install_property (gobject_class, PROP_REFETCH_COOLDOWN,
      g_param_spec_uint ("refetch-cooldown", "Refetch cooldown",
          "Shortest time between fetches caused by deliveries, in seconds",
          0, G_MAXUINT, DEFAULT_REFETCH_COOLDOWN,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:ip-ranges-max-age:
   *
   * How long fetched IP ranges are used before they are fetched again, in
   * seconds. When that fetch fails, the old ranges stay in use.
   */
  g_object_class_install_property (gobject_class, PROP_IP_RANGES_MAX_AGE,
      g_param_spec_uint ("ip-ranges-max-age", "IP ranges max age",
          "Refresh period of the webhook IP ranges, in seconds", 1,
          G_MAXUINT, DEFAULT_IP_RANGES_MAX_AGE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:leeway:
   *
   * The allowed difference between a delivery's timestamp and the clock,
   * in seconds. Spec 001 fixes it at 300; other values are for tests.
   */
  g_object_class_install_property (gobject_class, PROP_LEEWAY,
      g_param_spec_uint ("leeway", "Leeway",
          "Allowed clock difference in seconds (spec: 300; for tests)", 0,
          G_MAXUINT, DEFAULT_LEEWAY,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:max-body-size:
   *
   * The largest delivery body verified, in bytes; a larger one gives
   * %GST_SESSION_WEBHOOK_RESULT_BODY_TOO_LARGE. A receiver should stop
   * reading a body at this size too.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_BODY_SIZE,
      g_param_spec_uint ("max-body-size", "Max body size",
          "Largest delivery body, in bytes", 0, G_MAXUINT,
          DEFAULT_MAX_BODY_SIZE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:timeout:
   *
   * The longest one fetch of the key set or the metadata may take,
   * connecting included, in milliseconds; 0 waits forever.
   */
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Longest fetch of the key set or metadata, in milliseconds "
          "(0 = forever)", 0, G_MAXUINT, DEFAULT_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionWebhookVerifier:allow-insecure-http:
   *
   * Fetch the key set and the metadata over plain http from any host.
   * Without it, plain http is refused except to a loopback host (see
   * gst_session_webhook_url_allowed()): on any other path, whoever sits on
   * it could substitute the key set.
   */
  g_object_class_install_property (gobject_class, PROP_ALLOW_INSECURE_HTTP,
      g_param_spec_boolean ("allow-insecure-http", "Allow insecure http",
          "Fetch the key set and metadata over plain http from any host",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));
}

static void
gst_session_webhook_verifier_init (GstSessionWebhookVerifier * self)
{
  guint i;

  self->jwks_url = g_strdup (DEFAULT_JWKS_URL);
  self->api_url = g_strdup (DEFAULT_API_URL);
  self->key_set_max_age = DEFAULT_KEY_SET_MAX_AGE;
  self->refetch_cooldown = DEFAULT_REFETCH_COOLDOWN;
  self->ip_ranges_max_age = DEFAULT_IP_RANGES_MAX_AGE;
  self->leeway = DEFAULT_LEEWAY;
  self->max_body_size = DEFAULT_MAX_BODY_SIZE;
  self->timeout = DEFAULT_TIMEOUT;
  for (i = 0; i < N_DOCS; i++)
    self->caches[i].waiters = g_array_new (FALSE, FALSE, sizeof (Waiter));
}

/**
 * gst_session_webhook_verifier_new:
 * @jwks_url: (nullable): where the key set is fetched from.
 *
 * Returns: (transfer full): a new verifier.
 */
GstSessionWebhookVerifier *
gst_session_webhook_verifier_new (const gchar * jwks_url)
{
  return g_object_new (GST_SESSION_TYPE_WEBHOOK_VERIFIER, "jwks-url",
      jwks_url, NULL);
}

/**
 * gst_session_webhook_verifier_set_clock_func:
 * @verifier: a verifier.
 * @func: (nullable) (scope notified): the clock, or %NULL for the real
 *   time.
 * @user_data: data for @func.
 * @notify: (nullable): frees @user_data.
 *
 * Replaces the clock the verifier compares timestamps with and ages its
 * caches by. For tests; set it before the verifier is used.
 */
void
gst_session_webhook_verifier_set_clock_func (GstSessionWebhookVerifier *
    verifier, GstSessionWebhookClockFunc func, gpointer user_data,
    GDestroyNotify notify)
{
  GDestroyNotify old_notify;
  gpointer old_data;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));

  GST_OBJECT_LOCK (verifier);
  old_notify = verifier->clock_notify;
  old_data = verifier->clock_data;
  verifier->clock_func = func;
  verifier->clock_data = user_data;
  verifier->clock_notify = notify;
  GST_OBJECT_UNLOCK (verifier);

  if (old_notify)
    old_notify (old_data);
}

/**
 * gst_session_webhook_verifier_set_key_set:
 * @verifier: a verifier.
 * @keys: (nullable): a key set, or %NULL to forget the cached one.
 *
 * Puts @keys in the cache as if it had just been fetched: it is used for
 * #GstSessionWebhookVerifier:key-set-max-age. With a
 * #GstSessionWebhookVerifier:jwks-url, a delivery no key of @keys verifies
 * still causes a fetch (at once when nothing was fetched yet, else after
 * the cooldown). Without one, @keys is all the verifier has: pinned keys
 * for offline checks.
 */
void
gst_session_webhook_verifier_set_key_set (GstSessionWebhookVerifier *
    verifier, GstSessionWebhookKeySet * keys)
{
  gint64 now;
  Cache *cache;

  g_return_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier));

  now = webhook_verifier_now (verifier);
  GST_OBJECT_LOCK (verifier);
  cache = &verifier->caches[DOC_KEY_SET];
  webhook_cache_clear_value (cache, DOC_KEY_SET);
  if (keys)
    cache->value = gst_session_webhook_key_set_ref (keys);
  cache->stored_at = now;
  GST_OBJECT_UNLOCK (verifier);
}

/**
 * gst_session_webhook_verifier_get_key_set:
 * @verifier: a verifier.
 *
 * Returns: (transfer full) (nullable): the cached key set, however old, or
 *   %NULL.
 */
GstSessionWebhookKeySet *
gst_session_webhook_verifier_get_key_set (GstSessionWebhookVerifier * verifier)
{
  GstSessionWebhookKeySet *keys;

  g_return_val_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier), NULL);

  GST_OBJECT_LOCK (verifier);
  keys = webhook_cache_ref_value (&verifier->caches[DOC_KEY_SET], DOC_KEY_SET);
  GST_OBJECT_UNLOCK (verifier);
  return keys;
}

/**
 * gst_session_webhook_verifier_get_ip_ranges:
 * @verifier: a verifier.
 *
 * Returns: (transfer full) (nullable): the cached IP ranges, however old,
 *   or %NULL.
 */
GstSessionWebhookIpRanges *
gst_session_webhook_verifier_get_ip_ranges (GstSessionWebhookVerifier *
    verifier)
{
  GstSessionWebhookIpRanges *ranges;

  g_return_val_if_fail (GST_SESSION_IS_WEBHOOK_VERIFIER (verifier), NULL);

  GST_OBJECT_LOCK (verifier);
  ranges =
      webhook_cache_ref_value (&verifier->caches[DOC_IP_RANGES], DOC_IP_RANGES);
  GST_OBJECT_UNLOCK (verifier);
  return ranges;
}
