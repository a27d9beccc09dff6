/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/webrtc/webrtc.h>
#include <gst/sdp/sdp.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <string.h>

#include "baseline.h"
#include "bench-common.h"

struct _BaselineClient
{
  gchar *url;
  gboolean decode;              /* FALSE: depayloaded frames to the sink */
  GstElement *pipeline;
  GstElement *webrtc;
  GstWebRTCDataChannel *channel;

  GMutex lock;
  GCond cond;
  BaselineTimes times;
  guint64 frames;
  gchar *error;
  gchar *offer;
  gboolean posting;

  GThread *http;
  GCancellable *cancel;

  GPtrArray *messages;          /* data channel messages, under lock */
  GArray *arrivals;             /* their arrival, bench_now_ms () */
};

static void
set_error (BaselineClient * c, const gchar * what)
{
  g_mutex_lock (&c->lock);
  if (c->error == NULL)
    c->error = g_strdup (what);
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
}

static void
mark (BaselineClient * c, gdouble * field)
{
  g_mutex_lock (&c->lock);
  if (*field == 0)
    *field = bench_now_ms ();
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
}

/* ---- media ---- */

static GstPadProbeReturn
rtp_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  BaselineClient *c = data;

  mark (c, &c->times.first_rtp);
  return GST_PAD_PROBE_REMOVE;
}

static GstPadProbeReturn
frame_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  BaselineClient *c = data;
  gdouble now = bench_now_ms ();

  g_mutex_lock (&c->lock);
  if (c->frames++ == 0)
    c->times.first_frame = now;
  c->times.last_frame = now;
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

static void
on_pad_added (GstElement * webrtc, GstPad * pad, BaselineClient * c)
{
  GstElement *bin, *sink;
  GstPad *sinkpad;

  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC)
    return;
  bin = gst_parse_bin_from_description (c->decode ?
      "rtpvp8depay ! vp8dec ! fakesink name=sink" :
      "rtpvp8depay ! fakesink name=sink", TRUE, NULL);
  gst_bin_add (GST_BIN (c->pipeline), bin);
  sink = gst_bin_get_by_name (GST_BIN (bin), "sink");
  sinkpad = gst_element_get_static_pad (sink, "sink");
  gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_BUFFER, frame_probe, c, NULL);
  gst_object_unref (sinkpad);
  gst_object_unref (sink);
  gst_element_sync_state_with_parent (bin);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, rtp_probe, c, NULL);
  sinkpad = gst_element_get_static_pad (bin, "sink");
  if (gst_pad_link (pad, sinkpad) != GST_PAD_LINK_OK)
    set_error (c, "cannot link the video stream");
  gst_object_unref (sinkpad);
}

/* ---- signalling: POST the offer, read the first event ---- */

static gboolean
set_answer (BaselineClient * c, const gchar * json)
{
  JsonParser *parser = json_parser_new ();
  GstSDPMessage *sdp = NULL;
  GstWebRTCSessionDescription *answer;
  GstPromise *promise;
  const gchar *text = NULL;
  gboolean ok = FALSE;

  if (json_parser_load_from_data (parser, json, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    text = json_object_get_string_member_with_default (json_node_get_object
        (json_parser_get_root (parser)), "sdp", NULL);
  if (text && gst_sdp_message_new_from_text (text, &sdp) == GST_SDP_OK) {
    answer = gst_webrtc_session_description_new (GST_WEBRTC_SDP_TYPE_ANSWER,
        sdp);
    promise = gst_promise_new ();
    g_signal_emit_by_name (c->webrtc, "set-remote-description", answer,
        promise);
    gst_promise_interrupt (promise);
    gst_promise_unref (promise);
    gst_webrtc_session_description_free (answer);
    ok = TRUE;
  }
  g_object_unref (parser);
  return ok;
}

static gpointer
http_thread (gpointer data)
{
  BaselineClient *c = data;
  SoupSession *session = soup_session_new ();
  SoupMessage *msg = soup_message_new ("POST", c->url);
  JsonBuilder *b = json_builder_new ();
  GDataInputStream *lines = NULL;
  GInputStream *in;
  JsonNode *root;
  gchar *body, *uuid = g_uuid_string_random (), *line;
  GBytes *bytes;
  GError *err = NULL;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "sdp");
  json_builder_add_string_value (b, c->offer);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "offer");
  json_builder_set_member_name (b, "session_id");
  json_builder_add_string_value (b, uuid);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  body = json_to_string (root, FALSE);
  json_node_unref (root);
  g_object_unref (b);
  g_free (uuid);
  bytes = g_bytes_new_take (body, strlen (body));
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  g_bytes_unref (bytes);

  in = soup_session_send (session, msg, c->cancel, &err);
  if (in == NULL || soup_message_get_status (msg) != SOUP_STATUS_OK) {
    set_error (c, err ? err->message : "start-session refused");
    goto done;
  }
  lines = g_data_input_stream_new (in);
  /* the first data: event is the answer; the session lives while the
   * response stays open, so keep reading (keepalives) until the end */
  while ((line = g_data_input_stream_read_line (lines, NULL, c->cancel, NULL))) {
    if (c->times.answered == 0 && g_str_has_prefix (line, "data: ")) {
      mark (c, &c->times.answered);
      if (!set_answer (c, line + 6))
        set_error (c, "the answer is not JSON with an SDP");
    }
    g_free (line);
  }

done:
  g_clear_error (&err);
  if (lines)
    g_object_unref (lines);
  if (in) {
    g_input_stream_close (in, NULL, NULL);
    g_object_unref (in);
  }
  g_object_unref (msg);
  g_object_unref (session);
  return NULL;
}

