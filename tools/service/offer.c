/* gst-session-service: what a client's offer asks for
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Reads an SDP offer: its m-lines in order, the video codec (the
 * configured one when both VP8 and H.264 are offered), the payload types,
 * whether the video offers RED with ULPFEC, and the congestion feedback
 * it offers (transport-cc with its header extension, goog-remb, b=TIAS).
 */

#include <stdlib.h>
#include <string.h>
#include <gst/sdp/sdp.h>

#include "offer.h"

static gboolean
find_codec (const GstSDPMedia * media, const gchar * name, gboolean h264,
    guint * pt)
{
  guint i;
  gint best = -1;

  for (i = 0; i < gst_sdp_media_formats_len (media); i++) {
    const gchar *fmt = gst_sdp_media_get_format (media, i);
    gint p = atoi (fmt);
    GstCaps *caps = gst_sdp_media_get_caps_from_media (media, p);
    GstStructure *s;
    const gchar *enc, *mode;

    if (!caps)
      continue;
    s = gst_caps_get_structure (caps, 0);
    enc = gst_structure_get_string (s, "encoding-name");
    if (enc && g_ascii_strcasecmp (enc, name) == 0) {
      mode = gst_structure_get_string (s, "packetization-mode");
      if (!h264 || g_strcmp0 (mode, "1") == 0) {
        gst_caps_unref (caps);
        *pt = p;
        return TRUE;
      }
      if (best < 0)
        best = p;
    }
    gst_caps_unref (caps);
  }
  if (best >= 0)
    *pt = best;
  return best >= 0;
}

/* The id of the transport-cc header extension in @media's a=extmap lines
 * ("<id>[/<direction>] <uri> [<attributes>]"), or 0. Only a one-byte
 * header's ids (1-14) are taken: those are what a payloader writes. */
static guint
find_twcc_ext_id (const GstSDPMedia * media)
{
  gsize n = strlen (SVC_TWCC_URI);
  guint i;

  for (i = 0; i < gst_sdp_media_attributes_len (media); i++) {
    const GstSDPAttribute *a = gst_sdp_media_get_attribute (media, i);
    const gchar *p;
    gchar *end = NULL;
    guint64 id;

    if (g_strcmp0 (a->key, "extmap") != 0 || a->value == NULL)
      continue;
    id = g_ascii_strtoull (a->value, &end, 10);
    if (end == a->value || id < 1 || id > 14)
      continue;
    p = *end == '/' ? strchr (end, ' ') : end;
    if (p == NULL || *p != ' ')
      continue;
    while (*p == ' ')
      p++;
    if (strncmp (p, SVC_TWCC_URI, n) == 0 && (p[n] == '\0' || p[n] == ' '))
      return (guint) id;
  }
  return 0;
}

/* Whether @media has "a=rtcp-fb:<pt> <fb>" (or "a=rtcp-fb:* <fb>") */
static gboolean
has_rtcp_fb (const GstSDPMedia * media, guint pt, const gchar * fb)
{
  const gchar *v;
  guint i;

  for (i = 0; (v = gst_sdp_media_get_attribute_val_n (media, "rtcp-fb", i));
      i++) {
    gchar *end = (gchar *) v + 1;

    if (*v != '*' && (g_ascii_strtoull (v, &end, 10) != pt || end == v))
      continue;
    while (*end == ' ')
      end++;
    if (g_strcmp0 (end, fb) == 0)
      return TRUE;
  }
  return FALSE;
}

/* The bandwidth @media is capped at, bit/s: b=TIAS, else b=AS (kbit/s);
 * 0 when it says none */
static guint64
max_bitrate (const GstSDPMedia * media)
{
  guint64 as = 0;
  guint i;

  for (i = 0; i < gst_sdp_media_bandwidths_len (media); i++) {
    const GstSDPBandwidth *b = gst_sdp_media_get_bandwidth (media, i);

    if (g_strcmp0 (b->bwtype, "TIAS") == 0)
      return b->bandwidth;
    if (g_strcmp0 (b->bwtype, "AS") == 0)
      as = (guint64) b->bandwidth * 1000;
  }
  return as;
}

/* Reads what the offer asks for: its m-lines in order, the video codec
 * (the preferred one when both are offered) and the payload types. */
gboolean
svc_offer_parse (const gchar * text, SvcCodec preferred, SvcOffer * offer,
    GError ** error)
{
  GstSDPMessage *sdp;
  guint i;

  memset (offer, 0, sizeof (*offer));
  if (gst_sdp_message_new_from_text (text, &sdp) != GST_SDP_OK)
    goto bad;
  if (gst_sdp_message_medias_len (sdp) == 0) {
    gst_sdp_message_free (sdp);
    goto bad;
  }

  offer->n_media = MIN (gst_sdp_message_medias_len (sdp), SVC_OFFER_MAX_MEDIA);
  for (i = 0; i < offer->n_media; i++) {
    const GstSDPMedia *media = gst_sdp_message_get_media (sdp, i);
    const gchar *kind = gst_sdp_media_get_media (media);
    guint vp8 = 0, h264 = 0;
    gboolean has_vp8, has_h264;

    offer->kinds[i] = SVC_STREAM_OTHER;
    /* port 0 rejects a stream, unless it is bundled (JSEP: a=bundle-only) */
    if (gst_sdp_media_get_port (media) == 0 &&
        gst_sdp_media_get_attribute_val (media, "bundle-only") == NULL)
      continue;
    if (g_strcmp0 (kind, "application") == 0 && !offer->has_data) {
      offer->kinds[i] = SVC_STREAM_DATA;
      offer->has_data = TRUE;
    } else if (g_strcmp0 (kind, "video") == 0 && !offer->has_video) {
      has_vp8 = find_codec (media, "VP8", FALSE, &vp8);
      has_h264 = find_codec (media, "H264", TRUE, &h264);
      if (!has_vp8 && !has_h264)
        continue;
      offer->kinds[i] = SVC_STREAM_VIDEO;
      offer->has_video = TRUE;
      {
        guint red, ulpfec;

        offer->video_fec = find_codec (media, "RED", FALSE, &red) &&
            find_codec (media, "ULPFEC", FALSE, &ulpfec);
      }
      if (has_h264 && (!has_vp8 || preferred == SVC_CODEC_H264)) {
        offer->codec = SVC_CODEC_H264;
        offer->video_pt = h264;
      } else {
        offer->codec = SVC_CODEC_VP8;
        offer->video_pt = vp8;
      }
      offer->twcc_ext_id = find_twcc_ext_id (media);
      offer->transport_cc = has_rtcp_fb (media, offer->video_pt,
          "transport-cc");
      offer->goog_remb = has_rtcp_fb (media, offer->video_pt, "goog-remb");
      offer->max_bitrate = max_bitrate (media);
    } else if (g_strcmp0 (kind, "audio") == 0 && !offer->has_audio) {
      if (!find_codec (media, "OPUS", FALSE, &offer->audio_pt))
        continue;
      offer->kinds[i] = SVC_STREAM_AUDIO;
      offer->has_audio = TRUE;
      offer->audio_twcc_ext_id = find_twcc_ext_id (media);
    }
  }
  gst_sdp_message_free (sdp);
  return TRUE;

bad:
  g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
      "the offer is not a valid SDP description");
  return FALSE;
}
