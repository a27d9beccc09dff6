/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What an HTTP error of spec 001 keeps and says: bodies of no known form
 * and hostile ones (of kind other, the status alone in their text), the
 * copy, the boxed type, the text and the GError of an error, and random
 * mutations of valid answers.
 */

#include "httperror-test.h"

/* ---------------------------------------------------------------------- */
/* Bodies of no known form                                                */
/* ---------------------------------------------------------------------- */

static void
assert_other (guint status, const gchar * body, gsize length)
{
  GstSessionHttpError *error;
  gchar *text;

  error = gst_session_http_error_parse (status, NULL, body, length);
  fail_unless (error != NULL);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);
  fail_unless_equals_int (error->status, status);
  fail_unless (error->error_type == NULL);
  fail_unless (error->detail == NULL);
  fail_unless (error->items != NULL);
  fail_unless_equals_int (error->items->len, 0);
  text = gst_session_http_error_to_string (error);
  fail_unless (g_str_has_prefix (text, "HTTP "), "%s", text);
  g_free (text);
  gst_session_http_error_free (error);
}

static void
assert_other_text (guint status, const gchar * body)
{
  assert_other (status, body, strlen (body));
}

GST_START_TEST (test_html_502_page)
{
  const gchar *page = "<!DOCTYPE html>\n<html><head><title>502 Bad Gateway"
      "</title></head><body><center><h1>502 Bad Gateway</h1></center><hr>"
      "<center>nginx</center></body></html>\n";
  GstSessionHttpError *error = parse_text (502, NULL, page);
  gchar *text;

  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_OTHER);
  fail_unless_equals_int (error->status, 502);
  assert_first_retry (error, TRUE);
  text = gst_session_http_error_to_string (error);
  fail_unless_equals_string (text, "HTTP 502 Bad Gateway");
  g_free (text);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_empty_bodies)
{
  assert_other (500, NULL, 0);
  assert_other_text (500, "");
  assert_other_text (503, "   \n\t ");
  /* a NULL body with a length is taken as empty */
  assert_other (504, NULL, 100);
}

GST_END_TEST;

GST_START_TEST (test_json_of_no_known_form)
{
  assert_other_text (422, "[{\"loc\": [\"body\"], \"msg\": \"m\", "
      "\"type\": \"image_too_small\"}]");
  assert_other_text (500, "\"just a string\"");
  assert_other_text (500, "42");
  assert_other_text (500, "null");
  assert_other_text (500, "{}");
  assert_other_text (500, "{\"message\": \"Internal Server Error\"}");
  assert_other_text (502, "{\"detail\": [1, \"two\", null, [3]]}");
  assert_other_text (422, "{\"detail\": []}");
}

GST_END_TEST;

GST_START_TEST (test_detail_of_wrong_type)
{
  static const gchar *bodies[] = {
    "{\"detail\": 42}",
    "{\"detail\": null}",
    "{\"detail\": true}",
    "{\"detail\": {\"msg\": \"nested\", \"type\": \"image_too_small\"}}",
    "{\"detail\": 1.5, \"error_type\": null}",
    "{\"detail\": {}, \"error_type\": []}",
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (bodies); i++)
    assert_other (500, bodies[i], strlen (bodies[i]));
}

GST_END_TEST;

GST_START_TEST (test_invalid_json_and_bytes)
{
  static const gchar nul_inside[] = "{\"detail\": \"a\0b\"}";
  static const gchar bad_utf8[] = "{\"detail\": \"\xff\xfe\xc3\"}";

  assert_other_text (500, "{\"detail\": ");
  assert_other_text (500, "{\"detail\": \"unterminated");
  assert_other_text (500, "{detail: 'single'}");
  assert_other_text (500, "{\"detail\": \"x\"} trailing");
  assert_other (500, nul_inside, sizeof (nul_inside) - 1);
  assert_other (500, bad_utf8, sizeof (bad_utf8) - 1);
}

GST_END_TEST;

