/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst_session_http_error_parse() with a random status, headers and body,
 * and what is done with its result (copy, texts, GError, retry decision).
 *
 * Input: two bytes of status (bit 7 of the first: no headers at all; the
 * rest gives 100 to 599), then header lines `Name: value` ending at the
 * first empty line, then the body. Lines whose name is not an HTTP token
 * are skipped (libsoup refuses them before any parser could see them).
 */

#include "fuzz-common.h"

static gboolean
is_token (const gchar * s, gsize len)
{
  gsize i;

  if (len == 0)
    return FALSE;
  for (i = 0; i < len; i++) {
    if (s[i] == '\0' || (!g_ascii_isalnum (s[i])
            && !strchr ("!#$%&'*+-.^_`|~", s[i])))
      return FALSE;
  }
  return TRUE;
}

/* Reads the header lines of @text into @headers; returns the length of
 * the header block with its empty line. */
static gsize
read_headers (const gchar * text, gsize size, SoupMessageHeaders * headers)
{
  gsize pos = 0;

  while (pos < size) {
    const gchar *line = text + pos;
    const gchar *eol = memchr (line, '\n', size - pos);
    gsize len = eol ? (gsize) (eol - line) : size - pos;
    const gchar *colon;

    pos += len + (eol ? 1 : 0);
    if (len > 0 && line[len - 1] == '\r')
      len--;
    if (len == 0)
      break;
    colon = memchr (line, ':', len);
    if (colon && is_token (line, colon - line) && headers) {
      gchar *name = g_strndup (line, colon - line);
      gchar *value = g_strndup (colon + 1, len - (colon + 1 - line));

      /* a value holds no NUL, CR or LF */
      if (strlen (value) == len - (colon + 1 - line) && !strchr (value, '\r'))
        soup_message_headers_append (headers, name, g_strstrip (value));
      g_free (name);
      g_free (value);
    }
  }
  return pos;
}

static void
check_utf8 (const gchar * what, const gchar * text)
{
  fuzz_assert (text == NULL || g_utf8_validate (text, -1, NULL),
      "%s is not UTF-8", what);
}

static void
check_error (const GstSessionHttpError * e, guint status)
{
  gchar *text;
  GError *gerror;
  GstSessionRetryPolicy policy;
  guint attempt;

  fuzz_assert (e != NULL, "no error");
  fuzz_assert (e->status == status, "status changed");
  fuzz_assert (e->items != NULL, "items is NULL");
  fuzz_assert (e->kind <= GST_SESSION_HTTP_ERROR_KIND_OTHER, "bad kind");
  fuzz_assert (status != 429
      || e->kind == GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT,
      "429 is not a rate limit");
  fuzz_assert (e->retryable >= -1 && e->retryable <= 1, "bad retryable");
  fuzz_assert (e->ratelimit_reset == -1 || e->ratelimit_reset >= 0,
      "negative ratelimit_reset %g", e->ratelimit_reset);
  fuzz_assert (e->kind == GST_SESSION_HTTP_ERROR_KIND_MODEL ||
      e->kind == GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT || e->items->len == 0,
      "items outside the model-level form");

  check_utf8 ("error_type", e->error_type);
  check_utf8 ("detail", e->detail);
  for (attempt = 0; attempt < e->items->len; attempt++) {
    const GstSessionHttpErrorItem *item = g_ptr_array_index (e->items, attempt);

    check_utf8 ("type", item->type);
    check_utf8 ("msg", item->msg);
    check_utf8 ("url", item->url);
    check_utf8 ("loc", item->loc);
    check_utf8 ("input", item->input);
    if (item->ctx) {
      gchar *ctx = gst_structure_to_string (item->ctx);

      check_utf8 ("ctx", ctx);
      g_free (ctx);
    }
  }

  text = gst_session_http_error_to_string (e);
  fuzz_assert (text && g_utf8_validate (text, -1, NULL), "to_string");
  g_free (text);

  gerror = gst_session_http_error_to_gerror (e);
  fuzz_assert (gerror && gerror->message, "to_gerror");
  fuzz_assert (g_utf8_validate (gerror->message, -1, NULL), "not UTF-8");
  g_error_free (gerror);

  gst_session_retry_policy_init (&policy);
  for (attempt = 0; attempt < 4; attempt++) {
    GstSessionRetryDecision d =
        gst_session_http_error_retry_decision (e, &policy, attempt);

    fuzz_assert (d.reason != NULL, "a decision without a reason");
    fuzz_assert (d.retry || d.delay == 0, "a delay without a retry");
  }
  gst_session_http_error_type_is_transient (e->error_type);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t * data, size_t size)
{
  SoupMessageHeaders *headers = NULL;
  GstSessionHttpError *e, *copy;
  gchar *body, *a, *b;
  guint status;
  gsize consumed;

  if (size < 2)
    return 0;
  status = 100 + ((((guint) data[0] & 0x7f) << 8) | data[1]) % 500;
  if (!(data[0] & 0x80))
    headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  consumed = read_headers ((const gchar *) data + 2, size - 2, headers);
  body = fuzz_dup (data + 2 + consumed, size - 2 - consumed);

  e = gst_session_http_error_parse (status, headers, body, size - 2 - consumed);
  check_error (e, status);

  copy = gst_session_http_error_copy (e);
  check_error (copy, status);
  a = gst_session_http_error_to_string (e);
  b = gst_session_http_error_to_string (copy);
  fuzz_assert (strcmp (a, b) == 0, "the copy prints differently");
  g_free (a);
  g_free (b);

  gst_session_http_error_free (copy);
  gst_session_http_error_free (e);
  free (body);
  if (headers)
    soup_message_headers_unref (headers);
  return 0;
}
