/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * End-to-end tests of gst-session against the reference service (spawned
 * on 127.0.0.1, port 0, --time-scale 0.01), every delivery stored and
 * processed once: submit, receive, verify, store, process; duplicates; an
 * --exec command that times out or closes its stdin; a locked database; a
 * full disk; a receiver killed between storing and processing; a receiver
 * down while the service retries. Every wait is bounded.
 */

#include <signal.h>
#include <sys/resource.h>
#include <string.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

#include "cli-e2e-common.h"

/* rows of the listener's database: how many with @id, how many of them
 * processed */
static void
db_row (const gchar * db_path, const gchar * id, gint * rows, gint * processed)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  *rows = *processed = 0;
  fail_unless (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL) ==
      SQLITE_OK);
  sqlite3_busy_timeout (db, 5000);
  fail_unless (sqlite3_prepare_v2 (db, "SELECT COUNT(*), "
          "COALESCE(SUM(processed), 0) FROM deliveries WHERE request_id = ?",
          -1, &stmt, NULL) == SQLITE_OK);
  sqlite3_bind_text (stmt, 1, id, -1, SQLITE_STATIC);
  fail_unless (sqlite3_step (stmt) == SQLITE_ROW);
  *rows = sqlite3_column_int (stmt, 0);
  *processed = sqlite3_column_int (stmt, 1);
  sqlite3_finalize (stmt);
  sqlite3_close (db);
}

static gboolean
file_exists (gpointer user_data)
{
  return g_file_test (user_data, G_FILE_TEST_EXISTS);
}

/* ---------------------------------------------------------------------- */

