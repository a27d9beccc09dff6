/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * directorsrc against the reference service, over real WebRTC on
 * 127.0.0.1: configure and the effective settings, versioned prompts and
 * their refusals, immutable settings, a recording through stalls and a
 * session renewal checked on the file, A/V sync measured on a recording,
 * and the end of a stream.
 */

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <gst/pbutils/pbutils.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <string.h>

#include "service-harness.h"

#define FPS 24
#define RATE 32000
#define WAIT (20 * GST_SECOND)

/* ---- tapping the element's raw pads ---- */

typedef struct
{
  GMutex lock;
  GCond cond;
  guint buffers;
  GstCaps *caps;                /* the latest */
  gboolean eos;
} Tap;

static GstFlowReturn
tap_sample (GstAppSink * sink, gpointer data)
{
  Tap *t = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);

  if (sample == NULL)
    return GST_FLOW_EOS;
  g_mutex_lock (&t->lock);
  t->buffers++;
  gst_caps_replace (&t->caps, gst_sample_get_caps (sample));
  g_cond_broadcast (&t->cond);
  g_mutex_unlock (&t->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static void
tap_eos (GstAppSink * sink, gpointer data)
{
  Tap *t = data;

  g_mutex_lock (&t->lock);
  t->eos = TRUE;
  g_cond_broadcast (&t->cond);
  g_mutex_unlock (&t->lock);
}

static Tap *
tap_attach (GstElement * pipeline, const gchar * name)
{
  GstAppSinkCallbacks cb = { tap_eos, NULL, tap_sample, };
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  Tap *t = g_new0 (Tap, 1);

  fail_unless (sink != NULL, "no %s in the pipeline", name);
  g_mutex_init (&t->lock);
  g_cond_init (&t->cond);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, t, NULL);
  gst_object_unref (sink);
  return t;
}

static void
tap_free (Tap * t)
{
  gst_clear_caps (&t->caps);
  g_mutex_clear (&t->lock);
  g_cond_clear (&t->cond);
  g_free (t);
}

/* waits until @n more buffers than @from arrived; returns the caps then */
static GstCaps *
tap_wait (Tap * t, guint from, guint n, GstClockTime timeout)
{
  gint64 deadline = g_get_monotonic_time () + timeout / GST_USECOND;
  GstCaps *caps = NULL;

  g_mutex_lock (&t->lock);
  while (t->buffers < from + n && !t->eos)
    if (!g_cond_wait_until (&t->cond, &t->lock, deadline))
      break;
  if (t->buffers >= from + n && t->caps)
    caps = gst_caps_ref (t->caps);
  g_mutex_unlock (&t->lock);
  return caps;
}

static guint
tap_count (Tap * t)
{
  guint n;

  g_mutex_lock (&t->lock);
  n = t->buffers;
  g_mutex_unlock (&t->lock);
  return n;
}

/* ---- pipelines and messages ---- */

/* directorsrc name=src with @props, its pads into appsinks vsink, asink */
static GstElement *
director_pipeline (ServiceHarness * svc, const gchar * props)
{
  gchar *url = service_harness_url (svc, "director");
  gchar *desc = g_strdup_printf ("directorsrc name=src url=%s %s "
      "src.video ! appsink name=vsink sync=false "
      "src.audio ! appsink name=asink sync=false", url, props);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL, "%s", err ? err->message : "?");
  g_free (desc);
  g_free (url);
  return pipeline;
}

static GstElement *
get_src (GstElement * pipeline)
{
  return gst_bin_get_by_name (GST_BIN (pipeline), "src");
}

static void
stop_pipeline (GstElement * pipeline)
{
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

/* the text of the first warning, for failure messages (free it) */
static gchar *
first_warning (BusLog * log)
{
  GstMessage *msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, 0);
  GError *err = NULL;
  gchar *text;

  if (msg == NULL)
    return g_strdup ("none");
  gst_message_parse_warning (msg, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  return text;
}

static GstMessage *
expect (BusLog * log, const gchar * name, guint nth)
{
  GstMessage *msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, name, nth, WAIT);

  if (msg == NULL) {
    gchar *warning = first_warning (log);

    fail ("no %s message (#%u) within 20 s (first warning: %s)", name, nth,
        warning);
    g_free (warning);
  }
  return msg;
}

static gint64
field_int64 (GstMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_message_get_structure (msg);
  gint64 v = -1;

  fail_unless (gst_structure_get_int64 (s, field, &v),
      "%s has no integer %s: %" GST_PTR_FORMAT, gst_structure_get_name (s),
      field, s);
  return v;
}

