/* gst-session-service: the live media of one session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One feeder per stream: an is-live appsrc whose need-data callback waits
 * on the pipeline clock until the next frame (or audio block) is due,
 * produces it and stamps it with its running time. Frames sit on a fixed
 * grid (frame k at k/fps s, audio sample n at n/48000 s), so the app can
 * put a marker on the same instant of both streams.
 *
 * Live mode:   appsrc (I420) ! textoverlay ! encoder ! payloader
 *              appsrc (S16 mono 48 kHz) ! opusenc ! rtpopuspay
 * Cached mode: appsrc (encoded) ! payloader, replaying a few seconds that
 *              were encoded once per process (per codec and size) with
 *              fresh timestamps; the controls do not show then.
 *
 * The live video encoder's bitrate follows the receiver's REMB, within
 * SVC_VIDEO_MIN_KBPS..SVC_VIDEO_KBPS; cached media, encoded once, cannot.
 *
 * Locks:
 * - SvcMedia.lock ("media lock") protects running, stopping, the stall
 *   range, the pending video size, the video bitrate and each feeder's
 *   wait_id. A leaf lock:
 *   nothing else is taken while it is held.
 * - cache_lock protects cache_table; held while a cache entry is built
 *   (other sessions needing the same cache wait). Taken without the media
 *   lock held.
 */

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>
#include <math.h>
#include <gst/app/app.h>
#include <gst/audio/audio.h>

#include "lossmeter.h"
#include "media.h"

typedef struct _SvcFeeder SvcFeeder;

typedef struct
{
  GstCaps *caps;
  GPtrArray *buffers;
} SvcCache;

struct _SvcFeeder
{
  SvcMedia *media;
  gboolean is_video;
  GstElement *bin;
  GstAppSrc *appsrc;
  GstElement *overlay;          /* live video only */
  GstElement *encoder;          /* live only: opusenc, the video encoder */
  GstElement *pay;
  gchar *last_text;
  /* media lock, live audio: the receiver's loss */
  SvcLossMeter loss;
  gint fec_percent;             /* what the encoder was last given */
  guint ssrc;                   /* main thread: the payloader's, 0 unread */

  /* streaming thread only */
  gboolean started;
  guint64 next;                 /* frame index, or sample offset */
  gint width, height;           /* size of the caps set on appsrc */
  SvcCache *cache;              /* cached mode */
  guint cache_pos;

  /* any thread: a key unit was asked for (a PLI or FIR); cached mode */
  gint keyframe_wanted;

  /* media lock */
  GstClockID wait_id;
};

struct _SvcMedia
{
  GMutex lock;
  GstBin *pipeline;
  SvcMediaSettings settings;
  SvcMediaCallbacks callbacks;
  gpointer user_data;
  SvcFeeder video;
  SvcFeeder audio;
  gchar *cached_label;

  /* media lock */
  gboolean running;
  gboolean stopping;
  GstClockTime stall_from;
  GstClockTime stall_until;
  gint pending_width;
  gint pending_height;
  gboolean size_forced;         /* a fault's size: the app's does not undo it */
  guint video_bitrate;          /* the live encoder's, bit/s; 0: cached */
};

static GMutex cache_lock;
static GHashTable *cache_table;

static const gchar *
encoder_description (SvcCodec codec)
{
  if (codec == SVC_CODEC_H264)
    return "x264enc name=enc tune=zerolatency speed-preset=ultrafast "
        "bitrate=" G_STRINGIFY (SVC_VIDEO_KBPS) " key-int-max=32 threads=1 "
        "! video/x-h264,profile=constrained-baseline,stream-format=byte-stream";
  return "vp8enc name=enc deadline=1 cpu-used=16 end-usage=cbr "
      "target-bitrate=" G_STRINGIFY (SVC_VIDEO_KBPS) "000 keyframe-max-dist=32 "
      "lag-in-frames=0 threads=1 error-resilient=default";
}

/* Opus with in-band FEC: each packet also carries a coarse copy of the
 * one before it, which a receiver decodes when that one was lost (as
 * browsers send when the offer says useinbandfec=1). The encoder adds it
 * only for an expected loss above zero, at the cost of the main signal's
 * bits: the cached loop (the loss tests' media) is encoded for 10 % loss;
 * live audio starts with none (on a clean path the sync clicks lost their
 * peaks with FEC: tests/service/director.c missed a click in 1 run of 4)
 * and follows the loss its receiver reports (svc_media_report_loss) */
#define OPUS_ENCODER(loss) "opusenc bitrate=64000 frame-size=20 " \
  "audio-type=generic inband-fec=true packet-loss-percentage=" #loss

static const gchar *
payloader_description (SvcCodec codec)
{
  if (codec == SVC_CODEC_H264)
    return "rtph264pay config-interval=-1 aggregate-mode=zero-latency mtu=1200";
  return "rtpvp8pay picture-id-mode=15-bit mtu=1200";
}

