/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The control script parser: the format of docs/control-script.md, the
 * validation of every argument, the errors and their line numbers, the
 * limits, and loading from a file.
 */

#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/session-enumtypes.h>

#define W GST_SESSION_APP_WORLD
#define D GST_SESSION_APP_DIRECTOR

#define FORWARD GST_SESSION_WORLD_COMMAND_FORWARD
#define LEFT GST_SESSION_WORLD_COMMAND_LEFT
#define BACKWARD GST_SESSION_WORLD_COMMAND_BACKWARD
#define RIGHT GST_SESSION_WORLD_COMMAND_RIGHT
#define LOOK_UP GST_SESSION_WORLD_COMMAND_LOOK_UP
#define LOOK_LEFT GST_SESSION_WORLD_COMMAND_LOOK_LEFT
#define LOOK_DOWN GST_SESSION_WORLD_COMMAND_LOOK_DOWN
#define LOOK_RIGHT GST_SESSION_WORLD_COMMAND_LOOK_RIGHT

static GstSessionControlScript *
parse_ok (GstSessionApp app, const gchar * text, gssize length)
{
  GError *err = NULL;
  GstSessionControlScript *script;

  script = gst_session_control_script_parse (app, text, length, &err);
  if (script == NULL)
    fail ("unexpected error: %s", err->message);
  fail_unless (err == NULL);
  fail_unless_equals_int (gst_session_control_script_get_app (script), app);
  return script;
}

/* parses @text, which must fail with exactly @expected */
static void
check_error_len (GstSessionApp app, const gchar * text, gssize length,
    const gchar * expected)
{
  GError *err = NULL;
  GstSessionControlScript *script;

  script = gst_session_control_script_parse (app, text, length, &err);
  if (script)
    fail ("parsed, expected the error \"%s\"", expected);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT), "wrong error %s",
      err ? err->message : "(none)");
  fail_unless_equals_string (err->message, expected);
  g_error_free (err);
}

static void
check_error (GstSessionApp app, const gchar * text, const gchar * expected)
{
  check_error_len (app, text, -1, expected);
}

static const GstSessionControlAction *
action (GstSessionControlScript * script, guint i)
{
  const GstSessionControlAction *a;

  fail_unless (i < gst_session_control_script_get_n_actions (script));
  a = gst_session_control_script_get_action (script, i);
  fail_unless (a != NULL);
  return a;
}

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

/* @n copies of @unit */
static gchar *
repeat (const gchar * unit, guint n)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < n; i++)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* ---- whole scripts ---- */

static const gchar world_script[] =
    "# steer a world for about ten seconds\n"
    "0 reset preset=desert-valley prompt=\"a dry valley at dawn\"\n"
    "1 commands forward\n"
    "2.5s press look_left\n"
    "3 prompt the valley floods, slowly\n"
    "3500ms release look_left\n"
    "4 commands none\n"
    "5 activate look_up+right\n"
    "6 reset image-url=https://example.com/start.png\n"
    "0:07 ping\n" "0:08.25 stop\n";

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

static const gchar director_script[] =
    "# a director session over half a minute\n"
    "\n"
    "5 prompt a lighthouse in a storm\n"
    "12.5 prompt version=7 \"the storm clears; \\\"calm\\\" sea\"\n"
    "20 ping\n" "25 prompt gulls over the water\n" "30 stop\n";

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

/* ---- actions ---- */

GST_START_TEST (test_unknown_and_misplaced_actions)
{
  check_error (W, "0 ping\n1 prompt x\n3 jump high",
      "control-script line 3: \"jump\" is not an action (prompt, commands, "
      "press, release, activate, reset, ping, stop)");
  check_error (W, "0 PING", "control-script line 1: \"PING\" is not an action "
      "(prompt, commands, press, release, activate, reset, ping, stop)");
  check_error (W, "0 configure preset=x", "control-script line 1: "
      "\"configure\" is not an action (prompt, commands, press, release, "
      "activate, reset, ping, stop)");
  check_error (W, "0 keys w", "control-script line 1: \"keys\" is not an "
      "action (prompt, commands, press, release, activate, reset, ping, "
      "stop)");
  check_error (D, "0 jump", "control-script line 1: \"jump\" is not an action "
      "(prompt, ping, stop)");
  check_error (D, "0 ping\n1 press forward", "control-script line 2: "
      "\"press\" is not a director action (prompt, ping, stop)");
  check_error (D, "0 commands none", "control-script line 1: \"commands\" is "
      "not a director action (prompt, ping, stop)");
  check_error (D, "0 reset", "control-script line 1: \"reset\" is not a "
      "director action (prompt, ping, stop)");
  check_error (W, "0 ping\n  5  ", "control-script line 2: the action is "
      "missing after the time (prompt, commands, press, release, activate, "
      "reset, ping, stop)");
  check_error (D, "5", "control-script line 1: the action is missing after "
      "the time (prompt, ping, stop)");
}

