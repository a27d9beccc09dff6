/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sessioninit.h"
#include "session-private.h"

GST_DEBUG_CATEGORY (gst_session_debug);

/**
 * gst_session_init:
 *
 * Initialises GStreamer (when the caller has not) and the library's debug
 * category. Safe to call more than once; called by every entry point.
 */
void
gst_session_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    /* structures, debug categories: the library works without the caller
     * having initialised GStreamer */
    if (!gst_is_initialized ())
      gst_init (NULL, NULL);
    GST_DEBUG_CATEGORY_INIT (gst_session_debug, "session", 0,
        "gst-session contract library");
    g_once_init_leave (&done, 1);
  }
}
