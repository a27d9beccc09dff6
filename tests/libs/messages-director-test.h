/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the messages-director test programs share: messages (their JSON
 * written with single quotes, made real by sq()) that must be accepted or
 * refused, the typed fields of a parsed message, and an error message. */

#ifndef __MESSAGES_DIRECTOR_TEST_H__
#define __MESSAGES_DIRECTOR_TEST_H__

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>

#define APP GST_SESSION_APP_DIRECTOR
#define CLIENT GST_SESSION_DIRECTION_CLIENT
#define SERVICE GST_SESSION_DIRECTION_SERVICE

GstSessionMessage *accept_json (GstSessionDirection dir, const gchar * json);

GstSessionMessage *accept_sq (GstSessionDirection dir, const gchar * text);

void accept_only (GstSessionDirection dir, const gchar * text);

void refuse_json (GstSessionDirection dir, const gchar * json,
    const gchar * type, const gchar * pointer, const gchar * limit);

void refuse_sq (GstSessionDirection dir, const gchar * text,
    const gchar * type, const gchar * pointer, const gchar * limit);

const GValue *field (const GstStructure * s, const gchar * name, GType type);

void assert_int (const GstStructure * s, const gchar * name, gint64 expected);

void assert_double (const GstStructure * s, const gchar * name,
    gdouble expected);

void assert_string (const GstStructure * s, const gchar * name,
    const gchar * expected);

void assert_null (const GstStructure * s, const gchar * name);

void assert_json (const GstStructure * s, const gchar * name,
    const gchar * expected);

void assert_bool (const GstStructure * s, const gchar * name,
    gboolean expected);

const GstStructure *assert_object (const GstStructure * s,
    const gchar * name);

gchar *repeat (gsize n);

extern const gchar error_example[];

#endif
