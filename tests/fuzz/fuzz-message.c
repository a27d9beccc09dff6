/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst_session_message_parse() for both apps and both directions.
 *
 * Input: one selector byte (bit 0: director, bit 1: service to client),
 * then the message text (not NUL-terminated: the length is given).
 *
 * Invariants beyond "no crash": a parsed message prints as JSON that parses
 * again to a message of the same type; its structure prints (no critical);
 * a known one is rebuilt from its structure; validate_json() agrees with
 * parse().
 */

#include "fuzz-common.h"

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  GstSessionApp app;
  GstSessionDirection direction;
  GstSessionMessage *msg, *again;
  GError *error = NULL;
  gchar *text, *json;
  gsize length;
  gboolean valid;

  if (size < 1)
    return 0;
  app = (data[0] & 1) ? GST_SESSION_APP_DIRECTOR : GST_SESSION_APP_WORLD;
  direction = (data[0] & 2) ? GST_SESSION_DIRECTION_SERVICE :
      GST_SESSION_DIRECTION_CLIENT;
  length = size - 1;
  text = fuzz_dup (data + 1, length);

  msg = gst_session_message_parse (app, direction, text, length, &error);
  fuzz_assert ((msg == NULL) == (error != NULL), "error set iff no message");
  g_clear_error (&error);

  valid = gst_session_message_validate_json (app, direction, text, length,
      NULL);
  fuzz_assert (valid == (msg && gst_session_message_is_known (msg)),
      "validate_json and parse disagree");

  if (msg) {
    const GstStructure *s = gst_session_message_get_structure (msg);

    fuzz_assert (s != NULL, "a message has a structure");
    /* as GST_PTR_FORMAT, gst-launch -m and applications print it */
    json = gst_structure_to_string (s);
    fuzz_assert (g_utf8_validate (json, -1, NULL), "printed, not UTF-8");
    g_free (json);
    json = gst_session_message_to_json (msg);
    again = gst_session_message_parse (app, direction, json, -1, &error);
    fuzz_assert (again != NULL, "its JSON %s does not parse again: %s", json,
        error ? error->message : "");
    fuzz_assert (strcmp (gst_session_message_get_type_name (again),
            gst_session_message_get_type_name (msg)) == 0, "type changed");
    gst_session_message_unref (again);
    g_free (json);

    if (gst_session_message_is_known (msg)) {
      gchar *built = gst_session_message_build (app, direction, s, &error);

      fuzz_assert (built != NULL, "%" GST_PTR_FORMAT " is not rebuilt: %s",
          s, error ? error->message : "");
      g_free (built);
    }
    gst_session_message_unref (msg);
  }

  free (text);
  return 0;
}
