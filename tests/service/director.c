/* gst-session: the reference service, director app
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000

static SvcClient *
connect_director (SvcProcess * p, const SvcClientOptions * options)
{
  SvcClient *c = svc_client_new (svc_process_url (p),
      GST_SESSION_APP_DIRECTOR, options);

  fail_unless_equals_int (svc_client_start (c), 200);
  fail_unless (svc_client_wait_open (c, TIMEOUT));
  return c;
}

static void
assert_error (SvcClient * c, const gchar * code, gint64 version)
{
  JsonObject *m = svc_client_wait_message (c, "error", TIMEOUT);

  fail_unless (m != NULL, "no error %s", code);
  fail_unless_equals_string (json_object_get_string_member (m, "code"), code);
  fail_unless (json_object_get_string_member (m, "error") != NULL);
  if (version > 0)
    fail_unless_equals_int (json_object_get_int_member (m, "prompt_version"),
        version);
}

static void
assert_chunk (SvcClient * c, gint64 index, gint64 version, gint64 duration)
{
  JsonObject *m = svc_client_wait_message (c, "chunk", duration * 1000 +
      TIMEOUT), *dispatch;

  fail_unless (m != NULL, "no chunk %" G_GINT64_FORMAT, index);
  fail_unless_equals_int (json_object_get_int_member (m, "chunk_index"), index);
  fail_unless_equals_int (json_object_get_int_member (m, "prompt_version"),
      version);
  fail_unless_equals_int (json_object_get_int_member (m,
          "requested_duration_seconds"), duration);
  fail_unless_equals_int (json_object_get_int_member (m,
          "generated_frame_count"),
      (gint64) (json_object_get_double_member (m, "playback_seconds") * 24));
  fail_unless (json_object_get_double_member (m, "generation_seconds") >= 0);
  dispatch = json_object_get_object_member (m, "dispatch");
  fail_unless (json_object_get_double_member (dispatch, "wall_ms") >= 0);

  m = svc_client_wait_message (c, "chunk_metrics", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_int (json_object_get_int_member (m, "chunk_index"), index);
  fail_unless_equals_string (json_object_get_string_member (m, "units"), "ms");
  m = svc_client_wait_message (c, "session_metrics", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless (!json_object_get_boolean_member_with_default (m, "final",
          FALSE));
}

/* Whether the last decoded audio buffer is loud (the tone), within
 * @timeout_ms: new audio comes every 20 ms */
static gboolean
wait_for_tone (SvcClient * c, gint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * 1000;

  while (svc_client_audio_rms (c) <= 0.05) {
    if (g_get_monotonic_time () > deadline)
      return FALSE;
    g_usleep (10000);           /* the poll interval of a bounded wait */
  }
  return TRUE;
}

