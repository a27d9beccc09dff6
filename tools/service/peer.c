/* gst-session-service: the WebRTC answerer of one session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * webrtcbin as answerer without trickle: the offer is set, the answer
 * created and set, and the answer leaves once ICE gathering is complete
 * (polled, with a timeout: GStreamer 1.22.0 can lose the "complete"
 * notification) with its candidates in it. The data channel the client
 * opens is adopted.
 *
 * webrtcbin calls back on its own threads: every such callback only
 * queues a PeerEvent onto the main context; the session's callbacks run
 * there, and never after svc_peer_free() (the closed flag).
 *
 * webrtcbin's promises: each operation in flight (set-remote-description,
 * create-answer, set-local-description) has its promise kept in the peer
 * until webrtcbin replies. GStreamer 1.22's webrtcbin drops an operation
 * still queued when it goes from READY to NULL without replying to it
 * (_stop_thread, _free_op): svc_peer_free() interrupts what is left, so
 * that each promise, and the peer reference it holds, is let go once.
 *
 * Congestion feedback: the offer's transport-cc header extension goes on
 * every stream's codec preferences, so that each payloader writes it and
 * rtpsession numbers the packets; the receiver's TWCC feedback and REMBs
 * are counted, and each REMB about the video reaches the session (which
 * sets the encoder's bitrate from it).
 *
 * Locks: SvcPeer.lock ("peer lock") protects channel, candidates and the
 * other fields written by webrtcbin threads. A leaf lock.
 */

#include <string.h>
#include <gst/sdp/sdp.h>
#ifndef GST_USE_UNSTABLE_API
#define GST_USE_UNSTABLE_API
#endif
#include <gst/webrtc/webrtc.h>
#include <gst/rtp/rtp.h>

#include <gst/session/teardown.h>

#include "lossmeter.h"
#include "peer.h"

#define GATHER_POLL_MS 5

/* webrtcbin's operations of a negotiation, each with its promise */
typedef enum
{
  OP_SET_REMOTE,
  OP_CREATE_ANSWER,
  OP_SET_LOCAL,
  N_OPS
} PeerOp;

struct _SvcPeer
{
  gint ref_count;
  GMutex lock;
  const SvcConfig *config;
  SvcPeerCallbacks callbacks;
  gpointer user_data;
  GMainContext *context;

  GstElement *pipeline;
  GstElement *webrtc;
  GstElement *rtpbin;           /* with element_added_handler */
  gulong element_added_handler;
  guint bus_watch;

  /* main thread */
  gboolean closed;
  gboolean answered;
  gboolean open_reported;
  guint gather_source;
  gint64 gather_deadline;

  /* peer lock */
  GstWebRTCDataChannel *channel;
  GPtrArray *candidates;        /* "mline candidate" strings */
  GObject *rtp_session;         /* RTPSession, for receiver reports */
  GstElement *rtp_session_element;      /* rtpsession, for its twcc-stats */
  guint32 remb_ssrc;            /* the video's SSRC: a REMB must name it */
  SvcPeerFeedback feedback;
  GstPromise *pending[N_OPS];   /* a reference each, until the reply */
  gboolean stopped;             /* svc_peer_free took the pending ones */

  /* main thread: the video's ULPFEC follows its receiver's loss */
  GstWebRTCRTPTransceiver *fec_trans;
  guint32 video_ssrc;
  SvcLossMeter video_loss;
  gint fec_level;
  /* main thread: the video's payload type, when the offer has goog-remb */
  gint remb_pt;
};

typedef enum
{
  EV_ANSWER_SET,
  EV_NEGOTIATION_FAILED,
  EV_CHANNEL,
  EV_OPEN,
  EV_MESSAGE,
  EV_CLOSED,
  EV_FAILED,
  EV_LOSS,
  EV_REMB,
} PeerEventKind;

typedef struct
{
  SvcPeer *peer;
  PeerEventKind kind;
  gchar *text;
  guint32 ssrc;                 /* EV_LOSS */
  gint32 lost;
  guint32 highest;
  guint64 bitrate;              /* EV_REMB */
} PeerEvent;

static SvcPeer *
peer_ref (SvcPeer * peer)
{
  g_atomic_int_inc (&peer->ref_count);
  return peer;
}

static void
peer_unref (SvcPeer * peer)
{
  if (!g_atomic_int_dec_and_test (&peer->ref_count))
    return;
  g_ptr_array_unref (peer->candidates);
  gst_object_unref (peer->webrtc);
  g_main_context_unref (peer->context);
  g_mutex_clear (&peer->lock);
  g_free (peer);
}

/* ---------------------------------------------------------------- *
 * events onto the main context
 * ---------------------------------------------------------------- */

static void
peer_event_free (PeerEvent * ev)
{
  peer_unref (ev->peer);
  g_free (ev->text);
  g_free (ev);
}

static void report_open (SvcPeer * peer);

/* ULPFEC (RFC 5109, in RED) for the video, when the offer has it: FEC
 * packets for twice the loss level its receiver reports (libwebrtc
 * protects with a rate that grows with the loss), none on a clean path,
 * where the RED wrapping costs a byte a packet. */
static void
video_loss_report (SvcPeer * peer, gint32 lost, guint32 highest)
{
  gdouble pct;
  gint level;

  if (!svc_loss_meter_report (&peer->video_loss, g_get_monotonic_time (),
          lost, highest, &pct))
    return;
  level = svc_loss_level (pct, peer->fec_level);
  if (level == peer->fec_level)
    return;
  peer->fec_level = level;
  GST_INFO ("receiver loss %.1f %%: video ULPFEC at %d %%", pct,
      MIN (2 * level, 50));
  g_object_set (peer->fec_trans, "fec-percentage", (guint) MIN (2 * level,
          50), NULL);
}

