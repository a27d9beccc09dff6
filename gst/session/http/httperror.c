/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The HTTP error model: a non-2xx answer (status, headers, JSON body)
 * parsed into one GstSessionHttpError, copied and freed. Its texts for
 * people are in httperror-text.c, the type tables of spec 001 in
 * httperror-types.c, the retry policy in retry.c.
 */

/**
 * SECTION:gstsessionhttperror
 * @title: GstSessionHttpError
 * @short_description: the HTTP error model of spec 001 and its retry policy
 *
 * gst_session_http_error_parse() turns a non-2xx answer (status, headers,
 * body) into one #GstSessionHttpError of one of four kinds: model-level
 * (`{"detail": [error object, ...]}`), request-level
 * (`{"detail": "...", "error_type": "..."}`), rate limit (status 429) or
 * other. It never fails: whatever the body, the status is kept.
 *
 * gst_session_http_error_retry_decision() says whether to send the identical
 * request again and after how long, from the `X-Svc-Retryable` header, the
 * `x-ratelimit-reset` header, the error type (the two tables of spec 001,
 * kept as data in httperror-types.c) and finally the status, with
 * exponential backoff of a #GstSessionRetryPolicy.
 *
 * gst_session_http_error_to_string() gives a sentence for people; it shows
 * `msg` and `detail` but never parses them, and never shows a header other
 * than the error type and the rate limit wait.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>
#include <json-glib/json-glib.h>

#include <gst/session/sessioninit.h>
#include <gst/session/message.h>
#include <gst/session/jsongate.h>
#include <gst/session/http/http.h>
#include "../session-private.h"
#include "httperror.h"
#include "httperror-private.h"

/* ---------------------------------------------------------------------- */
/* Limits                                                                 */
/* ---------------------------------------------------------------------- */

/* The longest X-Svc-Error-Type value taken from a header. */
#define MAX_HEADER_TYPE 128

/* ---------------------------------------------------------------------- */
/* Items                                                                  */
/* ---------------------------------------------------------------------- */

static void
item_free (gpointer data)
{
  GstSessionHttpErrorItem *item = data;

  if (item == NULL)
    return;
  g_free (item->type);
  g_free (item->msg);
  g_free (item->url);
  g_free (item->loc);
  if (item->ctx)
    gst_structure_free (item->ctx);
  g_free (item->input);
  g_free (item);
}

static gpointer
item_copy (gconstpointer src, gpointer user_data)
{
  const GstSessionHttpErrorItem *item = src;
  GstSessionHttpErrorItem *copy;

  if (item == NULL)
    return NULL;
  copy = g_new0 (GstSessionHttpErrorItem, 1);
  copy->type = g_strdup (item->type);
  copy->msg = g_strdup (item->msg);
  copy->url = g_strdup (item->url);
  copy->loc = g_strdup (item->loc);
  copy->ctx = item->ctx ? gst_structure_copy (item->ctx) : NULL;
  copy->input = g_strdup (item->input);
  return copy;
}

/* ---------------------------------------------------------------------- */
/* JSON helpers                                                           */
/* ---------------------------------------------------------------------- */

/* TRUE when every string and member name under @node is UTF-8: json-glib
 * turns an octal escape ("\301") or a lone surrogate ("\udc00") into bytes
 * that are not. The depth was bounded before parsing. */
static gboolean
json_strings_valid (JsonNode * node)
{
  if (JSON_NODE_HOLDS_OBJECT (node)) {
    JsonObject *object = json_node_get_object (node);
    GList *members = json_object_get_members (object), *l;
    gboolean ok = TRUE;

    for (l = members; l && ok; l = l->next)
      ok = g_utf8_validate (l->data, -1, NULL) &&
          json_strings_valid (json_object_get_member (object, l->data));
    g_list_free (members);
    return ok;
  }
  if (JSON_NODE_HOLDS_ARRAY (node)) {
    JsonArray *array = json_node_get_array (node);
    guint i, n = json_array_get_length (array);

    for (i = 0; i < n; i++) {
      if (!json_strings_valid (json_array_get_element (array, i)))
        return FALSE;
    }
    return TRUE;
  }
  if (JSON_NODE_HOLDS_VALUE (node)
      && json_node_get_value_type (node) == G_TYPE_STRING)
    return g_utf8_validate (json_node_get_string (node), -1, NULL);
  return TRUE;
}

