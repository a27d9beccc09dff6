/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * directorsrc against the reference service, over real WebRTC on
 * 127.0.0.1: configure and the effective settings, versioned prompts and
 * their refusals, immutable settings, and the end of a stream. Recordings
 * and A/V sync: directorsrc-recording.c.
 */

#include <gst/check/gstcheck.h>
#include <gst/pbutils/pbutils.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <string.h>

#include "director-test.h"

/* configure → configured with the effective settings; raw caps follow */
GST_START_TEST (test_configure_effective_settings)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a harbour at dawn\" resolution=480p aspect-ratio=1:1 "
      "memory=20 chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  Tap *v = tap_attach (pipeline, "vsink");
  Tap *a = tap_attach (pipeline, "asink");
  GstElement *src = get_src (pipeline);
  GstStructure *eff = NULL, *s;
  GstCaps *caps;
  GstMessage *msg;
  gboolean safety = FALSE;
  gint w = 0, h = 0, n = 0, d = 0, rate = 0, memory = 0, chunk = 0;
  gchar *res = NULL, *aspect = NULL;

  /* the settings read back as they were set */
  g_object_get (src, "resolution", &res, "aspect-ratio", &aspect, "memory",
      &memory, "chunk-duration", &chunk, NULL);
  fail_unless_equals_string (res, "480p");
  fail_unless_equals_string (aspect, "1:1");
  fail_unless_equals_int (memory, 20);
  fail_unless_equals_int (chunk, 5);
  g_free (res);
  g_free (aspect);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = expect (log, "director/configured", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  fail_unless_equals_int (field_int64 (msg, "memory"), 20);
  fail_unless_equals_int (field_int64 (msg, "chunk_duration"), 5);
  fail_unless_equals_string (field_string (msg, "resolution"), "480p");
  fail_unless_equals_string (field_string (msg, "aspect_ratio"), "1:1");
  /* what was not set: the service's defaults */
  fail_unless_equals_string (field_string (msg, "acceleration"), "regular");
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "enable_safety_checker", &safety) && safety);
  gst_message_unref (msg);

  g_object_get (src, "configured", &eff, NULL);
  fail_unless (eff != NULL, "no configured property");
  fail_unless_equals_string (gst_structure_get_string (eff, "resolution"),
      "480p");
  gst_structure_free (eff);

  /* the first chunk plays at the configured size */
  gst_message_unref (expect (log, "director/chunk", 1));
  caps = tap_wait (v, tap_count (v), 12, WAIT);
  fail_unless (caps != NULL, "no video after the first chunk");
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"), "%" GST_PTR_FORMAT,
      caps);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (w, 480);
  fail_unless_equals_int (h, 480);
  fail_unless_equals_int (n, FPS);
  fail_unless_equals_int (d, 1);
  gst_caps_unref (caps);

  caps = tap_wait (a, 0, 5, WAIT);
  fail_unless (caps != NULL, "no audio");
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "audio/x-raw"), "%" GST_PTR_FORMAT,
      caps);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "S16LE");
  fail_unless (gst_structure_get_int (s, "rate", &rate));
  fail_unless_equals_int (rate, RATE);
  gst_caps_unref (caps);
  bus_log_assert_no_error (log);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  tap_free (v);
  tap_free (a);
  service_harness_stop (svc);
}

GST_END_TEST;


