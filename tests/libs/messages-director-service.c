/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The director message rules of spec 000 for the service's messages
 * (configured, chunk, chunk_metrics, session_metrics, deadline_missed, the
 * prompt's state, prompt_rejected, stream_exhausted, pong, error,
 * session_info): what each accepts and refuses, the GValue types of parsed
 * fields and the defaults filled on parse.
 *
 * JSON in the tables is written with single quotes, turned into double
 * quotes before use (sq()).
 */

#include "messages-director-test.h"

/* @expected: the strings, comma-separated */
static void
assert_strings (const GstStructure * s, const gchar * name,
    const gchar * expected)
{
  const GValue *v = field (s, name, GST_TYPE_ARRAY);
  gchar **want = g_strsplit (expected, ",", -1);
  guint i, n = gst_value_array_get_size (v);

  fail_unless_equals_int (n, g_strv_length (want));
  for (i = 0; i < n; i++) {
    const GValue *item = gst_value_array_get_value (v, i);

    fail_unless (G_VALUE_HOLDS_STRING (item));
    fail_unless_equals_string (g_value_get_string (item), want[i]);
  }
  g_strfreev (want);
}

/* @base with the first @from replaced by @to */
static gchar *
variant (const gchar * base, const gchar * from, const gchar * to)
{
  const gchar *at = strstr (base, from);

  fail_unless (at != NULL, "no %s in %s", from, base);
  return g_strdup_printf ("%.*s%s%s", (gint) (at - base), base, to,
      at + strlen (from));
}

/* one change to a valid example: accepted when @pointer is NULL, else
 * refused naming @pointer and @limit */
typedef struct
{
  const gchar *from;
  const gchar *to;
  const gchar *pointer;
  const gchar *limit;
} Change;

static void
check_changes (GstSessionDirection dir, const gchar * base,
    const gchar * type, const Change * c, guint n)
{
  guint i;

  for (i = 0; i < n; i++) {
    gchar *text = variant (base, c[i].from, c[i].to);

    if (c[i].pointer)
      refuse_sq (dir, text, type, c[i].pointer, c[i].limit);
    else
      accept_only (dir, text);
    g_free (text);
  }
}

/* ---- director service messages ---- */

static const gchar configured_example[] =
    "{'type':'configured','prompt_version':1,'enable_safety_checker':true,"
    "'memory':12,'chunk_duration':10,'acceleration':'regular',"
    "'has_initial_image':false,'resolution':'768p','aspect_ratio':'16:9'}";

