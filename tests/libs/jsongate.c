/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The JSON gate: strict RFC 8259, size and depth limits, and no input that
 * json-glib would take differently (comments hiding a deep nesting, single
 * quotes, '#', octal escapes) gets through.
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>

typedef struct
{
  const gchar *text;
  const gchar *rule;            /* NULL: accepted; else part of the error */
} Case;

static const Case cases[] = {
  {"{}", NULL},
  {"[]", NULL},
  {" {\"a\": [1, -0, 0.5, 1e3, -2E-2, true, false, null, \"x\"]} \n", NULL},
  {"\"\\u00e9\\ud83d\\ude00\\n\\/\"", NULL},
  {"-0", NULL},
  {"1e308", NULL},
  {"\"caf\xc3\xa9\"", NULL},
  /* what json-glib 1.6 takes beyond RFC 8259 */
  {"{\"x\": /*\"*/ 1}", "comment"},
  {"{\"x\": 1} // c", "text after"},
  {"// c\n{}", "comment"},
  {"# c\n{}", "'#'"},
  {"{'x': 1}", "single quote"},
  {"{\"x\": 'y'}", "single quote"},
  {"{x: 1}", "member name"},
  {"\"\\101\"", "escape"},
  {"\"\\x41\"", "escape"},
  {"[1,]", "missing"},
  {"{\"a\":1,}", "trailing comma"},
  {"[1 2]", "','"},
  {"{\"a\" 1}", "':'"},
  /* numbers */
  {"1e400", "too large"},
  {"-1e400", "too large"},
  {"01", "leading zero"},
  {"1.", "number"},
  {".5", "cannot start"},
  {"+1", "cannot start"},
  {"NaN", "cannot start"},
  {"Infinity", "cannot start"},
  {"0x10", "text after"},
  /* strings */
  {"\"\\ud800\"", "lone high surrogate"},
  {"\"\\udc00\"", "lone low surrogate"},
  {"\"\\ud800\\u0041\"", "lone high surrogate"},
  {"\"\\u12\"", "four hex"},
  {"\"a\tb\"", "control character"},
  {"\"abc", "does not end"},
  {"\xef\xbb\xbf{}", "byte-order mark"},
  {"\"\xc3\x28\"", "UTF-8"},
  {"True", "cannot start"},
  {"nul", "word"},
  /* structure */
  {"", "no JSON value"},
  {"   ", "no JSON value"},
  {"[1", "ends inside"},
  {"{}{}", "text after"},
  {"]", "missing"},
};

GST_START_TEST (test_cases)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    GError *err = NULL;
    gboolean ok = gst_session_json_check (cases[i].text,
        strlen (cases[i].text), 1024, 8, &err);

    if (cases[i].rule == NULL) {
      fail_unless (ok, "refused %s: %s", cases[i].text, err->message);
    } else {
      fail_if (ok, "accepted %s", cases[i].text);
      fail_unless (g_error_matches (err, GST_SESSION_ERROR,
              GST_SESSION_ERROR_INVALID_JSON));
      fail_unless (strstr (err->message, cases[i].rule) != NULL,
          "%s: '%s' does not say '%s'", cases[i].text, err->message,
          cases[i].rule);
      g_error_free (err);
    }
  }
}

GST_END_TEST;

/* a NUL byte inside the length is not JSON */
GST_START_TEST (test_nul_byte)
{
  GError *err = NULL;

  fail_if (gst_session_json_check ("{}\0", 3, 1024, 8, &err));
  fail_unless (strstr (err->message, "NUL") != NULL, "%s", err->message);
  g_error_free (err);
}

GST_END_TEST;

static gchar *
nested (guint levels, const gchar * prefix)
{
  GString *s = g_string_new (prefix);
  guint i;

  for (i = 0; i < levels; i++)
    g_string_append_c (s, '[');
  for (i = 0; i < levels; i++)
    g_string_append_c (s, ']');
  if (prefix[0] == '{')
    g_string_append_c (s, '}');
  return g_string_free (s, FALSE);
}

/* the nesting found by a review: 100 000 levels hidden behind a comment
 * that looks like a string to a scan that knows only strings */
