/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: what webhook listen does with a stored delivery, one at a
 * time. A run succeeds only when the result is durable (the command
 * exited 0; the JSONL line or the file is written and synced); only then
 * is the delivery marked processed.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <glib/gstdio.h>

#include "cli.h"
#include "process.h"

struct _CliProcessor
{
  CliProcessKind kind;
  gchar **argv;                 /* exec */
  guint exec_timeout;
  gchar *path;                  /* jsonl file or directory */
  gint fd;                      /* jsonl */
  /* the command running */
  GSubprocess *proc;
  pid_t pgid;                   /* the command's process group */
  guint timeout_id;
  guint kill_id;
  gboolean timed_out;
  gboolean interrupted;
};

gchar *
cli_process_file_name (const gchar * request_id)
{
  gsize len = strlen (request_id), i;
  gboolean plain = len > 0 && len <= 128 && request_id[0] != '.';

  for (i = 0; plain && i < len; i++) {
    gchar c = request_id[i];

    plain = g_ascii_isalnum (c) || c == '.' || c == '_' || c == '-';
  }
  if (plain)
    return g_strdup (request_id);
  return g_strconcat ("sha256-", g_compute_checksum_for_string
      (G_CHECKSUM_SHA256, request_id, len), NULL);
}

/* ---------------------------------------------------------------------- */
/* JSONL                                                                  */

/* Cuts a torn last line (a crash in the middle of an append): its
 * delivery was not marked processed and is written again. */
static gboolean
jsonl_repair (gint fd, const gchar * path, GError ** error)
{
  struct stat st;
  gchar buf[4096];
  off_t end, keep = 0;
  gboolean found = FALSE;

  if (fstat (fd, &st) != 0)
    goto fail;
  if (st.st_size == 0)
    return TRUE;
  if (pread (fd, buf, 1, st.st_size - 1) != 1)
    goto fail;
  if (buf[0] == '\n')
    return TRUE;
  for (end = st.st_size; end > 0 && !found;) {
    gsize n = MIN ((off_t) sizeof (buf), end);
    gssize i;

    if (pread (fd, buf, n, end - n) != (gssize) n)
      goto fail;
    for (i = n - 1; i >= 0 && !found; i--) {
      if (buf[i] == '\n') {
        keep = end - n + i + 1;
        found = TRUE;
      }
    }
    end -= n;
  }
  g_printerr ("gst-session: %s ends with a torn line (%" G_GINT64_FORMAT
      " bytes); cutting it\n", path, (gint64) (st.st_size - keep));
  if (ftruncate (fd, keep) != 0 || fsync (fd) != 0)
    goto fail;
  return TRUE;
fail:
  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
      "cannot check the end of %s: %s", path, g_strerror (errno));
  return FALSE;
}

static gboolean
jsonl_open (CliProcessor * p, GError ** error)
{
  gboolean created = !g_file_test (p->path, G_FILE_TEST_EXISTS);
  gchar *dir;
  gboolean ok;

  p->fd = open (p->path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (p->fd < 0) {
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
        "cannot open %s: %s", p->path, g_strerror (errno));
    return FALSE;
  }
  if (!jsonl_repair (p->fd, p->path, error))
    return FALSE;
  if (!created)
    return TRUE;
  dir = g_path_get_dirname (p->path);
  ok = cli_fsync_dir (dir, error);
  g_free (dir);
  return ok;
}

