/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * When each packet came from the network, carried to the output stage.
 *
 * The depayloader and decoder run in the jitterbuffer's streaming thread:
 * when the decoder is late (a loaded CPU), the jitterbuffer lets its
 * packets out late too, and nothing after it can tell a slow path from a
 * slow machine. A probe on the jitterbuffer's sink notes the clock time
 * each RTP timestamp last arrived (the network's thread, which the decoder
 * does not hold up); a probe on its src adds that arrival to each packet
 * leaving it, as a reference timestamp meta (GST_SESSION_OUTPUT_ARRIVAL),
 * which the depayloaders and decoders keep. The output stage then sees how
 * much of an input's delay is the machine's (see gst_session_output_place in
 * gstsessionplacement.c).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/rtp/rtp.h>

#include "gstsessionarrival.h"
#include "gstsessionoutput.h"

/* RTP timestamps remembered: a video frame or an audio packet each; 256
 * are 8 s of video at 30 fps, 5 s of 20 ms audio packets, far more than
 * any jitterbuffer latency */
#define RING 256

typedef struct
{
  GMutex lock;
  GstClock *clock;
  GstCaps *caps;
  guint32 rtptime[RING];
  GstClockTime arrival[RING];
  guint next, len;
} Arrivals;

static void
arrivals_clear (Arrivals * a)
{
  g_mutex_clear (&a->lock);
  gst_object_unref (a->clock);
  gst_caps_unref (a->caps);
}

static void
arrivals_release (gpointer data)
{
  g_atomic_rc_box_release_full (data, (GDestroyNotify) arrivals_clear);
}

static gboolean
rtp_timestamp (GstBuffer * buf, guint32 * rtptime)
{
  GstRTPBuffer rtp = GST_RTP_BUFFER_INIT;

  if (!gst_rtp_buffer_map (buf, GST_MAP_READ, &rtp))
    return FALSE;
  *rtptime = gst_rtp_buffer_get_timestamp (&rtp);
  gst_rtp_buffer_unmap (&rtp);
  return TRUE;
}

/* The slot of @rtptime, newest first, or -1. Called with the lock. */
static gint
find (Arrivals * a, guint32 rtptime)
{
  guint i;

  for (i = 1; i <= a->len; i++) {
    guint slot = (a->next + RING - i) % RING;

    if (a->rtptime[slot] == rtptime)
      return (gint) slot;
  }
  return -1;
}

static gboolean
note_arrival (GstBuffer ** buf, guint idx, gpointer data)
{
  Arrivals *a = data;
  GstClockTime now = gst_clock_get_time (a->clock);
  guint32 rtptime;
  gint slot;

  if (!rtp_timestamp (*buf, &rtptime))
    return TRUE;
  g_mutex_lock (&a->lock);
  slot = find (a, rtptime);
  if (slot < 0) {
    slot = (gint) a->next;
    a->next = (a->next + 1) % RING;
    a->len = MIN (a->len + 1, RING);
    a->rtptime[slot] = rtptime;
    a->arrival[slot] = now;
  } else {
    /* a frame has come when its last packet (or retransmission) has */
    a->arrival[slot] = MAX (a->arrival[slot], now);
  }
  g_mutex_unlock (&a->lock);
  return TRUE;
}

/* The network's thread, into the jitterbuffer */
static GstPadProbeReturn
on_sink (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    gst_buffer_list_foreach (GST_PAD_PROBE_INFO_BUFFER_LIST (info),
        note_arrival, data);
  } else {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

    note_arrival (&buf, 0, data);
  }
  return GST_PAD_PROBE_OK;
}

/* The jitterbuffer's thread, out of it */
static GstPadProbeReturn
on_src (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Arrivals *a = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime arrival = GST_CLOCK_TIME_NONE;
  guint32 rtptime;
  gint slot;

  if (buf == NULL || !rtp_timestamp (buf, &rtptime))
    return GST_PAD_PROBE_OK;
  g_mutex_lock (&a->lock);
  slot = find (a, rtptime);
  if (slot >= 0)
    arrival = a->arrival[slot];
  g_mutex_unlock (&a->lock);
  if (!GST_CLOCK_TIME_IS_VALID (arrival))
    return GST_PAD_PROBE_OK;
  buf = gst_buffer_make_writable (buf);
  gst_buffer_add_reference_timestamp_meta (buf, a->caps, arrival,
      GST_CLOCK_TIME_NONE);
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

/* Marks each packet leaving @jitterbuffer with its arrival on @clock (the
 * clock of the element's outputs). */
void
gst_session_arrival_watch (GstElement * jitterbuffer, GstClock * clock)
{
  GstPad *sink = gst_element_get_static_pad (jitterbuffer, "sink");
  GstPad *src = gst_element_get_static_pad (jitterbuffer, "src");
  Arrivals *a;

  if (sink && src && clock) {
    a = g_atomic_rc_box_new0 (Arrivals);
    g_mutex_init (&a->lock);
    a->clock = gst_object_ref (clock);
    a->caps = gst_caps_new_empty_simple (GST_SESSION_OUTPUT_ARRIVAL);
    gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER |
        GST_PAD_PROBE_TYPE_BUFFER_LIST, on_sink, a, arrivals_release);
    gst_pad_add_probe (src, GST_PAD_PROBE_TYPE_BUFFER, on_src,
        g_atomic_rc_box_acquire (a), arrivals_release);
  }
  gst_clear_object (&sink);
  gst_clear_object (&src);
}
