/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The client is webrtcbin driven directly as the offerer: recv-only
 * transceivers, the "control" data channel made before the offer, full ICE
 * gathering on 127.0.0.1, the offer POSTed by libsoup from a private thread
 * that then keeps reading the event stream. What it receives on its media
 * streams: svc-media.c. Every wait is a bounded wait on a condition.
 */

#include <string.h>

#include "svc-client-private.h"

/* ---------------------------------------------------------------- *
 * the client
 * ---------------------------------------------------------------- */

typedef struct
{
  gchar *text;
  gchar *type;
  JsonObject *obj;
  gboolean taken;
} Message;

static void
message_free (Message * m)
{
  g_free (m->text);
  g_free (m->type);
  if (m->obj)
    json_object_unref (m->obj);
  g_free (m);
}

static void
on_message_string (GstWebRTCDataChannel * channel, const gchar * text,
    SvcClient * c)
{
  Message *m = g_new0 (Message, 1);
  JsonParser *parser = json_parser_new ();
  gboolean valid = TRUE;

  m->text = g_strdup (text);
  if (json_parser_load_from_data (parser, text, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser))) {
    m->obj = json_object_ref (json_node_get_object (json_parser_get_root
            (parser)));
    if (json_object_has_member (m->obj, "type"))
      m->type = g_strdup (json_object_get_string_member (m->obj, "type"));
  }
  g_object_unref (parser);
  {
    GError *error = NULL;
    GstSessionMessage *msg = gst_session_message_parse (c->app,
        GST_SESSION_DIRECTION_SERVICE, text, -1, &error);

    if (!msg || !gst_session_message_is_known (msg)) {
      GST_ERROR ("invalid service message %s: %s", text,
          error ? error->message : "unknown type");
      valid = FALSE;
    }
    g_clear_error (&error);
    if (msg)
      gst_session_message_unref (msg);
  }
  GST_DEBUG ("received %s", text);
  g_mutex_lock (&c->lock);
  g_ptr_array_add (c->messages, m);
  if (!valid)
    c->invalid++;
  signal_change (c);
  g_mutex_unlock (&c->lock);
}

static void
on_channel_open (GstWebRTCDataChannel * channel, SvcClient * c)
{
  gst_session_sctp_guard_install ();
  g_mutex_lock (&c->lock);
  c->channel_open = TRUE;
  signal_change (c);
  g_mutex_unlock (&c->lock);
}

static void
on_channel_close (GstWebRTCDataChannel * channel, SvcClient * c)
{
  g_mutex_lock (&c->lock);
  c->channel_closed = TRUE;
  signal_change (c);
  g_mutex_unlock (&c->lock);
}

static void
add_recvonly (SvcClient * c, const gchar * caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstWebRTCRTPTransceiver *trans = NULL;

  g_signal_emit_by_name (c->webrtc, "add-transceiver",
      GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_RECVONLY, caps, &trans);
  g_assert (trans != NULL);
  gst_object_unref (trans);
  gst_caps_unref (caps);
}

SvcClient *
svc_client_new (const gchar * base_url, GstSessionApp app,
    const SvcClientOptions * options)
{
  SvcClient *c = g_new0 (SvcClient, 1);
  GstElement *ice = NULL;
  gboolean ok = FALSE;

  c->last_video_sender = c->last_video_running = GST_CLOCK_TIME_NONE;
  g_mutex_init (&c->lock);
  g_cond_init (&c->cond);
  c->app = app;
  if (options)
    c->options = *options;
  c->key = g_strdup (c->options.key);
  c->options.key = c->key;
  c->base_url = g_strdup (base_url);
  c->session_id = g_uuid_string_random ();
  c->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)
      message_free);
  svc_media_init (c);
  c->cancel = g_cancellable_new ();

  c->pipeline = gst_pipeline_new (NULL);
  c->webrtc = gst_element_factory_make ("webrtcbin", NULL);
  g_assert (c->webrtc != NULL);
  g_object_set (c->webrtc, "bundle-policy",
      GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
  gst_bin_add (GST_BIN (c->pipeline), c->webrtc);
  {
    /* each buffer carries its capture time on the sender's clock once
     * sender reports came (see svc_client_sync_marks) */
    GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (c->webrtc), "rtpbin");

    if (rtpbin && g_object_class_find_property (G_OBJECT_GET_CLASS (rtpbin),
            "add-reference-timestamp-meta"))
      g_object_set (rtpbin, "add-reference-timestamp-meta", TRUE, NULL);
    if (rtpbin)
      gst_object_unref (rtpbin);
  }
  g_object_get (c->webrtc, "ice-agent", &ice, NULL);
  g_assert (ice != NULL);
  g_signal_emit_by_name (ice, "add-local-ip-address", "127.0.0.1", &ok);
  gst_object_unref (ice);
  g_signal_connect (c->webrtc, "pad-added", G_CALLBACK (svc_media_pad_added),
      c);

  if (c->options.h264)
    add_recvonly (c, "application/x-rtp,media=video,encoding-name=H264,"
        "payload=102,clock-rate=90000,packetization-mode=(string)1,"
        "profile-level-id=(string)42e01f");
  else
    add_recvonly (c, "application/x-rtp,media=video,encoding-name=VP8,"
        "payload=96,clock-rate=90000");
  if (app == GST_SESSION_APP_DIRECTOR && !c->options.no_audio)
    add_recvonly (c, "application/x-rtp,media=audio,encoding-name=OPUS,"
        "payload=111,clock-rate=48000,encoding-params=(string)2");
  return c;
}