static gboolean
peer_event_dispatch (gpointer data)
{
  PeerEvent *ev = data;
  SvcPeer *peer = ev->peer;

  if (peer->closed)
    return G_SOURCE_REMOVE;

  switch (ev->kind) {
    case EV_ANSWER_SET:
      break;
    case EV_NEGOTIATION_FAILED:
      if (!peer->answered) {
        GError *error = g_error_new (GST_SESSION_ERROR,
            GST_SESSION_ERROR_INVALID_ARGUMENT, "%s", ev->text);

        peer->answered = TRUE;
        peer->callbacks.answer (peer->user_data, NULL, error);
        g_error_free (error);
      }
      break;
    case EV_CHANNEL:{
      GstWebRTCDataChannelState state = GST_WEBRTC_DATA_CHANNEL_STATE_CLOSED;

      g_mutex_lock (&peer->lock);
      if (peer->channel)
        g_object_get (peer->channel, "ready-state", &state, NULL);
      g_mutex_unlock (&peer->lock);
      if (state == GST_WEBRTC_DATA_CHANNEL_STATE_OPEN)
        report_open (peer);
      break;
    }
    case EV_OPEN:
      report_open (peer);
      break;
    case EV_MESSAGE:
      peer->callbacks.channel_message (peer->user_data, ev->text);
      break;
    case EV_CLOSED:
      peer->callbacks.channel_closed (peer->user_data);
      break;
    case EV_FAILED:
      peer->callbacks.failed (peer->user_data, ev->text);
      break;
    case EV_LOSS:
      if (peer->fec_trans && ev->ssrc == peer->video_ssrc)
        video_loss_report (peer, ev->lost, ev->highest);
      if (peer->callbacks.loss_report)
        peer->callbacks.loss_report (peer->user_data, ev->ssrc, ev->lost,
            ev->highest);
      break;
    case EV_REMB:
      if (peer->callbacks.remb)
        peer->callbacks.remb (peer->user_data, ev->bitrate);
      break;
  }
  return G_SOURCE_REMOVE;
}

static PeerEvent *
peer_event_new (SvcPeer * peer, PeerEventKind kind, const gchar * text)
{
  PeerEvent *ev = g_new0 (PeerEvent, 1);

  ev->peer = peer_ref (peer);
  ev->kind = kind;
  ev->text = g_strdup (text);
  return ev;
}

static void
peer_event_post (PeerEvent * ev)
{
  GSource *source = g_idle_source_new ();

  /* always queued, even from the main thread: no re-entrant callbacks */
  g_source_set_callback (source, peer_event_dispatch, ev,
      (GDestroyNotify) peer_event_free);
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_attach (source, ev->peer->context);
  g_source_unref (source);
}

static void
post_event (SvcPeer * peer, PeerEventKind kind, const gchar * text)
{
  peer_event_post (peer_event_new (peer, kind, text));
}

static void
report_open (SvcPeer * peer)
{
  if (peer->open_reported)
    return;
  peer->open_reported = TRUE;
  peer->callbacks.channel_open (peer->user_data);
}

/* ---------------------------------------------------------------- *
 * the data channel (webrtcbin threads)
 * ---------------------------------------------------------------- */

static void
on_channel_open (GstWebRTCDataChannel * channel, SvcPeer * peer)
{
  /* the SCTP plugin made its first association by now */
  gst_session_sctp_guard_install ();
  post_event (peer, EV_OPEN, NULL);
}

static void
on_channel_close (GstWebRTCDataChannel * channel, SvcPeer * peer)
{
  post_event (peer, EV_CLOSED, NULL);
}

static void
on_channel_error (GstWebRTCDataChannel * channel, GError * error,
    SvcPeer * peer)
{
  GST_WARNING ("data channel error: %s", error ? error->message : "?");
}

static void
on_channel_string (GstWebRTCDataChannel * channel, const gchar * text,
    SvcPeer * peer)
{
  post_event (peer, EV_MESSAGE, text ? text : "");
}

static void
on_channel_data (GstWebRTCDataChannel * channel, GBytes * bytes, SvcPeer * peer)
{
  gsize size = 0;
  const gchar *data = bytes ? g_bytes_get_data (bytes, &size) : NULL;
  gchar *text = g_strndup (data ? data : "", size);

  /* a binary message is read as text: it fails validation if it is not */
  post_event (peer, EV_MESSAGE, text);
  g_free (text);
}

static void
on_data_channel (GstElement * webrtc, GstWebRTCDataChannel * channel,
    SvcPeer * peer)
{
  gchar *label = NULL;

  g_object_get (channel, "label", &label, NULL);
  g_mutex_lock (&peer->lock);
  if (peer->channel) {
    g_mutex_unlock (&peer->lock);
    GST_INFO ("ignoring a second data channel '%s'", label);
    g_free (label);
    return;
  }
  peer->channel = gst_object_ref (channel);
  g_mutex_unlock (&peer->lock);
  GST_INFO ("adopted the data channel '%s'", label);
  g_free (label);

  g_signal_connect (channel, "on-open", G_CALLBACK (on_channel_open), peer);
  g_signal_connect (channel, "on-close", G_CALLBACK (on_channel_close), peer);
  g_signal_connect (channel, "on-error", G_CALLBACK (on_channel_error), peer);
  g_signal_connect (channel, "on-message-string",
      G_CALLBACK (on_channel_string), peer);
  g_signal_connect (channel, "on-message-data", G_CALLBACK (on_channel_data),
      peer);
  post_event (peer, EV_CHANNEL, NULL);
}

