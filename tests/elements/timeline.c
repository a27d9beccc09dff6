/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output timeline (ext/session/gstsessionoutput.c) alone, on a test
 * clock: inputs arrive at chosen instants after their sender timestamps,
 * and the filler thread runs exactly when the clock passes its deadlines.
 * What a user sees is asserted through the output's counters (every input
 * placed, not dropped; how many frames had to be repeated) and the
 * timestamps of what it pushed.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gsttestclock.h>
#include <gst/app/gstappsink.h>

#include "gstsessionoutput.h"

typedef struct
{
  GstBin *bin;
  GstTestClock *clock;
  GstSessionOutputOrigin origin;
  GstSessionOutput *out;
  GstCaps *caps;
  gboolean encoded;
  gboolean started;
  GstClockTime frame;           /* the nominal frame duration */
  GstElement *sink;
  GArray *pts;                  /* of the output, in order */
  GstSessionOutput *aout;       /* audio, when timeline_add_audio added it */
  GstElement *asink;
  GstCaps *acaps;
} Timeline;

static void
timeline_init_rate (Timeline * t, gboolean encoded, gint fps)
{
  GstPadTemplate *templ;
  GstElement *inner;
  GstPad *pad, *sinkpad;

  memset (t, 0, sizeof (*t));
  t->bin = GST_BIN (gst_object_ref_sink (gst_pipeline_new ("timeline")));
  t->clock = GST_TEST_CLOCK (gst_test_clock_new ());
  gst_pipeline_use_clock (GST_PIPELINE (t->bin), GST_CLOCK (t->clock));
  g_mutex_init (&t->origin.lock);
  g_cond_init (&t->origin.cond);
  t->origin.origin = GST_CLOCK_TIME_NONE;
  t->origin.has_video = TRUE;
  templ = gst_pad_template_new ("video", GST_PAD_SRC, GST_PAD_ALWAYS,
      GST_CAPS_ANY);
  /* the output lives in a bin, as in the element, linked to an appsink */
  inner = gst_bin_new ("src");
  gst_bin_add (t->bin, inner);
  t->out = gst_session_output_new (GST_BIN (inner), "video", templ,
      GST_SESSION_OUTPUT_VIDEO, &t->origin);
  gst_object_unref (templ);
  /* what leaves the output, collected by collect_output () */
  t->sink = gst_element_factory_make ("appsink", NULL);
  g_object_set (t->sink, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add (t->bin, t->sink);
  pad = gst_session_output_get_pad (t->out);
  sinkpad = gst_element_get_static_pad (t->sink, "sink");
  fail_unless_equals_int (gst_pad_link (pad, sinkpad), GST_PAD_LINK_OK);
  gst_object_unref (sinkpad);
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
static void
timeline_init (Timeline * t, gboolean encoded)
{
  timeline_init_rate (t, encoded, 16);
}

/* A director's audio beside the video: 20 ms blocks of 48 kHz mono */
static void
timeline_add_audio (Timeline * t)
{
  GstPadTemplate *templ = gst_pad_template_new ("audio", GST_PAD_SRC,
      GST_PAD_ALWAYS, GST_CAPS_ANY);
  GstElement *inner = gst_bin_new ("asrc");
  GstPad *pad, *sinkpad;

  gst_bin_add (t->bin, inner);
  t->aout = gst_session_output_new (GST_BIN (inner), "audio", templ,
      GST_SESSION_OUTPUT_AUDIO, &t->origin);
  gst_object_unref (templ);
  t->asink = gst_element_factory_make ("appsink", NULL);
  g_object_set (t->asink, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add (t->bin, t->asink);
  pad = gst_session_output_get_pad (t->aout);
  sinkpad = gst_element_get_static_pad (t->asink, "sink");
  fail_unless_equals_int (gst_pad_link (pad, sinkpad), GST_PAD_LINK_OK);
  gst_object_unref (sinkpad);
  fail_unless (gst_element_sync_state_with_parent (inner));
  fail_unless (gst_element_sync_state_with_parent (t->asink));
  gst_session_output_start (t->aout, GST_CLOCK (t->clock), 0);
  t->acaps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING,
      "S16LE", "rate", G_TYPE_INT, 48000, "channels", G_TYPE_INT, 1,
      "layout", G_TYPE_STRING, "interleaved", NULL);
}

static void
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
  g_mutex_clear (&t->origin.lock);
  g_cond_clear (&t->origin.cond);
  gst_object_unref (t->clock);
  gst_object_unref (t->bin);
}

/* Moves the clock to @at, letting the filler run at each of its deadlines
 * on the way (it sets the next one before this goes on). Bounded. */
static void
advance (Timeline * t, GstClockTime at)
{
  guint n;

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
static void
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

static void
arrive (Timeline * t, guint i, GstClockTime latency)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

  GST_BUFFER_PTS (buf) = i * t->frame;
  push_at (t, buf, i * t->frame + latency);
}

/* A frame with the sender timestamp @pts arrives 10 ms after it, and
 * @late more */
static void
arrive_at (Timeline * t, GstClockTime pts, GstClockTime late)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

  GST_BUFFER_PTS (buf) = pts;
  push_at (t, buf, pts + 10 * GST_MSECOND + late);
}

