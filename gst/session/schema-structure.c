/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The conversions that follow the contract tables: a JSON object to a
 * GstStructure (only the contract's names become fields; the rest is kept
 * as JSON text), a GstStructure back to JSON, and what parsing kept as
 * JSON text expanded back. Errors are made as the validator's (schema.c).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "json-private.h"
#include "schema-private.h"

/* ---- JSON to GstStructure ---- */

static gboolean
valid_structure_name (const gchar * name)
{
  const gchar *p;

  if (!g_ascii_isalpha (name[0]))
    return FALSE;
  for (p = name; *p; p++) {
    if (!g_ascii_isalnum (*p) && !strchr ("/-_.:+", *p))
      return FALSE;
  }
  return TRUE;
}

static gboolean json_to_value (SchemaWalk * w, const gchar * name,
    const SchemaNode * rule, JsonNode * node, GValue * value);
static gboolean json_array_to_value (SchemaWalk * w, const gchar * name,
    const SchemaNode * items, JsonArray * array, GValue * value);

/* Checks a value kept as JSON text as json_to_value() checks values:
 * member names and strings are UTF-8 (json-glib passes a lone surrogate
 * escape, "\udc00", on as bytes that are not), numbers are finite
 * (json-glib reads 1e999 as infinity, which no JSON text can hold). */
static gboolean
check_raw (SchemaWalk * w, JsonNode * node)
{
  gboolean ok = TRUE;

  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_NULL:
      return TRUE;
    case JSON_NODE_OBJECT:{
      JsonObject *object = json_node_get_object (node);
      GList *members = json_object_get_members (object), *l;

      for (l = members; l && ok; l = l->next) {
        gsize len = w->path->len;

        if (!g_utf8_validate (l->data, -1, NULL)) {
          ok = schema_fail (w, "has a member name that is not valid UTF-8");
          break;
        }
        schema_path_push_key (w->path, l->data);
        ok = check_raw (w, json_object_get_member (object, l->data));
        g_string_truncate (w->path, len);
      }
      g_list_free (members);
      return ok;
    }
    case JSON_NODE_ARRAY:{
      JsonArray *array = json_node_get_array (node);
      guint i, n = json_array_get_length (array);

      for (i = 0; i < n && ok; i++) {
        gsize len = w->path->len;

        g_string_append_printf (w->path, "/%u", i);
        ok = check_raw (w, json_array_get_element (array, i));
        g_string_truncate (w->path, len);
      }
      return ok;
    }
    case JSON_NODE_VALUE:
      break;
  }
  if (json_node_get_value_type (node) == G_TYPE_STRING &&
      !g_utf8_validate (json_node_get_string (node), -1, NULL))
    return schema_fail (w, "is not valid UTF-8");
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE &&
      !isfinite (json_node_get_double (node)))
    return schema_fail (w, "is not a finite number");
  return TRUE;
}

/* Only names of the contract become the structure's fields: GStreamer
 * interns field and structure names as quarks, kept for the life of the
 * process, so names chosen by the sender would make memory grow without
 * bound. The other members are kept, as one JSON object's text, in
 * GST_SESSION_MESSAGE_OTHER_FIELDS. A message's own "type" (at the top,
 * when @schema does not list it) is its name, not a member. */