GST_END_TEST;

GST_START_TEST (test_extra_and_missing_arguments)
{
  check_error (W, "0 ping now", "control-script line 1: ping: unexpected "
      "\"now\" after the arguments");
  check_error (D, "0 ping 12", "control-script line 1: ping: unexpected "
      "\"12\" after the arguments");
  check_error (W, "0 stop\t please", "control-script line 1: stop: "
      "unexpected \"please\" after the arguments");
  check_error (W, "0 commands forward left", "control-script line 1: "
      "commands: unexpected \"left\" after the arguments");
  check_error (W, "0 commands", "control-script line 1: commands: the "
      "command set is missing (such as forward+look_left, or none)");
  check_error (W, "0 commands none forward", "control-script line 1: "
      "commands: unexpected \"forward\" after the arguments");
  check_error (W, "0 press", "control-script line 1: press: the command is "
      "missing (one of forward, left, backward, right, look_up, look_left, "
      "look_down, look_right)");
  check_error (W, "0 press forward left", "control-script line 1: press: "
      "unexpected \"left\" after the arguments");
  check_error (W, "0 press forward\n1 release", "control-script line 2: "
      "release: the command is missing (one of forward, left, backward, "
      "right, look_up, look_left, look_down, look_right)");
  check_error (W, "0 activate", "control-script line 1: activate: the "
      "commands are missing (such as forward or look_left+look_up)");
  check_error (W, "0 activate left right", "control-script line 1: "
      "activate: unexpected \"right\" after the arguments");
}

GST_END_TEST;

GST_START_TEST (test_command_names)
{
  check_error (W, "0 commands forward+jump", "control-script line 1: "
      "commands: \"jump\" is not a command (forward, left, backward, right, "
      "look_up, look_left, look_down, look_right)");
  check_error (W, "0 press Forward", "control-script line 1: press: "
      "\"Forward\" is not a command (forward, left, backward, right, "
      "look_up, look_left, look_down, look_right)");
  check_error (W, "0 press forward+left", "control-script line 1: press: "
      "\"forward+left\" is not a command (forward, left, backward, right, "
      "look_up, look_left, look_down, look_right)");
  check_error (W, "0 release none", "control-script line 1: release: "
      "\"none\" is not a command (forward, left, backward, right, look_up, "
      "look_left, look_down, look_right)");
  check_error (W, "0 activate none", "control-script line 1: activate: "
      "\"none\" is not a command (forward, left, backward, right, look_up, "
      "look_left, look_down, look_right)");
  check_error (W, "0 commands forward,left", "control-script line 1: "
      "commands: \"forward,left\" is not a command (forward, left, backward, "
      "right, look_up, look_left, look_down, look_right)");
  check_error (W, "0 commands forward++left", "control-script line 1: "
      "commands: empty command name in \"forward++left\"");
  check_error (W, "0 activate +left", "control-script line 1: activate: "
      "empty command name in \"+left\"");
  check_error (W, "0 commands left+", "control-script line 1: commands: "
      "empty command name in \"left+\"");
  check_error (W, "0 commands forward+left+forward", "control-script line 1: "
      "commands: forward is named twice");
}

GST_END_TEST;

