/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Time to first frame: from PLAYING to the first buffer on the video pad,
 * for worldsrc with its defaults and for the baseline client (baseline.h),
 * against the same live reference service, broken down into milestones.
 *
 * - cold: the first session of a fresh process. This program runs itself
 *   as a child (--child=worldsrc|baseline) once per measurement,
 *   alternating the two clients;
 * - warm: sequential sessions in this process, alternating the clients
 *   (after one discarded warm-up session of each).
 *
 * Milestones, ms from PLAYING (worldsrc: from its session/negotiated and
 * session/first-frame messages; the session's own start is placed by the
 * first buffer's arrival minus first-frame-ms): offer created, gathering
 * done, answer in, ICE connected, channel open, first RTP, first buffer.
 */

#include <gio/gio.h>
#include <math.h>
#include <string.h>
#include <stdlib.h>

#include "baseline.h"
#include "bench-common.h"
#include "worldclient.h"

#define SESSION_TIMEOUT_MS 15000

static const gchar *milestones[] = {
  "offer", "gathered", "answered", "connected", "channel", "first_rtp",
  "first_frame",
};

#define N_MILESTONES G_N_ELEMENTS (milestones)

typedef struct
{
  gboolean ok;
  gdouble t[N_MILESTONES];      /* ms from PLAYING, NAN when unknown */
} Record;

static gchar *opt_child;
static gchar *opt_url;
static gchar *opt_props;
static gboolean opt_prewarm;

static gdouble
field (const GstStructure * s, const gchar * name)
{
  gdouble v;

  return s && gst_structure_get_double (s, name, &v) && v >= 0 ? v : NAN;
}

static Record
run_worldsrc (const gchar * url)
{
  WorldClient *c = world_client_new (url, opt_props, FALSE);
  BenchBus *bus = world_client_get_bus (c);
  GstMessage *neg = NULL, *ff = NULL;
  Record r = { FALSE };
  guint i;

  for (i = 0; i < N_MILESTONES; i++)
    r.t[i] = NAN;
  world_client_play (c);
  if (world_client_wait_frames (c, 1, SESSION_TIMEOUT_MS)) {
    const GstStructure *n, *f;
    gdouble out = world_client_first_frame (c) - world_client_play_time (c);
    gdouble start;

    neg = bench_bus_wait (bus, GST_MESSAGE_ELEMENT, "session/negotiated", 1,
        2000, NULL);
    ff = bench_bus_wait (bus, GST_MESSAGE_ELEMENT, "session/first-frame", 1,
        2000, NULL);
    n = neg ? gst_message_get_structure (neg) : NULL;
    f = ff ? gst_message_get_structure (ff) : NULL;
    /* the session's start, placed by the first buffer */
    start = out - field (f, "first-frame-ms");
    r.t[0] = start + field (n, "offer-ms");
    r.t[1] = r.t[0] + field (n, "gathering-ms");
    r.t[2] = r.t[1] + field (n, "signalling-ms");
    r.t[3] = r.t[2] + field (n, "ice-ms");
    r.t[4] = start + field (n, "channel-ms");
    r.t[5] = start + field (f, "first-rtp-ms");
    r.t[6] = out;
    r.ok = TRUE;
  } else {
    gchar *e = bench_bus_first_problem (bus, GST_MESSAGE_ERROR |
        GST_MESSAGE_WARNING);

    g_printerr ("worldsrc: no frame in time (%s)\n", e ? e : "no message");
    g_free (e);
  }
  if (neg)
    gst_message_unref (neg);
  if (ff)
    gst_message_unref (ff);
  world_client_free (c);
  return r;
}

static gdouble
since (gdouble t, gdouble play)
{
  return t > 0 ? t - play : NAN;
}

static Record
run_baseline (const gchar * url)
{
  BaselineClient *c = baseline_client_new (url);
  BaselineTimes bt;
  Record r = { FALSE };

  baseline_client_play (c);
  r.ok = baseline_client_wait_frames (c, 1, SESSION_TIMEOUT_MS);
  /* the channel may open after the first frame */
  if (r.ok) {
    gdouble end = bench_now_ms () + 2000;

    do {
      baseline_client_get_times (c, &bt);
      if (bt.channel > 0)
        break;
      g_usleep (2000);
    } while (bench_now_ms () < end);
  } else {
    gchar *e = baseline_client_error (c);

    g_printerr ("baseline: no frame in time (%s)\n", e ? e : "timeout");
    g_free (e);
  }
  baseline_client_get_times (c, &bt);
  r.t[0] = since (bt.offer, bt.play);
  r.t[1] = since (bt.gathered, bt.play);
  r.t[2] = since (bt.answered, bt.play);
  r.t[3] = since (bt.connected, bt.play);
  r.t[4] = since (bt.channel, bt.play);
  r.t[5] = since (bt.first_rtp, bt.play);
  r.t[6] = since (bt.first_frame, bt.play);
  baseline_client_free (c);
  return r;
}

static Record
run_one (const gchar * client, const gchar * url)
{
  return g_str_equal (client, "worldsrc") ? run_worldsrc (url) :
      run_baseline (url);
}

/* ---- cold: one session in a child process ---- */

static void
child_main (void)
{
  Record r;
  JsonBuilder *b;
  JsonNode *root;
  gchar *text;
  guint i;

  /* experiment: the process's DTLS key made before the clock starts (as
   * an element could do in the background at NULL->READY) */
  if (opt_prewarm) {
    GstElement *dtls = gst_element_factory_make ("dtlssrtpdec", NULL);

    gst_clear_object (&dtls);
  }
  r = run_one (opt_child, opt_url);
  b = json_builder_new ();

  json_builder_begin_object (b);
  bench_result_bool (b, "ok", r.ok);
  for (i = 0; i < N_MILESTONES; i++)
    bench_result_double (b, milestones[i], r.t[i]);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, FALSE);
  g_print ("%s\n", text);
  g_free (text);
  json_node_unref (root);
  g_object_unref (b);
}

