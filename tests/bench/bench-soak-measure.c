/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the soak (bench-soak.c) measures and how it reports it: the
 * element's output (pad probes: steps, repeated frames, silence, how late
 * buffers leave), the samples (memory, open descriptors, sessions, the
 * pads' latency), the statistics over them, and the result's members for
 * the faults and the recorded tracks.
 */

#include <gst/audio/audio.h>
#include <math.h>
#include <unistd.h>

#include "bench-soak.h"

/* ---- the element's output ---- */

/* the running time now minus @pts */
static GstClockTimeDiff
lateness (Output * o, GstClockTime pts)
{
  GstClock *clock = gst_element_get_clock (o->src);
  GstClockTimeDiff late = 0;

  if (clock) {
    late = GST_CLOCK_DIFF (pts, gst_clock_get_time (clock) -
        gst_element_get_base_time (o->src));
    gst_object_unref (clock);
  }
  return late;
}

GstPadProbeReturn
video_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Output *o = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem = gst_buffer_peek_memory (buf, 0);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  GstClockTimeDiff late = lateness (o, pts);

  g_mutex_lock (&o->lock);
  o->vlate_max = MAX (o->vlate_max, late);
  o->vlate_window = MAX (o->vlate_window, late);
  if (o->vlatency && late > (GstClockTimeDiff) o->vlatency)
    o->vlate_over++;
  if (o->vbuffers == 0)
    o->vfirst = pts;
  else if (pts - o->vlast != gst_util_uint64_scale_int (GST_SECOND, 1, 24))
    o->vsteps_bad++;
  if (mem == o->vlast_mem)
    o->vrepeats++;
  o->vlast_mem = mem;
  o->vlast = pts;
  o->vbuffers++;
  o->last_at = bench_now_ms ();
  if (o->first_at == 0)
    o->first_at = o->last_at;
  g_mutex_unlock (&o->lock);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn
audio_probe (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  Output *o = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstClockTime pts = GST_BUFFER_PTS (buf);
  GstAudioInfo ainfo;
  GstMapInfo map;
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean silent = TRUE;
  gsize i, frames;
  GstClockTimeDiff late = lateness (o, pts);

  g_mutex_lock (&o->lock);
  o->alate_max = MAX (o->alate_max, late);
  o->alate_window = MAX (o->alate_window, late);
  if (o->alatency && late > (GstClockTimeDiff) o->alatency)
    o->alate_over++;
  if (caps && gst_audio_info_from_caps (&ainfo, caps)) {
    o->rate = GST_AUDIO_INFO_RATE (&ainfo);
    o->channels = GST_AUDIO_INFO_CHANNELS (&ainfo);
  }
  gst_clear_caps (&caps);
  if (o->rate == 0 || !gst_buffer_map (buf, &map, GST_MAP_READ)) {
    g_mutex_unlock (&o->lock);
    return GST_PAD_PROBE_OK;
  }
  if (o->abuffers == 0)
    o->afirst = pts;
  else if (pts > o->aend + GST_USECOND || pts + GST_USECOND < o->aend)
    o->asteps_bad++;
  for (i = 0; i < map.size / 2 && silent; i++)
    silent = ((const gint16 *) map.data)[i] == 0;
  frames = map.size / 2 / o->channels;
  gst_buffer_unmap (buf, &map);
  o->aend = pts + gst_util_uint64_scale_int (frames, GST_SECOND, o->rate);
  if (silent)
    o->asilence += o->aend - pts;
  o->abuffers++;
  o->last_at = bench_now_ms ();
  if (o->first_at == 0)
    o->first_at = o->last_at;
  g_mutex_unlock (&o->lock);
  return GST_PAD_PROBE_OK;
}

/* ---- times and counters ---- */

gdouble
since_start (Soak * s, gdouble ms)
{
  return ms > 0 ? (ms - s->start_ms) / 1000 : NAN;
}

/* the output's counters; the latest buffers since the call before */
void
output_counters (Soak * s, guint64 * repeats, GstClockTime * silence,
    GstClockTimeDiff * vlate, GstClockTimeDiff * alate)
{
  g_mutex_lock (&s->out.lock);
  *repeats = s->out.vrepeats;
  *silence = s->out.asilence;
  *vlate = s->out.vlate_window;
  *alate = s->out.alate_window;
  s->out.vlate_window = s->out.alate_window = 0;
  g_mutex_unlock (&s->out.lock);
}

gboolean
fault_recovered (Fault * f)
{
  return f->recovered_ms > 0;
}

/* ---- samples ---- */

static gdouble
proc_rss_mb (gint pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/statm", pid);
  gchar *text = NULL;
  gdouble mb = NAN;

  if (g_file_get_contents (path, &text, NULL, NULL)) {
    gchar **f = g_strsplit (text, " ", 0);

    if (g_strv_length (f) > 1)
      mb = g_ascii_strtod (f[1], NULL) * sysconf (_SC_PAGESIZE) /
          (1024.0 * 1024.0);
    g_strfreev (f);
  }
  g_free (text);
  g_free (path);
  return mb;
}

/* the open descriptors of process @pid (0: this one), from /proc; NAN
 * when it has gone. The directory's own descriptor is not counted. */
static gdouble
proc_fds (gint pid)
{
  gchar *path = pid ? g_strdup_printf ("/proc/%d/fd", pid) :
      g_strdup ("/proc/self/fd");
  GDir *dir = g_dir_open (path, 0, NULL);
  gdouble n = 0;

  g_free (path);
  if (dir == NULL)
    return NAN;
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return pid ? n : n - 1;
}

/* the min latency a pad of the element reports (0: none) */
static GstClockTime
pad_latency (Soak * s, const gchar * name)
{
  GstPad *pad = gst_element_get_static_pad (s->src, name);
  GstQuery *q = gst_query_new_latency ();
  GstClockTime min = 0;
  gboolean live;

  if (gst_pad_query (pad, q))
    gst_query_parse_latency (q, &live, &min, NULL);
  gst_query_unref (q);
  gst_object_unref (pad);
  return min;
}

void
sample (Soak * s)
{
  gdouble t = since_start (s, bench_now_ms ());
  GstClockTime vl = pad_latency (s, "video"), al = pad_latency (s, "audio");

  g_mutex_lock (&s->out.lock);
  s->out.vlatency = vl;
  s->out.alatency = al;
  g_mutex_unlock (&s->out.lock);

  g_array_append_val (s->sample_s, t);
  t = bench_self_rss_mb ();
  g_array_append_val (s->rss_mb, t);
  t = proc_fds (0);
  g_array_append_val (s->fds, t);
  t = proc_fds (bench_service_pid (s->svc));
  g_array_append_val (s->svc_fds, t);
  t = s->sessions;
  g_array_append_val (s->sample_sessions, t);
  t = proc_rss_mb (bench_service_pid (s->svc));
  g_array_append_val (s->svc_rss_mb, t);
  if (isnan (t) && s->service_gone_ms == 0) {
    s->service_gone_ms = bench_now_ms ();
    g_printerr ("[%7.1f s] the service has exited\n",
        since_start (s, s->service_gone_ms));
  }
}

/* ---- the result ---- */

/* least squares slope of @y over @x (per hour of x seconds), from the
 * first x >= @from */
gdouble
slope_per_hour (GArray * x, GArray * y, gdouble from)
{
  GArray *hours = bench_values_new ();
  gdouble slope;
  guint i;

  for (i = 0; i < x->len; i++)
    bench_values_add (hours, g_array_index (x, gdouble, i) / 3600);
  slope = slope_after (x, hours, y, from);
  g_array_unref (hours);
  return slope;
}

/* least squares slope of @y over @x, over the samples whose time @t is
 * >= @from */
gdouble
slope_after (GArray * t, GArray * x, GArray * y, gdouble from)
{
  gdouble sx = 0, sy = 0, sxx = 0, sxy = 0, n = 0;
  guint i;

  for (i = 0; i < t->len; i++) {
    gdouble xi = g_array_index (x, gdouble, i);
    gdouble yi = g_array_index (y, gdouble, i);

    if (g_array_index (t, gdouble, i) < from || isnan (xi) || isnan (yi))
      continue;
    sx += xi;
    sy += yi;
    sxx += xi * xi;
    sxy += xi * yi;
    n++;
  }
  if (n < 2 || n * sxx - sx * sx <= 0)
    return NAN;
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* the first sample at or after @from, and the last */
void
first_last (GArray * x, GArray * y, gdouble from, gdouble * first,
    gdouble * last)
{
  guint i;

  *first = *last = NAN;
  for (i = 0; i < x->len; i++)
    if (g_array_index (x, gdouble, i) >= from) {
      *first = g_array_index (y, gdouble, i);
      break;
    }
  if (y->len)
    *last = g_array_index (y, gdouble, y->len - 1);
}

static gboolean
fault_as_expected (Fault * f)
{
  gboolean renewed = f->sessions > 0;

  if (!f->posted || !f->signalled || !fault_recovered (f))
    return FALSE;
  if (renewed != f->kind->renews)
    return FALSE;
  if (g_str_equal (f->kind->name, "dropped-then-refused") && f->attempts < 2)
    return FALSE;
  return TRUE;
}

static gdouble
after (Fault * f, gdouble ms)
{
  return ms > 0 ? (ms - f->at_ms) / 1000 : NAN;
}

guint
add_faults (JsonBuilder * b, Soak * s)
{
  guint i, j, good = 0;

  json_builder_set_member_name (b, "fault_list");
  json_builder_begin_array (b);
  for (i = 0; i < s->faults->len; i++) {
    Fault *f = g_ptr_array_index (s->faults, i);
    gboolean ok = fault_as_expected (f);

    good += ok;
    json_builder_begin_object (b);
    bench_result_string (b, "kind", f->kind->name);
    bench_result_string (b, "expected", f->kind->expected);
    bench_result_double (b, "at_s", since_start (s, f->at_ms));
    bench_result_bool (b, "applied", f->posted);
    bench_result_bool (b, "as_expected", ok);
    bench_result_bool (b, "recovered", fault_recovered (f));
    bench_result_double (b, "signal_after_s", after (f, f->signal_ms));
    bench_result_double (b, "recovered_after_s", after (f, f->recovered_ms));
    bench_result_double (b, "next_chunk_after_s", after (f, f->chunk_ms));
    bench_result_int (b, "sessions", f->sessions);
    bench_result_int (b, "attempts", f->attempts);
    bench_result_int (b, "warnings", f->warnings);
    bench_result_int (b, "deadline_missed", f->deadline_missed);
    bench_result_int (b, "director_errors", f->errors);
    bench_result_int (b, "stream_exhausted", f->exhausted);
    bench_result_int (b, "chunks", f->chunks);
    bench_result_double (b, "video_held_s",
        (f->vrepeats1 - f->vrepeats0) / 24.0);
    bench_result_double (b, "audio_silence_s",
        (f->silence1 - f->silence0) / 1e9);
    bench_result_double (b, "video_max_late_ms", f->vlate / 1e6);
    bench_result_double (b, "audio_max_late_ms", f->alate / 1e6);
    json_builder_set_member_name (b, "warning_texts");
    json_builder_begin_array (b);
    for (j = 0; j < f->texts->len; j++)
      json_builder_add_string_value (b, g_ptr_array_index (f->texts, j));
    json_builder_end_array (b);
    json_builder_end_object (b);
    g_printerr ("fault %2u %-22s at %7.1f s: %s; signal +%.1f s, recovered "
        "+%.1f s, %u session(s), %u warning(s), held %.1f s, latest "
        "buffers %.0f/%.0f ms\n", i + 1,
        f->kind->name, since_start (s, f->at_ms), ok ? "as expected" :
        "NOT AS EXPECTED", after (f, f->signal_ms),
        after (f, f->recovered_ms), f->sessions, f->warnings,
        (f->vrepeats1 - f->vrepeats0) / 24.0, f->vlate / 1e6, f->alate / 1e6);
  }
  json_builder_end_array (b);
  return good;
}

void
add_track (JsonBuilder * b, const gchar * key, Track * t)
{
  guint i;

  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  bench_result_int (b, "packets", t->packets);
  bench_result_double (b, "duration_s", t->packets ? t->end - t->first : 0);
  bench_result_double (b, "nominal_step_ms", t->nominal_ms);
  bench_result_double (b, "max_step_ms", t->max_step_ms);
  bench_result_double (b, "min_step_ms", bench_min (t->steps));
  bench_result_int (b, "gaps", t->gaps);
  bench_result_int (b, "backward_steps", t->backwards);
  json_builder_set_member_name (b, "first_gaps");
  json_builder_begin_array (b);
  for (i = 0; i < t->gap_at->len; i++) {
    json_builder_begin_object (b);
    bench_result_double (b, "at_s", g_array_index (t->gap_at, gdouble, i));
    bench_result_double (b, "step_ms", g_array_index (t->gap_ms, gdouble, i));
    json_builder_end_object (b);
    g_printerr ("recording: %s gap at %.3f s: %.0f ms\n", t->type,
        g_array_index (t->gap_at, gdouble, i),
        g_array_index (t->gap_ms, gdouble, i));
  }
  json_builder_end_array (b);
  json_builder_end_object (b);
}
