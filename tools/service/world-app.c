/* gst-session-service: the world app
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A camera walks over a tiled floor: forward/backward/left/right move it,
 * look_* turn it; the overlay shows the world (preset or image), the
 * prompt, the held commands and the block and frame counters. A default
 * world starts without any message (DESIGN §8); stats leave once per block
 * of frames; stream_exhausted after max_blocks.
 *
 * Locks: SvcWorld.scene_lock ("scene lock") protects the scene fields
 * (camera, commands, texts, palette, counters) shared with the streaming
 * threads. A leaf lock: no other lock and no call out while held.
 */

#include <math.h>
#include <string.h>

#include "session.h"
#include "render.h"
#include "msg.h"

#define MOVE_SPEED 3.0          /* units per second */
#define TURN_SPEED (50.0 * G_PI / 180.0)        /* radians per second */
#define PITCH_SPEED (30.0 * G_PI / 180.0)
#define PITCH_MAX (35.0 * G_PI / 180.0)
#define IMPULSE_SECONDS 0.25    /* an activated command acts this long */
#define DEFAULT_PRESET "example"

typedef struct
{
  const gchar *name;
  const gchar *prompt;
} PresetPrompt;

static const PresetPrompt preset_prompts[] = {
  {"example", "A quiet checkered plaza under an open blue sky"},
  {"desert-valley", "A wide desert valley of warm sand under a pale sky"},
  {"alpine-meadow", "A green alpine meadow below snowy peaks"},
  {"forest-stream", "A shaded forest floor along a slow stream"},
  {"landscape", "A rolling landscape of fields and low hills"},
};

typedef struct
{
  SvcSession *session;
  const SvcConfig *config;
  GMutex scene_lock;

  /* scene lock */
  gdouble x, z, yaw, pitch;
  guint held;
  guint impulse;
  gdouble impulse_left;
  gchar *prompt;
  gchar *world_name;
  gboolean is_image;
  SvcPalette palette;
  guint64 frames;
  gint64 block_started_us;

  /* main thread */
  gboolean configured;
  gboolean ended;
  gint64 blocks;
} SvcWorld;

typedef struct
{
  SvcWorld *world;
  gint64 block_index;
  gdouble block_seconds;
} BlockDone;

static const gchar *
preset_prompt (const gchar * name)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (preset_prompts); i++)
    if (g_strcmp0 (preset_prompts[i].name, name) == 0)
      return preset_prompts[i].prompt;
  return NULL;
}

/* Sets the world: the image wins over the preset; the prompt replaces the
 * world's description when given. Scene lock held. */
static void
set_world (SvcWorld * w, const gchar * preset, const gchar * image_url,
    const gchar * prompt)
{
  const gchar *name = image_url ? image_url : preset ? preset : DEFAULT_PRESET;
  const gchar *description = prompt;

  if (!description)
    description = image_url ? "A world grown from the given image" :
        preset_prompt (name);
  if (!description)
    description = "A world of its own";
  g_free (w->world_name);
  g_free (w->prompt);
  w->world_name = g_strdup (name);
  w->is_image = image_url != NULL;
  w->prompt = g_strdup (description);
  svc_palette_for_name (name, &w->palette);
}

static void
reset_camera (SvcWorld * w)
{
  w->x = w->z = w->yaw = w->pitch = 0;
  w->held = w->impulse = 0;
  w->impulse_left = 0;
}

static gpointer
world_create (SvcSession * session)
{
  SvcWorld *w = g_new0 (SvcWorld, 1);

  w->session = session;
  w->config = svc_session_get_config (session);
  g_mutex_init (&w->scene_lock);
  set_world (w, NULL, NULL, NULL);
  reset_camera (w);
  w->block_started_us = g_get_monotonic_time ();
  return w;
}

static void
world_free (gpointer app)
{
  SvcWorld *w = app;

  g_free (w->prompt);
  g_free (w->world_name);
  g_mutex_clear (&w->scene_lock);
  g_free (w);
}

/* ---------------------------------------------------------------- *
 * messages out
 * ---------------------------------------------------------------- */

static void
send_simple (SvcWorld * w, const gchar * type)
{
  svc_session_send (w->session, gst_structure_new_empty (type));
}

static void
send_error (SvcWorld * w, const gchar * text)
{
  svc_session_send (w->session, gst_structure_new ("error", "error",
          G_TYPE_STRING, text, "retryable", G_TYPE_BOOLEAN, FALSE, NULL));
}

