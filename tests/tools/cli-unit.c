/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Unit-level tests of gst-session: the SQLite store, argument errors and
 * exit codes, webhook verify on captured files, the API key never shown.
 */

#include <string.h>
#include <sqlite3.h>
#include <glib/gstdio.h>

#include "cli-harness.h"
#include "cli.h"
#include "process.h"
#include "store.h"

/* ---------------------------------------------------------------------- */
/* the store                                                              */

static gchar *
pragma (const gchar * path, const gchar * sql)
{
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gchar *text = NULL;

  fail_unless (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) ==
      SQLITE_OK);
  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    text = g_strdup ((const gchar *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return text;
}

GST_START_TEST (test_store_insert_duplicate_processed)
{
  gchar *path = cli_tmp_path ("store1.db");
  const gchar body[] = "{\"request_id\": \"r1\"}";
  GError *error = NULL;
  CliStore *store;
  CliDelivery *d;
  gint64 due = -1;
  gchar *mode;

  store = cli_store_open (path, TRUE, &error);
  fail_unless (store != NULL, "%s", error ? error->message : "");
  fail_unless_equals_int (cli_store_insert (store, "r1", 1000,
          "X-A: 1\n", (const guint8 *) body, strlen (body), &error),
      CLI_STORE_STORED);
  /* the same id again: not stored again, whatever the body */
  fail_unless_equals_int (cli_store_insert (store, "r1", 1001,
          "X-A: 2\n", (const guint8 *) "{}", 2, &error), CLI_STORE_DUPLICATE);
  fail_unless_equals_int (cli_store_count (store, FALSE, NULL), 1);

  d = cli_store_next_pending (store, 1000, &due, &error);
  fail_unless (d != NULL);
  fail_unless_equals_string (d->request_id, "r1");
  fail_unless_equals_int (d->received_at, 1000);
  fail_unless_equals_string (d->headers, "X-A: 1\n");
  fail_unless_equals_int (g_bytes_get_size (d->body), strlen (body));
  fail_unless (memcmp (g_bytes_get_data (d->body, NULL), body,
          strlen (body)) == 0);
  fail_if (d->processed);
  cli_delivery_free (d);

  fail_unless (cli_store_mark_processed (store, "r1", 1002, &error));
  fail_unless (cli_store_next_pending (store, 5000, &due, &error) == NULL);
  fail_unless (error == NULL);
  fail_unless_equals_int (due, 0);
  fail_unless_equals_int (cli_store_count (store, TRUE, NULL), 0);
  /* a processed id is still known: a redelivery is a duplicate */
  fail_unless_equals_int (cli_store_insert (store, "r1", 1003, "",
          (const guint8 *) "", 0, &error), CLI_STORE_DUPLICATE);
  cli_store_close (store);

  /* write-ahead logging, kept in the file */
  mode = pragma (path, "PRAGMA journal_mode");
  fail_unless_equals_string (mode, "wal");
  g_free (mode);

  store = cli_store_open (path, TRUE, &error);
  fail_unless (store != NULL);
  d = cli_store_get (store, "r1", &error);
  fail_unless (d != NULL && d->processed);
  fail_unless_equals_int (d->processed_at, 1002);
  cli_delivery_free (d);
  cli_store_close (store);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_store_pending_after_reopen)
{
  gchar *path = cli_tmp_path ("store2.db");
  GError *error = NULL;
  CliStore *store;
  CliDelivery *d;
  gint64 due = 0;

  store = cli_store_open (path, TRUE, &error);
  fail_unless (store != NULL);
  fail_unless_equals_int (cli_store_insert (store, "b", 2000, "",
          (const guint8 *) "2", 1, NULL), CLI_STORE_STORED);
  fail_unless_equals_int (cli_store_insert (store, "a", 2001, "",
          (const guint8 *) "1", 1, NULL), CLI_STORE_STORED);
  /* closed without processing, as a crash would leave it */
  cli_store_close (store);

  store = cli_store_open (path, TRUE, &error);
  fail_unless (store != NULL);
  fail_unless_equals_int (cli_store_count (store, TRUE, NULL), 2);
  /* oldest first */
  d = cli_store_next_pending (store, 3000, NULL, &error);
  fail_unless_equals_string (d->request_id, "b");
  /* a failed attempt: due again later; the other one comes first */
  fail_unless (cli_store_mark_failed (store, "b", 3010, "exit 1", &error));
  cli_delivery_free (d);
  d = cli_store_next_pending (store, 3000, NULL, &error);
  fail_unless_equals_string (d->request_id, "a");
  fail_unless (cli_store_mark_processed (store, "a", 3000, NULL));
  cli_delivery_free (d);
  fail_unless (cli_store_next_pending (store, 3005, &due, &error) == NULL);
  fail_unless_equals_int (due, 3010);
  d = cli_store_next_pending (store, 3010, NULL, &error);
  fail_unless_equals_string (d->request_id, "b");
  fail_unless_equals_int (d->attempts, 1);
  fail_unless_equals_string (d->last_error, "exit 1");
  cli_delivery_free (d);
  cli_store_close (store);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_store_prune)
{
  gchar *path = cli_tmp_path ("store3.db");
  CliStore *store = cli_store_open (path, FALSE, NULL);

  fail_unless (store != NULL);
  cli_store_insert (store, "old-done", 100, "", (const guint8 *) "x", 1, NULL);
  cli_store_insert (store, "old-pending", 100, "", (const guint8 *) "x", 1,
      NULL);
  cli_store_insert (store, "new-done", 900, "", (const guint8 *) "x", 1, NULL);
  cli_store_mark_processed (store, "old-done", 101, NULL);
  cli_store_mark_processed (store, "new-done", 901, NULL);
  /* only processed deliveries older than the limit go */
  fail_unless_equals_int (cli_store_prune (store, 500, NULL), 1);
  fail_unless (cli_store_get (store, "old-done", NULL) == NULL);
  cli_delivery_free (cli_store_get (store, "old-pending", NULL));
  fail_unless_equals_int (cli_store_count (store, FALSE, NULL), 2);
  /* a pruned id is forgotten: it would be stored again */
  fail_unless_equals_int (cli_store_insert (store, "old-done", 1000, "",
          (const guint8 *) "x", 1, NULL), CLI_STORE_STORED);
  cli_store_close (store);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_store_lock_and_schema)
{
  gchar *path = cli_tmp_path ("store4.db");
  GError *error = NULL;
  CliStore *store = cli_store_open (path, TRUE, &error), *second;
  sqlite3 *db;

  fail_unless (store != NULL);
  second = cli_store_open (path, TRUE, &error);
  fail_unless (second == NULL);
  fail_unless (g_error_matches (error, CLI_STORE_ERROR,
          CLI_STORE_ERROR_LOCKED), "%s", error->message);
  g_clear_error (&error);
  cli_store_close (store);

  /* a newer schema is refused, not changed */
  fail_unless (sqlite3_open (path, &db) == SQLITE_OK);
  fail_unless (sqlite3_exec (db, "PRAGMA user_version=7", NULL, NULL,
          NULL) == SQLITE_OK);
  sqlite3_close (db);
  store = cli_store_open (path, TRUE, &error);
  fail_unless (store == NULL);
  fail_unless (g_error_matches (error, CLI_STORE_ERROR,
          CLI_STORE_ERROR_SCHEMA));
  g_clear_error (&error);

  /* not a database */
  fail_unless (g_file_set_contents (path, "not sqlite at all, just text "
          "long enough to have a header", -1, NULL));
  store = cli_store_open (path, FALSE, &error);
  fail_unless (store == NULL);
  g_clear_error (&error);
  g_free (path);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* arguments and exit codes                                               */

static void
expect_status (CliRun * run, gint status, const gchar * in_err)
{
  fail_unless_equals_int (run->status, status);
  if (in_err)
    fail_unless (strstr (run->err, in_err) != NULL, "stderr lacks \"%s\": %s",
        in_err, run->err);
  cli_run_free (run);
}

GST_START_TEST (test_usage_errors)
{
  CliRun *run;

  run = cli_run (NULL, NULL);
  fail_unless (strstr (run->err, "Exit codes") != NULL);
  expect_status (run, 2, NULL);
  run = cli_run ("--help", NULL);
  fail_unless (strstr (run->out, "Exit codes") != NULL);
  fail_unless (strstr (run->out, "4  rate limited") != NULL);
  expect_status (run, 0, NULL);
  expect_status (cli_run ("frobnicate", NULL), 2, "unknown command");
  expect_status (cli_run ("webhook", NULL), 2, "listen or verify");
  expect_status (cli_run ("webhook", "verify", "--body", "x", NULL), 2,
      "needs --headers");
  expect_status (cli_run ("webhook", "verify", "--nope", NULL), 2,
      "Unknown option");
  expect_status (cli_run ("--timeout", "soon", "apps", "list", NULL), 2,
      "--timeout");
  expect_status (cli_run ("apps", "list", "--api-key", NULL), 2,
      "needs a value");
  run = cli_run ("webhook", "verify", "--help", NULL);
  fail_unless (strstr (run->out, "--jwks-url") != NULL);
  fail_unless (strstr (run->out, "Exit codes") != NULL);
  expect_status (run, 0, NULL);

  /* --json: the error as an object on stdout too */
  run = cli_run ("--json", "frobnicate", NULL);
  fail_unless (g_str_has_prefix (run->out, "{\"error\":{\"kind\":\"usage\""),
      "%s", run->out);
  expect_status (run, 2, NULL);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* webhook verify                                                         */

typedef struct
{
  TestKey *key;
  gchar *jwks;
  gchar *headers;
  gchar *body;
  gint64 ts;
} Captured;

static void
captured_init (Captured * c, const gchar * request_id)
{
  gchar *body = cli_delivery_body (request_id);
  gchar *headers;
  gchar *jwks;

  c->key = test_key_new ();
  if (c->key == NULL)
    return;
  c->ts = g_get_real_time () / G_USEC_PER_SEC;
  headers = cli_delivery_headers (c->key, request_id, "user-1", c->ts, body);
  jwks = cli_jwks (c->key, NULL);
  c->headers = cli_tmp_path ("cap.headers");
  c->body = cli_tmp_path ("cap.json");
  c->jwks = cli_tmp_path ("cap.jwks");
  fail_unless (g_file_set_contents (c->headers, headers, -1, NULL));
  fail_unless (g_file_set_contents (c->body, body, -1, NULL));
  fail_unless (g_file_set_contents (c->jwks, jwks, -1, NULL));
  g_free (headers);
  g_free (jwks);
  g_free (body);
}

static void
captured_clear (Captured * c)
{
  test_key_free (c->key);
  g_free (c->jwks);
  g_free (c->headers);
  g_free (c->body);
}

static CliRun *
verify (Captured * c, const gchar * extra1, const gchar * extra2)
{
  return cli_run ("webhook", "verify", "--headers", c->headers, "--body",
      c->body, "--jwks", c->jwks, extra1, extra2, NULL);
}

GST_START_TEST (test_verify_captured)
{
  Captured c = { NULL };
  CliRun *run;
  gchar *now, *text;
  TestKey *other;

  captured_init (&c, "req-verify-1");
  REQUIRE_KEY (c.key);

  run = verify (&c, NULL, NULL);
  fail_unless (g_str_has_prefix (run->out, "VALID (request_id "
          "req-verify-1, status OK"), "%s", run->out);
  expect_status (run, 0, NULL);

  /* machine-readable */
  run = cli_run ("webhook", "verify", "--json", "--headers", c.headers,
      "--body", c.body, "--jwks", c.jwks, NULL);
  fail_unless (strstr (run->out, "\"valid\":true") != NULL, "%s", run->out);
  fail_unless (strstr (run->out, "\"user_id\":\"user-1\"") != NULL);
  expect_status (run, 0, NULL);

  /* too old for the clock given; within a larger leeway */
  now = g_strdup_printf ("%" G_GINT64_FORMAT, c.ts + 301);
  run = verify (&c, "--now", now);
  fail_unless (g_str_has_prefix (run->out, "INVALID (stale-timestamp)"),
      "%s", run->out);
  expect_status (run, 1, NULL);
  run = cli_run ("webhook", "verify", "--headers", c.headers, "--body",
      c.body, "--jwks", c.jwks, "--now", now, "--leeway", "400", NULL);
  expect_status (run, 0, NULL);
  g_free (now);
  now = g_strdup_printf ("%" G_GINT64_FORMAT, c.ts - 301);
  run = verify (&c, "--now", now);
  fail_unless (g_str_has_prefix (run->out, "INVALID (future-timestamp)"));
  expect_status (run, 1, NULL);
  g_free (now);

  /* another key set */
  other = test_key_new ();
  text = cli_jwks (other, NULL);
  fail_unless (g_file_set_contents (c.jwks, text, -1, NULL));
  g_free (text);
  run = verify (&c, NULL, NULL);
  fail_unless (g_str_has_prefix (run->out, "INVALID (no-key-matched)"));
  expect_status (run, 1, NULL);
  /* rotation: both keys */
  text = cli_jwks (other, c.key, NULL);
  fail_unless (g_file_set_contents (c.jwks, text, -1, NULL));
  g_free (text);
  run = verify (&c, NULL, NULL);
  fail_unless (strstr (run->out, "key 1)") != NULL, "%s", run->out);
  expect_status (run, 0, NULL);
  test_key_free (other);

  /* one byte of the body changed */
  fail_unless (g_file_get_contents (c.body, &text, NULL, NULL));
  text[strlen (text) - 3] = '3';
  fail_unless (g_file_set_contents (c.body, text, -1, NULL));
  g_free (text);
  run = verify (&c, NULL, NULL);
  fail_unless (g_str_has_prefix (run->out, "INVALID (no-key-matched)"));
  expect_status (run, 1, NULL);

  captured_clear (&c);
}

GST_END_TEST;

GST_START_TEST (test_verify_header_forms)
{
  Captured c = { NULL };
  gchar *body, *sig, *ts, *text;
  CliRun *run;

  captured_init (&c, "req-verify-2");
  REQUIRE_KEY (c.key);
  fail_unless (g_file_get_contents (c.body, &body, NULL, NULL));
  ts = g_strdup_printf ("%" G_GINT64_FORMAT, c.ts);
  sig = test_key_sign_delivery (c.key, "req-verify-2", "user-1", ts, body,
      strlen (body));

  /* a JSON object (the "headers" of a JSONL record), names in any case */
  text = g_strdup_printf ("{\"x-svc-webhook-request-id\": \"req-verify-2\", "
      "\"X-Svc-Webhook-User-Id\": \"user-1\", \"X-SVC-WEBHOOK-TIMESTAMP\": "
      "\"%s\", \"X-Svc-Webhook-Signature\": \"%s\"}", ts, sig);
  fail_unless (g_file_set_contents (c.headers, text, -1, NULL));
  g_free (text);
  expect_status (verify (&c, NULL, NULL), 0, NULL);

  /* a header missing */
  text = g_strdup_printf ("X-Svc-Webhook-Request-Id: req-verify-2\n"
      "X-Svc-Webhook-Timestamp: %s\nX-Svc-Webhook-Signature: %s\n", ts, sig);
  fail_unless (g_file_set_contents (c.headers, text, -1, NULL));
  g_free (text);
  run = verify (&c, NULL, NULL);
  fail_unless (g_str_has_prefix (run->out, "INVALID (missing-header)"));
  fail_unless (strstr (run->out, "X-Svc-Webhook-User-Id") != NULL);
  expect_status (run, 1, NULL);

  /* a request id other than the body's: signed, but not a delivery */
  g_free (sig);
  sig = test_key_sign_delivery (c.key, "req-other", "user-1", ts, body,
      strlen (body));
  text = g_strdup_printf ("X-Svc-Webhook-Request-Id: req-other\n"
      "X-Svc-Webhook-User-Id: user-1\nX-Svc-Webhook-Timestamp: %s\n"
      "X-Svc-Webhook-Signature: %s\n", ts, sig);
  fail_unless (g_file_set_contents (c.headers, text, -1, NULL));
  g_free (text);
  run = verify (&c, NULL, NULL);
  fail_unless (g_str_has_prefix (run->out, "INVALID (invalid-delivery)"),
      "%s", run->out);
  expect_status (run, 1, NULL);

  /* not headers at all */
  fail_unless (g_file_set_contents (c.headers, "no colon here\n", -1, NULL));
  expect_status (verify (&c, NULL, NULL), 2, "Name: value");
  /* a key set that is not one */
  fail_unless (g_file_set_contents (c.jwks, "{\"keys\": 3}", -1, NULL));
  expect_status (verify (&c, NULL, NULL), 2, NULL);

  g_free (ts);
  g_free (sig);
  g_free (body);
  captured_clear (&c);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* webhook listen: arguments and local failures                           */

GST_START_TEST (test_listen_usage)
{
  gchar *db = cli_tmp_path ("usage.db"), *out = cli_tmp_path ("usage.jsonl");
  const gchar *jwks = "http://127.0.0.1:1/jwks.json";

  expect_status (cli_run ("webhook", "listen", "--jwks-url", jwks, "--db",
          db, "--jsonl", out, NULL), 2, "--port");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--db", db,
          "--jsonl", out, NULL), 2, "--jwks-url");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          "ftp://127.0.0.1/k", "--db", db, "--jsonl", out, NULL), 2,
      "--jwks-url");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--jsonl", out, NULL), 2, "--db");
  /* the key set and the metadata over https, or plain http to loopback;
   * refused before anything is fetched */
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          "http://keys.example/jwks.json", "--db", db, "--jsonl", out, NULL),
      2, "plain http to keys.example");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--api-url", "http://api.example", "--db", db, "--jsonl",
          out, NULL), 2, "--api-url: plain http");
  expect_status (cli_run ("webhook", "verify", "--headers", db, "--body",
          db, "--jwks-url", "http://keys.example/jwks.json", NULL), 2,
      "plain http");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", db, NULL), 2, "one of --exec, --jsonl or --dir");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", db, "--jsonl", out, "--dir", out, NULL), 2, "one of");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", db, "--jsonl", out, "--keep-ids", "7499", NULL), 2,
      "at least 7500");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", db, "--jsonl", out, "--max-body", "0", NULL), 2,
      "--max-body");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", db, "--exec", "'unterminated", NULL), 2, "--exec");
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", db, "--jsonl", out, "--host", "example.org", NULL),
      2, "not an IP address");
  g_free (db);
  g_free (out);
}

