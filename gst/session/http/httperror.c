/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
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
 * kept as data below) and finally the status, with exponential backoff of a
 * #GstSessionRetryPolicy.
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

#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include "../session-private.h"
#include "httperror.h"

/* ---------------------------------------------------------------------- */
/* The type knowledge of spec 001, as data. One place per rule.           */
/* ---------------------------------------------------------------------- */

/* Statuses that are worth retrying when nothing more specific is known:
 * request timeout and the transient server side failures. Every other status
 * (other 4xx, 501, 505, ...) is not. */
static gboolean
status_is_transient (guint status)
{
  switch (status) {
    case 408:
    case 500:
    case 502:
    case 503:
    case 504:
      return TRUE;
    default:
      return FALSE;
  }
}

/* The "Retryable" column of the model-level table. */
typedef enum
{
  /* "false": retrying the identical request cannot succeed */
  MODEL_RETRY_NEVER,
  /* "true or false": the X-Svc-Retryable header decides; without it the
   * type's status in the table does (status_is_transient()) */
  MODEL_RETRY_BY_HEADER,
} ModelRetry;

#define MAX_CTX_KEYS 3

typedef struct
{
  const gchar *type;
  guint status;
  ModelRetry retry;
  const gchar *ctx_keys[MAX_CTX_KEYS + 1];
} ModelErrorType;

/* Spec 001, "Model-level errors": type, status, retryable, ctx keys. */
static const ModelErrorType model_error_types[] = {
  {"internal_server_error", 500, MODEL_RETRY_BY_HEADER, {NULL}},
  {"generation_timeout", 504, MODEL_RETRY_BY_HEADER, {NULL}},
  {"downstream_service_error", 400, MODEL_RETRY_BY_HEADER, {NULL}},
  {"downstream_service_unavailable", 500, MODEL_RETRY_BY_HEADER, {NULL}},
  {"content_policy_violation", 422, MODEL_RETRY_NEVER, {NULL}},
  {"no_media_generated", 422, MODEL_RETRY_NEVER, {NULL}},
  {"image_too_small", 422, MODEL_RETRY_NEVER, {"min_height", "min_width"}},
  {"image_too_large", 422, MODEL_RETRY_NEVER, {"max_height", "max_width"}},
  {"image_load_error", 422, MODEL_RETRY_NEVER, {NULL}},
  {"file_download_error", 422, MODEL_RETRY_NEVER, {NULL}},
  {"face_detection_error", 422, MODEL_RETRY_NEVER, {NULL}},
  {"file_too_large", 422, MODEL_RETRY_NEVER, {"max_size"}},
  {"greater_than", 422, MODEL_RETRY_NEVER, {"gt"}},
  {"greater_than_equal", 422, MODEL_RETRY_NEVER, {"ge"}},
  {"less_than", 422, MODEL_RETRY_NEVER, {"lt"}},
  {"less_than_equal", 422, MODEL_RETRY_NEVER, {"le"}},
  {"multiple_of", 422, MODEL_RETRY_NEVER, {"multiple_of"}},
  {"sequence_too_short", 422, MODEL_RETRY_NEVER, {"min_length"}},
  {"sequence_too_long", 422, MODEL_RETRY_NEVER, {"max_length"}},
  {"one_of", 422, MODEL_RETRY_NEVER, {"expected"}},
  {"feature_not_supported", 422, MODEL_RETRY_NEVER, {NULL}},
  {"invalid_archive", 422, MODEL_RETRY_NEVER, {"supported_extensions"}},
  {"archive_file_count_below_minimum", 422, MODEL_RETRY_NEVER,
      {"min_count", "provided_count", "supported_extensions"}},
  {"archive_file_count_exceeds_maximum", 422, MODEL_RETRY_NEVER,
      {"max_count", "provided_count", "supported_extensions"}},
  {"audio_duration_too_long", 422, MODEL_RETRY_NEVER,
      {"max_duration", "provided_duration"}},
  {"audio_duration_too_short", 422, MODEL_RETRY_NEVER,
      {"min_duration", "provided_duration"}},
  {"unsupported_audio_format", 422, MODEL_RETRY_NEVER, {"supported_formats"}},
  {"unsupported_image_format", 422, MODEL_RETRY_NEVER, {"supported_formats"}},
  {"unsupported_video_format", 422, MODEL_RETRY_NEVER, {"supported_formats"}},
  {"video_duration_too_long", 422, MODEL_RETRY_NEVER,
      {"max_duration", "provided_duration"}},
  {"video_duration_too_short", 422, MODEL_RETRY_NEVER,
      {"min_duration", "provided_duration"}},
};

