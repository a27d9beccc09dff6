/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The soak: directorsrc (renew on, chunk-duration 5) for a long run
 * against the live reference service, every session ended
 * --session-seconds after its first frame (4: sessions of about 5 s, 300
 * and more in 30 minutes), with a fault injected every --fault-every
 * seconds through the service's admin API (per live session), restreamed
 * as H.264 + AAC in FLV with rtmp2sink to a local nginx-rtmp (127.0.0.1
 * only, started here, `record all`). Not in CI, not in the `bench` suite:
 * `tests/bench/run --soak` runs it (30 minutes).
 *
 *   bench-soak                  30 minutes, a fault every 60 s
 *   bench-soak --minutes 5      5 minutes
 *   bench-soak --quick          about 60 s, a fault every 12 s
 *   bench-soak --faults zombie-peer,exhausted --fault-every 20
 *                               only these faults, in turn
 *   bench-soak --session-seconds 0
 *                               no renewals: only the faults end sessions
 *
 * The renewals: --session-seconds after a session's first frame the soak
 * asks the service to end it (`exhaust_after: 0` for the live session:
 * stream_exhausted, reason session_limit, as the service's session limit
 * ends one) and directorsrc renews it; 4 s of video is past
 * renew-min-media (2 s), so at once. Not the service's --session-limit:
 * it counts from every session's start, and a fault needs its session for
 * up to 10 s. While a fault is open (from its injection to SETTLE_MS
 * after its recovery) nothing is renewed, so that no renewal passes for a
 * fault's new session or its recovery; the next fault goes in at a
 * renewal point instead of that renewal. The service runs with two
 * runners: a renewed session starts while the one before still drains.
 *
 * The faults, in turn: a late chunk within the media timeout (stall 3 s),
 * the peer dropped, a service error (generation_failed), early exhaustion
 * (session_limit), a malformed message, a silent peer whose response stays
 * open (zombie), the peer dropped with the next start refused once
 * (runner_scheduling_failure), a late chunk beyond the media timeout
 * (stall 7 s), a schema violation, the peer dropped with the next answer
 * 2 s late. Each fault waits for the one before to be recovered (up to
 * the period).
 *
 * Checked and printed as one JSON object on stdout:
 * - for every fault: what the element did (warnings, sessions negotiated,
 *   start attempts, deadline_missed, director/error, stream_exhausted),
 *   whether it recovered as expected (a new session's first frame for
 *   the faults that end a session; the next chunk of the same session for
 *   the others) and after how long, and how long the output was held
 *   (repeated frames, silence);
 * - the renewals: how many, the time from the request to the new
 *   session's first frame, and the warnings while no fault was open (a
 *   renewal's backoff would be one);
 * - the element's output (pad probes): every video step one frame, every
 *   audio buffer starting where the one before ended;
 * - the received stream (nginx's recording, read with ffprobe; plus a
 *   live ffprobe of the RTMP URL now and then): H.264 and AAC, its
 *   duration against the wall time of the run (within 2 %), no timestamp
 *   gap beyond one frame (audio: one packet) and no backward step;
 * - open descriptors (/proc/PID/fd) and resident memory of this process
 *   (the whole pipeline: element, encoders, muxer, sink) and of the
 *   service, with the session count, sampled every 10 s ("samples"): after
 *   the warm-up and at the end, and the growth per 100 sessions and per
 *   hour (least squares over the samples after the warm-up);
 * - CPU (user + system) of this process, the service and nginx, as a
 *   share of one core over the run.
 *
 * The restream is pipelines/restream-director.sh's with x264's fastest
 * preset and flvmux latency=200 ms (--mux-latency): with flvmux's default
 * 0, while directorsrc fills a stall with silence (pushed when 100 ms
 * overdue, its audio pad's latency) the AAC frames reach flvmux after it
 * has timed out and written later video, and it clamps their timestamps
 * to the last video tag's (pairs of equal timestamps 42 ms apart in the
 * recording). The soak measures how late buffers leave the element's pads
 * against the latency they report.
 *
 * "pass" is true when the soak ran its length (no EOS before its stop,
 * the service alive throughout), every fault recovered as expected, the
 * output and the recording have no gap, the durations agree within 2 %,
 * no error was posted, no renewal got stuck, no warning came outside the
 * faults, and neither process's descriptors grew by more than 2 per 100
 * sessions (judged over 50 sessions after the warm-up at least). Needs
 * nginx with libnginx-mod-rtmp, ffprobe, x264enc, flvmux, rtmp2sink and
 * an AAC encoder (tests/deps.sh).
 *
 * This file drives the soak: its options, the faults and their injection
 * through the admin API, the renewals, the bus, the timers, the pipeline
 * and main (); bench-soak-rtmp.c has nginx-rtmp and its recording,
 * bench-soak-measure.c the element's output, the samples and the
 * result's statistics (bench-soak.h: what they share).
 */

#include <gio/gio.h>
#include <libsoup/soup.h>
#include <math.h>
#include <string.h>

#include "bench-soak.h"

#define SAMPLE_EVERY_S 10
#define PROMPT_EVERY_S 20
#define PING_EVERY_S 10
#define LIVE_PROBE_EVERY_S 300
#define FRAME (GST_SECOND / 24)
/* a fault stays open this long after its recovery (the output's hold
 * ends a little after the message that says it recovered) */
#define SETTLE_MS 2000
/* a renewal with no new session after this long is stuck */
#define RENEW_STUCK_MS 20000
/* descriptors may grow by at most this many per 100 sessions, judged
 * over FDS_JUDGED_FROM sessions after the warm-up at least (fewer: a
 * descriptor open at one sample moves the slope by more) */
#define FDS_PER_100_MAX 2.0
#define FDS_JUDGED_FROM 50

static gdouble opt_minutes = 30;
static gint opt_fault_every = 0;
static gchar *opt_resolution = NULL;
static gchar *opt_keep = NULL;
static gint opt_mux_latency = 200;
static gchar *opt_faults = NULL;
static gint opt_session_seconds = 4;

