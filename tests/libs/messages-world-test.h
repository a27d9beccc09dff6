/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the messages-world test programs share: repeated text, messages
 * that must be accepted or refused (and the errors of refusals), a string
 * field of a parsed message, and service messages made of members. */

#ifndef __MESSAGES_WORLD_TEST_H__
#define __MESSAGES_WORLD_TEST_H__

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/message.h>
#include <gst/session/world.h>

#define CLIENT GST_SESSION_DIRECTION_CLIENT
#define SERVICE GST_SESSION_DIRECTION_SERVICE

gchar *repeat (const gchar * unit, guint n);

GstSessionMessage *parse_ok (GstSessionDirection dir, const gchar * json);

/* hidden: the C library has an accept() too, which GIO calls */
G_GNUC_INTERNAL void accept (GstSessionDirection dir, const gchar * json);

void check_error (GError * err, gint code, const gchar * what,
    const gchar * n1, const gchar * n2, const gchar * n3);

void refuse_code (GstSessionDirection dir, const gchar * json, gint code,
    const gchar * type, const gchar * pointer, const gchar * limit);

void refuse (GstSessionDirection dir, const gchar * json, const gchar * type,
    const gchar * pointer, const gchar * limit);

const gchar *get_string (GstSessionMessage * msg, const gchar * field);

/* a full session_info, one JSON member each (its size given: the checks
 * count it) */
extern const gchar *session_info_members[12];

gchar *json_object_of (const gchar * type, const gchar ** members, guint n,
    gint skip, gint swap, const gchar * replacement);

#endif
