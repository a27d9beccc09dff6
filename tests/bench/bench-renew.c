/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Session renewal: the service ends each world session after
 * --world-max-blocks blocks (`stream_exhausted`); worldsrc with renew=true
 * negotiates the next one while its output goes on. Measured at the
 * element's video pad:
 *
 * - the media gap: from the last frame of one session that came from the
 *   service to the first of the next (repeats excluded), broken down into
 *   last frame → `stream_exhausted` on the bus → the next session's
 *   `session/negotiated` (control channel open) → its first frame;
 * - the output timeline: every timestamp step over the whole run (it must
 *   be exactly one frame: no gap, no overlap), the repeats that filled the
 *   gaps, and the longest wall-clock wait between two output buffers.
 *
 * Baseline: the plain client, which on `stream_exhausted` builds a new
 * client; its gap is from its last frame to the new client's first.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "bench-common.h"
#include "worldclient.h"

#define FRAME_NS (GST_SECOND / 16)

static gint opt_blocks = 2;

typedef struct
{
  GArray *gap, *to_exhausted, *to_negotiated, *to_frame, *repeats;
  GArray *signalling, *ice, *channel;
} Series;

static void
series_init (Series * s)
{
  s->gap = bench_values_new ();
  s->to_exhausted = bench_values_new ();
  s->to_negotiated = bench_values_new ();
  s->to_frame = bench_values_new ();
  s->repeats = bench_values_new ();
  s->signalling = bench_values_new ();
  s->ice = bench_values_new ();
  s->channel = bench_values_new ();
}

static void
put (JsonBuilder * b, const gchar * key, GArray * v)
{
  bench_result_values (b, key, v);
  g_array_unref (v);
}

static void
series_write (JsonBuilder * b, const gchar * key, Series * s)
{
  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  put (b, "gap", s->gap);
  put (b, "to_exhausted", s->to_exhausted);
  put (b, "to_negotiated", s->to_negotiated);
  put (b, "to_frame", s->to_frame);
  put (b, "repeats", s->repeats);
  put (b, "signalling", s->signalling);
  put (b, "ice", s->ice);
  put (b, "channel", s->channel);
  json_builder_end_object (b);
}

static gdouble
msg_double (GstMessage * msg, const gchar * name)
{
  gdouble v;

  return msg && gst_structure_get_double (gst_message_get_structure (msg),
      name, &v) ? v : NAN;
}

/* ---- worldsrc ---- */

static void
run_worldsrc (const gchar * url, guint renewals, Series * s, JsonBuilder * out)
{
  WorldClient *c = world_client_new (url, "renew=true renew-min-media=0", TRUE);
  BenchBus *bus = world_client_get_bus (c);
  guint steps_bad = 0, k, i;
  gdouble max_wait = 0;
  GArray *bufs;

  world_client_play (c);
  /* session renewals + 1 has its first frame */
  {
    GstMessage *m = bench_bus_wait (bus, GST_MESSAGE_ELEMENT,
        "session/first-frame", renewals + 1,
        (renewals + 1) * (opt_blocks * 1000 + 8000), NULL);

    if (m == NULL)
      g_printerr ("renew: fewer than %u renewals\n", renewals);
    else
      gst_message_unref (m);
  }
  bench_sleep_ms (300);
  bufs = world_client_buffers (c);
  g_printerr ("first output buffer %.1f ms after PLAYING\n",
      world_client_first_frame (c) - world_client_play_time (c));

  for (k = 1; k <= renewals; k++) {
    GstMessage *exh, *neg;
    gdouble t_exh = 0, t_neg = 0, last = 0, first = 0;
    guint repeats = 0;

    exh = bench_bus_wait (bus, GST_MESSAGE_ELEMENT, "world/stream_exhausted",
        k, 0, &t_exh);
    neg = bench_bus_wait (bus, GST_MESSAGE_ELEMENT, "session/negotiated",
        k + 1, 0, &t_neg);
    if (exh == NULL || neg == NULL) {
      if (exh)
        gst_message_unref (exh);
      if (neg)
        gst_message_unref (neg);
      break;
    }
    for (i = 0; i < bufs->len; i++) {
      WorldBuffer *wb = &g_array_index (bufs, WorldBuffer, i);

      if (wb->at < t_neg && !wb->repeat) {
        last = wb->at;
        repeats = 0;
      }
      if (wb->at >= t_neg && !wb->repeat) {
        first = wb->at;
        break;
      }
      if (last > 0 && wb->repeat)
        repeats++;
    }
    if (last > 0 && first > 0) {
      bench_values_add (s->gap, first - last);
      bench_values_add (s->to_exhausted, t_exh - last);
      bench_values_add (s->to_negotiated, t_neg - t_exh);
      bench_values_add (s->to_frame, first - t_neg);
      bench_values_add (s->repeats, repeats);
      bench_values_add (s->signalling, msg_double (neg, "signalling-ms"));
      bench_values_add (s->ice, msg_double (neg, "ice-ms"));
      bench_values_add (s->channel, msg_double (neg, "channel-ms"));
      g_printerr ("renewal %u at %.1f ms: gap %.1f ms (last frame -> "
          "exhausted %.1f, -> negotiated %.1f, -> first frame %.1f), %u "
          "repeats\n", k, last - world_client_play_time (c), first - last,
          t_exh - last, t_neg - t_exh, first - t_neg, repeats);
    }
    gst_message_unref (exh);
    gst_message_unref (neg);
  }

  for (i = 1; i < bufs->len; i++) {
    WorldBuffer *a = &g_array_index (bufs, WorldBuffer, i - 1);
    WorldBuffer *b = &g_array_index (bufs, WorldBuffer, i);

    /* worldsrc's interactive playout: each frame at its own place, half a
     * frame to one and a half after the one before */
    if (!GST_CLOCK_TIME_IS_VALID (a->pts) || !GST_CLOCK_TIME_IS_VALID (b->pts)
        || b->pts < a->pts + FRAME_NS / 2 || b->pts > a->pts + FRAME_NS * 3 / 2)
      steps_bad++;
    max_wait = MAX (max_wait, b->at - a->at);
    if (b->at - a->at > 1.5 * FRAME_NS / GST_MSECOND)
      g_printerr ("output: %.1f ms without a buffer before buffer %u "
          "(pts %" GST_TIME_FORMAT ", %s) at %.1f ms\n", b->at - a->at, i,
          GST_TIME_ARGS (b->pts), b->repeat ? "repeat" : "frame",
          b->at - world_client_play_time (c));
  }
  bench_result_int (out, "output_buffers", bufs->len);
  bench_result_int (out, "output_steps_not_one_frame", steps_bad);
  bench_result_double (out, "output_max_wait_ms", max_wait);
  bench_result_int (out, "errors", bench_bus_count (bus, GST_MESSAGE_ERROR,
          NULL));
  g_array_unref (bufs);
  world_client_free (c);
}

