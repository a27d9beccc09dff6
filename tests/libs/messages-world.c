/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The world message rules of spec 000 (World session sections): client
 * messages, service messages, typed builders, round trips and JSON limits.
 */

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/message.h>
#include <gst/session/world.h>

#define CLIENT GST_SESSION_DIRECTION_CLIENT
#define SERVICE GST_SESSION_DIRECTION_SERVICE

/* ---------------------------------------------------------------- helpers */

/* @unit repeated @n times (a newly allocated string) */
static gchar *
repeat (const gchar * unit, guint n)
{
  GString *s = g_string_sized_new (strlen (unit) * n + 1);
  guint i;

  for (i = 0; i < n; i++)
    g_string_append (s, unit);
  return g_string_free (s, FALSE);
}

/* {"type":"<type>","<field>":"<unit x n>"} */
static gchar *
json_with_string (const gchar * type, const gchar * field, const gchar * unit,
    guint n)
{
  gchar *value = repeat (unit, n);
  gchar *json = g_strdup_printf ("{\"type\":\"%s\",\"%s\":\"%s\"}", type,
      field, value);

  g_free (value);
  return json;
}

/* Parses @json as a world message of @dir; it must be accepted. */
static GstSessionMessage *
parse_ok (GstSessionDirection dir, const gchar * json)
{
  GError *err = NULL;
  GstSessionMessage *msg;

  msg = gst_session_message_parse (GST_SESSION_APP_WORLD, dir, json, -1, &err);
  fail_unless (msg != NULL, "refused %.200s: %s", json,
      err ? err->message : "(no error)");
  fail_unless (err == NULL);
  return msg;
}

static void
accept (GstSessionDirection dir, const gchar * json)
{
  GstSessionMessage *msg = parse_ok (dir, json);

  fail_unless (gst_session_message_is_known (msg), "unknown: %.200s", json);
  gst_session_message_unref (msg);
}

/* Asserts @err is set with @code and its text contains each of @needles
 * (a NULL needle is skipped); frees @err. */
static void
check_error (GError * err, gint code, const gchar * what,
    const gchar * n1, const gchar * n2, const gchar * n3)
{
  const gchar *needles[] = { n1, n2, n3 };
  guint i;

  fail_unless (err != NULL, "no error for %.200s", what);
  fail_unless (err->domain == GST_SESSION_ERROR, "domain %s for %.200s",
      g_quark_to_string (err->domain), what);
  fail_unless_equals_int (err->code, code);
  for (i = 0; i < G_N_ELEMENTS (needles); i++) {
    if (needles[i])
      fail_unless (strstr (err->message, needles[i]) != NULL,
          "error \"%s\" for %.200s lacks \"%s\"", err->message, what,
          needles[i]);
  }
  g_error_free (err);
}

/* @json must be refused with @code; the error text must contain @type,
 * @pointer and @limit (each may be NULL). */
static void
refuse_code (GstSessionDirection dir, const gchar * json, gint code,
    const gchar * type, const gchar * pointer, const gchar * limit)
{
  GError *err = NULL;
  GstSessionMessage *msg;

  msg = gst_session_message_parse (GST_SESSION_APP_WORLD, dir, json, -1, &err);
  fail_unless (msg == NULL, "accepted %.200s", json);
  check_error (err, code, json, type, pointer, limit);
}

static void
refuse (GstSessionDirection dir, const gchar * json, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  refuse_code (dir, json, GST_SESSION_ERROR_INVALID_MESSAGE, type, pointer,
      limit);
}

/* the string field @field of a parsed message */
static const gchar *
get_string (GstSessionMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_session_message_get_structure (msg);
  const GValue *v = gst_structure_get_value (s, field);

  fail_unless (v != NULL, "no field %s", field);
  fail_unless (G_VALUE_HOLDS_STRING (v), "%s is a %s", field,
      G_VALUE_TYPE_NAME (v));
  return g_value_get_string (v);
}

/* ------------------------------------------------------- prompt message */

typedef struct
{
  const gchar *unit;
  guint count;
  gboolean ok;
} LengthCase;

static const LengthCase prompt_lengths[] = {
  {"a", 1, TRUE},
  {"a", 2000, TRUE},
  {"a", 2001, FALSE},
  {"\xc3\xa9", 2000, TRUE},     /* é: 2 bytes, 1 character */
  {"\xc3\xa9", 2001, FALSE},
  {"\xf0\x9d\x84\x9e", 2000, TRUE},     /* 𝄞: 4 bytes, 1 character */
  {"\xf0\x9d\x84\x9e", 2001, FALSE},
};

GST_START_TEST (test_prompt_length)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (prompt_lengths); i++) {
    const LengthCase *c = &prompt_lengths[i];
    gchar *json = json_with_string ("prompt", "prompt", c->unit, c->count);

    if (c->ok) {
      GstSessionMessage *msg = parse_ok (CLIENT, json);
      const gchar *p = get_string (msg, "prompt");

      fail_unless (p != NULL);
      fail_unless_equals_int (g_utf8_strlen (p, -1), c->count);
      gst_session_message_unref (msg);
    } else {
      refuse (CLIENT, json, "prompt", "/prompt", "2000");
    }
    g_free (json);
  }
}

GST_END_TEST;

GST_START_TEST (test_prompt_required)
{
  refuse (CLIENT, "{\"type\":\"prompt\",\"prompt\":\"\"}", "prompt", "/prompt",
      "1");
  refuse (CLIENT, "{\"type\":\"prompt\",\"prompt\":null}", "prompt", "/prompt",
      NULL);
  refuse (CLIENT, "{\"type\":\"prompt\"}", "prompt", "/prompt", NULL);
  refuse (CLIENT, "{\"type\":\"prompt\",\"prompt\":5}", "prompt", "/prompt",
      NULL);
}

GST_END_TEST;

/* ------------------------------------------------- configure and reset */

typedef struct
{
  const gchar *field;
  guint max;
} MaxCase;

static const MaxCase setup_limits[] = {
  {"prompt", 2000},
  {"preset", 100},
  {"image_url", 4096},
};

static const gchar *setup_types[] = { "configure", "reset" };

GST_START_TEST (test_setup_lengths)
{
  guint t, i;

  for (t = 0; t < G_N_ELEMENTS (setup_types); t++) {
    for (i = 0; i < G_N_ELEMENTS (setup_limits); i++) {
      const MaxCase *c = &setup_limits[i];
      gchar *pointer = g_strdup_printf ("/%s", c->field);
      gchar *limit = g_strdup_printf ("%u", c->max);
      gchar *json;

      json = json_with_string (setup_types[t], c->field, "x", c->max);
      accept (CLIENT, json);
      g_free (json);

      json = json_with_string (setup_types[t], c->field, "x", c->max + 1);
      refuse (CLIENT, json, setup_types[t], pointer, limit);
      g_free (json);

      /* "" and null are allowed: there is no minimum */
      json = json_with_string (setup_types[t], c->field, "", 0);
      accept (CLIENT, json);
      g_free (json);

      json = g_strdup_printf ("{\"type\":\"%s\",\"%s\":null}", setup_types[t],
          c->field);
      accept (CLIENT, json);
      g_free (json);

      g_free (pointer);
      g_free (limit);
    }
  }
}

