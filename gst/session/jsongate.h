/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_JSON_GATE_H__
#define __GST_SESSION_JSON_GATE_H__

#include <json-glib/json-glib.h>
#include <gst/session/session-prelude.h>

G_BEGIN_DECLS

/**
 * GST_SESSION_JSON_MAX_DEPTH_LIMIT:
 *
 * The largest nesting limit gst_session_json_check() takes.
 */
#define GST_SESSION_JSON_MAX_DEPTH_LIMIT 256

GST_SESSION_API
gboolean gst_session_json_check (const gchar * text, gsize length,
    gsize max_size, guint max_depth, GError ** error);

GST_SESSION_API
JsonNode *gst_session_json_parse (const gchar * text, gsize length,
    gsize max_size, guint max_depth, GError ** error);

GST_SESSION_API
gchar *gst_session_json_write (JsonNode * node, gboolean pretty);

G_END_DECLS

#endif /* __GST_SESSION_JSON_GATE_H__ */
