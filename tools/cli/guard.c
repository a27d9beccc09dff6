/* gst-session: the webhook receiver's guard against hostile clients
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * libsoup's server has no connection limit and no timeouts of its own, and
 * stops accepting for good when accept() fails (out of descriptors). The
 * guard puts bounds around it, on the server's main loop:
 *
 * - a connection cap below the descriptor limit, and a cap per address:
 *   a connection over either is shut down as it is accepted;
 * - the request line and headers must arrive within a time from the start
 *   of the request (which libsoup starts as a connection is accepted, and
 *   again after each answer on a kept-alive connection, so this is also
 *   the idle timeout); inside a body, no pause may be longer than another;
 * - a global cap on body bytes held for all requests together;
 * - its own listening socket with a backlog suited to bursts;
 * - a watchdog: a connection to itself every few seconds; when the
 *   listener stops accepting, it says so and the caller exits non-zero,
 *   so that a supervisor restarts it (deliveries are durable): never a
 *   silent outage.
 *
 * Each request's state hangs off its SoupServerMessage and is released
 * when the message goes, whatever way the connection ended.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <sys/resource.h>

#include "guard.h"

/* descriptors kept for everything but client connections: the database,
 * its journal, files written, the command's pipes, libsoup, GLib */
#define RESERVED_FDS 32
#define WATCHDOG_INTERVAL_S 5
#define WATCHDOG_FAILURES 3

struct _CliGuard
{
  SoupServer *server;
  CliGuardLimits limits;
  CliGuardNotify notify;
  gpointer user_data;
  GSocketAddress *bound;        /* for the watchdog */
  guint connections;
  GHashTable *per_address;      /* address text -> count */
  GHashTable *requests;         /* the live Requests (a set) */
  guint64 buffered;
  guint watchdog_id;
  guint watchdog_failures;
  gboolean probing;
  gboolean dead;
  GCancellable *cancellable;
};

typedef struct
{
  CliGuard *guard;
  gchar *address;
  GSocket *socket;
  GSource *timer;
  const gchar *timer_what;
  guint64 held;
} Request;

static GQuark request_quark;

static void
request_stop_timer (Request * r)
{
  if (r->timer) {
    g_source_destroy (r->timer);
    g_source_unref (r->timer);
    r->timer = NULL;
  }
}

static void
request_free (Request * r)
{
  CliGuard *g = r->guard;

  request_stop_timer (r);
  if (g) {
    guint n = GPOINTER_TO_UINT (g_hash_table_lookup (g->per_address,
            r->address));

    g_hash_table_remove (g->requests, r);
    g->connections--;
    g->buffered -= r->held;
    if (n <= 1)
      g_hash_table_remove (g->per_address, r->address);
    else
      g_hash_table_insert (g->per_address, g_strdup (r->address),
          GUINT_TO_POINTER (n - 1));
  }
  g_free (r->address);
  g_clear_object (&r->socket);
  g_free (r);
}

/* Ends the connection under libsoup: its reads fail and it lets go. */
static void
shut (Request * r, const gchar * what, const gchar * text)
{
  request_stop_timer (r);
  if (r->socket)
    g_socket_shutdown (r->socket, TRUE, TRUE, NULL);
  if (r->guard && r->guard->notify)
    r->guard->notify (what, text, r->guard->user_data);
}

static gboolean
on_timeout (gpointer data)
{
  Request *r = data;
  const gchar *what = r->timer_what;

  shut (r, what, g_str_equal (what, "header-timeout") ?
      "a client sent no complete request in time: connection closed" :
      "a client paused too long inside a body: connection closed");
  return G_SOURCE_REMOVE;
}

static void
request_start_timer (Request * r, guint ms, const gchar * what)
{
  request_stop_timer (r);
  if (ms == 0)
    return;
  r->timer = g_timeout_source_new (ms);
  r->timer_what = what;
  g_source_set_callback (r->timer, on_timeout, r, NULL);
  g_source_attach (r->timer, NULL);
}

