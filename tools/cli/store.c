/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: the SQLite store of received webhook deliveries.
 *
 * One table keyed by the signed request id. A delivery is inserted (and
 * the commit synced: WAL, synchronous=FULL) before the receiver answers
 * 2xx; processing marks it processed afterwards, so a crash between the
 * two leaves it pending and it is processed again at the next start (at
 * least once). Only processed rows are pruned.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>
#include <sqlite3.h>

#include "store.h"

struct _CliStore
{
  sqlite3 *db;
  gint lock_fd;
};

G_DEFINE_QUARK (cli - store - error - quark, cli_store_error);

static const gchar schema[] =
    "CREATE TABLE IF NOT EXISTS deliveries ("
    " request_id TEXT PRIMARY KEY NOT NULL,"
    " received_at INTEGER NOT NULL,"
    " headers TEXT NOT NULL,"
    " body BLOB NOT NULL,"
    " processed INTEGER NOT NULL DEFAULT 0,"
    " processed_at INTEGER,"
    " attempts INTEGER NOT NULL DEFAULT 0,"
    " next_attempt_at INTEGER NOT NULL DEFAULT 0,"
    " last_error TEXT);"
    "CREATE INDEX IF NOT EXISTS deliveries_pending"
    " ON deliveries (processed, next_attempt_at, received_at);";

#define COLUMNS "request_id, received_at, headers, body, processed, " \
  "processed_at, attempts, next_attempt_at, last_error"

void
cli_delivery_free (CliDelivery * delivery)
{
  if (delivery == NULL)
    return;
  g_free (delivery->request_id);
  g_free (delivery->headers);
  g_bytes_unref (delivery->body);
  g_free (delivery->last_error);
  g_free (delivery);
}

static void
set_db_error (GError ** error, CliStore * store, gint code, const gchar * what)
{
  g_set_error (error, CLI_STORE_ERROR, code, "%s: %s", what,
      store->db ? sqlite3_errmsg (store->db) : "out of memory");
}

