/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstworldsrc.h"
#include "gstdirectorsrc.h"
#include <gst/session/teardown.h>

static gboolean
plugin_init (GstPlugin * plugin)
{
  gboolean ret = FALSE;

  /* before any DTLS element of the process initializes OpenSSL */
  gst_session_openssl_skip_exit_cleanup ();
  ret |= GST_ELEMENT_REGISTER (worldsrc, plugin);
  ret |= GST_ELEMENT_REGISTER (directorsrc, plugin);
  return ret;
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, session,
    "Realtime generative session sources (world and director)",
    plugin_init, "0.1.0", "LGPL", "gst-session", "https://gst-session.invalid")
