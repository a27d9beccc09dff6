/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reference service as a child process of a test: on 127.0.0.1, port
 * 0, its URL read from its first line of output, its log kept. And the
 * checked teardown of the suites that lets ending threads end. Every wait
 * is a bounded wait.
 */

#include <signal.h>
#include <stdlib.h>
#include <gio/gio.h>

#include "svc-process.h"

/* ---------------------------------------------------------------- *
 * the service process
 * ---------------------------------------------------------------- */

struct _SvcProcess
{
  GSubprocess *process;
  gchar *url;
  GThread *log_thread;
  GMutex lock;
  GString *log;                 /* lock */
};

static gpointer read_log (gpointer data);

SvcProcess *
svc_process_start (const gchar * first_arg, ...)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  const gchar *root = g_getenv ("GST_SESSION_BUILD_ROOT");
  SvcProcess *p = g_new0 (SvcProcess, 1);
  GError *error = NULL;
  GDataInputStream *out;
  const gchar *arg;
  va_list args;

  g_assert (root != NULL);
  g_ptr_array_add (argv, g_build_filename (root, "tools", "service",
          "gst-session-service", NULL));
  g_ptr_array_add (argv, g_strdup ("--port=0"));
  va_start (args, first_arg);
  for (arg = first_arg; arg; arg = va_arg (args, const gchar *))
      g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  p->process = g_subprocess_newv ((const gchar * const *) argv->pdata,
      G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_ptr_array_unref (argv);
  g_mutex_init (&p->lock);
  p->log = g_string_new (NULL);
  p->log_thread = g_thread_new ("svc-log", read_log, p);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p->process));
  p->url = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_object_unref (out);
  g_assert_no_error (error);
  g_assert (p->url != NULL);
  g_assert (g_str_has_prefix (p->url, "http://127.0.0.1:"));
  return p;
}

const gchar *
svc_process_url (SvcProcess * p)
{
  return p->url;
}

gint
svc_process_pid (SvcProcess * p)
{
  const gchar *id = g_subprocess_get_identifier (p->process);

  g_assert (id != NULL);
  return atoi (id);
}

static void
on_exited (GObject * source, GAsyncResult * result, gpointer data)
{
  gboolean *done = data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *done = TRUE;
}

static gboolean
on_deadline (gpointer data)
{
  gboolean *late = data;

  *late = TRUE;
  return G_SOURCE_REMOVE;
}

static gpointer
read_log (gpointer data)
{
  SvcProcess *p = data;
  GDataInputStream *in =
      g_data_input_stream_new (g_subprocess_get_stderr_pipe (p->process));
  gchar *line;

  while ((line = g_data_input_stream_read_line (in, NULL, NULL, NULL))) {
    g_printerr ("service: %s\n", line);
    g_mutex_lock (&p->lock);
    g_string_append_printf (p->log, "%s\n", line);
    g_mutex_unlock (&p->lock);
    g_free (line);
  }
  g_object_unref (in);
  return NULL;
}

/* SIGTERM, then a bounded wait: the exit status, 128 + the signal when a
 * signal ended it (139: SIGSEGV), or -1 when the service did not exit in
 * time. *@log (optional) gets what it wrote on stderr. */
gint
svc_process_stop (SvcProcess * p, gchar ** log)
{
  gboolean done = FALSE, late = FALSE;
  guint timer;
  gint status = -1;

  g_subprocess_send_signal (p->process, SIGTERM);
  g_subprocess_wait_async (p->process, NULL, on_exited, &done);
  timer = g_timeout_add (10000, on_deadline, &late);
  while (!done && !late)
    g_main_context_iteration (NULL, TRUE);
  if (!late)
    g_source_remove (timer);
  if (done && g_subprocess_get_if_exited (p->process))
    status = g_subprocess_get_exit_status (p->process);
  else if (done && g_subprocess_get_if_signaled (p->process))
    status = 128 + g_subprocess_get_term_sig (p->process);
  if (!done) {
    g_subprocess_force_exit (p->process);
    while (!done)
      g_main_context_iteration (NULL, TRUE);
  }
  g_thread_join (p->log_thread);
  if (log)
    *log = g_strdup (p->log->str);
  g_string_free (p->log, TRUE);
  g_mutex_clear (&p->lock);
  g_object_unref (p->process);
  g_free (p->url);
  g_free (p);
  return status;
}

/* ---------------------------------------------------------------- *
 * the test process's threads
 * ---------------------------------------------------------------- */

static guint
thread_count (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  guint n = 0;

  if (dir == NULL)
    return 0;
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

/* A checked teardown (tcase_add_checked_fixture): GST_END_TEST has freed
 * GStreamer's task pool, so the streaming threads of the test's
 * webrtcbins end now; those that ran DTLS free OpenSSL's per-thread state
 * as they end, and exit() runs OpenSSL's atexit cleanup, which frees the
 * same state (a double free or a SIGSEGV in the test process after its
 * last check). GLib's idle pool threads are told to end, then this waits
 * (at most 3 s) until no thread has ended for 200 ms. As the element
 * suites do (tests/elements/service-harness.c). */
void
svc_settle_threads (void)
{
  gint64 deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  gint64 stable_since = g_get_monotonic_time ();
  guint n = thread_count ();

  while (g_get_monotonic_time () < deadline &&
      g_get_monotonic_time () - stable_since < 200 * G_TIME_SPAN_MILLISECOND) {
    guint now;

    g_thread_pool_stop_unused_threads ();
    g_usleep (5000);
    now = thread_count ();
    if (now != n) {
      n = now;
      stable_since = g_get_monotonic_time ();
    }
  }
}
