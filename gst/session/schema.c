/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one validator of the contract tables (schema-world.c,
 * schema-director.c), and the conversions between JSON and GstStructure
 * that use them. Error texts name the message type, the field as a JSON
 * pointer, the rule and its limit:
 *   commands: /active has 9 items, at most 8 allowed
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "json-private.h"
#include "jsongate.h"
#include "schema-private.h"
#include "sessionerror.h"

/* integers beyond this lose precision as JSON numbers in most peers */
#define SAFE_INTEGER 9007199254740991.0

/* how much of an offending value an error text quotes */
#define QUOTE_MAX 40

typedef struct
{
  const gchar *type;            /* the message type, first word of errors */
  GString *path;                /* JSON pointer of the value at hand */
  GError **error;
} Walk;

static const SchemaMessage *
table_for (GstSessionApp app, GstSessionDirection direction)
{
  if (app == GST_SESSION_APP_WORLD)
    return direction == GST_SESSION_DIRECTION_CLIENT ?
        schema_world_client : schema_world_service;
  return direction == GST_SESSION_DIRECTION_CLIENT ?
      schema_director_client : schema_director_service;
}

const SchemaMessage *
schema_lookup (GstSessionApp app, GstSessionDirection direction,
    const gchar * type)
{
  const SchemaMessage *m;

  if (type == NULL)
    return NULL;
  for (m = table_for (app, direction); m->type; m++) {
    if (strcmp (m->type, type) == 0)
      return m;
  }
  return NULL;
}

const gchar *const *
schema_type_names (GstSessionApp app, GstSessionDirection direction)
{
  static const gchar **names[2][2];
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    gint a, d;

    for (a = 0; a < 2; a++) {
      for (d = 0; d < 2; d++) {
        const SchemaMessage *m, *table = table_for (a, d);
        guint n = 0;

        for (m = table; m->type; m++)
          n++;
        names[a][d] = g_new0 (const gchar *, n + 1);
        for (n = 0, m = table; m->type; m++, n++)
          names[a][d][n] = m->type;
      }
    }
    g_once_init_leave (&done, 1);
  }
  return (const gchar * const *) names[app != GST_SESSION_APP_WORLD]
      [direction != GST_SESSION_DIRECTION_CLIENT];
}

/* ---- error texts ---- */

static gchar *
quote_string (const gchar * s)
{
  GString *out = g_string_new ("\"");
  glong n = 0;
  const gchar *p;

  for (p = s; *p && n < QUOTE_MAX; p = g_utf8_next_char (p), n++) {
    gunichar c = g_utf8_get_char (p);

    if (c == '"' || c == '\\')
      g_string_append_printf (out, "\\%c", (gchar) c);
    else if (c < 0x20)
      g_string_append_printf (out, "\\u%04x", c);
    else
      g_string_append_unichar (out, c);
  }
  if (*p)
    g_string_append (out, "...");
  g_string_append_c (out, '"');
  return g_string_free (out, FALSE);
}

static gchar *
format_number (gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (v == floor (v) && fabs (v) < 1e15)
    return g_strdup_printf ("%" G_GINT64_FORMAT, (gint64) v);
  return g_strdup (g_ascii_formatd (buf, sizeof (buf), "%.6g", v));
}

static gchar *
describe (JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_NULL:
      return g_strdup ("null");
    case JSON_NODE_ARRAY:
      return g_strdup ("an array");
    case JSON_NODE_OBJECT:
      return g_strdup ("an object");
    case JSON_NODE_VALUE:
      break;
  }
  switch (json_node_get_value_type (node)) {
    case G_TYPE_STRING:{
      gchar *q = quote_string (json_node_get_string (node));
      gchar *d = g_strdup_printf ("string %s", q);

      g_free (q);
      return d;
    }
    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (node) ? "true" : "false");
    case G_TYPE_INT64:
      return g_strdup_printf ("integer %" G_GINT64_FORMAT,
          json_node_get_int (node));
    default:{
      gchar *n = format_number (json_node_get_double (node));
      gchar *d = g_strdup_printf ("number %s", n);

      g_free (n);
      return d;
    }
  }
}

