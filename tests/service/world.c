/* gst-session: the reference service, world app
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000

static SvcClient *
connect_world (SvcProcess * p, const SvcClientOptions * options)
{
  SvcClient *c = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD,
      options);

  fail_unless_equals_int (svc_client_start (c), 200);
  fail_unless (svc_client_wait_open (c, TIMEOUT));
  return c;
}

static JsonObject *
admin_state (SvcProcess * p, SvcClient * c)
{
  JsonObject *state = svc_admin_session (svc_process_url (p),
      svc_client_session_id (c));

  fail_unless (state != NULL);
  return state;
}

/* frames per second over the next @frames frames, by their capture times
 * on the sender's clock when both ends have one, else by their running
 * times: by when they arrived, a loaded machine that let a backlog
 * through at once measured 22.3-22.7 fps for the service's 16 */
static gdouble
measure_rate (SvcClient * c, guint64 frames)
{
  GstClockTime s0, r0, s1, r1, t0, t1;
  guint64 n0 = svc_client_video_frames_at (c, &s0, &r0), n1;
  gboolean by_sender;
  gdouble rate;

  fail_unless (svc_client_wait_video_frames (c, n0 + frames, 10000));
  n1 = svc_client_video_frames_at (c, &s1, &r1);
  by_sender = GST_CLOCK_TIME_IS_VALID (s0) && GST_CLOCK_TIME_IS_VALID (s1);
  t0 = by_sender ? s0 : r0;
  t1 = by_sender ? s1 : r1;
  fail_unless (GST_CLOCK_TIME_IS_VALID (t0) && GST_CLOCK_TIME_IS_VALID (t1) &&
      t1 > t0, "frames without times");
  rate = (n1 - n0) * (gdouble) GST_SECOND / (t1 - t0);
  g_print ("measured: %" G_GUINT64_FORMAT " frames over %.3f s of %s: "
      "%.2f fps\n", n1 - n0, (t1 - t0) / 1e9, by_sender ? "capture times" :
      "running times", rate);
  return rate;
}

static void
assert_string_array (JsonObject * obj, const gchar * member,
    const gchar * const *expected)
{
  JsonArray *a = json_object_get_array_member (obj, member);
  guint i;

  fail_unless (a != NULL);
  fail_unless_equals_int (json_array_get_length (a), g_strv_length ((gchar **)
          expected));
  for (i = 0; expected[i]; i++)
    fail_unless_equals_string (json_array_get_string_element (a, i),
        expected[i]);
}

