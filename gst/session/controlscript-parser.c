/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The text of a control script: its lines, times and actions read and
 * validated with the rules of the contract (the library's message
 * builders), the held command set followed through the script, and the
 * names of the actions. controlscript.c holds the script they make.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "controlscript-private.h"
#include "director.h"
#include "profile.h"
#include "sessionerror.h"
#include "world.h"

/* indexed by GstSessionControlActionType */
static const gchar *const action_names[] = {
  "prompt", "commands", "press", "release", "activate", "reset", "ping",
  "stop", NULL
};

#define WORLD_ACTIONS \
  "prompt, commands, press, release, activate, reset, ping, stop"
#define DIRECTOR_ACTIONS "prompt, ping, stop"
#define COMMAND_NAMES \
  "forward, left, backward, right, look_up, look_left, look_down, look_right"
#define TIME_FORMS "12, 2.5, 2.5s, 500ms, 1:02.5 or 1:00:00"
#define RESET_ARGUMENTS "preset=, image-url=, prompt="

/* longest user text quoted back in an error message, in characters */
#define SHOW_MAX 40

/**
 * gst_session_control_action_type_to_string:
 * @type: an action type
 *
 * Returns: the name of the action as a script writes it ("prompt",
 * "commands", ...), or %NULL for a value that is not an action type.
 */
const gchar *
gst_session_control_action_type_to_string (GstSessionControlActionType type)
{
  if ((guint) type >= G_N_ELEMENTS (action_names) - 1)
    return NULL;
  return action_names[type];
}

/* ---- the parser ---- */

typedef struct
{
  GstSessionApp app;
  const gchar *source;          /* "control-script" or "control-script PATH" */
  guint line;                   /* the line being read, 1-based; 0: none */
  GError **error;
  GArray *actions;

  /* the state of the script after the last action read */
  GstClockTime last_time;
  guint last_time_line;
  guint held;
  guint held_since[GST_SESSION_WORLD_N_COMMANDS];
  gint64 version_floor;         /* least version the last prompt can have */
  guint version_floor_line;
  gboolean version_floor_explicit;
  guint stop_line;
} Parser;

/* *INDENT-OFF* */
static gboolean fail (Parser * p, const gchar * format, ...) G_GNUC_PRINTF (2, 3);
/* *INDENT-ON* */

static gboolean
fail (Parser * p, const gchar * format, ...)
{
  va_list args;
  gchar *what;

  va_start (args, format);
  what = g_strdup_vprintf (format, args);
  va_end (args);
  if (p->line)
    g_set_error (p->error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT, "%s line %u: %s", p->source,
        p->line, what);
  else
    g_set_error (p->error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT, "%s: %s", p->source, what);
  g_free (what);
  return FALSE;
}

/* @s (valid UTF-8) cut to SHOW_MAX characters, for an error message */
static gchar *
show (const gchar * s)
{
  const gchar *end;

  if (g_utf8_strlen (s, -1) <= SHOW_MAX)
    return g_strdup (s);
  end = g_utf8_offset_to_pointer (s, SHOW_MAX);
  return g_strdup_printf ("%.*s...", (gint) (end - s), s);
}

/* fails with "@what: @format" (no prefix when @what is %NULL), where the
 * one %s of @format is @value, cut to SHOW_MAX characters */
static gboolean
fail_showing (Parser * p, const gchar * what, const gchar * format,
    const gchar * value)
{
  gchar *v = show (value);
  gchar *text;

  /* the formats are literals of this file, each with exactly one %s */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  text = g_strdup_printf (format, v);
#pragma GCC diagnostic pop
  if (what)
    fail (p, "%s: %s", what, text);
  else
    fail (p, "%s", text);
  g_free (text);
  g_free (v);
  return FALSE;
}

/* the message building of the library is the one validator: a builder's
 * refusal becomes the script's error */
static gboolean
check_built (Parser * p, gchar * json, GError * err)
{
  if (json == NULL) {
    fail (p, "%s", err->message);
    g_error_free (err);
    return FALSE;
  }
  g_free (json);
  return TRUE;
}

static gboolean
is_blank (gchar c)
{
  return c == ' ' || c == '\t';
}