gchar *
cli_process_jsonl_record (const CliDelivery * d)
{
  gsize len = 0;
  const gchar *body = g_bytes_get_data (d->body, &len);
  GstSessionWebhookDelivery *delivery;
  SoupMessageHeaders *headers;
  JsonBuilder *b = json_builder_new ();
  JsonNode *root;
  gchar *text, *valid;

  delivery = gst_session_webhook_delivery_parse (body, len, MAX (len, 1),
      NULL, NULL);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "request_id");
  json_builder_add_string_value (b, d->request_id);
  if (delivery) {
    json_builder_set_member_name (b, "gateway_request_id");
    json_builder_add_string_value (b, delivery->gateway_request_id);
    json_builder_set_member_name (b, "status");
    json_builder_add_string_value (b, delivery->status ==
        GST_SESSION_WEBHOOK_STATUS_OK ? "OK" : "ERROR");
  }
  json_builder_set_member_name (b, "received_at");
  json_builder_add_int_value (b, d->received_at);
  headers = cli_headers_parse (d->headers, strlen (d->headers), NULL);
  if (headers) {
    json_builder_set_member_name (b, "headers");
    json_builder_add_value (b, cli_headers_to_json (headers));
    soup_message_headers_unref (headers);
  }
  /* the raw body as a string: byte for byte what was signed */
  valid = g_utf8_make_valid (body, len);
  json_builder_set_member_name (b, "body");
  json_builder_add_string_value (b, valid);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = cli_json_to_string (root, FALSE);
  json_node_unref (root);
  g_object_unref (b);
  g_free (valid);
  g_clear_pointer (&delivery, gst_session_webhook_delivery_free);
  return text;
}

static gboolean
jsonl_append (CliProcessor * p, const CliDelivery * d, GError ** error)
{
  gchar *record = cli_process_jsonl_record (d);
  gchar *line = g_strconcat (record, "\n", NULL);
  gsize len = strlen (line), done = 0;
  struct stat st;
  gint e = 0;

  if (fstat (p->fd, &st) != 0)
    e = errno;
  while (e == 0 && done < len) {
    gssize w = write (p->fd, line + done, len - done);

    if (w < 0 && errno == EINTR)
      continue;
    if (w < 0)
      e = errno;
    else
      done += w;
  }
  if (e == 0 && fsync (p->fd) != 0)
    e = errno;
  if (e != 0) {
    /* leave no torn line behind */
    if (ftruncate (p->fd, st.st_size) != 0)
      GST_WARNING ("cannot cut %s back", p->path);
    g_set_error (error, G_IO_ERROR, g_io_error_from_errno (e),
        "cannot append to %s: %s", p->path, g_strerror (e));
  }
  g_free (line);
  g_free (record);
  return e == 0;
}

/* ---------------------------------------------------------------------- */
/* directory                                                              */

static gboolean
dir_write (CliProcessor * p, const CliDelivery * d, GError ** error)
{
  gchar *name = cli_process_file_name (d->request_id);
  gchar *file = g_strconcat (name, ".headers", NULL);
  gchar *path = g_build_filename (p->path, file, NULL);
  gsize len = 0;
  const gchar *body = g_bytes_get_data (d->body, &len);
  gboolean ok;

  /* the headers first: a consumer looks for the .json */
  ok = cli_write_file_durably (path, d->headers, strlen (d->headers), error);
  g_free (path);
  g_free (file);
  if (ok) {
    file = g_strconcat (name, ".json", NULL);
    path = g_build_filename (p->path, file, NULL);
    ok = cli_write_file_durably (path, body, len, error);
    g_free (path);
    g_free (file);
  }
  g_free (name);
  return ok;
}

/* ---------------------------------------------------------------------- */
/* command                                                                */

typedef struct
{
  pid_t parent;
} ChildSetup;

static void
child_setup (gpointer user_data)
{
  ChildSetup *setup = user_data;

  /* the command dies with the listener (kill -9 included), so a restarted
   * listener does not run a second copy next to an orphan */
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (getppid () != setup->parent)
    _exit (127);
  signal (SIGPIPE, SIG_DFL);
  /* its own process group: a timeout ends what the command started too */
  setpgid (0, 0);
}

/* @sig to the command's process group (and to the command, should the
 * group not be there yet) */
