/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The control script parser: the format of docs/control-script.md (whole
 * scripts, times, lines, comments and quoted prompts), the scheduler's
 * helper and the API.
 */

#include "controlscript-test.h"
#include <gst/session/session-enumtypes.h>

static GstClockTime
parse_one_time (const gchar * word)
{
  gchar *text = g_strdup_printf ("%s ping", word);
  GstSessionControlScript *script = parse_ok (W, text, -1);
  GstClockTime t = action (script, 0)->time;

  gst_session_control_script_unref (script);
  g_free (text);
  return t;
}

/* ---- whole scripts ---- */

GST_START_TEST (test_world_script)
{
  GstSessionControlScript *script = parse_ok (W, world_script, -1);
  const GstSessionControlAction *a;

  fail_unless_equals_int (gst_session_control_script_get_n_actions (script),
      10);

  a = action (script, 0);
  fail_unless_equals_uint64 (a->time, 0);
  fail_unless_equals_int (a->line, 2);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_RESET);
  fail_unless_equals_string (a->preset, "desert-valley");
  fail_unless_equals_string (a->text, "a dry valley at dawn");
  fail_unless (a->image_url == NULL);
  fail_unless_equals_int (a->commands, 0);
  fail_unless_equals_int (a->held, 0);

  a = action (script, 1);
  fail_unless_equals_uint64 (a->time, 1 * GST_SECOND);
  fail_unless_equals_int (a->line, 3);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_COMMANDS);
  fail_unless_equals_int (a->commands, FORWARD);
  fail_unless_equals_int (a->held, FORWARD);
  fail_unless (a->text == NULL);

  a = action (script, 2);
  fail_unless_equals_uint64 (a->time, 2500 * GST_MSECOND);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_PRESS);
  fail_unless_equals_int (a->commands, LOOK_LEFT);
  fail_unless_equals_int (a->held, FORWARD | LOOK_LEFT);

  a = action (script, 3);
  fail_unless_equals_uint64 (a->time, 3 * GST_SECOND);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_PROMPT);
  fail_unless_equals_string (a->text, "the valley floods, slowly");
  fail_unless_equals_int (a->held, FORWARD | LOOK_LEFT);
  fail_unless_equals_int64 (a->version, 0);

  a = action (script, 4);
  fail_unless_equals_uint64 (a->time, 3500 * GST_MSECOND);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_RELEASE);
  fail_unless_equals_int (a->commands, LOOK_LEFT);
  fail_unless_equals_int (a->held, FORWARD);

  a = action (script, 5);
  fail_unless_equals_uint64 (a->time, 4 * GST_SECOND);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_COMMANDS);
  fail_unless_equals_int (a->commands, 0);
  fail_unless_equals_int (a->held, 0);

  a = action (script, 6);
  fail_unless_equals_uint64 (a->time, 5 * GST_SECOND);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_ACTIVATE);
  fail_unless_equals_int (a->commands, LOOK_UP | RIGHT);
  fail_unless_equals_int (a->held, 0);

  a = action (script, 7);
  fail_unless_equals_uint64 (a->time, 6 * GST_SECOND);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_RESET);
  fail_unless (a->preset == NULL);
  fail_unless (a->text == NULL);
  fail_unless_equals_string (a->image_url, "https://example.com/start.png");

  a = action (script, 8);
  fail_unless_equals_uint64 (a->time, 7 * GST_SECOND);
  fail_unless_equals_int (a->line, 10);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_PING);

  a = action (script, 9);
  fail_unless_equals_uint64 (a->time, 8250 * GST_MSECOND);
  fail_unless_equals_int (a->line, 11);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_STOP);

  gst_session_control_script_unref (script);
}

GST_END_TEST;

GST_START_TEST (test_director_script)
{
  GstSessionControlScript *script = parse_ok (D, director_script, -1);
  const GstSessionControlAction *a;

  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), 5);

  a = action (script, 0);
  fail_unless_equals_uint64 (a->time, 5 * GST_SECOND);
  fail_unless_equals_int (a->line, 3);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_PROMPT);
  fail_unless_equals_int64 (a->version, 0);
  fail_unless_equals_string (a->text, "a lighthouse in a storm");
  fail_unless_equals_int (a->held, 0);

  a = action (script, 1);
  fail_unless_equals_uint64 (a->time, 12500 * GST_MSECOND);
  fail_unless_equals_int (a->line, 4);
  fail_unless_equals_int64 (a->version, 7);
  fail_unless_equals_string (a->text, "the storm clears; \"calm\" sea");

  a = action (script, 2);
  fail_unless_equals_uint64 (a->time, 20 * GST_SECOND);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_PING);

  a = action (script, 3);
  fail_unless_equals_uint64 (a->time, 25 * GST_SECOND);
  fail_unless_equals_int64 (a->version, 0);
  fail_unless_equals_string (a->text, "gulls over the water");

  a = action (script, 4);
  fail_unless_equals_uint64 (a->time, 30 * GST_SECOND);
  fail_unless_equals_int (a->line, 7);
  fail_unless_equals_int (a->type, GST_SESSION_CONTROL_ACTION_STOP);

  gst_session_control_script_unref (script);
}

