/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * directorsrc over a long run against the live service (chunk-duration 5,
 * so a marker every 5 s), with one stall injected by the service
 * (--fault-stall: a chunk arrives late, no media meanwhile):
 *
 * - A/V drift: at the first frame of every chunk the service shows a white
 *   square (top right) and plays a 2 kHz click at the same instant. Probes
 *   on the element's pads find both in the output; the offset (click
 *   minus marker, in output running time) is taken at every chunk, and
 *   the drift is how it moves over the run;
 * - a gap-free output: every video timestamp one frame after the one
 *   before, every audio buffer starting where the one before ended, also
 *   across the stall (filled with repeated frames and silence).
 *
 * 60 s by default, 10 minutes with --long.
 */

#include <gst/audio/audio.h>
#include <gst/video/video.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench-common.h"

#define LOUD 16384

static gint opt_stall_at = 23;
static gint opt_stall_for = 3;

typedef struct
{
  GMutex lock;
  /* video */
  GstVideoInfo vinfo;
  gboolean have_vinfo;
  gboolean white;
  GArray *markers;              /* GstClockTime */
  guint64 vbuffers, vrepeats, vsteps_bad;
  GArray *repeat_pts;           /* GstClockTime of every repeat */
  GstClockTime vlast;
  GstMemory *vlast_mem;         /* compared only */
  gdouble vlast_at, vmax_wait;
  /* audio */
  gint rate, channels;
  GArray *clicks;               /* GstClockTime */
  GstClockTime last_loud, aend;
  guint64 abuffers, asteps_bad, asilent_buffers;
  GstClockTime asilence;
  GArray *silent_pts;           /* GstClockTime of every silent buffer */
} Probe;

static gdouble
marker_luma (Probe * p, GstBuffer * buf)
{
  GstVideoFrame frame;
  gint side, x0, x, y, n = 0;
  gdouble sum = 0;

  if (!gst_video_frame_map (&frame, &p->vinfo, buf, GST_MAP_READ))
    return 0;
  side = GST_VIDEO_INFO_HEIGHT (&p->vinfo) / 8;
  x0 = GST_VIDEO_INFO_WIDTH (&p->vinfo) - side;
  for (y = 4; y < side - 4; y += 2) {
    const guint8 *row = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&frame,
        0) + y * GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0);

    for (x = x0 + 4; x < x0 + side - 4; x += 2, n++)
      sum += row[x];
  }
  gst_video_frame_unmap (&frame);
  return n ? sum / n : 0;
}

