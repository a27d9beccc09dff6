/* gst-session: the reference service, injected faults
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000

static SvcClient *
connect_app (SvcProcess * p, GstSessionApp app,
    const SvcClientOptions * options)
{
  SvcClient *c = svc_client_new (svc_process_url (p), app, options);

  fail_unless_equals_int (svc_client_start (c), 200);
  fail_unless (svc_client_wait_open (c, TIMEOUT));
  fail_unless (svc_client_wait_message (c, "session_info", TIMEOUT));
  return c;
}

/* faults for the live session of @c, timed from now */
static void
live_fault (SvcProcess * p, SvcClient * c, const gchar * fault)
{
  gchar *url = g_strdup_printf ("%s/admin/faults", svc_process_url (p));
  gchar *body = g_strdup_printf ("{\"session_id\": \"%s\", %s}",
      svc_client_session_id (c), fault);
  SvcHttpReply *r = svc_http ("POST", url, body, NULL);

  fail_unless_equals_int (r->status, 200);
  fail_unless_equals_int (json_object_get_int_member (json_node_get_object
          (r->json), "applied"), 1);
  svc_http_reply_free (r);
  g_free (body);
  g_free (url);
}

/* the peer goes away without a goodbye; the response ends with it */
GST_START_TEST (test_fault_drop)
{
  SvcProcess *p = svc_process_start ("--fault-drop-after=3",
      "--media=cached", NULL);
  SvcClient *c = connect_app (p, GST_SESSION_APP_WORLD, NULL);
  guint64 n;

  fail_unless (svc_client_wait_video_frames (c, 4, TIMEOUT));
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));
  n = svc_client_video_frames (c);
  fail_if (svc_client_wait_video_frames (c, n + 8, 1500));
  fail_unless_equals_int (svc_client_count_messages (c, "stream_exhausted"), 0);
  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* dropped, but the response stays open (keepalives go on) */
