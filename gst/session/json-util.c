/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "json-private.h"

/* json-glib (1.6) appends ".0" to a double printed without a '.', even
 * after an exponent: 1e+78 comes out as "1e+78.0", which is not JSON.
 * Drops that ".0"; outside strings, an 'e' right after a digit is always
 * an exponent. */
static void
fix_exponents (gchar * text)
{
  gchar *r = text, *w = text;
  gboolean in_string = FALSE;

  while (*r) {
    gchar c = *r;

    *w++ = *r++;
    if (in_string) {
      if (c == '\\' && *r)
        *w++ = *r++;
      else if (c == '"')
        in_string = FALSE;
    } else if (c == '"') {
      in_string = TRUE;
    } else if ((c == 'e' || c == 'E') && w - 2 >= text
        && g_ascii_isdigit (w[-2])) {
      if (*r == '+' || *r == '-')
        *w++ = *r++;
      while (g_ascii_isdigit (*r))
        *w++ = *r++;
      if (r[0] == '.' && r[1] == '0' && !g_ascii_isdigit (r[2]))
        r += 2;
    }
  }
  *w = '\0';
}

gchar *
json_compact_text (JsonNode * node)
{
  gchar *text = json_to_string (node, FALSE);

  fix_exponents (text);
  return text;
}

void
json_take_object_as_field (GstStructure * s, const gchar * field,
    JsonObject * object)
{
  JsonNode *node = json_node_init_object (json_node_alloc (), object);
  GValue value = G_VALUE_INIT;

  g_value_init (&value, G_TYPE_STRING);
  g_value_take_string (&value, json_compact_text (node));
  gst_structure_take_value (s, field, &value);
  json_node_unref (node);
  json_object_unref (object);
}
