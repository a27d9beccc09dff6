/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <string.h>
#include <glib/gstdio.h>

#include "cli-harness.h"

gchar *
cli_binary (void)
{
  const gchar *root = g_getenv ("GST_SESSION_BUILD_ROOT");

  fail_unless (root != NULL, "GST_SESSION_BUILD_ROOT is not set");
  return g_build_filename (root, "tools", "cli", "gst-session", NULL);
}

void
cli_run_free (CliRun * run)
{
  if (run == NULL)
    return;
  g_free (run->out);
  g_free (run->err);
  g_free (run);
}

typedef struct
{
  gboolean done;
  gchar *out;
  gchar *err;
} Communicated;

static void
on_communicated (GObject * source, GAsyncResult * res, gpointer user_data)
{
  Communicated *c = user_data;

  g_subprocess_communicate_utf8_finish (G_SUBPROCESS (source), res, &c->out,
      &c->err, NULL);
  c->done = TRUE;
}

static gboolean
communicated (gpointer user_data)
{
  return ((Communicated *) user_data)->done;
}

gboolean
cli_wait_for (CliCondFunc func, gpointer user_data, guint timeout_ms)
{
  GMainContext *ctx = g_main_context_get_thread_default ();
  gint64 deadline = g_get_monotonic_time () + timeout_ms * (gint64) 1000;

  while (!func (user_data)) {
    if (g_get_monotonic_time () >= deadline)
      return FALSE;
    if (!g_main_context_iteration (ctx, FALSE))
      g_usleep (2000);
  }
  return TRUE;
}

CliRun *
cli_run_full (const gchar * const *env, const gchar * stdin_text,
    guint timeout_s, const gchar * const *args)
{
  GSubprocessLauncher *launcher =
      g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
      G_SUBPROCESS_FLAGS_STDERR_PIPE | G_SUBPROCESS_FLAGS_STDIN_PIPE);
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  Communicated c = { FALSE, NULL, NULL };
  GSubprocess *proc;
  GError *error = NULL;
  CliRun *run;

  g_ptr_array_add (argv, cli_binary ());
  for (; args && *args; args++)
    g_ptr_array_add (argv, g_strdup (*args));
  g_ptr_array_add (argv, NULL);
  /* the tests' environment must not leak a key into the runs */
  g_subprocess_launcher_unsetenv (launcher, "GST_SESSION_API_KEY");
  for (; env && *env; env++) {
    const gchar *eq = strchr (*env, '=');
    gchar *name = g_strndup (*env, eq - *env);

    if (eq[1] == '\0')
      g_subprocess_launcher_unsetenv (launcher, name);
    else
      g_subprocess_launcher_setenv (launcher, name, eq + 1, TRUE);
    g_free (name);
  }
  proc = g_subprocess_launcher_spawnv (launcher,
      (const gchar * const *) argv->pdata, &error);
  fail_unless (proc != NULL, "cannot run gst-session: %s",
      error ? error->message : "?");
  g_subprocess_communicate_utf8_async (proc, stdin_text, NULL,
      on_communicated, &c);
  if (!cli_wait_for (communicated, &c, timeout_s * 1000)) {
    g_subprocess_force_exit (proc);
    cli_wait_for (communicated, &c, 5000);
    fail ("gst-session %s did not finish within %u s",
        (gchar *) argv->pdata[1], timeout_s);
  }
  g_subprocess_wait (proc, NULL, NULL);
  run = g_new0 (CliRun, 1);
  run->status = g_subprocess_get_if_exited (proc) ?
      g_subprocess_get_exit_status (proc) : -1;
  run->out = c.out ? c.out : g_strdup ("");
  run->err = c.err ? c.err : g_strdup ("");
  GST_INFO ("gst-session %s: %d\nstdout: %s\nstderr: %s",
      (gchar *) argv->pdata[1], run->status, run->out, run->err);
  g_object_unref (proc);
  g_object_unref (launcher);
  g_ptr_array_unref (argv);
  return run;
}

