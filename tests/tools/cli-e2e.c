/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * End-to-end tests of gst-session against the reference service (spawned
 * on 127.0.0.1, port 0, --time-scale 0.01): submit, receive, verify,
 * store, process; duplicates; a receiver killed between storing and
 * processing; a receiver down while the service retries; rejections; rate
 * limits; the API key never shown. Every wait is bounded.
 */

#include <signal.h>
#include <sys/resource.h>
#include <string.h>
#include <sqlite3.h>
#include <json-glib/json-glib.h>
#include <glib/gstdio.h>

#include "cli-harness.h"

#define WAIT_MS 15000

static CliChild *
service_start (void)
{
  return cli_service_start ("--time-scale", "0.01", NULL);
}

static gchar *
jwks_url (CliChild * svc)
{
  return g_strconcat (svc->url, "/.well-known/jwks.json", NULL);
}

/* webhook listen against @svc; @mode and @target: "--jsonl" FILE, ... */
static CliChild *
listen_start (CliChild * svc, const gchar * port, const gchar * db,
    const gchar * mode, const gchar * target)
{
  gchar *jwks = jwks_url (svc);
  /* no cooldown: a rotated key is fetched at the first delivery */
  const gchar *args[] = { "webhook", "listen", "--port", port, "--jwks-url",
    jwks, "--api-url", svc->url, "--db", db, mode, target,
    "--refetch-cooldown", "0", NULL
  };
  CliChild *l = cli_listener_start (NULL, args);

  g_free (jwks);
  return l;
}

static gchar *
webhook_url (CliChild * listener)
{
  return g_strconcat (listener->url, "/hook", NULL);
}

/* gst-session --json submit; returns the request id */
static gchar *
submit (CliChild * svc, const gchar * app, const gchar * webhook,
    const gchar * data)
{
  gchar *queue = g_strconcat (svc->url, "/queue", NULL);
  CliRun *run = cli_run ("--json", "submit", "--queue-url", queue, app,
      "--webhook", webhook, "--data", data, NULL);
  JsonParser *parser = json_parser_new ();
  JsonObject *o;
  gchar *id;

  fail_unless_equals_int (run->status, 0);
  fail_unless (json_parser_load_from_data (parser, run->out, -1, NULL),
      "%s", run->out);
  o = json_node_get_object (json_parser_get_root (parser));
  id = g_strdup (json_object_get_string_member (o, "request_id"));
  fail_unless_equals_string (id, json_object_get_string_member (o,
          "gateway_request_id"));
  g_object_unref (parser);
  cli_run_free (run);
  g_free (queue);
  return id;
}

static gboolean
wait_processed (CliChild * listener, const gchar * id)
{
  gchar *needle = g_strconcat ("processed ", id, NULL);
  gboolean ok = cli_child_wait_stderr (listener, needle, 1, WAIT_MS);

  g_free (needle);
  return ok;
}

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

static JsonObject *
parse_object (const gchar * text, JsonParser ** parser)
{
  *parser = json_parser_new ();
  fail_unless (json_parser_load_from_data (*parser, text, -1, NULL), "%s",
      text);
  fail_unless (JSON_NODE_HOLDS_OBJECT (json_parser_get_root (*parser)));
  return json_node_get_object (json_parser_get_root (*parser));
}

/* The service's record of the deliveries of @id: how many deliveries, how
 * many delivered, how many attempts in all and how many failed. */