static void
signal_group (CliProcessor * p, gint sig)
{
  if (p->pgid <= 0)
    return;
  if (kill (-p->pgid, sig) != 0 && p->proc &&
      g_subprocess_get_identifier (p->proc))
    g_subprocess_send_signal (p->proc, sig);
}

static void
clear_timers (CliProcessor * p)
{
  if (p->timeout_id)
    g_source_remove (p->timeout_id);
  if (p->kill_id)
    g_source_remove (p->kill_id);
  p->timeout_id = p->kill_id = 0;
}

static gboolean
on_kill (gpointer user_data)
{
  CliProcessor *p = user_data;

  p->kill_id = 0;
  signal_group (p, SIGKILL);
  return G_SOURCE_REMOVE;
}

static void
terminate (CliProcessor * p, guint grace_s)
{
  if (p->proc == NULL)
    return;
  signal_group (p, SIGTERM);
  if (p->kill_id == 0)
    p->kill_id = g_timeout_add_seconds (grace_s, on_kill, p);
}

static gboolean
on_exec_timeout (gpointer user_data)
{
  CliProcessor *p = user_data;

  p->timeout_id = 0;
  p->timed_out = TRUE;
  terminate (p, 5);
  return G_SOURCE_REMOVE;
}

/* The command has ended: its verdict. Only an exit status of 0, within the
 * time, is "processed". */
static void
finish_run (CliProcessor * p, GSubprocess * proc, GTask * task)
{
  /* a command stopped for its time or a shutdown: what it started in its
   * group goes with it */
  if (p->timed_out || p->interrupted)
    signal_group (p, SIGKILL);
  p->pgid = 0;
  clear_timers (p);
  if (p->timed_out)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
        "the command did not finish within %u s", p->exec_timeout);
  else if (p->interrupted)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
        "the command was interrupted");
  else if (g_subprocess_get_if_signaled (proc))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
        "the command was killed by signal %d",
        g_subprocess_get_term_sig (proc));
  else if (g_subprocess_get_exit_status (proc) != 0)
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
        "the command exited with status %d",
        g_subprocess_get_exit_status (proc));
  else
    g_task_return_boolean (task, TRUE);
  g_clear_object (&p->proc);
  g_object_unref (task);
}

static void
on_waited (GObject * source, GAsyncResult * res, gpointer user_data)
{
  GTask *task = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), res, NULL);
  finish_run (g_task_get_task_data (task), G_SUBPROCESS (source), task);
}

static void
on_communicated (GObject * source, GAsyncResult * res, gpointer user_data)
{
  GTask *task = user_data;
  GSubprocess *proc = G_SUBPROCESS (source);
  GError *error = NULL;

  if (!g_subprocess_communicate_finish (proc, res, NULL, NULL, &error)) {
    /* stdin could not be written (the command closed it): wait for its
     * end all the same, without blocking the receiver; the timeout still
     * runs */
    GST_INFO ("writing to the command: %s", error->message);
    g_clear_error (&error);
    g_subprocess_wait_async (proc, NULL, on_waited, task);
    return;
  }
  finish_run (g_task_get_task_data (task), proc, task);
}