GST_END_TEST;

GST_START_TEST (test_empty_scripts)
{
  const gchar *texts[] = { "", "\n", "# only a comment\n", "  \t \n\n#x\n",
    "\xef\xbb\xbf", "\r\n\r\n"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (texts); i++) {
    GstSessionControlScript *script = parse_ok (W, texts[i], -1);

    fail_unless_equals_int (gst_session_control_script_get_n_actions
        (script), 0);
    fail_unless_equals_int (gst_session_control_script_first_at (script, 0), 0);
    gst_session_control_script_unref (script);
  }

  /* no text at all */
  {
    GstSessionControlScript *script = parse_ok (D, NULL, 0);

    fail_unless_equals_int (gst_session_control_script_get_n_actions
        (script), 0);
    gst_session_control_script_unref (script);
  }
}

GST_END_TEST;

/* ---- times ---- */

GST_START_TEST (test_time_forms)
{
  fail_unless_equals_uint64 (parse_one_time ("0"), 0);
  fail_unless_equals_uint64 (parse_one_time ("12"), 12 * GST_SECOND);
  fail_unless_equals_uint64 (parse_one_time ("007"), 7 * GST_SECOND);
  fail_unless_equals_uint64 (parse_one_time ("2.5"), 2500 * GST_MSECOND);
  fail_unless_equals_uint64 (parse_one_time ("2.5s"), 2500 * GST_MSECOND);
  fail_unless_equals_uint64 (parse_one_time ("12s"), 12 * GST_SECOND);
  fail_unless_equals_uint64 (parse_one_time ("500ms"), 500 * GST_MSECOND);
  fail_unless_equals_uint64 (parse_one_time ("0ms"), 0);
  fail_unless_equals_uint64 (parse_one_time ("1.5ms"), 1500 * GST_USECOND);
  fail_unless_equals_uint64 (parse_one_time ("0.000001ms"), 1);
  fail_unless_equals_uint64 (parse_one_time ("1:02.5"), 62500 * GST_MSECOND);
  fail_unless_equals_uint64 (parse_one_time ("0:07"), 7 * GST_SECOND);
  fail_unless_equals_uint64 (parse_one_time ("90:00"), 5400 * GST_SECOND);
  fail_unless_equals_uint64 (parse_one_time ("1:00:00"), 3600 * GST_SECOND);
  fail_unless_equals_uint64 (parse_one_time ("2:03:04.5"),
      (2 * 3600 + 3 * 60 + 4) * GST_SECOND + 500 * GST_MSECOND);
  fail_unless_equals_uint64 (parse_one_time ("0.000000001"), 1);
  fail_unless_equals_uint64 (parse_one_time ("1.123456789s"), 1123456789);
  /* the latest time allowed, in each form */
  fail_unless_equals_uint64 (parse_one_time ("1000000"),
      GST_SESSION_CONTROL_SCRIPT_MAX_TIME);
  fail_unless_equals_uint64 (parse_one_time ("1000000000ms"),
      GST_SESSION_CONTROL_SCRIPT_MAX_TIME);
  fail_unless_equals_uint64 (parse_one_time ("277:46:40"),
      GST_SESSION_CONTROL_SCRIPT_MAX_TIME);
}

GST_END_TEST;

#define NOT_A_TIME(t) "control-script line 1: \"" t "\" is not a time; a " \
  "line starts with its time in seconds (12, 2.5, 2.5s, 500ms, 1:02.5 or " \
  "1:00:00)"