/* An encoded frame with the sender timestamp @pts, a slot long, that came
 * from the network at @net (the stage's arrival meta) */
static GstBuffer *
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
static void
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
static void
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
static void
feed (Timeline * t, guint from, guint to, GstClockTime latency)
{
  guint i;

  for (i = from; i < to; i++)
    arrive (t, i, latency);
}

/* Frames 0 to @n - 1, 10 ms after their timestamps, but frame 30 held up
 * @hold more (those after it queued behind it until they are due). */
static void
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
static void
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
static void
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
static void
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
static GstSample *
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
static GstBuffer *
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

static gpointer
push_audio_thread (gpointer data)
{
  gpointer *args = data;

  gst_session_output_push (args[0], args[1]);
  return NULL;
}

/* The output timestamp of the first buffer from @sink whose first byte is
 * @value, or NONE; ends @out first */
static GstClockTime
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
static void
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

static GstSessionOutputStats
stats (Timeline * t)
{
  GstSessionOutputStats s;

  gst_session_output_get_stats (t->out, &s);
  return s;
}

/* Steady inputs: each takes its own slot, nothing is repeated or dropped. */
GST_START_TEST (test_steady_input_fills_every_slot)
{
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init (&t, FALSE);
  for (i = 0; i < 64; i++)
    arrive (&t, i, 10 * GST_MSECOND + (i % 3) * 5 * GST_MSECOND);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 64);
  fail_unless_equals_uint64 (s.dropped, 0);
  fail_unless_equals_uint64 (s.repeated, 0);
  fail_unless_equals_uint64 (s.out, 64);
  timeline_clear (&t);
}

GST_END_TEST;

/* The path gets 95 ms slower for good (less than the 100 ms a fall must
 * move to be taken at once): every input now comes after the filler took
 * its slot (1.5 frames after it), and every one of them used to be dropped
 * while the filler repeated the last frame for ever (16 concurrent
 * sessions at start-up hit this: their latency settles low, then rises).
 * Now a rise of more than a frame is taken once a later input, arriving
 * at its own pace, shows it too: the first late frame is dropped, three
 * slots are repeated, then every input is placed. */
GST_START_TEST (test_latency_rise_is_taken_not_dropped)
{
  Timeline t;
  GstSessionOutputStats s;

  timeline_init (&t, FALSE);
  feed (&t, 0, 32, 10 * GST_MSECOND);
  feed (&t, 32, 96, 105 * GST_MSECOND);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 96);
  fail_unless (s.dropped <= 1, "%" G_GUINT64_FORMAT " inputs dropped",
      s.dropped);
  fail_unless (s.repeated <= 3, "%" G_GUINT64_FORMAT " frames repeated",
      s.repeated);
  fail_unless_equals_uint64 (s.out - s.repeated, s.in - s.dropped);
  timeline_clear (&t);
}

GST_END_TEST;

/* One frame held up by 40 ms, then by 80 ms (more than a frame, less than
 * its 1.5-frame wait): jitter, not a new latency. The frame keeps its slot
 * and the frames after it keep theirs. */
