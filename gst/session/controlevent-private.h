/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the session controllers share: queuing events, and turning a
 * service message into the element message that is posted for it.
 */

#ifndef __GST_SESSION_CONTROL_EVENT_PRIVATE_H__
#define __GST_SESSION_CONTROL_EVENT_PRIVATE_H__

#include "controlevent.h"

G_BEGIN_DECLS

G_GNUC_INTERNAL
void control_events_push (GQueue * events, GstSessionControlEventType type,
    gchar * json, GstSessionMessage * message, GstStructure * details,
    GError * error);

G_GNUC_INTERNAL
void control_events_send (GQueue * events, gchar * json);

G_GNUC_INTERNAL
void control_events_warn_invalid (GQueue * events, GError * error);

G_GNUC_INTERNAL
GstStructure *control_event_details (const GstSessionMessage * message);

G_GNUC_INTERNAL
gdouble control_now_ms (void);

G_END_DECLS

#endif
