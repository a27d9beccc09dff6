/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Control latency on loopback, worldsrc beside the baseline client (both
 * sessions open at once against the live service, samples interleaved):
 *
 * - ping round trip: from the `ping` action (worldsrc) or the data channel
 *   send (baseline) to the `pong` reaching the application (worldsrc: the
 *   world/pong bus message; baseline: on-message-string). The service
 *   stamps its pong with its monotonic clock (`server_ts`), the same clock
 *   as the client's on one machine, so each round trip splits into the
 *   way there (ping built → service) and back (service → application);
 * - prompt: from setting the `prompt` property (worldsrc) or sending
 *   `prompt` (baseline) to `prompt_applied` reaching the application (the
 *   service acknowledges at once). Its arrival at the service is estimated
 *   as the round trip minus the median way back of the pings.
 */

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "bench-common.h"
#include "worldclient.h"

#define WAIT_MS 3000
#define GAP_MS 20

typedef struct
{
  GArray *ping_rtt, *ping_up, *ping_down, *prompt_rtt;
  guint lost;
} Series;

static void
series_init (Series * s)
{
  s->ping_rtt = bench_values_new ();
  s->ping_up = bench_values_new ();
  s->ping_down = bench_values_new ();
  s->prompt_rtt = bench_values_new ();
  s->lost = 0;
}

static void
series_write (JsonBuilder * b, const gchar * key, Series * s)
{
  GArray *oneway = bench_values_new ();
  gdouble down = bench_median (s->ping_down);
  guint i;

  for (i = 0; i < s->prompt_rtt->len; i++)
    bench_values_add (oneway, g_array_index (s->prompt_rtt, gdouble, i) - down);
  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  bench_result_int (b, "lost", s->lost);
  bench_result_values (b, "ping_rtt", s->ping_rtt);
  bench_result_values (b, "ping_up", s->ping_up);
  bench_result_values (b, "ping_down", s->ping_down);
  bench_result_values (b, "prompt_rtt", s->prompt_rtt);
  bench_result_values (b, "prompt_oneway_est", oneway);
  json_builder_end_object (b);
  g_array_unref (oneway);
  g_array_unref (s->ping_rtt);
  g_array_unref (s->ping_up);
  g_array_unref (s->ping_down);
  g_array_unref (s->prompt_rtt);
}

/* ---- worldsrc ---- */

static void
world_ping (WorldClient * c, guint n, Series * s)
{
  GstElement *src = world_client_get_src (c);
  GstMessage *msg;
  gdouble t0 = bench_now_ms (), at = 0, ts, server_ts;
  gboolean ok = FALSE;

  g_signal_emit_by_name (src, "ping", &ok);
  msg = bench_bus_wait (world_client_get_bus (c), GST_MESSAGE_ELEMENT,
      "world/pong", n, WAIT_MS, &at);
  if (msg == NULL) {
    s->lost++;
    return;
  }
  bench_values_add (s->ping_rtt, at - t0);
  if (gst_structure_get_double (gst_message_get_structure (msg), "ts", &ts)
      && gst_structure_get_double (gst_message_get_structure (msg),
          "server_ts", &server_ts)) {
    bench_values_add (s->ping_up, server_ts * 1000 - ts);
    bench_values_add (s->ping_down, at - server_ts * 1000);
  }
  gst_message_unref (msg);
}

static void
world_prompt (WorldClient * c, guint n, Series * s)
{
  gchar *text = g_strdup_printf ("a bench prompt, number %u", n);
  gdouble t0 = bench_now_ms (), at = 0;
  GstMessage *msg;

  g_object_set (world_client_get_src (c), "prompt", text, NULL);
  g_free (text);
  msg = bench_bus_wait (world_client_get_bus (c), GST_MESSAGE_ELEMENT,
      "world/prompt_applied", n, WAIT_MS, &at);
  if (msg == NULL) {
    s->lost++;
    return;
  }
  bench_values_add (s->prompt_rtt, at - t0);
  gst_message_unref (msg);
}

/* ---- baseline ---- */

