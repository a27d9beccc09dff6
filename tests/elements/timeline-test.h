/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the output timeline's tests share (timeline-test.c): the output
 * alone in a bin, on a test clock, fed with chosen inputs at chosen
 * instants (timeline.c, timeline-stall.c).
 */

#ifndef __TIMELINE_TEST_H__
#define __TIMELINE_TEST_H__

#include <gst/check/gstcheck.h>
#include <gst/check/gsttestclock.h>
#include <gst/app/gstappsink.h>

#include "gstsessionoutput.h"

typedef struct
{
  GstBin *bin;
  GstTestClock *clock;
  GstSessionOutputOrigin origin;
  GstSessionOutput *out;
  GstCaps *caps;
  gboolean encoded;
  gboolean started;
  GstClockTime frame;           /* the nominal frame duration */
  GstElement *sink;
  GArray *pts;                  /* of the output, in order */
  GstSessionOutput *aout;       /* audio, when timeline_add_audio added it */
  GstElement *asink;
  GstCaps *acaps;
  gboolean sink_blocked;        /* the test holds the sink: no drain wait */
} Timeline;

void timeline_init_rate (Timeline * t, gboolean encoded, gint fps);
void timeline_init (Timeline * t, gboolean encoded);
void timeline_add_audio (Timeline * t);
void timeline_clear (Timeline * t);
void advance (Timeline * t, GstClockTime at);
void push_at (Timeline * t, GstBuffer * buf, GstClockTime at);
void arrive (Timeline * t, guint i, GstClockTime latency);
void arrive_at (Timeline * t, GstClockTime pts, GstClockTime late);
GstBuffer *arrived_frame (Timeline * t, GstClockTime pts, GstClockTime net);
void collect_output (Timeline * t);
void arrive_reported (Timeline * t, guint i, GstClockTime latency,
    GstClockTime shift);
void feed (Timeline * t, guint from, guint to, GstClockTime latency);
void feed_held_up (Timeline * t, guint n, GstClockTime hold);
void feed_decoded (Timeline * t, guint from, guint n, guint lag_from,
    GstClockTime lag, gboolean stall);
void check_every_slot_once (Timeline * t, guint n);
void check_grid (Timeline * t, guint n);
GstSample *audio_block (Timeline * t, GstClockTime pts, gint16 value);
GstBuffer *video_frame (GstClockTime pts, guint8 value);
gpointer push_audio_thread (gpointer data);
GstClockTime find_output (GstSessionOutput * out, GstElement * sink,
    guint8 value);
void other_stream_settled (Timeline * t, GstClockTimeDiff latency);
GstSessionOutputStats stats (Timeline * t);

#endif /* __TIMELINE_TEST_H__ */
