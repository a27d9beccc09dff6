/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output timeline (ext/session/gstsessionoutput.c) alone, on a test
 * clock: inputs arrive at chosen instants after their sender timestamps,
 * and the filler thread runs exactly when the clock passes its deadlines.
 * What a user sees is asserted through the output's counters: every input
 * placed (not dropped), and how many frames had to be repeated.
 */

#include <gst/check/gstcheck.h>
#include <gst/check/gsttestclock.h>

#include "gstsessionoutput.h"

#define FRAME (GST_SECOND / 16)

typedef struct
{
  GstBin *bin;
  GstTestClock *clock;
  GstSessionOutputOrigin origin;
  GstSessionOutput *out;
  GstCaps *caps;
  gboolean started;
} Timeline;

static void
timeline_init (Timeline * t)
{
  GstPadTemplate *templ;

  memset (t, 0, sizeof (*t));
  t->bin = GST_BIN (gst_object_ref_sink (gst_bin_new ("timeline")));
  t->clock = GST_TEST_CLOCK (gst_test_clock_new ());
  g_mutex_init (&t->origin.lock);
  t->origin.origin = GST_CLOCK_TIME_NONE;
  t->origin.has_video = TRUE;
  templ = gst_pad_template_new ("video", GST_PAD_SRC, GST_PAD_ALWAYS,
      GST_CAPS_ANY);
  t->out = gst_session_output_new (t->bin, "video", templ,
      GST_SESSION_OUTPUT_VIDEO, &t->origin);
  gst_object_unref (templ);
  gst_session_output_set_nominal_rate (t->out, 16, 1);
  gst_session_output_start (t->out, GST_CLOCK (t->clock), 0);
  t->caps = gst_caps_from_string ("video/x-raw, format=I420, width=16, "
      "height=16, framerate=16/1");
}

static void
timeline_clear (Timeline * t)
{
  gst_session_output_free (t->out);
  gst_caps_unref (t->caps);
  g_mutex_clear (&t->origin.lock);
  gst_object_unref (t->clock);
  gst_object_unref (t->bin);
}

/* Moves the clock to @at, letting the filler run at each of its deadlines
 * on the way (it sets the next one before this goes on). Bounded. */
static void
advance (Timeline * t, GstClockTime at)
{
  guint n;

  for (n = 0; t->started && n < 1000; n++) {
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

/* Frame @i of the sender (timestamp i slots) arrives @latency after it. */
static void
arrive (Timeline * t, guint i, GstClockTime latency)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
  GstSample *sample;

  GST_BUFFER_PTS (buf) = i * FRAME;
  advance (t, i * FRAME + latency);
  sample = gst_sample_new (buf, t->caps, NULL, NULL);
  gst_session_output_push (t->out, sample);
  gst_sample_unref (sample);
  gst_buffer_unref (buf);
  t->started = TRUE;
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

  timeline_init (&t);
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
 * Now a rise of more than a frame is taken: a slot or two is repeated
 * once, then every input is placed. */
GST_START_TEST (test_latency_rise_is_taken_not_dropped)
{
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init (&t);
  for (i = 0; i < 32; i++)
    arrive (&t, i, 10 * GST_MSECOND);
  for (; i < 96; i++)
    arrive (&t, i, 105 * GST_MSECOND);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 96);
  fail_unless (s.dropped <= 1, "%" G_GUINT64_FORMAT " inputs dropped",
      s.dropped);
  fail_unless (s.repeated <= 2, "%" G_GUINT64_FORMAT " frames repeated",
      s.repeated);
  fail_unless_equals_uint64 (s.out - s.repeated, s.in - s.dropped);
  timeline_clear (&t);
}

GST_END_TEST;

/* One frame held up by 40 ms (jitter): it still reaches its slot before
 * the filler, and the latency is not moved by it. */
GST_START_TEST (test_one_late_frame_keeps_its_slot)
{
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init (&t);
  for (i = 0; i < 48; i++)
    arrive (&t, i, (i == 30 ? 50 : 10) * GST_MSECOND);
  s = stats (&t);
  fail_unless_equals_uint64 (s.dropped, 0);
  fail_unless_equals_uint64 (s.repeated, 0);
  timeline_clear (&t);
}

GST_END_TEST;

/* The sender pauses for a second (16 frames never sent): the filler repeats
 * the last frame slot by slot, and the frames after the pause take their
 * own slots again. */
GST_START_TEST (test_pause_is_filled_then_input_resumes)
{
  Timeline t;
  GstSessionOutputStats s;
  guint i;

  timeline_init (&t);
  for (i = 0; i < 32; i++)
    arrive (&t, i, 10 * GST_MSECOND);
  for (i = 48; i < 80; i++)
    arrive (&t, i, 10 * GST_MSECOND);
  s = stats (&t);
  fail_unless_equals_uint64 (s.in, 64);
  fail_unless_equals_uint64 (s.dropped, 0);
  fail_unless_equals_uint64 (s.repeated, 16);
  fail_unless_equals_uint64 (s.out - s.repeated, s.in - s.dropped);
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
  tcase_add_test (tc, test_one_late_frame_keeps_its_slot);
  tcase_add_test (tc, test_pause_is_filled_then_input_resumes);
  return s;
}

GST_CHECK_MAIN (timeline);
