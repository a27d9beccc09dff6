/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session stage: one negotiated WebRTC session, replaceable. A private
 * pipeline (so webrtcbin's sinks, errors and EOS never leak into the
 * user's pipeline) that shares the element's clock and base time:
 *
 *   webrtcbin ─► depay ─► [parse] ─► [decode ─► convert] ─► appsink ─► output
 *            └─ data channel "control" (created before the offer)
 *
 * No trickle ICE: the offer is posted once gathering is complete. GStreamer
 * 1.22.0 can lose the "complete" notification, so the gathering state is
 * also polled, with a timeout after which the candidates found so far are
 * used. When the service is on loopback, libnice is told to gather on
 * 127.0.0.1 only (it skips loopback interfaces otherwise). On every path
 * libnice paces its checks 5 ms apart until ICE connects (then its own
 * pacing again): an offer of a few candidates has a few pairs.
 *
 * This file builds the stage, gathers and offers, and carries the data
 * channel; the incoming streams and their loss recovery are in
 * gstsessionstage-media.c, the transport statistics and the congestion
 * feedback (REMB, TWCC) in gstsessionstage-stats.c.
 *
 * Threads: webrtcbin calls back on its own threads; everything but samples
 * and channel messages is marshalled to the owner's context. A stage is
 * reference counted so that marshalled calls never touch freed memory; once
 * freed (dead) it makes no more callbacks.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/webrtc/webrtc.h>
#include <gst/sdp/sdp.h>

#include <gst/session/elementcheck.h>
#include <gst/session/message.h>
#include <gst/session/teardown.h>

#include "gstsessionstage-private.h"
#include "gstsessiontaskpool.h"

GST_DEBUG_CATEGORY (session_stage_debug);
#define GST_CAT_DEFAULT session_stage_debug

/* libnice's check pacing until ICE connects, in ms (see configure_ice) */
#define CONNECT_PACING_MS 5u

#define GATHER_POLL_MS 5
/* the jitterbuffer's latency until media flows (see gst_session_stage_new) */
#define START_LATENCY_MS 20u
/* host candidates of the other interfaces come within this of the first */
#define GATHER_HOST_GRACE_MS 10

/* rtpsession's rtcp-min-interval, and the session's RTCP bandwidth (bit/s;
 * a value over 1 is absolute), which bounds the report interval from
 * below too. A NACK or PLI goes at once only when no early feedback went
 * since the last regular report; otherwise it waits for the next one, so
 * the interval is a request's longest wait. At 100 ms and 64 kbit/s the
 * element's reports went 77 ms apart (median; 146 ms at most) and a
 * second request of a lost packet could miss the jitterbuffer's latency
 * (net/loss-director lost a packet for good in 1 of 9 runs at 150 ms);
 * at 25 ms and 120 kbit/s they go 27-33 ms apart (47 ms at most), about
 * 40 kbit/s of IP traffic toward the service (tests/net/loss-recovery
 * --keep, the netpath trace). Left to rtpsession (5 % of a session
 * bandwidth it takes as 64 kbit/s) the interval came out at 500-850 ms.
 * tests/net/loss-recovery checks 20 reports a second or more (26-33; 9.6
 * at 100 ms and 64 kbit/s). */
#define FEEDBACK_INTERVAL ((guint64) (25 * GST_MSECOND))
#define FEEDBACK_BANDWIDTH 120000.0

/* transport-wide congestion control (TWCC): the sender numbers every
 * packet in this header extension, and rtpsession reports each one's
 * arrival time (RTPFB 15) once the answer maps it. Both media carry it,
 * with the same id (one numbering under BUNDLE). */
#define TWCC_EXTMAP "extmap-3=(string)" \
  "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"


GstSessionStage *
stage_ref (GstSessionStage * stage)
{
  g_atomic_int_inc (&stage->refcount);
  return stage;
}

void
stage_unref (GstSessionStage * stage)
{
  if (!g_atomic_int_dec_and_test (&stage->refcount))
    return;
  g_clear_object (&stage->paced_agent);
  g_clear_object (&stage->channel);
  gst_clear_object (&stage->webrtc);
  gst_clear_object (&stage->pipeline);
  gst_clear_object (&stage->task_pool);
  gst_clear_object (&stage->config.clock);
  g_main_context_unref (stage->context);
  g_free (stage->stun_server);
  g_free (stage->turn_server);
  g_free (stage->channel_label);
  g_ptr_array_unref (stage->jitterbuffers);
  gst_clear_object (&stage->video_sink);
  g_free (stage->candidate_type);
  g_mutex_clear (&stage->lock);
  g_free (stage);
}

gboolean
stage_is_dead (GstSessionStage * stage)
{
  gboolean dead;

  g_mutex_lock (&stage->lock);
  dead = stage->dead;
  g_mutex_unlock (&stage->lock);
  return dead;
}

void
stage_mark (GstSessionStage * stage, gint64 * field)
{
  g_mutex_lock (&stage->lock);
  if (*field == 0)
    *field = g_get_monotonic_time ();
  g_mutex_unlock (&stage->lock);
}

/* ---- marshalling to the owner's context ---- */

typedef struct
{
  GstSessionStage *stage;
  StageFunc func;
  gpointer data;
  GDestroyNotify free_data;
} Call;

static gboolean
call_dispatch (gpointer user_data)
{
  Call *c = user_data;

  if (!stage_is_dead (c->stage))
    c->func (c->stage, c->data);
  return G_SOURCE_REMOVE;
}

static void
call_free (gpointer user_data)
{
  Call *c = user_data;

  if (c->free_data && c->data)
    c->free_data (c->data);
  stage_unref (c->stage);
  g_free (c);
}

void
stage_invoke (GstSessionStage * stage, StageFunc func, gpointer data,
    GDestroyNotify free_data)
{
  Call *c = g_new0 (Call, 1);
  GSource *src = g_idle_source_new ();

  c->stage = stage_ref (stage);
  c->func = func;
  c->data = data;
  c->free_data = free_data;
  g_source_set_priority (src, G_PRIORITY_DEFAULT);
  g_source_set_callback (src, call_dispatch, c, call_free);
  g_source_attach (src, stage->context);
  g_source_unref (src);
}

void
stage_fail (GstSessionStage * stage, GError * error)
{
  GST_WARNING_OBJECT (stage->owner, "session stage failed: %s", error->message);
  if (!stage_is_dead (stage) && stage->cb.failed)
    stage->cb.failed (stage, error, stage->user_data);
  g_error_free (error);
}

static void
fail_in_context (GstSessionStage * stage, gpointer data)
{
  GError *err = data;

  stage_fail (stage, g_error_copy (err));
}

void
stage_fail_async (GstSessionStage * stage, GError * error)
{
  stage_invoke (stage, fail_in_context, error, (GDestroyNotify) g_error_free);
}

/* ---- promises given to webrtcbin ---- */

/* webrtcbin 1.22 never replies to a promise still queued when it stops,
 * so each one in flight sits in the stage's slot of its kind, and
 * gst_session_stage_free interrupts those left once the pipeline is in
 * NULL. Whoever takes a promise out of its slot drops the slot's ref. */

/* A new promise of @kind for webrtcbin, in its slot, calling @func; the
 * caller emits with it, then unrefs it. NULL once the stage is freed, or
 * for statistics while the last request is still unanswered (it is
 * skipped). An earlier promise of @kind still in the slot is
 * interrupted. */
GstPromise *
stage_promise_new (GstSessionStage * stage, StagePromise kind,
    GstPromiseChangeFunc func)
{
  GstPromise *promise, *old;

  g_mutex_lock (&stage->lock);
  if (stage->dead || (kind == STAGE_PROMISE_STATS && stage->promises[kind])) {
    g_mutex_unlock (&stage->lock);
    return NULL;
  }
  promise = gst_promise_new_with_change_func (func, stage_ref (stage),
      (GDestroyNotify) stage_unref);
  old = stage->promises[kind];
  stage->promises[kind] = gst_promise_ref (promise);
  g_mutex_unlock (&stage->lock);
  if (old) {
    /* nothing if it was replied meanwhile */
    gst_promise_interrupt (old);
    gst_promise_unref (old);
  }
  return promise;
}

/* In a change function: whether @promise was replied to and the stage is
 * still in use (not interrupted, expired or torn down) */
gboolean
stage_promise_replied (GstSessionStage * stage, GstPromise * promise)
{
  /* not pending in its change function: no wait */
  return gst_promise_wait (promise) == GST_PROMISE_RESULT_REPLIED &&
      !stage_is_dead (stage);
}

/* The end of @promise's change function: its slot lets it go, unless it
 * was taken out already (then the taker drops it). The caller of the
 * change function holds a reference of its own. */
void
stage_promise_release (GstSessionStage * stage, StagePromise kind,
    GstPromise * promise)
{
  gboolean owned;

  g_mutex_lock (&stage->lock);
  owned = stage->promises[kind] == promise;
  if (owned)
    stage->promises[kind] = NULL;
  g_mutex_unlock (&stage->lock);
  if (owned)
    gst_promise_unref (promise);
}

/* Once webrtcbin stopped (NULL): every promise still in a slot is
 * interrupted (its change function runs and does nothing; nothing if it
 * was replied) and dropped, and with its last holder its stage
 * reference. */
static void
interrupt_promises (GstSessionStage * stage)
{
  GstPromise *left[STAGE_N_PROMISES];
  guint i;

  g_mutex_lock (&stage->lock);
  for (i = 0; i < STAGE_N_PROMISES; i++) {
    left[i] = stage->promises[i];
    stage->promises[i] = NULL;
  }
  g_mutex_unlock (&stage->lock);
  for (i = 0; i < STAGE_N_PROMISES; i++) {
    if (left[i] == NULL)
      continue;
    GST_DEBUG_OBJECT (stage->owner, "promise %u unanswered: interrupted", i);
    gst_promise_interrupt (left[i]);
    gst_promise_unref (left[i]);
  }
}

/* ---- plugins ---- */

gboolean
gst_session_stage_check_plugins (gboolean audio, GError ** error)
{
  /* every element a stage may create, with its Debian package */
  static const GstSessionElementNeed needed[] = {
    {"webrtcbin", "gstreamer1.0-plugins-bad"},
    {"nicesrc", "gstreamer1.0-nice"},
    {"nicesink", "gstreamer1.0-nice"},
    {"dtlssrtpdec", "gstreamer1.0-plugins-bad"},
    {"dtlssrtpenc", "gstreamer1.0-plugins-bad"},
    {"srtpdec", "gstreamer1.0-plugins-bad"},
    {"srtpenc", "gstreamer1.0-plugins-bad"},
    {"sctpdec", "gstreamer1.0-plugins-bad"},
    {"sctpenc", "gstreamer1.0-plugins-bad"},
    {"rtpbin", "gstreamer1.0-plugins-good"},
    {"appsink", "gstreamer1.0-plugins-base"},
    {"rtpvp8depay", "gstreamer1.0-plugins-good"},
    {"vp8dec", "gstreamer1.0-plugins-good"},
    {"rtph264depay", "gstreamer1.0-plugins-good"},
    {"h264parse", "gstreamer1.0-plugins-bad"},
    {"avdec_h264", "gstreamer1.0-libav"},
    /* audio from here */
    {"rtpopusdepay", "gstreamer1.0-plugins-good"},
    {"opusdec", "gstreamer1.0-plugins-base"},
    {"opusparse", "gstreamer1.0-plugins-bad"},
    {"audioconvert", "gstreamer1.0-plugins-base"},
    {"audioresample", "gstreamer1.0-plugins-base"},
  };
  guint n = G_N_ELEMENTS (needed);

  if (!audio)
    n -= 5;                     /* the five audio elements at the end */
  return gst_session_check_elements (needed, n, error);
}

/* ---- debug ---- */

static void
init_debug (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    GST_DEBUG_CATEGORY_INIT (session_stage_debug, "sessionstage", 0,
        "session source: one negotiated WebRTC session");
    g_once_init_leave (&done, 1);
  }
}