static GstStructure *
object_to_structure (SchemaWalk * w, const gchar * name,
    const SchemaObject * schema, JsonObject * object)
{
  GstStructure *s;
  GList *members, *l;
  const SchemaProp *p;
  JsonObject *other = NULL;

  s = gst_structure_new_empty (valid_structure_name (name) ? name : "object");
  members = json_object_get_members (object);
  for (l = members; l; l = l->next) {
    const gchar *key = l->data;
    JsonNode *node = json_object_get_member (object, key);
    GValue v = G_VALUE_INIT;
    gsize len = w->path->len;
    gboolean ok;

    p = schema ? schema_find_prop (schema, key) : NULL;
    if (p == NULL && len == 0 && strcmp (key, "type") == 0)
      continue;
    schema_path_push_key (w->path, key);
    if (!g_utf8_validate (key, -1, NULL)) {
      g_string_truncate (w->path, len);
      ok = schema_fail (w, "has a member name that is not valid UTF-8");
    } else if (p) {
      ok = json_to_value (w, p->name, p->node, node, &v);
      if (ok)
        gst_structure_take_value (s, p->name, &v);
    } else {
      ok = check_raw (w, node);
      if (ok) {
        if (other == NULL)
          other = json_object_new ();
        json_object_set_member (other, key, json_node_copy (node));
      }
    }
    g_string_truncate (w->path, len);
    if (!ok) {
      g_list_free (members);
      gst_structure_free (s);
      if (other)
        json_object_unref (other);
      return NULL;
    }
  }
  g_list_free (members);

  if (other)
    json_take_object_as_field (s, GST_SESSION_MESSAGE_OTHER_FIELDS, other);

  /* the contract's defaults for what was left out */
  for (p = schema ? schema->props : NULL; p && p->name; p++) {
    JsonNode *def;
    GValue v = G_VALUE_INIT;

    if (!p->default_json || gst_structure_has_field (s, p->name))
      continue;
    def = json_from_string (p->default_json, NULL);
    g_assert (def != NULL);
    if (json_to_value (w, p->name, p->node, def, &v))
      gst_structure_take_value (s, p->name, &v);
    json_node_unref (def);
  }
  return s;
}

/* A GstValueArray holds values of one type: integers mixed with numbers
 * become numbers, and items of other mixes (a `loc` such as ["body", 0])
 * become their JSON text. So do the items of an array holding a null:
 * GStreamer cannot print an array holding a NULL string. */
static gboolean
json_array_to_value (SchemaWalk * w, const gchar * name,
    const SchemaNode * items, JsonArray * array, GValue * value)
{
  guint i, n = json_array_get_length (array);
  GValue *tmp = g_new0 (GValue, MAX (n, 1));
  GType common = G_TYPE_INVALID;
  gboolean ok = TRUE, mixed = FALSE;

  for (i = 0; ok && i < n; i++) {
    gsize len = w->path->len;
    GType t;

    g_string_append_printf (w->path, "/%u", i);
    ok = json_to_value (w, name, items, json_array_get_element (array, i),
        &tmp[i]);
    g_string_truncate (w->path, len);
    if (!ok)
      break;
    t = G_VALUE_TYPE (&tmp[i]);
    if (JSON_NODE_HOLDS_NULL (json_array_get_element (array, i)))
      mixed = TRUE;
    if (common == G_TYPE_INVALID || common == t)
      common = t;
    else if ((common == G_TYPE_INT64 && t == G_TYPE_DOUBLE) ||
        (common == G_TYPE_DOUBLE && t == G_TYPE_INT64))
      common = G_TYPE_DOUBLE;
    else
      common = G_TYPE_STRING;
  }

  if (ok) {
    if (mixed)
      common = G_TYPE_STRING;
    gst_value_array_init (value, n);
    for (i = 0; i < n; i++) {
      GValue item = G_VALUE_INIT;
      GType t = G_VALUE_TYPE (&tmp[i]);

      g_value_init (&item, common);
      if (t == common && !mixed) {
        g_value_copy (&tmp[i], &item);
      } else if (common == G_TYPE_DOUBLE) {
        g_value_set_double (&item, (gdouble) g_value_get_int64 (&tmp[i]));
      } else {
        g_value_take_string (&item,
            json_compact_text (json_array_get_element (array, i)));
      }
      gst_value_array_append_and_take_value (value, &item);
    }
  }
  for (i = 0; i < n; i++) {
    if (G_IS_VALUE (&tmp[i]))
      g_value_unset (&tmp[i]);
  }
  g_free (tmp);
  return ok;
}

