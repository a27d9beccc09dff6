/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The world message rules of spec 000 (World session sections) for the
 * service's messages: session_info, stats (and what counts as an
 * integer), error, pong, the messages that are a type alone, and messages
 * of unknown types.
 */

#include "messages-world-test.h"

/* ------------------------------------------------------ service messages */

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

/* ------------------------------------------------------------------ suite */

static Suite *
messages_world_service_suite (void)
{
  Suite *s = suite_create ("messages-world-service");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_session_info);
  tcase_add_test (tc, test_session_info_refused);
  tcase_add_test (tc, test_stats);
  tcase_add_test (tc, test_integer_rule);
  tcase_add_test (tc, test_error);
  tcase_add_test (tc, test_pong);
  tcase_add_test (tc, test_type_only);
  tcase_add_test (tc, test_unknown_type);
  return s;
}

GST_CHECK_MAIN (messages_world_service);
