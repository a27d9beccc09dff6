/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the worldsrc test programs share (see world-test.h).
 */

#include <gst/video/video.h>

#include "world-test.h"

static GstFlowReturn
on_sample (GstAppSink * sink, gpointer data)
{
  Frames *f = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstClockTime pts;
  gint64 now = g_get_monotonic_time ();

  if (sample == NULL)
    return GST_FLOW_EOS;
  pts = GST_BUFFER_PTS (gst_sample_get_buffer (sample));
  g_mutex_lock (&f->lock);
  g_array_append_val (f->pts, pts);
  g_array_append_val (f->arrival, now);
  if (f->caps == NULL)
    f->caps = gst_caps_ref (gst_sample_get_caps (sample));
  else if (!gst_caps_is_equal (f->caps, gst_sample_get_caps (sample)))
    f->caps_changes++;
  {
    GstVideoInfo info;

    if (gst_video_info_from_caps (&info, f->caps) &&
        gst_buffer_get_size (gst_sample_get_buffer (sample)) !=
        GST_VIDEO_INFO_SIZE (&info))
      f->wrong_size++;
  }
  g_cond_broadcast (&f->cond);
  g_mutex_unlock (&f->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static void
on_eos (GstAppSink * sink, gpointer data)
{
  Frames *f = data;

  g_mutex_lock (&f->lock);
  f->eos = TRUE;
  g_cond_broadcast (&f->cond);
  g_mutex_unlock (&f->lock);
}

Frames *
frames_attach (GstElement * pipeline)
{
  GstAppSinkCallbacks cb = { on_eos, NULL, on_sample, };
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  Frames *f = g_new0 (Frames, 1);

  g_mutex_init (&f->lock);
  g_cond_init (&f->cond);
  f->pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  f->arrival = g_array_new (FALSE, FALSE, sizeof (gint64));
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, f, NULL);
  gst_object_unref (sink);
  return f;
}

void
frames_free (Frames * f)
{
  g_array_unref (f->pts);
  g_array_unref (f->arrival);
  gst_clear_caps (&f->caps);
  g_mutex_clear (&f->lock);
  g_cond_clear (&f->cond);
  g_free (f);
}

/* waits until @n frames arrived (or EOS); returns how many did */
guint
frames_wait (Frames * f, guint n, GstClockTime timeout)
{
  gint64 deadline = g_get_monotonic_time () + timeout / GST_USECOND;
  guint have;

  g_mutex_lock (&f->lock);
  while (f->pts->len < n && !f->eos)
    if (!g_cond_wait_until (&f->cond, &f->lock, deadline))
      break;
  have = f->pts->len;
  g_mutex_unlock (&f->lock);
  return have;
}

gboolean
frames_wait_eos (Frames * f, GstClockTime timeout)
{
  gint64 deadline = g_get_monotonic_time () + timeout / GST_USECOND;
  gboolean eos;

  g_mutex_lock (&f->lock);
  while (!f->eos)
    if (!g_cond_wait_until (&f->cond, &f->lock, deadline))
      break;
  eos = f->eos;
  g_mutex_unlock (&f->lock);
  return eos;
}

/* no gap, no overlap: worldsrc's interactive playout puts each frame at
 * its own place, half a frame to one and a half after the one before
 * (the filler repeats a frame within that) */
void
assert_continuous (Frames * f, guint from, guint to)
{
  guint i;

  g_mutex_lock (&f->lock);
  for (i = from + 1; i < to && i < f->pts->len; i++) {
    GstClockTime a = g_array_index (f->pts, GstClockTime, i - 1);
    GstClockTime b = g_array_index (f->pts, GstClockTime, i);

    fail_unless (GST_CLOCK_TIME_IS_VALID (b));
    fail_unless (b >= a + FRAME / 2 && b <= a + FRAME + FRAME / 2,
        "frame %u at %" GST_TIME_FORMAT
        " follows %" GST_TIME_FORMAT, i, GST_TIME_ARGS (b), GST_TIME_ARGS (a));
  }
  g_mutex_unlock (&f->lock);
}

GstElement *
world_pipeline (ServiceHarness * svc, const gchar * props)
{
  gchar *url = service_harness_url (svc, "world");
  gchar *desc = g_strdup_printf ("worldsrc name=src url=%s %s ! "
      "appsink name=sink sync=false", url, props ? props : "");
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL, "%s", err ? err->message : "?");
  g_free (desc);
  g_free (url);
  return pipeline;
}

GstMessage *
expect (BusLog * log, const gchar * name, guint nth)
{
  GstMessage *msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, name, nth, WAIT);

  fail_unless (msg != NULL, "no %s message (#%u) within 20 s", name, nth);
  return msg;
}