CliRun *
cli_run (const gchar * first_arg, ...)
{
  GPtrArray *args = g_ptr_array_new ();
  const gchar *arg;
  CliRun *run;
  va_list ap;

  va_start (ap, first_arg);
  for (arg = first_arg; arg; arg = va_arg (ap, const gchar *))
      g_ptr_array_add (args, (gpointer) arg);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  run = cli_run_full (NULL, NULL, 30, (const gchar * const *) args->pdata);
  g_ptr_array_unref (args);
  return run;
}

/* ---------------------------------------------------------------------- */

static gchar *tmp_dir;

gchar *
cli_tmp_path (const gchar * name)
{
  if (tmp_dir == NULL) {
    tmp_dir = g_dir_make_tmp ("gst-session-cli-XXXXXX", NULL);
    fail_unless (tmp_dir != NULL);
  }
  return g_build_filename (tmp_dir, name, NULL);
}

static void
remove_tree (const gchar * path)
{
  GDir *dir = g_dir_open (path, 0, NULL);
  const gchar *name;

  while (dir && (name = g_dir_read_name (dir))) {
    gchar *child = g_build_filename (path, name, NULL);

    if (g_file_test (child, G_FILE_TEST_IS_DIR) &&
        !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
      remove_tree (child);
    else
      g_unlink (child);
    g_free (child);
  }
  if (dir)
    g_dir_close (dir);
  g_rmdir (path);
}

void
cli_tmp_cleanup (void)
{
  if (tmp_dir)
    remove_tree (tmp_dir);
  g_clear_pointer (&tmp_dir, g_free);
  test_keys_cleanup ();
}

/* ---------------------------------------------------------------------- */

static guint serial;

gchar *
cli_jwks (const TestKey * first, ...)
{
  GString *s = g_string_new ("{\"keys\": [");
  const TestKey *key;
  gboolean comma = FALSE;
  va_list ap;

  va_start (ap, first);
  for (key = first; key; key = va_arg (ap, const TestKey *))
  {
    g_string_append_printf (s, "%s{\"kty\": \"OKP\", \"crv\": \"Ed25519\", "
        "\"x\": \"%s\"}", comma ? ", " : "", key->x);
    comma = TRUE;
  }
  va_end (ap);
  g_string_append (s, "]}");
  return g_string_free (s, FALSE);
}

gchar *
cli_delivery_body (const gchar * request_id)
{
  return g_strdup_printf ("{\"request_id\": \"%s\", \"gateway_request_id\": "
      "\"%s\", \"status\": \"OK\", \"payload\": {\"images\": "
      "[{\"url\": \"https://example.invalid/a.png\"}], \"seed\": 42}}",
      request_id, request_id);
}

gchar *
cli_delivery_headers (const TestKey * key, const gchar * request_id,
    const gchar * user_id, gint64 timestamp, const gchar * body)
{
  gchar *ts = g_strdup_printf ("%" G_GINT64_FORMAT, timestamp);
  gchar *sig = test_key_sign_delivery (key, request_id, user_id, ts, body,
      strlen (body));
  gchar *text = g_strdup_printf ("POST /hook HTTP/1.1\r\n"
      "Content-Type: application/json\r\n"
      "X-Svc-Webhook-Request-Id: %s\r\n"
      "X-Svc-Webhook-User-Id: %s\r\n"
      "X-Svc-Webhook-Timestamp: %s\r\n"
      "X-Svc-Webhook-Signature: %s\r\n", request_id, user_id, ts, sig);

  g_free (ts);
  g_free (sig);
  return text;
}

/* ---------------------------------------------------------------------- */
/* children                                                               */

typedef struct
{
  gchar *line;
  gboolean done;
} LineRead;

static void
on_line (GObject * source, GAsyncResult * res, gpointer user_data)
{
  LineRead *r = user_data;

  r->line = g_data_input_stream_read_line_finish (G_DATA_INPUT_STREAM
      (source), res, NULL, NULL);
  r->done = TRUE;
}

static gboolean
line_read (gpointer user_data)
{
  return ((LineRead *) user_data)->done;
}

static CliChild *
child_start (const gchar * const *env, GPtrArray * argv)
{
  GSubprocessLauncher *launcher =
      g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  CliChild *child = g_new0 (CliChild, 1);
  GDataInputStream *in;
  LineRead r = { NULL, FALSE };
  GError *error = NULL;
  gchar *name;

  name = g_strdup_printf ("child%u.err", serial++);
  child->err_path = cli_tmp_path (name);
  g_free (name);
  g_subprocess_launcher_set_stderr_file_path (launcher, child->err_path);
  g_subprocess_launcher_unsetenv (launcher, "GST_SESSION_API_KEY");
  for (; env && *env; env++) {
    const gchar *eq = strchr (*env, '=');
    gchar *var = g_strndup (*env, eq - *env);

    g_subprocess_launcher_setenv (launcher, var, eq + 1, TRUE);
    g_free (var);
  }
  g_ptr_array_add (argv, NULL);
  child->proc = g_subprocess_launcher_spawnv (launcher,
      (const gchar * const *) argv->pdata, &error);
  fail_unless (child->proc != NULL, "cannot start %s: %s",
      (gchar *) argv->pdata[0], error ? error->message : "?");
  g_object_unref (launcher);

  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (child->proc));
  g_data_input_stream_read_line_async (in, G_PRIORITY_DEFAULT, NULL, on_line,
      &r);
  if (!cli_wait_for (line_read, &r, 20000)) {
    gchar *err = cli_child_stderr (child);

    fail ("%s printed no URL within 20 s; stderr: %s",
        (gchar *) argv->pdata[0], err);
  }
  if (r.line == NULL || !g_str_has_prefix (r.line, "http://127.0.0.1:")) {
    gchar *err = cli_child_stderr (child);

    fail ("%s: unexpected first line \"%s\"; stderr: %s",
        (gchar *) argv->pdata[0], r.line ? r.line : "(none)", err);
  }
  child->url = r.line;
  g_object_unref (in);
  return child;
}

