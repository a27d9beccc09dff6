/* gst-session-service: one session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A session ties together the start-session request (answered with a
 * text/event-stream that stays open while the session lives), the WebRTC
 * peer, the media and the app (world or director). Everything here runs
 * on the main thread; the media's streaming threads reach it only through
 * svc_session_post().
 *
 * Life: NEGOTIATING (offer set, answer on its way) -> STREAMING (answer
 * sent, media running) -> CLOSING (draining the last messages) -> CLOSED
 * (peer and media gone; the response is finished, except for a dropped
 * peer whose response is kept open on purpose).
 */

#include <stdio.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "session.h"
#include "offer.h"
#include "peer.h"
#include "ratecontrol.h"
#include "respond.h"

#define DRAIN_POLL_MS 20
#define DRAIN_MAX_MS 2000
#define CLOSE_LINGER_MS 200

struct _SvcSession
{
  gint ref_count;
  SvcSessionChanged changed;    /* the registry's */
  gpointer changed_data;
  const SvcConfig *config;
  const SvcAppClass *klass;
  GstSessionApp app;
  gchar *id;
  SvcSessionState state;
  gint64 created_us;

  SoupServerMessage *msg;       /* NULL once the response finished */
  gulong finished_handler;
  gboolean responded;           /* status and headers are set */
  gboolean sse;                 /* the response is the event stream */
  guint keepalive_source;
  GSource *socket_source;       /* notices the client closing early */

  SvcPeer *peer;
  SvcMedia *media;
  SvcOffer offer;               /* what the client's offer asked for */
  gboolean twcc;                /* the video's rate follows TWCC feedback */
  SvcRateControl rate;
  gpointer app_data;
  SvcFaults *faults;
  gboolean channel_open;
  GArray *timers;               /* source ids */
  gint64 drain_deadline;
  gboolean drained;
};

typedef struct
{
  SvcSession *session;
  GSourceFunc func;
  gpointer data;
  GDestroyNotify notify;
} SessionCall;

static void finish_response (SvcSession * s);
static void stop_socket_watch (SvcSession * s);

SvcSession *
svc_session_ref (SvcSession * s)
{
  g_atomic_int_inc (&s->ref_count);
  return s;
}

void
svc_session_unref (SvcSession * s)
{
  if (!g_atomic_int_dec_and_test (&s->ref_count))
    return;
  g_assert (s->state == SVC_SESSION_CLOSED || !s->peer);
  if (s->msg) {
    g_signal_handler_disconnect (s->msg, s->finished_handler);
    g_object_unref (s->msg);
  }
  g_array_unref (s->timers);
  svc_faults_free (s->faults);
  g_free (s->id);
  g_free (s);
}

const gchar *
svc_session_get_id (SvcSession * s)
{
  return s->id;
}

const SvcFaults *
svc_session_get_faults (SvcSession * s)
{
  return s->faults;
}

GstSessionApp
svc_session_get_app (SvcSession * s)
{
  return s->app;
}

SvcSessionState
svc_session_get_state (SvcSession * s)
{
  return s->state;
}

const SvcConfig *
svc_session_get_config (SvcSession * s)
{
  return s->config;
}

SvcMedia *
svc_session_get_media (SvcSession * s)
{
  return s->media;
}

gdouble
svc_session_get_age (SvcSession * s)
{
  return (g_get_monotonic_time () - s->created_us) / 1e6;
}

/* ---------------------------------------------------------------- *
 * timers and calls from other threads
 * ---------------------------------------------------------------- */

static guint
add_timer_full (SvcSession * s, guint ms, GSourceFunc func, gpointer data,
    GDestroyNotify notify)
{
  guint id, i;

  /* forget timers that already ran out */
  for (i = 0; i < s->timers->len;) {
    if (!g_main_context_find_source_by_id (NULL,
            g_array_index (s->timers, guint, i)))
      g_array_remove_index_fast (s->timers, i);
    else
      i++;
  }
  id = g_timeout_add_full (G_PRIORITY_DEFAULT, ms, func, data, notify);
  g_array_append_val (s->timers, id);
  return id;
}

