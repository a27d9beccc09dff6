/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_TASK_POOL_H__
#define __GST_SESSION_TASK_POOL_H__

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_SESSION_TASK_POOL (gst_session_task_pool_get_type ())
G_DECLARE_FINAL_TYPE (GstSessionTaskPool, gst_session_task_pool,
    GST, SESSION_TASK_POOL, GstTaskPool);

G_GNUC_INTERNAL
GstTaskPool *gst_session_task_pool_new (void);

G_GNUC_INTERNAL
void gst_session_task_pool_adopt_tasks (GstBus * bus, GstTaskPool * pool);

G_END_DECLS

#endif /* __GST_SESSION_TASK_POOL_H__ */
