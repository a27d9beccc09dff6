/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The director message rules of spec 000: what each client and service
 * message accepts and refuses, the GValue types of parsed fields, the
 * defaults filled on parse, the typed builders and round trips.
 *
 * JSON in the tables is written with single quotes, turned into double
 * quotes before use (sq()).
 */

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>

#define APP GST_SESSION_APP_DIRECTOR
#define CLIENT GST_SESSION_DIRECTION_CLIENT
#define SERVICE GST_SESSION_DIRECTION_SERVICE

/* ---- helpers ---- */

static gchar *
sq (const gchar * text)
{
  gchar *s = g_strdup (text), *p;

  for (p = s; *p; p++) {
    if (*p == '\'')
      *p = '"';
  }
  return s;
}

/* parses real JSON text, which must be accepted as a known message */
static GstSessionMessage *
accept_json (GstSessionDirection dir, const gchar * json)
{
  GError *err = NULL;
  GstSessionMessage *m;

  m = gst_session_message_parse (APP, dir, json, -1, &err);
  fail_unless (m != NULL, "refused %.200s: %s", json,
      err ? err->message : "(no error)");
  fail_unless (err == NULL);
  fail_unless (gst_session_message_is_known (m), "unknown: %.200s", json);
  return m;
}

static GstSessionMessage *
accept_sq (GstSessionDirection dir, const gchar * text)
{
  gchar *json = sq (text);
  GstSessionMessage *m = accept_json (dir, json);

  g_free (json);
  return m;
}

static void
accept_only (GstSessionDirection dir, const gchar * text)
{
  gst_session_message_unref (accept_sq (dir, text));
}

/* real JSON text must be refused as an invalid message whose text starts
 * with "@type: ", names @pointer and contains @limit (if not NULL) */
static void
refuse_json (GstSessionDirection dir, const gchar * json, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  GError *err = NULL;
  GstSessionMessage *m;
  gchar *prefix, *where;

  m = gst_session_message_parse (APP, dir, json, -1, &err);
  if (m != NULL) {
    gchar *back = gst_session_message_to_json (m);

    fail ("accepted %.200s (as %.200s)", json, back);
    g_free (back);
  }
  fail_unless (err != NULL, "no error for %.200s", json);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE), "%.200s: wrong error %s:%d %s",
      json, g_quark_to_string (err->domain), err->code, err->message);
  prefix = g_strconcat (type, ": ", NULL);
  where = g_strconcat (" ", pointer, " ", NULL);
  fail_unless (g_str_has_prefix (err->message, prefix),
      "%.200s: \"%s\" does not start with \"%s\"", json, err->message, prefix);
  fail_unless (strstr (err->message, where) != NULL,
      "%.200s: \"%s\" does not name %s", json, err->message, pointer);
  if (limit)
    fail_unless (strstr (err->message, limit) != NULL,
        "%.200s: \"%s\" does not contain \"%s\"", json, err->message, limit);
  g_free (prefix);
  g_free (where);
  g_error_free (err);
}

static void
refuse_sq (GstSessionDirection dir, const gchar * text, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  gchar *json = sq (text);

  refuse_json (dir, json, type, pointer, limit);
  g_free (json);
}

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

static const GValue *
field (const GstStructure * s, const gchar * name, GType type)
{
  const GValue *v = gst_structure_get_value (s, name);

  fail_unless (v != NULL, "%s: no field %s", gst_structure_get_name (s), name);
  fail_unless (G_VALUE_TYPE (v) == type, "%s: %s is a %s, not a %s",
      gst_structure_get_name (s), name, G_VALUE_TYPE_NAME (v),
      g_type_name (type));
  return v;
}

static void
assert_int (const GstStructure * s, const gchar * name, gint64 expected)
{
  fail_unless_equals_int64 (g_value_get_int64 (field (s, name,
              G_TYPE_INT64)), expected);
}

static void
assert_double (const GstStructure * s, const gchar * name, gdouble expected)
{
  fail_unless_equals_float (g_value_get_double (field (s, name,
              G_TYPE_DOUBLE)), expected);
}

static void
assert_string (const GstStructure * s, const gchar * name,
    const gchar * expected)
{
  fail_unless_equals_string (g_value_get_string (field (s, name,
              G_TYPE_STRING)), expected);
}

static void
assert_null (const GstStructure * s, const gchar * name)
{
  fail_unless (g_value_get_string (field (s, name, G_TYPE_STRING)) == NULL,
      "%s: %s is not null", gst_structure_get_name (s), name);
}

