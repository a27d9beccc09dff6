/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_MESSAGE_H__
#define __GST_SESSION_MESSAGE_H__

#include <gst/session/session-prelude.h>
#include <gst/session/sessionerror.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * GstSessionApp:
 * @GST_SESSION_APP_WORLD: the world session (interactive generated world).
 * @GST_SESSION_APP_DIRECTOR: the director session (versioned prompts,
 *   audio and video in chunks).
 *
 * The two realtime applications of spec 000.
 */
typedef enum {
  GST_SESSION_APP_WORLD,
  GST_SESSION_APP_DIRECTOR,
} GstSessionApp;

/**
 * GstSessionDirection:
 * @GST_SESSION_DIRECTION_CLIENT: sent by the client to the service
 *   (sendControl).
 * @GST_SESSION_DIRECTION_SERVICE: sent by the service to the client
 *   (receiveEvents).
 *
 * Who sends a message on the control channel.
 */
typedef enum {
  GST_SESSION_DIRECTION_CLIENT,
  GST_SESSION_DIRECTION_SERVICE,
} GstSessionDirection;

/**
 * GST_SESSION_MESSAGE_MAX_SIZE:
 *
 * Largest control message text, in bytes, that is parsed. A director prompt
 * of 50000 characters written entirely as `\uXXXX` escapes fits.
 */
#define GST_SESSION_MESSAGE_MAX_SIZE (512 * 1024)

/**
 * GST_SESSION_MESSAGE_MAX_DEPTH:
 *
 * Deepest nesting of JSON arrays and objects in a parsed control message.
 */
#define GST_SESSION_MESSAGE_MAX_DEPTH 32

/**
 * GST_SESSION_MESSAGE_OTHER_FIELDS:
 *
 * Name of the string field that holds, as the compact JSON text of one
 * object, the members of a parsed object whose names the contract does not
 * define (unknown fields, and every field of a message of unknown type).
 * Names chosen by the sender never become #GstStructure names or field
 * names: GStreamer keeps those for the life of the process. The field is
 * absent when there are no such members. No contract name contains a `-`,
 * so it cannot clash with a field.
 */
#define GST_SESSION_MESSAGE_OTHER_FIELDS "other-fields"

/**
 * GST_SESSION_MESSAGE_UNKNOWN_TYPE:
 *
 * Name of the structure of a parsed message whose type the contract does
 * not define; its `type` field holds the type, and
 * %GST_SESSION_MESSAGE_OTHER_FIELDS its other fields.
 */
#define GST_SESSION_MESSAGE_UNKNOWN_TYPE "unknown"

/**
 * GstSessionMessage:
 *
 * One validated control message: its `type` and its fields.
 *
 * Fields are readable as a #GstStructure whose name is the message type.
 * JSON values map to GValues this way, in both directions:
 *
 * - string: %G_TYPE_STRING
 * - integer: %G_TYPE_INT64 (a field whose rule is "integer")
 * - number: %G_TYPE_DOUBLE (a field whose rule is "number", even when the
 *   JSON text has no fraction)
 * - boolean: %G_TYPE_BOOLEAN
 * - null: %G_TYPE_STRING holding %NULL
 * - array: %GST_TYPE_ARRAY
 * - object: %GST_TYPE_STRUCTURE, named after its field
 *
 * Defaults that the contract gives for absent fields are filled in on parse
 * (for example every constant of the director `session_info`).
 *
 * Messages of a `type` the contract does not define are returned as
 * unknown (gst_session_message_is_known() is %FALSE) with their fields
 * converted as above and not validated, so a newer service does not break an
 * older client.
 */
typedef struct _GstSessionMessage GstSessionMessage;

GST_SESSION_API
GType gst_session_message_get_type (void);
#define GST_SESSION_TYPE_MESSAGE (gst_session_message_get_type ())

GST_SESSION_API
GstSessionMessage * gst_session_message_parse (GstSessionApp app,
    GstSessionDirection direction, const gchar * text, gssize length,
    GError ** error);

GST_SESSION_API
GstSessionMessage * gst_session_message_new_from_structure (GstSessionApp app,
    GstSessionDirection direction, const GstStructure * fields,
    GError ** error);

GST_SESSION_API
GstSessionMessage * gst_session_message_ref (GstSessionMessage * message);

GST_SESSION_API
void gst_session_message_unref (GstSessionMessage * message);

GST_SESSION_API
GstSessionApp gst_session_message_get_app (const GstSessionMessage * message);

GST_SESSION_API
GstSessionDirection gst_session_message_get_direction (const GstSessionMessage * message);

GST_SESSION_API
void gst_session_message_take_other_fields (GstStructure * structure,
    JsonObject * other);

GST_SESSION_API
const gchar * gst_session_message_get_type_name (const GstSessionMessage * message);

GST_SESSION_API
gboolean gst_session_message_is_known (const GstSessionMessage * message);

GST_SESSION_API
const GstStructure * gst_session_message_get_structure (const GstSessionMessage * message);

GST_SESSION_API
gchar * gst_session_message_to_json (const GstSessionMessage * message);

GST_SESSION_API
gchar * gst_session_message_build (GstSessionApp app,
    GstSessionDirection direction, const GstStructure * fields,
    GError ** error);

GST_SESSION_API
gboolean gst_session_message_validate_json (GstSessionApp app,
    GstSessionDirection direction, const gchar * text, gssize length,
    GError ** error);

GST_SESSION_API
const gchar * const * gst_session_message_types (GstSessionApp app,
    GstSessionDirection direction);

GST_SESSION_API
const gchar * gst_session_app_get_name (GstSessionApp app);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionMessage, gst_session_message_unref)

G_END_DECLS

#endif /* __GST_SESSION_MESSAGE_H__ */
