/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The baseline of the element benchmarks: the client a user writes without
 * worldsrc, driving webrtcbin directly against the same service. A
 * recvonly VP8 transceiver and a data channel, full ICE gathering (the
 * offer leaves when webrtcbin says gathering is complete), webrtcbin's
 * default latency (200 ms), the start-session POST with libsoup, and
 * rtpvp8depay ! vp8dec ! fakesink. One line more than the naive version:
 * ICE also gathers on 127.0.0.1 (as docs/reference-service.md tells);
 * without it ICE fails against the service on loopback.
 */

#ifndef __BENCH_BASELINE_H__
#define __BENCH_BASELINE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* milestones, monotonic ms (bench_now_ms ()), 0 when not reached */
typedef struct
{
  gdouble play;                 /* the client was created */
  gdouble offer;                /* offer created */
  gdouble gathered;             /* gathering complete: the POST leaves */
  gdouble answered;             /* the answer arrived */
  gdouble connected;            /* ICE connected */
  gdouble channel;              /* data channel open */
  gdouble first_rtp;            /* first RTP buffer out of webrtcbin */
  gdouble first_frame;          /* first decoded frame at the sink */
  gdouble last_frame;           /* the latest frame at the sink */
} BaselineTimes;

typedef struct _BaselineClient BaselineClient;

/* builds the pipeline: the clock starts here (the user's own client
 * counts from its construction: webrtcbin is made there) */
BaselineClient *baseline_client_new (const gchar * url);
BaselineClient *baseline_client_new_full (const gchar * url, gboolean decode);
/* sets PLAYING, creates the channel and the offer */
void baseline_client_play (BaselineClient * c);
/* waits until @n frames reached the sink; FALSE on timeout or failure */
gboolean baseline_client_wait_frames (BaselineClient * c, guint64 n,
    guint timeout_ms);
guint64 baseline_client_frames (BaselineClient * c);
/* sends @text on the data channel */
gboolean baseline_client_send (BaselineClient * c, const gchar * text);
/* waits for the @nth data channel message containing @needle; its
 * arrival (bench_now_ms ()), or -1 on timeout; @text gets it (may be NULL) */
gdouble baseline_client_wait_message (BaselineClient * c,
    const gchar * needle, guint nth, guint timeout_ms, gchar ** text);
void baseline_client_get_times (BaselineClient * c, BaselineTimes * t);
/* why it failed (free it), or NULL */
gchar *baseline_client_error (BaselineClient * c);
/* ends the session (closes the response) and frees */
void baseline_client_free (BaselineClient * c);

G_END_DECLS

#endif
