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
#include <gst/app/gstappsink.h>
#include <gst/rtp/rtp.h>
#include <gst/sdp/sdp.h>
#include <gst/video/video.h>

#include <gst/session/elementcheck.h>

#include "gstsessionstage.h"
#include "gstsessionarrival.h"
#include "gstsessiontaskpool.h"

GST_DEBUG_CATEGORY_STATIC (session_stage_debug);
#define GST_CAT_DEFAULT session_stage_debug

/* libnice's check pacing until ICE connects, in ms (see configure_ice) */
#define CONNECT_PACING_MS 5u

#define GATHER_POLL_MS 5
/* the jitterbuffer's latency until media flows (see gst_session_stage_new) */
#define START_LATENCY_MS 20u
/* host candidates of the other interfaces come within this of the first */
#define GATHER_HOST_GRACE_MS 10

/* rtpsession's rtcp-min-interval: a floor of the report interval for the
 * plain AVP profiles only. WebRTC is SAVPF, where 1.22's rtpsession takes
 * no minimum (RFC 4585 3.4d; rtp_stats_calculate_rtcp_interval): the
 * interval, and so the longest wait of a NACK or PLI that missed the early
 * feedback slot, comes from FEEDBACK_BANDWIDTH alone */
#define FEEDBACK_INTERVAL ((guint64) (100 * GST_MSECOND))
/* the session's RTCP bandwidth (bit/s; a value over 1 is absolute), which
 * bounds the report interval from below too: left to 5 % of a session
 * bandwidth rtpsession takes as 64 kbit/s, the interval came out at
 * 500-850 ms */
#define FEEDBACK_BANDWIDTH 64000.0

struct _GstSessionStage
{
  gint refcount;
  GstElement *owner;
  GMainContext *context;
  GstSessionStageCallbacks cb;
  gpointer user_data;
  GstSessionStageConfig config;
  gchar *stun_server;
  gchar *turn_server;
  gchar *channel_label;

  GstElement *pipeline;
  GstTaskPool *task_pool;       /* its streaming threads, joined */
  GstElement *webrtc;
  GObject *paced_agent;         /* libnice agent whose pacing we set */
  guint own_pacing;             /* its own, restored when ICE connects */
  GstWebRTCDataChannel *channel;
  GSource *bus_source;
  GSource *gather_source;

  /* lock protects dead, times, ssrc, jitterbuffers, video_sink,
   * keyframe_asked and (for other threads) config.latency_ms; never held
   * while calling out */
  GMutex lock;
  gboolean dead;
  gboolean offer_sent;
  gint64 host_seen;             /* context: the first UDP host candidate */
  GstSessionStageTimes times;
  guint ssrc[2];                /* per GstSessionOutputKind; 0: none yet */
  gchar *candidate_type;        /* of the selected pair's local candidate */
  GPtrArray *jitterbuffers;     /* rtpjitterbuffer, "ssrc" data set */
  GstPad *video_sink;           /* the video chain's first pad */
  gint64 keyframe_asked;        /* monotonic µs of the last request */
  gint dropout_rtp;             /* atomic: a video gap this long (90 kHz
                                 * RTP time) is a dropout (on_video_rtp) */
};

static GstSessionStage *
stage_ref (GstSessionStage * stage)
{
  g_atomic_int_inc (&stage->refcount);
  return stage;
}

static void
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

static gboolean
is_dead (GstSessionStage * stage)
{
  gboolean dead;

  g_mutex_lock (&stage->lock);
  dead = stage->dead;
  g_mutex_unlock (&stage->lock);
  return dead;
}

static void
mark (GstSessionStage * stage, gint64 * field)
{
  g_mutex_lock (&stage->lock);
  if (*field == 0)
    *field = g_get_monotonic_time ();
  g_mutex_unlock (&stage->lock);
}

/* ---- marshalling to the owner's context ---- */

typedef void (*StageFunc) (GstSessionStage * stage, gpointer data);

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

  if (!is_dead (c->stage))
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