GST_START_TEST (test_configured)
{
  const Change changes[] = {
    {"'768p'", "'480p'"}, {"'768p'", "'544p'"}, {"'768p'", "'640p'"},
    {"'768p'", "'704p'"}, {"'768p'", "null"},
    {"'memory':12", "'memory':null"},
    {"'memory':12", "'memory':1"}, {"'memory':12", "'memory':50"},
    {"'chunk_duration':10", "'chunk_duration':null"},
    {"'acceleration':'regular'", "'acceleration':null"},
    {"'acceleration':'regular'", "'acceleration':'none'"},
    {"'has_initial_image':false", "'has_initial_image':null"},
    {"'16:9'", "'1:1'"}, {"'16:9'", "null"},
    /* service messages allow other properties */
    {"'memory':12", "'memory':12,'worker':'gpu-3'"},
    {"'768p'", "'600p'", "/resolution", "\"704p\", \"768p\""},
    {"'chunk_duration':10", "'chunk_duration':16", "/chunk_duration",
        "at most 15"},
    {"'chunk_duration':10", "'chunk_duration':4", "/chunk_duration",
        "at least 5"},
    {"'memory':12", "'memory':51", "/memory", "at most 50"},
    {"'memory':12", "'memory':0", "/memory", "at least 1"},
    {"'acceleration':'regular'", "'acceleration':'turbo'", "/acceleration",
        "\"none\", \"regular\""},
    {"'16:9'", "'4:3'", "/aspect_ratio", "\"1:1\""},
    {"'prompt_version':1,", "", "/prompt_version", "is required"},
    {"'prompt_version':1", "'prompt_version':0", "/prompt_version",
        "at least 1"},
    {"'enable_safety_checker':true,", "", "/enable_safety_checker",
        "is required"},
    {"'enable_safety_checker':true", "'enable_safety_checker':null",
        "/enable_safety_checker", "boolean"},
  };
  GstSessionMessage *m;
  const GstStructure *s;

  m = accept_sq (SERVICE, configured_example);
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_structure_get_name (s), "configured");
  assert_int (s, "prompt_version", 1);
  assert_bool (s, "enable_safety_checker", TRUE);
  assert_int (s, "memory", 12);
  assert_int (s, "chunk_duration", 10);
  assert_string (s, "acceleration", "regular");
  assert_bool (s, "has_initial_image", FALSE);
  assert_string (s, "resolution", "768p");
  assert_string (s, "aspect_ratio", "16:9");
  gst_session_message_unref (m);

  check_changes (SERVICE, configured_example, "configured", changes,
      G_N_ELEMENTS (changes));

  /* null memory is a null string; null defaults are not filled */
  m = accept_sq (SERVICE, "{'type':'configured','prompt_version':2,"
      "'enable_safety_checker':false,'memory':null}");
  s = gst_session_message_get_structure (m);
  assert_null (s, "memory");
  assert_bool (s, "enable_safety_checker", FALSE);
  fail_unless_equals_int (gst_structure_n_fields (s), 3);
  gst_session_message_unref (m);
}

GST_END_TEST;

static const gchar chunk_example[] =
    "{'type':'chunk','chunk_index':0,'prompt_version':1,"
    "'generation_seconds':7.84,'playback_seconds':10,"
    "'requested_duration_seconds':10,'generated_frame_count':240,"
    "'trimmed_context_frames':39,'next_generation_estimate_seconds':7.5,"
    "'route':'gorgonea','buffer_depth_seconds':12.5,'buffer_depth_chunks':1,"
    "'scheduling_lead_ms':2150.5,'scheduling_slack_ms':-120.25,"
    "'dispatch':{'wall_ms':7840.2,'classified_ms':7600.1,'overhead_ms':240.1,"
    "'phases_ms':{'denoise':6200.5,'decode':1399}}}";

