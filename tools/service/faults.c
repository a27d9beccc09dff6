/* gst-session-service: injectable faults
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A fault set says what goes wrong for a session: a refused start (with a
 * request-level or a model-level error of spec 001), a slow answer, a
 * dropped peer, stalled media, an early end, a broken control message, a
 * director error, a changed video size, a false announced resolution, an
 * unanswered configure. Rules carry fault sets to the next sessions (from the
 * command line or POST /admin/faults) or to a live session.
 */

#include <string.h>
#include <stdlib.h>

#include "faults.h"

/* spec 001, "Request-level errors": error_type and typical status */
static const struct
{
  const gchar *type;
  guint status;
} request_types[] = {
  {"request_timeout", 504},
  {"startup_timeout", 504},
  {"runner_scheduling_failure", 503},
  {"runner_connection_timeout", 503},
  {"runner_disconnected", 503},
  {"runner_connection_refused", 503},
  {"runner_connection_error", 503},
  {"runner_incomplete_response", 502},
  {"runner_server_error", 500},
  {"client_disconnected", 499},
  {"client_cancelled", 499},
  {"bad_request", 400},
  {"internal_error", 500},
};

/* spec 001, "Model-level errors": type, status, default retryable and a
 * ctx (JSON) with the type's keys */
static const struct
{
  const gchar *type;
  guint status;
  gboolean retryable;
  const gchar *ctx;
} model_types[] = {
  {"internal_server_error", 500, TRUE, NULL},
  {"generation_timeout", 504, TRUE, NULL},
  {"downstream_service_error", 400, FALSE, NULL},
  {"downstream_service_unavailable", 500, TRUE, NULL},
  {"content_policy_violation", 422, FALSE, NULL},
  {"no_media_generated", 422, FALSE, NULL},
  {"image_too_small", 422, FALSE, "{\"min_height\":512,\"min_width\":512}"},
  {"image_too_large", 422, FALSE, "{\"max_height\":4096,\"max_width\":4096}"},
  {"image_load_error", 422, FALSE, NULL},
  {"file_download_error", 422, FALSE, NULL},
  {"face_detection_error", 422, FALSE, NULL},
  {"file_too_large", 422, FALSE, "{\"max_size\":10485760}"},
  {"greater_than", 422, FALSE, "{\"gt\":0}"},
  {"greater_than_equal", 422, FALSE, "{\"ge\":1}"},
  {"less_than", 422, FALSE, "{\"lt\":100}"},
  {"less_than_equal", 422, FALSE, "{\"le\":50}"},
  {"multiple_of", 422, FALSE, "{\"multiple_of\":8}"},
  {"sequence_too_short", 422, FALSE, "{\"min_length\":1}"},
  {"sequence_too_long", 422, FALSE, "{\"max_length\":8}"},
  {"one_of", 422, FALSE, "{\"expected\":[\"480p\",\"768p\"]}"},
  {"feature_not_supported", 422, FALSE, NULL},
  {"invalid_archive", 422, FALSE,
      "{\"supported_extensions\":[\".zip\",\".tar\"]}"},
  {"archive_file_count_below_minimum", 422, FALSE,
      "{\"min_count\":1,\"provided_count\":0,"
        "\"supported_extensions\":[\".zip\"]}"},
  {"archive_file_count_exceeds_maximum", 422, FALSE,
      "{\"max_count\":10,\"provided_count\":11,"
        "\"supported_extensions\":[\".zip\"]}"},
  {"audio_duration_too_long", 422, FALSE,
      "{\"max_duration\":30,\"provided_duration\":31.5}"},
  {"audio_duration_too_short", 422, FALSE,
      "{\"min_duration\":1,\"provided_duration\":0.5}"},
  {"unsupported_audio_format", 422, FALSE,
      "{\"supported_formats\":[\"wav\",\"mp3\"]}"},
  {"unsupported_image_format", 422, FALSE,
      "{\"supported_formats\":[\"png\",\"jpeg\"]}"},
  {"unsupported_video_format", 422, FALSE,
      "{\"supported_formats\":[\"mp4\"]}"},
  {"video_duration_too_long", 422, FALSE,
      "{\"max_duration\":60,\"provided_duration\":61}"},
  {"video_duration_too_short", 422, FALSE,
      "{\"min_duration\":1,\"provided_duration\":0.5}"},
};

