/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The director message rules of spec 000 for the client's messages
 * (configure, prompt, ping, stop): what each accepts and refuses, the
 * GValue types of parsed fields, the defaults filled on parse, and the
 * types of each direction.
 *
 * JSON in the tables is written with single quotes, turned into double
 * quotes before use (sq()).
 */

#include "messages-director-test.h"

typedef struct
{
  const gchar *json;            /* single-quoted */
  const gchar *type;
  const gchar *pointer;
  const gchar *limit;
} Refusal;

static void
refuse_all (GstSessionDirection dir, const Refusal * r, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    refuse_sq (dir, r[i].json, r[i].type, r[i].pointer, r[i].limit);
}

static void
accept_all (GstSessionDirection dir, const gchar * const *jsons, guint n)
{
  guint i;

  for (i = 0; i < n; i++)
    accept_only (dir, jsons[i]);
}

/* ---- director client messages: configure and prompt ---- */

GST_START_TEST (test_prompt_length)
{
  const gchar *types[] = { "configure", "prompt" };
  gchar *max = repeat (50000), *over = repeat (50001);
  guint i;

  for (i = 0; i < G_N_ELEMENTS (types); i++) {
    gchar *json;
    GstSessionMessage *m;

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":1,"
        "\"prompt\":\"%s\"}", types[i], max);
    m = accept_json (CLIENT, json);
    fail_unless_equals_int (strlen (gst_structure_get_string
            (gst_session_message_get_structure (m), "prompt")), 50000);
    gst_session_message_unref (m);
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":1,"
        "\"prompt\":\"%s\"}", types[i], over);
    refuse_json (CLIENT, json, types[i], "/prompt", "at most 50000");
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":1,"
        "\"prompt\":\"\"}", types[i]);
    refuse_json (CLIENT, json, types[i], "/prompt", "at least 1");
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":1,"
        "\"prompt\":null}", types[i]);
    refuse_json (CLIENT, json, types[i], "/prompt", "string");
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":1}", types[i]);
    refuse_json (CLIENT, json, types[i], "/prompt", "is required");
    g_free (json);
  }
  g_free (max);
  g_free (over);
}

GST_END_TEST;

GST_START_TEST (test_prompt_version)
{
  const gchar *types[] = { "configure", "prompt" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (types); i++) {
    gchar *json;
    GstSessionMessage *m;

#define PV(v) g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":" v \
        ",\"prompt\":\"x\"}", types[i])
    json = PV ("1");
    m = accept_json (CLIENT, json);
    assert_int (gst_session_message_get_structure (m), "prompt_version", 1);
    gst_session_message_unref (m);
    g_free (json);

    /* an integral number is an integer (JSON Schema) */
    json = PV ("1.0");
    m = accept_json (CLIENT, json);
    assert_int (gst_session_message_get_structure (m), "prompt_version", 1);
    gst_session_message_unref (m);
    g_free (json);

    json = PV ("0");
    refuse_json (CLIENT, json, types[i], "/prompt_version", "at least 1");
    g_free (json);

    json = PV ("1.5");
    refuse_json (CLIENT, json, types[i], "/prompt_version", "integer");
    g_free (json);

    json = PV ("\"1\"");
    refuse_json (CLIENT, json, types[i], "/prompt_version", "integer");
    g_free (json);
#undef PV

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt\":\"x\"}", types[i]);
    refuse_json (CLIENT, json, types[i], "/prompt_version", "is required");
    g_free (json);
  }
}

GST_END_TEST;

GST_START_TEST (test_configure_memory)
{
  const gchar *ok[] = {
    "{'type':'configure','prompt_version':1,'prompt':'x','memory':1}",
    "{'type':'configure','prompt_version':1,'prompt':'x','memory':50}",
  };
  const Refusal bad[] = {
    {"{'type':'configure','prompt_version':1,'prompt':'x','memory':0}",
        "configure", "/memory", "at least 1"},
    {"{'type':'configure','prompt_version':1,'prompt':'x','memory':51}",
        "configure", "/memory", "at most 50"},
    {"{'type':'configure','prompt_version':1,'prompt':'x','memory':'12'}",
        "configure", "/memory", "integer"},
    {"{'type':'configure','prompt_version':1,'prompt':'x','memory':null}",
        "configure", "/memory", "integer"},
  };
  GstSessionMessage *m;

  accept_all (CLIENT, ok, G_N_ELEMENTS (ok));
  refuse_all (CLIENT, bad, G_N_ELEMENTS (bad));

  m = accept_sq (CLIENT,
      "{'type':'configure','prompt_version':1,'prompt':'x','memory':50}");
  assert_int (gst_session_message_get_structure (m), "memory", 50);
  gst_session_message_unref (m);
}