GST_END_TEST;

GST_START_TEST (test_listen_local_failures)
{
  gchar *db = cli_tmp_path ("busy.db"), *out = cli_tmp_path ("busy.jsonl");
  gchar *other = cli_tmp_path ("other.db"), *port;
  gchar *missing = cli_tmp_path ("no/such/dir/x.db");
  const gchar *jwks = "http://127.0.0.1:1/jwks.json";
  const gchar *args[] = { "webhook", "listen", "--port", "0", "--jwks-url",
    jwks, "--db", db, "--jsonl", out, NULL
  };
  CliChild *l = cli_listener_start (NULL, args);

  /* the database is held by a running listener */
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", db, "--jsonl", out, NULL), 6, "in use");
  /* the port is taken */
  port = g_strdup (strrchr (l->url, ':') + 1);
  expect_status (cli_run ("webhook", "listen", "--port", port, "--jwks-url",
          jwks, "--db", other, "--jsonl", out, NULL), 6, NULL);
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", missing, "--jsonl", out, NULL), 6, NULL);
  expect_status (cli_run ("webhook", "listen", "--port", "0", "--jwks-url",
          jwks, "--db", other, "--jsonl", missing, NULL), 6, NULL);
  cli_child_stop (l);
  cli_child_free (l);
  g_free (port);
  g_free (missing);
  g_free (other);
  g_free (out);
  g_free (db);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* the API key out of sight; a service that never answers                 */

typedef struct
{
  gboolean done;
} Done;

static void
on_exited (GObject * source, GAsyncResult * res, gpointer user_data)
{
  g_subprocess_wait_finish (G_SUBPROCESS (source), res, NULL);
  ((Done *) user_data)->done = TRUE;
}

static gboolean
is_done (gpointer user_data)
{
  return ((Done *) user_data)->done;
}

GST_START_TEST (test_api_key_hidden_and_timeout)
{
  GSocket *sock = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM,
      G_SOCKET_PROTOCOL_TCP, NULL);
  GInetAddress *lo = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  GSocketAddress *addr = g_inet_socket_address_new (lo, 0), *bound;
  gchar *url, *bin = cli_binary (), *cmdline = NULL, *path, *out, *err;
  GSubprocess *proc;
  GInputStream *stream;
  gsize len = 0;
  Done done = { FALSE };
  gchar buf[4096];
  gssize n;

  /* a service that accepts connections and never answers */
  fail_unless (g_socket_bind (sock, addr, TRUE, NULL));
  fail_unless (g_socket_listen (sock, NULL));
  bound = g_socket_get_local_address (sock, NULL);
  url = g_strdup_printf ("http://127.0.0.1:%u", g_inet_socket_address_get_port
      (G_INET_SOCKET_ADDRESS (bound)));

  proc = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
      G_SUBPROCESS_FLAGS_STDERR_MERGE, NULL, bin, "--timeout", "1500",
      "runners", "get", "runner-1", "--api-url", url, "--api-key",
      "SEKRIT-on-the-command-line", NULL);
  fail_unless (proc != NULL);
  g_usleep (300 * 1000);
  /* what ps shows */
  path = g_strdup_printf ("/proc/%s/cmdline", g_subprocess_get_identifier
      (proc));
  fail_unless (g_file_get_contents (path, &cmdline, &len, NULL));
  fail_unless (len > 0);
  for (n = 0; n < (gssize) len; n++)
    if (cmdline[n] == '\0')
      cmdline[n] = ' ';
  fail_if (g_strstr_len (cmdline, len, "SEKRIT") != NULL,
      "the key is visible in %s", path);
  fail_unless (g_strstr_len (cmdline, len, "--api-key xxxxxxxx") != NULL,
      "%.*s", (gint) len, cmdline);

  g_subprocess_wait_async (proc, NULL, on_exited, &done);
  fail_unless (cli_wait_for (is_done, &done, 15000));
  /* no answer within --timeout: transient */
  fail_unless_equals_int (g_subprocess_get_exit_status (proc), 5);
  stream = g_subprocess_get_stdout_pipe (proc);
  n = g_input_stream_read (stream, buf, sizeof (buf) - 1, NULL, NULL);
  buf[MAX (n, 0)] = '\0';
  out = buf;
  err = strstr (out, "1500 ms");
  fail_unless (err != NULL, "%s", out);
  fail_if (strstr (out, "SEKRIT") != NULL);

  g_object_unref (proc);
  g_free (path);
  g_free (cmdline);
  g_free (url);
  g_free (bin);
  g_object_unref (bound);
  g_object_unref (addr);
  g_object_unref (lo);
  g_object_unref (sock);
}

