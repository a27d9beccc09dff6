/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gio/gio.h>
#include <libsoup/soup.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench-common.h"

gint bench_runs;
gboolean bench_quick;
gboolean bench_long;

/* ---- options ---- */

gchar *
bench_build_path (const gchar * relative)
{
  const gchar *root = g_getenv ("GST_SESSION_BUILD_ROOT");

  return g_build_filename (root ? root : BENCH_BUILD_ROOT, relative, NULL);
}

void
bench_init (gint * argc, gchar *** argv, const gchar * summary,
    const GOptionEntry * extra, gint default_runs)
{
  GOptionEntry common[] = {
    {"runs", 0, 0, G_OPTION_ARG_INT, &bench_runs,
        "Repetitions (medians are taken over them)", "N"},
    {"quick", 0, 0, G_OPTION_ARG_NONE, &bench_quick,
        "A short smoke run (checks that the benchmark works)", NULL},
    {"long", 0, 0, G_OPTION_ARG_NONE, &bench_long,
        "The long variant of the benchmark", NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new (NULL);
  GError *err = NULL;
  gchar *path;

  bench_runs = -1;
  g_option_context_set_summary (ctx, summary);
  g_option_context_add_main_entries (ctx, common, NULL);
  if (extra)
    g_option_context_add_main_entries (ctx, extra, NULL);
  if (!g_option_context_parse (ctx, argc, argv, &err)) {
    g_printerr ("%s\n", err->message);
    exit (2);
  }
  g_option_context_free (ctx);
  if (bench_runs <= 0)
    bench_runs = bench_quick ? 1 : default_runs;

  /* the plugin of this build tree, and a registry of its own */
  path = bench_build_path ("ext/session");
  g_setenv ("GST_PLUGIN_PATH", path, FALSE);
  g_free (path);
  path = bench_build_path ("tests/bench/registry.bin");
  g_setenv ("GST_REGISTRY_1_0", path, FALSE);
  g_free (path);
  gst_init (argc, argv);
}

/* ---- the reference service ---- */

struct _BenchService
{
  GSubprocess *proc;
  gchar *base_url;
  gint pid;
};

BenchService *
bench_service_start (const gchar * first_arg, ...)
{
  BenchService *svc = g_new0 (BenchService, 1);
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDOUT_PIPE;
  GDataInputStream *in;
  GError *err = NULL;
  const gchar *arg;
  va_list args;

  g_ptr_array_add (argv, bench_build_path ("tools/service/"
          "gst-session-service"));
  g_ptr_array_add (argv, g_strdup ("--port=0"));
  va_start (args, first_arg);
  for (arg = first_arg; arg; arg = va_arg (args, const gchar *))
      g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);
  if (g_getenv ("BENCH_VERBOSE") == NULL)
    flags |= G_SUBPROCESS_FLAGS_STDERR_SILENCE;

  svc->proc = g_subprocess_newv ((const gchar * const *) argv->pdata, flags,
      &err);
  g_ptr_array_unref (argv);
  if (svc->proc == NULL) {
    g_printerr ("cannot start the service: %s\n", err->message);
    g_error_free (err);
    g_free (svc);
    return NULL;
  }
  svc->pid = atoi (g_subprocess_get_identifier (svc->proc));
  in = g_data_input_stream_new (g_subprocess_get_stdout_pipe (svc->proc));
  svc->base_url = g_data_input_stream_read_line (in, NULL, NULL, NULL);
  g_object_unref (in);
  if (svc->base_url == NULL || !g_str_has_prefix (svc->base_url, "http://")) {
    g_printerr ("the service printed no URL\n");
    g_subprocess_force_exit (svc->proc);
    g_object_unref (svc->proc);
    g_free (svc->base_url);
    g_free (svc);
    return NULL;
  }
  return svc;
}

void
bench_service_stop (BenchService * svc)
{
  if (svc == NULL)
    return;
  g_subprocess_send_signal (svc->proc, SIGTERM);
  if (!g_subprocess_wait (svc->proc, NULL, NULL))
    g_subprocess_force_exit (svc->proc);
  g_object_unref (svc->proc);
  g_free (svc->base_url);
  g_free (svc);
}

const gchar *
bench_service_base_url (BenchService * svc)
{
  return svc->base_url;
}

gchar *
bench_service_url (BenchService * svc, const gchar * app)
{
  return g_strdup_printf ("%s/%s/start-session", svc->base_url, app);
}

gint
bench_service_pid (BenchService * svc)
{
  return svc->pid;
}

gchar *
bench_service_get (BenchService * svc, const gchar * path)
{
  SoupSession *session = soup_session_new ();
  gchar *url = g_strconcat (svc->base_url, path, NULL);
  SoupMessage *msg = soup_message_new ("GET", url);
  GBytes *body;
  gchar *text = NULL;

  body = soup_session_send_and_read (session, msg, NULL, NULL);
  if (body && soup_message_get_status (msg) == SOUP_STATUS_OK)
    text = g_strndup (g_bytes_get_data (body, NULL), g_bytes_get_size (body));
  if (body)
    g_bytes_unref (body);
  g_object_unref (msg);
  g_object_unref (session);
  g_free (url);
  return text;
}

static gint
live_sessions (BenchService * svc)
{
  gchar *text = bench_service_get (svc, "/healthz");
  JsonParser *parser = json_parser_new ();
  gint n = -1;

  if (text && json_parser_load_from_data (parser, text, -1, NULL)) {
    JsonNode *root = json_parser_get_root (parser);
    JsonObject *o = JSON_NODE_HOLDS_OBJECT (root) ?
        json_node_get_object (root) : NULL;
    JsonObject *s = o && json_object_has_member (o, "sessions") ?
        json_object_get_object_member (o, "sessions") : NULL;

    if (s)
      n = json_object_get_int_member_with_default (s, "world", 0) +
          json_object_get_int_member_with_default (s, "director", 0);
  }
  g_object_unref (parser);
  g_free (text);
  return n;
}

gboolean
bench_service_wait_idle (BenchService * svc, guint timeout_ms)
{
  gdouble deadline = bench_now_ms () + timeout_ms;

  while (live_sessions (svc) != 0) {
    if (bench_now_ms () > deadline)
      return FALSE;
    g_usleep (10000);
  }
  return TRUE;
}

/* ---- clocks, CPU, memory ---- */

gdouble
bench_now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

gdouble
bench_thread_cpu_ms (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

gdouble
bench_self_cpu (void)
{
  struct rusage ru;

  getrusage (RUSAGE_SELF, &ru);
  return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
      ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

gdouble
bench_proc_cpu (gint pid)
{
  gchar *path = g_strdup_printf ("/proc/%d/stat", pid);
  gchar *text = NULL, *p;
  gdouble cpu = NAN;

  if (g_file_get_contents (path, &text, NULL, NULL) &&
      (p = strrchr (text, ')')) != NULL) {
    gchar **f = g_strsplit (p + 2, " ", 0);

    /* after the name: state is field 3; utime, stime are 14 and 15 */
    if (g_strv_length (f) > 13)
      cpu = (g_ascii_strtod (f[11], NULL) + g_ascii_strtod (f[12], NULL)) /
          sysconf (_SC_CLK_TCK);
    g_strfreev (f);
  }
  g_free (text);
  g_free (path);
  return cpu;
}

gdouble
bench_self_rss_mb (void)
{
  gchar *text = NULL;
  gdouble mb = NAN;

  if (g_file_get_contents ("/proc/self/statm", &text, NULL, NULL)) {
    gchar **f = g_strsplit (text, " ", 0);

    if (g_strv_length (f) > 1)
      mb = g_ascii_strtod (f[1], NULL) * sysconf (_SC_PAGESIZE) /
          (1024.0 * 1024.0);
    g_strfreev (f);
  }
  g_free (text);
  return mb;
}

void
bench_sleep_ms (guint ms)
{
  gdouble end = bench_now_ms () + ms;

  for (;;) {
    gdouble left = end - bench_now_ms ();

    if (left <= 0)
      break;
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep ((gulong) (MIN (5.0, left) * 1000) + 1);
  }
}

/* ---- statistics ---- */

GArray *
bench_values_new (void)
{
  return g_array_new (FALSE, FALSE, sizeof (gdouble));
}

void
bench_values_add (GArray * values, gdouble v)
{
  if (!isnan (v))
    g_array_append_val (values, v);
}

static gint
cmp_double (gconstpointer a, gconstpointer b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

gdouble
bench_percentile (GArray * values, gdouble p)
{
  GArray *sorted;
  gdouble v;
  guint i;

  if (values == NULL || values->len == 0)
    return NAN;
  sorted = g_array_copy (values);
  g_array_sort (sorted, cmp_double);
  if (p == 0.5 && sorted->len % 2 == 0) {
    i = sorted->len / 2;
    v = (g_array_index (sorted, gdouble, i - 1) +
        g_array_index (sorted, gdouble, i)) / 2;
  } else {
    i = (guint) ceil (p * sorted->len);
    i = CLAMP (i, 1, sorted->len) - 1;
    v = g_array_index (sorted, gdouble, i);
  }
  g_array_unref (sorted);
  return v;
}

gdouble
bench_median (GArray * values)
{
  return bench_percentile (values, 0.5);
}

gdouble
bench_min (GArray * values)
{
  return bench_percentile (values, 0);
}

gdouble
bench_max (GArray * values)
{
  return bench_percentile (values, 1);
}

/* ---- the result ---- */

JsonBuilder *
bench_result_begin (const gchar * name)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  bench_result_string (b, "bench", name);
  bench_result_int (b, "runs", bench_runs);
  bench_result_bool (b, "quick", bench_quick);
  bench_result_bool (b, "long", bench_long);
  return b;
}

void
bench_result_double (JsonBuilder * b, const gchar * key, gdouble v)
{
  json_builder_set_member_name (b, key);
  if (isnan (v) || isinf (v))
    json_builder_add_null_value (b);
  else
    json_builder_add_double_value (b, v);
}

void
bench_result_int (JsonBuilder * b, const gchar * key, gint64 v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_int_value (b, v);
}

void
bench_result_string (JsonBuilder * b, const gchar * key, const gchar * v)
{
  json_builder_set_member_name (b, key);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

void
bench_result_bool (JsonBuilder * b, const gchar * key, gboolean v)
{
  json_builder_set_member_name (b, key);
  json_builder_add_boolean_value (b, v);
}

void
bench_result_values (JsonBuilder * b, const gchar * key, GArray * values)
{
  guint i;

  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  bench_result_double (b, "median", bench_median (values));
  bench_result_double (b, "p10", bench_percentile (values, 0.1));
  bench_result_double (b, "p90", bench_percentile (values, 0.9));
  bench_result_double (b, "min", bench_min (values));
  bench_result_double (b, "max", bench_max (values));
  bench_result_int (b, "n", values ? values->len : 0);
  json_builder_set_member_name (b, "values");
  json_builder_begin_array (b);
  for (i = 0; values && i < values->len; i++)
    json_builder_add_double_value (b, g_array_index (values, gdouble, i));
  json_builder_end_array (b);
  json_builder_end_object (b);
}

void
bench_result_end (JsonBuilder * b)
{
  JsonNode *root;
  gchar *text;

  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, FALSE);
  g_print ("%s\n", text);
  g_free (text);
  json_node_unref (root);
  g_object_unref (b);
}

/* ---- the bus recorder ---- */

typedef struct
{
  GstMessage *msg;
  gdouble at;
} Recorded;

struct _BenchBus
{
  GstElement *pipeline;
  GMutex lock;
  GCond cond;
  GArray *messages;
};

static GstBusSyncReply
bus_handler (GstBus * bus, GstMessage * msg, gpointer data)
{
  BenchBus *b = data;
  Recorded r = { gst_message_ref (msg), bench_now_ms () };

  g_mutex_lock (&b->lock);
  g_array_append_val (b->messages, r);
  g_cond_broadcast (&b->cond);
  g_mutex_unlock (&b->lock);
  return GST_BUS_DROP;
}

static void
recorded_clear (gpointer data)
{
  gst_message_unref (((Recorded *) data)->msg);
}

BenchBus *
bench_bus_new (GstElement * pipeline)
{
  BenchBus *b = g_new0 (BenchBus, 1);
  GstBus *bus = gst_element_get_bus (pipeline);

  b->pipeline = gst_object_ref (pipeline);
  g_mutex_init (&b->lock);
  g_cond_init (&b->cond);
  b->messages = g_array_new (FALSE, FALSE, sizeof (Recorded));
  g_array_set_clear_func (b->messages, recorded_clear);
  gst_bus_set_sync_handler (bus, bus_handler, b, NULL);
  gst_object_unref (bus);
  return b;
}

void
bench_bus_free (BenchBus * b)
{
  GstBus *bus;

  if (b == NULL)
    return;
  bus = gst_element_get_bus (b->pipeline);
  gst_bus_set_sync_handler (bus, NULL, NULL, NULL);
  gst_object_unref (bus);
  gst_object_unref (b->pipeline);
  g_array_unref (b->messages);
  g_mutex_clear (&b->lock);
  g_cond_clear (&b->cond);
  g_free (b);
}

static gboolean
matches (GstMessage * msg, GstMessageType type, const gchar * name)
{
  const GstStructure *s;

  if (!(GST_MESSAGE_TYPE (msg) & type))
    return FALSE;
  if (name == NULL)
    return TRUE;
  s = gst_message_get_structure (msg);
  return s && gst_structure_has_name (s, name);
}

GstMessage *
bench_bus_wait (BenchBus * b, GstMessageType type, const gchar * name,
    guint nth, guint timeout_ms, gdouble * at)
{
  gint64 deadline = g_get_monotonic_time () + timeout_ms * (gint64) 1000;
  GstMessage *found = NULL;

  g_mutex_lock (&b->lock);
  for (;;) {
    guint i, seen = 0;

    for (i = 0; i < b->messages->len && !found; i++) {
      Recorded *r = &g_array_index (b->messages, Recorded, i);

      if (matches (r->msg, type, name) && ++seen == nth) {
        found = gst_message_ref (r->msg);
        if (at)
          *at = r->at;
      }
    }
    if (found || !g_cond_wait_until (&b->cond, &b->lock, deadline))
      break;
  }
  g_mutex_unlock (&b->lock);
  return found;
}

guint
bench_bus_count (BenchBus * b, GstMessageType type, const gchar * name)
{
  guint i, n = 0;

  g_mutex_lock (&b->lock);
  for (i = 0; i < b->messages->len; i++)
    if (matches (g_array_index (b->messages, Recorded, i).msg, type, name))
      n++;
  g_mutex_unlock (&b->lock);
  return n;
}

gchar *
bench_bus_first_problem (BenchBus * b, GstMessageType type)
{
  GstMessage *msg = bench_bus_wait (b, type, NULL, 1, 0, NULL);
  GError *err = NULL;
  gchar *dbg = NULL, *text;

  if (msg == NULL)
    return NULL;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &dbg);
  else
    gst_message_parse_warning (msg, &err, &dbg);
  text = g_strdup_printf ("%s: %s", GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)),
      err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  return text;
}