typedef struct
{
  const gchar *error_type;
  guint status;
  gboolean transient;
} RequestErrorType;

/* Spec 001, "Request-level errors": error_type, typical status, and the
 * retry guidance ("runner and timeout errors are typically transient and
 * worth retrying; client_disconnected and bad_request are not").
 *
 * Decisions past the spec:
 * - client_cancelled is not retried: the client itself asked to stop.
 * - internal_error IS retried with backoff: the spec gives no guidance for
 *   it; it is a 500, the status rule retries a 500, and an unexpected
 *   failure of the service is more likely passing than caused by the
 *   request (a bad request is reported as bad_request). The attempt limit
 *   of the policy bounds the cost when it is not. */
static const RequestErrorType request_error_types[] = {
  {"request_timeout", 504, TRUE},
  {"startup_timeout", 504, TRUE},
  {"runner_scheduling_failure", 503, TRUE},
  {"runner_connection_timeout", 503, TRUE},
  {"runner_disconnected", 503, TRUE},
  {"runner_connection_refused", 503, TRUE},
  {"runner_connection_error", 503, TRUE},
  {"runner_incomplete_response", 502, TRUE},
  {"runner_server_error", 500, TRUE},
  {"client_disconnected", 499, FALSE},
  {"client_cancelled", 499, FALSE},
  {"bad_request", 400, FALSE},
  {"internal_error", 500, TRUE},
};

static const ModelErrorType *
lookup_model_type (const gchar * type)
{
  guint i;

  if (type == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (model_error_types); i++) {
    if (strcmp (model_error_types[i].type, type) == 0)
      return &model_error_types[i];
  }
  return NULL;
}

static const RequestErrorType *
lookup_request_type (const gchar * error_type)
{
  guint i;

  if (error_type == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (request_error_types); i++) {
    if (strcmp (request_error_types[i].error_type, error_type) == 0)
      return &request_error_types[i];
  }
  return NULL;
}

/* Without an X-Svc-Retryable header. */
static gboolean
model_type_is_transient (const ModelErrorType * entry)
{
  return entry->retry == MODEL_RETRY_BY_HEADER
      && status_is_transient (entry->status);
}

/* ---------------------------------------------------------------------- */
/* Limits                                                                 */
/* ---------------------------------------------------------------------- */

/* The longest X-Svc-Error-Type value taken from a header. */
#define MAX_HEADER_TYPE 128
/* x-ratelimit-reset is read up to a day; longer waits are a day. */
#define MAX_RATELIMIT_RESET (24.0 * 60.0 * 60.0)
/* to_string(): characters of one msg/detail, of one type or loc, items
 * listed, and the whole sentence. */
#define MAX_TEXT_CHARS 256
#define MAX_NAME_CHARS 128
#define MAX_ITEMS_SHOWN 3
#define MAX_STRING_BYTES 2048
/* The cap of a backoff whose policy has no cap (max_delay NONE): ~146 years */
#define BACKOFF_NO_CAP ((gdouble) G_MAXINT64 / 2.0)

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

