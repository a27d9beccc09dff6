/* gst-session: the reference service as a child process of a test
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_PROCESS_H__
#define __SVC_PROCESS_H__

#include <glib.h>

G_BEGIN_DECLS

/* ---- the service as a child process ---- */

typedef struct _SvcProcess SvcProcess;

SvcProcess *svc_process_start (const gchar * first_arg, ...)
    G_GNUC_NULL_TERMINATED;
const gchar *svc_process_url (SvcProcess * process);
/* the service's process id, for what /proc says of it */
gint svc_process_pid (SvcProcess * process);
gint svc_process_stop (SvcProcess * process, gchar ** log);
/* a checked teardown of every suite: lets ending threads end before the
 * test process exits */
void svc_settle_threads (void);

G_END_DECLS

#endif /* __SVC_PROCESS_H__ */