static gboolean
exec_sql (CliStore * store, const gchar * sql, GError ** error)
{
  gchar *msg = NULL;

  if (sqlite3_exec (store->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
    g_set_error (error, CLI_STORE_ERROR, CLI_STORE_ERROR_IO,
        "the database refused \"%.40s\": %s", sql, msg ? msg : "?");
    sqlite3_free (msg);
    return FALSE;
  }
  return TRUE;
}

/* The first column of the first row of @sql, as text. */
static gchar *
query_text (CliStore * store, const gchar * sql)
{
  sqlite3_stmt *stmt = NULL;
  gchar *text = NULL;

  if (sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    text = g_strdup ((const gchar *) sqlite3_column_text (stmt, 0));
  sqlite3_finalize (stmt);
  return text;
}

static gboolean
take_lock (CliStore * store, const gchar * path, GError ** error)
{
  gchar *lock_path = g_strconcat (path, ".lock", NULL);
  gboolean ok = TRUE;

  store->lock_fd = open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (store->lock_fd < 0) {
    g_set_error (error, CLI_STORE_ERROR, CLI_STORE_ERROR_OPEN,
        "cannot open the lock file %s: %s", lock_path, g_strerror (errno));
    ok = FALSE;
  } else if (flock (store->lock_fd, LOCK_EX | LOCK_NB) != 0) {
    g_set_error (error, CLI_STORE_ERROR, CLI_STORE_ERROR_LOCKED,
        "%s is in use by another listener (%s is locked)", path, lock_path);
    ok = FALSE;
  }
  g_free (lock_path);
  return ok;
}

CliStore *
cli_store_open (const gchar * path, gboolean exclusive, GError ** error)
{
  CliStore *store = g_new0 (CliStore, 1);
  gchar *mode = NULL, *version = NULL;

  store->lock_fd = -1;
  if (exclusive && !take_lock (store, path, error))
    goto fail;
  /* deliveries are the account's data: only its owner reads them (SQLite
   * gives its journal and WAL files the database's mode) */
  {
    gint fd = open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

    if (fd >= 0)
      close (fd);
  }
  if (sqlite3_open_v2 (path, &store->db, SQLITE_OPEN_READWRITE |
          SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
    set_db_error (error, store, CLI_STORE_ERROR_OPEN, "cannot open the "
        "database");
    goto fail;
  }
  /* the listener writes on its main loop: a database locked by another
   * process must not stall every connection; a short wait, then 503 (the
   * service delivers again). One-shot commands can wait longer. */
  sqlite3_busy_timeout (store->db, exclusive ? 100 : 5000);
  sqlite3_extended_result_codes (store->db, 1);

  version = query_text (store, "PRAGMA user_version");
  if (version == NULL) {
    set_db_error (error, store, CLI_STORE_ERROR_OPEN, "cannot read the "
        "database");
    goto fail;
  }
  if (g_ascii_strtoll (version, NULL, 10) > CLI_STORE_SCHEMA_VERSION) {
    g_set_error (error, CLI_STORE_ERROR, CLI_STORE_ERROR_SCHEMA,
        "the database has schema version %s; this gst-session knows %d",
        version, CLI_STORE_SCHEMA_VERSION);
    goto fail;
  }
  mode = query_text (store, "PRAGMA journal_mode=WAL");
  if (mode == NULL || g_ascii_strcasecmp (mode, "wal") != 0) {
    g_set_error (error, CLI_STORE_ERROR, CLI_STORE_ERROR_OPEN,
        "the database cannot use write-ahead logging (journal mode %s)",
        mode ? mode : "unknown");
    goto fail;
  }
  if (!exec_sql (store, "PRAGMA synchronous=FULL", error) ||
      !exec_sql (store, schema, error) ||
      !exec_sql (store, "PRAGMA user_version=1", error))
    goto fail;
  g_free (mode);
  g_free (version);
  return store;

fail:
  g_free (mode);
  g_free (version);
  cli_store_close (store);
  return NULL;
}

void
cli_store_close (CliStore * store)
{
  if (store == NULL)
    return;
  if (store->db)
    sqlite3_close_v2 (store->db);
  if (store->lock_fd >= 0)
    close (store->lock_fd);
  g_free (store);
}

static sqlite3_stmt *
prepare (CliStore * store, const gchar * sql, GError ** error)
{
  sqlite3_stmt *stmt = NULL;

  if (sqlite3_prepare_v2 (store->db, sql, -1, &stmt, NULL) != SQLITE_OK) {
    set_db_error (error, store, CLI_STORE_ERROR_IO, "cannot prepare a query");
    return NULL;
  }
  return stmt;
}

CliStoreInsert
cli_store_insert (CliStore * store, const gchar * request_id,
    gint64 received_at, const gchar * headers, const guint8 * body,
    gsize body_length, GError ** error)
{
  sqlite3_stmt *stmt = prepare (store, "INSERT OR IGNORE INTO deliveries "
      "(request_id, received_at, headers, body, next_attempt_at) "
      "VALUES (?, ?, ?, ?, ?)", error);
  CliStoreInsert ret = CLI_STORE_FAILED;

  if (stmt == NULL)
    return CLI_STORE_FAILED;
  sqlite3_bind_text (stmt, 1, request_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 2, received_at);
  sqlite3_bind_text (stmt, 3, headers, -1, SQLITE_STATIC);
  /* an empty blob must not become NULL */
  sqlite3_bind_blob64 (stmt, 4, body ? (const void *) body : "", body_length,
      SQLITE_STATIC);
  sqlite3_bind_int64 (stmt, 5, received_at);
  if (sqlite3_step (stmt) == SQLITE_DONE)
    ret = sqlite3_changes (store->db) > 0 ? CLI_STORE_STORED :
        CLI_STORE_DUPLICATE;
  else
    set_db_error (error, store, CLI_STORE_ERROR_IO, "cannot store the "
        "delivery");
  sqlite3_finalize (stmt);
  return ret;
}

static CliDelivery *
read_row (sqlite3_stmt * stmt)
{
  CliDelivery *d = g_new0 (CliDelivery, 1);

  d->request_id = g_strdup ((const gchar *) sqlite3_column_text (stmt, 0));
  d->received_at = sqlite3_column_int64 (stmt, 1);
  d->headers = g_strdup ((const gchar *) sqlite3_column_text (stmt, 2));
  d->body = g_bytes_new (sqlite3_column_blob (stmt, 3),
      sqlite3_column_bytes (stmt, 3));
  d->processed = sqlite3_column_int (stmt, 4) != 0;
  d->processed_at = sqlite3_column_int64 (stmt, 5);
  d->attempts = sqlite3_column_int (stmt, 6);
  d->next_attempt_at = sqlite3_column_int64 (stmt, 7);
  d->last_error = g_strdup ((const gchar *) sqlite3_column_text (stmt, 8));
  return d;
}

CliDelivery *
cli_store_next_pending (CliStore * store, gint64 now, gint64 * next_due,
    GError ** error)
{
  sqlite3_stmt *stmt = prepare (store, "SELECT " COLUMNS " FROM deliveries "
      "WHERE processed = 0 ORDER BY next_attempt_at > ?, "
      "received_at, rowid LIMIT 1", error);
  CliDelivery *d = NULL;
  gint rc;

  if (next_due)
    *next_due = 0;
  if (stmt == NULL)
    return NULL;
  /* due ones first (oldest first), else the one due soonest */
  sqlite3_bind_int64 (stmt, 1, now);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW) {
    d = read_row (stmt);
    if (d->next_attempt_at > now) {
      sqlite3_finalize (stmt);
      stmt = prepare (store, "SELECT MIN(next_attempt_at) FROM deliveries "
          "WHERE processed = 0", error);
      if (stmt && sqlite3_step (stmt) == SQLITE_ROW && next_due)
        *next_due = sqlite3_column_int64 (stmt, 0);
      g_clear_pointer (&d, cli_delivery_free);
    }
  } else if (rc != SQLITE_DONE) {
    set_db_error (error, store, CLI_STORE_ERROR_IO, "cannot read the "
        "pending deliveries");
  }
  sqlite3_finalize (stmt);
  return d;
}

CliDelivery *
cli_store_get (CliStore * store, const gchar * request_id, GError ** error)
{
  sqlite3_stmt *stmt = prepare (store, "SELECT " COLUMNS " FROM deliveries "
      "WHERE request_id = ?", error);
  CliDelivery *d = NULL;
  gint rc;

  if (stmt == NULL)
    return NULL;
  sqlite3_bind_text (stmt, 1, request_id, -1, SQLITE_STATIC);
  rc = sqlite3_step (stmt);
  if (rc == SQLITE_ROW)
    d = read_row (stmt);
  else if (rc != SQLITE_DONE)
    set_db_error (error, store, CLI_STORE_ERROR_IO, "cannot read a delivery");
  sqlite3_finalize (stmt);
  return d;
}

static gboolean
step_done (CliStore * store, sqlite3_stmt * stmt, const gchar * what,
    GError ** error)
{
  gboolean ok = sqlite3_step (stmt) == SQLITE_DONE;

  if (!ok)
    set_db_error (error, store, CLI_STORE_ERROR_IO, what);
  sqlite3_finalize (stmt);
  return ok;
}

gboolean
cli_store_mark_processed (CliStore * store, const gchar * request_id,
    gint64 now, GError ** error)
{
  sqlite3_stmt *stmt = prepare (store, "UPDATE deliveries SET processed = 1, "
      "processed_at = ?, last_error = NULL WHERE request_id = ?", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, now);
  sqlite3_bind_text (stmt, 2, request_id, -1, SQLITE_STATIC);
  return step_done (store, stmt, "cannot mark a delivery processed", error);
}

gboolean
cli_store_mark_failed (CliStore * store, const gchar * request_id,
    gint64 next_attempt_at, const gchar * why, GError ** error)
{
  sqlite3_stmt *stmt = prepare (store, "UPDATE deliveries SET "
      "attempts = attempts + 1, next_attempt_at = ?, last_error = ? "
      "WHERE request_id = ?", error);

  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, next_attempt_at);
  sqlite3_bind_text (stmt, 2, why, -1, SQLITE_STATIC);
  sqlite3_bind_text (stmt, 3, request_id, -1, SQLITE_STATIC);
  return step_done (store, stmt, "cannot record a failed attempt", error);
}

gint
cli_store_prune (CliStore * store, gint64 before, GError ** error)
{
  sqlite3_stmt *stmt = prepare (store, "DELETE FROM deliveries WHERE "
      "processed = 1 AND received_at < ?", error);

  if (stmt == NULL)
    return -1;
  sqlite3_bind_int64 (stmt, 1, before);
  if (!step_done (store, stmt, "cannot prune old deliveries", error))
    return -1;
  return sqlite3_changes (store->db);
}

gint64
cli_store_count (CliStore * store, gboolean pending_only, GError ** error)
{
  sqlite3_stmt *stmt = prepare (store, pending_only ?
      "SELECT COUNT(*) FROM deliveries WHERE processed = 0" :
      "SELECT COUNT(*) FROM deliveries", error);
  gint64 n = -1;

  if (stmt == NULL)
    return -1;
  if (sqlite3_step (stmt) == SQLITE_ROW)
    n = sqlite3_column_int64 (stmt, 0);
  else
    set_db_error (error, store, CLI_STORE_ERROR_IO, "cannot count");
  sqlite3_finalize (stmt);
  return n;
}