/* Every element a session of the service may create (media.c and
 * peer.c), with the Debian package that provides it: checked once at start
 * so that a missing plugin ends the service at once, not each session. */
static const GstSessionElementNeed needed_elements[] = {
  {"webrtcbin", "gstreamer1.0-plugins-bad"},
  {"nicesrc", "gstreamer1.0-nice"},
  {"nicesink", "gstreamer1.0-nice"},
  {"dtlssrtpenc", "gstreamer1.0-plugins-bad"},
  {"srtpenc", "gstreamer1.0-plugins-bad"},
  {"sctpenc", "gstreamer1.0-plugins-bad"},
  {"rtpbin", "gstreamer1.0-plugins-good"},
  {"appsrc", "gstreamer1.0-plugins-base"},
  {"appsink", "gstreamer1.0-plugins-base"},
  {"textoverlay", "gstreamer1.0-x"},
  {"vp8enc", "gstreamer1.0-plugins-good"},
  {"rtpvp8pay", "gstreamer1.0-plugins-good"},
  {"x264enc", "gstreamer1.0-plugins-ugly"},
  {"rtph264pay", "gstreamer1.0-plugins-good"},
  {"opusenc", "gstreamer1.0-plugins-base"},
  {"rtpopuspay", "gstreamer1.0-plugins-good"},
};

gboolean
svc_media_check_elements (GError ** error)
{
  return gst_session_check_elements (needed_elements,
      G_N_ELEMENTS (needed_elements), error);
}

static GstCaps *
raw_video_caps (gint width, gint height, gint fps)
{
  return gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "I420",
      "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
      "framerate", GST_TYPE_FRACTION, fps, 1, "pixel-aspect-ratio",
      GST_TYPE_FRACTION, 1, 1, NULL);
}

static GstCaps *
raw_audio_caps (void)
{
  return gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING,
      GST_AUDIO_NE (S16), "layout", G_TYPE_STRING, "interleaved",
      "rate", G_TYPE_INT, SVC_AUDIO_RATE, "channels", G_TYPE_INT, 1, NULL);
}

/* ---------------------------------------------------------------- *
 * producing one frame or block
 * ---------------------------------------------------------------- */

static GstBuffer *
render_video (SvcMedia * media, SvcFeeder * feeder, guint64 index,
    GstClockTime pts, gchar ** text)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buffer;
  GstCaps *caps = raw_video_caps (feeder->width, feeder->height,
      media->settings.fps);

  gst_video_info_from_caps (&info, caps);
  gst_caps_unref (caps);
  buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  if (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE)) {
    media->callbacks.draw (media->user_data, &frame, index, pts, text);
    gst_video_frame_unmap (&frame);
  }
  return buffer;
}

static void
fill_tone (gint16 * samples, guint n, guint64 offset)
{
  guint i;

  /* 220 Hz: one second holds a whole number of periods, so it loops */
  for (i = 0; i < n; i++)
    samples[i] = (gint16) (8000.0 * sin (2.0 * G_PI * 220.0 *
            (gdouble) ((offset + i) % SVC_AUDIO_RATE) / SVC_AUDIO_RATE));
}

static GstBuffer *
render_audio (SvcMedia * media, guint64 offset)
{
  GstBuffer *buffer = gst_buffer_new_allocate (NULL, SVC_AUDIO_BLOCK * 2,
      NULL);
  GstMapInfo map;

  if (gst_buffer_map (buffer, &map, GST_MAP_WRITE)) {
    memset (map.data, 0, map.size);
    if (media->callbacks.fill_audio)
      media->callbacks.fill_audio (media->user_data, (gint16 *) map.data,
          SVC_AUDIO_BLOCK, offset);
    gst_buffer_unmap (buffer, &map);
  }
  return buffer;
}

/* ---------------------------------------------------------------- *
 * cached mode: encode once per process
 * ---------------------------------------------------------------- */

/* --cache-dump: DIR/<codec>[-<w>x<h>].md5, a line per buffer of the loop
 * in order: "<index> <md5 of its bytes> key|delta". Written once per
 * cache (under cache_lock), replaced atomically. */
static void
dump_cache (SvcCache * cache, const gchar * dir, const gchar * codec,
    gint width, gint height)
{
  GString *text = g_string_new (NULL);
  gchar *name, *path;
  GError *error = NULL;
  guint i;

  for (i = 0; i < cache->buffers->len; i++) {
    GstBuffer *b = g_ptr_array_index (cache->buffers, i);
    GstMapInfo map;
    gchar *md5;

    if (!gst_buffer_map (b, &map, GST_MAP_READ))
      continue;
    md5 = g_compute_checksum_for_data (G_CHECKSUM_MD5, map.data, map.size);
    g_string_append_printf (text, "%u %s %s\n", i, md5,
        GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_DELTA_UNIT) ?
        "delta" : "key");
    g_free (md5);
    gst_buffer_unmap (b, &map);
  }
  name = width > 0 ? g_strdup_printf ("%s-%dx%d.md5", codec, width, height) :
      g_strdup_printf ("%s.md5", codec);
  path = g_build_filename (dir, name, NULL);
  if (g_mkdir_with_parents (dir, 0755) != 0 ||
      !g_file_set_contents (path, text->str, text->len, &error)) {
    g_printerr ("gst-session-service: cannot write %s: %s\n", path,
        error ? error->message : g_strerror (errno));
    g_clear_error (&error);
  }
  g_free (name);
  g_free (path);
  g_string_free (text, TRUE);
}

