/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "messages-world-test.h"

/* ---------------------------------------------------------------- helpers */

/* @unit repeated @n times (a newly allocated string) */
gchar *
repeat (const gchar * unit, guint n)
{
  GString *s = g_string_sized_new (strlen (unit) * n + 1);
  guint i;

  for (i = 0; i < n; i++)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* Parses @json as a world message of @dir; it must be accepted. */
GstSessionMessage *
parse_ok (GstSessionDirection dir, const gchar * json)
{
  GError *err = NULL;
  GstSessionMessage *msg;

  msg = gst_session_message_parse (GST_SESSION_APP_WORLD, dir, json, -1, &err);
  fail_unless (msg != NULL, "refused %.200s: %s", json,
      err ? err->message : "(no error)");
  fail_unless (err == NULL);
  return msg;
}

void
accept (GstSessionDirection dir, const gchar * json)
{
  GstSessionMessage *msg = parse_ok (dir, json);

  fail_unless (gst_session_message_is_known (msg), "unknown: %.200s", json);
  gst_session_message_unref (msg);
}

/* Asserts @err is set with @code and its text contains each of @needles
 * (a NULL needle is skipped); frees @err. */
void
check_error (GError * err, gint code, const gchar * what,
    const gchar * n1, const gchar * n2, const gchar * n3)
{
  const gchar *needles[] = { n1, n2, n3 };
  guint i;

  fail_unless (err != NULL, "no error for %.200s", what);
  fail_unless (err->domain == GST_SESSION_ERROR, "domain %s for %.200s",
      g_quark_to_string (err->domain), what);
  fail_unless_equals_int (err->code, code);
  for (i = 0; i < G_N_ELEMENTS (needles); i++) {
    if (needles[i])
      fail_unless (strstr (err->message, needles[i]) != NULL,
          "error \"%s\" for %.200s lacks \"%s\"", err->message, what,
          needles[i]);
  }
  g_error_free (err);
}

/* @json must be refused with @code; the error text must contain @type,
 * @pointer and @limit (each may be NULL). */
void
refuse_code (GstSessionDirection dir, const gchar * json, gint code,
    const gchar * type, const gchar * pointer, const gchar * limit)
{
  GError *err = NULL;
  GstSessionMessage *msg;

  msg = gst_session_message_parse (GST_SESSION_APP_WORLD, dir, json, -1, &err);
  fail_unless (msg == NULL, "accepted %.200s", json);
  check_error (err, code, json, type, pointer, limit);
}

void
refuse (GstSessionDirection dir, const gchar * json, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  refuse_code (dir, json, GST_SESSION_ERROR_INVALID_MESSAGE, type, pointer,
      limit);
}

/* the string field @field of a parsed message */
const gchar *
get_string (GstSessionMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_session_message_get_structure (msg);
  const GValue *v = gst_structure_get_value (s, field);

  fail_unless (v != NULL, "no field %s", field);
  fail_unless (G_VALUE_HOLDS_STRING (v), "%s is a %s", field,
      G_VALUE_TYPE_NAME (v));
  return g_value_get_string (v);
}

/* the members of a full session_info, one JSON member each */
const gchar *session_info_members[] = {
  "\"model_id\":\"world-model\"",
  "\"model_revision\":\"r1\"",
  "\"resolution\":{\"width\":1280,\"height\":704}",
  "\"frames_per_second\":16",
  "\"frames_per_block\":4",
  "\"max_blocks\":120",
  "\"key_order\":[\"forward\",\"left\",\"backward\",\"right\"]",
  "\"conflict_groups\":[[\"forward\",\"backward\"],[\"left\",\"right\"]]",
  "\"default_prompt\":\"a quiet valley\"",
  "\"presets\":[{\"name\":\"example\",\"prompt\":\"an example\"},"
      "{\"name\":\"desert-valley\",\"prompt\":\"sand and sky\"}]",
  "\"turn\":true",
  "\"turn_status\":\"ok\"",
};

/* {"type":"<type>", members...}: member @skip is left out and member
 * @swap (if not -1) is replaced by @replacement */
gchar *
json_object_of (const gchar * type, const gchar ** members, guint n,
    gint skip, gint swap, const gchar * replacement)
{
  GString *s = g_string_new (NULL);
  guint i;

  g_string_append_printf (s, "{\"type\":\"%s\"", type);
  for (i = 0; i < n; i++) {
    if ((gint) i == skip)
      continue;
    g_string_append_c (s, ',');
    g_string_append (s, (gint) i == swap ? replacement : members[i]);
  }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}
