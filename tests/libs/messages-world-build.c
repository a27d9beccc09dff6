/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The world messages of spec 000 (World session sections) built: the typed
 * builders (exact texts, refusals, bytes that are not UTF-8, unknown
 * types) and round trips of client and service messages.
 */

#include "messages-world-test.h"

/* ------------------------------------------------------------- builders */

static void
built_equals (gchar * text, GError * err, const gchar * expected)
{
  fail_unless (err == NULL, "error building %s: %s", expected,
      err ? err->message : "");
  fail_unless_equals_string (text, expected);
  g_free (text);
}

static void
build_refused (gchar * text, GError * err, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  fail_unless (text == NULL, "built %s", text);
  check_error (err, GST_SESSION_ERROR_INVALID_MESSAGE, type, type, pointer,
      limit);
}

GST_START_TEST (test_build_exact)
{
  static const gchar *active[] = { "forward", "left", NULL };
  static const gchar *activated[] = { "look_up", NULL };
  static const gchar *keys[] = { "KeyW", "Space", NULL };
  GError *err = NULL;
  gchar *t;

  t = gst_session_world_build_configure (NULL, NULL, NULL, &err);
  built_equals (t, err, "{\"type\":\"configure\"}");

  t = gst_session_world_build_configure ("example",
      "https://example.com/a.png", "a lake", &err);
  built_equals (t, err, "{\"type\":\"configure\",\"preset\":\"example\","
      "\"image_url\":\"https://example.com/a.png\",\"prompt\":\"a lake\"}");

  t = gst_session_world_build_prompt ("a \"quoted\" lake", &err);
  built_equals (t, err,
      "{\"type\":\"prompt\",\"prompt\":\"a \\\"quoted\\\" lake\"}");

  t = gst_session_world_build_reset ("alpine-meadow", NULL, "snow", &err);
  built_equals (t, err,
      "{\"type\":\"reset\",\"preset\":\"alpine-meadow\",\"prompt\":\"snow\"}");

  t = gst_session_world_build_reset (NULL, NULL, NULL, &err);
  built_equals (t, err, "{\"type\":\"reset\"}");

  t = gst_session_world_build_stop (&err);
  built_equals (t, err, "{\"type\":\"stop\"}");

  t = gst_session_world_build_commands (active, activated, &err);
  built_equals (t, err, "{\"type\":\"commands\","
      "\"active\":[\"forward\",\"left\"],\"activated\":[\"look_up\"]}");

  t = gst_session_world_build_commands (NULL, NULL, &err);
  built_equals (t, err, "{\"type\":\"commands\"}");

  t = gst_session_world_build_keys (keys, NULL, &err);
  built_equals (t, err, "{\"type\":\"keys\",\"pressed\":[\"KeyW\",\"Space\"]}");

  t = gst_session_world_build_ping (FALSE, 99.0, &err);
  built_equals (t, err, "{\"type\":\"ping\"}");

  t = gst_session_world_build_ping (TRUE, 12.5, &err);
  built_equals (t, err, "{\"type\":\"ping\",\"ts\":12.5}");
}

GST_END_TEST;

GST_START_TEST (test_build_refused)
{
  static const gchar *conflict[] = { "look_left", "look_right", NULL };
  static const gchar *unknown[] = { "jump", NULL };
  static const gchar *bad_utf8[] = { "\xff", NULL };
  const gchar *nine[10];
  const gchar *keys33[34];
  GError *err = NULL;
  gchar *long_prompt = repeat ("p", 2001);
  gchar *long_preset = repeat ("p", 101);
  gchar *long_url = repeat ("u", 4097);
  gchar *t;
  guint i;

  t = gst_session_world_build_prompt (long_prompt, &err);
  build_refused (t, err, "prompt", "/prompt", "2000");
  err = NULL;
  t = gst_session_world_build_prompt ("", &err);
  build_refused (t, err, "prompt", "/prompt", "1");
  err = NULL;
  t = gst_session_world_build_prompt (NULL, &err);
  build_refused (t, err, "prompt", "/prompt", NULL);
  err = NULL;
  t = gst_session_world_build_configure (NULL, NULL, long_prompt, &err);
  build_refused (t, err, "configure", "/prompt", "2000");
  err = NULL;
  t = gst_session_world_build_configure (long_preset, NULL, NULL, &err);
  build_refused (t, err, "configure", "/preset", "100");
  err = NULL;
  t = gst_session_world_build_reset (NULL, long_url, NULL, &err);
  build_refused (t, err, "reset", "/image_url", "4096");
  err = NULL;
  t = gst_session_world_build_reset (NULL, NULL, long_prompt, &err);
  build_refused (t, err, "reset", "/prompt", "2000");
  err = NULL;

  t = gst_session_world_build_commands (conflict, NULL, &err);
  build_refused (t, err, "commands", "/active/1", "look_left");
  err = NULL;
  t = gst_session_world_build_commands (NULL, conflict, &err);
  build_refused (t, err, "commands", "/activated/1", "look_left");
  err = NULL;
  t = gst_session_world_build_commands (unknown, NULL, &err);
  build_refused (t, err, "commands", "/active/0", "jump");
  err = NULL;
  for (i = 0; i < 9; i++)
    nine[i] = "forward";
  nine[9] = NULL;
  t = gst_session_world_build_commands (nine, NULL, &err);
  build_refused (t, err, "commands", "/active", "8");
  err = NULL;
  for (i = 0; i < 33; i++)
    keys33[i] = "KeyA";
  keys33[33] = NULL;
  t = gst_session_world_build_keys (NULL, keys33, &err);
  build_refused (t, err, "keys", "/activated", "32");
  err = NULL;

  /* invalid UTF-8 */
  t = gst_session_world_build_commands (bad_utf8, NULL, &err);
  build_refused (t, err, "commands", "/active/0", "UTF-8");
  err = NULL;
  t = gst_session_world_build_keys (bad_utf8, NULL, &err);
  build_refused (t, err, "keys", "/pressed/0", "UTF-8");
  err = NULL;

  g_free (long_prompt);
  g_free (long_preset);
  g_free (long_url);
}

