/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_BUILD_PRIVATE_H__
#define __GST_SESSION_BUILD_PRIVATE_H__

#include "message.h"
#include "sessionerror.h"

G_BEGIN_DECLS

/* GStreamer drops a string that is not UTF-8 from a structure (with a
 * warning): refuse it first, naming the field, as the validator would. */
static inline gboolean
check_utf8 (const gchar * type, const gchar * field, const gchar * value,
    GError ** error)
{
  if (value == NULL || g_utf8_validate (value, -1, NULL))
    return TRUE;
  g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
      "%s: /%s is not valid UTF-8", type, field);
  return FALSE;
}

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
