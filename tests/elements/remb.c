/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The REMB estimate alone (its source compiled in): what the element
 * tells the sender from what arrives and what is lost, the packet's FCI,
 * and the SDP that offers it. elements/congestion shows the same against
 * the reference service.
 */

#include <gst/check/gstcheck.h>

#include "gstsessionremb.h"

#define SEC G_USEC_PER_SEC
/* a second of video at @kbps in 1000-byte packets */
#define OCTETS(kbps) ((guint64) (kbps) * 1000 / 8)
#define PACKETS(kbps) (OCTETS (kbps) / 1000)

typedef struct
{
  GstSessionRemb remb;
  gint64 now;
  guint64 octets, packets;
  gint64 lost;
} Feed;

static void
feed_init (Feed * f, guint max_bitrate)
{
  memset (f, 0, sizeof (*f));
  gst_session_remb_init (&f->remb, max_bitrate);
  f->now = 5 * SEC;
  /* the baseline: no estimate from one reading */
  fail_if (gst_session_remb_update (&f->remb, f->now, 0, 0, 0, NULL));
}

/* one more second at @kbps with @lost packets lost besides: the REMB's
 * bitrate, or 0 when none is due */
static guint64
feed_second (Feed * f, guint kbps, guint lost)
{
  guint64 bitrate = 0;

  f->now += SEC;
  f->octets += OCTETS (kbps);
  f->packets += PACKETS (kbps);
  f->lost += lost;
  if (!gst_session_remb_update (&f->remb, f->now, f->octets, f->packets,
          f->lost, &bitrate))
    return 0;
  return bitrate;
}

/* the first seconds of a stream (@kbps) say nothing but the cap: the
 * estimate of the fifth, or 0 */
static guint64
warm_up (Feed * f, guint kbps)
{
  guint i;

  for (i = 1; i < 5; i++)
    fail_unless_equals_uint64 (feed_second (f, kbps, 0), f->remb.max_bitrate);
  return feed_second (f, kbps, 0);
}

/* after 5 s, 1.5 times what arrived, +10 kbit/s; nothing said before */
GST_START_TEST (test_starts_from_received)
{
  Feed f;

  feed_init (&f, 0);
  fail_unless_equals_uint64 (warm_up (&f, 1000), 1510000);
}

GST_END_TEST;

/* under 2 % lost: at least 1.5 times what arrived, never lowered (a
 * sender that sends less than it may, its picture needing less, is not
 * held back when it needs more) */
GST_START_TEST (test_raises_while_loss_low)
{
  Feed f;

  feed_init (&f, 0);
  fail_unless_equals_uint64 (warm_up (&f, 200), 310000);
  fail_unless_equals_uint64 (feed_second (&f, 400, 0), 610000);
  fail_unless_equals_uint64 (feed_second (&f, 100, 0), 610000);
  /* 125 packets arrive, 2 lost: 1.6 % */
  fail_unless_equals_uint64 (feed_second (&f, 1000, 2), 1510000);
}

GST_END_TEST;

/* over 10 % lost: times (1 - loss / 2); 2 to 10 %: held */
GST_START_TEST (test_lowers_on_loss)
{
  Feed f;

  feed_init (&f, 0);
  fail_unless_equals_uint64 (warm_up (&f, 800), 1210000);
  /* 100 packets arrive, 5 more lost: 4.8 %, held */
  fail_unless_equals_uint64 (feed_second (&f, 800, 5), 1210000);
  /* 100 arrive, 25 lost: 20 %, times 0.9 */
  fail_unless_equals_uint64 (feed_second (&f, 800, 25), 1089000);
  /* 100 arrive, 100 lost: 50 %, times 0.75 */
  fail_unless_equals_uint64 (feed_second (&f, 800, 100), 816750);
}

GST_END_TEST;

/* never above max-bitrate (said from the first second), never below
 * 50 kbit/s (unless the cap is) */
GST_START_TEST (test_bounds)
{
  Feed f;
  guint i;

  feed_init (&f, 300000);
  fail_unless_equals_uint64 (warm_up (&f, 1500), 300000);
  for (i = 0; i < 10; i++)
    fail_unless_equals_uint64 (feed_second (&f, 300, 0), 300000);

  feed_init (&f, 0);
  fail_unless_equals_uint64 (warm_up (&f, 100), 160000);
  for (i = 0; i < 20; i++)
    feed_second (&f, 100, 100);
  fail_unless_equals_uint64 (feed_second (&f, 100, 100), 50000);

  feed_init (&f, 20000);
  fail_unless_equals_uint64 (warm_up (&f, 100), 20000);
}

GST_END_TEST;