/* The JSON root of @body, or NULL when the body is empty, too large, not
 * UTF-8 (also once unescaped), nested too deeply or not JSON. */
static JsonNode *
parse_body (const gchar * body, gsize length)
{
  JsonParser *parser;
  JsonNode *root;
  GError *error = NULL;

  if (body == NULL || length == 0)
    return NULL;
  if (length > GST_SESSION_HTTP_ERROR_MAX_BODY) {
    GST_DEBUG ("error body of %" G_GSIZE_FORMAT " bytes is over the %d byte "
        "limit, not parsed", length, GST_SESSION_HTTP_ERROR_MAX_BODY);
    return NULL;
  }
  /* also refuses NUL bytes */
  if (!g_utf8_validate (body, length, NULL)) {
    GST_DEBUG ("error body is not UTF-8 text");
    return NULL;
  }
  if (!gst_session_json_check (body, length, GST_SESSION_HTTP_ERROR_MAX_BODY,
          GST_SESSION_HTTP_ERROR_MAX_DEPTH, &error)) {
    GST_DEBUG ("error body not parsed: %s", error->message);
    g_clear_error (&error);
    return NULL;
  }

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, body, (gssize) length, &error)) {
    GST_DEBUG ("error body is not JSON: %s", error->message);
    g_clear_error (&error);
    g_object_unref (parser);
    return NULL;
  }
  root = json_parser_steal_root (parser);
  g_object_unref (parser);
  if (root && !json_strings_valid (root)) {
    GST_DEBUG ("error body has strings that are not UTF-8 once unescaped");
    json_node_unref (root);
    return NULL;
  }
  return root;
}

/* The member @name of @object when it is a JSON string, else NULL. Never
 * warns whatever the member holds. */
static const gchar *
get_string_member (JsonObject * object, const gchar * name)
{
  JsonNode *node = json_object_get_member (object, name);

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node)
      || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/* One reference token of a JSON pointer (RFC 6901 section 3). */
static void
append_pointer_token (GString * pointer, const gchar * token)
{
  const gchar *p;

  g_string_append_c (pointer, '/');
  for (p = token; *p; p++) {
    if (*p == '~')
      g_string_append (pointer, "~0");
    else if (*p == '/')
      g_string_append (pointer, "~1");
    else
      g_string_append_c (pointer, *p);
  }
}

static void
append_loc_segment (GString * pointer, JsonNode * segment)
{
  if (JSON_NODE_HOLDS_VALUE (segment)) {
    GType type = json_node_get_value_type (segment);

    if (type == G_TYPE_STRING) {
      append_pointer_token (pointer, json_node_get_string (segment));
      return;
    }
    if (type == G_TYPE_INT64) {
      g_string_append_printf (pointer, "/%" G_GINT64_FORMAT,
          json_node_get_int (segment));
      return;
    }
  }
  /* not shown by the spec: any other segment is written as its JSON text */
  {
    gchar *text = gst_session_json_write (segment, FALSE);

    append_pointer_token (pointer, text ? text : "");
    g_free (text);
  }
}

/* `loc` as a JSON pointer: ["body", "images", 0] -> "/body/images/0". A
 * single string is taken as a one-item array. NULL when absent or neither. */
static gchar *
loc_to_pointer (JsonNode * loc)
{
  GString *pointer;

  if (loc == NULL)
    return NULL;
  if (JSON_NODE_HOLDS_VALUE (loc)
      && json_node_get_value_type (loc) == G_TYPE_STRING) {
    pointer = g_string_new (NULL);
    append_pointer_token (pointer, json_node_get_string (loc));
    return g_string_free (pointer, FALSE);
  }
  if (JSON_NODE_HOLDS_ARRAY (loc)) {
    JsonArray *array = json_node_get_array (loc);
    guint i, n = json_array_get_length (array);

    pointer = g_string_new (NULL);
    for (i = 0; i < n; i++)
      append_loc_segment (pointer, json_array_get_element (array, i));
    return g_string_free (pointer, FALSE);
  }
  return NULL;
}

