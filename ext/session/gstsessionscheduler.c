/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The control-script scheduler of a session source: the script's actions
 * in order, each handed over when the element's running time reaches it
 * (a wait on the pipeline's clock, made ready on the session thread), one
 * wait at a time.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsessionscheduler.h"

/* The clock's side of a wait: its callback (on the clock's thread) makes
 * the wait's source ready, unless the wait was cancelled meanwhile */
struct _GstSessionSchedulerWake
{
  gint refcount;
  GMutex lock;
  GSource *source;              /* NULL once cancelled */
};

static GstClockTime running_time_now (GstElement * element);

/* from now to running time @t, or 0 */
static GstClockTime
running_wait (GstElement * element, GstClockTime t)
{
  GstClockTime now = running_time_now (element);

  return t > now ? t - now : 0;
}

static GstSessionSchedulerWake *
wake_ref (GstSessionSchedulerWake * w)
{
  g_atomic_int_inc (&w->refcount);
  return w;
}

static void
wake_unref (gpointer data)
{
  GstSessionSchedulerWake *w = data;

  if (!g_atomic_int_dec_and_test (&w->refcount))
    return;
  g_mutex_clear (&w->lock);
  if (w->source)
    g_source_unref (w->source);
  g_free (w);
}

void
gst_session_scheduler_init (GstSessionScheduler * s, GstElement * element,
    GstSessionSchedulerAct act, gpointer data)
{
  memset (s, 0, sizeof (*s));
  s->element = element;
  s->act = act;
  s->data = data;
}

/* takes @script (NULL: none); from its first action */
void
gst_session_scheduler_set_script (GstSessionScheduler * s,
    GstSessionControlScript * script)
{
  gst_session_scheduler_cancel (s);
  g_clear_pointer (&s->script, gst_session_control_script_unref);
  s->script = script;
  s->next = 0;
}

void
gst_session_scheduler_rewind (GstSessionScheduler * s)
{
  s->next = 0;
}

void
gst_session_scheduler_cancel (GstSessionScheduler * s)
{
  if (s->clock_id) {
    gst_clock_id_unschedule (s->clock_id);
    gst_clock_id_unref (s->clock_id);
    s->clock_id = NULL;
  }
  if (s->wake) {
    g_mutex_lock (&s->wake->lock);
    g_clear_pointer (&s->wake->source, g_source_unref);
    g_mutex_unlock (&s->wake->lock);
    wake_unref (s->wake);
    s->wake = NULL;
  }
  if (s->source) {
    g_source_destroy (s->source);
    g_source_unref (s->source);
    s->source = NULL;
  }
}

void
gst_session_scheduler_clear (GstSessionScheduler * s)
{
  gst_session_scheduler_set_script (s, NULL);
}

static GstClockTime
running_time_now (GstElement * element)
{
  GstClock *clock = gst_element_get_clock (element);
  GstClockTime now, base = gst_element_get_base_time (element);

  if (clock == NULL)
    return 0;
  now = gst_clock_get_time (clock);
  gst_object_unref (clock);
  return now > base ? now - base : 0;
}

static gboolean
on_clock_due (GstClock * clock, GstClockTime time, GstClockID id, gpointer data)
{
  GstSessionSchedulerWake *w = data;

  g_mutex_lock (&w->lock);
  if (w->source)
    g_source_set_ready_time (w->source, 0);
  g_mutex_unlock (&w->lock);
  return TRUE;
}

static gboolean
ready_dispatch (GSource * source, GSourceFunc callback, gpointer data)
{
  g_source_set_ready_time (source, -1);
  return callback ? callback (data) : G_SOURCE_REMOVE;
}

static GSourceFuncs ready_funcs = { NULL, NULL, ready_dispatch, NULL, NULL,
  NULL
};

static gboolean
script_due (gpointer data)
{
  GstSessionScheduler *s = data;
  GMainContext *context = g_source_get_context (s->source);
  GstClockTime now = running_time_now (s->element);
  guint n = gst_session_control_script_get_n_actions (s->script);

  g_main_context_ref (context);
  gst_session_scheduler_cancel (s);
  while (s->next < n) {
    const GstSessionControlAction *a =
        gst_session_control_script_get_action (s->script, s->next);

    if (a->time > now)
      break;
    s->next++;
    if (!s->act (a, s->data)) {
      g_main_context_unref (context);
      return G_SOURCE_REMOVE;
    }
  }
  gst_session_scheduler_schedule (s, context);
  g_main_context_unref (context);
  return G_SOURCE_REMOVE;
}

/* Waits on @context for the next action (nothing when one is waited for
 * already, or none is left): on the element's clock, until its running
 * time reaches the action's (a test clock moves the script as it is
 * moved). Without a clock (before PLAYING) nothing is waited for: the
 * element schedules again when it goes to PLAYING. */
void
gst_session_scheduler_schedule (GstSessionScheduler * s, GMainContext * context)
{
  const GstSessionControlAction *a;
  GstClock *clock;
  GstSessionSchedulerWake *w;

  if (s->script == NULL || s->source || context == NULL ||
      s->next >= gst_session_control_script_get_n_actions (s->script))
    return;
  a = gst_session_control_script_get_action (s->script, s->next);
  clock = gst_element_get_clock (s->element);
  if (clock == NULL)
    return;
  s->source = g_source_new (&ready_funcs, sizeof (GSource));
  g_source_set_ready_time (s->source, -1);
  g_source_set_callback (s->source, script_due, s, NULL);
  g_source_attach (s->source, context);
  w = g_new0 (GstSessionSchedulerWake, 1);
  w->refcount = 1;
  g_mutex_init (&w->lock);
  w->source = g_source_ref (s->source);
  s->wake = w;
  s->clock_id = gst_clock_new_single_shot_id (clock,
      gst_element_get_base_time (s->element) + a->time);
  switch (gst_clock_id_wait_async (s->clock_id, on_clock_due, wake_ref (w),
          wake_unref)) {
    case GST_CLOCK_OK:
      break;
    case GST_CLOCK_BADTIME:
    case GST_CLOCK_UNSUPPORTED:
      /* the clock kept nothing (nor the reference it was given): the rest
       * of the wait in real time */
      wake_unref (w);
      gst_session_scheduler_cancel (s);
      s->source = g_timeout_source_new ((guint) (running_wait (s->element,
                  a->time) / GST_MSECOND));
      g_source_set_callback (s->source, script_due, s, NULL);
      g_source_attach (s->source, context);
      break;
    default:
      g_source_set_ready_time (s->source, 0);
      break;
  }
  gst_object_unref (clock);
}
