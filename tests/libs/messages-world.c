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
  return g_strdup_printf ("{\"type\":\"%s\",\"%s\":[%s]}", type, field,
      items);
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
  return s;
}

GST_CHECK_MAIN (messages_world);