GST_START_TEST (test_fault_drop_keep_response)
{
  SvcProcess *p = svc_process_start ("--keepalive=1", "--media=cached",
      NULL);
  SvcClient *c = connect_app (p, GST_SESSION_APP_WORLD, NULL);
  guint64 n;
  guint keepalives;

  fail_unless (svc_client_wait_video_frames (c, 4, TIMEOUT));
  live_fault (p, c, "\"drop_after\": 0, \"drop_keep_response\": true");
  n = svc_client_video_frames (c);
  fail_if (svc_client_wait_video_frames (c, n + 12, 1500));
  keepalives = svc_client_keepalives (c);
  fail_if (svc_client_wait_response_end (c, 2500));
  fail_unless (svc_client_keepalives (c) > keepalives);
  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* a late chunk: deadline_missed, the media pauses, then the chunk */
GST_START_TEST (test_fault_director_stall)
{
  SvcProcess *p = svc_process_start ("--fault-stall=0:2",
      "--first-chunk-delay=0.5", "--media=cached", NULL);
  SvcClient *c = connect_app (p, GST_SESSION_APP_DIRECTOR, NULL);
  JsonObject *m;
  guint64 n1, n2;
  gint64 t1, t2;

  fail_unless (svc_client_send (c, "{\"type\": \"configure\", "
          "\"prompt_version\": 1, \"prompt\": \"slow\", "
          "\"chunk_duration\": 5}"));
  fail_unless (svc_client_wait_message (c, "configured", TIMEOUT));
  m = svc_client_wait_message (c, "deadline_missed", TIMEOUT);
  fail_unless (m != NULL);
  t1 = g_get_monotonic_time ();
  n1 = svc_client_video_frames (c);
  fail_unless_equals_int (json_object_get_int_member (m, "chunk_index"), 0);
  fail_unless_equals_float (json_object_get_double_member (m,
          "late_by_seconds"), 2.0);
  fail_unless_equals_string (json_object_get_string_member (m, "behavior"),
      "freeze_video_and_silence_audio_until_ready");
  fail_unless_equals_int (svc_client_count_messages (c, "chunk"), 0);

  m = svc_client_wait_message (c, "chunk", TIMEOUT);
  fail_unless (m != NULL);
  t2 = g_get_monotonic_time ();
  n2 = svc_client_video_frames (c);
  GST_INFO ("%" G_GUINT64_FORMAT " frames in %.2f s of stall", n2 - n1,
      (t2 - t1) / 1e6);
  fail_unless (t2 - t1 > 1500000);
  fail_unless (n2 - n1 < 16);
  fail_unless (svc_client_wait_video_frames (c, n2 + 12, TIMEOUT));

  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* world: the media pauses */
GST_START_TEST (test_fault_world_stall)
{
  SvcProcess *p = svc_process_start ("--media=cached", NULL);
  SvcClient *c = connect_app (p, GST_SESSION_APP_WORLD, NULL);
  guint64 n;

  fail_unless (svc_client_wait_video_frames (c, 4, TIMEOUT));
  live_fault (p, c, "\"stall\": {\"at\": 0, \"duration\": 2}");
  n = svc_client_video_frames (c);
  fail_if (svc_client_wait_video_frames (c, n + 10, 1200));
  fail_unless (svc_client_wait_video_frames (c, n + 10, TIMEOUT));
  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* early end: final session_metrics, stream_exhausted session_limit */
GST_START_TEST (test_fault_exhaust)
{
  SvcProcess *p = svc_process_start ("--fault-exhaust-after=1",
      "--media=cached", NULL);
  SvcClient *c = connect_app (p, GST_SESSION_APP_DIRECTOR, NULL);
  JsonObject *m;

  m = svc_client_wait_message (c, "session_metrics", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless (json_object_get_boolean_member (m, "final"));
  m = svc_client_wait_message (c, "stream_exhausted", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_string (json_object_get_string_member (m, "reason"),
      "session_limit");
  fail_unless (svc_client_wait_response_end (c, TIMEOUT));
  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* broken messages on the channel, and a director error */
GST_START_TEST (test_fault_messages)
{
  SvcProcess *p = svc_process_start ("--media=cached", NULL);
  SvcClientOptions options = { NULL, };
  SvcClient *c;
  JsonObject *m;

  options.expect_invalid = TRUE;
  c = connect_app (p, GST_SESSION_APP_DIRECTOR, &options);
  live_fault (p, c, "\"bad_message\": \"malformed\"");
  fail_unless (svc_client_wait_invalid (c, 1, TIMEOUT));
  live_fault (p, c, "\"bad_message\": {\"kind\": \"unknown_type\"}");
  fail_unless (svc_client_wait_invalid (c, 2, TIMEOUT));
  live_fault (p, c, "\"bad_message\": {\"kind\": \"schema\", \"at\": 0.1}");
  fail_unless (svc_client_wait_invalid (c, 3, TIMEOUT));

  live_fault (p, c, "\"director_error\": \"generation_failed\"");
  m = svc_client_wait_message (c, "error", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_string (json_object_get_string_member (m, "code"),
      "generation_failed");
  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* the same from the command line */
GST_START_TEST (test_fault_message_flags)
{
  SvcProcess *p = svc_process_start ("--fault-bad-message=unknown_type:0.2",
      "--fault-director-error=generation_timeout:0.4", "--media=cached",
      NULL);
  SvcClientOptions options = { NULL, };
  SvcClient *c;
  JsonObject *m;

  options.expect_invalid = TRUE;
  c = connect_app (p, GST_SESSION_APP_DIRECTOR, &options);
  fail_unless (svc_client_wait_invalid (c, 1, TIMEOUT));
  m = svc_client_wait_message (c, "error", TIMEOUT);
  fail_unless (m != NULL);
  fail_unless_equals_string (json_object_get_string_member (m, "code"),
      "generation_timeout");
  svc_client_free (c);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* the world's session_info announces @width x @height; its video stays
 * 1280x704 */
static void
assert_announced (SvcProcess * p, gint64 width, gint64 height)
{
  SvcClient *c = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD,
      NULL);
  JsonObject *m, *res;
  gint w = 0, h = 0;

  fail_unless_equals_int (svc_client_start (c), 200);
  fail_unless (svc_client_wait_open (c, TIMEOUT));
  m = svc_client_wait_message (c, "session_info", TIMEOUT);
  fail_unless (m != NULL);
  res = json_object_get_object_member (m, "resolution");
  fail_unless_equals_int64 (json_object_get_int_member (res, "width"), width);
  fail_unless_equals_int64 (json_object_get_int_member (res, "height"), height);
  fail_unless (svc_client_wait_video_frames (c, 4, TIMEOUT));
  svc_client_video_size (c, &w, &h);
  fail_unless_equals_int (w, 1280);
  fail_unless_equals_int (h, 704);
  svc_client_free (c);
}

/* a resolution announced that the video does not have */
GST_START_TEST (test_fault_announce)
{
  SvcProcess *p = svc_process_start ("--fault-announce=1280x100",
      "--media=cached", NULL);

  assert_announced (p, 1280, 100);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* the same through the admin endpoint, for the next world session */
GST_START_TEST (test_fault_announce_admin)
{
  SvcProcess *p = svc_process_start ("--media=cached", NULL);
  gchar *url = g_strdup_printf ("%s/admin/faults", svc_process_url (p));
  SvcHttpReply *r;
  JsonObject *rule;
  const gchar *bad[] = { "\"0x704\"", "\"65537x704\"", "\"1280x\"",
    "\"1280\"", "\"-1x5\"", "1280", NULL
  };
  guint i;

  for (i = 0; bad[i]; i++) {
    gchar *body = g_strdup_printf ("{\"announce\": %s}", bad[i]);

    r = svc_http ("POST", url, body, NULL);
    fail_unless (r->status == 400, "%s: %u", body, r->status);
    svc_http_reply_free (r);
    g_free (body);
  }
  r = svc_http ("POST", url, "{\"app\": \"world\", "
      "\"announce\": \"8192x8192\"}", NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  r = svc_http ("GET", url, NULL, NULL);
  fail_unless_equals_int (r->status, 200);
  rule = json_array_get_object_element (json_object_get_array_member
      (json_node_get_object (r->json), "rules"), 0);
  fail_unless_equals_string (json_object_get_string_member (rule,
          "announce"), "8192x8192");
  svc_http_reply_free (r);

  assert_announced (p, 8192, 8192);
  /* count 1: the next session is true again */
  assert_announced (p, 1280, 704);
  g_free (url);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* configure goes unanswered: no configured, no chunk; the session stays
 * up and its waiting picture goes on at the default size */
static void
assert_unconfigured (SvcProcess * p)
{
  SvcClient *c = connect_app (p, GST_SESSION_APP_DIRECTOR, NULL);
  gint width = 0, height = 0;
  guint64 n;

  fail_unless (svc_client_send (c, "{\"type\": \"configure\", "
          "\"prompt_version\": 1, \"prompt\": \"never answered\", "
          "\"resolution\": \"480p\", \"chunk_duration\": 5}"));
  n = svc_client_video_frames (c);
  fail_if (svc_client_wait_message (c, "configured", 3000));
  fail_unless_equals_int (svc_client_count_messages (c, "chunk"), 0);
  fail_unless_equals_int (svc_client_count_messages (c, "error"), 0);
  fail_unless (svc_client_wait_video_frames (c, n + 48, TIMEOUT));
  svc_client_video_size (c, &width, &height);
  fail_unless_equals_int (width, 1360);
  fail_unless_equals_int (height, 768);
  fail_if (svc_client_wait_response_end (c, 0));
  fail_unless (svc_client_send (c, "{\"type\": \"ping\", \"ts\": 1}"));
  fail_unless (svc_client_wait_message (c, "pong", TIMEOUT));
  svc_client_free (c);
}

GST_START_TEST (test_fault_no_configured)
{
  SvcProcess *p = svc_process_start ("--fault-no-configured",
      "--first-chunk-delay=0.3", "--media=cached", NULL);

  assert_unconfigured (p);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

GST_START_TEST (test_fault_no_configured_admin)
{
  SvcProcess *p = svc_process_start ("--first-chunk-delay=0.3",
      "--media=cached", NULL);
  gchar *url = g_strdup_printf ("%s/admin/faults", svc_process_url (p));
  SvcHttpReply *r;
  JsonObject *rule;

  r = svc_http ("POST", url, "{\"no_configured\": \"yes\"}", NULL);
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);
  r = svc_http ("POST", url, "{\"no_configured\": false}", NULL);
  fail_unless_equals_int (r->status, 400);
  svc_http_reply_free (r);
  r = svc_http ("POST", url, "{\"app\": \"director\", "
      "\"no_configured\": true}", NULL);
  fail_unless_equals_int (r->status, 200);
  svc_http_reply_free (r);
  r = svc_http ("GET", url, NULL, NULL);
  fail_unless_equals_int (r->status, 200);
  rule = json_array_get_object_element (json_object_get_array_member
      (json_node_get_object (r->json), "rules"), 0);
  fail_unless (json_object_get_boolean_member (rule, "no_configured"));
  svc_http_reply_free (r);
  g_free (url);

  assert_unconfigured (p);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("service-faults");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  tcase_add_test (tc, test_fault_drop);
  tcase_add_test (tc, test_fault_drop_keep_response);
  tcase_add_test (tc, test_fault_director_stall);
  tcase_add_test (tc, test_fault_world_stall);
  tcase_add_test (tc, test_fault_exhaust);
  tcase_add_test (tc, test_fault_messages);
  tcase_add_test (tc, test_fault_message_flags);
  tcase_add_test (tc, test_fault_announce);
  tcase_add_test (tc, test_fault_announce_admin);
  tcase_add_test (tc, test_fault_no_configured);
  tcase_add_test (tc, test_fault_no_configured_admin);
  return s;
}

GST_CHECK_MAIN (faults);
