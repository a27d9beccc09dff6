/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_CONTEXT_H__
#define __GST_SESSION_CONTEXT_H__

#include <glib.h>

G_BEGIN_DECLS

typedef void (*GstSessionContextFunc) (gpointer data);

/* The thread a session source runs its sessions on: a GMainContext and
 * its loop, and two ways in from other threads: a bounded synchronous call
 * and a later one. */
typedef struct
{
  GMainContext *context;        /* NULL while stopped */
  GMainLoop *loop;
  GThread *thread;
  GMutex lock;                  /* for the synchronous calls */
  GCond cond;
} GstSessionContext;

G_GNUC_INTERNAL
void gst_session_context_init (GstSessionContext * c);

G_GNUC_INTERNAL
void gst_session_context_clear (GstSessionContext * c);

G_GNUC_INTERNAL
void gst_session_context_start (GstSessionContext * c, const gchar * name);

G_GNUC_INTERNAL
void gst_session_context_stop (GstSessionContext * c);

G_GNUC_INTERNAL
gboolean gst_session_context_call (GstSessionContext * c,
    GstSessionContextFunc func, gpointer data, gint64 timeout);

G_GNUC_INTERNAL
void gst_session_context_invoke (GstSessionContext * c, GSourceFunc func,
    gpointer data, GDestroyNotify notify);

G_END_DECLS

#endif