GST_END_TEST;

GST_START_TEST (test_setup_fields)
{
  GstSessionMessage *msg;
  guint t;

  for (t = 0; t < G_N_ELEMENTS (setup_types); t++) {
    gchar *json;

    /* no field at all, and all three */
    json = g_strdup_printf ("{\"type\":\"%s\"}", setup_types[t]);
    accept (CLIENT, json);
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"%s\",\"preset\":\"desert-valley\","
        "\"image_url\":\"https://example.com/a.png\",\"prompt\":\"a lake\"}",
        setup_types[t]);
    msg = parse_ok (CLIENT, json);
    fail_unless_equals_string (gst_session_message_get_type_name (msg),
        setup_types[t]);
    fail_unless_equals_string (get_string (msg, "preset"), "desert-valley");
    fail_unless_equals_string (get_string (msg, "image_url"),
        "https://example.com/a.png");
    fail_unless_equals_string (get_string (msg, "prompt"), "a lake");
    gst_session_message_unref (msg);
    g_free (json);

    /* wrong types */
    json = g_strdup_printf ("{\"type\":\"%s\",\"preset\":3}", setup_types[t]);
    refuse (CLIENT, json, setup_types[t], "/preset", NULL);
    g_free (json);
  }

  /* null parses as a string GValue holding NULL */
  msg = parse_ok (CLIENT, "{\"type\":\"configure\",\"prompt\":null}");
  fail_unless (get_string (msg, "prompt") == NULL);
  gst_session_message_unref (msg);

  /* configure allows extra properties */
  msg = parse_ok (CLIENT,
      "{\"type\":\"configure\",\"preset\":\"example\",\"seed\":7}");
  fail_unless (gst_session_message_is_known (msg));
  gst_session_message_unref (msg);
}

GST_END_TEST;

GST_START_TEST (test_stop)
{
  accept (CLIENT, "{\"type\":\"stop\"}");
  refuse (CLIENT, "{\"type\":\"stop\",\"x\":1}", "stop", "/x", NULL);
}

GST_END_TEST;

/* ------------------------------------------------------------- commands */

/* {"type":"<type>","<field>":[<items>]} with @items already JSON text */
static gchar *
json_with_array (const gchar * type, const gchar * field, const gchar * items)
{
  return g_strdup_printf ("{\"type\":\"%s\",\"%s\":[%s]}", type, field, items);
}

/* eight items, each allowed value used, some repeated */
static const gchar *eight_commands =
    "\"forward\",\"forward\",\"left\",\"look_up\",\"look_left\","
    "\"look_left\",\"left\",\"forward\"";

static const gchar *all_commands =
    "\"forward\",\"left\",\"look_up\",\"look_left\"";

static const gchar *other_commands =
    "\"backward\",\"right\",\"look_down\",\"look_right\"";

static const gchar *command_fields[] = { "active", "activated" };

GST_START_TEST (test_commands_items)
{
  guint f;

  accept (CLIENT, "{\"type\":\"commands\"}");
  accept (CLIENT, "{\"type\":\"commands\",\"active\":[],\"activated\":[]}");

  for (f = 0; f < G_N_ELEMENTS (command_fields); f++) {
    const gchar *field = command_fields[f];
    gchar *pointer = g_strdup_printf ("/%s", field);
    gchar *pointer0 = g_strdup_printf ("/%s/0", field);
    gchar *items, *json;

    json = json_with_array ("commands", field, eight_commands);
    accept (CLIENT, json);
    g_free (json);

    json = json_with_array ("commands", field, all_commands);
    accept (CLIENT, json);
    g_free (json);

    json = json_with_array ("commands", field, other_commands);
    accept (CLIENT, json);
    g_free (json);

    items = g_strdup_printf ("%s,\"right\"", eight_commands);
    json = json_with_array ("commands", field, items);
    refuse (CLIENT, json, "commands", pointer, "8");
    g_free (json);
    g_free (items);

    json = json_with_array ("commands", field, "\"fly\"");
    refuse (CLIENT, json, "commands", pointer0, "fly");
    g_free (json);

    json = json_with_array ("commands", field, "\"Forward\"");
    refuse (CLIENT, json, "commands", pointer0, NULL);
    g_free (json);

    json = json_with_array ("commands", field, "1");
    refuse (CLIENT, json, "commands", pointer0, NULL);
    g_free (json);

    json = json_with_array ("commands", field, "null");
    refuse (CLIENT, json, "commands", pointer0, NULL);
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"commands\",\"%s\":\"forward\"}",
        field);
    refuse (CLIENT, json, "commands", pointer, NULL);
    g_free (json);

    g_free (pointer);
    g_free (pointer0);
  }
}

GST_END_TEST;

static const gchar *conflict_groups[][2] = {
  {"forward", "backward"},
  {"left", "right"},
  {"look_up", "look_down"},
  {"look_left", "look_right"},
};

GST_START_TEST (test_commands_conflicts)
{
  guint f, g;

  for (f = 0; f < G_N_ELEMENTS (command_fields); f++) {
    const gchar *field = command_fields[f];
    gchar *pointer1 = g_strdup_printf ("/%s/1", field);
    gchar *pointer2 = g_strdup_printf ("/%s/2", field);

    for (g = 0; g < G_N_ELEMENTS (conflict_groups); g++) {
      const gchar *a = conflict_groups[g][0], *b = conflict_groups[g][1];
      gchar *items, *json;

      items = g_strdup_printf ("\"%s\",\"%s\"", a, b);
      json = json_with_array ("commands", field, items);
      refuse (CLIENT, json, "commands", pointer1, a);
      g_free (json);
      g_free (items);

      /* the other order, with a repeat and an unrelated command between */
      items = g_strdup_printf ("\"%s\",\"%s\",\"%s\"", b, b, a);
      json = json_with_array ("commands", field, items);
      refuse (CLIENT, json, "commands", pointer2, b);
      g_free (json);
      g_free (items);
    }
    g_free (pointer1);
    g_free (pointer2);
  }

  /* the groups apply within one list, not across active and activated */
  for (g = 0; g < G_N_ELEMENTS (conflict_groups); g++) {
    gchar *json = g_strdup_printf ("{\"type\":\"commands\","
        "\"active\":[\"%s\"],\"activated\":[\"%s\"]}",
        conflict_groups[g][0], conflict_groups[g][1]);

    accept (CLIENT, json);
    g_free (json);
  }
}

GST_END_TEST;

/* ----------------------------------------------------------------- keys */

