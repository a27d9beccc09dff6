/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output timeline's test fixture (timeline-test.h).
 */

#include "timeline-test.h"

/* An output of @kind in a bin of its own in the timeline's, its pad
 * linked to a new appsink (@sink) */
static GstSessionOutput *
output_in_bin (Timeline * t, GstSessionOutputKind kind, GstElement ** sink)
{
  const gchar *name = kind == GST_SESSION_OUTPUT_VIDEO ? "video" : "audio";
  GstPadTemplate *templ = gst_pad_template_new (name, GST_PAD_SRC,
      GST_PAD_ALWAYS, GST_CAPS_ANY);
  GstElement *inner = gst_bin_new (NULL);
  GstSessionOutput *out;
  GstPad *sinkpad;

  gst_bin_add (t->bin, inner);
  out = gst_session_output_new (GST_BIN (inner), name, templ, kind, &t->origin);
  gst_object_unref (templ);
  *sink = gst_element_factory_make ("appsink", NULL);
  g_object_set (*sink, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add (t->bin, *sink);
  sinkpad = gst_element_get_static_pad (*sink, "sink");
  fail_unless_equals_int (gst_pad_link (gst_session_output_get_pad (out),
          sinkpad), GST_PAD_LINK_OK);
  gst_object_unref (sinkpad);
  return out;
}

void
timeline_init_rate (Timeline * t, gboolean encoded, gint fps)
{
  memset (t, 0, sizeof (*t));
  t->bin = GST_BIN (gst_object_ref_sink (gst_pipeline_new ("timeline")));
  t->clock = GST_TEST_CLOCK (gst_test_clock_new ());
  gst_pipeline_use_clock (GST_PIPELINE (t->bin), GST_CLOCK (t->clock));
  gst_session_output_origin_init (&t->origin);
  t->origin.has_video = TRUE;
  /* the output lives in a bin, as in the element, linked to an appsink
   * (what leaves it, collected by collect_output ()) */
  t->out = output_in_bin (t, GST_SESSION_OUTPUT_VIDEO, &t->sink);
  fail_if (gst_element_set_state (GST_ELEMENT (t->bin), GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE);
  t->frame = GST_SECOND / fps;
  gst_session_output_set_nominal_rate (t->out, fps, 1);
  gst_session_output_start (t->out, GST_CLOCK (t->clock), 0);
  t->encoded = encoded;
  t->caps = gst_caps_new_simple (encoded ? "video/x-vp8" : "video/x-raw",
      "width", G_TYPE_INT, 16, "height", G_TYPE_INT, 16, "framerate",
      GST_TYPE_FRACTION, fps, 1, NULL);
  if (!encoded)
    gst_caps_set_simple (t->caps, "format", G_TYPE_STRING, "I420", NULL);
  t->pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
}

/* worldsrc's rate */
void
timeline_init (Timeline * t, gboolean encoded)
{
  timeline_init_rate (t, encoded, 16);
}

/* A director's audio beside the video: 20 ms blocks of 48 kHz mono */
void
timeline_add_audio (Timeline * t)
{
  t->aout = output_in_bin (t, GST_SESSION_OUTPUT_AUDIO, &t->asink);
  /* the timeline is playing already */
  fail_unless (gst_bin_sync_children_states (t->bin));
  gst_session_output_start (t->aout, GST_CLOCK (t->clock), 0);
  t->acaps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING,
      "S16LE", "rate", G_TYPE_INT, 48000, "channels", G_TYPE_INT, 1,
      "layout", G_TYPE_STRING, "interleaved", NULL);
}

void
timeline_clear (Timeline * t)
{
  gst_element_set_state (GST_ELEMENT (t->bin), GST_STATE_NULL);
  if (t->aout) {
    gst_session_output_free (t->aout);
    gst_caps_unref (t->acaps);
  }
  gst_session_output_free (t->out);
  gst_caps_unref (t->caps);
  g_array_unref (t->pts);
  gst_session_output_origin_clear (&t->origin);
  gst_object_unref (t->clock);
  gst_object_unref (t->bin);
}

/* Moves the clock to @at, letting the filler run at each of its deadlines
 * on the way (it sets the next one before this goes on). Bounded. */
/* the appsrc of @out has pushed what it holds (bounded: 5 s), as it has on
 * a real clock by the time that clock moved on: the test clock jumps */
static void
wait_drained (Timeline * t, GstSessionOutput * out, const gchar * name)
{
  GstElement *appsrc = gst_bin_get_by_name (t->bin, name);
  gint64 deadline = g_get_monotonic_time () + 5 * G_TIME_SPAN_SECOND;
  guint64 bytes;

  if (appsrc == NULL)
    return;
  do {
    g_object_get (appsrc, "current-level-bytes", &bytes, NULL);
  } while (bytes > 0 && g_get_monotonic_time () < deadline &&
      (g_usleep (200), TRUE));
  gst_object_unref (appsrc);
  fail_unless (bytes == 0, "%s still holds %" G_GUINT64_FORMAT " bytes",
      name, bytes);
}

void
advance (Timeline * t, GstClockTime at)
{
  guint n;

  if (!t->sink_blocked) {
    wait_drained (t, t->out, "video_out");
    if (t->aout)
      wait_drained (t, t->aout, "audio_out");
  }

  /* encoded output has no filler waiting on the clock */
  for (n = 0; t->started && !t->encoded && n < 1000; n++) {
    GstClockID id, done;
    GstClockTime due;

    gst_test_clock_wait_for_next_pending_id (t->clock, &id);
    due = gst_clock_id_get_time (id);
    gst_clock_id_unref (id);
    if (due > at)
      break;
    /* a real clock is always a little past the deadline when the wait
     * returns */
    if (due + 1 > gst_clock_get_time (GST_CLOCK (t->clock)))
      gst_test_clock_set_time (t->clock, due + 1);
    done = gst_test_clock_process_next_clock_id (t->clock);
    if (done)
      gst_clock_id_unref (done);
  }
  fail_unless (n < 1000);
  if (at > gst_clock_get_time (GST_CLOCK (t->clock)))
    gst_test_clock_set_time (t->clock, at);
}

/* Frame @i of the sender (timestamp i slots) arrives @latency after it, or
 * now if that is past: frames come in order, a frame due before the one
 * held up ahead of it is queued behind it. */
/* @buf arrives at @at (the test clock moves there first); takes @buf */
void
push_at (Timeline * t, GstBuffer * buf, GstClockTime at)
{
  GstSample *sample;

  advance (t, at);
  sample = gst_sample_new (buf, t->caps, NULL, NULL);
  gst_session_output_push (t->out, sample);
  gst_sample_unref (sample);
  gst_buffer_unref (buf);
  t->started = TRUE;
}

void
arrive (Timeline * t, guint i, GstClockTime latency)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

  GST_BUFFER_PTS (buf) = i * t->frame;
  push_at (t, buf, i * t->frame + latency);
}

