/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionprofile
 * @title: Profiles and constants
 * @short_description: the world command set, conflict groups, limits and
 *   the director session constants, in one place
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "profile.h"
#include "sessionerror.h"

/* in the order of the spec, bit i is command_names[i] */
static const gchar *const command_names[] = {
  "forward", "left", "backward", "right",
  "look_up", "look_left", "look_down", "look_right", NULL
};

/* the four conflict groups of spec 000, as bit masks */
static const guint conflict_groups[GST_SESSION_WORLD_N_CONFLICT_GROUPS] = {
  GST_SESSION_WORLD_COMMAND_FORWARD | GST_SESSION_WORLD_COMMAND_BACKWARD,
  GST_SESSION_WORLD_COMMAND_LEFT | GST_SESSION_WORLD_COMMAND_RIGHT,
  GST_SESSION_WORLD_COMMAND_LOOK_UP | GST_SESSION_WORLD_COMMAND_LOOK_DOWN,
  GST_SESSION_WORLD_COMMAND_LOOK_LEFT | GST_SESSION_WORLD_COMMAND_LOOK_RIGHT,
};

static const gchar *const preset_names[] = {
  "example", "desert-valley", "alpine-meadow", "forest-stream", "landscape",
  NULL
};

static const gchar *const resolutions[] = { "480p", "768p", NULL };
static const gchar *const aspect_ratios[] = { "16:9", "9:16", "1:1", NULL };
static const gchar *const accelerations[] = { "none", "regular", NULL };

static const gchar *const error_codes[] = {
  "content_policy", "configuration_timeout", "generation_failed",
  "generation_timeout", "immutable_settings", "initialization_timeout",
  "invalid_initial_image", "invalid_message", "not_configured",
  "stale_prompt_version", NULL
};

/**
 * gst_session_world_command_names:
 *
 * Returns: (transfer none) (array zero-terminated=1): the eight command
 * names, in the order of the spec (bit i of a command set is name i).
 */
const gchar *const *
gst_session_world_command_names (void)
{
  return command_names;
}

/**
 * gst_session_world_command_to_string:
 * @command: one command (a single bit)
 *
 * Returns: (nullable): its name, or %NULL when @command is not one command.
 */
const gchar *
gst_session_world_command_to_string (GstSessionWorldCommand command)
{
  guint i;

  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    if ((guint) command == (1u << i))
      return command_names[i];
  }
  return NULL;
}

/**
 * gst_session_world_command_from_string:
 * @name: a command name such as "look_left"
 * @command: (out): the command
 *
 * Returns: %TRUE when @name is one of the eight commands.
 */
gboolean
gst_session_world_command_from_string (const gchar * name,
    GstSessionWorldCommand * command)
{
  guint i;

  for (i = 0; name && i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    if (strcmp (name, command_names[i]) == 0) {
      *command = 1u << i;
      return TRUE;
    }
  }
  return FALSE;
}

/**
 * gst_session_world_command_conflicts:
 * @command: one command
 *
 * Returns: the set of commands that may not be held with @command (the
 * other member of its conflict group).
 */
guint
gst_session_world_command_conflicts (GstSessionWorldCommand command)
{
  guint i;

  for (i = 0; i < GST_SESSION_WORLD_N_CONFLICT_GROUPS; i++) {
    if (conflict_groups[i] & command)
      return conflict_groups[i] & ~command;
  }
  return 0;
}

/**
 * gst_session_world_commands_parse:
 * @text: commands joined by `+`, `,` or spaces ("forward+look_left"); an
 *   empty string is the empty set
 * @set: (out): the set of commands
 * @error: return location for a #GError
 *
 * Parses a held set as the `commands` property of worldsrc takes it.
 * Unknown names and two members of one conflict group are refused.
 *
 * Returns: %TRUE on success.
 */
gboolean
gst_session_world_commands_parse (const gchar * text, guint * set,
    GError ** error)
{
  gchar **names;
  guint i, result = 0;
  gboolean ok = TRUE;

  g_return_val_if_fail (set != NULL, FALSE);

  names = g_regex_split_simple ("[+, ]+", text ? text : "", 0, 0);
  for (i = 0; ok && names[i]; i++) {
    GstSessionWorldCommand c;

    if (names[i][0] == '\0')
      continue;
    if (!gst_session_world_command_from_string (names[i], &c)) {
      g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
          "commands: \"%s\" is not a command (one of forward, left, "
          "backward, right, look_up, look_left, look_down, look_right)",
          names[i]);
      ok = FALSE;
    } else if (result & gst_session_world_command_conflicts (c)) {
      g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
          "commands: \"%s\" conflicts with \"%s\" (mutually exclusive)",
          names[i], gst_session_world_command_to_string
          (gst_session_world_command_conflicts (c)));
      ok = FALSE;
    } else {
      result |= c;
    }
  }
  g_strfreev (names);
  if (ok)
    *set = result;
  return ok;
}

