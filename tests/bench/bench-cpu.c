/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * CPU and memory of one session, worldsrc beside the baseline client:
 *
 * - CPU: getrusage of this process over a fixed window, one session at a
 *   time, for worldsrc decoding to fakesink, worldsrc with decode=false,
 *   and the baseline (decoding to fakesink); in % of one core. The order
 *   rotates from run to run. The baseline also runs without decoding
 *   (depayloaded frames to fakesink): the transport's own cost, the floor
 *   under worldsrc's decode=false. The service renders live and every client
 *   holds forward+look_left, so that the picture moves as a generated
 *   world's does (a still picture decodes almost for free and would hide
 *   what decoding costs); --still measures the cached still picture;
 * - memory (against the service in cached mode, which costs almost
 *   nothing): resident set of a fresh child process after its first session
 *   and after each added concurrent session: the first session's cost
 *   (plugins included) and the slope per added session.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "bench-common.h"
#include "worldclient.h"

#define START_MS 15000

static gchar *opt_child;
static gchar *opt_url;
static gint opt_sessions = 5;
static gboolean opt_still;

#define MOTION "forward+look_left"

typedef enum
{
  CLIENT_WORLD,
  CLIENT_WORLD_NODECODE,
  CLIENT_BASELINE,
  CLIENT_BASELINE_NODECODE,
  N_CLIENTS
} Client;

static const gchar *client_names[] = {
  "worldsrc", "worldsrc_nodecode", "baseline", "baseline_nodecode",
};

/* one session of any client */
typedef struct
{
  WorldClient *world;
  BaselineClient *base;
} Session;

static gboolean
session_start (Session * s, Client client, const gchar * url)
{
  memset (s, 0, sizeof (Session));
  if (client == CLIENT_BASELINE || client == CLIENT_BASELINE_NODECODE) {
    s->base = baseline_client_new_full (url, client == CLIENT_BASELINE);
    baseline_client_play (s->base);
    return baseline_client_wait_frames (s->base, 1, START_MS);
  }
  s->world = world_client_new (url, client == CLIENT_WORLD_NODECODE ?
      "decode=false" : NULL, FALSE);
  world_client_play (s->world);
  return world_client_wait_frames (s->world, 1, START_MS);
}

/* holds forward+look_left: the camera moves on */
static void
session_move (Session * s)
{
  if (s->base)
    baseline_client_send (s->base, "{\"type\": \"commands\", \"active\": "
        "[\"forward\", \"look_left\"]}");
  else
    g_object_set (world_client_get_src (s->world), "commands", MOTION, NULL);
}

static guint64
session_frames (Session * s)
{
  return s->base ? baseline_client_frames (s->base) :
      world_client_real_frames (s->world);
}

static void
session_stop (Session * s)
{
  if (s->base)
    baseline_client_free (s->base);
  if (s->world)
    world_client_free (s->world);
  memset (s, 0, sizeof (Session));
}

/* ---- memory: a child process adds sessions one by one ---- */

static void
child_memory (void)
{
  Client client = g_str_equal (opt_child, "baseline") ? CLIENT_BASELINE :
      CLIENT_WORLD;
  Session *s = g_new0 (Session, opt_sessions);
  gdouble before = bench_self_rss_mb ();
  gint i;

  g_print ("{\"before\": %.3f, \"rss\": [", before);
  for (i = 0; i < opt_sessions; i++) {
    if (!session_start (&s[i], client, opt_url)) {
      g_printerr ("memory: session %d did not start\n", i + 1);
      break;
    }
    bench_sleep_ms (bench_quick ? 300 : 1500);
    g_print ("%s%.3f", i ? ", " : "", bench_self_rss_mb ());
  }
  g_print ("]}\n");
  for (i = 0; i < opt_sessions; i++)
    session_stop (&s[i]);
  g_free (s);
}

