/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionjsongate
 * @title: JSON gate
 * @short_description: strict JSON with size and depth limits, checked
 *   before any parser sees the text
 *
 * Every JSON text a peer sends (a service's answer and messages, an HTTP
 * error body, a key set, a webhook delivery, a request to the reference
 * service) passes this gate before json-glib parses it. json-glib 1.6
 * accepts more than RFC 8259 (comments, single quotes, `#` lines, octal
 * escapes) and recurses without a limit, so a pre-scan that knows only
 * strings can be fooled (`/ *"* /` then a deep nesting). The gate is a
 * complete, non-recursive scan of the RFC 8259 grammar: what it accepts,
 * json-glib parses the same way, within the limits.
 *
 * Going out, gst_session_json_write() is the one writer: json-glib 1.6's
 * generator leaves U+001F unescaped and prints a double such as 1e+78 as
 * `1e+78.0`, neither of which is JSON (and the gate would refuse both when
 * the text comes back).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "jsongate.h"
#include "sessionerror.h"

typedef enum
{
  WANT_VALUE,
  WANT_VALUE_OR_CLOSE,          /* right after '[' */
  WANT_KEY_OR_CLOSE,            /* right after '{' */
  WANT_KEY,                     /* after ',' in an object */
  WANT_COLON,
  WANT_COMMA_OR_CLOSE,
  WANT_END,                     /* the value is complete: white space only */
} GateState;

static gboolean
fail (GError ** error, gsize at, const gchar * rule)
{
  g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
      "not strict JSON: %s (at byte %" G_GSIZE_FORMAT ")", rule, at);
  return FALSE;
}