const gchar *
svc_client_session_id (SvcClient * c)
{
  return c->session_id;
}

static GstPromise *
promise_wait (GstPromise * promise)
{
  g_assert_cmpint (gst_promise_wait (promise), ==, GST_PROMISE_RESULT_REPLIED);
  return promise;
}

static gchar *
make_offer (SvcClient * c)
{
  GstPromise *promise = gst_promise_new ();
  const GstStructure *reply;
  GstWebRTCSessionDescription *offer = NULL, *local = NULL;
  GstWebRTCICEGatheringState state;
  gint64 deadline;
  gchar *text;

  g_signal_emit_by_name (c->webrtc, "create-offer", NULL, promise);
  reply = gst_promise_get_reply (promise_wait (promise));
  gst_structure_get (reply, "offer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION,
      &offer, NULL);
  gst_promise_unref (promise);
  g_assert (offer != NULL);

  promise = gst_promise_new ();
  g_signal_emit_by_name (c->webrtc, "set-local-description", offer, promise);
  promise_wait (promise);
  gst_promise_unref (promise);
  gst_webrtc_session_description_free (offer);

  /* full gathering, bounded: 1.22.0 can lose the "complete" notify */
  deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  do {
    g_object_get (c->webrtc, "ice-gathering-state", &state, NULL);
    if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE)
      break;
    g_usleep (10000);
  } while (g_get_monotonic_time () < deadline);

  g_object_get (c->webrtc, "local-description", &local, NULL);
  g_assert (local != NULL);
  text = gst_sdp_message_as_text (local->sdp);
  gst_webrtc_session_description_free (local);
  g_assert (strstr (text, "a=candidate") != NULL);
  return text;
}

static gchar *
offer_body (SvcClient * c)
{
  JsonBuilder *b = json_builder_new ();
  JsonNode *root;
  gchar *text;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "sdp");
  json_builder_add_string_value (b, c->offer);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "offer");
  json_builder_set_member_name (b, "session_id");
  json_builder_add_string_value (b, c->session_id);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, FALSE);
  json_node_unref (root);
  g_object_unref (b);
  return text;
}