GST_END_TEST;

/* string builders refuse invalid UTF-8 and name the field (GStreamer
 * would drop such a string from a structure) */
GST_START_TEST (test_build_bad_utf8)
{
  GError *err = NULL;
  gchar *t;

  t = gst_session_world_build_prompt ("\xff", &err);
  build_refused (t, err, "prompt", "/prompt", "UTF-8");
  err = NULL;
  t = gst_session_world_build_configure ("\xff", NULL, NULL, &err);
  build_refused (t, err, "configure", "/preset", "UTF-8");
  err = NULL;
  t = gst_session_world_build_reset (NULL, "\xff", NULL, &err);
  build_refused (t, err, "reset", "/image_url", "UTF-8");
  err = NULL;
  t = gst_session_world_build_reset (NULL, NULL, "\xff", &err);
  build_refused (t, err, "reset", "/prompt", "UTF-8");
}

GST_END_TEST;

/* gst_session_message_build() with a type the direction lacks */
GST_START_TEST (test_build_unknown_type)
{
  static const struct
  {
    GstSessionDirection dir;
    const gchar *type;
  } cases[] = {
    {GST_SESSION_DIRECTION_CLIENT, "pong"},
    {GST_SESSION_DIRECTION_CLIENT, "stats"},
    {GST_SESSION_DIRECTION_CLIENT, "teleport"},
    {GST_SESSION_DIRECTION_SERVICE, "prompt"},
    {GST_SESSION_DIRECTION_SERVICE, "ping"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstStructure *s = gst_structure_new_empty (cases[i].type);
    GError *err = NULL;
    gchar *t = gst_session_message_build (GST_SESSION_APP_WORLD, cases[i].dir,
        s, &err);

    fail_unless (t == NULL, "built %s", t);
    check_error (err, GST_SESSION_ERROR_UNKNOWN_TYPE, cases[i].type,
        cases[i].type, NULL, NULL);
    gst_structure_free (s);
  }
}

GST_END_TEST;

/* ----------------------------------------------------------- round trips */

/* the string array @field of @msg equals @expected (NULL-terminated) */
static void
check_strv (GstSessionMessage * msg, const gchar * field,
    const gchar * const *expected)
{
  const GValue *v =
      gst_structure_get_value (gst_session_message_get_structure (msg), field);
  guint i, n = g_strv_length ((gchar **) expected);

  fail_unless (v != NULL && GST_VALUE_HOLDS_ARRAY (v), "%s is no array", field);
  fail_unless_equals_int (gst_value_array_get_size (v), n);
  for (i = 0; i < n; i++)
    fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
            (v, i)), expected[i]);
}

/* parses the built @text as a client message of @type */
static GstSessionMessage *
parse_built (gchar * text, GError * err, const gchar * type)
{
  GstSessionMessage *msg;

  fail_unless (text != NULL, "building %s: %s", type, err ? err->message : "");
  msg = parse_ok (CLIENT, text);
  g_free (text);
  fail_unless (gst_session_message_is_known (msg));
  fail_unless_equals_string (gst_session_message_get_type_name (msg), type);
  return msg;
}