/* ---- the faults ---- */

static const FaultKind kinds[] = {
  {"stall-3s", "deadline_missed, frozen 3 s, same session", FALSE,
      SIG_DEADLINE, "{\"session_id\": \"%s\", \"stall\": {\"at\": 1, "
        "\"duration\": 3}}"},
  {"peer-dropped", "warning, a new session", TRUE, SIG_WARNING,
      "{\"session_id\": \"%s\", \"drop_after\": 1}"},
  {"generation-failed", "director/error posted, same session", FALSE,
      SIG_ERROR, "{\"session_id\": \"%s\", \"director_error\": {\"code\": "
        "\"generation_failed\", \"at\": 1}}"},
  {"exhausted", "stream_exhausted (session_limit), a new session", TRUE,
      SIG_EXHAUSTED, "{\"session_id\": \"%s\", \"exhaust_after\": 1}"},
  {"malformed-message", "warning (message skipped), same session", FALSE,
      SIG_WARNING, "{\"session_id\": \"%s\", \"bad_message\": {\"kind\": "
        "\"malformed\", \"at\": 1}}"},
  {"zombie-peer", "warning after media-timeout, a new session", TRUE,
      SIG_WARNING, "{\"session_id\": \"%s\", \"drop_after\": 1, "
        "\"drop_keep_response\": true}"},
  {"dropped-then-refused", "warnings (lost, start retried), a new session "
        "at attempt 2", TRUE, SIG_WARNING,
      "[{\"app\": \"director\", \"refuse\": \"runner_scheduling_failure\"}, "
        "{\"session_id\": \"%s\", \"drop_after\": 1}]"},
  /* announced lateness is not silence for media-timeout (the element
   * waits the announced time plus media-timeout): no new session */
  {"stall-7s", "deadline_missed, frozen 7 s (announced: not counted "
        "against media-timeout), same session", FALSE, SIG_DEADLINE,
      "{\"session_id\": \"%s\", \"stall\": " "{\"at\": 1, \"duration\": 7}}"},
  {"schema-violation", "warning (message skipped), same session", FALSE,
      SIG_WARNING, "{\"session_id\": \"%s\", \"bad_message\": {\"kind\": "
        "\"schema\", \"at\": 1}}"},
  {"dropped-slow-answer", "warning, a new session answered 2 s late", TRUE,
      SIG_WARNING, "[{\"app\": \"director\", \"answer_delay\": 2}, "
        "{\"session_id\": \"%s\", \"drop_after\": 1}]"},
};

static void
fault_free (gpointer data)
{
  Fault *f = data;

  g_free (f->session);
  g_ptr_array_unref (f->texts);
  g_free (f);
}

/* ---- the service's admin API ---- */

/* POSTs (or DELETE/GET when @body is NULL) to @path; the answer's body
 * (free it) when the status is 2xx, else NULL */
static gchar *
admin (Soak * s, const gchar * method, const gchar * path, const gchar * body)
{
  gchar *url = g_strconcat (bench_service_base_url (s->svc), path, NULL);
  SoupMessage *msg = soup_message_new (method, url);
  GBytes *answer;
  gchar *text = NULL;

  if (body) {
    GBytes *b = g_bytes_new (body, strlen (body));

    soup_message_set_request_body_from_bytes (msg, "application/json", b);
    g_bytes_unref (b);
  }
  answer = soup_session_send_and_read (s->http, msg, NULL, NULL);
  if (answer && SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (msg)))
    text = g_strndup (g_bytes_get_data (answer, NULL),
        g_bytes_get_size (answer));
  else
    g_printerr ("admin %s %s: HTTP %u\n", method, path,
        soup_message_get_status (msg));
  if (answer)
    g_bytes_unref (answer);
  g_object_unref (msg);
  g_free (url);
  return text;
}

/* ---- faults ---- */

static void
fault_close (Soak * s)
{
  Fault *f = s->current;

  if (f == NULL)
    return;
  output_counters (s, &f->vrepeats1, &f->silence1, &f->vlate, &f->alate);
  s->current = NULL;
}

