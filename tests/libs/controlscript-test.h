/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the controlscript test programs share: scripts that must parse or
 * fail with a given error, an action of a script, repeated text, and two
 * whole scripts (one for each app). */

#ifndef __CONTROLSCRIPT_TEST_H__
#define __CONTROLSCRIPT_TEST_H__

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>

#define W GST_SESSION_APP_WORLD
#define D GST_SESSION_APP_DIRECTOR

#define FORWARD GST_SESSION_WORLD_COMMAND_FORWARD
#define LEFT GST_SESSION_WORLD_COMMAND_LEFT
#define BACKWARD GST_SESSION_WORLD_COMMAND_BACKWARD
#define RIGHT GST_SESSION_WORLD_COMMAND_RIGHT
#define LOOK_UP GST_SESSION_WORLD_COMMAND_LOOK_UP
#define LOOK_LEFT GST_SESSION_WORLD_COMMAND_LOOK_LEFT
#define LOOK_DOWN GST_SESSION_WORLD_COMMAND_LOOK_DOWN
#define LOOK_RIGHT GST_SESSION_WORLD_COMMAND_LOOK_RIGHT

GstSessionControlScript *parse_ok (GstSessionApp app, const gchar * text,
    gssize length);

void check_error_len (GstSessionApp app, const gchar * text, gssize length,
    const gchar * expected);

void check_error (GstSessionApp app, const gchar * text,
    const gchar * expected);

const GstSessionControlAction *action (GstSessionControlScript * script,
    guint i);

gchar *repeat (const gchar * unit, guint n);

extern const gchar world_script[];

extern const gchar director_script[];

#endif