static void
on_ice_candidate (GstElement * webrtc, guint mline, const gchar * candidate,
    SvcPeer * peer)
{
  g_mutex_lock (&peer->lock);
  g_ptr_array_add (peer->candidates, g_strdup_printf ("%u %s", mline,
          candidate));
  g_mutex_unlock (&peer->lock);
}

static void
on_ice_connection_state (GstElement * webrtc, GParamSpec * pspec,
    SvcPeer * peer)
{
  GstWebRTCICEConnectionState state;

  g_object_get (webrtc, "ice-connection-state", &state, NULL);
  GST_DEBUG ("ICE connection state %d", state);
  if (state == GST_WEBRTC_ICE_CONNECTION_STATE_FAILED)
    post_event (peer, EV_FAILED, "ICE failed");
}

/* ---------------------------------------------------------------- *
 * negotiation
 * ---------------------------------------------------------------- */

/* Adds gathered candidates that the description lacks (webrtcbin puts
 * them in; this only guards against a version that does not). */
static void
add_missing_candidates (SvcPeer * peer, GstSDPMessage * sdp)
{
  guint i;

  g_mutex_lock (&peer->lock);
  for (i = 0; i < peer->candidates->len; i++) {
    const gchar *item = g_ptr_array_index (peer->candidates, i);
    gchar *end;
    guint64 mline = g_ascii_strtoull (item, &end, 10);
    const gchar *cand = end + 1;
    GstSDPMedia *media;
    guint a;
    gboolean found = FALSE;

    if (mline >= gst_sdp_message_medias_len (sdp))
      continue;
    if (g_str_has_prefix (cand, "candidate:"))
      cand += strlen ("candidate:");
    media = (GstSDPMedia *) gst_sdp_message_get_media (sdp, mline);
    for (a = 0; a < gst_sdp_media_attributes_len (media) && !found; a++) {
      const GstSDPAttribute *attr = gst_sdp_media_get_attribute (media, a);

      found = g_strcmp0 (attr->key, "candidate") == 0 &&
          g_strcmp0 (attr->value, cand) == 0;
    }
    if (!found)
      gst_sdp_media_add_attribute (media, "candidate", cand);
  }
  g_mutex_unlock (&peer->lock);
}

/* The answer says the video takes REMB when the offer had it: GStreamer
 * 1.22 writes no rtcp-fb but nack, pli, fir and transport-cc, and a
 * receiver that sends REMB only when it was negotiated must see it. */
static void
add_remb_feedback (SvcPeer * peer, GstSDPMessage * sdp)
{
  gchar *fb, *fmt;
  guint i;

  if (peer->remb_pt < 0)
    return;
  fb = g_strdup_printf ("%d goog-remb", peer->remb_pt);
  fmt = g_strdup_printf ("%d", peer->remb_pt);
  for (i = 0; i < gst_sdp_message_medias_len (sdp); i++) {
    GstSDPMedia *media = (GstSDPMedia *) gst_sdp_message_get_media (sdp, i);
    guint f;

    if (g_strcmp0 (gst_sdp_media_get_media (media), "video") != 0)
      continue;
    for (f = 0; f < gst_sdp_media_formats_len (media); f++)
      if (g_strcmp0 (gst_sdp_media_get_format (media, f), fmt) == 0) {
        gst_sdp_media_add_attribute (media, "rtcp-fb", fb);
        break;
      }
  }
  g_free (fmt);
  g_free (fb);
}

/* --no-transport-cc: the answer takes no transport-cc (webrtcbin answers
 * the offer's rtcp-fb; the payloader writes no extension then) */
static void
drop_transport_cc (SvcPeer * peer, GstSDPMessage * sdp)
{
  guint i;

  if (!peer->config->no_transport_cc)
    return;
  for (i = 0; i < gst_sdp_message_medias_len (sdp); i++) {
    GstSDPMedia *media = (GstSDPMedia *) gst_sdp_message_get_media (sdp, i);
    guint a = 0;

    while (a < gst_sdp_media_attributes_len (media)) {
      const GstSDPAttribute *attr = gst_sdp_media_get_attribute (media, a);

      if ((g_strcmp0 (attr->key, "rtcp-fb") == 0 && attr->value &&
              g_str_has_suffix (attr->value, " transport-cc")) ||
          (g_strcmp0 (attr->key, "extmap") == 0 && attr->value &&
              strstr (attr->value, SVC_TWCC_URI)))
        gst_sdp_media_remove_attribute (media, a);
      else
        a++;
    }
  }
}

static void
finish_answer (SvcPeer * peer)
{
  GstWebRTCSessionDescription *desc = NULL;
  gchar *text;

  peer->gather_source = 0;
  if (peer->closed || peer->answered)
    return;
  peer->answered = TRUE;

  g_object_get (peer->webrtc, "local-description", &desc, NULL);
  if (!desc) {
    GError *error = g_error_new (GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT, "webrtcbin has no answer");

    peer->callbacks.answer (peer->user_data, NULL, error);
    g_error_free (error);
    return;
  }
  add_missing_candidates (peer, desc->sdp);
  add_remb_feedback (peer, desc->sdp);
  drop_transport_cc (peer, desc->sdp);
  text = gst_sdp_message_as_text (desc->sdp);
  gst_webrtc_session_description_free (desc);
  peer->callbacks.answer (peer->user_data, text, NULL);
  g_free (text);
}

static gboolean
is_unspecified (const gchar * host)
{
  GInetAddress *addr = g_inet_address_new_from_string (host);
  gboolean any = !addr || g_inet_address_get_is_any (addr);

  if (addr)
    g_object_unref (addr);
  return any;
}