/* the "applied" member of the admin API's answer; -1 when none */
static gint64
answer_applied (const gchar * answer)
{
  JsonParser *parser = json_parser_new ();
  gint64 n = -1;

  if (answer && json_parser_load_from_data (parser, answer, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    n = json_object_get_int_member_with_default (json_node_get_object
        (json_parser_get_root (parser)), "applied", -1);
  g_object_unref (parser);
  return n;
}

/* the kinds in use (--faults), in turn */
static GPtrArray *chosen;

static gboolean
choose_kinds (void)
{
  gchar **names = opt_faults ? g_strsplit (opt_faults, ",", -1) : NULL;
  guint i, j;

  chosen = g_ptr_array_new ();
  for (i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (names == NULL)
      g_ptr_array_add (chosen, (gpointer) & kinds[i]);
  for (j = 0; names && names[j]; j++) {
    for (i = 0; i < G_N_ELEMENTS (kinds); i++)
      if (g_str_equal (g_strstrip (names[j]), kinds[i].name))
        break;
    if (i == G_N_ELEMENTS (kinds)) {
      g_printerr ("--faults: no kind %s; the kinds:", names[j]);
      for (i = 0; i < G_N_ELEMENTS (kinds); i++)
        g_printerr (" %s", kinds[i].name);
      g_printerr ("\n");
      g_strfreev (names);
      return FALSE;
    }
    g_ptr_array_add (chosen, (gpointer) & kinds[i]);
  }
  g_strfreev (names);
  return chosen->len > 0;
}

static void
fault_inject (Soak * s)
{
  const FaultKind *k = g_ptr_array_index (chosen, s->next_kind % chosen->len);
  Fault *f = g_new0 (Fault, 1);
  gchar *rules, *answer;

  fault_close (s);
  s->next_kind++;
  f->kind = k;
  f->session = g_strdup (s->session);
  f->texts = g_ptr_array_new_with_free_func (g_free);
  f->signal_ms = f->recovered_ms = f->chunk_ms = -1;
  output_counters (s, &f->vrepeats0, &f->silence0, &f->vlate, &f->alate);
  rules = g_strdup_printf (k->rules, s->session);
  f->at_ms = bench_now_ms ();
  answer = admin (s, "POST", "/admin/faults", rules);
  f->posted = answer_applied (answer) > 0;
  g_printerr ("[%7.1f s] fault %u: %s into session %s%s\n",
      since_start (s, f->at_ms), s->faults->len + 1, k->name, s->session,
      f->posted ? "" : " (NOT applied)");
  g_free (answer);
  g_free (rules);
  g_ptr_array_add (s->faults, f);
  s->current = f;
}

/* ---- renewals ---- */

/* Ends the live session as a service's session limit does
 * (stream_exhausted, reason session_limit): directorsrc renews it. Through
 * the admin API rather than the service's --session-limit, which counts
 * from the channel's opening for every session: a fault needs its session
 * for up to 10 s (a late chunk of 7 s, media-timeout), so renewals pause
 * while a fault is open. */
static void
renew (Soak * s, gdouble now)
{
  gchar *rules = g_strdup_printf ("{\"session_id\": \"%s\", "
      "\"exhaust_after\": 0}", s->session);
  gchar *answer = admin (s, "POST", "/admin/faults", rules);

  if (answer_applied (answer) > 0) {
    s->renewals++;
    s->renewing = TRUE;
    s->renew_at_ms = now;
  } else {
    /* the session had gone and the rule was stored for a session that
     * never comes: cleared (no fault is open, so no rule of one waits) */
    s->renewals_refused++;
    s->renew_retry_ms = now + 1000;
    g_free (admin (s, "DELETE", "/admin/faults", NULL));
  }
  g_free (answer);
  g_free (rules);
}

/* every 250 ms: closes the open fault SETTLE_MS after its recovery (or
 * gives up on it a period after the next one was due); then, with no
 * fault open, at the live session's renewal point (--session-seconds after
 * its first frame) injects the next fault when it is due, else renews the
 * session. Without renewals (--session-seconds 0), injects the next fault
 * when it is due. */
static gdouble next_fault_ms;

static gboolean
session_tick (gpointer data)
{
  Soak *s = data;
  gdouble now = bench_now_ms (), period = opt_fault_every * 1000.0;
  Fault *f = s->current;
  gboolean due;

  if (s->stopping)
    return G_SOURCE_REMOVE;
  if (s->renewing && now > s->renew_at_ms + RENEW_STUCK_MS) {
    g_printerr ("[%7.1f s] no new session %d s after a renewal\n",
        since_start (s, now), RENEW_STUCK_MS / 1000);
    s->renewals_stuck++;
    s->renewing = FALSE;
    s->renew_at_ms = 0;
  }
  if (f) {
    if (fault_recovered (f) && now >= f->recovered_ms + SETTLE_MS) {
      fault_close (s);
    } else if (now >= f->at_ms + 2 * period) {
      g_printerr ("[%7.1f s] fault %u (%s) not recovered; going on\n",
          since_start (s, now), s->faults->len, f->kind->name);
      fault_close (s);
    } else {
      if (now >= next_fault_ms && s->postponed++ % 40 == 0)
        g_printerr ("[%7.1f s] next fault waits for the recovery\n",
            since_start (s, now));
      return G_SOURCE_CONTINUE;
    }
  }
  if (s->session == NULL || s->session_ff_ms <= 0 || s->renewing)
    return G_SOURCE_CONTINUE;
  /* not in the last 20 s: the last fault must have time to recover */
  due = now >= next_fault_ms && now <= s->end_ms - 20000;
  if (opt_session_seconds > 0) {
    if (now < s->session_ff_ms + opt_session_seconds * 1000.0 ||
        now < s->renew_retry_ms)
      return G_SOURCE_CONTINUE;
    if (due) {
      fault_inject (s);
      next_fault_ms = now + period;
    } else if (now < s->end_ms - opt_session_seconds * 1000.0) {
      renew (s, now);
    }
  } else if (due) {
    fault_inject (s);
    next_fault_ms = now + period;
  }
  return G_SOURCE_CONTINUE;
}

/* ---- the bus ---- */

static void
on_element (Soak * s, const GstStructure * st, gdouble now)
{
  Fault *f = s->current;
  const gchar *name = gst_structure_get_name (st);

  if (g_str_equal (name, "session/negotiated")) {
    const gchar *id = gst_structure_get_string (st, "session-id");
    guint attempts = 0;

    gst_structure_get_uint (st, "attempts", &attempts);
    g_free (s->session);
    s->session = g_strdup (id);
    s->sessions++;
    s->session_ff_ms = 0;
    s->renewing = FALSE;
    if (f) {
      f->sessions++;
      f->attempts = MAX (f->attempts, attempts);
      f->new_session = TRUE;
    }
  } else if (g_str_equal (name, "session/first-frame")) {
    s->session_ff_ms = now;
    if (s->renew_at_ms > 0) {
      bench_values_add (s->renew_gap_ms, now - s->renew_at_ms);
      s->renew_at_ms = 0;
    }
    if (f && f->kind->renews && f->new_session && f->recovered_ms < 0)
      f->recovered_ms = now;
  } else if (g_str_equal (name, "director/chunk")) {
    Fault *last = s->faults->len ?
        g_ptr_array_index (s->faults, s->faults->len - 1) : NULL;

    s->chunks++;
    if (f) {
      f->chunks++;
      if (!f->kind->renews && f->signalled && f->recovered_ms < 0 &&
          !f->new_session)
        f->recovered_ms = now;
    }
    /* the first chunk after the recovery, also once the fault closed */
    if (last && last->recovered_ms > 0 && last->chunk_ms < 0)
      last->chunk_ms = now;
  } else if (g_str_equal (name, "director/deadline_missed")) {
    s->deadline_missed++;
    if (f) {
      f->deadline_missed++;
      if (f->kind->signal == SIG_DEADLINE && !f->signalled) {
        f->signalled = TRUE;
        f->signal_ms = now;
      }
    }
  } else if (g_str_equal (name, "director/error")) {
    s->director_errors++;
    if (f) {
      f->errors++;
      if (f->kind->signal == SIG_ERROR && !f->signalled) {
        f->signalled = TRUE;
        f->signal_ms = now;
      }
    }
  } else if (g_str_equal (name, "director/stream_exhausted")) {
    s->exhausted++;
    if (f) {
      f->exhausted++;
      if (f->kind->signal == SIG_EXHAUSTED && !f->signalled) {
        f->signalled = TRUE;
        f->signal_ms = now;
      }
    }
  } else if (g_str_equal (name, "director/pong")) {
    gdouble rtt;

    s->pongs++;
    if (gst_structure_get_double (st, "rtt_ms", &rtt))
      bench_values_add (s->rtt, rtt);
  } else if (g_str_equal (name, "director/prompt_applied")) {
    s->prompts_applied++;
  }
}

static gboolean
on_bus (GstBus * bus, GstMessage * msg, gpointer data)
{
  Soak *s = data;
  gdouble now = bench_now_ms ();
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ELEMENT:
      if (gst_message_get_structure (msg))
        on_element (s, gst_message_get_structure (msg), now);
      break;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &dbg);
      s->warnings++;
      g_printerr ("[%7.1f s] warning: %s\n", since_start (s, now),
          err->message);
      if (s->current) {
        Fault *f = s->current;

        f->warnings++;
        if (f->texts->len < 4)
          g_ptr_array_add (f->texts, g_strndup (err->message, 160));
        if (f->kind->signal == SIG_WARNING && !f->signalled) {
          f->signalled = TRUE;
          f->signal_ms = now;
        }
      } else if (!s->stopping) {
        s->stray_warnings++;
        if (s->stray_texts->len < 8)
          g_ptr_array_add (s->stray_texts, g_strndup (err->message, 160));
      }
      break;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      g_printerr ("[%7.1f s] ERROR from %s: %s\n", since_start (s, now),
          GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
      if (!s->error)
        s->error_text = g_strdup_printf ("%s: %s",
            GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)), err->message);
      s->error = TRUE;
      g_main_loop_quit (s->loop);
      break;
    case GST_MESSAGE_EOS:
      s->eos = TRUE;
      if (!s->stopping) {
        s->early_eos_ms = now;
        g_printerr ("[%7.1f s] EOS before the end of the soak\n",
            since_start (s, now));
      }
      g_main_loop_quit (s->loop);
      break;
    default:
      break;
  }
  g_clear_error (&err);
  g_free (dbg);
  return G_SOURCE_CONTINUE;
}