static gpointer
http_thread (gpointer data)
{
  SvcClient *c = data;
  GMainContext *context = g_main_context_new ();
  SoupSession *session;
  SoupMessage *msg;
  GInputStream *stream;
  GError *error = NULL;
  gchar *url, *body;
  GBytes *bytes;

  g_main_context_push_thread_default (context);
  session = soup_session_new_with_options ("timeout", 0, NULL);
  url = g_strdup_printf ("%s/%s/start-session", c->base_url,
      c->app == GST_SESSION_APP_WORLD ? "world" : "director");
  msg = soup_message_new ("POST", url);
  g_free (url);
  if (c->key) {
    gchar *auth = g_strdup_printf ("Key %s", c->key);

    soup_message_headers_replace (soup_message_get_request_headers (msg),
        "Authorization", auth);
    g_free (auth);
  }
  body = offer_body (c);
  bytes = g_bytes_new_take (body, strlen (body));
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  g_bytes_unref (bytes);

  stream = soup_session_send (session, msg, c->cancel, &error);
  if (error)
    GST_WARNING ("start-session: %s", error->message);
  if (!stream || soup_message_get_status (msg) != 200) {
    GByteArray *all = g_byte_array_new ();
    guint8 buf[4096];
    gssize n;

    while (stream && (n = g_input_stream_read (stream, buf, sizeof (buf),
                c->cancel, NULL)) > 0)
      g_byte_array_append (all, buf, n);
    g_mutex_lock (&c->lock);
    c->error_reply = svc_http_reply_new (msg, (const gchar *) all->data,
        all->len);
    c->answered = TRUE;
    c->response_ended = TRUE;
    signal_change (c);
    g_mutex_unlock (&c->lock);
    g_byte_array_unref (all);
  } else {
    GDataInputStream *lines = g_data_input_stream_new (stream);
    gchar *line;

    while ((line = g_data_input_stream_read_line (lines, NULL, c->cancel,
                &error))) {
      g_mutex_lock (&c->lock);
      if (g_str_has_prefix (line, "data: ") && !c->answer) {
        JsonParser *parser = json_parser_new ();

        g_assert (json_parser_load_from_data (parser, line + 6, -1, NULL));
        g_assert_cmpstr (json_object_get_string_member (json_node_get_object
                (json_parser_get_root (parser)), "type"), ==, "answer");
        g_assert_cmpstr (json_object_get_string_member (json_node_get_object
                (json_parser_get_root (parser)), "session_id"), ==,
            c->session_id);
        c->answer = g_strdup (json_object_get_string_member
            (json_node_get_object (json_parser_get_root (parser)), "sdp"));
        c->answered = TRUE;
        g_object_unref (parser);
      } else if (line[0] == ':') {
        c->keepalives++;
      }
      signal_change (c);
      g_mutex_unlock (&c->lock);
      g_free (line);
    }
    g_object_unref (lines);
    GST_INFO ("the event stream ended: %s", error ? error->message : "EOF");
    g_mutex_lock (&c->lock);
    c->answered = TRUE;
    c->response_ended = TRUE;
    signal_change (c);
    g_mutex_unlock (&c->lock);
  }
  g_clear_error (&error);
  if (stream)
    g_object_unref (stream);
  g_object_unref (msg);
  g_object_unref (session);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  return NULL;
}

guint
svc_client_start (SvcClient * c)
{
  GstWebRTCSessionDescription *answer;
  GstSDPMessage *sdp;
  GstPromise *promise;
  gchar *text;

  g_assert_cmpint (gst_element_set_state (c->pipeline, GST_STATE_PLAYING),
      !=, GST_STATE_CHANGE_FAILURE);
  g_signal_emit_by_name (c->webrtc, "create-data-channel", "control", NULL,
      &c->channel);
  g_assert (c->channel != NULL);
  g_signal_connect (c->channel, "on-open", G_CALLBACK (on_channel_open), c);
  g_signal_connect (c->channel, "on-close", G_CALLBACK (on_channel_close), c);
  g_signal_connect (c->channel, "on-message-string",
      G_CALLBACK (on_message_string), c);

  c->offer = make_offer (c);
  c->http_thread = g_thread_new ("svc-client-http", http_thread, c);

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->answered, 30000);
  text = g_strdup (c->answer);
  g_mutex_unlock (&c->lock);
  if (!text)
    return c->error_reply ? c->error_reply->status : 0;

  g_assert_cmpint (gst_sdp_message_new_from_text (text, &sdp), ==, GST_SDP_OK);
  g_free (text);
  answer = gst_webrtc_session_description_new (GST_WEBRTC_SDP_TYPE_ANSWER, sdp);
  promise = gst_promise_new ();
  g_signal_emit_by_name (c->webrtc, "set-remote-description", answer, promise);
  promise_wait (promise);
  gst_promise_unref (promise);
  gst_webrtc_session_description_free (answer);
  return 200;
}

static gpointer
ping_thread (gpointer data)
{
  SvcClient *c = data;
  guint i = 0;

  while (!g_atomic_int_get (&c->ping_stop)) {
    gchar *text = g_strdup_printf ("{\"type\": \"ping\", \"ts\": %u}", i++);

    if (gst_webrtc_data_channel_send_string_full (c->channel, text, NULL))
      g_atomic_int_inc (&c->pings_sent);
    g_free (text);
    g_usleep (200);
  }
  return NULL;
}

/* Sends pings without a pause from a thread of its own until the client
 * is freed; the pipeline stops while they go */