static const gchar *bad_message_kinds[] = {
  "malformed", "unknown_type", "schema", NULL
};

static const gchar *director_fault_codes[] = {
  "content_policy", "configuration_timeout", "generation_failed",
  "generation_timeout", "immutable_settings", "initialization_timeout",
  "invalid_initial_image", "invalid_message", "not_configured",
  "stale_prompt_version", NULL
};

gboolean
svc_error_type_is_request_level (const gchar * type)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (request_types); i++)
    if (g_strcmp0 (request_types[i].type, type) == 0)
      return TRUE;
  return FALSE;
}

static gint
model_type_index (const gchar * type)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (model_types); i++)
    if (g_strcmp0 (model_types[i].type, type) == 0)
      return i;
  return -1;
}

guint
svc_error_type_status (const gchar * type)
{
  guint i;
  gint m;

  for (i = 0; i < G_N_ELEMENTS (request_types); i++)
    if (g_strcmp0 (request_types[i].type, type) == 0)
      return request_types[i].status;
  m = model_type_index (type);
  return m >= 0 ? model_types[m].status : 0;
}

/* A model-level type of spec 001: its typical status, default
 * retryable and a sample ctx (JSON text, NULL when the type has none).
 * FALSE when @type is not one. */
gboolean
svc_model_error_type (const gchar * type, guint * status,
    gboolean * retryable, const gchar ** ctx)
{
  gint m = model_type_index (type);

  if (m < 0)
    return FALSE;
  if (status)
    *status = model_types[m].status;
  if (retryable)
    *retryable = model_types[m].retryable;
  if (ctx)
    *ctx = model_types[m].ctx;
  return TRUE;
}

/* The model-level types in the order of the spec's table; NULL past the
 * last. */
const gchar *
svc_model_error_type_nth (guint i)
{
  return i < G_N_ELEMENTS (model_types) ? model_types[i].type : NULL;
}

SvcFaults *
svc_faults_new (void)
{
  SvcFaults *f = g_new0 (SvcFaults, 1);

  f->refuse_retryable = -1;
  f->drop_after = f->stall_at = f->exhaust_after = -1;
  f->bad_message_at = f->director_error_at = f->resize_at = -1;
  return f;
}

SvcFaults *
svc_faults_copy (const SvcFaults * faults)
{
  SvcFaults *f = g_new0 (SvcFaults, 1);

  *f = *faults;
  f->refuse_type = g_strdup (faults->refuse_type);
  f->bad_message = g_strdup (faults->bad_message);
  f->director_error = g_strdup (faults->director_error);
  return f;
}

static void
replace_string (gchar ** to, const gchar * from)
{
  if (from) {
    g_free (*to);
    *to = g_strdup (from);
  }
}