GST_START_TEST (test_jitter_keeps_every_slot)
{
  static const guint extra_ms[] = { 40, 80 };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (extra_ms); k++) {
    Timeline t;
    GstSessionOutputStats s;

    timeline_init (&t, FALSE);
    feed_held_up (&t, 48, extra_ms[k] * GST_MSECOND);
    s = stats (&t);
    fail_unless_equals_uint64 (s.dropped, 0);
    fail_unless_equals_uint64 (s.repeated, 0);
    check_every_slot_once (&t, 48);
    timeline_clear (&t);
  }
}

GST_END_TEST;

/* directorsrc's 24 fps: a decoder stall holds frame 30 up by 90 ms and
 * frame 31 comes right behind it, itself 48 ms late (more than a frame):
 * two late inputs in a row, but one hold-up, not a new latency. Only
 * frame 30 is lost (its slot repeated); every later frame keeps its
 * slot. */
GST_START_TEST (test_frames_queued_behind_a_stall_are_not_a_rise)
{
  Timeline t;
  GstSessionOutputStats s;

  timeline_init_rate (&t, FALSE, 24);
  feed_held_up (&t, 72, 90 * GST_MSECOND);
  s = stats (&t);
  fail_unless_equals_uint64 (s.dropped, 1);
  fail_unless_equals_uint64 (s.repeated, 1);
  check_every_slot_once (&t, 72);
  timeline_clear (&t);
}

GST_END_TEST;

/* A session's first packets come in a burst (queued while DTLS was set
 * up): the jitterbuffer takes the first one's late arrival as its
 * reference, and the next frames' timestamps run ahead of their arrivals;
 * it keeps them from going back, so they all have the first one's (400 ms
 * here, ahead of frames arriving from 10 ms on) until the arrivals catch
 * up. Those are not arrival estimates: the frames are placed by their
 * arrival, each in its own slot. Believed, the frames with one timestamp
 * fell into one slot and the latency rose once they caught up. */
GST_START_TEST (test_timestamps_ahead_of_arrival_are_not_believed)
{
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init (&t, FALSE);
  for (i = 0; i < 48; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

    GST_BUFFER_PTS (buf) = MAX (i * t.frame, 400 * GST_MSECOND);
    push_at (&t, buf, i * t.frame + 10 * GST_MSECOND);
  }
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 48);
  fail_unless (s.repeated <= 1 && s.dropped == 0, "%" G_GUINT64_FORMAT
      " slots repeated, %" G_GUINT64_FORMAT " frames dropped", s.repeated,
      s.dropped);
  timeline_clear (&t);
}

GST_END_TEST;

/* The late frame has no slot left. Decoded output drops it (its slot was
 * repeated). Encoded output (decode=false) cannot: the frames after it
 * refer to it; it is pushed on its own slot, where nothing was pushed.
 * Either way every later frame keeps its slot. */
GST_START_TEST (test_late_frame_decoded_dropped_encoded_kept)
{
  static const struct
  {
    gboolean encoded;
    guint64 dropped, repeated;
  } cases[] = { {FALSE, 1, 1}, {TRUE, 0, 0} };
  guint k;

  for (k = 0; k < G_N_ELEMENTS (cases); k++) {
    Timeline t;
    GstSessionOutputStats s;

    timeline_init (&t, cases[k].encoded);
    /* frame 30 100 ms late: after the filler passed its slot */
    feed_held_up (&t, 48, 100 * GST_MSECOND);
    /* encoded: no filler waits on the clock (no wake-up per frame) */
    if (cases[k].encoded)
      fail_if (gst_test_clock_peek_next_pending_id (t.clock, NULL));
    s = stats (&t);
    fail_unless_equals_uint64 (s.in, 48);
    fail_unless_equals_uint64 (s.dropped, cases[k].dropped);
    fail_unless_equals_uint64 (s.repeated, cases[k].repeated);
    fail_unless_equals_uint64 (s.out, 48);
    check_every_slot_once (&t, 48);
    timeline_clear (&t);
  }
}

GST_END_TEST;

/* The sender pauses for a second (16 frames never sent): the filler repeats
 * the last frame slot by slot, and the frames after the pause take their
 * own slots again. */
GST_START_TEST (test_pause_is_filled_then_input_resumes)
{
  Timeline t;
  GstSessionOutputStats s;

  timeline_init (&t, FALSE);
  feed (&t, 0, 32, 10 * GST_MSECOND);
  feed (&t, 48, 80, 10 * GST_MSECOND);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 64);
  fail_unless_equals_uint64 (s.dropped, 0);
  fail_unless_equals_uint64 (s.repeated, 16);
  fail_unless_equals_uint64 (s.out - s.repeated, s.in - s.dropped);
  timeline_clear (&t);
}

