/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the benchmarks share: options, the reference service as a child
 * process, clocks, CPU and memory readings, statistics, a bus recorder and
 * the JSON result every benchmark prints on stdout (tests/bench/report.py
 * turns them into docs/performance.md).
 */

#ifndef __BENCH_COMMON_H__
#define __BENCH_COMMON_H__

#include <gst/gst.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* ---- options ---- */

/* --runs N (repetitions, medians over them), --quick (a ~2 s smoke run
 * that only checks the benchmark works), --long (the long variant) */
extern gint bench_runs;
extern gboolean bench_quick;
extern gboolean bench_long;

/* Parses the common options and @extra (may be NULL), sets the plugin and
 * registry paths of the build tree when unset, initialises GStreamer.
 * Exits on a bad option. */
void bench_init (gint * argc, gchar *** argv, const gchar * summary,
    const GOptionEntry * extra, gint default_runs);

/* the path of a program of the build tree (free it) */
gchar *bench_build_path (const gchar * relative);

/* ---- the reference service ---- */

typedef struct _BenchService BenchService;

/* Starts gst-session-service on 127.0.0.1, port 0, with the extra
 * arguments (NULL terminated); NULL (and a message) on failure. */
BenchService *bench_service_start (const gchar * first_arg, ...)
    G_GNUC_NULL_TERMINATED;
void bench_service_stop (BenchService * svc);
const gchar *bench_service_base_url (BenchService * svc);
/* the start-session endpoint of "world" or "director" (free it) */
gchar *bench_service_url (BenchService * svc, const gchar * app);
gint bench_service_pid (BenchService * svc);
/* waits (up to @timeout_ms) until the service has no session left */
gboolean bench_service_wait_idle (BenchService * svc, guint timeout_ms);
/* GET @path of the service: the body (free it), or NULL */
gchar *bench_service_get (BenchService * svc, const gchar * path);

/* ---- clocks, CPU, memory ---- */

/* monotonic time in ms (the clock of g_get_monotonic_time ()) */
gdouble bench_now_ms (void);
/* CPU time of the calling thread in ms: rates of CPU-bound loops per
 * CPU second are not skewed by other processes taking the cores */
gdouble bench_thread_cpu_ms (void);
/* CPU time (user + system) of this process, in seconds */
gdouble bench_self_cpu (void);
/* CPU time (user + system) of process @pid from /proc, in seconds */
gdouble bench_proc_cpu (gint pid);
/* resident memory of this process, MiB */
gdouble bench_self_rss_mb (void);
/* sleeps @ms while the default main context runs */
void bench_sleep_ms (guint ms);

/* ---- statistics over arrays of gdouble ---- */

GArray *bench_values_new (void);
void bench_values_add (GArray * values, gdouble v);
/* @p in [0, 1], nearest rank on a sorted copy; NAN when empty */
gdouble bench_percentile (GArray * values, gdouble p);
gdouble bench_median (GArray * values);
gdouble bench_min (GArray * values);
gdouble bench_max (GArray * values);

/* ---- the result (JSON on stdout) ---- */

/* Starts the result object: {"bench": @name, "runs": n, "quick": b, ... */
JsonBuilder *bench_result_begin (const gchar * name);
void bench_result_double (JsonBuilder * b, const gchar * key, gdouble v);
void bench_result_int (JsonBuilder * b, const gchar * key, gint64 v);
void bench_result_string (JsonBuilder * b, const gchar * key,
    const gchar * v);
void bench_result_bool (JsonBuilder * b, const gchar * key, gboolean v);
/* "key": {"median", "p10", "p90", "min", "max", "n", "values": [...]} */
void bench_result_values (JsonBuilder * b, const gchar * key,
    GArray * values);
/* ends the object and prints it as one line on stdout */
void bench_result_end (JsonBuilder * b);

/* ---- a bus recorder ---- */

/* Records every message of a pipeline's bus with its arrival time (a
 * sync handler), so benchmarks wait for the Nth message of a kind. */
typedef struct _BenchBus BenchBus;

BenchBus *bench_bus_new (GstElement * pipeline);
void bench_bus_free (BenchBus * bus);
/* the @nth (from 1) message of @type (and @name when set), waiting up to
 * @timeout_ms; NULL on timeout; @at (may be NULL) gets its arrival in
 * bench_now_ms () */
GstMessage *bench_bus_wait (BenchBus * bus, GstMessageType type,
    const gchar * name, guint nth, guint timeout_ms, gdouble * at);
guint bench_bus_count (BenchBus * bus, GstMessageType type,
    const gchar * name);
/* the first error or warning text (free it), or NULL */
gchar *bench_bus_first_problem (BenchBus * bus, GstMessageType type);

G_END_DECLS

#endif
