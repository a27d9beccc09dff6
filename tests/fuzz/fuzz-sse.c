/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The event-stream parser (GstSessionSseParser), fed in random splits.
 *
 * Input: four header bytes, then the stream.
 *   byte 0: flags. Bit 0: small limits from bytes 1 and 2 (a line of at
 *     most byte 1 + 1 bytes, event data of at most byte 2 + 1 bytes);
 *     bit 1: reset the split parser halfway through and feed it all again.
 *   byte 3: seed of the split sizes (with byte 0).
 *
 * The same stream goes to one parser in one call and to another in pieces
 * of 1 to 64 bytes (sometimes empty calls). Invariants beyond "no crash":
 * both hand out the same events and comments, fail at the same point,
 * end with the same retry and last id; every string handed out is valid,
 * NUL-free UTF-8 of the length given.
 */

#include "fuzz-common.h"

typedef struct
{
  GString *log;
} Record;

static void
check_text (const gchar * text, gsize length)
{
  fuzz_assert (text != NULL, "a NULL string");
  fuzz_assert (strlen (text) == length, "length %" G_GSIZE_FORMAT
      " but strlen %" G_GSIZE_FORMAT, length, strlen (text));
  fuzz_assert (g_utf8_validate (text, length, NULL), "not UTF-8");
}

static void
on_event (GstSessionSseParser * parser, const GstSessionSseEvent * event,
    gpointer user_data)
{
  Record *r = user_data;

  check_text (event->type, strlen (event->type));
  check_text (event->data, event->length);
  check_text (event->id, strlen (event->id));
  fuzz_assert (event->type[0] != '\0', "an empty event type");
  g_string_append_printf (r->log, "event %s|%s|%" G_GSIZE_FORMAT ":",
      event->type, event->id, event->length);
  g_string_append_len (r->log, event->data, event->length);
  g_string_append_c (r->log, '\n');
}

static void
on_comment (GstSessionSseParser * parser, const gchar * text, gsize length,
    gpointer user_data)
{
  Record *r = user_data;

  check_text (text, length);
  g_string_append_printf (r->log, "comment %" G_GSIZE_FORMAT ":", length);
  g_string_append_len (r->log, text, length);
  g_string_append_c (r->log, '\n');
}

static guint32
next_random (guint32 * state)
{
  /* xorshift32: enough to vary the splits, reproducible from the input */
  *state ^= *state << 13;
  *state ^= *state >> 17;
  *state ^= *state << 5;
  return *state;
}

static GstSessionSseParser *
parser_new (Record * r, const uint8_t * header)
{
  GstSessionSseParser *parser = gst_session_sse_parser_new (on_event,
      on_comment, r, NULL);

  if (header[0] & 1)
    gst_session_sse_parser_set_limits (parser, header[1] + 1, header[2] + 1);
  return parser;
}

/* Feeds @stream in random pieces; returns whether every call succeeded. */
static gboolean
feed_split (GstSessionSseParser * parser, const guint8 * stream, gsize size,
    guint32 * state)
{
  gsize pos = 0;
  gboolean ok = TRUE;

  while (pos < size) {
    guint32 rnd = next_random (state);
    gsize piece = (rnd % 8 == 0) ? 0 : 1 + (rnd >> 8) % 64;
    guint8 *copy;
    GError *error = NULL;
    gboolean fed;

    piece = MIN (piece, size - pos);
    /* each piece in its own buffer: a read past it is caught */
    copy = (guint8 *) fuzz_dup (stream + pos, piece);
    fed = gst_session_sse_parser_feed (parser, piece ? copy : NULL, piece,
        &error);
    fuzz_assert (fed == (error == NULL), "error set iff the feed failed");
    g_clear_error (&error);
    free (copy);
    ok = ok && fed;
    pos += piece;
  }
  return ok;
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
  Record whole, split;
  GstSessionSseParser *a, *b;
  const guint8 *stream;
  guint8 *copy;
  gsize length;
  guint32 state;
  gboolean ok_a, ok_b;
  GError *error = NULL;

  if (size < 4)
    return 0;
  stream = data + 4;
  length = size - 4;
  state = 0x9e3779b9u ^ ((guint32) data[0] << 8) ^ data[3];

  whole.log = g_string_new (NULL);
  split.log = g_string_new (NULL);
  a = parser_new (&whole, data);
  b = parser_new (&split, data);

  copy = (guint8 *) fuzz_dup (stream, length);
  ok_a = gst_session_sse_parser_feed (a, length ? copy : NULL, length, &error);
  fuzz_assert (ok_a == (error == NULL), "error set iff the feed failed");
  g_clear_error (&error);
  free (copy);

  if (data[0] & 2) {
    /* a reset forgets everything: the second feed starts a new stream */
    feed_split (b, stream, length / 2, &state);
    gst_session_sse_parser_reset (b);
    g_string_truncate (split.log, 0);
  }
  ok_b = feed_split (b, stream, length, &state);

  if (ok_a)
    gst_session_sse_parser_finish (a);
  if (ok_b)
    gst_session_sse_parser_finish (b);

  fuzz_assert (ok_a == ok_b, "one call %s, pieces %s",
      ok_a ? "succeeded" : "failed", ok_b ? "succeeded" : "failed");
  fuzz_assert (strcmp (whole.log->str, split.log->str) == 0,
      "one call gave\n%s\npieces gave\n%s", whole.log->str, split.log->str);
  fuzz_assert (gst_session_sse_parser_get_retry (a) ==
      gst_session_sse_parser_get_retry (b), "retry differs");
  fuzz_assert (strcmp (gst_session_sse_parser_get_last_event_id (a),
          gst_session_sse_parser_get_last_event_id (b)) == 0, "id differs");

  gst_session_sse_parser_free (a);
  gst_session_sse_parser_free (b);
  g_string_free (whole.log, TRUE);
  g_string_free (split.log, TRUE);
  return 0;
}