GST_END_TEST;

/* rtpbin's lip-sync moves a stream's timestamps at a sender report (here
 * by 40 ms, under the latency jump): the frames keep the capture time the
 * reports give them, so each still takes its own slot; by the moved
 * timestamps a frame would be repeated */
GST_START_TEST (test_sender_reports_place_frames)
{
  Timeline t;
  guint i;

  timeline_init (&t, FALSE);
  for (i = 0; i < 60; i++)
    arrive_reported (&t, i, 10 * GST_MSECOND, i < 30 ? 0 : 40 * GST_MSECOND);
  check_every_slot_once (&t, 60);
  fail_unless_equals_int (stats (&t).repeated, 0);
  fail_unless_equals_int (stats (&t).dropped, 0);
  timeline_clear (&t);
}

GST_END_TEST;

/* Five seconds into a session the decoder stalls for 400 ms (a loaded
 * machine), then catches up a frame every 25 ms: the frames came from the
 * network on time (their arrival meta), only the decoding was late. Not
 * a new latency: the late frames are dropped, their slots repeated, and
 * every later frame keeps its slot. Taken as a rise (as it was), it moved the
 * video 400 ms later than the audio already out: a sync marker 105-419
 * ms after its click (elements/directorsrc under load). */
GST_START_TEST (test_decoder_stall_keeps_the_latency)
{
  Timeline t;
  GstSessionOutputStats s;

  timeline_init_rate (&t, FALSE, 24);
  feed_decoded (&t, 0, 192, 120, 400 * GST_MSECOND, TRUE);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 192);
  fail_unless (s.dropped >= 1 && s.dropped <= 24, "%" G_GUINT64_FORMAT
      " frames dropped", s.dropped);
  fail_unless_equals_uint64 (s.repeated, s.dropped);
  check_every_slot_once (&t, 192);
  timeline_clear (&t);
}

GST_END_TEST;

/* Five seconds into a session every frame is decoded 150 ms after it
 * arrived, for good (the machine got slower): a lag that stays is taken
 * after a second of it, and every frame after that is placed. */
GST_START_TEST (test_lasting_decoder_lag_is_taken)
{
  Timeline t;
  GstSessionOutputStats s;
  guint64 dropped;

  timeline_init_rate (&t, FALSE, 24);
  feed_decoded (&t, 0, 192, 120, 150 * GST_MSECOND, FALSE);
  s = stats (&t);
  dropped = s.dropped;
  fail_unless (dropped <= 26, "%" G_GUINT64_FORMAT " frames dropped", dropped);
  feed_decoded (&t, 192, 240, 120, 150 * GST_MSECOND, FALSE);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 240);
  fail_unless_equals_uint64 (s.dropped, dropped);
  timeline_clear (&t);
}

GST_END_TEST;

/* In a session's first seconds the decoder falls 300 ms behind (its
 * start on a loaded machine) and stays there: taken at once, as any rise
 * then. Left for a second, the rise came as the director's first sync
 * marker did, and moved it 750-960 ms after its click (elements/
 * directorsrc, the machine loaded further by builds). */
GST_START_TEST (test_decoder_lag_at_start_is_taken_at_once)
{
  Timeline t;
  GstSessionOutputStats s;

  timeline_init_rate (&t, FALSE, 24);
  feed_decoded (&t, 0, 96, 13, 300 * GST_MSECOND, FALSE);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 96);
  fail_unless (s.dropped <= 2, "%" G_GUINT64_FORMAT " frames dropped",
      s.dropped);
  timeline_clear (&t);
}

GST_END_TEST;

/* The path gets 95 ms slower, and the arrival meta says so: taken as soon
 * as without it (test_latency_rise_is_taken_not_dropped). */