/* Whatever @from sets overrides @into */
void
svc_faults_merge (SvcFaults * into, const SvcFaults * from)
{
  if (from->refuse_type) {
    replace_string (&into->refuse_type, from->refuse_type);
    into->refuse_status = from->refuse_status;
    into->refuse_retryable = from->refuse_retryable;
  }
  if (from->answer_delay > 0)
    into->answer_delay = from->answer_delay;
  if (from->drop_after >= 0) {
    into->drop_after = from->drop_after;
    into->drop_keep_response = from->drop_keep_response;
  }
  if (from->stall_at >= 0) {
    into->stall_at = from->stall_at;
    into->stall_for = from->stall_for;
  }
  if (from->exhaust_after >= 0)
    into->exhaust_after = from->exhaust_after;
  if (from->bad_message) {
    replace_string (&into->bad_message, from->bad_message);
    into->bad_message_at = from->bad_message_at;
  }
  if (from->director_error) {
    replace_string (&into->director_error, from->director_error);
    into->director_error_at = from->director_error_at;
  }
  if (from->resize_at >= 0) {
    into->resize_at = from->resize_at;
    into->resize_width = from->resize_width;
    into->resize_height = from->resize_height;
  }
  if (from->announce_width > 0) {
    into->announce_width = from->announce_width;
    into->announce_height = from->announce_height;
  }
  if (from->no_configured)
    into->no_configured = TRUE;
}

gboolean
svc_faults_is_empty (const SvcFaults * f)
{
  return !f->refuse_type && f->answer_delay <= 0 && f->drop_after < 0 &&
      f->stall_at < 0 && f->exhaust_after < 0 && !f->bad_message &&
      !f->director_error && f->resize_at < 0 && f->announce_width <= 0 &&
      !f->no_configured;
}

void
svc_faults_free (SvcFaults * faults)
{
  if (!faults)
    return;
  g_free (faults->refuse_type);
  g_free (faults->bad_message);
  g_free (faults->director_error);
  g_free (faults);
}

static gboolean
parse_seconds (const gchar * text, gdouble * out, GError ** error)
{
  gchar *end = NULL;
  gdouble v = g_ascii_strtod (text, &end);

  if (!text[0] || !end || *end || v < 0 || v > 86400) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s' is not a number of seconds", text);
    return FALSE;
  }
  *out = v;
  return TRUE;
}

static gboolean
check_refuse_type (const gchar * type, GError ** error)
{
  if (svc_error_type_is_request_level (type) || model_type_index (type) >= 0)
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "'%s' is not an error type of spec 001", type);
  return FALSE;
}

static gboolean
check_in_list (const gchar * value, const gchar ** list, const gchar * what,
    GError ** error)
{
  if (g_strv_contains (list, value))
    return TRUE;
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "'%s' is not a %s", value, what);
  return FALSE;
}

/* "WxH", each 16 to 4096 and even (I420) */
static gboolean
parse_size (const gchar * value, gint * width, gint * height, GError ** error)
{
  gchar *end = NULL;
  gint64 w = value ? g_ascii_strtoll (value, &end, 10) : 0, h = 0;

  if (end && *end == 'x')
    h = g_ascii_strtoll (end + 1, &end, 10);
  if (!end || *end || w < 16 || h < 16 || w > 4096 || h > 4096 || w % 2
      || h % 2) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s' is not a video size WxH (even, 16 to 4096)", value);
    return FALSE;
  }
  *width = w;
  *height = h;
  return TRUE;
}

/* "WxH", each 1 to 65536: any size a session_info may announce, hostile
 * ones included (the video itself does not change) */
static gboolean
parse_announce (const gchar * value, gint * width, gint * height,
    GError ** error)
{
  gchar *end = NULL;
  gint64 w = 0, h = 0;

  if (value && g_ascii_isdigit (value[0]))
    w = g_ascii_strtoll (value, &end, 10);
  if (end && *end == 'x' && g_ascii_isdigit (end[1]))
    h = g_ascii_strtoll (end + 1, &end, 10);
  else
    end = NULL;
  if (!end || *end || w < 1 || h < 1 || w > 65536 || h > 65536) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "'%s' is not an announced size WxH (1 to 65536)", value ? value : "");
    return FALSE;
  }
  *width = w;
  *height = h;
  return TRUE;
}

/* One command line fault option: @name without "--fault-"; @value as in
 * docs/reference-service.md (NULL for a flag: "no-configured"). *@count is
 * set for "refuse" (else -1). */