static SvcCache *
build_cache (SvcMedia * media, gboolean video, gint width, gint height)
{
  SvcMediaSettings *s = &media->settings;
  gchar *desc;
  GstElement *pipeline;
  GstAppSrc *src;
  GstAppSink *sink;
  GstSample *sample;
  GError *error = NULL;
  SvcCache *cache;
  guint i, n;

  if (video)
    desc = g_strdup_printf ("appsrc name=src format=time ! textoverlay "
        "valignment=top halignment=left font-desc=\"Sans 20\" "
        "shaded-background=true text=\"%s\" ! %s ! appsink name=sink "
        "sync=false", s->cached_label ? s->cached_label : "cached media",
        encoder_description (s->codec));
  else
    desc = g_strdup_printf ("appsrc name=src format=time ! %s ! appsink "
        "name=sink sync=false", OPUS_ENCODER (10));
  pipeline = gst_parse_launch (desc, &error);
  g_free (desc);
  if (!pipeline) {
    GST_ERROR ("cannot build the cache pipeline: %s", error->message);
    g_clear_error (&error);
    return NULL;
  }
  src = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (pipeline), "src"));
  sink = GST_APP_SINK (gst_bin_get_by_name (GST_BIN (pipeline), "sink"));
  if (video) {
    GstCaps *caps = raw_video_caps (width, height, s->fps);
    gst_app_src_set_caps (src, caps);
    gst_caps_unref (caps);
    n = s->cached_seconds * s->fps;
  } else {
    GstCaps *caps = raw_audio_caps ();
    gst_app_src_set_caps (src, caps);
    gst_caps_unref (caps);
    n = s->cached_seconds * (SVC_AUDIO_RATE / SVC_AUDIO_BLOCK);
  }
  /* a few raw frames queued at a time; the encoded ones wait in appsink */
  g_object_set (src, "max-bytes", (guint64) (video ? width * height * 6 :
          64 * 1024), "block", TRUE, NULL);
  GST_DEBUG ("building a cache of %u buffers", n);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  for (i = 0; i < n; i++) {
    GstBuffer *buffer;
    GstClockTime pts;

    if (video) {
      GstVideoInfo info;
      GstVideoFrame frame;
      GstCaps *caps = raw_video_caps (width, height, s->fps);
      gchar *text = NULL;

      gst_video_info_from_caps (&info, caps);
      gst_caps_unref (caps);
      buffer = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info),
          NULL);
      if (gst_video_frame_map (&frame, &info, buffer, GST_MAP_WRITE)) {
        media->callbacks.draw (media->user_data, &frame, 0, 0, &text);
        gst_video_frame_unmap (&frame);
      }
      g_free (text);
      pts = gst_util_uint64_scale (i, GST_SECOND, s->fps);
      GST_BUFFER_DURATION (buffer) = gst_util_uint64_scale (i + 1,
          GST_SECOND, s->fps) - pts;
    } else {
      GstMapInfo map;

      buffer = gst_buffer_new_allocate (NULL, SVC_AUDIO_BLOCK * 2, NULL);
      gst_buffer_map (buffer, &map, GST_MAP_WRITE);
      fill_tone ((gint16 *) map.data, SVC_AUDIO_BLOCK,
          (guint64) i * SVC_AUDIO_BLOCK);
      gst_buffer_unmap (buffer, &map);
      pts = gst_util_uint64_scale (i * SVC_AUDIO_BLOCK, GST_SECOND,
          SVC_AUDIO_RATE);
      GST_BUFFER_DURATION (buffer) = 20 * GST_MSECOND;
    }
    GST_BUFFER_PTS (buffer) = pts;
    gst_app_src_push_buffer (src, buffer);
  }
  gst_app_src_end_of_stream (src);
  GST_DEBUG ("cache input pushed");

  cache = g_new0 (SvcCache, 1);
  cache->buffers = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_buffer_unref);
  while ((sample = gst_app_sink_pull_sample (sink))) {
    if (!cache->caps)
      cache->caps = gst_caps_copy (gst_sample_get_caps (sample));
    g_ptr_array_add (cache->buffers,
        gst_buffer_ref (gst_sample_get_buffer (sample)));
    gst_sample_unref (sample);
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (src);
  gst_object_unref (sink);
  gst_object_unref (pipeline);

  if (!cache->caps || cache->buffers->len == 0) {
    GST_ERROR ("the cache pipeline produced nothing");
    g_ptr_array_unref (cache->buffers);
    g_free (cache);
    return NULL;
  }
  GST_INFO ("cached %u encoded %s buffers (%" GST_PTR_FORMAT ")",
      cache->buffers->len, video ? "video" : "audio", cache->caps);
  if (s->cache_dump)
    dump_cache (cache, s->cache_dump, video ?
        (s->codec == SVC_CODEC_H264 ? "h264" : "vp8") : "opus", width, height);
  return cache;
}