static void
world_finish (SvcWorld * w)
{
  if (w->ended)
    return;
  w->ended = TRUE;
  send_simple (w, "stream_exhausted");
  svc_session_end (w->session);
}

static GstStructure *
session_info (SvcWorld * w)
{
  GstStructure *s = gst_structure_new ("session_info",
      "model_id", G_TYPE_STRING, "gst-session-reference-world",
      "model_revision", G_TYPE_STRING, PACKAGE_VERSION,
      "frames_per_second", G_TYPE_DOUBLE,
      (gdouble) GST_SESSION_WORLD_FPS_N / GST_SESSION_WORLD_FPS_D,
      "frames_per_block", G_TYPE_INT64, w->config->world_frames_per_block,
      "max_blocks", G_TYPE_INT64, w->config->world_max_blocks,
      "default_prompt", G_TYPE_STRING, preset_prompt (DEFAULT_PRESET),
      "turn", G_TYPE_BOOLEAN, FALSE,
      "turn_status", G_TYPE_STRING, "disabled", NULL);
  const gchar *const *names = gst_session_world_command_names ();
  const gchar *const *presets = gst_session_world_preset_names ();
  GPtrArray *list = g_ptr_array_new ();
  GValue array = G_VALUE_INIT;
  guint grouped = 0, i;
  const SvcFaults *faults = svc_session_get_faults (w->session);
  gint64 width = GST_SESSION_WORLD_WIDTH, height = GST_SESSION_WORLD_HEIGHT;

  /* fault: another resolution than the video's, announced only */
  if (faults->announce_width > 0) {
    GST_INFO ("world: announcing %dx%d (fault)", faults->announce_width,
        faults->announce_height);
    width = faults->announce_width;
    height = faults->announce_height;
  }
  svc_msg_take_structure (s, "resolution", gst_structure_new ("resolution",
          "width", G_TYPE_INT64, width, "height", G_TYPE_INT64, height, NULL));
  svc_msg_set_strv (s, "key_order", names);

  /* conflict groups in the order of the commands */
  g_value_init (&array, GST_TYPE_ARRAY);
  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    guint command = 1 << i;
    guint group = command | gst_session_world_command_conflicts (command);
    gchar **members;
    GValue item = G_VALUE_INIT;

    if (grouped & command)
      continue;
    grouped |= group;
    members = gst_session_world_commands_to_strv (group);
    svc_msg_value_init_strv (&item, (const gchar * const *) members);
    gst_value_array_append_and_take_value (&array, &item);
    g_strfreev (members);
  }
  gst_structure_take_value (s, "conflict_groups", &array);

  for (i = 0; presets && presets[i]; i++) {
    const gchar *prompt = preset_prompt (presets[i]);

    g_ptr_array_add (list, gst_structure_new ("presets", "name",
            G_TYPE_STRING, presets[i], "prompt", G_TYPE_STRING,
            prompt ? prompt : presets[i], NULL));
  }
  svc_msg_take_structures (s, "presets", list);
  return s;
}

static void
world_channel_open (gpointer app)
{
  SvcWorld *w = app;

  svc_session_send (w->session, session_info (w));
}

/* ---------------------------------------------------------------- *
 * messages in
 * ---------------------------------------------------------------- */

static guint
commands_from_strv (gchar ** names)
{
  guint set = 0, i;

  for (i = 0; names && names[i]; i++) {
    GstSessionWorldCommand command;

    if (gst_session_world_command_from_string (names[i], &command))
      set |= command;
  }
  return set;
}