gboolean
svc_faults_set_option (SvcFaults * f, const gchar * name, const gchar * value,
    gint * count, GError ** error)
{
  gchar **parts = g_strsplit (value ? value : "", ":", 2);
  const gchar *first = parts[0], *second = parts[1];
  gboolean ok = TRUE;

  *count = -1;
  if (g_str_equal (name, "refuse")) {
    ok = check_refuse_type (first, error);
    f->refuse_type = g_strdup (first);
    if (ok && second) {
      gchar *end;
      gint64 n = g_ascii_strtoll (second, &end, 10);

      if (*end || n < 1) {
        g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
            "'%s' is not a count", second);
        ok = FALSE;
      }
      *count = n;
    }
  } else if (g_str_equal (name, "answer-delay")) {
    ok = parse_seconds (value, &f->answer_delay, error);
  } else if (g_str_equal (name, "drop-after")) {
    ok = parse_seconds (first, &f->drop_after, error);
    f->drop_keep_response = g_strcmp0 (second, "keep") == 0;
  } else if (g_str_equal (name, "stall")) {
    ok = second && parse_seconds (first, &f->stall_at, error) &&
        parse_seconds (second, &f->stall_for, error);
    if (!second)
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--fault-stall takes AT:SECONDS");
  } else if (g_str_equal (name, "exhaust-after")) {
    ok = parse_seconds (value, &f->exhaust_after, error);
  } else if (g_str_equal (name, "resize")) {
    ok = second && parse_seconds (first, &f->resize_at, error) &&
        parse_size (second, &f->resize_width, &f->resize_height, error);
    if (!second)
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--fault-resize takes AT:WxH");
  } else if (g_str_equal (name, "announce")) {
    ok = parse_announce (value, &f->announce_width, &f->announce_height, error);
  } else if (g_str_equal (name, "no-configured")) {
    f->no_configured = TRUE;
    if (value && value[0]) {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
          "--fault-no-configured takes no value");
      ok = FALSE;
    }
  } else if (g_str_equal (name, "bad-message")) {
    ok = check_in_list (first, bad_message_kinds, "bad message kind", error);
    f->bad_message = g_strdup (first);
    f->bad_message_at = 0;
    if (ok && second)
      ok = parse_seconds (second, &f->bad_message_at, error);
  } else if (g_str_equal (name, "director-error")) {
    ok = check_in_list (first, director_fault_codes, "director error code",
        error);
    f->director_error = g_strdup (first);
    f->director_error_at = 0;
    if (ok && second)
      ok = parse_seconds (second, &f->director_error_at, error);
  } else {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
        "unknown fault '%s'", name);
    ok = FALSE;
  }
  g_strfreev (parts);
  return ok;
}

/* ---------------------------------------------------------------- *
 * JSON (admin endpoint)
 * ---------------------------------------------------------------- */

static gboolean
json_seconds (JsonNode * node, const gchar * key, gdouble * out,
    GError ** error)
{
  if (node && JSON_NODE_HOLDS_VALUE (node)) {
    GType t = json_node_get_value_type (node);

    if (t == G_TYPE_INT64 || t == G_TYPE_DOUBLE) {
      gdouble v = t == G_TYPE_INT64 ? json_node_get_int (node) :
          json_node_get_double (node);

      if (v >= 0 && v <= 86400) {
        *out = v;
        return TRUE;
      }
    }
  }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "'%s' must be a number of seconds", key);
  return FALSE;
}

static const gchar *
json_string (JsonObject * obj, const gchar * key)
{
  JsonNode *node = json_object_get_member (obj, key);

  if (node && JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING)
    return json_node_get_string (node);
  return NULL;
}

/* A string, or an object with the string under @key and a time under
 * @time_key. */