GST_START_TEST (test_keys)
{
  static const gchar *fields[] = { "pressed", "activated" };
  guint f;

  accept (CLIENT, "{\"type\":\"keys\"}");
  accept (CLIENT, "{\"type\":\"keys\",\"pressed\":[\"KeyW\",\"ArrowUp\"],"
      "\"activated\":[\"Space\"]}");

  for (f = 0; f < G_N_ELEMENTS (fields); f++) {
    gchar *pointer = g_strdup_printf ("/%s", fields[f]);
    gchar *items, *json;

    /* 32 items (repeats allowed), then 33 */
    items = repeat ("\"KeyW\",", 32);
    items[strlen (items) - 1] = '\0';
    json = json_with_array ("keys", fields[f], items);
    accept (CLIENT, json);
    g_free (json);
    g_free (items);

    items = repeat ("\"KeyW\",", 33);
    items[strlen (items) - 1] = '\0';
    json = json_with_array ("keys", fields[f], items);
    refuse (CLIENT, json, "keys", pointer, "32");
    g_free (json);
    g_free (items);

    json = json_with_array ("keys", fields[f], "7");
    refuse (CLIENT, json, "keys", pointer, NULL);
    g_free (json);

    g_free (pointer);
  }
}

GST_END_TEST;

/* ----------------------------------------------------------------- ping */

GST_START_TEST (test_ping)
{
  GstSessionMessage *msg;
  const GValue *v;
  gdouble ts;

  msg = parse_ok (CLIENT, "{\"type\":\"ping\",\"ts\":12.5}");
  fail_unless (gst_structure_get_double (gst_session_message_get_structure
          (msg), "ts", &ts));
  fail_unless (ts == 12.5);
  gst_session_message_unref (msg);

  /* a number without fraction is still a number (a double) */
  msg = parse_ok (CLIENT, "{\"type\":\"ping\",\"ts\":3}");
  v = gst_structure_get_value (gst_session_message_get_structure (msg), "ts");
  fail_unless (v != NULL && G_VALUE_HOLDS_DOUBLE (v));
  fail_unless (g_value_get_double (v) == 3.0);
  gst_session_message_unref (msg);

  msg = parse_ok (CLIENT, "{\"type\":\"ping\",\"ts\":null}");
  fail_unless (get_string (msg, "ts") == NULL);
  gst_session_message_unref (msg);

  accept (CLIENT, "{\"type\":\"ping\"}");
  refuse (CLIENT, "{\"type\":\"ping\",\"ts\":\"a\"}", "ping", "/ts", NULL);
  refuse (CLIENT, "{\"type\":\"ping\",\"ts\":true}", "ping", "/ts", NULL);
}

GST_END_TEST;

/* ------------------------------------------------------ service messages */

/* the members of a full session_info, one JSON member each */
static const gchar *session_info_members[] = {
  "\"model_id\":\"world-model\"",
  "\"model_revision\":\"r1\"",
  "\"resolution\":{\"width\":1280,\"height\":704}",
  "\"frames_per_second\":16",
  "\"frames_per_block\":4",
  "\"max_blocks\":120",
  "\"key_order\":[\"forward\",\"left\",\"backward\",\"right\"]",
  "\"conflict_groups\":[[\"forward\",\"backward\"],[\"left\",\"right\"]]",
  "\"default_prompt\":\"a quiet valley\"",
  "\"presets\":[{\"name\":\"example\",\"prompt\":\"an example\"},"
      "{\"name\":\"desert-valley\",\"prompt\":\"sand and sky\"}]",
  "\"turn\":true",
  "\"turn_status\":\"ok\"",
};

static const gchar *stats_members[] = {
  "\"block_index\":3",
  "\"block_seconds\":0.25",
  "\"generation_fps\":18.5",
  "\"gpu_wait_frac\":0.1",
  "\"queue_age_ms_p50\":12",
  "\"queue_age_ms_max\":40.5",
  "\"pace_sleep_ms_avg\":1.5",
  "\"queue_depth\":2",
};

/* {"type":"<type>", members...}: member @skip is left out and member
 * @swap (if not -1) is replaced by @replacement */
static gchar *
json_object_of (const gchar * type, const gchar ** members, guint n,
    gint skip, gint swap, const gchar * replacement)
{
  GString *s = g_string_new (NULL);
  guint i;

  g_string_append_printf (s, "{\"type\":\"%s\"", type);
  for (i = 0; i < n; i++) {
    if ((gint) i == skip)
      continue;
    g_string_append_c (s, ',');
    g_string_append (s, (gint) i == swap ? replacement : members[i]);
  }
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

static GType
field_type (const GstStructure * s, const gchar * field)
{
  const GValue *v = gst_structure_get_value (s, field);

  fail_unless (v != NULL, "no field %s", field);
  return G_VALUE_TYPE (v);
}

GST_START_TEST (test_session_info)
{
  GstSessionMessage *msg;
  const GstStructure *s, *res, *preset;
  const GValue *v, *item;
  gchar *json;
  gint64 i64;
  gdouble d;
  gboolean b;
  guint i;

  json = json_object_of ("session_info", session_info_members,
      G_N_ELEMENTS (session_info_members), -1, -1, NULL);
  msg = parse_ok (SERVICE, json);
  g_free (json);
  fail_unless (gst_session_message_is_known (msg));
  s = gst_session_message_get_structure (msg);
  fail_unless_equals_string (gst_structure_get_name (s), "session_info");
  fail_unless_equals_string (gst_structure_get_string (s, "model_id"),
      "world-model");
  fail_unless_equals_string (gst_structure_get_string (s, "model_revision"),
      "r1");
  fail_unless_equals_string (gst_structure_get_string (s, "default_prompt"),
      "a quiet valley");
  fail_unless_equals_string (gst_structure_get_string (s, "turn_status"), "ok");

  fail_unless (field_type (s, "resolution") == GST_TYPE_STRUCTURE);
  fail_unless (gst_structure_get (s, "resolution", GST_TYPE_STRUCTURE, &res,
          NULL));
  fail_unless (field_type (res, "width") == G_TYPE_INT64);
  fail_unless (gst_structure_get_int64 (res, "width", &i64) && i64 == 1280);
  fail_unless (gst_structure_get_int64 (res, "height", &i64) && i64 == 704);
  gst_structure_free ((GstStructure *) res);

  /* a number without fraction is a double, an integer an int64 */
  fail_unless (gst_structure_get_double (s, "frames_per_second", &d));
  fail_unless (d == 16.0);
  fail_unless (gst_structure_get_int64 (s, "frames_per_block", &i64));
  fail_unless_equals_int64 (i64, 4);
  fail_unless (gst_structure_get_int64 (s, "max_blocks", &i64));
  fail_unless_equals_int64 (i64, 120);
  fail_unless (gst_structure_get_boolean (s, "turn", &b) && b);

  v = gst_structure_get_value (s, "key_order");
  fail_unless (GST_VALUE_HOLDS_ARRAY (v));
  fail_unless_equals_int (gst_value_array_get_size (v), 4);
  fail_unless_equals_string (g_value_get_string (gst_value_array_get_value (v,
              2)), "backward");

  v = gst_structure_get_value (s, "conflict_groups");
  fail_unless (GST_VALUE_HOLDS_ARRAY (v));
  fail_unless_equals_int (gst_value_array_get_size (v), 2);
  item = gst_value_array_get_value (v, 1);
  fail_unless (GST_VALUE_HOLDS_ARRAY (item));
  fail_unless_equals_int (gst_value_array_get_size (item), 2);
  fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
          (item, 0)), "left");
  fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
          (item, 1)), "right");

  v = gst_structure_get_value (s, "presets");
  fail_unless (GST_VALUE_HOLDS_ARRAY (v));
  fail_unless_equals_int (gst_value_array_get_size (v), 2);
  for (i = 0; i < 2; i++) {
    item = gst_value_array_get_value (v, i);
    fail_unless (GST_VALUE_HOLDS_STRUCTURE (item));
  }
  preset = gst_value_get_structure (gst_value_array_get_value (v, 1));
  fail_unless_equals_string (gst_structure_get_string (preset, "name"),
      "desert-valley");
  fail_unless_equals_string (gst_structure_get_string (preset, "prompt"),
      "sand and sky");
  gst_session_message_unref (msg);
}