/* ---- data channel ---- */

static void
channel_open_in_context (GstSessionStage * stage, gpointer data)
{
  stage_mark (stage, &stage->times.channel_open);
  if (stage->cb.channel_open)
    stage->cb.channel_open (stage, stage->user_data);
}

static void
channel_closed_in_context (GstSessionStage * stage, gpointer data)
{
  if (stage->cb.channel_closed)
    stage->cb.channel_closed (stage, stage->user_data);
}

static void
on_channel_open (GstWebRTCDataChannel * channel, GstSessionStage * stage)
{
  /* the SCTP plugin made its first association by now */
  gst_session_sctp_guard_install ();
  stage_invoke (stage, channel_open_in_context, NULL, NULL);
}

static void
on_channel_close (GstWebRTCDataChannel * channel, GstSessionStage * stage)
{
  stage_invoke (stage, channel_closed_in_context, NULL, NULL);
}

static void
on_channel_message (GstWebRTCDataChannel * channel, const gchar * text,
    GstSessionStage * stage)
{
  if (text && !stage_is_dead (stage) && stage->cb.channel_message)
    stage->cb.channel_message (stage, text, stage->user_data);
}

static void
binary_refused_in_context (GstSessionStage * stage, gpointer data)
{
  /* as the controllers' warning for a malformed text message */
  GST_ELEMENT_WARNING (stage->owner, STREAM, FAILED, ("%s",
          (const gchar *) data), (NULL));
}

