/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The control script parser: the validation of every action's arguments,
 * the errors and their line numbers (unknown and misplaced actions,
 * command names, conflict groups, the held state, reset, stop, the
 * director's prompt versions).
 */

#include "controlscript-test.h"

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

static Suite *
controlscript_actions_suite (void)
{
  Suite *s = suite_create ("controlscript-actions");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_unknown_and_misplaced_actions);
  tcase_add_test (tc, test_extra_and_missing_arguments);
  tcase_add_test (tc, test_command_names);
  tcase_add_test (tc, test_conflict_groups);
  tcase_add_test (tc, test_held_state);
  tcase_add_test (tc, test_commands_none);
  tcase_add_test (tc, test_reset_arguments);
  tcase_add_test (tc, test_stop_is_last);
  tcase_add_test (tc, test_director_versions);
  return s;
}

GST_CHECK_MAIN (controlscript_actions);
