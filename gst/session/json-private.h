/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * JSON helpers shared by the library's parsers.
 */

#ifndef __GST_SESSION_JSON_PRIVATE_H__
#define __GST_SESSION_JSON_PRIVATE_H__

#include <gst/gst.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @node as compact JSON text that is JSON: json_to_string() without the
 * ".0" json-glib 1.6 appends after an exponent (1e+78.0). */
G_GNUC_INTERNAL
gchar *json_compact_text (JsonNode * node);

/* Sets the string field @field of @s to @object as compact JSON text, and
 * takes @object: how names a sender chose are kept without becoming
 * GStreamer names. */
G_GNUC_INTERNAL
void json_take_object_as_field (GstStructure * s, const gchar * field,
    JsonObject * object);

G_END_DECLS

#endif