static gboolean
json_to_value (SchemaWalk * w, const gchar * name, const SchemaNode * rule,
    JsonNode * node, GValue * value)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_NULL:
      g_value_init (value, G_TYPE_STRING);
      return TRUE;
    case JSON_NODE_ARRAY:
      return json_array_to_value (w, name, rule ? rule->items : NULL,
          json_node_get_array (node), value);
    case JSON_NODE_OBJECT:{
      GstStructure *s;

      /* a map, or an object the contract does not describe: its member
       * names are the sender's, so it is kept as its JSON text */
      if (rule == NULL || rule->object == NULL ||
          rule->object->extra == SCHEMA_EXTRA_MAP) {
        if (!check_raw (w, node))
          return FALSE;
        g_value_init (value, G_TYPE_STRING);
        g_value_take_string (value, json_compact_text (node));
        return TRUE;
      }
      s = object_to_structure (w, name, rule->object,
          json_node_get_object (node));

      if (s == NULL)
        return FALSE;
      g_value_init (value, GST_TYPE_STRUCTURE);
      g_value_take_boxed (value, s);
      return TRUE;
    }
    case JSON_NODE_VALUE:
      break;
  }

  switch (json_node_get_value_type (node)) {
    case G_TYPE_STRING:{
      const gchar *str = json_node_get_string (node);

      if (!g_utf8_validate (str, -1, NULL))
        return schema_fail (w, "is not valid UTF-8");
      g_value_init (value, G_TYPE_STRING);
      g_value_set_string (value, str);
      return TRUE;
    }
    case G_TYPE_BOOLEAN:
      g_value_init (value, G_TYPE_BOOLEAN);
      g_value_set_boolean (value, json_node_get_boolean (node));
      return TRUE;
    case G_TYPE_INT64:
      /* a field whose rule is "number" reads as a double, always */
      if (rule && (rule->types & SCHEMA_NUMBER)) {
        g_value_init (value, G_TYPE_DOUBLE);
        g_value_set_double (value, json_node_get_double (node));
      } else {
        g_value_init (value, G_TYPE_INT64);
        g_value_set_int64 (value, json_node_get_int (node));
      }
      return TRUE;
    default:
      /* json-glib reads 1e999 as infinity, which no JSON text can hold */
      if (!isfinite (json_node_get_double (node)))
        return schema_fail (w, "is not a finite number");
      if (rule && (rule->types & SCHEMA_INTEGER) &&
          !(rule->types & SCHEMA_NUMBER)) {
        g_value_init (value, G_TYPE_INT64);
        g_value_set_int64 (value, (gint64) json_node_get_double (node));
      } else {
        g_value_init (value, G_TYPE_DOUBLE);
        g_value_set_double (value, json_node_get_double (node));
      }
      return TRUE;
  }
}

GstStructure *
schema_object_to_structure (const gchar * type, const gchar * name,
    const SchemaObject * schema, JsonObject * object, GError ** error)
{
  SchemaWalk w = { type, g_string_new (NULL), error };
  GstStructure *s;

  s = object_to_structure (&w, name, schema, object);
  g_string_free (w.path, TRUE);
  return s;
}

/* ---- GstStructure to JSON ---- */

static JsonNode *value_to_json (SchemaWalk * w, const GValue * value);

/* a node that owns @array (json_node_init_array would add a reference) */
static JsonNode *
take_array (JsonArray * array)
{
  JsonNode *node = json_node_alloc ();

  json_node_take_array (json_node_init (node, JSON_NODE_ARRAY), array);
  return node;
}

static JsonNode *
array_to_json (SchemaWalk * w, const GValue * value, guint n,
    const GValue * (*get) (const GValue *, guint))
{
  JsonArray *array = json_array_sized_new (n);
  guint i;

  for (i = 0; i < n; i++) {
    gsize len = w->path->len;
    JsonNode *item;

    g_string_append_printf (w->path, "/%u", i);
    item = value_to_json (w, get (value, i));
    g_string_truncate (w->path, len);
    if (item == NULL) {
      json_array_unref (array);
      return NULL;
    }
    json_array_add_element (array, item);
  }
  return take_array (array);
}

typedef struct
{
  SchemaWalk *w;
  JsonObject *object;
  gboolean ok;
} FieldsToJson;

static gboolean
field_to_json (GQuark field, const GValue * value, gpointer user_data)
{
  FieldsToJson *ctx = user_data;
  const gchar *name = g_quark_to_string (field);
  gsize len = ctx->w->path->len;
  JsonNode *node;

  schema_path_push_key (ctx->w->path, name);
  node = value_to_json (ctx->w, value);
  g_string_truncate (ctx->w->path, len);
  if (node == NULL) {
    ctx->ok = FALSE;
    return FALSE;
  }
  json_object_set_member (ctx->object, name, node);
  return TRUE;
}

