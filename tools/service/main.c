/* gst-session-service: the reference service
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Serves the world and director sessions of spec 000 on one HTTP port,
 * with synthetic media that follows the controls, and injectable faults.
 * The first line on stdout is the base URL. See docs/reference-service.md.
 */

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <glib-unix.h>
#include <gst/session/teardown.h>

#include "http.h"
#include "faults.h"
#include "media.h"
#include "peer.h"


/* SIGTERM: bound of the wait for the sessions to close and their
 * webrtcbins to be finalized */
#define SHUTDOWN_MAX_MS 3000

typedef struct
{
  GMainLoop *loop;
  SvcService *service;
  gint64 deadline;
  gboolean stopping;
} App;

/* Until every session is closed and every webrtcbin finalized (what is
 * left of their events runs on this loop), or the deadline */
static gboolean
wait_idle (gpointer data)
{
  App *app = data;

  if ((svc_service_is_idle (app->service) && svc_peer_count_alive () == 0)
      || g_get_monotonic_time () >= app->deadline) {
    g_main_loop_quit (app->loop);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_signal (gpointer data)
{
  App *app = data;

  if (app->stopping)
    return G_SOURCE_CONTINUE;
  app->stopping = TRUE;
  GST_INFO ("stopping: closing every session");
  svc_service_shutdown (app->service);
  app->deadline = g_get_monotonic_time () + SHUTDOWN_MAX_MS * 1000;
  g_timeout_add (20, wait_idle, app);
  return G_SOURCE_CONTINUE;
}

/* Collects the --fault-* options into rules */
static GPtrArray *fault_rules;

static gboolean
fault_option (const gchar * name, const gchar * value, gpointer data,
    GError ** error)
{
  SvcFaultRule *rule = g_new0 (SvcFaultRule, 1);

  rule->app = -1;
  rule->faults = svc_faults_new ();
  if (!svc_faults_set_option (rule->faults, name + strlen ("--fault-"),
          value, &rule->remaining, error)) {
    svc_fault_rule_free (rule);
    return FALSE;
  }
  g_ptr_array_add (fault_rules, rule);
  return TRUE;
}

int
main (int argc, char **argv)
{
  SvcConfig config = { 0, };
  App app = { 0, };
  gchar *codec = NULL, *media = NULL, *url;
  gint port = 0, runners = 1, keepalive = 5, ice_timeout = 3000;
  gint cached_seconds = 2;
  gint64 max_blocks = 10000, frames_per_block = 16;
  gdouble configure_timeout = 60, session_limit = 0, first_chunk = 1.0;
  gdouble time_scale = 1.0, rate_window = 60.0, key_rotate = 0;
  GError *error = NULL;
  GOptionContext *ctx;
  GOptionEntry entries[] = {
    {"host", 0, 0, G_OPTION_ARG_STRING, &config.host,
        "Address to listen on (default 127.0.0.1)", "ADDR"},
    {"ice-address", 0, 0, G_OPTION_ARG_STRING, &config.ice_address,
          "Gather ICE candidates on ADDR, not on --host (tests: an address "
          "the client cannot reach, so that only a TURN relay works)",
        "ADDR"},
    {"port", 0, 0, G_OPTION_ARG_INT, &port,
        "Port to listen on; 0 picks a free one (default 0)", "PORT"},
    {"api-key", 0, 0, G_OPTION_ARG_STRING_ARRAY, &config.api_keys,
        "Require 'Authorization: Key KEY' (repeatable: one key per client; "
          "default: no key)", "KEY"},
    {"runners", 0, 0, G_OPTION_ARG_INT, &runners,
        "Concurrent sessions per app (default 1)", "N"},
    {"video-codec", 0, 0, G_OPTION_ARG_STRING, &codec,
        "Preferred video codec: vp8 or h264 (default vp8)", "CODEC"},
    {"media", 0, 0, G_OPTION_ARG_STRING, &media,
        "live: rendered per frame; cached: encoded once, replayed "
          "(default live)", "MODE"},
    {"cached-seconds", 0, 0, G_OPTION_ARG_INT, &cached_seconds,
        "Length of the cached media loop (default 2)", "S"},
    {"cache-dump", 0, 0, G_OPTION_ARG_FILENAME, &config.cache_dump,
        "Cached media: write the MD5 of every cached buffer to DIR (for "
          "tests that compare what was received with what was sent)", "DIR"},
    {"keepalive", 0, 0, G_OPTION_ARG_INT, &keepalive,
        "Seconds between keepalive comments, 1 to 15 (default 5)", "S"},
    {"ice-timeout", 0, 0, G_OPTION_ARG_INT, &ice_timeout,
        "Milliseconds to wait for ICE gathering (default 3000)", "MS"},
    {"world-max-blocks", 0, 0, G_OPTION_ARG_INT64, &max_blocks,
        "World blocks before stream_exhausted (default 10000)", "N"},
    {"world-frames-per-block", 0, 0, G_OPTION_ARG_INT64, &frames_per_block,
        "World frames per block (default 16)", "N"},
    {"pong-fallback", 0, 0, G_OPTION_ARG_NONE, &config.pong_fallback,
          "World pongs echo client_ts (the fallback handler) instead of ts",
        NULL},
    {"no-transport-cc", 0, 0, G_OPTION_ARG_NONE, &config.no_transport_cc,
        "Answer without transport-cc: the video follows the receiver's "
          "REMB alone (a receive-side estimate sender)", NULL},
    {"configure-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &configure_timeout,
          "Director: seconds to wait for configure; 0: forever (default 60)",
        "S"},
    {"session-limit", 0, 0, G_OPTION_ARG_DOUBLE, &session_limit,
        "Director: session length in seconds; 0: none (default 0)", "S"},
    {"first-chunk-delay", 0, 0, G_OPTION_ARG_DOUBLE, &first_chunk,
          "Director: seconds from configure to the first chunk (default 1)",
        "S"},
    {"blocked-word", 0, 0, G_OPTION_ARG_STRING_ARRAY, &config.blocked_words,
        "Director: a word the content check blocks (repeatable; default "
          "'forbidden')", "WORD"},
    {"time-scale", 0, 0, G_OPTION_ARG_DOUBLE, &time_scale,
        "Platform side: multiply every queue and webhook time by F (tests; "
          "default 1)", "F"},
    {"rate-window", 0, 0, G_OPTION_ARG_DOUBLE, &rate_window,
        "Platform side: seconds of a management rate-limit window "
          "(default 60)", "S"},
    {"webhook-user-id", 0, 0, G_OPTION_ARG_STRING, &config.webhook_user_id,
        "Platform side: the user id of webhook deliveries (default "
          "user-reference)", "ID"},
    {"webhook-key-rotate", 0, 0, G_OPTION_ARG_DOUBLE, &key_rotate,
        "Platform side: rotate the webhook key every S seconds (default: "
          "never)", "S"},
    {"webhook-ip-range", 0, 0, G_OPTION_ARG_STRING_ARRAY,
          &config.webhook_ip_ranges,
        "Platform side: a CIDR range of /v1/meta (repeatable; default "
          "127.0.0.0/8 and ::1/128)", "CIDR"},
    {"fault-refuse", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "Refuse the next N starts (every start without N) with an error "
          "type of spec 001", "TYPE[:N]"},
    {"fault-answer-delay", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "Delay every answer", "S"},
    {"fault-drop-after", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "Drop the peer S seconds after the channel opened ('keep': keep the "
          "response open)", "S[:keep]"},
    {"fault-stall", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "Stall the media for S seconds, AT seconds after the channel "
          "opened", "AT:S"},
    {"fault-exhaust-after", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "End every stream S seconds after the channel opened", "S"},
    {"fault-bad-message", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
          "Send a broken message: malformed, unknown_type or schema",
        "KIND[:AT]"},
    {"fault-director-error", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "Send a director error with this code", "CODE[:AT]"},
    {"fault-resize", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "Send video of another size from AT seconds after the channel "
          "opened, unannounced", "AT:WxH"},
    {"fault-announce", 0, 0, G_OPTION_ARG_CALLBACK, fault_option,
        "World: session_info announces this resolution (each 1 to 65536); "
          "the video does not change", "WxH"},
    {"fault-no-configured", 0, G_OPTION_FLAG_OPTIONAL_ARG,
          G_OPTION_ARG_CALLBACK, fault_option,
        "Director: never answer configure (no configured, no chunks; "
          "the waiting picture goes on)", NULL},
    {NULL}
  };

  fault_rules = g_ptr_array_new_with_free_func ((GDestroyNotify)
      svc_fault_rule_free);
  ctx = g_option_context_new ("- the reference world and director service");
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, &argc, &argv, &error)) {
    g_printerr ("gst-session-service: %s\n", error->message);
    return 2;
  }
  g_option_context_free (ctx);
  svc_debug_init ();
  gst_session_init ();
  /* before its first DTLS element initializes OpenSSL */
  gst_session_openssl_skip_exit_cleanup ();

  if (!config.host)
    config.host = g_strdup ("127.0.0.1");
  if (port < 0 || port > 65535 || runners < 1 || keepalive < 1 ||
      keepalive > 15 || ice_timeout < 100 || max_blocks < 1 ||
      frames_per_block < 1 || cached_seconds < 1 || cached_seconds > 30 ||
      configure_timeout < 0 || session_limit < 0 || first_chunk < 0 ||
      !(time_scale >= 0.0001 && time_scale <= 100) ||
      !(rate_window >= 0.1 && rate_window <= 86400) ||
      !(key_rotate == 0 || (key_rotate >= 0.01 && key_rotate <= 86400))) {
    g_printerr ("gst-session-service: an option is out of its range "
        "(see --help)\n");
    return 2;
  }
  if (codec && g_strcmp0 (codec, "vp8") != 0 && g_strcmp0 (codec, "h264")) {
    g_printerr ("gst-session-service: --video-codec is vp8 or h264\n");
    return 2;
  }
  if (media && g_strcmp0 (media, "live") != 0 && g_strcmp0 (media, "cached")) {
    g_printerr ("gst-session-service: --media is live or cached\n");
    return 2;
  }
  config.port = port;
  config.runners = runners;
  config.video_codec = g_strcmp0 (codec, "h264") == 0 ? SVC_CODEC_H264 :
      SVC_CODEC_VP8;
  config.media_cached = g_strcmp0 (media, "cached") == 0;
  config.cached_seconds = cached_seconds;
  config.keepalive_seconds = keepalive;
  config.ice_timeout_ms = ice_timeout;
  config.world_max_blocks = max_blocks;
  config.world_frames_per_block = frames_per_block;
  config.configure_timeout = configure_timeout;
  config.session_limit = session_limit;
  config.first_chunk_delay = first_chunk;
  config.time_scale = time_scale;
  config.rate_window = rate_window;
  config.webhook_key_rotate = key_rotate;
  if (!config.webhook_user_id)
    config.webhook_user_id = g_strdup ("user-reference");
  if (!config.blocked_words) {
    config.blocked_words = g_new0 (gchar *, 2);
    config.blocked_words[0] = g_strdup ("forbidden");
  }

  /* a missing plugin is the machine's fault, not a session's: say which
   * package to install and stop, before listening */
  if (!svc_media_check_elements (&error)) {
    g_printerr ("gst-session-service: %s\n", error->message);
    g_clear_error (&error);
    return 2;
  }

  app.service = svc_service_new (&config, fault_rules, &error);
  if (!app.service) {
    g_printerr ("gst-session-service: cannot start on %s:%d: %s\n",
        config.host, port, error->message);
    return 1;
  }
  url = svc_service_get_base_url (app.service);
  printf ("%s\n", url);
  fflush (stdout);
  g_printerr ("gst-session-service: listening on %s (world, director; %s "
      "media, %s)\n", url, config.media_cached ? "cached" : "live",
      config.api_keys ? "key required" : "no key");
  g_free (url);

  app.loop = g_main_loop_new (NULL, FALSE);
  g_unix_signal_add (SIGINT, on_signal, &app);
  g_unix_signal_add (SIGTERM, on_signal, &app);
  g_main_loop_run (app.loop);

  if (!svc_service_is_idle (app.service) || svc_peer_count_alive () > 0)
    g_printerr ("gst-session-service: sessions still closing after %d ms\n",
        SHUTDOWN_MAX_MS);
  svc_service_free (app.service);
  g_main_loop_unref (app.loop);
  g_free (config.host);
  g_free (config.ice_address);
  g_strfreev (config.api_keys);
  g_strfreev (config.blocked_words);
  g_free (config.webhook_user_id);
  g_strfreev (config.webhook_ip_ranges);
  g_free (codec);
  g_free (media);
  /* The work is done: the process ends without the libraries' exit
   * handlers. exit() would run OpenSSL's atexit cleanup beside threads
   * that are still ending and free the same per-thread state (a SIGSEGV
   * or a double free after a clean shutdown, seen under load and once on
   * a quiet fresh machine): webrtcbin's DTLS timeouts run in GLib's
   * shared pool, whose idle threads end up to 15 s later, and GStreamer
   * 1.22 does not join webrtcbin's own thread. Waiting for the thread
   * count to settle (what this did before) cannot see those. */
  fflush (stdout);
  fflush (stderr);
  _exit (0);
}
