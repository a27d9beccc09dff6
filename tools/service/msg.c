/* gst-session-service: helpers to fill message structures
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "msg.h"

void
svc_msg_set_null (GstStructure * s, const gchar * field)
{
  gst_structure_set (s, field, G_TYPE_STRING, NULL, NULL);
}

void
svc_msg_take_value (GstStructure * s, const gchar * field, GValue * value)
{
  gst_structure_take_value (s, field, value);
}

/* Initialises @value to an array of the strings of @strv */
void
svc_msg_value_init_strv (GValue * value, const gchar * const *strv)
{
  guint i;

  g_value_init (value, GST_TYPE_ARRAY);
  for (i = 0; strv && strv[i]; i++) {
    GValue item = G_VALUE_INIT;

    g_value_init (&item, G_TYPE_STRING);
    g_value_set_string (&item, strv[i]);
    gst_value_array_append_and_take_value (value, &item);
  }
}

void
svc_msg_set_strv (GstStructure * s, const gchar * field,
    const gchar * const *strv)
{
  GValue array = G_VALUE_INIT;

  svc_msg_value_init_strv (&array, strv);
  gst_structure_take_value (s, field, &array);
}

void
svc_msg_take_structure (GstStructure * s, const gchar * field,
    GstStructure * value)
{
  GValue v = G_VALUE_INIT;

  g_value_init (&v, GST_TYPE_STRUCTURE);
  g_value_take_boxed (&v, value);
  gst_structure_take_value (s, field, &v);
}

/* an array of objects; @values (of GstStructure, consumed) */
void
svc_msg_take_structures (GstStructure * s, const gchar * field,
    GPtrArray * values)
{
  GValue array = G_VALUE_INIT;
  guint i;

  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < values->len; i++) {
    GValue item = G_VALUE_INIT;

    g_value_init (&item, GST_TYPE_STRUCTURE);
    g_value_take_boxed (&item, g_ptr_array_index (values, i));
    gst_value_array_append_and_take_value (&array, &item);
  }
  g_ptr_array_free (values, TRUE);
  gst_structure_take_value (s, field, &array);
}

/* The strings of an array field, or NULL when absent or null */
gchar **
svc_msg_get_strv (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);
  GPtrArray *out;
  guint i, n;

  if (!v || !GST_VALUE_HOLDS_ARRAY (v))
    return NULL;
  n = gst_value_array_get_size (v);
  out = g_ptr_array_new ();
  for (i = 0; i < n; i++) {
    const GValue *item = gst_value_array_get_value (v, i);

    if (G_VALUE_HOLDS_STRING (item) && g_value_get_string (item))
      g_ptr_array_add (out, g_value_dup_string (item));
  }
  g_ptr_array_add (out, NULL);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

/* A number field whatever its integer or floating type; FALSE when absent
 * or null. */
gboolean
svc_msg_get_number (const GstStructure * s, const gchar * field,
    gdouble * value)
{
  const GValue *v = gst_structure_get_value (s, field);

  if (!v)
    return FALSE;
  if (G_VALUE_HOLDS_DOUBLE (v))
    *value = g_value_get_double (v);
  else if (G_VALUE_HOLDS_INT64 (v))
    *value = g_value_get_int64 (v);
  else if (G_VALUE_HOLDS_INT (v))
    *value = g_value_get_int (v);
  else
    return FALSE;
  return TRUE;
}
