/* gst-session-service: helpers to fill message structures
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_MSG_H__
#define __SVC_MSG_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The value mapping of gst/session/message.h: integer G_TYPE_INT64, number
 * G_TYPE_DOUBLE, null a NULL G_TYPE_STRING, array GST_TYPE_ARRAY, object
 * GST_TYPE_STRUCTURE. */

void svc_msg_set_null (GstStructure * s, const gchar * field);
void svc_msg_value_init_strv (GValue * value, const gchar * const *strv);
void svc_msg_set_strv (GstStructure * s, const gchar * field,
    const gchar * const *strv);
void svc_msg_take_structure (GstStructure * s, const gchar * field,
    GstStructure * value);
void svc_msg_take_structures (GstStructure * s, const gchar * field,
    GPtrArray * values);
void svc_msg_take_value (GstStructure * s, const gchar * field,
    GValue * value);
gchar **svc_msg_get_strv (const GstStructure * s, const gchar * field);
gboolean svc_msg_get_number (const GstStructure * s, const gchar * field,
    gdouble * value);

G_END_DECLS

#endif /* __SVC_MSG_H__ */