static const gchar *
field_string (GstMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const gchar *v = gst_structure_get_string (s, field);

  fail_unless (v != NULL, "%s has no string %s: %" GST_PTR_FORMAT,
      gst_structure_get_name (s), field, s);
  return v;
}

/* the first @name message whose @field is @value (within 20 s) */
static GstMessage *
expect_with (BusLog * log, const gchar * name, const gchar * field,
    const gchar * value)
{
  gint64 deadline = g_get_monotonic_time () + WAIT / GST_USECOND;
  guint nth;

  for (nth = 1;; nth++) {
    gint64 left = MAX (deadline - g_get_monotonic_time (), 0);
    GstMessage *msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, name, nth,
        left * GST_USECOND);
    const GstStructure *s;
    gchar *v;
    gboolean found;

    fail_unless (msg != NULL, "no %s with %s=%s within 20 s", name, field,
        value);
    s = gst_message_get_structure (msg);
    v = gst_structure_has_field (s, field) ?
        gst_value_serialize (gst_structure_get_value (s, field)) : NULL;
    found = g_strcmp0 (v, value) == 0;
    g_free (v);
    if (found)
      return msg;
    gst_message_unref (msg);
  }
}

/* how many @name messages have @field = @value (serialized) so far */
static guint
count_with (BusLog * log, const gchar * name, const gchar * field,
    const gchar * value)
{
  guint nth, n = 0;
  GstMessage *msg;

  for (nth = 1; (msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, name, nth,
              0)) != NULL; nth++) {
    const GstStructure *s = gst_message_get_structure (msg);
    gchar *v = gst_structure_has_field (s, field) ?
        gst_value_serialize (gst_structure_get_value (s, field)) : NULL;

    n += g_strcmp0 (v, value) == 0;
    g_free (v);
    gst_message_unref (msg);
  }
  return n;
}

/* ---- recording, and decoding the recording ---- */

static gchar *
temp_path (const gchar * what, const gchar * ext)
{
  gchar *name = g_strdup_printf ("directorsrc-%s-%d.%s", what, getpid (),
      ext);
  gchar *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_free (name);
  return path;
}

/* directorsrc into a file: with @sync, Matroska with H.264 and raw audio
 * (no encoder delay to blur the A/V sync), and the raw output also goes,
 * in grey and mono, to appsinks rv and ra; else MP4 with H.264 and AAC */
static GstElement *
record_pipeline (ServiceHarness * svc, const gchar * props, const gchar * path,
    gboolean sync)
{
  gchar *url = service_harness_url (svc, "director");
  gchar *desc = g_strdup_printf ("directorsrc name=src url=%s %s "
      "src.video ! tee name=vt ! queue ! videoconvert ! x264enc "
      "tune=zerolatency speed-preset=ultrafast ! queue ! %s name=m ! "
      "filesink location=%s "
      "src.audio ! tee name=at ! queue ! audioconvert ! %s ! queue ! m. "
      "%s", url, props, sync ? "matroskamux" : "mp4mux", path,
      sync ? "audio/x-raw,format=S16LE" : "avenc_aac",
      sync ? "vt. ! queue ! videoconvert ! video/x-raw,format=GRAY8 ! "
      "appsink name=rv sync=false "
      "at. ! queue ! audioconvert ! audio/x-raw,format=S16LE,channels=1 ! "
      "appsink name=ra sync=false" : "");
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL, "%s", err ? err->message : "?");
  g_free (desc);
  g_free (url);
  return pipeline;
}

/* what a decoded recording holds */
typedef struct
{
  GArray *vpts;                 /* GstClockTime of every frame */
  GArray *markers;              /* PTS of the first frame of a white marker */
  GArray *clicks;               /* time of the first sample of a click */
  gboolean white;               /* the last frame had the marker */
  guint64 samples;
  gint rate;
  GstClockTime first_sample, end_sample;
  GstClockTime last_loud;
  GMutex lock;                  /* for markers, while running */
  GCond cond;
} Decoded;

/* a decoded buffer's running time: what a player renders it at (an MP4
 * edit list shows in the segment, not in the timestamps) */
static GstClockTime
sample_time (GstSample * sample, GstClockTime pts)
{
  return gst_segment_to_running_time (gst_sample_get_segment (sample),
      GST_FORMAT_TIME, pts);
}

