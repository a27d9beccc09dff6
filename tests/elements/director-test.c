/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the directorsrc test programs share (see director-test.h).
 */

#include <gst/video/video.h>
#include <gst/audio/audio.h>
#include <gst/pbutils/pbutils.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "director-test.h"

#define LOUD 16384

/* ---- tapping the element's raw pads ---- */


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

Tap *
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

void
tap_free (Tap * t)
{
  gst_clear_caps (&t->caps);
  g_mutex_clear (&t->lock);
  g_cond_clear (&t->cond);
  g_free (t);
}

/* waits until @n more buffers than @from arrived; returns the caps then */
GstCaps *
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

guint
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
GstElement *
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

/* the text of the first warning, for failure messages (free it) */
gchar *
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

GstMessage *
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

gint64
field_int64 (GstMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_message_get_structure (msg);
  gint64 v = -1;

  fail_unless (gst_structure_get_int64 (s, field, &v),
      "%s has no integer %s: %" GST_PTR_FORMAT, gst_structure_get_name (s),
      field, s);
  return v;
}

const gchar *
field_string (GstMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const gchar *v = gst_structure_get_string (s, field);

  fail_unless (v != NULL, "%s has no string %s: %" GST_PTR_FORMAT,
      gst_structure_get_name (s), field, s);
  return v;
}

/* the first @name message whose @field is @value (within 20 s) */
GstMessage *
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
guint
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

gchar *
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
GstElement *
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
Decoded *
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
Decoded *
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
gboolean
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

void
decoded_free (Decoded * d)
{
  g_mutex_clear (&d->lock);
  g_cond_clear (&d->cond);
  g_array_unref (d->vpts);
  g_array_unref (d->markers);
  g_array_unref (d->clicks);
  g_free (d);
}

/* Whether a pair whose earlier half is at @t (@d's time; @shift later on
 * the element's running time) keeps the sender's relation by the element's
 * word: a session/synced (@synced: their running times) at or before it,
 * and none in the PRESYNC_WINDOW after it (a renewed session's start). */
static gboolean
after_sync (const GArray * synced, GstClockTime t, GstClockTime shift)
{
  gboolean after = FALSE;
  guint k;

  t += shift;
  for (k = 0; k < synced->len; k++) {
    GstClockTime s = g_array_index (synced, GstClockTime, k);

    if (s <= t)
      after = TRUE;
    else if (s <= t + PRESYNC_WINDOW)
      return FALSE;
  }
  return after;
}

/* Pairs each marker with the nearest click within 0.5 s; returns the
 * pairs, in @worst the largest offset (click minus marker) of those that
 * came after the element said the session's streams keep the sender's
 * relation (after_sync), in @presync that of the @before others, and in
 * @missing the markers without a click (but for one cut by the end). */
guint
measure_sync (Decoded * d, const gchar * what, const GArray * synced,
    GstClockTime shift, GstClockTimeDiff * worst, GstClockTimeDiff * presync,
    guint * missing, guint * before)
{
  GstClockTime end;
  guint i, j, pairs = 0;

  fail_unless (d->vpts->len > 0);
  end = g_array_index (d->vpts, GstClockTime, d->vpts->len - 1);
  *worst = 0;
  *presync = 0;
  *missing = 0;
  *before = 0;
  g_print ("measured (%s): %u markers, %u clicks at", what, d->markers->len,
      d->clicks->len);
  for (j = 0; j < d->clicks->len; j++)
    g_print (" %.3f", g_array_index (d->clicks, GstClockTime, j) / 1e9);
  g_print (" s\n");
  for (i = 0; i < d->markers->len; i++) {
    GstClockTime m = g_array_index (d->markers, GstClockTime, i);
    GstClockTimeDiff best = G_MAXINT64;
    gboolean after;

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
    after = after_sync (synced, MIN (m, (GstClockTime) (m + best)), shift);
    g_print ("measured (%s): marker at %" GST_TIME_FORMAT ", click %+.1f "
        "ms%s\n", what, GST_TIME_ARGS (m), best / 1e6,
        after ? "" : " (before session/synced)");
    if (!after)
      (*before)++;
    if (ABS (best) > ABS (after ? *worst : *presync))
      *(after ? worst : presync) = best;
    pairs++;
  }
  return pairs;
}