static void
service_deliveries (CliChild * svc, const gchar * id, guint * n,
    guint * delivered, guint * attempts, guint * failed)
{
  gchar *url = g_strconcat (svc->url, "/admin/deliveries", NULL), *text;
  JsonParser *parser;
  JsonArray *all;
  guint i, j;

  *n = *delivered = *attempts = *failed = 0;
  fail_unless_equals_int (cli_http ("GET", url, NULL, &text), 200);
  all = json_object_get_array_member (parse_object (text, &parser),
      "deliveries");
  for (i = 0; i < json_array_get_length (all); i++) {
    JsonObject *d = json_array_get_object_element (all, i);
    JsonArray *tries = json_object_get_array_member (d, "attempts");

    if (g_strcmp0 (json_object_get_string_member (d, "request_id"), id))
      continue;
    (*n)++;
    if (g_str_equal (json_object_get_string_member (d, "state"), "delivered"))
      (*delivered)++;
    for (j = 0; j < json_array_get_length (tries); j++) {
      gint64 status = json_object_get_int_member
          (json_array_get_object_element (tries, j), "status");

      (*attempts)++;
      if (status < 200 || status > 299)
        (*failed)++;
    }
  }
  g_object_unref (parser);
  g_free (text);
  g_free (url);
}

typedef struct
{
  CliChild *svc;
  const gchar *id;
  guint deliveries;
  guint delivered;
  guint failed;
} DeliveryWait;

static gboolean
deliveries_reached (gpointer user_data)
{
  DeliveryWait *w = user_data;
  guint n, delivered, attempts, failed;

  service_deliveries (w->svc, w->id, &n, &delivered, &attempts, &failed);
  return n >= w->deliveries && delivered >= w->delivered && failed >= w->failed;
}

