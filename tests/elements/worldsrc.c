/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * worldsrc against the reference service, over real WebRTC on 127.0.0.1:
 * frames, timestamps and sizes, the control messages and their
 * acknowledgements, recordings (raw and without re-encoding), the end of a
 * stream, renewal, the control script, and state changes without a
 * service. Refusals, the lifecycle and the API key: worldsrc-lifecycle.c.
 */

#include <gst/check/gstcheck.h>
#include <gst/pbutils/pbutils.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "world-test.h"

/* a file of this process in the temporary folder: two runs of this
 * program at once (the stress loop's workers) wrote and removed each
 * other's recordings under one fixed name ("Resource not found") */
static gchar *
pid_path (const gchar * what, const gchar * ext)
{
  gchar *name = g_strdup_printf ("%s-%d.%s", what, (gint) getpid (), ext);
  gchar *path = g_build_filename (g_get_tmp_dir (), name, NULL);

  g_free (name);
  return path;
}

GST_START_TEST (test_frames_size_rate_timestamps)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = world_pipeline (svc, NULL);
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstStructure *s;
  gint w, h, n, d;
  gint64 span;

  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
  fail_unless (frames_wait (f, 49, WAIT) >= 49, "fewer than 49 frames");
  bus_log_assert_no_error (log);

  s = gst_caps_get_structure (f->caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"));
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (w, 1280);
  fail_unless_equals_int (h, 704);
  fail_unless_equals_int (n, 16);
  fail_unless_equals_int (d, 1);
  assert_continuous (f, 0, 49);

  /* the real rate: 48 frame intervals take 3 s of wall time (±20%) */
  span = g_array_index (f->arrival, gint64, 48) -
      g_array_index (f->arrival, gint64, 0);
  fail_unless (span > 2400000 && span < 3600000, "48 frames in %"
      G_GINT64_FORMAT " µs", span);

  /* a session_info arrived and is readable */
  gst_message_unref (expect (log, "world/session_info", 1));
  {
    GstElement *src = get_src (pipeline);
    GstStructure *info = NULL;
    gint64 fpb;

    g_object_get (src, "session-info", &info, NULL);
    fail_unless (info != NULL);
    fail_unless (gst_structure_get_int64 (info, "frames_per_block", &fpb));
    gst_structure_free (info);
    gst_object_unref (src);
  }
  gst_message_unref (expect (log, "session/negotiated", 1));

  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

GST_START_TEST (test_configure_prompt_commands_ping)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = world_pipeline (svc,
      "preset=desert-valley prompt=\"dunes at dusk\"");
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gboolean ok = FALSE;
  gchar *held = NULL;
  gdouble rtt = -1;
  const GstStructure *s;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* configure → configured */
  gst_message_unref (expect (log, "world/configured", 1));
  fail_unless (frames_wait (f, 8, WAIT) >= 8);

  /* a prompt change while playing → prompt_applied */
  g_object_set (src, "prompt", "dunes at night", NULL);
  gst_message_unref (expect (log, "world/prompt_applied", 1));

  /* held commands and a one-shot */
  g_signal_emit_by_name (src, "press", "forward", &ok);
  fail_unless (ok);
  g_signal_emit_by_name (src, "press", "look_left", &ok);
  fail_unless (ok);
  g_object_get (src, "commands", &held, NULL);
  fail_unless_equals_string (held, "forward+look_left");
  g_free (held);

  /* a conflicting command is refused with a warning, nothing changes */
  g_signal_emit_by_name (src, "press", "backward", &ok);
  fail_if (ok);
  msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, WAIT);
  fail_unless (msg != NULL);
  {
    GError *err = NULL;

    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, "backward") != NULL, "%s", err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  g_object_get (src, "commands", &held, NULL);
  fail_unless_equals_string (held, "forward+look_left");
  g_free (held);

  g_signal_emit_by_name (src, "activate", "look_up", &ok);
  fail_unless (ok);
  g_signal_emit_by_name (src, "release", "forward+look_left", &ok);
  fail_unless (ok);

  /* an invalid prompt is refused; the property keeps its value */
  {
    gchar *long_prompt = g_strnfill (2001, 'x');
    gchar *p = NULL;

    g_object_set (src, "prompt", long_prompt, NULL);
    g_object_get (src, "prompt", &p, NULL);
    fail_unless_equals_string (p, "dunes at night");
    g_free (p);
    g_free (long_prompt);
    msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 2, WAIT);
    fail_unless (msg != NULL);
    gst_message_unref (msg);
  }

  /* ping → pong with the round trip */
  g_signal_emit_by_name (src, "ping", &ok);
  fail_unless (ok);
  msg = expect (log, "world/pong", 1);
  s = gst_message_get_structure (msg);
  fail_unless (gst_structure_get_double (s, "rtt_ms", &rtt));
  fail_unless (rtt >= 0 && rtt < 1000, "rtt %f", rtt);
  gst_message_unref (msg);

  /* reset → reset_applied */
  g_signal_emit_by_name (src, "reset", "alpine-meadow", NULL, "spring", &ok);
  fail_unless (ok);
  gst_message_unref (expect (log, "world/reset_applied", 1));

  /* stats arrive once per block */
  gst_message_unref (expect (log, "world/stats", 1));
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* stream_exhausted → EOS and a finalised MP4 whose duration matches */
GST_START_TEST (test_exhausted_gives_playable_mp4)
{
  ServiceHarness *svc = service_harness_start ("--world-max-blocks=2",
      "--world-frames-per-block=16", NULL);
  gchar *url = service_harness_url (svc, "world");
  gchar *path = pid_path ("worldsrc-test", "mp4");
  gchar *desc = g_strdup_printf ("worldsrc url=%s ! videoconvert ! "
      "x264enc tune=zerolatency speed-preset=ultrafast ! mp4mux ! "
      "filesink location=%s", url, path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  BusLog *log = bus_log_new (pipeline);
  GstMessage *msg;
  GstClockTime duration;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "world/stream_exhausted", 1));
  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no EOS after stream_exhausted");
  gst_message_unref (msg);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);

  duration = recording_duration (path);
  /* 2 blocks of 16 frames: 2 s of the service's timeline, less the
   * frames before the first keyframe (the first ones of a stream), more if
   * the service was slow (the output repeats frames, never cuts) */
  fail_unless (duration >= 1500 * GST_MSECOND &&
      duration <= 4500 * GST_MSECOND, "duration %" GST_TIME_FORMAT,
      GST_TIME_ARGS (duration));
  g_unlink (path);
  g_free (desc);
  g_free (path);
  g_free (url);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* decode=false: the stream as it arrived, remuxed without re-encoding,
 * ended by an EOS (gst-launch -e) */
