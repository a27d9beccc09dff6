/* gst-session-service: signed webhook deliveries (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One Ed25519 key pair, made at start from getrandom() (or /dev/urandom),
 * published as a JWKS; a rotation replaces it (the old key leaves the key
 * set). Each delivery POSTs the same body bytes on every attempt with the
 * four X-Svc-Webhook-* headers and a fresh timestamp and signature:
 * hex (Ed25519 (request_id LF user_id LF timestamp LF hex (sha256 (body)))).
 * A 2xx ends it; anything else, an error or no answer within 15 s is
 * retried, up to 10 times, 5 s * 2^(n-1) after attempt n, never later than
 * 2 hours after the first attempt. --time-scale multiplies every time.
 * Everything runs on the main thread.
 */

#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/random.h>
#include <nettle/base16.h>
#include <nettle/eddsa.h>

#include <gst/session/platform/platform.h>

#include "webhook-sender.h"
#include "respond.h"

/* deliveries kept for GET /admin/deliveries and redelivery */
#define MAX_KEPT 1000

typedef struct
{
  guint8 priv[ED25519_KEY_SIZE];
  guint8 pub[ED25519_KEY_SIZE];
  gchar *kid;
  gchar *x;                     /* base64url, no padding */
} Key;

typedef enum
{
  STATE_SENDING,
  STATE_WAITING,
  STATE_DELIVERED,
  STATE_FAILED,
} State;

static const gchar *state_names[] = {
  "sending", "waiting", "delivered", "failed"
};

typedef struct
{
  gdouble at;                   /* seconds after the first attempt began */
  guint status;                 /* HTTP status, 0 without an answer */
  gchar *result;                /* "HTTP 500", "timeout", "error: ..." */
} Attempt;

typedef struct _Delivery Delivery;

/* What an attempt in flight calls back with: the delivery, or NULL once
 * it was freed (shutdown) */
typedef struct
{
  Delivery *d;
} Pending;

struct _Delivery
{
  SvcWebhooks *hooks;
  guint number;
  gchar *url;
  gchar *where;                 /* the URL without user info and query */
  gchar *request_id;
  GBytes *body;
  gboolean redelivery;
  State state;
  gint64 started;               /* monotonic, first attempt */
  GArray *attempts;             /* Attempt */
  gint64 next_at;               /* monotonic, while waiting */
  SoupMessage *msg;
  GCancellable *cancellable;
  Pending *pending;             /* while sending */
  guint timer;                  /* timeout while sending, retry while waiting */
  gboolean timed_out;
};

struct _SvcWebhooks
{
  const SvcConfig *config;
  SoupSession *session;
  Key *key;
  guint key_serial;
  guint rotate_timer;
  GQueue deliveries;            /* Delivery, oldest first */
  guint next_number;
};

static void attempt_start (Delivery * d);

/* ---------------------------------------------------------------- *
 * keys
 * ---------------------------------------------------------------- */

static gboolean
random_bytes (guint8 * out, gsize n, GError ** error)
{
  gsize got = 0;
  gint fd;

  while (got < n) {
    gssize r = getrandom (out + got, n - got, 0);

    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += r;
  }
  if (got == n)
    return TRUE;

  fd = open ("/dev/urandom", O_RDONLY | O_CLOEXEC);
  got = 0;
  while (fd >= 0 && got < n) {
    gssize r = read (fd, out + got, n - got);

    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    got += r;
  }
  if (fd >= 0)
    close (fd);
  if (got == n)
    return TRUE;
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
      "no random bytes for the webhook key (getrandom and /dev/urandom "
      "failed)");
  return FALSE;
}

static gchar *
base64url (const guint8 * data, gsize n)
{
  gchar *text = g_base64_encode (data, n), *p;

  for (p = text; *p; p++) {
    if (*p == '+')
      *p = '-';
    else if (*p == '/')
      *p = '_';
    else if (*p == '=') {
      *p = '\0';
      break;
    }
  }
  return text;
}

