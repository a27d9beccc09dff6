/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_ELEMENT_CHECK_H__
#define __GST_SESSION_ELEMENT_CHECK_H__

#include <gst/gst.h>
#include <gst/session/session-prelude.h>

G_BEGIN_DECLS
/**
 * GstSessionElementNeed:
 * @element: a GStreamer element factory name
 * @package: the Debian package that provides it
 *
 * One element a program needs at run time, and where to get it.
 */
    typedef struct
{
  const gchar *element;
  const gchar *package;
} GstSessionElementNeed;

GST_SESSION_API
    gboolean gst_session_check_elements (const GstSessionElementNeed * needs,
    guint n_needs, GError ** error);

G_END_DECLS
#endif /* __GST_SESSION_ELEMENT_CHECK_H__ */
