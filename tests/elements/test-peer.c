/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/webrtc/webrtc.h>
#include <json-glib/json-glib.h>

#include "test-peer.h"

/* bounds of what the peer waits for */
#define GATHER_WAIT_US (5 * G_USEC_PER_SEC)
#define PROMISE_WAIT_US (10 * G_USEC_PER_SEC)
#define MAX_QUEUED 1000

struct _TestPeer
{
  GstElement *pipeline;
  GstElement *webrtc;

  GMutex lock;
  GCond cond;
  GstWebRTCDataChannel *channel;
  GQueue received;              /* gchar *, what the element sent */
  guint n_received;
};

static void
on_message (GstWebRTCDataChannel * channel, const gchar * text, TestPeer * peer)
{
  g_mutex_lock (&peer->lock);
  if (text && g_queue_get_length (&peer->received) < MAX_QUEUED)
    g_queue_push_tail (&peer->received, g_strdup (text));
  peer->n_received++;
  g_cond_broadcast (&peer->cond);
  g_mutex_unlock (&peer->lock);
}

static void
on_data_channel (GstElement * webrtc, GstWebRTCDataChannel * channel,
    TestPeer * peer)
{
  g_signal_connect (channel, "on-message-string", G_CALLBACK (on_message),
      peer);
  g_mutex_lock (&peer->lock);
  if (peer->channel == NULL)
    peer->channel = g_object_ref (channel);
  g_cond_broadcast (&peer->cond);
  g_mutex_unlock (&peer->lock);
}

TestPeer *
test_peer_new (void)
{
  TestPeer *peer = g_new0 (TestPeer, 1);
  GstElement *ice = NULL;
  gboolean ok = FALSE;

  g_mutex_init (&peer->lock);
  g_cond_init (&peer->cond);
  g_queue_init (&peer->received);
  peer->pipeline = gst_object_ref_sink (gst_pipeline_new ("test-peer"));
  peer->webrtc = gst_element_factory_make ("webrtcbin", NULL);
  fail_unless (peer->webrtc != NULL, "no webrtcbin");
  g_object_set (peer->webrtc, "bundle-policy",
      GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
  gst_bin_add (GST_BIN (peer->pipeline), peer->webrtc);
  g_signal_connect (peer->webrtc, "on-data-channel",
      G_CALLBACK (on_data_channel), peer);
  /* libnice skips loopback interfaces: gather on 127.0.0.1 alone, UDP */
  g_object_get (peer->webrtc, "ice-agent", &ice, NULL);
  fail_unless (ice != NULL);
  g_signal_emit_by_name (ice, "add-local-ip-address", "127.0.0.1", &ok);
  fail_unless (ok);
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (ice), "ice-tcp"))
    g_object_set (ice, "ice-tcp", FALSE, NULL);
  gst_object_unref (ice);
  fail_if (gst_element_set_state (peer->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  return peer;
}

void
test_peer_free (TestPeer * peer)
{
  if (peer == NULL)
    return;
  gst_element_set_state (peer->pipeline, GST_STATE_NULL);
  gst_object_unref (peer->pipeline);
  g_clear_object (&peer->channel);
  g_queue_clear_full (&peer->received, g_free);
  g_mutex_clear (&peer->lock);
  g_cond_clear (&peer->cond);
  g_free (peer);
}

typedef struct
{
  TestPeer *peer;
  gboolean changed;
} PromiseWait;

static void
on_promise_changed (GstPromise * promise, gpointer data)
{
  PromiseWait *w = data;

  g_mutex_lock (&w->peer->lock);
  w->changed = TRUE;
  g_cond_broadcast (&w->peer->cond);
  g_mutex_unlock (&w->peer->lock);
}

/* a promise whose reply is waited for with a bound (wait_promise, with
 * @w: the promise's own, freed with it) */
static GstPromise *
new_promise (TestPeer * peer, PromiseWait ** w)
{
  *w = g_new0 (PromiseWait, 1);
  (*w)->peer = peer;
  return gst_promise_new_with_change_func (on_promise_changed, *w, g_free);
}

/* whether @promise was replied to within PROMISE_WAIT_US (its change
 * function's data is a PromiseWait) */
static gboolean
wait_promise (TestPeer * peer, GstPromise * promise, PromiseWait * w)
{
  gint64 deadline = g_get_monotonic_time () + PROMISE_WAIT_US;
  gboolean changed;

  g_mutex_lock (&peer->lock);
  while (!w->changed && g_cond_wait_until (&peer->cond, &peer->lock, deadline));
  changed = w->changed;
  g_mutex_unlock (&peer->lock);
  /* changed: gst_promise_wait returns at once */
  return changed && gst_promise_wait (promise) == GST_PROMISE_RESULT_REPLIED;
}

/* emits @signal with @desc and waits for webrtcbin's reply */
static gboolean
set_description (TestPeer * peer, const gchar * signal,
    GstWebRTCSessionDescription * desc)
{
  PromiseWait *w;
  GstPromise *promise = new_promise (peer, &w);
  gboolean ok;

  g_signal_emit_by_name (peer->webrtc, signal, desc, promise);
  ok = wait_promise (peer, promise, w);
  gst_promise_unref (promise);
  return ok;
}

/* the local description, once it holds a UDP host candidate on
 * 127.0.0.1 (all a loopback session needs), within GATHER_WAIT_US */
static gchar *
gathered_answer (TestPeer * peer)
{
  gint64 deadline = g_get_monotonic_time () + GATHER_WAIT_US;

  while (g_get_monotonic_time () < deadline) {
    GstWebRTCSessionDescription *desc = NULL;
    gchar *text = NULL;

    g_object_get (peer->webrtc, "local-description", &desc, NULL);
    if (desc) {
      text = gst_sdp_message_as_text (desc->sdp);
      gst_webrtc_session_description_free (desc);
    }
    if (text && strstr (text, " 127.0.0.1 ") && strstr (text, " typ host"))
      return text;
    g_free (text);
    g_usleep (5000);
  }
  return NULL;
}

gchar *
test_peer_answer (TestPeer * peer, const gchar * offer, GError ** error)
{
  GstSDPMessage *sdp = NULL;
  GstWebRTCSessionDescription *desc;
  GstPromise *promise;
  PromiseWait *w;
  const GstStructure *reply;
  gboolean ok;
  gchar *text;

  if (gst_sdp_message_new_from_text (offer, &sdp) != GST_SDP_OK) {
    g_set_error_literal (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "the offer is not an SDP");
    return NULL;
  }
  desc = gst_webrtc_session_description_new (GST_WEBRTC_SDP_TYPE_OFFER, sdp);
  ok = set_description (peer, "set-remote-description", desc);
  gst_webrtc_session_description_free (desc);
  if (!ok) {
    g_set_error_literal (error, GST_STREAM_ERROR, GST_STREAM_ERROR_DECODE,
        "the peer did not take the offer");
    return NULL;
  }

  promise = new_promise (peer, &w);
  g_signal_emit_by_name (peer->webrtc, "create-answer", NULL, promise);
  if (!wait_promise (peer, promise, w) ||
      (reply = gst_promise_get_reply (promise)) == NULL) {
    gst_promise_unref (promise);
    g_set_error_literal (error, GST_STREAM_ERROR, GST_STREAM_ERROR_ENCODE,
        "the peer made no answer");
    return NULL;
  }
  desc = NULL;
  gst_structure_get (reply, "answer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION,
      &desc, NULL);
  gst_promise_unref (promise);
  if (desc == NULL) {
    g_set_error_literal (error, GST_STREAM_ERROR, GST_STREAM_ERROR_ENCODE,
        "the peer made no answer");
    return NULL;
  }
  ok = set_description (peer, "set-local-description", desc);
  gst_webrtc_session_description_free (desc);
  if (!ok || (text = gathered_answer (peer)) == NULL) {
    g_set_error_literal (error, GST_STREAM_ERROR, GST_STREAM_ERROR_ENCODE,
        "the peer gathered no 127.0.0.1 candidate");
    return NULL;
  }
  return text;
}

gboolean
test_peer_wait_channel (TestPeer * peer, guint timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  gboolean have;

  g_mutex_lock (&peer->lock);
  while (peer->channel == NULL &&
      g_cond_wait_until (&peer->cond, &peer->lock, deadline));
  have = peer->channel != NULL;
  g_mutex_unlock (&peer->lock);
  return have;
}

gchar *
test_peer_next (TestPeer * peer, guint timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  gchar *text;

  g_mutex_lock (&peer->lock);
  while (g_queue_is_empty (&peer->received) &&
      g_cond_wait_until (&peer->cond, &peer->lock, deadline));
  text = g_queue_pop_head (&peer->received);
  g_mutex_unlock (&peer->lock);
  return text;
}

/* the "type" member of a JSON object text, or NULL (free it) */
static gchar *
json_type (const gchar * text)
{
  JsonParser *parser = json_parser_new ();
  gchar *type = NULL;

  if (json_parser_load_from_data (parser, text, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser))) {
    JsonObject *o = json_node_get_object (json_parser_get_root (parser));

    if (json_object_has_member (o, "type"))
      type = g_strdup (json_object_get_string_member (o, "type"));
  }
  g_object_unref (parser);
  return type;
}

