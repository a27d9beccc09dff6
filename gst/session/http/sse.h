/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_SSE_H__
#define __GST_SESSION_SSE_H__

#include <gst/session/http/http-prelude.h>
#include <gst/session/sessionerror.h>

G_BEGIN_DECLS

/**
 * GST_SESSION_SSE_DEFAULT_MAX_EVENT:
 *
 * Default bound, in bytes, of the data of one event (its `data:` lines
 * joined by line feeds).
 */
#define GST_SESSION_SSE_DEFAULT_MAX_EVENT (1024 * 1024)

/**
 * GST_SESSION_SSE_DEFAULT_MAX_LINE:
 *
 * Default bound, in bytes, of one line of the stream, its line end
 * excluded. A line of one whole default-sized event, with its field name,
 * fits.
 */
#define GST_SESSION_SSE_DEFAULT_MAX_LINE (GST_SESSION_SSE_DEFAULT_MAX_EVENT + 256)

/**
 * GstSessionSseParser:
 *
 * A push parser of the `text/event-stream` format (Server-Sent Events, as
 * the WHATWG HTML standard defines it): bytes in, events and comments out
 * through callbacks. It does no I/O and holds no lock; use one parser from
 * one thread at a time.
 *
 * What it does with its input:
 *
 * - a UTF-8 byte order mark at the very start of the stream is skipped;
 * - lines end with CRLF, LF or CR, and may be split anywhere across
 *   gst_session_sse_parser_feed() calls (a CR at the end of one call and an
 *   LF at the start of the next are one line end);
 * - bytes that are not UTF-8 (and NUL bytes) become U+FFFD, so every string
 *   handed out is valid, NUL-free UTF-8;
 * - a line starting with `:` is a comment; other lines are `field: value`
 *   (one space after the colon is dropped) or a field name alone;
 * - `data` lines are joined with line feeds; `event` sets the event type
 *   (`message` when absent); `id` sets the last event id (kept across
 *   events); `retry` sets the reconnection time when it is all digits;
 *   other fields are ignored;
 * - an empty line dispatches the event, unless no `data` line came;
 * - a line longer than the line bound, or event data longer than the event
 *   bound, is refused: gst_session_sse_parser_feed() fails and keeps failing
 *   until gst_session_sse_parser_reset();
 * - at the end of the stream (gst_session_sse_parser_finish()) an event
 *   without its final empty line is discarded, not dispatched.
 */
typedef struct _GstSessionSseParser GstSessionSseParser;

/**
 * GstSessionSseEvent:
 * @type: the event type: the last `event` field, or `message`.
 * @data: the data lines joined with line feeds (no final line feed),
 *   NUL-terminated.
 * @length: the length of @data in bytes.
 * @id: the last event id, or an empty string when none was set.
 *
 * One dispatched event. Its strings belong to the parser and are valid
 * only during the callback.
 */
typedef struct {
  const gchar *type;
  const gchar *data;
  gsize length;
  const gchar *id;
} GstSessionSseEvent;

/**
 * GstSessionSseEventFunc:
 * @parser: the parser.
 * @event: the event (valid only during the call).
 * @user_data: the user data given to gst_session_sse_parser_new().
 *
 * Called for each dispatched event. It must not free or feed @parser.
 */
typedef void (*GstSessionSseEventFunc) (GstSessionSseParser * parser,
    const GstSessionSseEvent * event, gpointer user_data);

/**
 * GstSessionSseCommentFunc:
 * @parser: the parser.
 * @text: the comment without its `:` and one following space,
 *   NUL-terminated (valid only during the call).
 * @length: the length of @text in bytes.
 * @user_data: the user data given to gst_session_sse_parser_new().
 *
 * Called for each comment line (for example the `: keepalive` of a
 * start-session stream). It must not free or feed @parser.
 */
typedef void (*GstSessionSseCommentFunc) (GstSessionSseParser * parser,
    const gchar * text, gsize length, gpointer user_data);

GST_SESSION_HTTP_API
GstSessionSseParser * gst_session_sse_parser_new (GstSessionSseEventFunc event_func,
    GstSessionSseCommentFunc comment_func, gpointer user_data,
    GDestroyNotify notify);

GST_SESSION_HTTP_API
void gst_session_sse_parser_free (GstSessionSseParser * parser);

GST_SESSION_HTTP_API
void gst_session_sse_parser_set_limits (GstSessionSseParser * parser,
    gsize max_line, gsize max_event);

GST_SESSION_HTTP_API
gboolean gst_session_sse_parser_feed (GstSessionSseParser * parser,
    const guint8 * data, gsize length, GError ** error);

GST_SESSION_HTTP_API
gboolean gst_session_sse_parser_finish (GstSessionSseParser * parser);

GST_SESSION_HTTP_API
void gst_session_sse_parser_reset (GstSessionSseParser * parser);

GST_SESSION_HTTP_API
gint64 gst_session_sse_parser_get_retry (GstSessionSseParser * parser);

GST_SESSION_HTTP_API
const gchar * gst_session_sse_parser_get_last_event_id (GstSessionSseParser * parser);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionSseParser, gst_session_sse_parser_free)

G_END_DECLS

#endif /* __GST_SESSION_SSE_H__ */