/* ---- webrtcbin ---- */

static void
post_offer (BaselineClient * c)
{
  GstWebRTCSessionDescription *desc = NULL;

  g_mutex_lock (&c->lock);
  if (c->posting) {
    g_mutex_unlock (&c->lock);
    return;
  }
  c->posting = TRUE;
  g_mutex_unlock (&c->lock);
  mark (c, &c->times.gathered);
  g_object_get (c->webrtc, "local-description", &desc, NULL);
  c->offer = gst_sdp_message_as_text (desc->sdp);
  gst_webrtc_session_description_free (desc);
  c->http = g_thread_new ("baseline-http", http_thread, c);
}

static void
on_gathering_state (GstElement * webrtc, GParamSpec * pspec, BaselineClient * c)
{
  GstWebRTCICEGatheringState state;

  g_object_get (webrtc, "ice-gathering-state", &state, NULL);
  if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE && c->times.offer)
    post_offer (c);
}

static void
on_ice_state (GstElement * webrtc, GParamSpec * pspec, BaselineClient * c)
{
  GstWebRTCICEConnectionState state;

  g_object_get (webrtc, "ice-connection-state", &state, NULL);
  if (state == GST_WEBRTC_ICE_CONNECTION_STATE_CONNECTED ||
      state == GST_WEBRTC_ICE_CONNECTION_STATE_COMPLETED)
    mark (c, &c->times.connected);
  else if (state == GST_WEBRTC_ICE_CONNECTION_STATE_FAILED)
    set_error (c, "ICE failed");
}

static void
on_channel_open (GstWebRTCDataChannel * channel, BaselineClient * c)
{
  mark (c, &c->times.channel);
}

static void
on_channel_message (GstWebRTCDataChannel * channel, const gchar * text,
    BaselineClient * c)
{
  gdouble now = bench_now_ms ();

  g_mutex_lock (&c->lock);
  g_ptr_array_add (c->messages, g_strdup (text));
  g_array_append_val (c->arrivals, now);
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
}

static void
on_offer_set (GstPromise * promise, gpointer data)
{
  BaselineClient *c = data;
  GstWebRTCICEGatheringState state;

  gst_promise_unref (promise);
  /* gathering may already be complete */
  g_object_get (c->webrtc, "ice-gathering-state", &state, NULL);
  if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE)
    post_offer (c);
}

static void
on_offer_created (GstPromise * promise, gpointer data)
{
  BaselineClient *c = data;
  GstWebRTCSessionDescription *offer = NULL;
  const GstStructure *reply;

  gst_promise_wait (promise);
  reply = gst_promise_get_reply (promise);
  if (reply)
    gst_structure_get (reply, "offer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION,
        &offer, NULL);
  gst_promise_unref (promise);
  if (offer == NULL) {
    set_error (c, "no offer");
    return;
  }
  mark (c, &c->times.offer);
  g_signal_emit_by_name (c->webrtc, "set-local-description", offer,
      gst_promise_new_with_change_func (on_offer_set, c, NULL));
  gst_webrtc_session_description_free (offer);
}

BaselineClient *
baseline_client_new (const gchar * url)
{
  return baseline_client_new_full (url, TRUE);
}

/* @decode FALSE: the frames reach the sink depayloaded, not decoded (the
 * transport's own cost, a floor for worldsrc's decode=false) */