static gchar *
skip_blanks (gchar * s)
{
  while (is_blank (*s))
    s++;
  return s;
}

/* Cuts the next blank-separated word out of *@s (terminating it in place)
 * and moves *@s past it. Returns %NULL at the end of the line. */
static gchar *
next_word (gchar ** s)
{
  gchar *start = skip_blanks (*s), *end = start;

  if (*start == '\0') {
    *s = start;
    return NULL;
  }
  while (*end && !is_blank (*end))
    end++;
  if (*end) {
    *end = '\0';
    *s = end + 1;
  } else {
    *s = end;
  }
  return start;
}

/* Decodes the quoted string at *@s (which points at its opening quote) in
 * place into *@out, and moves *@s past the closing quote. The escapes are
 * \" and \\. */
static gboolean
read_quoted (Parser * p, const gchar * what, gchar ** s, gchar ** out)
{
  gchar *r = *s + 1, *w = *s + 1;

  *out = w;
  for (;;) {
    if (*r == '\0')
      return fail (p, "%s: the closing quote is missing", what);
    if (*r == '"')
      break;
    if (*r == '\\') {
      if (r[1] != '"' && r[1] != '\\') {
        if (r[1] == '\0')
          return fail (p, "%s: the closing quote is missing", what);
        return fail (p, "%s: \\%.*s is not an escape (only \\\" and \\\\)",
            what, (gint) (g_utf8_next_char (r + 1) - (r + 1)), r + 1);
      }
      r++;
    }
    *w++ = *r++;
  }
  *s = r + 1;
  *w = '\0';
  return TRUE;
}

/* The text argument that runs to the end of the line: quoted, or the rest
 * of the line (trimmed). */
static gboolean
read_text (Parser * p, const gchar * what, gchar * s, gchar ** out)
{
  s = skip_blanks (s);
  if (*s == '\0')
    return fail (p, "%s: the text is missing", what);
  if (*s != '"') {
    *out = s;
    return TRUE;
  }
  if (!read_quoted (p, what, &s, out))
    return FALSE;
  s = skip_blanks (s);
  if (*s != '\0')
    return fail_showing (p, what, "unexpected \"%s\" after the closing quote",
        s);
  return TRUE;
}

static gboolean
no_more (Parser * p, const gchar * what, gchar * s)
{
  gchar *extra = next_word (&s);

  if (extra == NULL)
    return TRUE;
  return fail_showing (p, what, "unexpected \"%s\" after the arguments", extra);
}

/* ---- times ---- */

/* Reads a run of decimal digits; the value is kept while it fits (at most
 * 18 digits). Returns the number of digits. */
static guint
read_digits (const gchar ** s, guint64 * value)
{
  guint n = 0;

  *value = 0;
  while (g_ascii_isdigit (**s)) {
    if (n < 18)
      *value = *value * 10 + (guint64) (**s - '0');
    (*s)++;
    n++;
  }
  return n;
}

static void
format_seconds (GstClockTime t, gchar buf[40])
{
  guint64 frac = t % GST_SECOND;
  gint digits = 9;

  if (frac == 0) {
    g_snprintf (buf, 40, "%" G_GUINT64_FORMAT "s", t / GST_SECOND);
    return;
  }
  while (frac % 10 == 0) {
    frac /= 10;
    digits--;
  }
  g_snprintf (buf, 40, "%" G_GUINT64_FORMAT ".%0*" G_GUINT64_FORMAT "s",
      t / GST_SECOND, digits, frac);
}

/* time = seconds ["s"] | milliseconds "ms" | [[h:]m:]ss[.frac]; see
 * docs/control-script.md */