/* deprecated keys: common key names to commands */
static guint
commands_from_keys (gchar ** keys)
{
  static const struct
  {
    const gchar *key;
    GstSessionWorldCommand command;
  } map[] = {
    {"w", GST_SESSION_WORLD_COMMAND_FORWARD},
    {"keyw", GST_SESSION_WORLD_COMMAND_FORWARD},
    {"s", GST_SESSION_WORLD_COMMAND_BACKWARD},
    {"keys", GST_SESSION_WORLD_COMMAND_BACKWARD},
    {"a", GST_SESSION_WORLD_COMMAND_LEFT},
    {"keya", GST_SESSION_WORLD_COMMAND_LEFT},
    {"d", GST_SESSION_WORLD_COMMAND_RIGHT},
    {"keyd", GST_SESSION_WORLD_COMMAND_RIGHT},
    {"arrowup", GST_SESSION_WORLD_COMMAND_LOOK_UP},
    {"up", GST_SESSION_WORLD_COMMAND_LOOK_UP},
    {"arrowdown", GST_SESSION_WORLD_COMMAND_LOOK_DOWN},
    {"down", GST_SESSION_WORLD_COMMAND_LOOK_DOWN},
    {"arrowleft", GST_SESSION_WORLD_COMMAND_LOOK_LEFT},
    {"left", GST_SESSION_WORLD_COMMAND_LOOK_LEFT},
    {"arrowright", GST_SESSION_WORLD_COMMAND_LOOK_RIGHT},
    {"right", GST_SESSION_WORLD_COMMAND_LOOK_RIGHT},
  };
  guint set = 0, i, k;

  for (i = 0; keys && keys[i]; i++) {
    gchar *lower = g_ascii_strdown (keys[i], -1);

    for (k = 0; k < G_N_ELEMENTS (map); k++)
      if (g_str_equal (lower, map[k].key))
        set |= map[k].command;
    g_free (lower);
  }
  return set;
}

static void
set_commands (SvcWorld * w, guint held, guint activated)
{
  g_mutex_lock (&w->scene_lock);
  w->held = held;
  if (activated) {
    w->impulse = activated;
    w->impulse_left = IMPULSE_SECONDS;
  }
  g_mutex_unlock (&w->scene_lock);
}

static void
handle_ping (SvcWorld * w, const GstStructure * in)
{
  GstStructure *s = gst_structure_new_empty ("pong");
  gdouble ts;
  gboolean has_ts = svc_msg_get_number (in, "ts", &ts);
  const gchar *field = w->config->pong_fallback ? "client_ts" : "ts";

  gst_structure_set (s, "server_ts", G_TYPE_DOUBLE,
      g_get_monotonic_time () / 1e6, NULL);
  if (has_ts)
    gst_structure_set (s, field, G_TYPE_DOUBLE, ts, NULL);
  else
    svc_msg_set_null (s, field);
  svc_session_send (w->session, s);
}

static void
world_message (gpointer app, const GstSessionMessage * message)
{
  SvcWorld *w = app;
  const gchar *type = gst_session_message_get_type_name (message);
  const GstStructure *in = gst_session_message_get_structure (message);

  if (w->ended)
    return;

  if (g_str_equal (type, "configure")) {
    if (w->configured) {
      send_error (w, "configure is accepted once per session; use reset "
          "to restart with another world");
      return;
    }
    w->configured = TRUE;
    g_mutex_lock (&w->scene_lock);
    set_world (w, gst_structure_get_string (in, "preset"),
        gst_structure_get_string (in, "image_url"),
        gst_structure_get_string (in, "prompt"));
    reset_camera (w);
    g_mutex_unlock (&w->scene_lock);
    send_simple (w, "configured");
  } else if (g_str_equal (type, "prompt")) {
    g_mutex_lock (&w->scene_lock);
    g_free (w->prompt);
    w->prompt = g_strdup (gst_structure_get_string (in, "prompt"));
    g_mutex_unlock (&w->scene_lock);
    send_simple (w, "prompt_applied");
  } else if (g_str_equal (type, "reset")) {
    g_mutex_lock (&w->scene_lock);
    set_world (w, gst_structure_get_string (in, "preset"),
        gst_structure_get_string (in, "image_url"),
        gst_structure_get_string (in, "prompt"));
    reset_camera (w);
    g_mutex_unlock (&w->scene_lock);
    send_simple (w, "reset_applied");
  } else if (g_str_equal (type, "stop")) {
    world_finish (w);
  } else if (g_str_equal (type, "commands")) {
    gchar **active = svc_msg_get_strv (in, "active");
    gchar **activated = svc_msg_get_strv (in, "activated");

    set_commands (w, commands_from_strv (active),
        commands_from_strv (activated));
    g_strfreev (active);
    g_strfreev (activated);
  } else if (g_str_equal (type, "keys")) {
    gchar **pressed = svc_msg_get_strv (in, "pressed");
    gchar **activated = svc_msg_get_strv (in, "activated");

    set_commands (w, commands_from_keys (pressed),
        commands_from_keys (activated));
    g_strfreev (pressed);
    g_strfreev (activated);
  } else if (g_str_equal (type, "ping")) {
    handle_ping (w, in);
  } else {
    gchar *text = g_strdup_printf ("the world does not handle '%s'", type);

    send_error (w, text);
    g_free (text);
  }
}

