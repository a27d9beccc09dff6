/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>
#include <gst/pbutils/pbutils.h>
#include <glib/gstdio.h>
#include <gio/gio.h>
#include <libsoup/soup.h>
#include <string.h>

#include "service-harness.h"

struct _ServiceHarness
{
  GSubprocess *proc;
  gchar *base_url;
};

static gchar *
service_binary (void)
{
  const gchar *root = g_getenv ("GST_SESSION_BUILD_ROOT");

  fail_unless (root != NULL, "GST_SESSION_BUILD_ROOT is not set");
  return g_build_filename (root, "tools", "service", "gst-session-service",
      NULL);
}

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

ServiceHarness *
service_harness_start (const gchar * first_arg, ...)
{
  ServiceHarness *h = g_new0 (ServiceHarness, 1);
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  GDataInputStream *in;
  GMainContext *ctx = g_main_context_new ();
  LineRead r = { NULL, FALSE };
  GError *err = NULL;
  const gchar *arg;
  gint64 deadline;
  va_list args;

  g_ptr_array_add (argv, service_binary ());
  g_ptr_array_add (argv, g_strdup ("--port=0"));
  va_start (args, first_arg);
  for (arg = first_arg; arg; arg = va_arg (args, const gchar *))
      g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  h->proc = g_subprocess_newv ((const gchar * const *) argv->pdata,
      G_SUBPROCESS_FLAGS_STDOUT_PIPE, &err);
  fail_unless (h->proc != NULL, "cannot start the service: %s",
      err ? err->message : "?");
  g_ptr_array_unref (argv);

  g_main_context_push_thread_default (ctx);
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (h->proc));
  g_data_input_stream_read_line_async (in, G_PRIORITY_DEFAULT, NULL, on_line,
      &r);
  deadline = g_get_monotonic_time () + 20 * G_TIME_SPAN_SECOND;
  while (!r.done && g_get_monotonic_time () < deadline) {
    if (!g_main_context_iteration (ctx, FALSE))
      g_usleep (2000);
  }
  g_main_context_pop_thread_default (ctx);
  fail_unless (r.line != NULL, "the service printed no URL in time");
  fail_unless (g_str_has_prefix (r.line, "http://127.0.0.1:"),
      "unexpected first line: %s", r.line);
  h->base_url = r.line;
  g_object_unref (in);
  g_main_context_unref (ctx);
  return h;
}

static void
on_service_exit (GObject * source, GAsyncResult * res, gpointer user_data)
{
  gboolean *done = user_data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), res, NULL);
  *done = TRUE;
}

void
service_harness_stop (ServiceHarness * h)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;
  GMainContext *ctx;
  gboolean done = FALSE, signaled;

  if (h == NULL)
    return;
  ctx = g_main_context_new ();
  g_main_context_push_thread_default (ctx);
  g_subprocess_wait_async (h->proc, NULL, on_service_exit, &done);
  g_subprocess_send_signal (h->proc, SIGTERM);
  while (!done && g_get_monotonic_time () < deadline) {
    if (!g_main_context_iteration (ctx, FALSE))
      g_usleep (5000);
  }
  if (!done) {
    g_subprocess_force_exit (h->proc);
    while (!done)
      g_main_context_iteration (ctx, TRUE);
  }
  g_main_context_pop_thread_default (ctx);
  g_main_context_unref (ctx);
  signaled = g_subprocess_get_if_signaled (h->proc);
  fail_unless (g_subprocess_get_if_exited (h->proc) &&
      g_subprocess_get_exit_status (h->proc) == 0,
      "the service did not exit cleanly on SIGTERM within 10 s (%s %d)",
      signaled ? "killed by signal" : "exit status", signaled ?
      g_subprocess_get_term_sig (h->proc) :
      g_subprocess_get_exit_status (h->proc));
  g_object_unref (h->proc);
  g_free (h->base_url);
  g_free (h);
}

/* threads of this process (each live session stage holds some: webrtcbin's,
 * libnice's) */
guint
service_harness_thread_count (void)
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