GST_END_TEST;

GST_START_TEST (test_session_info_refused)
{
  guint i;
  gchar *json;

  /* every field is required */
  for (i = 0; i < G_N_ELEMENTS (session_info_members); i++) {
    gchar *name = g_strndup (session_info_members[i] + 1,
        strchr (session_info_members[i] + 1, '"') -
        session_info_members[i] - 1);
    gchar *pointer = g_strdup_printf ("/%s", name);

    json = json_object_of ("session_info", session_info_members,
        G_N_ELEMENTS (session_info_members), i, -1, NULL);
    refuse (SERVICE, json, "session_info", pointer, "required");
    g_free (json);
    g_free (pointer);
    g_free (name);
  }

  /* wrong types inside */
  json = json_object_of ("session_info", session_info_members,
      G_N_ELEMENTS (session_info_members), -1, 2,
      "\"resolution\":{\"width\":1280.5,\"height\":704}");
  refuse (SERVICE, json, "session_info", "/resolution/width", NULL);
  g_free (json);

  json = json_object_of ("session_info", session_info_members,
      G_N_ELEMENTS (session_info_members), -1, 9,
      "\"presets\":[{\"name\":\"example\"}]");
  refuse (SERVICE, json, "session_info", "/presets/0/prompt", NULL);
  g_free (json);

  json = json_object_of ("session_info", session_info_members,
      G_N_ELEMENTS (session_info_members), -1, 7,
      "\"conflict_groups\":[\"forward\"]");
  refuse (SERVICE, json, "session_info", "/conflict_groups/0", NULL);
  g_free (json);

  json = json_object_of ("session_info", session_info_members,
      G_N_ELEMENTS (session_info_members), -1, 10, "\"turn\":\"yes\"");
  refuse (SERVICE, json, "session_info", "/turn", NULL);
  g_free (json);
}

GST_END_TEST;

GST_START_TEST (test_stats)
{
  static const gchar *doubles[] = { "block_seconds", "generation_fps",
    "gpu_wait_frac", "queue_age_ms_p50", "queue_age_ms_max",
    "pace_sleep_ms_avg"
  };
  GstSessionMessage *msg;
  const GstStructure *s;
  gchar *json;
  gint64 i64;
  gdouble d;
  guint i;

  json = json_object_of ("stats", stats_members,
      G_N_ELEMENTS (stats_members), -1, -1, NULL);
  msg = parse_ok (SERVICE, json);
  g_free (json);
  fail_unless (gst_session_message_is_known (msg));
  s = gst_session_message_get_structure (msg);
  fail_unless (field_type (s, "block_index") == G_TYPE_INT64);
  fail_unless (field_type (s, "queue_depth") == G_TYPE_INT64);
  for (i = 0; i < G_N_ELEMENTS (doubles); i++)
    fail_unless (field_type (s, doubles[i]) == G_TYPE_DOUBLE, "%s", doubles[i]);
  fail_unless (gst_structure_get_int64 (s, "block_index", &i64));
  fail_unless_equals_int64 (i64, 3);
  fail_unless (gst_structure_get_int64 (s, "queue_depth", &i64));
  fail_unless_equals_int64 (i64, 2);
  fail_unless (gst_structure_get_double (s, "queue_age_ms_p50", &d));
  fail_unless (d == 12.0);
  fail_unless (gst_structure_get_double (s, "generation_fps", &d));
  fail_unless (d == 18.5);
  gst_session_message_unref (msg);

  /* every field is required */
  for (i = 0; i < G_N_ELEMENTS (stats_members); i++) {
    gchar *name = g_strndup (stats_members[i] + 1,
        strchr (stats_members[i] + 1, '"') - stats_members[i] - 1);
    gchar *pointer = g_strdup_printf ("/%s", name);

    json = json_object_of ("stats", stats_members,
        G_N_ELEMENTS (stats_members), i, -1, NULL);
    refuse (SERVICE, json, "stats", pointer, "required");
    g_free (json);
    g_free (pointer);
    g_free (name);
  }

  /* a string where a number is needed */
  json = json_object_of ("stats", stats_members, G_N_ELEMENTS (stats_members),
      -1, 2, "\"generation_fps\":\"fast\"");
  refuse (SERVICE, json, "stats", "/generation_fps", NULL);
  g_free (json);
}

GST_END_TEST;

/* 1.5 is not an integer; 2.0 is (JSON Schema: a number with a zero
 * fractional part) */
GST_START_TEST (test_integer_rule)
{
  GstSessionMessage *msg;
  gchar *json;
  gint64 i64;

  json = json_object_of ("stats", stats_members, G_N_ELEMENTS (stats_members),
      -1, 0, "\"block_index\":1.5");
  refuse (SERVICE, json, "stats", "/block_index", NULL);
  g_free (json);

  json = json_object_of ("stats", stats_members, G_N_ELEMENTS (stats_members),
      -1, 7, "\"queue_depth\":0.5");
  refuse (SERVICE, json, "stats", "/queue_depth", NULL);
  g_free (json);

  json = json_object_of ("stats", stats_members, G_N_ELEMENTS (stats_members),
      -1, 0, "\"block_index\":2.0");
  msg = parse_ok (SERVICE, json);
  g_free (json);
  fail_unless (field_type (gst_session_message_get_structure (msg),
          "block_index") == G_TYPE_INT64);
  fail_unless (gst_structure_get_int64 (gst_session_message_get_structure
          (msg), "block_index", &i64));
  fail_unless_equals_int64 (i64, 2);
  gst_session_message_unref (msg);

  json = json_object_of ("stats", stats_members, G_N_ELEMENTS (stats_members),
      -1, 0, "\"block_index\":\"3\"");
  refuse (SERVICE, json, "stats", "/block_index", NULL);
  g_free (json);
}

