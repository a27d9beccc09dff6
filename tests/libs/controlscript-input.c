/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The control script parser and what it is given: bytes it refuses, the
 * limits, loading from a file, the documented scripts, and garbage that
 * never crashes it.
 */

#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include "controlscript-test.h"

/* ---- bytes and limits ---- */

GST_START_TEST (test_bad_bytes)
{
  static const gchar nul[] = "0 ping\n1 prompt a\0b\n";

  check_error (W, "0 ping\n1 prompt caf\xc3\n", "control-script line 2: not "
      "valid UTF-8 (byte 13 of the line)");
  check_error (W, "0 prompt \xff", "control-script line 1: not valid UTF-8 "
      "(byte 10 of the line)");
  check_error (W, "\xef\xbb\xbf\xef\xbb\xbf" "0 ping", "control-script line "
      "1: \"\xef\xbb\xbf" "0\" is not a time; a line starts with its time in "
      "seconds (12, 2.5, 2.5s, 500ms, 1:02.5 or 1:00:00)");
  check_error_len (W, nul, sizeof (nul) - 1, "control-script line 2: a NUL "
      "byte is not allowed");
  check_error (W, "0 prompt a\x01z", "control-script line 1: control "
      "character U+0001 is not allowed");
  check_error (W, "0 prompt a\x7fz", "control-script line 1: control "
      "character U+007F is not allowed");
  check_error (W, "0 prompt a\x0b", "control-script line 1: control "
      "character U+000B is not allowed");
}

GST_END_TEST;

GST_START_TEST (test_limits)
{
  GstSessionControlScript *script;
  GString *s;
  gchar *prompt, *text, *expected;
  guint i;

  /* the most lines, all actions */
  s = g_string_new (NULL);
  for (i = 0; i < GST_SESSION_CONTROL_SCRIPT_MAX_LINES; i++)
    g_string_append (s, "1 ping\n");
  script = parse_ok (W, s->str, s->len);
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script),
      GST_SESSION_CONTROL_SCRIPT_MAX_LINES);
  gst_session_control_script_unref (script);
  /* one line more */
  g_string_append (s, "#\n");
  check_error_len (W, s->str, s->len, "control-script: more than 100000 "
      "lines");
  /* blank lines count */
  g_string_truncate (s, 0);
  for (i = 0; i <= GST_SESSION_CONTROL_SCRIPT_MAX_LINES; i++)
    g_string_append_c (s, '\n');
  check_error_len (W, s->str, s->len, "control-script: more than 100000 "
      "lines");
  g_string_free (s, TRUE);

  /* the size */
  text = g_malloc (GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  memset (text, '\n', GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  check_error_len (W, text, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1,
      "control-script: 1048577 bytes, at most 1048576 allowed");
  /* exactly the size: lines of 63 blanks */
  memset (text, ' ', GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
  for (i = 63; i < GST_SESSION_CONTROL_SCRIPT_MAX_SIZE; i += 64)
    text[i] = '\n';
  script = parse_ok (D, text, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
  gst_session_control_script_unref (script);
  g_free (text);

  /* as many validated commands as fit in the size */
  s = g_string_new (NULL);
  for (i = 0; s->len < GST_SESSION_CONTROL_SCRIPT_MAX_SIZE - 32; i++)
    g_string_append (s, i % 2 ? "1 release left\n" : "1 press left\n");
  script = parse_ok (W, s->str, s->len);
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), i);
  gst_session_control_script_unref (script);
  g_string_free (s, TRUE);

  /* the line length: a comment just too long */
  text = g_malloc0 (GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH + 10);
  memset (text, '#', GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH + 1);
  expected = g_strdup_printf ("control-script line 1: the line has %u bytes, "
      "at most %u allowed", GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH + 1,
      GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH);
  check_error (W, text, expected);
  g_free (expected);
  /* exactly the limit, with its CR (not counted) */
  text[GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH] = '\r';
  script = parse_ok (W, text, -1);
  gst_session_control_script_unref (script);
  g_free (text);

  /* the longest director prompt fits in a line even fully escaped */
  prompt = repeat ("\\\\", 50000);
  text = g_strdup_printf ("0 prompt \"%s\"", prompt);
  script = parse_ok (D, text, -1);
  fail_unless_equals_int (strlen (action (script, 0)->text), 50000);
  gst_session_control_script_unref (script);
  g_free (text);
  g_free (prompt);
}

GST_END_TEST;

/* ---- files ---- */

static gchar *
write_temp (const gchar * contents, gssize length)
{
  GError *err = NULL;
  gchar *path;
  gint fd;

  fd = g_file_open_tmp ("controlscript-XXXXXX.txt", &path, &err);
  fail_unless (fd >= 0, "%s", err ? err->message : "");
  close (fd);
  fail_unless (g_file_set_contents (path, contents, length, &err), "%s",
      err ? err->message : "");
  return path;
}

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
  GstSessionApp app;
  gchar *path;
  GstSessionControlScript *script;
  GError *err;
} LoadJob;