/* a prompt change while playing: pending, then applied, as version 2 */
GST_START_TEST (test_prompt_versions)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a quiet forest\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gint64 last = 0, applied = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = expect (log, "director/configured", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  gst_message_unref (msg);

  g_object_set (src, "prompt", "the forest in a storm", NULL);
  g_object_get (src, "last-version", &last, NULL);
  fail_unless_equals_int (last, 2);
  msg = expect (log, "director/prompt_pending", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  gst_message_unref (expect_with (log, "director/prompt_applied",
          "prompt_version", "2"));
  g_object_get (src, "applied-version", &applied, "last-version", &last, NULL);
  fail_unless_equals_int (applied, 2);
  fail_unless_equals_int (last, 2);
  /* the chunk that applied it carries it */
  gst_message_unref (expect_with (log, "director/chunk", "prompt_version",
          "2"));
  bus_log_assert_no_error (log);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/error"), 0);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;


/* a version not above the last accepted is sent as given; the service
 * refuses it */
GST_START_TEST (test_stale_prompt_version)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a desert road\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gboolean ok = FALSE;
  gint64 last = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  g_object_set (src, "prompt", "the road at night", NULL);
  msg = expect (log, "director/prompt_pending", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  g_signal_emit_by_name (src, "set-prompt", (gint64) 1, "the road at noon",
      &ok);
  fail_unless (ok, "set-prompt with an explicit old version was refused");
  msg = expect (log, "director/error", 1);
  fail_unless_equals_string (field_string (msg, "code"),
      "stale_prompt_version");
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  gst_message_unref (msg);
  g_object_get (src, "last-version", &last, NULL);
  fail_unless_equals_int (last, 2);
  /* only the accepted one was pending */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/prompt_pending"), 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;


/* the service's blocked word: prompt_rejected, then an error */
GST_START_TEST (test_content_policy)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a lighthouse\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gint64 applied = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  g_object_set (src, "prompt", "a Forbidden lighthouse", NULL);
  msg = expect (log, "director/prompt_rejected", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  fail_unless_equals_string (field_string (msg, "reason"), "content_policy");
  gst_message_unref (msg);
  msg = expect (log, "director/error", 1);
  fail_unless_equals_string (field_string (msg, "code"), "content_policy");
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  /* never pending, never applied: the chunks keep version 1 */
  gst_message_unref (expect (log, "director/chunk", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/prompt_pending"), 0);
  g_object_get (src, "applied-version", &applied, NULL);
  fail_unless_equals_int (applied, 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;


/* settings are fixed once configured: refused locally, nothing sent */
GST_START_TEST (test_immutable_settings)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a glacier\" memory=20");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  const GstStructure *details = NULL;
  GError *err = NULL;
  gboolean ok = FALSE;
  gint memory = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);

  g_object_set (src, "memory", 30, NULL);
  msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no warning for a setting changed while playing");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "memory") != NULL, "%s", err->message);
  gst_message_parse_warning_details (msg, &details);
  fail_unless (details != NULL);
  fail_unless_equals_string (gst_structure_get_string (details, "refused"),
      "memory");
  g_error_free (err);
  gst_message_unref (msg);
  g_object_get (src, "memory", &memory, NULL);
  fail_unless_equals_int (memory, 20);

  /* nothing went to the service: a ping's pong comes back first and no
   * immutable_settings error */
  g_signal_emit_by_name (src, "ping", &ok);
  fail_unless (ok);
  gst_message_unref (expect (log, "director/pong", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/error"), 0);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;


/* EOS sent to the element: stop, stream_exhausted (stopped), then EOS */
GST_START_TEST (test_eos_sends_stop)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a city at night\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  Tap *v = tap_attach (pipeline, "vsink");
  Tap *a = tap_attach (pipeline, "asink");
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  GstCaps *caps;
  gboolean final = FALSE;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/chunk", 1));
  caps = tap_wait (v, 0, 24, WAIT);
  fail_unless (caps != NULL, "fewer than 24 frames after the first chunk");
  gst_caps_unref (caps);
  fail_unless (gst_element_send_event (src, gst_event_new_eos ()));

  msg = expect (log, "director/stream_exhausted", 1);
  fail_unless_equals_string (field_string (msg, "reason"), "stopped");
  fail_unless (field_int64 (msg, "chunks") >= 1);
  gst_message_unref (msg);
  /* the final session_metrics came before */
  msg = expect_with (log, "director/session_metrics", "final", "true");
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "final", &final) && final);
  gst_message_unref (msg);

  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no EOS after stream_exhausted");
  gst_message_unref (msg);
  fail_unless (v->eos && a->eos, "EOS did not reach both pads");
  /* stopped is final: no renewal */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "session/negotiated"), 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  tap_free (v);
  tap_free (a);
  service_harness_stop (svc);
}

GST_END_TEST;

static Suite *
directorsrc_suite (void)
{
  Suite *s = suite_create ("directorsrc");
  TCase *tc = tcase_create ("service");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, service_harness_settle_threads);
  tcase_add_test (tc, test_configure_effective_settings);
  tcase_add_test (tc, test_prompt_versions);
  tcase_add_test (tc, test_stale_prompt_version);
  tcase_add_test (tc, test_content_policy);
  tcase_add_test (tc, test_immutable_settings);
  tcase_add_test (tc, test_eos_sends_stop);
  return s;
}

GST_CHECK_MAIN (directorsrc);