static JsonNode *
structure_to_object (SchemaWalk * w, const GstStructure * s, const gchar * type)
{
  FieldsToJson ctx = { w, json_object_new (), TRUE };
  JsonNode *node;

  if (type)
    json_object_set_string_member (ctx.object, "type", type);
  gst_structure_foreach (s, field_to_json, &ctx);
  if (!ctx.ok) {
    json_object_unref (ctx.object);
    return NULL;
  }
  node = json_node_alloc ();
  json_node_take_object (json_node_init (node, JSON_NODE_OBJECT), ctx.object);
  return node;
}

static JsonNode *
value_to_json (SchemaWalk * w, const GValue * value)
{
  GType t = G_VALUE_TYPE (value);
  JsonNode *node = json_node_alloc ();

  if (t == G_TYPE_STRING) {
    const gchar *s = g_value_get_string (value);

    if (s == NULL)
      return json_node_init_null (node);
    if (!g_utf8_validate (s, -1, NULL)) {
      json_node_unref (node);
      schema_fail (w, "is not valid UTF-8");
      return NULL;
    }
    return json_node_init_string (node, s);
  }
  if (t == G_TYPE_BOOLEAN)
    return json_node_init_boolean (node, g_value_get_boolean (value));
  if (t == G_TYPE_INT)
    return json_node_init_int (node, g_value_get_int (value));
  if (t == G_TYPE_UINT)
    return json_node_init_int (node, g_value_get_uint (value));
  if (t == G_TYPE_INT64)
    return json_node_init_int (node, g_value_get_int64 (value));
  if (t == G_TYPE_LONG)
    return json_node_init_int (node, g_value_get_long (value));
  if (t == G_TYPE_UINT64 && g_value_get_uint64 (value) <= G_MAXINT64)
    return json_node_init_int (node, (gint64) g_value_get_uint64 (value));
  if (t == G_TYPE_DOUBLE || t == G_TYPE_FLOAT) {
    gdouble d = t == G_TYPE_DOUBLE ? g_value_get_double (value) :
        g_value_get_float (value);

    if (!isfinite (d)) {
      json_node_unref (node);
      schema_fail (w, "must be a finite number");
      return NULL;
    }
    return json_node_init_double (node, d);
  }
  json_node_unref (node);

  if (t == GST_TYPE_ARRAY)
    return array_to_json (w, value, gst_value_array_get_size (value),
        gst_value_array_get_value);
  if (t == GST_TYPE_LIST)
    return array_to_json (w, value, gst_value_list_get_size (value),
        gst_value_list_get_value);
  if (t == G_TYPE_STRV) {
    const gchar *const *strv = g_value_get_boxed (value);
    JsonArray *array = json_array_new ();
    guint i;

    for (i = 0; strv && strv[i]; i++) {
      if (!g_utf8_validate (strv[i], -1, NULL)) {
        json_array_unref (array);
        g_string_append_printf (w->path, "/%u", i);
        schema_fail (w, "is not valid UTF-8");
        return NULL;
      }
      json_array_add_string_element (array, strv[i]);
    }
    return take_array (array);
  }
  if (t == GST_TYPE_STRUCTURE && gst_value_get_structure (value))
    return structure_to_object (w, gst_value_get_structure (value), NULL);

  schema_fail (w, "has a value of type %s, which JSON cannot carry",
      g_type_name (t));
  return NULL;
}

/* The structure's name is the message type; a "type" field, if any, must
 * agree with it and is not repeated. */