static void
on_got_headers (SoupServerMessage * msg, gpointer data)
{
  Request *r = g_object_get_qdata (G_OBJECT (msg), request_quark);

  if (r)
    request_start_timer (r, r->guard->limits.body_timeout_ms, "body-timeout");
}

static void
on_got_chunk (SoupServerMessage * msg, GBytes * chunk, gpointer data)
{
  Request *r = g_object_get_qdata (G_OBJECT (msg), request_quark);

  if (r)
    request_start_timer (r, r->guard->limits.body_timeout_ms, "body-timeout");
}

static void
on_got_body (SoupServerMessage * msg, gpointer data)
{
  Request *r = g_object_get_qdata (G_OBJECT (msg), request_quark);

  if (r)
    request_stop_timer (r);
}

static gchar *
address_text (SoupServerMessage * msg)
{
  GSocketAddress *addr = soup_server_message_get_remote_address (msg);

  if (G_IS_INET_SOCKET_ADDRESS (addr))
    return g_inet_address_to_string (g_inet_socket_address_get_address
        (G_INET_SOCKET_ADDRESS (addr)));
  return g_strdup ("?");
}

static void
on_request_started (SoupServer * server, SoupServerMessage * msg, gpointer data)
{
  CliGuard *g = data;
  Request *r = g_new0 (Request, 1);
  guint n;

  r->address = address_text (msg);
  r->socket = soup_server_message_get_socket (msg);
  if (r->socket)
    g_object_ref (r->socket);
  n = GPOINTER_TO_UINT (g_hash_table_lookup (g->per_address, r->address));
  r->guard = g;
  g_hash_table_add (g->requests, r);
  g->connections++;
  g_hash_table_insert (g->per_address, g_strdup (r->address),
      GUINT_TO_POINTER (n + 1));
  g_object_set_qdata_full (G_OBJECT (msg), request_quark, r,
      (GDestroyNotify) request_free);

  /* libsoup 3.2 never sees a client close an idle kept-alive connection:
   * it stayed in CLOSE-WAIT, a descriptor per delivery; each answer closes */
  soup_message_headers_replace (soup_server_message_get_response_headers
      (msg), "Connection", "close");
  g_signal_connect (msg, "got-headers", G_CALLBACK (on_got_headers), g);
  g_signal_connect (msg, "got-chunk", G_CALLBACK (on_got_chunk), g);
  g_signal_connect (msg, "got-body", G_CALLBACK (on_got_body), g);

  if (g->connections > g->limits.max_connections) {
    shut (r, "too-many-connections", "the connection limit is reached: "
        "a new connection was closed");
    return;
  }
  if (n + 1 > g->limits.max_per_address) {
    shut (r, "too-many-from-address", "one address holds the most "
        "connections allowed: a new one was closed");
    return;
  }
  request_start_timer (r, g->limits.header_timeout_ms, "header-timeout");
}

gboolean
cli_guard_hold_body (CliGuard * guard, SoupServerMessage * msg, gsize n)
{
  Request *r = g_object_get_qdata (G_OBJECT (msg), request_quark);

  if (guard->buffered + n > guard->limits.max_buffered)
    return FALSE;
  guard->buffered += n;
  if (r)
    r->held += n;
  else
    guard->buffered -= n;       /* not tracked: nothing to release later */
  return TRUE;
}

/* ---- the watchdog ---- */

static void
on_probe (GObject * source, GAsyncResult * res, gpointer data)
{
  CliGuard *g = data;
  GSocketConnection *conn;
  GError *error = NULL;

  conn = g_socket_client_connect_finish (G_SOCKET_CLIENT (source), res, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)) {
    g_error_free (error);
    return;
  }
  g->probing = FALSE;
  if (conn) {
    g->watchdog_failures = 0;
    g_io_stream_close (G_IO_STREAM (conn), NULL, NULL);
    g_object_unref (conn);
    return;
  }
  g->watchdog_failures++;
  g_clear_error (&error);
  if (g->watchdog_failures >= WATCHDOG_FAILURES && !g->dead) {
    g->dead = TRUE;
    if (g->notify)
      g->notify ("listener-dead", "the listener no longer accepts "
          "connections (out of file descriptors?)", g->user_data);
  }
}