GST_START_TEST (test_depth)
{
  gchar *ok = nested (8, "");
  gchar *deep = nested (9, "");
  gchar *hidden = nested (100000, "{\"x\": /*\"*/ ");
  gchar *plain = nested (100000, "");
  GError *err = NULL;

  fail_unless (gst_session_json_check (ok, strlen (ok), 1 << 20, 8, NULL));
  fail_if (gst_session_json_check (deep, strlen (deep), 1 << 20, 8, &err));
  fail_unless (strstr (err->message, "deeper than 8") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  fail_if (gst_session_json_check (hidden, strlen (hidden), 1 << 20, 32, &err));
  fail_unless (strstr (err->message, "comment") != NULL, "%s", err->message);
  g_clear_error (&err);
  fail_if (gst_session_json_check (plain, strlen (plain), 1 << 20, 32, &err));
  fail_unless (strstr (err->message, "deeper than 32") != NULL, "%s",
      err->message);
  g_clear_error (&err);
  g_free (ok);
  g_free (deep);
  g_free (hidden);
  g_free (plain);
}

GST_END_TEST;

GST_START_TEST (test_size)
{
  GError *err = NULL;

  fail_unless (gst_session_json_check ("[1,2]", 5, 5, 8, NULL));
  fail_if (gst_session_json_check ("[1,2] ", 6, 5, 8, &err));
  fail_unless (strstr (err->message, "6 bytes, at most 5") != NULL, "%s",
      err->message);
  g_error_free (err);
}

GST_END_TEST;

/* what passes the gate, json-glib parses: the parse helper */
GST_START_TEST (test_parse)
{
  const gchar *text = "{\"a\": [1, \"\\ud83d\\ude00\"], \"b\": -0}";
  JsonNode *root = gst_session_json_parse (text, strlen (text), 1024, 8,
      NULL);
  GError *err = NULL;

  fail_unless (root != NULL);
  fail_unless (JSON_NODE_HOLDS_OBJECT (root));
  fail_unless_equals_string (json_array_get_string_element
      (json_object_get_array_member (json_node_get_object (root), "a"), 1),
      "\xf0\x9f\x98\x80");
  json_node_unref (root);
  fail_if (gst_session_json_parse ("{'a': 1}", 8, 1024, 8, &err));
  fail_unless (err != NULL);
  g_error_free (err);
}

GST_END_TEST;

/* every parser of peer text in the library meets the same inputs: each
 * is refused (or, for an HTTP error body, not used), none crashes */
GST_START_TEST (test_entry_points)
{
  gchar *hidden = nested (100000, "{\"x\": /*\"*/ ");
  const gchar *inputs[] = { "{\"type\": \"pong\" /* c */}",
    "{'type': 'pong'}", "# c\n{\"type\": \"pong\"}",
    "{\"type\": \"pong\", \"ts\": 1e400}", "\xef\xbb\xbf{\"type\": \"pong\"}",
    "{\"type\": \"\\ud800\"}", hidden
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (inputs); i++) {
    gsize len = strlen (inputs[i]);
    GError *err = NULL;
    GstSessionHttpError *http;

    fail_if (gst_session_message_parse (GST_SESSION_APP_WORLD,
            GST_SESSION_DIRECTION_SERVICE, inputs[i], len, &err));
    fail_unless (g_error_matches (err, GST_SESSION_ERROR,
            GST_SESSION_ERROR_INVALID_JSON), "message: %s", err->message);
    g_clear_error (&err);
    fail_if (gst_session_webhook_key_set_parse (inputs[i], len, &err));
    g_clear_error (&err);
    fail_if (gst_session_webhook_delivery_parse (inputs[i], len, len, "r-1",
            &err));
    g_clear_error (&err);
    fail_if (gst_session_webhook_ip_ranges_parse (inputs[i], len, &err));
    g_clear_error (&err);
    /* an error body that is not strict JSON is not read: the status
     * alone decides */
    http = gst_session_http_error_parse (500, NULL, inputs[i], len);
    fail_unless (http != NULL);
    fail_if (http->detail && strstr (http->detail, "pong"));
    gst_session_http_error_free (http);
  }
  g_free (hidden);
}

GST_END_TEST;

/* what the library writes, the gate reads back: every control character
 * escaped (json-glib 1.6 leaves U+001F raw), no ".0" after an exponent */
GST_START_TEST (test_write)
{
  JsonNode *node;
  JsonArray *array = json_array_new ();
  gchar *text, *s;
  guint c;

  for (c = 1; c < 0x20; c++) {
    gchar str[] = { 'a', (gchar) c, 'b', 0 };

    json_array_add_string_element (array, str);
  }
  json_array_add_double_element (array, 1e78);
  json_array_add_double_element (array, -2.5e-300);
  node = json_node_init_array (json_node_alloc (), array);
  json_array_unref (array);

  text = gst_session_json_write (node, FALSE);
  fail_unless (strstr (text, "\\u001f") != NULL, "%s", text);
  fail_if (strstr (text, "e+78.0") != NULL, "%s", text);
  for (s = text; *s; s++)
    fail_if ((guchar) * s < 0x20, "raw byte 0x%02x in %s", *s, text);
  {
    GError *err = NULL;
    JsonNode *again = gst_session_json_parse (text, strlen (text), 1 << 16,
        8, &err);
    JsonArray *back;

    fail_unless (again != NULL, "%s: %s", text, err ? err->message : "");
    back = json_node_get_array (again);
    for (c = 1; c < 0x20; c++)
      fail_unless_equals_int (json_array_get_string_element (back,
              c - 1)[1], c);
    fail_unless (json_array_get_double_element (back, 31) == 1e78);
    json_node_unref (again);
  }
  g_free (text);

  /* pretty: indented, and still read back */
  text = gst_session_json_write (node, TRUE);
  fail_unless (strchr (text, '\n') != NULL);
  fail_unless (gst_session_json_check (text, strlen (text), 1 << 16, 8,
          NULL), "%s", text);
  g_free (text);
  json_node_unref (node);
}

GST_END_TEST;

static Suite *
jsongate_suite (void)
{
  Suite *s = suite_create ("jsongate");
  TCase *tc = tcase_create ("gate");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_cases);
  tcase_add_test (tc, test_nul_byte);
  tcase_add_test (tc, test_depth);
  tcase_add_test (tc, test_size);
  tcase_add_test (tc, test_parse);
  tcase_add_test (tc, test_entry_points);
  tcase_add_test (tc, test_write);
  return s;
}

GST_CHECK_MAIN (jsongate);
