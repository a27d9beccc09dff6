/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * REMB (draft-alvestrand-rmcat-remb): what the receiver tells the sender
 * it may send. A receive-side estimate from the video's counters, once a
 * second, capped at max-bitrate; the FCI of its RTCP packet; and the SDP
 * that offers it (goog-remb, b=TIAS/b=AS) and reads the answer. Plain
 * logic: no element, no pipeline, no lock of its own. A transport-cc
 * sender estimates the path itself and is told the cap alone, as by
 * Chromium's receiver (an estimate here would be its ceiling).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsessionremb.h"

/* the estimate never goes below this (unless max-bitrate is lower) */
#define REMB_MIN_BITRATE 50000
/* an interval with fewer packets measures nothing (a stall): the estimate
 * holds */
#define REMB_MIN_PACKETS 8

void
gst_session_remb_init (GstSessionRemb * remb, guint max_bitrate)
{
  memset (remb, 0, sizeof (*remb));
  remb->max_bitrate = max_bitrate;
}

static void
keep_counters (GstSessionRemb * remb, gint64 now, guint64 octets,
    guint64 packets, gint64 lost)
{
  remb->at = now;
  remb->octets = octets;
  remb->packets = packets;
  remb->lost = lost;
}

/* Feeds the stream's counters (payload octets and packets received,
 * packets lost, all since it began) at @now (monotonic µs). TRUE with
 * *@bitrate once GST_SESSION_REMB_INTERVAL has passed since the last
 * update, when there is something to say: the estimate, or before it
 * (GST_SESSION_REMB_WARMUP) the cap. */
gboolean
gst_session_remb_update (GstSessionRemb * remb, gint64 now, guint64 octets,
    guint64 packets, gint64 lost, guint64 * bitrate)
{
  guint64 received, est, got;
  gint64 missed;
  gdouble secs, loss;

  if (remb->at == 0 || octets < remb->octets || packets < remb->packets) {
    /* the first counters, or a new stream's: a baseline */
    if (remb->at == 0 || remb->estimate == 0)
      remb->started = now;
    keep_counters (remb, now, octets, packets, lost);
    return FALSE;
  }
  if (now - remb->at < GST_SESSION_REMB_INTERVAL)
    return FALSE;
  if (remb->cap_only) {
    keep_counters (remb, now, octets, packets, lost);
    *bitrate = remb->max_bitrate;
    return remb->max_bitrate > 0;
  }
  secs = (now - remb->at) / 1e6;
  got = packets - remb->packets;
  missed = MAX (lost - remb->lost, 0);
  received = (guint64) ((octets - remb->octets) * 8 / secs);
  keep_counters (remb, now, octets, packets, lost);
  if (remb->estimate == 0 && (now - remb->started < GST_SESSION_REMB_WARMUP
          || got < REMB_MIN_PACKETS)) {
    *bitrate = remb->max_bitrate;
    return remb->max_bitrate > 0;
  }
  if (got < REMB_MIN_PACKETS) {
    *bitrate = remb->estimate;
    return TRUE;
  }
  loss = missed / (gdouble) (got + missed);
  /* at least 1.5 times what arrived (+10 kbit/s) while under 2 % is lost,
   * never lowered then; times (1 - loss / 2) over 10 % lost; else held */
  est = remb->estimate;
  if (est == 0 || loss < 0.02)
    est = MAX (est, received * 3 / 2 + 10000);
  else if (loss > 0.10)
    est = (guint64) (est * (1.0 - loss / 2));
  est = MAX (est, REMB_MIN_BITRATE);
  if (remb->max_bitrate)
    est = MIN (est, remb->max_bitrate);
  remb->estimate = est;
  *bitrate = est;
  return TRUE;
}

/* Writes the FCI of a REMB about @ssrc ("REMB", one SSRC, a 6-bit
 * exponent and an 18-bit mantissa: 12 bytes at @fci, 3 words) and returns
 * the bitrate it says: @bitrate rounded down to what the mantissa holds,
 * so never above it. */
guint64
gst_session_remb_write_fci (guint8 * fci, guint64 bitrate, guint32 ssrc)
{
  guint exp = 0;
  guint32 mantissa;

  while ((bitrate >> exp) > 0x3ffff)
    exp++;
  mantissa = (guint32) (bitrate >> exp);
  memcpy (fci, "REMB", 4);
  fci[4] = 1;
  fci[5] = (guint8) ((exp << 2) | (mantissa >> 16));
  fci[6] = (guint8) (mantissa >> 8);
  fci[7] = (guint8) mantissa;
  GST_WRITE_UINT32_BE (fci + 8, ssrc);
  return (guint64) mantissa << exp;
}