static void
invoke (GstSessionStage * stage, StageFunc func, gpointer data,
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

static void
fail (GstSessionStage * stage, GError * error)
{
  GST_WARNING_OBJECT (stage->owner, "session stage failed: %s", error->message);
  if (!is_dead (stage) && stage->cb.failed)
    stage->cb.failed (stage, error, stage->user_data);
  g_error_free (error);
}

static void
fail_in_context (GstSessionStage * stage, gpointer data)
{
  GError *err = data;

  fail (stage, g_error_copy (err));
}

static void
fail_async (GstSessionStage * stage, GError * error)
{
  invoke (stage, fail_in_context, error, (GDestroyNotify) g_error_free);
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

/* ---- media ---- */

static GstFlowReturn
on_new_sample (GstAppSink * sink, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstSessionOutputKind kind =
      GPOINTER_TO_INT (g_object_get_data (G_OBJECT (sink), "kind"));

  if (sample == NULL)
    return GST_FLOW_EOS;
  if (!is_dead (stage) && stage->cb.sample)
    stage->cb.sample (stage, kind, sample, stage->user_data);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static GstElement *
make (const gchar * factory)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (e == NULL)
    GST_ERROR ("no element %s", factory);
  return e;
}

static void
set_if_present (GstElement * e, const gchar * name, gboolean value)
{
  if (e && g_object_class_find_property (G_OBJECT_GET_CLASS (e), name))
    g_object_set (e, name, value, NULL);
}

/* A frame that lost a packet for good, and every frame after it up to the
 * next keyframe, refers to what was lost: the depayloader drops them
 * (wait-for-keyframe) and asks for a keyframe at once (request-keyframe,
 * which rtpbin sends as a PLI). The output repeats its last good frame
 * meanwhile, and decode=false records no broken frame. Not on loopback,
 * where nothing is lost but the 5 ms jitterbuffer gives up on packets of
 * a large keyframe still queued on a loaded machine: waiting for a
 * keyframe there became a loop of keyframe requests, each keyframe
 * "lost" again (measured with session/stats: 25 frames, then none). */
static GstElement *
video_depayloader (GstSessionStage * stage, const gchar * factory)
{
  GstElement *depay = make (factory);

  if (!stage->config.loopback_only) {
    set_if_present (depay, "wait-for-keyframe", TRUE);
    set_if_present (depay, "request-keyframe", TRUE);
  }
  return depay;
}

/* A lost Opus packet is rebuilt from the next one's in-band FEC when it
 * has it, else concealed (the jitterbuffer's lost events become gaps) */
static GstElement *
audio_decoder (void)
{
  GstElement *dec = make ("opusdec");

  set_if_present (dec, "use-inband-fec", TRUE);
  set_if_present (dec, "plc", TRUE);
  return dec;
}

/* Builds depay ! ... ! appsink for one RTP stream; returns the sink pad to
 * link webrtcbin's pad to, or NULL. */
static GstPad *
build_chain (GstSessionStage * stage, const gchar * encoding,
    GstSessionOutputKind * kind)
{
  GstElement *chain[8] = { NULL, };
  GstElement *sink;
  GstCaps *caps = NULL;
  guint n = 0, i;
  gboolean decode = stage->config.decode;
  GstAppSinkCallbacks callbacks = { NULL, NULL, on_new_sample, };

  if (g_ascii_strcasecmp (encoding, "VP8") == 0) {
    *kind = GST_SESSION_OUTPUT_VIDEO;
    chain[n++] = video_depayloader (stage, "rtpvp8depay");
    if (decode)
      chain[n++] = make ("vp8dec");
  } else if (g_ascii_strcasecmp (encoding, "H264") == 0) {
    *kind = GST_SESSION_OUTPUT_VIDEO;
    chain[n++] = video_depayloader (stage, "rtph264depay");
    chain[n++] = make ("h264parse");
    if (decode) {
      chain[n++] = make ("avdec_h264");
    } else {
      caps = gst_caps_from_string ("video/x-h264,stream-format=avc,"
          "alignment=au");
    }
  } else if (g_ascii_strcasecmp (encoding, "OPUS") == 0) {
    *kind = GST_SESSION_OUTPUT_AUDIO;
    chain[n++] = make ("rtpopusdepay");
    if (decode) {
      chain[n++] = audio_decoder ();
      chain[n++] = make ("audioconvert");
      chain[n++] = make ("audioresample");
      caps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING,
          "S16LE", "layout", G_TYPE_STRING, "interleaved", "rate",
          G_TYPE_INT, stage->config.audio_rate, "channels", G_TYPE_INT,
          stage->config.audio_channels ? stage->config.audio_channels : 2,
          NULL);
    } else {
      chain[n++] = make ("opusparse");
    }
  } else {
    GST_WARNING_OBJECT (stage->owner, "unsupported encoding %s", encoding);
    return NULL;
  }

  sink = make ("appsink");
  for (i = 0; i < n; i++) {
    if (chain[i] == NULL) {
      for (i = 0; i < n; i++)
        gst_clear_object (&chain[i]);
      gst_clear_object (&sink);
      gst_clear_caps (&caps);
      return NULL;
    }
  }
  if (sink == NULL)
    return NULL;
  g_object_set (sink, "sync", FALSE, "async", FALSE, "emit-signals", FALSE,
      "enable-last-sample", FALSE, "max-buffers", 0, NULL);
  if (caps) {
    g_object_set (sink, "caps", caps, NULL);
    gst_caps_unref (caps);
  }
  g_object_set_data (G_OBJECT (sink), "kind", GINT_TO_POINTER (*kind));
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &callbacks, stage, NULL);
  chain[n++] = sink;

  for (i = 0; i < n; i++)
    gst_bin_add (GST_BIN (stage->pipeline), chain[i]);
  for (i = 0; i + 1 < n; i++) {
    if (!gst_element_link (chain[i], chain[i + 1])) {
      GST_ERROR_OBJECT (stage->owner, "cannot link %s to %s",
          GST_ELEMENT_NAME (chain[i]), GST_ELEMENT_NAME (chain[i + 1]));
      return NULL;
    }
  }
  for (i = n; i > 0; i--)
    gst_element_sync_state_with_parent (chain[i - 1]);
  return gst_element_get_static_pad (chain[0], "sink");
}