/* a map, or members the contract does not name: their names are the
 * service's, so they are JSON text, not fields (GStreamer keeps every field
 * name for the life of the process) */
static void
assert_json (const GstStructure * s, const gchar * name, const gchar * expected)
{
  gchar *want = g_strdup (expected);

  g_strdelimit (want, "'", '"');
  assert_string (s, name, want);
  g_free (want);
}

static void
assert_bool (const GstStructure * s, const gchar * name, gboolean expected)
{
  fail_unless_equals_int (g_value_get_boolean (field (s, name,
              G_TYPE_BOOLEAN)), expected);
}

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

static const GstStructure *
assert_object (const GstStructure * s, const gchar * name)
{
  const GstStructure *o =
      gst_value_get_structure (field (s, name, GST_TYPE_STRUCTURE));

  fail_unless (o != NULL, "%s: %s is an empty structure value",
      gst_structure_get_name (s), name);
  return o;
}

/* a string of @n copies of 'a' */
static gchar *
repeat (gsize n)
{
  gchar *s = g_malloc (n + 1);

  memset (s, 'a', n);
  s[n] = '\0';
  return s;
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

static const gchar error_example[] =
    "{'type':'error','code':'stale_prompt_version',"
    "'error':'prompt_version 3 is not above 4',"
    "'detail':[{'loc':['body','prompt_version'],'msg':'stale'}],"
    "'prompt_version':3}";

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

/* ---- typed builders ---- */

/* a builder's result: NULL, with an invalid-message error naming @type,
 * @pointer and @limit; clears *@error (read after @text was computed) */
static void
assert_build_refused (gchar * text, GError ** error, const gchar * type,
    const gchar * pointer, const gchar * limit)
{
  gchar *prefix = g_strconcat (type, ": ", pointer, " ", NULL);
  GError *err = *error;

  fail_unless (text == NULL, "built %s", text);
  fail_unless (err != NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE), "wrong error %s:%d %s",
      g_quark_to_string (err->domain), err->code, err->message);
  fail_unless (g_str_has_prefix (err->message, prefix),
      "\"%s\" does not start with \"%s\"", err->message, prefix);
  fail_unless (strstr (err->message, limit) != NULL,
      "\"%s\" does not contain \"%s\"", err->message, limit);
  g_free (prefix);
  g_clear_error (error);
}

GST_START_TEST (test_config_init)
{
  GstSessionDirectorConfig c;

  memset (&c, 0x5a, sizeof (c));
  gst_session_director_config_init (&c);
  fail_unless_equals_int64 (c.prompt_version, 1);
  fail_unless (c.prompt == NULL);
  fail_unless_equals_int (c.memory, 0);
  fail_unless (!c.has_seed);
  fail_unless (c.resolution == NULL);
  fail_unless (c.aspect_ratio == NULL);
  fail_unless_equals_int (c.chunk_duration, 0);
  fail_unless (c.acceleration == NULL);
  fail_unless_equals_int (c.enable_safety_checker, -1);
}

GST_END_TEST;

