/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the output stage's two files share: the output itself, and its
 * placement of inputs on the timeline (gstsessionplacement.c).
 */

#ifndef __GST_SESSION_OUTPUT_PRIVATE_H__
#define __GST_SESSION_OUTPUT_PRIVATE_H__

#include <gst/audio/audio.h>
#include <gst/video/video.h>

#include "gstsessionoutput.h"

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (session_output_debug);

/* audio is filled in chunks of this many milliseconds */
#define AUDIO_FILL_MS 20
/* input later than this is a gap (audio) */
#define AUDIO_OVERDUE (100 * GST_MSECOND)

struct _GstSessionOutput
{
  GstSessionOutputKind kind;
  GstElement *appsrc;
  GstPad *ghost;
  GstSessionOutputOrigin *origin;

  GMutex lock;
  GCond cond;
  GThread *filler;
  gboolean running;
  GstClock *clock;
  GstClockTime base_time;
  GstClockID wait_id;

  gint fps_n, fps_d;
  GstClockTime frame_duration;
  GstCaps *caps;
  gboolean raw;
  gboolean need_keyframe;
  GstAudioInfo ainfo;

  gboolean started;
  gboolean ended;
  GstClockTime next_pts;        /* video: next slot */
  GstClockTime last_pts;        /* encoded video: the last frame pushed */
  guint64 next_offset;          /* audio: samples since the origin */
  GstBuffer *last;              /* video: last frame, for repeats */
  gboolean filled_last;         /* video: the last slot was the filler's */
  gint64 last_input;            /* monotonic µs of the last input */
  gint64 last_arrival;          /* and of the last one kept out (touch) */
  gpointer queue_out;           /* atomic: pts + 1 of the last buffer that
                                 * left the appsrc (0: none yet) */
  GstClockTime recovery;        /* placement delay for retransmissions */
  gboolean interactive;         /* the pads report INTERACTIVE_MARGIN */
  gint width, height;           /* raw video output size; 0: not chosen */
  gint caps_width, caps_height; /* the size the output caps say */
  /* scale_lock: the scaler, used without the output lock (before it,
   * never inside it) */
  GMutex scale_lock;
  GstVideoConverter *scaler;    /* for frames of another size */
  GstVideoInfo scale_in, scale_out;
  GstSessionOutputStats stats;
};

/* frames over this many times the output's area are dropped, not scaled:
 * what a hostile sender can cost the scaler is bounded */
#define SCALE_MAX_AREA_RATIO 4

/* off loopback, the least an input may be overdue (see overdue_limit) */
#define OVERDUE_FLOOR (30 * GST_MSECOND)

/* How late an input may be before the filler steps in: 1.5 frames, or
 * AUDIO_OVERDUE. Off loopback every input is already placed the recovery
 * delay after its least delayed arrival (a retransmission's time): the
 * part of that wait the recovery delay covers is not waited again, down
 * to OVERDUE_FLOOR (a sink showed every frame 1.5 frames after the
 * recovery delay: 94 ms more at 16 fps) */
static inline GstClockTime
overdue_limit (GstSessionOutput * out)
{
  GstClockTime limit = out->kind == GST_SESSION_OUTPUT_AUDIO ?
      AUDIO_OVERDUE : out->frame_duration + out->frame_duration / 2;

  if (out->recovery > 0)
    limit = MAX (OVERDUE_FLOOR, limit > out->recovery ?
        limit - out->recovery : 0);
  return limit;
}

G_GNUC_INTERNAL
void gst_session_output_origin_reset (GstSessionOutputOrigin * o,
    GstSessionOutputKind k);

G_GNUC_INTERNAL
GstClockTime gst_session_output_place (GstSessionOutput * out, GstBuffer * in,
    GstClockTime now);

G_GNUC_INTERNAL
GstClockTime gst_session_output_arrival_time (GstBuffer * in);

G_GNUC_INTERNAL
gboolean gst_session_output_hold_begins (GstSessionOutput * out,
    GstBuffer * in, GstClockTime now);

G_GNUC_INTERNAL
void gst_session_output_hold_wait (GstSessionOutput * out);

G_END_DECLS

#endif /* __GST_SESSION_OUTPUT_PRIVATE_H__ */
