/* gst-session-service: the director app
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * After configure, chunks follow each other on the video frame grid: each
 * chunk is decided ("generated") PREPARE_LEAD_MS before it starts, then
 * starts playing at its first frame. At that instant the picture flashes
 * a white marker and the audio clicks, and the messages of DESIGN §6 leave:
 * prompt_applied (when the chunk brings a new prompt version), chunk,
 * chunk_metrics, session_metrics. The tone's pitch follows the prompt
 * version of the playing chunk.
 *
 * Locks: SvcDirector.scene_lock ("scene lock") protects segments, the
 * chunks the streaming threads draw and sound. A leaf lock.
 */

#include <math.h>
#include <string.h>

#include "session.h"
#include "render.h"
#include "msg.h"

#define PREPARE_LEAD_MS 400
#define HISTORY_LIMIT 64
#define N_SEGMENTS 4
#define FLASH_FRAMES 3
#define CLICK_SAMPLES 240       /* 5 ms at 48 kHz */
#define SAMPLES_PER_FRAME (SVC_AUDIO_RATE / GST_SESSION_DIRECTOR_FPS)

typedef struct
{
  gint64 index;
  guint64 start_frame;
  guint64 frames;
  gint64 version;
  gchar *prompt;
} Segment;

typedef struct
{
  gdouble prompt_expansion;
  gdouble generation;
  gdouble decode;
  gdouble encode;
  gdouble wall;
} ChunkPhases;

typedef struct
{
  SvcSession *session;
  const SvcConfig *config;
  GMutex scene_lock;

  /* scene lock */
  Segment segments[N_SEGMENTS];
  guint n_segments;             /* appended so far */

  /* main thread */
  gboolean configured;
  gboolean ended;
  gint64 last_version;          /* last accepted version */
  gint64 pending_version;       /* accepted, not applied; 0: none */
  gchar *pending_prompt;
  gint64 applied_version;
  gchar *applied_prompt;
  gboolean safety;
  gint64 memory;
  gint64 chunk_duration;
  gchar *acceleration;
  gchar *resolution;
  gchar *aspect_ratio;
  gint64 chunks;                /* chunks started */
  gint64 next_index;
  guint64 next_frame;
  gdouble stall_pending;
  gdouble prepared_late;
  Segment prepared;
  GArray *history;              /* ChunkPhases */
  gint64 open_us;
  guint configure_timer;
} SvcDirector;

static gboolean prepare_chunk (gpointer data);

static gpointer
director_create (SvcSession * session)
{
  SvcDirector *d = g_new0 (SvcDirector, 1);

  d->session = session;
  d->config = svc_session_get_config (session);
  g_mutex_init (&d->scene_lock);
  d->history = g_array_new (FALSE, TRUE, sizeof (ChunkPhases));
  d->open_us = g_get_monotonic_time ();
  return d;
}

static void
director_free (gpointer app)
{
  SvcDirector *d = app;
  guint i;

  for (i = 0; i < N_SEGMENTS; i++)
    g_free (d->segments[i].prompt);
  g_free (d->prepared.prompt);
  g_free (d->pending_prompt);
  g_free (d->applied_prompt);
  g_free (d->acceleration);
  g_free (d->resolution);
  g_free (d->aspect_ratio);
  g_array_unref (d->history);
  g_mutex_clear (&d->scene_lock);
  g_free (d);
}

/* ---------------------------------------------------------------- *
 * messages out
 * ---------------------------------------------------------------- */

static void
send_error (SvcDirector * d, const gchar * code, const gchar * text,
    gint64 version)
{
  GstStructure *s = gst_structure_new ("error", "code", G_TYPE_STRING, code,
      "error", G_TYPE_STRING, text, NULL);

  if (version > 0)
    gst_structure_set (s, "prompt_version", G_TYPE_INT64, version, NULL);
  svc_session_send (d->session, s);
}

static void
send_version (SvcDirector * d, const gchar * type, gint64 version)
{
  svc_session_send (d->session, gst_structure_new (type, "prompt_version",
          G_TYPE_INT64, version, NULL));
}

