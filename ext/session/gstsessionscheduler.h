/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_SCHEDULER_H__
#define __GST_SESSION_SCHEDULER_H__

#include <gst/gst.h>
#include <gst/session/controlscript.h>

G_BEGIN_DECLS

/* Acts on one due action; FALSE: no more actions now (the stream ended) */
typedef gboolean (*GstSessionSchedulerAct) (const GstSessionControlAction *
    action, gpointer data);

typedef struct _GstSessionSchedulerWake GstSessionSchedulerWake;

/* A control script played against an element's running time: each action
 * is handed to @act when its time comes, on the session thread. */
typedef struct
{
  GstSessionControlScript *script;      /* NULL: none */
  guint next;                   /* the first action not yet due */
  GSource *source;              /* the wait for it, on the session thread */
  GstClockID clock_id;          /* and on the element's clock */
  GstSessionSchedulerWake *wake;        /* between the two */
  GstElement *element;          /* whose running time (not a reference) */
  GstSessionSchedulerAct act;
  gpointer data;
} GstSessionScheduler;

G_GNUC_INTERNAL
void gst_session_scheduler_init (GstSessionScheduler * s, GstElement * element,
    GstSessionSchedulerAct act, gpointer data);

G_GNUC_INTERNAL
void gst_session_scheduler_set_script (GstSessionScheduler * s,
    GstSessionControlScript * script);

G_GNUC_INTERNAL
void gst_session_scheduler_rewind (GstSessionScheduler * s);

G_GNUC_INTERNAL
void gst_session_scheduler_schedule (GstSessionScheduler * s,
    GMainContext * context);

G_GNUC_INTERNAL
void gst_session_scheduler_cancel (GstSessionScheduler * s);

G_GNUC_INTERNAL
void gst_session_scheduler_clear (GstSessionScheduler * s);

G_END_DECLS

#endif