static gchar *
describe_types (guint types)
{
  static const struct
  {
    guint type;
    const gchar *name;
  } names[] = {
    {SCHEMA_STRING, "a string"},
    {SCHEMA_INTEGER, "an integer"},
    {SCHEMA_NUMBER, "a number"},
    {SCHEMA_BOOLEAN, "a boolean"},
    {SCHEMA_ARRAY, "an array"},
    {SCHEMA_OBJECT, "an object"},
    {SCHEMA_NULL, "null"},
  };
  GString *out = g_string_new (NULL);
  guint i, n = 0, total = 0;

  if (types & SCHEMA_NUMBER)
    types &= ~SCHEMA_INTEGER;
  for (i = 0; i < G_N_ELEMENTS (names); i++)
    total += (types & names[i].type) ? 1 : 0;
  for (i = 0; i < G_N_ELEMENTS (names); i++) {
    if (!(types & names[i].type))
      continue;
    if (n > 0)
      g_string_append (out, n + 1 == total ? " or " : ", ");
    g_string_append (out, names[i].name);
    n++;
  }
  return g_string_free (out, FALSE);
}

static gchar *
describe_values (const gchar * const *values)
{
  GString *out = g_string_new (NULL);
  guint i;

  for (i = 0; values[i]; i++)
    g_string_append_printf (out, "%s\"%s\"", i ? ", " : "", values[i]);
  return g_string_free (out, FALSE);
}

static gboolean
fail (Walk * w, const gchar * format, ...)
G_GNUC_PRINTF (2, 3);

     static gboolean fail (Walk * w, const gchar * format, ...)
{
  va_list args;
  gchar *what;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (w->error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
      "%s: %s %s", w->type, w->path->len ? w->path->str : "/", what);
  g_free (what);
  return FALSE;
}

static void
path_push_key (GString * path, const gchar * key)
{
  const gchar *p;

  g_string_append_c (path, '/');
  for (p = key; *p; p++) {
    if (*p == '~')
      g_string_append (path, "~0");
    else if (*p == '/')
      g_string_append (path, "~1");
    else
      g_string_append_c (path, *p);
  }
}

/* ---- the validator ---- */

static gboolean validate_node (Walk * w, const SchemaNode * rule,
    JsonNode * node);

static guint
json_type_of (JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_NULL:
      return SCHEMA_NULL;
    case JSON_NODE_ARRAY:
      return SCHEMA_ARRAY;
    case JSON_NODE_OBJECT:
      return SCHEMA_OBJECT;
    case JSON_NODE_VALUE:
      break;
  }
  switch (json_node_get_value_type (node)) {
    case G_TYPE_STRING:
      return SCHEMA_STRING;
    case G_TYPE_BOOLEAN:
      return SCHEMA_BOOLEAN;
    case G_TYPE_INT64:
      return SCHEMA_INTEGER | SCHEMA_NUMBER;
    default:{
      gdouble v = json_node_get_double (node);

      /* JSON Schema: an integer is a number with no fraction (1.0 is one) */
      if (v == floor (v) && fabs (v) <= SAFE_INTEGER)
        return SCHEMA_INTEGER | SCHEMA_NUMBER;
      return SCHEMA_NUMBER;
    }
  }
}

static gboolean
check_type (Walk * w, const SchemaNode * rule, JsonNode * node)
{
  guint have = json_type_of (node);
  gchar *want, *got;

  if (have & rule->types) {
    /* an integral number where an integer is wanted becomes an integer */
    if ((rule->types & SCHEMA_INTEGER) && !(rule->types & SCHEMA_NUMBER) &&
        JSON_NODE_HOLDS_VALUE (node) &&
        json_node_get_value_type (node) == G_TYPE_DOUBLE)
      json_node_set_int (node, (gint64) json_node_get_double (node));
    return TRUE;
  }
  want = describe_types (rule->types);
  got = describe (node);
  fail (w, "must be %s, not %s", want, got);
  g_free (want);
  g_free (got);
  return FALSE;
}

