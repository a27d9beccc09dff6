/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionmessage
 * @title: GstSessionMessage
 * @short_description: control messages of the world and director sessions
 *
 * Parses, validates and builds the JSON control messages of spec 000. Every
 * field rule of the contract is enforced in both directions; a violation is
 * a #GError of domain %GST_SESSION_ERROR whose text names the message type,
 * the field as a JSON pointer, the rule and its limit, for example
 * `commands: /active has 9 items, at most 8 allowed`.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "json-private.h"
#include "message.h"
#include "schema-private.h"
#include "session-private.h"
#include "sessioninit.h"

struct _GstSessionMessage
{
  gint refcount;
  GstSessionApp app;
  GstSessionDirection direction;
  const SchemaMessage *schema;  /* NULL for a type the contract lacks */
  gchar *type;
  JsonNode *root;
  GstStructure *structure;
};

G_DEFINE_BOXED_TYPE (GstSessionMessage, gst_session_message,
    gst_session_message_ref, gst_session_message_unref);

/**
 * gst_session_app_get_name:
 * @app: an application
 *
 * Returns: "world" or "director".
 */
const gchar *
gst_session_app_get_name (GstSessionApp app)
{
  return app == GST_SESSION_APP_WORLD ? "world" : "director";
}

/**
 * gst_session_message_types:
 * @app: an application
 * @direction: who sends
 *
 * Returns: (transfer none) (array zero-terminated=1): the message types the
 * contract defines for @app in @direction, in the order of the spec.
 */
const gchar *const *
gst_session_message_types (GstSessionApp app, GstSessionDirection direction)
{
  return schema_type_names (app, direction);
}

static GstSessionMessage *
message_new (GstSessionApp app, GstSessionDirection direction,
    const SchemaMessage * schema, const gchar * type, JsonNode * root,
    GError ** error)
{
  GstSessionMessage *msg;
  GstStructure *s;

  /* the structure's name is a known type, which needs no "type" field; an
   * unknown type is not made a name (names are kept for the life of the
   * process): it goes in a field, before the other fields */
  s = schema_object_to_structure (type, schema ? type :
      GST_SESSION_MESSAGE_UNKNOWN_TYPE, schema ? schema->object : NULL,
      json_node_get_object (root), error);
  if (s == NULL)
    return NULL;
  if (schema == NULL) {
    GstStructure *unknown = gst_structure_new (GST_SESSION_MESSAGE_UNKNOWN_TYPE,
        "type", G_TYPE_STRING, type, NULL);
    const GValue *other = gst_structure_get_value (s,
        GST_SESSION_MESSAGE_OTHER_FIELDS);

    if (other)
      gst_structure_set_value (unknown, GST_SESSION_MESSAGE_OTHER_FIELDS,
          other);
    gst_structure_free (s);
    s = unknown;
  }

  msg = g_new0 (GstSessionMessage, 1);
  msg->refcount = 1;
  msg->app = app;
  msg->direction = direction;
  msg->schema = schema;
  msg->type = g_strdup (type);
  msg->root = json_node_ref (root);
  msg->structure = s;
  return msg;
}

static const gchar *
direction_name (GstSessionDirection direction)
{
  return direction == GST_SESSION_DIRECTION_CLIENT ? "client" : "service";
}

/* Reads "type" and finds its rules; a missing or non-string type is an
 * error, an unknown one is not (schema set to NULL). */
static gboolean
lookup_type (GstSessionApp app, GstSessionDirection direction,
    JsonObject * object, const gchar ** type, const SchemaMessage ** schema,
    GError ** error)
{
  JsonNode *node = json_object_get_member (object, "type");

  if (node == NULL) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE, "message: /type is required");
    return FALSE;
  }
  if (!JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE, "message: /type must be a string");
    return FALSE;
  }
  *type = json_node_get_string (node);
  if ((*type)[0] == '\0') {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE, "message: /type is empty");
    return FALSE;
  }
  /* json-glib passes a lone surrogate escape on as bytes that are not
   * UTF-8 (the text was UTF-8) */
  if (!g_utf8_validate (*type, -1, NULL)) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE, "message: /type is not valid UTF-8");
    return FALSE;
  }
  *schema = schema_lookup (app, direction, *type);
  return TRUE;
}