/* the mean luma of the sync marker's square (top right, height / 8) */
static gdouble
marker_luma (GstSample * sample)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  gint side, x0, x, y, n = 0;
  gdouble sum = 0;

  fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)));
  fail_unless (gst_video_frame_map (&frame, &info,
          gst_sample_get_buffer (sample), GST_MAP_READ));
  side = GST_VIDEO_INFO_HEIGHT (&info) / 8;
  x0 = GST_VIDEO_INFO_WIDTH (&info) - side;
  for (y = 4; y < side - 4; y++) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = x0 + 4; x < x0 + side - 4; x++, n++)
      sum += row[x];
  }
  gst_video_frame_unmap (&frame);
  return n ? sum / n : 0;
}

static GstFlowReturn
decoded_video (GstAppSink * sink, gpointer data)
{
  Decoded *d = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstClockTime pts;
  gboolean white;

  if (sample == NULL)
    return GST_FLOW_EOS;
  pts = sample_time (sample, GST_BUFFER_PTS (gst_sample_get_buffer (sample)));
  g_array_append_val (d->vpts, pts);
  white = marker_luma (sample) > 160;
  g_mutex_lock (&d->lock);
  if (white && !d->white)
    g_array_append_val (d->markers, pts);
  g_cond_broadcast (&d->cond);
  g_mutex_unlock (&d->lock);
  d->white = white;
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* a click: a sample above half of full scale after 0.5 s without one (the
 * tone stays at a quarter) */
#define LOUD 16384

static GstFlowReturn
decoded_audio (GstAppSink * sink, gpointer data)
{
  Decoded *d = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buf;
  GstAudioInfo info;
  GstMapInfo map;
  GstClockTime pts;
  guint channels;
  guint i, n;

  if (sample == NULL)
    return GST_FLOW_EOS;
  buf = gst_sample_get_buffer (sample);
  pts = sample_time (sample, GST_BUFFER_PTS (buf));
  fail_unless (gst_audio_info_from_caps (&info, gst_sample_get_caps (sample)));
  d->rate = GST_AUDIO_INFO_RATE (&info);
  gst_buffer_map (buf, &map, GST_MAP_READ);
  channels = MAX (GST_AUDIO_INFO_CHANNELS (&info), 1);
  /* interleaved S16LE; the data may not be 2-byte aligned */
  n = map.size / 2;
  if (!GST_CLOCK_TIME_IS_VALID (d->first_sample))
    d->first_sample = pts;
  for (i = 0; i < n; i++) {
    GstClockTime t;
    gint16 v = (gint16) GST_READ_UINT16_LE (map.data + 2 * i);

    if (ABS ((gint) v) < LOUD)
      continue;
    t = pts + gst_util_uint64_scale_int (i / channels, GST_SECOND, d->rate);
    if (!GST_CLOCK_TIME_IS_VALID (d->last_loud) ||
        t > d->last_loud + GST_SECOND / 2)
      g_array_append_val (d->clicks, t);
    d->last_loud = t;
  }
  gst_buffer_unmap (buf, &map);
  n /= channels;
  d->samples += n;
  d->end_sample = pts + gst_util_uint64_scale_int (n, GST_SECOND, d->rate);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static void
on_decoded_pad (GstElement * decodebin, GstPad * pad, gpointer data)
{
  GstElement *pipeline = data;
  GstCaps *caps = gst_pad_get_current_caps (pad);
  const gchar *name = gst_structure_get_name (gst_caps_get_structure (caps,
          0));
  GstElement *q = gst_bin_get_by_name (GST_BIN (pipeline),
      g_str_has_prefix (name, "video/") ? "vq" : "aq");
  GstPad *sinkpad = gst_element_get_static_pad (q, "sink");

  fail_unless_equals_int (gst_pad_link (pad, sinkpad), GST_PAD_LINK_OK);
  gst_object_unref (sinkpad);
  gst_object_unref (q);
  gst_caps_unref (caps);
}

/* analyses what appsinks @vname (grey video) and @aname (mono S16) get */
static Decoded *
decoded_attach (GstElement * pipeline, const gchar * vname, const gchar * aname)
{
  GstAppSinkCallbacks vcb = { NULL, NULL, decoded_video, };
  GstAppSinkCallbacks acb = { NULL, NULL, decoded_audio, };
  Decoded *d = g_new0 (Decoded, 1);
  GstElement *sink;

  d->vpts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  d->markers = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  d->clicks = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  d->first_sample = d->end_sample = d->last_loud = GST_CLOCK_TIME_NONE;
  g_mutex_init (&d->lock);
  g_cond_init (&d->cond);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), vname);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &vcb, d, NULL);
  gst_object_unref (sink);
  sink = gst_bin_get_by_name (GST_BIN (pipeline), aname);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &acb, d, NULL);
  gst_object_unref (sink);
  return d;
}