GST_START_TEST (test_time_errors)
{
  const gchar *bad[] = { "-1", "+1", "1.", ".5", "1,5", "5m", "1e3", "0x10",
    "1:", ":30", "1::00", "1:00:00:00", "1:02s", "1:00ms", "2.5.1", "5sec",
    "5S", "1.5.s", "prompt", "١٢"
  };
  gchar *text, *expected;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bad); i++) {
    text = g_strdup_printf ("%s ping", bad[i]);
    expected = g_strdup_printf ("control-script line 1: \"%s\" is not a time;"
        " a line starts with its time in seconds (12, 2.5, 2.5s, 500ms, "
        "1:02.5 or 1:00:00)", bad[i]);
    check_error (W, text, expected);
    g_free (text);
    g_free (expected);
  }
  check_error (W, "1:2 ping", "control-script line 1: \"1:2\" is not a time: "
      "minutes and seconds after a colon are two digits, 00 to 59");
  check_error (W, "1:60 ping", "control-script line 1: \"1:60\" is not a "
      "time: minutes and seconds after a colon are two digits, 00 to 59");
  check_error (W, "1:60:00 ping", "control-script line 1: \"1:60:00\" is not "
      "a time: minutes and seconds after a colon are two digits, 00 to 59");
  check_error (W, "1:005 ping", "control-script line 1: \"1:005\" is not a "
      "time: minutes and seconds after a colon are two digits, 00 to 59");
  check_error (W, "1.0000000001 ping", "control-script line 1: "
      "\"1.0000000001\" is not a time: too many decimals (the precision is a "
      "nanosecond)");
  check_error (W, "1.0000001ms ping", "control-script line 1: "
      "\"1.0000001ms\" is not a time: too many decimals (the precision is a "
      "nanosecond)");
  check_error (W, "1000000.000000001 ping", "control-script line 1: "
      "\"1000000.000000001\" is too late; times go up to 1000000 seconds");
  check_error (W, "1000001 ping", "control-script line 1: \"1000001\" is too "
      "late; times go up to 1000000 seconds");
  check_error (W, "277:46:41 ping", "control-script line 1: \"277:46:41\" is "
      "too late; times go up to 1000000 seconds");
  check_error (W, "1000000001ms ping", "control-script line 1: "
      "\"1000000001ms\" is too late; times go up to 1000000 seconds");
  check_error (W, "99999999999999999999999999999 ping", "control-script line "
      "1: \"99999999999999999999999999999\" is too late; times go up to "
      "1000000 seconds");
  check_error (W, "99999999999999:00:00 ping", "control-script line 1: "
      "\"99999999999999:00:00\" is too late; times go up to 1000000 seconds");
  /* a long word is cut in the message */
  expected = repeat ("x", 1000);
  text = g_strdup_printf ("%s ping", expected);
  g_free (expected);
  check_error (W, text, "control-script line 1: "
      "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\" is not a time; a line "
      "starts with its time in seconds (12, 2.5, 2.5s, 500ms, 1:02.5 or "
      "1:00:00)");
  g_free (text);
  /* "2.5 s": the unit is not a separate word */
  check_error (W, "2.5 s ping", "control-script line 1: \"s\" is not an "
      "action (prompt, commands, press, release, activate, reset, ping, "
      "stop)");
}

GST_END_TEST;

GST_START_TEST (test_time_order)
{
  GstSessionControlScript *script;

  check_error (W, "1 ping\n5 ping\n# back in time\n\n3 ping\n",
      "control-script line 5: time 3s is earlier than 5s on line 2; actions "
      "must be in time order");
  check_error (W, "1:00.25 ping\n60.2 ping\n",
      "control-script line 2: time 60.2s is earlier than 60.25s on line 1; "
      "actions must be in time order");
  check_error (D, "0.5 ping\n499ms ping\n",
      "control-script line 2: time 0.499s is earlier than 0.5s on line 1; "
      "actions must be in time order");

  /* equal times are allowed and keep the order of the lines */
  script = parse_ok (W, "2 prompt one\n2 ping\n2000ms prompt two\n0:02 stop",
      -1);
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), 4);
  fail_unless_equals_string (action (script, 0)->text, "one");
  fail_unless_equals_int (action (script, 1)->type,
      GST_SESSION_CONTROL_ACTION_PING);
  fail_unless_equals_string (action (script, 2)->text, "two");
  fail_unless_equals_int (action (script, 3)->type,
      GST_SESSION_CONTROL_ACTION_STOP);
  gst_session_control_script_unref (script);
}

GST_END_TEST;

/* ---- lines ---- */