static JsonNode *
parse_text (const gchar * text, gssize length, GError ** error)
{
  JsonParser *parser;
  JsonNode *root;
  GError *err = NULL;
  gsize len;

  if (text == NULL) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_JSON, "message: no text");
    return NULL;
  }
  len = length < 0 ? strlen (text) : (gsize) length;
  if (!schema_check_text (text, len, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, text, len, &err)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "message: not JSON: %s", err->message);
    g_clear_error (&err);
    g_object_unref (parser);
    return NULL;
  }
  root = json_parser_steal_root (parser);
  g_object_unref (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_JSON, "message: not a JSON object");
    if (root)
      json_node_unref (root);
    return NULL;
  }
  return root;
}

/**
 * gst_session_message_parse:
 * @app: the application of the session
 * @direction: who sent @text
 * @text: (array length=length) (element-type guint8): JSON text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @error: return location for a #GError
 *
 * Parses and validates one control message. A message of a type the
 * contract does not define for @app and @direction is returned unvalidated
 * (gst_session_message_is_known() is %FALSE): newer peers must not break
 * older ones. A message of a known type that breaks a rule is an error of
 * code %GST_SESSION_ERROR_INVALID_MESSAGE; text that is not a JSON object,
 * not UTF-8, larger than %GST_SESSION_MESSAGE_MAX_SIZE or nested deeper
 * than %GST_SESSION_MESSAGE_MAX_DEPTH is %GST_SESSION_ERROR_INVALID_JSON.
 *
 * Returns: (transfer full) (nullable): the message, or %NULL on error.
 */
GstSessionMessage *
gst_session_message_parse (GstSessionApp app, GstSessionDirection direction,
    const gchar * text, gssize length, GError ** error)
{
  GstSessionMessage *msg = NULL;
  const SchemaMessage *schema = NULL;
  const gchar *type;
  JsonNode *root;

  gst_session_init ();
  root = parse_text (text, length, error);
  if (root == NULL)
    return NULL;

  if (lookup_type (app, direction, json_node_get_object (root), &type,
          &schema, error)) {
    if (schema == NULL)
      GST_LOG ("%s %s message of unknown type \"%s\"",
          gst_session_app_get_name (app), direction_name (direction), type);
    if (schema == NULL
        || schema_validate (schema, json_node_get_object (root), error))
      msg = message_new (app, direction, schema, type, root, error);
  }
  json_node_unref (root);
  return msg;
}

/**
 * gst_session_message_validate_json:
 * @app: the application of the session
 * @direction: who sends @text
 * @text: (array length=length) (element-type guint8): JSON text
 * @length: length of @text in bytes, or -1 if it is NUL-terminated
 * @error: return location for a #GError
 *
 * Like gst_session_message_parse(), but only says whether @text is valid,
 * and also refuses a type the contract does not define
 * (%GST_SESSION_ERROR_UNKNOWN_TYPE).
 *
 * Returns: %TRUE when @text is a valid message.
 */
gboolean
gst_session_message_validate_json (GstSessionApp app,
    GstSessionDirection direction, const gchar * text, gssize length,
    GError ** error)
{
  GstSessionMessage *msg;
  gboolean known;

  msg = gst_session_message_parse (app, direction, text, length, error);
  if (msg == NULL)
    return FALSE;
  known = msg->schema != NULL;
  if (!known)
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_UNKNOWN_TYPE,
        "%s: not a %s message of the %s session", msg->type,
        direction_name (direction), gst_session_app_get_name (app));
  gst_session_message_unref (msg);
  return known;
}

/**
 * gst_session_message_new_from_structure:
 * @app: the application of the session
 * @direction: who sends the message
 * @fields: the message: its name is the `type`, its fields the fields
 * @error: return location for a #GError
 *
 * Builds and validates a message from a #GstStructure (see
 * #GstSessionMessage for how values map to JSON; a %NULL string is JSON
 * null). The type must be one the contract defines for @app and
 * @direction (%GST_SESSION_ERROR_UNKNOWN_TYPE otherwise). What parsing
 * keeps as JSON text is read back, so that the structure of a parsed
 * message builds again: the members in %GST_SESSION_MESSAGE_OTHER_FIELDS
 * go back in their object, and a string where the contract allows only an
 * object (a map) is the object it holds.
 *
 * Returns: (transfer full) (nullable): the message, or %NULL on error.
 */
GstSessionMessage *
gst_session_message_new_from_structure (GstSessionApp app,
    GstSessionDirection direction, const GstStructure * fields, GError ** error)
{
  const SchemaMessage *schema;
  GstSessionMessage *msg = NULL;
  const gchar *type;
  JsonNode *root;

  g_return_val_if_fail (fields != NULL, NULL);
  gst_session_init ();

  type = gst_structure_get_name (fields);
  schema = schema_lookup (app, direction, type);
  if (schema == NULL) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_UNKNOWN_TYPE,
        "%s: not a %s message of the %s session", type,
        direction_name (direction), gst_session_app_get_name (app));
    return NULL;
  }
  root = schema_structure_to_json (fields, error);
  if (root == NULL)
    return NULL;
  schema_expand_text (schema, json_node_get_object (root));
  if (schema_validate (schema, json_node_get_object (root), error))
    msg = message_new (app, direction, schema, type, root, error);
  json_node_unref (root);
  return msg;
}

