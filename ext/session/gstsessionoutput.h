/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_OUTPUT_H__
#define __GST_SESSION_OUTPUT_H__

#include <gst/gst.h>

G_BEGIN_DECLS

typedef enum
{
  GST_SESSION_OUTPUT_VIDEO,
  GST_SESSION_OUTPUT_AUDIO,
} GstSessionOutputKind;

/* The caps of the reference timestamp meta that carries an input's
 * arrival from the network (clock time; the stage adds it to each packet
 * leaving the jitterbuffer, the depayloaders and decoders keep it): the
 * time after it is the machine's own (decoding), not the path's */
#define GST_SESSION_OUTPUT_ARRIVAL "timestamp/x-session-arrival"

/* The timeline origin shared by the outputs of one element, so that audio
 * and video start at the same running time. */
typedef struct
{
  GMutex lock;
  GCond cond;                   /* a stream's hold ended (holding) */
  GstClockTime origin;          /* running time, or NONE before any input */
  gboolean has_video;           /* audio waits for the first video frame */
  GstClockTimeDiff latency[2];  /* per kind: arrival minus sender time */
  gboolean have_latency[2];
  guint settle[2];
  gboolean rise_pending[2];     /* an input rose above the rise limit: */
  GstClockTime rise_at[2];      /* its arrival */
  GstClockTimeDiff rise_lat[2]; /* and its latency */
  gboolean rise_local[2];       /* and each since made of local delay */
  gboolean window_open[2];      /* interactive video: since window_at, */
  GstClockTime window_at[2];
  GstClockTimeDiff window_min[2];       /* the least latency of the inputs */
  GstClockTime first_at[2];     /* per kind: the session's first input */
  gboolean have_local[2];       /* per kind, from the arrival meta: */
  GstClockTimeDiff local_base[2];       /* the least time from arrival to
                                         * the output (decoding) */
  gboolean have_ntp_offset;     /* the session's sender reports: */
  GstClockTimeDiff ntp_offset;  /* running time minus sender NTP time */
  gboolean by_sender[2];        /* per kind: placed by sender time */
  GstClockTimeDiff basis[2];    /* per kind, the last input placed by sender
                                 * time: that time minus its timestamp */
  gboolean initial[2];          /* per kind: in the session's first settle */
  gboolean ahead[2];            /* per kind: the jitterbuffer's timestamps ran
                                 * ahead of arrival (see sender_time) */
  GstClockTimeDiff common;      /* the latency both streams are placed at */
  gboolean have_common;
  gboolean synced;              /* both streams placed by sender time, */
  GstClockTime synced_at;       /* from this running time on */
  gboolean synced_told;         /* gst_session_output_origin_take_synced */
  GstClockTime last_end[2];     /* per kind: where its last input ends */
  GstClockTime in_at[2];        /* per kind, the last input: when it came */
  GstClockTime in_end[2];       /* and where its timestamps end */
  gboolean have_usual[2];       /* per kind, placed by sender time: */
  GstClockTimeDiff usual[2];    /* its inputs' latency, smoothed */
  gint64 pause_until;           /* monotonic µs: a pause the sender announced
                                 * (the director's deadline_missed) */
  gboolean holding[2];          /* per kind: its first input after such a
                                 * pause waits for the other stream's */
  gboolean resuming[2];         /* per kind: that input is still to place */
  gint64 resume_wait;           /* µs: the longest such wait */
} GstSessionOutputOrigin;

G_GNUC_INTERNAL
void gst_session_output_origin_init (GstSessionOutputOrigin * o);

G_GNUC_INTERNAL
void gst_session_output_origin_clear (GstSessionOutputOrigin * o);

G_GNUC_INTERNAL
void gst_session_output_origin_announce_pause (GstSessionOutputOrigin * o,
    gint64 until);

G_GNUC_INTERNAL
void gst_session_output_origin_release (GstSessionOutputOrigin * o);

typedef struct _GstSessionOutput GstSessionOutput;