GST_END_TEST;

/* ---------------------------------------------------------------------- */
/* headers, file names and the processors                                 */

GST_START_TEST (test_headers_text)
{
  const gchar text[] = "POST /hook HTTP/1.1\r\nHost: x\r\nX-A:  1 \r\n"
      "\r\nX-A: 2\n";
  SoupMessageHeaders *h;
  GError *error = NULL;
  gchar *back;

  h = cli_headers_parse (text, strlen (text), &error);
  fail_unless (h != NULL);
  fail_unless_equals_string (soup_message_headers_get_one (h, "host"), "x");
  fail_unless_equals_string (soup_message_headers_get_list (h, "X-A"), "1, 2");
  back = cli_headers_to_text (h);
  fail_unless_equals_string (back, "Host: x\nX-A: 1\nX-A: 2\n");
  g_free (back);
  soup_message_headers_unref (h);

  h = cli_headers_parse ("{\"X-B\": \"3\"}", 12, &error);
  fail_unless_equals_string (soup_message_headers_get_one (h, "x-b"), "3");
  soup_message_headers_unref (h);

  fail_unless (cli_headers_parse ("{\"X-B\": 3}", 10, &error) == NULL);
  g_clear_error (&error);
  fail_unless (cli_headers_parse ("Host x\n", 7, &error) == NULL);
  g_clear_error (&error);
  fail_unless (cli_headers_parse (": x\n", 4, &error) == NULL);
  g_clear_error (&error);
}

