/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A control script: parsed from a text or a file (the parser is
 * controlscript-parser.c), then read, in time order, by its actions.
 */

/**
 * SECTION:gstsessioncontrolscript
 * @title: GstSessionControlScript
 * @short_description: timed actions that steer a session, read from a text
 *   file (the `control-script` property of worldsrc and directorsrc)
 *
 * A control script is UTF-8 text, one action per line:
 *
 * |[
 * # comment
 * <time> <action> [arguments]
 * ]|
 *
 * The time is running time since the element started playing: `12`, `2.5`,
 * `2.5s`, `500ms`, `1:02.5` (m:ss) or `1:00:00` (h:mm:ss). Times never go
 * back: each line's time is at least the time of the line before.
 *
 * World actions: `prompt <text>`, `commands <set>|none`, `press <command>`,
 * `release <command>`, `activate <command>[+<command>...]`,
 * `reset [preset=<name>] [image-url=<url>] [prompt=<text>]`, `ping`, `stop`.
 * Director actions: `prompt [version=<N>] <text>`, `ping`, `stop`.
 *
 * Every argument is validated on parse with the rules of the contract
 * (spec 000: prompt lengths, preset and image URL lengths, command names
 * and conflict groups), and the held command set is followed through the
 * script, so that `press backward` while `forward` is held is refused. Any
 * violation is a #GError of domain %GST_SESSION_ERROR, code
 * %GST_SESSION_ERROR_INVALID_ARGUMENT, whose text names the line:
 * `control-script line 7: prompt: /prompt has 2001 characters, at most 2000
 * allowed`. docs/control-script.md describes the format in full.
 *
 * The parser is pure (no element, no clock) and bounded: at most
 * %GST_SESSION_CONTROL_SCRIPT_MAX_SIZE bytes,
 * %GST_SESSION_CONTROL_SCRIPT_MAX_LINES lines and
 * %GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH bytes a line.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "controlscript.h"
#include "controlscript-private.h"
#include "sessionerror.h"

G_DEFINE_BOXED_TYPE (GstSessionControlScript, gst_session_control_script,
    gst_session_control_script_ref, gst_session_control_script_unref);

/**
 * gst_session_control_script_parse:
 * @app: the application the script steers
 * @text: (nullable) (array length=length) (element-type guint8): the
 *   script, UTF-8; %NULL only with a @length of 0
 * @length: length of @text in bytes, or -1 when it is NUL-terminated
 * @error: return location for a #GError
 *
 * Parses and validates a control script (see the section description and
 * docs/control-script.md). Errors start with `control-script line N:`.
 *
 * Returns: (transfer full) (nullable): the script, or %NULL with @error set.
 */
GstSessionControlScript *
gst_session_control_script_parse (GstSessionApp app, const gchar * text,
    gssize length, GError ** error)
{
  g_return_val_if_fail (app == GST_SESSION_APP_WORLD
      || app == GST_SESSION_APP_DIRECTOR, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  if (text == NULL)
    text = "";
  if (length < 0)
    length = strlen (text);
  return control_script_parse_text (app, "control-script", text, length, error);
}

/* What a file that is not a regular one is, for the error text */
static const gchar *
file_kind (mode_t mode)
{
  if (S_ISDIR (mode))
    return "a directory";
  if (S_ISFIFO (mode))
    return "a FIFO";
  if (S_ISCHR (mode))
    return "a character device";
  if (S_ISBLK (mode))
    return "a block device";
  if (S_ISSOCK (mode))
    return "a socket";
  return "a special file";
}

static void
set_not_regular (GError ** error, const gchar * source, mode_t mode)
{
  g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
      "%s: not a regular file (%s); only regular files are read", source,
      file_kind (mode));
}

/**
 * gst_session_control_script_load:
 * @app: the application the script steers
 * @path: (type filename): the file of the script
 * @error: return location for a #GError
 *
 * Reads the file @path and parses it as gst_session_control_script_parse()
 * does. Only a regular file of at most %GST_SESSION_CONTROL_SCRIPT_MAX_SIZE
 * bytes is read: a FIFO, a directory, a device or a socket is refused at
 * once (`control-script PATH: not a regular file (a FIFO); only regular
 * files are read`), and so is a larger file (`control-script PATH: the
 * file has N bytes, at most 1048576 allowed`). Errors start with
 * `control-script PATH line N:` or, when the file cannot be read,
 * `control-script PATH:`.
 *
 * Returns: (transfer full) (nullable): the script, or %NULL with @error set.
 */