GST_START_TEST (test_chunk)
{
  const Change changes[] = {
    {"'gorgonea'", "'betelgeuse'"}, {"'gorgonea'", "'regulus'"},
    {"'gorgonea'", "'unknown'"},
    {"'playback_seconds':10", "'playback_seconds':0.04"},
    {"'generation_seconds':7.84", "'generation_seconds':0"},
    {"'requested_duration_seconds':10", "'requested_duration_seconds':5"},
    {"'requested_duration_seconds':10", "'requested_duration_seconds':15"},
    {"'scheduling_slack_ms':-120.25", "'scheduling_slack_ms':-1e6"},
    {"'phases_ms':{'denoise':6200.5,'decode':1399}", "'phases_ms':{}"},
    {"'route'", "'worker':'gpu-3','route'"},
    {"'playback_seconds':10", "'playback_seconds':0", "/playback_seconds",
        "greater than 0"},
    {"'playback_seconds':10", "'playback_seconds':-1", "/playback_seconds",
        "greater than 0"},
    {"'generated_frame_count':240", "'generated_frame_count':0",
        "/generated_frame_count", "greater than 0"},
    {"'chunk_index':0", "'chunk_index':-1", "/chunk_index", "at least 0"},
    {"'requested_duration_seconds':10", "'requested_duration_seconds':4",
        "/requested_duration_seconds", "at least 5"},
    {"'requested_duration_seconds':10", "'requested_duration_seconds':16",
        "/requested_duration_seconds", "at most 15"},
    {"'requested_duration_seconds':10", "'requested_duration_seconds':10.5",
        "/requested_duration_seconds", "integer"},
    {"'gorgonea'", "'mars'", "/route", "\"regulus\", \"unknown\""},
    {"'generation_seconds':7.84", "'generation_seconds':-0.1",
        "/generation_seconds", "at least 0"},
    {"'buffer_depth_chunks':1", "'buffer_depth_chunks':-1",
        "/buffer_depth_chunks", "at least 0"},
    {"'trimmed_context_frames':39", "'trimmed_context_frames':-1",
        "/trimmed_context_frames", "at least 0"},
    {"'prompt_version':1", "'prompt_version':0", "/prompt_version",
        "at least 1"},
    {",'scheduling_lead_ms':2150.5", "", "/scheduling_lead_ms",
        "is required"},
    {",'overhead_ms':240.1", "", "/dispatch/overhead_ms", "is required"},
    {"'overhead_ms':240.1", "'overhead_ms':-1", "/dispatch/overhead_ms",
        "at least 0"},
    {",'phases_ms':{'denoise':6200.5,'decode':1399}", "",
        "/dispatch/phases_ms", "is required"},
    {"'denoise':6200.5", "'denoise':'6200.5'", "/dispatch/phases_ms/denoise",
        "number"},
    {",'dispatch':{", ",'dispatch_':{", "/dispatch", "is required"},
  };
  GstSessionMessage *m;
  const GstStructure *s, *d;

  m = accept_sq (SERVICE, chunk_example);
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_structure_get_name (s), "chunk");
  assert_int (s, "chunk_index", 0);
  assert_int (s, "prompt_version", 1);
  assert_double (s, "generation_seconds", 7.84);
  assert_double (s, "playback_seconds", 10.0);
  assert_int (s, "requested_duration_seconds", 10);
  assert_int (s, "generated_frame_count", 240);
  assert_int (s, "trimmed_context_frames", 39);
  assert_double (s, "next_generation_estimate_seconds", 7.5);
  assert_string (s, "route", "gorgonea");
  assert_double (s, "buffer_depth_seconds", 12.5);
  assert_int (s, "buffer_depth_chunks", 1);
  assert_double (s, "scheduling_lead_ms", 2150.5);
  assert_double (s, "scheduling_slack_ms", -120.25);
  d = assert_object (s, "dispatch");
  assert_double (d, "wall_ms", 7840.2);
  assert_double (d, "classified_ms", 7600.1);
  assert_double (d, "overhead_ms", 240.1);
  assert_json (d, "phases_ms", "{'denoise':6200.5,'decode':1399}");
  fail_unless_equals_int (gst_structure_n_fields (d), 4);
  fail_unless_equals_int (gst_structure_n_fields (s), 14);
  gst_session_message_unref (m);

  /* a field the contract does not name is kept as JSON text */
  m = accept_sq (SERVICE, "{'type':'chunk','chunk_index':0,'prompt_version':1,"
      "'generation_seconds':7.84,'playback_seconds':10,"
      "'requested_duration_seconds':10,'generated_frame_count':240,"
      "'trimmed_context_frames':39,'next_generation_estimate_seconds':7.5,"
      "'worker':'gpu-3','route':'gorgonea','buffer_depth_seconds':12.5,"
      "'buffer_depth_chunks':1,'scheduling_lead_ms':2150.5,"
      "'scheduling_slack_ms':-120.25,'dispatch':{'wall_ms':7840.2,"
      "'classified_ms':7600.1,'overhead_ms':240.1,'phases_ms':{},"
      "'queue':{'depth':2}},'host':{'gpu':'h100'}}");
  s = gst_session_message_get_structure (m);
  assert_json (s, GST_SESSION_MESSAGE_OTHER_FIELDS,
      "{'worker':'gpu-3','host':{'gpu':'h100'}}");
  fail_unless_equals_int (gst_structure_n_fields (s), 15);
  d = assert_object (s, "dispatch");
  assert_json (d, "phases_ms", "{}");
  assert_json (d, GST_SESSION_MESSAGE_OTHER_FIELDS, "{'queue':{'depth':2}}");
  gst_session_message_unref (m);

  check_changes (SERVICE, chunk_example, "chunk", changes,
      G_N_ELEMENTS (changes));
}