static void
exec_run (CliProcessor * p, const CliDelivery * d, GTask * task)
{
  GSubprocessLauncher *launcher =
      g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE);
  ChildSetup *setup = g_new0 (ChildSetup, 1);
  GError *error = NULL;
  gchar *value;
  gint out;

  /* the command's stdout goes to our stderr: stdout is for our output */
  out = dup (STDERR_FILENO);
  if (out >= 0)
    g_subprocess_launcher_take_stdout_fd (launcher, out);
  setup->parent = getpid ();
  g_subprocess_launcher_set_child_setup (launcher, child_setup, setup, g_free);
  g_subprocess_launcher_unsetenv (launcher, CLI_API_KEY_ENV);
  g_subprocess_launcher_setenv (launcher, "GST_SESSION_REQUEST_ID",
      d->request_id, TRUE);
  value = g_strdup_printf ("%" G_GINT64_FORMAT, d->received_at);
  g_subprocess_launcher_setenv (launcher, "GST_SESSION_RECEIVED_AT", value,
      TRUE);
  g_free (value);
  value = g_strdup_printf ("%u", d->attempts + 1);
  g_subprocess_launcher_setenv (launcher, "GST_SESSION_ATTEMPT", value, TRUE);
  g_free (value);

  p->timed_out = p->interrupted = FALSE;
  p->proc = g_subprocess_launcher_spawnv (launcher,
      (const gchar * const *) p->argv, &error);
  g_object_unref (launcher);
  if (p->proc == NULL) {
    g_task_return_error (task, error);
    g_object_unref (task);
    return;
  }
  /* NULL once the command has ended and been reaped: a command that exits
   * at once can be gone already (then there is no group to signal) */
  {
    const gchar *id = g_subprocess_get_identifier (p->proc);

    p->pgid = id ? (pid_t) g_ascii_strtoll (id, NULL, 10) : 0;
  }
  if (p->exec_timeout)
    p->timeout_id = g_timeout_add_seconds (p->exec_timeout, on_exec_timeout, p);
  g_subprocess_communicate_async (p->proc, d->body, NULL, on_communicated,
      task);
}

/* ---------------------------------------------------------------------- */

CliProcessor *
cli_processor_new (CliProcessKind kind, const gchar * target,
    guint exec_timeout_s, GError ** error)
{
  CliProcessor *p = g_new0 (CliProcessor, 1);
  GError *err = NULL;

  p->kind = kind;
  p->fd = -1;
  p->exec_timeout = exec_timeout_s;
  switch (kind) {
    case CLI_PROCESS_EXEC:
      /* a command that does not read all its stdin must not kill us
       * (the children get the default back in child_setup) */
      signal (SIGPIPE, SIG_IGN);
      if (!g_shell_parse_argv (target, NULL, &p->argv, &err)) {
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
            "--exec: %s", err->message);
        g_clear_error (&err);
        goto fail;
      }
      break;
    case CLI_PROCESS_JSONL:
      p->path = g_strdup (target);
      if (!jsonl_open (p, error))
        goto fail;
      break;
    case CLI_PROCESS_DIR:
      p->path = g_strdup (target);
      if (g_mkdir_with_parents (target, 0700) != 0) {
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errno),
            "cannot create the directory %s: %s", target, g_strerror (errno));
        goto fail;
      }
      break;
  }
  return p;
fail:
  cli_processor_free (p);
  return NULL;
}

void
cli_processor_free (CliProcessor * p)
{
  if (p == NULL)
    return;
  clear_timers (p);
  signal_group (p, SIGKILL);
  g_clear_object (&p->proc);
  if (p->fd >= 0)
    close (p->fd);
  g_strfreev (p->argv);
  g_free (p->path);
  g_free (p);
}

void
cli_processor_run_async (CliProcessor * p, const CliDelivery * d,
    GAsyncReadyCallback callback, gpointer user_data)
{
  GTask *task = g_task_new (NULL, NULL, callback, user_data);
  GError *error = NULL;
  gboolean ok;

  g_task_set_source_tag (task, cli_processor_run_async);
  /* the processor outlives every run */
  g_task_set_task_data (task, p, NULL);
  if (p->kind == CLI_PROCESS_EXEC) {
    exec_run (p, d, task);
    return;
  }
  ok = p->kind == CLI_PROCESS_JSONL ? jsonl_append (p, d, &error) :
      dir_write (p, d, &error);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  g_object_unref (task);
}

gboolean
cli_processor_run_finish (CliProcessor * p, GAsyncResult * result,
    GError ** error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

void
cli_processor_interrupt (CliProcessor * p, guint grace_s)
{
  if (p->proc == NULL)
    return;
  p->interrupted = TRUE;
  terminate (p, grace_s);
}