static gboolean
is_video (const GstSDPMedia * media)
{
  return g_strcmp0 (gst_sdp_media_get_media (media), "video") == 0;
}

/* Whether @media has an rtcp-fb line for @pt (its codecs have some; its
 * rtx formats none), or with @fb that one */
static gboolean
has_rtcp_fb (const GstSDPMedia * media, const gchar * pt, const gchar * fb)
{
  gsize n = strlen (pt);
  const gchar *v;
  guint i;

  for (i = 0; (v = gst_sdp_media_get_attribute_val_n (media, "rtcp-fb", i));
      i++) {
    const gchar *rest;

    if (v[0] == '*' && v[1] == ' ')
      rest = v + 2;
    else if (strncmp (v, pt, n) == 0 && v[n] == ' ')
      rest = v + n + 1;
    else
      continue;
    if (fb == NULL || g_strcmp0 (rest, fb) == 0)
      return TRUE;
  }
  return FALSE;
}

/* Offers REMB on every video codec ("a=rtcp-fb:<pt> goog-remb": GStreamer
 * 1.22 writes no rtcp-fb from caps but nack, pli, fir and transport-cc)
 * and, with @max_bitrate (bit/s), caps the video in the SDP too: b=TIAS
 * (RFC 3890) and b=AS (kbit/s). */
void
gst_session_remb_offer (GstSDPMessage * offer, guint max_bitrate)
{
  guint i, f;

  for (i = 0; i < gst_sdp_message_medias_len (offer); i++) {
    GstSDPMedia *media = (GstSDPMedia *) gst_sdp_message_get_media (offer, i);

    if (!is_video (media))
      continue;
    for (f = 0; f < gst_sdp_media_formats_len (media); f++) {
      const gchar *pt = gst_sdp_media_get_format (media, f);
      gchar *fb;

      if (!has_rtcp_fb (media, pt, NULL) ||
          has_rtcp_fb (media, pt, "goog-remb"))
        continue;
      fb = g_strdup_printf ("%s goog-remb", pt);
      gst_sdp_media_add_attribute (media, "rtcp-fb", fb);
      g_free (fb);
    }
    if (max_bitrate > 0) {
      gst_sdp_media_add_bandwidth (media, "TIAS", max_bitrate);
      gst_sdp_media_add_bandwidth (media, "AS", MAX (max_bitrate / 1000, 1));
    }
  }
}

/* Whether the answer takes REMB on its video (a sender that did not say
 * so is not told) */
gboolean
gst_session_remb_answered (const GstSDPMessage * answer)
{
  guint i, f;

  for (i = 0; i < gst_sdp_message_medias_len (answer); i++) {
    const GstSDPMedia *media = gst_sdp_message_get_media (answer, i);

    if (!is_video (media) || gst_sdp_media_get_port (media) == 0)
      continue;
    for (f = 0; f < gst_sdp_media_formats_len (media); f++)
      if (has_rtcp_fb (media, gst_sdp_media_get_format (media, f), "goog-remb"))
        return TRUE;
  }
  return FALSE;
}

/* Whether the answer takes transport-cc on its video (the rtcp-fb or the
 * header extension): the sender then estimates the path itself */
gboolean
gst_session_remb_twcc_answered (const GstSDPMessage * answer)
{
  guint i, f, a;

  for (i = 0; i < gst_sdp_message_medias_len (answer); i++) {
    const GstSDPMedia *media = gst_sdp_message_get_media (answer, i);

    if (!is_video (media) || gst_sdp_media_get_port (media) == 0)
      continue;
    for (f = 0; f < gst_sdp_media_formats_len (media); f++)
      if (has_rtcp_fb (media, gst_sdp_media_get_format (media, f),
              "transport-cc"))
        return TRUE;
    for (a = 0; a < gst_sdp_media_attributes_len (media); a++) {
      const GstSDPAttribute *attr = gst_sdp_media_get_attribute (media, a);

      if (g_strcmp0 (attr->key, "extmap") == 0 && attr->value &&
          strstr (attr->value, "transport-wide-cc-extensions"))
        return TRUE;
    }
  }
  return FALSE;
}