GST_END_TEST;

static const gchar chunk_metrics_example[] =
    "{'type':'chunk_metrics','chunk_index':3,'units':'ms',"
    "'route':'betelgeuse','phases_ms':{'denoise':6100,'decode':1400.5},"
    "'gauges':{'queue_depth':2,'gpu_mem_mb':20480.5},"
    "'chunk_consumable_ready_ms':812.5,'chunk_consumable_interval_ms':10000}";

GST_START_TEST (test_chunk_metrics)
{
  const Change changes[] = {
    {"'chunk_consumable_ready_ms':812.5", "'chunk_consumable_ready_ms':null"},
    {"'chunk_consumable_ready_ms':812.5", "'chunk_consumable_ready_ms':0"},
    {",'chunk_consumable_ready_ms':812.5", ""},
    {"'chunk_consumable_interval_ms':10000",
        "'chunk_consumable_interval_ms':null"},
    {"'gauges':{'queue_depth':2,'gpu_mem_mb':20480.5}", "'gauges':{}"},
    {"'units':'ms'", "'units':'s'", "/units", "must be \"ms\""},
    {"'chunk_consumable_ready_ms':812.5", "'chunk_consumable_ready_ms':-1",
        "/chunk_consumable_ready_ms", "at least 0"},
    {"'chunk_consumable_interval_ms':10000",
          "'chunk_consumable_interval_ms':-0.5",
        "/chunk_consumable_interval_ms", "at least 0"},
    {"'queue_depth':2", "'queue_depth':'2'", "/gauges/queue_depth", "number"},
    {"'queue_depth':2", "'queue_depth':null", "/gauges/queue_depth",
        "number"},
    {"'decode':1400.5", "'decode':true", "/phases_ms/decode", "number"},
    {"'betelgeuse'", "'mars'", "/route", "\"gorgonea\""},
    {"'chunk_index':3", "'chunk_index':-1", "/chunk_index", "at least 0"},
    {",'units':'ms'", "", "/units", "is required"},
    {",'gauges':{'queue_depth':2,'gpu_mem_mb':20480.5}", "", "/gauges",
        "is required"},
  };
  GstSessionMessage *m;
  const GstStructure *s;

  m = accept_sq (SERVICE, chunk_metrics_example);
  s = gst_session_message_get_structure (m);
  assert_int (s, "chunk_index", 3);
  assert_string (s, "units", "ms");
  assert_string (s, "route", "betelgeuse");
  assert_json (s, "phases_ms", "{'denoise':6100,'decode':1400.5}");
  assert_json (s, "gauges", "{'queue_depth':2,'gpu_mem_mb':20480.5}");
  assert_double (s, "chunk_consumable_ready_ms", 812.5);
  assert_double (s, "chunk_consumable_interval_ms", 10000.0);
  gst_session_message_unref (m);

  check_changes (SERVICE, chunk_metrics_example, "chunk_metrics", changes,
      G_N_ELEMENTS (changes));

  m = accept_sq (SERVICE, "{'type':'chunk_metrics','chunk_index':0,"
      "'units':'ms','route':'unknown','phases_ms':{},'gauges':{},"
      "'chunk_consumable_ready_ms':null}");
  assert_null (gst_session_message_get_structure (m),
      "chunk_consumable_ready_ms");
  gst_session_message_unref (m);
}

GST_END_TEST;

static const gchar session_metrics_example[] =
    "{'type':'session_metrics','units':'ms','session_wall_ms':61234.5,"
    "'history_size':6,'history_limit':64,"
    "'phases':{'denoise':{'count':6,'total_ms':37200,'p50_ms':6150.5,"
    "'p95_ms':6400.25,'max_ms':6420}},"
    "'gauges':{'queue_depth':1},'final':true}";