GST_START_TEST (test_conflict_groups)
{
  GstSessionControlScript *script;

  check_error (W, "0 commands forward+backward", "control-script line 1: "
      "commands: backward conflicts with forward (mutually exclusive)");
  check_error (W, "0 commands right+look_up+left", "control-script line 1: "
      "commands: left conflicts with right (mutually exclusive)");
  check_error (W, "0 commands look_up+look_down", "control-script line 1: "
      "commands: look_down conflicts with look_up (mutually exclusive)");
  check_error (W, "0 ping\n1 activate look_right+look_left", "control-script "
      "line 2: activate: look_left conflicts with look_right (mutually "
      "exclusive)");

  /* one of each group at once */
  script = parse_ok (W, "0 commands backward+right+look_down+look_left\n"
      "1 activate forward+left+look_up+look_right\n", -1);
  fail_unless_equals_int (action (script, 0)->commands,
      BACKWARD | RIGHT | LOOK_DOWN | LOOK_LEFT);
  fail_unless_equals_int (action (script, 1)->commands,
      FORWARD | LEFT | LOOK_UP | LOOK_RIGHT);
  /* the one-shot set may differ from the held one: groups hold per list */
  fail_unless_equals_int (action (script, 1)->held,
      BACKWARD | RIGHT | LOOK_DOWN | LOOK_LEFT);
  gst_session_control_script_unref (script);
}

GST_END_TEST;

GST_START_TEST (test_held_state)
{
  GstSessionControlScript *script;

  script = parse_ok (W,
      "1 press forward\n"
      "2 press look_left\n"
      "3 release forward\n"
      "3 press backward\n"
      "4 commands left+look_up\n"
      "5 release left\n"
      "6 activate forward\n"
      "7 commands none\n" "8 press right\n" "9 reset\n" "10 release right\n",
      -1);
  fail_unless_equals_int (action (script, 0)->held, FORWARD);
  fail_unless_equals_int (action (script, 0)->commands, FORWARD);
  fail_unless_equals_int (action (script, 1)->held, FORWARD | LOOK_LEFT);
  fail_unless_equals_int (action (script, 2)->held, LOOK_LEFT);
  fail_unless_equals_int (action (script, 2)->commands, FORWARD);
  fail_unless_equals_int (action (script, 3)->held, LOOK_LEFT | BACKWARD);
  fail_unless_equals_int (action (script, 4)->held, LEFT | LOOK_UP);
  fail_unless_equals_int (action (script, 5)->held, LOOK_UP);
  fail_unless_equals_int (action (script, 6)->held, LOOK_UP);
  fail_unless_equals_int (action (script, 6)->commands, FORWARD);
  fail_unless_equals_int (action (script, 7)->held, 0);
  fail_unless_equals_int (action (script, 7)->commands, 0);
  fail_unless_equals_int (action (script, 8)->held, RIGHT);
  /* reset keeps what is held: the user's input is not the world's */
  fail_unless_equals_int (action (script, 9)->held, RIGHT);
  fail_unless_equals_int (action (script, 10)->held, 0);
  gst_session_control_script_unref (script);

  check_error (W, "1 press forward\n2 ping\n3 press backward",
      "control-script line 3: press: backward conflicts with forward, held "
      "since line 1; release it first");
  check_error (W, "1 commands look_up+left\n2 press look_down",
      "control-script line 2: press: look_down conflicts with look_up, held "
      "since line 1; release it first");
  check_error (W, "1 press forward\n2 commands forward+left\n3 press forward",
      "control-script line 3: press: forward is already held (since line "
      "1)");
  check_error (W, "1 press forward\n2 release forward\n3 release forward",
      "control-script line 3: release: forward is not held");
  check_error (W, "1 commands left\n2 commands right\n3 release left",
      "control-script line 3: release: left is not held");
  check_error (W, "1 commands left+forward\n2 commands none\n"
      "3 release left", "control-script line 3: release: left is not held");
  /* a held command's line follows a commands line that adds it */
  check_error (W, "1 commands left\n2 commands left+forward\n"
      "3 press backward", "control-script line 3: press: backward conflicts "
      "with forward, held since line 2; release it first");
}

GST_END_TEST;

