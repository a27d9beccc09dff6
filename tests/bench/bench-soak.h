/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the files of the soak share (bench-soak.c, bench-soak-rtmp.c,
 * bench-soak-measure.c): the faults, the element's output, the run and a
 * recorded track, and the functions one file calls in another.
 */

#ifndef __BENCH_SOAK_H__
#define __BENCH_SOAK_H__

#include <gio/gio.h>
#include <libsoup/soup.h>
#include <gst/gst.h>

#include "bench-common.h"

G_BEGIN_DECLS
/* ---- the faults ---- */
    typedef enum
{
  SIG_DEADLINE,                 /* director/deadline_missed */
  SIG_ERROR,                    /* director/error */
  SIG_WARNING,                  /* a warning */
  SIG_EXHAUSTED,                /* director/stream_exhausted */
} Signal;

typedef struct
{
  const gchar *name;
  const gchar *expected;
  gboolean renews;              /* the session ends: a new one must start */
  Signal signal;
  /* the admin rules; %s is the live session's id */
  const gchar *rules;
} FaultKind;

typedef struct
{
  const FaultKind *kind;
  gdouble at_ms;                /* bench_now_ms () of the injection */
  gchar *session;               /* the session it was injected into */
  gboolean posted;              /* the admin API took the rules */
  gdouble signal_ms, recovered_ms, chunk_ms;
  gboolean new_session, signalled;
  guint warnings, sessions, attempts, deadline_missed, errors, exhausted;
  guint chunks;
  GPtrArray *texts;             /* the warnings (shortened) */
  guint64 vrepeats0, vrepeats1; /* the output's counters at both ends */
  GstClockTime silence0, silence1;
  GstClockTimeDiff vlate, alate;        /* the latest buffers meanwhile */
} Fault;

/* ---- the run ---- */

typedef struct
{
  GMutex lock;
  /* video, on the element's pad */
  guint64 vbuffers, vrepeats, vsteps_bad;
  GstClockTime vfirst, vlast;
  GstMemory *vlast_mem;         /* compared only */
  /* audio */
  gint rate, channels;
  guint64 abuffers, asteps_bad;
  GstClockTime afirst, aend, asilence;
  gdouble first_at, last_at;    /* bench_now_ms () of the first, last buffer */
  /* how late buffers leave the pads: running time now minus their PTS */
  GstElement *src;
  GstClockTimeDiff vlate_max, alate_max;
  guint64 vlate_over, alate_over;       /* later than the reported latency */
  GstClockTimeDiff vlate_window, alate_window;  /* since the last fault */
  GstClockTime vlatency, alatency;      /* the pads' reported min latency */
} Output;

typedef struct
{
  GMainLoop *loop;
  GstElement *pipeline, *src;
  BenchService *svc;
  SoupSession *http;
  Output out;
  gdouble start_ms, end_ms;     /* the soak proper: first media to the EOS */
  gboolean eos, error, stopping;
  gdouble early_eos_ms, service_gone_ms;        /* before the planned end */
  gchar *error_text;
  gchar *session;               /* the current session's id */
  GPtrArray *faults;            /* Fault */
  Fault *current;
  guint next_kind, postponed;
  /* totals over the run */
  guint sessions, warnings, deadline_missed, director_errors, exhausted;
  guint chunks, prompts_set, prompts_applied, pongs;
  GArray *rtt;
  /* renewals (--session-seconds): the soak ends the live session that
   * long after its first frame, except while a fault is open */
  gdouble session_ff_ms;        /* the live session's first frame; 0: none */
  gboolean renewing;            /* asked; no new session negotiated yet */
  gdouble renew_at_ms, renew_retry_ms;
  guint renewals, renewals_refused, renewals_stuck;
  GArray *renew_gap_ms;         /* the request to the new first frame */
  /* warnings while no fault was open (a renewal's backoff, ...) */
  guint stray_warnings;
  GPtrArray *stray_texts;
  /* samples every SAMPLE_EVERY_S */
  GArray *sample_s, *rss_mb, *svc_rss_mb;
  GArray *fds, *svc_fds, *sample_sessions;      /* descriptors, sessions */
  gdouble cpu0, svc_cpu0, nginx_cpu0;
  /* nginx */
  GSubprocess *nginx;
  gint nginx_pid;
  gchar *nginx_dir, *rtmp_url;
  /* live reads of the RTMP URL */
  guint live_ok, live_failed;
  GSubprocess *live;
  gdouble live_started;
} Soak;

/* ---- the recording ---- */

typedef struct
{
  const gchar *type;
  gint index;
  guint64 packets, gaps, backwards;
  gdouble first, end, last_dts, nominal_ms, max_step_ms;
  GArray *steps;                /* ms */
  GArray *gap_at, *gap_ms;      /* the first gaps: where (s), how long */
} Track;

/* ---- bench-soak-rtmp.c: nginx-rtmp and its recording ---- */

/* Waits up to @timeout_ms for @proc to end (the default main context
 * runs meanwhile); kills it when it does not. */
void subprocess_end (GSubprocess * proc, guint timeout_ms);
gboolean nginx_start (Soak * s);
/* true when nginx's log has @text */
gboolean nginx_log_has (Soak * s, const gchar * text);
void nginx_stop (Soak * s);
void remove_dir (const gchar * dir);
/* reads the recorded FLV with ffprobe: codecs, then every packet */
gboolean read_recording (const gchar * flv, Track * video, Track * audio,
    gchar ** codecs);
/* copies the recording and nginx's log into @dir */
void keep_files (const gchar * from, const gchar * dir);

/* ---- bench-soak-measure.c: the output, samples, statistics ---- */

GstPadProbeReturn video_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer data);
GstPadProbeReturn audio_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer data);
gdouble since_start (Soak * s, gdouble ms);
/* the output's counters; the latest buffers since the call before */
void output_counters (Soak * s, guint64 * repeats, GstClockTime * silence,
    GstClockTimeDiff * vlate, GstClockTimeDiff * alate);
gboolean fault_recovered (Fault * f);
void sample (Soak * s);
/* least squares slope of @y over @x (per hour of x seconds), from the
 * first x >= @from */
gdouble slope_per_hour (GArray * x, GArray * y, gdouble from);
/* least squares slope of @y over @x, over the samples whose time @t is
 * >= @from */
gdouble slope_after (GArray * t, GArray * x, GArray * y, gdouble from);
/* the first sample at or after @from, and the last */
void first_last (GArray * x, GArray * y, gdouble from, gdouble * first,
    gdouble * last);
/* the "fault_list" member; the number of faults as expected */
guint add_faults (JsonBuilder * b, Soak * s);
void add_track (JsonBuilder * b, const gchar * key, Track * t);

G_END_DECLS
#endif /* __BENCH_SOAK_H__ */