/* Decodes @path to its end (failing without EOS): every video frame in
 * grey, the audio in mono S16 at the file's rate. */
static Decoded *
decode_file (const gchar * path)
{
  gchar *uri = gst_filename_to_uri (path, NULL);
  gchar *desc = g_strdup_printf ("uridecodebin name=dec uri=%s "
      "queue name=vq ! videoconvert ! video/x-raw,format=GRAY8 ! "
      "appsink name=v sync=false "
      "queue name=aq ! audioconvert ! audio/x-raw,format=S16LE,channels=1 ! "
      "appsink name=a sync=false", uri);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  Decoded *d;
  GstElement *dec;
  BusLog *log;
  GstMessage *msg;

  fail_unless (pipeline != NULL);
  d = decoded_attach (pipeline, "v", "a");
  dec = gst_bin_get_by_name (GST_BIN (pipeline), "dec");
  g_signal_connect (dec, "pad-added", G_CALLBACK (on_decoded_pad), pipeline);
  gst_object_unref (dec);

  log = bus_log_new (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = bus_log_wait (log, GST_MESSAGE_EOS | GST_MESSAGE_ERROR, NULL, 1,
      60 * GST_SECOND);
  fail_unless (msg != NULL, "decoding %s did not reach its end in 60 s", path);
  bus_log_assert_no_error (log);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  bus_log_free (log);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (uri);
  return d;
}

/* waits until @n markers were seen */
static gboolean
decoded_wait_markers (Decoded * d, guint n, GstClockTime timeout)
{
  gint64 deadline = g_get_monotonic_time () + timeout / GST_USECOND;
  gboolean ok;

  g_mutex_lock (&d->lock);
  while (d->markers->len < n)
    if (!g_cond_wait_until (&d->cond, &d->lock, deadline))
      break;
  ok = d->markers->len >= n;
  g_mutex_unlock (&d->lock);
  return ok;
}

static void
decoded_free (Decoded * d)
{
  g_mutex_clear (&d->lock);
  g_cond_clear (&d->cond);
  g_array_unref (d->vpts);
  g_array_unref (d->markers);
  g_array_unref (d->clicks);
  g_free (d);
}

/* Pairs each marker with the nearest click within 0.5 s; returns the
 * pairs, in @worst the largest offset (click minus marker) and in @missing
 * the markers without a click (but for one cut by the end). */
static guint
measure_sync (Decoded * d, const gchar * what, GstClockTimeDiff * worst,
    guint * missing)
{
  GstClockTime end;
  guint i, j, pairs = 0;

  fail_unless (d->vpts->len > 0);
  end = g_array_index (d->vpts, GstClockTime, d->vpts->len - 1);
  *worst = 0;
  *missing = 0;
  g_print ("measured (%s): %u markers, %u clicks at", what, d->markers->len,
      d->clicks->len);
  for (j = 0; j < d->clicks->len; j++)
    g_print (" %.3f", g_array_index (d->clicks, GstClockTime, j) / 1e9);
  g_print (" s\n");
  for (i = 0; i < d->markers->len; i++) {
    GstClockTime m = g_array_index (d->markers, GstClockTime, i);
    GstClockTimeDiff best = G_MAXINT64;

    for (j = 0; j < d->clicks->len; j++) {
      GstClockTimeDiff diff =
          GST_CLOCK_DIFF (m, g_array_index (d->clicks, GstClockTime, j));

      if (ABS (diff) < ABS (best))
        best = diff;
    }
    if (ABS (best) > GST_SECOND / 2) {
      g_print ("measured (%s): marker at %" GST_TIME_FORMAT ", no click\n",
          what, GST_TIME_ARGS (m));
      if (m + GST_SECOND / 2 <= end)
        (*missing)++;
      continue;
    }
    g_print ("measured (%s): marker at %" GST_TIME_FORMAT ", click %+.1f "
        "ms\n", what, GST_TIME_ARGS (m), best / 1e6);
    if (ABS (best) > ABS (*worst))
      *worst = best;
    pairs++;
  }
  return pairs;
}

static GstClockTime
file_duration (const gchar * path)
{
  GstDiscoverer *disc = gst_discoverer_new (10 * GST_SECOND, NULL);
  gchar *uri = gst_filename_to_uri (path, NULL);
  GstDiscovererInfo *info = gst_discoverer_discover_uri (disc, uri, NULL);
  GstClockTime duration;

  fail_unless (info != NULL);
  fail_unless_equals_int (gst_discoverer_info_get_result (info),
      GST_DISCOVERER_OK);
  duration = gst_discoverer_info_get_duration (info);
  gst_discoverer_info_unref (info);
  g_object_unref (disc);
  g_free (uri);
  return duration;
}

/* ---- tests ---- */

/* configure → configured with the effective settings; raw caps follow */
GST_START_TEST (test_configure_effective_settings)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a harbour at dawn\" resolution=480p aspect-ratio=1:1 "
      "memory=20 chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  Tap *v = tap_attach (pipeline, "vsink");
  Tap *a = tap_attach (pipeline, "asink");
  GstElement *src = get_src (pipeline);
  GstStructure *eff = NULL, *s;
  GstCaps *caps;
  GstMessage *msg;
  gboolean safety = FALSE;
  gint w = 0, h = 0, n = 0, d = 0, rate = 0, memory = 0, chunk = 0;
  gchar *res = NULL, *aspect = NULL;

  /* the settings read back as they were set */
  g_object_get (src, "resolution", &res, "aspect-ratio", &aspect, "memory",
      &memory, "chunk-duration", &chunk, NULL);
  fail_unless_equals_string (res, "480p");
  fail_unless_equals_string (aspect, "1:1");
  fail_unless_equals_int (memory, 20);
  fail_unless_equals_int (chunk, 5);
  g_free (res);
  g_free (aspect);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = expect (log, "director/configured", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  fail_unless_equals_int (field_int64 (msg, "memory"), 20);
  fail_unless_equals_int (field_int64 (msg, "chunk_duration"), 5);
  fail_unless_equals_string (field_string (msg, "resolution"), "480p");
  fail_unless_equals_string (field_string (msg, "aspect_ratio"), "1:1");
  /* what was not set: the service's defaults */
  fail_unless_equals_string (field_string (msg, "acceleration"), "regular");
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "enable_safety_checker", &safety) && safety);
  gst_message_unref (msg);

  g_object_get (src, "configured", &eff, NULL);
  fail_unless (eff != NULL, "no configured property");
  fail_unless_equals_string (gst_structure_get_string (eff, "resolution"),
      "480p");
  gst_structure_free (eff);

  /* the first chunk plays at the configured size */
  gst_message_unref (expect (log, "director/chunk", 1));
  caps = tap_wait (v, tap_count (v), 12, WAIT);
  fail_unless (caps != NULL, "no video after the first chunk");
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"), "%" GST_PTR_FORMAT,
      caps);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (w, 480);
  fail_unless_equals_int (h, 480);
  fail_unless_equals_int (n, FPS);
  fail_unless_equals_int (d, 1);
  gst_caps_unref (caps);

  caps = tap_wait (a, 0, 5, WAIT);
  fail_unless (caps != NULL, "no audio");
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "audio/x-raw"), "%" GST_PTR_FORMAT,
      caps);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "S16LE");
  fail_unless (gst_structure_get_int (s, "rate", &rate));
  fail_unless_equals_int (rate, RATE);
  gst_caps_unref (caps);
  bus_log_assert_no_error (log);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  tap_free (v);
  tap_free (a);
  service_harness_stop (svc);
}