GST_END_TEST;

GST_START_TEST (test_file_names)
{
  gchar *long_id = g_strnfill (129, 'a'), *name;
  const gchar *hashed[] = { ".hidden", "a/b", "../x", "", "é", "a b",
    long_id, NULL
  };
  guint i;

  name = cli_process_file_name ("3f1c-UUID_like.v2");
  fail_unless_equals_string (name, "3f1c-UUID_like.v2");
  g_free (name);
  /* 128 characters pass, 129 do not */
  long_id[128] = '\0';
  name = cli_process_file_name (long_id);
  fail_unless_equals_string (name, long_id);
  g_free (name);
  long_id[128] = 'a';
  for (i = 0; hashed[i]; i++) {
    name = cli_process_file_name (hashed[i]);
    fail_unless (g_str_has_prefix (name, "sha256-"), "%s", name);
    fail_unless_equals_int (strlen (name), 7 + 64);
    g_free (name);
  }
  g_free (long_id);
}

GST_END_TEST;

static CliDelivery *
delivery_new (const gchar * id, const gchar * body)
{
  CliDelivery *d = g_new0 (CliDelivery, 1);

  d->request_id = g_strdup (id);
  d->received_at = 1700000000;
  d->headers = g_strdup ("X-Svc-Webhook-Request-Id: r\nX-Other: y\n");
  d->body = g_bytes_new (body, strlen (body));
  return d;
}

