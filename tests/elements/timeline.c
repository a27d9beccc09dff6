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

#include "timeline-test.h"

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

static GstClockTime
reported_latency (Timeline * t)
{
  GstQuery *q = gst_query_new_latency ();
  GstClockTime min = GST_CLOCK_TIME_NONE, max;
  gboolean live = FALSE;

  fail_unless (gst_pad_query (gst_session_output_get_pad (t->out), q));
  gst_query_parse_latency (q, &live, &min, &max);
  fail_unless (live);
  gst_query_unref (q);
  return min;
}

/* Off loopback every input's timestamp already has the recovery delay
 * (it is placed that much after its least delayed arrival): the pad
 * reports the wait before the filler steps in and the filler's margin
 * (30 ms), not the delay again (a syncing sink showed frames twice the
 * jitterbuffer latency late: 227 ms on the LAN path), and the wait is
 * 1.5 frames less the delay, at least 30 ms. */
GST_START_TEST (test_reported_latency_counts_the_recovery_once)
{
  Timeline t;

  timeline_init_rate (&t, FALSE, 24);
  /* on loopback: 1.5 frames (62.5 ms) and the margin */
  fail_unless_equals_uint64 (reported_latency (&t),
      t.frame + t.frame / 2 + 30 * GST_MSECOND);
  gst_session_output_set_recovery (t.out, 20 * GST_MSECOND);
  fail_unless_equals_uint64 (reported_latency (&t),
      t.frame + t.frame / 2 - 20 * GST_MSECOND + 30 * GST_MSECOND);
  gst_session_output_set_recovery (t.out, 200 * GST_MSECOND);
  fail_unless_equals_uint64 (reported_latency (&t), 60 * GST_MSECOND);
  timeline_clear (&t);
}

GST_END_TEST;

/* Interactive playout: the pad reports only the output's own delay
 * (5 ms), whatever the recovery delay; a repeat the filler makes late is
 * shown late, not every frame. */
GST_START_TEST (test_reported_latency_interactive)
{
  Timeline t;

  timeline_init_rate (&t, FALSE, 16);
  gst_session_output_set_interactive (t.out, TRUE);
  fail_unless_equals_uint64 (reported_latency (&t), 5 * GST_MSECOND);
  gst_session_output_set_recovery (t.out, 10 * GST_MSECOND);
  fail_unless_equals_uint64 (reported_latency (&t), 5 * GST_MSECOND);
  gst_session_output_set_interactive (t.out, FALSE);
  fail_unless_equals_uint64 (reported_latency (&t),
      t.frame + t.frame / 2 - 10 * GST_MSECOND + 30 * GST_MSECOND);
  timeline_clear (&t);
}

GST_END_TEST;

/* Interactive playout, a sender slower than its nominal rate (3 ms more
 * per frame) with 2 ms of jitter: each frame goes out at its own place,
 * none dropped or repeated. On the first frame's grid every frame fell
 * behind its slot until one was repeated, and each was up to 3/5 of a
 * slot (37 ms) off its time. */
GST_START_TEST (test_interactive_frames_keep_their_own_time)
{
  GstClockTime sent[64];
  Timeline t;
  guint i;

  timeline_init (&t, FALSE);
  gst_session_output_set_interactive (t.out, TRUE);
  for (i = 0; i < G_N_ELEMENTS (sent); i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);

    sent[i] = i * (t.frame + 3 * GST_MSECOND) + (i % 2) * 2 * GST_MSECOND;
    GST_BUFFER_PTS (buf) = sent[i];
    push_at (&t, buf, sent[i] + 10 * GST_MSECOND);
  }
  collect_output (&t);
  fail_unless_equals_int (stats (&t).dropped, 0);
  fail_unless_equals_int (stats (&t).repeated, 0);
  fail_unless_equals_int (t.pts->len, G_N_ELEMENTS (sent));
  for (i = 0; i < t.pts->len; i++) {
    GstClockTime at = g_array_index (t.pts, GstClockTime, i);

    fail_unless_equals_uint64 (at - g_array_index (t.pts, GstClockTime, 0),
        sent[i]);
  }
  timeline_clear (&t);
}

GST_END_TEST;

/* Interactive playout: a frame held 150 ms (a lost packet asked for
 * again) is stood in for by a repeat a frame after the last one, then
 * dropped as its place is past; the next one, held with it, goes as it
 * comes, and the frames after it at their own places again. */
