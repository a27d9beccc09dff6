/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessiondirector
 * @title: Director messages
 * @short_description: typed builders of the director client messages
 *
 * Each builder validates against the contract (spec 000) and returns the
 * JSON text to send, or %NULL with a #GError naming the field and the rule;
 * nothing is to be sent then. No director client message allows properties
 * other than its own.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "director.h"
#include "build-private.h"

/**
 * gst_session_director_config_init:
 * @config: (out caller-allocates): the settings to initialise
 *
 * Sets every optional setting to "leave out" and the prompt version to 1.
 */
void
gst_session_director_config_init (GstSessionDirectorConfig * config)
{
  memset (config, 0, sizeof (*config));
  config->prompt_version = 1;
  config->enable_safety_checker = -1;
}

/**
 * gst_session_director_build_configure:
 * @config: the settings
 * @error: return location for a #GError
 *
 * Builds `configure`. Settings left out take the service's defaults.
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_director_build_configure (const GstSessionDirectorConfig * config,
    GError ** error)
{
  GstStructure *s;

  g_return_val_if_fail (config != NULL, NULL);

  if (!check_utf8 ("configure", "prompt", config->prompt, error) ||
      !check_utf8 ("configure", "resolution", config->resolution, error) ||
      !check_utf8 ("configure", "aspect_ratio", config->aspect_ratio, error) ||
      !check_utf8 ("configure", "acceleration", config->acceleration, error))
    return NULL;
  s = gst_structure_new ("configure",
      "prompt_version", G_TYPE_INT64, config->prompt_version,
      "prompt", G_TYPE_STRING, config->prompt, NULL);
  if (config->memory != 0)
    gst_structure_set (s, "memory", G_TYPE_INT, config->memory, NULL);
  if (config->has_seed)
    gst_structure_set (s, "seed", G_TYPE_INT64, config->seed, NULL);
  if (config->resolution)
    gst_structure_set (s, "resolution", G_TYPE_STRING, config->resolution,
        NULL);
  if (config->aspect_ratio)
    gst_structure_set (s, "aspect_ratio", G_TYPE_STRING, config->aspect_ratio,
        NULL);
  if (config->chunk_duration != 0)
    gst_structure_set (s, "chunk_duration", G_TYPE_INT,
        config->chunk_duration, NULL);
  if (config->acceleration)
    gst_structure_set (s, "acceleration", G_TYPE_STRING, config->acceleration,
        NULL);
  if (config->enable_safety_checker >= 0)
    gst_structure_set (s, "enable_safety_checker", G_TYPE_BOOLEAN,
        config->enable_safety_checker != 0, NULL);
  return build_and_free (GST_SESSION_APP_DIRECTOR, s, error);
}

/**
 * gst_session_director_build_prompt:
 * @prompt_version: the version, at least 1 and above every version sent
 *   before in the session (the service refuses a stale one)
 * @prompt: the prompt, 1 to 50000 characters
 * @error: return location for a #GError
 *
 * Builds `prompt`.
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_director_build_prompt (gint64 prompt_version,
    const gchar * prompt, GError ** error)
{
  if (!check_utf8 ("prompt", "prompt", prompt, error))
    return NULL;
  return build_and_free (GST_SESSION_APP_DIRECTOR,
      gst_structure_new ("prompt", "prompt_version", G_TYPE_INT64,
          prompt_version, "prompt", G_TYPE_STRING, prompt, NULL), error);
}

/**
 * gst_session_director_build_ping:
 * @ts: a client timestamp, echoed back as `client_ts` in the pong
 * @error: return location for a #GError
 *
 * Builds `ping`.
 *
 * Returns: (transfer full) (nullable): the JSON text, or %NULL on error.
 */
gchar *
gst_session_director_build_ping (gdouble ts, GError ** error)
{
  return build_and_free (GST_SESSION_APP_DIRECTOR,
      gst_structure_new ("ping", "ts", G_TYPE_DOUBLE, ts, NULL), error);
}

/**
 * gst_session_director_build_stop:
 * @error: return location for a #GError
 *
 * Builds `stop`.
 *
 * Returns: (transfer full) (nullable): the JSON text.
 */
gchar *
gst_session_director_build_stop (GError ** error)
{
  return build_and_free (GST_SESSION_APP_DIRECTOR,
      gst_structure_new_empty ("stop"), error);
}