static gboolean
wait_deliveries (CliChild * svc, const gchar * id, guint deliveries,
    guint delivered, guint failed)
{
  DeliveryWait w = { svc, id, deliveries, delivered, failed };

  return cli_wait_for (deliveries_reached, &w, WAIT_MS);
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
  for (i = 0; i < 200 && !g_file_get_contents (pidfile, &text, NULL, NULL);
      i++)
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
  for (i = 0; i < 60 && !cli_child_wait_stderr (l, "store-failed", 1, 0);
      i++) {
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

/* POSTs a delivery with the given headers (NULL: none) to @url. */
static guint
post_delivery (const gchar * url, const gchar * const *headers,
    const gchar * body)
{
  SoupSession *session = soup_session_new_with_options ("timeout", 10, NULL);
  SoupMessage *msg = soup_message_new ("POST", url);
  GBytes *b = g_bytes_new (body, strlen (body)), *answer;
  guint status;

  soup_message_set_request_body_from_bytes (msg, "application/json", b);
  for (; headers && *headers; headers += 2)
    soup_message_headers_replace (soup_message_get_request_headers (msg),
        headers[0], headers[1]);
  answer = soup_session_send_and_read (session, msg, NULL, NULL);
  status = soup_message_get_status (msg);
  if (answer)
    g_bytes_unref (answer);
  g_bytes_unref (b);
  g_object_unref (msg);
  g_object_unref (session);
  return status;
}

GST_START_TEST (test_rejections)
{
  CliChild *svc = service_start (), *svc_far, *l, *l_nokeys;
  gchar *db = cli_tmp_path ("e2e5.db"), *out = cli_tmp_path ("e2e5.jsonl");
  gchar *db2 = cli_tmp_path ("e2e5b.db"), *db3 = cli_tmp_path ("e2e5c.db");
  gchar *hook, *id, *ts, *url, *body = cli_delivery_body ("forged-1");
  gchar *sig = g_strnfill (128, 'a'), *far_hook, *needle;
  guint n, delivered, attempts, failed;
  const gchar *nokeys_args[] = { "webhook", "listen", "--port", "0",
    "--jwks-url", "http://127.0.0.1:1/jwks.json", "--db", db3, "--jsonl",
    out, NULL
  };
  const gchar *forged[] = { "X-Svc-Webhook-Request-Id", "forged-1",
    "X-Svc-Webhook-User-Id", "user-reference", "X-Svc-Webhook-Timestamp",
    NULL, "X-Svc-Webhook-Signature", sig, NULL
  };

  ts = g_strdup_printf ("%" G_GINT64_FORMAT, g_get_real_time () /
      G_USEC_PER_SEC);
  forged[5] = ts;
  l = listen_start (svc, "0", db, "--jsonl", out);
  hook = webhook_url (l);
  /* a signature no key made; no headers at all; not a POST */
  fail_unless_equals_int (post_delivery (hook, forged, body), 401);
  fail_unless_equals_int (post_delivery (hook, NULL, body), 401);
  fail_unless (cli_child_wait_stderr (l, "no-key-matched", 1, WAIT_MS));
  fail_unless_equals_int (cli_http ("GET", hook, NULL, NULL), 405);

  /* the keys rotate: the receiver fetches the key set again and accepts */
  url = g_strconcat (svc->url, "/admin/rotate-key", NULL);
  fail_unless_equals_int (cli_http ("POST", url, "{}", NULL), 200);
  id = submit (svc, "reference/echo", hook, "{\"after\": \"rotation\"}");
  fail_unless (wait_processed (l, id));
  fail_unless (cli_wait_lines (out, 1, WAIT_MS));

  /* the key set cannot be fetched: 503, so the service delivers again */
  l_nokeys = cli_listener_start (NULL, nokeys_args);
  g_free (hook);
  hook = webhook_url (l_nokeys);
  fail_unless_equals_int (post_delivery (hook, forged, body), 503);
  cli_child_stop (l_nokeys);
  cli_child_free (l_nokeys);

  /* a service whose webhook_ip_ranges leave 127.0.0.1 out: 403 */
  svc_far = cli_service_start ("--time-scale", "0.01", "--webhook-ip-range",
      "10.0.0.0/8", NULL);
  cli_child_stop (l);
  cli_child_free (l);
  l = listen_start (svc_far, "0", db2, "--jsonl", out);
  far_hook = webhook_url (l);
  g_free (id);
  id = submit (svc_far, "reference/echo", far_hook, "{}");
  fail_unless (wait_deliveries (svc_far, id, 1, 0, 2));
  service_deliveries (svc_far, id, &n, &delivered, &attempts, &failed);
  fail_unless_equals_int (delivered, 0);
  fail_unless (cli_child_wait_stderr (l, "403 (source-not-allowed)", 1,
          WAIT_MS));
  needle = g_strconcat ("stored ", id, NULL);
  fail_unless_equals_int (cli_child_stderr_count (l, needle), 0);
  g_free (needle);

  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc_far);
  cli_child_free (svc_far);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (far_hook);
  g_free (url);
  g_free (id);
  g_free (hook);
  g_free (ts);
  g_free (sig);
  g_free (body);
  g_free (db3);
  g_free (db2);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

GST_START_TEST (test_dir_and_offline_verify)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e6.db"), *dir = cli_tmp_path ("e2e6.d");
  gchar *hook, *id, *headers, *json, *jwks, *url, *name;
  CliRun *run;

  l = listen_start (svc, "0", db, "--dir", dir);
  hook = webhook_url (l);
  id = submit (svc, "reference/not-json", hook, "{\"x\": 1}");
  fail_unless (wait_processed (l, id));
  name = g_strconcat (id, ".headers", NULL);
  headers = g_build_filename (dir, name, NULL);
  g_free (name);
  name = g_strconcat (id, ".json", NULL);
  json = g_build_filename (dir, name, NULL);
  g_free (name);
  fail_unless (g_file_test (headers, G_FILE_TEST_EXISTS));
  fail_unless (g_file_test (json, G_FILE_TEST_EXISTS));
  /* what the receiver writes is its owner's only */
  {
    const gchar *paths[] = { headers, json, db, dir };
    guint i;

    for (i = 0; i < G_N_ELEMENTS (paths); i++) {
      GStatBuf st;

      fail_unless (g_stat (paths[i], &st) == 0);
      fail_unless_equals_int (st.st_mode & 0777, i == 3 ? 0700 : 0600);
    }
  }

  /* the files are the delivery as received: they verify offline */
  jwks = jwks_url (svc);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, NULL);
  fail_unless_equals_int (run->status, 0);
  fail_unless (g_str_has_prefix (run->out, "VALID"), "%s", run->out);
  cli_run_free (run);
  run = cli_run ("--json", "webhook", "verify", "--headers", headers,
      "--body", json, "--jwks-url", jwks, NULL);
  fail_unless (strstr (run->out, "\"user_id\":\"user-reference\""), "%s",
      run->out);
  cli_run_free (run);

  /* the signed user id is compared with this account's */
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, "--user-id", "user-reference", NULL);
  fail_unless_equals_int (run->status, 0);
  fail_unless (g_str_has_prefix (run->out, "VALID"), "%s", run->out);
  cli_run_free (run);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, "--user-id", "another-account", NULL);
  fail_unless_equals_int (run->status, 1);
  fail_unless (g_str_has_prefix (run->out, "INVALID (wrong-account)"), "%s",
      run->out);
  cli_run_free (run);

  /* after a rotation the old signature matches no key of the set */
  url = g_strconcat (svc->url, "/admin/rotate-key", NULL);
  fail_unless_equals_int (cli_http ("POST", url, "{}", NULL), 200);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, NULL);
  fail_unless_equals_int (run->status, 1);
  fail_unless (g_str_has_prefix (run->out, "INVALID (no-key-matched)"));
  cli_run_free (run);
  cli_child_stop (l);
  cli_child_free (l);

  /* the key set cannot be fetched: no verdict, exit 5 */
  cli_child_stop (svc);
  run = cli_run ("webhook", "verify", "--headers", headers, "--body", json,
      "--jwks-url", jwks, NULL);
  fail_unless_equals_int (run->status, 5);
  cli_run_free (run);
  cli_child_free (svc);

  g_free (url);
  g_free (jwks);
  g_free (headers);
  g_free (json);
  g_free (id);
  g_free (hook);
  g_free (dir);
  g_free (db);
}