/**
 * gst_session_message_build:
 * @app: the application of the session
 * @direction: who sends the message
 * @fields: the message: its name is the `type`, its fields the fields
 * @error: return location for a #GError
 *
 * Validates the message described by @fields and returns its JSON text,
 * ready to send. Nothing is returned (and nothing must be sent) when a rule
 * is broken.
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_message_build (GstSessionApp app, GstSessionDirection direction,
    const GstStructure * fields, GError ** error)
{
  GstSessionMessage *msg;
  gchar *text;

  msg = gst_session_message_new_from_structure (app, direction, fields, error);
  if (msg == NULL)
    return NULL;
  text = gst_session_message_to_json (msg);
  gst_session_message_unref (msg);
  return text;
}

/**
 * gst_session_message_ref:
 * @message: a message
 *
 * Returns: (transfer full): @message
 */
GstSessionMessage *
gst_session_message_ref (GstSessionMessage * message)
{
  g_return_val_if_fail (message != NULL, NULL);
  g_atomic_int_inc (&message->refcount);
  return message;
}

/**
 * gst_session_message_unref:
 * @message: (transfer full): a message
 */
void
gst_session_message_unref (GstSessionMessage * message)
{
  g_return_if_fail (message != NULL);
  if (!g_atomic_int_dec_and_test (&message->refcount))
    return;
  g_free (message->type);
  json_node_unref (message->root);
  gst_structure_free (message->structure);
  g_free (message);
}

/**
 * gst_session_message_get_app:
 * @message: a message
 *
 * Returns: the application the message belongs to.
 */
GstSessionApp
gst_session_message_get_app (const GstSessionMessage * message)
{
  return message->app;
}

/**
 * gst_session_message_get_direction:
 * @message: a message
 *
 * Returns: who sends the message.
 */
GstSessionDirection
gst_session_message_get_direction (const GstSessionMessage * message)
{
  return message->direction;
}

/**
 * gst_session_message_get_type_name:
 * @message: a message
 *
 * Returns: the message's `type`.
 */
const gchar *
gst_session_message_get_type_name (const GstSessionMessage * message)
{
  return message->type;
}

/**
 * gst_session_message_is_known:
 * @message: a message
 *
 * Returns: %TRUE when the contract defines the message's type (it was then
 * validated), %FALSE for a type from a newer peer.
 */
gboolean
gst_session_message_is_known (const GstSessionMessage * message)
{
  return message->schema != NULL;
}

/**
 * gst_session_message_get_structure:
 * @message: a message
 *
 * The fields of the message, with the contract's defaults filled in. The
 * structure's name is the type. Only names the contract defines become
 * names of the structure and its fields: members it does not define are in
 * the string field %GST_SESSION_MESSAGE_OTHER_FIELDS (JSON text), maps and
 * objects the contract does not describe are strings of their JSON text,
 * and a message of an unknown type is named
 * %GST_SESSION_MESSAGE_UNKNOWN_TYPE, with its type in a `type` field.
 *
 * Returns: (transfer none): the fields.
 */
const GstStructure *
gst_session_message_get_structure (const GstSessionMessage * message)
{
  return message->structure;
}

/**
 * gst_session_message_to_json:
 * @message: a message
 *
 * Returns: (transfer full): the message as compact JSON text, `type` first.
 * Defaults filled in on parse are not added.
 */
gchar *
gst_session_message_to_json (const GstSessionMessage * message)
{
  return json_compact_text (message->root);
}

/**
 * gst_session_message_take_other_fields:
 * @structure: a structure being built from a JSON object
 * @other: (transfer full): the object's members that have no field of
 *   their own
 *
 * Stores @other as compact JSON text in the field
 * %GST_SESSION_MESSAGE_OTHER_FIELDS of @structure: what a message (or an
 * error body) carries beyond what the contract names is kept, as text, so
 * that GStreamer does not intern names a peer chose.
 */
void
gst_session_message_take_other_fields (GstStructure * structure,
    JsonObject * other)
{
  g_return_if_fail (structure != NULL);
  g_return_if_fail (other != NULL);

  json_take_object_as_field (structure, GST_SESSION_MESSAGE_OTHER_FIELDS,
      other);
}
