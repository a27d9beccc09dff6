/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The contract library: messages built and parsed per second, each beside
 * json-glib doing only its own part of the same work:
 *
 * - world `commands` built by gst_session_world_build_commands() vs the
 *   same object made with JsonBuilder and json_to_string();
 * - world `commands` parsed (client direction, as the service reads them)
 *   by gst_session_message_parse() vs json_parser_load_from_data();
 * - director `chunk` built from its fields by gst_session_message_build()
 *   vs json_to_string() of the same JSON tree;
 * - director `chunk` parsed (service direction, as the elements read them)
 *   vs json_parser_load_from_data().
 *
 * Each pair runs in alternating blocks timed in CPU time of the thread (the
 * machine is shared: rates are per CPU second); the rate is the median
 * over the blocks.
 */

#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>
#include <gst/session/world.h>
#include <gst/session/director.h>
#include <math.h>

#include "bench-common.h"

static const gchar *chunk_json = "{\"type\":\"chunk\",\"chunk_index\":3,"
    "\"prompt_version\":2,\"generation_seconds\":4.2,"
    "\"playback_seconds\":10.0,\"requested_duration_seconds\":10,"
    "\"generated_frame_count\":240,\"trimmed_context_frames\":16,"
    "\"next_generation_estimate_seconds\":4.1,\"route\":\"unknown\","
    "\"buffer_depth_seconds\":10.0,\"buffer_depth_chunks\":1,"
    "\"scheduling_lead_ms\":2000.0,\"scheduling_slack_ms\":1500.5,"
    "\"dispatch\":{\"wall_ms\":4200.0,\"classified_ms\":3990.0,"
    "\"overhead_ms\":210.0,\"phases_ms\":{\"denoise\":3000.0,"
    "\"decode\":990.0}}}";

static const gchar *active[] = { "forward", "look_left", NULL };
static const gchar *activated[] = { "look_up", NULL };

static gchar *commands_json;
static const GstStructure *chunk_fields;
static JsonNode *chunk_node;

typedef void (*Op) (void);

static void
lib_build_commands (void)
{
  g_free (gst_session_world_build_commands (active, activated, NULL));
}

static void
glib_build_commands (void)
{
  JsonBuilder *b = json_builder_new ();
  JsonNode *root;
  guint i;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "commands");
  json_builder_set_member_name (b, "active");
  json_builder_begin_array (b);
  for (i = 0; active[i]; i++)
    json_builder_add_string_value (b, active[i]);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "activated");
  json_builder_begin_array (b);
  for (i = 0; activated[i]; i++)
    json_builder_add_string_value (b, activated[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  g_free (json_to_string (root, FALSE));
  json_node_unref (root);
  g_object_unref (b);
}

static void
lib_parse_commands (void)
{
  GstSessionMessage *m = gst_session_message_parse (GST_SESSION_APP_WORLD,
      GST_SESSION_DIRECTION_CLIENT, commands_json, -1, NULL);

  g_assert (m != NULL);
  gst_session_message_unref (m);
}

static void
glib_parse (const gchar * text)
{
  JsonParser *p = json_parser_new ();

  if (!json_parser_load_from_data (p, text, -1, NULL))
    g_assert_not_reached ();
  g_object_unref (p);
}

static void
glib_parse_commands (void)
{
  glib_parse (commands_json);
}

static void
lib_build_chunk (void)
{
  gchar *text = gst_session_message_build (GST_SESSION_APP_DIRECTOR,
      GST_SESSION_DIRECTION_SERVICE, chunk_fields, NULL);

  g_assert (text != NULL);
  g_free (text);
}

static void
glib_build_chunk (void)
{
  g_free (json_to_string (chunk_node, FALSE));
}

static void
lib_parse_chunk (void)
{
  GstSessionMessage *m = gst_session_message_parse (GST_SESSION_APP_DIRECTOR,
      GST_SESSION_DIRECTION_SERVICE, chunk_json, -1, NULL);

  g_assert (m != NULL);
  gst_session_message_unref (m);
}

static void
glib_parse_chunk (void)
{
  glib_parse (chunk_json);
}

/* operations per second of @op over about @ms */
static gdouble
rate (Op op, guint ms)
{
  gdouble t0 = bench_thread_cpu_ms (), t;
  guint n = 0, i;

  do {
    for (i = 0; i < 200; i++)
      op ();
    n += 200;
    t = bench_thread_cpu_ms ();
  } while (t - t0 < ms);
  return n * 1000.0 / (t - t0);
}

static void
measure (JsonBuilder * b, const gchar * key, Op lib, Op glib, guint blocks,
    guint ms)
{
  GArray *lr = bench_values_new (), *gr = bench_values_new ();
  guint i;

  lib ();
  glib ();
  for (i = 0; i < blocks; i++) {
    if (i % 2) {
      bench_values_add (lr, rate (lib, ms));
      bench_values_add (gr, rate (glib, ms));
    } else {
      bench_values_add (gr, rate (glib, ms));
      bench_values_add (lr, rate (lib, ms));
    }
  }
  g_printerr ("%s: %.0f/s (json-glib alone %.0f/s)\n", key, bench_median (lr),
      bench_median (gr));
  json_builder_set_member_name (b, key);
  json_builder_begin_object (b);
  bench_result_values (b, "library", lr);
  bench_result_values (b, "json_glib", gr);
  json_builder_end_object (b);
  g_array_unref (lr);
  g_array_unref (gr);
}

int
main (int argc, char **argv)
{
  GstSessionMessage *chunk;
  JsonParser *parser;
  JsonBuilder *b;
  guint blocks, ms;

  bench_init (&argc, &argv, "Messages of the contract library built and "
      "parsed per second, vs json-glib alone", NULL, 7);
  gst_session_init ();
  blocks = bench_quick ? 2 : bench_runs;
  ms = bench_quick ? 100 : 500;

  commands_json = gst_session_world_build_commands (active, activated, NULL);
  chunk = gst_session_message_parse (GST_SESSION_APP_DIRECTOR,
      GST_SESSION_DIRECTION_SERVICE, chunk_json, -1, NULL);
  g_assert (commands_json && chunk);
  chunk_fields = gst_session_message_get_structure (chunk);
  parser = json_parser_new ();
  json_parser_load_from_data (parser, chunk_json, -1, NULL);
  chunk_node = json_node_copy (json_parser_get_root (parser));
  g_object_unref (parser);

  b = bench_result_begin ("contract");
  bench_result_double (b, "block_ms", ms);
  measure (b, "world_commands_build", lib_build_commands, glib_build_commands,
      blocks, ms);
  measure (b, "world_commands_parse", lib_parse_commands, glib_parse_commands,
      blocks, ms);
  measure (b, "director_chunk_build", lib_build_chunk, glib_build_chunk,
      blocks, ms);
  measure (b, "director_chunk_parse", lib_parse_chunk, glib_parse_chunk,
      blocks, ms);
  bench_result_end (b);

  json_node_unref (chunk_node);
  gst_session_message_unref (chunk);
  g_free (commands_json);
  return 0;
}
