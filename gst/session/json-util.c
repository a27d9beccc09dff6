/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "json-private.h"
#include "jsongate.h"

gchar *
json_compact_text (JsonNode * node)
{
  return gst_session_json_write (node, FALSE);
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