/* A binary message is read as text (docs/protocol.md, Conventions). Text
 * is handed on NUL-terminated, so a message that is not valid text (a NUL
 * byte, bytes that are not UTF-8) or is over the size bound of text is
 * refused here, whole, as the parser refuses such text: never cut at its
 * first NUL and the rest read. */
static void
on_channel_data (GstWebRTCDataChannel * channel, GBytes * data,
    GstSessionStage * stage)
{
  gsize size = 0;
  const gchar *bytes = data ? g_bytes_get_data (data, &size) : NULL;
  const gchar *bad = NULL;
  gchar *text;

  if (bytes == NULL)
    bytes = "";
  if (size > GST_SESSION_MESSAGE_MAX_SIZE) {
    text = g_strdup_printf ("invalid message from the service, skipped: "
        "binary message: %" G_GSIZE_FORMAT " bytes, at most %d allowed",
        size, GST_SESSION_MESSAGE_MAX_SIZE);
  } else if (!g_utf8_validate_len (bytes, size, &bad)) {
    text = g_strdup_printf ("invalid message from the service, skipped: "
        "binary message of %" G_GSIZE_FORMAT " bytes: not valid UTF-8 text "
        "(%s at byte %" G_GSIZE_FORMAT ")", size,
        *bad == '\0' ? "a NUL byte" : "an invalid byte", (gsize) (bad - bytes));
  } else {
    text = g_strndup (bytes, size);
    on_channel_message (channel, text, stage);
    g_free (text);
    return;
  }
  GST_WARNING_OBJECT (stage->owner, "%s", text);
  if (stage_is_dead (stage))
    g_free (text);
  else
    stage_invoke (stage, binary_refused_in_context, text, g_free);
}

/* ---- ICE ---- */

static void
connected_in_context (GstSessionStage * stage, gpointer data)
{
  if (stage->cb.connected)
    stage->cb.connected (stage, stage->user_data);
}

static void
on_ice_connection_state (GstElement * webrtc, GParamSpec * pspec,
    GstSessionStage * stage)
{
  GstWebRTCICEConnectionState state;

  g_object_get (webrtc, "ice-connection-state", &state, NULL);
  GST_DEBUG_OBJECT (stage->owner, "ICE connection state %d", state);
  if (state == GST_WEBRTC_ICE_CONNECTION_STATE_CONNECTED ||
      state == GST_WEBRTC_ICE_CONNECTION_STATE_COMPLETED) {
    stage_mark (stage, &stage->times.connected);
    /* connected: libnice's own pacing again, for what it still checks */
    if (stage->paced_agent)
      g_object_set (stage->paced_agent, "stun-pacing-timer",
          stage->own_pacing, NULL);
    stage_invoke (stage, connected_in_context, NULL, NULL);
  } else if (state == GST_WEBRTC_ICE_CONNECTION_STATE_FAILED) {
    stage_fail_async (stage, g_error_new_literal (GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_OPEN_READ,
            "ICE failed: the service could not be reached"));
  }
}