static void json_to_gvalue (JsonNode * node, GValue * value, guint depth);

/* The type of the first leaf of @value, as GStreamer sees it when it checks
 * that the elements of a GST_TYPE_ARRAY are compatible; FALSE for an empty
 * array. */
static gboolean
basic_type (const GValue * value, GType * type)
{
  if (GST_VALUE_HOLDS_ARRAY (value)) {
    if (gst_value_array_get_size (value) == 0)
      return FALSE;
    return basic_type (gst_value_array_get_value (value, 0), type);
  }
  *type = G_VALUE_TYPE (value);
  return TRUE;
}

/* A JSON array as a GST_TYPE_ARRAY, whose elements must share one type (and
 * one first-leaf type when they are arrays): integers mixed with reals all
 * become G_TYPE_DOUBLE; an array of any other mix, or holding a null,
 * becomes a G_TYPE_STRING holding its compact JSON text. */
static void
json_array_to_gvalue (JsonNode * node, GValue * value, guint depth)
{
  JsonArray *array = json_node_get_array (node);
  guint i, n = json_array_get_length (array);
  GValue *elements = g_new0 (GValue, MAX (n, 1));
  gboolean ints = FALSE, reals = FALSE, others = FALSE, uniform = TRUE;
  gboolean have_basic = FALSE;
  GType basic = G_TYPE_INVALID;

  for (i = 0; i < n; i++) {
    JsonNode *element = json_array_get_element (array, i);

    /* GStreamer cannot serialise a NULL string inside an array */
    if (JSON_NODE_HOLDS_NULL (element))
      uniform = FALSE;
    json_to_gvalue (element, &elements[i], depth + 1);
    if (G_VALUE_HOLDS_INT64 (&elements[i]))
      ints = TRUE;
    else if (G_VALUE_HOLDS_DOUBLE (&elements[i]))
      reals = TRUE;
    else
      others = TRUE;
  }

  for (i = 0; i < n; i++) {
    GType t;

    if (ints && reals && !others && G_VALUE_HOLDS_INT64 (&elements[i])) {
      gint64 v = g_value_get_int64 (&elements[i]);

      g_value_unset (&elements[i]);
      g_value_init (&elements[i], G_TYPE_DOUBLE);
      g_value_set_double (&elements[i], (gdouble) v);
    }
    if (G_VALUE_TYPE (&elements[i]) != G_VALUE_TYPE (&elements[0]))
      uniform = FALSE;
    if (basic_type (&elements[i], &t)) {
      if (have_basic && t != basic)
        uniform = FALSE;
      basic = t;
      have_basic = TRUE;
    }
  }

  if (uniform) {
    g_value_init (value, GST_TYPE_ARRAY);
    for (i = 0; i < n; i++)
      gst_value_array_append_and_take_value (value, &elements[i]);
  } else {
    for (i = 0; i < n; i++)
      g_value_unset (&elements[i]);
    g_value_init (value, G_TYPE_STRING);
    g_value_take_string (value, gst_session_json_write (node, FALSE));
  }
  g_free (elements);
}

/* Sets @value (unset) from @node. @depth is bounded by the depth scan of the
 * body; the check here keeps the recursion bounded on its own too. */
static void
json_to_gvalue (JsonNode * node, GValue * value, guint depth)
{
  if (depth > GST_SESSION_HTTP_ERROR_MAX_DEPTH) {
    g_value_init (value, G_TYPE_STRING);
    return;
  }

  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:
      /* its member names are the sender's: see ctx_to_structure() */
      g_value_init (value, G_TYPE_STRING);
      g_value_take_string (value, gst_session_json_write (node, FALSE));
      break;
    case JSON_NODE_ARRAY:
      json_array_to_gvalue (node, value, depth);
      break;
    case JSON_NODE_VALUE:{
      GType type = json_node_get_value_type (node);

      if (type == G_TYPE_INT64) {
        g_value_init (value, G_TYPE_INT64);
        g_value_set_int64 (value, json_node_get_int (node));
      } else if (type == G_TYPE_DOUBLE) {
        g_value_init (value, G_TYPE_DOUBLE);
        g_value_set_double (value, json_node_get_double (node));
      } else if (type == G_TYPE_BOOLEAN) {
        g_value_init (value, G_TYPE_BOOLEAN);
        g_value_set_boolean (value, json_node_get_boolean (node));
      } else {
        g_value_init (value, G_TYPE_STRING);
        if (type == G_TYPE_STRING)
          g_value_set_string (value, json_node_get_string (node));
      }
      break;
    }
    case JSON_NODE_NULL:
    default:
      /* a G_TYPE_STRING holding NULL */
      g_value_init (value, G_TYPE_STRING);
      break;
  }
}