/* TRUE when spec 001 lists @key in the ctx of some model-level type. */
static gboolean
is_ctx_key (const gchar * key)
{
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (model_error_types); i++) {
    for (j = 0; j < MAX_CTX_KEYS && model_error_types[i].ctx_keys[j]; j++) {
      if (strcmp (model_error_types[i].ctx_keys[j], key) == 0)
        return TRUE;
    }
  }
  return FALSE;
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

    if (is_ctx_key (key)) {
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
  const ModelErrorType *entry = lookup_model_type (item->type);
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

/* ---------------------------------------------------------------------- */
/* Text for people                                                        */
/* ---------------------------------------------------------------------- */

/* Appends at most @max_chars characters of @text, control characters as
 * spaces, "..." when cut. The parser checked that the body is UTF-8; an
 * invalid byte would still only become U+FFFD. */
static void
append_display (GString * s, const gchar * text, guint max_chars)
{
  const gchar *p = text;
  guint n = 0;

  while (*p) {
    gunichar c = g_utf8_get_char_validated (p, -1);
    gsize len;

    if (n == max_chars) {
      g_string_append (s, "...");
      return;
    }
    if (c > 0x10ffff) {
      /* (gunichar) -1 or -2: not UTF-8 */
      g_string_append_unichar (s, 0xfffd);
      p++;
    } else {
      len = g_utf8_next_char (p) - p;
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
        g_string_append_c (s, ' ');
      else
        g_string_append_len (s, p, len);
      p += len;
    }
    n++;
  }
}

static void
append_item (GString * s, const GstSessionHttpErrorItem * item)
{
  gboolean any = FALSE;

  if (item->type && *item->type) {
    append_display (s, item->type, MAX_NAME_CHARS);
    any = TRUE;
  }
  if (item->loc && *item->loc) {
    g_string_append (s, any ? " at " : "at ");
    append_display (s, item->loc, MAX_NAME_CHARS);
    any = TRUE;
  }
  if (item->msg && *item->msg) {
    if (any)
      g_string_append (s, ": ");
    append_display (s, item->msg, MAX_TEXT_CHARS);
    any = TRUE;
  }
  if (!any)
    g_string_append (s, "error without details");
}

/* One item after @one_sep, or ", N errors: " / ": N errors: " (per
 * @many_sep) and the first MAX_ITEMS_SHOWN items. */
static void
append_items (GString * s, const GstSessionHttpError * error,
    const gchar * one_sep, const gchar * many_sep)
{
  guint i, n = error->items->len;

  if (n == 1) {
    g_string_append (s, one_sep);
    append_item (s, g_ptr_array_index (error->items, 0));
    return;
  }
  g_string_append_printf (s, "%s%u errors: ", many_sep, n);
  for (i = 0; i < n && i < MAX_ITEMS_SHOWN; i++) {
    if (i > 0)
      g_string_append (s, "; ");
    append_item (s, g_ptr_array_index (error->items, i));
  }
  if (n > MAX_ITEMS_SHOWN)
    g_string_append_printf (s, "; and %u more", n - MAX_ITEMS_SHOWN);
}

/* "<type_sep><type>: <detail>", either part optional */
static void
append_type_and_detail (GString * s, const GstSessionHttpError * error,
    const gchar * type_sep)
{
  if (error->error_type && *error->error_type) {
    g_string_append (s, type_sep);
    append_display (s, error->error_type, MAX_NAME_CHARS);
  }
  if (error->detail && *error->detail) {
    g_string_append (s, ": ");
    append_display (s, error->detail, MAX_TEXT_CHARS);
  }
}

/**
 * gst_session_http_error_to_string:
 * @error: the error.
 *
 * Describes @error in one line for people, for example
 * `HTTP 422 image_too_small at /body/image_url: Image too small (min
 * 512x512)`, `HTTP 503 runner_scheduling_failure: No runner available` or
 * `HTTP 429 rate limited (window resets in 12 s)`. Several model-level items
 * are listed (the first three, then a count). `msg` and `detail` are shown,
 * never parsed; no header value is shown besides the error type and the rate
 * limit wait. Control characters become spaces and the text is at most a few
 * kilobytes long.
 *
 * Returns: (transfer full): the text.
 */
gchar *
gst_session_http_error_to_string (const GstSessionHttpError * error)
{
  GString *s;

  g_return_val_if_fail (error != NULL, NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, "HTTP %u", error->status);

  switch (error->kind) {
    case GST_SESSION_HTTP_ERROR_KIND_MODEL:
      if (error->items && error->items->len > 0)
        append_items (s, error, " ", ", ");
      else
        append_type_and_detail (s, error, " ");
      break;
    case GST_SESSION_HTTP_ERROR_KIND_REQUEST:
      if (!error->error_type && !error->detail)
        g_string_append (s, " request error");
      else
        append_type_and_detail (s, error, " ");
      break;
    case GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT:
      g_string_append (s, " rate limited");
      if (error->ratelimit_reset >= 0)
        g_string_append_printf (s, " (window resets in %g s)",
            MIN (error->ratelimit_reset, MAX_RATELIMIT_RESET));
      if (error->items && error->items->len > 0)
        append_items (s, error, ": ", ": ");
      else
        append_type_and_detail (s, error, ": ");
      break;
    case GST_SESSION_HTTP_ERROR_KIND_OTHER:
    default:{
      const gchar *phrase = soup_status_get_phrase (error->status);

      g_string_append_c (s, ' ');
      g_string_append (s, phrase ? phrase : "error");
      break;
    }
  }

  /* every part is bounded already; this keeps the promise on its own */
  if (s->len > MAX_STRING_BYTES) {
    const gchar *end = g_utf8_find_prev_char (s->str, s->str +
        MAX_STRING_BYTES - 3);

    g_string_truncate (s, end ? (gsize) (end - s->str) : 0);
    g_string_append (s, "...");
  }
  return g_string_free (s, FALSE);
}

/**
 * gst_session_http_error_to_gerror:
 * @error: the error.
 *
 * Returns: (transfer full): a #GError of domain %GST_SESSION_ERROR, code
 *   %GST_SESSION_ERROR_HTTP, whose message is
 *   gst_session_http_error_to_string().
 */
GError *
gst_session_http_error_to_gerror (const GstSessionHttpError * error)
{
  GError *gerror;
  gchar *text;

  g_return_val_if_fail (error != NULL, NULL);

  text = gst_session_http_error_to_string (error);
  gerror = g_error_new_literal (GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP,
      text);
  g_free (text);
  return gerror;
}

/* ---------------------------------------------------------------------- */
/* Retry policy                                                           */
/* ---------------------------------------------------------------------- */

static GstSessionRetryPolicy *
retry_policy_copy (const GstSessionRetryPolicy * policy)
{
  return g_memdup2 (policy, sizeof (GstSessionRetryPolicy));
}

G_DEFINE_BOXED_TYPE (GstSessionRetryPolicy, gst_session_retry_policy,
    retry_policy_copy, g_free);

/* reason is a static string: a shallow copy is a full copy */
static GstSessionRetryDecision *
retry_decision_copy (const GstSessionRetryDecision * decision)
{
  return g_memdup2 (decision, sizeof (GstSessionRetryDecision));
}

G_DEFINE_BOXED_TYPE (GstSessionRetryDecision, gst_session_retry_decision,
    retry_decision_copy, g_free);

/**
 * gst_session_retry_policy_init:
 * @policy: (out caller-allocates): the policy to fill.
 *
 * Fills @policy with the defaults: 5 attempts in all, a first delay of
 * 500 ms doubling per attempt up to 30 s, with 20 % jitter.
 */
void
gst_session_retry_policy_init (GstSessionRetryPolicy * policy)
{
  g_return_if_fail (policy != NULL);

  policy->max_attempts = 5;
  policy->initial_delay = 500 * GST_MSECOND;
  policy->max_delay = 30 * GST_SECOND;
  policy->multiplier = 2.0;
  policy->jitter = 0.2;
}

/* base^exp by squaring: no libm, O(log exp); +inf on overflow. Stops early
 * once the result passes @limit (a base of at least 1 only grows). */
static gdouble
power_until (gdouble base, guint exp, gdouble limit)
{
  gdouble result = 1.0;

  while (exp > 0) {
    if (exp & 1)
      result *= base;
    if (!(result <= limit))
      return result;
    exp >>= 1;
    if (exp > 0)
      base *= base;
  }
  return result;
}

/**
 * gst_session_retry_policy_backoff:
 * @policy: (nullable): the policy, or %NULL for the defaults.
 * @attempt: the number of attempts made so far (1 after the first failure;
 *   0 is taken as 1).
 *
 * The wait before the next attempt: `initial_delay * multiplier ^
 * (attempt - 1)`, capped at `max_delay`, then moved by a random fraction of
 * up to ±`jitter` of itself, and never above `max_delay` nor below 0. A
 * multiplier under 1 is taken as 1, a jitter outside 0..1 is clamped, a
 * `max_delay` of %GST_CLOCK_TIME_NONE means no cap.
 *
 * Returns: the delay.
 */
GstClockTime
gst_session_retry_policy_backoff (const GstSessionRetryPolicy * policy,
    guint attempt)
{
  GstSessionRetryPolicy defaults;
  gdouble cap, initial, multiplier, jitter, delay;

  if (policy == NULL) {
    gst_session_retry_policy_init (&defaults);
    policy = &defaults;
  }

  cap = policy->max_delay == GST_CLOCK_TIME_NONE ? BACKOFF_NO_CAP :
      MIN ((gdouble) policy->max_delay, BACKOFF_NO_CAP);
  initial = policy->initial_delay == GST_CLOCK_TIME_NONE ? cap :
      MIN ((gdouble) policy->initial_delay, cap);
  if (initial <= 0)
    return 0;
  /* the negations also catch NaN */
  multiplier = policy->multiplier >= 1.0 ? policy->multiplier : 1.0;
  jitter = policy->jitter > 0.0 ? MIN (policy->jitter, 1.0) : 0.0;

  delay = initial * power_until (multiplier, attempt > 1 ? attempt - 1 : 0,
      cap / initial);
  if (!(delay <= cap))
    delay = cap;
  if (jitter > 0.0)
    delay *= 1.0 + jitter * g_random_double_range (-1.0, 1.0);
  if (!(delay >= 0.0))
    delay = 0.0;
  if (delay > cap)
    delay = cap;
  return (GstClockTime) delay;
}

/**
 * gst_session_http_error_type_is_transient:
 * @error_type: (nullable): a model-level `type` or request-level
 *   `error_type` of spec 001.
 *
 * Whether an error of this type is worth retrying when no `X-Svc-Retryable`
 * header says otherwise: the request-level runner and timeout types and
 * `internal_error`, and the model-level types whose retryability the spec
 * leaves to the header and whose status is a 5xx (`internal_server_error`,
 * `generation_timeout`, `downstream_service_unavailable`). Unknown types and
 * %NULL are not.
 *
 * Returns: %TRUE when the type is transient.
 */
gboolean
gst_session_http_error_type_is_transient (const gchar * error_type)
{
  const RequestErrorType *request = lookup_request_type (error_type);
  const ModelErrorType *model;

  if (request)
    return request->transient;
  model = lookup_model_type (error_type);
  if (model)
    return model_type_is_transient (model);
  return FALSE;
}

/* Whether to retry at all, and why, before the attempt limit. */
static gboolean
classify (const GstSessionHttpError * error, const gchar ** reason)
{
  gboolean by_type;
  guint i;

  /* spec 001: "read X-Svc-Retryable for retry decisions"; it wins */
  if (error->retryable == 0) {
    *reason = "X-Svc-Retryable: false";
    return FALSE;
  }
  if (error->retryable == 1) {
    *reason = "X-Svc-Retryable: true";
    return TRUE;
  }

  if (error->kind == GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT) {
    *reason = error->ratelimit_reset >= 0 ?
        "rate limited: waiting for x-ratelimit-reset" :
        "rate limited without x-ratelimit-reset: backoff";
    return TRUE;
  }

  if (error->status == 401 || error->status == 403) {
    *reason = "authentication refused (401/403): not retried";
    return FALSE;
  }

  switch (error->kind) {
    case GST_SESSION_HTTP_ERROR_KIND_REQUEST:{
      const RequestErrorType *entry = lookup_request_type (error->error_type);

      if (entry == NULL)
        break;
      *reason = entry->transient ? "transient request-level error" :
          "request-level error that retrying cannot fix";
      return entry->transient;
    }
    case GST_SESSION_HTTP_ERROR_KIND_MODEL:
      /* retried only when every item is transient: by its type when the
       * table knows it, else by the status */
      by_type = FALSE;
      for (i = 0; error->items && i < error->items->len; i++) {
        const GstSessionHttpErrorItem *item =
            g_ptr_array_index (error->items, i);
        const ModelErrorType *entry = lookup_model_type (item->type);

        if (entry) {
          by_type = TRUE;
          if (!model_type_is_transient (entry)) {
            *reason = "model-level error that retrying cannot fix";
            return FALSE;
          }
        } else if (!status_is_transient (error->status)) {
          *reason = "model-level error of an unknown type and a status "
              "that is not retried";
          return FALSE;
        }
      }
      if (by_type) {
        *reason = "transient model-level error";
        return TRUE;
      }
      break;
    default:
      break;
  }

  if (status_is_transient (error->status)) {
    *reason = "transient HTTP status";
    return TRUE;
  }
  *reason = "HTTP status that retrying cannot fix";
  return FALSE;
}

/**
 * gst_session_http_error_retry_decision:
 * @error: the error of the last attempt.
 * @policy: (nullable): the policy, or %NULL for the defaults.
 * @attempt: the number of attempts made so far, the failed one included
 *   (1 after the first failure).
 *
 * Decides whether to send the identical request again, in this order:
 *
 * 1. an `X-Svc-Retryable` header decides when present (`false`: never;
 *    `true`: retry);
 * 2. a rate limit (429) is retried after `x-ratelimit-reset` seconds
 *    (capped at a day), or after the backoff when that header is absent;
 *    this wait also applies when `X-Svc-Retryable: true` came with a 429;
 * 3. 401 and 403 are never retried;
 * 4. a known request-level `error_type`: runner and timeout types and
 *    `internal_error` are retried, `client_disconnected`,
 *    `client_cancelled` and `bad_request` are not;
 * 5. model-level items of known types: every 422 type and
 *    `downstream_service_error` are not retried; `internal_server_error`,
 *    `generation_timeout` and `downstream_service_unavailable` are;
 * 6. otherwise the status: 408, 500, 502, 503 and 504 are retried, any
 *    other is not.
 *
 * Retries wait gst_session_retry_policy_backoff() unless a rate limit says
 * otherwise. When @attempt reaches the policy's `max_attempts` (unless 0),
 * nothing is retried and the reason says the attempts are exhausted.
 *
 * Returns: the decision.
 */
GstSessionRetryDecision
gst_session_http_error_retry_decision (const GstSessionHttpError * error,
    const GstSessionRetryPolicy * policy, guint attempt)
{
  GstSessionRetryDecision decision = { FALSE, 0, NULL };
  GstSessionRetryPolicy defaults;

  gst_session_init ();

  if (error == NULL) {
    decision.reason = "no error";
    return decision;
  }
  if (policy == NULL) {
    gst_session_retry_policy_init (&defaults);
    policy = &defaults;
  }

  decision.retry = classify (error, &decision.reason);
  if (decision.retry && policy->max_attempts > 0
      && attempt >= policy->max_attempts) {
    decision.retry = FALSE;
    decision.reason = "attempts exhausted";
  }

  if (decision.retry) {
    if (error->kind == GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT
        && error->ratelimit_reset >= 0) {
      decision.delay = (GstClockTime) (MIN (error->ratelimit_reset,
              MAX_RATELIMIT_RESET) * GST_SECOND);
    } else {
      decision.delay = gst_session_retry_policy_backoff (policy, attempt);
    }
  }

  GST_DEBUG ("HTTP %u %.128s, attempt %u: %s (%s), delay %" GST_TIME_FORMAT,
      error->status, GST_STR_NULL (error->error_type), attempt,
      decision.retry ? "retry" : "give up", decision.reason,
      GST_TIME_ARGS (decision.delay));

  return decision;
}