/**
 * gst_session_world_commands_to_strv:
 * @set: a set of commands
 *
 * Returns: (transfer full) (array zero-terminated=1): the names, in the
 * order of the spec.
 */
gchar **
gst_session_world_commands_to_strv (guint set)
{
  GPtrArray *out = g_ptr_array_new ();
  guint i;

  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    if (set & (1u << i))
      g_ptr_array_add (out, g_strdup (command_names[i]));
  }
  g_ptr_array_add (out, NULL);
  return (gchar **) g_ptr_array_free (out, FALSE);
}

/**
 * gst_session_world_commands_to_string:
 * @set: a set of commands
 *
 * Returns: (transfer full): the names joined by `+` ("" for none), the form
 * gst_session_world_commands_parse() reads.
 */
gchar *
gst_session_world_commands_to_string (guint set)
{
  gchar **names = gst_session_world_commands_to_strv (set);
  gchar *s = g_strjoinv ("+", names);

  g_strfreev (names);
  return s;
}

/**
 * gst_session_world_preset_names:
 *
 * Returns: (transfer none) (array zero-terminated=1): the sample preset
 * names of spec 000 (the service announces its own in `session_info`).
 */
const gchar *const *
gst_session_world_preset_names (void)
{
  return preset_names;
}

/**
 * gst_session_director_resolutions:
 *
 * Returns: (transfer none) (array zero-terminated=1): "480p", "768p".
 */
const gchar *const *
gst_session_director_resolutions (void)
{
  return resolutions;
}

/**
 * gst_session_director_aspect_ratios:
 *
 * Returns: (transfer none) (array zero-terminated=1): "16:9", "9:16", "1:1".
 */
const gchar *const *
gst_session_director_aspect_ratios (void)
{
  return aspect_ratios;
}

/**
 * gst_session_director_accelerations:
 *
 * Returns: (transfer none) (array zero-terminated=1): "none", "regular".
 */
const gchar *const *
gst_session_director_accelerations (void)
{
  return accelerations;
}

/**
 * gst_session_director_error_codes:
 *
 * Returns: (transfer none) (array zero-terminated=1): the ten director
 * error codes of spec 000.
 */
const gchar *const *
gst_session_director_error_codes (void)
{
  return error_codes;
}

/**
 * gst_session_director_video_size:
 * @resolution: (nullable): "480p" or "768p" (%NULL: the default, 768p)
 * @aspect_ratio: (nullable): "16:9", "9:16" or "1:1" (%NULL: 16:9)
 * @width: (out): pixels
 * @height: (out): pixels
 *
 * The pixel size the reference service streams for a resolution and an
 * aspect ratio (spec 000 does not show it; see docs/protocol.md):
 * 768p: 1360x768, 768x1360, 768x768; 480p: 848x480, 480x848, 480x480.
 *
 * Returns: %FALSE when either value is not one of the contract's.
 */
gboolean
gst_session_director_video_size (const gchar * resolution,
    const gchar * aspect_ratio, gint * width, gint * height)
{
  gint short_side, long_side;

  if (resolution == NULL)
    resolution = GST_SESSION_DIRECTOR_DEFAULT_RESOLUTION;
  if (aspect_ratio == NULL)
    aspect_ratio = GST_SESSION_DIRECTOR_DEFAULT_ASPECT_RATIO;

  if (strcmp (resolution, "768p") == 0) {
    short_side = 768;
    long_side = 1360;
  } else if (strcmp (resolution, "480p") == 0) {
    short_side = 480;
    long_side = 848;
  } else {
    return FALSE;
  }

  if (strcmp (aspect_ratio, "16:9") == 0) {
    *width = long_side;
    *height = short_side;
  } else if (strcmp (aspect_ratio, "9:16") == 0) {
    *width = short_side;
    *height = long_side;
  } else if (strcmp (aspect_ratio, "1:1") == 0) {
    *width = *height = short_side;
  } else {
    return FALSE;
  }
  return TRUE;
}
