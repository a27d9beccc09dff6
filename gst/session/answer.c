/* gst-session
 * Copyright (C) 2026 gst-session developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 *
 * The start-session answer: part of the contract (what a service answers),
 * parsed here so that the HTTP layer (gst/session/http/) needs nothing of
 * the schema's internals.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <json-glib/json-glib.h>

#include "answer.h"
#include "jsongate.h"
#include "message.h"
#include "schema-private.h"

/* An error text quotes at most this much of the answer. */
#define ERROR_TEXT_MAX 160

/* The string value of a member, or NULL (json_node_get_string() must only
 * see value nodes). */
static const gchar *
member_string (JsonObject * object, const gchar * name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* The answer's fields that become fields of its structure: other names are
 * the service's, which GStreamer would keep for the life of the process,
 * so they stay JSON text (GST_SESSION_MESSAGE_OTHER_FIELDS). */
static const SchemaNode answer_string = {.types = SCHEMA_STRING };

static const SchemaObject answer_schema = {
  .props = (const SchemaProp[]) {
        {"sdp", TRUE, &answer_string},
        {"type", TRUE, &answer_string},
        {"session_id", FALSE, &answer_string},
        {NULL}
      },
};

/**
 * gst_session_answer_parse:
 * @text: (array length=length) (element-type guint8): the answer object of
 *   a start-session response (the data of its event), UTF-8 JSON
 * @length: its length in bytes
 * @error: a #GError in the %GST_SESSION_ERROR domain
 *
 * Checks the answer through the library's one JSON gate (strict JSON,
 * size and depth), requires `"type": "answer"` and a non-empty `"sdp"`, and
 * maps it as #GstSessionMessage maps messages: `sdp`, `type` and
 * `session_id` become string fields; other members stay JSON text in the
 * field %GST_SESSION_MESSAGE_OTHER_FIELDS.
 *
 * Returns: (transfer full) (nullable): a structure named "answer", or
 *   %NULL with @error set
 */
GstStructure *
gst_session_answer_parse (const gchar * text, gsize length, GError ** error)
{
  JsonParser *parser;
  JsonNode *root;
  JsonObject *object;
  GstStructure *answer = NULL;
  const gchar *sdp, *type;
  GError *err = NULL;

  if (!g_utf8_validate_len (text, length, NULL)) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_JSON,
        "The start-session answer is not UTF-8 text");
    return NULL;
  }
  if (!gst_session_json_check (text, length, G_MAXSIZE,
          GST_SESSION_MESSAGE_MAX_DEPTH, &err)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "The start-session answer is %s", err->message);
    g_clear_error (&err);
    return NULL;
  }

  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, length, &err)) {
    /* json-glib quotes the offending token, which can be huge */
    gchar *why = g_utf8_make_valid (err->message, MIN (strlen (err->message),
            ERROR_TEXT_MAX));

    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "The start-session answer is not JSON: %s%s", why,
        strlen (err->message) > ERROR_TEXT_MAX ? "..." : "");
    g_free (why);
    g_clear_error (&err);
    goto done;
  }

  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root)) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_JSON,
        "The start-session answer is not a JSON object");
    goto done;
  }
  object = json_node_get_object (root);

  type = member_string (object, "type");
  if (g_strcmp0 (type, "answer") != 0) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE,
        "The start-session answer does not have \"type\": \"answer\"");
    goto done;
  }

  sdp = member_string (object, "sdp");
  if (sdp == NULL || *sdp == '\0') {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_MESSAGE,
        "The start-session answer has no \"sdp\" text");
    goto done;
  }

  /* JSON to GstStructure as GstSessionMessage maps it */
  answer = schema_object_to_structure ("answer", "answer", &answer_schema,
      object, error);

done:
  g_object_unref (parser);
  return answer;
}
