/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GstSessionHttpSignaller, the signaller of the contract's start-session
 * operation over HTTP: its properties, start() (the offer it POSTs; the
 * attempt itself is in signalling-attempt.c), prepare() (the connection
 * opened ahead of the start) and stop().
 *
 * The SoupSession lives from the first prepare() or start() to the next
 * stop(): stop() closes its connections, so none toward the service
 * outlives the element's run (issue 28). libsoup keeps a connection whose
 * answer was read whole for a next request, but a start-session POST
 * never takes one, only the fresh connection of a prepare(): nothing was
 * reused across a stop, and the next prepare() opens the next one.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include <gst/session/sessioninit.h>
#include <gst/session/jsongate.h>
#include <gst/session/http/http.h>
#include "../session-private.h"
#include "signalling-private.h"

/* ------------------------------------------------------------------------ */
/* helpers: the offer                                                       */

static GBytes *
build_offer (const gchar * sdp, const gchar * session_id)
{
  JsonBuilder *builder = json_builder_new_immutable ();
  JsonNode *root;
  gchar *text;
  gsize length;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "sdp");
  json_builder_add_string_value (builder, sdp);
  json_builder_set_member_name (builder, "type");
  json_builder_add_string_value (builder, "offer");
  json_builder_set_member_name (builder, "session_id");
  json_builder_add_string_value (builder, session_id);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = gst_session_json_write (root, FALSE);
  length = strlen (text);

  json_node_unref (root);
  g_object_unref (builder);

  return g_bytes_new_take (text, length);
}

/* ------------------------------------------------------------------------ */
/* GstSessionHttpSignaller                                                  */

struct _GstSessionHttpSignaller
{
  GstObject parent;

  /* protected by the object lock */
  gchar *url;
  gchar *api_key;
  guint timeout;
  guint keepalive_timeout;
  gboolean tls_validation;
  gchar *session_id;
  Call *call;
  /* made at the first prepare() or start() after a stop(), on the
   * thread-default context then (@session_context), dropped by stop();
   * each attempt holds a reference (the attempt may outlive the
   * signaller) */
  SoupSession *session;
  GMainContext *session_context;
  /* prepare(): the connection made ahead of the next start */
  GCancellable *preconnect;
  gboolean preconnected;
};

/**
 * GstSessionHttpSignaller:
 *
 * The start-session signalling of the contract over HTTP (libsoup): see
 * #GstSessionSignaller for the exchange. Properties are read at start();
 * changing them affects the next attempt.
 */

#define DEFAULT_URL NULL
#define DEFAULT_TIMEOUT 30000
#define DEFAULT_KEEPALIVE_TIMEOUT 45000
#define DEFAULT_TLS_VALIDATION TRUE

enum
{
  PROP_0,
  PROP_URL,
  PROP_API_KEY,
  PROP_TIMEOUT,
  PROP_KEEPALIVE_TIMEOUT,
  PROP_TLS_VALIDATION,
  PROP_SESSION_ID,
};

static void gst_session_http_signaller_iface_init (GstSessionSignallerInterface
    * iface);

G_DEFINE_TYPE_WITH_CODE (GstSessionHttpSignaller, gst_session_http_signaller,
    GST_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE (GST_SESSION_TYPE_SIGNALLER,
        gst_session_http_signaller_iface_init));

/* With the object lock: the session, made now if there is none. */
static SoupSession *
ref_session_locked (GstSessionHttpSignaller * self)
{
  if (self->session == NULL) {
    self->session = gst_session_http_session_new ();
    self->session_context = g_main_context_ref_thread_default ();
  }
  return g_object_ref (self->session);
}

static gboolean
close_session_in_context (gpointer user_data)
{
  /* the request of a stopped attempt is cancelled already; the idle
   * connections close now, even while an ending attempt still holds the
   * session */
  soup_session_abort (SOUP_SESSION (user_data));
  return G_SOURCE_REMOVE;
}

/* Closes the connections of a session taken from the signaller and drops
 * it, on the context it was made on (libsoup 3.2: a session's API other
 * than sending belongs to the thread that made it); at once when this
 * thread runs that context, or none does. */
static void
close_session (SoupSession * session, GMainContext * context)
{
  g_main_context_invoke_full (context, G_PRIORITY_DEFAULT,
      close_session_in_context, session, g_object_unref);
  g_main_context_unref (context);
}

