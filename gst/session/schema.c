/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The one validator of the contract tables (schema-world.c,
 * schema-director.c), the lookup of a message's table, and the error texts
 * it shares with the conversions between JSON and GstStructure
 * (schema-structure.c). Error texts name the message type, the field as a
 * JSON pointer, the rule and its limit:
 *   commands: /active has 9 items, at most 8 allowed
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "jsongate.h"
#include "schema-private.h"
#include "sessionerror.h"

/* integers beyond this lose precision as JSON numbers in most peers */
#define SAFE_INTEGER 9007199254740991.0

/* how much of an offending value an error text quotes */
#define QUOTE_MAX 40

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

gboolean
schema_fail (SchemaWalk * w, const gchar * format, ...)
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

void
schema_path_push_key (GString * path, const gchar * key)
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

static gboolean validate_node (SchemaWalk * w, const SchemaNode * rule,
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
check_type (SchemaWalk * w, const SchemaNode * rule, JsonNode * node)
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
  schema_fail (w, "must be %s, not %s", want, got);
  g_free (want);
  g_free (got);
  return FALSE;
}

static gboolean
check_string (SchemaWalk * w, const SchemaNode * rule, const gchar * s)
{
  glong n;

  if (!g_utf8_validate (s, -1, NULL))
    return schema_fail (w, "is not valid UTF-8");
  n = g_utf8_strlen (s, -1);
  if (rule->max_length && n > (glong) rule->max_length)
    return schema_fail (w, "has %ld characters, at most %u allowed", n,
        rule->max_length);
  if (rule->min_length && n < (glong) rule->min_length)
    return schema_fail (w, "has %ld characters, at least %u required", n,
        rule->min_length);
  if (rule->values && !g_strv_contains (rule->values, s)) {
    gchar *q = quote_string (s), *allowed = describe_values (rule->values);

    if (rule->values[1] == NULL)
      schema_fail (w, "is %s, must be %s", q, allowed);
    else
      schema_fail (w, "is %s, must be one of %s", q, allowed);
    g_free (q);
    g_free (allowed);
    return FALSE;
  }
  return TRUE;
}

static gboolean
check_number (SchemaWalk * w, const SchemaNode * rule, JsonNode * node)
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
    ok = schema_fail (w, "is %s, must be %s", have, limit);
  } else if ((rule->flags & SCHEMA_EXCLUSIVE_MIN) && v <= rule->min) {
    limit = format_number (rule->min);
    ok = schema_fail (w, "is %s, must be greater than %s", have, limit);
  } else if ((rule->flags & SCHEMA_HAS_MIN) && v < rule->min) {
    limit = format_number (rule->min);
    ok = schema_fail (w, "is %s, at least %s allowed", have, limit);
  } else if ((rule->flags & SCHEMA_HAS_MAX) && v > rule->max) {
    limit = format_number (rule->max);
    ok = schema_fail (w, "is %s, at most %s allowed", have, limit);
  } else {
    limit = NULL;
  }
  g_free (have);
  g_free (limit);
  return ok;
}

/* members of one group are mutually exclusive within one array */
static gboolean
check_groups (SchemaWalk * w, const SchemaNode * rule, JsonArray * array)
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
          r = schema_fail (w, "\"%s\" conflicts with \"%s\" at %.*s/%u "
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
check_array (SchemaWalk * w, const SchemaNode * rule, JsonArray * array)
{
  guint i, n = json_array_get_length (array);

  if (rule->max_items && n > rule->max_items)
    return schema_fail (w, "has %u items, at most %u allowed", n,
        rule->max_items);
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

const SchemaProp *
schema_find_prop (const SchemaObject * schema, const gchar * name)
{
  const SchemaProp *p;

  for (p = schema->props; p->name; p++) {
    if (strcmp (p->name, name) == 0)
      return p;
  }
  return NULL;
}

static gboolean
check_object (SchemaWalk * w, const SchemaObject * schema, JsonObject * object)
{
  const SchemaProp *p;
  GList *members, *l;
  gboolean ok = TRUE;

  for (p = schema->props; p->name; p++) {
    if (p->required && !json_object_has_member (object, p->name)) {
      gsize len = w->path->len;

      schema_path_push_key (w->path, p->name);
      schema_fail (w, "is required");
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

    p = schema_find_prop (schema, name);
    if (p)
      rule = p->node;
    else if (schema->extra == SCHEMA_EXTRA_MAP)
      rule = schema->extra_node;

    schema_path_push_key (w->path, name);
    if (rule)
      ok = validate_node (w, rule, json_object_get_member (object, name));
    else if (schema->extra == SCHEMA_EXTRA_FORBIDDEN)
      ok = schema_fail (w, "is not allowed (no other properties)");
    g_string_truncate (w->path, len);
  }
  g_list_free (members);
  return ok;
}

static gboolean
validate_node (SchemaWalk * w, const SchemaNode * rule, JsonNode * node)
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
  SchemaWalk w = { message->type, g_string_new (NULL), error };
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