static GstStructure *
summary (GArray * history, gsize offset)
{
  guint n = history->len, i;
  gdouble *v = g_new0 (gdouble, MAX (n, 1));
  gdouble total = 0;
  GstStructure *s;

  for (i = 0; i < n; i++) {
    v[i] = G_STRUCT_MEMBER (gdouble, &g_array_index (history, ChunkPhases,
            i), offset);
    total += v[i];
  }
  for (i = 1; i < n; i++) {     /* insertion sort: n <= HISTORY_LIMIT */
    gdouble x = v[i];
    gint j = i - 1;

    while (j >= 0 && v[j] > x) {
      v[j + 1] = v[j];
      j--;
    }
    v[j + 1] = x;
  }
  s = gst_structure_new ("summary", "count", G_TYPE_INT64, (gint64) n,
      "total_ms", G_TYPE_DOUBLE, total,
      "p50_ms", G_TYPE_DOUBLE, n ? v[(n - 1) / 2] : 0.0,
      "p95_ms", G_TYPE_DOUBLE, n ? v[(guint) ((n - 1) * 0.95)] : 0.0,
      "max_ms", G_TYPE_DOUBLE, n ? v[n - 1] : 0.0, NULL);
  g_free (v);
  return s;
}

static void
send_session_metrics (SvcDirector * d, gboolean final)
{
  GstStructure *s, *phases;

  phases = gst_structure_new_empty ("phases");
  svc_msg_take_structure (phases, "prompt_expansion", summary (d->history,
          G_STRUCT_OFFSET (ChunkPhases, prompt_expansion)));
  svc_msg_take_structure (phases, "generation", summary (d->history,
          G_STRUCT_OFFSET (ChunkPhases, generation)));
  svc_msg_take_structure (phases, "decode", summary (d->history,
          G_STRUCT_OFFSET (ChunkPhases, decode)));
  svc_msg_take_structure (phases, "encode", summary (d->history,
          G_STRUCT_OFFSET (ChunkPhases, encode)));
  s = gst_structure_new ("session_metrics", "units", G_TYPE_STRING, "ms",
      "session_wall_ms", G_TYPE_DOUBLE,
      (g_get_monotonic_time () - d->open_us) / 1000.0,
      "history_size", G_TYPE_INT64, (gint64) d->history->len,
      "history_limit", G_TYPE_INT64, (gint64) HISTORY_LIMIT,
      "final", G_TYPE_BOOLEAN, final, NULL);
  svc_msg_take_structure (s, "phases", phases);
  svc_msg_take_structure (s, "gauges", gst_structure_new ("gauges",
          "chunks", G_TYPE_DOUBLE, (gdouble) d->chunks,
          "prompt_version", G_TYPE_DOUBLE, (gdouble) d->applied_version, NULL));
  svc_session_send (d->session, s);
}

static void
director_finish (SvcDirector * d, const gchar * reason)
{
  if (d->ended)
    return;
  d->ended = TRUE;
  send_session_metrics (d, TRUE);
  svc_session_send (d->session, gst_structure_new ("stream_exhausted",
          "chunks", G_TYPE_INT64, d->chunks, "reason", G_TYPE_STRING, reason,
          NULL));
  svc_session_end (d->session);
}