static SvcCache *
get_cache (SvcMedia * media, gboolean video, gint width, gint height)
{
  gchar *key;
  SvcCache *cache;

  if (video)
    key = g_strdup_printf ("%s/%dx%d@%d",
        media->settings.codec == SVC_CODEC_H264 ? "h264" : "vp8", width,
        height, media->settings.fps);
  else
    key = g_strdup ("opus");

  g_mutex_lock (&cache_lock);
  if (!cache_table)
    cache_table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cache = g_hash_table_lookup (cache_table, key);
  if (!cache) {
    cache = build_cache (media, video, width, height);
    if (cache)
      g_hash_table_insert (cache_table, g_strdup (key), cache);
  }
  g_mutex_unlock (&cache_lock);
  g_free (key);
  return cache;
}

/* ---------------------------------------------------------------- *
 * the feeder: pacing on the pipeline clock
 * ---------------------------------------------------------------- */

/* Waits until running time @time. FALSE when the media is stopping. */
static gboolean
feeder_wait_until (SvcFeeder * feeder, GstClockTime time)
{
  SvcMedia *media = feeder->media;
  GstClock *clock = gst_element_get_clock (GST_ELEMENT (feeder->appsrc));
  GstClockTime base = gst_element_get_base_time (GST_ELEMENT (feeder->appsrc));
  GstClockID id;
  gboolean stopping;

  if (!clock)
    return FALSE;

  g_mutex_lock (&media->lock);
  if (media->stopping) {
    g_mutex_unlock (&media->lock);
    gst_object_unref (clock);
    return FALSE;
  }
  id = gst_clock_new_single_shot_id (clock, base + time);
  feeder->wait_id = id;
  g_mutex_unlock (&media->lock);

  gst_clock_id_wait (id, NULL);

  g_mutex_lock (&media->lock);
  feeder->wait_id = NULL;
  stopping = media->stopping;
  g_mutex_unlock (&media->lock);
  gst_clock_id_unref (id);
  gst_object_unref (clock);
  return !stopping;
}

static GstClockTime
feeder_now (SvcFeeder * feeder)
{
  GstClock *clock = gst_element_get_clock (GST_ELEMENT (feeder->appsrc));
  GstClockTime now, base;

  if (!clock)
    return GST_CLOCK_TIME_NONE;
  now = gst_clock_get_time (clock);
  base = gst_element_get_base_time (GST_ELEMENT (feeder->appsrc));
  gst_object_unref (clock);
  return now > base ? now - base : 0;
}

static guint64
feeder_units (SvcFeeder * feeder)
{
  return feeder->is_video ? (guint64) feeder->media->settings.fps :
      SVC_AUDIO_RATE;
}

static GstClockTime
feeder_time (SvcFeeder * feeder, guint64 position)
{
  return gst_util_uint64_scale (position, GST_SECOND, feeder_units (feeder));
}

/* first grid position at or after @time */
static guint64
feeder_position (SvcFeeder * feeder, GstClockTime time)
{
  guint64 pos = gst_util_uint64_scale_ceil (time, feeder_units (feeder),
      GST_SECOND);

  if (!feeder->is_video)
    pos = (pos + SVC_AUDIO_BLOCK - 1) / SVC_AUDIO_BLOCK * SVC_AUDIO_BLOCK;
  return pos;
}

/* Decides the position of the next buffer: waits while the media is not
 * running, skips a stall range and catches up after falling behind.
 * FALSE when stopping. */
