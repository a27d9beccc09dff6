/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output timeline alone, on a test clock, fed what a hostile or
 * careless sender sends: frames of another size than the run's (the output
 * is what its caps say), frames far larger than the output (not scaled),
 * and more than downstream takes (the queue is bounded).
 */

#include "timeline-test.h"

/* a raw I420 frame of @w x @h at @pts */
static GstSample *
sized_frame (gint w, gint h, GstClockTime pts, GstCaps ** caps)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, w * h * 3 / 2, NULL);
  GstSample *sample;

  gst_buffer_memset (buf, 0, 0x80, w * h * 3 / 2);
  GST_BUFFER_PTS (buf) = pts;
  *caps = gst_caps_new_simple ("video/x-raw", "format", G_TYPE_STRING, "I420",
      "width", G_TYPE_INT, w, "height", G_TYPE_INT, h, "framerate",
      GST_TYPE_FRACTION, 16, 1, NULL);
  sample = gst_sample_new (buf, *caps, NULL, NULL);
  gst_buffer_unref (buf);
  return sample;
}

/* frame @i of @w x @h arriving 20 ms after its timestamp */
static GstSessionOutputResult
push_sized (Timeline * t, guint i, gint w, gint h)
{
  GstCaps *caps;
  GstSample *sample = sized_frame (w, h, i * t->frame, &caps);
  GstSessionOutputResult r;

  advance (t, i * t->frame + 20 * GST_MSECOND);
  r = gst_session_output_push (t->out, sample);
  gst_sample_unref (sample);
  gst_caps_unref (caps);
  return r;
}

/* every buffer that left has the size its caps say, and those caps are
 * @w x @h; returns how many left */
static guint
check_output_size (Timeline * t, gint w, gint h)
{
  GstSample *sample;
  guint n = 0;

  gst_session_output_end (t->out);
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (t->sink),
              5 * GST_SECOND))) {
    const GstStructure *s = gst_caps_get_structure (gst_sample_get_caps
        (sample), 0);
    gint cw = 0, ch = 0;

    gst_structure_get_int (s, "width", &cw);
    gst_structure_get_int (s, "height", &ch);
    fail_unless (cw == w && ch == h, "output caps %dx%d, not %dx%d", cw, ch,
        w, h);
    fail_unless_equals_int (gst_buffer_get_size (gst_sample_get_buffer
            (sample)), w * h * 3 / 2);
    gst_sample_unref (sample);
    n++;
  }
  return n;
}

/* a session announcing another size (the height only: 1280x704 ->
 * 1280x1000 left the caps at 1280x704 with buffers of 1280x1000) keeps
 * the run's: its frames are scaled to it */
GST_START_TEST (test_another_size_keeps_the_caps)
{
  gboolean refused;
  Timeline t;
  guint i;

  timeline_init (&t, FALSE);
  fail_unless (gst_session_output_set_video_size (t.out, 32, 16));
  for (i = 0; i < 4; i++)
    fail_unless_equals_int (push_sized (&t, i, 32, 16),
        GST_SESSION_OUTPUT_PLACED);
  /* the announcement of another session: refused, the run keeps 32x16 */
  refused = !gst_session_output_set_video_size (t.out, 32, 24);
  for (; i < 8; i++)
    fail_unless_equals_int (push_sized (&t, i, 32, 24),
        GST_SESSION_OUTPUT_PLACED);
  fail_unless (check_output_size (&t, 32, 16) >= 8);
  fail_unless_equals_int (stats (&t).scaled, 4);
  fail_unless (refused);
  timeline_clear (&t);
}

GST_END_TEST;

/* a new run chooses its size anew */
GST_START_TEST (test_a_new_run_takes_a_new_size)
{
  Timeline t;

  timeline_init (&t, FALSE);
  fail_unless (gst_session_output_set_video_size (t.out, 32, 16));
  gst_session_output_stop (t.out);
  gst_session_output_start (t.out, GST_CLOCK (t.clock), 0);
  fail_unless (gst_session_output_set_video_size (t.out, 16, 32));
  fail_unless_equals_int (push_sized (&t, 0, 16, 32),
      GST_SESSION_OUTPUT_PLACED);
  fail_unless_equals_int (stats (&t).scaled, 0);
  fail_unless (check_output_size (&t, 16, 32) >= 1);
  timeline_clear (&t);
}

GST_END_TEST;

/* frames over four times the output's area are dropped, not scaled (a
 * sender's 8192x8192 against a 1280x704 output: 75 times the work) */
GST_START_TEST (test_frames_far_larger_are_not_scaled)
{
  Timeline t;
  guint i;

  timeline_init (&t, FALSE);
  fail_unless (gst_session_output_set_video_size (t.out, 16, 16));
  fail_unless_equals_int (push_sized (&t, 0, 16, 16),
      GST_SESSION_OUTPUT_PLACED);
  /* twice the side: four times the area, still scaled */
  fail_unless_equals_int (push_sized (&t, 1, 32, 32),
      GST_SESSION_OUTPUT_PLACED);
  for (i = 2; i < 6; i++)
    fail_unless_equals_int (push_sized (&t, i, 128, 128),
        GST_SESSION_OUTPUT_DROPPED);
  fail_unless_equals_int (stats (&t).scaled, 1);
  fail_unless_equals_int (stats (&t).refused, 4);
  check_output_size (&t, 16, 16);
  timeline_clear (&t);
}

GST_END_TEST;

/* downstream that takes nothing: the queue stops at its bound (3 s behind
 * the clock) and
 * what comes after is dropped, counted (it grew without bound: 0.9-2.2 GB
 * in 35 s behind a hostile size) */
GST_START_TEST (test_output_queue_is_bounded)
{
  Timeline t;
  GstSessionOutputStats s;
  GstElement *appsrc;
  guint64 bytes;
  guint i;

  timeline_init (&t, FALSE);
  /* the sink takes one buffer and holds the streaming thread */
  g_object_set (t.sink, "max-buffers", 1, "drop", FALSE, NULL);
  fail_unless (gst_session_output_set_video_size (t.out, 16, 16));
  /* two frames: one the sink keeps, one its streaming thread holds */
  for (i = 0; i < 3; i++)
    push_sized (&t, i, 16, 16);
  t.sink_blocked = TRUE;
  for (; i < 160; i++)
    push_sized (&t, i, 16, 16);
  s = stats (&t);
  appsrc = gst_bin_get_by_name (t.bin, "video_out");
  g_object_get (appsrc, "current-level-bytes", &bytes, NULL);
  gst_object_unref (appsrc);
  /* 10 s came, 3 s (48 frames of 384 bytes, and the one the sink holds)
   * were queued, the rest dropped */
  fail_unless (s.queue_dropped >= 100, "%" G_GUINT64_FORMAT " dropped, %"
      G_GUINT64_FORMAT " bytes queued", s.queue_dropped, bytes);
  fail_unless (bytes <= 52 * 384, "%" G_GUINT64_FORMAT " bytes queued", bytes);
  timeline_clear (&t);
}

GST_END_TEST;

static Suite *
timeline_size_suite (void)
{
  Suite *s = suite_create ("timeline-size");
  TCase *tc = tcase_create ("video");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_another_size_keeps_the_caps);
  tcase_add_test (tc, test_a_new_run_takes_a_new_size);
  tcase_add_test (tc, test_frames_far_larger_are_not_scaled);
  tcase_add_test (tc, test_output_queue_is_bounded);
  return s;
}

GST_CHECK_MAIN (timeline_size);