GST_START_TEST (test_interactive_late_frame_repeats_then_drops)
{
  Timeline t;
  guint i, n;

  timeline_init (&t, FALSE);
  gst_session_output_set_interactive (t.out, TRUE);
  for (i = 0; i < 40; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
    GstClockTime at = i * t.frame + 10 * GST_MSECOND;

    if (i >= 20 && i <= 22)
      at = MAX (at, 20 * t.frame + 160 * GST_MSECOND);
    GST_BUFFER_PTS (buf) = i * t.frame;
    push_at (&t, buf, at);
  }
  collect_output (&t);
  fail_unless (stats (&t).repeated >= 1, "no repeat");
  fail_unless (stats (&t).dropped >= 1, "none dropped");
  n = t.pts->len;
  fail_unless_equals_int (n, 40);
  for (i = 1; i < n; i++) {
    GstClockTime a = g_array_index (t.pts, GstClockTime, i - 1);
    GstClockTime b = g_array_index (t.pts, GstClockTime, i);

    fail_unless (b >= a + t.frame / 2 && (b <= a + t.frame + t.frame / 2 ||
            b == 20 * t.frame + 160 * GST_MSECOND),
        "frame %u at %" GST_TIME_FORMAT " after %" GST_TIME_FORMAT, i,
        GST_TIME_ARGS (b), GST_TIME_ARGS (a));
  }
  fail_unless_equals_uint64 (g_array_index (t.pts, GstClockTime, n - 1),
      10 * GST_MSECOND + 39 * t.frame);
  timeline_clear (&t);
}

GST_END_TEST;

/* Interactive playout: a frame 40 ms after its place (a retransmission,
 * under the filler's limit) goes out as it comes, not at its place: a
 * video sink drops a frame pushed 20 ms late. The next one is half a
 * frame after it, the one after at its own place again. */
GST_START_TEST (test_interactive_late_frame_shown_as_it_comes)
{
  Timeline t;
  guint i;

  timeline_init (&t, FALSE);
  gst_session_output_set_interactive (t.out, TRUE);
  for (i = 0; i < 30; i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
    GstClockTime at = i * t.frame + 10 * GST_MSECOND;

    if (i == 20)
      at += 40 * GST_MSECOND;
    GST_BUFFER_PTS (buf) = i * t.frame;
    push_at (&t, buf, at);
  }
  collect_output (&t);
  fail_unless_equals_int (stats (&t).dropped, 0);
  fail_unless_equals_int (stats (&t).repeated, 0);
  fail_unless_equals_int (t.pts->len, 30);
  fail_unless_equals_uint64 (g_array_index (t.pts, GstClockTime, 20),
      20 * t.frame + 50 * GST_MSECOND);
  fail_unless_equals_uint64 (g_array_index (t.pts, GstClockTime, 21),
      20 * t.frame + 50 * GST_MSECOND + t.frame / 2);
  fail_unless_equals_uint64 (g_array_index (t.pts, GstClockTime, 22),
      22 * t.frame + 10 * GST_MSECOND);
  timeline_clear (&t);
}

GST_END_TEST;

/* Interactive playout, a path (or a sender's clock) that moves: frames
 * come 30 ms later from frame 20 on (one more ms each frame), then from
 * frame 80 on 30 ms earlier than at first. Each move is followed once it
 * lasted a second, an eighth of a frame at a time: the last frames of
 * each stretch go out at most that (8 ms) before they came (a video sink
 * drops a frame 20 ms late) and less than 10 ms after. With the grid's
 * rise limit (40 ms) the later frames were all placed 30 ms before they
 * came. */
GST_START_TEST (test_interactive_follows_the_path)
{
  GstClockTime came[128];
  Timeline t;
  guint i, n;

  timeline_init (&t, FALSE);
  gst_session_output_set_interactive (t.out, TRUE);
  for (i = 0; i < G_N_ELEMENTS (came); i++) {
    GstBuffer *buf = gst_buffer_new_allocate (NULL, 16 * 16 * 3 / 2, NULL);
    GstClockTime late = 40 * GST_MSECOND;

    if (i >= 20 && i < 80)
      late += MIN (i - 20 + 1, 30) * GST_MSECOND;
    else if (i >= 80)
      late -= 30 * GST_MSECOND;
    GST_BUFFER_PTS (buf) = i * t.frame;
    came[i] = i * t.frame + late;
    push_at (&t, buf, came[i]);
  }
  collect_output (&t);
  n = t.pts->len;
  fail_unless_equals_int (n, G_N_ELEMENTS (came));
  for (i = 0; i < n; i++) {
    GstClockTime at = g_array_index (t.pts, GstClockTime, i);

    if ((i >= 70 && i < 80) || i >= 118)
      fail_unless (at + t.frame / 8 >= came[i] &&
          at < came[i] + 10 * GST_MSECOND,
          "frame %u out at %" GST_TIME_FORMAT ", came at %" GST_TIME_FORMAT,
          i, GST_TIME_ARGS (at), GST_TIME_ARGS (came[i]));
  }
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

static Suite *
timeline_suite (void)
{
  Suite *s = suite_create ("timeline");
  TCase *tc = tcase_create ("video");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_steady_input_fills_every_slot);
  tcase_add_test (tc, test_reported_latency_counts_the_recovery_once);
  tcase_add_test (tc, test_reported_latency_interactive);
  tcase_add_test (tc, test_interactive_frames_keep_their_own_time);
  tcase_add_test (tc, test_interactive_late_frame_repeats_then_drops);
  tcase_add_test (tc, test_interactive_late_frame_shown_as_it_comes);
  tcase_add_test (tc, test_interactive_follows_the_path);
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
  return s;
}

GST_CHECK_MAIN (timeline);
