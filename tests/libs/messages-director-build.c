/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The director messages of spec 000 built: the typed builders (the
 * configuration's defaults, what they refuse) and round trips of client and
 * service messages, from builder or structure to text and back.
 */

#include "messages-director-test.h"

/* ---- typed builders ---- */

/* a builder's result: NULL, with an invalid-message error naming @type,
 * @pointer and @limit; clears *@error (read after @text was computed) */
static void
assert_build_refused (gchar * text, GError ** error, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  gchar *prefix = g_strconcat (type, ": ", pointer, " ", NULL);
  GError *err = *error;

  fail_unless (text == NULL, "built %s", text);
  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE), "wrong error %s:%d %s",
      g_quark_to_string (err->domain), err->code, err->message);
  fail_unless (g_str_has_prefix (err->message, prefix),
      "\"%s\" does not start with \"%s\"", err->message, prefix);
  fail_unless (strstr (err->message, limit) != NULL,
      "\"%s\" does not contain \"%s\"", err->message, limit);
  g_free (prefix);
  g_clear_error (error);
}

GST_START_TEST (test_config_init)
{
  GstSessionDirectorConfig c;

  memset (&c, 0x5a, sizeof (c));
  gst_session_director_config_init (&c);
  fail_unless_equals_int64 (c.prompt_version, 1);
  fail_unless (c.prompt == NULL);
  fail_unless_equals_int (c.memory, 0);
  fail_unless (!c.has_seed);
  fail_unless (c.resolution == NULL);
  fail_unless (c.aspect_ratio == NULL);
  fail_unless_equals_int (c.chunk_duration, 0);
  fail_unless (c.acceleration == NULL);
  fail_unless_equals_int (c.enable_safety_checker, -1);
}

GST_END_TEST;

GST_START_TEST (test_build_configure)
{
  GstSessionDirectorConfig c;
  GError *err = NULL;
  gchar *json;

  gst_session_director_config_init (&c);
  c.prompt = "x";
  json = gst_session_director_build_configure (&c, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (json,
      "{\"type\":\"configure\",\"prompt_version\":1,\"prompt\":\"x\"}");
  g_free (json);

  /* left out: 0, NULL, -1, has_seed FALSE (whatever the seed) */
  c.seed = 5;
  c.has_seed = FALSE;
  c.memory = 0;
  c.chunk_duration = 0;
  c.enable_safety_checker = -1;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless_equals_string (json,
      "{\"type\":\"configure\",\"prompt_version\":1,\"prompt\":\"x\"}");
  g_free (json);

  c.prompt_version = 2;
  c.prompt = "a city \"at\" night";
  c.memory = 20;
  c.has_seed = TRUE;
  c.seed = 7;
  c.resolution = "480p";
  c.aspect_ratio = "9:16";
  c.chunk_duration = 15;
  c.acceleration = "none";
  c.enable_safety_checker = 0;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (json, "{\"type\":\"configure\","
      "\"prompt_version\":2,\"prompt\":\"a city \\\"at\\\" night\","
      "\"memory\":20,\"seed\":7,\"resolution\":\"480p\","
      "\"aspect_ratio\":\"9:16\",\"chunk_duration\":15,"
      "\"acceleration\":\"none\",\"enable_safety_checker\":false}");
  g_free (json);

  /* a seed of 0 is sent when has_seed is set; 1 is true */
  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.has_seed = TRUE;
  c.seed = 0;
  c.enable_safety_checker = 1;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless_equals_string (json, "{\"type\":\"configure\","
      "\"prompt_version\":1,\"prompt\":\"x\",\"seed\":0,"
      "\"enable_safety_checker\":true}");
  g_free (json);
}

GST_END_TEST;

GST_START_TEST (test_build_configure_refused)
{
  GstSessionDirectorConfig c;
  GError *err = NULL;
  gchar *over = repeat (50001), *max = repeat (50000), *json;

  gst_session_director_config_init (&c);
  c.prompt = max;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  g_free (json);

  c.prompt = over;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt", "at most 50000");

  c.prompt = "";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt", "at least 1");

  /* no prompt */
  gst_session_director_config_init (&c);
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt", "string");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.prompt_version = 0;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt_version", "at least 1");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.memory = 51;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/memory", "at most 50");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.chunk_duration = 16;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/chunk_duration", "at most 15");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.chunk_duration = 4;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/chunk_duration", "at least 5");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.resolution = "720p";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/resolution", "\"480p\", \"768p\"");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.aspect_ratio = "4:3";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/aspect_ratio", "\"16:9\"");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.acceleration = "turbo";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/acceleration", "\"none\", \"regular\"");

  g_free (over);
  g_free (max);
}