GST_END_TEST;

/* a prompt change while playing: pending, then applied, as version 2 */
GST_START_TEST (test_prompt_versions)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a quiet forest\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gint64 last = 0, applied = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = expect (log, "director/configured", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  gst_message_unref (msg);

  g_object_set (src, "prompt", "the forest in a storm", NULL);
  g_object_get (src, "last-version", &last, NULL);
  fail_unless_equals_int (last, 2);
  msg = expect (log, "director/prompt_pending", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  gst_message_unref (expect_with (log, "director/prompt_applied",
          "prompt_version", "2"));
  g_object_get (src, "applied-version", &applied, "last-version", &last, NULL);
  fail_unless_equals_int (applied, 2);
  fail_unless_equals_int (last, 2);
  /* the chunk that applied it carries it */
  gst_message_unref (expect_with (log, "director/chunk", "prompt_version",
          "2"));
  bus_log_assert_no_error (log);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/error"), 0);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* a version not above the last accepted is sent as given; the service
 * refuses it */
GST_START_TEST (test_stale_prompt_version)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a desert road\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gboolean ok = FALSE;
  gint64 last = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  g_object_set (src, "prompt", "the road at night", NULL);
  msg = expect (log, "director/prompt_pending", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  g_signal_emit_by_name (src, "set-prompt", (gint64) 1, "the road at noon",
      &ok);
  fail_unless (ok, "set-prompt with an explicit old version was refused");
  msg = expect (log, "director/error", 1);
  fail_unless_equals_string (field_string (msg, "code"),
      "stale_prompt_version");
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  gst_message_unref (msg);
  g_object_get (src, "last-version", &last, NULL);
  fail_unless_equals_int (last, 2);
  /* only the accepted one was pending */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/prompt_pending"), 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* the service's blocked word: prompt_rejected, then an error */
GST_START_TEST (test_content_policy)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a lighthouse\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gint64 applied = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  g_object_set (src, "prompt", "a Forbidden lighthouse", NULL);
  msg = expect (log, "director/prompt_rejected", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  fail_unless_equals_string (field_string (msg, "reason"), "content_policy");
  gst_message_unref (msg);
  msg = expect (log, "director/error", 1);
  fail_unless_equals_string (field_string (msg, "code"), "content_policy");
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  /* never pending, never applied: the chunks keep version 1 */
  gst_message_unref (expect (log, "director/chunk", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/prompt_pending"), 0);
  g_object_get (src, "applied-version", &applied, NULL);
  fail_unless_equals_int (applied, 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* settings are fixed once configured: refused locally, nothing sent */
GST_START_TEST (test_immutable_settings)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a glacier\" memory=20");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  const GstStructure *details = NULL;
  GError *err = NULL;
  gboolean ok = FALSE;
  gint memory = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);

  g_object_set (src, "memory", 30, NULL);
  msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no warning for a setting changed while playing");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "memory") != NULL, "%s", err->message);
  gst_message_parse_warning_details (msg, &details);
  fail_unless (details != NULL);
  fail_unless_equals_string (gst_structure_get_string (details, "refused"),
      "memory");
  g_error_free (err);
  gst_message_unref (msg);
  g_object_get (src, "memory", &memory, NULL);
  fail_unless_equals_int (memory, 20);

  /* nothing went to the service: a ping's pong comes back first and no
   * immutable_settings error */
  g_signal_emit_by_name (src, "ping", &ok);
  fail_unless (ok);
  gst_message_unref (expect (log, "director/pong", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/error"), 0);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* EOS sent to the element: stop, stream_exhausted (stopped), then EOS */
GST_START_TEST (test_eos_sends_stop)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a city at night\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  Tap *v = tap_attach (pipeline, "vsink");
  Tap *a = tap_attach (pipeline, "asink");
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  GstCaps *caps;
  gboolean final = FALSE;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/chunk", 1));
  caps = tap_wait (v, 0, 24, WAIT);
  fail_unless (caps != NULL, "fewer than 24 frames after the first chunk");
  gst_caps_unref (caps);
  fail_unless (gst_element_send_event (src, gst_event_new_eos ()));

  msg = expect (log, "director/stream_exhausted", 1);
  fail_unless_equals_string (field_string (msg, "reason"), "stopped");
  fail_unless (field_int64 (msg, "chunks") >= 1);
  gst_message_unref (msg);
  /* the final session_metrics came before */
  msg = expect_with (log, "director/session_metrics", "final", "true");
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "final", &final) && final);
  gst_message_unref (msg);

  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no EOS after stream_exhausted");
  gst_message_unref (msg);
  fail_unless (v->eos && a->eos, "EOS did not reach both pads");
  /* stopped is final: no renewal */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "session/negotiated"), 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  tap_free (v);
  tap_free (a);
  service_harness_stop (svc);
}

GST_END_TEST;

/* no gap, no overlap: every frame 1/24 s after the one before (±1 ms) */
static void
assert_video_continuous (Decoded * d)
{
  GstClockTime frame = GST_SECOND / FPS;
  guint i;

  for (i = 1; i < d->vpts->len; i++) {
    GstClockTime a = g_array_index (d->vpts, GstClockTime, i - 1);
    GstClockTime b = g_array_index (d->vpts, GstClockTime, i);
    GstClockTimeDiff step = GST_CLOCK_DIFF (a, b);

    fail_unless (ABS (step - (GstClockTimeDiff) frame) <= GST_MSECOND,
        "frame %u at %" GST_TIME_FORMAT " follows %" GST_TIME_FORMAT, i,
        GST_TIME_ARGS (b), GST_TIME_ARGS (a));
  }
}

/* a recording through two stalls and one renewal at the session limit,
 * checked on the file */
GST_START_TEST (test_recording_stalls_and_renewal)
{
  /* each session: chunks at 1 s and 6 s after configure, the second one
   * 2 s late; the service ends the session after 12 s. A fault rule holds
   * one stall (a second --fault-stall replaces the first) and applies to
   * every session: one stall per session, two in all. */
  ServiceHarness *svc = service_harness_start ("--session-limit=12",
      "--fault-stall=4:2", NULL);
  gchar *path = temp_path ("stalls", "mp4");
  GstElement *pipeline = record_pipeline (svc,
      "prompt=\"a train crossing a bridge\" chunk-duration=5", path, FALSE);
  BusLog *log = bus_log_new (pipeline);
  GstMessage *msg;
  GstClockTime duration, span, aac_frame = GST_SECOND * 1024 / RATE;
  Decoded *d;
  gint64 expected;
  guint i;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, "session/negotiated", 2,
      40 * GST_SECOND);
  fail_unless (msg != NULL, "no second session within 40 s");
  gst_message_unref (msg);
  /* the second session's first chunk, its late chunk, then stop */
  gst_message_unref (expect (log, "director/deadline_missed", 2));
  gst_message_unref (expect (log, "director/chunk", 4));
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no EOS after stop");
  gst_message_unref (msg);
  bus_log_assert_no_error (log);

  /* what happened during the run */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/deadline_missed"), 2);
  for (i = 1; i <= 2; i++) {
    const GstStructure *s;
    gdouble late = 0;

    msg = expect (log, "director/deadline_missed", i);
    s = gst_message_get_structure (msg);
    fail_unless (gst_structure_get_double (s, "late_by_seconds", &late));
    fail_unless (late > 1.9 && late < 2.1, "late by %f s", late);
    fail_unless_equals_string (gst_structure_get_string (s, "behavior"),
        "freeze_video_and_silence_audio_until_ready");
    gst_message_unref (msg);
  }
  fail_unless_equals_int (count_with (log, "director/stream_exhausted",
          "reason", "session_limit"), 1);
  fail_unless_equals_int (count_with (log, "director/stream_exhausted",
          "reason", "stopped"), 1);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "session/negotiated"), 2);
  stop_pipeline (pipeline);
  bus_log_free (log);

  /* on the file */
  duration = file_duration (path);
  d = decode_file (path);
  fail_unless (d->vpts->len > 0 && d->samples > 0);
  span = g_array_index (d->vpts, GstClockTime, d->vpts->len - 1) +
      GST_SECOND / FPS - g_array_index (d->vpts, GstClockTime, 0);
  g_print ("measured: file %" GST_TIME_FORMAT ": %u frames over %"
      GST_TIME_FORMAT ", %" G_GUINT64_FORMAT " samples at %d Hz from %"
      GST_TIME_FORMAT " to %" GST_TIME_FORMAT "; video from %" GST_TIME_FORMAT
      "\n", GST_TIME_ARGS (duration), d->vpts->len, GST_TIME_ARGS (span),
      d->samples, d->rate, GST_TIME_ARGS (d->first_sample),
      GST_TIME_ARGS (d->end_sample), GST_TIME_ARGS (g_array_index (d->vpts,
              GstClockTime, 0)));
  assert_video_continuous (d);
  fail_unless (duration >= 18 * GST_SECOND && duration <= 30 * GST_SECOND,
      "duration %" GST_TIME_FORMAT, GST_TIME_ARGS (duration));
  expected = gst_util_uint64_scale_round (duration, FPS, GST_SECOND);
  fail_unless (ABS ((gint64) d->vpts->len - expected) <= 1,
      "%u video frames in %" GST_TIME_FORMAT " (%" G_GINT64_FORMAT
      " expected); the video runs from %" GST_TIME_FORMAT ", the audio from %"
      GST_TIME_FORMAT, d->vpts->len, GST_TIME_ARGS (duration), expected,
      GST_TIME_ARGS (g_array_index (d->vpts, GstClockTime, 0)),
      GST_TIME_ARGS (d->first_sample));
  fail_unless_equals_int (d->rate, RATE);
  expected = gst_util_uint64_scale_round (duration, RATE, GST_SECOND);
  fail_unless (ABS ((gint64) d->samples - expected) <=
      (gint64) gst_util_uint64_scale (aac_frame, RATE, GST_SECOND),
      "%" G_GUINT64_FORMAT " audio samples in %" GST_TIME_FORMAT " (%"
      G_GINT64_FORMAT " expected)", d->samples, GST_TIME_ARGS (duration),
      expected);

  decoded_free (d);
  g_unlink (path);
  g_free (path);
  service_harness_stop (svc);
}

