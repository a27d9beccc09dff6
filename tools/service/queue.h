/* gst-session-service: the queue host and its apps (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_QUEUE_H__
#define __SVC_QUEUE_H__

#include "respond.h"
#include "webhook-sender.h"
#include "management.h"

G_BEGIN_DECLS

typedef struct _SvcQueue SvcQueue;

SvcQueue *svc_queue_new (const SvcContext * ctx, SvcWebhooks * hooks,
    SvcManagement * management);
void svc_queue_free (SvcQueue * queue);

/* POST /queue/<app_path>?svc_webhook=<url>; @segments are the decoded
 * segments after "queue" */
void svc_queue_submit (SvcQueue * queue, SoupServerMessage * msg,
    gchar ** segments, GHashTable * query);

G_END_DECLS

#endif /* __SVC_QUEUE_H__ */