static gboolean
feeder_next_position (SvcFeeder * feeder, guint64 * position)
{
  SvcMedia *media = feeder->media;
  guint64 step = feeder->is_video ? 1 : SVC_AUDIO_BLOCK;

  for (;;) {
    GstClockTime now = feeder_now (feeder), time, from, until;
    gboolean running;

    if (!GST_CLOCK_TIME_IS_VALID (now))
      return FALSE;

    g_mutex_lock (&media->lock);
    running = media->running;
    from = media->stall_from;
    until = media->stall_until;
    g_mutex_unlock (&media->lock);

    if (!running) {
      if (!feeder_wait_until (feeder, now + 20 * GST_MSECOND))
        return FALSE;
      continue;
    }
    if (!feeder->started || feeder_time (feeder, feeder->next) +
        5 * feeder_time (feeder, step) < now) {
      /* video starts with the frame of the current slot, at once; audio
       * with the next whole block */
      feeder->next = feeder->is_video ? gst_util_uint64_scale (now,
          feeder_units (feeder), GST_SECOND) : feeder_position (feeder, now);
      feeder->started = TRUE;
    }
    time = feeder_time (feeder, feeder->next);
    if (GST_CLOCK_TIME_IS_VALID (from) && time >= from && time < until) {
      /* resume exactly where the late chunk starts, not on the next audio
       * block: its first samples (the sync click) must not be cut */
      feeder->next = gst_util_uint64_scale_ceil (until, feeder_units (feeder),
          GST_SECOND);
      continue;
    }
    *position = feeder->next;
    feeder->next += step;
    return TRUE;
  }
}

static void
set_overlay_text (SvcFeeder * feeder, gchar * text)
{
  if (!text)
    return;
  if (feeder->overlay && g_strcmp0 (text, feeder->last_text) != 0)
    g_object_set (feeder->overlay, "text", text, NULL);
  g_free (feeder->last_text);
  feeder->last_text = text;
}

static void
update_video_size (SvcFeeder * feeder)
{
  SvcMedia *media = feeder->media;
  gint width, height;
  GstCaps *caps;

  g_mutex_lock (&media->lock);
  width = media->pending_width;
  height = media->pending_height;
  g_mutex_unlock (&media->lock);

  if (width == feeder->width && height == feeder->height && (feeder->cache
          || !media->settings.cached))
    return;

  feeder->width = width;
  feeder->height = height;
  if (media->settings.cached) {
    feeder->cache = get_cache (media, TRUE, width, height);
    feeder->cache_pos = 0;
    caps = feeder->cache ? gst_caps_ref (feeder->cache->caps) : NULL;
  } else {
    caps = raw_video_caps (width, height, media->settings.fps);
  }
  if (caps) {
    GST_INFO ("video caps %" GST_PTR_FORMAT, caps);
    gst_app_src_set_caps (feeder->appsrc, caps);
    gst_caps_unref (caps);
  }
}

/* ---------------------------------------------------------------- *
 * key unit requests (cached mode)
 * ---------------------------------------------------------------- */

/* The receiver lost a frame for good (a PLI or FIR, turned into an
 * upstream force-key-unit event by rtpbin): the loop goes on from its next
 * keyframe instead of the frame due, as an encoder would make one at once.
 * Every frame sent is still one of the loop's. Streaming thread. */
static void
cache_skip_to_keyframe (SvcFeeder * feeder)
{
  SvcCache *cache = feeder->cache;
  guint len = cache->buffers->len, i;

  for (i = 0; i < len; i++) {
    GstBuffer *b = g_ptr_array_index (cache->buffers,
        (feeder->cache_pos + i) % len);

    if (!GST_BUFFER_FLAG_IS_SET (b, GST_BUFFER_FLAG_DELTA_UNIT)) {
      GST_DEBUG ("key unit asked for: %u frames skipped", i);
      feeder->cache_pos += i;
      return;
    }
  }
}

static GstPadProbeReturn
key_unit_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  SvcFeeder *feeder = user_data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);

  if (gst_video_event_is_force_key_unit (event)) {
    g_atomic_int_set (&feeder->keyframe_wanted, 1);
    return GST_PAD_PROBE_DROP;
  }
  return GST_PAD_PROBE_OK;
}

static void
load_audio_cache (SvcFeeder * feeder)
{
  if (feeder->media->settings.cached && !feeder->cache) {
    feeder->cache = get_cache (feeder->media, FALSE, 0, 0);
    if (feeder->cache)
      gst_app_src_set_caps (feeder->appsrc, feeder->cache->caps);
  }
}