/* The address ICE gathers on: --ice-address, else the loopback address
 * on loopback, else --host (unspecified: every interface) */
static const gchar *
ice_host (SvcPeer * peer)
{
  const gchar *host = peer->config->host;

  if (peer->config->ice_address)
    return peer->config->ice_address;
  if (peer->config->loopback)
    return strchr (host, ':') ? "::1" : "127.0.0.1";
  return host;
}

/* Gathering on one address (--host, or loopback), the UDP host candidate
 * of that address is all the answer needs: it need not wait for libnice
 * to call gathering done (about 200 ms, TCP candidates included). */
static gboolean
has_bound_host_candidate (SvcPeer * peer)
{
  GstWebRTCSessionDescription *desc = NULL;
  const gchar *host = ice_host (peer);
  gboolean have = FALSE;
  gchar **lines, *text, *needle;
  guint i;

  if (is_unspecified (host))
    return FALSE;
  g_object_get (peer->webrtc, "local-description", &desc, NULL);
  if (desc == NULL)
    return FALSE;
  text = gst_sdp_message_as_text (desc->sdp);
  gst_webrtc_session_description_free (desc);
  needle = g_strdup_printf (" %s ", host);
  lines = g_strsplit (text ? text : "", "\n", -1);
  for (i = 0; lines[i] && !have; i++)
    have = g_str_has_prefix (lines[i], "a=candidate:") &&
        strstr (lines[i], " UDP ") && strstr (lines[i], needle) &&
        strstr (lines[i], " typ host");
  g_strfreev (lines);
  g_free (needle);
  g_free (text);
  return have;
}