GST_START_TEST (test_submit_receive_process)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e1.db"), *out = cli_tmp_path ("e2e1.jsonl");
  gchar *hook, *id_upper, *id_fail, *jwks, **lines;
  gint rows, processed;
  guint i;

  /* a torn line from an earlier crash is cut at start */
  fail_unless (g_file_set_contents (out, "{\"request_id\": \"tor", -1, NULL));
  l = listen_start (svc, "0", db, "--jsonl", out);
  fail_unless (cli_child_wait_stderr (l, "torn line", 1, WAIT_MS));
  hook = webhook_url (l);
  id_upper = submit (svc, "reference/upper", hook, "{\"text\": \"hello\"}");
  id_fail = submit (svc, "reference/fail", hook, "{\"type\": "
      "\"image_too_small\", \"field\": \"image_url\"}");
  fail_unless (wait_processed (l, id_upper));
  fail_unless (wait_processed (l, id_fail));
  fail_unless (cli_wait_lines (out, 2, WAIT_MS));

  lines = cli_read_lines (out);
  fail_unless_equals_int (g_strv_length (lines), 2);
  jwks = jwks_url (svc);
  for (i = 0; i < 2; i++) {
    JsonParser *parser, *body_parser;
    JsonObject *rec = parse_object (lines[i], &parser), *body;
    const gchar *id = json_object_get_string_member (rec, "request_id");
    gchar *headers_path = cli_tmp_path ("rec.headers");
    gchar *body_path = cli_tmp_path ("rec.body");
    gchar *headers;
    CliRun *run;

    body = parse_object (json_object_get_string_member (rec, "body"),
        &body_parser);
    fail_unless_equals_string (json_object_get_string_member (body,
            "request_id"), id);
    if (g_str_equal (id, id_upper)) {
      fail_unless_equals_string (json_object_get_string_member (rec,
              "status"), "OK");
      fail_unless_equals_string (json_object_get_string_member
          (json_object_get_object_member (body, "payload"), "text"), "HELLO");
    } else {
      fail_unless_equals_string (id, id_fail);
      fail_unless_equals_string (json_object_get_string_member (rec,
              "status"), "ERROR");
    }
    /* the record is enough to verify the delivery offline */
    headers = json_to_string (json_object_get_member (rec, "headers"), FALSE);
    fail_unless (g_file_set_contents (headers_path, headers, -1, NULL));
    fail_unless (g_file_set_contents (body_path,
            json_object_get_string_member (rec, "body"), -1, NULL));
    run = cli_run ("webhook", "verify", "--headers", headers_path, "--body",
        body_path, "--jwks-url", jwks, NULL);
    fail_unless_equals_int (run->status, 0);
    fail_unless (g_str_has_prefix (run->out, "VALID"), "%s", run->out);
    cli_run_free (run);
    db_row (db, id, &rows, &processed);
    fail_unless_equals_int (rows, 1);
    fail_unless_equals_int (processed, 1);
    g_free (headers);
    g_free (headers_path);
    g_free (body_path);
    g_object_unref (body_parser);
    g_object_unref (parser);
  }
  g_strfreev (lines);

  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (jwks);
  g_free (hook);
  g_free (id_upper);
  g_free (id_fail);
  g_free (db);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_duplicate_processed_once)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e2.db"), *copy = cli_tmp_path ("e2e2.copy");
  gchar *mark = cli_tmp_path ("e2e2.mark"), *cmd, *hook, *id, *url, *body;
  gchar *dup, **lines;
  gint rows, processed;

  /* the first run fails: the delivery is retried (1 s later) */
  cmd = g_strdup_printf ("sh -c 'if [ ! -e %s ]; then touch %s; exit 1; fi; "
      "cat >> %s; echo >> %s'", mark, mark, copy, copy);
  l = listen_start (svc, "0", db, "--exec", cmd);
  hook = webhook_url (l);
  id = submit (svc, "reference/echo", hook, "{\"n\": 1}");
  fail_unless (wait_processed (l, id));
  fail_unless_equals_int (cli_child_stderr_count (l, "process-failed"), 1);

  /* the service delivers the same request again */
  url = g_strconcat (svc->url, "/admin/redeliver", NULL);
  body = g_strdup_printf ("{\"request_id\": \"%s\"}", id);
  fail_unless_equals_int (cli_http ("POST", url, body, NULL), 200);
  dup = g_strconcat ("duplicate ", id, NULL);
  fail_unless (cli_child_wait_stderr (l, dup, 1, WAIT_MS));
  fail_unless (wait_deliveries (svc, id, 2, 2, 0));

  lines = cli_read_lines (copy);
  fail_unless (lines != NULL);
  fail_unless_equals_int (g_strv_length (lines), 1);
  fail_unless (strstr (lines[0], id) != NULL);
  fail_unless (strstr (lines[0], "\"payload\":{\"n\":1}") != NULL ||
      strstr (lines[0], "\"n\": 1") != NULL, "%s", lines[0]);
  g_strfreev (lines);
  db_row (db, id, &rows, &processed);
  fail_unless_equals_int (rows, 1);
  fail_unless_equals_int (processed, 1);
  g_free (dup);
  dup = g_strconcat ("processed ", id, NULL);
  fail_unless_equals_int (cli_child_stderr_count (l, dup), 1);

  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (dup);
  g_free (url);
  g_free (body);
  g_free (id);
  g_free (hook);
  g_free (cmd);
  g_free (mark);
  g_free (copy);
  g_free (db);
}

GST_END_TEST;

GST_START_TEST (test_exec_timeout)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e7.db"), *jwks = jwks_url (svc), *hook, *id;
  const gchar *args[] = { "webhook", "listen", "--port", "0", "--jwks-url",
    jwks, "--db", db, "--exec", "sleep 30", "--exec-timeout", "1", NULL
  };
  gint rows, processed;

  l = cli_listener_start (NULL, args);
  hook = webhook_url (l);
  id = submit (svc, "reference/echo", hook, "{}");
  fail_unless (cli_child_wait_stderr (l, "did not finish within 1 s", 1,
          WAIT_MS));
  db_row (db, id, &rows, &processed);
  fail_unless_equals_int (rows, 1);
  fail_unless_equals_int (processed, 0);
  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (id);
  g_free (hook);
  g_free (jwks);
  g_free (db);
}

GST_END_TEST;

/* a command that closes its stdin before reading a large body (100 KiB),
 * and starts a child that outlives it: the receiver keeps answering, the
 * timeout ends the command and its process group, and the delivery is not
 * marked processed */
