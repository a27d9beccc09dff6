/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The world message rules of spec 000 (World session sections) for the
 * client's messages (prompt, configure and reset, stop, commands, keys,
 * ping), and the JSON limits of any message.
 */

#include "messages-world-test.h"

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
messages_world_client_suite (void)
{
  Suite *s = suite_create ("messages-world-client");
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
  tcase_add_test (tc, test_json_not_an_object);
  tcase_add_test (tc, test_json_size);
  tcase_add_test (tc, test_json_trailing_value);
  tcase_add_test (tc, test_json_depth);
  tcase_add_test (tc, test_json_length);
  return s;
}

GST_CHECK_MAIN (messages_world_client);