/* ---- timers ---- */

static gboolean
sample_tick (gpointer data)
{
  Soak *s = data;

  if (s->stopping)
    return G_SOURCE_REMOVE;
  sample (s);
  if (s->sample_s->len % 6 == 0)
    g_printerr ("[%7.1f s] rss %.1f MiB, %.0f fds (service %.1f MiB, %.0f "
        "fds), %u sessions, %u faults\n", g_array_index (s->sample_s,
            gdouble, s->sample_s->len - 1), g_array_index (s->rss_mb,
            gdouble, s->rss_mb->len - 1), g_array_index (s->fds, gdouble,
            s->fds->len - 1), g_array_index (s->svc_rss_mb, gdouble,
            s->svc_rss_mb->len - 1), g_array_index (s->svc_fds, gdouble,
            s->svc_fds->len - 1), s->sessions, s->faults->len);
  return G_SOURCE_CONTINUE;
}

static const gchar *prompts[] = {
  "a lighthouse on a cliff at dusk",
  "the storm rolls in over the harbour",
  "fishing boats return in the rain",
  "the lantern room glows through the fog",
  "dawn breaks over a calm sea",
};

static gboolean
prompt_tick (gpointer data)
{
  Soak *s = data;

  if (s->stopping)
    return G_SOURCE_REMOVE;
  s->prompts_set++;
  g_object_set (s->src, "prompt", prompts[s->prompts_set %
          G_N_ELEMENTS (prompts)], NULL);
  return G_SOURCE_CONTINUE;
}

static gboolean
ping_tick (gpointer data)
{
  Soak *s = data;
  gboolean sent;

  if (s->stopping)
    return G_SOURCE_REMOVE;
  g_signal_emit_by_name (s->src, "ping", &sent);
  return G_SOURCE_CONTINUE;
}

static void
live_done (GObject * obj, GAsyncResult * res, gpointer data)
{
  Soak *s = data;
  gchar *out = NULL;
  gboolean ok;

  ok = g_subprocess_communicate_utf8_finish (G_SUBPROCESS (obj), res, &out,
      NULL, NULL) && out && strstr (out, "h264") && strstr (out, "aac");
  if (ok)
    s->live_ok++;
  else
    s->live_failed++;
  g_printerr ("[%7.1f s] live read of the RTMP URL: %s\n",
      since_start (s, bench_now_ms ()), ok ? "H.264 and AAC" : "FAILED");
  g_free (out);
  g_clear_object (&s->live);
}

/* a player's view while the soak runs: ffprobe reads the live stream */
static gboolean
live_tick (gpointer data)
{
  Soak *s = data;

  if (s->stopping)
    return G_SOURCE_REMOVE;
  if (s->live)
    return G_SOURCE_CONTINUE;
  s->live = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
      G_SUBPROCESS_FLAGS_STDERR_SILENCE, NULL, "timeout", "-k", "2", "20",
      "ffprobe", "-v", "error", "-rw_timeout", "10000000", "-show_entries",
      "stream=codec_name,codec_type", "-of", "csv=p=0", s->rtmp_url, NULL);
  if (s->live == NULL) {
    s->live_failed++;
    return G_SOURCE_CONTINUE;
  }
  g_subprocess_communicate_utf8_async (s->live, NULL, NULL, live_done, s);
  return G_SOURCE_CONTINUE;
}