/* The jitterbuffer of @ssrc (a reference), or NULL */
static GstElement *
find_jitterbuffer (GstSessionStage * stage, guint ssrc)
{
  GstElement *jb = NULL;
  guint i;

  g_mutex_lock (&stage->lock);
  for (i = 0; ssrc && jb == NULL && i < stage->jitterbuffers->len; i++) {
    GstElement *e = g_ptr_array_index (stage->jitterbuffers, i);

    if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (e),
                "session-ssrc")) == ssrc)
      jb = gst_object_ref (e);
  }
  g_mutex_unlock (&stage->lock);
  return jb;
}

static void
raise_latency (GstSessionStage * stage, gpointer data)
{
  guint latency = 0;

  g_object_get (stage->webrtc, "latency", &latency, NULL);
  if (latency != stage->config.latency_ms) {
    GST_DEBUG_OBJECT (stage->owner, "jitterbuffer latency %u ms from now on",
        stage->config.latency_ms);
    g_object_set (stage->webrtc, "latency", stage->config.latency_ms, NULL);
  }
}

/* A gap of packets longer than the jitterbuffer's latency plus this is a
 * dropout, not losses to ask for again (see on_video_rtp) */
#define DROPOUT_MARGIN_MS 100

static void
ask_keyframe (GstSessionStage * stage, gpointer data)
{
  GST_DEBUG_OBJECT (stage->owner, "video resumed after a dropout");
  gst_session_stage_request_keyframe (stage);
}

typedef struct
{
  GstSessionStage *stage;       /* not a reference: the pad goes first */
  gboolean have;                /* streaming thread only: */
  guint16 seq;                  /* the newest packet so far */
  guint32 rtptime;
} GapWatch;

/* After a blackout of the path (seconds without a packet) the first video
 * packet shows a gap of hundreds. The jitterbuffer asks for each again
 * (NACK), lets nothing out, the new packets included, until each came or
 * was declared lost at its own time plus the latency, and the depayloader
 * asks for a keyframe only when it sees the discontinuity: measured on
 * the LAN path, 112 ms from the path's return to the first new frame,
 * twice Chromium's. A gap longer than the latency could still recover
 * (RTP time, 90 kHz for video) is a dropout: the keyframe is asked for as
 * the first packet after it arrives, before the jitterbuffer sees it, and
 * the jitterbuffer resets once a few packets in a row came
 * (max-dropout-time) instead of waiting for the gap. Streaming thread. */
static GstPadProbeReturn
on_video_rtp (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GapWatch *w = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  guint16 seq;
  guint32 rtptime, dropout;
  gint gap;

  if (buf == NULL || !gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp))
    return GST_PAD_PROBE_OK;
  seq = gst_rtp_buffer_get_seq (&rtp);
  rtptime = gst_rtp_buffer_get_timestamp (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  /* newer than the newest so far (retransmissions are older) */
  gap = w->have ? gst_rtp_buffer_compare_seqnum (w->seq, seq) : 1;
  if (gap <= 0)
    return GST_PAD_PROBE_OK;
  dropout = (guint32) g_atomic_int_get (&w->stage->dropout_rtp);
  if (w->have && gap > 1 && rtptime - w->rtptime > dropout &&
      rtptime - w->rtptime < G_MAXINT32)
    invoke (w->stage, ask_keyframe, NULL, NULL);
  w->have = TRUE;
  w->seq = seq;
  w->rtptime = rtptime;
  return GST_PAD_PROBE_OK;
}

/* Lets the video's jitterbuffer reset after a dropout (max-dropout-time)
 * and tells on_video_rtp what one is: the latency and the margin. Called
 * once the video's jitterbuffer is known, and again when the latency
 * changes. */