static gboolean
poll_gathering (gpointer data)
{
  SvcPeer *peer = data;
  GstWebRTCICEGatheringState state;

  if (peer->closed)
    return G_SOURCE_REMOVE;
  g_object_get (peer->webrtc, "ice-gathering-state", &state, NULL);
  if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE ||
      has_bound_host_candidate (peer)) {
    finish_answer (peer);
    return G_SOURCE_REMOVE;
  }
  if (g_get_monotonic_time () >= peer->gather_deadline) {
    GST_WARNING ("ICE gathering not complete after %u ms, answering with "
        "the candidates so far", peer->config->ice_timeout_ms);
    finish_answer (peer);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
start_gather_wait (gpointer data)
{
  SvcPeer *peer = data;
  GSource *source;

  if (peer->closed)
    return G_SOURCE_REMOVE;
  peer->gather_deadline = g_get_monotonic_time () +
      (gint64) peer->config->ice_timeout_ms * 1000;
  /* the host candidate is often there already */
  if (poll_gathering (peer) == G_SOURCE_REMOVE)
    return G_SOURCE_REMOVE;
  source = g_timeout_source_new (GATHER_POLL_MS);
  g_source_set_callback (source, poll_gathering, peer_ref (peer),
      (GDestroyNotify) peer_unref);
  peer->gather_source = g_source_attach (source, peer->context);
  g_source_unref (source);
  return G_SOURCE_REMOVE;
}

/* Emits @signal (@arg, a new promise) for @op, the promise answered by
 * @func. The promise holds a peer reference until it is freed; the peer
 * keeps a reference to it in pending[@op] until webrtcbin replies
 * (peer_op_done()) or svc_peer_free() interrupts it. Once the peer
 * stopped, nothing is emitted (FALSE). */
static gboolean
peer_emit (SvcPeer * peer, PeerOp op, const gchar * signal, gpointer arg,
    GstPromiseChangeFunc func)
{
  GstPromise *promise = gst_promise_new_with_change_func (func,
      peer_ref (peer), (GDestroyNotify) peer_unref);
  gboolean kept;

  g_mutex_lock (&peer->lock);
  kept = !peer->stopped && peer->pending[op] == NULL;
  if (kept)
    peer->pending[op] = gst_promise_ref (promise);
  g_mutex_unlock (&peer->lock);
  if (kept)
    g_signal_emit_by_name (peer->webrtc, signal, arg, promise);
  else
    /* never given to webrtcbin: @func sees INTERRUPTED */
    gst_promise_interrupt (promise);
  gst_promise_unref (promise);
  return kept;
}

/* What a change function starts with: TRUE when webrtcbin replied to
 * @promise. FALSE when svc_peer_free() interrupted it (it took the
 * peer's reference to the promise and drops it): the function then
 * touches nothing. */
static gboolean
peer_op_replied (GstPromise * promise)
{
  return gst_promise_wait (promise) == GST_PROMISE_RESULT_REPLIED;
}

/* What a change function that got a reply ends with: the peer's
 * reference to @promise let go, unless svc_peer_free() took it first.
 * Last: the promise may hold the last reference to the peer. */
static void
peer_op_done (SvcPeer * peer, PeerOp op, GstPromise * promise)
{
  gboolean mine;

  g_mutex_lock (&peer->lock);
  mine = peer->pending[op] == promise;
  if (mine)
    peer->pending[op] = NULL;
  g_mutex_unlock (&peer->lock);
  if (mine)
    gst_promise_unref (promise);
}

static void
on_local_description_set (GstPromise * promise, gpointer data)
{
  SvcPeer *peer = data;
  GSource *source;

  if (!peer_op_replied (promise))
    return;
  source = g_idle_source_new ();
  g_source_set_callback (source, start_gather_wait, peer_ref (peer),
      (GDestroyNotify) peer_unref);
  g_source_attach (source, peer->context);
  g_source_unref (source);
  peer_op_done (peer, OP_SET_LOCAL, promise);
}

static void
on_answer_created (GstPromise * promise, gpointer data)
{
  SvcPeer *peer = data;
  const GstStructure *reply;
  GstWebRTCSessionDescription *answer = NULL;

  if (!peer_op_replied (promise))
    return;
  reply = gst_promise_get_reply (promise);
  if (reply && !peer->closed)
    gst_structure_get (reply, "answer",
        GST_TYPE_WEBRTC_SESSION_DESCRIPTION, &answer, NULL);
  if (!answer) {
    post_event (peer, EV_NEGOTIATION_FAILED,
        "webrtcbin could not create an answer to the offer");
  } else {
    peer_emit (peer, OP_SET_LOCAL, "set-local-description", answer,
        on_local_description_set);
    gst_webrtc_session_description_free (answer);
  }
  peer_op_done (peer, OP_CREATE_ANSWER, promise);
}

static void
on_remote_description_set (GstPromise * promise, gpointer data)
{
  SvcPeer *peer = data;
  GstWebRTCSignalingState state;

  if (!peer_op_replied (promise))
    return;
  if (!peer->closed) {
    g_object_get (peer->webrtc, "signaling-state", &state, NULL);
    if (state != GST_WEBRTC_SIGNALING_STATE_HAVE_REMOTE_OFFER)
      post_event (peer, EV_NEGOTIATION_FAILED,
          "webrtcbin did not accept the offer");
    else
      peer_emit (peer, OP_CREATE_ANSWER, "create-answer", NULL,
          on_answer_created);
  }
  peer_op_done (peer, OP_SET_REMOTE, promise);
}

static gboolean
on_bus_message (GstBus * bus, GstMessage * message, gpointer data)
{
  SvcPeer *peer = data;

  if (GST_MESSAGE_TYPE (message) == GST_MESSAGE_ERROR && !peer->closed) {
    GError *error = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (message, &error, &debug);
    GST_WARNING ("pipeline error from %s: %s (%s)",
        GST_MESSAGE_SRC_NAME (message), error->message, debug);
    post_event (peer, EV_FAILED, error->message);
    g_error_free (error);
    g_free (debug);
  }
  return G_SOURCE_CONTINUE;
}

/* The bitrate of a REMB (draft-alvestrand-rmcat-remb: "REMB", the SSRC
 * count, a 6-bit exponent and an 18-bit mantissa, then the SSRCs) that
 * names @ssrc; FALSE for anything else. Every read is bounded by @words,
 * the FCI's length in 32-bit words. */
static gboolean
parse_remb (const guint8 * fci, guint words, guint32 ssrc, guint64 * bitrate)
{
  guint n, i, exp;
  guint64 mantissa;

  if (fci == NULL || words < 2 || memcmp (fci, "REMB", 4) != 0)
    return FALSE;
  n = fci[4];
  if (n == 0 || words < 2 + n)
    return FALSE;
  for (i = 0; i < n && GST_READ_UINT32_BE (fci + 8 + 4 * i) != ssrc; i++);
  if (i == n)
    return FALSE;
  exp = fci[5] >> 2;
  mantissa = ((guint64) (fci[5] & 0x03) << 16) | (fci[6] << 8) | fci[7];
  /* an 18-bit mantissa shifted by 45 or more leaves a gint64 (JSON) */
  *bitrate = exp >= 45 ? (guint64) G_MAXINT64 : mantissa << exp;
  return TRUE;
}

/* Counts the receiver's congestion feedback in one compound packet and
 * hands on its last REMB about the video. Any RTCP thread; bounded like
 * the reports (at most 16 packets looked at). */
static void
read_feedback (SvcPeer * peer, GstRTCPBuffer * rtcp)
{
  GstRTCPPacket packet;
  gboolean more, have_remb = FALSE;
  guint64 bitrate = 0, twcc = 0, rembs = 0, refused = 0;
  guint32 ssrc;
  guint n = 0;

  g_mutex_lock (&peer->lock);
  ssrc = peer->remb_ssrc;
  g_mutex_unlock (&peer->lock);
  for (more = gst_rtcp_buffer_get_first_packet (rtcp, &packet);
      more && n < 16; more = gst_rtcp_packet_move_to_next (&packet), n++) {
    GstRTCPType type = gst_rtcp_packet_get_type (&packet);
    GstRTCPFBType fmt;

    if (type != GST_RTCP_TYPE_RTPFB && type != GST_RTCP_TYPE_PSFB)
      continue;
    fmt = gst_rtcp_packet_fb_get_type (&packet);
    if (type == GST_RTCP_TYPE_RTPFB && fmt == GST_RTCP_RTPFB_TYPE_TWCC) {
      twcc++;
    } else if (type == GST_RTCP_TYPE_PSFB && fmt == GST_RTCP_PSFB_TYPE_AFB) {
      if (ssrc && parse_remb (gst_rtcp_packet_fb_get_fci (&packet),
              gst_rtcp_packet_fb_get_fci_length (&packet), ssrc, &bitrate)) {
        rembs++;
        have_remb = TRUE;
      } else {
        refused++;
      }
    }
  }
  if (twcc + rembs + refused == 0)
    return;
  g_mutex_lock (&peer->lock);
  peer->feedback.twcc_received += twcc;
  peer->feedback.rembs_received += rembs;
  peer->feedback.rembs_refused += refused;
  if (have_remb)
    peer->feedback.remb_bitrate = bitrate;
  g_mutex_unlock (&peer->lock);
  if (have_remb) {
    PeerEvent *ev = peer_event_new (peer, EV_REMB, NULL);

    ev->bitrate = bitrate;
    peer_event_post (ev);
  }
}

/* A receiver can put audio and video in sync only once it has a sender
 * report for each: RTCP every second, as libwebrtc sends for video (its
 * first report within about half a second then), not rtpsession's 5 s
 * (the first one up to 2.5 s late, when the first sync marker is long
 * shown). */
static void
on_receiving_rtcp (GObject * session, GstBuffer * buffer, SvcPeer * peer)
{
  GstRTCPBuffer rtcp = GST_RTCP_BUFFER_INIT;
  GstRTCPPacket packet;
  gboolean more;
  guint n = 0;

  /* any RTCP thread; bounded: a receiver's compound packet holds a few
   * packets of a few report blocks */
  if (!gst_rtcp_buffer_map (buffer, GST_MAP_READ, &rtcp))
    return;
  for (more = gst_rtcp_buffer_get_first_packet (&rtcp, &packet);
      more && n < 16; more = gst_rtcp_packet_move_to_next (&packet), n++) {
    GstRTCPType type = gst_rtcp_packet_get_type (&packet);
    guint i, count;

    if (type != GST_RTCP_TYPE_RR && type != GST_RTCP_TYPE_SR)
      continue;
    count = MIN (gst_rtcp_packet_get_rb_count (&packet), 31);
    for (i = 0; i < count; i++) {
      guint32 ssrc, exthighestseq, jitter, lsr, dlsr;
      guint8 fractionlost;
      gint32 packetslost;
      PeerEvent *ev;

      gst_rtcp_packet_get_rb (&packet, i, &ssrc, &fractionlost, &packetslost,
          &exthighestseq, &jitter, &lsr, &dlsr);
      ev = peer_event_new (peer, EV_LOSS, NULL);
      ev->ssrc = ssrc;
      ev->lost = packetslost;
      ev->highest = exthighestseq;
      peer_event_post (ev);
    }
  }
  read_feedback (peer, &rtcp);
  gst_rtcp_buffer_unmap (&rtcp);
}

/* The receiver's reports (for the audio's in-band FEC, media.c) come
 * through the session's internal RTPSession. */
static void
on_rtpbin_element_added (GstBin * rtpbin, GstElement * element, SvcPeer * peer)
{
  GstElementFactory *factory = gst_element_get_factory (element);
  GObject *internal = NULL;

  if (factory == NULL ||
      g_strcmp0 (GST_OBJECT_NAME (factory), "rtpsession") != 0)
    return;
  g_object_set (element, "rtcp-min-interval", (guint64) GST_SECOND, NULL);
  g_object_get (element, "internal-session", &internal, NULL);
  if (internal == NULL)
    return;
  g_mutex_lock (&peer->lock);
  if (peer->rtp_session == NULL && !peer->stopped) {
    /* disconnected in svc_peer_free, once the pipeline stopped */
    g_signal_connect (internal, "on-receiving-rtcp",
        G_CALLBACK (on_receiving_rtcp), peer);
    peer->rtp_session = internal;
    peer->rtp_session_element = gst_object_ref (element);
    internal = NULL;
  }
  g_mutex_unlock (&peer->lock);
  g_clear_object (&internal);
}

/* webrtcbins not finalized yet, and when the last one was (monotonic
 * time); written from any thread */
G_LOCK_DEFINE_STATIC (alive);
static guint alive_count;

static void
webrtc_finalized (gpointer data, GObject * where_the_object_was)
{
  G_LOCK (alive);
  alive_count--;
  G_UNLOCK (alive);
}

/* How many webrtcbins of this process are not finalized yet */
guint
svc_peer_count_alive (void)
{
  guint n;

  G_LOCK (alive);
  n = alive_count;
  G_UNLOCK (alive);
  return n;
}

SvcPeer *
svc_peer_new (const SvcConfig * config, const SvcPeerCallbacks * callbacks,
    gpointer user_data)
{
  SvcPeer *peer = g_new0 (SvcPeer, 1);
  GstBus *bus;

  peer->ref_count = 1;
  g_mutex_init (&peer->lock);
  peer->config = config;
  peer->callbacks = *callbacks;
  peer->user_data = user_data;
  peer->context = g_main_context_ref_thread_default ();
  peer->candidates = g_ptr_array_new_with_free_func (g_free);
  peer->remb_pt = -1;
  peer->feedback.twcc_loss_pct = -1;

  peer->pipeline = gst_pipeline_new (NULL);
  peer->webrtc = gst_object_ref (gst_element_factory_make ("webrtcbin",
          "webrtc"));
  g_object_set (peer->webrtc, "bundle-policy",
      GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
  gst_bin_add (GST_BIN (peer->pipeline), peer->webrtc);
  {
    /* sender reports pair each RTP time with the instant it was captured
     * (the buffer's running time), as a browser's do, not with when the
     * packet left: an encoder that falls behind on a loaded machine would
     * otherwise move the receiver's lip-sync by its delay (hundreds of ms,
     * measured) */
    GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (peer->webrtc),
        "rtpbin");

    if (rtpbin) {
      g_object_set (rtpbin, "rtcp-sync-send-time", FALSE, NULL);
      /* disconnected in svc_peer_free, once the pipeline stopped */
      peer->element_added_handler = g_signal_connect (rtpbin,
          "element-added", G_CALLBACK (on_rtpbin_element_added), peer);
      peer->rtpbin = rtpbin;
    }
  }
  G_LOCK (alive);
  alive_count++;
  G_UNLOCK (alive);
  g_object_weak_ref (G_OBJECT (peer->webrtc), webrtc_finalized, NULL);

  /* SCTP association ids in turn (a random one may be still in use) */
  gst_session_sctp_ids_assign (peer->webrtc);
  g_signal_connect (peer->webrtc, "on-data-channel",
      G_CALLBACK (on_data_channel), peer);
  g_signal_connect (peer->webrtc, "on-ice-candidate",
      G_CALLBACK (on_ice_candidate), peer);
  g_signal_connect (peer->webrtc, "notify::ice-connection-state",
      G_CALLBACK (on_ice_connection_state), peer);

  bus = gst_pipeline_get_bus (GST_PIPELINE (peer->pipeline));
  peer->bus_watch = gst_bus_add_watch (bus, on_bus_message, peer);
  gst_object_unref (bus);
  return peer;
}

GstBin *
svc_peer_get_pipeline (SvcPeer * peer)
{
  return GST_BIN (peer->pipeline);
}

/* Links @src (an RTP payloader's pad) to a new send-only transceiver. Call
 * in the order of the offer's m-lines: webrtcbin pairs unassociated
 * transceivers with m-lines in order. */
gboolean
svc_peer_add_stream (SvcPeer * peer, GstPad * src, SvcStreamKind kind,
    const SvcOffer * offer, GError ** error)
{
  GstPadTemplate *templ;
  GstPad *sink;
  GstCaps *caps;
  GstWebRTCRTPTransceiver *trans = NULL;

  if (kind == SVC_STREAM_VIDEO)
    caps = gst_caps_new_simple ("application/x-rtp", "media", G_TYPE_STRING,
        "video", "encoding-name", G_TYPE_STRING,
        offer->codec == SVC_CODEC_H264 ? "H264" : "VP8", "payload",
        G_TYPE_INT, offer->video_pt, "clock-rate", G_TYPE_INT, 90000, NULL);
  else
    caps = gst_caps_new_simple ("application/x-rtp", "media", G_TYPE_STRING,
        "audio", "encoding-name", G_TYPE_STRING, "OPUS", "payload",
        G_TYPE_INT, offer->audio_pt, "clock-rate", G_TYPE_INT, 48000, NULL);
  /* the stream's SSRC chosen now, so that the answer names it: GStreamer
   * 1.22 makes the answer before the payloader has one, and wrote
   * "a=ssrc-group:FID 0 <rtx>" (Chromium then decoded the video but never
   * showed it; a client that finds its retransmission stream by the
   * answer's SSRCs asked for none). The payloader takes it from these caps
   * when it negotiates. */
  gst_caps_set_simple (caps, "ssrc", G_TYPE_UINT, g_random_int (), NULL);
  /* the offer's transport-cc extension: the payloader then writes it
   * (auto-header-extension) and rtpsession numbers every packet in it,
   * both from these caps; the answer names it too */
  {
    guint id = kind == SVC_STREAM_VIDEO ? offer->twcc_ext_id :
        offer->audio_twcc_ext_id;
    gchar *field = g_strdup_printf ("extmap-%u", id);

    if (id && !peer->config->no_transport_cc)
      gst_caps_set_simple (caps, field, G_TYPE_STRING, SVC_TWCC_URI, NULL);
    g_free (field);
  }
  if (kind == SVC_STREAM_VIDEO) {
    g_mutex_lock (&peer->lock);
    gst_structure_get_uint (gst_caps_get_structure (caps, 0), "ssrc",
        &peer->remb_ssrc);
    g_mutex_unlock (&peer->lock);
    peer->remb_pt = offer->goog_remb ? (gint) offer->video_pt : -1;
  }

  templ = gst_element_get_pad_template (peer->webrtc, "sink_%u");
  sink = gst_element_request_pad (peer->webrtc, templ, NULL, caps);
  if (!sink) {
    gst_caps_unref (caps);
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "webrtcbin refused a sink pad");
    return FALSE;
  }
  g_object_get (sink, "transceiver", &trans, NULL);
  if (trans) {
    g_object_set (trans, "direction",
        GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_SENDONLY, "codec-preferences",
        caps, NULL);
    /* video: answer NACKs with retransmissions (RTX, RFC 4588) when the
     * offer has an rtx payload type, as a browser sender does; a PLI or
     * FIR reaches the encoder (or the cached loop) as a key unit request
     * through rtpbin */
    if (kind == SVC_STREAM_VIDEO)
      g_object_set (trans, "do-nack", TRUE, NULL);
    /* and ULPFEC in RED when the offer has both (a browser's does) */
    if (kind == SVC_STREAM_VIDEO && offer->video_fec) {
      g_object_set (trans, "fec-type", GST_WEBRTC_FEC_TYPE_ULP_RED,
          "fec-percentage", 0u, NULL);
      gst_structure_get_uint (gst_caps_get_structure (caps, 0), "ssrc",
          &peer->video_ssrc);
      gst_object_replace ((GstObject **) & peer->fec_trans, GST_OBJECT (trans));
    }
    gst_object_unref (trans);
  }
  gst_caps_unref (caps);
  if (gst_pad_link (src, sink) != GST_PAD_LINK_OK) {
    gst_object_unref (sink);
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "cannot link a stream to webrtcbin");
    return FALSE;
  }
  gst_object_unref (sink);
  return TRUE;
}