static void
record_encoded (const gchar * service_flag, const gchar * mux,
    const gchar * ext)
{
  ServiceHarness *svc = service_harness_start (service_flag, NULL);
  gchar *url = service_harness_url (svc, "world");
  gchar *path = pid_path ("worldsrc-encoded", ext);
  gchar *desc = g_strdup_printf ("worldsrc url=%s decode=false ! %s ! "
      "filesink location=%s", url, mux, path);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  BusLog *log = bus_log_new (pipeline);
  GstMessage *msg;
  GstClockTime duration;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* three blocks of stats: about 3 s of video */
  gst_message_unref (expect (log, "world/stats", 3));
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no EOS");
  gst_message_unref (msg);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);

  duration = recording_duration (path);
  fail_unless (duration >= 2 * GST_SECOND && duration <= 6 * GST_SECOND,
      "duration %" GST_TIME_FORMAT, GST_TIME_ARGS (duration));
  g_unlink (path);
  g_free (desc);
  g_free (path);
  g_free (url);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_START_TEST (test_vp8_to_webm_without_reencoding)
{
  record_encoded ("--video-codec=vp8", "webmmux", "webm");
}

GST_END_TEST;

GST_START_TEST (test_h264_to_mp4_without_reencoding)
{
  record_encoded ("--video-codec=h264", "mp4mux", "mp4");
}

