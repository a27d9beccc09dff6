/* gst-session-service: the WebRTC answerer of one session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_PEER_H__
#define __SVC_PEER_H__

#include "offer.h"

G_BEGIN_DECLS

typedef struct _SvcPeer SvcPeer;

/* All called on the main context, never after svc_peer_free() */
typedef struct
{
  /* the answer with its candidates, or NULL and an error */
  void (*answer) (gpointer user_data, const gchar * sdp, const GError * error);
  void (*channel_open) (gpointer user_data);
  void (*channel_message) (gpointer user_data, const gchar * text);
  void (*channel_closed) (gpointer user_data);
  /* the pipeline failed or ICE failed */
  void (*failed) (gpointer user_data, const gchar * reason);
  /* a receiver report block about the stream @ssrc: its cumulative
   * packets lost and extended highest sequence number (optional) */
  void (*loss_report) (gpointer user_data, guint32 ssrc, gint32 lost,
      guint32 highest);
  /* a REMB about the video: the receiver's estimate, bit/s (optional) */
  void (*remb) (gpointer user_data, guint64 bitrate);
} SvcPeerCallbacks;

/* The congestion feedback the receiver sent, since the session began */
typedef struct
{
  guint64 twcc_received;        /* transport-cc feedback (RTPFB 15) */
  guint64 rembs_received;       /* REMBs about the video (PSFB 15) */
  guint64 rembs_refused;        /* malformed, or about no stream of ours */
  guint64 remb_bitrate;         /* the last REMB's, bit/s; 0: none yet */
  gdouble twcc_loss_pct;        /* rtpsession's TWCC view; -1: none yet */
  guint twcc_bitrate_recv;      /* rtpsession's TWCC view, bit/s */
  gint64 twcc_delay_growth;     /* its average delta of delta, ns */
} SvcPeerFeedback;

SvcPeer *svc_peer_new (const SvcConfig * config,
    const SvcPeerCallbacks * callbacks, gpointer user_data);
GstBin *svc_peer_get_pipeline (SvcPeer * peer);
gboolean svc_peer_add_stream (SvcPeer * peer, GstPad * src,
    SvcStreamKind kind, const SvcOffer * offer, GError ** error);
gboolean svc_peer_start (SvcPeer * peer, const gchar * offer_sdp,
    GError ** error);
gboolean svc_peer_send (SvcPeer * peer, const gchar * text);
guint64 svc_peer_get_buffered_amount (SvcPeer * peer);
void svc_peer_get_feedback (SvcPeer * peer, SvcPeerFeedback * feedback);
gboolean svc_peer_channel_is_open (SvcPeer * peer);
void svc_peer_close_channel (SvcPeer * peer);
void svc_peer_free (SvcPeer * peer);
guint svc_peer_count_alive (void);

G_END_DECLS

#endif /* __SVC_PEER_H__ */