gboolean
svc_peer_start (SvcPeer * peer, const gchar * offer_sdp, GError ** error)
{
  GstSDPMessage *sdp;
  GstWebRTCSessionDescription *offer;
  GstElement *ice = NULL;

  /* libnice skips loopback interfaces; with an address added it gathers on
   * the added addresses only */
  g_object_get (peer->webrtc, "ice-agent", &ice, NULL);
  if (ice) {
    const gchar *host = ice_host (peer);
    gboolean ok = FALSE;

    if (!is_unspecified (host))
      g_signal_emit_by_name (ice, "add-local-ip-address", host, &ok);
    /* UDP on loopback is all it takes: no TCP candidates */
    if (peer->config->loopback &&
        g_object_class_find_property (G_OBJECT_GET_CLASS (ice), "ice-tcp"))
      g_object_set (ice, "ice-tcp", FALSE, NULL);
    gst_object_unref (ice);
  }

  if (gst_element_set_state (peer->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "the session pipeline does not start");
    return FALSE;
  }

  if (gst_sdp_message_new_from_text (offer_sdp, &sdp) != GST_SDP_OK) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "the offer is not a valid SDP description");
    return FALSE;
  }
  offer = gst_webrtc_session_description_new (GST_WEBRTC_SDP_TYPE_OFFER, sdp);
  peer_emit (peer, OP_SET_REMOTE, "set-remote-description", offer,
      on_remote_description_set);
  gst_webrtc_session_description_free (offer);
  return TRUE;
}