static GstStructure *
session_info (SvcDirector * d)
{
  GstStructure *s = gst_structure_new ("session_info",
      "protocol_version", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_PROTOCOL_VERSION,
      "prompt_deck_size", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_PROMPT_DECK_SIZE,
      "chunk_seconds", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_CHUNK_DEFAULT,
      "min_chunk_duration", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_CHUNK_MIN,
      "max_chunk_duration", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_CHUNK_MAX,
      "default_chunk_duration", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_CHUNK_DEFAULT,
      "continuation_playback_seconds", G_TYPE_DOUBLE,
      GST_SESSION_DIRECTOR_CONTINUATION_PLAYBACK_SECONDS,
      "continuation_context_frames", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_CONTEXT_FRAMES,
      "default_acceleration", G_TYPE_STRING,
      GST_SESSION_DIRECTOR_DEFAULT_ACCELERATION,
      "min_memory", G_TYPE_INT64, (gint64) GST_SESSION_DIRECTOR_MEMORY_MIN,
      "default_memory", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_MEMORY_DEFAULT,
      "max_memory", G_TYPE_INT64, (gint64) GST_SESSION_DIRECTOR_MEMORY_MAX,
      "prompt_context_segments", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_PROMPT_CONTEXT_SEGMENTS,
      "prompt_expander", G_TYPE_STRING, "fast",
      "controller_machine_type", G_TYPE_STRING, "XL",
      "one_session_per_machine", G_TYPE_BOOLEAN, TRUE,
      "audio_sample_rate", G_TYPE_INT64,
      (gint64) GST_SESSION_DIRECTOR_AUDIO_RATE,
      "fps", G_TYPE_INT64, (gint64) GST_SESSION_DIRECTOR_FPS,
      "app", G_TYPE_STRING, "director",
      "backend_selection", G_TYPE_STRING, "reference", NULL);

  svc_msg_set_strv (s, "resolutions", gst_session_director_resolutions ());
  svc_msg_set_strv (s, "aspect_ratios", gst_session_director_aspect_ratios ());
  svc_msg_set_strv (s, "accelerations", gst_session_director_accelerations ());
  svc_msg_set_strv (s, "client_message_types",
      gst_session_message_types (GST_SESSION_APP_DIRECTOR,
          GST_SESSION_DIRECTION_CLIENT));
  svc_msg_set_strv (s, "server_message_types",
      gst_session_message_types (GST_SESSION_APP_DIRECTOR,
          GST_SESSION_DIRECTION_SERVICE));
  if (d->config->session_limit > 0)
    gst_structure_set (s, "max_session_seconds", G_TYPE_DOUBLE,
        d->config->session_limit, NULL);
  else
    svc_msg_set_null (s, "max_session_seconds");
  return s;
}

static gboolean
configuration_timeout (gpointer data)
{
  SvcDirector *d = data;

  d->configure_timer = 0;
  if (d->configured || d->ended)
    return G_SOURCE_REMOVE;
  GST_INFO ("director: no configure in %.1f s", d->config->configure_timeout);
  send_error (d, "configuration_timeout", "no configure message arrived in "
      "time; the session ends", 0);
  d->ended = TRUE;
  svc_session_end (d->session);
  return G_SOURCE_REMOVE;
}

static gboolean
session_limit (gpointer data)
{
  SvcDirector *d = data;

  GST_INFO ("director: session limit of %.1f s reached",
      d->config->session_limit);
  director_finish (d, "session_limit");
  return G_SOURCE_REMOVE;
}

static void
director_channel_open (gpointer app)
{
  SvcDirector *d = app;

  d->open_us = g_get_monotonic_time ();
  svc_session_send (d->session, session_info (d));
  if (d->config->configure_timeout > 0)
    d->configure_timer = svc_session_add_timer (d->session,
        (guint) (d->config->configure_timeout * 1000), configuration_timeout,
        d);
  if (d->config->session_limit > 0)
    svc_session_add_timer (d->session,
        (guint) (d->config->session_limit * 1000), session_limit, d);
}

/* ---------------------------------------------------------------- *
 * chunks
 * ---------------------------------------------------------------- */

static guint
ms_until (SvcDirector * d, GstClockTime when)
{
  GstClockTime now =
      svc_media_get_running_time (svc_session_get_media (d->session));

  if (!GST_CLOCK_TIME_IS_VALID (now) || when <= now)
    return 0;
  return (guint) ((when - now) / GST_MSECOND);
}

static GstClockTime
frame_time (SvcDirector * d, guint64 frame)
{
  return svc_media_frame_time (svc_session_get_media (d->session), frame);
}

/* when chunk starting at @frame is to be decided */
static guint
ms_until_prepare (SvcDirector * d, guint64 frame)
{
  GstClockTime t = frame_time (d, frame), lead = PREPARE_LEAD_MS * GST_MSECOND;

  return ms_until (d, t > lead ? t - lead : 0);
}

static gboolean
deadline_missed (gpointer data)
{
  SvcDirector *d = data;

  svc_session_send (d->session, gst_structure_new ("deadline_missed",
          "chunk_index", G_TYPE_INT64, d->prepared.index,
          "late_by_seconds", G_TYPE_DOUBLE, d->prepared_late,
          "behavior", G_TYPE_STRING, GST_SESSION_DIRECTOR_FREEZE_BEHAVIOR,
          NULL));
  return G_SOURCE_REMOVE;
}

