/* gst-session: the reference service's descriptors do not grow with the
 * number of requests or sessions (issue 28)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libsoup 3.2's SoupServer never closes a kept-alive connection that the
 * client closes while it is idle: each stayed in CLOSE-WAIT, one descriptor
 * of the service's per request or session. The service's open descriptors
 * are counted in /proc/<pid>/fd; every wait is a bounded wait.
 */

#include <string.h>
#include <gst/check/gstcheck.h>

#include "svc-client.h"

#define TIMEOUT 5000
/* what may differ: a descriptor the service opens lazily, one in flight */
#define SLACK 2

static guint
service_fds (SvcProcess * p)
{
  gchar *path = g_strdup_printf ("/proc/%d/fd", svc_process_pid (p));
  GDir *dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  g_free (path);
  fail_unless (dir != NULL);
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

/* waits until the service has at most @limit descriptors open: the count
 * then, or the last one seen when @timeout_ms passed */
static guint
wait_fds_at_most (SvcProcess * p, guint limit, gint timeout_ms)
{
  gint64 deadline =
      g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  guint n;

  while ((n = service_fds (p)) > limit && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  return n;
}

/* One GET on a connection of its own that asks to be kept alive; reads
 * the whole answer, then the client closes the connection. The status. */
static guint
get_keepalive_then_close (SvcProcess * p, const gchar * path)
{
  GSocketClient *client = g_socket_client_new ();
  const gchar *url = svc_process_url (p);
  guint16 port = atoi (strrchr (url, ':') + 1);
  GSocketConnection *conn;
  GError *error = NULL;
  GString *answer = g_string_new (NULL);
  gchar *request, buf[4096], *end;
  gssize length = -1, n;
  guint status = 0;

  g_socket_client_set_timeout (client, TIMEOUT / 1000);
  conn = g_socket_client_connect_to_host (client, "127.0.0.1", port, NULL,
      &error);
  fail_unless (conn != NULL, "connect: %s", error ? error->message : "");
  request = g_strdup_printf ("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
      "Connection: keep-alive\r\n\r\n", path, port);
  fail_unless (g_output_stream_write_all (g_io_stream_get_output_stream
          (G_IO_STREAM (conn)), request, strlen (request), NULL, NULL, &error),
      "write: %s", error ? error->message : "");
  g_free (request);

  /* the headers, then Content-Length bytes of body */
  while ((n = g_input_stream_read (g_io_stream_get_input_stream (G_IO_STREAM
                  (conn)), buf, sizeof (buf), NULL, &error)) > 0) {
    g_string_append_len (answer, buf, n);
    end = strstr (answer->str, "\r\n\r\n");
    if (end && length < 0) {
      gchar *lower = g_ascii_strdown (answer->str, end - answer->str);
      gchar *cl = strstr (lower, "\r\ncontent-length:");

      length = cl ? g_ascii_strtoll (cl + 17, NULL, 10) : 0;
      g_free (lower);
    }
    if (end && (gssize) (answer->len - (end + 4 - answer->str)) >= length)
      break;
  }
  fail_unless (error == NULL, "read: %s", error ? error->message : "");
  if (g_str_has_prefix (answer->str, "HTTP/1.1 "))
    status = atoi (answer->str + 9);
  g_string_free (answer, TRUE);

  /* the client closes the connection while it is idle */
  g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
  g_object_unref (conn);
  g_object_unref (client);
  return status;
}

static gint64
healthz_sessions (SvcProcess * p)
{
  gchar *url = g_strdup_printf ("%s/healthz", svc_process_url (p));
  SvcHttpReply *r = svc_http ("GET", url, NULL, NULL);
  JsonObject *sessions;
  gint64 n;

  g_free (url);
  fail_unless_equals_int (r->status, 200);
  sessions = json_object_get_object_member (json_node_get_object (r->json),
      "sessions");
  n = json_object_get_int_member (sessions, "world") +
      json_object_get_int_member (sessions, "director");
  svc_http_reply_free (r);
  return n;
}

static gboolean
wait_no_sessions (SvcProcess * p, gint timeout_ms)
{
  gint64 deadline =
      g_get_monotonic_time () + timeout_ms * G_TIME_SPAN_MILLISECOND;
  gint64 n;

  while ((n = healthz_sessions (p)) > 0 && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  return n == 0;
}

/* 50 requests, each kept alive on a connection of its own that the client
 * closes after the answer: the service closes its side of each */
GST_START_TEST (test_keepalive_requests_closed_by_client)
{
  SvcProcess *p = svc_process_start (NULL, NULL);
  guint before, after, i;

  fail_unless_equals_int (get_keepalive_then_close (p, "/healthz"), 200);
  before = service_fds (p);
  for (i = 0; i < 50; i++)
    fail_unless_equals_int (get_keepalive_then_close (p, "/healthz"), 200);
  after = wait_fds_at_most (p, before + SLACK, TIMEOUT);
  fail_unless (after <= before + SLACK,
      "the service had %u descriptors open before 50 kept-alive requests "
      "closed by the client, %u after them", before, after);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

/* 20 sessions, each started and closed by the client closing its event
 * stream: the service's descriptors come back to where they were */
GST_START_TEST (test_sessions_closed_by_client)
{
  SvcProcess *p = svc_process_start (NULL, NULL);
  guint before = 0, after, i;

  /* the first session opens what the service keeps (GStreamer's state) */
  for (i = 0; i <= 20; i++) {
    SvcClient *c = svc_client_new (svc_process_url (p), GST_SESSION_APP_WORLD,
        NULL);

    fail_unless_equals_int (svc_client_start (c), 200);
    svc_client_free (c);
    fail_unless (wait_no_sessions (p, TIMEOUT), "session %u did not end", i);
    if (i == 0)
      before = service_fds (p);
  }
  after = wait_fds_at_most (p, before + SLACK, TIMEOUT);
  fail_unless (after <= before + SLACK,
      "the service had %u descriptors open before 20 sessions closed by "
      "the client, %u after them", before, after);
  fail_unless_equals_int (svc_process_stop (p, NULL), 0);
}

GST_END_TEST;

static Suite *
descriptors_suite (void)
{
  Suite *s = suite_create ("service-descriptors");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, svc_settle_threads);
  tcase_add_test (tc, test_keepalive_requests_closed_by_client);
  tcase_add_test (tc, test_sessions_closed_by_client);
  return s;
}

GST_CHECK_MAIN (descriptors);