static gpointer
load_job_run (gpointer data)
{
  LoadJob *job = data;
  GstSessionControlScript *script;
  GError *err = NULL;

  script = gst_session_control_script_load (job->app, job->path, &err);
  g_mutex_lock (&job->lock);
  job->script = script;
  job->err = err;
  job->done = TRUE;
  g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
  return NULL;
}

/* gst_session_control_script_load() in a thread: fails the test when it
 * has not returned within 5 s (a FIFO read without a writer blocks), so
 * that a loader that hangs fails instead of hanging the test */
static GstSessionControlScript *
load_bounded (GstSessionApp app, const gchar * path, GError ** error)
{
  LoadJob *job = g_new0 (LoadJob, 1);
  GstSessionControlScript *script;
  GThread *thread;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  gboolean done;

  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  job->app = app;
  job->path = g_strdup (path);
  thread = g_thread_new ("load", load_job_run, job);
  g_mutex_lock (&job->lock);
  while (!job->done)
    if (!g_cond_wait_until (&job->cond, &job->lock, deadline))
      break;
  done = job->done;
  g_mutex_unlock (&job->lock);
  if (!done) {
    /* the thread and @job stay: it may never return */
    g_thread_unref (thread);
    fail ("gst_session_control_script_load (%s) did not return within 5 s",
        path);
  }
  g_thread_join (thread);
  script = job->script;
  if (job->err)
    g_propagate_error (error, job->err);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job->path);
  g_free (job);
  return script;
}