typedef struct
{
  gboolean done;
  gboolean ok;
  GError *error;
  CliProcessor *p;
} RunResult;

static void
on_run (GObject * source, GAsyncResult * res, gpointer user_data)
{
  RunResult *r = user_data;

  r->ok = cli_processor_run_finish (r->p, res, &r->error);
  r->done = TRUE;
}

static gboolean
run_done (gpointer user_data)
{
  return ((RunResult *) user_data)->done;
}

static gboolean
process (CliProcessor * p, const CliDelivery * d, GError ** error)
{
  RunResult r = { FALSE, FALSE, NULL, p };

  cli_processor_run_async (p, d, on_run, &r);
  fail_unless (cli_wait_for (run_done, &r, 20000));
  if (r.error)
    g_propagate_error (error, r.error);
  return r.ok;
}

GST_START_TEST (test_process_jsonl)
{
  gchar *path = cli_tmp_path ("p.jsonl"), **lines;
  const gchar body[] = "{\"request_id\": \"r\",\n \"gateway_request_id\": "
      "\"g\", \"status\": \"OK\", \"payload\": {\"big\": 12345678901234567890}}";
  CliDelivery *d = delivery_new ("r", body);
  CliProcessor *p;
  GError *error = NULL;
  JsonParser *parser = json_parser_new ();
  JsonObject *rec;

  /* a complete line, then a torn one */
  fail_unless (g_file_set_contents (path, "{\"old\": 1}\n{\"torn", -1, NULL));
  p = cli_processor_new (CLI_PROCESS_JSONL, path, 0, &error);
  fail_unless (p != NULL);
  fail_unless (process (p, d, &error));
  fail_unless (process (p, d, &error));
  cli_processor_free (p);

  lines = cli_read_lines (path);
  fail_unless_equals_int (g_strv_length (lines), 3);
  fail_unless_equals_string (lines[0], "{\"old\": 1}");
  fail_unless_equals_string (lines[1], lines[2]);
  fail_unless (json_parser_load_from_data (parser, lines[1], -1, NULL));
  rec = json_node_get_object (json_parser_get_root (parser));
  fail_unless_equals_string (json_object_get_string_member (rec,
          "request_id"), "r");
  fail_unless_equals_string (json_object_get_string_member (rec,
          "gateway_request_id"), "g");
  fail_unless_equals_string (json_object_get_string_member (rec, "status"),
      "OK");
  fail_unless_equals_int (json_object_get_int_member (rec, "received_at"),
      1700000000);
  /* byte for byte, the newline and the big number included */
  fail_unless_equals_string (json_object_get_string_member (rec, "body"), body);
  fail_unless_equals_string (json_object_get_string_member
      (json_object_get_object_member (rec, "headers"), "X-Other"), "y");
  g_object_unref (parser);
  g_strfreev (lines);
  cli_delivery_free (d);
  g_free (path);
}

