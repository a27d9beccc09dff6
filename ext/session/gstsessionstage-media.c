/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session stage's media (gstsessionstage.c): a chain per incoming
 * stream (depayloader, parser, decoder, appsink) and the loss recovery
 * around its jitterbuffer: retransmissions for video off loopback, the
 * keyframe asked for at the start and after a dropout of the path, the
 * latency raised once media flow.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/gstappsink.h>
#include <gst/rtp/rtp.h>
#include <gst/video/video.h>

#include "gstsessionstage-private.h"

#define GST_CAT_DEFAULT session_stage_debug

static GstFlowReturn
on_new_sample (GstAppSink * sink, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstSessionOutputKind kind =
      GPOINTER_TO_INT (g_object_get_data (G_OBJECT (sink), "kind"));

  if (sample == NULL)
    return GST_FLOW_EOS;
  if (!stage_is_dead (stage) && stage->cb.sample)
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
GstElement *
stage_find_jitterbuffer (GstSessionStage * stage, guint ssrc)
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

/* Whether every stream's first packet left its jitterbuffer (the stage's
 * lock held): until then the jitterbuffers keep their start latency */
gboolean
stage_streams_out (GstSessionStage * stage)
{
  guint expected = (stage->config.video ? 1 : 0) +
      (stage->config.audio ? 1 : 0);

  return stage->streams_out >= MAX (expected, 1);
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
static void
watch_packet (GapWatch * w, GstBuffer * buf)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;
  guint16 seq;
  guint32 rtptime, dropout;
  gint gap;

  /* a retransmission is an old packet: taken as the first, the new one
   * after it looked like a dropout */
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_RTP_BUFFER_FLAG_RETRANSMISSION) ||
      !gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp))
    return;
  seq = gst_rtp_buffer_get_seq (&rtp);
  rtptime = gst_rtp_buffer_get_timestamp (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  /* newer than the newest so far */
  gap = w->have ? gst_rtp_buffer_compare_seqnum (w->seq, seq) : 1;
  if (gap <= 0)
    return;
  dropout = (guint32) g_atomic_int_get (&w->stage->dropout_rtp);
  if (w->have && gap > 1 && rtptime - w->rtptime > dropout &&
      rtptime - w->rtptime < G_MAXINT32) {
    GST_DEBUG_OBJECT (w->stage->owner, "#%u after #%u: %u ticks later",
        seq, w->seq, rtptime - w->rtptime);
    stage_invoke (w->stage, ask_keyframe, NULL, NULL);
  }
  w->have = TRUE;
  w->seq = seq;
  w->rtptime = rtptime;
}

/* Every packet, alone or in a list (a buffer probe alone misses lists) */
static GstPadProbeReturn
on_video_rtp (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GapWatch *w = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST (info);
    guint i, n = list ? gst_buffer_list_length (list) : 0;

    for (i = 0; i < n; i++)
      watch_packet (w, gst_buffer_list_get (list, i));
  } else if (GST_PAD_PROBE_INFO_BUFFER (info)) {
    watch_packet (w, GST_PAD_PROBE_INFO_BUFFER (info));
  }
  return GST_PAD_PROBE_OK;
}

/* Lets the video's jitterbuffer reset after a dropout (max-dropout-time)
 * and tells on_video_rtp what one is: the latency and the margin. Called
 * once the video's jitterbuffer is known, and again when the latency
 * changes. */
void
stage_set_dropout (GstSessionStage * stage, GstElement * jb)
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
  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, on_video_rtp, w, g_free);
  gst_object_unref (sink);
}

/* GStreamer 1.22's webrtcbin sets a new jitterbuffer's do-retransmission
 * from every entry of its SSRC map in turn, not from the stream's own:
 * with audio and video both named in the answer, the last entry (audio,
 * which asks for no retransmission) won, and the video never sent a NACK
 * (found by tests/net/loss-recovery director). Set once the stream's kind
 * is known: retransmissions for video off loopback. */
/* A lost packet is asked for again at most this many times after the
 * first NACK (with rtx-next-seqnum off: packets still queued on a full
 * path were asked for, and the retransmissions kept it full) */