/* A frame with the sender timestamp @pts arrives 10 ms after it, and
 * @late more */
void
arrive_at (Timeline * t, GstClockTime pts, GstClockTime late)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

  GST_BUFFER_PTS (buf) = pts;
  push_at (t, buf, pts + 10 * GST_MSECOND + late);
}

/* An encoded frame with the sender timestamp @pts, a slot long, that came
 * from the network at @net (the stage's arrival meta) */
GstBuffer *
arrived_frame (Timeline * t, GstClockTime pts, GstClockTime net)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 64, NULL);
  GstCaps *arrival = gst_caps_new_empty_simple (GST_SESSION_OUTPUT_ARRIVAL);

  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = t->frame;
  gst_buffer_add_reference_timestamp_meta (buf, arrival, net,
      GST_CLOCK_TIME_NONE);
  gst_caps_unref (arrival);
  return buf;
}

/* Ends the output and reads the timestamps of all it pushed (bounded). */
void
collect_output (Timeline * t)
{
  GstSample *sample;

  gst_session_output_end (t->out);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (t->sink),
              5 * GST_SECOND))) {
    GstClockTime pts = GST_BUFFER_PTS (gst_sample_get_buffer (sample));

    g_array_append_val (t->pts, pts);
    gst_sample_unref (sample);
  }
  fail_unless (gst_app_sink_is_eos (GST_APP_SINK (t->sink)));
}

/* Frame @i with the capture time the sender reports give it (rtpbin's
 * reference timestamp meta: 1000 s + @i slots on the sender's clock) and a
 * jitterbuffer timestamp @shift off its own (rtpbin's lip-sync moving the
 * stream), arriving @latency after its own timestamp. */
void
arrive_reported (Timeline * t, guint i, GstClockTime latency,
    GstClockTime shift)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
  GstCaps *ntp = gst_caps_new_empty_simple ("timestamp/x-ntp");

  GST_BUFFER_PTS (buf) = i * t->frame + shift;
  gst_buffer_add_reference_timestamp_meta (buf, ntp, 1000 * GST_SECOND +
      i * t->frame, GST_CLOCK_TIME_NONE);
  gst_caps_unref (ntp);
  push_at (t, buf, i * t->frame + latency);
}

/* Frames @from to @to - 1, each @latency after its timestamp. */
void
feed (Timeline * t, guint from, guint to, GstClockTime latency)
{
  guint i;

  for (i = from; i < to; i++)
    arrive (t, i, latency);
}

/* Frames 0 to @n - 1, 10 ms after their timestamps, but frame 30 held up
 * @hold more (those after it queued behind it until they are due). */
void
feed_held_up (Timeline * t, guint n, GstClockTime hold)
{
  guint i;

  for (i = 0; i < n; i++)
    arrive (t, i, 10 * GST_MSECOND + (i == 30 ? hold : 0));
}

/* Frames @from to @n - 1, each arriving from the network 5 ms after
 * its timestamp (the stage's arrival meta says when) and reaching the
 * output once decoded: 5 ms after its arrival (10 ms after its
 * timestamp, as check_every_slot_once expects), but from frame @lag_from
 * on @lag later (@stall: frame @lag_from alone; the decoder then catches
 * up, one frame every 25 ms, until the frames are on time again). */