static void
set_dropout (GstSessionStage * stage, GstElement * jb)
{
  guint dropout_ms;

  g_mutex_lock (&stage->lock);
  dropout_ms = stage->config.latency_ms + DROPOUT_MARGIN_MS;
  g_mutex_unlock (&stage->lock);
  g_atomic_int_set (&stage->dropout_rtp, (gint) (dropout_ms * 90));
  g_object_set (jb, "max-dropout-time", dropout_ms, NULL);
}

/* Watches what reaches the video's jitterbuffer for dropouts */
static void
watch_dropouts (GstSessionStage * stage, GstElement * jb)
{
  GstPad *sink = gst_element_get_static_pad (jb, "sink");
  GapWatch *w;

  if (sink == NULL)
    return;
  w = g_new0 (GapWatch, 1);
  w->stage = stage;
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, on_video_rtp, w, g_free);
  gst_object_unref (sink);
}

/* GStreamer 1.22's webrtcbin sets a new jitterbuffer's do-retransmission
 * from every entry of its SSRC map in turn, not from the stream's own:
 * with audio and video both named in the answer, the last entry (audio,
 * which asks for no retransmission) won, and the video never sent a NACK
 * (found by tests/net/loss-recovery director). Set once the stream's kind
 * is known: retransmissions for video off loopback. */
static void
set_retransmission (GstSessionStage * stage, guint ssrc, gboolean on)
{
  GstElement *jb = find_jitterbuffer (stage, ssrc);

  if (jb) {
    g_object_set (jb, "do-retransmission", on, NULL);
    if (on) {
      set_dropout (stage, jb);
      watch_dropouts (stage, jb);
    }
    gst_object_unref (jb);
  }
}

static GstPadProbeReturn
first_rtp_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstSessionStage *stage = user_data;

  mark (stage, &stage->times.first_rtp);
  invoke (stage, raise_latency, NULL, NULL);
  return GST_PAD_PROBE_REMOVE;
}

/* Whether an RTP payload is the first packet of a keyframe: H.264 (RFC
 * 6184) an SPS, PPS or IDR slice, alone, first in a STAP-A or starting an
 * FU-A; VP8 (RFC 7741) the start of partition 0 with the keyframe bit.
 * Anything else (a delta frame, a packet cut short): FALSE. */
static gboolean
payload_starts_keyframe (const guint8 * p, gsize n, gboolean h264)
{
  guint type, i = 1;

  if (n < 2)
    return FALSE;
  if (h264) {
    type = p[0] & 0x1f;
    if (type == 24 && n >= 4)   /* STAP-A: 2 bytes of size, then a NAL */
      type = p[3] & 0x1f;
    else if (type == 28)        /* FU-A: its header's start bit and type */
      return (p[1] & 0x80) && (p[1] & 0x1f) == 5;
    return type == 5 || type == 7 || type == 8;
  }
  /* VP8 payload descriptor: S set, partition 0 */
  if (!(p[0] & 0x10) || (p[0] & 0x07) != 0)
    return FALSE;
  if (p[0] & 0x80) {            /* X: I, L, T, K flags follow */
    guint8 x = p[1];

    i = 2;
    if (x & 0x80) {             /* I: a picture id of 7 or 15 bits */
      if (i >= n)
        return FALSE;
      i += (p[i] & 0x80) ? 2 : 1;
    }
    if (x & 0x40)               /* L: TL0PICIDX */
      i++;
    if (x & 0x30)               /* T or K: one byte */
      i++;
  }
  /* the VP8 payload header: P (bit 0) is 0 for a keyframe */
  return i < n && (p[i] & 0x01) == 0;
}

typedef struct
{
  GstSessionStage *stage;
  gboolean h264;
} FirstVideo;

static void
first_video_free (FirstVideo * f)
{
  stage_unref (f->stage);
  g_free (f);
}

/* A keyframe request (upstream force-key-unit: rtpbin sends a PLI) is not
 * repeated within the jitterbuffer's latency and this: the keyframe needs
 * a round trip and that latency to arrive, and asking again meanwhile
 * makes the sender send a second one. A request that had no effect (lost
 * on the path: on the 2 % loss path 1 start in 2 or 3 waited for the
 * sender's next scheduled keyframe, 25-27 frames, when the next request
 * came only after 1 s) is asked again after it. */
#define KEYFRAME_ASK_MARGIN (250 * G_TIME_SPAN_MILLISECOND)

/* Asks the sender for a keyframe now (any thread), unless one was asked
 * for less than the latency and KEYFRAME_ASK_MARGIN ago. */