/* What became of one input (gst_session_output_push) */
typedef enum
{
  GST_SESSION_OUTPUT_PLACED,    /* on the timeline */
  GST_SESSION_OUTPUT_DROPPED,   /* late, cut, or not running */
  GST_SESSION_OUTPUT_WANTS_KEYFRAME,    /* encoded video waits for one */
} GstSessionOutputResult;

typedef struct
{
  guint64 in;                   /* buffers that arrived */
  guint64 out;                  /* buffers pushed, repeats included */
  guint64 repeated;             /* video frames repeated / audio silences */
  guint64 dropped;              /* input dropped for running ahead */
  guint64 scaled;               /* video frames scaled to the output size */
  guint64 refused;              /* video frames too large to scale */
  guint64 queue_dropped;        /* buffers downstream did not take in time */
  GstClockTime filled;          /* time covered by repeats and silence */
  /* where a frame's time goes (running averages, ms; video): from its last
   * packet's arrival to the output (jitterbuffer, depay, decode, scale),
   * and from there to its place (its wait before it is due; < 0: late) */
  gdouble arrival_to_output_ms;
  gdouble ahead_ms;
  guint64 late;                 /* frames that came after their place */
  gint received_width, received_height; /* the last frame's, unscaled */
} GstSessionOutputStats;

G_GNUC_INTERNAL
GstSessionOutput *gst_session_output_new (GstBin * bin, const gchar * pad_name,
    GstPadTemplate * templ, GstSessionOutputKind kind,
    GstSessionOutputOrigin * origin);

G_GNUC_INTERNAL
void gst_session_output_free (GstSessionOutput * out);

G_GNUC_INTERNAL
void gst_session_output_set_nominal_rate (GstSessionOutput * out,
    gint fps_n, gint fps_d);

G_GNUC_INTERNAL
void gst_session_output_start (GstSessionOutput * out, GstClock * clock,
    GstClockTime base_time);

/* interactive playout: the pads report only the output's own delay */
G_GNUC_INTERNAL
void gst_session_output_set_interactive (GstSessionOutput * out,
    gboolean interactive);

/* placement delay that leaves time for retransmissions (see the .c) */
G_GNUC_INTERNAL
gboolean gst_session_output_set_recovery (GstSessionOutput * out,
    GstClockTime recovery);

/* the largest raw video output side */
#define GST_SESSION_OUTPUT_MAX_SIZE 4096

/* raw video: the run's size, the first announced (else the first
 * frame's); FALSE when the output keeps another */
G_GNUC_INTERNAL
gboolean gst_session_output_set_video_size (GstSessionOutput * out,
    gint width, gint height);

void gst_session_output_stop (GstSessionOutput * out);

G_GNUC_INTERNAL
GstSessionOutputResult gst_session_output_push (GstSessionOutput * out,
    GstSample * sample);

G_GNUC_INTERNAL
void gst_session_output_new_session (GstSessionOutput * out);

G_GNUC_INTERNAL
gboolean gst_session_output_origin_take_synced (GstSessionOutputOrigin * o,
    GstClockTime * running_time);

G_GNUC_INTERNAL
void gst_session_output_end (GstSessionOutput * out);

G_GNUC_INTERNAL
gboolean gst_session_output_is_ended (GstSessionOutput * out);

G_GNUC_INTERNAL
void gst_session_output_touch (GstSessionOutput * out);

G_GNUC_INTERNAL
GstClockTime gst_session_output_get_end (GstSessionOutput * out);

G_GNUC_INTERNAL
void gst_session_output_fill_to (GstSessionOutput * out, GstClockTime end);

G_GNUC_INTERNAL
gint64 gst_session_output_get_last_input (GstSessionOutput * out);

G_GNUC_INTERNAL
gint64 gst_session_output_get_last_arrival (GstSessionOutput * out);

G_GNUC_INTERNAL
void gst_session_output_get_stats (GstSessionOutput * out,
    GstSessionOutputStats * stats);

G_GNUC_INTERNAL
GstPad *gst_session_output_get_pad (GstSessionOutput * out);

G_END_DECLS

#endif /* __GST_SESSION_OUTPUT_H__ */
