/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The event-stream parser (GstSessionSseParser) that reads the
 * start-session answer: events and their fields, comments, line ends, any
 * cut of the input, a byte order mark, bytes that are not UTF-8, its
 * bounds, the end of a stream, and a small deterministic fuzz.
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>

/* ------------------------------------------------------------------------ */
/* event-stream parser tests                                                */

static void
log_event (GstSessionSseParser * parser, const GstSessionSseEvent * event,
    gpointer user_data)
{
  GString *out = user_data;

  fail_unless (g_utf8_validate (event->type, -1, NULL));
  fail_unless (g_utf8_validate (event->id, -1, NULL));
  fail_unless (g_utf8_validate (event->data, event->length, NULL));
  assert_equals_uint64 (strlen (event->data), event->length);
  g_string_append_printf (out, "E[%s|%s|%s]", event->type, event->id,
      event->data);
}

static void
log_comment (GstSessionSseParser * parser, const gchar * text, gsize length,
    gpointer user_data)
{
  GString *out = user_data;

  fail_unless (g_utf8_validate (text, length, NULL));
  assert_equals_uint64 (strlen (text), length);
  g_string_append_printf (out, "C[%s]", text);
}

/* Feeds @input cut at @cuts (increasing offsets), then finishes. Returns
 * the callbacks' log; *ok tells whether every feed succeeded. */
static gchar *
parse_cut (const gchar * input, gsize length, const gsize * cuts,
    guint n_cuts, gboolean * ok)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);
  gsize pos = 0;
  guint i;

  *ok = TRUE;
  for (i = 0; i <= n_cuts; i++) {
    gsize end = i < n_cuts ? cuts[i] : length;

    if (!gst_session_sse_parser_feed (parser, (const guint8 *) input + pos,
            end - pos, NULL))
      *ok = FALSE;
    pos = end;
  }
  gst_session_sse_parser_finish (parser);
  gst_session_sse_parser_free (parser);
  return g_string_free (out, FALSE);
}

static gchar *
parse_all (const gchar * input)
{
  gboolean ok;
  gchar *out = parse_cut (input, strlen (input), NULL, 0, &ok);

  fail_unless (ok);
  return out;
}

#define assert_parses(input, expected) G_STMT_START {                      \
  gchar *_out = parse_all (input);                                         \
  fail_unless_equals_string (_out, expected);                              \
  g_free (_out);                                                           \
} G_STMT_END

GST_START_TEST (test_sse_basic)
{
  assert_parses ("data: hello\n\n", "E[message||hello]");
  assert_parses ("data: a\ndata: b\n\ndata:c\n\n", "E[message||a\nb]"
      "E[message||c]");
  /* one space dropped, not more; no space is fine */
  assert_parses ("data:  two\n\n", "E[message|| two]");
  assert_parses ("data:\n\n", "E[message||]");
  assert_parses ("data\n\n", "E[message||]");
  assert_parses ("data:\ndata:\n\n", "E[message||\n]");
  /* no data: nothing dispatched; blank lines alone neither */
  assert_parses ("\n\n\nevent: x\n\nid: 1\n\n", "");
  assert_parses ("data: x", "");
  assert_parses ("data: x\n", "");
  /* a colon in the value stays */
  assert_parses ("data: {\"a\": \"b:c\"}\n\n", "E[message||{\"a\": \"b:c\"}]");
}

GST_END_TEST;