static gboolean
check_string (Walk * w, const SchemaNode * rule, const gchar * s)
{
  glong n;

  if (!g_utf8_validate (s, -1, NULL))
    return fail (w, "is not valid UTF-8");
  n = g_utf8_strlen (s, -1);
  if (rule->max_length && n > (glong) rule->max_length)
    return fail (w, "has %ld characters, at most %u allowed", n,
        rule->max_length);
  if (rule->min_length && n < (glong) rule->min_length)
    return fail (w, "has %ld characters, at least %u required", n,
        rule->min_length);
  if (rule->values && !g_strv_contains (rule->values, s)) {
    gchar *q = quote_string (s), *allowed = describe_values (rule->values);

    if (rule->values[1] == NULL)
      fail (w, "is %s, must be %s", q, allowed);
    else
      fail (w, "is %s, must be one of %s", q, allowed);
    g_free (q);
    g_free (allowed);
    return FALSE;
  }
  return TRUE;
}

static gboolean
check_number (Walk * w, const SchemaNode * rule, JsonNode * node)
{
  gdouble v = json_node_get_double (node);
  gchar *have, *limit;
  gboolean ok = TRUE;

  if (!(rule->flags & (SCHEMA_HAS_MIN | SCHEMA_HAS_MAX)))
    return TRUE;
  have = format_number (v);
  if ((rule->flags & SCHEMA_HAS_MIN) && (rule->flags & SCHEMA_HAS_MAX) &&
      rule->min == rule->max && v != rule->min) {
    limit = format_number (rule->min);
    ok = fail (w, "is %s, must be %s", have, limit);
  } else if ((rule->flags & SCHEMA_EXCLUSIVE_MIN) && v <= rule->min) {
    limit = format_number (rule->min);
    ok = fail (w, "is %s, must be greater than %s", have, limit);
  } else if ((rule->flags & SCHEMA_HAS_MIN) && v < rule->min) {
    limit = format_number (rule->min);
    ok = fail (w, "is %s, at least %s allowed", have, limit);
  } else if ((rule->flags & SCHEMA_HAS_MAX) && v > rule->max) {
    limit = format_number (rule->max);
    ok = fail (w, "is %s, at most %s allowed", have, limit);
  } else {
    limit = NULL;
  }
  g_free (have);
  g_free (limit);
  return ok;
}

/* members of one group are mutually exclusive within one array */
static gboolean
check_groups (Walk * w, const SchemaNode * rule, JsonArray * array)
{
  guint i, j, n = json_array_get_length (array);
  const gchar *const *const *g;

  for (i = 0; i < n; i++) {
    const gchar *a = json_array_get_string_element (array, i);

    for (j = 0; j < i; j++) {
      const gchar *b = json_array_get_string_element (array, j);

      if (strcmp (a, b) == 0)
        continue;
      for (g = rule->exclusive_groups; *g; g++) {
        if (g_strv_contains (*g, a) && g_strv_contains (*g, b)) {
          gsize len = w->path->len;
          gboolean r;
          gchar *members = describe_values (*g);

          g_string_append_printf (w->path, "/%u", i);
          r = fail (w, "\"%s\" conflicts with \"%s\" at %.*s/%u "
              "(mutually exclusive: %s)", a, b, (gint) len, w->path->str, j,
              members);
          g_string_truncate (w->path, len);
          g_free (members);
          return r;
        }
      }
    }
  }
  return TRUE;
}

static gboolean
check_array (Walk * w, const SchemaNode * rule, JsonArray * array)
{
  guint i, n = json_array_get_length (array);

  if (rule->max_items && n > rule->max_items)
    return fail (w, "has %u items, at most %u allowed", n, rule->max_items);
  if (rule->items) {
    for (i = 0; i < n; i++) {
      gsize len = w->path->len;

      g_string_append_printf (w->path, "/%u", i);
      if (!validate_node (w, rule->items, json_array_get_element (array, i)))
        return FALSE;
      g_string_truncate (w->path, len);
    }
  }
  if (rule->exclusive_groups)
    return check_groups (w, rule, array);
  return TRUE;
}