static gboolean
parse_time (Parser * p, const gchar * word, GstClockTime * time)
{
  const gchar *s = word;
  guint64 part[3], frac = 0, seconds, t;
  guint digits[3], n_parts = 0, frac_digits = 0, i;
  gboolean ms = FALSE;

  for (;;) {
    digits[n_parts] = read_digits (&s, &part[n_parts]);
    if (digits[n_parts] == 0)
      goto not_a_time;
    n_parts++;
    if (*s != ':')
      break;
    if (n_parts == 3)
      goto not_a_time;
    s++;
  }
  if (*s == '.') {
    s++;
    frac_digits = read_digits (&s, &frac);
    if (frac_digits == 0)
      goto not_a_time;
  }
  if (n_parts == 1 && strcmp (s, "ms") == 0)
    ms = TRUE;
  else if (!(*s == '\0' || (n_parts == 1 && strcmp (s, "s") == 0)))
    goto not_a_time;

  for (i = 1; i < n_parts; i++) {
    if (digits[i] != 2 || part[i] > 59)
      return fail_showing (p, NULL, "\"%s\" is not a time: minutes and "
          "seconds after a colon are two digits, 00 to 59", word);
  }
  if (frac_digits > (ms ? 6u : 9u))
    return fail_showing (p, NULL, "\"%s\" is not a time: too many "
        "decimals (the precision is a nanosecond)", word);
  for (i = 0; i < n_parts; i++) {
    if (digits[i] > 12)
      goto too_late;
  }

  if (ms) {
    t = part[0] * GST_MSECOND;
    for (i = frac_digits; i < 6; i++)
      frac *= 10;
    t += frac;
  } else {
    seconds = part[0];
    for (i = 1; i < n_parts; i++)
      seconds = seconds * 60 + part[i];
    if (seconds > GST_SESSION_CONTROL_SCRIPT_MAX_TIME / GST_SECOND)
      goto too_late;
    for (i = frac_digits; i < 9; i++)
      frac *= 10;
    t = seconds * GST_SECOND + frac;
  }
  if (t > GST_SESSION_CONTROL_SCRIPT_MAX_TIME)
    goto too_late;
  *time = t;
  return TRUE;

not_a_time:
  return fail_showing (p, NULL, "\"%s\" is not a time; a line starts with "
      "its time in seconds (" TIME_FORMS ")", word);
too_late:
  return fail_showing (p, NULL, "\"%s\" is too late; times go up to 1000000 "
      "seconds", word);
}

/* ---- arguments ---- */

static gboolean
parse_command (Parser * p, const gchar * what, const gchar * name,
    GstSessionWorldCommand * command)
{
  if (gst_session_world_command_from_string (name, command))
    return TRUE;
  return fail_showing (p, what, "\"%s\" is not a command (" COMMAND_NAMES
      ")", name);
}

/* <command>[+<command>...], no command twice, none in conflict */
static gboolean
parse_set (Parser * p, const gchar * what, gchar * word, guint * set)
{
  gchar **names = g_strsplit (word, "+", -1);
  guint i, result = 0;
  gboolean ok = TRUE;

  for (i = 0; ok && names[i]; i++) {
    GstSessionWorldCommand c;
    guint conflicts;

    if (names[i][0] == '\0') {
      ok = fail_showing (p, what, "empty command name in \"%s\"", word);
    } else if (!parse_command (p, what, names[i], &c)) {
      ok = FALSE;
    } else if (result & c) {
      ok = fail (p, "%s: %s is named twice", what, names[i]);
    } else if (result & (conflicts = gst_session_world_command_conflicts (c))) {
      ok = fail (p, "%s: %s conflicts with %s (mutually exclusive)", what,
          names[i], gst_session_world_command_to_string (conflicts));
    } else {
      result |= c;
    }
  }
  g_strfreev (names);
  if (ok)
    *set = result;
  return ok;
}

/* validates the `commands` message the action makes */
static gboolean
check_commands (Parser * p, guint active, guint activated)
{
  gchar **a = gst_session_world_commands_to_strv (active);
  gchar **b = activated ? gst_session_world_commands_to_strv (activated) : NULL;
  GError *err = NULL;
  gchar *json;

  json = gst_session_world_build_commands ((const gchar * const *) a,
      (const gchar * const *) b, &err);
  g_strfreev (a);
  g_strfreev (b);
  return check_built (p, json, err);
}

static guint
command_index (guint command)
{
  guint i;

  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    if (command == (1u << i))
      return i;
  }
  g_assert_not_reached ();
  return 0;
}

static void
set_held (Parser * p, guint held)
{
  guint i;

  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    if ((held & (1u << i)) && !(p->held & (1u << i)))
      p->held_since[i] = p->line;
  }
  p->held = held;
}

