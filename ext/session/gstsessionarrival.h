/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_ARRIVAL_H__
#define __GST_SESSION_ARRIVAL_H__

#include <gst/gst.h>

G_BEGIN_DECLS

G_GNUC_INTERNAL
void gst_session_arrival_watch (GstElement * jitterbuffer, GstClock * clock);

G_END_DECLS

#endif /* __GST_SESSION_ARRIVAL_H__ */