gchar *
test_peer_next_of_type (TestPeer * peer, const gchar * type, guint timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline) {
    gint64 left = (deadline - g_get_monotonic_time ()) / G_USEC_PER_SEC;
    gchar *text = test_peer_next (peer, MAX (left, 1));
    gchar *got;

    if (text == NULL)
      return NULL;
    got = json_type (text);
    if (g_strcmp0 (got, type) == 0) {
      g_free (got);
      return text;
    }
    g_free (got);
    g_free (text);
  }
  return NULL;
}

void
test_peer_send (TestPeer * peer, const gchar * json)
{
  GstWebRTCDataChannel *channel;

  g_mutex_lock (&peer->lock);
  channel = peer->channel ? g_object_ref (peer->channel) : NULL;
  g_mutex_unlock (&peer->lock);
  fail_unless (channel != NULL, "no control channel to send on");
  fail_unless (gst_webrtc_data_channel_send_string_full (channel, json, NULL));
  g_object_unref (channel);
}

void
test_peer_send_data (TestPeer * peer, const guint8 * data, gsize size)
{
  GstWebRTCDataChannel *channel;
  GBytes *bytes = g_bytes_new (data, size);

  g_mutex_lock (&peer->lock);
  channel = peer->channel ? g_object_ref (peer->channel) : NULL;
  g_mutex_unlock (&peer->lock);
  fail_unless (channel != NULL, "no control channel to send on");
  fail_unless (gst_webrtc_data_channel_send_data_full (channel, bytes, NULL));
  g_object_unref (channel);
  g_bytes_unref (bytes);
}

guint
test_peer_received (TestPeer * peer)
{
  guint n;

  g_mutex_lock (&peer->lock);
  n = peer->n_received;
  g_mutex_unlock (&peer->lock);
  return n;
}