GST_END_TEST;

GST_START_TEST (test_error)
{
  GstSessionMessage *msg;
  gboolean b;

  msg = parse_ok (SERVICE, "{\"type\":\"error\",\"error\":\"model failed\"}");
  fail_unless_equals_string (get_string (msg, "error"), "model failed");
  gst_session_message_unref (msg);

  msg = parse_ok (SERVICE,
      "{\"type\":\"error\",\"error\":\"busy\",\"retryable\":true}");
  fail_unless (gst_structure_get_boolean (gst_session_message_get_structure
          (msg), "retryable", &b) && b);
  gst_session_message_unref (msg);

  accept (SERVICE, "{\"type\":\"error\",\"error\":\"x\",\"retryable\":false}");

  msg = parse_ok (SERVICE,
      "{\"type\":\"error\",\"error\":\"x\",\"retryable\":null}");
  fail_unless (get_string (msg, "retryable") == NULL);
  gst_session_message_unref (msg);

  refuse (SERVICE, "{\"type\":\"error\"}", "error", "/error", "required");
  refuse (SERVICE, "{\"type\":\"error\",\"retryable\":true}", "error",
      "/error", "required");
  refuse (SERVICE, "{\"type\":\"error\",\"error\":null}", "error", "/error",
      NULL);
  refuse (SERVICE, "{\"type\":\"error\",\"error\":\"x\",\"retryable\":\"y\"}",
      "error", "/retryable", NULL);
}

GST_END_TEST;

GST_START_TEST (test_pong)
{
  GstSessionMessage *msg;
  const GstStructure *s;
  gdouble d;

  msg = parse_ok (SERVICE, "{\"type\":\"pong\",\"ts\":12.5}");
  fail_unless (gst_structure_get_double (gst_session_message_get_structure
          (msg), "ts", &d) && d == 12.5);
  gst_session_message_unref (msg);

  msg = parse_ok (SERVICE,
      "{\"type\":\"pong\",\"client_ts\":12.5,\"server_ts\":1000}");
  s = gst_session_message_get_structure (msg);
  fail_unless (gst_structure_get_double (s, "client_ts", &d) && d == 12.5);
  fail_unless (field_type (s, "server_ts") == G_TYPE_DOUBLE);
  fail_unless (gst_structure_get_double (s, "server_ts", &d) && d == 1000.0);
  gst_session_message_unref (msg);

  accept (SERVICE, "{\"type\":\"pong\"}");
  accept (SERVICE,
      "{\"type\":\"pong\",\"ts\":null,\"client_ts\":null,\"server_ts\":null}");
  refuse (SERVICE, "{\"type\":\"pong\",\"server_ts\":\"now\"}", "pong",
      "/server_ts", NULL);
}

GST_END_TEST;

GST_START_TEST (test_type_only)
{
  static const gchar *types[] = { "configured", "prompt_applied",
    "reset_applied", "stream_exhausted"
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (types); i++) {
    gchar *json = g_strdup_printf ("{\"type\":\"%s\"}", types[i]);
    GstSessionMessage *msg = parse_ok (SERVICE, json);

    fail_unless (gst_session_message_is_known (msg));
    fail_unless_equals_string (gst_session_message_get_type_name (msg),
        types[i]);
    fail_unless_equals_int (gst_session_message_get_app (msg),
        GST_SESSION_APP_WORLD);
    fail_unless_equals_int (gst_session_message_get_direction (msg), SERVICE);
    gst_session_message_unref (msg);
    g_free (json);
  }
}

GST_END_TEST;

GST_START_TEST (test_unknown_type)
{
  GstSessionMessage *msg;
  const GstStructure *s;
  gchar *json;

  msg = parse_ok (SERVICE,
      "{\"type\":\"future_event\",\"n\":7,\"list\":[1,2],\"o\":{\"k\":\"v\"}}");
  fail_if (gst_session_message_is_known (msg));
  fail_unless_equals_string (gst_session_message_get_type_name (msg),
      "future_event");
  /* the sender's names are not made structure or field names (GStreamer
   * keeps those for the life of the process): the type is in a field, the
   * other fields are JSON text */
  s = gst_session_message_get_structure (msg);
  fail_unless_equals_string (gst_structure_get_name (s),
      GST_SESSION_MESSAGE_UNKNOWN_TYPE);
  fail_unless_equals_int (gst_structure_n_fields (s), 2);
  fail_unless_equals_string (gst_structure_get_string (s, "type"),
      "future_event");
  fail_unless_equals_string (gst_structure_get_string (s,
          GST_SESSION_MESSAGE_OTHER_FIELDS),
      "{\"n\":7,\"list\":[1,2],\"o\":{\"k\":\"v\"}}");
  json = gst_session_message_to_json (msg);
  fail_unless_equals_string (json,
      "{\"type\":\"future_event\",\"n\":7,\"list\":[1,2],"
      "\"o\":{\"k\":\"v\"}}");
  g_free (json);
  gst_session_message_unref (msg);

  /* no other field: none */
  msg = parse_ok (SERVICE, "{\"type\":\"1 odd type\"}");
  s = gst_session_message_get_structure (msg);
  fail_unless_equals_string (gst_structure_get_name (s),
      GST_SESSION_MESSAGE_UNKNOWN_TYPE);
  fail_unless_equals_int (gst_structure_n_fields (s), 1);
  fail_unless_equals_string (gst_structure_get_string (s, "type"),
      "1 odd type");
  gst_session_message_unref (msg);

  /* what JSON text cannot hold is refused by the JSON gate, before any
   * field is looked at (strict RFC 8259: no infinite number, no lone
   * surrogate) */
  refuse_code (SERVICE, "{\"type\":\"future_event\",\"o\":{\"k\":[1e999]}}",
      GST_SESSION_ERROR_INVALID_JSON, "too large", NULL, NULL);
  refuse_code (SERVICE, "{\"type\":\"future_event\",\"o\":\"\\udc00x\"}",
      GST_SESSION_ERROR_INVALID_JSON, "lone low surrogate", NULL, NULL);
  refuse_code (SERVICE, "{\"type\":\"future\\udc00x\"}",
      GST_SESSION_ERROR_INVALID_JSON, "lone low surrogate", NULL, NULL);

  /* a client type sent by the service is not a known service message */
  msg = parse_ok (SERVICE, "{\"type\":\"prompt\",\"prompt\":\"\"}");
  fail_if (gst_session_message_is_known (msg));
  gst_session_message_unref (msg);

  msg = parse_ok (CLIENT, "{\"type\":\"teleport\",\"to\":\"moon\"}");
  fail_if (gst_session_message_is_known (msg));
  gst_session_message_unref (msg);

  refuse (CLIENT, "{\"prompt\":\"a\"}", NULL, "/type", "required");
  refuse (CLIENT, "{\"type\":3}", NULL, "/type", NULL);
}

GST_END_TEST;

/* ------------------------------------------------------------- builders */

