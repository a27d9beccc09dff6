/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "messages-director-test.h"

/* ---- helpers ---- */

static gchar *
sq (const gchar * text)
{
  gchar *s = g_strdup (text), *p;

  for (p = s; *p; p++) {
    if (*p == '\'')
      *p = '"';
  }
  return s;
}

/* parses real JSON text, which must be accepted as a known message */
GstSessionMessage *
accept_json (GstSessionDirection dir, const gchar * json)
{
  GError *err = NULL;
  GstSessionMessage *m;

  m = gst_session_message_parse (APP, dir, json, -1, &err);
  fail_unless (m != NULL, "refused %.200s: %s", json,
      err ? err->message : "(no error)");
  fail_unless (err == NULL);
  fail_unless (gst_session_message_is_known (m), "unknown: %.200s", json);
  return m;
}

GstSessionMessage *
accept_sq (GstSessionDirection dir, const gchar * text)
{
  gchar *json = sq (text);
  GstSessionMessage *m = accept_json (dir, json);

  g_free (json);
  return m;
}

void
accept_only (GstSessionDirection dir, const gchar * text)
{
  gst_session_message_unref (accept_sq (dir, text));
}

/* real JSON text must be refused as an invalid message whose text starts
 * with "@type: ", names @pointer and contains @limit (if not NULL) */
void
refuse_json (GstSessionDirection dir, const gchar * json, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  GError *err = NULL;
  GstSessionMessage *m;
  gchar *prefix, *where;

  m = gst_session_message_parse (APP, dir, json, -1, &err);
  if (m != NULL) {
    gchar *back = gst_session_message_to_json (m);

    fail ("accepted %.200s (as %.200s)", json, back);
    g_free (back);
  }
  fail_unless (err != NULL, "no error for %.200s", json);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE), "%.200s: wrong error %s:%d %s",
      json, g_quark_to_string (err->domain), err->code, err->message);
  prefix = g_strconcat (type, ": ", NULL);
  where = g_strconcat (" ", pointer, " ", NULL);
  fail_unless (g_str_has_prefix (err->message, prefix),
      "%.200s: \"%s\" does not start with \"%s\"", json, err->message, prefix);
  fail_unless (strstr (err->message, where) != NULL,
      "%.200s: \"%s\" does not name %s", json, err->message, pointer);
  if (limit)
    fail_unless (strstr (err->message, limit) != NULL,
        "%.200s: \"%s\" does not contain \"%s\"", json, err->message, limit);
  g_free (prefix);
  g_free (where);
  g_error_free (err);
}

void
refuse_sq (GstSessionDirection dir, const gchar * text, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  gchar *json = sq (text);

  refuse_json (dir, json, type, pointer, limit);
  g_free (json);
}

const GValue *
field (const GstStructure * s, const gchar * name, GType type)
{
  const GValue *v = gst_structure_get_value (s, name);

  fail_unless (v != NULL, "%s: no field %s", gst_structure_get_name (s), name);
  fail_unless (G_VALUE_TYPE (v) == type, "%s: %s is a %s, not a %s",
      gst_structure_get_name (s), name, G_VALUE_TYPE_NAME (v),
      g_type_name (type));
  return v;
}

void
assert_int (const GstStructure * s, const gchar * name, gint64 expected)
{
  fail_unless_equals_int64 (g_value_get_int64 (field (s, name,
              G_TYPE_INT64)), expected);
}

void
assert_double (const GstStructure * s, const gchar * name, gdouble expected)
{
  fail_unless_equals_float (g_value_get_double (field (s, name,
              G_TYPE_DOUBLE)), expected);
}

void
assert_string (const GstStructure * s, const gchar * name,
    const gchar * expected)
{
  fail_unless_equals_string (g_value_get_string (field (s, name,
              G_TYPE_STRING)), expected);
}

void
assert_null (const GstStructure * s, const gchar * name)
{
  fail_unless (g_value_get_string (field (s, name, G_TYPE_STRING)) == NULL,
      "%s: %s is not null", gst_structure_get_name (s), name);
}

/* a map, or members the contract does not name: their names are the
 * service's, so they are JSON text, not fields (GStreamer keeps every field
 * name for the life of the process) */
void
assert_json (const GstStructure * s, const gchar * name, const gchar * expected)
{
  gchar *want = g_strdup (expected);

  g_strdelimit (want, "'", '"');
  assert_string (s, name, want);
  g_free (want);
}

void
assert_bool (const GstStructure * s, const gchar * name, gboolean expected)
{
  fail_unless_equals_int (g_value_get_boolean (field (s, name,
              G_TYPE_BOOLEAN)), expected);
}

const GstStructure *
assert_object (const GstStructure * s, const gchar * name)
{
  const GstStructure *o =
      gst_value_get_structure (field (s, name, GST_TYPE_STRUCTURE));

  fail_unless (o != NULL, "%s: %s is an empty structure value",
      gst_structure_get_name (s), name);
  return o;
}

/* a string of @n copies of 'a' */
gchar *
repeat (gsize n)
{
  gchar *s = g_malloc (n + 1);

  memset (s, 'a', n);
  s[n] = '\0';
  return s;
}

/* an error of the service: its check and its round trip */
const gchar error_example[] =
    "{'type':'error','code':'stale_prompt_version',"
    "'error':'prompt_version 3 is not above 4',"
    "'detail':[{'loc':['body','prompt_version'],'msg':'stale'}],"
    "'prompt_version':3}";
