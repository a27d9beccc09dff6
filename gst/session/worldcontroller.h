/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_WORLD_CONTROLLER_H__
#define __GST_SESSION_WORLD_CONTROLLER_H__

#include <gst/session/controlevent.h>
#include <gst/session/profile.h>

G_BEGIN_DECLS

/**
 * GstSessionWorldController:
 *
 * The control logic of one world session stream, with no GStreamer element
 * in it: it validates controls, sequences them as the world profile of
 * spec 000 says (configure once and before anything else, acknowledged by
 * `configured`; prompt and reset serial, each acknowledged; a commands
 * report on every change, with `activated` accumulated while nothing may be
 * sent), and reads service messages. It outputs #GstSessionControlEvent s,
 * taken with gst_session_world_controller_take_events().
 *
 * Not thread-safe: the caller serialises calls (the element holds its
 * controller lock around each call and acts on the events after
 * unlocking).
 */
typedef struct _GstSessionWorldController GstSessionWorldController;

/**
 * GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED:
 *
 * How many prompts and resets may wait for their turn: behind the one
 * awaiting its `prompt_applied` or `reset_applied`, or behind `configure`
 * until `configured`. While that many wait, a reset is refused
 * (%GST_SESSION_ERROR_INVALID_ARGUMENT, nothing sent, the setup left as it
 * was), and so is a prompt unless the last one waiting is a prompt, which
 * it replaces as always. A service that never acknowledges cannot make
 * the element's memory grow without bound: 64 requests of a few KiB each
 * at most (a 2000-character prompt, a 4096-character image URL). Coalescing keeps a
 * steering application far below it: only resets and prompts alternating
 * queue up, and 64 of them is a minute of one every second while nothing
 * is acknowledged.
 */
#define GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED 64

GST_SESSION_API
GstSessionWorldController * gst_session_world_controller_new (void);

GST_SESSION_API
void gst_session_world_controller_free (GstSessionWorldController * ctrl);

GST_SESSION_API
gboolean gst_session_world_controller_set_setup (GstSessionWorldController * ctrl,
    const gchar * preset, const gchar * image_url, const gchar * prompt,
    GError ** error);

GST_SESSION_API
void gst_session_world_controller_channel_open (GstSessionWorldController * ctrl);

GST_SESSION_API
void gst_session_world_controller_channel_closed (GstSessionWorldController * ctrl);

GST_SESSION_API
gboolean gst_session_world_controller_set_prompt (GstSessionWorldController * ctrl,
    const gchar * prompt, GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_reset (GstSessionWorldController * ctrl,
    const gchar * preset, const gchar * image_url, const gchar * prompt,
    GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_set_commands (GstSessionWorldController * ctrl,
    guint held, GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_press (GstSessionWorldController * ctrl,
    guint commands, GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_release (GstSessionWorldController * ctrl,
    guint commands, GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_activate (GstSessionWorldController * ctrl,
    guint commands, GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_send_keys (GstSessionWorldController * ctrl,
    const gchar * const * pressed, const gchar * const * activated,
    GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_probe (GstSessionWorldController * ctrl);

GST_SESSION_API
gboolean gst_session_world_controller_ping (GstSessionWorldController * ctrl,
    GError ** error);

GST_SESSION_API
gboolean gst_session_world_controller_stop (GstSessionWorldController * ctrl,
    GError ** error);

GST_SESSION_API
void gst_session_world_controller_receive (GstSessionWorldController * ctrl,
    const gchar * text, gssize length);

GST_SESSION_API
GQueue * gst_session_world_controller_take_events (GstSessionWorldController * ctrl);

GST_SESSION_API
const gchar * gst_session_world_controller_get_preset (GstSessionWorldController * ctrl);

GST_SESSION_API
const gchar * gst_session_world_controller_get_image_url (GstSessionWorldController * ctrl);

GST_SESSION_API
const gchar * gst_session_world_controller_get_prompt (GstSessionWorldController * ctrl);

GST_SESSION_API
guint gst_session_world_controller_get_held (GstSessionWorldController * ctrl);

GST_SESSION_API
gboolean gst_session_world_controller_is_ready (GstSessionWorldController * ctrl);

GST_SESSION_API
guint gst_session_world_controller_get_pending (GstSessionWorldController * ctrl);

GST_SESSION_API
GstStructure * gst_session_world_controller_get_session_info (GstSessionWorldController * ctrl);

GST_SESSION_API
GstStructure * gst_session_world_controller_get_stats (GstSessionWorldController * ctrl);

GST_SESSION_API
gdouble gst_session_world_controller_get_last_rtt (GstSessionWorldController * ctrl);

G_END_DECLS

#endif /* __GST_SESSION_WORLD_CONTROLLER_H__ */
