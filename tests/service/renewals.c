/* gst-session: sessions of the reference service renewed back to back
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What a client that renews its session again and again (worldsrc
 * renew=true) meets: every start answered, the runner free again as soon
 * as the last session's client closed its event stream. Every wait is a
 * bounded wait.
 */

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000

/* GET /healthz with a bounded wait: the sessions it counts, -1 when no
 * answer came in @timeout_ms */
static gint64
healthz_sessions (SvcProcess * p, gint timeout_ms)
{
  SoupSession *session = soup_session_new_with_options ("timeout",
      (guint) MAX (1, timeout_ms / 1000), NULL);
  gchar *url = g_strdup_printf ("%s/healthz", svc_process_url (p));
  SoupMessage *msg = soup_message_new ("GET", url);
  JsonParser *parser = json_parser_new ();
  GBytes *bytes;
  gint64 n = -1;

  bytes = soup_session_send_and_read (session, msg, NULL, NULL);
  if (bytes && soup_message_get_status (msg) == 200 &&
      json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL),
          g_bytes_get_size (bytes), NULL)) {
    JsonObject *sessions =
        json_object_get_object_member (json_node_get_object
        (json_parser_get_root (parser)), "sessions");

    n = json_object_get_int_member (sessions, "world") +
        json_object_get_int_member (sessions, "director");
  }
  if (bytes)
    g_bytes_unref (bytes);
  g_object_unref (parser);
  g_object_unref (msg);
  g_object_unref (session);
  g_free (url);
  return n;
}

/* TRUE once the service counts no session; FALSE when it does after
 * @timeout_ms, or does not answer */
static gboolean
wait_no_sessions (SvcProcess * p, gint timeout_ms)
{
  gint64 deadline =
      g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  gint64 n;

  while ((n = healthz_sessions (p, timeout_ms)) > 0 &&
      g_get_monotonic_time () < deadline)
    g_usleep (10000);
  return n == 0;
}

/* The service's webrtcbins all draw one SCTP association id (the shim
 * preloaded): the second session's would be the first one's, kept 2 s
 * after the first session ended. sctpdec and sctpenc refused it ("Association
 * already in use!"): no data channel, and the sctpenc left its source
 * pad's task running in READY, which the pipeline's last unref joined
 * for ever, the service's main thread with it: no start-session answered
 * again (what a renewing client saw as a start not answered in 15 s).
 * Three sessions one after the other: each gets its channel, and the
 * service answers afterwards. */
GST_START_TEST (test_sessions_share_no_sctp_association)
{
  gchar *shim = g_build_filename (g_getenv ("GST_SESSION_BUILD_ROOT"),
      "tests", "service", "libsctp-id-shim.so", NULL);
  SvcProcess *p;
  GString *failure = g_string_new (NULL);
  gint status;
  guint i;

  fail_unless (g_file_test (shim, G_FILE_TEST_EXISTS), "no %s", shim);
  g_setenv ("LD_PRELOAD", shim, TRUE);
  /* two runners: the next start need not wait for the last session's end */
  p = svc_process_start ("--media=cached", "--runners=2", NULL);
  g_unsetenv ("LD_PRELOAD");
  g_free (shim);

  for (i = 1; i <= 3 && failure->len == 0; i++) {
    SvcClient *c = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD,
        NULL);
    guint start = svc_client_start (c);

    if (start != 200)
      g_string_append_printf (failure, "session %u: start-session answered "
          "%u", i, start);
    else if (!svc_client_wait_message (c, "session_info", TIMEOUT))
      /* sent once the service's end of the channel opened */
      g_string_append_printf (failure, "session %u: no session_info in %d "
          "ms: the control channel did not open", i, TIMEOUT);
    svc_client_free (c);
  }
  if (failure->len == 0 && !wait_no_sessions (p, TIMEOUT))
    g_string_append (failure, "the sessions did not end");
  if (healthz_sessions (p, TIMEOUT) < 0)
    g_string_append_printf (failure, "%sthe service did not answer "
        "/healthz in %d ms after the sessions", failure->len ? "; " : "",
        TIMEOUT);
  /* before anything fails: a hung service is killed */
  status = svc_process_stop (p, NULL);
  fail_unless (failure->len == 0, "%s (the service's exit status: %d)",
      failure->str, status);
  fail_unless_equals_int (status, 0);
  g_string_free (failure, TRUE);
}

GST_END_TEST;

/* What the established connections to @port hold unread, from
 * /proc/net/tcp (IPv4: the service listens on 127.0.0.1) */