static void
feeder_need_data (GstAppSrc * appsrc, guint length, gpointer user_data)
{
  SvcFeeder *feeder = user_data;
  SvcMedia *media = feeder->media;
  guint64 pos;
  GstClockTime pts, end;
  GstBuffer *buffer = NULL;

  /* what may take long (a cache to build, hundreds of ms) comes before
   * the position is chosen: a frame chosen before it would leave late,
   * and the next one skip ahead, a gap in the stream's own timeline */
  if (feeder->is_video)
    update_video_size (feeder);
  else
    load_audio_cache (feeder);
  if (!feeder_next_position (feeder, &pos))
    return;

  if (feeder->is_video) {
    pts = feeder_time (feeder, pos);
    end = feeder_time (feeder, pos + 1);
  } else {
    pts = feeder_time (feeder, pos);
    end = feeder_time (feeder, pos + SVC_AUDIO_BLOCK);
  }

  /* Without sound, a frame leaves at its instant, as a camera's (or
   * videotestsrc is-live) does: the world's frames are shown as soon as
   * the model makes them. With sound, every buffer leaves once its span is
   * over (an audio block once complete), so that audio and video reach the
   * network with the relation of their timestamps, which is the one the
   * sender reports. */
  if (!feeder_wait_until (feeder, feeder->is_video && !media->settings.audio ?
          pts : end))
    return;

  if (feeder->cache) {
    SvcCache *cache = feeder->cache;

    if (g_atomic_int_compare_and_exchange (&feeder->keyframe_wanted, 1, 0))
      cache_skip_to_keyframe (feeder);
    buffer = gst_buffer_copy (g_ptr_array_index (cache->buffers,
            feeder->cache_pos % cache->buffers->len));
    feeder->cache_pos++;
    GST_BUFFER_DTS (buffer) = pts;
  } else if (feeder->is_video) {
    gchar *text = NULL;

    buffer = render_video (media, feeder, pos, pts, &text);
    set_overlay_text (feeder, text);
  } else if (!media->settings.cached) {
    buffer = render_audio (media, pos);
    GST_BUFFER_OFFSET (buffer) = pos;
  }
  if (!buffer)
    return;

  GST_BUFFER_PTS (buffer) = pts;
  GST_BUFFER_DURATION (buffer) = end - pts;
  GST_LOG ("%s position %" G_GUINT64_FORMAT " at %" GST_TIME_FORMAT "%s",
      feeder->is_video ? "video" : "audio", pos, GST_TIME_ARGS (pts),
      GST_BUFFER_FLAG_IS_SET (buffer, GST_BUFFER_FLAG_DELTA_UNIT) ? "" :
      " (key)");
  if (gst_app_src_push_buffer (appsrc, buffer) != GST_FLOW_OK)
    return;

  if (feeder->is_video && media->callbacks.frame_sent)
    media->callbacks.frame_sent (media->user_data, pos, pts);
}

/* ---------------------------------------------------------------- *
 * construction
 * ---------------------------------------------------------------- */

static gboolean
feeder_init (SvcMedia * media, SvcFeeder * feeder, gboolean video,
    GError ** error)
{
  SvcMediaSettings *s = &media->settings;
  GstAppSrcCallbacks callbacks = { feeder_need_data, NULL, NULL };
  gchar *desc;
  GstCaps *caps = NULL;
  GstClockTime latency;

  feeder->media = media;
  feeder->is_video = video;
  if (video && s->cached)
    desc = g_strdup_printf ("appsrc name=src ! %s name=pay pt=%u",
        payloader_description (s->codec), s->video_pt);
  else if (video)
    desc = g_strdup_printf ("appsrc name=src ! textoverlay name=overlay "
        "valignment=top halignment=left line-alignment=left "
        "font-desc=\"Sans 16\" shaded-background=true wrap-mode=wordchar "
        "! %s ! %s name=pay pt=%u", encoder_description (s->codec),
        payloader_description (s->codec), s->video_pt);
  else if (s->cached)
    desc = g_strdup_printf ("appsrc name=src ! rtpopuspay name=pay pt=%u",
        s->audio_pt);
  else
    desc = g_strdup_printf ("appsrc name=src ! %s name=enc ! rtpopuspay "
        "name=pay pt=%u", OPUS_ENCODER (0), s->audio_pt);

  /* no ghosting of unlinked pads: a ghosted text pad of textoverlay would
   * make it wait for text buffers */
  feeder->bin = gst_parse_bin_from_description (desc, FALSE, error);
  g_free (desc);
  if (!feeder->bin)
    return FALSE;
  gst_object_ref_sink (feeder->bin);
  {
    GstElement *pay = gst_bin_get_by_name (GST_BIN (feeder->bin), "pay");
    GstPad *src = gst_element_get_static_pad (pay, "src");

    gst_element_add_pad (feeder->bin, gst_ghost_pad_new ("src", src));
    gst_object_unref (src);
    feeder->pay = pay;
  }
  feeder->encoder = gst_bin_get_by_name (GST_BIN (feeder->bin), "enc");
  /* live VP8 rate control over a second, as libwebrtc's (vpxenc's own is
   * 6 s): a new bitrate shows within about a second */
  if (video && !s->cached && s->codec == SVC_CODEC_VP8 && feeder->encoder)
    g_object_set (feeder->encoder, "buffer-size", 1000,
        "buffer-initial-size", 500, "buffer-optimal-size", 600, NULL);
  feeder->fec_percent = 0;
  feeder->ssrc = 0;
  memset (&feeder->loss, 0, sizeof (feeder->loss));
  feeder->appsrc = GST_APP_SRC (gst_bin_get_by_name (GST_BIN (feeder->bin),
          "src"));
  feeder->overlay = gst_bin_get_by_name (GST_BIN (feeder->bin), "overlay");
  if (video && s->cached) {
    /* live mode: the encoder answers key unit requests itself */
    GstPad *src = gst_element_get_static_pad (GST_ELEMENT (feeder->appsrc),
        "src");

    gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_EVENT_UPSTREAM,
        key_unit_probe, feeder, NULL);
    gst_object_unref (src);
  }

  if (!video && !s->cached)
    caps = raw_audio_caps ();
  if (caps) {
    gst_app_src_set_caps (feeder->appsrc, caps);
    gst_caps_unref (caps);
  }
  latency = video ? GST_SECOND / s->fps : 20 * GST_MSECOND;
  g_object_set (feeder->appsrc, "is-live", TRUE, "format", GST_FORMAT_TIME,
      "min-latency", (gint64) latency, "max-latency", (gint64) latency,
      "max-bytes", (guint64) 0, "max-buffers", (guint64) 2, NULL);
  gst_app_src_set_callbacks (feeder->appsrc, &callbacks, feeder, NULL);
  gst_bin_add (media->pipeline, feeder->bin);
  return TRUE;
}