GST_START_TEST (test_build_configure)
{
  GstSessionDirectorConfig c;
  GError *err = NULL;
  gchar *json;

  gst_session_director_config_init (&c);
  c.prompt = "x";
  json = gst_session_director_build_configure (&c, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (json,
      "{\"type\":\"configure\",\"prompt_version\":1,\"prompt\":\"x\"}");
  g_free (json);

  /* left out: 0, NULL, -1, has_seed FALSE (whatever the seed) */
  c.seed = 5;
  c.has_seed = FALSE;
  c.memory = 0;
  c.chunk_duration = 0;
  c.enable_safety_checker = -1;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless_equals_string (json,
      "{\"type\":\"configure\",\"prompt_version\":1,\"prompt\":\"x\"}");
  g_free (json);

  c.prompt_version = 2;
  c.prompt = "a city \"at\" night";
  c.memory = 20;
  c.has_seed = TRUE;
  c.seed = 7;
  c.resolution = "480p";
  c.aspect_ratio = "9:16";
  c.chunk_duration = 15;
  c.acceleration = "none";
  c.enable_safety_checker = 0;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (json, "{\"type\":\"configure\","
      "\"prompt_version\":2,\"prompt\":\"a city \\\"at\\\" night\","
      "\"memory\":20,\"seed\":7,\"resolution\":\"480p\","
      "\"aspect_ratio\":\"9:16\",\"chunk_duration\":15,"
      "\"acceleration\":\"none\",\"enable_safety_checker\":false}");
  g_free (json);

  /* a seed of 0 is sent when has_seed is set; 1 is true */
  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.has_seed = TRUE;
  c.seed = 0;
  c.enable_safety_checker = 1;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless_equals_string (json, "{\"type\":\"configure\","
      "\"prompt_version\":1,\"prompt\":\"x\",\"seed\":0,"
      "\"enable_safety_checker\":true}");
  g_free (json);
}

GST_END_TEST;

GST_START_TEST (test_build_configure_refused)
{
  GstSessionDirectorConfig c;
  GError *err = NULL;
  gchar *over = repeat (50001), *max = repeat (50000), *json;

  gst_session_director_config_init (&c);
  c.prompt = max;
  json = gst_session_director_build_configure (&c, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  g_free (json);

  c.prompt = over;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt", "at most 50000");

  c.prompt = "";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt", "at least 1");

  /* no prompt */
  gst_session_director_config_init (&c);
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt", "string");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.prompt_version = 0;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/prompt_version", "at least 1");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.memory = 51;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/memory", "at most 50");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.chunk_duration = 16;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/chunk_duration", "at most 15");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.chunk_duration = 4;
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/chunk_duration", "at least 5");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.resolution = "720p";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/resolution", "\"480p\", \"768p\"");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.aspect_ratio = "4:3";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/aspect_ratio", "\"16:9\"");

  gst_session_director_config_init (&c);
  c.prompt = "x";
  c.acceleration = "turbo";
  assert_build_refused (gst_session_director_build_configure (&c, &err), &err,
      "configure", "/acceleration", "\"none\", \"regular\"");

  g_free (over);
  g_free (max);
}

GST_END_TEST;

GST_START_TEST (test_build_prompt_ping_stop)
{
  GError *err = NULL;
  gchar *over = repeat (50001), *json;

  json = gst_session_director_build_prompt (4, "now rain", &err);
  fail_unless_equals_string (json,
      "{\"type\":\"prompt\",\"prompt_version\":4,\"prompt\":\"now rain\"}");
  g_free (json);

  json = gst_session_director_build_ping (12.5, &err);
  fail_unless_equals_string (json, "{\"type\":\"ping\",\"ts\":12.5}");
  g_free (json);

  json = gst_session_director_build_stop (&err);
  fail_unless_equals_string (json, "{\"type\":\"stop\"}");
  g_free (json);
  fail_unless (err == NULL);

  assert_build_refused (gst_session_director_build_prompt (1, over, &err),
      &err, "prompt", "/prompt", "at most 50000");
  assert_build_refused (gst_session_director_build_prompt (0, "x", &err),
      &err, "prompt", "/prompt_version", "at least 1");
  assert_build_refused (gst_session_director_build_prompt (1, "", &err),
      &err, "prompt", "/prompt", "at least 1");
  assert_build_refused (gst_session_director_build_prompt (1, NULL, &err),
      &err, "prompt", "/prompt", "string");
  assert_build_refused (gst_session_director_build_ping (INFINITY, &err),
      &err, "ping", "/ts", "finite");
  g_free (over);
}

GST_END_TEST;

/* ---- round trips ---- */

/* parses @json (taken) as a director message from @dir; the text of the
 * parsed message is @json again */
static GstSessionMessage *
reparse (GstSessionDirection dir, gchar * json)
{
  GstSessionMessage *m;
  gchar *back;

  fail_unless (json != NULL);
  m = accept_json (dir, json);
  back = gst_session_message_to_json (m);
  fail_unless_equals_string (back, json);
  g_free (back);
  g_free (json);
  return m;
}

