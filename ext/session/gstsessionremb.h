/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_REMB_H__
#define __GST_SESSION_REMB_H__

#include <gst/gst.h>
#include <gst/sdp/sdp.h>

G_BEGIN_DECLS

/* one REMB a second (monotonic µs) */
#define GST_SESSION_REMB_INTERVAL G_USEC_PER_SEC
/* the estimate starts after this much of the stream (a sender's start and
 * its probes say nothing yet); until then a REMB says the cap alone, if
 * there is one (libwebrtc's receiver waits 5 s too) */
#define GST_SESSION_REMB_WARMUP (5 * G_USEC_PER_SEC)

/* The receiver's estimate of what the sender may send; plain data, the
 * caller's lock */
typedef struct
{
  guint max_bitrate;            /* bit/s; 0: no cap but the estimate */
  gboolean cap_only;            /* a transport-cc sender: the cap alone */
  guint64 estimate;             /* bit/s; 0: none yet */
  gint64 started;               /* monotonic µs of the first counters */
  gint64 at;                    /* monotonic µs of the counters; 0: none */
  guint64 octets;               /* the stream's counters then */
  guint64 packets;
  gint64 lost;
} GstSessionRemb;

G_GNUC_INTERNAL
void gst_session_remb_init (GstSessionRemb * remb, guint max_bitrate);

G_GNUC_INTERNAL
gboolean gst_session_remb_update (GstSessionRemb * remb, gint64 now,
    guint64 octets, guint64 packets, gint64 lost, guint64 * bitrate);

/* the FCI of a REMB about one SSRC, in 32-bit words */
#define GST_SESSION_REMB_FCI_WORDS 3

G_GNUC_INTERNAL
guint64 gst_session_remb_write_fci (guint8 * fci, guint64 bitrate,
    guint32 ssrc);

G_GNUC_INTERNAL
void gst_session_remb_offer (GstSDPMessage * offer, guint max_bitrate);

G_GNUC_INTERNAL
gboolean gst_session_remb_answered (const GstSDPMessage * answer);

G_GNUC_INTERNAL
gboolean gst_session_remb_twcc_answered (const GstSDPMessage * answer);

G_END_DECLS

#endif /* __GST_SESSION_REMB_H__ */