/* A timer that is removed when the session closes */
guint
svc_session_add_timer (SvcSession * s, guint ms, GSourceFunc func,
    gpointer data)
{
  return add_timer_full (s, ms, func, data, NULL);
}

void
svc_session_remove_timer (SvcSession * s, guint id)
{
  guint i;

  for (i = 0; i < s->timers->len; i++) {
    if (g_array_index (s->timers, guint, i) == id) {
      GSource *source = g_main_context_find_source_by_id (NULL, id);

      if (source)
        g_source_destroy (source);
      g_array_remove_index_fast (s->timers, i);
      return;
    }
  }
}

static void
remove_timers (SvcSession * s)
{
  guint i;

  for (i = 0; i < s->timers->len; i++) {
    GSource *source = g_main_context_find_source_by_id (NULL,
        g_array_index (s->timers, guint, i));

    if (source)
      g_source_destroy (source);
  }
  g_array_set_size (s->timers, 0);
}

static gboolean
session_call_dispatch (gpointer data)
{
  SessionCall *call = data;

  if (call->session->state != SVC_SESSION_CLOSED)
    call->func (call->data);
  return G_SOURCE_REMOVE;
}

static void
session_call_free (gpointer data)
{
  SessionCall *call = data;

  if (call->notify)
    call->notify (call->data);
  svc_session_unref (call->session);
  g_free (call);
}

/* From any thread: runs @func (@data) on the main thread unless the
 * session has closed by then. */
void
svc_session_post (SvcSession * s, GSourceFunc func, gpointer data,
    GDestroyNotify notify)
{
  SessionCall *call = g_new0 (SessionCall, 1);
  GSource *source = g_idle_source_new ();

  call->session = svc_session_ref (s);
  call->func = func;
  call->data = data;
  call->notify = notify;
  g_source_set_callback (source, session_call_dispatch, call,
      session_call_free);
  g_source_attach (source, NULL);
  g_source_unref (source);
}

/* ---------------------------------------------------------------- *
 * messages
 * ---------------------------------------------------------------- */

/* Builds @fields (consumed) into a validated service message and sends it.
 * A message that does not validate is a bug of the service: logged, not
 * sent. */
gboolean
svc_session_send (SvcSession * s, GstStructure * fields)
{
  GError *error = NULL;
  gchar *text;
  gboolean ok;

  text = gst_session_message_build (s->app, GST_SESSION_DIRECTION_SERVICE,
      fields, &error);
  if (!text) {
    GST_ERROR ("session %s: not sending an invalid %s message: %s", s->id,
        gst_structure_get_name (fields), error ? error->message : "?");
    g_clear_error (&error);
    gst_structure_free (fields);
    return FALSE;
  }
  GST_DEBUG ("session %s: sending %s", s->id, text);
  gst_structure_free (fields);
  ok = svc_session_send_raw (s, text);
  g_free (text);
  return ok;
}

/* Sends @text as is (faults use it to send broken messages). */
gboolean
svc_session_send_raw (SvcSession * s, const gchar * text)
{
  if (s->state != SVC_SESSION_STREAMING || !s->peer)
    return FALSE;
  return svc_peer_send (s->peer, text);
}

/* The app sent its last message (stream_exhausted): close gracefully */
void
svc_session_end (SvcSession * s)
{
  svc_session_close (s, SVC_CLOSE_GRACEFUL);
}

/* ---------------------------------------------------------------- *
 * the response
 * ---------------------------------------------------------------- */

static void
append_event (SvcSession * s, const gchar * text)
{
  SoupMessageBody *body;

  if (!s->msg)
    return;
  body = soup_server_message_get_response_body (s->msg);
  soup_message_body_append (body, SOUP_MEMORY_COPY, text, strlen (text));
  soup_server_message_unpause (s->msg);
}

static gboolean
send_keepalive (gpointer data)
{
  SvcSession *s = data;

  append_event (s, ": keepalive\n\n");
  return G_SOURCE_CONTINUE;
}

/* Answers the start-session request with a request-level error (only
 * before the answer left) */