GST_START_TEST (test_round_trip_client)
{
  GstSessionDirectorConfig c;
  GstSessionMessage *m;
  const GstStructure *s;

  gst_session_director_config_init (&c);
  c.prompt_version = 9;
  c.prompt = "waves, \\ slash and \xc3\xa9t\xc3\xa9";
  c.memory = 1;
  c.has_seed = TRUE;
  c.seed = G_GINT64_CONSTANT (4294967296);
  c.resolution = "768p";
  c.aspect_ratio = "1:1";
  c.chunk_duration = 5;
  c.acceleration = "regular";
  c.enable_safety_checker = 1;
  m = reparse (CLIENT, gst_session_director_build_configure (&c, NULL));
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_session_message_get_type_name (m),
      "configure");
  assert_int (s, "prompt_version", 9);
  assert_string (s, "prompt", c.prompt);
  assert_int (s, "memory", 1);
  assert_int (s, "seed", G_GINT64_CONSTANT (4294967296));
  assert_string (s, "resolution", "768p");
  assert_string (s, "aspect_ratio", "1:1");
  assert_int (s, "chunk_duration", 5);
  assert_string (s, "acceleration", "regular");
  assert_bool (s, "enable_safety_checker", TRUE);
  /* the one default left to fill */
  assert_int (s, "protocol_version", 1);
  fail_unless_equals_int (gst_structure_n_fields (s), 10);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_prompt (12, "fog", NULL));
  s = gst_session_message_get_structure (m);
  assert_int (s, "prompt_version", 12);
  assert_string (s, "prompt", "fog");
  fail_unless_equals_int (gst_structure_n_fields (s), 2);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_ping (12.5, NULL));
  assert_double (gst_session_message_get_structure (m), "ts", 12.5);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_ping (3, NULL));
  assert_double (gst_session_message_get_structure (m), "ts", 3.0);
  gst_session_message_unref (m);

  m = reparse (CLIENT, gst_session_director_build_stop (NULL));
  fail_unless_equals_string (gst_session_message_get_type_name (m), "stop");
  fail_unless_equals_int (gst_structure_n_fields
      (gst_session_message_get_structure (m)), 0);
  gst_session_message_unref (m);
}

GST_END_TEST;

static GstStructure *
chunk_structure (gdouble playback_seconds)
{
  GstStructure *phases, *dispatch, *chunk;

  phases = gst_structure_new ("phases_ms", "denoise", G_TYPE_DOUBLE, 6200.5,
      "decode", G_TYPE_DOUBLE, 1399.0, NULL);
  dispatch = gst_structure_new ("dispatch", "wall_ms", G_TYPE_DOUBLE, 7840.25,
      "classified_ms", G_TYPE_DOUBLE, 7600.0, "overhead_ms", G_TYPE_DOUBLE,
      240.25, "phases_ms", GST_TYPE_STRUCTURE, phases, NULL);
  chunk = gst_structure_new ("chunk", "chunk_index", G_TYPE_INT64,
      G_GINT64_CONSTANT (2), "prompt_version", G_TYPE_INT, 3,
      "generation_seconds", G_TYPE_DOUBLE, 7.75,
      "playback_seconds", G_TYPE_DOUBLE, playback_seconds,
      "requested_duration_seconds", G_TYPE_INT, 10,
      "generated_frame_count", G_TYPE_INT, 240,
      "trimmed_context_frames", G_TYPE_INT, 39,
      "next_generation_estimate_seconds", G_TYPE_DOUBLE, 7.5,
      "route", G_TYPE_STRING, "regulus",
      "buffer_depth_seconds", G_TYPE_DOUBLE, 20.0,
      "buffer_depth_chunks", G_TYPE_INT, 2,
      "scheduling_lead_ms", G_TYPE_DOUBLE, 1500.0,
      "scheduling_slack_ms", G_TYPE_DOUBLE, -3.5,
      "dispatch", GST_TYPE_STRUCTURE, dispatch, NULL);
  gst_structure_free (phases);
  gst_structure_free (dispatch);
  return chunk;
}

