/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Playout as a display shows it: worldsrc into a sink that syncs, against
 * the reference service on 127.0.0.1. Interactive (worldsrc's default):
 * the pads report the output's own delay only, frames are rendered on
 * time, and glass to glass (the wall time a frame is rendered minus its
 * capture time from the sender reports, one machine's clock) is a few
 * frames' worth less than smooth playout's.
 */

#include <gst/check/gstcheck.h>
#include <gst/base/gstbasesink.h>

#include "service-harness.h"

#define FRAMES 48
#define WAIT (30 * GST_SECOND)
#define NTP_TO_UNIX (G_GUINT64_CONSTANT (2208988800) * GST_SECOND)

/* waits until @cond holds, at most @timeout (polls: the sink's thread
 * counts) */
#define WAIT_UNTIL(cond, timeout) G_STMT_START {                        \
  gint64 _deadline = g_get_monotonic_time () + (timeout) / GST_USECOND;  \
  while (!(cond) && g_get_monotonic_time () < _deadline)                \
    g_usleep (20000);                                                   \
} G_STMT_END

typedef struct
{
  GMutex lock;
  GstElement *pipeline;
  GstCaps *ntp;
  GArray *glass;                /* ms, gdouble */
  guint late;                   /* rendered over 20 ms after their time */
  GstClockTime latency;
} Render;

static void
on_handoff (GstElement * sink, GstBuffer * buf, GstPad * pad, Render * r)
{
  GstReferenceTimestampMeta *meta =
      gst_buffer_get_reference_timestamp_meta (buf, r->ntp);
  gint64 wall = g_get_real_time ();
  GstClock *clock = gst_element_get_clock (r->pipeline);
  GstClockTime at, due;
  gdouble ms;

  if (clock == NULL)
    return;
  at = gst_clock_get_time (clock);
  gst_object_unref (clock);
  g_mutex_lock (&r->lock);
  if (meta && meta->timestamp > NTP_TO_UNIX &&
      GST_CLOCK_TIME_IS_VALID (r->latency)) {
    ms = (wall * 1000.0 - (gdouble) (meta->timestamp - NTP_TO_UNIX)) / 1e6;
    g_array_append_val (r->glass, ms);
    due = gst_element_get_base_time (r->pipeline) + GST_BUFFER_PTS (buf) +
        r->latency;
    if (at > due + 20 * GST_MSECOND)
      r->late++;
  }
  g_mutex_unlock (&r->lock);
}

static guint
rendered (Render * r)
{
  guint n;

  g_mutex_lock (&r->lock);
  n = r->glass->len;
  g_mutex_unlock (&r->lock);
  return n;
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* a world session rendered by a syncing sink: the pipeline's latency and
 * the median glass to glass of FRAMES frames after the first 16 */
static void
run_world (const gchar * props, GstClockTime * latency, gdouble * median,
    guint * late)
{
  ServiceHarness *svc = service_harness_start ("--media=cached", NULL);
  gchar *url = service_harness_url (svc, "world");
  gchar *desc = g_strdup_printf ("worldsrc name=src url=%s %s ! fakesink "
      "name=sink sync=true signal-handoffs=true", url, props);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  BusLog *log = bus_log_new (pipeline);
  Render r = { {0}, pipeline, gst_caps_new_empty_simple ("timestamp/x-ntp"),
  g_array_new (FALSE, FALSE, sizeof (gdouble)), 0, GST_CLOCK_TIME_NONE
  };
  GstMessage *first;
  GstClockTime min;

  g_mutex_init (&r.lock);
  g_signal_connect (sink, "handoff", G_CALLBACK (on_handoff), &r);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  first = bus_log_wait (log, GST_MESSAGE_ELEMENT, "session/first-frame", 1,
      WAIT);
  fail_unless (first != NULL, "%s: no first frame", props);
  gst_message_unref (first);
  /* the latency the sink waits: what the pipeline gave it */
  WAIT_UNTIL (gst_base_sink_get_latency (GST_BASE_SINK (sink)) > 0, WAIT);
  min = gst_base_sink_get_latency (GST_BASE_SINK (sink));
  fail_unless (min > 0, "%s: the sink has no latency", props);
  g_mutex_lock (&r.lock);
  r.latency = min;
  g_mutex_unlock (&r.lock);
  WAIT_UNTIL (rendered (&r) >= 16 + FRAMES, WAIT);
  fail_unless (rendered (&r) >= 16 + FRAMES, "%s: %u frames rendered", props,
      rendered (&r));
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);

  g_mutex_lock (&r.lock);
  g_array_remove_range (r.glass, 0, 16);
  g_array_sort (r.glass, cmp_double);
  *median = g_array_index (r.glass, gdouble, r.glass->len / 2);
  *late = r.late;
  g_mutex_unlock (&r.lock);
  *latency = min;
  g_print ("worldsrc %s: the sink waits %" GST_TIME_FORMAT ", glass to "
      "glass median %.1f ms, %u of %u late\n", props[0] ? props : "(default)",
      GST_TIME_ARGS (min), *median, *late, FRAMES);

  bus_log_free (log);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_array_unref (r.glass);
  gst_caps_unref (r.ntp);
  g_mutex_clear (&r.lock);
  g_free (desc);
  g_free (url);
  service_harness_stop (svc);
}

GST_START_TEST (test_defaults)
{
  GstElement *world = gst_element_factory_make ("worldsrc", NULL);
  GstElement *director = gst_element_factory_make ("directorsrc", NULL);
  gint a = -1, b = -1;

  g_object_get (world, "playout", &a, NULL);
  g_object_get (director, "playout", &b, NULL);
  fail_unless_equals_int (a, 0);        /* interactive */
  fail_unless_equals_int (b, 1);        /* smooth */
  gst_object_unref (world);
  gst_object_unref (director);
}

GST_END_TEST;

/* Interactive: the pipeline waits the output's 5 ms and the sink's
 * processing deadline (20 ms), frames are on time; smooth: 1.5 frames and
 * the filler's margin (124 ms at 16 fps). Glass to glass follows. */
GST_START_TEST (test_interactive_is_shown_sooner)
{
  GstClockTime li, ls;
  gdouble gi, gs;
  guint late_i, late_s;

  run_world ("", &li, &gi, &late_i);
  run_world ("playout=smooth", &ls, &gs, &late_s);
  fail_unless (li <= 30 * GST_MSECOND, "interactive: latency %"
      GST_TIME_FORMAT, GST_TIME_ARGS (li));
  fail_unless (ls >= 100 * GST_MSECOND, "smooth: latency %" GST_TIME_FORMAT,
      GST_TIME_ARGS (ls));
  /* (the service's capture to its send is in both: the encoder's time) */
  fail_unless (gi < 80, "interactive: glass to glass median %.1f ms", gi);
  fail_unless (gs - gi > 60, "smooth %.1f ms, interactive %.1f ms", gs, gi);
  fail_unless (late_i <= FRAMES / 10, "interactive: %u of %u frames late",
      late_i, FRAMES);
}

GST_END_TEST;

static Suite *
playout_suite (void)
{
  Suite *s = suite_create ("playout");
  TCase *tc = tcase_create ("world");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_checked_fixture (tc, NULL, service_harness_settle_threads);
  tcase_add_test (tc, test_defaults);
  tcase_add_test (tc, test_interactive_is_shown_sooner);
  return s;
}

GST_CHECK_MAIN (playout);