static gboolean
parse_version (Parser * p, const gchar * value, gint64 * version)
{
  const gchar *s = value;
  guint64 v;
  guint n = read_digits (&s, &v);

  if (n == 0 || *s != '\0' || n > 16 || v < 1
      || v > (guint64) GST_SESSION_CONTROL_SCRIPT_MAX_VERSION)
    return fail_showing (p, "prompt", "version \"%s\" is not a whole number "
        "from 1 to 9007199254740991", value);
  *version = (gint64) v;
  return TRUE;
}

static gboolean
parse_prompt (Parser * p, gchar * s, GstSessionControlAction * a)
{
  GError *err = NULL;
  gchar *text, *json;

  if (p->app == GST_SESSION_APP_DIRECTOR) {
    gchar *start = skip_blanks (s);

    if (g_str_has_prefix (start, "version=")) {
      gchar *word = next_word (&s);

      if (!parse_version (p, word + strlen ("version="), &a->version))
        return FALSE;
    }
  }
  if (!read_text (p, "prompt", s, &text))
    return FALSE;

  if (p->app == GST_SESSION_APP_WORLD) {
    json = gst_session_world_build_prompt (text, &err);
  } else {
    json = gst_session_director_build_prompt (a->version ? a->version : 1,
        text, &err);
  }
  if (!check_built (p, json, err))
    return FALSE;

  if (p->app == GST_SESSION_APP_DIRECTOR) {
    if (a->version && a->version <= p->version_floor) {
      return fail (p, "prompt: version %" G_GINT64_FORMAT " is not above "
          "version %" G_GINT64_FORMAT "%s of line %u; prompt versions must "
          "increase", a->version, p->version_floor,
          p->version_floor_explicit ? "" : " (at least)",
          p->version_floor_line);
    }
    if (a->version == 0
        && p->version_floor >= GST_SESSION_CONTROL_SCRIPT_MAX_VERSION)
      return fail (p, "prompt: no version is left after %" G_GINT64_FORMAT,
          p->version_floor);
    p->version_floor = a->version ? a->version : p->version_floor + 1;
    p->version_floor_explicit = a->version != 0;
    p->version_floor_line = p->line;
  }
  a->text = g_strdup (text);
  return TRUE;
}

static gboolean
parse_commands (Parser * p, gchar * s, GstSessionControlAction * a)
{
  gchar *word = next_word (&s);
  guint set = 0;

  if (word == NULL)
    return fail (p, "commands: the command set is missing (such as "
        "forward+look_left, or none)");
  if (strcmp (word, "none") != 0 && !parse_set (p, "commands", word, &set))
    return FALSE;
  if (!no_more (p, "commands", s) || !check_commands (p, set, 0))
    return FALSE;
  set_held (p, set);
  a->commands = set;
  return TRUE;
}

static gboolean
parse_press_release (Parser * p, gchar * s, GstSessionControlAction * a)
{
  gboolean press = a->type == GST_SESSION_CONTROL_ACTION_PRESS;
  const gchar *what = press ? "press" : "release";
  gchar *word = next_word (&s);
  GstSessionWorldCommand c;
  guint conflicts, held;

  if (word == NULL)
    return fail (p, "%s: the command is missing (one of " COMMAND_NAMES ")",
        what);
  if (!parse_command (p, what, word, &c) || !no_more (p, what, s))
    return FALSE;

  if (press) {
    if (p->held & c)
      return fail (p, "press: %s is already held (since line %u)", word,
          p->held_since[command_index (c)]);
    conflicts = gst_session_world_command_conflicts (c);
    if (p->held & conflicts)
      return fail (p, "press: %s conflicts with %s, held since line %u; "
          "release it first", word,
          gst_session_world_command_to_string (conflicts),
          p->held_since[command_index (conflicts)]);
    held = p->held | c;
  } else {
    if (!(p->held & c))
      return fail (p, "release: %s is not held", word);
    held = p->held & ~c;
  }
  if (!check_commands (p, held, 0))
    return FALSE;
  set_held (p, held);
  a->commands = c;
  return TRUE;
}