GST_END_TEST;

/* a delivery validly signed for another account: 403, never stored */
GST_START_TEST (test_wrong_account_refused)
{
  CliChild *svc = service_start (), *l;
  gchar *db = cli_tmp_path ("e2e11.db"), *out = cli_tmp_path ("e2e11.jsonl");
  gchar *jwks = jwks_url (svc), *hook, *id;
  const gchar *args[] = { "webhook", "listen", "--port", "0", "--jwks-url",
    jwks, "--db", db, "--jsonl", out, "--user-id", "another-account", NULL
  };

  l = cli_listener_start (NULL, args);
  hook = webhook_url (l);
  id = submit (svc, "reference/echo", hook, "{\"for\": \"someone else\"}");
  fail_unless (cli_child_wait_stderr (l, "wrong-account", 1, WAIT_MS),
      "the delivery for user-reference was not refused");
  fail_unless (cli_child_wait_stderr (l, "403", 1, 0));
  fail_if (g_file_test (out, G_FILE_TEST_EXISTS) &&
      cli_wait_lines (out, 1, 0), "a delivery for another account was "
      "processed");
  cli_child_stop (l);
  cli_child_free (l);
  cli_child_stop (svc);
  cli_child_free (svc);
  g_free (id);
  g_free (hook);
  g_free (jwks);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

static gint
manage_quiet (const gchar * key, const gchar * const *args)
{
  gchar *env_key = g_strconcat ("GST_SESSION_API_KEY=", key, NULL);
  const gchar *env[] = { env_key, NULL };
  CliRun *run = cli_run_full (env, NULL, 30, args);
  gint status = run->status;

  cli_run_free (run);
  g_free (env_key);
  return status;
}

GST_START_TEST (test_rate_limits)
{
  CliChild *svc = cli_service_start ("--time-scale", "0.01", "--api-key",
      "rate-client-1", "--api-key", "rate-client-2", "--api-key",
      "rate-client-3", NULL);
  const gchar *env[] = { "GST_SESSION_API_KEY=rate-client-1", NULL };
  const gchar *stop_nope[] = { "runners", "stop", "nope", "--api-url",
    svc->url, NULL
  };
  const gchar *stop[] = { "runners", "stop", "runner-echo-1", "--api-url",
    svc->url, NULL
  };
  const gchar *get[] = { "runners", "get", "runner-echo-1", "--api-url",
    svc->url, NULL
  };
  const gchar *exec_nope[] = { "runners", "exec", "nope", "--api-url",
    svc->url, "--", "true", NULL
  };
  const gchar *exec[] = { "--json", "runners", "exec", "runner-echo-1",
    "--api-url", svc->url, "--", "echo", "hi", NULL
  };
  GRegex *retry = g_regex_new ("retry after [0-9]+ s", 0, 0, NULL);
  CliRun *run;
  guint i;

  /* 60 stops a window: refused calls on an unknown runner count too */
  for (i = 0; i < 60; i++)
    fail_unless_equals_int (manage_quiet ("rate-client-1", stop_nope), 3);
  run = cli_run_full (env, NULL, 30, stop);
  fail_unless_equals_int (run->status, 4);
  fail_unless (strstr (run->err, "the runner is still running; retry after ")
      != NULL, "%s", run->err);
  fail_unless (g_regex_match (retry, run->err, 0, NULL));
  cli_run_free (run);
  /* and it is (GET /runners/{id} is another limit) */
  run = cli_run_full (env, NULL, 30, get);
  fail_unless_equals_int (run->status, 0);
  fail_unless (strstr (run->out, "state: running") != NULL, "%s", run->out);
  cli_run_free (run);
  /* another client (a key the service checks) has its own windows */
  fail_unless_equals_int (manage_quiet ("rate-client-2", stop_nope), 3);

  /* 90 execs a window; --json gives retry_after */
  for (i = 0; i < 90; i++)
    fail_unless_equals_int (manage_quiet ("rate-client-3", exec_nope), 3);
  run = cli_run_full ((const gchar *[]) {
        "GST_SESSION_API_KEY=rate-client-3", NULL
      }, NULL, 30, exec);
  fail_unless_equals_int (run->status, 4);
  fail_unless (strstr (run->out, "\"kind\":\"rate-limited\"") != NULL);
  fail_unless (strstr (run->out, "\"retry_after\":") != NULL);
  fail_unless (g_regex_match (retry, run->err, 0, NULL), "%s", run->err);
  fail_unless (strstr (run->err, "still running") == NULL);
  cli_run_free (run);

  g_regex_unref (retry);
  cli_child_stop (svc);
  cli_child_free (svc);
}

GST_END_TEST;

static void
assert_no_key (CliRun * run, const gchar * key)
{
  fail_if (strstr (run->out, key) != NULL, "the key is on stdout");
  fail_if (strstr (run->err, key) != NULL, "the key is on stderr");
}

GST_START_TEST (test_api_key_never_printed)
{
  CliChild *svc = cli_service_start ("--time-scale", "0.01", "--api-key",
      "SEKRIT-key-0123", NULL), *l;
  gchar *queue = g_strconcat (svc->url, "/queue", NULL);
  gchar *db = cli_tmp_path ("e2e8.db"), *envdump = cli_tmp_path ("env.txt");
  gchar *cmd, *jwks, *hook, *text = NULL;
  const gchar *good[] = { "GST_SESSION_API_KEY=SEKRIT-key-0123", NULL };
  const gchar *list[] = { "apps", "list", "--api-url", svc->url, NULL };
  const gchar *list_json[] = { "--json", "apps", "list", "--api-url",
    svc->url, NULL
  };
  const gchar *wrong[] = { "apps", "list", "--api-key", "WRONG-key-4567",
    "--api-url", svc->url, NULL
  };
  const gchar *wrong_json[] = { "--json", "--api-key=WRONG-key-4567",
    "runners", "logs", "runner-echo-1", "--api-url", svc->url, NULL
  };
  const gchar *submit_wrong[] = { "submit", "--queue-url", queue,
    "reference/echo", "--webhook", "http://127.0.0.1:9/hook", "--api-key",
    "WRONG-key-4567", NULL
  };
  const gchar *submit_422[] = { "submit", "--queue-url", queue,
    "reference/upper", "--webhook", "http://127.0.0.1:9/hook", "--data",
    "{\"text\": \"\"}", NULL
  };
  CliRun *run;

  run = cli_run_full (good, NULL, 30, list);
  fail_unless_equals_int (run->status, 0);
  fail_unless (strstr (run->out, "reference/echo") != NULL);
  assert_no_key (run, "SEKRIT-key-0123");
  cli_run_free (run);
  run = cli_run_full (good, NULL, 30, list_json);
  fail_unless_equals_int (run->status, 0);
  assert_no_key (run, "SEKRIT-key-0123");
  cli_run_free (run);
  /* no key: 401 is a refusal */
  run = cli_run_full (NULL, NULL, 30, list);
  fail_unless_equals_int (run->status, 3);
  cli_run_free (run);
  run = cli_run_full (NULL, NULL, 30, wrong);
  fail_unless_equals_int (run->status, 3);
  assert_no_key (run, "WRONG-key-4567");
  cli_run_free (run);
  run = cli_run_full (NULL, NULL, 30, wrong_json);
  fail_unless_equals_int (run->status, 3);
  assert_no_key (run, "WRONG-key-4567");
  cli_run_free (run);
  run = cli_run_full (NULL, NULL, 30, submit_wrong);
  fail_unless_equals_int (run->status, 3);
  assert_no_key (run, "WRONG-key-4567");
  cli_run_free (run);
  /* a model-level refusal with ctx, the key set (the library scrubs the
   * ctx too, which needs GStreamer initialised) */
  run = cli_run_full (good, NULL, 30, submit_422);
  fail_unless_equals_int (run->status, 3);
  fail_unless (strstr (run->err, "sequence_too_short") != NULL, "%s", run->err);
  assert_no_key (run, "SEKRIT-key-0123");
  cli_run_free (run);

  /* the listener's command does not inherit the key */
  jwks = jwks_url (svc);
  cmd = g_strdup_printf ("sh -c 'env > %s'", envdump);
  {
    const gchar *args[] = { "webhook", "listen", "--port", "0",
      "--jwks-url", jwks, "--db", db, "--exec", cmd, NULL
    };
    gchar *id;

    l = cli_listener_start (good, args);
    hook = webhook_url (l);
    {
      const gchar *sub[] = { "--json", "submit", "--queue-url", queue,
        "reference/echo", "--webhook", hook, NULL
      };
      JsonParser *parser;

      run = cli_run_full (good, NULL, 30, sub);
      fail_unless_equals_int (run->status, 0);
      assert_no_key (run, "SEKRIT-key-0123");
      id = g_strdup (json_object_get_string_member (parse_object (run->out,
                  &parser), "request_id"));
      g_object_unref (parser);
      cli_run_free (run);
    }
    fail_unless (wait_processed (l, id));
    fail_unless (g_file_get_contents (envdump, &text, NULL, NULL));
    fail_unless (strstr (text, "GST_SESSION_REQUEST_ID=") != NULL);
    fail_if (strstr (text, "SEKRIT") != NULL);
    cli_child_stop (l);
    text = (g_free (text), cli_child_stderr (l));
    fail_if (strstr (text, "SEKRIT") != NULL);
    cli_child_free (l);
    g_free (id);
    g_free (hook);
  }

  cli_child_stop (svc);
  text = (g_free (text), cli_child_stderr (svc));
  cli_child_free (svc);
  g_free (text);
  g_free (cmd);
  g_free (jwks);
  g_free (envdump);
  g_free (db);
  g_free (queue);
}

GST_END_TEST;

static Suite *
cli_e2e_suite (void)
{
  Suite *s = suite_create ("gst-session-cli-e2e");
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
  tcase_add_test (tc, test_rejections);
  tcase_add_test (tc, test_dir_and_offline_verify);
  tcase_add_test (tc, test_wrong_account_refused);
  tcase_add_test (tc, test_rate_limits);
  tcase_add_test (tc, test_api_key_never_printed);
  tcase_add_checked_fixture (tc, NULL, cli_tmp_cleanup);
  return s;
}

GST_CHECK_MAIN (cli_e2e);