static void
send_chunk (SvcDirector * d, const ChunkPhases * p)
{
  GstStructure *s, *phases, *dispatch;
  gdouble playback = d->chunk_duration;
  gint64 index = d->prepared.index;

  phases = gst_structure_new ("phases_ms",
      "prompt_expansion", G_TYPE_DOUBLE, p->prompt_expansion,
      "generation", G_TYPE_DOUBLE, p->generation,
      "decode", G_TYPE_DOUBLE, p->decode,
      "encode", G_TYPE_DOUBLE, p->encode, NULL);
  dispatch = gst_structure_new ("dispatch",
      "wall_ms", G_TYPE_DOUBLE, p->wall,
      "classified_ms", G_TYPE_DOUBLE, p->wall * 0.95,
      "overhead_ms", G_TYPE_DOUBLE, p->wall * 0.05, NULL);
  svc_msg_take_structure (dispatch, "phases_ms", gst_structure_copy (phases));

  s = gst_structure_new ("chunk",
      "chunk_index", G_TYPE_INT64, index,
      "prompt_version", G_TYPE_INT64, d->prepared.version,
      "generation_seconds", G_TYPE_DOUBLE, p->wall / 1000.0,
      "playback_seconds", G_TYPE_DOUBLE, playback,
      "requested_duration_seconds", G_TYPE_INT64, d->chunk_duration,
      "generated_frame_count", G_TYPE_INT64,
      d->chunk_duration * GST_SESSION_DIRECTOR_FPS,
      "trimmed_context_frames", G_TYPE_INT64,
      (gint64) (index > 0 ? GST_SESSION_DIRECTOR_CONTEXT_FRAMES : 0),
      "next_generation_estimate_seconds", G_TYPE_DOUBLE, p->wall / 1000.0,
      "route", G_TYPE_STRING, "unknown",
      "buffer_depth_seconds", G_TYPE_DOUBLE, playback,
      "buffer_depth_chunks", G_TYPE_INT64, (gint64) 1,
      "scheduling_lead_ms", G_TYPE_DOUBLE, (gdouble) PREPARE_LEAD_MS,
      "scheduling_slack_ms", G_TYPE_DOUBLE,
      PREPARE_LEAD_MS - d->prepared_late * 1000.0, NULL);
  svc_msg_take_structure (s, "dispatch", dispatch);
  svc_session_send (d->session, s);

  s = gst_structure_new ("chunk_metrics",
      "chunk_index", G_TYPE_INT64, index,
      "units", G_TYPE_STRING, "ms",
      "route", G_TYPE_STRING, "unknown",
      "chunk_consumable_ready_ms", G_TYPE_DOUBLE, p->wall,
      "chunk_consumable_interval_ms", G_TYPE_DOUBLE, playback * 1000.0, NULL);
  svc_msg_take_structure (s, "phases_ms", phases);
  svc_msg_take_structure (s, "gauges", gst_structure_new ("gauges",
          "buffer_depth_seconds", G_TYPE_DOUBLE, playback,
          "buffer_depth_chunks", G_TYPE_DOUBLE, 1.0,
          "late_by_seconds", G_TYPE_DOUBLE, d->prepared_late, NULL));
  svc_session_send (d->session, s);
}

static gboolean
start_chunk (gpointer data)
{
  SvcDirector *d = data;
  ChunkPhases p;
  gdouble factor;

  if (d->ended)
    return G_SOURCE_REMOVE;
  if (d->prepared.version != d->applied_version) {
    d->applied_version = d->prepared.version;
    g_free (d->applied_prompt);
    d->applied_prompt = g_strdup (d->prepared.prompt);
    send_version (d, "prompt_applied", d->applied_version);
  }
  if (d->pending_version && d->pending_version <= d->applied_version) {
    d->pending_version = 0;
    g_clear_pointer (&d->pending_prompt, g_free);
  }

  factor = g_strcmp0 (d->acceleration, "none") == 0 ? 0.8 : 0.45;
  p.wall = (d->chunk_duration * factor + d->prepared_late) * 1000.0;
  p.prompt_expansion = 35.0;
  p.decode = 60.0;
  p.encode = 45.0;
  p.generation = p.wall - p.prompt_expansion - p.decode - p.encode;
  if (d->history->len == HISTORY_LIMIT)
    g_array_remove_index (d->history, 0);
  g_array_append_val (d->history, p);

  send_chunk (d, &p);
  d->chunks++;
  send_session_metrics (d, FALSE);

  d->next_index = d->prepared.index + 1;
  d->next_frame = d->prepared.start_frame + d->prepared.frames;
  svc_session_add_timer (d->session, ms_until_prepare (d, d->next_frame),
      prepare_chunk, d);
  return G_SOURCE_REMOVE;
}