static gchar *
local_sdp (GstSessionStage * stage)
{
  GstWebRTCSessionDescription *desc = NULL;
  gchar *text;

  g_object_get (stage->webrtc, "local-description", &desc, NULL);
  if (desc == NULL)
    return NULL;
  text = gst_sdp_message_as_text (desc->sdp);
  gst_webrtc_session_description_free (desc);
  return text;
}

static void
send_offer (GstSessionStage * stage, gboolean complete)
{
  gchar *sdp;

  if (stage->offer_sent)
    return;
  if (stage->gather_source) {
    g_source_destroy (stage->gather_source);
    g_source_unref (stage->gather_source);
    stage->gather_source = NULL;
  }
  sdp = local_sdp (stage);
  if (sdp == NULL || strstr (sdp, "a=candidate") == NULL) {
    g_free (sdp);
    stage_fail (stage, g_error_new_literal (GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_OPEN_READ,
            "ICE gathering found no candidate address"));
    return;
  }
  stage->offer_sent = TRUE;
  stage_mark (stage, &stage->times.gathered);
  GST_INFO_OBJECT (stage->owner, "offer ready (gathering %s)",
      complete ? "complete" : "timed out");
  GST_DEBUG_OBJECT (stage->owner, "offer:\n%s", sdp);
  if (stage->cb.offer_ready)
    stage->cb.offer_ready (stage, sdp, stage->user_data);
  g_free (sdp);
}

/* Whether the local description has a candidate line with all of
 * @needles (NULL-terminated) */
static gboolean
has_candidate (const gchar * sdp, ...)
{
  const gchar *line = sdp;
  va_list args;

  while (line && (line = strstr (line, "a=candidate:"))) {
    const gchar *end = strchr (line, '\n');
    gchar *one = end ? g_strndup (line, end - line) : g_strdup (line);
    const gchar *needle;
    gboolean all = TRUE;

    va_start (args, sdp);
    while (all && (needle = va_arg (args, const gchar *)))
        all = strstr (one, needle) != NULL;
    va_end (args);
    g_free (one);
    if (all)
      return TRUE;
    line = end;
  }
  return FALSE;
}

/* Enough candidates to offer: on loopback the 127.0.0.1 host candidate;
 * elsewhere the UDP host candidates (libnice adds those of every
 * interface at once, when gathering starts; GATHER_HOST_GRACE_MS lets the
 * last of them in), and the server-reflexive one when a STUN server is
 * set, the relayed one when a TURN server is. Anything else is not worth
 * waiting for; gathering-timeout bounds the wait. */
static gboolean
enough_candidates (GstSessionStage * stage)
{
  gchar *sdp = local_sdp (stage);
  gboolean enough = FALSE;
  gint64 now = g_get_monotonic_time ();

  if (sdp == NULL)
    return FALSE;
  if (stage->config.loopback_only) {
    enough = has_candidate (sdp, " 127.0.0.1 ", " typ host", NULL);
  } else if (has_candidate (sdp, " UDP ", " typ host", NULL)) {
    if (stage->host_seen == 0)
      stage->host_seen = now;
    enough = now - stage->host_seen >= GATHER_HOST_GRACE_MS * 1000 &&
        (stage->stun_server == NULL ||
        has_candidate (sdp, " typ srflx", NULL)) &&
        (stage->turn_server == NULL || has_candidate (sdp, " typ relay", NULL));
  }
  g_free (sdp);
  return enough;
}