static void
world_invalid (gpointer app, const gchar * text)
{
  SvcWorld *w = app;

  if (!w->ended)
    send_error (w, text);
}

/* ---------------------------------------------------------------- *
 * faults
 * ---------------------------------------------------------------- */

static void
world_exhaust (gpointer app)
{
  world_finish (app);
}

static void
world_stall (gpointer app, gdouble seconds)
{
  SvcWorld *w = app;
  SvcMedia *media = svc_session_get_media (w->session);
  GstClockTime now = svc_media_get_running_time (media);

  if (!GST_CLOCK_TIME_IS_VALID (now))
    return;
  GST_INFO ("world: stalling the media for %.2f s (fault)", seconds);
  svc_media_stall (media, now, now + (GstClockTime) (seconds * GST_SECOND));
}

static void
world_error_fault (gpointer app, const gchar * code)
{
  SvcWorld *w = app;
  gchar *text = g_strdup_printf ("injected fault: %s", code);

  send_error (w, text);
  g_free (text);
}

static void
world_describe (gpointer app, JsonBuilder * b)
{
  SvcWorld *w = app;
  gchar *held;

  g_mutex_lock (&w->scene_lock);
  held = gst_session_world_commands_to_string (w->held);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "x");
  json_builder_add_double_value (b, w->x);
  json_builder_set_member_name (b, "z");
  json_builder_add_double_value (b, w->z);
  json_builder_set_member_name (b, "yaw_degrees");
  json_builder_add_double_value (b, w->yaw * 180.0 / G_PI);
  json_builder_set_member_name (b, "pitch_degrees");
  json_builder_add_double_value (b, w->pitch * 180.0 / G_PI);
  json_builder_set_member_name (b, "held");
  json_builder_add_string_value (b, held ? held : "");
  json_builder_set_member_name (b, "world");
  json_builder_add_string_value (b, w->world_name);
  json_builder_set_member_name (b, "prompt");
  json_builder_add_string_value (b, w->prompt);
  json_builder_set_member_name (b, "frames");
  json_builder_add_int_value (b, w->frames);
  g_mutex_unlock (&w->scene_lock);
  json_builder_set_member_name (b, "blocks");
  json_builder_add_int_value (b, w->blocks);
  json_builder_set_member_name (b, "configured");
  json_builder_add_boolean_value (b, w->configured);
  json_builder_end_object (b);
  g_free (held);
}

/* ---------------------------------------------------------------- *
 * media (streaming threads)
 * ---------------------------------------------------------------- */

static gdouble
axis (guint set, guint plus, guint minus)
{
  return ((set & plus) ? 1.0 : 0.0) - ((set & minus) ? 1.0 : 0.0);
}

/* One frame of motion. Scene lock held. */
static void
step_camera (SvcWorld * w, gdouble dt)
{
  guint set = w->held;
  gdouble forward, strafe, turn, look;

  if (w->impulse_left > 0) {
    set |= w->impulse;
    w->impulse_left -= dt;
  }
  forward = axis (set, GST_SESSION_WORLD_COMMAND_FORWARD,
      GST_SESSION_WORLD_COMMAND_BACKWARD);
  strafe = axis (set, GST_SESSION_WORLD_COMMAND_RIGHT,
      GST_SESSION_WORLD_COMMAND_LEFT);
  turn = axis (set, GST_SESSION_WORLD_COMMAND_LOOK_RIGHT,
      GST_SESSION_WORLD_COMMAND_LOOK_LEFT);
  look = axis (set, GST_SESSION_WORLD_COMMAND_LOOK_UP,
      GST_SESSION_WORLD_COMMAND_LOOK_DOWN);

  w->yaw = remainder (w->yaw + turn * TURN_SPEED * dt, 2.0 * G_PI);
  w->pitch = CLAMP (w->pitch + look * PITCH_SPEED * dt, -PITCH_MAX, PITCH_MAX);
  w->x += (forward * sin (w->yaw) + strafe * cos (w->yaw)) * MOVE_SPEED * dt;
  w->z += (forward * cos (w->yaw) - strafe * sin (w->yaw)) * MOVE_SPEED * dt;
}