BaselineClient *
baseline_client_new_full (const gchar * url, gboolean decode)
{
  BaselineClient *c = g_new0 (BaselineClient, 1);
  GstWebRTCRTPTransceiver *trans = NULL;
  GObject *ice = NULL;
  gboolean added = FALSE;
  GstCaps *caps;

  c->decode = decode;
  c->times.play = bench_now_ms ();
  c->url = g_strdup (url);
  g_mutex_init (&c->lock);
  g_cond_init (&c->cond);
  c->cancel = g_cancellable_new ();
  c->messages = g_ptr_array_new_with_free_func (g_free);
  c->arrivals = g_array_new (FALSE, FALSE, sizeof (gdouble));
  c->pipeline = gst_pipeline_new (NULL);
  c->webrtc = gst_element_factory_make ("webrtcbin", NULL);
  g_object_set (c->webrtc, "bundle-policy",
      GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
  gst_bin_add (GST_BIN (c->pipeline), c->webrtc);
  /* the one thing the plain client cannot do without on loopback
   * (docs/reference-service.md): libnice skips loopback interfaces, and
   * the service offers only 127.0.0.1, so ICE fails without it */
  g_object_get (c->webrtc, "ice-agent", &ice, NULL);
  g_signal_emit_by_name (ice, "add-local-ip-address", "127.0.0.1", &added);
  g_object_unref (ice);
  caps = gst_caps_from_string ("application/x-rtp,media=video,"
      "encoding-name=VP8,payload=96,clock-rate=90000");
  g_signal_emit_by_name (c->webrtc, "add-transceiver",
      GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_RECVONLY, caps, &trans);
  gst_caps_unref (caps);
  gst_clear_object (&trans);
  g_signal_connect (c->webrtc, "pad-added", G_CALLBACK (on_pad_added), c);
  g_signal_connect (c->webrtc, "notify::ice-gathering-state",
      G_CALLBACK (on_gathering_state), c);
  g_signal_connect (c->webrtc, "notify::ice-connection-state",
      G_CALLBACK (on_ice_state), c);
  return c;
}

void
baseline_client_play (BaselineClient * c)
{
  gst_element_set_state (c->pipeline, GST_STATE_PLAYING);
  g_signal_emit_by_name (c->webrtc, "create-data-channel", "control", NULL,
      &c->channel);
  if (c->channel == NULL) {
    set_error (c, "no data channel");
    return;
  }
  g_signal_connect (c->channel, "on-open", G_CALLBACK (on_channel_open), c);
  g_signal_connect (c->channel, "on-message-string",
      G_CALLBACK (on_channel_message), c);
  g_signal_emit_by_name (c->webrtc, "create-offer", NULL,
      gst_promise_new_with_change_func (on_offer_created, c, NULL));
}

gboolean
baseline_client_wait_frames (BaselineClient * c, guint64 n, guint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * (gint64) 1000;
  gboolean ok;

  g_mutex_lock (&c->lock);
  while (c->frames < n && c->error == NULL)
    if (!g_cond_wait_until (&c->cond, &c->lock, deadline))
      break;
  ok = c->frames >= n;
  g_mutex_unlock (&c->lock);
  return ok;
}

guint64
baseline_client_frames (BaselineClient * c)
{
  guint64 n;

  g_mutex_lock (&c->lock);
  n = c->frames;
  g_mutex_unlock (&c->lock);
  return n;
}

gboolean
baseline_client_send (BaselineClient * c, const gchar * text)
{
  return c->channel &&
      gst_webrtc_data_channel_send_string_full (c->channel, text, NULL);
}

gdouble
baseline_client_wait_message (BaselineClient * c, const gchar * needle,
    guint nth, guint timeout_ms, gchar ** text)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * (gint64) 1000;
  gdouble at = -1;

  g_mutex_lock (&c->lock);
  for (;;) {
    guint i, seen = 0;

    for (i = 0; i < c->messages->len && at < 0; i++) {
      const gchar *m = g_ptr_array_index (c->messages, i);

      if (strstr (m, needle) && ++seen == nth) {
        at = g_array_index (c->arrivals, gdouble, i);
        if (text)
          *text = g_strdup (m);
      }
    }
    if (at >= 0 || !g_cond_wait_until (&c->cond, &c->lock, deadline))
      break;
  }
  g_mutex_unlock (&c->lock);
  return at;
}

void
baseline_client_get_times (BaselineClient * c, BaselineTimes * t)
{
  g_mutex_lock (&c->lock);
  *t = c->times;
  g_mutex_unlock (&c->lock);
}

gchar *
baseline_client_error (BaselineClient * c)
{
  gchar *e;

  g_mutex_lock (&c->lock);
  e = g_strdup (c->error);
  g_mutex_unlock (&c->lock);
  return e;
}

void
baseline_client_free (BaselineClient * c)
{
  if (c == NULL)
    return;
  g_cancellable_cancel (c->cancel);
  if (c->http)
    g_thread_join (c->http);
  if (c->channel)
    g_signal_handlers_disconnect_by_data (c->channel, c);
  g_signal_handlers_disconnect_by_data (c->webrtc, c);
  gst_element_set_state (c->pipeline, GST_STATE_NULL);
  g_clear_object (&c->channel);
  gst_object_unref (c->pipeline);
  g_object_unref (c->cancel);
  g_free (c->url);
  g_free (c->offer);
  g_free (c->error);
  g_ptr_array_unref (c->messages);
  g_array_unref (c->arrivals);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->cond);
  g_free (c);
}
