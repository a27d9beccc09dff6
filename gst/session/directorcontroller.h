/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_DIRECTOR_CONTROLLER_H__
#define __GST_SESSION_DIRECTOR_CONTROLLER_H__

#include <gst/session/controlevent.h>
#include <gst/session/director.h>

G_BEGIN_DECLS

/**
 * GstSessionDirectorController:
 *
 * The control logic of a director stream, with no GStreamer element in it:
 * `configure` at the start of each session from the settings and the
 * latest prompt; prompts versioned (the next version is the last one sent
 * plus one, across renewed sessions too) and held back until `configured`;
 * settings immutable once configured; the service's messages read (applied
 * version, buffer depth, effective settings). Outputs
 * #GstSessionControlEvent s like #GstSessionWorldController.
 *
 * Not thread-safe: the caller serialises calls.
 */
typedef struct _GstSessionDirectorController GstSessionDirectorController;

/**
 * GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING:
 *
 * How many prompts may wait for the session's `configured` (each is sent,
 * in order, when it comes). One more is refused
 * (%GST_SESSION_ERROR_INVALID_ARGUMENT, nothing sent, no version taken,
 * the latest prompt left as it was). A service that never acknowledges
 * `configure` cannot make the element's memory grow without bound: at
 * most 64 prompts of at most 50000 characters each (3 MiB of ASCII
 * text). The service
 * acknowledges `configure` within its configuration timeout, so only an
 * application sending prompts many times a second, or a stuck service,
 * meets the bound.
 */
#define GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING 64

GST_SESSION_API
GstSessionDirectorController * gst_session_director_controller_new (void);

GST_SESSION_API
void gst_session_director_controller_free (GstSessionDirectorController * ctrl);

GST_SESSION_API
gboolean gst_session_director_controller_set_settings (GstSessionDirectorController * ctrl,
    const GstSessionDirectorConfig * settings, GError ** error);

GST_SESSION_API
void gst_session_director_controller_get_settings (GstSessionDirectorController * ctrl,
    GstSessionDirectorConfig * settings);

GST_SESSION_API
gboolean gst_session_director_controller_is_configured (GstSessionDirectorController * ctrl);

GST_SESSION_API
gboolean gst_session_director_controller_set_prompt (GstSessionDirectorController * ctrl,
    const gchar * prompt, gint64 version, GError ** error);

GST_SESSION_API
const gchar * gst_session_director_controller_get_prompt (GstSessionDirectorController * ctrl);

GST_SESSION_API
void gst_session_director_controller_channel_open (GstSessionDirectorController * ctrl);

GST_SESSION_API
void gst_session_director_controller_channel_closed (GstSessionDirectorController * ctrl);

GST_SESSION_API
gboolean gst_session_director_controller_probe (GstSessionDirectorController * ctrl);

GST_SESSION_API
gboolean gst_session_director_controller_ping (GstSessionDirectorController * ctrl,
    GError ** error);

GST_SESSION_API
gboolean gst_session_director_controller_stop (GstSessionDirectorController * ctrl,
    GError ** error);

GST_SESSION_API
void gst_session_director_controller_receive (GstSessionDirectorController * ctrl,
    const gchar * text, gssize length);

GST_SESSION_API
GQueue * gst_session_director_controller_take_events (GstSessionDirectorController * ctrl);

GST_SESSION_API
gint64 gst_session_director_controller_get_last_sent_version (GstSessionDirectorController * ctrl);

GST_SESSION_API
gint64 gst_session_director_controller_get_applied_version (GstSessionDirectorController * ctrl);

GST_SESSION_API
gdouble gst_session_director_controller_get_buffer_depth (GstSessionDirectorController * ctrl);

GST_SESSION_API
GstStructure * gst_session_director_controller_get_session_info (GstSessionDirectorController * ctrl);

GST_SESSION_API
GstStructure * gst_session_director_controller_get_configured (GstSessionDirectorController * ctrl);

G_END_DECLS

#endif /* __GST_SESSION_DIRECTOR_CONTROLLER_H__ */