GST_START_TEST (test_body_length_is_respected)
{
  /* the body need not end with NUL; bytes past the length are not read */
  static const gchar buffer[] =
      "{\"detail\": \"Gone\", \"error_type\": \"runner_disconnected\"}GARBAGE";
  gsize length = strlen (buffer) - strlen ("GARBAGE");
  GstSessionHttpError *error;

  error = gst_session_http_error_parse (503, NULL, buffer, length);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "runner_disconnected");
  gst_session_http_error_free (error);

  /* cut inside the JSON: not JSON any more */
  assert_other (503, buffer, 10);
}

GST_END_TEST;

GST_START_TEST (test_missing_fields_in_items)
{
  GstSessionHttpError *error;
  GstSessionHttpErrorItem *item;

  error = parse_text (422, NULL, "{\"detail\": [{}]}");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_int (error->items->len, 1);
  item = item_at (error, 0);
  fail_unless (item->type == NULL && item->msg == NULL && item->url == NULL);
  fail_unless (item->loc == NULL && item->ctx == NULL && item->input == NULL);
  fail_unless (error->error_type == NULL && error->detail == NULL);
  /* an unknown type: the status decides (422: no) */
  assert_first_retry (error, FALSE);
  gst_session_http_error_free (error);

  /* fields of the wrong types are dropped, the rest is kept */
  error = parse_text (503, NULL, "{\"detail\": [{\"loc\": 5, \"msg\": 7, "
      "\"type\": [\"x\"], \"url\": {}, \"ctx\": [1, 2], \"input\": null}, "
      "\"not an object\", {\"msg\": \"only a msg\"}]}");
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless_equals_int (error->items->len, 2);
  item = item_at (error, 0);
  fail_unless (item->type == NULL && item->msg == NULL && item->url == NULL);
  fail_unless (item->loc == NULL && item->ctx == NULL);
  fail_unless_equals_string (item->input, "null");
  fail_unless_equals_string (item_at (error, 1)->msg, "only a msg");
  /* unknown types on a 503: retried */
  assert_first_retry (error, TRUE);
  gst_session_http_error_free (error);
}

GST_END_TEST;

static gchar *
nested (const gchar * prefix, const gchar * open, guint depth,
    const gchar * middle, const gchar * close, const gchar * suffix)
{
  GString *s = g_string_new (prefix);
  guint i;

  for (i = 0; i < depth; i++)
    g_string_append (s, open);
  g_string_append (s, middle);
  for (i = 0; i < depth; i++)
    g_string_append (s, close);
  g_string_append (s, suffix);
  return g_string_free (s, FALSE);
}

GST_START_TEST (test_deeply_nested_json)
{
  gchar *body;

  body = nested ("", "[", 10000, "", "]", "");
  assert_other (500, body, strlen (body));
  g_free (body);

  body = nested ("{\"detail\": ", "[", 10000, "1", "]", "}");
  assert_other (422, body, strlen (body));
  g_free (body);

  body = nested ("{\"detail\": [{\"type\": \"t\", \"ctx\": ", "{\"a\": ",
      10000, "1", "}", "}]}");
  assert_other (422, body, strlen (body));
  g_free (body);

  /* unbalanced: only opening brackets */
  body = nested ("", "{\"a\":[", 5000, "", "", "");
  assert_other (400, body, strlen (body));
  g_free (body);
}

GST_END_TEST;

GST_START_TEST (test_nesting_limit_boundary)
{
  GstSessionHttpError *error;
  gchar *body;

  /* root object 1, detail array 2, item 3, ctx 4: 28 more objects reach
   * GST_SESSION_HTTP_ERROR_MAX_DEPTH (32) */
  body = nested ("{\"detail\": [{\"type\": \"t\", \"ctx\": {\"k\": ",
      "{\"a\": ", GST_SESSION_HTTP_ERROR_MAX_DEPTH - 4, "1", "}", "}}]}");
  error = parse_text (422, NULL, body);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_MODEL);
  fail_unless (item_at (error, 0)->ctx != NULL);
  gst_session_http_error_free (error);
  g_free (body);

  body = nested ("{\"detail\": [{\"type\": \"t\", \"ctx\": {\"k\": ",
      "{\"a\": ", GST_SESSION_HTTP_ERROR_MAX_DEPTH - 3, "1", "}", "}}]}");
  assert_other (422, body, strlen (body));
  g_free (body);
}

