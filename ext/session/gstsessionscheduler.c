/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The control-script scheduler of a session source: the script's actions
 * in order, each handed over when the element's running time reaches it
 * (the pipeline's clock, so a paused pipeline pauses the script too), one
 * timer at a time on the session thread.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsessionscheduler.h"

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
 * already, or none is left). */
void
gst_session_scheduler_schedule (GstSessionScheduler * s, GMainContext * context)
{
  const GstSessionControlAction *a;
  GstClockTime now;
  guint delay_ms;

  if (s->script == NULL || s->source || context == NULL ||
      s->next >= gst_session_control_script_get_n_actions (s->script))
    return;
  a = gst_session_control_script_get_action (s->script, s->next);
  now = running_time_now (s->element);
  delay_ms = a->time > now ? (guint) ((a->time - now + GST_MSECOND - 1) /
      GST_MSECOND) : 0;
  s->source = g_timeout_source_new (delay_ms);
  g_source_set_callback (s->source, script_due, s, NULL);
  g_source_attach (s->source, context);
}