static gboolean
json_named_at (JsonNode * node, const gchar * member, const gchar * key,
    const gchar * time_key, gchar ** name, gdouble * at, GError ** error)
{
  *at = 0;
  if (JSON_NODE_HOLDS_VALUE (node) &&
      json_node_get_value_type (node) == G_TYPE_STRING) {
    *name = g_strdup (json_node_get_string (node));
    return TRUE;
  }
  if (JSON_NODE_HOLDS_OBJECT (node)) {
    JsonObject *obj = json_node_get_object (node);
    const gchar *s = json_string (obj, key);

    if (s) {
      *name = g_strdup (s);
      if (!time_key || !json_object_has_member (obj, time_key))
        return TRUE;
      return json_seconds (json_object_get_member (obj, time_key), time_key,
          at, error);
    }
  }
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "'%s' must be a string or an object with '%s'", member, key);
  return FALSE;
}

static gboolean
rule_member (SvcFaultRule * rule, const gchar * key, JsonNode * node,
    GError ** error)
{
  SvcFaults *f = rule->faults;
  gdouble unused;

  if (g_str_equal (key, "app")) {
    const gchar *app = JSON_NODE_HOLDS_VALUE (node) &&
        json_node_get_value_type (node) == G_TYPE_STRING ?
        json_node_get_string (node) : "";

    if (g_str_equal (app, "world"))
      rule->app = GST_SESSION_APP_WORLD;
    else if (g_str_equal (app, "director"))
      rule->app = GST_SESSION_APP_DIRECTOR;
    else
      goto bad;
  } else if (g_str_equal (key, "session_id")) {
    if (!JSON_NODE_HOLDS_VALUE (node) ||
        json_node_get_value_type (node) != G_TYPE_STRING)
      goto bad;
    rule->session_id = g_strdup (json_node_get_string (node));
  } else if (g_str_equal (key, "count")) {
    if (!JSON_NODE_HOLDS_VALUE (node) ||
        json_node_get_value_type (node) != G_TYPE_INT64 ||
        json_node_get_int (node) < -1 || json_node_get_int (node) == 0)
      goto bad;
    rule->remaining = json_node_get_int (node);
  } else if (g_str_equal (key, "refuse")) {
    if (!json_named_at (node, key, "error_type", NULL, &f->refuse_type,
            &unused, error) || !check_refuse_type (f->refuse_type, error))
      return FALSE;
    if (JSON_NODE_HOLDS_OBJECT (node)) {
      JsonObject *obj = json_node_get_object (node);

      if (json_object_has_member (obj, "status"))
        f->refuse_status = json_object_get_int_member (obj, "status");
      if (json_object_has_member (obj, "retryable"))
        f->refuse_retryable = json_object_get_boolean_member (obj, "retryable");
      if (f->refuse_status && (f->refuse_status < 400
              || f->refuse_status > 599))
        goto bad;
    }
  } else if (g_str_equal (key, "answer_delay")) {
    return json_seconds (node, key, &f->answer_delay, error);
  } else if (g_str_equal (key, "drop_after")) {
    return json_seconds (node, key, &f->drop_after, error);
  } else if (g_str_equal (key, "drop_keep_response")) {
    if (!JSON_NODE_HOLDS_VALUE (node) ||
        json_node_get_value_type (node) != G_TYPE_BOOLEAN)
      goto bad;
    f->drop_keep_response = json_node_get_boolean (node);
  } else if (g_str_equal (key, "stall")) {
    JsonObject *obj;

    if (!JSON_NODE_HOLDS_OBJECT (node))
      goto bad;
    obj = json_node_get_object (node);
    if (!json_seconds (json_object_get_member (obj, "at"), "stall.at",
            &f->stall_at, error) ||
        !json_seconds (json_object_get_member (obj, "duration"),
            "stall.duration", &f->stall_for, error))
      return FALSE;
  } else if (g_str_equal (key, "exhaust_after")) {
    return json_seconds (node, key, &f->exhaust_after, error);
  } else if (g_str_equal (key, "resize")) {
    JsonObject *obj;
    JsonNode *size;

    if (!JSON_NODE_HOLDS_OBJECT (node))
      goto bad;
    obj = json_node_get_object (node);
    size = json_object_get_member (obj, "size");
    if (!json_seconds (json_object_get_member (obj, "at"), "resize.at",
            &f->resize_at, error))
      return FALSE;
    if (!size || !JSON_NODE_HOLDS_VALUE (size) ||
        json_node_get_value_type (size) != G_TYPE_STRING)
      goto bad;
    return parse_size (json_node_get_string (size), &f->resize_width,
        &f->resize_height, error);
  } else if (g_str_equal (key, "announce")) {
    if (!JSON_NODE_HOLDS_VALUE (node) ||
        json_node_get_value_type (node) != G_TYPE_STRING)
      goto bad;
    return parse_announce (json_node_get_string (node), &f->announce_width,
        &f->announce_height, error);
  } else if (g_str_equal (key, "no_configured")) {
    if (!JSON_NODE_HOLDS_VALUE (node) ||
        json_node_get_value_type (node) != G_TYPE_BOOLEAN)
      goto bad;
    f->no_configured = json_node_get_boolean (node);
  } else if (g_str_equal (key, "bad_message")) {
    return json_named_at (node, key, "kind", "at", &f->bad_message,
        &f->bad_message_at, error) &&
        check_in_list (f->bad_message, bad_message_kinds, "bad message kind",
        error);
  } else if (g_str_equal (key, "director_error")) {
    return json_named_at (node, key, "code", "at", &f->director_error,
        &f->director_error_at, error) &&
        check_in_list (f->director_error, director_fault_codes,
        "director error code", error);
  } else {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION,
        "unknown member '%s'", key);
    return FALSE;
  }
  return TRUE;

