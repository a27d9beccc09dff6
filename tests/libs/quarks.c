/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Names a peer chooses (field names, message types, map keys, ctx keys)
 * must not become quarks: GStreamer interns structure and field names for
 * the life of the process, so a service sending random names would make
 * memory grow without bound. Each test parses many messages with random
 * names, then checks with g_quark_try_string() (which interns nothing)
 * that none of them was interned, and that the parse result still says
 * what docs/protocol.md says: the type in a "type" field, the other fields
 * as JSON text in "other-fields".
 *
 * Careful: gst_structure_has_field(), gst_structure_get_*() and
 * gst_structure_new() intern the names they are given; this file only
 * hands them names of the contract.
 */

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>

#define N_MESSAGES 20000

#define WORLD GST_SESSION_APP_WORLD
#define DIRECTOR GST_SESSION_APP_DIRECTOR
#define SERVICE GST_SESSION_DIRECTION_SERVICE

/* A name no one has interned: a prefix of its own, a random part and a
 * counter (so two names never clash). */
static gchar *
random_name (GRand * rand, const gchar * what)
{
  static guint counter = 0;

  return g_strdup_printf ("qk-%s-%08x-%u", what, g_rand_int (rand), counter++);
}

static void
assert_not_interned (GPtrArray * names)
{
  guint i;

  for (i = 0; i < names->len; i++) {
    const gchar *name = g_ptr_array_index (names, i);

    fail_unless (g_quark_try_string (name) == 0, "\"%s\" was interned", name);
  }
}

/* the JSON object in the string field @field of @s */
static JsonObject *
json_field (const GstStructure * s, const gchar * field, JsonNode ** root)
{
  const gchar *text = gst_structure_get_string (s, field);

  fail_unless (text != NULL, "%s: no string field %s",
      gst_structure_get_name (s), field);
  *root = json_from_string (text, NULL);
  fail_unless (*root != NULL && JSON_NODE_HOLDS_OBJECT (*root), "%s", text);
  return json_node_get_object (*root);
}

static GstSessionMessage *
parse (GstSessionApp app, const gchar * json)
{
  GError *err = NULL;
  GstSessionMessage *msg = gst_session_message_parse (app, SERVICE, json, -1,
      &err);

  fail_unless (msg != NULL, "%s: %s", json, err ? err->message : "");
  return msg;
}

/* Unknown types with random names, random fields, nested objects and
 * arrays of objects with random keys. */
GST_START_TEST (test_unknown_types)
{
  GRand *rand = g_rand_new_with_seed (0x51a7);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint i;

  for (i = 0; i < N_MESSAGES; i++) {
    gchar *type = random_name (rand, "type");
    gchar *field = random_name (rand, "field");
    gchar *inner = random_name (rand, "inner");
    gchar *item = random_name (rand, "item");
    gchar *json = g_strdup_printf ("{\"type\":\"%s\",\"%s\":%u,"
        "\"nested\":{\"%s\":[{\"%s\":true}]}}", type, field, i, inner, item);
    GstSessionMessage *msg = parse (i % 2 ? WORLD : DIRECTOR, json);
    const GstStructure *s = gst_session_message_get_structure (msg);

    fail_if (gst_session_message_is_known (msg));
    fail_unless_equals_string (gst_session_message_get_type_name (msg), type);

    /* a sample is checked in full: the rest as fast as it goes */
    if (i % 1000 == 0) {
      JsonNode *root;
      JsonObject *other, *nested;
      gchar *back;

      fail_unless_equals_string (gst_structure_get_name (s),
          GST_SESSION_MESSAGE_UNKNOWN_TYPE);
      fail_unless_equals_int (gst_structure_n_fields (s), 2);
      fail_unless_equals_string (gst_structure_get_string (s, "type"), type);
      other = json_field (s, GST_SESSION_MESSAGE_OTHER_FIELDS, &root);
      fail_unless_equals_int (json_object_get_size (other), 2);
      fail_unless_equals_int64 (json_object_get_int_member (other, field), i);
      nested = json_object_get_object_member (other, "nested");
      fail_unless (json_object_get_boolean_member
          (json_array_get_object_element (json_object_get_array_member
                  (nested, inner), 0), item));
      json_node_unref (root);
      back = gst_session_message_to_json (msg);
      fail_unless_equals_string (back, json);
      g_free (back);
    }

    gst_session_message_unref (msg);
    g_free (json);
    g_ptr_array_add (names, type);
    g_ptr_array_add (names, field);
    g_ptr_array_add (names, inner);
    g_ptr_array_add (names, item);
  }
  assert_not_interned (names);

  g_ptr_array_unref (names);
  g_rand_free (rand);
}