GST_END_TEST;

/* renew: a second session continues the timeline without a gap */
GST_START_TEST (test_renew_keeps_timeline)
{
  ServiceHarness *svc = service_harness_start ("--world-max-blocks=1",
      "--world-frames-per-block=16", NULL);
  GstElement *pipeline = world_pipeline (svc,
      "renew=true renew-min-media=0 prompt=hills");
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  guint n;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "world/stream_exhausted", 1));
  gst_message_unref (expect (log, "session/negotiated", 2));
  /* the new session is configured again from the properties */
  gst_message_unref (expect (log, "world/configured", 2));
  n = frames_wait (f, 40, WAIT);
  fail_unless (n >= 40, "%u frames", n);
  fail_if (f->eos);
  assert_continuous (f, 0, n);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* the strings a session start reads (STUN, TURN, channel label) are set
 * from another thread while sessions renew: each start copies them under
 * the lock (ASan, in hardening/asan-elements, sees a use after free
 * otherwise) */
typedef struct
{
  GstElement *src;
  gint stop;
} Setter;

static gpointer
set_labels (gpointer data)
{
  Setter *s = data;
  guint i;

  /* bounded: at most 20 000 sets */
  for (i = 0; i < 20000 && !g_atomic_int_get (&s->stop); i++) {
    g_object_set (s->src, "channel-label", i % 2 ? "control" : "control-b",
        "turn-server", NULL, NULL);
    g_usleep (200);
  }
  return NULL;
}

GST_START_TEST (test_strings_set_while_renewing)
{
  ServiceHarness *svc = service_harness_start ("--world-max-blocks=1",
      "--world-frames-per-block=8", NULL);
  GstElement *pipeline = world_pipeline (svc, "renew=true renew-min-media=0");
  BusLog *log = bus_log_new (pipeline);
  Setter s = { get_src (pipeline), 0 };
  GThread *thread;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  thread = g_thread_new ("setter", set_labels, &s);
  /* three renewals with the strings changing under them */
  gst_message_unref (expect (log, "session/negotiated", 3));
  g_atomic_int_set (&s.stop, 1);
  g_thread_join (thread);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  gst_object_unref (s.src);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* the control script applies its actions at their times */
GST_START_TEST (test_control_script)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  gchar *path = pid_path ("worldsrc-steer", "txt");
  gchar *props;
  GstElement *pipeline;
  BusLog *log;
  GstMessage *msg;
  gdouble channel_ms = 0;

  fail_unless (g_file_set_contents (path,
          "# test script\n"
          "2.5 press forward\n" "3.0 prompt a river at dawn\n"
          "3.5 release forward\n" "3.6 ping\n", -1, NULL));
  props = g_strdup_printf ("control-script=%s", path);
  pipeline = world_pipeline (svc, props);
  log = bus_log_new (pipeline);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* a prompt due before the channel opens goes into the session's
   * `configure` (no prompt_applied then): under full CPU load the channel
   * opened later than 3 s (channel-ms counts from the session's start,
   * at PLAYING) */
  msg = expect (log, "session/negotiated", 1);
  fail_unless (gst_structure_get_double (gst_message_get_structure (msg),
          "channel-ms", &channel_ms));
  gst_message_unref (msg);
  if (channel_ms < 2500) {
    gst_message_unref (expect (log, "world/prompt_applied", 1));
  } else {
    g_print ("channel open after %.0f ms: the prompt went with configure\n",
        channel_ms);
    gst_message_unref (expect (log, "world/configured", 1));
  }
  gst_message_unref (expect (log, "world/pong", 1));
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  bus_log_free (log);
  g_unlink (path);
  g_free (path);
  g_free (props);

  /* an invalid script fails NULL→READY with the line in the error */
  path = pid_path ("worldsrc-bad", "txt");
  fail_unless (g_file_set_contents (path, "0 press forward\n"
          "1 jump\n", -1, NULL));
  props = g_strdup_printf ("control-script=%s", path);
  pipeline = world_pipeline (svc, props);
  log = bus_log_new (pipeline);
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_FAILURE);
  msg = bus_log_wait (log, GST_MESSAGE_ERROR, NULL, 1, WAIT);
  fail_unless (msg != NULL);
  {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    fail_unless (strstr (err->message, "line 2") != NULL, "%s", err->message);
    g_error_free (err);
  }
  gst_message_unref (msg);
  stop_pipeline (pipeline);
  bus_log_free (log);
  g_unlink (path);
  g_free (path);
  g_free (props);
  service_harness_stop (svc);
}