GST_START_TEST (test_exec_closes_stdin)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e9.db"), *jwks = jwks_url (svc), *hook, *id;
  gchar *pidfile = cli_tmp_path ("e2e9.pid"), *cmd, *data, *health, *text;
  GString *big = g_string_new ("{\"pad\": \"");
  gint rows, processed, i;
  pid_t child = 0;
  const gchar *args[] = { "webhook", "listen", "--port", "0", "--jwks-url",
    jwks, "--db", db, "--exec", NULL, "--exec-timeout", "2", NULL
  };

  cmd = g_strdup_printf ("sh -c 'exec 0<&-; sleep 60 & echo $! > %s; "
      "wait'", pidfile);
  args[9] = cmd;
  /* over the pipe buffer (64 KiB), under one argument's limit (128 KiB) */
  for (i = 0; i < 100 * 1024; i++)
    g_string_append_c (big, 'x');
  g_string_append (big, "\"}");
  data = g_string_free (big, FALSE);

  l = cli_listener_start (NULL, args);
  hook = webhook_url (l);
  health = g_strconcat (l->url, "/healthz", NULL);
  id = submit (svc, "reference/echo", hook, data);
  /* the command runs (its child wrote the pid file): the receiver answers
   * at once meanwhile */
  for (i = 0; i < 200 && !g_file_get_contents (pidfile, &text, NULL, NULL); i++)
    g_usleep (50 * 1000);
  fail_unless (i < 200, "the command did not start");
  child = (pid_t) g_ascii_strtoll (text, NULL, 10);
  g_free (text);
  fail_unless (child > 0);
  {
    gint64 t0 = g_get_monotonic_time ();

    fail_unless_equals_int (cli_http ("GET", health, NULL, NULL), 200);
    fail_unless (g_get_monotonic_time () - t0 < G_USEC_PER_SEC,
        "/healthz took %" G_GINT64_FORMAT " ms while the command ran",
        (g_get_monotonic_time () - t0) / 1000);
  }
  fail_unless (cli_child_wait_stderr (l, "did not finish within 2 s", 1,
          WAIT_MS));
  db_row (db, id, &rows, &processed);
  fail_unless_equals_int (rows, 1);
  fail_unless_equals_int (processed, 0);
  /* the command's own child went with it */
  for (i = 0; i < 100 && kill (child, 0) == 0; i++)
    g_usleep (50 * 1000);
  fail_unless (kill (child, 0) != 0, "the command's child still runs");

  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (health);
  g_free (data);
  g_free (cmd);
  g_free (pidfile);
  g_free (id);
  g_free (hook);
  g_free (jwks);
  g_free (db);
}

GST_END_TEST;

/* a database locked by another process: the delivery is answered 503 (the
 * service delivers again) and never 2xx, the receiver answers everything
 * else meanwhile, and once the lock goes the delivery is stored */
GST_START_TEST (test_locked_database)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e10.db"), *out = cli_tmp_path ("e2e10.jsonl");
  gchar *hook, *id, *health;
  sqlite3 *lock = NULL;
  gint i, rows, processed;

  l = listen_start (svc, "0", db, "--jsonl", out);
  hook = webhook_url (l);
  health = g_strconcat (l->url, "/healthz", NULL);
  fail_unless (sqlite3_open_v2 (db, &lock, SQLITE_OPEN_READWRITE, NULL) ==
      SQLITE_OK);
  fail_unless (sqlite3_exec (lock, "BEGIN EXCLUSIVE", NULL, NULL, NULL) ==
      SQLITE_OK);
  id = submit (svc, "reference/echo", hook, "{\"while\": \"locked\"}");
  /* while the deliveries meet the lock, /healthz answers at once */
  for (i = 0; i < 60 && !cli_child_wait_stderr (l, "store-failed", 1, 0); i++) {
    gint64 t0 = g_get_monotonic_time ();

    fail_unless_equals_int (cli_http ("GET", health, NULL, NULL), 200);
    fail_unless (g_get_monotonic_time () - t0 < G_USEC_PER_SEC / 2,
        "/healthz took %" G_GINT64_FORMAT " ms with the database locked",
        (g_get_monotonic_time () - t0) / 1000);
    g_usleep (50 * 1000);
  }
  fail_unless (cli_child_wait_stderr (l, "store-failed", 1, WAIT_MS));
  fail_if (cli_child_wait_stderr (l, "stored", 1, 0));
  sqlite3_exec (lock, "ROLLBACK", NULL, NULL, NULL);
  sqlite3_close (lock);
  /* the service's next attempt is stored and processed */
  fail_unless (wait_processed (l, id));
  db_row (db, id, &rows, &processed);
  fail_unless_equals_int (rows, 1);
  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (health);
  g_free (id);
  g_free (hook);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

