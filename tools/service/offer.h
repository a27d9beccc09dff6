/* gst-session-service: what a client's offer asks for
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_OFFER_H__
#define __SVC_OFFER_H__

#include "service.h"

G_BEGIN_DECLS

typedef enum
{
  SVC_STREAM_VIDEO,
  SVC_STREAM_AUDIO,
  SVC_STREAM_DATA,
  SVC_STREAM_OTHER,
} SvcStreamKind;

#define SVC_OFFER_MAX_MEDIA 8

/* What an offer asks for, per m-line */
typedef struct
{
  guint n_media;
  SvcStreamKind kinds[SVC_OFFER_MAX_MEDIA];
  gboolean has_video;
  gboolean has_audio;
  gboolean has_data;
  SvcCodec codec;
  guint video_pt;
  guint audio_pt;
  gboolean video_fec;           /* the video offers red and ulpfec */
  /* congestion feedback the client offers (video m-line) */
  guint twcc_ext_id;            /* transport-cc header extension id; 0: none */
  guint audio_twcc_ext_id;      /* the same on the audio m-line */
  gboolean transport_cc;        /* rtcp-fb transport-cc on the video codec */
  gboolean goog_remb;           /* rtcp-fb goog-remb on the video codec */
  guint64 max_bitrate;          /* b=TIAS (or b=AS * 1000), bit/s; 0: none */
} SvcOffer;

#define SVC_TWCC_URI \
    "http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01"


gboolean svc_offer_parse (const gchar * text, SvcCodec preferred,
    SvcOffer * offer, GError ** error);

G_END_DECLS

#endif /* __SVC_OFFER_H__ */