GST_START_TEST (test_path_rise_is_taken_at_once)
{
  GstCaps *arrival = gst_caps_new_empty_simple (GST_SESSION_OUTPUT_ARRIVAL);
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init (&t, FALSE);
  for (i = 0; i < 96; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
    GstClockTime net = i * t.frame + (i < 32 ? 10 : 105) * GST_MSECOND;

    GST_BUFFER_PTS (buf) = i * t.frame;
    gst_buffer_add_reference_timestamp_meta (buf, arrival, net,
        GST_CLOCK_TIME_NONE);
    push_at (&t, buf, net + 2 * GST_MSECOND);
  }
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 96);
  fail_unless (s.dropped <= 1, "%" G_GUINT64_FORMAT " inputs dropped",
      s.dropped);
  fail_unless (s.repeated <= 3, "%" G_GUINT64_FORMAT " frames repeated",
      s.repeated);
  gst_caps_unref (arrival);
  timeline_clear (&t);
}

GST_END_TEST;

/* directorsrc's 24 fps. The first frame comes 21 ms late (the decoder's
 * start): it sets the frame grid, and the latency then settles 21 ms
 * lower, so that every frame after it falls half a slot before its grid
 * slot, and its sender timestamps jitter by 1 ms either way. Rounded to
 * the nearest slot, they fell alternately into the slot before (taken:
 * dropped) and the one after (the slot between repeated): a frame lost
 * and one shown twice every other frame, a sync marker a frame late
 * (elements/directorsrc-recording under load, 2-8 drops per run). A
 * frame within 3/5 of a slot of the next free one takes it. */
GST_START_TEST (test_frames_half_a_slot_off_keep_every_slot)
{
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init_rate (&t, FALSE, 24);
  for (i = 0; i < 96; i++)
    arrive_at (&t, i * t.frame + (i == 0 ? 0 : i % 2 ? -GST_MSECOND :
            GST_MSECOND), i == 0 ? t.frame / 2 : 0);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 96);
  fail_unless_equals_uint64 (s.dropped, 0);
  fail_unless_equals_uint64 (s.repeated, 0);
  check_grid (&t, 96);
  timeline_clear (&t);
}

GST_END_TEST;

/* directorsrc's 24 fps. The frames' times fall 0.45 of a slot after
 * their slots (the first frame set the grid, the sender's timestamps of
 * the others are that much later), and frame 40 comes after the filler
 * repeated its slot. It is dropped: taken into the next free slot (it is
 * within 3/5 of a slot of it), it and every frame after it would have
 * stayed 0.55 of a slot late, the video 23 ms later than the audio for
 * the rest of the session. */
GST_START_TEST (test_frame_late_for_a_repeated_slot_is_dropped)
{
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init_rate (&t, FALSE, 24);
  for (i = 0; i < 96; i++)
    arrive_at (&t, i * t.frame + (i == 0 ? 0 : t.frame * 45 / 100),
        i == 40 ? 2 * t.frame : 0);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 96);
  fail_unless_equals_uint64 (s.dropped, 1);
  fail_unless_equals_uint64 (s.repeated, 1);
  check_grid (&t, 96);
  timeline_clear (&t);
}

GST_END_TEST;

/* Frames placed by the sender's capture times, their jitterbuffer
 * timestamps moved 40 ms from frame 20 on (rtpbin's lip-sync at a sender
 * report), and one without a capture time among them (frame 30: the
 * decoder's own, or the first after a stall). Placed by its jitterbuffer
 * timestamp at the stream's latency, it went 40 ms later than its
 * neighbours (the first audio after a stall: a sync click 22 ms before
 * its marker); it keeps the offset from jitterbuffer timestamp to
 * capture time of the frame before it. */
GST_START_TEST (test_input_without_capture_time_keeps_the_basis)
{
  GstCaps *ntp = gst_caps_new_empty_simple ("timestamp/x-ntp");
  Timeline t;
  guint i;

  timeline_init_rate (&t, FALSE, 24);
  for (i = 0; i < 60; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

    GST_BUFFER_PTS (buf) = i * t.frame + (i < 20 ? 0 : 40 * GST_MSECOND);
    if (i != 30)
      gst_buffer_add_reference_timestamp_meta (buf, ntp, 1000 * GST_SECOND +
          i * t.frame, GST_CLOCK_TIME_NONE);
    push_at (&t, buf, i * t.frame + 10 * GST_MSECOND);
  }
  fail_unless_equals_int (stats (&t).dropped, 0);
  fail_unless_equals_int (stats (&t).repeated, 0);
  check_every_slot_once (&t, 60);
  gst_caps_unref (ntp);
  timeline_clear (&t);
}