/* Decides the next chunk: its prompt, whether it is late (a stall fault),
 * and when it starts; hands it to the streaming threads. */
static gboolean
prepare_chunk (gpointer data)
{
  SvcDirector *d = data;
  SvcMedia *media = svc_session_get_media (d->session);
  GstClockTime due = frame_time (d, d->next_frame);
  Segment *seg;

  if (d->ended)
    return G_SOURCE_REMOVE;

  g_free (d->prepared.prompt);
  d->prepared.index = d->next_index;
  d->prepared.frames = d->chunk_duration * GST_SESSION_DIRECTOR_FPS;
  if (d->pending_version > d->applied_version) {
    d->prepared.version = d->pending_version;
    d->prepared.prompt = g_strdup (d->pending_prompt);
  } else {
    d->prepared.version = d->applied_version;
    d->prepared.prompt = g_strdup (d->applied_prompt);
  }
  d->prepared.start_frame = d->next_frame;
  d->prepared_late = 0;
  if (d->stall_pending > 0) {
    GstClockTime until = due + (GstClockTime) (d->stall_pending * GST_SECOND);

    d->prepared_late = d->stall_pending;
    d->stall_pending = 0;
    d->prepared.start_frame = svc_media_frame_at (media, until);
    svc_media_stall (media, due, frame_time (d, d->prepared.start_frame));
    svc_session_add_timer (d->session, ms_until (d, due), deadline_missed, d);
    GST_INFO ("director: chunk %" G_GINT64_FORMAT " is %.2f s late (fault)",
        d->prepared.index, d->prepared_late);
  }

  g_mutex_lock (&d->scene_lock);
  seg = &d->segments[d->n_segments % N_SEGMENTS];
  g_free (seg->prompt);
  *seg = d->prepared;
  seg->prompt = g_strdup (d->prepared.prompt);
  d->n_segments++;
  g_mutex_unlock (&d->scene_lock);

  svc_session_add_timer (d->session, ms_until (d, frame_time (d,
              d->prepared.start_frame)), start_chunk, d);
  return G_SOURCE_REMOVE;
}

/* ---------------------------------------------------------------- *
 * messages in
 * ---------------------------------------------------------------- */

static gboolean
is_blocked (SvcDirector * d, const gchar * prompt)
{
  gchar *lower = g_utf8_strdown (prompt ? prompt : "", -1);
  gboolean blocked = FALSE;
  guint i;

  for (i = 0; d->config->blocked_words && d->config->blocked_words[i]; i++) {
    gchar *word = g_utf8_strdown (d->config->blocked_words[i], -1);

    blocked |= word[0] && strstr (lower, word) != NULL;
    g_free (word);
  }
  g_free (lower);
  return blocked;
}

static void
reject_prompt (SvcDirector * d, gint64 version)
{
  svc_session_send (d->session, gst_structure_new ("prompt_rejected",
          "prompt_version", G_TYPE_INT64, version,
          "reason", G_TYPE_STRING, "content_policy", NULL));
  send_error (d, "content_policy", "the prompt was flagged by the content "
      "check", version);
}

static gchar *
string_or (const GstStructure * in, const gchar * field, const gchar * def)
{
  const gchar *v = gst_structure_get_string (in, field);

  return g_strdup (v ? v : def);
}