bad:
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
      "bad value of '%s'", key);
  return FALSE;
}

SvcFaultRule *
svc_fault_rule_from_json (JsonNode * node, GError ** error)
{
  SvcFaultRule *rule;
  JsonObject *obj;
  GList *members, *l;

  if (!node || !JSON_NODE_HOLDS_OBJECT (node)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "a fault rule is a JSON object");
    return NULL;
  }
  rule = g_new0 (SvcFaultRule, 1);
  rule->app = -1;
  rule->remaining = 1;
  rule->faults = svc_faults_new ();
  obj = json_node_get_object (node);
  members = json_object_get_members (obj);
  for (l = members; l; l = l->next) {
    if (!rule_member (rule, l->data, json_object_get_member (obj, l->data),
            error)) {
      g_list_free (members);
      svc_fault_rule_free (rule);
      return NULL;
    }
  }
  g_list_free (members);
  if (svc_faults_is_empty (rule->faults)) {
    g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
        "the rule sets no fault");
    svc_fault_rule_free (rule);
    return NULL;
  }
  return rule;
}

void
svc_fault_rule_to_json (const SvcFaultRule * rule, JsonBuilder * b)
{
  const SvcFaults *f = rule->faults;

  json_builder_begin_object (b);
  if (rule->app >= 0) {
    json_builder_set_member_name (b, "app");
    json_builder_add_string_value (b, gst_session_app_get_name (rule->app));
  }
  if (rule->session_id) {
    json_builder_set_member_name (b, "session_id");
    json_builder_add_string_value (b, rule->session_id);
  }
  json_builder_set_member_name (b, "count");
  json_builder_add_int_value (b, rule->remaining);
  if (f->refuse_type) {
    json_builder_set_member_name (b, "refuse");
    json_builder_add_string_value (b, f->refuse_type);
  }
  if (f->answer_delay > 0) {
    json_builder_set_member_name (b, "answer_delay");
    json_builder_add_double_value (b, f->answer_delay);
  }
  if (f->drop_after >= 0) {
    json_builder_set_member_name (b, "drop_after");
    json_builder_add_double_value (b, f->drop_after);
    json_builder_set_member_name (b, "drop_keep_response");
    json_builder_add_boolean_value (b, f->drop_keep_response);
  }
  if (f->stall_at >= 0) {
    json_builder_set_member_name (b, "stall");
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "at");
    json_builder_add_double_value (b, f->stall_at);
    json_builder_set_member_name (b, "duration");
    json_builder_add_double_value (b, f->stall_for);
    json_builder_end_object (b);
  }
  if (f->resize_at >= 0) {
    gchar *size = g_strdup_printf ("%dx%d", f->resize_width,
        f->resize_height);

    json_builder_set_member_name (b, "resize");
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "at");
    json_builder_add_double_value (b, f->resize_at);
    json_builder_set_member_name (b, "size");
    json_builder_add_string_value (b, size);
    json_builder_end_object (b);
    g_free (size);
  }
  if (f->announce_width > 0) {
    gchar *size = g_strdup_printf ("%dx%d", f->announce_width,
        f->announce_height);

    json_builder_set_member_name (b, "announce");
    json_builder_add_string_value (b, size);
    g_free (size);
  }
  if (f->no_configured) {
    json_builder_set_member_name (b, "no_configured");
    json_builder_add_boolean_value (b, TRUE);
  }
  if (f->exhaust_after >= 0) {
    json_builder_set_member_name (b, "exhaust_after");
    json_builder_add_double_value (b, f->exhaust_after);
  }
  if (f->bad_message) {
    json_builder_set_member_name (b, "bad_message");
    json_builder_add_string_value (b, f->bad_message);
  }
  if (f->director_error) {
    json_builder_set_member_name (b, "director_error");
    json_builder_add_string_value (b, f->director_error);
  }
  json_builder_end_object (b);
}