GST_START_TEST (test_commands_none)
{
  GstSessionControlScript *script;

  script = parse_ok (W, "0 commands none\n1 commands forward\n"
      "2 commands none\n", -1);
  fail_unless_equals_int (action (script, 0)->type,
      GST_SESSION_CONTROL_ACTION_COMMANDS);
  fail_unless_equals_int (action (script, 0)->commands, 0);
  fail_unless_equals_int (action (script, 0)->held, 0);
  fail_unless_equals_int (action (script, 1)->held, FORWARD);
  fail_unless_equals_int (action (script, 2)->commands, 0);
  fail_unless_equals_int (action (script, 2)->held, 0);
  gst_session_control_script_unref (script);

  check_error (W, "0 commands none+forward", "control-script line 1: "
      "commands: \"none\" is not a command (forward, left, backward, right, "
      "look_up, look_left, look_down, look_right)");
  check_error (W, "0 commands None", "control-script line 1: commands: "
      "\"None\" is not a command (forward, left, backward, right, look_up, "
      "look_left, look_down, look_right)");
}

GST_END_TEST;

GST_START_TEST (test_reset_arguments)
{
  GstSessionControlScript *script;
  gchar *text, *value;

  script = parse_ok (W,
      "0 reset\n"
      "1 reset prompt=\"a \\\"new\\\" world\" preset=forest-stream\n"
      "2 reset image-url=file:///tmp/a%20b.png prompt=single\n"
      "3 reset\tpreset=\"with space\"\t\n", -1);
  fail_unless (action (script, 0)->preset == NULL);
  fail_unless (action (script, 0)->image_url == NULL);
  fail_unless (action (script, 0)->text == NULL);
  fail_unless_equals_string (action (script, 1)->text, "a \"new\" world");
  fail_unless_equals_string (action (script, 1)->preset, "forest-stream");
  fail_unless_equals_string (action (script, 2)->image_url,
      "file:///tmp/a%20b.png");
  fail_unless_equals_string (action (script, 2)->text, "single");
  fail_unless_equals_string (action (script, 3)->preset, "with space");
  gst_session_control_script_unref (script);

  check_error (W, "0 reset image_url=x", "control-script line 1: reset: "
      "\"image_url=\" is not an argument (preset=, image-url=, prompt=)");
  check_error (W, "0 reset desert", "control-script line 1: reset: "
      "\"desert\" is not an argument (preset=, image-url=, prompt=)");
  check_error (W, "0 reset preset=a \"b\"", "control-script line 1: reset: "
      "\"\"b\"\" is not an argument (preset=, image-url=, prompt=)");
  check_error (W, "0 reset preset=a preset=b", "control-script line 1: "
      "reset: preset= is given twice");
  check_error (W, "0 reset preset=", "control-script line 1: reset: preset= "
      "has no value; leave the argument out instead");
  check_error (W, "0 reset preset= image-url=x", "control-script line 1: "
      "reset: preset= has no value; leave the argument out instead");
  check_error (W, "0 reset prompt=\"\"", "control-script line 1: reset: "
      "prompt= has no value; leave the argument out instead");
  check_error (W, "0 reset prompt=\"a\"b", "control-script line 1: reset: "
      "unexpected \"b\" after the closing quote");
  check_error (W, "0 reset prompt=\"a", "control-script line 1: reset: the "
      "closing quote is missing");
  check_error (W, "0 reset prompt=a b", "control-script line 1: reset: "
      "\"b\" is not an argument (preset=, image-url=, prompt=)");

  /* the limits of spec 000 */
  value = repeat ("p", 100);
  text = g_strdup_printf ("0 reset preset=%s", value);
  script = parse_ok (W, text, -1);
  gst_session_control_script_unref (script);
  g_free (text);
  g_free (value);
  value = repeat ("p", 101);
  text = g_strdup_printf ("0 ping\n0 reset preset=%s", value);
  check_error (W, text, "control-script line 2: reset: /preset has 101 "
      "characters, at most 100 allowed");
  g_free (text);
  g_free (value);

  value = repeat ("u", 4096);
  text = g_strdup_printf ("0 reset image-url=%s", value);
  script = parse_ok (W, text, -1);
  gst_session_control_script_unref (script);
  g_free (text);
  g_free (value);
  value = repeat ("u", 4097);
  text = g_strdup_printf ("0 reset image-url=%s", value);
  check_error (W, text, "control-script line 1: reset: /image_url has 4097 "
      "characters, at most 4096 allowed");
  g_free (text);
  g_free (value);
}

GST_END_TEST;