GST_START_TEST (test_world_session)
{
  SvcProcess *p = svc_process_start ("--keepalive=1", NULL);
  SvcClient *c = connect_world (p, NULL);
  static const gchar *keys[] = { "forward", "left", "backward", "right",
    "look_up", "look_left", "look_down", "look_right", NULL
  };
  JsonObject *m, *res;
  JsonArray *groups;
  gint width, height;
  gdouble rate;

  /* session_info on channel open, every field */
  m = svc_client_wait_message (c, "session_info", TIMEOUT);
  fail_unless (m != NULL);
  res = json_object_get_object_member (m, "resolution");
  fail_unless_equals_int (json_object_get_int_member (res, "width"), 1280);
  fail_unless_equals_int (json_object_get_int_member (res, "height"), 704);
  fail_unless_equals_float (json_object_get_double_member (m,
          "frames_per_second"), 16.0);
  fail_unless_equals_int (json_object_get_int_member (m, "frames_per_block"),
      16);
  fail_unless_equals_int (json_object_get_int_member (m, "max_blocks"), 10000);
  assert_string_array (m, "key_order", keys);
  groups = json_object_get_array_member (m, "conflict_groups");
  fail_unless_equals_int (json_array_get_length (groups), 4);
  fail_unless_equals_string (json_array_get_string_element
      (json_array_get_array_element (groups, 0), 1), "backward");
  fail_unless (json_array_get_length (json_object_get_array_member (m,
              "presets")) >= 5);
  fail_unless (json_object_has_member (m, "turn"));
  fail_unless (json_object_get_string_member (m, "turn_status") != NULL);
  fail_unless (json_object_get_string_member (m, "default_prompt") != NULL);

  /* media: 1280x704 at about 16 fps, a default world without any message */
  fail_unless (svc_client_wait_video_frames (c, 5, TIMEOUT));
  svc_client_video_size (c, &width, &height);
  fail_unless_equals_int (width, 1280);
  fail_unless_equals_int (height, 704);
  rate = measure_rate (c, 48);
  GST_INFO ("world video at %.2f fps", rate);
  fail_unless (rate > 11.0 && rate < 22.0, "rate %f", rate);

  /* stats once per block */
  m = svc_client_wait_message (c, "stats", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless (json_object_get_int_member (m, "block_index") >= 0);

  /* configure once */
  fail_unless (svc_client_send (c, "{\"type\": \"configure\", "
          "\"preset\": \"desert-valley\", \"prompt\": \"dunes at dusk\"}"));
  fail_unless (svc_client_wait_message (c, "configured", TIMEOUT) != NULL);
  fail_unless (svc_client_send (c, "{\"type\": \"configure\", "
          "\"preset\": \"landscape\"}"));
  m = svc_client_wait_message (c, "error", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless (json_object_get_boolean_member (m, "retryable") == FALSE);

  /* prompt, reset, ping */
  fail_unless (svc_client_send (c, "{\"type\": \"prompt\", "
          "\"prompt\": \"a storm rolls in\"}"));
  fail_unless (svc_client_wait_message (c, "prompt_applied", TIMEOUT));
  m = admin_state (p, c);
  fail_unless_equals_string (json_object_get_string_member (m, "prompt"),
      "a storm rolls in");
  fail_unless_equals_string (json_object_get_string_member (m, "world"),
      "desert-valley");
  json_object_unref (m);
  fail_unless (svc_client_send (c, "{\"type\": \"reset\", "
          "\"image_url\": \"https://example.com/start.png\"}"));
  fail_unless (svc_client_wait_message (c, "reset_applied", TIMEOUT));
  fail_unless (svc_client_send (c, "{\"type\": \"ping\", \"ts\": 12.5}"));
  m = svc_client_wait_message (c, "pong", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_float (json_object_get_double_member (m, "ts"), 12.5);

  /* invalid messages: an error each, with the library's text */
  fail_unless (svc_client_send (c, "{\"type\": \"prompt\"}"));
  m = svc_client_wait_message (c, "error", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless (strstr (json_object_get_string_member (m, "error"),
          "prompt") != NULL);
  fail_unless (svc_client_send (c, "{\"type\": \"fly\"}"));
  fail_unless (svc_client_wait_message (c, "error", TIMEOUT) != NULL);
  fail_unless (svc_client_send (c, "not json"));
  fail_unless (svc_client_wait_message (c, "error", TIMEOUT) != NULL);

  /* the SSE response carries keepalives */
  fail_unless (svc_client_keepalives (c) >= 1);

  /* stop: stream_exhausted, then the service closes */
  fail_unless (svc_client_send (c, "{\"type\": \"stop\"}"));
  fail_unless (svc_client_wait_message (c, "stream_exhausted", TIMEOUT));
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));

  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* The commands move the camera, and the picture with it */
GST_START_TEST (test_world_commands)
{
  SvcProcess *p = svc_process_start (NULL, NULL);
  SvcClient *c = connect_world (p, NULL);
  GstSample *a, *b, *d;
  JsonObject *m;
  gdouble z = 0, yaw = 0, still, moved;
  guint64 n;
  gint i;

  fail_unless (svc_client_wait_video_frames (c, 8, TIMEOUT));
  a = svc_client_last_video (c);
  n = svc_client_video_frames (c);
  fail_unless (svc_client_wait_video_frames (c, n + 6, TIMEOUT));
  b = svc_client_last_video (c);
  /* the floor (lower half) stays put while no command is held */
  still = svc_sample_luma_diff (a, b, 0.5);

  fail_unless (svc_client_send (c, "{\"type\": \"commands\", "
          "\"active\": [\"forward\", \"look_right\"]}"));
  for (i = 0; i < 50 && (z < 1.0 || yaw < 10.0); i++) {
    n = svc_client_video_frames (c);
    fail_unless (svc_client_wait_video_frames (c, n + 2, TIMEOUT));
    m = admin_state (p, c);
    z = json_object_get_double_member (m, "z");
    yaw = json_object_get_double_member (m, "yaw_degrees");
    json_object_unref (m);
  }
  GST_INFO ("after holding forward: z %.2f yaw %.1f", z, yaw);
  fail_unless (z >= 1.0 && yaw >= 10.0);
  fail_unless (svc_client_send (c, "{\"type\": \"commands\", "
          "\"active\": []}"));
  n = svc_client_video_frames (c);
  fail_unless (svc_client_wait_video_frames (c, n + 6, TIMEOUT));
  d = svc_client_last_video (c);
  moved = svc_sample_luma_diff (a, d, 0.5);
  GST_INFO ("floor difference still %.2f, moved %.2f", still, moved);
  fail_unless (still < 3.0, "still %f", still);
  fail_unless (moved > 3.0 * still + 5.0, "moved %f", moved);

  /* an edge-triggered command moves a little */
  fail_unless (svc_client_send (c, "{\"type\": \"commands\", "
          "\"activated\": [\"backward\"]}"));
  n = svc_client_video_frames (c);
  fail_unless (svc_client_wait_video_frames (c, n + 8, TIMEOUT));
  m = admin_state (p, c);
  fail_unless (json_object_get_double_member (m, "z") < z);
  json_object_unref (m);

  gst_sample_unref (a);
  gst_sample_unref (b);
  gst_sample_unref (d);
  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* stream_exhausted after max_blocks; the pong of the fallback handler */
GST_START_TEST (test_world_exhausted)
{
  SvcProcess *p = svc_process_start ("--world-max-blocks=3",
      "--world-frames-per-block=8", "--pong-fallback", NULL);
  SvcClient *c = connect_world (p, NULL);
  JsonObject *m;
  gint i;

  fail_unless (svc_client_send (c, "{\"type\": \"ping\", \"ts\": 7}"));
  m = svc_client_wait_message (c, "pong", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_float (json_object_get_double_member (m, "client_ts"),
      7.0);
  fail_unless (json_object_has_member (m, "server_ts"));

  for (i = 0; i < 3; i++) {
    m = svc_client_wait_message (c, "stats", TIMEOUT);
    fail_unless (m != NULL);
    fail_unless_equals_int (json_object_get_int_member (m, "block_index"), i);
  }
  fail_unless (svc_client_wait_message (c, "stream_exhausted", TIMEOUT));
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));
  fail_unless_equals_int (svc_client_count_messages (c, "stats"), 3);

  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* H.264 when the offer has only H.264; cached media keeps the rate */
GST_START_TEST (test_world_h264_cached)
{
  SvcProcess *p = svc_process_start ("--media=cached", "--video-codec=h264",
      NULL);
  SvcClientOptions options = { NULL, };
  SvcClient *c;
  gint width, height;
  gdouble rate;

  options.h264 = TRUE;
  c = connect_world (p, &options);
  fail_unless (svc_client_wait_message (c, "session_info", TIMEOUT));
  fail_unless (svc_client_wait_video_frames (c, 5, 10000));
  svc_client_video_size (c, &width, &height);
  fail_unless_equals_int (width, 1280);
  fail_unless_equals_int (height, 704);
  rate = measure_rate (c, 48);
  fail_unless (rate > 11.0 && rate < 22.0, "rate %f", rate);
  fail_unless (svc_client_wait_message (c, "stats", TIMEOUT));

  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

static Suite *
world_suite (void)
{
  Suite *s = suite_create ("service-world");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  tcase_add_test (tc, test_world_session);
  tcase_add_test (tc, test_world_commands);
  tcase_add_test (tc, test_world_exhausted);
  tcase_add_test (tc, test_world_h264_cached);
  return s;
}

GST_CHECK_MAIN (world);
