/* gst-session: the webhook receiver's guard against hostile clients
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __CLI_GUARD_H__
#define __CLI_GUARD_H__

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct
{
  guint max_connections;        /* 0: from the descriptor limit */
  guint max_per_address;
  guint header_timeout_ms;      /* request line and headers, from accept */
  guint body_timeout_ms;        /* the longest pause inside a body */
  guint64 max_buffered;         /* body bytes held for all requests */
  guint backlog;
} CliGuardLimits;

#define CLI_GUARD_DEFAULT_MAX_CONNECTIONS 256
#define CLI_GUARD_DEFAULT_MAX_PER_ADDRESS 64
#define CLI_GUARD_DEFAULT_HEADER_TIMEOUT_MS 10000
#define CLI_GUARD_DEFAULT_BODY_TIMEOUT_MS 10000
#define CLI_GUARD_DEFAULT_MAX_BUFFERED (64 * 1024 * 1024)
#define CLI_GUARD_DEFAULT_BACKLOG 1024

typedef struct _CliGuard CliGuard;

/* Called when the guard closed a connection or gave up on the listener:
 * @what names it ("header-timeout", "listener-dead", ...), @text says why. */
typedef void (*CliGuardNotify) (const gchar * what, const gchar * text,
    gpointer user_data);

CliGuard *cli_guard_new (SoupServer * server, const CliGuardLimits * limits,
    CliGuardNotify notify, gpointer user_data);
gboolean cli_guard_listen (CliGuard * guard, GSocketAddress * address,
    GError ** error);
guint cli_guard_get_max_connections (CliGuard * guard);
/* Counts @n more body bytes held for @msg; FALSE when that would pass the
 * global limit (nothing is counted: drop the bytes, answer 503). */
gboolean cli_guard_hold_body (CliGuard * guard, SoupServerMessage * msg,
    gsize n);
void cli_guard_free (CliGuard * guard);

G_END_DECLS

#endif /* __CLI_GUARD_H__ */
