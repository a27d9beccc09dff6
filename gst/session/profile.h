/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_PROFILE_H__
#define __GST_SESSION_PROFILE_H__

#include <gst/session/session-prelude.h>

G_BEGIN_DECLS

/* World session (spec 000, "World session profile" and "Limits") */
#define GST_SESSION_WORLD_FEATURE            "command-world/1"
#define GST_SESSION_WORLD_PROFILE_VERSION    "0.1"
#define GST_SESSION_WORLD_WIDTH              1280
#define GST_SESSION_WORLD_HEIGHT             704
#define GST_SESSION_WORLD_FPS_N              16
#define GST_SESSION_WORLD_FPS_D              1
#define GST_SESSION_WORLD_PROMPT_MAX         2000
#define GST_SESSION_WORLD_PRESET_MAX         100
#define GST_SESSION_WORLD_IMAGE_URL_MAX      4096
#define GST_SESSION_WORLD_COMMANDS_MAX_ITEMS 8
#define GST_SESSION_WORLD_KEYS_MAX_ITEMS     32
#define GST_SESSION_WORLD_CONFIGURES_PER_SESSION 1

/* Director session */
#define GST_SESSION_DIRECTOR_PROTOCOL_VERSION 1
#define GST_SESSION_DIRECTOR_FPS             24
#define GST_SESSION_DIRECTOR_AUDIO_RATE      32000
#define GST_SESSION_DIRECTOR_WIRE_AUDIO_RATE 48000
#define GST_SESSION_DIRECTOR_PROMPT_MAX      50000
#define GST_SESSION_DIRECTOR_MEMORY_MIN      1
#define GST_SESSION_DIRECTOR_MEMORY_DEFAULT  12
#define GST_SESSION_DIRECTOR_MEMORY_MAX      50
#define GST_SESSION_DIRECTOR_CHUNK_MIN       5
#define GST_SESSION_DIRECTOR_CHUNK_DEFAULT   10
#define GST_SESSION_DIRECTOR_CHUNK_MAX       15
#define GST_SESSION_DIRECTOR_PROMPT_DECK_SIZE 3
#define GST_SESSION_DIRECTOR_CONTEXT_FRAMES  39
#define GST_SESSION_DIRECTOR_CONTINUATION_PLAYBACK_SECONDS 8.5
#define GST_SESSION_DIRECTOR_PROMPT_CONTEXT_SEGMENTS 12
#define GST_SESSION_DIRECTOR_DEFAULT_RESOLUTION "768p"
#define GST_SESSION_DIRECTOR_DEFAULT_ASPECT_RATIO "16:9"
#define GST_SESSION_DIRECTOR_DEFAULT_ACCELERATION "regular"
#define GST_SESSION_DIRECTOR_FREEZE_BEHAVIOR "freeze_video_and_silence_audio_until_ready"

/**
 * GstSessionWorldCommand:
 *
 * The eight semantic commands of the world session, in the order of the
 * spec. Bit values, so a held set fits in a #guint.
 */
typedef enum {
  GST_SESSION_WORLD_COMMAND_FORWARD = (1 << 0),
  GST_SESSION_WORLD_COMMAND_LEFT = (1 << 1),
  GST_SESSION_WORLD_COMMAND_BACKWARD = (1 << 2),
  GST_SESSION_WORLD_COMMAND_RIGHT = (1 << 3),
  GST_SESSION_WORLD_COMMAND_LOOK_UP = (1 << 4),
  GST_SESSION_WORLD_COMMAND_LOOK_LEFT = (1 << 5),
  GST_SESSION_WORLD_COMMAND_LOOK_DOWN = (1 << 6),
  GST_SESSION_WORLD_COMMAND_LOOK_RIGHT = (1 << 7),
} GstSessionWorldCommand;

#define GST_SESSION_WORLD_N_COMMANDS 8
#define GST_SESSION_WORLD_N_CONFLICT_GROUPS 4

GST_SESSION_API
const gchar * const * gst_session_world_command_names (void);

GST_SESSION_API
const gchar * gst_session_world_command_to_string (GstSessionWorldCommand command);

GST_SESSION_API
gboolean gst_session_world_command_from_string (const gchar * name,
    GstSessionWorldCommand * command);

GST_SESSION_API
guint gst_session_world_command_conflicts (GstSessionWorldCommand command);

GST_SESSION_API
gboolean gst_session_world_commands_parse (const gchar * text, guint * set,
    GError ** error);

GST_SESSION_API
gchar * gst_session_world_commands_to_string (guint set);

GST_SESSION_API
gchar ** gst_session_world_commands_to_strv (guint set);

GST_SESSION_API
const gchar * const * gst_session_world_preset_names (void);

/* Director session_info constants */
GST_SESSION_API
const gchar * const * gst_session_director_resolutions (void);

GST_SESSION_API
const gchar * const * gst_session_director_aspect_ratios (void);

GST_SESSION_API
const gchar * const * gst_session_director_accelerations (void);

GST_SESSION_API
const gchar * const * gst_session_director_error_codes (void);

GST_SESSION_API
gboolean gst_session_director_video_size (const gchar * resolution,
    const gchar * aspect_ratio, gint * width, gint * height);

G_END_DECLS

#endif /* __GST_SESSION_PROFILE_H__ */