JsonNode *
schema_structure_to_json (const GstStructure * structure, GError ** error)
{
  const gchar *type = gst_structure_get_name (structure);
  SchemaWalk w = { type, g_string_new (NULL), error };
  JsonNode *node = NULL;
  const gchar *field_type = NULL;

  if (gst_structure_has_field_typed (structure, "type", G_TYPE_STRING))
    field_type = gst_structure_get_string (structure, "type");
  if (gst_structure_has_field (structure, "type") &&
      g_strcmp0 (field_type, type) != 0) {
    g_string_assign (w.path, "/type");
    schema_fail (&w, "does not match the structure name \"%s\"", type);
  } else {
    GstStructure *copy = gst_structure_copy (structure);

    gst_structure_remove_field (copy, "type");
    node = structure_to_object (&w, copy, type);
    gst_structure_free (copy);
  }
  g_string_free (w.path, TRUE);
  return node;
}

/* ---- what parsing kept as JSON text, back to JSON ---- */

static void expand_object (const SchemaObject * schema, JsonObject * object);

/* The object @text holds (mutable: the validator may rewrite 1.0 as 1),
 * or NULL. */
static JsonNode *
parse_object_text (const gchar * text)
{
  JsonParser *parser = json_parser_new ();
  JsonNode *node = NULL;

  if (json_parser_load_from_data (parser, text, -1, NULL))
    node = json_parser_steal_root (parser);
  g_object_unref (parser);
  if (node && !JSON_NODE_HOLDS_OBJECT (node)) {
    json_node_unref (node);
    node = NULL;
  }
  return node;
}

/* @node, or what goes in its place (transfer full). json-glib 1.6 cannot
 * change the type of a node in place (json_node_init_object() on a string
 * node unrefs a stale pointer): a new node replaces it. */
static JsonNode *
expand_node (const SchemaNode * rule, JsonNode * node)
{
  /* a string where only an object is allowed: the text parsing made of a
   * map or of an object the contract does not describe */
  if (JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING &&
      (rule->types & SCHEMA_OBJECT) && !(rule->types & SCHEMA_STRING)) {
    JsonNode *parsed = parse_object_text (json_node_get_string (node));

    if (parsed)
      return parsed;
  }
  if (JSON_NODE_HOLDS_OBJECT (node) && rule->object)
    expand_object (rule->object, json_node_get_object (node));
  if (JSON_NODE_HOLDS_ARRAY (node) && rule->items) {
    JsonArray *array = json_node_get_array (node);
    guint i, n = json_array_get_length (array);
    JsonArray *copy = json_array_sized_new (n);

    for (i = 0; i < n; i++)
      json_array_add_element (copy, expand_node (rule->items,
              json_array_get_element (array, i)));
    return take_array (copy);
  }
  return json_node_ref (node);
}

static void
expand_object (const SchemaObject * schema, JsonObject * object)
{
  JsonNode *other = json_object_get_member (object,
      GST_SESSION_MESSAGE_OTHER_FIELDS);
  GList *members, *l;

  /* the members parsing gathered in other-fields go back in their place */
  if (other && JSON_NODE_HOLDS_VALUE (other) &&
      json_node_get_value_type (other) == G_TYPE_STRING) {
    JsonNode *parsed = parse_object_text (json_node_get_string (other));

    if (parsed) {
      JsonObject *o = json_node_get_object (parsed);

      json_object_remove_member (object, GST_SESSION_MESSAGE_OTHER_FIELDS);
      members = json_object_get_members (o);
      for (l = members; l; l = l->next) {
        if (!json_object_has_member (object, l->data))
          json_object_set_member (object, l->data,
              json_node_copy (json_object_get_member (o, l->data)));
      }
      g_list_free (members);
      json_node_unref (parsed);
    }
  }

  members = json_object_get_members (object);
  for (l = members; l; l = l->next) {
    const SchemaProp *p = schema_find_prop (schema, l->data);
    const SchemaNode *rule = p ? p->node :
        schema->extra == SCHEMA_EXTRA_MAP ? schema->extra_node : NULL;
    JsonNode *node = json_object_get_member (object, l->data), *expanded;

    if (rule == NULL)
      continue;
    expanded = expand_node (rule, node);
    if (expanded != node)
      json_object_set_member (object, l->data, expanded);
    else
      json_node_unref (expanded);
  }
  g_list_free (members);
}

void
schema_expand_text (const SchemaMessage * message, JsonObject * object)
{
  expand_object (message->object, object);
}