GST_END_TEST;

/* Against a service started with @flag1 and @flag2 (or none), records
 * with raw taps until session @sessions and @markers sync markers on the
 * raw output, stops with EOS; then measures the
 * sync on the decoded file and on the raw output. Fails when a marker has
 * no click or a click is a frame or more away, on the file. */
static void
record_and_measure_sync (const gchar * flag1, const gchar * flag2,
    guint sessions, guint markers)
{
  ServiceHarness *svc = service_harness_start (flag1, flag2, NULL);
  gchar *path = temp_path ("sync", "mkv");
  GstElement *pipeline = record_pipeline (svc,
      "prompt=\"a drummer on a rooftop\" chunk-duration=5", path, TRUE);
  BusLog *log = bus_log_new (pipeline);
  Decoded *raw = decoded_attach (pipeline, "rv", "ra"), *d;
  GstMessage *msg;
  GstClockTimeDiff worst = 0;
  guint pairs, missing;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  if (sessions > 1) {
    msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, "session/negotiated",
        sessions, 40 * GST_SECOND);
    fail_unless (msg != NULL, "no session #%u within 40 s", sessions);
    gst_message_unref (msg);
  }
  if (!decoded_wait_markers (raw, markers, 40 * GST_SECOND)) {
    gchar *warning = first_warning (log);

    fail ("%u sync markers in %u frames of raw output within 40 s (%u "
        "chunks; first warning: %s)", raw->markers->len, raw->vpts->len,
        bus_log_count (log, GST_MESSAGE_ELEMENT, "director/chunk"), warning);
    g_free (warning);
  }
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no EOS after stop");
  gst_message_unref (msg);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  bus_log_free (log);

  /* the element's raw output, for the record */
  pairs = measure_sync (raw, "raw", &worst, &missing);
  g_print ("measured (raw): %u pairs, %u missing, worst %+.1f ms\n", pairs,
      missing, worst / 1e6);

  d = decode_file (path);
  pairs = measure_sync (d, "file", &worst, &missing);
  g_print ("measured (file): %u pairs, %u missing, worst %+.1f ms\n", pairs,
      missing, worst / 1e6);
  fail_unless (missing == 0, "%u sync markers without their click in the "
      "file", missing);
  fail_unless (pairs >= 2, "%u marker/click pairs found (%u markers, %u "
      "clicks)", pairs, d->markers->len, d->clicks->len);
  /* within two frames: a stream misplaced by a chunk, a stall or a
   * latency fails this by far. One frame is the target (docs/performance.md
   * reports the offsets against it), but the offset moves by up to about
   * 50 ms from session to session: rtpbin's lip-sync follows each sender
   * report with arrival-time estimates, which jitter with the service's
   * encoding time on a loaded machine */
  fail_unless (ABS (worst) < 2 * GST_SECOND / FPS, "a click is %+.1f ms "
      "away from its marker (more than two frames)", worst / 1e6);

  decoded_free (raw);
  decoded_free (d);
  g_unlink (path);
  g_free (path);
  service_harness_stop (svc);
}

