/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * An HTTP error in words for people: gst_session_http_error_to_string()
 * and gst_session_http_error_to_gerror(). The texts show `msg` and
 * `detail` but never parse them, and are bounded whatever the body held.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "httperror.h"
#include "httperror-private.h"

/* to_string(): characters of one msg/detail, of one type or loc, items
 * listed, and the whole sentence. */
#define MAX_TEXT_CHARS 256
#define MAX_NAME_CHARS 128
#define MAX_ITEMS_SHOWN 3
#define MAX_STRING_BYTES 2048

/* ---------------------------------------------------------------------- */
/* Text for people                                                        */
/* ---------------------------------------------------------------------- */

/* Appends at most @max_chars characters of @text, control characters as
 * spaces, "..." when cut. The parser checked that the body is UTF-8; an
 * invalid byte would still only become U+FFFD. */
static void
append_display (GString * s, const gchar * text, guint max_chars)
{
  const gchar *p = text;
  guint n = 0;

  while (*p) {
    gunichar c = g_utf8_get_char_validated (p, -1);
    gsize len;

    if (n == max_chars) {
      g_string_append (s, "...");
      return;
    }
    if (c > 0x10ffff) {
      /* (gunichar) -1 or -2: not UTF-8 */
      g_string_append_unichar (s, 0xfffd);
      p++;
    } else {
      len = g_utf8_next_char (p) - p;
      if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
        g_string_append_c (s, ' ');
      else
        g_string_append_len (s, p, len);
      p += len;
    }
    n++;
  }
}

static void
append_item (GString * s, const GstSessionHttpErrorItem * item)
{
  gboolean any = FALSE;

  if (item->type && *item->type) {
    append_display (s, item->type, MAX_NAME_CHARS);
    any = TRUE;
  }
  if (item->loc && *item->loc) {
    g_string_append (s, any ? " at " : "at ");
    append_display (s, item->loc, MAX_NAME_CHARS);
    any = TRUE;
  }
  if (item->msg && *item->msg) {
    if (any)
      g_string_append (s, ": ");
    append_display (s, item->msg, MAX_TEXT_CHARS);
    any = TRUE;
  }
  if (!any)
    g_string_append (s, "error without details");
}

/* One item after @one_sep, or ", N errors: " / ": N errors: " (per
 * @many_sep) and the first MAX_ITEMS_SHOWN items. */
static void
append_items (GString * s, const GstSessionHttpError * error,
    const gchar * one_sep, const gchar * many_sep)
{
  guint i, n = error->items->len;

  if (n == 1) {
    g_string_append (s, one_sep);
    append_item (s, g_ptr_array_index (error->items, 0));
    return;
  }
  g_string_append_printf (s, "%s%u errors: ", many_sep, n);
  for (i = 0; i < n && i < MAX_ITEMS_SHOWN; i++) {
    if (i > 0)
      g_string_append (s, "; ");
    append_item (s, g_ptr_array_index (error->items, i));
  }
  if (n > MAX_ITEMS_SHOWN)
    g_string_append_printf (s, "; and %u more", n - MAX_ITEMS_SHOWN);
}

/* "<type_sep><type>: <detail>", either part optional */
static void
append_type_and_detail (GString * s, const GstSessionHttpError * error,
    const gchar * type_sep)
{
  if (error->error_type && *error->error_type) {
    g_string_append (s, type_sep);
    append_display (s, error->error_type, MAX_NAME_CHARS);
  }
  if (error->detail && *error->detail) {
    g_string_append (s, ": ");
    append_display (s, error->detail, MAX_TEXT_CHARS);
  }
}

/**
 * gst_session_http_error_to_string:
 * @error: the error.
 *
 * Describes @error in one line for people, for example
 * `HTTP 422 image_too_small at /body/image_url: Image too small (min
 * 512x512)`, `HTTP 503 runner_scheduling_failure: No runner available` or
 * `HTTP 429 rate limited (window resets in 12 s)`. Several model-level items
 * are listed (the first three, then a count). `msg` and `detail` are shown,
 * never parsed; no header value is shown besides the error type and the rate
 * limit wait. Control characters become spaces and the text is at most a few
 * kilobytes long.
 *
 * Returns: (transfer full): the text.
 */
gchar *
gst_session_http_error_to_string (const GstSessionHttpError * error)
{
  GString *s;

  g_return_val_if_fail (error != NULL, NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, "HTTP %u", error->status);

  switch (error->kind) {
    case GST_SESSION_HTTP_ERROR_KIND_MODEL:
      if (error->items && error->items->len > 0)
        append_items (s, error, " ", ", ");
      else
        append_type_and_detail (s, error, " ");
      break;
    case GST_SESSION_HTTP_ERROR_KIND_REQUEST:
      if (!error->error_type && !error->detail)
        g_string_append (s, " request error");
      else
        append_type_and_detail (s, error, " ");
      break;
    case GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT:
      g_string_append (s, " rate limited");
      if (error->ratelimit_reset >= 0)
        g_string_append_printf (s, " (window resets in %g s)",
            MIN (error->ratelimit_reset, MAX_RATELIMIT_RESET));
      if (error->items && error->items->len > 0)
        append_items (s, error, ": ", ": ");
      else
        append_type_and_detail (s, error, ": ");
      break;
    case GST_SESSION_HTTP_ERROR_KIND_OTHER:
    default:{
      const gchar *phrase = soup_status_get_phrase (error->status);

      g_string_append_c (s, ' ');
      g_string_append (s, phrase ? phrase : "error");
      break;
    }
  }

  /* every part is bounded already; this keeps the promise on its own */
  if (s->len > MAX_STRING_BYTES) {
    const gchar *end = g_utf8_find_prev_char (s->str, s->str +
        MAX_STRING_BYTES - 3);

    g_string_truncate (s, end ? (gsize) (end - s->str) : 0);
    g_string_append (s, "...");
  }
  return g_string_free (s, FALSE);
}

/**
 * gst_session_http_error_to_gerror:
 * @error: the error.
 *
 * Returns: (transfer full): a #GError of domain %GST_SESSION_ERROR, code
 *   %GST_SESSION_ERROR_HTTP, whose message is
 *   gst_session_http_error_to_string().
 */
GError *
gst_session_http_error_to_gerror (const GstSessionHttpError * error)
{
  GError *gerror;
  gchar *text;

  g_return_val_if_fail (error != NULL, NULL);

  text = gst_session_http_error_to_string (error);
  gerror = g_error_new_literal (GST_SESSION_ERROR, GST_SESSION_ERROR_HTTP,
      text);
  g_free (text);
  return gerror;
}