void
svc_session_respond_error (SvcSession * s, guint status, const gchar * type,
    const gchar * detail)
{
  if (!s->msg || s->responded)
    return;
  GST_INFO ("session %s: refused with %u %s: %s", s->id, status, type, detail);
  svc_respond_request_error (s->msg, status, type, detail);
  s->responded = TRUE;
  soup_server_message_unpause (s->msg);
}

static void
finish_response (SvcSession * s)
{
  stop_socket_watch (s);
  if (s->keepalive_source) {
    g_source_remove (s->keepalive_source);
    s->keepalive_source = 0;
  }
  if (!s->msg)
    return;
  if (!s->responded) {
    svc_session_respond_error (s, 503, "runner_disconnected",
        "the session ended before it was answered");
  } else if (s->sse) {
    soup_message_body_complete (soup_server_message_get_response_body (s->msg));
    soup_server_message_unpause (s->msg);
  }
}

static void
on_response_finished (SoupServerMessage * msg, SvcSession * s)
{
  GST_INFO ("session %s: the response finished", s->id);
  svc_session_ref (s);
  g_signal_handler_disconnect (s->msg, s->finished_handler);
  g_clear_object (&s->msg);
  stop_socket_watch (s);
  if (s->keepalive_source) {
    g_source_remove (s->keepalive_source);
    s->keepalive_source = 0;
  }
  if (s->state != SVC_SESSION_CLOSED)
    svc_session_close (s, SVC_CLOSE_CLIENT_GONE);
  s->changed (s, s->changed_data);
  svc_session_unref (s);
}

static void
stop_socket_watch (SvcSession * s)
{
  if (s->socket_source) {
    g_source_destroy (s->socket_source);
    g_source_unref (s->socket_source);
    s->socket_source = NULL;
  }
}

/* The client sends nothing more on the connection of an event stream:
 * readable means it closed (or broke) it. Peeking leaves the bytes to
 * libsoup. Never blocks. */
static gboolean
client_socket_closed (GSocket * socket)
{
  gchar byte;
  GInputVector vector = { &byte, 1 };
  gint flags = G_SOCKET_MSG_PEEK;
  GError *error = NULL;
  gssize n;

  if (g_socket_condition_check (socket, G_IO_IN | G_IO_HUP | G_IO_ERR) == 0)
    return FALSE;
  n = g_socket_receive_message (socket, NULL, &vector, 1, NULL, NULL, &flags,
      NULL, &error);
  if (n < 0 && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK)) {
    g_error_free (error);
    return FALSE;
  }
  g_clear_error (&error);
  return n <= 0;
}

static gboolean
on_client_socket (GSocket * socket, GIOCondition condition, gpointer data)
{
  SvcSession *s = data;

  if (!client_socket_closed (socket))
    return G_SOURCE_CONTINUE;
  GST_INFO ("session %s: the client closed the connection", s->id);
  stop_socket_watch (s);
  if (s->state != SVC_SESSION_CLOSED)
    svc_session_close (s, SVC_CLOSE_CLIENT_GONE);
  else
    finish_response (s);
  return G_SOURCE_REMOVE;
}

/* Whether the client closed the event stream of @s, looked at now
 * rather than when the main loop gets to its socket: a client that ends
 * a session and starts the next one at once can have its new request
 * read first (both connections ready in one poll: libsoup reads a
 * request as it accepts its connection, 1 renewal in 70 measured). A
 * closed one closes the session as on_client_socket() does. Only while
 * the stream is watched (after the answer). */
gboolean
svc_session_poll_client (SvcSession * s)
{
  GSocket *socket;

  if (!s->socket_source || !s->msg || s->state == SVC_SESSION_CLOSED)
    return FALSE;
  socket = soup_server_message_get_socket (s->msg);
  if (!socket || !client_socket_closed (socket))
    return FALSE;
  GST_INFO ("session %s: the client had closed the connection", s->id);
  stop_socket_watch (s);
  svc_session_close (s, SVC_CLOSE_CLIENT_GONE);
  return TRUE;
}

static void
start_socket_watch (SvcSession * s)
{
  GSocket *socket = soup_server_message_get_socket (s->msg);

  if (!socket)
    return;
  s->socket_source = g_socket_create_source (socket, G_IO_IN | G_IO_HUP |
      G_IO_ERR, NULL);
  g_source_set_callback (s->socket_source, G_SOURCE_FUNC (on_client_socket), s,
      NULL);
  g_source_attach (s->socket_source, NULL);
}