GST_END_TEST;

GST_START_TEST (test_build_prompt_ping_stop)
{
  GError *err = NULL;
  gchar *over = repeat (50001), *json;

  json = gst_session_director_build_prompt (4, "now rain", &err);
  fail_unless_equals_string (json,
      "{\"type\":\"prompt\",\"prompt_version\":4,\"prompt\":\"now rain\"}");
  g_free (json);

  json = gst_session_director_build_ping (12.5, &err);
  fail_unless_equals_string (json, "{\"type\":\"ping\",\"ts\":12.5}");
  g_free (json);

  json = gst_session_director_build_stop (&err);
  fail_unless_equals_string (json, "{\"type\":\"stop\"}");
  g_free (json);
  fail_unless (err == NULL);

  assert_build_refused (gst_session_director_build_prompt (1, over, &err),
      &err, "prompt", "/prompt", "at most 50000");
  assert_build_refused (gst_session_director_build_prompt (0, "x", &err),
      &err, "prompt", "/prompt_version", "at least 1");
  assert_build_refused (gst_session_director_build_prompt (1, "", &err),
      &err, "prompt", "/prompt", "at least 1");
  assert_build_refused (gst_session_director_build_prompt (1, NULL, &err),
      &err, "prompt", "/prompt", "string");
  assert_build_refused (gst_session_director_build_ping (INFINITY, &err),
      &err, "ping", "/ts", "finite");
  g_free (over);
}

GST_END_TEST;

/* ---- round trips ---- */

/* parses @json (taken) as a director message from @dir; the text of the
 * parsed message is @json again */
static GstSessionMessage *
reparse (GstSessionDirection dir, gchar * json)
{
  GstSessionMessage *m;
  gchar *back;

  fail_unless (json != NULL);
  m = accept_json (dir, json);
  back = gst_session_message_to_json (m);
  fail_unless_equals_string (back, json);
  g_free (back);
  g_free (json);
  return m;
}

GST_START_TEST (test_round_trip_client)
{
  GstSessionDirectorConfig c;
  GstSessionMessage *m;
  const GstStructure *s;

  gst_session_director_config_init (&c);
  c.prompt_version = 9;
  c.prompt = "waves, \\ slash and \xc3\xa9t\xc3\xa9";
  c.memory = 1;
  c.has_seed = TRUE;
  c.seed = G_GINT64_CONSTANT (4294967296);
  c.resolution = "768p";
  c.aspect_ratio = "1:1";
  c.chunk_duration = 5;
  c.acceleration = "regular";
  c.enable_safety_checker = 1;
  m = reparse (CLIENT, gst_session_director_build_configure (&c, NULL));
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_session_message_get_type_name (m),
      "configure");
  assert_int (s, "prompt_version", 9);
  assert_string (s, "prompt", c.prompt);
  assert_int (s, "memory", 1);
  assert_int (s, "seed", G_GINT64_CONSTANT (4294967296));
  assert_string (s, "resolution", "768p");
  assert_string (s, "aspect_ratio", "1:1");
  assert_int (s, "chunk_duration", 5);
  assert_string (s, "acceleration", "regular");
  assert_bool (s, "enable_safety_checker", TRUE);
  /* the one default left to fill */
  assert_int (s, "protocol_version", 1);
  fail_unless_equals_int (gst_structure_n_fields (s), 10);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_prompt (12, "fog", NULL));
  s = gst_session_message_get_structure (m);
  assert_int (s, "prompt_version", 12);
  assert_string (s, "prompt", "fog");
  fail_unless_equals_int (gst_structure_n_fields (s), 2);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_ping (12.5, NULL));
  assert_double (gst_session_message_get_structure (m), "ts", 12.5);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_ping (3, NULL));
  assert_double (gst_session_message_get_structure (m), "ts", 3.0);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_stop (NULL));
  fail_unless_equals_string (gst_session_message_get_type_name (m), "stop");
  fail_unless_equals_int (gst_structure_n_fields
      (gst_session_message_get_structure (m)), 0);
  gst_session_message_unref (m);
}