GST_START_TEST (test_sse_fields)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser;
  const gchar *text;

  assert_parses ("event: answer\ndata: x\n\ndata: y\n\n",
      "E[answer||x]E[message||y]");
  /* the id stays for later events; an empty id clears it */
  assert_parses ("id: 7\ndata: x\n\ndata: y\n\nid\ndata: z\n\n",
      "E[message|7|x]E[message|7|y]E[message||z]");
  /* unknown fields, a field that is not "data" exactly */
  assert_parses ("foo: bar\nDATA: no\ndata : no\ndatax: no\ndata: yes\n\n",
      "E[message||yes]");
  /* the last event field wins */
  assert_parses ("event: a\nevent: b\ndata: x\n\n", "E[b||x]");

  parser = gst_session_sse_parser_new (log_event, log_comment, out, NULL);
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), -1);
  text = "retry: 1500\nretry: 12a\nretry:\nid: abc\n\n";
  fail_unless (gst_session_sse_parser_feed (parser, (const guint8 *) text,
          strlen (text), NULL));
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), 1500);
  fail_unless_equals_string (gst_session_sse_parser_get_last_event_id
      (parser), "abc");
  /* the last event id and retry outlive the end of a stream */
  gst_session_sse_parser_finish (parser);
  fail_unless_equals_string (gst_session_sse_parser_get_last_event_id
      (parser), "abc");
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), 1500);
  gst_session_sse_parser_reset (parser);
  fail_unless_equals_string (gst_session_sse_parser_get_last_event_id
      (parser), "");
  assert_equals_int64 (gst_session_sse_parser_get_retry (parser), -1);
  fail_unless_equals_string (out->str, "");
  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_sse_comments)
{
  assert_parses (": keepalive\n\n", "C[keepalive]");
  assert_parses (":keepalive\n:\n:  two\n", "C[keepalive]C[]C[ two]");
  /* comments inside an event do not end it */
  assert_parses ("data: a\n: keepalive\ndata: b\n\n",
      "C[keepalive]E[message||a\nb]");
}

GST_END_TEST;

GST_START_TEST (test_sse_line_ends)
{
  const gchar *expected = "C[k]E[answer|1|a\nb]E[message|1|c]";

  assert_parses (": k\nevent: answer\nid: 1\ndata: a\ndata: b\n\ndata: c\n\n",
      expected);
  assert_parses (": k\r\nevent: answer\r\nid: 1\r\ndata: a\r\ndata: b\r\n\r\n"
      "data: c\r\n\r\n", expected);
  assert_parses (": k\revent: answer\rid: 1\rdata: a\rdata: b\r\r"
      "data: c\r\r", expected);
  assert_parses (": k\r\nevent: answer\nid: 1\rdata: a\r\ndata: b\n\r"
      "data: c\r\n\n", expected);
  /* CR LF is one line end, LF CR two */
  assert_parses ("data: a\r\n\r\n", "E[message||a]");
  assert_parses ("data: a\n\rdata: b\n\n", "E[message||a]E[message||b]");
}

GST_END_TEST;

/* Every way of cutting the input in two and three pieces, and byte by
 * byte, parses as the whole. */
static void
check_all_cuts (const gchar * input)
{
  gsize length = strlen (input), i, j;
  gchar *whole = parse_all (input);
  gsize *cuts = g_new (gsize, length);
  gboolean ok;
  gchar *out;

  for (i = 0; i <= length; i++) {
    cuts[0] = i;
    out = parse_cut (input, length, cuts, 1, &ok);
    fail_unless (ok);
    fail_unless_equals_string (out, whole);
    g_free (out);
    for (j = i; j <= length; j++) {
      cuts[1] = j;
      out = parse_cut (input, length, cuts, 2, &ok);
      fail_unless (ok);
      fail_unless_equals_string (out, whole);
      g_free (out);
    }
  }

  for (i = 0; i < length; i++)
    cuts[i] = i + 1;
  out = parse_cut (input, length, cuts, length > 0 ? length - 1 : 0, &ok);
  fail_unless (ok);
  fail_unless_equals_string (out, whole);
  g_free (out);

  g_free (cuts);
  g_free (whole);
}

GST_START_TEST (test_sse_cut_everywhere)
{
  check_all_cuts ("\xef\xbb\xbf: hi\r\nevent: answer\r\nid: 42\r\n"
      "data: {\"sdp\": \"v=0\\r\\n\",\r\ndata:  \"type\": \"answer\"}\r\n"
      "\r\n: keepalive\r\n\r\ndata: \xc3\xa9t\xc3\xa9\r\rdata: x\n\n");
  check_all_cuts ("data: a\rdata: b\r\r: c\r\n\n\r\ndata: \xe2\x82\xac\n\n");
  check_all_cuts ("\xef\xbb\xbf\xef\xbb\xbf" "data: bom twice\n\n");
}