GST_START_TEST (test_session_metrics)
{
  const Change changes[] = {
    {"'final':true", "'final':false"},
    {"'history_size':6", "'history_size':0"},
    {"'phases':{'denoise'", "'phases':{'decode':{'count':0,'total_ms':0,"
          "'p50_ms':0,'p95_ms':0,'max_ms':0},'denoise'"},
    {"'history_limit':64", "'history_limit':0", "/history_limit",
        "at least 1"},
    {"'p95_ms':6400.25", "'p95_ms':-1", "/phases/denoise/p95_ms",
        "at least 0"},
    {"'count':6,", "", "/phases/denoise/count", "is required"},
    {"'count':6", "'count':6.5", "/phases/denoise/count", "integer"},
    {"'phases':{'denoise'", "'phases':{'decode':[],'denoise'",
        "/phases/decode", "object"},
    {"'units':'ms'", "'units':'us'", "/units", "must be \"ms\""},
    {"'session_wall_ms':61234.5", "'session_wall_ms':-1",
        "/session_wall_ms", "at least 0"},
    {"'history_size':6", "'history_size':-1", "/history_size", "at least 0"},
    {"'final':true", "'final':'yes'", "/final", "boolean"},
    {"'queue_depth':1", "'queue_depth':'1'", "/gauges/queue_depth",
        "number"},
  };
  GstSessionMessage *m;
  const GstStructure *s;

  m = accept_sq (SERVICE, session_metrics_example);
  s = gst_session_message_get_structure (m);
  assert_string (s, "units", "ms");
  assert_double (s, "session_wall_ms", 61234.5);
  assert_int (s, "history_size", 6);
  assert_int (s, "history_limit", 64);
  assert_json (s, "phases", "{'denoise':{'count':6,'total_ms':37200,"
      "'p50_ms':6150.5,'p95_ms':6400.25,'max_ms':6420}}");
  assert_json (s, "gauges", "{'queue_depth':1}");
  assert_bool (s, "final", TRUE);
  gst_session_message_unref (m);

  check_changes (SERVICE, session_metrics_example, "session_metrics",
      changes, G_N_ELEMENTS (changes));

  /* final defaults to false */
  m = accept_sq (SERVICE, "{'type':'session_metrics','units':'ms',"
      "'session_wall_ms':0,'history_size':0,'history_limit':1,"
      "'phases':{},'gauges':{}}");
  s = gst_session_message_get_structure (m);
  assert_bool (s, "final", FALSE);
  assert_double (s, "session_wall_ms", 0.0);
  gst_session_message_unref (m);
}

GST_END_TEST;

GST_START_TEST (test_deadline_missed)
{
  static const gchar example[] =
      "{'type':'deadline_missed','chunk_index':4,'late_by_seconds':0.75,"
      "'behavior':'freeze_video_and_silence_audio_until_ready'}";
  const Change changes[] = {
    {"'late_by_seconds':0.75", "'late_by_seconds':0"},
    {"'late_by_seconds':0.75", "'late_by_seconds':-0.5", "/late_by_seconds",
        "at least 0"},
    {"'freeze_video_and_silence_audio_until_ready'", "'freeze'", "/behavior",
        "must be \"freeze_video_and_silence_audio_until_ready\""},
    {",'behavior':'freeze_video_and_silence_audio_until_ready'", "",
        "/behavior", "is required"},
    {"'chunk_index':4", "'chunk_index':-1", "/chunk_index", "at least 0"},
  };
  GstSessionMessage *m;
  const GstStructure *s;

  m = accept_sq (SERVICE, example);
  s = gst_session_message_get_structure (m);
  assert_int (s, "chunk_index", 4);
  assert_double (s, "late_by_seconds", 0.75);
  assert_string (s, "behavior", "freeze_video_and_silence_audio_until_ready");
  gst_session_message_unref (m);

  check_changes (SERVICE, example, "deadline_missed", changes,
      G_N_ELEMENTS (changes));
}