gboolean
svc_peer_send (SvcPeer * peer, const gchar * text)
{
  GstWebRTCDataChannel *channel = NULL;
  GError *error = NULL;
  gboolean ok;

  g_mutex_lock (&peer->lock);
  if (peer->channel)
    channel = gst_object_ref (peer->channel);
  g_mutex_unlock (&peer->lock);
  if (!channel || peer->closed) {
    if (channel)
      gst_object_unref (channel);
    return FALSE;
  }
  ok = gst_webrtc_data_channel_send_string_full (channel, text, &error);
  if (!ok) {
    GST_WARNING ("cannot send on the data channel: %s", error->message);
    g_error_free (error);
  }
  gst_object_unref (channel);
  return ok;
}

/* The receiver's congestion feedback so far, and rtpsession's reading of
 * the TWCC feedback (the loss and the rate it reports) */
void
svc_peer_get_feedback (SvcPeer * peer, SvcPeerFeedback * feedback)
{
  GstElement *session = NULL;
  GstStructure *twcc = NULL;

  g_mutex_lock (&peer->lock);
  *feedback = peer->feedback;
  if (peer->rtp_session_element)
    session = gst_object_ref (peer->rtp_session_element);
  g_mutex_unlock (&peer->lock);
  if (session == NULL)
    return;
  g_object_get (session, "twcc-stats", &twcc, NULL);
  if (twcc) {
    gst_structure_get_double (twcc, "packet-loss-pct",
        &feedback->twcc_loss_pct);
    gst_structure_get_uint (twcc, "bitrate-recv", &feedback->twcc_bitrate_recv);
    gst_structure_get_int64 (twcc, "avg-delta-of-delta",
        &feedback->twcc_delay_growth);
    gst_structure_free (twcc);
  }
  gst_object_unref (session);
}