/* A/V sync on a recording: at each chunk start the service turns the
 * marker square white and clicks, at the same instant of its timeline */
GST_START_TEST (test_av_sync_on_recording)
{
  /* chunk starts at 1, 6 and 11 s */
  record_and_measure_sync (NULL, NULL, 1, 3);
}

GST_END_TEST;

/* the same through a stall and a renewal (chunk starts at 1, 8, then in
 * the second session ~1 and ~8 s after its configure) */
GST_START_TEST (test_av_sync_through_stall_and_renewal)
{
  record_and_measure_sync ("--session-limit=12", "--fault-stall=4:2", 2, 4);
}

GST_END_TEST;

static Suite *
directorsrc_suite (void)
{
  Suite *s = suite_create ("directorsrc");
  TCase *tc = tcase_create ("service");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, service_harness_settle_threads);
  tcase_add_test (tc, test_configure_effective_settings);
  tcase_add_test (tc, test_prompt_versions);
  tcase_add_test (tc, test_stale_prompt_version);
  tcase_add_test (tc, test_content_policy);
  tcase_add_test (tc, test_immutable_settings);
  tcase_add_test (tc, test_eos_sends_stop);
  tcase_add_test (tc, test_recording_stalls_and_renewal);
  tcase_add_test (tc, test_av_sync_on_recording);
  tcase_add_test (tc, test_av_sync_through_stall_and_renewal);
  return s;
}

GST_CHECK_MAIN (directorsrc);