GST_START_TEST (test_stop_is_last)
{
  GstSessionControlScript *script;

  check_error (W, "0 stop\n1 ping", "control-script line 2: ping after the "
      "stop of line 1; stop is the last action");
  check_error (D, "0 stop\n# fine\n0 stop", "control-script line 3: stop "
      "after the stop of line 1; stop is the last action");
  script = parse_ok (W, "0 stop\n# comments may follow\n\n", -1);
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), 1);
  gst_session_control_script_unref (script);
}

GST_END_TEST;

GST_START_TEST (test_director_versions)
{
  GstSessionControlScript *script;

  script = parse_ok (D,
      "0 prompt version=1 one\n"
      "1 prompt two\n"
      "2 prompt version=5 five\n"
      "3 prompt \"version=6 is text when quoted\"\n"
      "4 prompt version=9007199254740991 last\n", -1);
  fail_unless_equals_int64 (action (script, 0)->version, 1);
  fail_unless_equals_string (action (script, 0)->text, "one");
  fail_unless_equals_int64 (action (script, 1)->version, 0);
  fail_unless_equals_int64 (action (script, 2)->version, 5);
  fail_unless_equals_int64 (action (script, 3)->version, 0);
  fail_unless_equals_string (action (script, 3)->text,
      "version=6 is text when quoted");
  fail_unless_equals_int64 (action (script, 4)->version,
      GST_SESSION_CONTROL_SCRIPT_MAX_VERSION);
  gst_session_control_script_unref (script);

  /* in the world a version= is part of the text */
  script = parse_ok (W, "0 prompt version=2 hello", -1);
  fail_unless_equals_string (action (script, 0)->text, "version=2 hello");
  fail_unless_equals_int64 (action (script, 0)->version, 0);
  gst_session_control_script_unref (script);

  check_error (D, "0 prompt version=0 x", "control-script line 1: prompt: "
      "version \"0\" is not a whole number from 1 to 9007199254740991");
  check_error (D, "0 prompt version=-1 x", "control-script line 1: prompt: "
      "version \"-1\" is not a whole number from 1 to 9007199254740991");
  check_error (D, "0 prompt version=2.0 x", "control-script line 1: prompt: "
      "version \"2.0\" is not a whole number from 1 to 9007199254740991");
  check_error (D, "0 prompt version= x", "control-script line 1: prompt: "
      "version \"\" is not a whole number from 1 to 9007199254740991");
  check_error (D, "0 prompt version=9007199254740992 x", "control-script "
      "line 1: prompt: version \"9007199254740992\" is not a whole number "
      "from 1 to 9007199254740991");
  check_error (D, "0 prompt version=99999999999999999999999 x",
      "control-script line 1: prompt: version \"99999999999999999999999\" is "
      "not a whole number from 1 to 9007199254740991");
  check_error (D, "0 prompt version=3", "control-script line 1: prompt: the "
      "text is missing");
  check_error (D, "0 prompt version=3 \"\"", "control-script line 1: prompt: "
      "/prompt has 0 characters, at least 1 required");

  /* versions must increase */
  check_error (D, "0 prompt version=3 a\n1 prompt version=3 b",
      "control-script line 2: prompt: version 3 is not above version 3 of "
      "line 1; prompt versions must increase");
  check_error (D, "0 prompt version=3 a\n1 ping\n2 prompt version=2 b",
      "control-script line 3: prompt: version 2 is not above version 3 of "
      "line 1; prompt versions must increase");
  /* a next-version prompt is at least one above the one before */
  check_error (D, "0 prompt version=3 a\n1 prompt b\n2 prompt version=4 c",
      "control-script line 3: prompt: version 4 is not above version 4 (at "
      "least) of line 2; prompt versions must increase");
  check_error (D, "0 prompt a\n1 prompt b\n2 prompt version=2 c",
      "control-script line 3: prompt: version 2 is not above version 2 (at "
      "least) of line 2; prompt versions must increase");
  check_error (D, "0 prompt version=9007199254740991 a\n1 prompt b",
      "control-script line 2: prompt: no version is left after "
      "9007199254740991");
  script = parse_ok (D, "0 prompt version=3 a\n1 prompt b\n"
      "2 prompt version=5 c\n", -1);
  gst_session_control_script_unref (script);
}

GST_END_TEST;

/* ---- bytes and limits ---- */