SvcMedia *
svc_media_new (GstBin * pipeline, const SvcMediaSettings * settings,
    const SvcMediaCallbacks * callbacks, gpointer user_data, GError ** error)
{
  SvcMedia *media = g_new0 (SvcMedia, 1);

  g_mutex_init (&media->lock);
  media->pipeline = gst_object_ref (pipeline);
  media->settings = *settings;
  media->settings.cached_label = media->cached_label =
      g_strdup (settings->cached_label);
  media->callbacks = *callbacks;
  media->user_data = user_data;
  media->stall_from = media->stall_until = GST_CLOCK_TIME_NONE;
  media->pending_width = settings->width;
  media->pending_height = settings->height;
  media->video_bitrate = settings->cached ? 0 : SVC_VIDEO_KBPS * 1000;

  if (!feeder_init (media, &media->video, TRUE, error) ||
      (settings->audio && !feeder_init (media, &media->audio, FALSE, error))) {
    svc_media_free (media);
    return NULL;
  }
  /* cached media: the loops of this size are encoded now (once per
   * process), before the answer, not once the client waits for frames */
  if (settings->cached) {
    update_video_size (&media->video);
    if (settings->audio)
      load_audio_cache (&media->audio);
  }
  return media;
}

static GstPad *
feeder_pad (SvcFeeder * feeder)
{
  return feeder->bin ? gst_element_get_static_pad (feeder->bin, "src") : NULL;
}

GstPad *
svc_media_get_video_pad (SvcMedia * media)
{
  return feeder_pad (&media->video);
}

GstPad *
svc_media_get_audio_pad (SvcMedia * media)
{
  return feeder_pad (&media->audio);
}

void
svc_media_start (SvcMedia * media)
{
  g_mutex_lock (&media->lock);
  if (!media->running) {
    media->running = TRUE;
    /* a feeder waiting for the start goes on at once */
    if (media->video.wait_id)
      gst_clock_id_unschedule (media->video.wait_id);
    if (media->audio.wait_id)
      gst_clock_id_unschedule (media->audio.wait_id);
  }
  g_mutex_unlock (&media->lock);
}

/* Wakes the feeders and makes them return: call before the pipeline goes
 * to NULL, or the state change waits for a clock wait. */
void
svc_media_stop (SvcMedia * media)
{
  g_mutex_lock (&media->lock);
  media->stopping = TRUE;
  if (media->video.wait_id)
    gst_clock_id_unschedule (media->video.wait_id);
  if (media->audio.wait_id)
    gst_clock_id_unschedule (media->audio.wait_id);
  g_mutex_unlock (&media->lock);
}

/* A receiver report about one of this media's streams: @lost packets
 * lost in all and @highest the extended highest sequence number received.
 * Live audio adds in-band FEC for the loss its receiver sees (over
 * windows of a second, smoothed), and takes it away when the path is
 * clean again. Not the report's own fraction: a receiver that asks for
 * retransmissions sends reports many times a second, each over a few
 * packets (0 %, then 25 %). Any thread. */
void
svc_media_report_loss (SvcMedia * media, guint32 ssrc, gint32 lost,
    guint32 highest)
{
  SvcFeeder *feeder = &media->audio;
  gdouble pct;
  gint level;

  if (feeder->encoder == NULL || feeder->pay == NULL)
    return;
  if (feeder->ssrc == 0) {
    /* read once: it is fixed when the payloader negotiates */
    GstStructure *stats = NULL;

    g_object_get (feeder->pay, "stats", &stats, NULL);
    if (stats) {
      gst_structure_get_uint (stats, "ssrc", &feeder->ssrc);
      gst_structure_free (stats);
    }
  }
  if (feeder->ssrc == 0 || feeder->ssrc != ssrc)
    return;

  g_mutex_lock (&media->lock);
  if (!svc_loss_meter_report (&feeder->loss, g_get_monotonic_time (), lost,
          highest, &pct)) {
    g_mutex_unlock (&media->lock);
    return;
  }
  level = svc_loss_level (pct, feeder->fec_percent);
  if (level == feeder->fec_percent) {
    g_mutex_unlock (&media->lock);
    return;
  }
  feeder->fec_percent = level;
  g_mutex_unlock (&media->lock);
  GST_INFO ("receiver loss %.1f %%: audio in-band FEC for %d %% loss", pct,
      level);
  g_object_set (feeder->encoder, "packet-loss-percentage", level, NULL);
}