/* Polls the gathering state: 1.22.0 can lose the notification. */
static gboolean
gather_poll (gpointer user_data)
{
  GstSessionStage *stage = user_data;
  GstWebRTCICEGatheringState state;

  if (stage_is_dead (stage))
    return G_SOURCE_REMOVE;
  g_object_get (stage->webrtc, "ice-gathering-state", &state, NULL);
  if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE) {
    send_offer (stage, TRUE);
    return G_SOURCE_REMOVE;
  }
  /* libnice calls gathering done only once every candidate type it
   * tries has answered or timed out (about 200 ms even on a LAN): the
   * offer leaves as soon as what the path needs is there */
  if (enough_candidates (stage)) {
    send_offer (stage, TRUE);
    return G_SOURCE_REMOVE;
  }
  if (g_get_monotonic_time () - stage->times.offer_created >
      (gint64) (stage->config.gathering_timeout / GST_USECOND)) {
    send_offer (stage, FALSE);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

static void
offer_set_in_context (GstSessionStage * stage, gpointer data)
{
  stage->gather_source = g_timeout_source_new (GATHER_POLL_MS);
  g_source_set_callback (stage->gather_source, gather_poll,
      stage_ref (stage), (GDestroyNotify) stage_unref);
  g_source_attach (stage->gather_source, stage->context);
  gather_poll (stage);
}

/* webrtcbin's reply to set-local-description (see stage_promise_new) */
static void
on_offer_set (GstPromise * promise, gpointer user_data)
{
  GstSessionStage *stage = user_data;

  if (stage_promise_replied (stage, promise))
    stage_invoke (stage, offer_set_in_context, NULL, NULL);
  stage_promise_release (stage, STAGE_PROMISE_LOCAL, promise);
}

/* webrtcbin's reply to create-offer, on its thread (or in the emission,
 * closed: an "error" and no offer) */
static void
on_offer_created (GstPromise * promise, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  GstWebRTCSessionDescription *offer = NULL;
  const GstStructure *reply = NULL;
  GstPromise *set;

  if (!stage_promise_replied (stage, promise))
    goto done;                  /* interrupted: the stage is torn down */
  reply = gst_promise_get_reply (promise);
  if (reply)
    gst_structure_get (reply, "offer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION,
        &offer, NULL);
  if (offer == NULL) {
    stage_fail_async (stage, g_error_new_literal (GST_LIBRARY_ERROR,
            GST_LIBRARY_ERROR_FAILED, "webrtcbin created no offer"));
    goto done;
  }
  stage_mark (stage, &stage->times.offer_created);
  /* goog-remb and the max-bitrate cap, which webrtcbin cannot write */
  gst_session_remb_offer (offer->sdp, stage->config.max_bitrate);
  set = stage_promise_new (stage, STAGE_PROMISE_LOCAL, on_offer_set);
  if (set) {
    g_signal_emit_by_name (stage->webrtc, "set-local-description", offer, set);
    gst_promise_unref (set);
  }
  gst_webrtc_session_description_free (offer);
done:
  stage_promise_release (stage, STAGE_PROMISE_OFFER, promise);
}

/* ---- bus ---- */

static gboolean
on_bus_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  GstSessionStage *stage = user_data;

  if (stage_is_dead (stage))
    return G_SOURCE_REMOVE;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    GST_WARNING_OBJECT (stage->owner, "session stage error from %s: %s (%s)",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
        GST_STR_NULL (debug));
    g_free (debug);
    stage_fail (stage, err);
  }
  return G_SOURCE_CONTINUE;
}

/* ---- construction ---- */

/* Feedback as soon as the jitterbuffer asks for it. RFC 4585 lets a
 * receiver send one early RTCP packet (a NACK, a PLI) per regular report
 * interval, and rtpsession's interval is at least its rtcp-min-interval,
 * 5 s: a NACK could wait seconds, long after its packet was given up. A
 * report every 100 ms (about 8 kbit/s) keeps that wait under 100 ms.
 * No probation: the first retransmission arrives alone on the RTX
 * stream's SSRC, and rtpsession would hold it until a second one proved
 * the stream (over SRTP every packet is authenticated anyway). */
static void
on_rtpbin_element_added (GstBin * rtpbin, GstElement * element,
    GstSessionStage * stage)
{
  GstElementFactory *factory = gst_element_get_factory (element);

  if (factory == NULL ||
      g_strcmp0 (GST_OBJECT_NAME (factory), "rtpsession") != 0)
    return;
  g_object_set (element, "rtcp-min-interval", FEEDBACK_INTERVAL,
      "rtcp-fraction", FEEDBACK_BANDWIDTH, "probation", 0u, NULL);
  stage_watch_feedback (stage, element);
}

/* A receive-only transceiver for @caps_str. With @nack, lost packets are
 * asked for again (RTCP NACK) and the retransmissions taken from their
 * own payload type (RTX, RFC 4588): webrtcbin offers the rtx payload
 * types, sets its jitterbuffer to request retransmissions and adds the
 * rtprtxreceive that restores them. */
static void
add_transceiver (GstSessionStage * stage, const gchar * caps_str, gboolean nack)
{
  GstWebRTCRTPTransceiver *trans = NULL;
  GstCaps *caps = gst_caps_from_string (caps_str);

  g_signal_emit_by_name (stage->webrtc, "add-transceiver",
      GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_RECVONLY, caps, &trans);
  gst_caps_unref (caps);
  if (trans && nack)
    g_object_set (trans, "do-nack", TRUE, NULL);
  if (trans)
    gst_object_unref (trans);
}

static void
configure_ice (GstSessionStage * stage)
{
  GObject *ice = NULL;
  gboolean ok = FALSE;

  g_object_get (stage->webrtc, "ice-agent", &ice, NULL);
  if (ice == NULL)
    return;
  /* TCP candidates only when asked for (ice-tcp): they cost gathering
   * time and only help where UDP is blocked; on loopback never */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (ice), "ice-tcp"))
    g_object_set (ice, "ice-tcp", stage->config.ice_tcp &&
        !stage->config.loopback_only, NULL);
  /* nor a port mapping from a router (UPnP): a client needs none, and
   * libnice waits for the router's answer before gathering is done */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (ice), "agent")) {
    GObject *agent = NULL;

    g_object_get (ice, "agent", &agent, NULL);
    if (agent && g_object_class_find_property (G_OBJECT_GET_CLASS (agent),
            "upnp"))
      g_object_set (agent, "upnp", FALSE, NULL);
    if (agent)
      g_object_unref (agent);
  }
  /* libnice paces its connectivity checks 20 ms apart, for agents with
   * hundreds of pairs on links that congest. An offer of this element has
   * a few candidates (the UDP host ones, a reflexive and a relayed one at
   * most), so a few pairs of some 100 bytes per check: 5 ms apart until
   * ICE connects brings ICE up in some 15 ms plus the round trips instead
   * of 60 (LAN, measured in docs/performance.md section 11), then
   * libnice's own pacing again for what it still checks */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (ice), "agent")) {
    GObject *agent = NULL;

    g_object_get (ice, "agent", &agent, NULL);
    if (agent && g_object_class_find_property (G_OBJECT_GET_CLASS (agent),
            "stun-pacing-timer")) {
      g_object_get (agent, "stun-pacing-timer", &stage->own_pacing, NULL);
      g_object_set (agent, "stun-pacing-timer", CONNECT_PACING_MS, NULL);
      stage->paced_agent = g_object_ref (agent);
    }
    if (agent)
      g_object_unref (agent);
  }
  if (stage->config.loopback_only) {
    if (g_signal_lookup ("add-local-ip-address", G_OBJECT_TYPE (ice)))
      g_signal_emit_by_name (ice, "add-local-ip-address", "127.0.0.1", &ok);
    if (!ok)
      GST_WARNING_OBJECT (stage->owner, "could not gather on 127.0.0.1");
  }
  g_object_unref (ice);
}