static gboolean
is_ws (gchar c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static gint
hex4 (const gchar * p)
{
  gint v = 0, i;

  for (i = 0; i < 4; i++) {
    gint d = g_ascii_xdigit_value (p[i]);

    if (d < 0)
      return -1;
    v = v * 16 + d;
  }
  return v;
}

/* A string from the '"' at *pos; leaves *pos after its closing quote. The
 * text is valid UTF-8 already. */
static gboolean
scan_string (const gchar * text, gsize length, gsize * pos, GError ** error)
{
  gsize i = *pos + 1;

  while (i < length) {
    guchar c = text[i];

    if (c == '"') {
      *pos = i + 1;
      return TRUE;
    }
    if (c < 0x20)
      return fail (error, i, "a control character in a string");
    if (c != '\\') {
      i++;
      continue;
    }
    if (i + 1 >= length)
      break;
    c = text[i + 1];
    if (c != 'u') {
      if (!strchr ("\"\\/bfnrt", c) || c == '\0')
        return fail (error, i, "an escape JSON does not have");
      i += 2;
      continue;
    }
    {
      gint unit = i + 6 <= length ? hex4 (text + i + 2) : -1;

      if (unit < 0)
        return fail (error, i, "\\u without four hex digits");
      if (unit >= 0xdc00 && unit <= 0xdfff)
        return fail (error, i, "a lone low surrogate");
      i += 6;
      if (unit >= 0xd800 && unit <= 0xdbff) {
        gint low = i + 6 <= length && text[i] == '\\' && text[i + 1] == 'u' ?
            hex4 (text + i + 2) : -1;

        if (low < 0xdc00 || low > 0xdfff)
          return fail (error, i - 6, "a lone high surrogate");
        i += 6;
      }
    }
  }
  return fail (error, *pos, "a string that does not end");
}

/* A number from *pos, by RFC 8259's grammar, and finite as a double. */
static gboolean
scan_number (const gchar * text, gsize length, gsize * pos, GError ** error)
{
  gsize i = *pos, start = *pos;
  gchar *copy;
  gdouble v;

  if (text[i] == '-')
    i++;
  if (i < length && text[i] == '0') {
    i++;
  } else if (i < length && text[i] >= '1' && text[i] <= '9') {
    while (i < length && g_ascii_isdigit (text[i]))
      i++;
  } else {
    return fail (error, start, "a number JSON does not allow");
  }
  if (i < length && text[i] == '.') {
    i++;
    if (i >= length || !g_ascii_isdigit (text[i]))
      return fail (error, start, "a number JSON does not allow");
    while (i < length && g_ascii_isdigit (text[i]))
      i++;
  }
  if (i < length && (text[i] == 'e' || text[i] == 'E')) {
    i++;
    if (i < length && (text[i] == '+' || text[i] == '-'))
      i++;
    if (i >= length || !g_ascii_isdigit (text[i]))
      return fail (error, start, "a number JSON does not allow");
    while (i < length && g_ascii_isdigit (text[i]))
      i++;
  }
  /* a leading zero followed by digits ("01") stops above at the zero */
  if (i < length && g_ascii_isdigit (text[i]))
    return fail (error, start, "a number with a leading zero");
  copy = g_strndup (text + start, i - start);
  v = g_ascii_strtod (copy, NULL);
  g_free (copy);
  if (!isfinite (v))
    return fail (error, start, "a number too large for a double");
  *pos = i;
  return TRUE;
}

static gboolean
scan_literal (const gchar * text, gsize length, gsize * pos, GError ** error)
{
  static const gchar *literals[] = { "true", "false", "null" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (literals); i++) {
    gsize n = strlen (literals[i]);

    if (length - *pos >= n && memcmp (text + *pos, literals[i], n) == 0) {
      *pos += n;
      return TRUE;
    }
  }
  return fail (error, *pos, "a word JSON does not have");
}

static const gchar *
describe (gchar c)
{
  switch (c) {
    case '/':
      return "a comment (JSON has none)";
    case '\'':
      return "a single quote (JSON strings take double quotes)";
    case '#':
      return "a '#' (JSON has no comments)";
    default:
      return NULL;
  }
}

/**
 * gst_session_json_check:
 * @text: (array length=length): the text
 * @length: its length in bytes
 * @max_size: the most bytes allowed
 * @max_depth: the deepest nesting of arrays and objects allowed, at most
 *   %GST_SESSION_JSON_MAX_DEPTH_LIMIT
 * @error: (out) (optional): where to put the error
 *
 * Checks that @text is one strict RFC 8259 JSON value, white space around
 * it allowed: valid UTF-8 with no byte-order mark and no NUL byte; no
 * comments, single quotes, trailing commas, unquoted names or words other
 * than true, false and null; only JSON's escapes, and no lone surrogate;
 * numbers by the grammar and finite as doubles; at most @max_size bytes
 * and @max_depth levels of nesting. Nothing recurses: the check itself
 * cannot be exhausted.
 *
 * Returns: %TRUE when it is; otherwise %FALSE and a
 *   %GST_SESSION_ERROR_INVALID_JSON error that names the rule and the
 *   byte offset.
 */
gboolean
gst_session_json_check (const gchar * text, gsize length, gsize max_size,
    guint max_depth, GError ** error)
{
  guint8 stack[GST_SESSION_JSON_MAX_DEPTH_LIMIT];       /* '{' or '[' */
  guint depth = 0;
  GateState state = WANT_VALUE;
  const gchar *bad = NULL;
  gsize pos = 0;

  g_return_val_if_fail (max_depth <= GST_SESSION_JSON_MAX_DEPTH_LIMIT, FALSE);

  if (text == NULL)
    return fail (error, 0, "no text");
  if (length > max_size) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "%" G_GSIZE_FORMAT " bytes, at most %" G_GSIZE_FORMAT " allowed",
        length, max_size);
    return FALSE;
  }
  if (length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    return fail (error, 0, "a byte-order mark");
  if (!g_utf8_validate_len (text, length, &bad))
    return fail (error, bad - text, "not valid UTF-8 (or a NUL byte)");

  for (;;) {
    gchar c;

    while (pos < length && is_ws (text[pos]))
      pos++;
    if (pos >= length) {
      if (state == WANT_END)
        return TRUE;
      return fail (error, pos, depth ? "the text ends inside an array or "
          "object" : "no JSON value");
    }
    c = text[pos];
    if (describe (c) && state != WANT_END)
      return fail (error, pos, describe (c));

    switch (state) {
      case WANT_VALUE_OR_CLOSE:
        if (c == ']')
          goto close;
        /* fall through */
      case WANT_VALUE:
        if (c == '{' || c == '[') {
          if (depth >= max_depth) {
            g_set_error (error, GST_SESSION_ERROR,
                GST_SESSION_ERROR_INVALID_JSON, "nested deeper than %u "
                "levels (at byte %" G_GSIZE_FORMAT ")", max_depth, pos);
            return FALSE;
          }
          stack[depth++] = c;
          state = c == '{' ? WANT_KEY_OR_CLOSE : WANT_VALUE_OR_CLOSE;
          pos++;
          continue;
        }
        if (c == '"') {
          if (!scan_string (text, length, &pos, error))
            return FALSE;
        } else if (c == '-' || g_ascii_isdigit (c)) {
          if (!scan_number (text, length, &pos, error))
            return FALSE;
        } else if (c == 't' || c == 'f' || c == 'n') {
          if (!scan_literal (text, length, &pos, error))
            return FALSE;
        } else {
          return fail (error, pos, c == ',' || c == ']' || c == '}' ?
              "a value is missing (a trailing or doubled comma?)" :
              "a character that cannot start a JSON value");
        }
        goto value_done;
      case WANT_KEY_OR_CLOSE:
        if (c == '}')
          goto close;
        /* fall through */
      case WANT_KEY:
        if (c != '"')
          return fail (error, pos, c == '}' ? "a trailing comma" :
              "a member name that is not a double-quoted string");
        if (!scan_string (text, length, &pos, error))
          return FALSE;
        state = WANT_COLON;
        continue;
      case WANT_COLON:
        if (c != ':')
          return fail (error, pos, "a ':' is missing after a member name");
        pos++;
        state = WANT_VALUE;
        continue;
      case WANT_COMMA_OR_CLOSE:
        if (c == ',') {
          pos++;
          state = stack[depth - 1] == '{' ? WANT_KEY : WANT_VALUE;
          continue;
        }
        if ((c == '}' && stack[depth - 1] == '{') ||
            (c == ']' && stack[depth - 1] == '['))
          goto close;
        return fail (error, pos, "a ',' or the end of the array or object "
            "is missing");
      case WANT_END:
        return fail (error, pos, "text after the JSON value");
    }
    g_assert_not_reached ();

  close:
    depth--;
    pos++;
  value_done:
    state = depth ? WANT_COMMA_OR_CLOSE : WANT_END;
  }
}

