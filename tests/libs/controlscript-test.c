/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "controlscript-test.h"

GstSessionControlScript *
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
void
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

void
check_error (GstSessionApp app, const gchar * text, const gchar * expected)
{
  check_error_len (app, text, -1, expected);
}

const GstSessionControlAction *
action (GstSessionControlScript * script, guint i)
{
  const GstSessionControlAction *a;

  fail_unless (i < gst_session_control_script_get_n_actions (script));
  a = gst_session_control_script_get_action (script, i);
  fail_unless (a != NULL);
  return a;
}

/* @n copies of @unit */
gchar *
repeat (const gchar * unit, guint n)
{
  GString *s = g_string_new (NULL);
  guint i;

  for (i = 0; i < n; i++)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* ---- two whole scripts ---- */

const gchar world_script[] =
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

const gchar director_script[] =
    "# a director session over half a minute\n"
    "\n"
    "5 prompt a lighthouse in a storm\n"
    "12.5 prompt version=7 \"the storm clears; \\\"calm\\\" sea\"\n"
    "20 ping\n" "25 prompt gulls over the water\n" "30 stop\n";