static gboolean
watchdog (gpointer data)
{
  CliGuard *g = data;
  GSocketClient *client;

  if (g->probing || g->dead)
    return G_SOURCE_CONTINUE;
  g->probing = TRUE;
  client = g_socket_client_new ();
  g_socket_client_set_timeout (client, WATCHDOG_INTERVAL_S - 1);
  g_socket_client_connect_async (client, G_SOCKET_CONNECTABLE (g->bound),
      g->cancellable, on_probe, g);
  g_object_unref (client);
  return G_SOURCE_CONTINUE;
}

/* ---- construction ---- */

CliGuard *
cli_guard_new (SoupServer * server, const CliGuardLimits * limits,
    CliGuardNotify notify, gpointer user_data)
{
  CliGuard *g = g_new0 (CliGuard, 1);
  struct rlimit rl;
  guint fd_cap = 0;

  if (request_quark == 0)
    request_quark = g_quark_from_static_string ("cli-guard-request");
  g->server = g_object_ref (server);
  g->limits = *limits;
  g->notify = notify;
  g->user_data = user_data;
  g->per_address = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
  g->requests = g_hash_table_new (NULL, NULL);
  g->cancellable = g_cancellable_new ();
  /* below the descriptor limit: accept() never runs out */
  if (getrlimit (RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    fd_cap = rl.rlim_cur > RESERVED_FDS * 2 ? (guint) rl.rlim_cur -
        RESERVED_FDS : (guint) rl.rlim_cur / 2;
  if (g->limits.max_connections == 0)
    g->limits.max_connections = CLI_GUARD_DEFAULT_MAX_CONNECTIONS;
  if (fd_cap)
    g->limits.max_connections = MIN (g->limits.max_connections, fd_cap);
  g->limits.max_connections = MAX (g->limits.max_connections, 1);
  g_signal_connect (server, "request-started",
      G_CALLBACK (on_request_started), g);
  return g;
}

guint
cli_guard_get_max_connections (CliGuard * guard)
{
  return guard->limits.max_connections;
}

gboolean
cli_guard_listen (CliGuard * g, GSocketAddress * address, GError ** error)
{
  GSocket *sock;
  gboolean ok;

  sock = g_socket_new (g_socket_address_get_family (address),
      G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  if (sock == NULL)
    return FALSE;
  g_socket_set_listen_backlog (sock, g->limits.backlog ?
      (gint) g->limits.backlog : CLI_GUARD_DEFAULT_BACKLOG);
  ok = g_socket_bind (sock, address, TRUE, error) &&
      g_socket_listen (sock, error) &&
      soup_server_listen_socket (g->server, sock, 0, error);
  if (ok) {
    GSocketAddress *local = g_socket_get_local_address (sock, NULL);

    g->bound = local;
    if (g->bound)
      g->watchdog_id = g_timeout_add_seconds (WATCHDOG_INTERVAL_S, watchdog, g);
  }
  g_object_unref (sock);
  return ok;
}

void
cli_guard_free (CliGuard * g)
{
  if (g == NULL)
    return;
  g_cancellable_cancel (g->cancellable);
  if (g->watchdog_id)
    g_source_remove (g->watchdog_id);
  g_signal_handlers_disconnect_by_data (g->server, g);
  g_object_unref (g->server);
  g_clear_object (&g->bound);
  g_clear_object (&g->cancellable);
  /* requests still alive no longer count anywhere */
  {
    GHashTableIter iter;
    gpointer key;

    g_hash_table_iter_init (&iter, g->requests);
    while (g_hash_table_iter_next (&iter, &key, NULL)) {
      Request *r = key;

      request_stop_timer (r);
      r->guard = NULL;
    }
  }
  g_hash_table_unref (g->requests);
  g_hash_table_unref (g->per_address);
  g_free (g);
}
