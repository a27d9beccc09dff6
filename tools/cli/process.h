/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: what webhook listen does with a stored delivery.
 */

#ifndef __GST_SESSION_CLI_PROCESS_H__
#define __GST_SESSION_CLI_PROCESS_H__

#include <gio/gio.h>

#include "store.h"

G_BEGIN_DECLS

typedef enum
{
  CLI_PROCESS_EXEC,             /* a command, the body on its stdin */
  CLI_PROCESS_JSONL,            /* one line appended to a file, fsynced */
  CLI_PROCESS_DIR,              /* one file per delivery, renamed in place */
} CliProcessKind;

typedef struct _CliProcessor CliProcessor;

/* @target: the command line (split as a shell would, without running a
 * shell), the JSONL file or the directory. Fails with G_IO_ERROR_
 * INVALID_ARGUMENT for an unusable command line, another G_IO_ERROR when
 * a file cannot be opened. */
CliProcessor *cli_processor_new (CliProcessKind kind, const gchar * target,
    guint exec_timeout_s, GError ** error);
void cli_processor_free (CliProcessor * processor);

/* Processes one delivery; one at a time. */
void cli_processor_run_async (CliProcessor * processor,
    const CliDelivery * delivery, GAsyncReadyCallback callback,
    gpointer user_data);
gboolean cli_processor_run_finish (CliProcessor * processor,
    GAsyncResult * result, GError ** error);

/* Asks a running command to end (SIGTERM, SIGKILL @grace_s later); the
 * run then fails. */
void cli_processor_interrupt (CliProcessor * processor, guint grace_s);

/* The file name (without extension) used for a request id in --dir: the
 * id itself when it is 1 to 128 of [A-Za-z0-9._-] not starting with a
 * dot, else "sha256-" and the hex SHA-256 of the id. */
gchar *cli_process_file_name (const gchar * request_id);

/* The JSONL record of a delivery (one line, no newline). */
gchar *cli_process_jsonl_record (const CliDelivery * delivery);

G_END_DECLS

#endif /* __GST_SESSION_CLI_PROCESS_H__ */