/* The name of a thread of this process that ran a DTLS streaming task of a
 * session (GStreamer names a task's thread after it: "nicesrc3:src" runs
 * dtlsdec, "dtlsenc3:src" dtlsenc, webrtcbin's "queue2:src" dtlsenc's
 * chain; the test pipelines have no queue of their own), or NULL. Such a
 * thread still alive once the element is in NULL ends later, on its own:
 * if the process exits meanwhile, OpenSSL's atexit cleanup and the
 * thread's own free the same state (SIGSEGV or SIGABRT after a run that
 * went well). Free it. */
gchar *
service_harness_dtls_thread (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  const gchar *tid;
  gchar *found = NULL;

  if (dir == NULL)
    return NULL;
  while (found == NULL && (tid = g_dir_read_name (dir))) {
    gchar *path = g_strdup_printf ("/proc/self/task/%s/comm", tid);
    gchar *comm = NULL;

    if (g_file_get_contents (path, &comm, NULL, NULL)) {
      g_strchomp (comm);
      if (g_str_has_prefix (comm, "nicesrc") ||
          g_str_has_prefix (comm, "dtlsenc") ||
          g_str_has_prefix (comm, "queue"))
        found = g_strdup_printf ("%s (thread %s)", comm, tid);
    }
    g_free (comm);
    g_free (path);
  }
  g_dir_close (dir);
  return found;
}

/* A checked teardown: waits (at most 3 s) until no thread of the process
 * has ended for 200 ms, so that the test process does not exit while
 * threads are still ending.
 *
 * A thread that ran DTLS frees OpenSSL's per-thread state as it ends,
 * while exit() runs OpenSSL's atexit cleanup (OPENSSL_cleanup), which
 * frees the same state: a double free or a SIGSEGV after the last check.
 * The stage's streaming threads are joined with its pipeline now
 * (gstsessiontaskpool.c, checked by service_harness_dtls_thread); what is
 * left is not the elements' to join: GStreamer 1.22's webrtcbin does not
 * join its own thread, and the DTLS timeouts run in a GLib shared pool. */
void
service_harness_settle_threads (void)
{
  gint64 deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  gint64 stable_since = g_get_monotonic_time ();
  guint n = service_harness_thread_count ();

  while (g_get_monotonic_time () < deadline &&
      g_get_monotonic_time () - stable_since < 200 * G_TIME_SPAN_MILLISECOND) {
    guint now;

    g_usleep (5000);
    now = service_harness_thread_count ();
    if (now != n) {
      n = now;
      stable_since = g_get_monotonic_time ();
    }
  }
}

const gchar *
service_harness_pid (ServiceHarness * h)
{
  return g_subprocess_get_identifier (h->proc);
}

const gchar *
service_harness_base_url (ServiceHarness * h)
{
  return h->base_url;
}

gchar *
service_harness_url (ServiceHarness * h, const gchar * app)
{
  return g_strdup_printf ("%s/%s/start-session", h->base_url, app);
}

struct _BusLog
{
  GstElement *pipeline;
  GMutex lock;
  GCond cond;
  GPtrArray *messages;
};

static GstBusSyncReply
bus_log_handler (GstBus * bus, GstMessage * msg, gpointer data)
{
  BusLog *log = data;

  g_mutex_lock (&log->lock);
  g_ptr_array_add (log->messages, gst_message_ref (msg));
  g_cond_broadcast (&log->cond);
  g_mutex_unlock (&log->lock);
  return GST_BUS_DROP;
}

BusLog *
bus_log_new (GstElement * pipeline)
{
  BusLog *log = g_new0 (BusLog, 1);
  GstBus *bus = gst_element_get_bus (pipeline);

  log->pipeline = gst_object_ref (pipeline);
  g_mutex_init (&log->lock);
  g_cond_init (&log->cond);
  log->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  gst_bus_set_sync_handler (bus, bus_log_handler, log, NULL);
  gst_object_unref (bus);
  return log;
}

void
bus_log_free (BusLog * log)
{
  GstBus *bus = gst_element_get_bus (log->pipeline);

  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (log->pipeline);
  g_ptr_array_unref (log->messages);
  g_mutex_clear (&log->lock);
  g_cond_clear (&log->cond);
  g_free (log);
}