static void
built_equals (gchar * text, GError * err, const gchar * expected)
{
  fail_unless (err == NULL, "error building %s: %s", expected,
      err ? err->message : "");
  fail_unless_equals_string (text, expected);
  g_free (text);
}

static void
build_refused (gchar * text, GError * err, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  fail_unless (text == NULL, "built %s", text);
  check_error (err, GST_SESSION_ERROR_INVALID_MESSAGE, type, type, pointer,
      limit);
}

GST_START_TEST (test_build_exact)
{
  static const gchar *active[] = { "forward", "left", NULL };
  static const gchar *activated[] = { "look_up", NULL };
  static const gchar *keys[] = { "KeyW", "Space", NULL };
  GError *err = NULL;
  gchar *t;

  t = gst_session_world_build_configure (NULL, NULL, NULL, &err);
  built_equals (t, err, "{\"type\":\"configure\"}");

  t = gst_session_world_build_configure ("example",
      "https://example.com/a.png", "a lake", &err);
  built_equals (t, err, "{\"type\":\"configure\",\"preset\":\"example\","
      "\"image_url\":\"https://example.com/a.png\",\"prompt\":\"a lake\"}");

  t = gst_session_world_build_prompt ("a \"quoted\" lake", &err);
  built_equals (t, err,
      "{\"type\":\"prompt\",\"prompt\":\"a \\\"quoted\\\" lake\"}");

  t = gst_session_world_build_reset ("alpine-meadow", NULL, "snow", &err);
  built_equals (t, err,
      "{\"type\":\"reset\",\"preset\":\"alpine-meadow\",\"prompt\":\"snow\"}");

  t = gst_session_world_build_reset (NULL, NULL, NULL, &err);
  built_equals (t, err, "{\"type\":\"reset\"}");

  t = gst_session_world_build_stop (&err);
  built_equals (t, err, "{\"type\":\"stop\"}");

  t = gst_session_world_build_commands (active, activated, &err);
  built_equals (t, err, "{\"type\":\"commands\","
      "\"active\":[\"forward\",\"left\"],\"activated\":[\"look_up\"]}");

  t = gst_session_world_build_commands (NULL, NULL, &err);
  built_equals (t, err, "{\"type\":\"commands\"}");

  t = gst_session_world_build_keys (keys, NULL, &err);
  built_equals (t, err, "{\"type\":\"keys\",\"pressed\":[\"KeyW\",\"Space\"]}");

  t = gst_session_world_build_ping (FALSE, 99.0, &err);
  built_equals (t, err, "{\"type\":\"ping\"}");

  t = gst_session_world_build_ping (TRUE, 12.5, &err);
  built_equals (t, err, "{\"type\":\"ping\",\"ts\":12.5}");
}

GST_END_TEST;

GST_START_TEST (test_build_refused)
{
  static const gchar *conflict[] = { "look_left", "look_right", NULL };
  static const gchar *unknown[] = { "jump", NULL };
  static const gchar *bad_utf8[] = { "\xff", NULL };
  const gchar *nine[10];
  const gchar *keys33[34];
  GError *err = NULL;
  gchar *long_prompt = repeat ("p", 2001);
  gchar *long_preset = repeat ("p", 101);
  gchar *long_url = repeat ("u", 4097);
  gchar *t;
  guint i;

  t = gst_session_world_build_prompt (long_prompt, &err);
  build_refused (t, err, "prompt", "/prompt", "2000");
  err = NULL;
  t = gst_session_world_build_prompt ("", &err);
  build_refused (t, err, "prompt", "/prompt", "1");
  err = NULL;
  t = gst_session_world_build_prompt (NULL, &err);
  build_refused (t, err, "prompt", "/prompt", NULL);
  err = NULL;
  t = gst_session_world_build_configure (NULL, NULL, long_prompt, &err);
  build_refused (t, err, "configure", "/prompt", "2000");
  err = NULL;
  t = gst_session_world_build_configure (long_preset, NULL, NULL, &err);
  build_refused (t, err, "configure", "/preset", "100");
  err = NULL;
  t = gst_session_world_build_reset (NULL, long_url, NULL, &err);
  build_refused (t, err, "reset", "/image_url", "4096");
  err = NULL;
  t = gst_session_world_build_reset (NULL, NULL, long_prompt, &err);
  build_refused (t, err, "reset", "/prompt", "2000");
  err = NULL;

  t = gst_session_world_build_commands (conflict, NULL, &err);
  build_refused (t, err, "commands", "/active/1", "look_left");
  err = NULL;
  t = gst_session_world_build_commands (NULL, conflict, &err);
  build_refused (t, err, "commands", "/activated/1", "look_left");
  err = NULL;
  t = gst_session_world_build_commands (unknown, NULL, &err);
  build_refused (t, err, "commands", "/active/0", "jump");
  err = NULL;
  for (i = 0; i < 9; i++)
    nine[i] = "forward";
  nine[9] = NULL;
  t = gst_session_world_build_commands (nine, NULL, &err);
  build_refused (t, err, "commands", "/active", "8");
  err = NULL;
  for (i = 0; i < 33; i++)
    keys33[i] = "KeyA";
  keys33[33] = NULL;
  t = gst_session_world_build_keys (NULL, keys33, &err);
  build_refused (t, err, "keys", "/activated", "32");
  err = NULL;

  /* invalid UTF-8 */
  t = gst_session_world_build_commands (bad_utf8, NULL, &err);
  build_refused (t, err, "commands", "/active/0", "UTF-8");
  err = NULL;
  t = gst_session_world_build_keys (bad_utf8, NULL, &err);
  build_refused (t, err, "keys", "/pressed/0", "UTF-8");
  err = NULL;

  g_free (long_prompt);
  g_free (long_preset);
  g_free (long_url);
}

GST_END_TEST;

/* string builders refuse invalid UTF-8 and name the field (GStreamer
 * would drop such a string from a structure) */
GST_START_TEST (test_build_bad_utf8)
{
  GError *err = NULL;
  gchar *t;

  t = gst_session_world_build_prompt ("\xff", &err);
  build_refused (t, err, "prompt", "/prompt", "UTF-8");
  err = NULL;
  t = gst_session_world_build_configure ("\xff", NULL, NULL, &err);
  build_refused (t, err, "configure", "/preset", "UTF-8");
  err = NULL;
  t = gst_session_world_build_reset (NULL, "\xff", NULL, &err);
  build_refused (t, err, "reset", "/image_url", "UTF-8");
  err = NULL;
  t = gst_session_world_build_reset (NULL, NULL, "\xff", &err);
  build_refused (t, err, "reset", "/prompt", "UTF-8");
}

GST_END_TEST;