GST_START_TEST (test_round_trip_service)
{
  GstStructure *fields;
  GstSessionMessage *m;
  const GstStructure *s, *d;
  GError *err = NULL;
  gchar *json;

  fields = chunk_structure (10.0);
  json = gst_session_message_build (APP, SERVICE, fields, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  gst_structure_free (fields);
  m = reparse (SERVICE, json);
  s = gst_session_message_get_structure (m);
  fail_unless_equals_string (gst_structure_get_name (s), "chunk");
  assert_int (s, "chunk_index", 2);
  assert_int (s, "prompt_version", 3);
  assert_double (s, "generation_seconds", 7.75);
  assert_double (s, "playback_seconds", 10.0);
  assert_int (s, "requested_duration_seconds", 10);
  assert_int (s, "generated_frame_count", 240);
  assert_int (s, "trimmed_context_frames", 39);
  assert_double (s, "next_generation_estimate_seconds", 7.5);
  assert_string (s, "route", "regulus");
  assert_double (s, "buffer_depth_seconds", 20.0);
  assert_int (s, "buffer_depth_chunks", 2);
  assert_double (s, "scheduling_lead_ms", 1500.0);
  assert_double (s, "scheduling_slack_ms", -3.5);
  fail_unless_equals_int (gst_structure_n_fields (s), 14);
  d = assert_object (s, "dispatch");
  assert_double (d, "wall_ms", 7840.25);
  assert_double (d, "classified_ms", 7600.0);
  assert_double (d, "overhead_ms", 240.25);
  /* built from a structure (names of the application), read as text */
  assert_json (d, "phases_ms", "{'denoise':6200.5,'decode':1399.0}");
  gst_session_message_unref (m);

  /* the structure of a parsed message builds again, JSON text included */
  m = accept_sq (SERVICE, "{'type':'chunk_metrics','chunk_index':3,"
      "'units':'ms','route':'unknown','phases_ms':{'a b':1.5},"
      "'gauges':{},'worker':{'id':'gpu-3'}}");
  json = gst_session_message_build (APP, SERVICE,
      gst_session_message_get_structure (m), &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless_equals_string (json, "{\"type\":\"chunk_metrics\","
      "\"chunk_index\":3,\"units\":\"ms\",\"route\":\"unknown\","
      "\"phases_ms\":{\"a b\":1.5},\"gauges\":{},"
      "\"worker\":{\"id\":\"gpu-3\"}}");
  g_free (json);
  gst_session_message_unref (m);
  m = accept_sq (SERVICE, error_example);
  json = gst_session_message_build (APP, SERVICE,
      gst_session_message_get_structure (m), &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  fail_unless (strstr (json, "\"detail\":[{\"loc\":[\"body\","
          "\"prompt_version\"],\"msg\":\"stale\"}]") != NULL, "%s", json);
  g_free (json);
  gst_session_message_unref (m);

  /* what breaks a rule is not built */
  fields = chunk_structure (0.0);
  json = gst_session_message_build (APP, SERVICE, fields, &err);
  gst_structure_free (fields);
  fail_unless (json == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  fail_unless (g_str_has_prefix (err->message,
          "chunk: /playback_seconds is 0, must be greater than 0"),
      "%s", err->message);
  g_clear_error (&err);

  fields = gst_structure_new ("stream_exhausted", "chunks", G_TYPE_INT, 18,
      "reason", G_TYPE_STRING, "session_limit", NULL);
  json = gst_session_message_build (APP, SERVICE, fields, &err);
  fail_unless (json != NULL, "%s", err ? err->message : "");
  gst_structure_free (fields);
  fail_unless_equals_string (json, "{\"type\":\"stream_exhausted\","
      "\"chunks\":18,\"reason\":\"session_limit\"}");
  m = reparse (SERVICE, json);
  s = gst_session_message_get_structure (m);
  assert_int (s, "chunks", 18);
  assert_string (s, "reason", "session_limit");
  fail_unless_equals_int (gst_structure_n_fields (s), 2);
  gst_session_message_unref (m);

  fields = gst_structure_new ("stream_exhausted", "chunks", G_TYPE_INT, -1,
      "reason", G_TYPE_STRING, "stopped", NULL);
  fail_if (gst_session_message_build (APP, SERVICE, fields, &err));
  gst_structure_free (fields);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  fail_unless (strstr (err->message, "/chunks") != NULL, "%s", err->message);
  g_clear_error (&err);

  /* a client type is not a service message */
  fields = gst_structure_new ("stop", NULL, NULL);
  fail_if (gst_session_message_build (APP, SERVICE, fields, &err));
  gst_structure_free (fields);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_UNKNOWN_TYPE), "%s", err->message);
  g_clear_error (&err);
}

GST_END_TEST;

static Suite *
messages_director_suite (void)
{
  Suite *s = suite_create ("messages-director");
  TCase *tc_client = tcase_create ("client");
  TCase *tc_service = tcase_create ("service");
  TCase *tc_build = tcase_create ("build");
  TCase *tc_round_trip = tcase_create ("round-trip");

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

  suite_add_tcase (s, tc_build);
  tcase_add_test (tc_build, test_config_init);
  tcase_add_test (tc_build, test_build_configure);
  tcase_add_test (tc_build, test_build_configure_refused);
  tcase_add_test (tc_build, test_build_prompt_ping_stop);

  suite_add_tcase (s, tc_round_trip);
  tcase_add_test (tc_round_trip, test_round_trip_client);
  tcase_add_test (tc_round_trip, test_round_trip_service);
  return s;
}

GST_CHECK_MAIN (messages_director);
