/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Congestion feedback against the reference service, over real WebRTC on
 * 127.0.0.1: the offer carries transport-cc (with its header extension)
 * and goog-remb; a service that answers transport-cc receives TWCC
 * feedback and REMBs only with a cap, one that answers REMB alone
 * (--no-transport-cc) receives REMBs, and with max-bitrate either's
 * encoder falls to the cap and what arrives follows. The
 * service reports what it saw in GET /admin/sessions ("congestion"). The
 * estimate alone: remb.c.
 */

#include <gst/check/gstcheck.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "world-test.h"

#define CAP 300000
/* the longest wait for what the service reports (without a cap the
 * first REMB goes 5 s into the stream) */
#define REPORT_WAIT (15 * G_TIME_SPAN_SECOND)

/* The "congestion" object of the service's session @id (GET
 * /admin/sessions; a new reference), or NULL while it has none */
static JsonObject *
service_congestion (ServiceHarness * svc, const gchar * id)
{
  SoupSession *session = soup_session_new_with_options ("timeout", 5, NULL);
  gchar *url = g_strconcat (service_harness_base_url (svc), "/admin/sessions",
      NULL);
  SoupMessage *msg = soup_message_new (SOUP_METHOD_GET, url);
  GBytes *body = soup_session_send_and_read (session, msg, NULL, NULL);
  JsonParser *parser = json_parser_new ();
  JsonObject *found = NULL;

  if (body && SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (msg)) &&
      json_parser_load_from_data (parser, g_bytes_get_data (body, NULL),
          g_bytes_get_size (body), NULL)) {
    JsonNode *root = json_parser_get_root (parser);
    JsonArray *sessions = JSON_NODE_HOLDS_OBJECT (root) ?
        json_object_get_array_member (json_node_get_object (root),
        "sessions") : NULL;
    guint i;

    for (i = 0; sessions && i < json_array_get_length (sessions); i++) {
      JsonObject *s = json_array_get_object_element (sessions, i);

      if (g_strcmp0 (json_object_get_string_member (s, "session_id"),
              id) == 0 && json_object_has_member (s, "congestion"))
        found = json_object_ref (json_object_get_object_member (s,
                "congestion"));
    }
  }
  g_object_unref (parser);
  if (body)
    g_bytes_unref (body);
  g_object_unref (msg);
  g_object_unref (session);
  g_free (url);
  return found;
}

/* The element's session id once it started one */
static gchar *
wait_session_id (GstElement * pipeline)
{
  GstElement *src = get_src (pipeline);
  gint64 deadline = g_get_monotonic_time () + REPORT_WAIT;
  gchar *id = NULL;

  while (id == NULL && g_get_monotonic_time () < deadline) {
    g_object_get (src, "session-id", &id, NULL);
    if (id == NULL)
      g_usleep (20000);
  }
  gst_object_unref (src);
  fail_unless (id != NULL, "no session id within 15 s");
  return id;
}

typedef gboolean (*Condition) (JsonObject * c, gpointer data);

/* Waits (up to REPORT_WAIT) until the service's congestion report of @id
 * meets @cond; returns that report (unref it), or the last one seen, or
 * NULL when there was none */
static JsonObject *
wait_report (ServiceHarness * svc, const gchar * id, Condition cond,
    gpointer data)
{
  gint64 deadline = g_get_monotonic_time () + REPORT_WAIT;
  JsonObject *c = NULL;

  for (;;) {
    g_clear_pointer (&c, json_object_unref);
    c = service_congestion (svc, id);
    if ((c && cond (c, data)) || g_get_monotonic_time () >= deadline)
      return c;
    g_usleep (100000);
  }
}

static gint64
member (JsonObject * c, const gchar * name)
{
  return c && json_object_has_member (c, name) ?
      json_object_get_int_member (c, name) : -1;
}

static gboolean
any_report (JsonObject * c, gpointer data)
{
  return TRUE;
}

static gboolean
feedback_arrived (JsonObject * c, gpointer data)
{
  return member (c, "twcc_feedback_received") >= 20 &&
      member (c, "rembs_received") >= 3;
}

static gboolean
twcc_arrived (JsonObject * c, gpointer data)
{
  return member (c, "twcc_feedback_received") >= 20;
}

static gboolean
rembs_arrived (JsonObject * c, gpointer data)
{
  return member (c, "rembs_received") >= 3;
}

static const gchar *
rate_control (JsonObject * c)
{
  return c && json_object_has_member (c, "rate_control") ?
      json_object_get_string_member (c, "rate_control") : "";
}

static gboolean
encoder_capped (JsonObject * c, gpointer data)
{
  gint64 bitrate = member (c, "encoder_bitrate");

  return bitrate > 0 && bitrate <= CAP;
}

static GstElement *
start_world (ServiceHarness * svc, const gchar * props, BusLog ** log,
    Frames ** frames)
{
  GstElement *pipeline = world_pipeline (svc, props);

  *log = bus_log_new (pipeline);
  *frames = frames_attach (pipeline);
  fail_unless_equals_int (gst_element_set_state (pipeline,
          GST_STATE_PLAYING), GST_STATE_CHANGE_ASYNC);
  fail_unless (frames_wait (*frames, 1, WAIT) >= 1, "no frame in 20 s");
  return pipeline;
}