GST_END_TEST;

GST_START_TEST (test_sse_bom)
{
  /* skipped once at the start, even when split */
  assert_parses ("\xef\xbb\xbf" "data: x\n\n", "E[message||x]");
  /* a second one is content: U+FEFF starts a field name ("\ufeffdata") */
  assert_parses ("\xef\xbb\xbf\xef\xbb\xbf" "data: x\n\n", "");
  assert_parses ("data: \xef\xbb\xbfx\n\n", "E[message||\xef\xbb\xbfx]");
  /* a partial BOM is content (not UTF-8 alone: repaired) */
  assert_parses ("\xef\xbb" "data: x\n\n", "");
  assert_parses ("\xef\n" "data: x\n\n", "E[message||x]");
  assert_parses ("\xef\xbb\xbf", "");
}

GST_END_TEST;

GST_START_TEST (test_sse_not_utf8)
{
  static const gchar input[] = "data: a\xff" "b\x00" "c\xc3\n"
      "event: \xe2\x82\n" "id: \x80\n\n" ": \xf8\n";
  gboolean ok;
  gchar *out = parse_cut (input, sizeof (input) - 1, NULL, 0, &ok);

  /* one U+FFFD per byte that is not UTF-8, NUL included */
  fail_unless (ok);
  fail_unless_equals_string (out,
      "E[\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd|a\xef\xbf\xbd" "b\xef\xbf\xbd"
      "c\xef\xbf\xbd]" "C[\xef\xbf\xbd]");
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_sse_overlong_line)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);
  GError *error = NULL;
  guint i;

  gst_session_sse_parser_set_limits (parser, 16, 64);
  /* 16 bytes is the bound: it passes */
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: 0123456789\n\n", 18, NULL));
  fail_unless_equals_string (out->str, "E[message||0123456789]");

  /* 17 bytes, even when they come one at a time and never end */
  for (i = 0; i < 16; i++)
    fail_unless (gst_session_sse_parser_feed (parser,
            (const guint8 *) "x", 1, NULL));
  fail_if (gst_session_sse_parser_feed (parser, (const guint8 *) "x", 1,
          &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  g_clear_error (&error);
  /* refused until reset */
  fail_if (gst_session_sse_parser_feed (parser, (const guint8 *) "\n\n", 2,
          &error));
  fail_unless (error != NULL);
  g_clear_error (&error);
  gst_session_sse_parser_reset (parser);
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: ok\n\n", 10, NULL));
  fail_unless_equals_string (out->str, "E[message||0123456789]"
      "E[message||ok]");

  /* a comment or an unknown field is bounded alike */
  gst_session_sse_parser_reset (parser);
  fail_if (gst_session_sse_parser_feed (parser,
          (const guint8 *) ": 0123456789abcdefgh\n", 21, NULL));
  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_sse_event_too_big)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);
  GError *error = NULL;
  guint i;

  gst_session_sse_parser_set_limits (parser, 64, 16);
  /* data of 16 bytes in all (4 lines of 3 and their line feeds) passes */
  for (i = 0; i < 4; i++)
    fail_unless (gst_session_sse_parser_feed (parser,
            (const guint8 *) "data: abc\n", 10, NULL));
  fail_unless (gst_session_sse_parser_feed (parser, (const guint8 *) "\n", 1,
          NULL));
  fail_unless_equals_string (out->str, "E[message||abc\nabc\nabc\nabc]");

  for (i = 0; i < 4; i++)
    fail_unless (gst_session_sse_parser_feed (parser,
            (const guint8 *) "data: abc\n", 10, NULL));
  fail_if (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: \n", 7, &error));
  fail_unless (g_error_matches (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE));
  g_clear_error (&error);
  fail_unless_equals_string (out->str, "E[message||abc\nabc\nabc\nabc]");

  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

GST_START_TEST (test_sse_finish)
{
  GString *out = g_string_new (NULL);
  GstSessionSseParser *parser = gst_session_sse_parser_new (log_event,
      log_comment, out, NULL);

  fail_if (gst_session_sse_parser_finish (parser));
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: a\n", 8, NULL));
  /* the incomplete event is dropped, not dispatched */
  fail_unless (gst_session_sse_parser_finish (parser));
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "\n", 1, NULL));
  fail_unless_equals_string (out->str, "");
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: b", 7, NULL));
  fail_unless (gst_session_sse_parser_finish (parser));
  fail_unless (gst_session_sse_parser_feed (parser,
          (const guint8 *) "data: c\n\n", 9, NULL));
  fail_unless_equals_string (out->str, "E[message||c]");
  fail_if (gst_session_sse_parser_finish (parser));

  gst_session_sse_parser_free (parser);
  g_string_free (out, TRUE);
}