static const SchemaProp *
find_prop (const SchemaObject * schema, const gchar * name)
{
  const SchemaProp *p;

  for (p = schema->props; p->name; p++) {
    if (strcmp (p->name, name) == 0)
      return p;
  }
  return NULL;
}

static gboolean
check_object (Walk * w, const SchemaObject * schema, JsonObject * object)
{
  const SchemaProp *p;
  GList *members, *l;
  gboolean ok = TRUE;

  for (p = schema->props; p->name; p++) {
    if (p->required && !json_object_has_member (object, p->name)) {
      gsize len = w->path->len;

      path_push_key (w->path, p->name);
      fail (w, "is required");
      g_string_truncate (w->path, len);
      return FALSE;
    }
  }

  members = json_object_get_members (object);
  for (l = members; l && ok; l = l->next) {
    const gchar *name = l->data;
    const SchemaNode *rule = NULL;
    gsize len = w->path->len;

    /* the message's own "type" was checked when its table was found */
    if (w->path->len == 0 && strcmp (name, "type") == 0)
      continue;

    p = find_prop (schema, name);
    if (p)
      rule = p->node;
    else if (schema->extra == SCHEMA_EXTRA_MAP)
      rule = schema->extra_node;

    path_push_key (w->path, name);
    if (rule)
      ok = validate_node (w, rule, json_object_get_member (object, name));
    else if (schema->extra == SCHEMA_EXTRA_FORBIDDEN)
      ok = fail (w, "is not allowed (no other properties)");
    g_string_truncate (w->path, len);
  }
  g_list_free (members);
  return ok;
}

static gboolean
validate_node (Walk * w, const SchemaNode * rule, JsonNode * node)
{
  if (!check_type (w, rule, node))
    return FALSE;

  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_NULL:
      return TRUE;
    case JSON_NODE_ARRAY:
      return check_array (w, rule, json_node_get_array (node));
    case JSON_NODE_OBJECT:
      return rule->object == NULL ||
          check_object (w, rule->object, json_node_get_object (node));
    case JSON_NODE_VALUE:
      break;
  }
  switch (json_node_get_value_type (node)) {
    case G_TYPE_STRING:
      return check_string (w, rule, json_node_get_string (node));
    case G_TYPE_INT64:
    case G_TYPE_DOUBLE:
      return check_number (w, rule, node);
    default:
      return TRUE;
  }
}

gboolean
schema_validate (const SchemaMessage * message, JsonObject * object,
    GError ** error)
{
  Walk w = { message->type, g_string_new (NULL), error };
  gboolean ok;

  ok = check_object (&w, message->object, object);
  g_string_free (w.path, TRUE);
  return ok;
}

/* Size, encoding, strictness and nesting are checked on the text by the
 * one JSON gate, before a parser builds anything from it. */
gboolean
schema_check_text (const gchar * text, gsize length, GError ** error)
{
  GError *err = NULL;

  if (gst_session_json_check (text, length, GST_SESSION_MESSAGE_MAX_SIZE,
          GST_SESSION_MESSAGE_MAX_DEPTH, &err))
    return TRUE;
  g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
      "message: %s", err->message);
  g_error_free (err);
  return FALSE;
}

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

static gboolean json_to_value (Walk * w, const gchar * name,
    const SchemaNode * rule, JsonNode * node, GValue * value);
static gboolean json_array_to_value (Walk * w, const gchar * name,
    const SchemaNode * items, JsonArray * array, GValue * value);

/* Checks a value kept as JSON text as json_to_value() checks values:
 * member names and strings are UTF-8 (json-glib passes a lone surrogate
 * escape, "\udc00", on as bytes that are not), numbers are finite
 * (json-glib reads 1e999 as infinity, which no JSON text can hold). */