void
svc_fault_rule_free (SvcFaultRule * rule)
{
  if (!rule)
    return;
  g_free (rule->session_id);
  svc_faults_free (rule->faults);
  g_free (rule);
}

/* The HTTP answer of a refused start. FALSE when @faults refuse nothing. */
gboolean
svc_faults_refusal (const SvcFaults * faults, const gchar * base_url,
    guint * status, gchar ** body, gchar ** error_type, gint * retryable,
    gboolean * request_level)
{
  const gchar *type = faults->refuse_type;
  JsonBuilder *b;
  JsonNode *root;
  gint m;

  if (!type)
    return FALSE;

  *status = faults->refuse_status ? faults->refuse_status :
      svc_error_type_status (type);
  *error_type = g_strdup (type);
  *request_level = svc_error_type_is_request_level (type);
  b = json_builder_new ();
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "detail");
  if (*request_level) {
    *retryable = faults->refuse_retryable;
    json_builder_add_string_value (b, "refused by an injected fault");
    json_builder_set_member_name (b, "error_type");
    json_builder_add_string_value (b, type);
  } else {
    gchar *url = g_strdup_printf ("%s/docs/errors/#%s", base_url, type);

    m = model_type_index (type);
    *retryable = faults->refuse_retryable >= 0 ? faults->refuse_retryable :
        model_types[m].retryable;
    json_builder_begin_array (b);
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "loc");
    json_builder_begin_array (b);
    json_builder_add_string_value (b, "body");
    json_builder_end_array (b);
    json_builder_set_member_name (b, "msg");
    json_builder_add_string_value (b, "refused by an injected fault");
    json_builder_set_member_name (b, "type");
    json_builder_add_string_value (b, type);
    json_builder_set_member_name (b, "url");
    json_builder_add_string_value (b, url);
    if (model_types[m].ctx) {
      json_builder_set_member_name (b, "ctx");
      json_builder_add_value (b, json_from_string (model_types[m].ctx, NULL));
    }
    json_builder_end_object (b);
    json_builder_end_array (b);
    g_free (url);
  }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  *body = gst_session_json_write (root, FALSE);
  json_node_unref (root);
  g_object_unref (b);
  return TRUE;
}