/**
 * gst_session_json_parse:
 * @text: (array length=length): the text
 * @length: its length in bytes
 * @max_size: the most bytes allowed
 * @max_depth: the deepest nesting allowed
 * @error: (out) (optional): where to put the error
 *
 * Passes @text through gst_session_json_check(), then parses it with
 * json-glib.
 *
 * Returns: (transfer full) (nullable): the root node, or %NULL with a
 *   %GST_SESSION_ERROR_INVALID_JSON error.
 */
JsonNode *
gst_session_json_parse (const gchar * text, gsize length, gsize max_size,
    guint max_depth, GError ** error)
{
  JsonParser *parser;
  JsonNode *root;
  GError *err = NULL;

  if (!gst_session_json_check (text, length, max_size, max_depth, error))
    return NULL;
  parser = json_parser_new_immutable ();
  if (!json_parser_load_from_data (parser, text, (gssize) length, &err)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_JSON,
        "not JSON: %s", err->message);
    g_error_free (err);
    g_object_unref (parser);
    return NULL;
  }
  root = json_parser_steal_root (parser);
  g_object_unref (parser);
  if (root == NULL)
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_JSON, "not JSON: no value");
  return root;
}

/**
 * gst_session_json_write:
 * @node: the value to print
 * @pretty: whether to indent
 *
 * Prints @node as RFC 8259 JSON: json-glib's generator, then its two
 * faults in 1.6 mended: a raw U+001F inside a string becomes `\u001f`, and
 * the `.0` it appends after an exponent (`1e+78.0`) is dropped. What this
 * prints, gst_session_json_check() accepts.
 *
 * Returns: (transfer full): the text
 */
gchar *
gst_session_json_write (JsonNode * node, gboolean pretty)
{
  JsonGenerator *gen = json_generator_new ();
  gchar *raw;
  const gchar *r;
  GString *out;
  gboolean in_string = FALSE;

  json_generator_set_pretty (gen, pretty);
  json_generator_set_root (gen, node);
  raw = json_generator_to_data (gen, NULL);
  g_object_unref (gen);

  out = g_string_sized_new (strlen (raw) + 8);
  for (r = raw; *r;) {
    gchar c = *r++;

    if (in_string) {
      if (c == '\\' && *r) {
        g_string_append_c (out, c);
        g_string_append_c (out, *r++);
      } else if ((guchar) c < 0x20) {
        g_string_append_printf (out, "\\u%04x", (guint) (guchar) c);
      } else {
        if (c == '"')
          in_string = FALSE;
        g_string_append_c (out, c);
      }
      continue;
    }
    g_string_append_c (out, c);
    if (c == '"') {
      in_string = TRUE;
    } else if ((c == 'e' || c == 'E') && out->len >= 2
        && g_ascii_isdigit (out->str[out->len - 2])) {
      /* outside strings, an 'e' right after a digit is an exponent */
      if (*r == '+' || *r == '-')
        g_string_append_c (out, *r++);
      while (g_ascii_isdigit (*r))
        g_string_append_c (out, *r++);
      if (r[0] == '.' && r[1] == '0' && !g_ascii_isdigit (r[2]))
        r += 2;
    }
  }
  g_free (raw);
  return g_string_free (out, FALSE);
}
