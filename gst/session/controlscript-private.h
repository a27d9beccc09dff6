/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What controlscript.c (the script) and controlscript-parser.c (its text)
 * share, inside libgstsession only. */

#ifndef __GST_SESSION_CONTROLSCRIPT_PRIVATE_H__
#define __GST_SESSION_CONTROLSCRIPT_PRIVATE_H__

#include "controlscript.h"

G_BEGIN_DECLS

struct _GstSessionControlScript
{
  gint refcount;
  GstSessionApp app;
  GArray *actions;              /* of GstSessionControlAction, time order */
};

/* Parses and validates @text (@length bytes) as a script of @app; @source
 * ("control-script" or "control-script PATH") starts every error text. */
G_GNUC_INTERNAL
GstSessionControlScript *control_script_parse_text (GstSessionApp app,
    const gchar * source, const gchar * text, gsize length, GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_CONTROLSCRIPT_PRIVATE_H__ */