static guint
unread_at_port (guint port)
{
  gchar *text = NULL, **lines, *want;
  guint total = 0, i;

  if (!g_file_get_contents ("/proc/net/tcp", &text, NULL, NULL))
    return 0;
  want = g_strdup_printf (":%04X", port);
  lines = g_strsplit (text, "\n", -1);
  /* "sl local rem st tx_queue:rx_queue ...", one socket a line */
  for (i = 1; lines[i]; i++) {
    gchar **f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
    gchar **w = g_new0 (gchar *, g_strv_length (f) + 1);
    guint n = 0, j;

    for (j = 0; f[j]; j++)
      if (f[j][0])
        w[n++] = f[j];
    if (n > 4 && g_str_has_suffix (w[1], want) && g_str_equal (w[3], "01")
        && strchr (w[4], ':'))
      total += g_ascii_strtoull (strchr (w[4], ':') + 1, NULL, 16);
    g_free (w);
    g_strfreev (f);
  }
  g_strfreev (lines);
  g_free (want);
  g_free (text);
  return total;
}

typedef struct
{
  gint pid;
  guint port;
} Stopped;

/* Stops the service, and waits (at most 5 s) until its main thread is
 * stopped: kill() returns before, and what arrives meanwhile could still
 * be seen by the poll it was in */
static gboolean
stop_service (gint pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/stat", pid), *text = NULL;
  gint64 deadline = g_get_monotonic_time () + TIMEOUT * 1000;
  gboolean stopped = FALSE;

  if (kill (pid, SIGSTOP) != 0)
    return FALSE;
  while (!stopped && g_get_monotonic_time () < deadline) {
    /* "pid (comm) state ..." */
    if (g_file_get_contents (path, &text, NULL, NULL) && strrchr (text, ')'))
      stopped = strrchr (text, ')')[2] == 'T';
    g_free (text);
    text = NULL;
    if (!stopped)
      g_usleep (1000);
  }
  g_free (path);
  return stopped;
}

/* Continues the stopped service once a request waits for it whole (what
 * its connections hold unread stays the same 100 ms), or after 10 s */
static gpointer
continue_with_request (gpointer data)
{
  Stopped *s = data;
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  guint last = 0, same = 0, now;

  while (same < 10 && g_get_monotonic_time () < deadline) {
    g_usleep (10 * G_TIME_SPAN_MILLISECOND);
    now = unread_at_port (s->port);
    same = now > 0 && now == last ? same + 1 : 0;
    last = now;
  }
  kill (s->pid, SIGCONT);
  return NULL;
}

/* One runner. The client ends its session (closes the event stream) and
 * posts the next start at once, as a renewal does; the service reads the
 * new request before it gets to the closed stream (libsoup reads a
 * request as it accepts its connection), here for sure: it is stopped
 * while both happen, and continued once the request waits whole (both
 * are ready in the same poll: the listening socket's source comes
 * first). The
 * start found the last session still running: 503 "every runner of this
 * app is busy", when the runner was free. */
GST_START_TEST (test_renewal_finds_the_runner_free)
{
  SvcProcess *p = svc_process_start ("--media=cached", NULL);
  const gchar *url = svc_process_url (p);
  Stopped stopped = { svc_process_pid (p), atoi (strrchr (url, ':') + 1) };
  SvcClient *a = svc_client_new (url, GST_SESSION_APP_WORLD, NULL), *b;
  SvcHttpReply *refusal;
  GThread *waker;
  guint start;
  gchar *why;

  fail_unless_equals_int (svc_client_start (a), 200);
  fail_unless (svc_client_wait_open (a, TIMEOUT));

  fail_unless (stop_service (stopped.pid));
  svc_client_free (a);
  waker = g_thread_new ("svc-continue", continue_with_request, &stopped);
  b = svc_client_new (url, GST_SESSION_APP_WORLD, NULL);
  start = svc_client_start (b);
  g_thread_join (waker);

  refusal = svc_client_error_reply (b);
  why = g_strdup_printf ("%s: %s", refusal && refusal->error_type ?
      refusal->error_type : "", refusal && refusal->body ? refusal->body : "");
  fail_unless (start == 200, "the start after the last session's end was "
      "answered %u %s", start, why);
  g_free (why);
  fail_unless (svc_client_wait_open (b, TIMEOUT));
  svc_client_free (b);
  fail_unless (wait_no_sessions (p, TIMEOUT));
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

static Suite *
renewals_suite (void)
{
  Suite *s = suite_create ("service-renewals");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  tcase_add_test (tc, test_sessions_share_no_sctp_association);
  tcase_add_test (tc, test_renewal_finds_the_runner_free);
  return s;
}

GST_CHECK_MAIN (renewals);