GST_END_TEST;

GST_START_TEST (test_process_dir)
{
  gchar *dir = cli_tmp_path ("inbox/sub"), *path, *text;
  CliDelivery *d = delivery_new ("../escape", "{\"x\": 1}");
  CliProcessor *p = cli_processor_new (CLI_PROCESS_DIR, dir, 0, NULL);
  gchar *name = cli_process_file_name ("../escape"), *file;

  fail_unless (p != NULL);
  fail_unless (process (p, d, NULL));
  /* again: the same files */
  fail_unless (process (p, d, NULL));
  file = g_strconcat (name, ".json", NULL);
  path = g_build_filename (dir, file, NULL);
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  fail_unless_equals_string (text, "{\"x\": 1}");
  g_free (text);
  g_free (path);
  g_free (file);
  file = g_strconcat (name, ".headers", NULL);
  path = g_build_filename (dir, file, NULL);
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  fail_unless (g_str_has_prefix (text, "X-Svc-Webhook-Request-Id: r\n"));
  g_free (text);
  g_free (path);
  g_free (file);
  cli_processor_free (p);
  cli_delivery_free (d);
  g_free (name);
  g_free (dir);
}

GST_END_TEST;

GST_START_TEST (test_process_exec)
{
  gchar *out = cli_tmp_path ("exec.out"), *cmd, *text;
  CliDelivery *d = delivery_new ("req-7", "the body\n");
  GError *error = NULL;
  CliProcessor *p;

  /* the body on stdin, the id and attempt in the environment, no key */
  g_setenv ("GST_SESSION_API_KEY", "SEKRIT-in-env", TRUE);
  cmd = g_strdup_printf ("sh -c 'cat > %s; echo \"$GST_SESSION_REQUEST_ID "
      "$GST_SESSION_ATTEMPT ${GST_SESSION_API_KEY:-none}\" >> %s'", out, out);
  p = cli_processor_new (CLI_PROCESS_EXEC, cmd, 10, &error);
  fail_unless (p != NULL);
  d->attempts = 2;
  fail_unless (process (p, d, &error));
  fail_unless (g_file_get_contents (out, &text, NULL, NULL));
  fail_unless_equals_string (text, "the body\nreq-7 3 none\n");
  g_free (text);
  cli_processor_free (p);
  g_free (cmd);
  g_unsetenv ("GST_SESSION_API_KEY");

  /* a failure, a command that does not read its stdin, a timeout */
  p = cli_processor_new (CLI_PROCESS_EXEC, "sh -c 'exit 3'", 10, NULL);
  fail_if (process (p, d, &error));
  fail_unless (strstr (error->message, "status 3") != NULL, "%s",
      error->message);
  g_clear_error (&error);
  cli_processor_free (p);
  p = cli_processor_new (CLI_PROCESS_EXEC, "true", 10, NULL);
  g_bytes_unref (d->body);
  d->body = g_bytes_new_take (g_malloc0 (1 << 20), 1 << 20);
  fail_unless (process (p, d, &error));
  cli_processor_free (p);
  p = cli_processor_new (CLI_PROCESS_EXEC, "sleep 30", 1, NULL);
  fail_if (process (p, d, &error));
  fail_unless (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT));
  g_clear_error (&error);
  cli_processor_free (p);
  p = cli_processor_new (CLI_PROCESS_EXEC, "/no/such/program", 1, NULL);
  fail_if (process (p, d, &error));
  g_clear_error (&error);
  cli_processor_free (p);

  fail_unless (cli_processor_new (CLI_PROCESS_EXEC, "'open", 1, &error) ==
      NULL);
  fail_unless (g_error_matches (error, G_IO_ERROR,
          G_IO_ERROR_INVALID_ARGUMENT));
  g_clear_error (&error);
  cli_delivery_free (d);
  g_free (out);
}

GST_END_TEST;

static Suite *
cli_unit_suite (void)
{
  Suite *s = suite_create ("gst-session-cli-unit");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_store_insert_duplicate_processed);
  tcase_add_test (tc, test_store_pending_after_reopen);
  tcase_add_test (tc, test_store_prune);
  tcase_add_test (tc, test_store_lock_and_schema);
  tcase_add_test (tc, test_usage_errors);
  tcase_add_test (tc, test_verify_captured);
  tcase_add_test (tc, test_verify_header_forms);
  tcase_add_test (tc, test_headers_text);
  tcase_add_test (tc, test_file_names);
  tcase_add_test (tc, test_process_jsonl);
  tcase_add_test (tc, test_process_dir);
  tcase_add_test (tc, test_process_exec);
  tcase_add_test (tc, test_listen_usage);
  tcase_add_test (tc, test_listen_local_failures);
  tcase_add_test (tc, test_api_key_hidden_and_timeout);
  tcase_add_checked_fixture (tc, NULL, cli_tmp_cleanup);
  return s;
}

GST_CHECK_MAIN (cli_unit);