static gboolean
matches (GstMessage * msg, GstMessageType type, const gchar * name)
{
  const GstStructure *s;

  if (!(GST_MESSAGE_TYPE (msg) & type))
    return FALSE;
  if (name == NULL)
    return TRUE;
  s = gst_message_get_structure (msg);
  return s && gst_structure_has_name (s, name);
}

static GstMessage *
find_locked (BusLog * log, GstMessageType type, const gchar * name, guint nth)
{
  guint i, seen = 0;

  for (i = 0; i < log->messages->len; i++) {
    GstMessage *msg = g_ptr_array_index (log->messages, i);

    if (matches (msg, type, name) && ++seen == nth)
      return gst_message_ref (msg);
  }
  return NULL;
}

GstMessage *
bus_log_wait (BusLog * log, GstMessageType type, const gchar * name,
    guint nth, GstClockTime timeout)
{
  gint64 deadline = g_get_monotonic_time () + timeout / GST_USECOND;
  GstMessage *msg;

  g_mutex_lock (&log->lock);
  while ((msg = find_locked (log, type, name, nth)) == NULL) {
    if (!g_cond_wait_until (&log->cond, &log->lock, deadline))
      break;
  }
  g_mutex_unlock (&log->lock);
  return msg;
}

guint
bus_log_count (BusLog * log, GstMessageType type, const gchar * name)
{
  guint i, n = 0;

  g_mutex_lock (&log->lock);
  for (i = 0; i < log->messages->len; i++)
    if (matches (g_ptr_array_index (log->messages, i), type, name))
      n++;
  g_mutex_unlock (&log->lock);
  return n;
}

void
bus_log_assert_no_error (BusLog * log)
{
  GstMessage *msg = bus_log_wait (log, GST_MESSAGE_ERROR, NULL, 1, 0);

  if (msg) {
    GError *err = NULL;
    gchar *dbg = NULL;

    gst_message_parse_error (msg, &err, &dbg);
    fail ("unexpected error from %s: %s (%s)",
        GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message,
        GST_STR_NULL (dbg));
  }
}

void
service_harness_post_faults (ServiceHarness * h, const gchar * json)
{
  SoupSession *session = soup_session_new_with_options ("timeout", 10, NULL);
  gchar *url = g_strconcat (h->base_url, "/admin/faults", NULL);
  SoupMessage *msg = soup_message_new (SOUP_METHOD_POST, url);
  GBytes *body = g_bytes_new (json, strlen (json));
  GBytes *answer;
  GError *error = NULL;
  guint status;

  soup_message_set_request_body_from_bytes (msg, "application/json", body);
  answer = soup_session_send_and_read (session, msg, NULL, &error);
  status = soup_message_get_status (msg);
  fail_unless (answer != NULL && SOUP_STATUS_IS_SUCCESSFUL (status),
      "POST /admin/faults %s: %s", json, error ? error->message :
      soup_status_get_phrase (status));
  g_bytes_unref (answer);
  g_bytes_unref (body);
  g_object_unref (msg);
  g_object_unref (session);
  g_free (url);
}

GstElement *
get_src (GstElement * pipeline)
{
  return gst_bin_get_by_name (GST_BIN (pipeline), "src");
}

void
stop_pipeline (GstElement * pipeline)
{
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

GstClockTime
recording_duration (const gchar * path)
{
  GstDiscoverer *disc = gst_discoverer_new (DISCOVER_TIMEOUT, NULL);
  gchar *uri = gst_filename_to_uri (path, NULL);
  GError *err = NULL;
  GstDiscovererInfo *info = gst_discoverer_discover_uri (disc, uri, &err);
  GstDiscovererResult result = info ? gst_discoverer_info_get_result (info) :
      GST_DISCOVERER_ERROR;
  GstClockTime duration = GST_CLOCK_TIME_NONE;
  GStatBuf st = { 0, };

  if (result != GST_DISCOVERER_OK) {
    g_stat (path, &st);
    fail ("gst-discoverer cannot read %s (%" G_GINT64_FORMAT " bytes): "
        "result %d, %s", path, (gint64) st.st_size, result,
        err ? err->message : "no error");
  }
  duration = gst_discoverer_info_get_duration (info);
  g_clear_error (&err);
  gst_discoverer_info_unref (info);
  g_object_unref (disc);
  g_free (uri);
  return duration;
}