/* gst_session_message_build() with a type the direction lacks */
GST_START_TEST (test_build_unknown_type)
{
  static const struct
  {
    GstSessionDirection dir;
    const gchar *type;
  } cases[] = {
    {GST_SESSION_DIRECTION_CLIENT, "pong"},
    {GST_SESSION_DIRECTION_CLIENT, "stats"},
    {GST_SESSION_DIRECTION_CLIENT, "teleport"},
    {GST_SESSION_DIRECTION_SERVICE, "prompt"},
    {GST_SESSION_DIRECTION_SERVICE, "ping"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GstStructure *s = gst_structure_new_empty (cases[i].type);
    GError *err = NULL;
    gchar *t = gst_session_message_build (GST_SESSION_APP_WORLD, cases[i].dir,
        s, &err);

    fail_unless (t == NULL, "built %s", t);
    check_error (err, GST_SESSION_ERROR_UNKNOWN_TYPE, cases[i].type,
        cases[i].type, NULL, NULL);
    gst_structure_free (s);
  }
}

GST_END_TEST;

/* ----------------------------------------------------------- round trips */

/* the string array @field of @msg equals @expected (NULL-terminated) */
static void
check_strv (GstSessionMessage * msg, const gchar * field,
    const gchar * const *expected)
{
  const GValue *v =
      gst_structure_get_value (gst_session_message_get_structure (msg), field);
  guint i, n = g_strv_length ((gchar **) expected);

  fail_unless (v != NULL && GST_VALUE_HOLDS_ARRAY (v), "%s is no array", field);
  fail_unless_equals_int (gst_value_array_get_size (v), n);
  for (i = 0; i < n; i++)
    fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
            (v, i)), expected[i]);
}

/* parses the built @text as a client message of @type */
static GstSessionMessage *
parse_built (gchar * text, GError * err, const gchar * type)
{
  GstSessionMessage *msg;

  fail_unless (text != NULL, "building %s: %s", type, err ? err->message : "");
  msg = parse_ok (CLIENT, text);
  g_free (text);
  fail_unless (gst_session_message_is_known (msg));
  fail_unless_equals_string (gst_session_message_get_type_name (msg), type);
  return msg;
}

GST_START_TEST (test_round_trip_client)
{
  static const gchar *active[] = { "look_down", "right", "right", NULL };
  static const gchar *activated[] = { "backward", "look_left", NULL };
  static const gchar *pressed[] = { "KeyW", "ShiftLeft", NULL };
  GError *err = NULL;
  GstSessionMessage *msg;
  const GstStructure *s;
  gchar *prompt = repeat ("\xc3\xa9\xf0\x9d\x84\x9e", 1000);
  gdouble d;
  gchar *t;

  t = gst_session_world_build_configure ("forest-stream",
      "https://example.com/w.jpg", prompt, &err);
  msg = parse_built (t, err, "configure");
  fail_unless_equals_string (get_string (msg, "preset"), "forest-stream");
  fail_unless_equals_string (get_string (msg, "image_url"),
      "https://example.com/w.jpg");
  fail_unless_equals_string (get_string (msg, "prompt"), prompt);
  gst_session_message_unref (msg);

  t = gst_session_world_build_configure (NULL, NULL, NULL, &err);
  msg = parse_built (t, err, "configure");
  fail_unless_equals_int (gst_structure_n_fields
      (gst_session_message_get_structure (msg)), 0);
  gst_session_message_unref (msg);

  t = gst_session_world_build_prompt (prompt, &err);
  msg = parse_built (t, err, "prompt");
  fail_unless_equals_string (get_string (msg, "prompt"), prompt);
  gst_session_message_unref (msg);

  t = gst_session_world_build_reset ("landscape", NULL, "tab\there \"q\"\n",
      &err);
  msg = parse_built (t, err, "reset");
  fail_unless_equals_string (get_string (msg, "preset"), "landscape");
  fail_unless_equals_string (get_string (msg, "prompt"), "tab\there \"q\"\n");
  fail_if (gst_structure_has_field (gst_session_message_get_structure (msg),
          "image_url"));
  gst_session_message_unref (msg);

  t = gst_session_world_build_stop (&err);
  msg = parse_built (t, err, "stop");
  gst_session_message_unref (msg);

  t = gst_session_world_build_commands (active, activated, &err);
  msg = parse_built (t, err, "commands");
  check_strv (msg, "active", active);
  check_strv (msg, "activated", activated);
  gst_session_message_unref (msg);

  t = gst_session_world_build_keys (pressed, pressed, &err);
  msg = parse_built (t, err, "keys");
  check_strv (msg, "pressed", pressed);
  check_strv (msg, "activated", pressed);
  gst_session_message_unref (msg);

  t = gst_session_world_build_ping (TRUE, 1234567.25, &err);
  msg = parse_built (t, err, "ping");
  s = gst_session_message_get_structure (msg);
  fail_unless (gst_structure_get_double (s, "ts", &d));
  fail_unless (d == 1234567.25);
  gst_session_message_unref (msg);

  t = gst_session_world_build_ping (FALSE, 0, &err);
  msg = parse_built (t, err, "ping");
  fail_if (gst_structure_has_field (gst_session_message_get_structure (msg),
          "ts"));
  gst_session_message_unref (msg);

  g_free (prompt);
}

GST_END_TEST;

/* builds a service message from @fields, parses it back and compares */
static void
service_round_trip (const GstStructure * fields)
{
  GError *err = NULL;
  GstSessionMessage *msg;
  gchar *t;

  t = gst_session_message_build (GST_SESSION_APP_WORLD, SERVICE, fields, &err);
  fail_unless (t != NULL, "building %s: %s", gst_structure_get_name (fields),
      err ? err->message : "");
  msg = parse_ok (SERVICE, t);
  fail_unless (gst_session_message_is_known (msg));
  fail_unless (gst_structure_is_equal (gst_session_message_get_structure
          (msg), fields), "%s came back different", t);
  gst_session_message_unref (msg);
  g_free (t);
}

GST_START_TEST (test_round_trip_service)
{
  GstSessionMessage *msg;
  GstStructure *stats;
  gchar *json;

  stats = gst_structure_new ("stats",
      "block_index", G_TYPE_INT64, (gint64) 41,
      "block_seconds", G_TYPE_DOUBLE, 0.5,
      "generation_fps", G_TYPE_DOUBLE, 17.25,
      "gpu_wait_frac", G_TYPE_DOUBLE, 0.0,
      "queue_age_ms_p50", G_TYPE_DOUBLE, 8.0,
      "queue_age_ms_max", G_TYPE_DOUBLE, 31.5,
      "pace_sleep_ms_avg", G_TYPE_DOUBLE, 2.75,
      "queue_depth", G_TYPE_INT64, (gint64) 3, NULL);
  service_round_trip (stats);
  gst_structure_free (stats);

  /* session_info: the parsed fields (nested objects and arrays) build the
   * same message again */
  json = json_object_of ("session_info", session_info_members,
      G_N_ELEMENTS (session_info_members), -1, -1, NULL);
  msg = parse_ok (SERVICE, json);
  service_round_trip (gst_session_message_get_structure (msg));
  gst_session_message_unref (msg);
  g_free (json);
}

GST_END_TEST;