GST_START_TEST (test_load_file)
{
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *path, *expected;

  path = write_temp (world_script, -1);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script),
      10);
  fail_unless_equals_string (action (script, 0)->preset, "desert-valley");
  fail_unless_equals_uint64 (action (script, 9)->time, 8250 * GST_MSECOND);
  gst_session_control_script_unref (script);

  /* the same file is not a director script: the path is in the error */
  script = gst_session_control_script_load (D, path, &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  expected = g_strdup_printf ("control-script %s line 2: \"reset\" is not a "
      "director action (prompt, ping, stop)", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_remove (path), 0);
  g_free (path);

  /* a file with a NUL byte */
  path = write_temp ("0 ping\n1 ping\0\n", 15);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script == NULL);
  expected = g_strdup_printf ("control-script %s line 2: a NUL byte is not "
      "allowed", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_remove (path), 0);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_load_errors)
{
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *path, *dir, *expected, *big;
  guint i;

  /* a missing file */
  dir = g_dir_make_tmp ("controlscript-XXXXXX", &err);
  fail_unless (dir != NULL);
  path = g_build_filename (dir, "steer.txt", NULL);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  expected = g_strdup_printf ("control-script %s: cannot open the file: %s",
      path, g_strerror (ENOENT));
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  g_free (path);

  /* a directory: refused before any read */
  script = load_bounded (W, dir, &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  expected = g_strdup_printf ("control-script %s: not a regular file (a "
      "directory); only regular files are read", dir);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_rmdir (dir), 0);
  g_free (dir);

  /* a file over the size limit: its size and the limit are named */
  big = g_malloc (GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  memset (big, '\n', GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  path = write_temp (big, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE + 1);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  expected = g_strdup_printf ("control-script %s: the file has 1048577 "
      "bytes, at most 1048576 allowed", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_remove (path), 0);
  g_free (path);

  /* exactly the limit still loads: a ping, then lines of 63 blanks */
  memset (big, ' ', GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
  for (i = 63; i < GST_SESSION_CONTROL_SCRIPT_MAX_SIZE; i += 64)
    big[i] = '\n';
  memcpy (big, "0 ping\n", 7);
  path = write_temp (big, GST_SESSION_CONTROL_SCRIPT_MAX_SIZE);
  g_free (big);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script != NULL, "%s", err ? err->message : "");
  fail_unless_equals_int (gst_session_control_script_get_n_actions (script), 1);
  gst_session_control_script_unref (script);
  fail_unless_equals_int (g_remove (path), 0);
  g_free (path);
}

GST_END_TEST;

/* A FIFO is refused at once: no open or read that waits for a writer.
 * Bounded (load_bounded): an old loader that blocks fails the test. */
GST_START_TEST (test_load_fifo)
{
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *dir, *path, *expected;

  dir = g_dir_make_tmp ("controlscript-XXXXXX", &err);
  fail_unless (dir != NULL, "%s", err ? err->message : "");
  path = g_build_filename (dir, "steer.fifo", NULL);
  fail_unless_equals_int (mkfifo (path, 0600), 0);
  script = load_bounded (W, path, &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  expected = g_strdup_printf ("control-script %s: not a regular file (a "
      "FIFO); only regular files are read", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_clear_error (&err);
  fail_unless_equals_int (g_remove (path), 0);
  fail_unless_equals_int (g_rmdir (dir), 0);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* A device is refused by its kind, not read: /dev/zero never ends */
GST_START_TEST (test_load_device)
{
  GstSessionControlScript *script;
  GError *err = NULL;

  if (!g_file_test ("/dev/zero", G_FILE_TEST_EXISTS)) {
    GST_INFO ("no /dev/zero: not run");
    return;
  }
  script = load_bounded (D, "/dev/zero", &err);
  fail_unless (script == NULL);
  fail_unless (g_error_matches (err, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT));
  fail_unless_equals_string (err->message, "control-script /dev/zero: not a "
      "regular file (a character device); only regular files are read");
  g_clear_error (&err);
}

GST_END_TEST;

/* The sample scripts of pipelines/ and every ```world-script and
 * ```director-script block of docs/control-script.md parse. */
GST_START_TEST (test_documented_scripts)
{
  const gchar *root = g_getenv ("GST_SESSION_SOURCE_ROOT");
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *path, *doc, **lines;
  GString *block = NULL;
  GstSessionApp app = W;
  guint i, n_blocks[2] = { 0, 0 };

  if (root == NULL) {
    GST_INFO ("GST_SESSION_SOURCE_ROOT is not set: not run");
    return;
  }

  path = g_build_filename (root, "pipelines", "steer-world.txt", NULL);
  script = gst_session_control_script_load (W, path, &err);
  fail_unless (script != NULL, "%s", err ? err->message : "");
  fail_unless (gst_session_control_script_get_n_actions (script) >= 5);
  fail_unless (action (script, gst_session_control_script_get_n_actions
          (script) - 1)->time <= 10 * GST_SECOND);
  gst_session_control_script_unref (script);
  g_free (path);

  path = g_build_filename (root, "pipelines", "steer-director.txt", NULL);
  script = gst_session_control_script_load (D, path, &err);
  fail_unless (script != NULL, "%s", err ? err->message : "");
  fail_unless (gst_session_control_script_get_n_actions (script) >= 2);
  gst_session_control_script_unref (script);
  g_free (path);

  path = g_build_filename (root, "docs", "control-script.md", NULL);
  fail_unless (g_file_get_contents (path, &doc, NULL, &err), "%s",
      err ? err->message : "");
  lines = g_strsplit (doc, "\n", -1);
  for (i = 0; lines[i]; i++) {
    if (block == NULL) {
      if (strcmp (lines[i], "```world-script") == 0) {
        app = W;
        block = g_string_new (NULL);
      } else if (strcmp (lines[i], "```director-script") == 0) {
        app = D;
        block = g_string_new (NULL);
      }
    } else if (strcmp (lines[i], "```") == 0) {
      script = gst_session_control_script_parse (app, block->str, -1, &err);
      fail_unless (script != NULL, "docs block before line %u: %s", i + 1,
          err ? err->message : "");
      fail_unless (gst_session_control_script_get_n_actions (script) > 0);
      gst_session_control_script_unref (script);
      g_string_free (block, TRUE);
      block = NULL;
      n_blocks[app]++;
    } else {
      g_string_append_printf (block, "%s\n", lines[i]);
    }
  }
  fail_unless (block == NULL);
  fail_unless (n_blocks[W] >= 2);
  fail_unless (n_blocks[D] >= 2);
  g_strfreev (lines);
  g_free (doc);
  g_free (path);
}

GST_END_TEST;

/* Mutations of valid scripts and random bytes: every input either parses or
 * fails with an error naming the control script; none crashes. The fuzzer
 * of tests/fuzz goes further. */
GST_START_TEST (test_garbage_never_crashes)
{
  static const gchar *const pieces[] = { "0", "1.5", "2:00", "500ms", " ",
    "\t", "\n", "\r\n", "\"", "\\", "#", "=", "+", "prompt", "commands",
    "press", "release", "activate", "reset", "ping", "stop", "forward",
    "backward", "look_left", "none", "preset=", "image-url=", "prompt=",
    "version=", "version=2", "é", "\xff", "\x01", "999999999999", ":", "."
  };
  GRand *rand = g_rand_new_with_seed (20261121);
  guint i, j, parsed = 0;

  for (i = 0; i < 20000; i++) {
    GString *s = g_string_new (NULL);
    guint n = g_rand_int_range (rand, 0, 24);
    GstSessionControlScript *script;
    GError *err = NULL;
    GstSessionApp app = g_rand_boolean (rand) ? W : D;

    if (i % 4 == 0) {
      /* a valid script with a few bytes changed */
      g_string_append (s, app == W ? world_script : director_script);
      for (j = 0; j < n % 4 + 1; j++)
        s->str[g_rand_int_range (rand, 0, s->len)] =
            (gchar) g_rand_int_range (rand, 0, 256);
    } else {
      for (j = 0; j < n; j++)
        g_string_append (s, pieces[g_rand_int_range (rand, 0,
                    G_N_ELEMENTS (pieces))]);
    }
    script = gst_session_control_script_parse (app, s->str, s->len, &err);
    if (script) {
      guint k, count = gst_session_control_script_get_n_actions (script);

      for (k = 0; k < count; k++) {
        const GstSessionControlAction *a =
            gst_session_control_script_get_action (script, k);

        fail_unless (a->line >= 1);
        fail_unless (k == 0 || a->time >=
            gst_session_control_script_get_action (script, k - 1)->time);
      }
      gst_session_control_script_unref (script);
      parsed++;
    } else {
      fail_unless (g_error_matches (err, GST_SESSION_ERROR,
              GST_SESSION_ERROR_INVALID_ARGUMENT));
      fail_unless (g_str_has_prefix (err->message, "control-script"));
      fail_unless (g_utf8_validate (err->message, -1, NULL));
      g_error_free (err);
    }
    g_string_free (s, TRUE);
  }
  /* both outcomes were exercised */
  fail_unless (parsed > 0);
  fail_unless (parsed < 20000);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
controlscript_input_suite (void)
{
  Suite *s = suite_create ("controlscript-input");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 60);
  tcase_add_test (tc, test_bad_bytes);
  tcase_add_test (tc, test_limits);
  tcase_add_test (tc, test_load_file);
  tcase_add_test (tc, test_load_errors);
  tcase_add_test (tc, test_load_fifo);
  tcase_add_test (tc, test_load_device);
  tcase_add_test (tc, test_documented_scripts);
  tcase_add_test (tc, test_garbage_never_crashes);
  return s;
}

GST_CHECK_MAIN (controlscript_input);