void
gst_session_stage_request_keyframe (GstSessionStage * stage)
{
  gint64 now = g_get_monotonic_time ();
  GstPad *pad = NULL;

  gint64 interval;

  g_mutex_lock (&stage->lock);
  interval = KEYFRAME_ASK_MARGIN + (gint64) stage->config.latency_ms * 1000;
  if (!stage->dead && stage->video_sink && (stage->keyframe_asked == 0 ||
          now - stage->keyframe_asked >= interval)) {
    stage->keyframe_asked = now;
    pad = gst_object_ref (stage->video_sink);
  }
  g_mutex_unlock (&stage->lock);
  if (pad == NULL)
    return;
  GST_DEBUG_OBJECT (stage->owner, "asking the sender for a keyframe");
  gst_pad_push_event (pad,
      gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE, TRUE,
          0));
  gst_object_unref (pad);
}

/* The video's first packet out of the jitterbuffer: when it does not
 * start a keyframe (a stream joined mid-way, the keyframe's first packet
 * lost), a keyframe is asked for now, not at the sender's next scheduled
 * one. When it does, none: a sender starts with one, and asking anyway
 * made it send a second keyframe one round trip later (tens of kB on a
 * path that may be slow). */
static GstPadProbeReturn
first_video_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  FirstVideo *f = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  gboolean key = FALSE;

  if (buf && gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp)) {
    key = payload_starts_keyframe (gst_rtp_buffer_get_payload (&rtp),
        gst_rtp_buffer_get_payload_len (&rtp), f->h264);
    gst_rtp_buffer_unmap (&rtp);
  }
  GST_DEBUG_OBJECT (f->stage->owner, "the video starts %s",
      key ? "with a keyframe" : "without a keyframe: asking for one");
  if (!key)
    gst_session_stage_request_keyframe (f->stage);
  return GST_PAD_PROBE_REMOVE;
}

static void
on_pad_added (GstElement * webrtc, GstPad * pad, GstSessionStage * stage)
{
  GstCaps *caps;
  const GstStructure *s;
  const gchar *encoding;
  GstSessionOutputKind kind;
  GstPad *sinkpad;
  gboolean h264;

  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC || is_dead (stage))
    return;

  caps = gst_pad_get_current_caps (pad);
  if (caps == NULL)
    caps = gst_pad_query_caps (pad, NULL);
  s = gst_caps_get_structure (caps, 0);
  encoding = gst_structure_get_string (s, "encoding-name");
  h264 = encoding && g_ascii_strcasecmp (encoding, "H264") == 0;
  GST_INFO_OBJECT (stage->owner, "incoming stream %" GST_PTR_FORMAT, caps);
  sinkpad = encoding ? build_chain (stage, encoding, &kind) : NULL;
  if (sinkpad == NULL) {
    GST_WARNING_OBJECT (stage->owner, "ignoring stream %" GST_PTR_FORMAT, caps);
    gst_caps_unref (caps);
    return;
  }
  {
    guint ssrc = 0;

    if (gst_structure_get_uint (s, "ssrc", &ssrc)) {
      g_mutex_lock (&stage->lock);
      stage->ssrc[kind] = ssrc;
      g_mutex_unlock (&stage->lock);
      set_retransmission (stage, ssrc, kind == GST_SESSION_OUTPUT_VIDEO &&
          !stage->config.loopback_only);
    }
  }
  gst_caps_unref (caps);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, first_rtp_probe,
      stage_ref (stage), (GDestroyNotify) stage_unref);
  if (kind == GST_SESSION_OUTPUT_VIDEO) {
    FirstVideo *f = g_new0 (FirstVideo, 1);

    f->stage = stage_ref (stage);
    f->h264 = h264;
    g_mutex_lock (&stage->lock);
    gst_object_replace ((GstObject **) & stage->video_sink,
        GST_OBJECT (sinkpad));
    g_mutex_unlock (&stage->lock);
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, first_video_probe, f,
        (GDestroyNotify) first_video_free);
  }
  if (gst_pad_link (pad, sinkpad) != GST_PAD_LINK_OK)
    GST_ERROR_OBJECT (stage->owner, "cannot link the incoming stream");
  gst_object_unref (sinkpad);
}

/* ---- data channel ---- */

static void
channel_open_in_context (GstSessionStage * stage, gpointer data)
{
  mark (stage, &stage->times.channel_open);
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
  invoke (stage, channel_open_in_context, NULL, NULL);
}

static void
on_channel_close (GstWebRTCDataChannel * channel, GstSessionStage * stage)
{
  invoke (stage, channel_closed_in_context, NULL, NULL);
}

static void
on_channel_message (GstWebRTCDataChannel * channel, const gchar * text,
    GstSessionStage * stage)
{
  if (text && !is_dead (stage) && stage->cb.channel_message)
    stage->cb.channel_message (stage, text, stage->user_data);
}