static void
video_size (const gchar * resolution, const gchar * aspect, gint * width,
    gint * height)
{
  gint base = g_str_equal (resolution, "480p") ? 480 : 768;
  gint wide = base == 480 ? 848 : 1360;

  if (gst_session_director_video_size (resolution, aspect, width, height))
    return;
  /* DESIGN §5 */
  if (g_str_equal (aspect, "9:16")) {
    *width = base;
    *height = wide;
  } else if (g_str_equal (aspect, "1:1")) {
    *width = *height = base;
  } else {
    *width = wide;
    *height = base;
  }
}

static void
handle_configure (SvcDirector * d, const GstStructure * in)
{
  gint64 version = 0, v;
  gboolean b;
  const gchar *prompt = gst_structure_get_string (in, "prompt");
  GstStructure *out;
  gint width, height;
  GstClockTime now, first;

  gst_structure_get_int64 (in, "prompt_version", &version);
  if (svc_session_get_faults (d->session)->no_configured) {
    /* fault: a stuck service. The configure arrived (no
     * configuration_timeout), but nothing answers it, nothing is applied
     * and no chunk is scheduled: the waiting picture and silence of
     * before configure go on at the default size. */
    GST_INFO ("director: leaving configure unanswered (fault)");
    if (d->configure_timer) {
      svc_session_remove_timer (d->session, d->configure_timer);
      d->configure_timer = 0;
    }
    return;
  }
  if (d->configured) {
    send_error (d, "immutable_settings", "the settings are fixed by the "
        "first configure of the session", version);
    return;
  }
  if (is_blocked (d, prompt)) {
    reject_prompt (d, version);
    return;
  }

  d->configured = TRUE;
  if (d->configure_timer) {
    svc_session_remove_timer (d->session, d->configure_timer);
    d->configure_timer = 0;
  }
  d->last_version = version;
  d->pending_version = version;
  d->pending_prompt = g_strdup (prompt);
  d->memory = gst_structure_get_int64 (in, "memory", &v) ? v :
      GST_SESSION_DIRECTOR_MEMORY_DEFAULT;
  d->chunk_duration = gst_structure_get_int64 (in, "chunk_duration", &v) ?
      CLAMP (v, GST_SESSION_DIRECTOR_CHUNK_MIN,
      GST_SESSION_DIRECTOR_CHUNK_MAX) : GST_SESSION_DIRECTOR_CHUNK_DEFAULT;
  d->safety = gst_structure_get_boolean (in, "enable_safety_checker", &b) ?
      b : TRUE;
  d->acceleration = string_or (in, "acceleration",
      GST_SESSION_DIRECTOR_DEFAULT_ACCELERATION);
  d->resolution = string_or (in, "resolution",
      GST_SESSION_DIRECTOR_DEFAULT_RESOLUTION);
  d->aspect_ratio = string_or (in, "aspect_ratio",
      GST_SESSION_DIRECTOR_DEFAULT_ASPECT_RATIO);
  video_size (d->resolution, d->aspect_ratio, &width, &height);
  svc_media_set_video_size (svc_session_get_media (d->session), width, height);

  out = gst_structure_new ("configured",
      "prompt_version", G_TYPE_INT64, version,
      "enable_safety_checker", G_TYPE_BOOLEAN, d->safety,
      "memory", G_TYPE_INT64, d->memory,
      "chunk_duration", G_TYPE_INT64, d->chunk_duration,
      "acceleration", G_TYPE_STRING, d->acceleration,
      "has_initial_image", G_TYPE_BOOLEAN, FALSE,
      "resolution", G_TYPE_STRING, d->resolution,
      "aspect_ratio", G_TYPE_STRING, d->aspect_ratio, NULL);
  svc_session_send (d->session, out);
  GST_INFO ("director: configured, %dx%d, chunks of %" G_GINT64_FORMAT " s",
      width, height, d->chunk_duration);

  now = svc_media_get_running_time (svc_session_get_media (d->session));
  first = now + (GstClockTime) (d->config->first_chunk_delay * GST_SECOND);
  d->next_index = 0;
  d->next_frame = svc_media_frame_at (svc_session_get_media (d->session),
      first);
  svc_session_add_timer (d->session, ms_until_prepare (d, d->next_frame),
      prepare_chunk, d);
}

