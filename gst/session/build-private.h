/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_BUILD_PRIVATE_H__
#define __GST_SESSION_BUILD_PRIVATE_H__

#include "message.h"

G_BEGIN_DECLS

/* Builds the client message @s of @app (taking @s) into JSON text. */
static inline gchar *
build_and_free (GstSessionApp app, GstStructure * s, GError ** error)
{
  gchar *text = gst_session_message_build (app, GST_SESSION_DIRECTION_CLIENT,
      s, error);

  gst_structure_free (s);
  return text;
}

G_END_DECLS

#endif