GST_START_TEST (test_bad_bytes)
{
  static const gchar nul[] = "0 ping\n1 prompt a\0b\n";

  check_error (W, "0 ping\n1 prompt caf\xc3\n", "control-script line 2: not "
      "valid UTF-8 (byte 13 of the line)");
  check_error (W, "0 prompt \xff", "control-script line 1: not valid UTF-8 "
      "(byte 10 of the line)");
  check_error (W, "\xef\xbb\xbf\xef\xbb\xbf" "0 ping", "control-script line "
      "1: \"\xef\xbb\xbf" "0\" is not a time; a line starts with its time in "
      "seconds (12, 2.5, 2.5s, 500ms, 1:02.5 or 1:00:00)");
  check_error_len (W, nul, sizeof (nul) - 1, "control-script line 2: a NUL "
      "byte is not allowed");
  check_error (W, "0 prompt a\x01z", "control-script line 1: control "
      "character U+0001 is not allowed");
  check_error (W, "0 prompt a\x7fz", "control-script line 1: control "
      "character U+007F is not allowed");
  check_error (W, "0 prompt a\x0b", "control-script line 1: control "
      "character U+000B is not allowed");
}

GST_END_TEST;

GST_START_TEST (test_limits)
{
  GstSessionControlScript *script;
  GString *s;
  gchar *prompt, *text, *expected;
  guint i;

  /* the most lines, all actions */
  s = g_string_new (NULL);
  for (i = 0; i < GST_SESSION_CONTROL_SCRIPT_MAX_LINES; i++)
    g_string_append (s, "1 ping\n");
  script = parse_ok (W, s->str, s->len);
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script),
      GST_SESSION_CONTROL_SCRIPT_MAX_LINES);
  gst_session_control_script_unref (script);
  /* one line more */
  g_string_append (s, "#\n");
  check_error_len (W, s->str, s->len, "control-script: more than 100000 "
      "lines");
  /* blank lines count */
  g_string_truncate (s, 0);
  for (i = 0; i <= GST_SESSION_CONTROL_SCRIPT_MAX_LINES; i++)
    g_string_append_c (s, '\n');
  check_error_len (W, s->str, s->len, "control-script: more than 100000 "
      "lines");
  g_string_free (s, TRUE);

  /* the size */
  text = g_malloc (GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  memset (text, '\n', GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  check_error_len (W, text, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1,
      "control-script: 1048577 bytes, at most 1048576 allowed");
  /* exactly the size: lines of 63 blanks */
  memset (text, ' ', GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
  for (i = 63; i < GST_SESSION_CONTROL_SCRIPT_MAX_SIZE; i += 64)
    text[i] = '\n';
  script = parse_ok (D, text, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
  gst_session_control_script_unref (script);
  g_free (text);

  /* as many validated commands as fit in the size */
  s = g_string_new (NULL);
  for (i = 0; s->len < GST_SESSION_CONTROL_SCRIPT_MAX_SIZE - 32; i++)
    g_string_append (s, i % 2 ? "1 release left\n" : "1 press left\n");
  script = parse_ok (W, s->str, s->len);
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), i);
  gst_session_control_script_unref (script);
  g_string_free (s, TRUE);

  /* the line length: a comment just too long */
  text = g_malloc0 (GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH + 10);
  memset (text, '#', GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH + 1);
  expected = g_strdup_printf ("control-script line 1: the line has %u bytes, "
      "at most %u allowed", GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH + 1,
      GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH);
  check_error (W, text, expected);
  g_free (expected);
  /* exactly the limit, with its CR (not counted) */
  text[GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH] = '\r';
  script = parse_ok (W, text, -1);
  gst_session_control_script_unref (script);
  g_free (text);

  /* the longest director prompt fits in a line even fully escaped */
  prompt = repeat ("\\\\", 50000);
  text = g_strdup_printf ("0 prompt \"%s\"", prompt);
  script = parse_ok (D, text, -1);
  fail_unless_equals_int (strlen (action (script, 0)->text), 50000);
  gst_session_control_script_unref (script);
  g_free (text);
  g_free (prompt);
}

GST_END_TEST;

/* ---- files ---- */

static gchar *
write_temp (const gchar * contents, gssize length)
{
  GError *err = NULL;
  gchar *path;
  gint fd;

  fd = g_file_open_tmp ("controlscript-XXXXXX.txt", &path, &err);
  fail_unless (fd >= 0, "%s", err ? err->message : "");
  close (fd);
  fail_unless (g_file_set_contents (path, contents, length, &err), "%s",
      err ? err->message : "");
  return path;
}

GST_START_TEST (test_load_file)
{
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *path, *expected;

  path = write_temp (world_script, -1);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script),
      10);
  fail_unless_equals_string (action (script, 0)->preset, "desert-valley");
  fail_unless_equals_uint64 (action (script, 9)->time, 8250 * GST_MSECOND);
  gst_session_control_script_unref (script);

  /* the same file is not a director script: the path is in the error */
  script = gst_session_control_script_load (D, path, &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  expected = g_strdup_printf ("control-script %s line 2: \"reset\" is not a "
      "director action (prompt, ping, stop)", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_remove (path), 0);
  g_free (path);

  /* a file with a NUL byte */
  path = write_temp ("0 ping\n1 ping\0\n", 15);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script == NULL);
  expected = g_strdup_printf ("control-script %s line 2: a NUL byte is not "
      "allowed", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_remove (path), 0);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_load_errors)
{
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *path, *dir, *expected, *big;

  /* a missing file */
  dir = g_dir_make_tmp ("controlscript-XXXXXX", &err);
  fail_unless (dir != NULL);
  path = g_build_filename (dir, "steer.txt", NULL);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  expected = g_strdup_printf ("control-script %s: cannot open the file: %s",
      path, g_strerror (ENOENT));
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  g_free (path);

  /* a directory */
  script = gst_session_control_script_load (W, dir, &err);
  fail_unless (script == NULL);
  expected = g_strdup_printf ("control-script %s: cannot read the file: %s",
      dir, g_strerror (EISDIR));
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_rmdir (dir), 0);
  g_free (dir);

  /* a file over the size limit */
  big = g_malloc (GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  memset (big, '\n', GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  path = write_temp (big, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  g_free (big);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script == NULL);
  expected = g_strdup_printf ("control-script %s: the file is larger than "
      "1048576 bytes", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_remove (path), 0);
  g_free (path);
}

GST_END_TEST;

/* The sample scripts of pipelines/ and every ```world-script and
 * ```director-script block of docs/control-script.md parse. */
GST_START_TEST (test_documented_scripts)
{
  const gchar *root = g_getenv ("GST_SESSION_SOURCE_ROOT");
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *path, *doc, **lines;
  GString *block = NULL;
  GstSessionApp app = W;
  guint i, n_blocks[2] = { 0, 0 };

  if (root == NULL) {
    GST_INFO ("GST_SESSION_SOURCE_ROOT is not set: not run");
    return;
  }

  path = g_build_filename (root, "pipelines", "steer-world.txt", NULL);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script != NULL, "%s", err ? err->message : "");
  fail_unless (gst_session_control_script_get_n_actions (script) >= 5);
  fail_unless (action (script, gst_session_control_script_get_n_actions
          (script) - 1)->time <= 10 * GST_SECOND);
  gst_session_control_script_unref (script);
  g_free (path);

  path = g_build_filename (root, "pipelines", "steer-director.txt", NULL);
  script = gst_session_control_script_load (D, path, &err);
  fail_unless (script != NULL, "%s", err ? err->message : "");
  fail_unless (gst_session_control_script_get_n_actions (script) >= 2);
  gst_session_control_script_unref (script);
  g_free (path);

  path = g_build_filename (root, "docs", "control-script.md", NULL);
  fail_unless (g_file_get_contents (path, &doc, NULL, &err), "%s",
      err ? err->message : "");
  lines = g_strsplit (doc, "\n", -1);
  for (i = 0; lines[i]; i++) {
    if (block == NULL) {
      if (strcmp (lines[i], "```world-script") == 0) {
        app = W;
        block = g_string_new (NULL);
      } else if (strcmp (lines[i], "```director-script") == 0) {
        app = D;
        block = g_string_new (NULL);
      }
    } else if (strcmp (lines[i], "```") == 0) {
      script = gst_session_control_script_parse (app, block->str, -1, &err);
      fail_unless (script != NULL, "docs block before line %u: %s", i + 1,
          err ? err->message : "");
      fail_unless (gst_session_control_script_get_n_actions (script) > 0);
      gst_session_control_script_unref (script);
      g_string_free (block, TRUE);
      block = NULL;
      n_blocks[app]++;
    } else {
      g_string_append_printf (block, "%s\n", lines[i]);
    }
  }
  fail_unless (block == NULL);
  fail_unless (n_blocks[W] >= 2);
  fail_unless (n_blocks[D] >= 2);
  g_strfreev (lines);
  g_free (doc);
  g_free (path);
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

/* Mutations of valid scripts and random bytes: every input either parses or
 * fails with an error naming the control script; none crashes. The fuzzer
 * of tests/fuzz goes further. */
GST_START_TEST (test_garbage_never_crashes)
{
  static const gchar *const pieces[] = { "0", "1.5", "2:00", "500ms", " ",
    "\t", "\n", "\r\n", "\"", "\\", "#", "=", "+", "prompt", "commands",
    "press", "release", "activate", "reset", "ping", "stop", "forward",
    "backward", "look_left", "none", "preset=", "image-url=", "prompt=",
    "version=", "version=2", "é", "\xff", "\x01", "999999999999", ":", "."
  };
  GRand *rand = g_rand_new_with_seed (20261121);
  guint i, j, parsed = 0;

  for (i = 0; i < 20000; i++) {
    GString *s = g_string_new (NULL);
    guint n = g_rand_int_range (rand, 0, 24);
    GstSessionControlScript *script;
    GError *err = NULL;
    GstSessionApp app = g_rand_boolean (rand) ? W : D;

    if (i % 4 == 0) {
      /* a valid script with a few bytes changed */
      g_string_append (s, app == W ? world_script : director_script);
      for (j = 0; j < n % 4 + 1; j++)
        s->str[g_rand_int_range (rand, 0, s->len)] =
            (gchar) g_rand_int_range (rand, 0, 256);
    } else {
      for (j = 0; j < n; j++)
        g_string_append (s, pieces[g_rand_int_range (rand, 0,
                    G_N_ELEMENTS (pieces))]);
    }
    script = gst_session_control_script_parse (app, s->str, s->len, &err);
    if (script) {
      guint k, count = gst_session_control_script_get_n_actions (script);

      for (k = 0; k < count; k++) {
        const GstSessionControlAction *a =
            gst_session_control_script_get_action (script, k);

        fail_unless (a->line >= 1);
        fail_unless (k == 0 || a->time >=
            gst_session_control_script_get_action (script, k - 1)->time);
      }
      gst_session_control_script_unref (script);
      parsed++;
    } else {
      fail_unless (g_error_matches (err, GST_SESSION_ERROR,
              GST_SESSION_ERROR_INVALID_ARGUMENT));
      fail_unless (g_str_has_prefix (err->message, "control-script"));
      fail_unless (g_utf8_validate (err->message, -1, NULL));
      g_error_free (err);
    }
    g_string_free (s, TRUE);
  }
  /* both outcomes were exercised */
  fail_unless (parsed > 0);
  fail_unless (parsed < 20000);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
controlscript_suite (void)
{
  Suite *s = suite_create ("controlscript");
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
  tcase_add_test (tc, test_unknown_and_misplaced_actions);
  tcase_add_test (tc, test_extra_and_missing_arguments);
  tcase_add_test (tc, test_command_names);
  tcase_add_test (tc, test_conflict_groups);
  tcase_add_test (tc, test_held_state);
  tcase_add_test (tc, test_commands_none);
  tcase_add_test (tc, test_reset_arguments);
  tcase_add_test (tc, test_stop_is_last);
  tcase_add_test (tc, test_director_versions);
  tcase_add_test (tc, test_bad_bytes);
  tcase_add_test (tc, test_limits);
  tcase_add_test (tc, test_load_file);
  tcase_add_test (tc, test_load_errors);
  tcase_add_test (tc, test_documented_scripts);
  tcase_add_test (tc, test_first_at);
  tcase_add_test (tc, test_types);
  tcase_add_test (tc, test_garbage_never_crashes);
  return s;
}

GST_CHECK_MAIN (controlscript);
