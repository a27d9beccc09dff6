/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionsse
 * @title: GstSessionSseParser
 * @short_description: pure push parser of Server-Sent Events
 *
 * The `text/event-stream` parser under the start-session signalling client
 * (#GstSessionHttpSignaller). It is pure: it does no I/O, only turns bytes
 * into events and comments, with a bound on every buffer it keeps, so any
 * input (it is fuzzed) costs bounded memory.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "sse.h"

static const guint8 utf8_bom[3] = { 0xef, 0xbb, 0xbf };

struct _GstSessionSseParser
{
  GstSessionSseEventFunc event_func;
  GstSessionSseCommentFunc comment_func;
  gpointer user_data;
  GDestroyNotify notify;

  gsize max_line;
  gsize max_event;

  /* bytes of the UTF-8 BOM matched so far; 3 once the start is past */
  guint bom_state;
  gboolean bom_done;
  /* the previous byte was a CR: an LF right after it is the same line end */
  gboolean last_cr;

  GByteArray *line;
  GString *data;
  /* whether a data field came since the last dispatch */
  gboolean have_data;
  GString *type;
  GString *id;
  gint64 retry;

  GError *error;
};

/**
 * gst_session_sse_parser_new: (skip)
 * @event_func: (scope notified) (nullable): called for each event.
 * @comment_func: (scope notified) (nullable): called for each comment.
 * @user_data: (closure): data for the callbacks.
 * @notify: (nullable): frees @user_data with the parser.
 *
 * Creates a parser with the default bounds
 * (%GST_SESSION_SSE_DEFAULT_MAX_LINE, %GST_SESSION_SSE_DEFAULT_MAX_EVENT).
 *
 * Returns: (transfer full): a new parser; free it with
 *   gst_session_sse_parser_free().
 */
GstSessionSseParser *
gst_session_sse_parser_new (GstSessionSseEventFunc event_func,
    GstSessionSseCommentFunc comment_func, gpointer user_data,
    GDestroyNotify notify)
{
  GstSessionSseParser *parser = g_new0 (GstSessionSseParser, 1);

  parser->event_func = event_func;
  parser->comment_func = comment_func;
  parser->user_data = user_data;
  parser->notify = notify;
  parser->max_line = GST_SESSION_SSE_DEFAULT_MAX_LINE;
  parser->max_event = GST_SESSION_SSE_DEFAULT_MAX_EVENT;
  parser->line = g_byte_array_new ();
  parser->data = g_string_new (NULL);
  parser->type = g_string_new (NULL);
  parser->id = g_string_new (NULL);
  parser->retry = -1;

  return parser;
}

/**
 * gst_session_sse_parser_free:
 * @parser: (transfer full) (nullable): a parser.
 *
 * Frees @parser and calls its destroy notify. No callback is called.
 */
void
gst_session_sse_parser_free (GstSessionSseParser * parser)
{
  if (parser == NULL)
    return;

  if (parser->notify)
    parser->notify (parser->user_data);
  g_byte_array_unref (parser->line);
  g_string_free (parser->data, TRUE);
  g_string_free (parser->type, TRUE);
  g_string_free (parser->id, TRUE);
  g_clear_error (&parser->error);
  g_free (parser);
}

/**
 * gst_session_sse_parser_set_limits:
 * @parser: a parser.
 * @max_line: the longest line accepted, in bytes, line end excluded (at
 *   least 1).
 * @max_event: the longest event data accepted, in bytes (at least 1).
 *
 * Sets the bounds of the parser. Memory held by a parser stays below about
 * seven times @max_line plus @max_event whatever it is fed (a line of bytes
 * that are not UTF-8 triples when repaired).
 */
void
gst_session_sse_parser_set_limits (GstSessionSseParser * parser,
    gsize max_line, gsize max_event)
{
  g_return_if_fail (parser != NULL);
  g_return_if_fail (max_line > 0 && max_line < G_MAXSIZE / 4);
  g_return_if_fail (max_event > 0 && max_event < G_MAXSIZE / 2);

  parser->max_line = max_line;
  parser->max_event = max_event;
}

/**
 * gst_session_sse_parser_reset:
 * @parser: a parser.
 *
 * Forgets everything fed so far (a pending event, the last event id, the
 * retry time, a failure) as if the parser were new, bounds and callbacks
 * kept.
 */
void
gst_session_sse_parser_reset (GstSessionSseParser * parser)
{
  g_return_if_fail (parser != NULL);

  parser->bom_state = 0;
  parser->bom_done = FALSE;
  parser->last_cr = FALSE;
  g_byte_array_set_size (parser->line, 0);
  g_string_truncate (parser->data, 0);
  parser->have_data = FALSE;
  g_string_truncate (parser->type, 0);
  g_string_truncate (parser->id, 0);
  parser->retry = -1;
  g_clear_error (&parser->error);
}

/**
 * gst_session_sse_parser_get_retry:
 * @parser: a parser.
 *
 * Returns: the reconnection time of the last valid `retry` field, in
 *   milliseconds, or -1 when none came.
 */
gint64
gst_session_sse_parser_get_retry (GstSessionSseParser * parser)
{
  g_return_val_if_fail (parser != NULL, -1);

  return parser->retry;
}

/**
 * gst_session_sse_parser_get_last_event_id:
 * @parser: a parser.
 *
 * Returns: (transfer none): the last event id set by an `id` field, or an
 *   empty string.
 */
const gchar *
gst_session_sse_parser_get_last_event_id (GstSessionSseParser * parser)
{
  g_return_val_if_fail (parser != NULL, NULL);

  return parser->id->str;
}

static void
dispatch (GstSessionSseParser * parser)
{
  GstSessionSseEvent event;

  if (!parser->have_data) {
    g_string_truncate (parser->type, 0);
    return;
  }

  /* every data line appended a line feed: the last one goes */
  if (parser->data->len > 0)
    g_string_truncate (parser->data, parser->data->len - 1);

  event.type = parser->type->len > 0 ? parser->type->str : "message";
  event.data = parser->data->str;
  event.length = parser->data->len;
  event.id = parser->id->str;

  if (parser->event_func)
    parser->event_func (parser, &event, parser->user_data);

  g_string_truncate (parser->data, 0);
  g_string_truncate (parser->type, 0);
  parser->have_data = FALSE;
}

static gboolean
all_digits (const gchar * s, gsize len)
{
  gsize i;

  if (len == 0)
    return FALSE;
  for (i = 0; i < len; i++) {
    if (!g_ascii_isdigit (s[i]))
      return FALSE;
  }
  return TRUE;
}

static gboolean
process_line (GstSessionSseParser * parser, const gchar * line, gsize len)
{
  const gchar *colon, *value;
  gsize field_len, value_len;

  if (len == 0) {
    dispatch (parser);
    return TRUE;
  }

  colon = memchr (line, ':', len);
  if (colon) {
    field_len = colon - line;
    value = colon + 1;
    value_len = len - field_len - 1;
    if (value_len > 0 && value[0] == ' ') {
      value++;
      value_len--;
    }
  } else {
    field_len = len;
    value = line + len;
    value_len = 0;
  }

  if (field_len == 0) {
    if (parser->comment_func)
      parser->comment_func (parser, value, value_len, parser->user_data);
    return TRUE;
  }
#define FIELD_IS(name) \
  (field_len == sizeof (name) - 1 && memcmp (line, name, field_len) == 0)

  if (FIELD_IS ("data")) {
    if (value_len + 1 > parser->max_event - MIN (parser->max_event,
            parser->data->len)) {
      g_set_error (&parser->error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE,
          "Event stream: event data longer than %" G_GSIZE_FORMAT " bytes",
          parser->max_event);
      return FALSE;
    }
    g_string_append_len (parser->data, value, value_len);
    g_string_append_c (parser->data, '\n');
    parser->have_data = TRUE;
  } else if (FIELD_IS ("event")) {
    g_string_truncate (parser->type, 0);
    g_string_append_len (parser->type, value, value_len);
  } else if (FIELD_IS ("id")) {
    /* an id with NUL is ignored; none is left after the UTF-8 repair */
    g_string_truncate (parser->id, 0);
    g_string_append_len (parser->id, value, value_len);
  } else if (FIELD_IS ("retry")) {
    guint64 retry;

    if (all_digits (value, value_len) && value_len <= 15 &&
        g_ascii_string_to_unsigned (value, 10, 0, G_MAXINT64, &retry, NULL))
      parser->retry = (gint64) retry;
  }
#undef FIELD_IS

  return TRUE;
}

/* The line buffer holds one complete line: repair its UTF-8 and process. */
static gboolean
end_line (GstSessionSseParser * parser)
{
  const gchar *line = (const gchar *) parser->line->data;
  gsize len = parser->line->len;
  gboolean ret;

  if (len == 0) {
    ret = process_line (parser, "", 0);
  } else if (g_utf8_validate_len (line, len, NULL)) {
    guint8 nul = 0;

    /* NUL-terminate in place for the callbacks */
    g_byte_array_append (parser->line, &nul, 1);
    ret = process_line (parser, (const gchar *) parser->line->data, len);
  } else {
    gchar *valid = g_utf8_make_valid (line, len);

    ret = process_line (parser, valid, strlen (valid));
    g_free (valid);
  }

  g_byte_array_set_size (parser->line, 0);
  return ret;
}

static gboolean
feed_bytes (GstSessionSseParser * parser, const guint8 * data, gsize length)
{
  while (length > 0) {
    gsize seg;

    if (parser->last_cr) {
      parser->last_cr = FALSE;
      if (data[0] == '\n') {
        data++;
        length--;
        continue;
      }
    }

    for (seg = 0; seg < length; seg++) {
      if (data[seg] == '\n' || data[seg] == '\r')
        break;
    }

    if (seg > parser->max_line - MIN (parser->max_line, parser->line->len)) {
      g_set_error (&parser->error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_MESSAGE,
          "Event stream: line longer than %" G_GSIZE_FORMAT " bytes",
          parser->max_line);
      return FALSE;
    }
    g_byte_array_append (parser->line, data, seg);

    if (seg == length)
      break;

    parser->last_cr = data[seg] == '\r';
    data += seg + 1;
    length -= seg + 1;

    if (!end_line (parser))
      return FALSE;
  }

  return TRUE;
}

/**
 * gst_session_sse_parser_feed:
 * @parser: a parser.
 * @data: (array length=length) (nullable): the next bytes of the stream.
 * @length: the number of bytes in @data.
 * @error: return location for a #GError, or %NULL.
 *
 * Parses the next bytes of the stream, calling the callbacks for every
 * event and comment they complete.
 *
 * Returns: %FALSE when the stream breaks a bound (a
 *   %GST_SESSION_ERROR_INVALID_MESSAGE error); the parser then refuses
 *   every further byte until gst_session_sse_parser_reset().
 */
gboolean
gst_session_sse_parser_feed (GstSessionSseParser * parser,
    const guint8 * data, gsize length, GError ** error)
{
  g_return_val_if_fail (parser != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (parser->error)
    goto failed;

  while (!parser->bom_done && length > 0) {
    if (data[0] == utf8_bom[parser->bom_state]) {
      data++;
      length--;
      if (++parser->bom_state == G_N_ELEMENTS (utf8_bom))
        parser->bom_done = TRUE;
    } else {
      parser->bom_done = TRUE;
      /* a partial match was content after all */
      if (!feed_bytes (parser, utf8_bom, parser->bom_state))
        goto failed;
    }
  }

  if (!feed_bytes (parser, data, length))
    goto failed;

  return TRUE;

failed:
  if (error)
    *error = g_error_copy (parser->error);
  return FALSE;
}

/**
 * gst_session_sse_parser_finish:
 * @parser: a parser.
 *
 * Ends the stream: an event not yet ended by an empty line (and a last
 * line without its line end) is discarded, as the format requires. The
 * parser is then reset.
 *
 * Returns: %TRUE when something incomplete was discarded.
 */
gboolean
gst_session_sse_parser_finish (GstSessionSseParser * parser)
{
  gboolean pending;
  gint64 retry;
  GString *id;

  g_return_val_if_fail (parser != NULL, FALSE);

  pending = parser->line->len > 0 || parser->have_data ||
      (!parser->bom_done && parser->bom_state > 0);

  /* keep what outlives a stream: the last event id and the retry time */
  id = g_string_new (parser->id->str);
  retry = parser->retry;
  gst_session_sse_parser_reset (parser);
  g_string_assign (parser->id, id->str);
  g_string_free (id, TRUE);
  parser->retry = retry;

  return pending;
}
