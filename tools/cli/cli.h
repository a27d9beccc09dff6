/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: what the modules of the command-line tool share.
 */

#ifndef __GST_SESSION_CLI_H__
#define __GST_SESSION_CLI_H__

#include <gst/session/session.h>
#include <gst/session/platform/platform.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/* The exit codes (documented in --help and docs/management.md). */
typedef enum
{
  CLI_EXIT_OK = 0,
  CLI_EXIT_INVALID = 1,         /* webhook verify: the delivery is not valid */
  CLI_EXIT_USAGE = 2,           /* usage or invalid input; nothing was sent */
  CLI_EXIT_REFUSED = 3,         /* the service refused (4xx other than 429) */
  CLI_EXIT_RATE_LIMITED = 4,    /* 429 or the local limiter; retry after N s */
  CLI_EXIT_TRANSIENT = 5,       /* network, timeout, retryable 5xx */
  CLI_EXIT_INTERNAL = 6,        /* internal or I/O failure here */
} CliExit;

#define CLI_EXIT_CODES_HELP \
  "Exit codes:\n" \
  "  0  success\n" \
  "  1  webhook verify: the delivery is not valid\n" \
  "  2  usage error or invalid input (nothing was sent)\n" \
  "  3  refused by the service (4xx other than 429; not worth retrying)\n" \
  "  4  rate limited (\"retry after N s\"; a rejected stop or kill leaves " \
  "the runner running)\n" \
  "  5  transient failure (network, timeout, 5xx): the same call may " \
  "succeed later\n" \
  "  6  internal or I/O failure (a file or database here, an unreadable " \
  "answer)\n"

#define CLI_API_KEY_ENV "GST_SESSION_API_KEY"

/* The global options, accepted before or after the command words. */
typedef struct
{
  gboolean json;
  gint timeout_ms;              /* -1: the library's default */
  gchar *api_key;               /* never printed or logged */
} CliGlobal;

/* Parses the options of one command; the global options are accepted too
 * and land in @global. On a usage error prints it (with the command's
 * usage) and returns FALSE. @argv is modified in place: the remaining
 * words follow argv[0]. */
gboolean cli_parse_options (CliGlobal * global, const gchar * command,
    const gchar * parameters, const gchar * description,
    const GOptionEntry * entries, gint * argc, gchar *** argv);

/* Prints "gst-session: <message>" on stderr; with --json also
 * {"error": {...}} on stdout. Returns @code. */
gint cli_fail (const CliGlobal * global, gint code, const gchar * format, ...)
    G_GNUC_PRINTF (3, 4);

/* Like cli_fail() with extra members for the JSON error object (may be
 * NULL; consumed). */
gint cli_fail_with (const CliGlobal * global, gint code, JsonObject * extra,
    const gchar * format, ...) G_GNUC_PRINTF (4, 5);

/* One compact line of JSON on stdout, flushed. */
void cli_print_json (JsonNode * node);
gchar *cli_json_to_string (JsonNode * node, gboolean pretty);

/* Headers as text, one "Name: value" per line (the stored and captured
 * form), and back. The parser skips a first request or status line and
 * blank lines, accepts CRLF, and also reads a JSON object of strings. */
gchar *cli_headers_to_text (SoupMessageHeaders * headers);
SoupMessageHeaders *cli_headers_parse (const gchar * text, gsize length,
    GError ** error);
JsonNode *cli_headers_to_json (SoupMessageHeaders * headers);

/* Writes @data to @path atomically (temporary file, fsync, rename, fsync
 * of the directory). */
gboolean cli_write_file_durably (const gchar * path, const gchar * data,
    gsize length, GError ** error);
gboolean cli_fsync_dir (const gchar * dir, GError ** error);

/* The nick of a verification result ("no-key-matched"). */
const gchar *cli_webhook_result_nick (GstSessionWebhookResult result);

/* Commands: each returns the exit code. */
gint cli_webhook_listen (CliGlobal * global, gint argc, gchar ** argv);
gint cli_webhook_verify (CliGlobal * global, gint argc, gchar ** argv);
gint cli_submit (CliGlobal * global, gint argc, gchar ** argv);
gint cli_apps (CliGlobal * global, gint argc, gchar ** argv);
gint cli_runners (CliGlobal * global, gint argc, gchar ** argv);

G_END_DECLS

#endif /* __GST_SESSION_CLI_H__ */