void
svc_client_start_pinging (SvcClient * c)
{
  g_assert (c->channel != NULL && c->ping_thread == NULL);
  c->ping_thread = g_thread_new ("svc-client-ping", ping_thread, c);
}

guint
svc_client_pings_sent (SvcClient * c)
{
  return g_atomic_int_get (&c->pings_sent);
}

SvcHttpReply *
svc_client_error_reply (SvcClient * c)
{
  return c->error_reply;
}

gboolean
svc_client_wait_open (SvcClient * c, gint timeout_ms)
{
  gboolean open;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->channel_open, timeout_ms);
  open = c->channel_open;
  g_mutex_unlock (&c->lock);
  return open;
}

gboolean
svc_client_send (SvcClient * c, const gchar * text)
{
  return gst_webrtc_data_channel_send_string_full (c->channel, text, NULL);
}

static Message *
find_message (SvcClient * c, const gchar * type)
{
  guint i;

  for (i = 0; i < c->messages->len; i++) {
    Message *m = g_ptr_array_index (c->messages, i);

    if (!m->taken && g_strcmp0 (m->type, type) == 0)
      return m;
  }
  return NULL;
}

JsonObject *
svc_client_wait_message (SvcClient * c, const gchar * type, gint timeout_ms)
{
  Message *m;
  gint64 start = g_get_monotonic_time ();

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, find_message (c, type), timeout_ms);
  m = find_message (c, type);
  if (m)
    m->taken = TRUE;
  g_mutex_unlock (&c->lock);
  if (!m)
    GST_WARNING ("no '%s' message after %.3f s (%u messages, %" G_GUINT64_FORMAT
        " video frames)", type, (g_get_monotonic_time () - start) / 1e6,
        c->messages->len, c->video_frames);
  return m ? m->obj : NULL;
}

gboolean
svc_client_wait_invalid (SvcClient * c, guint n, gint timeout_ms)
{
  gboolean ok;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->invalid >= n, timeout_ms);
  ok = c->invalid >= n;
  g_mutex_unlock (&c->lock);
  return ok;
}

guint
svc_client_count_messages (SvcClient * c, const gchar * type)
{
  guint i, n = 0;

  g_mutex_lock (&c->lock);
  for (i = 0; i < c->messages->len; i++) {
    Message *m = g_ptr_array_index (c->messages, i);

    n += g_strcmp0 (m->type, type) == 0;
  }
  g_mutex_unlock (&c->lock);
  return n;
}

gboolean
svc_client_wait_response_end (SvcClient * c, gint timeout_ms)
{
  gboolean ended;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->response_ended, timeout_ms);
  ended = c->response_ended;
  g_mutex_unlock (&c->lock);
  return ended;
}

guint
svc_client_keepalives (SvcClient * c)
{
  guint n;

  g_mutex_lock (&c->lock);
  n = c->keepalives;
  g_mutex_unlock (&c->lock);
  return n;
}

gboolean
svc_client_channel_closed (SvcClient * c)
{
  gboolean closed;

  g_mutex_lock (&c->lock);
  closed = c->channel_closed;
  g_mutex_unlock (&c->lock);
  return closed;
}


void
svc_client_free (SvcClient * c)
{
  guint invalid;

  g_cancellable_cancel (c->cancel);
  if (c->http_thread)
    g_thread_join (c->http_thread);
  gst_session_webrtc_stop_channel_senders (c->webrtc);
  gst_element_set_state (c->pipeline, GST_STATE_NULL);
  if (c->ping_thread) {
    g_atomic_int_set (&c->ping_stop, 1);
    g_thread_join (c->ping_thread);
  }
  if (c->channel) {
    g_signal_handlers_disconnect_by_data (c->channel, c);
    gst_object_unref (c->channel);
  }
  gst_object_unref (c->pipeline);

  g_mutex_lock (&c->lock);
  invalid = c->invalid;
  g_mutex_unlock (&c->lock);
  if (!c->options.expect_invalid)
    g_assert_cmpuint (invalid, ==, 0);

  g_ptr_array_unref (c->messages);
  svc_media_clear (c);
  svc_http_reply_free (c->error_reply);
  g_object_unref (c->cancel);
  g_free (c->answer);
  g_free (c->offer);
  g_free (c->key);
  g_free (c->base_url);
  g_free (c->session_id);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->cond);
  g_free (c);
}