static gboolean
check_raw (Walk * w, JsonNode * node)
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
          ok = fail (w, "has a member name that is not valid UTF-8");
          break;
        }
        path_push_key (w->path, l->data);
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
    return fail (w, "is not valid UTF-8");
  if (json_node_get_value_type (node) == G_TYPE_DOUBLE &&
      !isfinite (json_node_get_double (node)))
    return fail (w, "is not a finite number");
  return TRUE;
}

/* Only names of the contract become the structure's fields: GStreamer
 * interns field and structure names as quarks, kept for the life of the
 * process, so names chosen by the sender would make memory grow without
 * bound. The other members are kept, as one JSON object's text, in
 * GST_SESSION_MESSAGE_OTHER_FIELDS. A message's own "type" (at the top,
 * when @schema does not list it) is its name, not a member. */
static GstStructure *
object_to_structure (Walk * w, const gchar * name,
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

    p = schema ? find_prop (schema, key) : NULL;
    if (p == NULL && len == 0 && strcmp (key, "type") == 0)
      continue;
    path_push_key (w->path, key);
    if (!g_utf8_validate (key, -1, NULL)) {
      g_string_truncate (w->path, len);
      ok = fail (w, "has a member name that is not valid UTF-8");
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
json_array_to_value (Walk * w, const gchar * name, const SchemaNode * items,
    JsonArray * array, GValue * value)
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
json_to_value (Walk * w, const gchar * name, const SchemaNode * rule,
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
        return fail (w, "is not valid UTF-8");
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
        return fail (w, "is not a finite number");
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
  Walk w = { type, g_string_new (NULL), error };
  GstStructure *s;

  s = object_to_structure (&w, name, schema, object);
  g_string_free (w.path, TRUE);
  return s;
}

/* ---- GstStructure to JSON ---- */

static JsonNode *value_to_json (Walk * w, const GValue * value);

/* a node that owns @array (json_node_init_array would add a reference) */
static JsonNode *
take_array (JsonArray * array)
{
  JsonNode *node = json_node_alloc ();

  json_node_take_array (json_node_init (node, JSON_NODE_ARRAY), array);
  return node;
}

static JsonNode *
array_to_json (Walk * w, const GValue * value, guint n,
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
  Walk *w;
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

  path_push_key (ctx->w->path, name);
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
structure_to_object (Walk * w, const GstStructure * s, const gchar * type)
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
value_to_json (Walk * w, const GValue * value)
{
  GType t = G_VALUE_TYPE (value);
  JsonNode *node = json_node_alloc ();

  if (t == G_TYPE_STRING) {
    const gchar *s = g_value_get_string (value);

    if (s == NULL)
      return json_node_init_null (node);
    if (!g_utf8_validate (s, -1, NULL)) {
      json_node_unref (node);
      fail (w, "is not valid UTF-8");
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
      fail (w, "must be a finite number");
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
        fail (w, "is not valid UTF-8");
        return NULL;
      }
      json_array_add_string_element (array, strv[i]);
    }
    return take_array (array);
  }
  if (t == GST_TYPE_STRUCTURE && gst_value_get_structure (value))
    return structure_to_object (w, gst_value_get_structure (value), NULL);

  fail (w, "has a value of type %s, which JSON cannot carry", g_type_name (t));
  return NULL;
}

/* The structure's name is the message type; a "type" field, if any, must
 * agree with it and is not repeated. */
JsonNode *
schema_structure_to_json (const GstStructure * structure, GError ** error)
{
  const gchar *type = gst_structure_get_name (structure);
  Walk w = { type, g_string_new (NULL), error };
  JsonNode *node = NULL;
  const gchar *field_type = NULL;

  if (gst_structure_has_field_typed (structure, "type", G_TYPE_STRING))
    field_type = gst_structure_get_string (structure, "type");
  if (gst_structure_has_field (structure, "type") &&
      g_strcmp0 (field_type, type) != 0) {
    g_string_assign (w.path, "/type");
    fail (&w, "does not match the structure name \"%s\"", type);
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
    const SchemaProp *p = find_prop (schema, l->data);
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
