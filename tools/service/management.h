/* gst-session-service: apps and runners management, rate limited
 * (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_MANAGEMENT_H__
#define __SVC_MANAGEMENT_H__

#include "respond.h"

G_BEGIN_DECLS

typedef struct _SvcManagement SvcManagement;

SvcManagement *svc_management_new (const SvcContext * ctx);
void svc_management_free (SvcManagement * management);

/* GET /apps..., /runners...: TRUE when @segments (decoded) are a
 * management path; the answer is set */
gboolean svc_management_handle (SvcManagement * management,
    SoupServerMessage * msg, const gchar * path, gchar ** segments);

/* for the queue: a running runner of @app_id (round robin), or NULL */
const gchar *svc_management_pick_runner (SvcManagement * management,
    const gchar * app_id);
/* a line in @runner_id's logs; counts a request when @request */
void svc_management_runner_log (SvcManagement * management,
    const gchar * runner_id, gboolean request, const gchar * line);

/* POST /admin/runners/reset: every runner running again, logs kept */
void svc_management_reset_runners (SvcManagement * management);
/* POST /admin/rate-limits/reset: every window of every client closed */
void svc_management_reset_limits (SvcManagement * management);

G_END_DECLS

#endif /* __SVC_MANAGEMENT_H__ */