GST_END_TEST;

static GstStructure *
chunk_structure (gdouble playback_seconds)
{
  GstStructure *phases, *dispatch, *chunk;

  phases = gst_structure_new ("phases_ms", "denoise", G_TYPE_DOUBLE, 6200.5,
      "decode", G_TYPE_DOUBLE, 1399.0, NULL);
  dispatch = gst_structure_new ("dispatch", "wall_ms", G_TYPE_DOUBLE, 7840.25,
      "classified_ms", G_TYPE_DOUBLE, 7600.0, "overhead_ms", G_TYPE_DOUBLE,
      240.25, "phases_ms", GST_TYPE_STRUCTURE, phases, NULL);
  chunk = gst_structure_new ("chunk", "chunk_index", G_TYPE_INT64,
      G_GINT64_CONSTANT (2), "prompt_version", G_TYPE_INT, 3,
      "generation_seconds", G_TYPE_DOUBLE, 7.75,
      "playback_seconds", G_TYPE_DOUBLE, playback_seconds,
      "requested_duration_seconds", G_TYPE_INT, 10,
      "generated_frame_count", G_TYPE_INT, 240,
      "trimmed_context_frames", G_TYPE_INT, 39,
      "next_generation_estimate_seconds", G_TYPE_DOUBLE, 7.5,
      "route", G_TYPE_STRING, "regulus",
      "buffer_depth_seconds", G_TYPE_DOUBLE, 20.0,
      "buffer_depth_chunks", G_TYPE_INT, 2,
      "scheduling_lead_ms", G_TYPE_DOUBLE, 1500.0,
      "scheduling_slack_ms", G_TYPE_DOUBLE, -3.5,
      "dispatch", GST_TYPE_STRUCTURE, dispatch, NULL);
  gst_structure_free (phases);
  gst_structure_free (dispatch);
  return chunk;
}