guint64
svc_peer_get_buffered_amount (SvcPeer * peer)
{
  guint64 amount = 0;

  g_mutex_lock (&peer->lock);
  if (peer->channel)
    g_object_get (peer->channel, "buffered-amount", &amount, NULL);
  g_mutex_unlock (&peer->lock);
  return amount;
}

gboolean
svc_peer_channel_is_open (SvcPeer * peer)
{
  return peer->open_reported && !peer->closed;
}

void
svc_peer_close_channel (SvcPeer * peer)
{
  GstWebRTCDataChannel *channel = NULL;

  g_mutex_lock (&peer->lock);
  if (peer->channel)
    channel = gst_object_ref (peer->channel);
  g_mutex_unlock (&peer->lock);
  if (channel) {
    gst_webrtc_data_channel_close (channel);
    gst_object_unref (channel);
  }
}


/* Stops the pipeline (the media must be stopped first) and drops the
 * peer; no callback runs after this. */
void
svc_peer_free (SvcPeer * peer)
{
  GstWebRTCDataChannel *channel;
  GObject *rtp_session;
  GstPromise *pending[N_OPS];
  guint i;

  peer->closed = TRUE;
  if (peer->gather_source) {
    GSource *source = g_main_context_find_source_by_id (peer->context,
        peer->gather_source);
    if (source)
      g_source_destroy (source);
    peer->gather_source = 0;
  }
  if (peer->bus_watch)
    g_source_remove (peer->bus_watch);
  gst_session_webrtc_stop_channel_senders (peer->webrtc);
  gst_element_set_state (peer->pipeline, GST_STATE_NULL);

  /* webrtcbin's thread is gone, with the operations it had queued and
   * never replied to */
  g_mutex_lock (&peer->lock);
  peer->stopped = TRUE;
  for (i = 0; i < N_OPS; i++) {
    pending[i] = peer->pending[i];
    peer->pending[i] = NULL;
  }
  channel = peer->channel;
  peer->channel = NULL;
  rtp_session = peer->rtp_session;
  peer->rtp_session = NULL;
  gst_clear_object (&peer->rtp_session_element);
  g_mutex_unlock (&peer->lock);
  for (i = 0; i < N_OPS; i++) {
    if (pending[i] == NULL)
      continue;
    /* nothing if webrtcbin replied meanwhile; the change function sees
     * INTERRUPTED otherwise */
    gst_promise_interrupt (pending[i]);
    gst_promise_unref (pending[i]);
  }
  if (peer->rtpbin) {
    g_signal_handler_disconnect (peer->rtpbin, peer->element_added_handler);
    gst_clear_object (&peer->rtpbin);
  }
  if (rtp_session) {
    g_signal_handlers_disconnect_by_data (rtp_session, peer);
    g_object_unref (rtp_session);
  }
  if (channel) {
    g_signal_handlers_disconnect_by_data (channel, peer);
    gst_object_unref (channel);
  }
  g_signal_handlers_disconnect_by_data (peer->webrtc, peer);
  gst_clear_object (&peer->fec_trans);
  gst_object_unref (peer->pipeline);
  peer->pipeline = NULL;
  peer_unref (peer);
}