GST_END_TEST;

GST_START_TEST (test_brackets_in_strings_do_not_count)
{
  GstSessionHttpError *error;
  gchar *body;

  body = nested ("{\"detail\": \"", "[{", 1000, "\\\" still [ in {",
      "}]", "\", \"error_type\": \"bad_request\"}");
  error = parse_text (400, NULL, body);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "bad_request");
  fail_unless (g_str_has_prefix (error->detail, "[{[{"));
  gst_session_http_error_free (error);
  g_free (body);
}

GST_END_TEST;

GST_START_TEST (test_huge_body)
{
  GstSessionHttpError *error;
  GString *s;
  gchar *text;

  /* just over the limit: not parsed */
  s = g_string_new ("{\"error_type\": \"internal_error\", \"detail\": \"");
  while (s->len <= GST_SESSION_HTTP_ERROR_MAX_BODY)
    g_string_append (s, "0123456789abcdef");
  g_string_append (s, "\"}");
  assert_other (500, s->str, s->len);

  /* under the limit: parsed, and the text stays short */
  g_string_truncate (s, GST_SESSION_HTTP_ERROR_MAX_BODY - 2);
  g_string_append (s, "\"}");
  error = gst_session_http_error_parse (500, NULL, s->str, s->len);
  fail_unless_equals_int (error->kind, GST_SESSION_HTTP_ERROR_KIND_REQUEST);
  fail_unless_equals_string (error->error_type, "internal_error");
  text = gst_session_http_error_to_string (error);
  fail_unless (strlen (text) < 1024, "%" G_GSIZE_FORMAT, strlen (text));
  assert_contains (text, "internal_error");
  g_free (text);
  gst_session_http_error_free (error);
  g_string_free (s, TRUE);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* copy, boxed type, text                                                 */
/* ---------------------------------------------------------------------- */

static void
assert_items_equal (const GstSessionHttpErrorItem * a,
    const GstSessionHttpErrorItem * b)
{
  fail_unless (a != b);
  fail_unless_equals_string (a->type, b->type);
  fail_unless_equals_string (a->msg, b->msg);
  fail_unless_equals_string (a->url, b->url);
  fail_unless_equals_string (a->loc, b->loc);
  fail_unless_equals_string (a->input, b->input);
  if (a->ctx || b->ctx) {
    fail_unless (a->ctx && b->ctx && a->ctx != b->ctx);
    fail_unless (gst_structure_is_equal (a->ctx, b->ctx));
  }
}

static void
assert_errors_equal (const GstSessionHttpError * a,
    const GstSessionHttpError * b)
{
  guint i;

  fail_unless (a != b);
  fail_unless_equals_int (a->status, b->status);
  fail_unless_equals_int (a->kind, b->kind);
  fail_unless_equals_string (a->error_type, b->error_type);
  fail_unless_equals_string (a->detail, b->detail);
  fail_unless_equals_int (a->retryable, b->retryable);
  fail_unless (a->ratelimit_reset == b->ratelimit_reset);
  fail_unless (a->items != b->items);
  fail_unless_equals_int (a->items->len, b->items->len);
  for (i = 0; i < a->items->len; i++)
    assert_items_equal (g_ptr_array_index (a->items, i),
        g_ptr_array_index (b->items, i));
}

GST_START_TEST (test_copy_equals_original)
{
  SoupMessageHeaders *headers = make_headers ("X-Svc-Retryable", "false",
      "x-ratelimit-reset", "9", NULL);
  GstSessionHttpError *error, *copy;
  gchar *a, *b;

  error = parse_text (422, headers, "{\"detail\": [" "{\"loc\": [\"body\", "
      "\"images\", 0], \"msg\": \"Image too small\", \"type\": "
      "\"image_too_small\", \"url\": \"" DOCS "image_too_small\", \"ctx\": "
      "{\"min_height\": 512, \"min_width\": 512}, \"input\": [1, 2]}, "
      "{\"loc\": [\"body\", \"aspect_ratio\"], \"msg\": \"Bad ratio\", "
      "\"type\": \"one_of\", \"ctx\": {\"expected\": [\"16:9\", \"1:1\"]}}]}");
  copy = gst_session_http_error_copy (error);
  assert_errors_equal (error, copy);

  a = gst_session_http_error_to_string (error);
  b = gst_session_http_error_to_string (copy);
  fail_unless_equals_string (a, b);
  g_free (a);
  g_free (b);

  /* the copy outlives the original */
  gst_session_http_error_free (error);
  fail_unless_equals_string (item_at (copy, 1)->type, "one_of");
  gst_session_http_error_free (copy);

  fail_unless (gst_session_http_error_copy (NULL) == NULL);
  gst_session_http_error_free (NULL);
  soup_message_headers_unref (headers);
}

GST_END_TEST;

GST_START_TEST (test_boxed_type)
{
  GstSessionHttpError *error = parse_text (504, NULL,
      "{\"detail\": \"Too slow\", \"error_type\": \"request_timeout\"}");
  GstSessionHttpError *copy;
  GValue value = G_VALUE_INIT;

  fail_unless (G_TYPE_IS_BOXED (GST_SESSION_TYPE_HTTP_ERROR));
  fail_unless (G_TYPE_IS_BOXED (GST_SESSION_TYPE_RETRY_POLICY));
  fail_unless (G_TYPE_IS_BOXED (GST_SESSION_TYPE_RETRY_DECISION));
  g_value_init (&value, GST_SESSION_TYPE_HTTP_ERROR);
  g_value_set_boxed (&value, error);
  copy = g_value_dup_boxed (&value);
  assert_errors_equal (error, copy);
  g_value_unset (&value);
  gst_session_http_error_free (copy);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_autoptr)
{
  g_autoptr (GstSessionHttpError) error = parse_text (500, NULL, "oops");

  fail_unless_equals_int (error->status, 500);
}

GST_END_TEST;

GST_START_TEST (test_to_string_single_item)
{
  GstSessionHttpError *error = parse_text (422, NULL,
      "{\"detail\": [{\"loc\": [\"body\", \"image_url\"], \"msg\": "
      "\"Image too small (min 512x512)\", \"type\": \"image_too_small\", "
      "\"url\": \"" DOCS "image_too_small\", \"ctx\": {\"min_height\": 512, "
      "\"min_width\": 512}}]}");
  gchar *text = gst_session_http_error_to_string (error);

  fail_unless_equals_string (text,
      "HTTP 422 image_too_small at /body/image_url: "
      "Image too small (min 512x512)");
  g_free (text);
  gst_session_http_error_free (error);
}

GST_END_TEST;

GST_START_TEST (test_to_string_forms)
{
  static const struct
  {
    guint status;
    const gchar *header;        /* x-ratelimit-reset, or NULL */
    const gchar *body;
    const gchar *expected;
  } cases[] = {
    {503, NULL, "{\"detail\": \"No runner could be allocated.\", "
          "\"error_type\": \"runner_scheduling_failure\"}",
        "HTTP 503 runner_scheduling_failure: No runner could be allocated."},
    {500, NULL, "{\"detail\": \"Something broke\"}",
        "HTTP 500: Something broke"},
    {429, "12", NULL, "HTTP 429 rate limited (window resets in 12 s)"},
    {429, NULL, NULL, "HTTP 429 rate limited"},
    {429, "30", "{\"detail\": \"Slow down\"}",
        "HTTP 429 rate limited (window resets in 30 s): Slow down"},
    {404, NULL, "<html/>", "HTTP 404 Not Found"},
    {422, NULL, "{\"detail\": [{\"msg\": \"Only a message\"}]}",
        "HTTP 422 Only a message"},
    {422, NULL, "{\"detail\": [{}]}", "HTTP 422 error without details"},
    {422, NULL, "{\"detail\": [{\"loc\": [\"body\", \"x\"]}]}",
        "HTTP 422 at /body/x"},
    {422, NULL, "{\"detail\": [{\"msg\": \"line one\\nline two\\ttab\", "
          "\"type\": \"custom\"}]}",
        "HTTP 422 custom: line one line two tab"},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    SoupMessageHeaders *headers = cases[i].header ?
        make_headers ("x-ratelimit-reset", cases[i].header, NULL) : NULL;
    GstSessionHttpError *error = parse_text (cases[i].status, headers,
        cases[i].body);
    gchar *text = gst_session_http_error_to_string (error);

    fail_unless_equals_string (text, cases[i].expected);
    g_free (text);
    gst_session_http_error_free (error);
    if (headers)
      soup_message_headers_unref (headers);
  }
}

GST_END_TEST;

GST_START_TEST (test_to_string_lists_items)
{
  GstSessionHttpError *error;
  GString *body;
  gchar *text;
  guint i;

  error = parse_text (422, NULL, "{\"detail\": [{\"loc\": [\"body\", "
      "\"image_url\"], \"msg\": \"Image too small\", \"type\": "
      "\"image_too_small\"}, {\"loc\": [\"body\", \"seed\"], \"msg\": "
      "\"Input should be less than 10\", \"type\": \"less_than\"}]}");
  text = gst_session_http_error_to_string (error);
  fail_unless_equals_string (text, "HTTP 422, 2 errors: image_too_small at "
      "/body/image_url: Image too small; less_than at /body/seed: Input "
      "should be less than 10");
  g_free (text);
  gst_session_http_error_free (error);

  /* many long items: a few are shown, the text stays bounded */
  body = g_string_new ("{\"detail\": [");
  for (i = 0; i < 1000; i++) {
    guint j;

    g_string_append_printf (body, "%s{\"loc\": [\"body\", \"f%u\"], "
        "\"type\": \"greater_than\", \"msg\": \"", i ? ", " : "", i);
    for (j = 0; j < 50; j++)
      g_string_append (body, "long message ");
    g_string_append (body, "\"}");
  }
  g_string_append (body, "]}");
  error = gst_session_http_error_parse (422, NULL, body->str, body->len);
  fail_unless_equals_int (error->items->len, 1000);
  text = gst_session_http_error_to_string (error);
  fail_unless (strlen (text) <= 2048, "%" G_GSIZE_FORMAT, strlen (text));
  assert_contains (text, "1000 errors");
  assert_contains (text, "/body/f0");
  assert_contains (text, "and 997 more");
  fail_if (strstr (text, "/body/f3:") != NULL);
  g_free (text);
  gst_session_http_error_free (error);
  g_string_free (body, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_to_string_never_shows_secrets)
{
  static const struct
  {
    guint status;
    const gchar *body;
  } cases[] = {
    {422, SMALL_BODY},
    {503, "{\"detail\": \"No runner\", \"error_type\": "
          "\"runner_scheduling_failure\"}"},
    {429, "{\"detail\": \"Slow down\"}"},
    {401, "Unauthorized"},
    {500, NULL},
  };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (cases); i++) {
    SoupMessageHeaders *headers = make_headers ("Authorization",
        "Key " API_KEY, "Set-Cookie", "session=" API_KEY,
        "X-Api-Key", API_KEY, "x-ratelimit-reset", "1", NULL);
    GstSessionHttpError *error = parse_text (cases[i].status, headers,
        cases[i].body);
    gchar *text = gst_session_http_error_to_string (error);
    GError *gerror = gst_session_http_error_to_gerror (error);

    fail_if (strstr (text, API_KEY) != NULL, "%s", text);
    fail_if (strstr (text, "Authorization") != NULL, "%s", text);
    fail_if (strstr (gerror->message, API_KEY) != NULL);
    g_error_free (gerror);
    g_free (text);
    gst_session_http_error_free (error);
    soup_message_headers_unref (headers);
  }
}

GST_END_TEST;

GST_START_TEST (test_to_gerror)
{
  GstSessionHttpError *error = parse_text (422, NULL, SMALL_BODY);
  GError *gerror = gst_session_http_error_to_gerror (error);
  gchar *text = gst_session_http_error_to_string (error);

  fail_unless (g_error_matches (gerror, GST_SESSION_ERROR,
          GST_SESSION_ERROR_HTTP));
  fail_unless_equals_string (gerror->message, text);
  assert_contains (gerror->message, "image_too_small");
  assert_contains (gerror->message, "Image too small (min 512x512)");
  g_free (text);
  g_error_free (gerror);
  gst_session_http_error_free (error);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* Robustness                                                             */
/* ---------------------------------------------------------------------- */

/* Bounded random mutations of valid answers, with a fixed seed: parse,
 * describe, decide, copy and free must all survive. The real fuzzing lives
 * in tests/fuzz. */
GST_START_TEST (test_mutated_bodies_do_not_crash)
{
  static const gchar *seeds[] = {
    SMALL_BODY, ISE_BODY,
    "{\"detail\": \"No runner\", \"error_type\": \"runner_disconnected\"}",
    "{\"detail\": [{\"loc\": [\"body\", \"images\", 0], \"ctx\": {\"a\": "
        "[1, 2.5, null, true, {\"b\": []}]}, \"input\": {\"x\": \"y\"}}]}",
  };
  static const gchar noise[] = "{}[]\",:\\01-.eE tfn\xc3\xa9\x00\xff";
  GRand *rand = g_rand_new_with_seed (20260101);
  guint i;

  for (i = 0; i < 3000; i++) {
    const gchar *seed = seeds[i % G_N_ELEMENTS (seeds)];
    gsize len = strlen (seed);
    gchar *buf = g_memdup2 (seed, len);
    guint n, m = g_rand_int_range (rand, 1, 6);
    GstSessionHttpError *error, *copy;
    GstSessionRetryDecision d;
    gchar *text;

    for (n = 0; n < m; n++) {
      guint pos = g_rand_int_range (rand, 0, len);

      buf[pos] = noise[g_rand_int_range (rand, 0, sizeof (noise) - 1)];
    }
    if (g_rand_boolean (rand))
      len = g_rand_int_range (rand, 0, len + 1);

    error = gst_session_http_error_parse (g_rand_int_range (rand, 400, 600),
        NULL, buf, len);
    text = gst_session_http_error_to_string (error);
    fail_unless (g_utf8_validate (text, -1, NULL));
    d = gst_session_http_error_retry_decision (error, NULL,
        g_rand_int_range (rand, 1, 8));
    fail_unless (d.reason != NULL);
    copy = gst_session_http_error_copy (error);
    gst_session_http_error_free (error);
    gst_session_http_error_free (copy);
    g_free (text);
    g_free (buf);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
httperror_text_suite (void)
{
  Suite *s = suite_create ("httperror-text");
  TCase *tc_bodies = tcase_create ("bodies");
  TCase *tc_text = tcase_create ("text");

  suite_add_tcase (s, tc_bodies);
  tcase_add_test (tc_bodies, test_html_502_page);
  tcase_add_test (tc_bodies, test_empty_bodies);
  tcase_add_test (tc_bodies, test_json_of_no_known_form);
  tcase_add_test (tc_bodies, test_detail_of_wrong_type);
  tcase_add_test (tc_bodies, test_invalid_json_and_bytes);
  tcase_add_test (tc_bodies, test_body_length_is_respected);
  tcase_add_test (tc_bodies, test_missing_fields_in_items);
  tcase_add_test (tc_bodies, test_deeply_nested_json);
  tcase_add_test (tc_bodies, test_nesting_limit_boundary);
  tcase_add_test (tc_bodies, test_brackets_in_strings_do_not_count);
  tcase_add_test (tc_bodies, test_huge_body);
  tcase_add_test (tc_bodies, test_mutated_bodies_do_not_crash);

  suite_add_tcase (s, tc_text);
  tcase_add_test (tc_text, test_copy_equals_original);
  tcase_add_test (tc_text, test_boxed_type);
  tcase_add_test (tc_text, test_autoptr);
  tcase_add_test (tc_text, test_to_string_single_item);
  tcase_add_test (tc_text, test_to_string_forms);
  tcase_add_test (tc_text, test_to_string_lists_items);
  tcase_add_test (tc_text, test_to_string_never_shows_secrets);
  tcase_add_test (tc_text, test_to_gerror);
  return s;
}

GST_CHECK_MAIN (httperror_text);