static void
send_answer (SvcSession * s, const gchar * sdp)
{
  SoupMessageHeaders *headers;
  JsonBuilder *b = json_builder_new ();
  JsonNode *root;
  gchar *json, *event;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "sdp");
  json_builder_add_string_value (b, sdp);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "answer");
  json_builder_set_member_name (b, "session_id");
  json_builder_add_string_value (b, s->id);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  json = gst_session_json_write (root, FALSE);
  json_node_unref (root);
  g_object_unref (b);

  headers = soup_server_message_get_response_headers (s->msg);
  soup_server_message_set_status (s->msg, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_content_type (headers, "text/event-stream", NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_replace (headers, "Cache-Control", "no-store");
  s->responded = TRUE;
  s->sse = TRUE;
  event = g_strdup_printf ("data: %s\n\n", json);
  append_event (s, event);
  g_free (event);
  g_free (json);

  s->keepalive_source = g_timeout_add_seconds (s->config->keepalive_seconds,
      send_keepalive, s);
  start_socket_watch (s);
  s->state = SVC_SESSION_STREAMING;
  svc_media_start (s->media);
  GST_INFO ("session %s: answered, streaming", s->id);
}

typedef struct
{
  SvcSession *session;
  gchar *sdp;
} DelayedAnswer;

static gboolean
send_delayed_answer (gpointer data)
{
  DelayedAnswer *d = data;

  if (d->session->state == SVC_SESSION_NEGOTIATING && d->session->msg)
    send_answer (d->session, d->sdp);
  return G_SOURCE_REMOVE;
}

static void
delayed_answer_free (gpointer data)
{
  DelayedAnswer *d = data;

  g_free (d->sdp);
  g_free (d);
}

/* ---------------------------------------------------------------- *
 * peer callbacks
 * ---------------------------------------------------------------- */

static void
on_answer (gpointer user_data, const gchar * sdp, const GError * error)
{
  SvcSession *s = user_data;

  if (s->state != SVC_SESSION_NEGOTIATING)
    return;
  if (!s->msg) {
    svc_session_close (s, SVC_CLOSE_CLIENT_GONE);
    return;
  }
  if (!sdp) {
    GST_WARNING ("session %s: no answer: %s", s->id, error->message);
    svc_session_respond_error (s, 400, "bad_request", error->message);
    svc_session_close (s, SVC_CLOSE_FAILED);
    return;
  }
  if (s->faults->answer_delay > 0) {
    DelayedAnswer *d = g_new0 (DelayedAnswer, 1);

    GST_INFO ("session %s: delaying the answer by %.2f s (fault)", s->id,
        s->faults->answer_delay);
    d->session = s;
    d->sdp = g_strdup (sdp);
    add_timer_full (s, (guint) (s->faults->answer_delay * 1000),
        send_delayed_answer, d, delayed_answer_free);
    return;
  }
  send_answer (s, sdp);
}

static void schedule_faults (SvcSession * s, const SvcFaults * faults);

static void
on_channel_open (gpointer user_data)
{
  SvcSession *s = user_data;

  if (s->state != SVC_SESSION_STREAMING || s->channel_open)
    return;
  GST_INFO ("session %s: control channel open", s->id);
  s->channel_open = TRUE;
  schedule_faults (s, s->faults);
  s->klass->channel_open (s->app_data);
}

static void
on_channel_message (gpointer user_data, const gchar * text)
{
  SvcSession *s = user_data;
  GstSessionMessage *message;
  GError *error = NULL;

  if (s->state != SVC_SESSION_STREAMING)
    return;
  GST_DEBUG ("session %s: received %s", s->id, text);
  message = gst_session_message_parse (s->app, GST_SESSION_DIRECTION_CLIENT,
      text, -1, &error);
  if (!message) {
    s->klass->invalid (s->app_data, error ? error->message : "invalid message");
    g_clear_error (&error);
    return;
  }
  if (!gst_session_message_is_known (message)) {
    gchar *why = g_strdup_printf ("unknown message type '%s'",
        gst_session_message_get_type_name (message));

    s->klass->invalid (s->app_data, why);
    g_free (why);
  } else {
    s->klass->message (s->app_data, message);
  }
  gst_session_message_unref (message);
}

static void
on_channel_closed (gpointer user_data)
{
  SvcSession *s = user_data;

  GST_INFO ("session %s: control channel closed", s->id);
  if (s->state == SVC_SESSION_STREAMING)
    svc_session_close (s, SVC_CLOSE_CLIENT_GONE);
}

static void
on_failed (gpointer user_data, const gchar * reason)
{
  SvcSession *s = user_data;

  GST_WARNING ("session %s: failed: %s", s->id, reason);
  if (s->state == SVC_SESSION_NEGOTIATING && s->msg && !s->responded)
    svc_session_respond_error (s, 500, "runner_server_error", reason);
  svc_session_close (s, SVC_CLOSE_FAILED);
}

static void
on_loss_report (gpointer user_data, guint32 ssrc, gint32 lost, guint32 highest)
{
  SvcSession *s = user_data;

  if (s->media)
    svc_media_report_loss (s->media, ssrc, lost, highest);
}

/* A REMB about the video: with transport-cc the ceiling of the rate
 * control, else the live encoder sends at the receiver's estimate, within
 * its own range (media.c); cached media cannot adapt */
static void
on_remb (gpointer user_data, guint64 bitrate)
{
  SvcSession *s = user_data;

  if (s->twcc)
    bitrate = svc_rate_control_remb (&s->rate, bitrate);
  if (s->media)
    svc_media_set_video_bitrate (s->media, bitrate);
}

/* Once a second with transport-cc: the rate from rtpsession's reading of
 * the TWCC feedback */
static gboolean
rate_tick (gpointer data)
{
  SvcSession *s = data;
  SvcPeerFeedback f;

  if (s->peer == NULL || s->media == NULL)
    return G_SOURCE_CONTINUE;
  svc_peer_get_feedback (s->peer, &f);
  if (f.twcc_loss_pct >= 0 && f.twcc_received > 0)
    svc_media_set_video_bitrate (s->media, svc_rate_control_twcc (&s->rate,
            f.twcc_loss_pct, f.twcc_bitrate_recv, f.twcc_delay_growth));
  return G_SOURCE_CONTINUE;
}

static const SvcPeerCallbacks peer_callbacks = {
  on_answer,
  on_channel_open,
  on_channel_message,
  on_channel_closed,
  on_failed,
  on_loss_report,
  on_remb,
};

/* ---------------------------------------------------------------- *
 * life
 * ---------------------------------------------------------------- */

SvcSession *
svc_session_new (const SvcConfig * config, SvcSessionChanged changed,
    gpointer changed_data, GstSessionApp app, const SvcAppClass * klass,
    const gchar * id, SoupServerMessage * msg, SvcFaults * faults)
{
  SvcSession *s = g_new0 (SvcSession, 1);

  s->ref_count = 1;             /* the registry's */
  s->changed = changed;
  s->changed_data = changed_data;
  s->config = config;
  s->app = app;
  s->klass = klass;
  s->id = g_strdup (id);
  s->state = SVC_SESSION_NEGOTIATING;
  s->created_us = g_get_monotonic_time ();
  s->msg = g_object_ref (msg);
  s->finished_handler = g_signal_connect (msg, "finished",
      G_CALLBACK (on_response_finished), s);
  s->faults = faults ? faults : svc_faults_new ();
  s->timers = g_array_new (FALSE, FALSE, sizeof (guint));
  soup_server_message_pause (msg);
  return s;
}

/* Sets up the peer and the media for @offer and starts negotiating. An
 * error in the GST_SESSION_ERROR domain means the offer is unusable (400);
 * others are internal. On error the caller answers and closes. */
gboolean
svc_session_start (SvcSession * s, const gchar * offer_text, GError ** error)
{
  const SvcConfig *config = s->config;
  SvcOffer offer;
  SvcMediaSettings settings = { 0, };
  guint i;

  if (!svc_offer_parse (offer_text, config->video_codec, &offer, error))
    return FALSE;
  s->offer = offer;
  if (!offer.has_video || !offer.has_data) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "the offer needs a video m-line offering VP8 or H264 and a data "
        "channel (an application m-line)");
    return FALSE;
  }

  s->peer = svc_peer_new (config, &peer_callbacks, s);
  s->app_data = s->klass->create (s);
  settings.codec = offer.codec;
  settings.video_pt = offer.video_pt;
  settings.audio = s->klass->audio && offer.has_audio;
  settings.audio_pt = offer.audio_pt;
  settings.width = s->klass->width;
  settings.height = s->klass->height;
  settings.fps = s->klass->fps;
  settings.cached = config->media_cached;
  settings.cached_seconds = config->cached_seconds;
  settings.cache_dump = config->cache_dump;
  settings.cached_label = s->app == GST_SESSION_APP_WORLD ?
      "world (cached media: the controls do not show)" :
      "director (cached media: the controls do not show)";
  s->media = svc_media_new (svc_peer_get_pipeline (s->peer), &settings,
      s->klass->media_callbacks, s->app_data, error);
  if (!s->media)
    return FALSE;

  for (i = 0; i < offer.n_media; i++) {
    GstPad *pad = NULL;

    if (offer.kinds[i] == SVC_STREAM_VIDEO)
      pad = svc_media_get_video_pad (s->media);
    else if (offer.kinds[i] == SVC_STREAM_AUDIO && settings.audio)
      pad = svc_media_get_audio_pad (s->media);
    if (!pad)
      continue;
    if (!svc_peer_add_stream (s->peer, pad, offer.kinds[i], &offer, error)) {
      gst_object_unref (pad);
      return FALSE;
    }
    gst_object_unref (pad);
  }
  s->twcc = offer.twcc_ext_id && offer.transport_cc && !config->no_transport_cc;
  svc_rate_control_init (&s->rate, SVC_VIDEO_MIN_KBPS * 1000,
      SVC_VIDEO_KBPS * 1000);
  if (s->twcc)
    svc_session_add_timer (s, 1000, rate_tick, s);
  GST_INFO ("session %s: %s, %s video (pt %u)%s", s->id, s->klass->name,
      offer.codec == SVC_CODEC_H264 ? "H.264" : "VP8", offer.video_pt,
      settings.audio ? ", Opus audio" : "");
  return svc_peer_start (s->peer, offer_text, error);
}