/* Only the ctx keys of spec 001 become field names: GStreamer interns
 * field names as quarks, kept for the life of the process, so keys chosen
 * by the sender would make memory grow without bound. Other members are
 * kept, as the JSON text of one object, in GST_SESSION_MESSAGE_OTHER_FIELDS
 * (and nested objects are their JSON text). */
static GstStructure *
ctx_to_structure (JsonObject * object)
{
  GstStructure *s = gst_structure_new_empty ("ctx");
  JsonObject *other = NULL;
  GList *members, *l;

  members = json_object_get_members (object);
  for (l = members; l; l = l->next) {
    const gchar *key = l->data;
    JsonNode *node = json_object_get_member (object, key);
    GValue value = G_VALUE_INIT;

    if (http_error_is_ctx_key (key)) {
      json_to_gvalue (node, &value, 1);
      gst_structure_take_value (s, key, &value);
    } else {
      if (other == NULL)
        other = json_object_new ();
      json_object_set_member (other, key, json_node_copy (node));
    }
  }
  g_list_free (members);

  if (other)
    gst_session_message_take_other_fields (s, other);
  return s;
}

/* Logs, for developers, a ctx that lacks a key the spec lists for its type;
 * the item is kept as it is. */
static void
check_ctx_keys (const GstSessionHttpErrorItem * item)
{
  const ModelErrorType *entry = http_error_lookup_model_type (item->type);
  guint i;

  if (entry == NULL)
    return;
  for (i = 0; i < MAX_CTX_KEYS && entry->ctx_keys[i]; i++) {
    if (item->ctx == NULL
        || !gst_structure_has_field (item->ctx, entry->ctx_keys[i]))
      GST_DEBUG ("%s error without ctx key %s", item->type, entry->ctx_keys[i]);
  }
}

/* One error object of a `detail` array; NULL when it is not an object.
 * Missing or mistyped fields stay NULL. */
static GstSessionHttpErrorItem *
item_from_json (JsonNode * node)
{
  GstSessionHttpErrorItem *item;
  JsonObject *object;
  JsonNode *member;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return NULL;
  object = json_node_get_object (node);

  item = g_new0 (GstSessionHttpErrorItem, 1);
  item->type = g_strdup (get_string_member (object, "type"));
  item->msg = g_strdup (get_string_member (object, "msg"));
  item->url = g_strdup (get_string_member (object, "url"));
  item->loc = loc_to_pointer (json_object_get_member (object, "loc"));
  member = json_object_get_member (object, "ctx");
  if (member && JSON_NODE_HOLDS_OBJECT (member))
    item->ctx = ctx_to_structure (json_node_get_object (member));
  member = json_object_get_member (object, "input");
  if (member)
    item->input = gst_session_json_write (member, FALSE);
  check_ctx_keys (item);
  return item;
}

/* ---------------------------------------------------------------------- */
/* Headers                                                                */
/* ---------------------------------------------------------------------- */

/* X-Svc-Retryable: 1 for "true", 0 for "false" (any case, spaces around
 * allowed), -1 for anything else or no header. */
static gint
parse_retryable (const gchar * value)
{
  gchar *copy;
  gint result = -1;

  if (value == NULL)
    return -1;
  copy = g_strstrip (g_strdup (value));
  if (g_ascii_strcasecmp (copy, "true") == 0)
    result = 1;
  else if (g_ascii_strcasecmp (copy, "false") == 0)
    result = 0;
  g_free (copy);
  return result;
}