GST_END_TEST;

/* Off loopback (a recovery delay of 200 ms), encoded output. The first
 * sender report comes with frame 30, and frame 30 is held 150 ms after it
 * came from the network (the jitterbuffer waiting for a lost packet),
 * the next ones queued behind it: its wait is not the path's latency. Taken
 * as it, every frame after the switch to the sender's capture times went
 * 150 ms later for the rest of the session: a gap in a recording (51-97
 * ms of the director's audio, Internet profile). The timeline keeps its
 * grid. */
GST_START_TEST (test_input_held_at_the_first_report_keeps_the_latency)
{
  GstCaps *ntp = gst_caps_new_empty_simple ("timestamp/x-ntp");
  GstClockTime released = 0;
  Timeline t;
  guint i;

  timeline_init_rate (&t, TRUE, 24);
  gst_session_output_set_recovery (t.out, 200 * GST_MSECOND);
  for (i = 0; i < 72; i++) {
    GstClockTime net = i * t.frame + 5 * GST_MSECOND;
    GstClockTime at = net + 5 * GST_MSECOND;
    GstBuffer *buf = arrived_frame (&t, i * t.frame, net);

    if (i >= 30)
      gst_buffer_add_reference_timestamp_meta (buf, ntp, 1000 * GST_SECOND +
          i * t.frame, GST_CLOCK_TIME_NONE);
    if (i == 30)
      at += 150 * GST_MSECOND;
    at = MAX (at, released);
    released = at;
    push_at (&t, buf, at);
  }
  fail_unless_equals_uint64 (stats (&t).dropped, 0);
  check_grid (&t, 72);
  gst_caps_unref (ntp);
  timeline_clear (&t);
}

GST_END_TEST;

/* Off loopback, encoded output. At a session's start the jitterbuffer's
 * timestamps run 600 ms ahead of the arrivals, so the frames are placed
 * by arrival; the jitterbuffer holds frames 10 to 29 until the sender's
 * first report lets them all out at once, with frame 30. Placed by when
 * they left the jitterbuffer, they bunched into one instant after a
 * 0.8 s gap (673 ms of a recording's audio, Internet profile); placed by
 * their arrival from the network (the stage's arrival meta), they keep
 * the grid. */
GST_START_TEST (test_inputs_held_while_placed_by_arrival_keep_their_arrival)
{
  Timeline t;
  guint i;

  timeline_init_rate (&t, TRUE, 24);
  gst_session_output_set_recovery (t.out, 200 * GST_MSECOND);
  for (i = 0; i < 48; i++) {
    GstClockTime net = i * t.frame + 10 * GST_MSECOND;
    GstBuffer *buf = arrived_frame (&t, i * t.frame + 600 * GST_MSECOND, net);

    push_at (&t, buf, i >= 10 && i < 30 ? 30 * t.frame + 10 * GST_MSECOND :
        net);
  }
  fail_unless_equals_uint64 (stats (&t).dropped, 0);
  check_grid (&t, 48);
  timeline_clear (&t);
}

GST_END_TEST;

/* directorsrc's 24 fps, decoded frames. Frame 120 comes from the network
 * 150 ms late (a rise, left pending until a later frame shows it too);
 * then the sender stalls for two seconds. Frame 121 came from the network
 * on time, but reaches the output only when the stall ends (held by the
 * jitterbuffer behind a lost packet, 1.9 s). It is not the later frame
 * that shows frame 120's rise: the stream paused in between. Taken as
 * one, the rise moved every frame after the stall 150 ms later for the
 * rest of the session, and with them the audio: a sync click 183 ms from
 * its marker (elements/directorsrc-recording under load). The frames
 * after the stall keep their slots. */
