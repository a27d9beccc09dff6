/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "httperror-test.h"

/* ---------------------------------------------------------------------- */
/* Helpers                                                                */
/* ---------------------------------------------------------------------- */

/* Response headers from NULL-terminated name, value pairs. */
SoupMessageHeaders *
make_headers (const gchar * name, ...)
{
  SoupMessageHeaders *headers =
      soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  va_list args;

  va_start (args, name);
  while (name) {
    const gchar *value = va_arg (args, const gchar *);

    soup_message_headers_append (headers, name, value);
    name = va_arg (args, const gchar *);
  }
  va_end (args);
  return headers;
}

GstSessionHttpError *
parse_text (guint status, SoupMessageHeaders * headers, const gchar * body)
{
  return gst_session_http_error_parse (status, headers, body,
      body ? strlen (body) : 0);
}

GstSessionHttpErrorItem *
item_at (const GstSessionHttpError * error, guint i)
{
  fail_unless (error->items != NULL);
  fail_unless (i < error->items->len, "no item %u (have %u)", i,
      error->items->len);
  return g_ptr_array_index (error->items, i);
}

/* The decision after the first failure with the default policy; when it
 * retries without a rate limit, the delay is the first backoff (500 ms
 * +-20 %). */
void
assert_first_retry (const GstSessionHttpError * error, gboolean retry)
{
  GstSessionRetryPolicy policy;
  GstSessionRetryDecision d;

  gst_session_retry_policy_init (&policy);
  d = gst_session_http_error_retry_decision (error, &policy, 1);
  fail_unless (d.reason != NULL && *d.reason);
  fail_unless_equals_int (d.retry, retry);
  if (retry) {
    fail_unless (d.delay >= 400 * GST_MSECOND && d.delay <= 600 * GST_MSECOND,
        "delay %" GST_TIME_FORMAT, GST_TIME_ARGS (d.delay));
  } else {
    fail_unless_equals_uint64 (d.delay, 0);
  }
}

void
assert_contains (const gchar * text, const gchar * part)
{
  fail_unless (strstr (text, part) != NULL, "'%s' not in '%s'", part, text);
}