static void
on_channel_data (GstWebRTCDataChannel * channel, GBytes * data,
    GstSessionStage * stage)
{
  gsize size;
  const gchar *bytes = data ? g_bytes_get_data (data, &size) : NULL;
  gchar *text;

  if (bytes == NULL)
    return;
  /* a binary message is read as text; the parser refuses what is not */
  text = g_strndup (bytes, size);
  on_channel_message (channel, text, stage);
  g_free (text);
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
    mark (stage, &stage->times.connected);
    /* connected: libnice's own pacing again, for what it still checks */
    if (stage->paced_agent)
      g_object_set (stage->paced_agent, "stun-pacing-timer",
          stage->own_pacing, NULL);
    invoke (stage, connected_in_context, NULL, NULL);
  } else if (state == GST_WEBRTC_ICE_CONNECTION_STATE_FAILED) {
    fail_async (stage, g_error_new_literal (GST_RESOURCE_ERROR,
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
    fail (stage, g_error_new_literal (GST_RESOURCE_ERROR,
            GST_RESOURCE_ERROR_OPEN_READ,
            "ICE gathering found no candidate address"));
    return;
  }
  stage->offer_sent = TRUE;
  mark (stage, &stage->times.gathered);
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

  if (is_dead (stage))
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

static void
on_offer_set (GstPromise * promise, gpointer user_data)
{
  GstSessionStage *stage = user_data;

  gst_promise_unref (promise);
  invoke (stage, offer_set_in_context, NULL, NULL);
}

static void
on_offer_created (GstPromise * promise, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  GstWebRTCSessionDescription *offer = NULL;
  const GstStructure *reply;

  if (gst_promise_wait (promise) != GST_PROMISE_RESULT_REPLIED) {
    gst_promise_unref (promise);
    fail_async (stage, g_error_new_literal (GST_LIBRARY_ERROR,
            GST_LIBRARY_ERROR_FAILED, "webrtcbin created no offer"));
    return;
  }
  reply = gst_promise_get_reply (promise);
  gst_structure_get (reply, "offer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION,
      &offer, NULL);
  gst_promise_unref (promise);
  if (offer == NULL) {
    fail_async (stage, g_error_new_literal (GST_LIBRARY_ERROR,
            GST_LIBRARY_ERROR_FAILED, "webrtcbin created no offer"));
    return;
  }
  mark (stage, &stage->times.offer_created);
  promise = gst_promise_new_with_change_func (on_offer_set, stage_ref (stage),
      (GDestroyNotify) stage_unref);
  g_signal_emit_by_name (stage->webrtc, "set-local-description", offer,
      promise);
  gst_webrtc_session_description_free (offer);
}

/* ---- bus ---- */

static gboolean
on_bus_message (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  GstSessionStage *stage = user_data;

  if (is_dead (stage))
    return G_SOURCE_REMOVE;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;
    gchar *debug = NULL;

    gst_message_parse_error (msg, &err, &debug);
    GST_WARNING_OBJECT (stage->owner, "session stage error from %s: %s (%s)",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
        GST_STR_NULL (debug));
    g_free (debug);
    fail (stage, err);
  }
  return G_SOURCE_CONTINUE;
}

/* ---- transport statistics ---- */

static void
on_new_jitterbuffer (GstElement * rtpbin, GstElement * jitterbuffer,
    guint session, guint ssrc, GstSessionStage * stage)
{
  g_object_set_data (G_OBJECT (jitterbuffer), "session-ssrc",
      GUINT_TO_POINTER (ssrc));
  /* the output tells the path's delay from the machine's by it */
  gst_session_arrival_watch (jitterbuffer, stage->config.clock);
  g_mutex_lock (&stage->lock);
  g_ptr_array_add (stage->jitterbuffers, gst_object_ref (jitterbuffer));
  g_mutex_unlock (&stage->lock);
}

/* the rtpsession's view of @ssrc: bytes, and the feedback sent about it */
static void
session_source_stats (GstSessionStage * stage, guint ssrc,
    GstSessionTransportStats * stats)
{
  GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (stage->webrtc),
      "rtpbin");
  GstElement *session = NULL;
  GstStructure *all = NULL;
  const GValue *sources;
  guint i, n;

  if (rtpbin == NULL)
    return;
  /* one bundled session, id 0 */
  g_signal_emit_by_name (rtpbin, "get-session", 0u, &session);
  gst_object_unref (rtpbin);
  if (session == NULL)
    return;
  g_object_get (session, "stats", &all, NULL);
  gst_object_unref (session);
  if (all == NULL)
    return;
  /* rtpsession gives a GValueArray (deprecated in GLib, its API here) */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
  sources = gst_structure_get_value (all, "source-stats");
  n = sources && G_VALUE_HOLDS (sources, g_value_array_get_type ())?
      ((GValueArray *) g_value_get_boxed (sources))->n_values : 0;
  G_GNUC_END_IGNORE_DEPRECATIONS;
  for (i = 0; i < n; i++) {
    const GstStructure *src;
    guint id = 0;

    G_GNUC_BEGIN_IGNORE_DEPRECATIONS;
    src = gst_value_get_structure (g_value_array_get_nth (g_value_get_boxed
            (sources), i));
    G_GNUC_END_IGNORE_DEPRECATIONS;

    if (!gst_structure_get_uint (src, "ssrc", &id) || id != ssrc)
      continue;
    gst_structure_get (src, "octets-received", G_TYPE_UINT64,
        &stats->bytes_received, "packets-received", G_TYPE_UINT64,
        &stats->packets_received, "sent-nack-count", G_TYPE_UINT,
        &stats->nacks_sent, "sent-pli-count", G_TYPE_UINT, &stats->plis_sent,
        "sent-fir-count", G_TYPE_UINT, &stats->firs_sent, NULL);
  }
  gst_structure_free (all);
}

