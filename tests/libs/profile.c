/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The world command set, its conflict groups, and the director constants.
 */

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>

GST_START_TEST (test_command_names_follow_spec_order)
{
  const gchar *const *names = gst_session_world_command_names ();
  const gchar *expected[] = { "forward", "left", "backward", "right",
    "look_up", "look_left", "look_down", "look_right"
  };
  guint i;

  fail_unless_equals_int (g_strv_length ((gchar **) names),
      GST_SESSION_WORLD_N_COMMANDS);
  for (i = 0; i < G_N_ELEMENTS (expected); i++) {
    GstSessionWorldCommand c;

    fail_unless_equals_string (names[i], expected[i]);
    fail_unless (gst_session_world_command_from_string (expected[i], &c));
    fail_unless_equals_int (c, 1 << i);
    fail_unless_equals_string (gst_session_world_command_to_string (c),
        expected[i]);
  }
  fail_if (gst_session_world_command_to_string (3));
}

GST_END_TEST;

GST_START_TEST (test_conflict_groups)
{
  fail_unless_equals_int (gst_session_world_command_conflicts
      (GST_SESSION_WORLD_COMMAND_FORWARD), GST_SESSION_WORLD_COMMAND_BACKWARD);
  fail_unless_equals_int (gst_session_world_command_conflicts
      (GST_SESSION_WORLD_COMMAND_RIGHT), GST_SESSION_WORLD_COMMAND_LEFT);
  fail_unless_equals_int (gst_session_world_command_conflicts
      (GST_SESSION_WORLD_COMMAND_LOOK_DOWN), GST_SESSION_WORLD_COMMAND_LOOK_UP);
  fail_unless_equals_int (gst_session_world_command_conflicts
      (GST_SESSION_WORLD_COMMAND_LOOK_LEFT),
      GST_SESSION_WORLD_COMMAND_LOOK_RIGHT);
}

GST_END_TEST;

GST_START_TEST (test_commands_parse)
{
  GError *err = NULL;
  guint set = 99;
  gchar *s;

  fail_unless (gst_session_world_commands_parse ("", &set, &err));
  fail_unless_equals_int (set, 0);
  fail_unless (gst_session_world_commands_parse ("forward+look_left", &set,
          &err));
  fail_unless_equals_int (set, GST_SESSION_WORLD_COMMAND_FORWARD |
      GST_SESSION_WORLD_COMMAND_LOOK_LEFT);
  s = gst_session_world_commands_to_string (set);
  fail_unless_equals_string (s, "forward+look_left");
  g_free (s);
  fail_unless (gst_session_world_commands_parse ("left, look_up right2",
          &set, &err) == FALSE);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  fail_unless (strstr (err->message, "right2") != NULL);
  g_clear_error (&err);

  set = 7;
  fail_if (gst_session_world_commands_parse ("forward+backward", &set, &err));
  fail_unless (strstr (err->message, "backward") != NULL);
  fail_unless (strstr (err->message, "forward") != NULL);
  fail_unless_equals_int (set, 7);      /* untouched on error */
  g_clear_error (&err);

  /* every set the parser accepts builds a valid commands message */
  for (set = 0; set < 256; set++) {
    gchar **names = gst_session_world_commands_to_strv (set);
    gchar *text = gst_session_world_build_commands ((const gchar **) names,
        NULL, &err);
    guint i;
    gboolean conflict = FALSE;

    for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
      if ((set & (1u << i)) && (set & gst_session_world_command_conflicts (1u
                  << i)))
        conflict = TRUE;
    }
    fail_unless_equals_int (text != NULL, !conflict);
    g_clear_error (&err);
    g_free (text);
    g_strfreev (names);
  }
}

GST_END_TEST;

GST_START_TEST (test_director_video_sizes)
{
  const struct
  {
    const gchar *res, *ar;
    gint w, h;
  } sizes[] = {
    {"768p", "16:9", 1360, 768}, {"768p", "9:16", 768, 1360},
    {"768p", "1:1", 768, 768}, {"480p", "16:9", 848, 480},
    {"480p", "9:16", 480, 848}, {"480p", "1:1", 480, 480},
    {NULL, NULL, 1360, 768},
  };
  guint i;
  gint w, h;

  for (i = 0; i < G_N_ELEMENTS (sizes); i++) {
    fail_unless (gst_session_director_video_size (sizes[i].res, sizes[i].ar,
            &w, &h));
    fail_unless_equals_int (w, sizes[i].w);
    fail_unless_equals_int (h, sizes[i].h);
  }
  fail_if (gst_session_director_video_size ("720p", "16:9", &w, &h));
  fail_if (gst_session_director_video_size ("480p", "4:3", &w, &h));
}

GST_END_TEST;

GST_START_TEST (test_director_constants_match_session_info_defaults)
{
  GstSessionMessage *m;
  const GstStructure *s;
  gint64 v;

  /* the defaults the parser fills and the constants are the same numbers */
  m = gst_session_message_parse (GST_SESSION_APP_DIRECTOR,
      GST_SESSION_DIRECTION_SERVICE, "{\"type\":\"session_info\"}", -1, NULL);
  fail_unless (m != NULL);
  s = gst_session_message_get_structure (m);
  fail_unless (gst_structure_get_int64 (s, "audio_sample_rate", &v));
  fail_unless_equals_int64 (v, GST_SESSION_DIRECTOR_AUDIO_RATE);
  fail_unless (gst_structure_get_int64 (s, "fps", &v));
  fail_unless_equals_int64 (v, GST_SESSION_DIRECTOR_FPS);
  fail_unless (gst_structure_get_int64 (s, "max_memory", &v));
  fail_unless_equals_int64 (v, GST_SESSION_DIRECTOR_MEMORY_MAX);
  fail_unless (gst_structure_get_int64 (s, "prompt_deck_size", &v));
  fail_unless_equals_int64 (v, GST_SESSION_DIRECTOR_PROMPT_DECK_SIZE);
  fail_unless (gst_structure_get_int64 (s, "continuation_context_frames", &v));
  fail_unless_equals_int64 (v, GST_SESSION_DIRECTOR_CONTEXT_FRAMES);
  gst_session_message_unref (m);

  fail_unless_equals_int (g_strv_length ((gchar **)
          gst_session_director_error_codes ()), 10);
  fail_unless (g_strv_contains (gst_session_director_resolutions (), "480p"));
  fail_unless (g_strv_contains (gst_session_director_aspect_ratios (), "1:1"));
  fail_unless (g_strv_contains (gst_session_director_accelerations (), "none"));
  fail_unless (g_strv_contains (gst_session_world_preset_names (),
          "desert-valley"));
}

GST_END_TEST;

static Suite *
profile_suite (void)
{
  Suite *s = suite_create ("profile");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_command_names_follow_spec_order);
  tcase_add_test (tc, test_conflict_groups);
  tcase_add_test (tc, test_commands_parse);
  tcase_add_test (tc, test_director_video_sizes);
  tcase_add_test (tc, test_director_constants_match_session_info_defaults);
  return s;
}

GST_CHECK_MAIN (profile);