GST_END_TEST;

/* Known types: fields the contract does not name, keys of maps, members of
 * objects the contract does not describe. */
GST_START_TEST (test_known_types)
{
  GRand *rand = g_rand_new_with_seed (0xf1e1d);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint i;

  for (i = 0; i < N_MESSAGES; i++) {
    gchar *a = random_name (rand, "a");
    gchar *b = random_name (rand, "b");
    gchar *c = random_name (rand, "c");
    gchar *json;
    GstSessionApp app;
    GstSessionMessage *msg;
    const GstStructure *s;
    const gchar *map = NULL, *map_text = NULL;

    switch (i % 4) {
      case 0:
        /* world pong: an unknown field, with a nested object */
        app = WORLD;
        json = g_strdup_printf ("{\"type\":\"pong\",\"ts\":%u,\"%s\":1,"
            "\"x\":{\"%s\":{\"%s\":null}}}", i, a, b, c);
        break;
      case 1:
        /* director chunk_metrics: maps with random keys, an unknown field */
        app = DIRECTOR;
        json = g_strdup_printf ("{\"type\":\"chunk_metrics\","
            "\"chunk_index\":%u,\"units\":\"ms\",\"route\":\"unknown\","
            "\"phases_ms\":{\"%s\":1.5},\"gauges\":{\"%s\":2},\"%s\":[]}",
            i, a, b, c);
        map = "phases_ms";
        break;
      case 2:
        /* director session_metrics: a map of objects */
        app = DIRECTOR;
        json = g_strdup_printf ("{\"type\":\"session_metrics\",\"units\":"
            "\"ms\",\"session_wall_ms\":1,\"history_size\":1,"
            "\"history_limit\":1,\"phases\":{\"%s\":{\"count\":1,"
            "\"total_ms\":1,\"p50_ms\":1,\"p95_ms\":1,\"max_ms\":1,"
            "\"%s\":0}},\"gauges\":{\"%s\":0}}", a, b, c);
        map = "phases";
        break;
      default:
        /* director error: items the contract does not describe */
        app = DIRECTOR;
        json = g_strdup_printf ("{\"type\":\"error\",\"code\":"
            "\"invalid_message\",\"error\":\"e\",\"detail\":[{\"%s\":1,"
            "\"%s\":{\"%s\":2}}]}", a, b, c);
        break;
    }
    msg = parse (app, json);
    s = gst_session_message_get_structure (msg);
    fail_unless (gst_session_message_is_known (msg));
    fail_unless_equals_string (gst_structure_get_name (s),
        gst_session_message_get_type_name (msg));

    if (i % 1000 < 4) {
      JsonNode *root;
      JsonObject *other;

      switch (i % 4) {
        case 0:
          other = json_field (s, GST_SESSION_MESSAGE_OTHER_FIELDS, &root);
          fail_unless_equals_int (json_object_get_size (other), 2);
          fail_unless_equals_int64 (json_object_get_int_member (other, a), 1);
          fail_unless (json_object_get_null_member
              (json_object_get_object_member (json_object_get_object_member
                      (other, "x"), b), c));
          json_node_unref (root);
          fail_unless_equals_int (gst_structure_n_fields (s), 2);
          break;
        case 1:
          map_text = gst_structure_get_string (s, "gauges");
          other = json_field (s, GST_SESSION_MESSAGE_OTHER_FIELDS, &root);
          fail_unless (json_object_has_member (other, c));
          json_node_unref (root);
          fail_unless (map_text && strstr (map_text, b));
          fail_unless_equals_int (gst_structure_n_fields (s), 6);
          break;
        case 2:
          fail_unless_equals_int (gst_structure_n_fields (s), 7);
          break;
        default:{
          const GValue *detail = gst_structure_get_value (s, "detail");
          const gchar *text;

          fail_unless (GST_VALUE_HOLDS_ARRAY (detail));
          text = g_value_get_string (gst_value_array_get_value (detail, 0));
          fail_unless (strstr (text, a) && strstr (text, c));
          break;
        }
      }
      if (map) {
        other = json_field (s, map, &root);
        fail_unless (json_object_has_member (other, a));
        json_node_unref (root);
      }
    }

    gst_session_message_unref (msg);
    g_free (json);
    g_ptr_array_add (names, a);
    g_ptr_array_add (names, b);
    g_ptr_array_add (names, c);
  }
  assert_not_interned (names);

  g_ptr_array_unref (names);
  g_rand_free (rand);
}