#define RTX_MAX_RETRIES 2

static void
set_retransmission (GstSessionStage * stage, guint ssrc, gboolean on)
{
  GstElement *jb = stage_find_jitterbuffer (stage, ssrc);

  if (jb) {
    g_object_set (jb, "do-retransmission", on, NULL);
    if (on)
      g_object_set (jb, "rtx-max-retries", RTX_MAX_RETRIES, "rtx-next-seqnum",
          FALSE, NULL);
    if (on) {
      stage_set_dropout (stage, jb);
      watch_dropouts (stage, jb);
    }
    gst_object_unref (jb);
  }
}

/* The probes on webrtcbin's pad hold no stage reference (one would keep
 * the stage, and its pipeline, whenever the pad never saw a buffer: a
 * session torn down before its first packet): the pad is the pipeline's,
 * and the stage lives until gst_session_stage_free brought the pipeline to
 * NULL, after which no buffer passes (its streaming threads stopped and
 * joined) and the stage's last reference drops the pipeline, pad and
 * probes with it. */
static GstPadProbeReturn
first_rtp_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstSessionStage *stage = user_data;
  gboolean all_out;

  stage_mark (stage, &stage->times.first_rtp);
  g_mutex_lock (&stage->lock);
  stage->streams_out++;
  all_out = stage_streams_out (stage);
  g_mutex_unlock (&stage->lock);
  /* once every stream's first packet left its jitterbuffer: a
   * jitterbuffer made after the rise held its stream's first packet for
   * the whole new latency (the director's video, when its audio came
   * first: a first frame 150-2000 ms later on the Internet profile) */
  if (all_out)
    stage_invoke (stage, raise_latency, NULL, NULL);
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
  GstSessionStage *stage;       /* not a reference (see first_rtp_probe) */
  gboolean h264;
} FirstVideo;

/* A keyframe request (upstream force-key-unit without all-headers:
 * rtpbin sends a PLI) is not
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
  /* a PLI, not a FIR: rtpsession 1.22 gives every count-0 FIR the last
   * one's number, and a sender ignores it as a repeat */
  gst_pad_push_event (pad,
      gst_video_event_new_upstream_force_key_unit (GST_CLOCK_TIME_NONE, FALSE,
          0));
  gst_object_unref (pad);
}

/* The depayloader's own keyframe requests (request-keyframe: all-headers,
 * count 0, a FIR rtpsession numbers once) go as the stage's, a PLI at
 * most once per interval (gst_session_stage_request_keyframe) */
static GstPadProbeReturn
depay_keyframe_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  gboolean all_headers = FALSE;

  if (!gst_video_event_is_force_key_unit (event) ||
      !gst_video_event_parse_upstream_force_key_unit (event, NULL,
          &all_headers, NULL) || !all_headers)
    return GST_PAD_PROBE_OK;
  gst_session_stage_request_keyframe (user_data);
  return GST_PAD_PROBE_DROP;
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

void
stage_on_pad_added (GstElement * webrtc, GstPad * pad, GstSessionStage * stage)
{
  GstCaps *caps;
  const GstStructure *s;
  const gchar *encoding;
  GstSessionOutputKind kind;
  GstPad *sinkpad;
  gboolean h264;

  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC || stage_is_dead (stage))
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
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, first_rtp_probe, stage,
      NULL);
  if (kind == GST_SESSION_OUTPUT_VIDEO) {
    FirstVideo *f = g_new0 (FirstVideo, 1);

    f->stage = stage;
    f->h264 = h264;
    g_mutex_lock (&stage->lock);
    gst_object_replace ((GstObject **) & stage->video_sink,
        GST_OBJECT (sinkpad));
    g_mutex_unlock (&stage->lock);
    gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, first_video_probe, f,
        g_free);
    gst_pad_add_probe (sinkpad, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM,
        depay_keyframe_probe, stage, NULL);
  }
  if (gst_pad_link (pad, sinkpad) != GST_PAD_LINK_OK)
    GST_ERROR_OBJECT (stage->owner, "cannot link the incoming stream");
  gst_object_unref (sinkpad);
}
