/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session thread of a session source: sessions, their timers and the
 * signaller run on one GMainContext in a thread of their own, started at
 * NULL->READY and stopped at READY->NULL. Other threads come in through
 * gst_session_context_call() (waits, bounded) and
 * gst_session_context_invoke() (never runs right away: callers may hold
 * locks the call takes).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsessioncontext.h"

void
gst_session_context_init (GstSessionContext * c)
{
  memset (c, 0, sizeof (*c));
  g_mutex_init (&c->lock);
  g_cond_init (&c->cond);
}

void
gst_session_context_clear (GstSessionContext * c)
{
  /* (an element freed while not in NULL, from its own session thread,
   * cannot join that thread: left to end with the process) */
  if (c->context == NULL || !g_main_context_is_owner (c->context))
    gst_session_context_stop (c);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->cond);
}

static gpointer
context_thread (gpointer data)
{
  GstSessionContext *c = data;

  g_main_context_push_thread_default (c->context);
  g_main_loop_run (c->loop);
  g_main_context_pop_thread_default (c->context);
  return NULL;
}

void
gst_session_context_start (GstSessionContext * c, const gchar * name)
{
  if (c->thread)
    return;
  c->context = g_main_context_new ();
  c->loop = g_main_loop_new (c->context, FALSE);
  c->thread = g_thread_new (name, context_thread, c);
}

static gboolean
quit_loop (gpointer loop)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

void
gst_session_context_stop (GstSessionContext * c)
{
  GSource *quit;

  if (c->thread == NULL)
    return;
  /* quit from inside the loop: a g_main_loop_quit() that came before the
   * thread reached g_main_loop_run() would be forgotten, and the join would
   * wait for ever (NULL->READY->NULL in a row) */
  quit = g_idle_source_new ();
  g_source_set_priority (quit, G_PRIORITY_HIGH);
  g_source_set_callback (quit, quit_loop, c->loop, NULL);
  g_source_attach (quit, c->context);
  g_source_unref (quit);
  g_thread_join (c->thread);
  c->thread = NULL;
  /* run what was left (sources holding references) before freeing, as
   * the context's owner (libsoup checks) */
  g_main_context_push_thread_default (c->context);
  while (g_main_context_iteration (c->context, FALSE));
  g_main_context_pop_thread_default (c->context);
  g_main_loop_unref (c->loop);
  g_main_context_unref (c->context);
  c->loop = NULL;
  c->context = NULL;
}

typedef struct
{
  GstSessionContext *c;
  GstSessionContextFunc func;
  gpointer data;
  gboolean done;
} SyncCall;

static gboolean
sync_dispatch (gpointer data)
{
  SyncCall *call = data;
  GstSessionContext *c = call->c;

  call->func (call->data);
  g_mutex_lock (&c->lock);
  call->done = TRUE;
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
  return G_SOURCE_REMOVE;
}

/* Runs @func on the context and waits for it, at most @timeout µs
 * (FALSE then). On the context's own thread at once; while stopped not at
 * all (TRUE: nothing runs there to wait for). */
gboolean
gst_session_context_call (GstSessionContext * c, GstSessionContextFunc func,
    gpointer data, gint64 timeout)
{
  SyncCall *call;
  gint64 deadline;
  gboolean done;

  if (c->context == NULL || g_main_context_is_owner (c->context)) {
    if (c->context)
      func (data);
    return TRUE;
  }
  call = g_new0 (SyncCall, 1);
  call->c = c;
  call->func = func;
  call->data = data;
  g_main_context_invoke (c->context, sync_dispatch, call);
  deadline = g_get_monotonic_time () + timeout;
  g_mutex_lock (&c->lock);
  while (!call->done)
    if (!g_cond_wait_until (&c->cond, &c->lock, deadline))
      break;
  done = call->done;
  g_mutex_unlock (&c->lock);
  /* (a call that timed out is leaked on purpose: it may still run) */
  if (done)
    g_free (call);
  return done;
}

/* Runs @func on the context later, never right away; @notify frees @data
 * after. Nothing while stopped (@data is freed). */
void
gst_session_context_invoke (GstSessionContext * c, GSourceFunc func,
    gpointer data, GDestroyNotify notify)
{
  GSource *source;

  if (c->context == NULL) {
    if (notify)
      notify (data);
    return;
  }
  source = g_idle_source_new ();
  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_callback (source, func, data, notify);
  g_source_attach (source, c->context);
  g_source_unref (source);
}