static gboolean
live_first (gpointer data)
{
  live_tick (data);
  g_timeout_add_seconds (LIVE_PROBE_EVERY_S, live_tick, data);
  return G_SOURCE_REMOVE;
}

static gboolean
give_up (gpointer data)
{
  Soak *s = data;

  g_printerr ("no EOS within 30 s of the stop\n");
  g_main_loop_quit (s->loop);
  return G_SOURCE_REMOVE;
}

static gboolean
stop_tick (gpointer data)
{
  Soak *s = data;

  if (s->stopping)
    return G_SOURCE_REMOVE;
  if (bench_now_ms () < s->end_ms)
    return G_SOURCE_CONTINUE;
  g_printerr ("[%7.1f s] stopping (EOS: the element sends stop)\n",
      since_start (s, bench_now_ms ()));
  s->stopping = TRUE;
  sample (s);
  gst_element_send_event (s->pipeline, gst_event_new_eos ());
  g_timeout_add_seconds (30, give_up, s);
  return G_SOURCE_REMOVE;
}


static gboolean
have_element (const gchar * name)
{
  GstElementFactory *f = gst_element_factory_find (name);

  if (f)
    gst_object_unref (f);
  return f != NULL;
}

static gchar *
loadavg (void)
{
  gchar *text = NULL, **f, *out;

  if (!g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
    return g_strdup ("?");
  f = g_strsplit (text, " ", 4);
  out = g_strjoin (" ", f[0], f[1], f[2], NULL);
  g_strfreev (f);
  g_free (text);
  return out;
}

static GstElement *
make_pipeline (Soak * s, const gchar * aacenc)
{
  gchar *url = bench_service_url (s->svc, "director");
  gchar *res = opt_resolution ? g_strdup_printf (" resolution=%s",
      opt_resolution) : g_strdup ("");
  gchar *desc;
  GstElement *p;
  GstPad *pad;
  GError *err = NULL;

  /* as pipelines/restream-director.sh, with x264's fastest preset: the
   * machine is small and the soak is about the element */
  desc = g_strdup_printf ("directorsrc name=d url=%s prompt=\"%s\" "
      "chunk-duration=5%s "
      "d.video ! queue ! videoconvert ! x264enc tune=zerolatency "
      "speed-preset=ultrafast key-int-max=48 bitrate=2000 ! h264parse "
      "! queue ! flvmux name=mux streamable=true latency=%" G_GUINT64_FORMAT
      " ! rtmp2sink location=%s "
      "d.audio ! queue ! audioconvert ! audioresample "
      "! audio/x-raw,rate=44100,channels=2 ! %s bitrate=128000 ! aacparse "
      "! queue ! mux.", url, prompts[0], res,
      (guint64) opt_mux_latency * GST_MSECOND, s->rtmp_url, aacenc);
  p = gst_parse_launch (desc, &err);
  g_free (desc);
  g_free (res);
  g_free (url);
  if (p == NULL) {
    g_printerr ("pipeline: %s\n", err->message);
    g_error_free (err);
    return NULL;
  }
  s->src = gst_bin_get_by_name (GST_BIN (p), "d");
  s->out.src = s->src;
  pad = gst_element_get_static_pad (s->src, "video");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, video_probe, &s->out,
      NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (s->src, "audio");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, audio_probe, &s->out,
      NULL);
  gst_object_unref (pad);
  return p;
}

/* MiB to whole KiB (NAN stays) */
static gdouble
kib (gdouble mb)
{
  return isnan (mb) ? NAN : (gdouble) (gint64) (mb * 1024 + 0.5);
}

static gboolean
started (Soak * s)
{
  gboolean yes;

  g_mutex_lock (&s->out.lock);
  yes = s->out.first_at > 0;
  g_mutex_unlock (&s->out.lock);
  return yes;
}

/* runs the pipeline until the end of the soak; FALSE when it never
 * started */
static gboolean
run (Soak * s)
{
  GstBus *bus = gst_element_get_bus (s->pipeline);
  gdouble deadline;

  gst_bus_add_watch (bus, on_bus, s);
  gst_object_unref (bus);
  gst_element_set_state (s->pipeline, GST_STATE_PLAYING);
  deadline = bench_now_ms () + 60000;
  while (!started (s) && !s->error && bench_now_ms () < deadline)
    bench_sleep_ms (20);
  if (!started (s)) {
    g_printerr ("no media within 60 s\n");
    return FALSE;
  }
  s->start_ms = s->out.first_at;
  s->end_ms = s->start_ms + opt_minutes * 60000;
  s->cpu0 = bench_self_cpu ();
  s->svc_cpu0 = bench_proc_cpu (bench_service_pid (s->svc));
  s->nginx_cpu0 = bench_proc_cpu (s->nginx_pid);
  g_printerr ("first media; soaking for %.1f min, a fault every %d s, "
      "sessions renewed every %d s (0: not)\n", opt_minutes,
      opt_fault_every, opt_session_seconds);
  sample (s);
  next_fault_ms = s->start_ms + opt_fault_every * 1000.0;
  g_timeout_add (250, session_tick, s);
  g_timeout_add_seconds (1, stop_tick, s);
  g_timeout_add_seconds (SAMPLE_EVERY_S, sample_tick, s);
  g_timeout_add_seconds (PROMPT_EVERY_S, prompt_tick, s);
  g_timeout_add_seconds (PING_EVERY_S, ping_tick, s);
  g_timeout_add_seconds (MIN (20, opt_minutes * 30), live_first, s);
  if (!s->error)
    g_main_loop_run (s->loop);
  s->stopping = TRUE;
  fault_close (s);
  return TRUE;
}

