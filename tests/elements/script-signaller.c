/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>

#include "script-signaller.h"
#include "test-peer.h"

typedef struct
{
  gboolean silent;
  guint status;
  gchar *error_type;            /* X-Svc-Error-Type, or NULL */
  gchar *body;
  TestPeer *peer;               /* answers: not owned */
  gchar *answer;                /* the peer's answer SDP, or a scripted one */
} Reply;

struct _ScriptSignaller
{
  GObject parent;

  GMutex lock;
  GQueue replies;               /* Reply */
  guint starts;
  gint64 start_times[16];       /* monotonic, of the first 16 starts */
  guint stops;
  gchar *last_offer;
  GSource *pending;             /* the reply on its way */
};

static void script_signaller_iface_init (GstSessionSignallerInterface * iface);

G_DEFINE_TYPE_WITH_CODE (ScriptSignaller, script_signaller, G_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE (GST_SESSION_TYPE_SIGNALLER,
        script_signaller_iface_init));

static void
reply_free (gpointer data)
{
  Reply *r = data;

  g_free (r->error_type);
  g_free (r->body);
  g_free (r->answer);
  g_free (r);
}

typedef struct
{
  ScriptSignaller *self;
  Reply *reply;
} Delivery;

static void
delivery_free (gpointer data)
{
  Delivery *d = data;

  g_object_unref (d->self);
  reply_free (d->reply);
  g_free (d);
}

static gboolean
deliver (gpointer data)
{
  Delivery *d = data;
  GstSessionHttpError *http;
  SoupMessageHeaders *headers =
      soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  GError *error;

  g_mutex_lock (&d->self->lock);
  g_clear_pointer (&d->self->pending, g_source_unref);
  g_mutex_unlock (&d->self->lock);
  if (d->reply->answer) {
    GstStructure *answer = gst_structure_new ("answer", "session_id",
        G_TYPE_STRING, "test-peer", NULL);

    gst_session_signaller_emit_answer (GST_SESSION_SIGNALLER (d->self),
        d->reply->answer, answer);
    gst_structure_free (answer);
    soup_message_headers_unref (headers);
    return G_SOURCE_REMOVE;
  }
  if (d->reply->error_type)
    soup_message_headers_replace (headers, "X-Svc-Error-Type",
        d->reply->error_type);
  http = gst_session_http_error_parse (d->reply->status, headers,
      d->reply->body, strlen (d->reply->body));
  soup_message_headers_unref (headers);
  error = gst_session_http_error_to_gerror (http);
  gst_session_signaller_emit_error (GST_SESSION_SIGNALLER (d->self), error,
      http);
  g_error_free (error);
  gst_session_http_error_free (http);
  return G_SOURCE_REMOVE;
}

static gboolean
script_start (GstSessionSignaller * signaller, const gchar * offer_sdp,
    const gchar * session_id, GError ** error)
{
  ScriptSignaller *self = SCRIPT_SIGNALLER (signaller);
  Reply *reply;

  g_mutex_lock (&self->lock);
  if (self->starts < G_N_ELEMENTS (self->start_times))
    self->start_times[self->starts] = g_get_monotonic_time ();
  self->starts++;
  g_free (self->last_offer);
  self->last_offer = g_strdup (offer_sdp);
  reply = g_queue_pop_head (&self->replies);
  if (reply == NULL || reply->silent) {
    g_mutex_unlock (&self->lock);
    if (reply)
      reply_free (reply);
    return TRUE;
  } else {
    Delivery *d = g_new (Delivery, 1);

    if (reply->peer) {
      /* the peer answers as a service would; a failure is the test's */
      GError *err = NULL;
      guint stops = self->stops;

      g_mutex_unlock (&self->lock);
      reply->answer = test_peer_answer (reply->peer, offer_sdp, &err);
      g_mutex_lock (&self->lock);
      /* nothing is emitted after stop(), which may have come meanwhile */
      if (self->stops != stops) {
        g_mutex_unlock (&self->lock);
        g_clear_error (&err);
        g_free (d);
        reply_free (reply);
        return TRUE;
      }
      if (reply->answer == NULL) {
        g_printerr ("script signaller: %s\n", err ? err->message : "?");
        g_clear_error (&err);
        reply->status = 500;
        reply->body = g_strdup ("{\"detail\":\"the test peer failed\"}");
      }
    }

    d->self = g_object_ref (self);
    d->reply = reply;
    self->pending = g_idle_source_new ();
    g_source_set_callback (self->pending, deliver, d, delivery_free);
    g_source_attach (self->pending, g_main_context_get_thread_default ());
  }
  g_mutex_unlock (&self->lock);
  return TRUE;
}