/* once a second; a second with (almost) nothing received measures
 * nothing: the estimate holds (a stall is no congestion); a stream that
 * starts again (counters back at 0) is a new baseline */
GST_START_TEST (test_interval_and_stalls)
{
  Feed f;
  guint64 bitrate = 0;
  guint i;

  feed_init (&f, 0);
  /* half a second: not due */
  fail_if (gst_session_remb_update (&f.remb, f.now + SEC / 2, OCTETS (500),
          PACKETS (500), 0, &bitrate));
  fail_unless_equals_uint64 (warm_up (&f, 1000), 1510000);
  fail_unless_equals_uint64 (feed_second (&f, 0, 0), 1510000);
  fail_unless_equals_uint64 (feed_second (&f, 0, 50), 1510000);
  /* a new stream: a baseline, and the estimate goes on */
  f.octets = f.packets = 0;
  f.lost = 0;
  f.now += SEC;
  fail_if (gst_session_remb_update (&f.remb, f.now, 0, 0, 0, &bitrate));
  fail_unless_equals_uint64 (feed_second (&f, 1000, 0), 1510000);
  /* a lost count that goes down (duplicates) is no loss */
  f.lost = -5;
  fail_unless_equals_uint64 (feed_second (&f, 1000, 0), 1510000);

  /* a stall in the first seconds: no estimate yet */
  feed_init (&f, 0);
  for (i = 0; i < 6; i++)
    fail_unless_equals_uint64 (feed_second (&f, 0, 0), 0);
}

GST_END_TEST;

/* "REMB", one SSRC, a 6-bit exponent and an 18-bit mantissa, the SSRC;
 * the value rounded down, never above what was asked */
GST_START_TEST (test_fci)
{
  guint8 fci[12];
  static const guint8 remb_300k[] = { 'R', 'E', 'M', 'B', 1, 0x06, 0x49,
    0xf0, 0x12, 0x34, 0x56, 0x78
  };

  /* 300000 = 150000 << 1 */
  fail_unless_equals_uint64 (gst_session_remb_write_fci (fci, 300000,
          0x12345678), 300000);
  fail_unless (memcmp (fci, remb_300k, 12) == 0);
  /* the largest mantissa, exponent 0 */
  fail_unless_equals_uint64 (gst_session_remb_write_fci (fci, 0x3ffff, 1),
      0x3ffff);
  fail_unless_equals_int (fci[5], 0x03);
  fail_unless_equals_int (fci[6], 0xff);
  fail_unless_equals_int (fci[7], 0xff);
  /* 0x40001 needs exponent 1 and loses its last bit */
  fail_unless_equals_uint64 (gst_session_remb_write_fci (fci, 0x40001, 1),
      0x40000);
  fail_unless_equals_int (fci[5] >> 2, 1);
  /* 10 Gbit/s */
  fail_unless (gst_session_remb_write_fci (fci, G_GUINT64_CONSTANT
          (10000000000), 1) <= G_GUINT64_CONSTANT (10000000000));
  fail_unless_equals_int (fci[5] >> 2, 16);
}

GST_END_TEST;

static const gchar *offer_text =
    "v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"
    "m=video 9 UDP/TLS/RTP/SAVPF 96 102 97\r\n"
    "c=IN IP4 0.0.0.0\r\n"
    "a=rtpmap:96 VP8/90000\r\na=rtcp-fb:96 nack\r\n"
    "a=rtcp-fb:96 transport-cc\r\n"
    "a=rtpmap:102 H264/90000\r\na=rtcp-fb:102 nack\r\n"
    "a=rtpmap:97 rtx/90000\r\na=fmtp:97 apt=96\r\n"
    "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\n"
    "c=IN IP4 0.0.0.0\r\n"
    "a=rtpmap:111 OPUS/48000/2\r\na=rtcp-fb:111 transport-cc\r\n";

static GstSDPMessage *
parse (const gchar * text)
{
  GstSDPMessage *msg = NULL;

  fail_unless_equals_int (gst_sdp_message_new_from_text (text, &msg),
      GST_SDP_OK);
  return msg;
}

/* goog-remb on each video codec (not rtx, not audio); with a cap, b=TIAS
 * and b=AS on the video only */