static void
handle_prompt (SvcDirector * d, const GstStructure * in)
{
  gint64 version = 0;
  const gchar *prompt = gst_structure_get_string (in, "prompt");

  gst_structure_get_int64 (in, "prompt_version", &version);
  if (!d->configured) {
    send_error (d, "not_configured", "send configure before prompts", version);
    return;
  }
  if (version <= d->last_version) {
    gchar *text = g_strdup_printf ("prompt_version %" G_GINT64_FORMAT
        " is not above the last accepted version %" G_GINT64_FORMAT,
        version, d->last_version);

    send_error (d, "stale_prompt_version", text, version);
    g_free (text);
    return;
  }
  if (is_blocked (d, prompt)) {
    reject_prompt (d, version);
    return;
  }
  d->last_version = version;
  d->pending_version = version;
  g_free (d->pending_prompt);
  d->pending_prompt = g_strdup (prompt);
  send_version (d, "prompt_pending", version);
}

static void
director_message (gpointer app, const GstSessionMessage * message)
{
  SvcDirector *d = app;
  const gchar *type = gst_session_message_get_type_name (message);
  const GstStructure *in = gst_session_message_get_structure (message);

  if (d->ended)
    return;
  if (g_str_equal (type, "configure")) {
    handle_configure (d, in);
  } else if (g_str_equal (type, "prompt")) {
    handle_prompt (d, in);
  } else if (g_str_equal (type, "ping")) {
    gdouble ts = 0;

    svc_msg_get_number (in, "ts", &ts);
    svc_session_send (d->session, gst_structure_new ("pong", "client_ts",
            G_TYPE_DOUBLE, ts, NULL));
  } else if (g_str_equal (type, "stop")) {
    director_finish (d, "stopped");
  } else {
    gchar *text = g_strdup_printf ("the director does not handle '%s'", type);

    send_error (d, "invalid_message", text, 0);
    g_free (text);
  }
}

static void
director_invalid (gpointer app, const gchar * text)
{
  SvcDirector *d = app;

  if (!d->ended)
    send_error (d, "invalid_message", text, 0);
}

/* ---------------------------------------------------------------- *
 * faults
 * ---------------------------------------------------------------- */

static void
director_exhaust (gpointer app)
{
  director_finish (app, "session_limit");
}

/* the next chunk will be late by @seconds */
static void
director_stall (gpointer app, gdouble seconds)
{
  SvcDirector *d = app;

  d->stall_pending = seconds;
}

static void
director_error_fault (gpointer app, const gchar * code)
{
  SvcDirector *d = app;
  gchar *text = g_strdup_printf ("injected fault: %s", code);

  send_error (d, code, text, d->applied_version);
  g_free (text);
}

static void
director_describe (gpointer app, JsonBuilder * b)
{
  SvcDirector *d = app;
  gint width, height;

  svc_media_get_video_size (svc_session_get_media (d->session), &width,
      &height);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "configured");
  json_builder_add_boolean_value (b, d->configured);
  json_builder_set_member_name (b, "chunks");
  json_builder_add_int_value (b, d->chunks);
  json_builder_set_member_name (b, "applied_version");
  json_builder_add_int_value (b, d->applied_version);
  json_builder_set_member_name (b, "pending_version");
  json_builder_add_int_value (b, d->pending_version);
  json_builder_set_member_name (b, "width");
  json_builder_add_int_value (b, width);
  json_builder_set_member_name (b, "height");
  json_builder_add_int_value (b, height);
  json_builder_end_object (b);
}

/* ---------------------------------------------------------------- *
 * media (streaming threads)
 * ---------------------------------------------------------------- */

/* The chunk playing at @frame, copied; FALSE before the first. Scene lock
 * held. */
static gboolean
segment_at (SvcDirector * d, guint64 frame, Segment * out)
{
  guint i, n = MIN (d->n_segments, N_SEGMENTS);
  const Segment *best = NULL;

  for (i = 0; i < n; i++) {
    const Segment *s = &d->segments[i];

    if (s->start_frame <= frame && (!best || s->start_frame >
            best->start_frame))
      best = s;
  }
  if (best)
    *out = *best;
  return best != NULL;
}