/* lowercase hexadecimal, by nettle */
static gchar *
hex (const guint8 * data, gsize n)
{
  gchar *text = g_malloc (BASE16_ENCODE_LENGTH (n) + 1);

  base16_encode_update (text, n, data);
  text[BASE16_ENCODE_LENGTH (n)] = '\0';
  return text;
}

static void
key_free (Key * key)
{
  if (!key)
    return;
  memset (key->priv, 0, sizeof (key->priv));
  g_free (key->kid);
  g_free (key->x);
  g_free (key);
}

static Key *
key_new (guint serial, GError ** error)
{
  Key *key = g_new0 (Key, 1);
  guint8 tag[4];
  gchar *tag_hex;

  if (!random_bytes (key->priv, sizeof (key->priv), error) ||
      !random_bytes (tag, sizeof (tag), error)) {
    key_free (key);
    return NULL;
  }
  ed25519_sha512_public_key (key->pub, key->priv);
  key->x = base64url (key->pub, sizeof (key->pub));
  tag_hex = hex (tag, sizeof (tag));
  key->kid = g_strdup_printf ("reference-%u-%s", serial, tag_hex);
  g_free (tag_hex);
  return key;
}

void
svc_webhooks_rotate (SvcWebhooks * hooks, gchar ** old_kid, gchar ** new_kid)
{
  GError *error = NULL;
  Key *key = key_new (hooks->key_serial + 1, &error);

  if (!key) {
    /* keep the old key rather than sign with none */
    GST_ERROR ("webhook key not rotated: %s", error->message);
    g_clear_error (&error);
  } else {
    hooks->key_serial++;
    if (old_kid)
      *old_kid = g_strdup (hooks->key->kid);
    key_free (hooks->key);
    hooks->key = key;
    GST_INFO ("webhook key rotated: %s", key->kid);
  }
  if (new_kid)
    *new_kid = g_strdup (hooks->key->kid);
}

static gboolean
on_rotate_timer (gpointer data)
{
  svc_webhooks_rotate (data, NULL, NULL);
  return G_SOURCE_CONTINUE;
}

gchar *
svc_webhooks_jwks (SvcWebhooks * hooks)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "keys");
  json_builder_begin_array (b);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "kty");
  json_builder_add_string_value (b, "OKP");
  json_builder_set_member_name (b, "crv");
  json_builder_add_string_value (b, "Ed25519");
  json_builder_set_member_name (b, "x");
  json_builder_add_string_value (b, hooks->key->x);
  json_builder_set_member_name (b, "kid");
  json_builder_add_string_value (b, hooks->key->kid);
  json_builder_set_member_name (b, "use");
  json_builder_add_string_value (b, "sig");
  json_builder_set_member_name (b, "alg");
  json_builder_add_string_value (b, "EdDSA");
  json_builder_end_object (b);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return svc_json_builder_finish (b);
}