GstSessionStage *
gst_session_stage_new (GstElement * owner,
    const GstSessionStageConfig * config,
    const GstSessionStageCallbacks * callbacks, gpointer user_data,
    GMainContext * context, GError ** error)
{
  GstSessionStage *stage;
  GstStructure *opts;
  GstBus *bus;

  init_debug ();

  stage = g_new0 (GstSessionStage, 1);
  stage->refcount = 1;
  stage->owner = owner;
  stage->context = g_main_context_ref (context);
  stage->cb = *callbacks;
  stage->user_data = user_data;
  stage->config = *config;
  stage->stun_server = g_strdup (config->stun_server);
  stage->turn_server = g_strdup (config->turn_server);
  stage->channel_label = g_strdup (config->channel_label);
  stage->config.stun_server = stage->stun_server;
  stage->config.turn_server = stage->turn_server;
  stage->config.channel_label = stage->channel_label;
  stage->config.clock = config->clock ? gst_object_ref (config->clock) : NULL;
  g_mutex_init (&stage->lock);
  gst_session_remb_init (&stage->remb, config->max_bitrate);
  stage->jitterbuffers = g_ptr_array_new_with_free_func (gst_object_unref);
  stage->times.created = g_get_monotonic_time ();

  stage->pipeline = gst_pipeline_new (NULL);
  gst_object_ref_sink (stage->pipeline);
  stage->task_pool = gst_session_task_pool_new ();
  stage->webrtc = gst_element_factory_make ("webrtcbin", NULL);
  if (stage->webrtc == NULL) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "No webrtcbin element (Debian: gstreamer1.0-plugins-bad)");
    stage_unref (stage);
    return NULL;
  }
  gst_object_ref (stage->webrtc);
  /* the jitterbuffer holds a stream's first packet for its whole latency
   * (it cannot know yet whether one before it is still coming). On
   * loopback it starts at START_LATENCY_MS and takes its latency once
   * media flows (raise_latency in gstsessionstage-media.c); off loopback
   * each one takes it at once and lets its first packet go early
   * (faststart, see stage_on_new_jitterbuffer) */
  g_object_set (stage->webrtc, "bundle-policy",
      GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, "latency",
      MIN (config->latency_ms, START_LATENCY_MS), NULL);
  if (stage->stun_server)
    g_object_set (stage->webrtc, "stun-server", stage->stun_server, NULL);
  if (stage->turn_server)
    g_object_set (stage->webrtc, "turn-server", stage->turn_server, NULL);
  if (config->relay_only)
    g_object_set (stage->webrtc, "ice-transport-policy",
        GST_WEBRTC_ICE_TRANSPORT_POLICY_RELAY, NULL);
  gst_bin_add (GST_BIN (stage->pipeline), stage->webrtc);
  {
    /* once sender reports came, each buffer carries its capture time on
     * the sender's clock: the output keeps audio and video in the
     * sender's relation with it (gstsessionoutput.c, sender_time) */
    GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (stage->webrtc),
        "rtpbin");

    if (rtpbin && g_object_class_find_property (G_OBJECT_GET_CLASS (rtpbin),
            "add-reference-timestamp-meta"))
      g_object_set (rtpbin, "add-reference-timestamp-meta", TRUE, NULL);
    /* and rtpbin's own lip-sync is off: it moves one stream's timestamps
     * at each sender report by its estimate of the two arrival delays,
     * 100 ms and more off on a loaded machine, and before the output
     * places a stream by capture time, it places it by these timestamps
     * (under load the video moved by 470 ms in its first second, and a
     * click was cut). An offset larger than 1 ns is ignored. */
    if (rtpbin)
      g_object_set (rtpbin, "max-ts-offset", (gint64) 1, NULL);
    if (rtpbin) {
      /* no reference: the stage owns rtpbin (a reference here would be a
       * cycle that kept the whole pipeline alive); disconnected in
       * gst_session_stage_free */
      g_signal_connect (rtpbin, "element-added",
          G_CALLBACK (on_rtpbin_element_added), stage);
      g_signal_connect (rtpbin, "new-jitterbuffer",
          G_CALLBACK (stage_on_new_jitterbuffer), stage);
    }
    gst_clear_object (&rtpbin);
  }
  configure_ice (stage);

  if (config->clock) {
    gst_pipeline_use_clock (GST_PIPELINE (stage->pipeline), config->clock);
    gst_element_set_start_time (stage->pipeline, GST_CLOCK_TIME_NONE);
    gst_element_set_base_time (stage->pipeline, config->base_time);
  }

  /* video: NACK with RTX for losses the jitterbuffer can still wait for,
   * PLI (and FIR) for a keyframe when a frame cannot be recovered, and
   * congestion feedback: transport-cc here, goog-remb added to the offer
   * (on_offer_created) */
  if (config->video)
    add_transceiver (stage, "application/x-rtp,media=video,"
        "encoding-name=VP8,payload=96,clock-rate=90000,"
        "rtcp-fb-nack=(boolean)true,rtcp-fb-nack-pli=(boolean)true,"
        "rtcp-fb-ccm-fir=(boolean)true,rtcp-fb-transport-cc=(boolean)true,"
        TWCC_EXTMAP ";"
        "application/x-rtp,media=video,encoding-name=H264,payload=102,"
        "clock-rate=90000,packetization-mode=(string)1,"
        "profile-level-id=(string)42e01f,rtcp-fb-nack=(boolean)true,"
        "rtcp-fb-nack-pli=(boolean)true,rtcp-fb-ccm-fir=(boolean)true,"
        "rtcp-fb-transport-cc=(boolean)true," TWCC_EXTMAP,
        !config->loopback_only);
  /* audio: Opus in-band FEC (each packet carries a coarse copy of the one
   * before it) and the decoder's concealment, as browsers do */
  if (config->audio)
    add_transceiver (stage, "application/x-rtp,media=audio,"
        "encoding-name=OPUS,payload=111,clock-rate=48000,"
        "encoding-params=(string)2,useinbandfec=(string)1,"
        "minptime=(string)10,rtcp-fb-transport-cc=(boolean)true,"
        TWCC_EXTMAP, FALSE);

  g_signal_connect (stage->webrtc, "pad-added", G_CALLBACK (stage_on_pad_added),
      stage);
  g_signal_connect (stage->webrtc, "notify::ice-connection-state",
      G_CALLBACK (on_ice_connection_state), stage);

  bus = gst_pipeline_get_bus (GST_PIPELINE (stage->pipeline));
  /* the streaming threads end with the pipeline, not after it
   * (gstsessiontaskpool.c: OpenSSL's state freed twice at exit) */
  gst_session_task_pool_adopt_tasks (bus, stage->task_pool);
  stage->bus_source = gst_bus_create_watch (bus);
  g_source_set_callback (stage->bus_source, (GSourceFunc) (void (*)(void))
      on_bus_message, stage_ref (stage), (GDestroyNotify) stage_unref);
  g_source_attach (stage->bus_source, context);
  gst_object_unref (bus);

  if (gst_element_set_state (stage->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_STATE_CHANGE,
        "Could not start webrtcbin");
    gst_session_stage_free (stage);
    return NULL;
  }

  /* the control channel goes into the offer: ordered and reliable */
  opts = gst_structure_new ("opts", "ordered", G_TYPE_BOOLEAN, TRUE, NULL);
  g_signal_emit_by_name (stage->webrtc, "create-data-channel",
      stage->channel_label, opts, &stage->channel);
  gst_structure_free (opts);
  if (stage->channel == NULL) {
    g_set_error (error, GST_LIBRARY_ERROR, GST_LIBRARY_ERROR_FAILED,
        "webrtcbin created no data channel");
    gst_session_stage_free (stage);
    return NULL;
  }
  g_signal_connect (stage->channel, "on-open", G_CALLBACK (on_channel_open),
      stage);
  g_signal_connect (stage->channel, "on-close",
      G_CALLBACK (on_channel_close), stage);
  g_signal_connect (stage->channel, "on-message-string",
      G_CALLBACK (on_channel_message), stage);
  g_signal_connect (stage->channel, "on-message-data",
      G_CALLBACK (on_channel_data), stage);
  return stage;
}

