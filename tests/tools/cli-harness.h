/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Helpers of the gst-session command-line tests: running the tool with
 * bounded waits, temporary files, and deliveries signed by the OpenSSL
 * command-line tool (its keys: tests/common/testkeys.h).
 */

#ifndef __CLI_HARNESS_H__
#define __CLI_HARNESS_H__

#include <gst/check/gstcheck.h>
#include <gio/gio.h>
#include <libsoup/soup.h>

#include "testkeys.h"

G_BEGIN_DECLS

/* The path of build/tools/cli/gst-session (free it). */
gchar *cli_binary (void);

/* One finished run of the tool. */
typedef struct
{
  gint status;                  /* the exit code; -1 when killed */
  gchar *out;
  gchar *err;
} CliRun;

void cli_run_free (CliRun * run);

/* Runs the tool with @args (NULL terminated) and @env (NULL, or
 * "NAME=value" entries added to the environment; "NAME=" alone unsets
 * NAME), with @stdin_text (nullable), iterating the thread-default main
 * context while waiting (so a SoupServer of the test answers); fails the
 * test when it takes longer than @timeout_s. */
CliRun *cli_run_full (const gchar * const *env, const gchar * stdin_text,
    guint timeout_s, const gchar * const *args);
CliRun *cli_run (const gchar * first_arg, ...) G_GNUC_NULL_TERMINATED;

/* Iterates the thread-default main context until @cond (evaluated by
 * @func) holds or @timeout_ms passes; returns whether it holds. */
typedef gboolean (*CliCondFunc) (gpointer user_data);
gboolean cli_wait_for (CliCondFunc func, gpointer user_data,
    guint timeout_ms);

/* A temporary directory per test binary, removed with everything in it
 * by cli_tmp_cleanup() (which removes the keys' directory too). */
gchar *cli_tmp_path (const gchar * name);
void cli_tmp_cleanup (void);

/* {"keys": [{"kty":"OKP","crv":"Ed25519","x":...}, ...]} of the given keys
 * (NULL terminated). */
gchar *cli_jwks (const TestKey * first, ...) G_GNUC_NULL_TERMINATED;

/* A delivery body of spec 001 with status OK and a small payload. */
gchar *cli_delivery_body (const gchar * request_id);

/* The headers text ("Name: value" lines) of a signed delivery. */
gchar *cli_delivery_headers (const TestKey * key, const gchar * request_id,
    const gchar * user_id, gint64 timestamp, const gchar * body);

/* A long-running child: the reference service or gst-session webhook
 * listen. Started with its stdout piped (the first line is its URL, read
 * with a bound) and its stderr in a file. */
typedef struct
{
  GSubprocess *proc;
  gchar *url;
  gchar *err_path;
} CliChild;

/* build/tools/service/gst-session-service --port 0 @args... */
CliChild *cli_service_start (const gchar * first_arg, ...)
    G_GNUC_NULL_TERMINATED;
/* gst-session @args... (webhook listen ...); @env as cli_run_full() */
CliChild *cli_listener_start (const gchar * const *env,
    const gchar * const *args);
/* SIGTERM and a bounded wait; fails the test unless it exits 0 */
void cli_child_stop (CliChild * child);
/* SIGKILL, waited for */
void cli_child_kill (CliChild * child);
/* what it wrote on stderr so far (free it) */
gchar *cli_child_stderr (CliChild * child);
/* how many times @needle occurs in its stderr */
guint cli_child_stderr_count (CliChild * child, const gchar * needle);
/* waits (iterating the context) until its stderr holds @needle @n times */
gboolean cli_child_wait_stderr (CliChild * child, const gchar * needle,
    guint n, guint timeout_ms);
void cli_child_free (CliChild * child);

/* One HTTP request to @url (GET when @body is NULL, else POST of JSON);
 * returns the status and the answer (free it). */
guint cli_http (const gchar * method, const gchar * url,
    const gchar * body, gchar ** answer);

/* Waits until the file at @path has at least @n lines. */
gboolean cli_wait_lines (const gchar * path, guint n, guint timeout_ms);
/* The lines of a file (NULL when it cannot be read). */
gchar **cli_read_lines (const gchar * path);

G_END_DECLS

#endif
