/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * JSON helpers shared by the library's parsers.
 */

#ifndef __GST_SESSION_JSON_PRIVATE_H__
#define __GST_SESSION_JSON_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when no array or object in @text is nested deeper than @max: checked
 * on the text, before a parser (which recurses) builds anything from it. */
G_GNUC_INTERNAL
gboolean json_depth_ok (const gchar * text, gsize length, guint max);

G_END_DECLS

#endif