/* webrtcbin's statistics, for one fact: the type of the local candidate
 * of the selected pair (host, srflx, prflx, relay): whether the session
 * goes through the TURN relay. Only that is kept: a relay candidate's
 * statistics name the TURN server's URL, which may carry its password. */
static void
on_webrtc_stats (GstPromise * promise, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  const GstStructure *all = NULL;
  const gchar *type = NULL;
  gint i, n;

  if (gst_promise_wait (promise) == GST_PROMISE_RESULT_REPLIED)
    all = gst_promise_get_reply (promise);
  n = all ? gst_structure_n_fields (all) : 0;
  for (i = 0; i < n && type == NULL; i++) {
    const GValue *v = gst_structure_get_value (all,
        gst_structure_nth_field_name (all, i));
    const GstStructure *pair, *local;
    const gchar *local_id;
    GstWebRTCStatsType t;

    if (!GST_VALUE_HOLDS_STRUCTURE (v))
      continue;
    pair = gst_value_get_structure (v);
    if (!gst_structure_get (pair, "type", GST_TYPE_WEBRTC_STATS_TYPE, &t,
            NULL) || t != GST_WEBRTC_STATS_CANDIDATE_PAIR)
      continue;
    local_id = gst_structure_get_string (pair, "local-candidate-id");
    v = local_id ? gst_structure_get_value (all, local_id) : NULL;
    if (v && GST_VALUE_HOLDS_STRUCTURE (v)) {
      local = gst_value_get_structure (v);
      type = gst_structure_get_string (local, "candidate-type");
    }
  }
  if (type) {
    g_mutex_lock (&stage->lock);
    if (g_strcmp0 (stage->candidate_type, type) != 0) {
      g_free (stage->candidate_type);
      stage->candidate_type = g_strdup (type);
    }
    g_mutex_unlock (&stage->lock);
  }
  gst_promise_unref (promise);
}

/* Asks webrtcbin for its statistics; the answer comes on its thread and
 * updates what gst_session_stage_get_candidate_type returns. */
void
gst_session_stage_query_transport (GstSessionStage * stage)
{
  GstPromise *promise;

  if (is_dead (stage) || stage->webrtc == NULL)
    return;
  promise = gst_promise_new_with_change_func (on_webrtc_stats,
      stage_ref (stage), (GDestroyNotify) stage_unref);
  g_signal_emit_by_name (stage->webrtc, "get-stats", NULL, promise);
}

/* The local candidate type of the selected pair, or NULL (not known yet).
 * Free with g_free. */
gchar *
gst_session_stage_get_candidate_type (GstSessionStage * stage)
{
  gchar *type;

  g_mutex_lock (&stage->lock);
  type = g_strdup (stage->candidate_type);
  g_mutex_unlock (&stage->lock);
  return type;
}

/* A new jitterbuffer latency from now on (the path turned out slower than
 * the latency allows a retransmission). Call on the context. */
void
gst_session_stage_set_latency (GstSessionStage * stage, guint latency_ms)
{
  GstElement *jb;
  guint ssrc;

  g_mutex_lock (&stage->lock);
  stage->config.latency_ms = latency_ms;
  ssrc = stage->ssrc[GST_SESSION_OUTPUT_VIDEO];
  g_mutex_unlock (&stage->lock);
  g_object_set (stage->webrtc, "latency", latency_ms, NULL);
  if (!stage->config.loopback_only && (jb = find_jitterbuffer (stage, ssrc))) {
    set_dropout (stage, jb);
    gst_object_unref (jb);
  }
}