static gboolean
gst_session_http_signaller_start (GstSessionSignaller * signaller,
    const gchar * offer_sdp, const gchar * session_id, GError ** error)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (signaller);
  gchar *url, *api_key, *safe_url;
  guint timeout, keepalive_timeout;
  gboolean tls_validation;
  GUri *uri;
  Call *call, *old = NULL;
  GBytes *body;

  GST_OBJECT_LOCK (self);
  url = g_strdup (self->url);
  api_key = g_strdup (self->api_key);
  timeout = self->timeout;
  keepalive_timeout = self->keepalive_timeout;
  tls_validation = self->tls_validation;
  GST_OBJECT_UNLOCK (self);

  uri = gst_session_http_parse_url (url, "start-session URL", error);
  if (uri == NULL)
    goto refused;

  call = g_new0 (Call, 1);
  call->refcount = 1;
  g_weak_ref_init (&call->signaller, self);
  call->context = g_main_context_ref_thread_default ();
  call->cancellable = g_cancellable_new ();
  call->api_key = api_key;
  api_key = NULL;
  call->timeout = timeout;
  call->keepalive_timeout = keepalive_timeout;

  /* no redirects: a redirect would take the key elsewhere */
  body = build_offer (offer_sdp, session_id);
  call->msg = gst_session_http_request_new_from_uri (SOUP_METHOD_POST, uri,
      "text/event-stream, application/json", call->api_key, body,
      tls_validation, NULL);
  g_bytes_unref (body);

  GST_OBJECT_LOCK (self);
  if (self->preconnect || self->preconnected) {
    /* libsoup gives a POST a connection of its own, never an idle one,
     * unless the request may be sent twice: the one prepare() opened has
     * carried no request, so it is taken (measured: the TCP handshake's
     * round trip left start-session's time) and nothing is resent on it */
    soup_message_add_flags (call->msg, SOUP_MESSAGE_IDEMPOTENT);
    self->preconnected = FALSE;
    g_clear_object (&self->preconnect);
  }
  if (self->call && !signalling_call_is_done (self->call)) {
    GST_OBJECT_UNLOCK (self);
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT,
        "A start-session attempt is already running");
    g_atomic_int_set (&call->done, TRUE);
    signalling_call_unref (call);
    g_uri_unref (uri);
    goto refused;
  }
  /* taken with the attempt: a stop() before has closed the last session,
   * one after closes this one */
  call->session = ref_session_locked (self);
  old = self->call;
  self->call = signalling_call_ref (call);
  g_free (self->session_id);
  self->session_id = g_strdup (session_id);
  GST_OBJECT_UNLOCK (self);

  if (old)
    signalling_call_unref (old);

  safe_url = gst_session_http_safe_url (uri, FALSE);
  GST_INFO_OBJECT (self, "POST %s, session %s, key %s, timeout %u ms%s",
      safe_url, session_id, call->api_key ? "set" : "not set", timeout,
      tls_validation ? "" : ", certificates not verified");
  g_free (safe_url);
  g_uri_unref (uri);

  if (!tls_validation)
    GST_WARNING_OBJECT (self, "TLS certificates are not verified");

  if (timeout > 0)
    call->start_timer =
        signalling_call_add_timer (call, timeout, signalling_on_start_timeout);

  call->io_busy = TRUE;
  soup_session_send_async (call->session, call->msg, G_PRIORITY_DEFAULT,
      call->cancellable, signalling_on_sent, signalling_call_ref (call));

  signalling_call_unref (call);
  g_free (url);
  return TRUE;

refused:
  GST_WARNING_OBJECT (self, "start-session not started: %s",
      error && *error ? (*error)->message : "");
  g_free (url);
  g_free (api_key);
  return FALSE;
}

typedef struct
{
  GWeakRef signaller;
  GCancellable *cancellable;    /* which preconnect this is */
} Preconnect;

static void
on_preconnected (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Preconnect *p = user_data;
  GstSessionHttpSignaller *self = g_weak_ref_get (&p->signaller);
  GError *error = NULL;
  gboolean ok;

  ok = soup_session_preconnect_finish (SOUP_SESSION (source), res, &error);
  if (self) {
    GST_DEBUG_OBJECT (self, "connection ahead of the start: %s",
        ok ? "open" : error->message);
    GST_OBJECT_LOCK (self);
    /* only while no start took it (a start flags its POST as able to
     * take an idle connection only for this fresh one) */
    if (self->preconnect == p->cancellable) {
      self->preconnected = ok;
      g_clear_object (&self->preconnect);
    }
    GST_OBJECT_UNLOCK (self);
    gst_object_unref (self);
  }
  g_clear_error (&error);
  g_weak_ref_clear (&p->signaller);
  g_object_unref (p->cancellable);
  g_free (p);
}