GST_END_TEST;

static void
count_bytes (GstSessionSseParser * parser, const GstSessionSseEvent * event,
    gpointer user_data)
{
  gsize *max = user_data;

  fail_unless (g_utf8_validate (event->data, event->length, NULL));
  fail_unless (g_utf8_validate (event->type, -1, NULL));
  fail_unless (g_utf8_validate (event->id, -1, NULL));
  *max = MAX (*max, event->length);
}

static void
count_comment (GstSessionSseParser * parser, const gchar * text,
    gsize length, gpointer user_data)
{
  fail_unless (g_utf8_validate (text, length, NULL));
}

/* A small deterministic fuzz: random bytes drawn mostly from the format's
 * own alphabet, in random pieces. Nothing breaks, every string is UTF-8,
 * no event passes the bound. */
GST_START_TEST (test_sse_random)
{
  static const gchar alphabet[] = "data:event:id:retry: \r\n\n\n:x\xef\xbb\xbf"
      "\xff\xc3\xa9\x00";
  GRand *rand = g_rand_new_with_seed (0x5e55);
  guint round;

  for (round = 0; round < 300; round++) {
    gsize max_event = 0;
    GstSessionSseParser *parser = gst_session_sse_parser_new (count_bytes,
        count_comment, &max_event, NULL);
    guint8 buf[4096];
    guint n, i;

    gst_session_sse_parser_set_limits (parser, 1 + g_rand_int_range (rand, 0,
            200), 1 + g_rand_int_range (rand, 0, 300));
    n = g_rand_int_range (rand, 0, sizeof (buf));
    for (i = 0; i < n; i++)
      buf[i] = g_rand_boolean (rand) ?
          alphabet[g_rand_int_range (rand, 0, sizeof (alphabet) - 1)] :
          (guint8) g_rand_int_range (rand, 0, 256);

    for (i = 0; i < n;) {
      guint piece = MIN (n - i, (guint) g_rand_int_range (rand, 0, 64));

      if (!gst_session_sse_parser_feed (parser, buf + i, piece, NULL))
        gst_session_sse_parser_reset (parser);
      i += piece;
    }
    gst_session_sse_parser_finish (parser);
    fail_unless (max_event < 300);
    gst_session_sse_parser_free (parser);
  }
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
sse_suite (void)
{
  Suite *s = suite_create ("sse");
  TCase *tc_sse = tcase_create ("sse");

  suite_add_tcase (s, tc_sse);
  tcase_add_test (tc_sse, test_sse_basic);
  tcase_add_test (tc_sse, test_sse_fields);
  tcase_add_test (tc_sse, test_sse_comments);
  tcase_add_test (tc_sse, test_sse_line_ends);
  tcase_add_test (tc_sse, test_sse_cut_everywhere);
  tcase_add_test (tc_sse, test_sse_bom);
  tcase_add_test (tc_sse, test_sse_not_utf8);
  tcase_add_test (tc_sse, test_sse_overlong_line);
  tcase_add_test (tc_sse, test_sse_event_too_big);
  tcase_add_test (tc_sse, test_sse_finish);
  tcase_add_test (tc_sse, test_sse_random);
  return s;
}

GST_CHECK_MAIN (sse);
