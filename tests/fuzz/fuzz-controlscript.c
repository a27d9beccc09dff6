/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst_session_control_script_parse() for both apps.
 *
 * Input: one selector byte (bit 0: director), then the script text (not
 * NUL-terminated: the length is given).
 *
 * Invariants beyond "no crash": an error is set exactly when no script
 * comes back; the actions of a script are in time order, within
 * GST_SESSION_CONTROL_SCRIPT_MAX_TIME, on lines of the text, with valid
 * UTF-8 texts; first_at() finds them.
 */

#include "fuzz-common.h"

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init ();
  return 0;
}

static void
check_script (const GstSessionControlScript * script, GstSessionApp app,
    const gchar * text, gsize length)
{
  guint n = gst_session_control_script_get_n_actions (script), i;
  guint lines = 1;
  gsize p;
  GstClockTime last = 0;

  for (p = 0; p < length; p++)
    lines += text[p] == '\n';

  fuzz_assert (gst_session_control_script_get_app (script) == app, "app");
  for (i = 0; i < n; i++) {
    const GstSessionControlAction *a =
        gst_session_control_script_get_action (script, i);

    fuzz_assert (a != NULL, "action %u missing", i);
    fuzz_assert (a->time >= last, "action %u goes back in time", i);
    fuzz_assert (a->time <= GST_SESSION_CONTROL_SCRIPT_MAX_TIME, "too late");
    fuzz_assert (a->line >= 1 && a->line <= lines, "line %u of %u", a->line,
        lines);
    fuzz_assert (gst_session_control_action_type_to_string (a->type) != NULL,
        "type %d has no name", a->type);
    fuzz_assert (a->text == NULL || g_utf8_validate (a->text, -1, NULL),
        "text not UTF-8");
    fuzz_assert (a->preset == NULL || g_utf8_validate (a->preset, -1, NULL),
        "preset not UTF-8");
    fuzz_assert (a->image_url == NULL
        || g_utf8_validate (a->image_url, -1, NULL), "url not UTF-8");
    fuzz_assert (a->version >= 0
        && a->version <= GST_SESSION_CONTROL_SCRIPT_MAX_VERSION, "version");
    fuzz_assert (gst_session_control_script_first_at (script, a->time) <= i,
        "first_at passes action %u", i);
    last = a->time;
  }
  fuzz_assert (gst_session_control_script_first_at (script,
          GST_CLOCK_TIME_NONE - 1) <= n, "first_at past the end");
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstSessionApp app;
  GstSessionControlScript *script;
  GError *error = NULL;
  gchar *text;
  gsize length;

  if (size < 1)
    return 0;
  app = (data[0] & 1) ? GST_SESSION_APP_DIRECTOR : GST_SESSION_APP_WORLD;
  length = size - 1;
  text = fuzz_dup (data + 1, length);

  script = gst_session_control_script_parse (app, text, length, &error);
  fuzz_assert ((script == NULL) == (error != NULL), "error set iff no script");
  if (error) {
    fuzz_assert (g_utf8_validate (error->message, -1, NULL),
        "error text not UTF-8");
    g_clear_error (&error);
  }
  if (script) {
    check_script (script, app, text, length);
    gst_session_control_script_unref (script);
  }

  free (text);
  return 0;
}
