/* gst-session-service: the queue's apps (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The table the queue (queue.c) runs and the management endpoints
 * (management.c) list; a leaf of the service's modules.
 */

#ifndef __SVC_APPS_H__
#define __SVC_APPS_H__

#include <glib.h>

G_BEGIN_DECLS
#define SVC_APP_OWNER "reference"
    typedef struct
{
  const gchar *name;            /* the app id is SVC_APP_OWNER "/" name */
  const gchar *description;
  guint runners;                /* runners it has at start */
} SvcQueueApp;

const SvcQueueApp *svc_queue_apps (guint * n_apps);

/* The app of a queue path: "reference/<app>" or "<app>" alone; NULL if
 * there is none */
const SvcQueueApp *svc_queue_find_app (gchar ** segments);

G_END_DECLS

#endif /* __SVC_APPS_H__ */