GST_END_TEST;

static void
discard_events (GQueue * events, gchar ** last_type, gchar ** last_other)
{
  GstSessionControlEvent *ev;

  while ((ev = g_queue_pop_head (events))) {
    if (ev->details) {
      g_free (*last_type);
      g_free (*last_other);
      *last_type = g_strdup (gst_structure_get_name (ev->details));
      *last_other = g_strdup (gst_structure_get_string (ev->details,
              GST_SESSION_MESSAGE_OTHER_FIELDS));
    }
    gst_session_control_event_free (ev);
  }
  g_queue_free (events);
}

/* The element messages the controllers make: "<app>/unknown". */
GST_START_TEST (test_controllers)
{
  GRand *rand = g_rand_new_with_seed (0xc0de);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GstSessionWorldController *world = gst_session_world_controller_new ();
  GstSessionDirectorController *director =
      gst_session_director_controller_new ();
  gchar *last_name = NULL, *last_other = NULL;
  guint i;

  for (i = 0; i < N_MESSAGES / 4; i++) {
    gchar *type = random_name (rand, "type");
    gchar *field = random_name (rand, "field");
    gchar *json = g_strdup_printf ("{\"type\":\"%s\",\"%s\":%u}", type,
        field, i);
    gchar *other = g_strdup_printf ("{\"%s\":%u}", field, i);

    if (i % 2) {
      gst_session_world_controller_receive (world, json, -1);
      discard_events (gst_session_world_controller_take_events (world),
          &last_name, &last_other);
      fail_unless_equals_string (last_name, "world/unknown");
    } else {
      gst_session_director_controller_receive (director, json, -1);
      discard_events (gst_session_director_controller_take_events
          (director), &last_name, &last_other);
      fail_unless_equals_string (last_name, "director/unknown");
    }
    fail_unless_equals_string (last_other, other);

    g_free (json);
    g_free (other);
    g_ptr_array_add (names, type);
    g_ptr_array_add (names, field);
  }
  assert_not_interned (names);

  g_free (last_name);
  g_free (last_other);
  gst_session_world_controller_free (world);
  gst_session_director_controller_free (director);
  g_ptr_array_unref (names);
  g_rand_free (rand);
}

GST_END_TEST;

/* Error bodies: ctx keys spec 001 does not list. */
GST_START_TEST (test_http_error_ctx)
{
  GRand *rand = g_rand_new_with_seed (0xe220);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  guint i;

  for (i = 0; i < N_MESSAGES; i++) {
    gchar *key = random_name (rand, "key");
    gchar *inner = random_name (rand, "inner");
    gchar *body = g_strdup_printf ("{\"detail\":[{\"type\":\"image_too_small\","
        "\"msg\":\"m\",\"ctx\":{\"min_width\":512,\"%s\":{\"%s\":1}}}]}",
        key, inner);
    GstSessionHttpError *error = gst_session_http_error_parse (422, NULL, body,
        strlen (body));
    const GstSessionHttpErrorItem *item;

    fail_unless (error->items != NULL && error->items->len == 1);
    item = g_ptr_array_index (error->items, 0);
    fail_unless (item->ctx != NULL);
    if (i % 1000 == 0) {
      gchar *other = g_strdup_printf ("{\"%s\":{\"%s\":1}}", key, inner);
      gint64 width = 0;

      fail_unless_equals_int (gst_structure_n_fields (item->ctx), 2);
      fail_unless (gst_structure_get_int64 (item->ctx, "min_width", &width));
      fail_unless_equals_int64 (width, 512);
      fail_unless_equals_string (gst_structure_get_string (item->ctx,
              GST_SESSION_MESSAGE_OTHER_FIELDS), other);
      g_free (other);
    }

    gst_session_http_error_free (error);
    g_free (body);
    g_ptr_array_add (names, key);
    g_ptr_array_add (names, inner);
  }
  assert_not_interned (names);

  g_ptr_array_unref (names);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
quarks_suite (void)
{
  Suite *s = suite_create ("quarks");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_unknown_types);
  tcase_add_test (tc, test_known_types);
  tcase_add_test (tc, test_controllers);
  tcase_add_test (tc, test_http_error_ctx);
  return s;
}

GST_CHECK_MAIN (quarks);