GST_START_TEST (test_round_trip_service)
{
  GstStructure *fields;
  GstSessionMessage *m;
  const GstStructure *s, *d;
  GError *err = NULL;
  gchar *json;

  fields = chunk_structure (10.0);
  json = gst_session_message_build (APP, SERVICE, fields, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  gst_structure_free (fields);
  m = reparse (SERVICE, json);
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_structure_get_name (s), "chunk");
  assert_int (s, "chunk_index", 2);
  assert_int (s, "prompt_version", 3);
  assert_double (s, "generation_seconds", 7.75);
  assert_double (s, "playback_seconds", 10.0);
  assert_int (s, "requested_duration_seconds", 10);
  assert_int (s, "generated_frame_count", 240);
  assert_int (s, "trimmed_context_frames", 39);
  assert_double (s, "next_generation_estimate_seconds", 7.5);
  assert_string (s, "route", "regulus");
  assert_double (s, "buffer_depth_seconds", 20.0);
  assert_int (s, "buffer_depth_chunks", 2);
  assert_double (s, "scheduling_lead_ms", 1500.0);
  assert_double (s, "scheduling_slack_ms", -3.5);
  fail_unless_equals_int (gst_structure_n_fields (s), 14);
  d = assert_object (s, "dispatch");
  assert_double (d, "wall_ms", 7840.25);
  assert_double (d, "classified_ms", 7600.0);
  assert_double (d, "overhead_ms", 240.25);
  /* built from a structure (names of the application), read as text */
  assert_json (d, "phases_ms", "{'denoise':6200.5,'decode':1399.0}");
  gst_session_message_unref (m);

  /* the structure of a parsed message builds again, JSON text included */
  m = accept_sq (SERVICE, "{'type':'chunk_metrics','chunk_index':3,"
      "'units':'ms','route':'unknown','phases_ms':{'a b':1.5},"
      "'gauges':{},'worker':{'id':'gpu-3'}}");
  json = gst_session_message_build (APP, SERVICE,
      gst_session_message_get_structure (m), &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (json, "{\"type\":\"chunk_metrics\","
      "\"chunk_index\":3,\"units\":\"ms\",\"route\":\"unknown\","
      "\"phases_ms\":{\"a b\":1.5},\"gauges\":{},"
      "\"worker\":{\"id\":\"gpu-3\"}}");
  g_free (json);
  gst_session_message_unref (m);
  m = accept_sq (SERVICE, error_example);
  json = gst_session_message_build (APP, SERVICE,
      gst_session_message_get_structure (m), &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless (strstr (json, "\"detail\":[{\"loc\":[\"body\","
          "\"prompt_version\"],\"msg\":\"stale\"}]") != NULL, "%s", json);
  g_free (json);
  gst_session_message_unref (m);

  /* what breaks a rule is not built */
  fields = chunk_structure (0.0);
  json = gst_session_message_build (APP, SERVICE, fields, &err);
  gst_structure_free (fields);
  fail_unless (json == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  fail_unless (g_str_has_prefix (err->message,
          "chunk: /playback_seconds is 0, must be greater than 0"),
      "%s", err->message);
  g_clear_error (&err);

  fields = gst_structure_new ("stream_exhausted", "chunks", G_TYPE_INT, 18,
      "reason", G_TYPE_STRING, "session_limit", NULL);
  json = gst_session_message_build (APP, SERVICE, fields, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  gst_structure_free (fields);
  fail_unless_equals_string (json, "{\"type\":\"stream_exhausted\","
      "\"chunks\":18,\"reason\":\"session_limit\"}");
  m = reparse (SERVICE, json);
  s = gst_session_message_get_structure (m);
  assert_int (s, "chunks", 18);
  assert_string (s, "reason", "session_limit");
  fail_unless_equals_int (gst_structure_n_fields (s), 2);
  gst_session_message_unref (m);

  fields = gst_structure_new ("stream_exhausted", "chunks", G_TYPE_INT, -1,
      "reason", G_TYPE_STRING, "stopped", NULL);
  fail_if (gst_session_message_build (APP, SERVICE, fields, &err));
  gst_structure_free (fields);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  fail_unless (strstr (err->message, "/chunks") != NULL, "%s", err->message);
  g_clear_error (&err);

  /* a client type is not a service message */
  fields = gst_structure_new ("stop", NULL, NULL);
  fail_if (gst_session_message_build (APP, SERVICE, fields, &err));
  gst_structure_free (fields);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_UNKNOWN_TYPE), "%s", err->message);
  g_clear_error (&err);
}

GST_END_TEST;

static Suite *
messages_director_build_suite (void)
{
  Suite *s = suite_create ("messages-director-build");
  TCase *tc_build = tcase_create ("build");
  TCase *tc_round_trip = tcase_create ("round-trip");

  suite_add_tcase (s, tc_build);
  tcase_add_test (tc_build, test_config_init);
  tcase_add_test (tc_build, test_build_configure);
  tcase_add_test (tc_build, test_build_configure_refused);
  tcase_add_test (tc_build, test_build_prompt_ping_stop);

  suite_add_tcase (s, tc_round_trip);
  tcase_add_test (tc_round_trip, test_round_trip_client);
  tcase_add_test (tc_round_trip, test_round_trip_service);
  return s;
}

GST_CHECK_MAIN (messages_director_build);
