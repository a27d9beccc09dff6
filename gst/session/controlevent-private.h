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
void control_events_output_open (GQueue * events, gint width, gint height);

G_GNUC_INTERNAL
void control_events_video_size_from_info (GQueue * events,
    const GstStructure * session_info);

G_GNUC_INTERNAL
void control_events_media_pause (GQueue * events, gdouble seconds);

G_GNUC_INTERNAL
gdouble control_now_ms (void);

/* One-shot messages (a ping, a stop) asked for before a session is ready
 * wait in a queue of the controller's, at most CONTROL_DEFERRED_MAX; a
 * ping waits as control_ping_mark and is built when it leaves, so that
 * its time does not count the wait. */
#define CONTROL_DEFERRED_MAX 32

G_GNUC_INTERNAL
extern gchar control_ping_mark[];

G_GNUC_INTERNAL
void control_deferred_free (gpointer json);

/* Queues @json (taken); FALSE with @error set when CONTROL_DEFERRED_MAX
 * already wait. */
G_GNUC_INTERNAL
gboolean control_defer (GQueue * deferred, gchar * json, GError ** error);

/* The controller's own pings, probes of the path (not the application's:
 * their pongs are not posted). The last CONTROL_PROBES sent are kept; a
 * pong echoing one of their times answers it, once. */
#define CONTROL_PROBES 4

typedef struct
{
  gdouble ts[CONTROL_PROBES];   /* control_now_ms() when sent; 0: none */
  guint next;
} ControlProbes;

G_GNUC_INTERNAL
void control_probes_clear (ControlProbes * probes);

/* Notes a probe sent at @ts. */
G_GNUC_INTERNAL
void control_probes_sent (ControlProbes * probes, gdouble ts);

/* When @ts (a pong's echoed time) is a probe's: forgets it, queues a
 * ROUND_TRIP event and returns TRUE. */
G_GNUC_INTERNAL
gboolean control_probes_answered (ControlProbes * probes, GQueue * events,
    gdouble ts);

G_END_DECLS

#endif