CliChild *
cli_service_start (const gchar * first_arg, ...)
{
  const gchar *root = g_getenv ("GST_SESSION_BUILD_ROOT");
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  const gchar *arg;
  CliChild *child;
  va_list ap;

  fail_unless (root != NULL);
  g_ptr_array_add (argv, g_build_filename (root, "tools", "service",
          "gst-session-service", NULL));
  g_ptr_array_add (argv, g_strdup ("--port=0"));
  va_start (ap, first_arg);
  for (arg = first_arg; arg; arg = va_arg (ap, const gchar *))
      g_ptr_array_add (argv, g_strdup (arg));
  va_end (ap);
  child = child_start (NULL, argv);
  g_ptr_array_unref (argv);
  return child;
}

CliChild *
cli_listener_start (const gchar * const *env, const gchar * const *args)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  CliChild *child;

  g_ptr_array_add (argv, cli_binary ());
  for (; *args; args++)
    g_ptr_array_add (argv, g_strdup (*args));
  child = child_start (env, argv);
  g_ptr_array_unref (argv);
  return child;
}

typedef struct
{
  gboolean done;
} Waited;

static void
on_waited (GObject * source, GAsyncResult * res, gpointer user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), res, NULL);
  ((Waited *) user_data)->done = TRUE;
}

static gboolean
waited (gpointer user_data)
{
  return ((Waited *) user_data)->done;
}

static gboolean
child_wait (CliChild * child, guint timeout_ms)
{
  Waited w = { FALSE };

  g_subprocess_wait_async (child->proc, NULL, on_waited, &w);
  if (cli_wait_for (waited, &w, timeout_ms))
    return TRUE;
  g_subprocess_force_exit (child->proc);
  cli_wait_for (waited, &w, 5000);
  return FALSE;
}