GstSessionControlScript *
gst_session_control_script_load (GstSessionApp app, const gchar * path,
    GError ** error)
{
  GstSessionControlScript *script = NULL;
  gchar *display, *source, *buf = NULL;
  struct stat st;
  gsize n = 0;
  gint fd;

  g_return_val_if_fail (app == GST_SESSION_APP_WORLD
      || app == GST_SESSION_APP_DIRECTOR, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  display = g_filename_display_name (path);
  source = g_strdup_printf ("control-script %s", display);
  g_free (display);

  /* O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused
   * just after, by fstat); a regular file ignores the flag */
  fd = g_open (path, O_RDONLY | O_NONBLOCK | O_CLOEXEC, 0);
  if (fd < 0) {
    gint e = errno;

    /* a socket cannot be opened (ENXIO): say what it is */
    if (g_stat (path, &st) == 0 && !S_ISREG (st.st_mode))
      set_not_regular (error, source, st.st_mode);
    else
      g_set_error (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT, "%s: cannot open the file: %s",
          source, g_strerror (e));
    goto out;
  }
  if (fstat (fd, &st) != 0) {
    gint e = errno;

    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "%s: cannot read the file: %s", source, g_strerror (e));
    goto out;
  }
  if (!S_ISREG (st.st_mode)) {
    set_not_regular (error, source, st.st_mode);
    goto out;
  }
  if (st.st_size > GST_SESSION_CONTROL_SCRIPT_MAX_SIZE) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "%s: the file has %" G_GINT64_FORMAT " bytes, at most %u allowed",
        source, (gint64) st.st_size, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
    goto out;
  }
  /* one byte more than allowed tells a file that grew past the limit
   * since fstat: the read stops there whatever the file does */
  buf = g_malloc (GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  while (n < GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1) {
    gssize r = read (fd, buf + n, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1 - n);

    if (r < 0 && errno == EINTR)
      continue;
    if (r < 0) {
      gint e = errno;

      g_set_error (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT, "%s: cannot read the file: %s",
          source, g_strerror (e));
      goto out;
    }
    if (r == 0)
      break;
    n += (gsize) r;
  }
  if (n > GST_SESSION_CONTROL_SCRIPT_MAX_SIZE) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "%s: the file grew past %u bytes while read, at most %u allowed",
        source, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE,
        GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
    goto out;
  }
  script = control_script_parse_text (app, source, buf, n, error);

out:
  if (fd >= 0)
    g_close (fd, NULL);
  g_free (buf);
  g_free (source);
  return script;
}

/**
 * gst_session_control_script_ref:
 * @script: a script
 *
 * Returns: (transfer full): @script, with one more reference.
 */
GstSessionControlScript *
gst_session_control_script_ref (GstSessionControlScript * script)
{
  g_return_val_if_fail (script != NULL, NULL);

  g_atomic_int_inc (&script->refcount);
  return script;
}

/**
 * gst_session_control_script_unref:
 * @script: (transfer full): a script
 *
 * Drops a reference; the last one frees the script and its actions.
 */
void
gst_session_control_script_unref (GstSessionControlScript * script)
{
  g_return_if_fail (script != NULL);

  if (!g_atomic_int_dec_and_test (&script->refcount))
    return;
  g_array_unref (script->actions);
  g_free (script);
}

/**
 * gst_session_control_script_get_app:
 * @script: a script
 *
 * Returns: the application @script was parsed for.
 */
GstSessionApp
gst_session_control_script_get_app (const GstSessionControlScript * script)
{
  g_return_val_if_fail (script != NULL, GST_SESSION_APP_WORLD);

  return script->app;
}

/**
 * gst_session_control_script_get_n_actions:
 * @script: a script
 *
 * Returns: the number of actions (comments and blank lines are not
 * actions); 0 for an empty script.
 */
guint
gst_session_control_script_get_n_actions (const GstSessionControlScript *
    script)
{
  g_return_val_if_fail (script != NULL, 0);

  return script->actions->len;
}

/**
 * gst_session_control_script_get_action:
 * @script: a script
 * @index: an index below gst_session_control_script_get_n_actions()
 *
 * Actions are in time order (the order of the file); actions at the same
 * time keep the order of their lines.
 *
 * Returns: (transfer none): the action, valid as long as @script.
 */
const GstSessionControlAction *
gst_session_control_script_get_action (const GstSessionControlScript *
    script, guint index)
{
  g_return_val_if_fail (script != NULL, NULL);
  g_return_val_if_fail (index < script->actions->len, NULL);

  return &g_array_index (script->actions, GstSessionControlAction, index);
}

/**
 * gst_session_control_script_first_at:
 * @script: a script
 * @time: a running time
 *
 * Finds where a scheduler starting (or resuming) at @time begins: the
 * first action whose time is @time or later.
 *
 * Returns: its index, or gst_session_control_script_get_n_actions() when
 * every action is earlier than @time.
 */
guint
gst_session_control_script_first_at (const GstSessionControlScript * script,
    GstClockTime time)
{
  guint lo = 0, hi;

  g_return_val_if_fail (script != NULL, 0);

  hi = script->actions->len;
  while (lo < hi) {
    guint mid = lo + (hi - lo) / 2;

    if (g_array_index (script->actions, GstSessionControlAction,
            mid).time < time)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}
