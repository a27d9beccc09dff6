/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output timeline (ext/session/gstsessionoutput.c) across a stall of
 * the sender, on a test clock (timeline-test.c): what was known before
 * the pause, and how audio and video resume together after it.
 */

#include "timeline-test.h"

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
 * times, 10 ms after them; the sender pauses for two seconds, announced
 * (@announced, the director's deadline_missed) or not (an outage of the
 * path). After it, its video comes 150 ms behind its audio (the encoder's
 * start on a loaded machine, 130-180 ms measured); with @concealed, the
 * audio decoder's concealment of the pause comes first (2 s at once,
 * stamped at its start, no capture time). Returns the output
 * times of the audio's first block after the pause (the sync click) and
 * of the video's first frame (the marker), NONE for one not in the
 * output. */
static void
pause_and_resume (gboolean announced, gboolean concealed, GstClockTime * click,
    GstClockTime * marker)
{
  GstClockTime next_audio = 0, a;
  GstSample *first;
  gpointer args[2];
  GThread *thread = NULL;
  Timeline t;
  gint64 pushed;
  guint i, n;

  timeline_init_rate (&t, FALSE, 24);
  timeline_add_audio (&t);
  /* a wait is ended by the other stream here, not by the test's pace */
  t.origin.resume_wait = 10 * G_TIME_SPAN_SECOND;
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
  if (announced)
    gst_session_output_origin_announce_pause (&t.origin,
        g_get_monotonic_time () + 2 * G_TIME_SPAN_SECOND);
  /* the pause, then the audio's first block after it, marked */
  advance (&t, 5 * GST_SECOND + 10 * GST_MSECOND);
  if (concealed) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 96000 * 2, NULL);
    GstSample *s;

    gst_buffer_memset (buf, 0, 0, 96000 * 2);
    GST_BUFFER_PTS (buf) = 3 * GST_SECOND;
    GST_BUFFER_DURATION (buf) = 2 * GST_SECOND;
    s = gst_sample_new (buf, t.acaps, NULL, NULL);
    gst_session_output_push (t.aout, s);
    gst_sample_unref (s);
    gst_buffer_unref (buf);
  }
  first = audio_block (&t, 5 * GST_SECOND, 0x2222);
  if (announced) {
    args[0] = t.aout;
    args[1] = first;
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
    fail_unless (n < 2000, "the audio after the pause did not wait");
  } else {
    /* nothing waits after an outage */
    pushed = g_get_monotonic_time ();
    gst_session_output_push (t.aout, first);
    fail_unless (g_get_monotonic_time () - pushed < G_TIME_SPAN_SECOND,
        "the audio after an outage waited");
  }
  /* the video's first frame after it, 150 ms behind, marked */
  push_at (&t, video_frame (5 * GST_SECOND, 0x33), 5 * GST_SECOND +
      160 * GST_MSECOND);
  if (thread)
    g_thread_join (thread);
  gst_sample_unref (first);
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
  *click = find_output (t.aout, t.asink, 0x22);
  *marker = find_output (t.out, t.sink, 0x33);
  timeline_clear (&t);
}

/* @click and @marker are both in the output, at one instant */
static void
assert_together (GstClockTime click, GstClockTime marker)
{
  fail_unless (GST_CLOCK_TIME_IS_VALID (click), "the click is not in the "
      "output");
  fail_unless (GST_CLOCK_TIME_IS_VALID (marker), "the marker's frame is not "
      "in the output (dropped)");
  fail_unless (ABS (GST_CLOCK_DIFF (click, marker)) < 42 * GST_MSECOND,
      "the click at %" GST_TIME_FORMAT ", its marker at %" GST_TIME_FORMAT,
      GST_TIME_ARGS (click), GST_TIME_ARGS (marker));
}

/* The pause announced (the director's stall): the audio's first block
 * after it waits for the video's first frame, and both go out at one
 * instant. Placed at once (as it was), the click went 150 ms before the
 * marker, and the marker's frame came after the filler had taken its slot
 * (dropped). */
GST_START_TEST (test_first_stream_after_a_stall_waits_for_the_other)
{
  GstClockTime click, marker;

  pause_and_resume (TRUE, FALSE, &click, &marker);
  assert_together (click, marker);
}

GST_END_TEST;

/* The same, the audio decoder's concealment of the pause first (2 s at
 * once, stamped at the pause's start): made by the decoder, it does not
 * hide the pause, and the audio's first block after it still waits for
 * the video. */
GST_START_TEST (test_concealment_does_not_hide_the_stall)
{
  GstClockTime click, marker;

  pause_and_resume (TRUE, TRUE, &click, &marker);
  assert_together (click, marker);
}

GST_END_TEST;

/* An outage of the path (no announcement): the audio is not held (the
 * video's first frame may wait for a keyframe), and goes out at once. */
GST_START_TEST (test_unannounced_pause_does_not_wait)
{
  GstClockTime click, marker;

  pause_and_resume (FALSE, FALSE, &click, &marker);
  fail_unless (GST_CLOCK_TIME_IS_VALID (click), "the click is not in the "
      "output");
  fail_unless (click < 5 * GST_SECOND + 50 * GST_MSECOND, "the click at %"
      GST_TIME_FORMAT, GST_TIME_ARGS (click));
}

GST_END_TEST;

static Suite *
timeline_stall_suite (void)
{
  Suite *s = suite_create ("timeline-stall");
  TCase *tc = tcase_create ("stall");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_rise_pending_at_a_stall_is_not_confirmed_after_it);
  tcase_add_test (tc, test_input_after_a_stall_without_capture_time_by_arrival);
  tcase_add_test (tc, test_first_stream_after_a_stall_waits_for_the_other);
  tcase_add_test (tc, test_concealment_does_not_hide_the_stall);
  tcase_add_test (tc, test_unannounced_pause_does_not_wait);
  return s;
}

GST_CHECK_MAIN (timeline_stall);