GST_START_TEST (test_rise_pending_at_a_stall_is_not_confirmed_after_it)
{
  GstCaps *arrival = gst_caps_new_empty_simple (GST_SESSION_OUTPUT_ARRIVAL);
  GstSessionOutputStats s;
  Timeline t;
  guint i;

  timeline_init_rate (&t, FALSE, 24);
  for (i = 0; i < 240; i++) {
    GstBuffer *buf;
    GstClockTime net = i * t.frame + 5 * GST_MSECOND;
    GstClockTime at;

    if (i == 24)
      other_stream_settled (&t, 10 * GST_MSECOND);

    if (i > 121 && i < 169)
      continue;
    if (i == 120)
      net += 150 * GST_MSECOND;
    at = net + 5 * GST_MSECOND;
    if (i == 121)
      at = 169 * t.frame;
    buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
    GST_BUFFER_PTS (buf) = i * t.frame;
    gst_buffer_add_reference_timestamp_meta (buf, arrival, net,
        GST_CLOCK_TIME_NONE);
    push_at (&t, buf, at);
  }
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 240 - 47);
  fail_unless_equals_uint64 (s.dropped, 2);
  check_every_slot_once (&t, 240);
  gst_caps_unref (arrival);
  timeline_clear (&t);
}

GST_END_TEST;

/* Frames placed by the sender's capture times; the sender stalls for two
 * seconds (frames 60 to 107 never sent). Across the stall the
 * jitterbuffer's timestamps moved 200 ms against the capture times, and
 * the first frame after it carries no believable capture time (the
 * decoder gave the first audio block after a stall the capture time of
 * one from before it, two seconds off). Placed by its timestamp on the
 * basis from before the stall, it went 200 ms early: the director's sync
 * click, which is in that block, 183 ms from its marker (elements/
 * directorsrc-recording under load). After a gap in its timestamps, such
 * an input is placed by its arrival, at the stream's latency. */
GST_START_TEST (test_input_after_a_stall_without_capture_time_by_arrival)
{
  GstCaps *ntp = gst_caps_new_empty_simple ("timestamp/x-ntp");
  GstSessionOutputStats s;
  Timeline t;
  guint i;

  timeline_init_rate (&t, FALSE, 24);
  for (i = 0; i < 132; i++) {
    GstBuffer *buf;
    guint reported = i;

    if (i >= 60 && i < 108)
      continue;
    buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
    GST_BUFFER_PTS (buf) = i * t.frame - (i < 60 ? 0 : 200 * GST_MSECOND);
    if (i == 108)
      reported = 59;
    gst_buffer_add_reference_timestamp_meta (buf, ntp, 1000 * GST_SECOND +
        reported * t.frame, GST_CLOCK_TIME_NONE);
    push_at (&t, buf, i * t.frame + 10 * GST_MSECOND);
  }
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 132 - 48);
  fail_unless_equals_uint64 (s.dropped, 0);
  check_every_slot_once (&t, 132);
  gst_caps_unref (ntp);
  timeline_clear (&t);
}

GST_END_TEST;

/* A director session, audio and video placed by the sender's capture
 * times, 10 ms after them. The sender stalls for two seconds; after it,
 * its video comes 150 ms behind its audio (the encoder's start on a loaded
 * machine, 130-180 ms measured). The audio's first block after the stall
 * (the sync click) waits for the video's first frame (the marker), and
 * both go out at one instant: placed at once, the click went 150 ms
 * before the marker, and the marker's frame came after the filler had
 * taken its slot (dropped). */