/* the disk fills up (a file size limit: RLIMIT_FSIZE, inherited by the
 * receiver): deliveries that cannot be stored are answered 503, never 2xx,
 * the receiver lives on, and after a restart with room nothing is lost */
GST_START_TEST (test_disk_full)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e12.db"), *out = cli_tmp_path ("e2e12.jsonl");
  gchar *hook, *ids[4], *port, *health;
  GString *big = g_string_new ("{\"pad\": \"");
  struct rlimit saved, small;
  gint rows, processed;
  guint i;

  for (i = 0; i < 100 * 1024; i++)
    g_string_append_c (big, 'x');
  g_string_append (big, "\"}");
  fail_unless (getrlimit (RLIMIT_FSIZE, &saved) == 0);
  small = saved;
  small.rlim_cur = 192 * 1024;
  fail_unless (setrlimit (RLIMIT_FSIZE, &small) == 0);
  l = listen_start (svc, "0", db, "--jsonl", out);
  fail_unless (setrlimit (RLIMIT_FSIZE, &saved) == 0);
  hook = webhook_url (l);
  health = g_strconcat (l->url, "/healthz", NULL);
  for (i = 0; i < G_N_ELEMENTS (ids); i++)
    ids[i] = submit (svc, "reference/echo", hook, big->str);
  fail_unless (cli_child_wait_stderr (l, "store-failed", 1, WAIT_MS),
      "no delivery met the full disk");
  fail_unless_equals_int (cli_http ("GET", health, NULL, NULL), 200);
  port = g_strdup (strrchr (l->url, ':') + 1);
  cli_child_stop (l);
  cli_child_free (l);

  /* room again, same port: the service's next attempts are stored */
  l = listen_start (svc, port, db, "--jsonl", out);
  for (i = 0; i < G_N_ELEMENTS (ids); i++) {
    fail_unless (wait_processed (l, ids[i]), "delivery %u was lost", i);
    db_row (db, ids[i], &rows, &processed);
    fail_unless_equals_int (rows, 1);
  }
  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  for (i = 0; i < G_N_ELEMENTS (ids); i++)
    g_free (ids[i]);
  g_string_free (big, TRUE);
  g_free (port);
  g_free (health);
  g_free (hook);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