/* Gathers what the jitterbuffer and rtpsession know of the @kind stream.
 * Any thread; bounded (two property reads). */
void
gst_session_stage_get_transport_stats (GstSessionStage * stage,
    GstSessionOutputKind kind, GstSessionTransportStats * stats)
{
  GstElement *jb;
  GstStructure *s = NULL;
  guint ssrc;
  guint64 rtt = 0, jitter = 0;

  memset (stats, 0, sizeof (*stats));
  stats->rtx_round_trip = GST_CLOCK_TIME_NONE;
  g_mutex_lock (&stage->lock);
  ssrc = stage->ssrc[kind];
  g_mutex_unlock (&stage->lock);
  if (ssrc == 0 || stage->webrtc == NULL)
    return;
  jb = find_jitterbuffer (stage, ssrc);
  stats->valid = TRUE;
  session_source_stats (stage, ssrc, stats);
  if (jb == NULL)
    return;
  g_object_get (jb, "stats", &s, "latency", &stats->jitterbuffer_latency_ms,
      NULL);
  gst_object_unref (jb);
  if (s == NULL)
    return;
  gst_structure_get (s, "num-lost", G_TYPE_UINT64, &stats->packets_lost,
      "rtx-success-count", G_TYPE_UINT64, &stats->packets_recovered,
      "rtx-count", G_TYPE_UINT64, &stats->retransmissions_asked,
      "rtx-rtt", G_TYPE_UINT64, &rtt, "avg-jitter", G_TYPE_UINT64, &jitter,
      NULL);
  stats->jitter = jitter;
  if (rtt > 0)
    stats->rtx_round_trip = rtt;
  gst_structure_free (s);
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
    gpointer user_data)
{
  GstElementFactory *factory = gst_element_get_factory (element);

  if (factory && g_strcmp0 (GST_OBJECT_NAME (factory), "rtpsession") == 0)
    g_object_set (element, "rtcp-min-interval", FEEDBACK_INTERVAL,
        "rtcp-fraction", FEEDBACK_BANDWIDTH, "probation", 0u, NULL);
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
   * (it cannot know yet whether one before it is still coming): 200 ms of
   * every start off loopback. It starts at START_LATENCY_MS, and takes
   * its latency once media flows (raise_latency) */
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
      g_signal_connect (rtpbin, "element-added",
          G_CALLBACK (on_rtpbin_element_added), NULL);
      /* no reference: the stage owns rtpbin (a reference here would be a
       * cycle that kept the whole pipeline alive); disconnected in
       * gst_session_stage_free */
      g_signal_connect (rtpbin, "new-jitterbuffer",
          G_CALLBACK (on_new_jitterbuffer), stage);
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
   * PLI (and FIR) for a keyframe when a frame cannot be recovered */
  if (config->video)
    add_transceiver (stage, "application/x-rtp,media=video,"
        "encoding-name=VP8,payload=96,clock-rate=90000,"
        "rtcp-fb-nack=(boolean)true,rtcp-fb-nack-pli=(boolean)true,"
        "rtcp-fb-ccm-fir=(boolean)true;"
        "application/x-rtp,media=video,encoding-name=H264,payload=102,"
        "clock-rate=90000,packetization-mode=(string)1,"
        "profile-level-id=(string)42e01f,rtcp-fb-nack=(boolean)true,"
        "rtcp-fb-nack-pli=(boolean)true,rtcp-fb-ccm-fir=(boolean)true",
        !config->loopback_only);
  /* audio: Opus in-band FEC (each packet carries a coarse copy of the one
   * before it) and the decoder's concealment, as browsers do */
  if (config->audio)
    add_transceiver (stage, "application/x-rtp,media=audio,"
        "encoding-name=OPUS,payload=111,clock-rate=48000,"
        "encoding-params=(string)2,useinbandfec=(string)1,"
        "minptime=(string)10", FALSE);

  g_signal_connect (stage->webrtc, "pad-added", G_CALLBACK (on_pad_added),
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
  GstPromise *promise = gst_promise_new_with_change_func (on_offer_created,
      stage_ref (stage), (GDestroyNotify) stage_unref);

  g_signal_emit_by_name (stage->webrtc, "create-offer", NULL, promise);
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
  answer = gst_webrtc_session_description_new (GST_WEBRTC_SDP_TYPE_ANSWER, msg);
  promise = gst_promise_new ();
  g_signal_emit_by_name (stage->webrtc, "set-remote-description", answer,
      promise);
  gst_promise_interrupt (promise);
  gst_promise_unref (promise);
  gst_webrtc_session_description_free (answer);
  mark (stage, &stage->times.answer_set);
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
  stage_unref (stage);
}
