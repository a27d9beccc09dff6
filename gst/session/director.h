/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_DIRECTOR_H__
#define __GST_SESSION_DIRECTOR_H__

#include <gst/session/message.h>

G_BEGIN_DECLS

/**
 * GstSessionDirectorConfig:
 * @prompt_version: version of @prompt, at least 1.
 * @prompt: the first prompt, 1 to 50000 characters.
 * @memory: 1 to 50, or 0 to leave it out (service default 12).
 * @has_seed: whether @seed is sent.
 * @seed: the seed, sent when @has_seed is set.
 * @resolution: `480p` or `768p`, or %NULL to leave it out.
 * @aspect_ratio: `16:9`, `9:16` or `1:1`, or %NULL to leave it out.
 * @chunk_duration: 5 to 15 seconds, or 0 to leave it out.
 * @acceleration: `none` or `regular`, or %NULL to leave it out.
 * @enable_safety_checker: -1 to leave it out, else 0 (false) or 1 (true).
 *
 * The settings of a director `configure` message. Initialise it with
 * gst_session_director_config_init(). @chunk_duration, @acceleration and
 * @enable_safety_checker are not in the configure schema of spec 000 (which
 * forbids other properties) but are in its sample payloads: they are sent
 * only when set (see docs/protocol.md).
 */
typedef struct {
  gint64 prompt_version;
  const gchar *prompt;
  gint memory;
  gboolean has_seed;
  gint64 seed;
  const gchar *resolution;
  const gchar *aspect_ratio;
  gint chunk_duration;
  const gchar *acceleration;
  gint enable_safety_checker;
} GstSessionDirectorConfig;

GST_SESSION_API
void gst_session_director_config_init (GstSessionDirectorConfig * config);

GST_SESSION_API
gchar * gst_session_director_build_configure (const GstSessionDirectorConfig * config,
    GError ** error);

GST_SESSION_API
gchar * gst_session_director_build_prompt (gint64 prompt_version,
    const gchar * prompt, GError ** error);

GST_SESSION_API
gchar * gst_session_director_build_ping (gdouble ts, GError ** error);

GST_SESSION_API
gchar * gst_session_director_build_stop (GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_DIRECTOR_H__ */