static guint64
stats_uint64 (GstMessage * msg, const gchar * field)
{
  guint64 v = 0;

  fail_unless (gst_structure_get_uint64 (gst_message_get_structure (msg),
          field, &v), "session/stats has no %s", field);
  return v;
}

/* The offer the service received asks for transport-cc on the video's
 * codec, names its header extension (a one-byte id) and offers
 * goog-remb; without max-bitrate it caps nothing (no b=TIAS or b=AS) */
GST_START_TEST (test_offer_feedback)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  BusLog *log;
  Frames *f;
  GstElement *pipeline = start_world (svc, NULL, &log, &f);
  gchar *id = wait_session_id (pipeline);
  JsonObject *c = wait_report (svc, id, any_report, NULL);

  fail_unless (c != NULL, "the service reports no congestion state");
  fail_unless (member (c, "offer_twcc_ext_id") >= 1 &&
      member (c, "offer_twcc_ext_id") <= 14, "the offer has no transport-cc "
      "header extension (a=extmap id %" G_GINT64_FORMAT ")", member (c,
          "offer_twcc_ext_id"));
  fail_unless (json_object_get_boolean_member (c, "offer_transport_cc"),
      "the offer has no a=rtcp-fb transport-cc on the video codec");
  fail_unless (json_object_get_boolean_member (c, "offer_goog_remb"),
      "the offer has no a=rtcp-fb goog-remb on the video codec");
  fail_unless_equals_int64 (member (c, "offer_max_bitrate"), 0);
  json_object_unref (c);
  bus_log_assert_no_error (log);

  g_free (id);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* with max-bitrate the offer caps the video: b=TIAS:300000 (b=AS:300) */