void
gst_session_stage_start (GstSessionStage * stage)
{
  GstPromise *promise = stage_promise_new (stage, STAGE_PROMISE_OFFER,
      on_offer_created);

  if (promise == NULL)
    return;
  g_signal_emit_by_name (stage->webrtc, "create-offer", NULL, promise);
  gst_promise_unref (promise);
}

/* webrtcbin's reply to set-remote-description, on its own thread: in
 * 1.22 none (NULL) when it took the answer, an "error" (GError) field
 * when it refused it (_set_description_task: its fingerprints, its mids,
 * a state that takes no answer), and that error too when it was closed
 * meanwhile (the stage torn down: nothing then). A refused answer ends
 * the attempt at once (the owner's failed), not at its start-timeout: no
 * session can come of it. */
static void
on_answer_set (GstPromise * promise, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  const GstStructure *reply = NULL;
  GError *err = NULL;

  if (stage_promise_replied (stage, promise))
    reply = gst_promise_get_reply (promise);
  if (reply && gst_structure_has_field_typed (reply, "error", G_TYPE_ERROR))
    gst_structure_get (reply, "error", G_TYPE_ERROR, &err, NULL);
  if (err) {
    stage_fail_async (stage, g_error_new (GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_OPEN_READ, "The service's answer was refused "
            "by webrtcbin: %s", err->message));
    g_error_free (err);
  } else if (reply) {
    GST_DEBUG_OBJECT (stage->owner, "answer set: %" GST_PTR_FORMAT, reply);
  }
  stage_promise_release (stage, STAGE_PROMISE_ANSWER, promise);
}