void
feed_decoded (Timeline * t, guint from, guint n, guint lag_from,
    GstClockTime lag, gboolean stall)
{
  GstCaps *arrival = gst_caps_new_empty_simple (GST_SESSION_OUTPUT_ARRIVAL);
  GstClockTime done = 0;
  guint i;

  for (i = from; i < n; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
    GstClockTime net = i * t->frame + 5 * GST_MSECOND;
    GstClockTime at = net + 5 * GST_MSECOND;

    GST_BUFFER_PTS (buf) = i * t->frame;
    gst_buffer_add_reference_timestamp_meta (buf, arrival, net,
        GST_CLOCK_TIME_NONE);
    if (i >= lag_from && (!stall || i == lag_from))
      at += lag;
    else if (stall && i > lag_from)
      at = MAX (at, done + 25 * GST_MSECOND);
    done = at;
    push_at (t, buf, at);
  }
  gst_caps_unref (arrival);
}

/* The output holds @n buffers, one per slot from the origin (the first
 * frame's 10 ms). */
void
check_every_slot_once (Timeline * t, guint n)
{
  guint i;

  collect_output (t);
  fail_unless_equals_int (t->pts->len, n);
  for (i = 0; i < t->pts->len; i++)
    fail_unless_equals_uint64 (g_array_index (t->pts, GstClockTime, i),
        10 * GST_MSECOND + i * t->frame);
}

/* The output holds @n buffers, one per slot from the first one's. */
void
check_grid (Timeline * t, guint n)
{
  GstClockTime origin;
  guint i;

  collect_output (t);
  fail_unless_equals_int (t->pts->len, n);
  origin = g_array_index (t->pts, GstClockTime, 0);
  for (i = 0; i < t->pts->len; i++)
    fail_unless_equals_uint64 (g_array_index (t->pts, GstClockTime, i),
        origin + i * t->frame);
}

/* A 20 ms audio block with the sender timestamp (and capture time) @pts,
 * every sample @value */
GstSample *
audio_block (Timeline * t, GstClockTime pts, gint16 value)
{
  GstCaps *ntp = gst_caps_new_empty_simple ("timestamp/x-ntp");
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 960 * 2, NULL);
  GstMapInfo map;
  GstSample *sample;
  guint i;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (i = 0; i < 960; i++)
    ((gint16 *) map.data)[i] = GINT16_TO_LE (value);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = 20 * GST_MSECOND;
  gst_buffer_add_reference_timestamp_meta (buf, ntp, 1000 * GST_SECOND + pts,
      GST_CLOCK_TIME_NONE);
  gst_caps_unref (ntp);
  sample = gst_sample_new (buf, t->acaps, NULL, NULL);
  gst_buffer_unref (buf);
  return sample;
}

/* A raw video frame with the sender timestamp (and capture time) @pts,
 * every byte @value */
GstBuffer *
video_frame (GstClockTime pts, guint8 value)
{
  GstCaps *ntp = gst_caps_new_empty_simple ("timestamp/x-ntp");
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

  gst_buffer_memset (buf, 0, value, 16 * 16 * 3 / 2);
  GST_BUFFER_PTS (buf) = pts;
  gst_buffer_add_reference_timestamp_meta (buf, ntp, 1000 * GST_SECOND + pts,
      GST_CLOCK_TIME_NONE);
  gst_caps_unref (ntp);
  return buf;
}

gpointer
push_audio_thread (gpointer data)
{
  gpointer *args = data;

  gst_session_output_push (args[0], args[1]);
  return NULL;
}

/* The output timestamp of the first buffer from @sink whose first byte is
 * @value, or NONE; ends @out first */
GstClockTime
find_output (GstSessionOutput * out, GstElement * sink, guint8 value)
{
  GstClockTime found = GST_CLOCK_TIME_NONE;
  GstSample *sample;

  gst_session_output_end (out);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink),
              5 * GST_SECOND))) {
    GstBuffer *buf = gst_sample_get_buffer (sample);
    guint8 first = 0;

    if (gst_buffer_extract (buf, 0, &first, 1) == 1 && first == value &&
        !GST_CLOCK_TIME_IS_VALID (found))
      found = GST_BUFFER_PTS (buf);
    gst_sample_unref (sample);
  }
  return found;
}

/* The element's other stream (a director session's audio), settled at
 * @latency: the latency both streams are placed at no longer falls (a fall
 * would cut the other stream's output already out) */
void
other_stream_settled (Timeline * t, GstClockTimeDiff latency)
{
  GstSessionOutputKind other = GST_SESSION_OUTPUT_AUDIO;

  g_mutex_lock (&t->origin.lock);
  t->origin.latency[other] = latency;
  t->origin.have_latency[other] = TRUE;
  t->origin.initial[other] = FALSE;
  t->origin.settle[other] = 0;
  g_mutex_unlock (&t->origin.lock);
}

GstSessionOutputStats
stats (Timeline * t)
{
  GstSessionOutputStats s;

  gst_session_output_get_stats (t->out, &s);
  return s;
}