int
main (int argc, char **argv)
{
  GOptionEntry entries[] = {
    {"minutes", 0, 0, G_OPTION_ARG_DOUBLE, &opt_minutes,
        "Length of the soak (default 30; --quick: 1)", "N"},
    {"fault-every", 0, 0, G_OPTION_ARG_INT, &opt_fault_every,
        "Seconds between faults (default 60; --quick: 12)", "S"},
    {"resolution", 0, 0, G_OPTION_ARG_STRING, &opt_resolution,
          "directorsrc's resolution (480p or 768p; default: the element's)",
        "R"},
    {"mux-latency", 0, 0, G_OPTION_ARG_INT, &opt_mux_latency,
          "flvmux's latency in ms (default 200; see the header)",
        "MS"},
    {"session-seconds", 0, 0, G_OPTION_ARG_INT, &opt_session_seconds,
        "End each session this long after its first frame, so that "
          "directorsrc renews it (default 4; 0: only the faults end "
          "sessions)", "S"},
    {"faults", 0, 0, G_OPTION_ARG_STRING, &opt_faults,
          "Only these kinds of fault, in turn (comma separated; default all)",
        "K,K"},
    {"keep", 0, 0, G_OPTION_ARG_FILENAME, &opt_keep,
        "Copy nginx's recording (and its log) into this directory", "DIR"},
    {NULL}
  };
  Soak s = { 0 };
  Track video = { "video", -1 }, audio = { "audio", -1 };
  gchar *flv, *codecs = NULL, *load_before, *load_after;
  const gchar *aacenc = have_element ("avenc_aac") ? "avenc_aac" : "voaacenc";
  gdouble wall_s, cpu_s, svc_cpu_s, nginx_cpu_s, warmup, v0, v1, span;
  gdouble vdiff, adiff, fds100, svc_fds100;
  guint good, i;
  gboolean recorded, pass, fds_ok;
  JsonBuilder *b;

  bench_init (&argc, &argv, "directorsrc soak: faults, renewals and a "
      "restream to nginx-rtmp over a long run", entries, 1);
  if (bench_quick)
    opt_minutes = 1;
  if (opt_fault_every <= 0)
    opt_fault_every = bench_quick ? 12 : 60;
  if (!choose_kinds ())
    return 2;
  if (opt_minutes <= 0 || opt_minutes > 24 * 60) {
    g_printerr ("--minutes: 0 to 1440\n");
    return 2;
  }
  if (opt_session_seconds < 0 || opt_session_seconds > 3600) {
    g_printerr ("--session-seconds: 0 to 3600\n");
    return 2;
  }
  for (i = 0; i < 5; i++) {
    const gchar *need[] = { "directorsrc", "x264enc", "flvmux", "rtmp2sink",
      aacenc
    };
    if (!have_element (need[i])) {
      g_printerr ("GStreamer element %s is missing (tests/deps.sh)\n", need[i]);
      return 1;
    }
  }
  if (!g_find_program_in_path ("ffprobe")) {
    g_printerr ("ffprobe is missing (Debian: ffmpeg)\n");
    return 1;
  }
  load_before = loadavg ();
  g_mutex_init (&s.out.lock);
  s.loop = g_main_loop_new (NULL, FALSE);
  s.faults = g_ptr_array_new_with_free_func (fault_free);
  s.rtt = bench_values_new ();
  s.sample_s = bench_values_new ();
  s.rss_mb = bench_values_new ();
  s.svc_rss_mb = bench_values_new ();
  s.fds = bench_values_new ();
  s.svc_fds = bench_values_new ();
  s.sample_sessions = bench_values_new ();
  s.renew_gap_ms = bench_values_new ();
  s.stray_texts = g_ptr_array_new_with_free_func (g_free);
  s.http = soup_session_new_with_options ("timeout", 10, NULL);
  if (!nginx_start (&s))
    return 1;
  /* two runners: a renewed session starts while the one before still
   * drains (its runner busy); with one, about one renewal in ten was
   * refused (503 runner_scheduling_failure) and retried after 0.5 s */
  s.svc = bench_service_start (opt_session_seconds > 0 ? "--runners=2" :
      NULL, NULL);
  if (s.svc == NULL || (s.pipeline = make_pipeline (&s, aacenc)) == NULL) {
    nginx_stop (&s);
    return 1;
  }
  if (!run (&s))
    s.error = TRUE;
  gst_element_set_state (s.pipeline, GST_STATE_NULL);
  nginx_cpu_s = bench_proc_cpu (s.nginx_pid) - s.nginx_cpu0;
  svc_cpu_s = bench_proc_cpu (bench_service_pid (s.svc)) - s.svc_cpu0;
  cpu_s = bench_self_cpu () - s.cpu0;
  load_after = loadavg ();
  if (s.live)
    subprocess_end (s.live, 25000);
  /* nginx closes the recording when the publisher leaves */
  for (i = 0; i < 50 && !nginx_log_has (&s, "deleteStream") &&
      !nginx_log_has (&s, "disconnect"); i++)
    bench_sleep_ms (100);
  nginx_stop (&s);
  bench_service_stop (s.svc);

  flv = g_build_filename (s.nginx_dir, "soak.flv", NULL);
  video.steps = bench_values_new ();
  audio.steps = bench_values_new ();
  video.gap_at = bench_values_new ();
  audio.gap_at = bench_values_new ();
  video.gap_ms = bench_values_new ();
  audio.gap_ms = bench_values_new ();
  recorded = g_file_test (flv, G_FILE_TEST_EXISTS) &&
      read_recording (flv, &video, &audio, &codecs);
  if (opt_keep)
    keep_files (s.nginx_dir, opt_keep);
  remove_dir (s.nginx_dir);

  wall_s = s.out.first_at > 0 ? (s.out.last_at - s.out.first_at) / 1000 : 0;
  span = s.out.vbuffers ? (MAX (s.out.vlast + FRAME, s.out.aend) -
      MIN (s.out.vfirst, s.out.afirst)) / 1e9 : 0;
  vdiff = wall_s > 0 ? 100 * ((video.end - video.first) - wall_s) / wall_s :
      NAN;
  adiff = wall_s > 0 ? 100 * ((audio.end - audio.first) - wall_s) / wall_s :
      NAN;
  warmup = MIN (120, opt_minutes * 60 / 5);

  b = bench_result_begin ("soak");
  bench_result_double (b, "minutes", opt_minutes);
  bench_result_int (b, "fault_every_s", opt_fault_every);
  bench_result_int (b, "mux_latency_ms", opt_mux_latency);
  bench_result_int (b, "session_seconds", opt_session_seconds);
  bench_result_string (b, "resolution", opt_resolution ? opt_resolution :
      "768p");
  bench_result_string (b, "load_before", load_before);
  bench_result_string (b, "load_after", load_after);
  bench_result_double (b, "wall_s", wall_s);
  bench_result_bool (b, "eos", s.eos);
  bench_result_double (b, "ended_early_at_s", since_start (&s, s.early_eos_ms));
  bench_result_double (b, "service_exited_at_s", since_start (&s,
          s.service_gone_ms));
  bench_result_string (b, "error", s.error_text);
  bench_result_int (b, "faults", s.faults->len);
  good = add_faults (b, &s);
  bench_result_int (b, "faults_as_expected", good);
  bench_result_int (b, "sessions", s.sessions);
  bench_result_int (b, "warnings", s.warnings);
  bench_result_int (b, "deadline_missed", s.deadline_missed);
  bench_result_int (b, "director_errors", s.director_errors);
  bench_result_int (b, "stream_exhausted", s.exhausted);
  bench_result_int (b, "chunks", s.chunks);
  bench_result_int (b, "prompts_set", s.prompts_set);
  bench_result_int (b, "prompts_applied", s.prompts_applied);
  bench_result_int (b, "pongs", s.pongs);
  bench_result_double (b, "rtt_ms_median", bench_median (s.rtt));
  bench_result_double (b, "rtt_ms_max", bench_max (s.rtt));

  /* the renewals between faults */
  json_builder_set_member_name (b, "renewals");
  json_builder_begin_object (b);
  bench_result_int (b, "requested", s.renewals);
  bench_result_int (b, "not_applied", s.renewals_refused);
  bench_result_int (b, "stuck", s.renewals_stuck);
  bench_result_values (b, "to_first_frame_ms", s.renew_gap_ms);
  bench_result_int (b, "warnings_outside_faults", s.stray_warnings);
  json_builder_set_member_name (b, "warning_texts");
  json_builder_begin_array (b);
  for (i = 0; i < s.stray_texts->len; i++)
    json_builder_add_string_value (b, g_ptr_array_index (s.stray_texts, i));
  json_builder_end_array (b);
  json_builder_end_object (b);

  /* the element's output */
  json_builder_set_member_name (b, "output");
  json_builder_begin_object (b);
  bench_result_int (b, "video_buffers", s.out.vbuffers);
  bench_result_int (b, "video_steps_not_one_frame", s.out.vsteps_bad);
  bench_result_double (b, "video_repeated_s", s.out.vrepeats / 24.0);
  bench_result_int (b, "audio_buffers", s.out.abuffers);
  bench_result_int (b, "audio_discontinuities", s.out.asteps_bad);
  bench_result_double (b, "audio_silence_s", s.out.asilence / 1e9);
  bench_result_double (b, "video_latency_ms", s.out.vlatency / 1e6);
  bench_result_double (b, "video_max_late_ms", s.out.vlate_max / 1e6);
  bench_result_int (b, "video_later_than_latency", s.out.vlate_over);
  bench_result_double (b, "audio_latency_ms", s.out.alatency / 1e6);
  bench_result_double (b, "audio_max_late_ms", s.out.alate_max / 1e6);
  bench_result_int (b, "audio_later_than_latency", s.out.alate_over);
  bench_result_double (b, "span_s", span);
  bench_result_double (b, "span_vs_wall_pct", wall_s > 0 ?
      100 * (span - wall_s) / wall_s : NAN);
  json_builder_end_object (b);

  /* what nginx received */
  json_builder_set_member_name (b, "recording");
  json_builder_begin_object (b);
  bench_result_bool (b, "present", recorded);
  bench_result_string (b, "codecs", codecs);
  add_track (b, "video", &video);
  add_track (b, "audio", &audio);
  bench_result_double (b, "video_vs_wall_pct", vdiff);
  bench_result_double (b, "audio_vs_wall_pct", adiff);
  bench_result_int (b, "live_reads_ok", s.live_ok);
  bench_result_int (b, "live_reads_failed", s.live_failed);
  json_builder_end_object (b);

  /* memory and CPU */
  json_builder_set_member_name (b, "memory");
  json_builder_begin_object (b);
  bench_result_double (b, "warmup_s", warmup);
  first_last (s.sample_s, s.rss_mb, warmup, &v0, &v1);
  bench_result_double (b, "rss_start_mb", v0);
  bench_result_double (b, "rss_end_mb", v1);
  bench_result_double (b, "rss_first_sample_mb", s.rss_mb->len ?
      g_array_index (s.rss_mb, gdouble, 0) : NAN);
  bench_result_double (b, "rss_max_mb", bench_max (s.rss_mb));
  bench_result_double (b, "rss_growth_mb_per_hour",
      slope_per_hour (s.sample_s, s.rss_mb, warmup));
  first_last (s.sample_s, s.svc_rss_mb, warmup, &v0, &v1);
  bench_result_double (b, "service_rss_start_mb", v0);
  bench_result_double (b, "service_rss_end_mb", v1);
  bench_result_double (b, "service_rss_growth_mb_per_hour",
      slope_per_hour (s.sample_s, s.svc_rss_mb, warmup));
  bench_result_double (b, "rss_growth_kb_per_100_sessions", 1024 * 100 *
      slope_after (s.sample_s, s.sample_sessions, s.rss_mb, warmup));
  bench_result_double (b, "service_rss_growth_kb_per_100_sessions",
      1024 * 100 * slope_after (s.sample_s, s.sample_sessions,
          s.svc_rss_mb, warmup));
  json_builder_end_object (b);

  /* open descriptors: growth per 100 sessions after the warm-up */
  fds100 = 100 * slope_after (s.sample_s, s.sample_sessions, s.fds, warmup);
  svc_fds100 = 100 * slope_after (s.sample_s, s.sample_sessions, s.svc_fds,
      warmup);
  json_builder_set_member_name (b, "descriptors");
  json_builder_begin_object (b);
  first_last (s.sample_s, s.sample_sessions, warmup, &v0, &v1);
  bench_result_double (b, "sessions_after_warmup", v1 - v0);
  fds_ok = !(v1 - v0 >= FDS_JUDGED_FROM) || (!(fds100 > FDS_PER_100_MAX) &&
      !(svc_fds100 > FDS_PER_100_MAX));
  bench_result_bool (b, "judged", v1 - v0 >= FDS_JUDGED_FROM);
  bench_result_bool (b, "ok", fds_ok);
  bench_result_double (b, "first", s.fds->len ?
      g_array_index (s.fds, gdouble, 0) : NAN);
  first_last (s.sample_s, s.fds, warmup, &v0, &v1);
  bench_result_double (b, "after_warmup", v0);
  bench_result_double (b, "end", v1);
  bench_result_double (b, "max", bench_max (s.fds));
  bench_result_double (b, "growth_per_100_sessions", fds100);
  bench_result_double (b, "service_first", s.svc_fds->len ?
      g_array_index (s.svc_fds, gdouble, 0) : NAN);
  first_last (s.sample_s, s.svc_fds, warmup, &v0, &v1);
  bench_result_double (b, "service_after_warmup", v0);
  bench_result_double (b, "service_end", v1);
  bench_result_double (b, "service_max", bench_max (s.svc_fds));
  bench_result_double (b, "service_growth_per_100_sessions", svc_fds100);
  bench_result_double (b, "limit_per_100_sessions", FDS_PER_100_MAX);
  json_builder_end_object (b);

  /* the series, every SAMPLE_EVERY_S (null: the service had gone) */
  json_builder_set_member_name (b, "samples");
  json_builder_begin_array (b);
  for (i = 0; i < s.sample_s->len; i++) {
    json_builder_begin_object (b);
    bench_result_double (b, "t", g_array_index (s.sample_s, gdouble, i));
    bench_result_int (b, "sessions", g_array_index (s.sample_sessions,
            gdouble, i));
    bench_result_double (b, "fds", g_array_index (s.fds, gdouble, i));
    bench_result_double (b, "rss_kb", kib (g_array_index (s.rss_mb,
                gdouble, i)));
    bench_result_double (b, "svc_fds", g_array_index (s.svc_fds, gdouble, i));
    bench_result_double (b, "svc_rss_kb", kib (g_array_index (s.svc_rss_mb,
                gdouble, i)));
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "cpu");
  json_builder_begin_object (b);
  bench_result_double (b, "process_pct_of_core", wall_s > 0 ?
      100 * cpu_s / wall_s : NAN);
  bench_result_double (b, "service_pct_of_core", wall_s > 0 ?
      100 * svc_cpu_s / wall_s : NAN);
  bench_result_double (b, "nginx_pct_of_core", wall_s > 0 ?
      100 * nginx_cpu_s / wall_s : NAN);
  json_builder_end_object (b);

  pass = !s.error && s.eos && s.early_eos_ms == 0 && s.service_gone_ms == 0
      && s.faults->len > 0 && good == s.faults->len &&
      s.out.vsteps_bad == 0 && s.out.asteps_bad == 0 && recorded &&
      video.packets > 0 && audio.packets > 0 && video.gaps == 0 &&
      audio.gaps == 0 && video.backwards == 0 && audio.backwards == 0 &&
      fabs (vdiff) <= 2 && fabs (adiff) <= 2 && s.live_ok > 0 &&
      s.live_failed == 0 && s.renewals_stuck == 0 && s.stray_warnings == 0
      && (opt_session_seconds == 0 || s.renewals > 0) && fds_ok;
  bench_result_bool (b, "pass", pass);
  bench_result_end (b);
  g_printerr ("soak: %s; %u/%u faults as expected, %u sessions; recording "
      "video %.1f s (%+.2f %%), audio %.1f s (%+.2f %%) of %.1f s wall, "
      "gaps %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ", backward %"
      G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT "; rss %.1f -> %.1f MiB; "
      "fds %+.2f (service %+.2f) per 100 sessions; cpu %.0f %% of a core\n",
      pass ? "PASS" : "FAIL", good,
      s.faults->len, s.sessions, video.end - video.first, vdiff,
      audio.end - audio.first, adiff, wall_s, video.gaps, audio.gaps,
      video.backwards, audio.backwards, s.rss_mb->len ?
      g_array_index (s.rss_mb, gdouble, 0) : NAN, s.rss_mb->len ?
      g_array_index (s.rss_mb, gdouble, s.rss_mb->len - 1) : NAN,
      fds100, svc_fds100, wall_s > 0 ? 100 * cpu_s / wall_s : NAN);

  gst_object_unref (s.src);
  gst_object_unref (s.pipeline);
  g_ptr_array_unref (s.faults);
  g_array_unref (s.rtt);
  g_array_unref (s.sample_s);
  g_array_unref (s.rss_mb);
  g_array_unref (s.svc_rss_mb);
  g_array_unref (s.fds);
  g_array_unref (s.svc_fds);
  g_array_unref (s.sample_sessions);
  g_array_unref (s.renew_gap_ms);
  g_ptr_array_unref (s.stray_texts);
  g_array_unref (video.steps);
  g_array_unref (audio.steps);
  g_array_unref (video.gap_at);
  g_array_unref (audio.gap_at);
  g_array_unref (video.gap_ms);
  g_array_unref (audio.gap_ms);
  g_object_unref (s.http);
  g_main_loop_unref (s.loop);
  g_free (s.session);
  g_free (s.error_text);
  g_free (s.rtmp_url);
  g_free (s.nginx_dir);
  g_free (codecs);
  g_free (flv);
  g_free (load_before);
  g_free (load_after);
  return pass ? 0 : 1;
}