gboolean
gst_session_stage_set_answer (GstSessionStage * stage, const gchar * sdp,
    GError ** error)
{
  GstSDPMessage *msg = NULL;
  GstWebRTCSessionDescription *answer;
  GstPromise *promise;

  if (gst_sdp_message_new_from_text (sdp, &msg) != GST_SDP_OK || msg == NULL
      || gst_sdp_message_medias_len (msg) == 0) {
    if (msg)
      gst_sdp_message_free (msg);
    g_set_error_literal (error, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_OPEN_READ, "The service's answer is not an SDP "
        "with media");
    return FALSE;
  }
  GST_DEBUG_OBJECT (stage->owner, "answer:\n%s", sdp);
  g_mutex_lock (&stage->lock);
  stage->feedback.remb = gst_session_remb_answered (msg);
  stage->remb.cap_only = gst_session_remb_twcc_answered (msg);
  g_mutex_unlock (&stage->lock);
  answer = gst_webrtc_session_description_new (GST_WEBRTC_SDP_TYPE_ANSWER, msg);
  /* the reply comes later, on webrtcbin's thread (see stage_promise_new) */
  promise = stage_promise_new (stage, STAGE_PROMISE_ANSWER, on_answer_set);
  if (promise) {
    g_signal_emit_by_name (stage->webrtc, "set-remote-description", answer,
        promise);
    gst_promise_unref (promise);
  }
  gst_webrtc_session_description_free (answer);
  stage_mark (stage, &stage->times.answer_set);
  return TRUE;
}

gboolean
gst_session_stage_send (GstSessionStage * stage, const gchar * text,
    GError ** error)
{
  if (stage->channel == NULL) {
    g_set_error_literal (error, GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_WRITE, "no control channel");
    return FALSE;
  }
  return gst_webrtc_data_channel_send_string_full (stage->channel, text, error);
}

void
gst_session_stage_get_times (GstSessionStage * stage,
    GstSessionStageTimes * times)
{
  g_mutex_lock (&stage->lock);
  *times = stage->times;
  g_mutex_unlock (&stage->lock);
}

/* GStreamer 1.22's webrtcbin adds transport elements from its own thread
 * and syncs them with its state: one added while the pipeline goes down
 * can be left PLAYING (a nicesrc's task then runs past the element, and
 * gst_deinit waits for it for ever). Once the pipeline is in NULL,
 * webrtcbin's thread has left its loop and nothing is added any more:
 * every element still up is brought down (and its task's thread joined,
 * gstsessiontaskpool.c). */
static void
bring_down_stragglers (GstSessionStage * stage)
{
  GstIterator *it = gst_bin_iterate_recurse (GST_BIN (stage->pipeline));
  GValue v = G_VALUE_INIT;
  gboolean done = FALSE;
  guint n = 0;

  while (!done && n++ < 10000) {
    switch (gst_iterator_next (it, &v)) {
      case GST_ITERATOR_OK:{
        GstElement *e = g_value_get_object (&v);
        GstState cur, pending;

        GST_OBJECT_LOCK (e);
        cur = GST_STATE (e);
        pending = GST_STATE_PENDING (e);
        GST_OBJECT_UNLOCK (e);
        if (cur != GST_STATE_NULL || pending != GST_STATE_VOID_PENDING) {
          GST_INFO_OBJECT (stage->owner, "%s was left %s: stopping it",
              GST_OBJECT_NAME (e), gst_element_state_get_name (cur));
          gst_element_set_state (e, GST_STATE_NULL);
        }
        g_value_reset (&v);
        break;
      }
      case GST_ITERATOR_RESYNC:
        gst_iterator_resync (it);
        break;
      default:
        done = TRUE;
        break;
    }
  }
  g_value_unset (&v);
  gst_iterator_free (it);
}

/* Tears the session down; bounded (webrtcbin and libnice stop in well under
 * a second). No callback runs after this returns. Call on the context. */
void
gst_session_stage_free (GstSessionStage * stage)
{
  if (stage == NULL)
    return;
  g_mutex_lock (&stage->lock);
  stage->dead = TRUE;
  g_mutex_unlock (&stage->lock);

  if (stage->gather_source) {
    g_source_destroy (stage->gather_source);
    g_source_unref (stage->gather_source);
    stage->gather_source = NULL;
  }
  if (stage->bus_source) {
    g_source_destroy (stage->bus_source);
    g_source_unref (stage->bus_source);
    stage->bus_source = NULL;
  }
  if (stage->channel)
    g_signal_handlers_disconnect_by_data (stage->channel, stage);
  if (stage->webrtc) {
    GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (stage->webrtc),
        "rtpbin");

    g_signal_handlers_disconnect_by_data (stage->webrtc, stage);
    if (rtpbin) {
      g_signal_handlers_disconnect_by_data (rtpbin, stage);
      gst_object_unref (rtpbin);
    }
  }
  gst_element_set_state (stage->pipeline, GST_STATE_NULL);
  g_mutex_lock (&stage->lock);
  g_ptr_array_set_size (stage->jitterbuffers, 0);
  g_mutex_unlock (&stage->lock);
  bring_down_stragglers (stage);
  /* its RTCP thread is joined: no report is sent any more */
  stage_unwatch_feedback (stage);
  /* webrtcbin's thread is stopped: no promise is replied any more */
  interrupt_promises (stage);
  stage_unref (stage);
}