static void
teardown (SvcSession * s, SvcCloseMode mode)
{
  gboolean keep_response = mode == SVC_CLOSE_DROP &&
      s->faults->drop_keep_response;

  GST_INFO ("session %s: closing (mode %d)", s->id, mode);
  s->state = SVC_SESSION_CLOSED;
  remove_timers (s);
  if (s->media)
    svc_media_stop (s->media);
  if (s->peer) {
    svc_peer_free (s->peer);
    s->peer = NULL;
  }
  if (s->media) {
    svc_media_free (s->media);
    s->media = NULL;
  }
  if (s->app_data) {
    s->klass->free (s->app_data);
    s->app_data = NULL;
  }
  if (!keep_response)
    finish_response (s);
  s->changed (s, s->changed_data);
#ifdef __GLIBC__
  /* a session's encoders freed tens of MiB in their threads' malloc
   * arenas, which glibc keeps: give it back, so that the service's
   * resident memory says what it holds (what is in use does not grow) */
  malloc_trim (0);
#endif
}

static gboolean
linger_done (gpointer data)
{
  teardown (data, SVC_CLOSE_GRACEFUL);
  return G_SOURCE_REMOVE;
}

/* Graceful close: wait until the last messages left, close the channel,
 * give the close a moment, then tear down. */