/* x-ratelimit-reset: a non-negative number of seconds, or -1. */
static gdouble
parse_ratelimit_reset (const gchar * value)
{
  gchar *end = NULL;
  gdouble seconds;

  if (value == NULL)
    return -1;
  while (g_ascii_isspace (*value))
    value++;
  if (*value == '\0')
    return -1;
  seconds = g_ascii_strtod (value, &end);
  while (end && g_ascii_isspace (*end))
    end++;
  if (end == NULL || *end != '\0' || !isfinite (seconds) || seconds < 0)
    return -1;
  return seconds;
}

/* X-Svc-Error-Type, when it looks like a type name (letters, digits, `_`,
 * `-`, `.`; at most MAX_HEADER_TYPE bytes), else NULL. */
static gchar *
parse_header_type (const gchar * value)
{
  const gchar *p;
  gchar *copy;

  if (value == NULL)
    return NULL;
  copy = g_strstrip (g_strndup (value, MAX_HEADER_TYPE + 1));
  if (*copy == '\0' || strlen (copy) > MAX_HEADER_TYPE)
    goto invalid;
  for (p = copy; *p; p++) {
    if (!g_ascii_isalnum (*p) && *p != '_' && *p != '-' && *p != '.')
      goto invalid;
  }
  return copy;

invalid:
  GST_DEBUG ("ignoring an X-Svc-Error-Type header that is not a type name");
  g_free (copy);
  return NULL;
}

/* ---------------------------------------------------------------------- */
/* Parsing                                                                */
/* ---------------------------------------------------------------------- */

static const gchar *
kind_name (GstSessionHttpErrorKind kind)
{
  switch (kind) {
    case GST_SESSION_HTTP_ERROR_KIND_MODEL:
      return "model";
    case GST_SESSION_HTTP_ERROR_KIND_REQUEST:
      return "request";
    case GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT:
      return "rate-limit";
    case GST_SESSION_HTTP_ERROR_KIND_OTHER:
    default:
      return "other";
  }
}

/* Fills @error from a JSON root: model-level when `detail` is an array with
 * at least one object, request-level when `detail` or `error_type` is a
 * string. Anything else leaves it OTHER. */
static void
parse_json_root (GstSessionHttpError * error, JsonNode * root)
{
  JsonObject *object;
  JsonNode *detail;
  const gchar *body_type, *body_detail;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;
  object = json_node_get_object (root);
  detail = json_object_get_member (object, "detail");

  if (detail && JSON_NODE_HOLDS_ARRAY (detail)) {
    JsonArray *array = json_node_get_array (detail);
    guint i, n = json_array_get_length (array);

    for (i = 0; i < n; i++) {
      GstSessionHttpErrorItem *item =
          item_from_json (json_array_get_element (array, i));

      if (item)
        g_ptr_array_add (error->items, item);
    }
    if (error->items->len > 0) {
      GstSessionHttpErrorItem *first = g_ptr_array_index (error->items, 0);

      error->kind = GST_SESSION_HTTP_ERROR_KIND_MODEL;
      error->error_type = g_strdup (first->type);
      error->detail = g_strdup (first->msg);
    }
    return;
  }

  body_type = get_string_member (object, "error_type");
  body_detail = get_string_member (object, "detail");
  if (body_type || body_detail) {
    error->kind = GST_SESSION_HTTP_ERROR_KIND_REQUEST;
    error->error_type = g_strdup (body_type);
    error->detail = g_strdup (body_detail);
  }
}

/**
 * gst_session_http_error_parse:
 * @status: the HTTP status code of the answer.
 * @headers: (nullable): the response headers, or %NULL.
 * @body: (nullable) (array length=body_length) (element-type guint8): the
 *   response body; it need not end with a NUL byte.
 * @body_length: the length of @body in bytes.
 *
 * Parses a non-2xx answer per spec 001 into one error:
 *
 * - status 429 gives %GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT whatever the
 *   body, keeping the `error_type`, `detail` and items of a body of either
 *   form;
 * - a JSON object whose `detail` is an array of error objects gives
 *   %GST_SESSION_HTTP_ERROR_KIND_MODEL (missing fields of an item stay
 *   %NULL; items that are not objects are skipped);
 * - a JSON object whose `detail` or `error_type` is a string, or any body
 *   with a valid `X-Svc-Error-Type` header, gives
 *   %GST_SESSION_HTTP_ERROR_KIND_REQUEST; the header gives the type when the
 *   body has none;
 * - anything else (empty, not JSON, not of either form, over
 *   %GST_SESSION_HTTP_ERROR_MAX_BODY bytes, nested deeper than
 *   %GST_SESSION_HTTP_ERROR_MAX_DEPTH) gives
 *   %GST_SESSION_HTTP_ERROR_KIND_OTHER.
 *
 * The headers `X-Svc-Retryable` and `x-ratelimit-reset` are read whatever
 * the kind; header names are matched without regard to case. No other
 * header is read.
 *
 * Returns: (transfer full): the error; never %NULL.
 */