/* ---- baseline ---- */

static void
run_baseline (const gchar * url, guint renewals, Series * s)
{
  BaselineClient *c = baseline_client_new (url);
  guint k;

  baseline_client_play (c);
  baseline_client_wait_frames (c, 1, 15000);
  for (k = 1; k <= renewals; k++) {
    BaselineTimes t;
    gdouble t_exh;
    BaselineClient *next;

    t_exh = baseline_client_wait_message (c, "stream_exhausted", 1,
        opt_blocks * 1000 + 8000, NULL);
    if (t_exh < 0) {
      g_printerr ("baseline: no stream_exhausted\n");
      break;
    }
    /* what a plain client does: a new session */
    next = baseline_client_new (url);
    baseline_client_play (next);
    baseline_client_get_times (c, &t);
    baseline_client_free (c);
    c = next;
    if (!baseline_client_wait_frames (c, 1, 15000)) {
      g_printerr ("baseline: the new session has no frame\n");
      break;
    }
    {
      BaselineTimes n;

      baseline_client_get_times (c, &n);
      bench_values_add (s->gap, n.first_frame - t.last_frame);
      bench_values_add (s->to_exhausted, t_exh - t.last_frame);
      bench_values_add (s->to_negotiated, n.channel > 0 ? n.channel - t_exh :
          NAN);
      bench_values_add (s->to_frame, n.channel > 0 ?
          n.first_frame - n.channel : NAN);
      bench_values_add (s->signalling, n.answered - n.gathered);
      bench_values_add (s->ice, n.connected - n.answered);
      bench_values_add (s->channel, n.channel - n.play);
      g_printerr ("baseline renewal %u: gap %.1f ms\n", k,
          n.first_frame - t.last_frame);
    }
  }
  baseline_client_free (c);
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"blocks", 0, 0, G_OPTION_ARG_INT, &opt_blocks,
        "Blocks (of 16 frames) per session", "N"},
    {NULL}
  };
  BenchService *svc;
  Series ws, bs;
  JsonBuilder *b;
  gchar *url, *blocks;
  guint renewals;

  bench_init (&argc, &argv, "Session renewal: the media gap and the output "
      "timeline, worldsrc vs a plain webrtcbin client", entries, 6);
  renewals = bench_quick ? 1 : bench_runs;
  if (bench_quick)
    opt_blocks = 1;
  blocks = g_strdup_printf ("--world-max-blocks=%d", opt_blocks);
  svc = bench_service_start (blocks, "--runners=2", NULL);
  g_free (blocks);
  if (svc == NULL)
    return 1;
  url = bench_service_url (svc, "world");
  series_init (&ws);
  series_init (&bs);

  b = bench_result_begin ("renew");
  bench_result_int (b, "blocks", opt_blocks);
  bench_result_int (b, "renewals", renewals);
  run_worldsrc (url, renewals, &ws, b);
  bench_service_wait_idle (svc, 5000);
  run_baseline (url, renewals, &bs);
  series_write (b, "worldsrc", &ws);
  series_write (b, "baseline", &bs);
  bench_result_end (b);

  g_free (url);
  bench_service_stop (svc);
  return 0;
}