/* Opens the connection the next start's POST takes (a TCP handshake, and
 * TLS, while the offer is made): start-session then costs one round trip
 * less. Nothing when no valid URL is set or one is already open. */
static void
gst_session_http_signaller_prepare (GstSessionSignaller * signaller)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (signaller);
  GCancellable *cancellable;
  SoupSession *session;
  SoupMessage *msg;
  gboolean tls_validation;
  Preconnect *p;
  GUri *uri;
  gchar *url;

  GST_OBJECT_LOCK (self);
  if (self->preconnect || self->preconnected ||
      (self->call && !signalling_call_is_done (self->call))) {
    GST_OBJECT_UNLOCK (self);
    return;
  }
  url = g_strdup (self->url);
  tls_validation = self->tls_validation;
  GST_OBJECT_UNLOCK (self);

  uri = gst_session_http_parse_url (url, "start-session URL", NULL);
  g_free (url);
  msg = uri ? gst_session_http_request_new_from_uri (SOUP_METHOD_POST, uri,
      NULL, NULL, NULL, tls_validation, NULL) : NULL;
  g_clear_pointer (&uri, g_uri_unref);
  if (msg == NULL)
    return;
  cancellable = g_cancellable_new ();
  GST_OBJECT_LOCK (self);
  self->preconnect = g_object_ref (cancellable);
  /* with the preconnect: a stop() after closes this session */
  session = ref_session_locked (self);
  GST_OBJECT_UNLOCK (self);
  p = g_new0 (Preconnect, 1);
  g_weak_ref_init (&p->signaller, self);
  p->cancellable = cancellable;
  soup_session_preconnect_async (session, msg, G_PRIORITY_DEFAULT,
      cancellable, on_preconnected, p);
  g_object_unref (msg);
  g_object_unref (session);
}

/* Ends the attempt and closes every connection of the session: the
 * stopped attempt's, those libsoup kept after answers read whole, and
 * the one prepare() opened (no start takes it after a stop). */
static void
gst_session_http_signaller_stop (GstSessionSignaller * signaller)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (signaller);
  GCancellable *preconnect;
  SoupSession *session;
  GMainContext *session_context;
  Call *call;

  GST_OBJECT_LOCK (self);
  call = self->call;
  self->call = NULL;
  preconnect = g_steal_pointer (&self->preconnect);
  self->preconnected = FALSE;
  session = g_steal_pointer (&self->session);
  session_context = g_steal_pointer (&self->session_context);
  GST_OBJECT_UNLOCK (self);

  if (preconnect) {
    g_cancellable_cancel (preconnect);
    g_object_unref (preconnect);
  }

  if (call) {
    GST_DEBUG_OBJECT (self, "stopping%s",
        signalling_call_is_done (call) ? " (already over)" : "");
    signalling_call_stop (call);
    signalling_call_unref (call);
  }

  if (session) {
    GST_DEBUG_OBJECT (self, "closing the connections to the service");
    close_session (session, session_context);
  }
}

static void
gst_session_http_signaller_iface_init (GstSessionSignallerInterface * iface)
{
  iface->start = gst_session_http_signaller_start;
  iface->stop = gst_session_http_signaller_stop;
  iface->prepare = gst_session_http_signaller_prepare;
}

static void
gst_session_http_signaller_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_URL:
      g_free (self->url);
      self->url = g_value_dup_string (value);
      break;
    case PROP_API_KEY:
      g_free (self->api_key);
      self->api_key = g_value_dup_string (value);
      break;
    case PROP_TIMEOUT:
      self->timeout = g_value_get_uint (value);
      break;
    case PROP_KEEPALIVE_TIMEOUT:
      self->keepalive_timeout = g_value_get_uint (value);
      break;
    case PROP_TLS_VALIDATION:
      self->tls_validation = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_http_signaller_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_URL:
      g_value_set_string (value, self->url);
      break;
    case PROP_TIMEOUT:
      g_value_set_uint (value, self->timeout);
      break;
    case PROP_KEEPALIVE_TIMEOUT:
      g_value_set_uint (value, self->keepalive_timeout);
      break;
    case PROP_TLS_VALIDATION:
      g_value_set_boolean (value, self->tls_validation);
      break;
    case PROP_SESSION_ID:
      g_value_set_string (value, self->session_id);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_session_http_signaller_dispose (GObject * object)
{
  gst_session_http_signaller_stop (GST_SESSION_SIGNALLER (object));

  G_OBJECT_CLASS (gst_session_http_signaller_parent_class)->dispose (object);
}