/* ------------------------------------------------------------ JSON edges */

static void
refuse_json (const gchar * json, const gchar * needle)
{
  refuse_code (CLIENT, json, GST_SESSION_ERROR_INVALID_JSON, needle, NULL,
      NULL);
}

GST_START_TEST (test_json_not_an_object)
{
  refuse_json ("{\"type\":", NULL);
  refuse_json ("{\"type\":\"stop\"", NULL);
  refuse_json ("{\"type\":\"stop\"} x", NULL);
  refuse_json ("not json", NULL);
  refuse_json ("", NULL);
  refuse_json ("[{\"type\":\"stop\"}]", NULL);
  refuse_json ("\"stop\"", NULL);
  refuse_json ("42", NULL);
  refuse_json ("null", NULL);
  refuse_json ("{\"type\":\"prompt\",\"prompt\":\"\xff\"}", "UTF-8");
  refuse_json ("{\"type\":\"prompt\",\"prompt\":\"a\xc3\"}", "UTF-8");
  refuse_json ("{\"type\":\"configure\",\"\xfe\":1}", "UTF-8");

  /* the same in the service direction */
  refuse_code (SERVICE, "[1,2]", GST_SESSION_ERROR_INVALID_JSON, NULL, NULL,
      NULL);
  refuse_code (SERVICE, "{\"type\":\"error\",", GST_SESSION_ERROR_INVALID_JSON,
      NULL, NULL, NULL);
}

GST_END_TEST;

/* one JSON value per message (RFC 8259): a second one is refused */
GST_START_TEST (test_json_trailing_value)
{
  refuse_json ("{\"type\":\"stop\"}{\"type\":\"stop\"}", NULL);
  refuse_json ("{\"type\":\"stop\"} [1]", NULL);
}

GST_END_TEST;

/* a configure message (extra properties allowed) of exactly @size bytes */
static gchar *
configure_of_size (gsize size)
{
  const gchar *head = "{\"type\":\"configure\",\"pad\":\"";
  gsize head_len = strlen (head);
  gchar *text = g_malloc (size + 1);

  memcpy (text, head, head_len);
  memset (text + head_len, 'a', size - head_len - 2);
  memcpy (text + size - 2, "\"}", 3);
  fail_unless_equals_int (strlen (text), size);
  return text;
}

GST_START_TEST (test_json_size)
{
  gchar *text;
  gchar *limit = g_strdup_printf ("%d", GST_SESSION_MESSAGE_MAX_SIZE);

  text = configure_of_size (GST_SESSION_MESSAGE_MAX_SIZE);
  accept (CLIENT, text);
  g_free (text);

  text = configure_of_size (GST_SESSION_MESSAGE_MAX_SIZE + 1);
  refuse_code (CLIENT, text, GST_SESSION_ERROR_INVALID_JSON, limit, NULL, NULL);
  g_free (text);

  text = configure_of_size (4 * GST_SESSION_MESSAGE_MAX_SIZE);
  refuse_code (CLIENT, text, GST_SESSION_ERROR_INVALID_JSON, limit, NULL, NULL);
  g_free (text);
  g_free (limit);
}

GST_END_TEST;

/* a configure message whose "x" nests @n arrays (or objects): the whole
 * text is nested @n + 1 deep */
static gchar *
configure_nested (guint n, gboolean objects)
{
  GString *s = g_string_new ("{\"type\":\"configure\",\"x\":");
  guint i;

  for (i = 0; i < n; i++)
    g_string_append (s, objects ? "{\"a\":" : "[");
  g_string_append (s, "1");
  for (i = 0; i < n; i++)
    g_string_append_c (s, objects ? '}' : ']');
  g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

GST_START_TEST (test_json_depth)
{
  gchar *limit = g_strdup_printf ("%d", GST_SESSION_MESSAGE_MAX_DEPTH);
  gboolean objects;

  for (objects = FALSE; objects <= TRUE; objects++) {
    gchar *text;

    text = configure_nested (GST_SESSION_MESSAGE_MAX_DEPTH - 1, objects);
    accept (CLIENT, text);
    g_free (text);

    text = configure_nested (GST_SESSION_MESSAGE_MAX_DEPTH, objects);
    refuse_code (CLIENT, text, GST_SESSION_ERROR_INVALID_JSON, limit, NULL,
        NULL);
    g_free (text);

    text = configure_nested (1000, objects);
    refuse_code (CLIENT, text, GST_SESSION_ERROR_INVALID_JSON, limit, NULL,
        NULL);
    g_free (text);
  }
  g_free (limit);
}

GST_END_TEST;

/* an explicit length: the bytes after it are not read */
GST_START_TEST (test_json_length)
{
  static const gchar text[] = "{\"type\":\"stop\"}garbage";
  GError *err = NULL;
  GstSessionMessage *msg;

  msg = gst_session_message_parse (GST_SESSION_APP_WORLD, CLIENT, text,
      strlen ("{\"type\":\"stop\"}"), &err);
  fail_unless (msg != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (gst_session_message_get_type_name (msg), "stop");
  gst_session_message_unref (msg);

  msg = gst_session_message_parse (GST_SESSION_APP_WORLD, CLIENT, text, -1,
      &err);
  fail_unless (msg == NULL);
  check_error (err, GST_SESSION_ERROR_INVALID_JSON, text, NULL, NULL, NULL);
}

GST_END_TEST;

/* ------------------------------------------------------------------ suite */

static Suite *
messages_world_suite (void)
{
  Suite *s = suite_create ("messages-world");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_prompt_length);
  tcase_add_test (tc, test_prompt_required);
  tcase_add_test (tc, test_setup_lengths);
  tcase_add_test (tc, test_setup_fields);
  tcase_add_test (tc, test_stop);
  tcase_add_test (tc, test_commands_items);
  tcase_add_test (tc, test_commands_conflicts);
  tcase_add_test (tc, test_keys);
  tcase_add_test (tc, test_ping);
  tcase_add_test (tc, test_session_info);
  tcase_add_test (tc, test_session_info_refused);
  tcase_add_test (tc, test_stats);
  tcase_add_test (tc, test_integer_rule);
  tcase_add_test (tc, test_error);
  tcase_add_test (tc, test_pong);
  tcase_add_test (tc, test_type_only);
  tcase_add_test (tc, test_unknown_type);
  tcase_add_test (tc, test_build_exact);
  tcase_add_test (tc, test_build_refused);
  tcase_add_test (tc, test_build_bad_utf8);
  tcase_add_test (tc, test_build_unknown_type);
  tcase_add_test (tc, test_round_trip_client);
  tcase_add_test (tc, test_round_trip_service);
  tcase_add_test (tc, test_json_not_an_object);
  tcase_add_test (tc, test_json_size);
  tcase_add_test (tc, test_json_trailing_value);
  tcase_add_test (tc, test_json_depth);
  tcase_add_test (tc, test_json_length);
  return s;
}

GST_CHECK_MAIN (messages_world);