GST_END_TEST;

GST_START_TEST (test_states_without_service)
{
  GstElement *src = gst_element_factory_make ("worldsrc", NULL);
  guint i;

  fail_unless (src != NULL);
  for (i = 0; i < 3; i++) {
    fail_unless_equals_int (gst_element_set_state (src, GST_STATE_READY),
        GST_STATE_CHANGE_SUCCESS);
    fail_unless_equals_int (gst_element_set_state (src, GST_STATE_PAUSED),
        GST_STATE_CHANGE_NO_PREROLL);
    fail_unless_equals_int (gst_element_set_state (src, GST_STATE_NULL),
        GST_STATE_CHANGE_SUCCESS);
  }
  /* the pad is always there */
  {
    GstPad *pad = gst_element_get_static_pad (src, "video");

    fail_unless (pad != NULL);
    gst_object_unref (pad);
  }
  gst_object_unref (src);
}

GST_END_TEST;

/* A sender that changes its resolution unannounced (as libwebrtc does with
 * loss, bandwidth or CPU): raw output keeps the announced 1280x704, frames
 * of the other size are scaled, and no caps change reaches downstream */
GST_START_TEST (test_sender_resize_keeps_output_size)
{
  ServiceHarness *svc = service_harness_start ("--fault-resize=1:640x352",
      NULL);
  GstElement *pipeline = world_pipeline (svc, "stats-interval=500");
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstMessage *msg;
  const GstStructure *s;
  guint64 scaled = 0;
  gint w = 0, h = 0;
  guint i;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* 4 s: the resize 1 s after the channel opened, then 640x352 frames */
  fail_unless (frames_wait (f, 64, WAIT) >= 64, "fewer than 64 frames");
  g_mutex_lock (&f->lock);
  fail_unless (f->caps_changes == 0, "the caps changed %u times",
      f->caps_changes);
  fail_unless (f->wrong_size == 0, "%u buffers of another size", f->wrong_size);
  g_mutex_unlock (&f->lock);
  for (i = 1; scaled == 0 && i < 40; i++) {
    msg = expect (log, "session/stats", i);
    gst_structure_get_uint64 (gst_message_get_structure (msg),
        "video-frames-scaled", &scaled);
    gst_message_unref (msg);
  }
  bus_log_assert_no_error (log);
  fail_unless (scaled > 0, "no frame was scaled: did the sender resize?");
  s = gst_caps_get_structure (f->caps, 0);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless_equals_int (w, 1280);
  fail_unless_equals_int (h, 704);
  stop_pipeline (pipeline);
  frames_free (f);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

static Suite *
worldsrc_suite (void)
{
  Suite *s = suite_create ("worldsrc");
  TCase *tc = tcase_create ("service");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, service_harness_settle_threads);
  tcase_add_test (tc, test_states_without_service);
  tcase_add_test (tc, test_frames_size_rate_timestamps);
  tcase_add_test (tc, test_sender_resize_keeps_output_size);
  tcase_add_test (tc, test_configure_prompt_commands_ping);
  tcase_add_test (tc, test_exhausted_gives_playable_mp4);
  tcase_add_test (tc, test_renew_keeps_timeline);
  tcase_add_test (tc, test_strings_set_while_renewing);
  tcase_add_test (tc, test_vp8_to_webm_without_reencoding);
  tcase_add_test (tc, test_h264_to_mp4_without_reencoding);
  tcase_add_test (tc, test_control_script);
  return s;
}

GST_CHECK_MAIN (worldsrc);