static GstPadProbeReturn
video_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Probe *p = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  gdouble now = bench_now_ms ();
  GstCaps *caps;
  gboolean white;

  g_mutex_lock (&p->lock);
  caps = gst_pad_get_current_caps (pad);
  if (caps) {
    p->have_vinfo = gst_video_info_from_caps (&p->vinfo, caps);
    gst_caps_unref (caps);
  }
  if (p->vbuffers > 0) {
    if (pts - p->vlast != gst_util_uint64_scale_int (GST_SECOND, 1, 24))
      p->vsteps_bad++;
    p->vmax_wait = MAX (p->vmax_wait, now - p->vlast_at);
  }
  if (mem == p->vlast_mem) {
    p->vrepeats++;
    g_array_append_val (p->repeat_pts, pts);
  }
  p->vlast_mem = mem;
  p->vlast = pts;
  p->vlast_at = now;
  p->vbuffers++;
  white = p->have_vinfo && marker_luma (p, buf) > 160;
  if (white && !p->white)
    g_array_append_val (p->markers, pts);
  p->white = white;
  g_mutex_unlock (&p->lock);
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
audio_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Probe *p = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  GstMapInfo map;
  gboolean silent = TRUE;
  GstAudioInfo ainfo;
  GstCaps *caps;
  guint i, n;

  g_mutex_lock (&p->lock);
  caps = gst_pad_get_current_caps (pad);
  if (caps && gst_audio_info_from_caps (&ainfo, caps)) {
    p->rate = GST_AUDIO_INFO_RATE (&ainfo);
    p->channels = GST_AUDIO_INFO_CHANNELS (&ainfo);
  }
  gst_clear_caps (&caps);
  if (p->rate == 0 || !gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_mutex_unlock (&p->lock);
    return GST_PAD_PROBE_OK;
  }
  if (p->abuffers > 0 && (pts > p->aend + GST_USECOND ||
          pts + GST_USECOND < p->aend))
    p->asteps_bad++;
  n = map.size / 2;
  for (i = 0; i < n; i++) {
    gint v = ((const gint16 *) map.data)[i];
    GstClockTime t;

    if (v != 0)
      silent = FALSE;
    if (ABS (v) < LOUD)
      continue;
    t = pts + gst_util_uint64_scale_int (i / p->channels, GST_SECOND, p->rate);
    if (!GST_CLOCK_TIME_IS_VALID (p->last_loud) ||
        t > p->last_loud + GST_SECOND / 2)
      g_array_append_val (p->clicks, t);
    p->last_loud = t;
  }
  gst_buffer_unmap (buf, &map);
  p->aend = pts + gst_util_uint64_scale_int (n / p->channels, GST_SECOND,
      p->rate);
  if (silent) {
    g_array_append_val (p->silent_pts, pts);
    p->asilent_buffers++;
    p->asilence += p->aend - pts;
  }
  p->abuffers++;
  g_mutex_unlock (&p->lock);
  return GST_PAD_PROBE_OK;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"stall-at", 0, 0, G_OPTION_ARG_INT, &opt_stall_at,
        "Seconds into the session of the injected stall (0: none)", "S"},
    {"stall-for", 0, 0, G_OPTION_ARG_INT, &opt_stall_for,
        "Length of the stall in seconds", "S"},
    {NULL}
  };
  Probe p = { 0 };
  BenchService *svc;
  GstElement *pipeline, *src;
  BenchBus *bus;
  GstPad *pad;
  JsonBuilder *b, *chunks;
  GArray *offsets = bench_values_new ();
  gchar *url, *desc, *stall;
  GError *err = NULL;
  guint duration_s, i, unpaired = 0;
  gdouble slope = NAN;

  bench_init (&argc, &argv, "directorsrc: A/V drift and a gap-free output "
      "across a stall", entries, 1);
  duration_s = bench_quick ? 4 : bench_long ? 600 : 60;
  if (bench_quick)
    opt_stall_at = 0;
  stall = g_strdup_printf ("--fault-stall=%d:%d", opt_stall_at, opt_stall_for);
  svc = opt_stall_at > 0 ? bench_service_start (stall, NULL) :
      bench_service_start (NULL, NULL);
  g_free (stall);
  if (svc == NULL)
    return 1;
  url = bench_service_url (svc, "director");
  desc = g_strdup_printf ("directorsrc name=src url=%s prompt=\"a bench "
      "film\" chunk-duration=5 src.video ! fakesink src.audio ! fakesink", url);
  pipeline = gst_parse_launch (desc, &err);
  g_assert (pipeline != NULL);
  g_free (desc);
  src = gst_bin_get_by_name (GST_BIN (pipeline), "src");

  g_mutex_init (&p.lock);
  p.markers = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  p.clicks = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  p.repeat_pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  p.silent_pts = g_array_new (FALSE, FALSE, sizeof (GstClockTime));
  p.last_loud = GST_CLOCK_TIME_NONE;
  pad = gst_element_get_static_pad (src, "video");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, video_probe, &p, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (src, "audio");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, audio_probe, &p, NULL);
  gst_object_unref (pad);
  bus = bench_bus_new (pipeline);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  bench_sleep_ms (duration_s * 1000);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  /* each marker with the nearest click within half a second; with the
   * video repeats and silent audio buffers since the marker before */
  chunks = json_builder_new ();
  json_builder_begin_array (chunks);
  {
    GArray *at = bench_values_new ();

    for (i = 0; i < p.markers->len; i++) {
      GstClockTime m = g_array_index (p.markers, GstClockTime, i);
      GstClockTimeDiff best = G_MAXINT64;
      guint j;

      for (j = 0; j < p.clicks->len; j++) {
        GstClockTimeDiff d = GST_CLOCK_DIFF (m, g_array_index (p.clicks,
                GstClockTime, j));

        if (ABS (d) < ABS (best))
          best = d;
      }
      if (ABS (best) < GST_SECOND / 2) {
        GstClockTime prev = i ? g_array_index (p.markers, GstClockTime,
            i - 1) : 0;
        guint reps = 0, sil = 0, k;

        for (k = 0; k < p.repeat_pts->len; k++) {
          GstClockTime t = g_array_index (p.repeat_pts, GstClockTime, k);

          reps += t >= prev && t < m;
        }
        for (k = 0; k < p.silent_pts->len; k++) {
          GstClockTime t = g_array_index (p.silent_pts, GstClockTime, k);

          sil += t >= prev && t < m;
        }
        bench_values_add (offsets, best / 1e6);
        bench_values_add (at, m / 1e9);
        json_builder_begin_object (chunks);
        bench_result_double (chunks, "at_s", m / 1e9);
        bench_result_double (chunks, "offset_ms", best / 1e6);
        bench_result_int (chunks, "video_repeats_since_last", reps);
        bench_result_int (chunks, "silent_buffers_since_last", sil);
        json_builder_end_object (chunks);
        g_printerr ("marker at %.3f s: click %+.2f ms; since the marker "
            "before: %u video repeats, %u silent audio buffers\n", m / 1e9,
            best / 1e6, reps, sil);
      } else {
        unpaired++;
      }
    }
    /* least squares: offset (ms) per minute */
    if (offsets->len >= 2) {
      gdouble sx = 0, sy = 0, sxx = 0, sxy = 0, n = offsets->len;

      for (i = 0; i < offsets->len; i++) {
        gdouble x = g_array_index (at, gdouble, i) / 60;
        gdouble y = g_array_index (offsets, gdouble, i);

        sx += x;
        sy += y;
        sxx += x * x;
        sxy += x * y;
      }
      if (n * sxx - sx * sx > 0)
        slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    }
    g_array_unref (at);
  }
  g_printerr ("director: %u markers, %u clicks, %u unpaired; offset median "
      "%.2f ms, drift %.3f ms/min; video steps off %" G_GUINT64_FORMAT
      ", audio %" G_GUINT64_FORMAT "; %" G_GUINT64_FORMAT " repeats, "
      "%.2f s silence\n", p.markers->len, p.clicks->len, unpaired,
      bench_median (offsets), slope, p.vsteps_bad, p.asteps_bad, p.vrepeats,
      p.asilence / 1e9);

  b = bench_result_begin ("director");
  bench_result_int (b, "duration_s", duration_s);
  bench_result_int (b, "stall_at_s", opt_stall_at);
  bench_result_int (b, "stall_for_s", opt_stall_for);
  bench_result_int (b, "markers", p.markers->len);
  bench_result_int (b, "clicks", p.clicks->len);
  bench_result_int (b, "unpaired_markers", unpaired);
  bench_result_values (b, "av_offset_ms", offsets);
  json_builder_end_array (chunks);
  json_builder_set_member_name (b, "chunks");
  json_builder_add_value (b, json_builder_get_root (chunks));
  g_object_unref (chunks);
  bench_result_double (b, "drift_ms_per_min", slope);
  bench_result_double (b, "drift_first_to_last_ms", offsets->len >= 2 ?
      g_array_index (offsets, gdouble, offsets->len - 1) -
      g_array_index (offsets, gdouble, 0) : NAN);
  bench_result_int (b, "video_buffers", p.vbuffers);
  bench_result_int (b, "video_steps_not_one_frame", p.vsteps_bad);
  bench_result_int (b, "video_repeats", p.vrepeats);
  bench_result_double (b, "video_max_wait_ms", p.vmax_wait);
  bench_result_int (b, "audio_buffers", p.abuffers);
  bench_result_int (b, "audio_discontinuities", p.asteps_bad);
  bench_result_double (b, "audio_silence_s", p.asilence / 1e9);
  bench_result_double (b, "audio_end_s", p.aend / 1e9);
  bench_result_double (b, "video_end_s", GST_CLOCK_TIME_IS_VALID (p.vlast) ?
      p.vlast / 1e9 + 1 / 24.0 : NAN);
  bench_result_int (b, "deadline_missed", bench_bus_count (bus,
          GST_MESSAGE_ELEMENT, "director/deadline_missed"));
  bench_result_int (b, "sessions", bench_bus_count (bus, GST_MESSAGE_ELEMENT,
          "session/negotiated"));
  bench_result_int (b, "errors", bench_bus_count (bus, GST_MESSAGE_ERROR,
          NULL));
  bench_result_int (b, "warnings", bench_bus_count (bus, GST_MESSAGE_WARNING,
          NULL));
  bench_result_end (b);

  bench_bus_free (bus);
  gst_object_unref (src);
  gst_object_unref (pipeline);
  g_array_unref (offsets);
  g_array_unref (p.markers);
  g_array_unref (p.clicks);
  g_array_unref (p.repeat_pts);
  g_array_unref (p.silent_pts);
  g_free (url);
  bench_service_stop (svc);
  return 0;
}