GST_START_TEST (test_comments_blank_lines_crlf)
{
  static const gchar text[] =
      "\xef\xbb\xbf# a comment, with a BOM before it\r\n"
      "\r\n"
      "   # an indented comment\r\n"
      "\t1\tprompt\t a #1 hit with \"quotes\" inside \t \r\n"
      "  2   ping   \r\n" "\r\n" "3 stop";
  GstSessionControlScript *script = parse_ok (W, text, -1);
  const GstSessionControlAction *a;

  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), 3);
  a = action (script, 0);
  fail_unless_equals_int (a->line, 4);
  /* a # after the time is text, not a comment; the text is trimmed */
  fail_unless_equals_string (a->text, "a #1 hit with \"quotes\" inside");
  fail_unless_equals_int (action (script, 1)->line, 5);
  fail_unless_equals_int (action (script, 2)->line, 7);
  gst_session_control_script_unref (script);

  /* line numbers count CRLF lines */
  check_error (W, "# x\r\n\r\n1 jump\r\n", "control-script line 3: \"jump\" "
      "is not an action (prompt, commands, press, release, activate, reset, "
      "ping, stop)");
  /* a lone CR is a control character */
  check_error (W, "1 ping\r2 ping\n", "control-script line 1: control "
      "character U+000D is not allowed");
}

GST_END_TEST;

GST_START_TEST (test_quoted_prompts)
{
  GstSessionControlScript *script;

  script = parse_ok (W,
      "0 prompt \"say \\\"hi\\\" \\\\ now\"\n"
      "1 prompt \"  padded # not a comment  \"\n"
      "2 prompt \"\\\\\"\n"
      "3 prompt \"a\"   \n" "4 prompt plain \\\"backslashes\\\" stay\n", -1);
  fail_unless_equals_string (action (script, 0)->text, "say \"hi\" \\ now");
  fail_unless_equals_string (action (script, 1)->text,
      "  padded # not a comment  ");
  fail_unless_equals_string (action (script, 2)->text, "\\");
  fail_unless_equals_string (action (script, 3)->text, "a");
  fail_unless_equals_string (action (script, 4)->text,
      "plain \\\"backslashes\\\" stay");
  gst_session_control_script_unref (script);

  check_error (W, "0 prompt \"open", "control-script line 1: prompt: the "
      "closing quote is missing");
  check_error (W, "0 prompt \"open\\\"", "control-script line 1: prompt: the "
      "closing quote is missing");
  check_error (W, "0 prompt \"ends in a backslash \\", "control-script line "
      "1: prompt: the closing quote is missing");
  check_error (W, "0 prompt \"a\\nb\"", "control-script line 1: prompt: \\n "
      "is not an escape (only \\\" and \\\\)");
  check_error (W, "0 prompt \"a\\éb\"", "control-script line 1: prompt: \\é "
      "is not an escape (only \\\" and \\\\)");
  check_error (W, "0 prompt \"a\" b", "control-script line 1: prompt: "
      "unexpected \"b\" after the closing quote");
  check_error (W, "0 prompt \"\"", "control-script line 1: prompt: /prompt "
      "has 0 characters, at least 1 required");
  check_error (D, "0 prompt \"\"", "control-script line 1: prompt: /prompt "
      "has 0 characters, at least 1 required");
  check_error (W, "0 ping\n1 prompt", "control-script line 2: prompt: the "
      "text is missing");
  check_error (W, "0 prompt  \t ", "control-script line 1: prompt: the text "
      "is missing");
}

GST_END_TEST;

GST_START_TEST (test_prompt_lengths)
{
  GstSessionControlScript *script;
  gchar *text, *prompt;

  /* 2000 two-byte characters: accepted, counted in characters */
  prompt = repeat ("é", 2000);
  text = g_strdup_printf ("0 ping\n1 prompt %s\n", prompt);
  script = parse_ok (W, text, -1);
  fail_unless_equals_string (action (script, 1)->text, prompt);
  fail_unless_equals_int (g_utf8_strlen (action (script, 1)->text, -1), 2000);
  gst_session_control_script_unref (script);
  g_free (text);
  g_free (prompt);

  /* quoted, four-byte characters */
  prompt = repeat ("🌊", 2000);
  text = g_strdup_printf ("1 prompt \"%s\"\n", prompt);
  script = parse_ok (W, text, -1);
  fail_unless_equals_string (action (script, 0)->text, prompt);
  gst_session_control_script_unref (script);
  g_free (text);
  g_free (prompt);

  prompt = repeat ("é", 2001);
  text = g_strdup_printf ("0 ping\n\n1 prompt %s\n", prompt);
  check_error (W, text, "control-script line 3: prompt: /prompt has 2001 "
      "characters, at most 2000 allowed");
  g_free (text);
  text = g_strdup_printf ("0 reset prompt=\"%s\"\n", prompt);
  check_error (W, text, "control-script line 1: reset: /prompt has 2001 "
      "characters, at most 2000 allowed");
  g_free (text);
  /* the director allows more */
  text = g_strdup_printf ("1 prompt %s\n", prompt);
  script = parse_ok (D, text, -1);
  gst_session_control_script_unref (script);
  g_free (text);
  g_free (prompt);

  /* director: 50000 four-byte characters, then one more */
  prompt = repeat ("🌊", 50000);
  text = g_strdup_printf ("1 prompt version=3 %s\n", prompt);
  script = parse_ok (D, text, -1);
  fail_unless_equals_int (g_utf8_strlen (action (script, 0)->text, -1), 50000);
  fail_unless_equals_int64 (action (script, 0)->version, 3);
  gst_session_control_script_unref (script);
  g_free (text);
  text = g_strdup_printf ("1 ping\n2 prompt %s🌊\n", prompt);
  check_error (D, text, "control-script line 2: prompt: /prompt has 50001 "
      "characters, at most 50000 allowed");
  g_free (text);
  g_free (prompt);
}

