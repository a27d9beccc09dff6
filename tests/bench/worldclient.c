/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "worldclient.h"

struct _WorldClient
{
  GstElement *pipeline;
  GstElement *src;
  BenchBus *bus;
  gdouble play;

  GMutex lock;
  GCond cond;
  guint64 frames;
  guint64 real;
  gdouble first;
  GstMemory *last_mem;          /* compared only, never dereferenced */
  GArray *buffers;
};

static GstPadProbeReturn
probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  WorldClient *c = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_n_memory (buf) ?
      gst_buffer_peek_memory (buf, 0) : NULL;
  WorldBuffer wb;

  wb.at = bench_now_ms ();
  wb.pts = GST_BUFFER_PTS (buf);
  g_mutex_lock (&c->lock);
  wb.repeat = mem != NULL && mem == c->last_mem;
  c->last_mem = mem;
  if (c->frames++ == 0)
    c->first = wb.at;
  if (!wb.repeat)
    c->real++;
  if (c->buffers)
    g_array_append_val (c->buffers, wb);
  g_cond_broadcast (&c->cond);
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

WorldClient *
world_client_new (const gchar * url, const gchar * props, gboolean keep_buffers)
{
  WorldClient *c = g_new0 (WorldClient, 1);
  gchar *desc = g_strdup_printf ("worldsrc name=src url=%s %s ! "
      "fakesink name=sink", url, props ? props : "");
  GError *err = NULL;
  GstPad *pad;

  c->pipeline = gst_parse_launch (desc, &err);
  if (c->pipeline == NULL)
    g_error ("cannot build %s: %s", desc, err->message);
  g_free (desc);
  g_mutex_init (&c->lock);
  g_cond_init (&c->cond);
  if (keep_buffers)
    c->buffers = g_array_new (FALSE, FALSE, sizeof (WorldBuffer));
  c->src = gst_bin_get_by_name (GST_BIN (c->pipeline), "src");
  pad = gst_element_get_static_pad (c->src, "video");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, probe, c, NULL);
  gst_object_unref (pad);
  c->bus = bench_bus_new (c->pipeline);
  return c;
}

GstElement *
world_client_get_src (WorldClient * c)
{
  return c->src;
}

BenchBus *
world_client_get_bus (WorldClient * c)
{
  return c->bus;
}

void
world_client_play (WorldClient * c)
{
  c->play = bench_now_ms ();
  gst_element_set_state (c->pipeline, GST_STATE_PLAYING);
}

gdouble
world_client_play_time (WorldClient * c)
{
  return c->play;
}

gboolean
world_client_wait_frames (WorldClient * c, guint64 n, guint timeout_ms)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * (gint64) 1000;
  gboolean ok;

  g_mutex_lock (&c->lock);
  while (c->frames < n)
    if (!g_cond_wait_until (&c->cond, &c->lock, deadline))
      break;
  ok = c->frames >= n;
  g_mutex_unlock (&c->lock);
  return ok;
}

guint64
world_client_frames (WorldClient * c)
{
  guint64 n;

  g_mutex_lock (&c->lock);
  n = c->frames;
  g_mutex_unlock (&c->lock);
  return n;
}

guint64
world_client_real_frames (WorldClient * c)
{
  guint64 n;

  g_mutex_lock (&c->lock);
  n = c->real;
  g_mutex_unlock (&c->lock);
  return n;
}

gdouble
world_client_first_frame (WorldClient * c)
{
  gdouble t;

  g_mutex_lock (&c->lock);
  t = c->first;
  g_mutex_unlock (&c->lock);
  return t;
}

GArray *
world_client_buffers (WorldClient * c)
{
  GArray *copy;

  g_mutex_lock (&c->lock);
  copy = c->buffers ? g_array_copy (c->buffers) :
      g_array_new (FALSE, FALSE, sizeof (WorldBuffer));
  g_mutex_unlock (&c->lock);
  return copy;
}

void
world_client_free (WorldClient * c)
{
  if (c == NULL)
    return;
  gst_element_set_state (c->pipeline, GST_STATE_NULL);
  bench_bus_free (c->bus);
  gst_object_unref (c->src);
  gst_object_unref (c->pipeline);
  if (c->buffers)
    g_array_unref (c->buffers);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->cond);
  g_free (c);
}
