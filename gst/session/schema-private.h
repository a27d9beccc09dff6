/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The contract of spec 000 as data: one table entry per message, one rule per
 * field, and one validator (schema.c) that walks them. The tables live in
 * schema-world.c and schema-director.c, the conversions between JSON and
 * GstStructure that follow them in schema-structure.c.
 */

#ifndef __GST_SESSION_SCHEMA_PRIVATE_H__
#define __GST_SESSION_SCHEMA_PRIVATE_H__

#include <json-glib/json-glib.h>
#include "message.h"

G_BEGIN_DECLS

/* JSON types a value may have (a mask) */
typedef enum {
  SCHEMA_STRING = (1 << 0),
  SCHEMA_INTEGER = (1 << 1),
  SCHEMA_NUMBER = (1 << 2),     /* any number; integers included */
  SCHEMA_BOOLEAN = (1 << 3),
  SCHEMA_NULL = (1 << 4),
  SCHEMA_ARRAY = (1 << 5),
  SCHEMA_OBJECT = (1 << 6),
} SchemaType;

typedef enum {
  SCHEMA_HAS_MIN = (1 << 0),
  SCHEMA_HAS_MAX = (1 << 1),
  SCHEMA_EXCLUSIVE_MIN = (1 << 2),      /* "greater than" rather than "minimum" */
} SchemaFlags;

typedef enum {
  SCHEMA_EXTRA_ALLOWED = 0,     /* other properties pass through */
  SCHEMA_EXTRA_FORBIDDEN,       /* "no other properties are allowed" */
  SCHEMA_EXTRA_MAP,             /* a map: every property's value is extra_node */
} SchemaExtra;

typedef struct _SchemaNode SchemaNode;
typedef struct _SchemaProp SchemaProp;
typedef struct _SchemaObject SchemaObject;

struct _SchemaNode
{
  guint types;                  /* SchemaType mask */
  /* strings: lengths in Unicode characters; 0 means no limit */
  guint min_length;
  guint max_length;
  const gchar *const *values;   /* allowed values (one value: a constant) */
  /* numbers */
  guint flags;                  /* SchemaFlags */
  gdouble min;
  gdouble max;
  /* arrays: max_items 0 means no limit */
  guint max_items;
  const SchemaNode *items;
  const gchar *const *const *exclusive_groups;  /* NULL-terminated groups */
  /* objects */
  const SchemaObject *object;
};

struct _SchemaProp
{
  const gchar *name;
  gboolean required;
  const SchemaNode *node;
  const gchar *default_json;    /* filled in on parse when absent; NULL: none */
};

struct _SchemaObject
{
  const SchemaProp *props;      /* terminated by an entry with name NULL */
  SchemaExtra extra;
  const SchemaNode *extra_node; /* with SCHEMA_EXTRA_MAP */
};

typedef struct
{
  const gchar *type;
  const SchemaObject *object;
} SchemaMessage;

/* one table per app and direction, terminated by an entry with type NULL */
G_GNUC_INTERNAL extern const SchemaMessage schema_world_client[];
G_GNUC_INTERNAL extern const SchemaMessage schema_world_service[];
G_GNUC_INTERNAL extern const SchemaMessage schema_director_client[];
G_GNUC_INTERNAL extern const SchemaMessage schema_director_service[];

G_GNUC_INTERNAL
const SchemaMessage *schema_lookup (GstSessionApp app,
    GstSessionDirection direction, const gchar * type);

G_GNUC_INTERNAL
const gchar *const *schema_type_names (GstSessionApp app,
    GstSessionDirection direction);

G_GNUC_INTERNAL
gboolean schema_validate (const SchemaMessage * message, JsonObject * object,
    GError ** error);

G_GNUC_INTERNAL
gboolean schema_check_text (const gchar * text, gsize length, GError ** error);

/* schema.c: what a walk through a message shares with the conversions */
typedef struct
{
  const gchar *type;            /* the message type, first word of errors */
  GString *path;                /* JSON pointer of the value at hand */
  GError **error;
} SchemaWalk;

/* Sets the walk's error, "<type>: <pointer> <what>", and returns FALSE. */
G_GNUC_INTERNAL
gboolean schema_fail (SchemaWalk * w, const gchar * format, ...)
    G_GNUC_PRINTF (2, 3);

/* Appends @key to @path as a JSON pointer token (RFC 6901). */
G_GNUC_INTERNAL
void schema_path_push_key (GString * path, const gchar * key);

G_GNUC_INTERNAL
const SchemaProp *schema_find_prop (const SchemaObject * schema,
    const gchar * name);

/* schema-structure.c: JSON to GstStructure and back */

/* @object as a structure named @name; @type is the first word of errors */
G_GNUC_INTERNAL
GstStructure *schema_object_to_structure (const gchar * type,
    const gchar * name, const SchemaObject * schema, JsonObject * object,
    GError ** error);

G_GNUC_INTERNAL
JsonNode *schema_structure_to_json (const GstStructure * structure,
    GError ** error);

/* Undoes, in @object built from a structure, what parsing keeps as JSON
 * text: the members of GST_SESSION_MESSAGE_OTHER_FIELDS go back in their
 * object, and a string where @message allows only an object (a map, an
 * object the contract does not describe) becomes the object it holds. */
G_GNUC_INTERNAL
void schema_expand_text (const SchemaMessage * message, JsonObject * object);

/* Shorthands for the tables. Compound literals at file scope have static
 * storage, so a table reads like the spec's. */
#define SCHEMA_VALUES(...) ((const gchar * const []) { __VA_ARGS__, NULL })
#define SCHEMA_PROPS(...) ((const SchemaProp []) { __VA_ARGS__, { NULL } })
#define SCHEMA_NODE(...) (&(const SchemaNode) { __VA_ARGS__ })
#define SCHEMA_OBJ(...) (&(const SchemaObject) { __VA_ARGS__ })

G_END_DECLS

#endif /* __GST_SESSION_SCHEMA_PRIVATE_H__ */