static gdouble
json_number (const gchar * text, const gchar * member)
{
  JsonParser *p = json_parser_new ();
  gdouble v = NAN;

  if (json_parser_load_from_data (p, text, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (p))) {
    JsonObject *o = json_node_get_object (json_parser_get_root (p));

    if (json_object_has_member (o, member))
      v = json_object_get_double_member (o, member);
  }
  g_object_unref (p);
  return v;
}

static void
baseline_ping (BaselineClient * c, guint n, Series * s)
{
  gdouble t0 = bench_now_ms (), at;
  gchar *text = g_strdup_printf ("{\"type\": \"ping\", \"ts\": %.3f}", t0);
  gchar *pong = NULL;

  baseline_client_send (c, text);
  g_free (text);
  at = baseline_client_wait_message (c, "\"pong\"", n, WAIT_MS, &pong);
  if (at < 0) {
    s->lost++;
    return;
  }
  bench_values_add (s->ping_rtt, at - t0);
  bench_values_add (s->ping_up, json_number (pong, "server_ts") * 1000 - t0);
  bench_values_add (s->ping_down, at - json_number (pong, "server_ts") * 1000);
  g_free (pong);
}

static void
baseline_prompt (BaselineClient * c, guint n, Series * s)
{
  gchar *text = g_strdup_printf ("{\"type\": \"prompt\", \"prompt\": "
      "\"a bench prompt, number %u\"}", n);
  gdouble t0 = bench_now_ms (), at;

  baseline_client_send (c, text);
  g_free (text);
  at = baseline_client_wait_message (c, "\"prompt_applied\"", n, WAIT_MS, NULL);
  if (at < 0) {
    s->lost++;
    return;
  }
  bench_values_add (s->prompt_rtt, at - t0);
}

int
main (int argc, char **argv)
{
  BenchService *svc;
  WorldClient *world;
  BaselineClient *base;
  Series ws, bs;
  JsonBuilder *b;
  GstMessage *msg;
  gchar *url;
  guint i, samples;

  bench_init (&argc, &argv, "Control latency: ping and prompt round trips, "
      "worldsrc vs a plain webrtcbin client", NULL, 5);
  samples = bench_quick ? 3 : 12 * bench_runs;
  svc = bench_service_start ("--runners=2", NULL);
  if (svc == NULL)
    return 1;
  url = bench_service_url (svc, "world");
  series_init (&ws);
  series_init (&bs);

  world = world_client_new (url, NULL, FALSE);
  base = baseline_client_new (url);
  world_client_play (world);
  baseline_client_play (base);
  msg = bench_bus_wait (world_client_get_bus (world), GST_MESSAGE_ELEMENT,
      "world/session_info", 1, 15000, NULL);
  if (msg == NULL || baseline_client_wait_message (base, "session_info", 1,
          15000, NULL) < 0 || !world_client_wait_frames (world, 1, 15000) ||
      !baseline_client_wait_frames (base, 1, 15000)) {
    g_printerr ("the sessions did not start\n");
    return 1;
  }
  gst_message_unref (msg);
  bench_sleep_ms (bench_quick ? 200 : 1000);

  for (i = 1; i <= samples; i++) {
    /* alternate who goes first */
    if (i % 2) {
      world_ping (world, i, &ws);
      bench_sleep_ms (GAP_MS);
      baseline_ping (base, i, &bs);
    } else {
      baseline_ping (base, i, &bs);
      bench_sleep_ms (GAP_MS);
      world_ping (world, i, &ws);
    }
    bench_sleep_ms (GAP_MS);
    if (i % 2) {
      world_prompt (world, i, &ws);
      bench_sleep_ms (GAP_MS);
      baseline_prompt (base, i, &bs);
    } else {
      baseline_prompt (base, i, &bs);
      bench_sleep_ms (GAP_MS);
      world_prompt (world, i, &ws);
    }
    bench_sleep_ms (GAP_MS);
  }

  b = bench_result_begin ("control");
  bench_result_int (b, "samples", samples);
  series_write (b, "worldsrc", &ws);
  series_write (b, "baseline", &bs);
  bench_result_end (b);

  world_client_free (world);
  baseline_client_free (base);
  g_free (url);
  bench_service_stop (svc);
  return 0;
}