static gboolean
parse_activate (Parser * p, gchar * s, GstSessionControlAction * a)
{
  gchar *word = next_word (&s);
  guint set;

  if (word == NULL)
    return fail (p, "activate: the commands are missing (such as "
        "forward or look_left+look_up)");
  if (!parse_set (p, "activate", word, &set) || !no_more (p, "activate", s)
      || !check_commands (p, p->held, set))
    return FALSE;
  a->commands = set;
  return TRUE;
}

static gboolean
parse_reset (Parser * p, gchar * s, GstSessionControlAction * a)
{
  static const gchar *const keys[] = { "preset", "image-url", "prompt" };
  gchar *values[G_N_ELEMENTS (keys)] = { NULL, };
  GError *err = NULL;
  gchar *json;

  for (;;) {
    gchar *start = skip_blanks (s), *eq, *value;
    guint k;

    if (*start == '\0')
      break;
    eq = start;
    while (*eq && *eq != '=' && !is_blank (*eq) && *eq != '"')
      eq++;
    if (*eq != '=') {
      s = start;
      return fail_showing (p, "reset", "\"%s\" is not an argument ("
          RESET_ARGUMENTS ")", next_word (&s));
    }
    *eq = '\0';
    for (k = 0; k < G_N_ELEMENTS (keys); k++) {
      if (strcmp (start, keys[k]) == 0)
        break;
    }
    if (k == G_N_ELEMENTS (keys))
      return fail_showing (p, "reset", "\"%s=\" is not an argument ("
          RESET_ARGUMENTS ")", start);
    if (values[k])
      return fail (p, "reset: %s= is given twice", keys[k]);

    s = eq + 1;
    if (*s == '\0' || is_blank (*s))
      return fail (p, "reset: %s= has no value; leave the argument out "
          "instead", keys[k]);
    if (*s == '"') {
      if (!read_quoted (p, "reset", &s, &value))
        return FALSE;
      if (*s != '\0' && !is_blank (*s))
        return fail_showing (p, "reset", "unexpected \"%s\" after the "
            "closing quote", s);
      if (*value == '\0')
        return fail (p, "reset: %s= has no value; leave the argument out "
            "instead", keys[k]);
    } else {
      value = next_word (&s);
    }
    values[k] = value;
  }

  json = gst_session_world_build_reset (values[0], values[1], values[2], &err);
  if (!check_built (p, json, err))
    return FALSE;
  a->preset = g_strdup (values[0]);
  a->image_url = g_strdup (values[1]);
  a->text = g_strdup (values[2]);
  return TRUE;
}

static gboolean
parse_action (Parser * p, gchar * s, GstSessionControlAction * a)
{
  gchar *word, buf[2][40];
  guint t;

  word = next_word (&s);
  if (!parse_time (p, word, &a->time))
    return FALSE;
  if (p->actions->len && a->time < p->last_time) {
    format_seconds (a->time, buf[0]);
    format_seconds (p->last_time, buf[1]);
    return fail (p, "time %s is earlier than %s on line %u; actions must be "
        "in time order", buf[0], buf[1], p->last_time_line);
  }

  word = next_word (&s);
  if (word == NULL)
    return fail (p, "the action is missing after the time (%s)",
        p->app == GST_SESSION_APP_WORLD ? WORLD_ACTIONS : DIRECTOR_ACTIONS);
  for (t = 0; action_names[t]; t++) {
    if (strcmp (word, action_names[t]) == 0)
      break;
  }
  if (action_names[t] == NULL)
    return fail_showing (p, NULL, p->app == GST_SESSION_APP_WORLD ?
        "\"%s\" is not an action (" WORLD_ACTIONS ")" :
        "\"%s\" is not an action (" DIRECTOR_ACTIONS ")", word);
  a->type = t;
  if (p->app == GST_SESSION_APP_DIRECTOR
      && t != GST_SESSION_CONTROL_ACTION_PROMPT
      && t != GST_SESSION_CONTROL_ACTION_PING
      && t != GST_SESSION_CONTROL_ACTION_STOP)
    return fail (p, "\"%s\" is not a director action (" DIRECTOR_ACTIONS ")",
        word);
  if (p->stop_line)
    return fail (p, "%s after the stop of line %u; stop is the last action",
        word, p->stop_line);

  switch (a->type) {
    case GST_SESSION_CONTROL_ACTION_PROMPT:
      return parse_prompt (p, s, a);
    case GST_SESSION_CONTROL_ACTION_COMMANDS:
      return parse_commands (p, s, a);
    case GST_SESSION_CONTROL_ACTION_PRESS:
    case GST_SESSION_CONTROL_ACTION_RELEASE:
      return parse_press_release (p, s, a);
    case GST_SESSION_CONTROL_ACTION_ACTIVATE:
      return parse_activate (p, s, a);
    case GST_SESSION_CONTROL_ACTION_RESET:
      return parse_reset (p, s, a);
    case GST_SESSION_CONTROL_ACTION_PING:
      return no_more (p, "ping", s);
    case GST_SESSION_CONTROL_ACTION_STOP:
      if (!no_more (p, "stop", s))
        return FALSE;
      p->stop_line = p->line;
      return TRUE;
  }
  g_assert_not_reached ();
  return FALSE;
}