GST_END_TEST;

GST_START_TEST (test_prompt_state)
{
  const gchar *types[] = { "prompt_pending", "prompt_applied" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (types); i++) {
    gchar *json;
    GstSessionMessage *m;

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":7}", types[i]);
    m = accept_json (SERVICE, json);
    assert_int (gst_session_message_get_structure (m), "prompt_version", 7);
    gst_session_message_unref (m);
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"%s\",\"prompt_version\":0}", types[i]);
    refuse_json (SERVICE, json, types[i], "/prompt_version", "at least 1");
    g_free (json);

    json = g_strdup_printf ("{\"type\":\"%s\"}", types[i]);
    refuse_json (SERVICE, json, types[i], "/prompt_version", "is required");
    g_free (json);
  }
}

GST_END_TEST;

GST_START_TEST (test_prompt_rejected)
{
  static const gchar example[] =
      "{'type':'prompt_rejected','prompt_version':2,'reason':'content_policy'}";
  const Change changes[] = {
    {"'content_policy'", "'too_long'", "/reason",
        "must be \"content_policy\""},
    {",'reason':'content_policy'", "", "/reason", "is required"},
    {"'prompt_version':2", "'prompt_version':0", "/prompt_version",
        "at least 1"},
  };
  GstSessionMessage *m;
  const GstStructure *s;

  m = accept_sq (SERVICE, example);
  s = gst_session_message_get_structure (m);
  assert_int (s, "prompt_version", 2);
  assert_string (s, "reason", "content_policy");
  gst_session_message_unref (m);

  check_changes (SERVICE, example, "prompt_rejected", changes,
      G_N_ELEMENTS (changes));
}

GST_END_TEST;

GST_START_TEST (test_stream_exhausted)
{
  static const gchar example[] =
      "{'type':'stream_exhausted','chunks':18,'reason':'stopped'}";
  const Change changes[] = {
    {"'stopped'", "'session_limit'"},
    {"'chunks':18", "'chunks':0"},
    {"'chunks':18", "'chunks':-1", "/chunks", "at least 0"},
    {"'stopped'", "'done'", "/reason", "\"stopped\", \"session_limit\""},
    {",'reason':'stopped'", "", "/reason", "is required"},
    {"'chunks':18,", "", "/chunks", "is required"},
  };
  GstSessionMessage *m;
  const GstStructure *s;

  m = accept_sq (SERVICE, example);
  s = gst_session_message_get_structure (m);
  assert_int (s, "chunks", 18);
  assert_string (s, "reason", "stopped");
  gst_session_message_unref (m);

  check_changes (SERVICE, example, "stream_exhausted", changes,
      G_N_ELEMENTS (changes));
}

GST_END_TEST;

GST_START_TEST (test_pong)
{
  GstSessionMessage *m;

  m = accept_sq (SERVICE, "{'type':'pong','client_ts':12.5}");
  assert_double (gst_session_message_get_structure (m), "client_ts", 12.5);
  gst_session_message_unref (m);

  m = accept_sq (SERVICE, "{'type':'pong','client_ts':1700000000000}");
  assert_double (gst_session_message_get_structure (m), "client_ts",
      1700000000000.0);
  gst_session_message_unref (m);

  refuse_sq (SERVICE, "{'type':'pong'}", "pong", "/client_ts", "is required");
  refuse_sq (SERVICE, "{'type':'pong','client_ts':null}", "pong",
      "/client_ts", "number");
}

GST_END_TEST;