GST_END_TEST;

GST_START_TEST (test_configure_chunk_duration)
{
  const gchar *ok[] = {
    "{'type':'configure','prompt_version':1,'prompt':'x','chunk_duration':5}",
    "{'type':'configure','prompt_version':1,'prompt':'x','chunk_duration':15}",
  };
  const Refusal bad[] = {
    {"{'type':'configure','prompt_version':1,'prompt':'x','chunk_duration':4}",
        "configure", "/chunk_duration", "at least 5"},
    {"{'type':'configure','prompt_version':1,'prompt':'x','chunk_duration':16}",
        "configure", "/chunk_duration", "at most 15"},
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'chunk_duration':7.5}", "configure", "/chunk_duration", "integer"},
  };
  GstSessionMessage *m;

  accept_all (CLIENT, ok, G_N_ELEMENTS (ok));
  refuse_all (CLIENT, bad, G_N_ELEMENTS (bad));

  m = accept_sq (CLIENT,
      "{'type':'configure','prompt_version':1,'prompt':'x','chunk_duration':5}");
  assert_int (gst_session_message_get_structure (m), "chunk_duration", 5);
  gst_session_message_unref (m);
}

GST_END_TEST;

GST_START_TEST (test_configure_enums)
{
  const gchar *ok[] = {
    "{'type':'configure','prompt_version':1,'prompt':'x','resolution':'480p'}",
    "{'type':'configure','prompt_version':1,'prompt':'x','resolution':'768p'}",
    "{'type':'configure','prompt_version':1,'prompt':'x',"
        "'aspect_ratio':'16:9'}",
    "{'type':'configure','prompt_version':1,'prompt':'x',"
        "'aspect_ratio':'9:16'}",
    "{'type':'configure','prompt_version':1,'prompt':'x','aspect_ratio':'1:1'}",
    "{'type':'configure','prompt_version':1,'prompt':'x',"
        "'acceleration':'none'}",
    "{'type':'configure','prompt_version':1,'prompt':'x',"
        "'acceleration':'regular'}",
    "{'type':'configure','prompt_version':1,'prompt':'x',"
        "'enable_safety_checker':true}",
    "{'type':'configure','prompt_version':1,'prompt':'x',"
        "'enable_safety_checker':false}",
  };
  const Refusal bad[] = {
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'resolution':'720p'}", "configure", "/resolution",
        "\"480p\", \"768p\""},
    /* 544p is a resolution of configured, not of configure */
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'resolution':'544p'}", "configure", "/resolution", "\"768p\""},
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'resolution':null}", "configure", "/resolution", "string"},
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'aspect_ratio':'4:3'}", "configure", "/aspect_ratio",
        "\"16:9\", \"9:16\", \"1:1\""},
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'acceleration':'turbo'}", "configure", "/acceleration",
        "\"none\", \"regular\""},
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'enable_safety_checker':'yes'}", "configure",
        "/enable_safety_checker", "boolean"},
  };
  GstSessionMessage *m;
  const GstStructure *s;

  accept_all (CLIENT, ok, G_N_ELEMENTS (ok));
  refuse_all (CLIENT, bad, G_N_ELEMENTS (bad));

  m = accept_sq (CLIENT, "{'type':'configure','prompt_version':1,"
      "'prompt':'x','resolution':'480p','aspect_ratio':'9:16',"
      "'acceleration':'none','enable_safety_checker':true}");
  s = gst_session_message_get_structure (m);
  assert_string (s, "resolution", "480p");
  assert_string (s, "aspect_ratio", "9:16");
  assert_string (s, "acceleration", "none");
  assert_bool (s, "enable_safety_checker", TRUE);
  gst_session_message_unref (m);
}

