/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: the SQLite store of received webhook deliveries.
 */

#ifndef __GST_SESSION_CLI_STORE_H__
#define __GST_SESSION_CLI_STORE_H__

#include <glib.h>

G_BEGIN_DECLS

/* The schema version kept in PRAGMA user_version. */
#define CLI_STORE_SCHEMA_VERSION 1

typedef struct _CliStore CliStore;

/* One stored delivery. */
typedef struct
{
  gchar *request_id;
  gint64 received_at;           /* Unix seconds */
  gchar *headers;               /* "Name: value" lines */
  GBytes *body;                 /* the raw body */
  gboolean processed;
  gint64 processed_at;          /* Unix seconds, 0 when not processed */
  guint attempts;               /* failed processing attempts so far */
  gint64 next_attempt_at;       /* Unix seconds */
  gchar *last_error;
} CliDelivery;

void cli_delivery_free (CliDelivery * delivery);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliDelivery, cli_delivery_free)

typedef enum
{
  CLI_STORE_ERROR_OPEN,         /* cannot open or create the database */
  CLI_STORE_ERROR_LOCKED,       /* another listener holds the database */
  CLI_STORE_ERROR_SCHEMA,       /* a newer or foreign schema */
  CLI_STORE_ERROR_IO,           /* a statement failed */
} CliStoreError;

#define CLI_STORE_ERROR (cli_store_error_quark ())
GQuark cli_store_error_quark (void);

/* Opens (creating when missing) the database at @path in WAL mode with
 * synchronous=FULL. With @exclusive, a lock file "@path.lock" (flock)
 * keeps a second listener off the same database. */
CliStore *cli_store_open (const gchar * path, gboolean exclusive,
    GError ** error);
void cli_store_close (CliStore * store);

typedef enum
{
  CLI_STORE_FAILED = -1,
  CLI_STORE_DUPLICATE = 0,
  CLI_STORE_STORED = 1,
} CliStoreInsert;

/* Stores a delivery unless its request id is stored already; durable
 * (committed and synced) when it returns CLI_STORE_STORED. */
CliStoreInsert cli_store_insert (CliStore * store, const gchar * request_id,
    gint64 received_at, const gchar * headers, const guint8 * body,
    gsize body_length, GError ** error);

/* The oldest delivery not processed whose next attempt is due at @now, or
 * NULL. When NULL and @next_due is given, it is set to the earliest time a
 * pending delivery becomes due, or 0 when none is pending. */
CliDelivery *cli_store_next_pending (CliStore * store, gint64 now,
    gint64 * next_due, GError ** error);

CliDelivery *cli_store_get (CliStore * store, const gchar * request_id,
    GError ** error);

gboolean cli_store_mark_processed (CliStore * store,
    const gchar * request_id, gint64 now, GError ** error);

/* Counts a failed attempt and sets when the next one is due. */
gboolean cli_store_mark_failed (CliStore * store, const gchar * request_id,
    gint64 next_attempt_at, const gchar * why, GError ** error);

/* Deletes the processed deliveries received before @before; returns how
 * many, or -1. Deliveries not processed are never deleted. */
gint cli_store_prune (CliStore * store, gint64 before, GError ** error);

/* -1 on error */
gint64 cli_store_count (CliStore * store, gboolean pending_only,
    GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_CLI_STORE_H__ */