GST_START_TEST (test_round_trip_client)
{
  static const gchar *active[] = { "look_down", "right", "right", NULL };
  static const gchar *activated[] = { "backward", "look_left", NULL };
  static const gchar *pressed[] = { "KeyW", "ShiftLeft", NULL };
  GError *err = NULL;
  GstSessionMessage *msg;
  const GstStructure *s;
  gchar *prompt = repeat ("\xc3\xa9\xf0\x9d\x84\x9e", 1000);
  gdouble d;
  gchar *t;

  t = gst_session_world_build_configure ("forest-stream",
      "https://example.com/w.jpg", prompt, &err);
  msg = parse_built (t, err, "configure");
  fail_unless_equals_string (get_string (msg, "preset"), "forest-stream");
  fail_unless_equals_string (get_string (msg, "image_url"),
      "https://example.com/w.jpg");
  fail_unless_equals_string (get_string (msg, "prompt"), prompt);
  gst_session_message_unref (msg);

  t = gst_session_world_build_configure (NULL, NULL, NULL, &err);
  msg = parse_built (t, err, "configure");
  fail_unless_equals_int (gst_structure_n_fields
      (gst_session_message_get_structure (msg)), 0);
  gst_session_message_unref (msg);

  t = gst_session_world_build_prompt (prompt, &err);
  msg = parse_built (t, err, "prompt");
  fail_unless_equals_string (get_string (msg, "prompt"), prompt);
  gst_session_message_unref (msg);

  t = gst_session_world_build_reset ("landscape", NULL, "tab\there \"q\"\n",
      &err);
  msg = parse_built (t, err, "reset");
  fail_unless_equals_string (get_string (msg, "preset"), "landscape");
  fail_unless_equals_string (get_string (msg, "prompt"), "tab\there \"q\"\n");
  fail_if (gst_structure_has_field (gst_session_message_get_structure (msg),
          "image_url"));
  gst_session_message_unref (msg);

  t = gst_session_world_build_stop (&err);
  msg = parse_built (t, err, "stop");
  gst_session_message_unref (msg);

  t = gst_session_world_build_commands (active, activated, &err);
  msg = parse_built (t, err, "commands");
  check_strv (msg, "active", active);
  check_strv (msg, "activated", activated);
  gst_session_message_unref (msg);

  t = gst_session_world_build_keys (pressed, pressed, &err);
  msg = parse_built (t, err, "keys");
  check_strv (msg, "pressed", pressed);
  check_strv (msg, "activated", pressed);
  gst_session_message_unref (msg);

  t = gst_session_world_build_ping (TRUE, 1234567.25, &err);
  msg = parse_built (t, err, "ping");
  s = gst_session_message_get_structure (msg);
  fail_unless (gst_structure_get_double (s, "ts", &d));
  fail_unless (d == 1234567.25);
  gst_session_message_unref (msg);

  t = gst_session_world_build_ping (FALSE, 0, &err);
  msg = parse_built (t, err, "ping");
  fail_if (gst_structure_has_field (gst_session_message_get_structure (msg),
          "ts"));
  gst_session_message_unref (msg);

  g_free (prompt);
}

GST_END_TEST;

/* builds a service message from @fields, parses it back and compares */
static void
service_round_trip (const GstStructure * fields)
{
  GError *err = NULL;
  GstSessionMessage *msg;
  gchar *t;

  t = gst_session_message_build (GST_SESSION_APP_WORLD, SERVICE, fields, &err);
  fail_unless (t != NULL, "building %s: %s", gst_structure_get_name (fields),
      err ? err->message : "");
  msg = parse_ok (SERVICE, t);
  fail_unless (gst_session_message_is_known (msg));
  fail_unless (gst_structure_is_equal (gst_session_message_get_structure
          (msg), fields), "%s came back different", t);
  gst_session_message_unref (msg);
  g_free (t);
}

GST_START_TEST (test_round_trip_service)
{
  GstSessionMessage *msg;
  GstStructure *stats;
  gchar *json;

  stats = gst_structure_new ("stats",
      "block_index", G_TYPE_INT64, (gint64) 41,
      "block_seconds", G_TYPE_DOUBLE, 0.5,
      "generation_fps", G_TYPE_DOUBLE, 17.25,
      "gpu_wait_frac", G_TYPE_DOUBLE, 0.0,
      "queue_age_ms_p50", G_TYPE_DOUBLE, 8.0,
      "queue_age_ms_max", G_TYPE_DOUBLE, 31.5,
      "pace_sleep_ms_avg", G_TYPE_DOUBLE, 2.75,
      "queue_depth", G_TYPE_INT64, (gint64) 3, NULL);
  service_round_trip (stats);
  gst_structure_free (stats);

  /* session_info: the parsed fields (nested objects and arrays) build the
   * same message again */
  json = json_object_of ("session_info", session_info_members,
      G_N_ELEMENTS (session_info_members), -1, -1, NULL);
  msg = parse_ok (SERVICE, json);
  service_round_trip (gst_session_message_get_structure (msg));
  gst_session_message_unref (msg);
  g_free (json);
}

GST_END_TEST;

/* ------------------------------------------------------------------ suite */

static Suite *
messages_world_build_suite (void)
{
  Suite *s = suite_create ("messages-world-build");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_build_exact);
  tcase_add_test (tc, test_build_refused);
  tcase_add_test (tc, test_build_bad_utf8);
  tcase_add_test (tc, test_build_unknown_type);
  tcase_add_test (tc, test_round_trip_client);
  tcase_add_test (tc, test_round_trip_service);
  return s;
}

GST_CHECK_MAIN (messages_world_build);