GST_START_TEST (test_offer_cap)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  BusLog *log;
  Frames *f;
  GstElement *pipeline = start_world (svc, "max-bitrate=300000", &log, &f);
  gchar *id = wait_session_id (pipeline);
  JsonObject *c = wait_report (svc, id, any_report, NULL);

  fail_unless (c != NULL, "the service reports no congestion state");
  fail_unless_equals_int64 (member (c, "offer_max_bitrate"), CAP);
  json_object_unref (c);

  g_free (id);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* A service that answers transport-cc receives TWCC feedback (RTPFB 15,
 * one per frame at least) and estimates the path itself: without a cap
 * it is sent no REMB (as Chromium's receiver does), which would hold it
 * at 1.5 times what it sends; the element's session/stats counts what it
 * sent */
GST_START_TEST (test_feedback_reaches_service)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  BusLog *log;
  Frames *f;
  GstElement *pipeline = start_world (svc, NULL, &log, &f);
  gchar *id = wait_session_id (pipeline);
  JsonObject *c = wait_report (svc, id, twcc_arrived, NULL);
  GstMessage *later;

  fail_unless (c != NULL, "the service reports no congestion state");
  fail_unless (twcc_arrived (c, NULL), "the service received %"
      G_GINT64_FORMAT " TWCC feedback packets in 15 s",
      member (c, "twcc_feedback_received"));
  fail_unless_equals_string (rate_control (c), "transport-cc");
  json_object_unref (c);

  /* past the REMB warm-up (5 s): still none */
  later = expect (log, "session/stats", 8);
  fail_unless (stats_uint64 (later, "twcc-feedback-sent") >= 20,
      "twcc-feedback-sent %" G_GUINT64_FORMAT, stats_uint64 (later,
          "twcc-feedback-sent"));
  fail_unless_equals_uint64 (stats_uint64 (later, "rembs-sent"), 0);
  fail_unless_equals_uint64 (stats_uint64 (later, "remb-bitrate"), 0);
  gst_message_unref (later);
  c = service_congestion (svc, id);
  fail_unless_equals_int64 (member (c, "rembs_received"), 0);
  json_object_unref (c);
  bus_log_assert_no_error (log);

  g_free (id);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* A service that answers REMB alone (--no-transport-cc) receives REMBs
 * about its video (PSFB 15, once a second from 5 s on), none malformed,
 * and no TWCC feedback; its encoder follows them */
GST_START_TEST (test_remb_only_sender)
{
  ServiceHarness *svc = service_harness_start ("--no-transport-cc", NULL);
  BusLog *log;
  Frames *f;
  GstElement *pipeline = start_world (svc, NULL, &log, &f);
  gchar *id = wait_session_id (pipeline);
  JsonObject *c = wait_report (svc, id, rembs_arrived, NULL);
  GstMessage *early, *later;
  guint64 rembs;

  fail_unless (c != NULL, "the service reports no congestion state");
  fail_unless (rembs_arrived (c, NULL), "the service received %"
      G_GINT64_FORMAT " REMBs in 15 s", member (c, "rembs_received"));
  fail_unless_equals_int64 (member (c, "rembs_refused"), 0);
  fail_unless (member (c, "remb_bitrate") > 0);
  fail_unless_equals_int64 (member (c, "twcc_feedback_received"), 0);
  fail_unless_equals_string (rate_control (c), "remb");
  json_object_unref (c);

  /* five seconds of messages (one a second, stats-interval) once REMBs
   * go hold four to six */
  early = expect (log, "session/stats", 8);
  later = expect (log, "session/stats", 13);
  rembs = stats_uint64 (later, "rembs-sent") - stats_uint64 (early,
      "rembs-sent");
  fail_unless (rembs >= 4 && rembs <= 6, "%" G_GUINT64_FORMAT " REMBs in "
      "5 s", rembs);
  fail_unless (stats_uint64 (later, "remb-bitrate") > 0);
  fail_unless_equals_uint64 (stats_uint64 (later, "twcc-feedback-sent"), 0);
  gst_message_unref (early);
  gst_message_unref (later);
  bus_log_assert_no_error (log);

  g_free (id);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* max-bitrate=300000: every REMB says at most that, the service's encoder
 * falls to it within 15 s, and the element's video-bitrate follows: the
 * average of six messages (three keyframe intervals, a keyframe's second
 * twice the next) within 25 % of it */
GST_START_TEST (test_max_bitrate)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  BusLog *log;
  Frames *f;
  GstElement *pipeline = start_world (svc, "max-bitrate=300000", &log, &f);
  gchar *id = wait_session_id (pipeline);
  JsonObject *c = wait_report (svc, id, encoder_capped, NULL);
  guint from, i, n;
  guint64 sum = 0;

  fail_unless (c != NULL, "the service reports no congestion state");
  fail_unless (encoder_capped (c, NULL), "the service's encoder is at %"
      G_GINT64_FORMAT " bit/s after 15 s (REMB %" G_GINT64_FORMAT ")",
      member (c, "encoder_bitrate"), member (c, "remb_bitrate"));
  fail_unless (member (c, "remb_bitrate") > 0 &&
      member (c, "remb_bitrate") <= CAP);
  json_object_unref (c);

  /* two messages for the new rate to show, then six to average */
  from = bus_log_count (log, GST_MESSAGE_ELEMENT, "session/stats") + 2;
  for (i = from; i < from + 6; i++) {
    GstMessage *msg = expect (log, "session/stats", i + 1);

    sum += stats_uint64 (msg, "video-bitrate");
    gst_message_unref (msg);
  }
  fail_unless (sum / 6 <= CAP * 5 / 4, "video-bitrate %" G_GUINT64_FORMAT
      " bit/s on average with max-bitrate=%d", sum / 6, CAP);
  fail_unless (sum / 6 >= CAP / 4, "video-bitrate %" G_GUINT64_FORMAT
      " bit/s: the video stopped", sum / 6);

  /* and no REMB said more */
  n = bus_log_count (log, GST_MESSAGE_ELEMENT, "session/stats");
  for (i = 1; i <= n; i++) {
    GstMessage *msg = expect (log, "session/stats", i);

    fail_unless (stats_uint64 (msg, "remb-bitrate") <= CAP);
    gst_message_unref (msg);
  }
  bus_log_assert_no_error (log);

  g_free (id);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* directorsrc (audio beside the video, both numbered for TWCC): the same
 * feedback, and the cap */
GST_START_TEST (test_director)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  gchar *url = service_harness_url (svc, "director");
  gchar *desc = g_strdup_printf ("directorsrc name=src url=%s "
      "prompt=\"a harbour at dawn\" max-bitrate=300000 src.video ! "
      "appsink name=sink sync=false src.audio ! fakesink sync=false", url);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  JsonObject *c;
  gchar *id;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_unless (frames_wait (f, 1, WAIT) >= 1, "no frame in 20 s");
  id = wait_session_id (pipeline);
  c = wait_report (svc, id, feedback_arrived, NULL);
  fail_unless (c != NULL, "the service reports no congestion state");
  fail_unless (feedback_arrived (c, NULL), "%" G_GINT64_FORMAT " TWCC "
      "feedback packets and %" G_GINT64_FORMAT " REMBs in 15 s",
      member (c, "twcc_feedback_received"), member (c, "rembs_received"));
  fail_unless_equals_int64 (member (c, "rembs_refused"), 0);
  fail_unless_equals_int64 (member (c, "offer_max_bitrate"), CAP);
  json_object_unref (c);
  c = wait_report (svc, id, encoder_capped, NULL);
  fail_unless (encoder_capped (c, NULL), "the service's encoder is at %"
      G_GINT64_FORMAT " bit/s", member (c, "encoder_bitrate"));
  json_object_unref (c);
  bus_log_assert_no_error (log);

  g_free (id);
  g_free (desc);
  g_free (url);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

static Suite *
congestion_suite (void)
{
  Suite *s = suite_create ("congestion");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_offer_feedback);
  tcase_add_test (tc, test_offer_cap);
  tcase_add_test (tc, test_feedback_reaches_service);
  tcase_add_test (tc, test_remb_only_sender);
  tcase_add_test (tc, test_max_bitrate);
  tcase_add_test (tc, test_director);
  return s;
}

GST_CHECK_MAIN (congestion);