static gboolean
run_memory_child (const gchar * self, const gchar * client, const gchar * url,
    gdouble * first, gdouble * per_added)
{
  gchar *a1 = g_strdup_printf ("--child=%s", client);
  gchar *a2 = g_strdup_printf ("--url=%s", url);
  gchar *a3 = g_strdup_printf ("--sessions=%d", opt_sessions);
  const gchar *argv[] = { self, a1, a2, a3, bench_quick ? "--quick" : NULL,
    NULL
  };
  GSubprocess *p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE,
      NULL);
  JsonParser *parser = json_parser_new ();
  gchar *out = NULL;
  gboolean ok = FALSE;

  if (p && g_subprocess_communicate_utf8 (p, NULL, NULL, &out, NULL, NULL)
      && out && json_parser_load_from_data (parser, out, -1, NULL)) {
    JsonObject *o = json_node_get_object (json_parser_get_root (parser));
    JsonArray *rss = json_object_get_array_member (o, "rss");
    guint n = json_array_get_length (rss);

    if (n >= 2) {
      *first = json_array_get_double_element (rss, 0) -
          json_object_get_double_member (o, "before");
      *per_added = (json_array_get_double_element (rss, n - 1) -
          json_array_get_double_element (rss, 0)) / (n - 1);
      ok = TRUE;
    }
  }
  g_object_unref (parser);
  g_free (out);
  g_clear_object (&p);
  g_free (a1);
  g_free (a2);
  g_free (a3);
  return ok;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &opt_child,
        "Internal: the memory run of this client", NULL},
    {"url", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &opt_url,
        "Internal: the start-session endpoint", NULL},
    {"sessions", 0, 0, G_OPTION_ARG_INT, &opt_sessions,
        "Concurrent sessions of the memory run", "N"},
    {"still", 0, 0, G_OPTION_ARG_NONE, &opt_still,
        "CPU of the cached still picture, not of a moving live one", NULL},
    {NULL}
  };
  GArray *cpu[N_CLIENTS], *fps[N_CLIENTS], *mem_first[2], *mem_added[2];
  guint window_ms;
  gdouble idle0, idle1, t0, t1;
  BenchService *svc, *live = NULL;
  JsonBuilder *b;
  gchar *url, *cpu_url, *self, *runners;
  gint r, k;

  bench_init (&argc, &argv, "CPU and memory per session, worldsrc vs a "
      "plain webrtcbin client", entries, 5);
  if (opt_child) {
    child_memory ();
    return 0;
  }
  window_ms = bench_quick ? 1000 : 5000;
  if (bench_quick)
    opt_sessions = 2;
  self = g_file_read_link ("/proc/self/exe", NULL);
  runners = g_strdup_printf ("--runners=%d", MAX (opt_sessions, 2));
  svc = bench_service_start ("--media=cached", runners, NULL);
  g_free (runners);
  if (svc == NULL)
    return 1;
  url = bench_service_url (svc, "world");
  if (!opt_still) {
    live = bench_service_start ("--media=live", "--runners=2", NULL);
    if (live == NULL)
      return 1;
  }
  cpu_url = live ? bench_service_url (live, "world") : g_strdup (url);
  for (k = 0; k < N_CLIENTS; k++) {
    cpu[k] = bench_values_new ();
    fps[k] = bench_values_new ();
  }
  for (k = 0; k < 2; k++) {
    mem_first[k] = bench_values_new ();
    mem_added[k] = bench_values_new ();
  }

  /* the process alone */
  t0 = bench_now_ms ();
  idle0 = bench_self_cpu ();
  bench_sleep_ms (bench_quick ? 300 : 2000);
  idle1 = bench_self_cpu ();
  t1 = bench_now_ms ();
  idle1 = (idle1 - idle0) * 1000 / (t1 - t0) * 100;

  /* one warm-up session: plugins, DTLS key, the service's cache */
  {
    Session s;

    session_start (&s, CLIENT_WORLD, url);
    session_stop (&s);
    bench_service_wait_idle (svc, 3000);
    if (live) {
      session_start (&s, CLIENT_WORLD, cpu_url);
      session_stop (&s);
      bench_service_wait_idle (live, 3000);
    }
  }

  for (r = 0; r < bench_runs; r++) {
    for (k = 0; k < N_CLIENTS; k++) {
      Client client = (r + k) % N_CLIENTS;
      Session s;
      gdouble c0, c1;
      guint64 f0, f1;

      if (!session_start (&s, client, cpu_url)) {
        g_printerr ("cpu: %s did not start\n", client_names[client]);
        session_stop (&s);
        continue;
      }
      if (live)
        session_move (&s);
      bench_sleep_ms (bench_quick ? 300 : 1500);
      f0 = session_frames (&s);
      t0 = bench_now_ms ();
      c0 = bench_self_cpu ();
      bench_sleep_ms (window_ms);
      c1 = bench_self_cpu ();
      t1 = bench_now_ms ();
      f1 = session_frames (&s);
      bench_values_add (cpu[client], (c1 - c0) * 1000 / (t1 - t0) * 100);
      bench_values_add (fps[client], (f1 - f0) * 1000 / (t1 - t0));
      g_printerr ("cpu %s: %.1f %% of a core, %.1f fps\n",
          client_names[client], (c1 - c0) * 1000 / (t1 - t0) * 100,
          (f1 - f0) * 1000 / (t1 - t0));
      session_stop (&s);
      bench_service_wait_idle (live ? live : svc, 3000);
    }
  }

  for (r = 0; r < MAX (1, bench_runs / 2); r++) {
    for (k = 0; k < 2; k++) {
      gint which = (r + k) % 2;
      gdouble first, added;

      if (run_memory_child (self, which ? "baseline" : "worldsrc", url,
              &first, &added)) {
        bench_values_add (mem_first[which], first);
        bench_values_add (mem_added[which], added);
        g_printerr ("memory %s: first %.1f MiB, %.2f MiB per added\n",
            which ? "baseline" : "worldsrc", first, added);
      }
      bench_service_wait_idle (svc, 5000);
    }
  }

  b = bench_result_begin ("cpu");
  bench_result_double (b, "window_s", window_ms / 1000.0);
  bench_result_double (b, "idle_cpu_pct", idle1);
  bench_result_int (b, "memory_sessions", opt_sessions);
  bench_result_string (b, "cpu_media", live ? "live, moving (" MOTION ")" :
      "cached, still");
  for (k = 0; k < N_CLIENTS; k++) {
    gchar *key = g_strdup_printf ("cpu_%s", client_names[k]);

    bench_result_values (b, key, cpu[k]);
    g_free (key);
    key = g_strdup_printf ("fps_%s", client_names[k]);
    bench_result_values (b, key, fps[k]);
    g_free (key);
    g_array_unref (cpu[k]);
    g_array_unref (fps[k]);
  }
  bench_result_values (b, "mem_first_worldsrc", mem_first[0]);
  bench_result_values (b, "mem_added_worldsrc", mem_added[0]);
  bench_result_values (b, "mem_first_baseline", mem_first[1]);
  bench_result_values (b, "mem_added_baseline", mem_added[1]);
  bench_result_end (b);
  for (k = 0; k < 2; k++) {
    g_array_unref (mem_first[k]);
    g_array_unref (mem_added[k]);
  }

  g_free (url);
  g_free (cpu_url);
  g_free (self);
  bench_service_stop (svc);
  if (live)
    bench_service_stop (live);
  return 0;
}