static void
world_draw (gpointer user_data, GstVideoFrame * frame, guint64 index,
    GstClockTime pts, gchar ** text)
{
  SvcWorld *w = user_data;
  SvcWorldView view;
  SvcPalette palette;
  gchar *held, *prompt;

  g_mutex_lock (&w->scene_lock);
  palette = w->palette;
  view.x = w->x;
  view.z = w->z;
  view.yaw = w->yaw;
  view.pitch = w->pitch;
  view.palette = &palette;
  held = gst_session_world_commands_to_string (w->held | (w->impulse_left >
          0 ? w->impulse : 0));
  prompt = g_utf8_substring (w->prompt, 0, MIN (g_utf8_strlen (w->prompt,
              -1), 120));
  *text = g_strdup_printf ("%s: %s\nprompt: %s\ncommands: %s\n"
      "block %" G_GUINT64_FORMAT "  frame %" G_GUINT64_FORMAT
      "  x %.1f  z %.1f  yaw %.0f  pitch %.0f",
      w->is_image ? "image" : "preset", w->world_name, prompt,
      held && held[0] ? held : "none",
      w->frames / w->config->world_frames_per_block, w->frames, w->x, w->z,
      w->yaw * 180.0 / G_PI, w->pitch * 180.0 / G_PI);
  g_mutex_unlock (&w->scene_lock);
  g_free (held);
  g_free (prompt);

  svc_render_world (frame, &view);
}

static gboolean
block_done (gpointer data)
{
  BlockDone *d = data;
  SvcWorld *w = d->world;
  gdouble fps;
  GstStructure *s;

  if (w->ended)
    return G_SOURCE_REMOVE;
  fps = d->block_seconds > 0 ?
      w->config->world_frames_per_block / d->block_seconds : 0;
  s = gst_structure_new ("stats",
      "block_index", G_TYPE_INT64, d->block_index,
      "block_seconds", G_TYPE_DOUBLE, d->block_seconds,
      "generation_fps", G_TYPE_DOUBLE, fps,
      "gpu_wait_frac", G_TYPE_DOUBLE, 0.0,
      "queue_age_ms_p50", G_TYPE_DOUBLE, 1000.0 / GST_SESSION_WORLD_FPS_N,
      "queue_age_ms_max", G_TYPE_DOUBLE, 2000.0 / GST_SESSION_WORLD_FPS_N,
      "pace_sleep_ms_avg", G_TYPE_DOUBLE, 0.0,
      "queue_depth", G_TYPE_INT64, (gint64) 0, NULL);
  svc_session_send (w->session, s);
  w->blocks = d->block_index + 1;
  if (w->blocks >= w->config->world_max_blocks) {
    GST_INFO ("world: %" G_GINT64_FORMAT " blocks, the stream is exhausted",
        w->blocks);
    world_finish (w);
  }
  return G_SOURCE_REMOVE;
}

static void
world_frame_sent (gpointer user_data, guint64 index, GstClockTime pts)
{
  SvcWorld *w = user_data;
  gint64 fpb = w->config->world_frames_per_block;
  BlockDone *d = NULL;

  g_mutex_lock (&w->scene_lock);
  step_camera (w, 1.0 / GST_SESSION_WORLD_FPS_N);
  w->frames++;
  if (w->frames % fpb == 0) {
    gint64 now = g_get_monotonic_time ();

    d = g_new0 (BlockDone, 1);
    d->world = w;
    d->block_index = w->frames / fpb - 1;
    d->block_seconds = (now - w->block_started_us) / 1e6;
    w->block_started_us = now;
  }
  g_mutex_unlock (&w->scene_lock);

  if (d)
    svc_session_post (w->session, block_done, d, g_free);
}

static const SvcMediaCallbacks world_media = {
  world_draw,
  NULL,
  world_frame_sent,
};

const SvcAppClass svc_world_class = {
  "world",
  GST_SESSION_WORLD_WIDTH,
  GST_SESSION_WORLD_HEIGHT,
  GST_SESSION_WORLD_FPS_N / GST_SESSION_WORLD_FPS_D,
  FALSE,
  &world_media,
  world_create,
  world_channel_open,
  world_message,
  world_invalid,
  world_exhaust,
  world_stall,
  world_error_fault,
  world_describe,
  world_free,
};