static void
action_clear (gpointer data)
{
  GstSessionControlAction *a = data;

  g_free (a->text);
  g_free (a->preset);
  g_free (a->image_url);
}

static gboolean
parse_line (Parser * p, const gchar * start, gsize len)
{
  GstSessionControlAction a = { 0, };
  const gchar *bad;
  gchar *buf, *s;
  gsize i;
  gboolean ok;

  if (len > GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH)
    return fail (p, "the line has %" G_GSIZE_FORMAT " bytes, at most %u "
        "allowed", len, GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH);
  if (!g_utf8_validate (start, len, &bad)) {
    if (*bad == '\0')
      return fail (p, "a NUL byte is not allowed");
    return fail (p, "not valid UTF-8 (byte %" G_GSIZE_FORMAT " of the line)",
        (gsize) (bad - start) + 1);
  }
  for (i = 0; i < len; i++) {
    guchar c = start[i];

    if ((c < 0x20 && c != '\t') || c == 0x7f)
      return fail (p, "control character U+%04X is not allowed", c);
  }

  buf = g_strndup (start, len);
  g_strchomp (buf);
  s = skip_blanks (buf);
  if (*s == '\0' || *s == '#') {
    g_free (buf);
    return TRUE;
  }

  a.line = p->line;
  ok = parse_action (p, s, &a);
  g_free (buf);
  if (!ok) {
    action_clear (&a);
    return FALSE;
  }
  a.held = p->held;
  p->last_time = a.time;
  p->last_time_line = p->line;
  g_array_append_val (p->actions, a);
  return TRUE;
}

GstSessionControlScript *
control_script_parse_text (GstSessionApp app, const gchar * source,
    const gchar * text, gsize length, GError ** error)
{
  Parser p = { 0, };
  const gchar *pos = text, *end = text + length;
  GstSessionControlScript *script;
  guint n_lines = 0;

  p.app = app;
  p.source = source;
  p.error = error;

  if (length > GST_SESSION_CONTROL_SCRIPT_MAX_SIZE) {
    fail (&p, "%" G_GSIZE_FORMAT " bytes, at most %u allowed", length,
        GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
    return NULL;
  }

  p.actions = g_array_new (FALSE, TRUE, sizeof (GstSessionControlAction));
  g_array_set_clear_func (p.actions, action_clear);

  /* a byte order mark some editors write */
  if (length >= 3 && memcmp (text, "\xef\xbb\xbf", 3) == 0)
    pos += 3;

  while (pos < end) {
    const gchar *nl = memchr (pos, '\n', end - pos);
    gsize len = (nl ? nl : end) - pos;

    if (n_lines == GST_SESSION_CONTROL_SCRIPT_MAX_LINES) {
      p.line = 0;
      fail (&p, "more than %u lines", GST_SESSION_CONTROL_SCRIPT_MAX_LINES);
      g_array_unref (p.actions);
      return NULL;
    }
    p.line = ++n_lines;
    if (len > 0 && pos[len - 1] == '\r')
      len--;
    if (!parse_line (&p, pos, len)) {
      g_array_unref (p.actions);
      return NULL;
    }
    pos = nl ? nl + 1 : end;
  }

  script = g_new0 (GstSessionControlScript, 1);
  script->refcount = 1;
  script->app = app;
  script->actions = p.actions;
  return script;
}