GST_END_TEST;

/* ---- the scheduler's helper and the API ---- */

GST_START_TEST (test_first_at)
{
  GstSessionControlScript *script;

  script = parse_ok (W, "1 ping\n2 ping\n2 ping\n2.5 ping\n10 stop\n", -1);
  fail_unless_equals_int (gst_session_control_script_first_at (script, 0), 0);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          GST_SECOND), 0);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          GST_SECOND + 1), 1);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          2 * GST_SECOND), 1);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          2 * GST_SECOND + 1), 3);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          2500 * GST_MSECOND), 3);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          9 * GST_SECOND), 4);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          10 * GST_SECOND), 4);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          10 * GST_SECOND + 1), 5);
  fail_unless_equals_int (gst_session_control_script_first_at (script,
          GST_CLOCK_TIME_NONE), 5);
  gst_session_control_script_unref (script);

  script = parse_ok (W, "0 ping\n0 ping\n", -1);
  fail_unless_equals_int (gst_session_control_script_first_at (script, 0), 0);
  fail_unless_equals_int (gst_session_control_script_first_at (script, 1), 2);
  gst_session_control_script_unref (script);
}

GST_END_TEST;

GST_START_TEST (test_types)
{
  GstSessionControlScript *script, *copy;
  GEnumClass *klass;
  GEnumValue *v;
  guint i;
  const gchar *names[] = { "prompt", "commands", "press", "release",
    "activate", "reset", "ping", "stop"
  };

  for (i = 0; i < G_N_ELEMENTS (names); i++)
    fail_unless_equals_string (gst_session_control_action_type_to_string (i),
        names[i]);
  fail_unless (gst_session_control_action_type_to_string (8) == NULL);
  fail_unless (gst_session_control_action_type_to_string (-1) == NULL);

  klass = g_type_class_ref (GST_TYPE_SESSION_CONTROL_ACTION_TYPE);
  v = g_enum_get_value_by_nick (klass, "activate");
  fail_unless (v != NULL);
  fail_unless_equals_int (v->value, GST_SESSION_CONTROL_ACTION_ACTIVATE);
  fail_unless_equals_int (klass->n_values, 8);
  g_type_class_unref (klass);

  /* a boxed type that shares the script */
  script = parse_ok (W, "0 ping", -1);
  fail_unless (G_TYPE_IS_BOXED (GST_SESSION_TYPE_CONTROL_SCRIPT));
  copy = g_boxed_copy (GST_SESSION_TYPE_CONTROL_SCRIPT, script);
  fail_unless (copy == script);
  g_boxed_free (GST_SESSION_TYPE_CONTROL_SCRIPT, copy);
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), 1);
  {
    g_autoptr (GstSessionControlScript) ref =
        gst_session_control_script_ref (script);

    fail_unless_equals_int (gst_session_control_script_get_action (ref,
            0)->type, GST_SESSION_CONTROL_ACTION_PING);
  }
  gst_session_control_script_unref (script);
}

GST_END_TEST;

static Suite *
controlscript_format_suite (void)
{
  Suite *s = suite_create ("controlscript-format");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_world_script);
  tcase_add_test (tc, test_director_script);
  tcase_add_test (tc, test_empty_scripts);
  tcase_add_test (tc, test_time_forms);
  tcase_add_test (tc, test_time_errors);
  tcase_add_test (tc, test_time_order);
  tcase_add_test (tc, test_comments_blank_lines_crlf);
  tcase_add_test (tc, test_quoted_prompts);
  tcase_add_test (tc, test_prompt_lengths);
  tcase_add_test (tc, test_first_at);
  tcase_add_test (tc, test_types);
  return s;
}

GST_CHECK_MAIN (controlscript_format);