static Record
run_child (const gchar * self, const gchar * client, const gchar * url)
{
  gchar *arg_child = g_strdup_printf ("--child=%s", client);
  gchar *arg_url = g_strdup_printf ("--url=%s", url);
  gchar *arg_props = g_strdup_printf ("--worldsrc-props=%s",
      opt_props ? opt_props : "");
  const gchar *argv[] = { self, arg_child, arg_url, arg_props,
    opt_prewarm ? "--prewarm-dtls" : NULL, NULL
  };
  GSubprocess *p = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE,
      NULL);
  gchar *out = NULL;
  JsonParser *parser = json_parser_new ();
  Record r = { FALSE };
  guint i;

  for (i = 0; i < N_MILESTONES; i++)
    r.t[i] = NAN;
  if (p && g_subprocess_communicate_utf8 (p, NULL, NULL, &out, NULL, NULL)
      && out && json_parser_load_from_data (parser, out, -1, NULL)) {
    JsonObject *o = json_node_get_object (json_parser_get_root (parser));

    r.ok = json_object_get_boolean_member_with_default (o, "ok", FALSE);
    for (i = 0; i < N_MILESTONES; i++) {
      JsonNode *n = json_object_get_member (o, milestones[i]);

      if (n && !json_node_is_null (n))
        r.t[i] = json_node_get_double (n);
    }
  }
  g_object_unref (parser);
  g_free (out);
  if (p)
    g_object_unref (p);
  g_free (arg_child);
  g_free (arg_url);
  g_free (arg_props);
  return r;
}

/* ---- the result ---- */

typedef struct
{
  GArray *v[N_MILESTONES];
  guint ok, failed;
} Series;

static void
series_init (Series * s)
{
  guint i;

  for (i = 0; i < N_MILESTONES; i++)
    s->v[i] = bench_values_new ();
  s->ok = s->failed = 0;
}

static void
series_add (Series * s, const Record * r)
{
  guint i;

  if (!r->ok) {
    s->failed++;
    return;
  }
  s->ok++;
  for (i = 0; i < N_MILESTONES; i++)
    bench_values_add (s->v[i], r->t[i]);
}

static void
series_write (JsonBuilder * b, const gchar * key, Series * s)
{
  guint i;

  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  bench_result_int (b, "sessions", s->ok);
  bench_result_int (b, "failed", s->failed);
  for (i = 0; i < N_MILESTONES; i++) {
    bench_result_values (b, milestones[i], s->v[i]);
    g_array_unref (s->v[i]);
  }
  json_builder_end_object (b);
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"child", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &opt_child,
        "Internal: one cold session of this client", NULL},
    {"url", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_STRING, &opt_url,
        "Internal: the start-session endpoint", NULL},
    {"prewarm-dtls", 0, 0, G_OPTION_ARG_NONE, &opt_prewarm,
        "Cold sessions: make the process's DTLS key before PLAYING "
          "(experiments)", NULL},
    {"worldsrc-props", 0, 0, G_OPTION_ARG_STRING, &opt_props,
          "More worldsrc properties, e.g. \"latency=5\" (experiments)",
        "PROPS"},
    {NULL}
  };
  const gchar *clients[] = { "worldsrc", "baseline" };
  Series cold[2], warm[2];
  BenchService *svc;
  JsonBuilder *b;
  gchar *url, *self;
  gint i, k;

  bench_init (&argc, &argv, "Time to first frame, worldsrc vs a plain "
      "webrtcbin client", entries, 7);
  if (opt_child) {
    child_main ();
    return 0;
  }
  self = g_file_read_link ("/proc/self/exe", NULL);
  svc = bench_service_start ("--runners=4", NULL);
  if (svc == NULL)
    return 1;
  url = bench_service_url (svc, "world");
  for (k = 0; k < 2; k++) {
    series_init (&cold[k]);
    series_init (&warm[k]);
  }

  /* the service's first session makes its DTLS key: not measured */
  run_child (self, "baseline", url);
  bench_service_wait_idle (svc, 3000);
  for (i = 0; i < bench_runs; i++) {
    for (k = 0; k < 2; k++) {
      /* alternate which client goes first */
      const gchar *client = clients[(i + k) % 2];
      Record r = run_child (self, client, url);

      series_add (&cold[(i + k) % 2], &r);
      bench_service_wait_idle (svc, 3000);
      g_printerr ("cold %s %d: %.1f ms\n", client, i, r.t[6]);
    }
  }

  /* warm: one discarded session of each first */
  for (k = 0; k < 2; k++) {
    run_one (clients[k], url);
    bench_service_wait_idle (svc, 3000);
  }
  for (i = 0; i < bench_runs; i++) {
    for (k = 0; k < 2; k++) {
      const gchar *client = clients[(i + k) % 2];
      Record r = run_one (client, url);

      series_add (&warm[(i + k) % 2], &r);
      bench_service_wait_idle (svc, 3000);
      g_printerr ("warm %s %d: %.1f ms\n", client, i, r.t[6]);
    }
  }

  b = bench_result_begin ("ttff");
  series_write (b, "cold_worldsrc", &cold[0]);
  series_write (b, "cold_baseline", &cold[1]);
  series_write (b, "warm_worldsrc", &warm[0]);
  series_write (b, "warm_baseline", &warm[1]);
  bench_result_end (b);

  g_free (url);
  g_free (self);
  bench_service_stop (svc);
  return 0;
}