GstSessionHttpError *
gst_session_http_error_parse (guint status, SoupMessageHeaders * headers,
    const gchar * body, gsize body_length)
{
  GstSessionHttpError *error;
  gchar *header_type = NULL;
  JsonNode *root;

  gst_session_init ();

  error = g_new0 (GstSessionHttpError, 1);
  error->status = status;
  error->kind = GST_SESSION_HTTP_ERROR_KIND_OTHER;
  error->items = g_ptr_array_new_with_free_func (item_free);
  error->retryable = -1;
  error->ratelimit_reset = -1;

  if (headers) {
    error->retryable = parse_retryable (soup_message_headers_get_one (headers,
            "X-Svc-Retryable"));
    error->ratelimit_reset =
        parse_ratelimit_reset (soup_message_headers_get_one (headers,
            "x-ratelimit-reset"));
    header_type = parse_header_type (soup_message_headers_get_one (headers,
            "X-Svc-Error-Type"));
  }

  root = parse_body (body, body_length);
  parse_json_root (error, root);
  if (root)
    json_node_unref (root);

  if (header_type) {
    if (error->kind == GST_SESSION_HTTP_ERROR_KIND_OTHER)
      error->kind = GST_SESSION_HTTP_ERROR_KIND_REQUEST;
    if (error->kind == GST_SESSION_HTTP_ERROR_KIND_REQUEST) {
      if (error->error_type == NULL) {
        error->error_type = header_type;
        header_type = NULL;
      } else if (strcmp (error->error_type, header_type) != 0) {
        GST_DEBUG ("body error_type %.128s and X-Svc-Error-Type %s differ; "
            "the body wins", error->error_type, header_type);
      }
    }
    g_free (header_type);
  }

  if (status == 429)
    error->kind = GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT;

  GST_DEBUG ("HTTP %u: %s error, type %.128s, %u items, retryable %d, "
      "ratelimit-reset %g", status, kind_name (error->kind),
      GST_STR_NULL (error->error_type), error->items->len, error->retryable,
      error->ratelimit_reset);

  return error;
}

/**
 * gst_session_http_error_copy:
 * @error: the error.
 *
 * Returns: (transfer full) (nullable): a deep copy of @error, or %NULL when
 *   @error is %NULL.
 */
GstSessionHttpError *
gst_session_http_error_copy (const GstSessionHttpError * error)
{
  GstSessionHttpError *copy;
  guint i;

  if (error == NULL)
    return NULL;

  copy = g_new0 (GstSessionHttpError, 1);
  copy->status = error->status;
  copy->kind = error->kind;
  copy->error_type = g_strdup (error->error_type);
  copy->detail = g_strdup (error->detail);
  copy->retryable = error->retryable;
  copy->ratelimit_reset = error->ratelimit_reset;
  copy->items = g_ptr_array_new_with_free_func (item_free);
  for (i = 0; error->items && i < error->items->len; i++) {
    g_ptr_array_add (copy->items,
        item_copy (g_ptr_array_index (error->items, i), NULL));
  }
  return copy;
}

/**
 * gst_session_http_error_free:
 * @error: (nullable) (transfer full): the error.
 *
 * Frees @error and everything it holds. %NULL is ignored.
 */
void
gst_session_http_error_free (GstSessionHttpError * error)
{
  if (error == NULL)
    return;
  g_free (error->error_type);
  g_free (error->detail);
  if (error->items)
    g_ptr_array_unref (error->items);
  g_free (error);
}

G_DEFINE_BOXED_TYPE (GstSessionHttpError, gst_session_http_error,
    gst_session_http_error_copy, gst_session_http_error_free);