GST_START_TEST (test_error)
{
  const gchar *codes[] = { "content_policy", "configuration_timeout",
    "generation_failed", "generation_timeout", "immutable_settings",
    "initialization_timeout", "invalid_initial_image", "invalid_message",
    "not_configured", "stale_prompt_version"
  };
  const Change changes[] = {
    {"'prompt_version':3}", "'prompt_version':null}"},
    {",'prompt_version':3}", "}"},
    {"'detail':[{'loc':['body','prompt_version'],'msg':'stale'}]",
        "'detail':null"},
    {"'detail':[{'loc':['body','prompt_version'],'msg':'stale'}]",
        "'detail':[]"},
    {"'msg':'stale'}]", "'msg':'stale'},{}]"},
    {"'prompt_version':3}", "'prompt_version':0}", "/prompt_version",
        "at least 1"},
    {"'prompt_version':3}", "'prompt_version':1.5}", "/prompt_version",
        "integer"},
    {"'stale_prompt_version'", "'oops'", "/code",
        "\"content_policy\", \"configuration_timeout\""},
    {"'code':'stale_prompt_version',", "", "/code", "is required"},
    {"'error':'prompt_version 3 is not above 4',", "", "/error",
        "is required"},
    {"'error':'prompt_version 3 is not above 4'", "'error':null", "/error",
        "string"},
    {"'detail':[{'loc':['body','prompt_version'],'msg':'stale'}]",
        "'detail':[1]", "/detail/0", "object"},
    {"'detail':[{'loc':['body','prompt_version'],'msg':'stale'}]",
        "'detail':{'msg':'stale'}", "/detail", "array"},
  };
  GstSessionMessage *m;
  const GstStructure *s;
  const GValue *detail;
  guint i;

  m = accept_sq (SERVICE, error_example);
  s = gst_session_message_get_structure (m);
  assert_string (s, "code", "stale_prompt_version");
  assert_string (s, "error", "prompt_version 3 is not above 4");
  assert_int (s, "prompt_version", 3);
  /* the contract does not describe the items: JSON text */
  detail = field (s, "detail", GST_TYPE_ARRAY);
  fail_unless_equals_int (gst_value_array_get_size (detail), 1);
  fail_unless_equals_string (g_value_get_string (gst_value_array_get_value
          (detail, 0)), "{\"loc\":[\"body\",\"prompt_version\"],"
      "\"msg\":\"stale\"}");
  gst_session_message_unref (m);

  for (i = 0; i < G_N_ELEMENTS (codes); i++) {
    gchar *json = g_strdup_printf ("{\"type\":\"error\",\"code\":\"%s\","
        "\"error\":\"failed\"}", codes[i]);

    m = accept_json (SERVICE, json);
    assert_string (gst_session_message_get_structure (m), "code", codes[i]);
    gst_session_message_unref (m);
    g_free (json);
  }

  check_changes (SERVICE, error_example, "error", changes,
      G_N_ELEMENTS (changes));

  m = accept_sq (SERVICE, "{'type':'error','code':'not_configured',"
      "'error':'send configure first','detail':null,'prompt_version':null}");
  s = gst_session_message_get_structure (m);
  assert_null (s, "detail");
  assert_null (s, "prompt_version");
  gst_session_message_unref (m);
}

GST_END_TEST;