GST_START_TEST (test_offer)
{
  GstSDPMessage *msg = parse (offer_text);
  gchar *text;

  gst_session_remb_offer (msg, 0);
  text = gst_sdp_message_as_text (msg);
  fail_unless (strstr (text, "a=rtcp-fb:96 goog-remb\r\n") != NULL, "%s", text);
  fail_unless (strstr (text, "a=rtcp-fb:102 goog-remb\r\n") != NULL);
  fail_if (strstr (text, "a=rtcp-fb:97 goog-remb") != NULL);
  fail_if (strstr (text, "a=rtcp-fb:111 goog-remb") != NULL);
  fail_if (strstr (text, "b=") != NULL);
  g_free (text);
  gst_sdp_message_free (msg);

  msg = parse (offer_text);
  gst_session_remb_offer (msg, 300000);
  text = gst_sdp_message_as_text (msg);
  fail_unless (strstr (text, "m=video 9 UDP/TLS/RTP/SAVPF 96 102 97\r\n"
          "c=IN IP4 0.0.0.0\r\nb=TIAS:300000\r\nb=AS:300\r\n") != NULL, "%s",
      text);
  fail_unless (strstr (strstr (text, "m=audio"), "b=") == NULL);
  g_free (text);
  gst_sdp_message_free (msg);
}

GST_END_TEST;

/* REMB is sent only when the answer's video takes it */
GST_START_TEST (test_answered)
{
  GstSDPMessage *msg = parse (offer_text);

  fail_if (gst_session_remb_answered (msg));
  gst_sdp_message_free (msg);
  msg = parse ("v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"
      "m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\n"
      "a=rtpmap:96 VP8/90000\r\na=rtcp-fb:96 goog-remb\r\n");
  fail_unless (gst_session_remb_answered (msg));
  gst_sdp_message_free (msg);
  msg = parse ("v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"
      "m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\n"
      "a=rtpmap:96 VP8/90000\r\na=rtcp-fb:* goog-remb\r\n");
  fail_unless (gst_session_remb_answered (msg));
  gst_sdp_message_free (msg);
  /* on the audio only: no */
  msg = parse ("v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"
      "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\n"
      "a=rtpmap:111 OPUS/48000/2\r\na=rtcp-fb:111 goog-remb\r\n");
  fail_if (gst_session_remb_answered (msg));
  gst_sdp_message_free (msg);
}

GST_END_TEST;

/* A transport-cc sender (the answer has its rtcp-fb or its header
 * extension on the video) estimates the path itself: it is told the cap
 * alone, every second, and nothing without one */
GST_START_TEST (test_transport_cc_sender_told_the_cap)
{
  GstSDPMessage *msg;
  guint i;
  Feed f;

  msg = parse ("v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"
      "m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\n"
      "a=rtpmap:96 VP8/90000\r\na=rtcp-fb:96 goog-remb\r\n"
      "a=rtcp-fb:96 transport-cc\r\n");
  fail_unless (gst_session_remb_twcc_answered (msg));
  gst_sdp_message_free (msg);
  msg = parse ("v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"
      "m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\n"
      "a=rtpmap:96 VP8/90000\r\na=extmap:3 http://www.ietf.org/id/"
      "draft-holmer-rmcat-transport-wide-cc-extensions-01\r\n");
  fail_unless (gst_session_remb_twcc_answered (msg));
  gst_sdp_message_free (msg);
  msg = parse ("v=0\r\no=- 1 0 IN IP4 0.0.0.0\r\ns=-\r\nt=0 0\r\n"
      "m=video 9 UDP/TLS/RTP/SAVPF 96\r\nc=IN IP4 0.0.0.0\r\n"
      "a=rtpmap:96 VP8/90000\r\na=rtcp-fb:96 goog-remb\r\n"
      "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\nc=IN IP4 0.0.0.0\r\n"
      "a=rtpmap:111 OPUS/48000/2\r\na=rtcp-fb:111 transport-cc\r\n");
  fail_if (gst_session_remb_twcc_answered (msg));
  gst_sdp_message_free (msg);

  feed_init (&f, 800000);
  f.remb.cap_only = TRUE;
  for (i = 0; i < 10; i++)
    fail_unless_equals_uint64 (feed_second (&f, 400, 0), 800000);
  feed_init (&f, 0);
  f.remb.cap_only = TRUE;
  for (i = 0; i < 10; i++)
    fail_unless_equals_uint64 (feed_second (&f, 400, 0), 0);
}

GST_END_TEST;

static Suite *
remb_suite (void)
{
  Suite *s = suite_create ("remb");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_starts_from_received);
  tcase_add_test (tc, test_raises_while_loss_low);
  tcase_add_test (tc, test_lowers_on_loss);
  tcase_add_test (tc, test_bounds);
  tcase_add_test (tc, test_interval_and_stalls);
  tcase_add_test (tc, test_fci);
  tcase_add_test (tc, test_offer);
  tcase_add_test (tc, test_answered);
  tcase_add_test (tc, test_transport_cc_sender_told_the_cap);
  return s;
}

GST_CHECK_MAIN (remb);
