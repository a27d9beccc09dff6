/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Scale: 1, 4, 8 and 16 concurrent world sessions in this process against
 * the service in `--media cached --runners 16` mode, worldsrc (decoding to
 * fakesink) beside the same number of baseline clients (the two never run
 * at once; the order rotates from run to run). Over a fixed window:
 *
 * - frames per second of each session that came from the service (for
 *   worldsrc repeats excluded: its output stays at 16 whatever arrives, so
 *   that rate is reported apart);
 * - CPU of this process per session (getrusage), and of the service per
 *   session (/proc), in % of one core.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "bench-common.h"
#include "worldclient.h"

#define START_MS 30000

static const gint levels[] = { 1, 4, 8, 16 };
static const gint quick_levels[] = { 1, 2 };

typedef struct
{
  GArray *fps_median, *fps_min, *out_fps, *cpu, *svc_cpu;
  guint failed;
} Series;

static void
series_init (Series * s)
{
  s->fps_median = bench_values_new ();
  s->fps_min = bench_values_new ();
  s->out_fps = bench_values_new ();
  s->cpu = bench_values_new ();
  s->svc_cpu = bench_values_new ();
  s->failed = 0;
}

static void
series_clear (Series * s)
{
  g_array_unref (s->fps_median);
  g_array_unref (s->fps_min);
  g_array_unref (s->out_fps);
  g_array_unref (s->cpu);
  g_array_unref (s->svc_cpu);
}

static void
series_write (JsonBuilder * b, const gchar * key, Series * s)
{
  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  bench_result_int (b, "failed", s->failed);
  bench_result_values (b, "fps_median", s->fps_median);
  bench_result_values (b, "fps_min", s->fps_min);
  bench_result_values (b, "out_fps", s->out_fps);
  bench_result_values (b, "cpu_per_session", s->cpu);
  bench_result_values (b, "service_cpu_per_session", s->svc_cpu);
  json_builder_end_object (b);
  series_clear (s);
}

/* @n sessions of one client for a window; FALSE when one did not start */
static gboolean
measure (BenchService * svc, const gchar * url, gboolean world, gint n,
    guint window_ms, Series * s)
{
  WorldClient **wc = g_new0 (WorldClient *, n);
  BaselineClient **bc = g_new0 (BaselineClient *, n);
  guint64 *real0 = g_new0 (guint64, n), *all0 = g_new0 (guint64, n);
  GArray *fps = bench_values_new ();
  gdouble t0, t1, c0, c1, s0, s1, out = 0;
  gboolean ok = TRUE;
  gint i;

  for (i = 0; i < n; i++) {
    if (world) {
      wc[i] = world_client_new (url, NULL, FALSE);
      world_client_play (wc[i]);
    } else {
      bc[i] = baseline_client_new (url);
      baseline_client_play (bc[i]);
    }
  }
  for (i = 0; i < n && ok; i++)
    ok = world ? world_client_wait_frames (wc[i], 1, START_MS) :
        baseline_client_wait_frames (bc[i], 1, START_MS);
  if (!ok) {
    g_printerr ("scale: %d %s sessions did not all start\n", n,
        world ? "worldsrc" : "baseline");
    s->failed++;
    goto done;
  }
  bench_sleep_ms (bench_quick ? 300 : 2000);

  for (i = 0; i < n; i++) {
    real0[i] = world ? world_client_real_frames (wc[i]) :
        baseline_client_frames (bc[i]);
    all0[i] = world ? world_client_frames (wc[i]) : real0[i];
  }
  t0 = bench_now_ms ();
  c0 = bench_self_cpu ();
  s0 = bench_proc_cpu (bench_service_pid (svc));
  bench_sleep_ms (window_ms);
  c1 = bench_self_cpu ();
  s1 = bench_proc_cpu (bench_service_pid (svc));
  t1 = bench_now_ms ();
  for (i = 0; i < n; i++) {
    guint64 real = world ? world_client_real_frames (wc[i]) :
        baseline_client_frames (bc[i]);
    guint64 all = world ? world_client_frames (wc[i]) : real;

    bench_values_add (fps, (real - real0[i]) * 1000 / (t1 - t0));
    out += (all - all0[i]) * 1000 / (t1 - t0) / n;
  }
  bench_values_add (s->fps_median, bench_median (fps));
  bench_values_add (s->fps_min, bench_min (fps));
  bench_values_add (s->out_fps, out);
  bench_values_add (s->cpu, (c1 - c0) * 1000 / (t1 - t0) * 100 / n);
  bench_values_add (s->svc_cpu, (s1 - s0) * 1000 / (t1 - t0) * 100 / n);
  g_printerr ("scale %2d %s: %.2f fps (min %.2f), out %.2f, %.1f %% + "
      "service %.1f %% of a core per session\n", n,
      world ? "worldsrc" : "baseline", bench_median (fps), bench_min (fps),
      out, (c1 - c0) * 1000 / (t1 - t0) * 100 / n,
      (s1 - s0) * 1000 / (t1 - t0) * 100 / n);

done:
  for (i = 0; i < n; i++) {
    if (wc[i])
      world_client_free (wc[i]);
    if (bc[i])
      baseline_client_free (bc[i]);
  }
  g_free (wc);
  g_free (bc);
  g_free (real0);
  g_free (all0);
  g_array_unref (fps);
  bench_service_wait_idle (svc, 10000);
  return ok;
}

int
main (int argc, char **argv)
{
  const gint *lv = levels;
  guint n_levels = G_N_ELEMENTS (levels), window_ms, l;
  Series world[G_N_ELEMENTS (levels)], base[G_N_ELEMENTS (levels)];
  BenchService *svc;
  JsonBuilder *b;
  gchar *url;
  gint r;

  bench_init (&argc, &argv, "Concurrent world sessions in one process, "
      "worldsrc vs plain webrtcbin clients", NULL, 3);
  if (bench_quick) {
    lv = quick_levels;
    n_levels = G_N_ELEMENTS (quick_levels);
  }
  window_ms = bench_quick ? 1000 : 6000;
  svc = bench_service_start ("--media=cached", "--runners=16", NULL);
  if (svc == NULL)
    return 1;
  url = bench_service_url (svc, "world");
  for (l = 0; l < n_levels; l++) {
    series_init (&world[l]);
    series_init (&base[l]);
  }
  /* warm-up: plugins, DTLS key, the service's cache */
  {
    Series warm;

    series_init (&warm);
    measure (svc, url, TRUE, 1, 100, &warm);
    series_clear (&warm);
  }

  for (r = 0; r < bench_runs; r++) {
    for (l = 0; l < n_levels; l++) {
      gboolean world_first = (r + l) % 2 == 0;

      measure (svc, url, world_first, lv[l], window_ms,
          world_first ? &world[l] : &base[l]);
      measure (svc, url, !world_first, lv[l], window_ms,
          world_first ? &base[l] : &world[l]);
    }
  }

  b = bench_result_begin ("scale");
  bench_result_double (b, "window_s", window_ms / 1000.0);
  json_builder_set_member_name (b, "levels");
  json_builder_begin_array (b);
  for (l = 0; l < n_levels; l++) {
    json_builder_begin_object (b);
    bench_result_int (b, "sessions", lv[l]);
    series_write (b, "worldsrc", &world[l]);
    series_write (b, "baseline", &base[l]);
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  bench_result_end (b);

  g_free (url);
  bench_service_stop (svc);
  return 0;
}
