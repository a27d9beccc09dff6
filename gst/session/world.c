/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionworld
 * @title: World messages
 * @short_description: typed builders of the world client messages
 *
 * Each builder validates against the contract (spec 000) and returns the
 * JSON text to send, or %NULL with a #GError naming the field and the rule;
 * nothing is to be sent then.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "world.h"
#include "build-private.h"

static gchar *
build_world (GstStructure * s, GError ** error)
{
  if (s == NULL)
    return NULL;
  return build_and_free (GST_SESSION_APP_WORLD, s, error);
}

static GstStructure *
world_start (const gchar * type, const gchar * preset,
    const gchar * image_url, const gchar * prompt, GError ** error)
{
  GstStructure *s;

  if (!check_utf8 (type, "preset", preset, error) ||
      !check_utf8 (type, "image_url", image_url, error) ||
      !check_utf8 (type, "prompt", prompt, error))
    return NULL;
  s = gst_structure_new_empty (type);

  if (preset)
    gst_structure_set (s, "preset", G_TYPE_STRING, preset, NULL);
  if (image_url)
    gst_structure_set (s, "image_url", G_TYPE_STRING, image_url, NULL);
  if (prompt)
    gst_structure_set (s, "prompt", G_TYPE_STRING, prompt, NULL);
  return s;
}

/**
 * gst_session_world_build_configure:
 * @preset: (nullable): a built-in world, at most 100 characters
 * @image_url: (nullable): a starting image, at most 4096 characters; wins
 *   over @preset at the service
 * @prompt: (nullable): a description, at most 2000 characters
 * @error: return location for a #GError
 *
 * Builds `configure`, sent at most once per session, before other controls.
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_world_build_configure (const gchar * preset,
    const gchar * image_url, const gchar * prompt, GError ** error)
{
  return build_world (world_start ("configure", preset, image_url, prompt,
          error), error);
}

/**
 * gst_session_world_build_prompt:
 * @prompt: the new description, 1 to 2000 characters
 * @error: return location for a #GError
 *
 * Builds `prompt` (acknowledged by `prompt_applied`).
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_world_build_prompt (const gchar * prompt, GError ** error)
{
  GstStructure *s;

  if (!check_utf8 ("prompt", "prompt", prompt, error))
    return NULL;
  /* a NULL prompt is sent to the validator as null, which it refuses */
  s = gst_structure_new_empty ("prompt");
  gst_structure_set (s, "prompt", G_TYPE_STRING, prompt, NULL);
  return build_world (s, error);
}

/**
 * gst_session_world_build_reset:
 * @preset: (nullable): a built-in world, at most 100 characters
 * @image_url: (nullable): a starting image, at most 4096 characters
 * @prompt: (nullable): a description, at most 2000 characters
 * @error: return location for a #GError
 *
 * Builds `reset` (acknowledged by `reset_applied`).
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_world_build_reset (const gchar * preset, const gchar * image_url,
    const gchar * prompt, GError ** error)
{
  return build_world (world_start ("reset", preset, image_url, prompt,
          error), error);
}

/**
 * gst_session_world_build_stop:
 * @error: return location for a #GError
 *
 * Builds `stop`.
 *
 * Returns: (transfer full) (nullable): the JSON text.
 */
gchar *
gst_session_world_build_stop (GError ** error)
{
  return build_world (gst_structure_new_empty ("stop"), error);
}

static GstStructure *
two_lists (const gchar * type, const gchar * first_name,
    const gchar * const *first, const gchar * second_name,
    const gchar * const *second)
{
  GstStructure *s = gst_structure_new_empty (type);

  if (first)
    gst_structure_set (s, first_name, G_TYPE_STRV, first, NULL);
  if (second)
    gst_structure_set (s, second_name, G_TYPE_STRV, second, NULL);
  return s;
}

/**
 * gst_session_world_build_commands:
 * @active: (nullable) (array zero-terminated=1): commands held now, at
 *   most 8, none conflicting
 * @activated: (nullable) (array zero-terminated=1): edge-triggered commands
 *   since the previous report, at most 8, none conflicting
 * @error: return location for a #GError
 *
 * Builds `commands`. Values are the eight command names of
 * gst_session_world_command_names(); the conflict groups are enforced
 * within each list.
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_world_build_commands (const gchar * const *active,
    const gchar * const *activated, GError ** error)
{
  return build_world (two_lists ("commands", "active", active, "activated",
          activated), error);
}

/**
 * gst_session_world_build_keys:
 * @pressed: (nullable) (array zero-terminated=1): keys held, at most 32
 * @activated: (nullable) (array zero-terminated=1): keys pressed since the
 *   previous report, at most 32
 * @error: return location for a #GError
 *
 * Builds the legacy `keys` report.
 *
 * Deprecated: the spec keeps `keys` for existing clients only; use
 * gst_session_world_build_commands().
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_world_build_keys (const gchar * const *pressed,
    const gchar * const *activated, GError ** error)
{
  return build_world (two_lists ("keys", "pressed", pressed, "activated",
          activated), error);
}

/**
 * gst_session_world_build_ping:
 * @has_ts: whether to send @ts
 * @ts: a client timestamp echoed back in the pong
 * @error: return location for a #GError
 *
 * Builds `ping`.
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_world_build_ping (gboolean has_ts, gdouble ts, GError ** error)
{
  GstStructure *s = gst_structure_new_empty ("ping");

  if (has_ts)
    gst_structure_set (s, "ts", G_TYPE_DOUBLE, ts, NULL);
  return build_world (s, error);
}