static gboolean
drain_poll (gpointer data)
{
  SvcSession *s = data;

  if (!s->peer || svc_peer_get_buffered_amount (s->peer) == 0 ||
      g_get_monotonic_time () >= s->drain_deadline) {
    if (s->peer)
      svc_peer_close_channel (s->peer);
    svc_session_add_timer (s, CLOSE_LINGER_MS, linger_done, s);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

void
svc_session_close (SvcSession * s, SvcCloseMode mode)
{
  if (s->state == SVC_SESSION_CLOSED)
    return;
  if (mode == SVC_CLOSE_GRACEFUL) {
    if (s->state == SVC_SESSION_CLOSING)
      return;
    s->state = SVC_SESSION_CLOSING;
    remove_timers (s);
    s->drain_deadline = g_get_monotonic_time () + DRAIN_MAX_MS * 1000;
    svc_session_add_timer (s, DRAIN_POLL_MS, drain_poll, s);
    return;
  }
  teardown (s, mode);
}

/* ---------------------------------------------------------------- *
 * faults
 * ---------------------------------------------------------------- */

typedef enum
{
  FAULT_DROP,
  FAULT_STALL,
  FAULT_EXHAUST,
  FAULT_BAD_MESSAGE,
  FAULT_DIRECTOR_ERROR,
  FAULT_RESIZE,
} FaultKind;

typedef struct
{
  SvcSession *session;
  FaultKind kind;
  gchar *what;
  gdouble seconds;
} FaultTimer;

static void
send_bad_message (SvcSession * s, const gchar * kind)
{
  const gchar *text;

  if (g_str_equal (kind, "malformed"))
    text = "{\"type\": \"stats\", \"block_index\": 1,";
  else if (g_str_equal (kind, "unknown_type"))
    text = "{\"type\": \"reference_fault\", \"note\": \"injected\"}";
  else if (s->app == GST_SESSION_APP_WORLD)
    text = "{\"type\": \"stats\", \"block_index\": \"one\"}";
  else
    text = "{\"type\": \"chunk\", \"chunk_index\": -1}";
  GST_INFO ("session %s: sending a %s message (fault)", s->id, kind);
  svc_session_send_raw (s, text);
}

static gboolean
fault_fire (gpointer data)
{
  FaultTimer *t = data;
  SvcSession *s = t->session;

  if (s->state != SVC_SESSION_STREAMING)
    return G_SOURCE_REMOVE;
  switch (t->kind) {
    case FAULT_DROP:
      GST_INFO ("session %s: dropping the peer (fault)", s->id);
      svc_session_close (s, SVC_CLOSE_DROP);
      break;
    case FAULT_STALL:
      s->klass->stall (s->app_data, t->seconds);
      break;
    case FAULT_EXHAUST:
      s->klass->exhaust (s->app_data);
      break;
    case FAULT_BAD_MESSAGE:
      send_bad_message (s, t->what);
      break;
    case FAULT_DIRECTOR_ERROR:
      s->klass->error_fault (s->app_data, t->what);
      break;
    case FAULT_RESIZE:{
      gint w = 0, h = 0;

      /* nothing announces it: a libwebrtc sender lowers and raises its
       * resolution with loss, bandwidth and CPU, silently */
      if (sscanf (t->what, "%dx%d", &w, &h) == 2 && s->media) {
        GST_INFO ("session %s: sending %dx%d from now on (fault)", s->id, w, h);
        svc_media_force_video_size (s->media, w, h);
      }
      break;
    }
  }
  return G_SOURCE_REMOVE;
}

static void
fault_timer_free (gpointer data)
{
  FaultTimer *t = data;

  g_free (t->what);
  g_free (t);
}

static void
add_fault (SvcSession * s, FaultKind kind, gdouble at, const gchar * what,
    gdouble seconds)
{
  FaultTimer *t = g_new0 (FaultTimer, 1);

  t->session = s;
  t->kind = kind;
  t->what = g_strdup (what);
  t->seconds = seconds;
  add_timer_full (s, (guint) (at * 1000), fault_fire, t, fault_timer_free);
}

static void
schedule_faults (SvcSession * s, const SvcFaults * f)
{
  if (f->drop_after >= 0)
    add_fault (s, FAULT_DROP, f->drop_after, NULL, 0);
  if (f->stall_at >= 0 && f->stall_for > 0)
    add_fault (s, FAULT_STALL, f->stall_at, NULL, f->stall_for);
  if (f->exhaust_after >= 0)
    add_fault (s, FAULT_EXHAUST, f->exhaust_after, NULL, 0);
  if (f->bad_message)
    add_fault (s, FAULT_BAD_MESSAGE, MAX (f->bad_message_at, 0),
        f->bad_message, 0);
  if (f->director_error)
    add_fault (s, FAULT_DIRECTOR_ERROR, MAX (f->director_error_at, 0),
        f->director_error, 0);
  if (f->resize_at >= 0) {
    gchar *size = g_strdup_printf ("%dx%d", f->resize_width,
        f->resize_height);

    add_fault (s, FAULT_RESIZE, f->resize_at, size, 0);
    g_free (size);
  }
}

/* Faults for this live session: timed from now when the channel is open,
 * else from when it opens. */
void
svc_session_apply_faults (SvcSession * s, const SvcFaults * faults)
{
  svc_faults_merge (s->faults, faults);
  if (s->channel_open && s->state == SVC_SESSION_STREAMING)
    schedule_faults (s, faults);
}

gboolean
svc_session_has_response (SvcSession * s)
{
  return s->msg != NULL;
}

/* The service stops: close the session, or end the response of a session
 * that closed already (a dropped peer's kept response). */
void
svc_session_shutdown (SvcSession * s)
{
  if (s->state != SVC_SESSION_CLOSED)
    svc_session_close (s, SVC_CLOSE_SHUTDOWN);
  else
    finish_response (s);
}

static void
add_int (JsonBuilder * b, const gchar * name, gint64 value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_int_value (b, value);
}

static void
add_bool (JsonBuilder * b, const gchar * name, gboolean value)
{
  json_builder_set_member_name (b, name);
  json_builder_add_boolean_value (b, value);
}

/* What the offer asked of the sender, what the receiver told it since,
 * and the encoder's bitrate now (0: cached media, which cannot adapt) */
static void
describe_congestion (SvcSession * s, JsonBuilder * b)
{
  SvcPeerFeedback f;

  svc_peer_get_feedback (s->peer, &f);
  json_builder_begin_object (b);
  add_int (b, "offer_twcc_ext_id", s->offer.twcc_ext_id);
  add_bool (b, "offer_transport_cc", s->offer.transport_cc);
  add_bool (b, "offer_goog_remb", s->offer.goog_remb);
  add_int (b, "offer_max_bitrate", (gint64) MIN (s->offer.max_bitrate,
          G_MAXINT64));
  add_int (b, "twcc_feedback_received", (gint64) f.twcc_received);
  add_int (b, "rembs_received", (gint64) f.rembs_received);
  add_int (b, "rembs_refused", (gint64) f.rembs_refused);
  add_int (b, "remb_bitrate", (gint64) MIN (f.remb_bitrate, G_MAXINT64));
  json_builder_set_member_name (b, "twcc_loss_pct");
  json_builder_add_double_value (b, f.twcc_loss_pct);
  add_int (b, "twcc_bitrate_recv", f.twcc_bitrate_recv);
  add_int (b, "encoder_bitrate", svc_media_get_video_bitrate (s->media));
  json_builder_set_member_name (b, "rate_control");
  json_builder_add_string_value (b, s->twcc ? "transport-cc" : "remb");
  json_builder_end_object (b);
}

void
svc_session_describe (SvcSession * s, JsonBuilder * b)
{
  static const gchar *states[] = { "negotiating", "streaming", "closing",
    "closed"
  };

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "session_id");
  json_builder_add_string_value (b, s->id);
  json_builder_set_member_name (b, "app");
  json_builder_add_string_value (b, s->klass->name);
  json_builder_set_member_name (b, "state");
  json_builder_add_string_value (b, states[s->state]);
  json_builder_set_member_name (b, "age_seconds");
  json_builder_add_double_value (b, svc_session_get_age (s));
  json_builder_set_member_name (b, "channel_open");
  json_builder_add_boolean_value (b, s->channel_open);
  if (s->app_data && s->state != SVC_SESSION_CLOSED) {
    json_builder_set_member_name (b, "app_state");
    s->klass->describe (s->app_data, b);
  }
  if (s->peer && s->media && s->state != SVC_SESSION_CLOSED) {
    json_builder_set_member_name (b, "congestion");
    describe_congestion (s, b);
  }
  json_builder_end_object (b);
}