GST_START_TEST (test_kill9_between_store_and_process)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e3.db"), *copy = cli_tmp_path ("e2e3.copy");
  gchar *started = cli_tmp_path ("e2e3.started");
  gchar *flag = cli_tmp_path ("e2e3.flag"), *cmd, *hook, *id, **lines;
  gchar *needle = NULL;
  gint rows, processed;
  guint n, delivered, attempts, failed;

  cmd = g_strdup_printf ("sh -c 'touch %s; while [ ! -e %s ]; do sleep 0.05; "
      "done; cat >> %s; echo >> %s'", started, flag, copy, copy);
  l = listen_start (svc, "0", db, "--exec", cmd);
  hook = webhook_url (l);
  id = submit (svc, "reference/echo", hook, "{\"crash\": true}");
  /* stored, answered 2xx, processing under way */
  fail_unless (cli_wait_for (file_exists, started, WAIT_MS));
  fail_unless (wait_deliveries (svc, id, 1, 1, 0));
  db_row (db, id, &rows, &processed);
  fail_unless_equals_int (rows, 1);
  fail_unless_equals_int (processed, 0);

  cli_child_kill (l);
  cli_child_free (l);
  g_unlink (started);
  l = listen_start (svc, "0", db, "--exec", cmd);
  fail_unless (cli_child_wait_stderr (l, "recovering", 1, WAIT_MS));
  /* the command runs again (the first one died with the listener) */
  fail_unless (cli_wait_for (file_exists, started, WAIT_MS));
  /* a clean stop meanwhile: the command is ended, the delivery stays */
  cli_child_stop (l);
  g_free (needle);
  needle = g_strconcat ("interrupted ", id, NULL);
  fail_unless_equals_int (cli_child_stderr_count (l, needle), 1);
  cli_child_free (l);
  db_row (db, id, &rows, &processed);
  fail_unless_equals_int (processed, 0);
  g_unlink (started);
  l = listen_start (svc, "0", db, "--exec", cmd);
  fail_unless (cli_child_wait_stderr (l, "recovering", 1, WAIT_MS));
  fail_unless (cli_wait_for (file_exists, started, WAIT_MS));
  fail_unless (g_file_set_contents (flag, "", -1, NULL));
  fail_unless (wait_processed (l, id));
  cli_child_stop (l);
  cli_child_free (l);

  lines = cli_read_lines (copy);
  fail_unless_equals_int (g_strv_length (lines), 1);
  fail_unless (strstr (lines[0], id) != NULL);
  g_strfreev (lines);
  db_row (db, id, &rows, &processed);
  fail_unless_equals_int (processed, 1);
  /* once more: nothing left to process */
  l = listen_start (svc, "0", db, "--exec", cmd);
  g_usleep (300 * 1000);
  cli_child_stop (l);
  fail_unless_equals_int (cli_child_stderr_count (l, "recovering"), 0);
  fail_unless_equals_int (cli_child_stderr_count (l, "processed"), 0);
  cli_child_free (l);
  lines = cli_read_lines (copy);
  fail_unless_equals_int (g_strv_length (lines), 1);
  g_strfreev (lines);
  /* the service delivered once */
  service_deliveries (svc, id, &n, &delivered, &attempts, &failed);
  fail_unless_equals_int (n, 1);
  fail_unless_equals_int (attempts, 1);

  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (id);
  g_free (hook);
  g_free (cmd);
  g_free (needle);
  g_free (flag);
  g_free (started);
  g_free (copy);
  g_free (db);
}

GST_END_TEST;

GST_START_TEST (test_receiver_down_gets_retry)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e4.db"), *out = cli_tmp_path ("e2e4.jsonl");
  gchar *hook, *id, *port, **lines;
  guint n, delivered, attempts, failed;

  l = listen_start (svc, "0", db, "--jsonl", out);
  hook = webhook_url (l);
  port = g_strdup (strrchr (l->url, ':') + 1);
  cli_child_stop (l);
  cli_child_free (l);

  /* nobody listens: the attempts fail and are retried (50 ms, 100 ms, ...
   * at --time-scale 0.01) */
  id = submit (svc, "reference/echo", hook, "{\"late\": true}");
  fail_unless (wait_deliveries (svc, id, 1, 0, 3));
  l = listen_start (svc, port, db, "--jsonl", out);
  fail_unless (wait_processed (l, id));
  fail_unless (wait_deliveries (svc, id, 1, 1, 3));
  service_deliveries (svc, id, &n, &delivered, &attempts, &failed);
  fail_unless_equals_int (n, 1);
  fail_unless (attempts == failed + 1, "%u attempts, %u failed", attempts,
      failed);
  lines = cli_read_lines (out);
  fail_unless_equals_int (g_strv_length (lines), 1);
  fail_unless (strstr (lines[0], id) != NULL);
  g_strfreev (lines);

  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (port);
  g_free (id);
  g_free (hook);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

static Suite *
cli_e2e_deliveries_suite (void)
{
  Suite *s = suite_create ("gst-session-cli-e2e-deliveries");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_set_timeout (tc, 120);
  tcase_add_test (tc, test_submit_receive_process);
  tcase_add_test (tc, test_duplicate_processed_once);
  tcase_add_test (tc, test_kill9_between_store_and_process);
  tcase_add_test (tc, test_exec_timeout);
  tcase_add_test (tc, test_disk_full);
  tcase_add_test (tc, test_locked_database);
  tcase_add_test (tc, test_exec_closes_stdin);
  tcase_add_test (tc, test_receiver_down_gets_retry);
  tcase_add_checked_fixture (tc, NULL, cli_tmp_cleanup);
  return s;
}

GST_CHECK_MAIN (cli_e2e_deliveries);