static void
gst_session_http_signaller_finalize (GObject * object)
{
  GstSessionHttpSignaller *self = GST_SESSION_HTTP_SIGNALLER (object);

  g_free (self->url);
  if (self->api_key)
    memset (self->api_key, 0, strlen (self->api_key));
  g_free (self->api_key);
  g_free (self->session_id);
  if (self->preconnect)
    g_cancellable_cancel (self->preconnect);
  g_clear_object (&self->preconnect);
  if (self->session)
    close_session (g_steal_pointer (&self->session),
        g_steal_pointer (&self->session_context));

  G_OBJECT_CLASS (gst_session_http_signaller_parent_class)->finalize (object);
}

static void
gst_session_http_signaller_class_init (GstSessionHttpSignallerClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);

  gst_session_init ();

  gobject_class->set_property = gst_session_http_signaller_set_property;
  gobject_class->get_property = gst_session_http_signaller_get_property;
  gobject_class->dispose = gst_session_http_signaller_dispose;
  gobject_class->finalize = gst_session_http_signaller_finalize;

  /**
   * GstSessionHttpSignaller:url:
   *
   * The full start-session endpoint (http or https).
   */
  g_object_class_install_property (gobject_class, PROP_URL,
      g_param_spec_string ("url", "URL", "The start-session endpoint",
          DEFAULT_URL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:api-key:
   *
   * The key sent as `Authorization: Key <api-key>`; none is sent when
   * unset or empty. Write-only, never logged.
   */
  g_object_class_install_property (gobject_class, PROP_API_KEY,
      g_param_spec_string ("api-key", "API key",
          "The key of the Authorization header (write-only)", NULL,
          G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:timeout:
   *
   * How long the service may take to answer, from start() to the answer
   * (connecting included), in milliseconds; 0 waits forever.
   */
  g_object_class_install_property (gobject_class, PROP_TIMEOUT,
      g_param_spec_uint ("timeout", "Timeout",
          "Longest wait for the answer, in milliseconds (0 = forever)", 0,
          G_MAXUINT, DEFAULT_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:keepalive-timeout:
   *
   * After an event-stream answer: when nothing (no data, no keepalive
   * comment) comes for this long, in milliseconds, the stream is closed
   * and #GstSessionSignaller::closed emitted; 0 never. The service sends a
   * keepalive at least every 15 s.
   */
  g_object_class_install_property (gobject_class, PROP_KEEPALIVE_TIMEOUT,
      g_param_spec_uint ("keepalive-timeout", "Keepalive timeout",
          "Longest silence of the session stream, in milliseconds "
          "(0 = no limit)", 0, G_MAXUINT, DEFAULT_KEEPALIVE_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:tls-validation:
   *
   * Whether the certificate of an https service is verified.
   */
  g_object_class_install_property (gobject_class, PROP_TLS_VALIDATION,
      g_param_spec_boolean ("tls-validation", "TLS validation",
          "Verify the certificate of an https service",
          DEFAULT_TLS_VALIDATION, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionHttpSignaller:session-id:
   *
   * The session id sent by the last start(), or %NULL.
   */
  g_object_class_install_property (gobject_class, PROP_SESSION_ID,
      g_param_spec_string ("session-id", "Session id",
          "The session id of the last start", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
gst_session_http_signaller_init (GstSessionHttpSignaller * self)
{
  self->url = g_strdup (DEFAULT_URL);
  self->timeout = DEFAULT_TIMEOUT;
  self->keepalive_timeout = DEFAULT_KEEPALIVE_TIMEOUT;
  self->tls_validation = DEFAULT_TLS_VALIDATION;
}

/**
 * gst_session_http_signaller_new:
 * @url: (nullable): the start-session endpoint.
 *
 * Returns: (transfer full): a new signaller.
 */
GstSessionHttpSignaller *
gst_session_http_signaller_new (const gchar * url)
{
  return g_object_new (GST_SESSION_TYPE_HTTP_SIGNALLER, "url", url, NULL);
}

/**
 * gst_session_http_signaller_get_session_id:
 * @signaller: a signaller.
 *
 * Returns: (transfer full) (nullable): the session id the last start()
 *   sent.
 */
gchar *
gst_session_http_signaller_get_session_id (GstSessionHttpSignaller * signaller)
{
  gchar *id;

  g_return_val_if_fail (GST_SESSION_IS_HTTP_SIGNALLER (signaller), NULL);

  GST_OBJECT_LOCK (signaller);
  id = g_strdup (signaller->session_id);
  GST_OBJECT_UNLOCK (signaller);
  return id;
}