gchar *
svc_webhooks_meta (SvcWebhooks * hooks)
{
  static const gchar *const loopback[] = { "127.0.0.0/8", "::1/128", NULL };
  const gchar *const *ranges = hooks->config->webhook_ip_ranges ?
      (const gchar * const *) hooks->config->webhook_ip_ranges : loopback;
  JsonBuilder *b = json_builder_new ();
  guint i;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "webhook_ip_ranges");
  json_builder_begin_array (b);
  for (i = 0; ranges[i]; i++)
    json_builder_add_string_value (b, ranges[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  return svc_json_builder_finish (b);
}

/* The signature header of one attempt: Ed25519 over the four lines */
static gchar *
sign (SvcWebhooks * hooks, const gchar * request_id, const gchar * timestamp,
    GBytes * body)
{
  guint8 signature[ED25519_SIGNATURE_SIZE];
  gsize size;
  const guint8 *data = g_bytes_get_data (body, &size);
  gchar *digest_hex, *message, *text;

  digest_hex = g_compute_checksum_for_data (G_CHECKSUM_SHA256, data, size);
  message = g_strjoin ("\n", request_id, hooks->config->webhook_user_id,
      timestamp, digest_hex, NULL);
  ed25519_sha512_sign (hooks->key->pub, hooks->key->priv, strlen (message),
      (const guint8 *) message, signature);
  text = hex (signature, sizeof (signature));
  g_free (message);
  g_free (digest_hex);
  return text;
}

/* ---------------------------------------------------------------- *
 * deliveries
 * ---------------------------------------------------------------- */

static guint
scaled_ms (SvcWebhooks * hooks, gdouble seconds)
{
  gdouble ms = seconds * hooks->config->time_scale * 1000.0;

  return (guint) CLAMP (ms + 0.5, 1.0, (gdouble) G_MAXUINT);
}

static void
delivery_free (Delivery * d)
{
  guint i;

  if (d->timer)
    g_source_remove (d->timer);
  if (d->pending)
    d->pending->d = NULL;
  if (d->cancellable)
    g_cancellable_cancel (d->cancellable);
  g_clear_object (&d->cancellable);
  g_clear_object (&d->msg);
  for (i = 0; i < d->attempts->len; i++)
    g_free (g_array_index (d->attempts, Attempt, i).result);
  g_array_unref (d->attempts);
  g_bytes_unref (d->body);
  g_free (d->url);
  g_free (d->where);
  g_free (d->request_id);
  g_free (d);
}

/* Forgets the oldest finished deliveries past MAX_KEPT */
static void
prune (SvcWebhooks * hooks)
{
  GList *l = hooks->deliveries.head;

  while (l && hooks->deliveries.length > MAX_KEPT) {
    GList *next = l->next;
    Delivery *d = l->data;

    if (d->state == STATE_DELIVERED || d->state == STATE_FAILED) {
      g_queue_delete_link (&hooks->deliveries, l);
      delivery_free (d);
    }
    l = next;
  }
}

static gboolean
on_retry (gpointer data)
{
  Delivery *d = data;

  d->timer = 0;
  attempt_start (d);
  return G_SOURCE_REMOVE;
}

/* An attempt ended: @status (0: none) and @result for the record */
static void
attempt_end (Delivery * d, guint status, gchar * result)
{
  SvcWebhooks *hooks = d->hooks;
  Attempt *a = &g_array_index (d->attempts, Attempt, d->attempts->len - 1);
  guint retries = d->attempts->len - 1, delay_ms;
  gdouble window = SVC_WEBHOOK_RETRY_WINDOW * hooks->config->time_scale;

  if (d->timer) {
    g_source_remove (d->timer);
    d->timer = 0;
  }
  g_clear_object (&d->cancellable);
  g_clear_object (&d->msg);
  a->status = status;
  a->result = result;

  if (SOUP_STATUS_IS_SUCCESSFUL (status)) {
    d->state = STATE_DELIVERED;
    GST_INFO ("webhook %u (request %s) delivered to %s: %s, attempt %u",
        d->number, d->request_id, d->where, result, d->attempts->len);
    return;
  }
  delay_ms = scaled_ms (hooks, SVC_WEBHOOK_FIRST_RETRY_DELAY *
      (gdouble) (1u << MIN (retries, 20)));
  if (retries >= SVC_WEBHOOK_MAX_RETRIES ||
      (g_get_monotonic_time () - d->started) / 1000.0 + delay_ms >
      window * 1000.0) {
    d->state = STATE_FAILED;
    GST_WARNING ("webhook %u (request %s) to %s: %s; given up after %u "
        "attempts", d->number, d->request_id, d->where, result,
        d->attempts->len);
    return;
  }
  d->state = STATE_WAITING;
  d->next_at = g_get_monotonic_time () + (gint64) delay_ms *1000;
  d->timer = g_timeout_add (delay_ms, on_retry, d);
  GST_INFO ("webhook %u (request %s) to %s: %s; retry %u in %u ms",
      d->number, d->request_id, d->where, result, retries + 1, delay_ms);
}

static void
on_sent (GObject * source, GAsyncResult * res, gpointer data)
{
  Pending *pending = data;
  Delivery *d = pending->d;
  GError *error = NULL;
  GInputStream *stream;

  g_free (pending);
  stream = soup_session_send_finish (SOUP_SESSION (source), res, &error);
  if (!d) {
    /* the delivery was freed (shutdown) */
    g_clear_object (&stream);
    g_clear_error (&error);
    return;
  }
  d->pending = NULL;
  if (stream) {
    guint status = soup_message_get_status (d->msg);

    /* the answer's body is not read */
    g_input_stream_close (stream, NULL, NULL);
    g_object_unref (stream);
    attempt_end (d, status, g_strdup_printf ("HTTP %u", status));
  } else if (d->timed_out) {
    attempt_end (d, 0, g_strdup ("timeout"));
  } else {
    attempt_end (d, 0, g_strdup_printf ("error: %s", error->message));
  }
  g_clear_error (&error);
}

static gboolean
on_timeout (gpointer data)
{
  Delivery *d = data;

  d->timer = 0;
  d->timed_out = TRUE;
  g_cancellable_cancel (d->cancellable);
  return G_SOURCE_REMOVE;
}

static void
attempt_start (Delivery * d)
{
  SvcWebhooks *hooks = d->hooks;
  SoupMessageHeaders *headers;
  Attempt a = { 0, };
  gchar *timestamp, *signature;

  if (d->attempts->len == 0)
    d->started = g_get_monotonic_time ();
  a.at = (g_get_monotonic_time () - d->started) / (gdouble) G_USEC_PER_SEC;
  g_array_append_val (d->attempts, a);
  d->state = STATE_SENDING;
  d->timed_out = FALSE;

  d->msg = soup_message_new (SOUP_METHOD_POST, d->url);
  if (!d->msg) {
    attempt_end (d, 0, g_strdup ("error: the URL is not usable"));
    return;
  }
  soup_message_add_flags (d->msg, SOUP_MESSAGE_NO_REDIRECT);
  headers = soup_message_get_request_headers (d->msg);
  timestamp = g_strdup_printf ("%" G_GINT64_FORMAT,
      g_get_real_time () / G_USEC_PER_SEC);
  signature = sign (hooks, d->request_id, timestamp, d->body);
  soup_message_headers_replace (headers,
      GST_SESSION_WEBHOOK_HEADER_REQUEST_ID, d->request_id);
  soup_message_headers_replace (headers, GST_SESSION_WEBHOOK_HEADER_USER_ID,
      hooks->config->webhook_user_id);
  soup_message_headers_replace (headers,
      GST_SESSION_WEBHOOK_HEADER_TIMESTAMP, timestamp);
  soup_message_headers_replace (headers,
      GST_SESSION_WEBHOOK_HEADER_SIGNATURE, signature);
  soup_message_set_request_body_from_bytes (d->msg, "application/json",
      d->body);
  g_free (timestamp);
  g_free (signature);

  GST_DEBUG ("webhook %u (request %s): attempt %u to %s", d->number,
      d->request_id, d->attempts->len, d->where);
  d->cancellable = g_cancellable_new ();
  d->timer = g_timeout_add (scaled_ms (hooks, SVC_WEBHOOK_TIMEOUT),
      on_timeout, d);
  d->pending = g_new0 (Pending, 1);
  d->pending->d = d;
  soup_session_send_async (hooks->session, d->msg, G_PRIORITY_DEFAULT,
      d->cancellable, on_sent, d->pending);
}

static gchar *
url_for_logs (const gchar * url)
{
  GUri *uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  gchar *text;

  if (!uri)
    return g_strdup ("(an unusable URL)");
  text = g_uri_join (G_URI_FLAGS_NONE, g_uri_get_scheme (uri), NULL,
      g_uri_get_host (uri), g_uri_get_port (uri), g_uri_get_path (uri), NULL,
      NULL);
  g_uri_unref (uri);
  return text;
}

static void
deliver (SvcWebhooks * hooks, const gchar * url, const gchar * request_id,
    GBytes * body, gboolean redelivery)
{
  Delivery *d = g_new0 (Delivery, 1);

  d->hooks = hooks;
  d->number = ++hooks->next_number;
  d->url = g_strdup (url);
  d->where = url_for_logs (url);
  d->request_id = g_strdup (request_id);
  d->body = g_bytes_ref (body);
  d->redelivery = redelivery;
  d->attempts = g_array_new (FALSE, TRUE, sizeof (Attempt));
  g_queue_push_tail (&hooks->deliveries, d);
  prune (hooks);
  attempt_start (d);
}

void
svc_webhooks_send (SvcWebhooks * hooks, const gchar * url,
    const gchar * request_id, GBytes * body)
{
  deliver (hooks, url, request_id, body, FALSE);
}

gboolean
svc_webhooks_redeliver (SvcWebhooks * hooks, const gchar * request_id)
{
  GList *l;

  for (l = hooks->deliveries.head; l; l = l->next) {
    Delivery *d = l->data;

    if (g_str_equal (d->request_id, request_id)) {
      GST_INFO ("webhook of request %s: delivered again", request_id);
      deliver (hooks, d->url, d->request_id, d->body, TRUE);
      return TRUE;
    }
  }
  return FALSE;
}

void
svc_webhooks_describe (SvcWebhooks * hooks, JsonBuilder * b)
{
  GList *l;
  guint i;

  json_builder_begin_array (b);
  for (l = hooks->deliveries.head; l; l = l->next) {
    Delivery *d = l->data;

    json_builder_begin_object (b);
    json_builder_set_member_name (b, "delivery");
    json_builder_add_int_value (b, d->number);
    json_builder_set_member_name (b, "request_id");
    json_builder_add_string_value (b, d->request_id);
    json_builder_set_member_name (b, "url");
    json_builder_add_string_value (b, d->where);
    json_builder_set_member_name (b, "redelivery");
    json_builder_add_boolean_value (b, d->redelivery);
    json_builder_set_member_name (b, "state");
    json_builder_add_string_value (b, state_names[d->state]);
    json_builder_set_member_name (b, "next_attempt_in");
    if (d->state == STATE_WAITING)
      json_builder_add_double_value (b, MAX (0, d->next_at -
              g_get_monotonic_time ()) / (gdouble) G_USEC_PER_SEC);
    else
      json_builder_add_null_value (b);
    json_builder_set_member_name (b, "attempts");
    json_builder_begin_array (b);
    for (i = 0; i < d->attempts->len; i++) {
      Attempt *a = &g_array_index (d->attempts, Attempt, i);

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "at");
      json_builder_add_double_value (b, a->at);
      json_builder_set_member_name (b, "status");
      json_builder_add_int_value (b, a->status);
      json_builder_set_member_name (b, "result");
      json_builder_add_string_value (b, a->result ? a->result : "sending");
      json_builder_end_object (b);
    }
    json_builder_end_array (b);
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
}

/* ---------------------------------------------------------------- *
 * life
 * ---------------------------------------------------------------- */

SvcWebhooks *
svc_webhooks_new (const SvcConfig * config, GError ** error)
{
  SvcWebhooks *hooks = g_new0 (SvcWebhooks, 1);

  hooks->config = config;
  hooks->key = key_new (++hooks->key_serial, error);
  if (!hooks->key) {
    g_free (hooks);
    return NULL;
  }
  g_queue_init (&hooks->deliveries);
  /* no proxy: deliveries go straight to the receiver (often loopback) */
  hooks->session = soup_session_new_with_options ("user-agent",
      "gst-session-service/" PACKAGE_VERSION " webhooks",
      "max-conns", 256, "max-conns-per-host", 64, "proxy-resolver", NULL, NULL);
  if (config->webhook_key_rotate > 0)
    hooks->rotate_timer = g_timeout_add ((guint) (config->webhook_key_rotate *
            1000.0 + 0.5), on_rotate_timer, hooks);
  GST_INFO ("webhook key %s", hooks->key->kid);
  return hooks;
}

void
svc_webhooks_free (SvcWebhooks * hooks)
{
  Delivery *d;

  if (hooks->rotate_timer)
    g_source_remove (hooks->rotate_timer);
  while ((d = g_queue_pop_head (&hooks->deliveries)))
    delivery_free (d);
  soup_session_abort (hooks->session);
  g_object_unref (hooks->session);
  key_free (hooks->key);
  g_free (hooks);
}