GST_START_TEST (test_first_stream_after_a_stall_waits_for_the_other)
{
  GstClockTime audio_at, video_at, next_audio = 0, a;
  gpointer args[2];
  GThread *thread;
  Timeline t;
  guint i, n;

  timeline_init_rate (&t, FALSE, 24);
  timeline_add_audio (&t);
  /* three seconds: video frames and audio blocks by their arrival */
  for (i = 0; i < 72; i++) {
    push_at (&t, video_frame (i * t.frame, 0x10), i * t.frame + 10 *
        GST_MSECOND);
    for (; next_audio < (i + 1) * t.frame; next_audio += 20 * GST_MSECOND) {
      GstSample *s = audio_block (&t, next_audio, 0x0101);

      advance (&t, next_audio + 10 * GST_MSECOND);
      gst_session_output_push (t.aout, s);
      gst_sample_unref (s);
    }
  }
  /* the stall, then the audio's first block after it, marked */
  advance (&t, 5 * GST_SECOND + 10 * GST_MSECOND);
  args[0] = t.aout;
  args[1] = audio_block (&t, 5 * GST_SECOND, 0x2222);
  thread = g_thread_new ("audio", push_audio_thread, args);
  for (n = 0; n < 2000; n++) {
    gboolean holding;

    g_mutex_lock (&t.origin.lock);
    holding = t.origin.holding[GST_SESSION_OUTPUT_AUDIO];
    g_mutex_unlock (&t.origin.lock);
    if (holding)
      break;
    g_usleep (1000);
  }
  fail_unless (n < 2000, "the audio after the stall did not wait");
  /* the video's first frame after it, 150 ms behind, marked */
  push_at (&t, video_frame (5 * GST_SECOND, 0x33), 5 * GST_SECOND +
      160 * GST_MSECOND);
  g_thread_join (thread);
  gst_sample_unref (args[1]);
  /* the blocks queued behind the first one, then a second of both */
  for (a = 5 * GST_SECOND + 20 * GST_MSECOND; a < 6 * GST_SECOND;
      a += 20 * GST_MSECOND) {
    GstSample *s = audio_block (&t, a, 0x0101);

    advance (&t, MAX (a + 10 * GST_MSECOND, 5 * GST_SECOND +
            160 * GST_MSECOND));
    gst_session_output_push (t.aout, s);
    gst_sample_unref (s);
    if ((guint) ((a - 5 * GST_SECOND) / t.frame) >
        (guint) ((a - 5 * GST_SECOND - 20 * GST_MSECOND) / t.frame))
      push_at (&t, video_frame (5 * GST_SECOND + ((a - 5 * GST_SECOND) /
                  t.frame) * t.frame, 0x10), MAX (a + 10 * GST_MSECOND,
              5 * GST_SECOND + ((a - 5 * GST_SECOND) / t.frame) * t.frame +
              160 * GST_MSECOND));
  }
  audio_at = find_output (t.aout, t.asink, 0x22);
  video_at = find_output (t.out, t.sink, 0x33);
  fail_unless (GST_CLOCK_TIME_IS_VALID (audio_at), "the click is not in the "
      "output");
  fail_unless (GST_CLOCK_TIME_IS_VALID (video_at), "the marker's frame is not "
      "in the output (dropped)");
  fail_unless (ABS (GST_CLOCK_DIFF (audio_at, video_at)) <
      (GstClockTimeDiff) t.frame, "the "
      "click at %" GST_TIME_FORMAT ", its marker at %" GST_TIME_FORMAT,
      GST_TIME_ARGS (audio_at), GST_TIME_ARGS (video_at));
  timeline_clear (&t);
}

GST_END_TEST;

static Suite *
timeline_suite (void)
{
  Suite *s = suite_create ("timeline");
  TCase *tc = tcase_create ("video");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_steady_input_fills_every_slot);
  tcase_add_test (tc, test_latency_rise_is_taken_not_dropped);
  tcase_add_test (tc, test_jitter_keeps_every_slot);
  tcase_add_test (tc, test_late_frame_decoded_dropped_encoded_kept);
  tcase_add_test (tc, test_frames_queued_behind_a_stall_are_not_a_rise);
  tcase_add_test (tc, test_timestamps_ahead_of_arrival_are_not_believed);
  tcase_add_test (tc, test_pause_is_filled_then_input_resumes);
  tcase_add_test (tc, test_sender_reports_place_frames);
  tcase_add_test (tc, test_decoder_stall_keeps_the_latency);
  tcase_add_test (tc, test_lasting_decoder_lag_is_taken);
  tcase_add_test (tc, test_decoder_lag_at_start_is_taken_at_once);
  tcase_add_test (tc, test_path_rise_is_taken_at_once);
  tcase_add_test (tc, test_frames_half_a_slot_off_keep_every_slot);
  tcase_add_test (tc, test_input_without_capture_time_keeps_the_basis);
  tcase_add_test (tc, test_frame_late_for_a_repeated_slot_is_dropped);
  tcase_add_test (tc, test_input_held_at_the_first_report_keeps_the_latency);
  tcase_add_test (tc,
      test_inputs_held_while_placed_by_arrival_keep_their_arrival);
  tcase_add_test (tc, test_rise_pending_at_a_stall_is_not_confirmed_after_it);
  tcase_add_test (tc, test_input_after_a_stall_without_capture_time_by_arrival);
  tcase_add_test (tc, test_first_stream_after_a_stall_waits_for_the_other);
  return s;
}

GST_CHECK_MAIN (timeline);
