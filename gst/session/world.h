/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_WORLD_H__
#define __GST_SESSION_WORLD_H__

#include <gst/session/message.h>

G_BEGIN_DECLS

/* Typed builders of the world client messages. Each validates against the
 * contract and returns the JSON text to send, or %NULL with @error set
 * (nothing is to be sent then). A %NULL string argument leaves the field
 * out (the contract's default, null, applies). */

GST_SESSION_API
gchar * gst_session_world_build_configure (const gchar * preset,
    const gchar * image_url, const gchar * prompt, GError ** error);

GST_SESSION_API
gchar * gst_session_world_build_prompt (const gchar * prompt, GError ** error);

GST_SESSION_API
gchar * gst_session_world_build_reset (const gchar * preset,
    const gchar * image_url, const gchar * prompt, GError ** error);

GST_SESSION_API
gchar * gst_session_world_build_stop (GError ** error);

GST_SESSION_API
gchar * gst_session_world_build_commands (const gchar * const * active,
    const gchar * const * activated, GError ** error);

GST_SESSION_API
gchar * gst_session_world_build_keys (const gchar * const * pressed,
    const gchar * const * activated, GError ** error);

GST_SESSION_API
gchar * gst_session_world_build_ping (gboolean has_ts, gdouble ts,
    GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_WORLD_H__ */