GST_START_TEST (test_director_session)
{
  SvcProcess *p = svc_process_start ("--first-chunk-delay=0.3", NULL);
  SvcClient *c = connect_director (p, NULL);
  JsonObject *m;
  gint width = 0, height = 0, i;
  gint64 index;

  /* session_info with every field */
  m = svc_client_wait_message (c, "session_info", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_int (json_object_get_int_member (m, "protocol_version"),
      1);
  fail_unless_equals_int (json_object_get_int_member (m,
          "audio_sample_rate"), 32000);
  fail_unless_equals_int (json_object_get_int_member (m, "fps"), 24);
  fail_unless_equals_int (json_object_get_int_member (m, "prompt_deck_size"),
      3);
  fail_unless_equals_int (json_object_get_int_member (m,
          "continuation_context_frames"), 39);
  fail_unless_equals_int (json_array_get_length (json_object_get_array_member
          (m, "server_message_types")), 12);
  fail_unless (json_object_has_member (m, "max_session_seconds"));
  fail_unless (json_object_get_string_member (m, "app") != NULL);

  /* video before configure, at the default size */
  fail_unless (svc_client_wait_video_frames (c, 5, TIMEOUT));
  svc_client_video_size (c, &width, &height);
  fail_unless_equals_int (width, 1360);
  fail_unless_equals_int (height, 768);

  /* a prompt before configure */
  fail_unless (svc_client_send (c, "{\"type\": \"prompt\", "
          "\"prompt_version\": 1, \"prompt\": \"too early\"}"));
  assert_error (c, "not_configured", 1);

  /* configure: the effective settings echoed */
  fail_unless (svc_client_send (c, "{\"type\": \"configure\", "
          "\"prompt_version\": 1, \"prompt\": \"a calm sea at dawn\", "
          "\"resolution\": \"480p\", \"aspect_ratio\": \"16:9\", "
          "\"memory\": 8, \"chunk_duration\": 5, \"acceleration\": \"none\", "
          "\"enable_safety_checker\": false}"));
  m = svc_client_wait_message (c, "configured", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_int (json_object_get_int_member (m, "prompt_version"), 1);
  fail_unless_equals_int (json_object_get_int_member (m, "memory"), 8);
  fail_unless_equals_int (json_object_get_int_member (m, "chunk_duration"), 5);
  fail_unless_equals_string (json_object_get_string_member (m,
          "acceleration"), "none");
  fail_unless_equals_string (json_object_get_string_member (m, "resolution"),
      "480p");
  fail_unless_equals_string (json_object_get_string_member (m,
          "aspect_ratio"), "16:9");
  fail_unless (!json_object_get_boolean_member (m, "enable_safety_checker"));

  /* the first chunk: prompt_applied, chunk, chunk_metrics, session_metrics */
  m = svc_client_wait_message (c, "prompt_applied", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_int (json_object_get_int_member (m, "prompt_version"), 1);
  assert_chunk (c, 0, 1, 5);

  /* 480p 16:9 is 848x480 */
  for (i = 0; i < 100 && width != 848; i++) {
    fail_unless (svc_client_wait_video_frames (c,
            svc_client_video_frames (c) + 1, TIMEOUT));
    svc_client_video_size (c, &width, &height);
  }
  fail_unless_equals_int (width, 848);
  fail_unless_equals_int (height, 480);

  /* Opus audio, 48 kHz on the wire, with the tone */
  fail_unless (svc_client_wait_audio (c, 48000, TIMEOUT));
  fail_unless_equals_int (svc_client_audio_rate (c), 48000);
  /* the tone of the first chunk: audio comes later than video (a block
   * leaves once complete, then Opus and the jitterbuffer), so it may not
   * have reached the client when the video has changed size */
  fail_unless (wait_for_tone (c, TIMEOUT), "rms %f", svc_client_audio_rms (c));

  /* errors */
  fail_unless (svc_client_send (c, "{\"type\": \"configure\", "
          "\"prompt_version\": 2, \"prompt\": \"again\"}"));
  assert_error (c, "immutable_settings", 2);
  fail_unless (svc_client_send (c, "{\"type\": \"prompt\", "
          "\"prompt_version\": 1, \"prompt\": \"same version\"}"));
  assert_error (c, "stale_prompt_version", 1);
  fail_unless (svc_client_send (c, "{\"type\": \"prompt\", "
          "\"prompt_version\": 5, \"prompt\": \"a forbidden scene\"}"));
  m = svc_client_wait_message (c, "prompt_rejected", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_string (json_object_get_string_member (m, "reason"),
      "content_policy");
  assert_error (c, "content_policy", 5);
  fail_unless (svc_client_send (c, "{\"type\": \"ping\", \"ts\": 1.5, "
          "\"extra\": 1}"));
  assert_error (c, "invalid_message", 0);
  fail_unless (svc_client_send (c, "{\"type\": \"dance\"}"));
  assert_error (c, "invalid_message", 0);

  /* ping */
  fail_unless (svc_client_send (c, "{\"type\": \"ping\", \"ts\": 42.25}"));
  m = svc_client_wait_message (c, "pong", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_float (json_object_get_double_member (m, "client_ts"),
      42.25);

  /* a new prompt: pending now, applied with the next chunk */
  fail_unless (svc_client_send (c, "{\"type\": \"prompt\", "
          "\"prompt_version\": 2, \"prompt\": \"a storm gathers\"}"));
  m = svc_client_wait_message (c, "prompt_pending", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_int (json_object_get_int_member (m, "prompt_version"), 2);
  /* (a prompt arriving in the last 400 ms before a chunk goes to the one
   * after it) */
  m = svc_client_wait_message (c, "prompt_applied", 10000 + TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_int (json_object_get_int_member (m, "prompt_version"), 2);
  for (index = 1; index < 3; index++) {
    m = svc_client_wait_message (c, "chunk", TIMEOUT);
    fail_unless (m != NULL);
    fail_unless_equals_int (json_object_get_int_member (m, "chunk_index"),
        index);
    if (json_object_get_int_member (m, "prompt_version") == 2)
      break;
  }
  fail_unless (index < 3);

  /* the sync marker and the click of a chunk start arrive together: by
   * their capture times on the service's clock, once a marker and a click
   * carry one (the next chunk's, within its 5 s, when the sender reports
   * came late on a loaded machine); the client's running times are moved
   * by its rtpbin's lip-sync (-163 ms under full CPU load) */
  {
    GstClockTime video = 0, audio = 0;
    gboolean by_sender = FALSE, found;
    gint64 deadline = g_get_monotonic_time () + 7 * G_TIME_SPAN_SECOND;

    /* and the click of that very marker (audio comes later than video:
     * the one before, 5 s away, is nearest until it came); the reading
     * that ended the wait is the one judged (a second reading may find a
     * newer marker whose click has not come yet: -4999 ms under load) */
    while (!((found = svc_client_sync_marks (c, &by_sender, &video,
                    &audio)) && by_sender
            && ABS (GST_CLOCK_DIFF (video, audio)) < GST_SECOND)
        && g_get_monotonic_time () < deadline)
      g_usleep (20 * 1000);
    fail_unless (found);
    fail_unless (by_sender, "no marker and click with the sender's times "
        "within 7 s");
    GST_INFO ("sync marker at %" GST_TIME_FORMAT ", click at %"
        GST_TIME_FORMAT, GST_TIME_ARGS (video), GST_TIME_ARGS (audio));
    fail_unless (ABS (GST_CLOCK_DIFF (video, audio)) < 150 * GST_MSECOND,
        "A/V offset %" G_GINT64_FORMAT " ms",
        GST_CLOCK_DIFF (video, audio) / GST_MSECOND);
  }

  /* stop: a final session_metrics, then stream_exhausted */
  fail_unless (svc_client_send (c, "{\"type\": \"stop\"}"));
  do {
    m = svc_client_wait_message (c, "session_metrics", TIMEOUT);
    fail_unless (m != NULL);
  } while (!json_object_get_boolean_member_with_default (m, "final", FALSE));
  m = svc_client_wait_message (c, "stream_exhausted", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_string (json_object_get_string_member (m, "reason"),
      "stopped");
  fail_unless (json_object_get_int_member (m, "chunks") >= index + 1);
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));

  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* --session-limit ends the stream with reason session_limit */
GST_START_TEST (test_director_session_limit)
{
  SvcProcess *p = svc_process_start ("--session-limit=2",
      "--first-chunk-delay=0.2", "--media=cached", NULL);
  SvcClient *c = connect_director (p, NULL);
  JsonObject *m;

  m = svc_client_wait_message (c, "session_info", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_float (json_object_get_double_member (m,
          "max_session_seconds"), 2.0);
  fail_unless (svc_client_send (c, "{\"type\": \"configure\", "
          "\"prompt_version\": 3, \"prompt\": \"limits\"}"));
  fail_unless (svc_client_wait_message (c, "configured", TIMEOUT));
  assert_chunk (c, 0, 3, 10);
  m = svc_client_wait_message (c, "stream_exhausted", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_string (json_object_get_string_member (m, "reason"),
      "session_limit");
  fail_unless_equals_int (json_object_get_int_member (m, "chunks"), 1);
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));

  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* no configure in time: configuration_timeout, then the session ends */
GST_START_TEST (test_director_configuration_timeout)
{
  SvcProcess *p = svc_process_start ("--configure-timeout=0.5",
      "--media=cached", NULL);
  SvcClient *c = connect_director (p, NULL);

  fail_unless (svc_client_wait_message (c, "session_info", TIMEOUT));
  assert_error (c, "configuration_timeout", 0);
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));

  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

static Suite *
director_suite (void)
{
  Suite *s = suite_create ("service-director");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  tcase_add_test (tc, test_director_session);
  tcase_add_test (tc, test_director_session_limit);
  tcase_add_test (tc, test_director_configuration_timeout);
  return s;
}

GST_CHECK_MAIN (director);