GST_END_TEST;

GST_START_TEST (test_configure_protocol_version)
{
  const Refusal bad[] = {
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'protocol_version':2}", "configure", "/protocol_version",
        "must be 1"},
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'protocol_version':0}", "configure", "/protocol_version",
        "must be 1"},
    {"{'type':'configure','prompt_version':1,'prompt':'x',"
          "'protocol_version':'1'}", "configure", "/protocol_version",
        "integer"},
  };
  GstSessionMessage *m;

  m = accept_sq (CLIENT, "{'type':'configure','prompt_version':1,"
      "'prompt':'x','protocol_version':1}");
  assert_int (gst_session_message_get_structure (m), "protocol_version", 1);
  gst_session_message_unref (m);
  refuse_all (CLIENT, bad, G_N_ELEMENTS (bad));
}

GST_END_TEST;

GST_START_TEST (test_configure_seed)
{
  const Refusal bad[] = {
    {"{'type':'configure','prompt_version':1,'prompt':'x','seed':1.5}",
        "configure", "/seed", "integer"},
    {"{'type':'configure','prompt_version':1,'prompt':'x','seed':'7'}",
        "configure", "/seed", "integer"},
  };
  GstSessionMessage *m;

  m = accept_sq (CLIENT,
      "{'type':'configure','prompt_version':1,'prompt':'x','seed':42}");
  assert_int (gst_session_message_get_structure (m), "seed", 42);
  gst_session_message_unref (m);

  m = accept_sq (CLIENT,
      "{'type':'configure','prompt_version':1,'prompt':'x','seed':null}");
  assert_null (gst_session_message_get_structure (m), "seed");
  gst_session_message_unref (m);

  refuse_all (CLIENT, bad, G_N_ELEMENTS (bad));
}

GST_END_TEST;

GST_START_TEST (test_client_extra_property_refused)
{
  const Refusal bad[] = {
    {"{'type':'configure','prompt_version':1,'prompt':'x','x':1}",
        "configure", "/x", "not allowed"},
    {"{'type':'prompt','prompt_version':1,'prompt':'x','x':1}",
        "prompt", "/x", "not allowed"},
    {"{'type':'ping','ts':1.5,'x':1}", "ping", "/x", "not allowed"},
    {"{'type':'stop','x':1}", "stop", "/x", "not allowed"},
    /* a field of another message is an extra one too */
    {"{'type':'prompt','prompt_version':1,'prompt':'x','memory':12}",
        "prompt", "/memory", "not allowed"},
    {"{'type':'stop','reason':'stopped'}", "stop", "/reason", "not allowed"},
  };

  refuse_all (CLIENT, bad, G_N_ELEMENTS (bad));
}

GST_END_TEST;

GST_START_TEST (test_ping)
{
  const Refusal bad[] = {
    {"{'type':'ping'}", "ping", "/ts", "is required"},
    {"{'type':'ping','ts':null}", "ping", "/ts", "number"},
    {"{'type':'ping','ts':'12.5'}", "ping", "/ts", "number"},
  };
  GstSessionMessage *m;

  m = accept_sq (CLIENT, "{'type':'ping','ts':12.5}");
  fail_unless_equals_string (gst_session_message_get_type_name (m), "ping");
  assert_double (gst_session_message_get_structure (m), "ts", 12.5);
  gst_session_message_unref (m);

  /* a number rule reads as a double even without a fraction */
  m = accept_sq (CLIENT, "{'type':'ping','ts':12}");
  assert_double (gst_session_message_get_structure (m), "ts", 12.0);
  gst_session_message_unref (m);

  refuse_all (CLIENT, bad, G_N_ELEMENTS (bad));
}

GST_END_TEST;

GST_START_TEST (test_stop)
{
  GstSessionMessage *m = accept_sq (CLIENT, "{'type':'stop'}");
  const GstStructure *s = gst_session_message_get_structure (m);

  fail_unless_equals_string (gst_structure_get_name (s), "stop");
  fail_unless_equals_int (gst_structure_n_fields (s), 0);
  gst_session_message_unref (m);
}

GST_END_TEST;