static void
director_draw (gpointer user_data, GstVideoFrame * frame, guint64 index,
    GstClockTime pts, gchar ** text)
{
  SvcDirector *d = user_data;
  gint width = GST_VIDEO_FRAME_WIDTH (frame);
  gint height = GST_VIDEO_FRAME_HEIGHT (frame);
  gint period = GST_SESSION_DIRECTOR_FPS * 2, marker = height / 8;
  Segment seg;
  gboolean playing;
  gchar *prompt = NULL;
  SvcColor bg, bar;

  g_mutex_lock (&d->scene_lock);
  playing = segment_at (d, index, &seg);
  if (playing)
    prompt = g_utf8_substring (seg.prompt, 0, MIN (g_utf8_strlen (seg.prompt,
                -1), 100));
  g_mutex_unlock (&d->scene_lock);

  if (!playing) {
    bg = svc_color_from_rgb (40, 40, 48);
    bar = svc_color_from_rgb (90, 90, 100);
    *text = g_strdup_printf ("director: waiting for the first chunk\n"
        "frame %" G_GUINT64_FORMAT, index);
  } else {
    bg = svc_color_from_hue (seg.version * 0.13, 0.55, 0.45);
    bar = svc_color_from_hue (seg.version * 0.13 + 0.5, 0.5, 0.85);
    *text = g_strdup_printf ("chunk %" G_GINT64_FORMAT "   prompt v%"
        G_GINT64_FORMAT "\n%s\nframe %" G_GUINT64_FORMAT, seg.index,
        seg.version, prompt, index);
  }
  g_free (prompt);

  svc_render_fill (frame, bg);
  svc_render_rect (frame, (gint) ((index % period) * width / period), 0,
      MAX (width / 40, 2), height, bar);
  if (playing) {
    guint64 into = index - seg.start_frame;

    svc_render_rect (frame, 0, height - 12, (gint) (MIN (into, seg.frames) *
            width / MAX (seg.frames, 1)), 12, bar);
    /* the sync marker: white for the first frames of a chunk */
    svc_render_rect (frame, width - marker, 0, marker, marker,
        svc_color_from_rgb (into < FLASH_FRAMES ? 255 : 0,
            into < FLASH_FRAMES ? 255 : 0, into < FLASH_FRAMES ? 255 : 0));
  }
}

static void
director_fill_audio (gpointer user_data, gint16 * samples, guint n,
    guint64 offset)
{
  SvcDirector *d = user_data;
  Segment segs[N_SEGMENTS];
  guint n_segs, i, k;

  g_mutex_lock (&d->scene_lock);
  n_segs = MIN (d->n_segments, N_SEGMENTS);
  memcpy (segs, d->segments, n_segs * sizeof (Segment));
  g_mutex_unlock (&d->scene_lock);

  for (i = 0; i < n; i++) {
    guint64 pos = offset + i;
    const Segment *best = NULL;
    guint64 start;
    gdouble freq, v;

    for (k = 0; k < n_segs; k++)
      if (segs[k].start_frame * SAMPLES_PER_FRAME <= pos && (!best ||
              segs[k].start_frame > best->start_frame))
        best = &segs[k];
    if (!best) {
      samples[i] = 0;
      continue;
    }
    start = best->start_frame * SAMPLES_PER_FRAME;
    if (pos - start < CLICK_SAMPLES) {
      /* the sync click: a loud 2 kHz square burst */
      v = ((pos - start) / 12) % 2 ? 0.8 : -0.8;
    } else {
      freq = 220.0 * (1.0 + 0.25 * ((best->version - 1) % 8));
      v = 0.25 * sin (2.0 * G_PI * freq * (gdouble) (pos % (SVC_AUDIO_RATE *
                  4)) / SVC_AUDIO_RATE);
    }
    samples[i] = (gint16) (v * 32767);
  }
}

static const SvcMediaCallbacks director_media = {
  director_draw,
  director_fill_audio,
  NULL,
};

const SvcAppClass svc_director_class = {
  "director",
  1360,
  768,
  GST_SESSION_DIRECTOR_FPS,
  TRUE,
  &director_media,
  director_create,
  director_channel_open,
  director_message,
  director_invalid,
  director_exhaust,
  director_stall,
  director_error_fault,
  director_describe,
  director_free,
};