static void
script_stop (GstSessionSignaller * signaller)
{
  ScriptSignaller *self = SCRIPT_SIGNALLER (signaller);
  GSource *pending;

  g_mutex_lock (&self->lock);
  self->stops++;
  pending = g_steal_pointer (&self->pending);
  g_mutex_unlock (&self->lock);
  /* nothing is emitted after stop() */
  if (pending) {
    g_source_destroy (pending);
    g_source_unref (pending);
  }
}

static void
script_signaller_iface_init (GstSessionSignallerInterface * iface)
{
  iface->start = script_start;
  iface->stop = script_stop;
}

static void
script_signaller_finalize (GObject * object)
{
  ScriptSignaller *self = SCRIPT_SIGNALLER (object);

  g_queue_clear_full (&self->replies, reply_free);
  g_free (self->last_offer);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (script_signaller_parent_class)->finalize (object);
}

static void
script_signaller_class_init (ScriptSignallerClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = script_signaller_finalize;
}

static void
script_signaller_init (ScriptSignaller * self)
{
  g_mutex_init (&self->lock);
  g_queue_init (&self->replies);
}

ScriptSignaller *
script_signaller_new (void)
{
  return g_object_new (SCRIPT_TYPE_SIGNALLER, NULL);
}

/* the reply to the next start after those queued */
static void
push_reply (ScriptSignaller * self, Reply * r)
{
  g_mutex_lock (&self->lock);
  g_queue_push_tail (&self->replies, r);
  g_mutex_unlock (&self->lock);
}

void
script_signaller_push_http_error (ScriptSignaller * self, guint status,
    const gchar * error_type, const gchar * body)
{
  Reply *r = g_new0 (Reply, 1);

  r->status = status;
  r->error_type = g_strdup (error_type);
  r->body = g_strdup (body);
  push_reply (self, r);
}

void
script_signaller_push_peer (ScriptSignaller * self, TestPeer * peer)
{
  Reply *r = g_new0 (Reply, 1);

  r->peer = peer;
  push_reply (self, r);
}

void
script_signaller_push_answer (ScriptSignaller * self, const gchar * sdp)
{
  Reply *r = g_new0 (Reply, 1);

  r->answer = g_strdup (sdp);
  push_reply (self, r);
}

void
script_signaller_push_silence (ScriptSignaller * self)
{
  Reply *r = g_new0 (Reply, 1);

  r->silent = TRUE;
  push_reply (self, r);
}

guint
script_signaller_starts (ScriptSignaller * self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = self->starts;
  g_mutex_unlock (&self->lock);
  return n;
}

guint
script_signaller_stops (ScriptSignaller * self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = self->stops;
  g_mutex_unlock (&self->lock);
  return n;
}

gchar *
script_signaller_last_offer (ScriptSignaller * self)
{
  gchar *sdp;

  g_mutex_lock (&self->lock);
  sdp = g_strdup (self->last_offer);
  g_mutex_unlock (&self->lock);
  return sdp;
}

gint64
script_signaller_start_time (ScriptSignaller * self, guint i)
{
  gint64 t = 0;

  g_mutex_lock (&self->lock);
  if (i < self->starts && i < G_N_ELEMENTS (self->start_times))
    t = self->start_times[i];
  g_mutex_unlock (&self->lock);
  return t;
}