void
cli_child_stop (CliChild * child)
{
  gboolean in_time;

  g_subprocess_send_signal (child->proc, SIGTERM);
  in_time = child_wait (child, 15000);
  fail_unless (in_time, "%s did not stop within 15 s of SIGTERM", child->url);
  fail_unless (g_subprocess_get_if_exited (child->proc) &&
      g_subprocess_get_exit_status (child->proc) == 0,
      "%s did not exit 0 on SIGTERM", child->url);
}

void
cli_child_kill (CliChild * child)
{
  g_subprocess_send_signal (child->proc, SIGKILL);
  fail_unless (child_wait (child, 10000));
}

gchar *
cli_child_stderr (CliChild * child)
{
  gchar *text = NULL;

  if (!g_file_get_contents (child->err_path, &text, NULL, NULL))
    text = g_strdup ("");
  return text;
}

guint
cli_child_stderr_count (CliChild * child, const gchar * needle)
{
  gchar *text = cli_child_stderr (child);
  const gchar *p = text;
  guint n = 0;

  while ((p = strstr (p, needle)) != NULL) {
    n++;
    p += strlen (needle);
  }
  g_free (text);
  return n;
}

typedef struct
{
  CliChild *child;
  const gchar *needle;
  guint n;
} StderrWait;

static gboolean
stderr_has (gpointer user_data)
{
  StderrWait *w = user_data;

  return cli_child_stderr_count (w->child, w->needle) >= w->n;
}

gboolean
cli_child_wait_stderr (CliChild * child, const gchar * needle, guint n,
    guint timeout_ms)
{
  StderrWait w = { child, needle, n };

  return cli_wait_for (stderr_has, &w, timeout_ms);
}

void
cli_child_free (CliChild * child)
{
  if (child == NULL)
    return;
  if (g_subprocess_get_identifier (child->proc)) {
    g_subprocess_force_exit (child->proc);
    child_wait (child, 5000);
  }
  g_object_unref (child->proc);
  g_free (child->url);
  g_free (child->err_path);
  g_free (child);
}

/* ---------------------------------------------------------------------- */

guint
cli_http (const gchar * method, const gchar * url, const gchar * body,
    gchar ** answer)
{
  SoupSession *session = soup_session_new_with_options ("timeout", 10, NULL);
  SoupMessage *msg = soup_message_new (method, url);
  GBytes *bytes;
  guint status;

  fail_unless (msg != NULL, "bad URL %s", url);
  if (body) {
    GBytes *b = g_bytes_new (body, strlen (body));

    soup_message_set_request_body_from_bytes (msg, "application/json", b);
    g_bytes_unref (b);
  }
  bytes = soup_session_send_and_read (session, msg, NULL, NULL);
  status = soup_message_get_status (msg);
  if (answer)
    *answer = bytes ? g_strndup (g_bytes_get_data (bytes, NULL),
        g_bytes_get_size (bytes)) : g_strdup ("");
  if (bytes)
    g_bytes_unref (bytes);
  g_object_unref (msg);
  g_object_unref (session);
  return status;
}

gchar **
cli_read_lines (const gchar * path)
{
  gchar *text = NULL, **lines;
  gsize len;

  if (!g_file_get_contents (path, &text, &len, NULL))
    return NULL;
  /* a last line without its newline is torn: not counted */
  if (len > 0 && text[len - 1] == '\n')
    text[len - 1] = '\0';
  else if (len > 0)
    *(strrchr (text, '\n') ? strrchr (text, '\n') : text) = '\0';
  lines = *text ? g_strsplit (text, "\n", -1) : g_new0 (gchar *, 1);
  g_free (text);
  return lines;
}

typedef struct
{
  const gchar *path;
  guint n;
} LinesWait;

static gboolean
has_lines (gpointer user_data)
{
  LinesWait *w = user_data;
  gchar **lines = cli_read_lines (w->path);
  gboolean ok = lines && g_strv_length (lines) >= w->n;

  g_strfreev (lines);
  return ok;
}

gboolean
cli_wait_lines (const gchar * path, guint n, guint timeout_ms)
{
  LinesWait w = { path, n };

  return cli_wait_for (has_lines, &w, timeout_ms);
}