/* No media has presentation times in [from, until). */
void
svc_media_stall (SvcMedia * media, GstClockTime from, GstClockTime until)
{
  g_mutex_lock (&media->lock);
  media->stall_from = from;
  media->stall_until = until;
  g_mutex_unlock (&media->lock);
}

/* The receiver's estimate (a REMB), bit/s: the live video encoder sends
 * at it, clamped to its range. Cached media cannot: nothing changes. */
void
svc_media_set_video_bitrate (SvcMedia * media, guint64 bitrate)
{
  SvcFeeder *feeder = &media->video;
  guint kbps = (guint) CLAMP (bitrate / 1000, SVC_VIDEO_MIN_KBPS,
      SVC_VIDEO_KBPS);

  g_mutex_lock (&media->lock);
  if (feeder->encoder == NULL || media->video_bitrate == kbps * 1000) {
    g_mutex_unlock (&media->lock);
    return;
  }
  media->video_bitrate = kbps * 1000;
  g_mutex_unlock (&media->lock);
  GST_INFO ("receiver estimate %" G_GUINT64_FORMAT " bit/s: video encoder "
      "at %u kbit/s", bitrate, kbps);
  if (media->settings.codec == SVC_CODEC_H264)
    g_object_set (feeder->encoder, "bitrate", kbps, NULL);
  else
    g_object_set (feeder->encoder, "target-bitrate", (gint) kbps * 1000, NULL);
}

/* The live video encoder's bitrate now, bit/s; 0 for cached media */
gint64
svc_media_get_video_bitrate (SvcMedia * media)
{
  guint bitrate;

  g_mutex_lock (&media->lock);
  bitrate = media->video_bitrate;
  g_mutex_unlock (&media->lock);
  return bitrate;
}

void
svc_media_set_video_size (SvcMedia * media, gint width, gint height)
{
  g_mutex_lock (&media->lock);
  if (!media->size_forced) {
    media->pending_width = width;
    media->pending_height = height;
  }
  g_mutex_unlock (&media->lock);
}

/* A fault's size, kept whatever the app configures after it (a director's
 * configure that came after the fault undid it: the matrix saw 1360x768) */
void
svc_media_force_video_size (SvcMedia * media, gint width, gint height)
{
  g_mutex_lock (&media->lock);
  media->pending_width = width;
  media->pending_height = height;
  media->size_forced = TRUE;
  g_mutex_unlock (&media->lock);
}

void
svc_media_get_video_size (SvcMedia * media, gint * width, gint * height)
{
  g_mutex_lock (&media->lock);
  *width = media->pending_width;
  *height = media->pending_height;
  g_mutex_unlock (&media->lock);
}

GstClockTime
svc_media_get_running_time (SvcMedia * media)
{
  GstClock *clock = gst_element_get_clock (GST_ELEMENT (media->pipeline));
  GstClockTime now, base;

  if (!clock)
    return GST_CLOCK_TIME_NONE;
  now = gst_clock_get_time (clock);
  base = gst_element_get_base_time (GST_ELEMENT (media->pipeline));
  gst_object_unref (clock);
  return now > base ? now - base : 0;
}

GstClockTime
svc_media_frame_time (SvcMedia * media, guint64 index)
{
  return gst_util_uint64_scale (index, GST_SECOND, media->settings.fps);
}

guint64
svc_media_frame_at (SvcMedia * media, GstClockTime time)
{
  return gst_util_uint64_scale_ceil (time, media->settings.fps, GST_SECOND);
}

static void
feeder_clear (SvcFeeder * feeder)
{
  g_clear_pointer (&feeder->last_text, g_free);
  if (feeder->appsrc)
    gst_object_unref (feeder->appsrc);
  if (feeder->overlay)
    gst_object_unref (feeder->overlay);
  gst_clear_object (&feeder->encoder);
  gst_clear_object (&feeder->pay);
  if (feeder->bin)
    gst_object_unref (feeder->bin);
  feeder->appsrc = NULL;
  feeder->overlay = NULL;
  feeder->bin = NULL;
}

/* The pipeline must be in NULL already. */
void
svc_media_free (SvcMedia * media)
{
  feeder_clear (&media->video);
  feeder_clear (&media->audio);
  gst_object_unref (media->pipeline);
  g_free (media->cached_label);
  g_mutex_clear (&media->lock);
  g_free (media);
}