GST_START_TEST (test_configure_defaults)
{
  GstSessionMessage *m;
  const GstStructure *s;
  gchar *json;

  m = accept_sq (CLIENT, "{'type':'configure','prompt_version':3,"
      "'prompt':'a lighthouse at dusk'}");
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_structure_get_name (s), "configure");
  assert_int (s, "prompt_version", 3);
  assert_string (s, "prompt", "a lighthouse at dusk");
  assert_int (s, "protocol_version", 1);
  assert_int (s, "memory", 12);
  assert_string (s, "resolution", "768p");
  assert_string (s, "aspect_ratio", "16:9");
  /* no default, or a null one: not filled */
  fail_if (gst_structure_has_field (s, "seed"));
  fail_if (gst_structure_has_field (s, "chunk_duration"));
  fail_if (gst_structure_has_field (s, "acceleration"));
  fail_if (gst_structure_has_field (s, "enable_safety_checker"));
  fail_unless_equals_int (gst_structure_n_fields (s), 6);
  /* the JSON text keeps what was sent */
  json = gst_session_message_to_json (m);
  fail_unless_equals_string (json, "{\"type\":\"configure\","
      "\"prompt_version\":3,\"prompt\":\"a lighthouse at dusk\"}");
  g_free (json);
  gst_session_message_unref (m);

  /* values sent are kept, defaults fill the rest */
  m = accept_sq (CLIENT, "{'type':'configure','prompt_version':1,"
      "'prompt':'x','memory':3,'resolution':'480p'}");
  s = gst_session_message_get_structure (m);
  assert_int (s, "memory", 3);
  assert_string (s, "resolution", "480p");
  assert_string (s, "aspect_ratio", "16:9");
  assert_int (s, "protocol_version", 1);
  gst_session_message_unref (m);

  /* prompt has no defaults */
  m = accept_sq (CLIENT, "{'type':'prompt','prompt_version':2,"
      "'prompt':'now at night'}");
  s = gst_session_message_get_structure (m);
  assert_int (s, "prompt_version", 2);
  assert_string (s, "prompt", "now at night");
  fail_unless_equals_int (gst_structure_n_fields (s), 2);
  gst_session_message_unref (m);
}

GST_END_TEST;

static void
assert_types (GstSessionDirection dir, const gchar * expected)
{
  const gchar *const *types = gst_session_message_types (APP, dir);
  gchar *joined = g_strjoinv (",", (gchar **) types);

  fail_unless_equals_string (joined, expected);
  g_free (joined);
}

GST_START_TEST (test_message_types)
{
  GstSessionMessage *m;

  assert_types (CLIENT, "configure,prompt,ping,stop");
  assert_types (SERVICE, "configured,chunk,chunk_metrics,session_metrics,"
      "deadline_missed,prompt_pending,prompt_applied,prompt_rejected,"
      "stream_exhausted,pong,error,session_info");

  /* a service message sent by the client is not a client message */
  m = gst_session_message_parse (APP, CLIENT,
      "{\"type\":\"pong\",\"client_ts\":1}", -1, NULL);
  fail_unless (m != NULL);
  fail_if (gst_session_message_is_known (m));
  gst_session_message_unref (m);
}

GST_END_TEST;

static Suite *
messages_director_client_suite (void)
{
  Suite *s = suite_create ("messages-director-client");
  TCase *tc_client = tcase_create ("client");

  suite_add_tcase (s, tc_client);
  tcase_add_test (tc_client, test_prompt_length);
  tcase_add_test (tc_client, test_prompt_version);
  tcase_add_test (tc_client, test_configure_memory);
  tcase_add_test (tc_client, test_configure_chunk_duration);
  tcase_add_test (tc_client, test_configure_enums);
  tcase_add_test (tc_client, test_configure_protocol_version);
  tcase_add_test (tc_client, test_configure_seed);
  tcase_add_test (tc_client, test_client_extra_property_refused);
  tcase_add_test (tc_client, test_ping);
  tcase_add_test (tc_client, test_stop);
  tcase_add_test (tc_client, test_configure_defaults);
  tcase_add_test (tc_client, test_message_types);
  return s;
}

GST_CHECK_MAIN (messages_director_client);