GST_START_TEST (test_session_info_defaults)
{
  GstSessionMessage *m;
  const GstStructure *s;
  gchar *json;

  m = accept_sq (SERVICE, "{'type':'session_info'}");
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_structure_get_name (s), "session_info");
  assert_int (s, "protocol_version", 1);
  assert_int (s, "prompt_deck_size", 3);
  assert_int (s, "chunk_seconds", 10);
  assert_int (s, "min_chunk_duration", 5);
  assert_int (s, "max_chunk_duration", 15);
  assert_int (s, "default_chunk_duration", 10);
  assert_double (s, "continuation_playback_seconds", 8.5);
  assert_int (s, "continuation_context_frames", 39);
  assert_strings (s, "resolutions", "480p,768p");
  assert_strings (s, "aspect_ratios", "16:9,9:16,1:1");
  assert_strings (s, "accelerations", "none,regular");
  assert_string (s, "default_acceleration", "regular");
  assert_int (s, "min_memory", 1);
  assert_int (s, "default_memory", 12);
  assert_int (s, "max_memory", 50);
  assert_int (s, "prompt_context_segments", 12);
  assert_string (s, "prompt_expander", "fast");
  assert_string (s, "controller_machine_type", "XL");
  assert_bool (s, "one_session_per_machine", TRUE);
  assert_int (s, "audio_sample_rate", 32000);
  assert_int (s, "fps", 24);
  assert_strings (s, "client_message_types", "configure,ping,prompt,stop");
  assert_strings (s, "server_message_types", "chunk,chunk_metrics,"
      "configured,deadline_missed,error,pong,prompt_applied,prompt_pending,"
      "prompt_rejected,session_info,session_metrics,stream_exhausted");
  /* null or unknown defaults are not filled */
  fail_if (gst_structure_has_field (s, "max_session_seconds"));
  fail_if (gst_structure_has_field (s, "app"));
  fail_if (gst_structure_has_field (s, "backend_selection"));
  fail_unless_equals_int (gst_structure_n_fields (s), 23);
  /* the JSON text keeps what was sent */
  json = gst_session_message_to_json (m);
  fail_unless_equals_string (json, "{\"type\":\"session_info\"}");
  g_free (json);
  gst_session_message_unref (m);
}

GST_END_TEST;

GST_START_TEST (test_session_info_sent_values)
{
  GstSessionMessage *m;
  const GstStructure *s;

  m = accept_sq (SERVICE, "{'type':'session_info','protocol_version':1,"
      "'app':'director','backend_selection':'least_loaded',"
      "'max_session_seconds':3600,'continuation_playback_seconds':9,"
      "'resolutions':['768p'],'fps':24,'worker':'gpu-3'}");
  s = gst_session_message_get_structure (m);
  assert_string (s, "app", "director");
  assert_string (s, "backend_selection", "least_loaded");
  assert_double (s, "max_session_seconds", 3600.0);
  assert_double (s, "continuation_playback_seconds", 9.0);
  assert_strings (s, "resolutions", "768p");
  assert_int (s, "fps", 24);
  assert_json (s, GST_SESSION_MESSAGE_OTHER_FIELDS, "{'worker':'gpu-3'}");
  assert_int (s, "max_memory", 50);
  gst_session_message_unref (m);

  m = accept_sq (SERVICE, "{'type':'session_info','max_session_seconds':null}");
  assert_null (gst_session_message_get_structure (m), "max_session_seconds");
  gst_session_message_unref (m);

  refuse_sq (SERVICE, "{'type':'session_info','protocol_version':2}",
      "session_info", "/protocol_version", "must be 1");
  refuse_sq (SERVICE, "{'type':'session_info','fps':'24'}",
      "session_info", "/fps", "integer");
  refuse_sq (SERVICE, "{'type':'session_info','resolutions':['768p',1]}",
      "session_info", "/resolutions/1", "string");
  refuse_sq (SERVICE, "{'type':'session_info','max_session_seconds':'1h'}",
      "session_info", "/max_session_seconds", "number");
}

GST_END_TEST;

static Suite *
messages_director_service_suite (void)
{
  Suite *s = suite_create ("messages-director-service");
  TCase *tc_service = tcase_create ("service");

  suite_add_tcase (s, tc_service);
  tcase_add_test (tc_service, test_configured);
  tcase_add_test (tc_service, test_chunk);
  tcase_add_test (tc_service, test_chunk_metrics);
  tcase_add_test (tc_service, test_session_metrics);
  tcase_add_test (tc_service, test_deadline_missed);
  tcase_add_test (tc_service, test_prompt_state);
  tcase_add_test (tc_service, test_prompt_rejected);
  tcase_add_test (tc_service, test_stream_exhausted);
  tcase_add_test (tc_service, test_pong);
  tcase_add_test (tc_service, test_error);
  tcase_add_test (tc_service, test_session_info_defaults);
  tcase_add_test (tc_service, test_session_info_sent_values);
  return s;
}

GST_CHECK_MAIN (messages_director_service);
