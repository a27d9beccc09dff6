/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_CONTROLSCRIPT_H__
#define __GST_SESSION_CONTROLSCRIPT_H__

#include <gst/session/session-prelude.h>
#include <gst/session/message.h>

G_BEGIN_DECLS

/**
 * GST_SESSION_CONTROL_SCRIPT_MAX_SIZE:
 *
 * Largest control script, in bytes (1 MiB).
 */
#define GST_SESSION_CONTROL_SCRIPT_MAX_SIZE (1024 * 1024)

/**
 * GST_SESSION_CONTROL_SCRIPT_MAX_LINES:
 *
 * Most lines in a control script, comments and blank lines included (so
 * also the most actions).
 */
#define GST_SESSION_CONTROL_SCRIPT_MAX_LINES 100000

/**
 * GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH:
 *
 * Longest line of a control script, in bytes (256 KiB: a director prompt of
 * 50000 four-byte characters fits).
 */
#define GST_SESSION_CONTROL_SCRIPT_MAX_LINE_LENGTH (256 * 1024)

/**
 * GST_SESSION_CONTROL_SCRIPT_MAX_TIME:
 *
 * Latest time an action may have: 1000000 seconds (about 11.5 days).
 */
#define GST_SESSION_CONTROL_SCRIPT_MAX_TIME (G_GUINT64_CONSTANT (1000000) * GST_SECOND)

/**
 * GST_SESSION_CONTROL_SCRIPT_MAX_VERSION:
 *
 * Largest director prompt version a script may give: 2^53 - 1, the largest
 * integer every JSON reader keeps exactly.
 */
#define GST_SESSION_CONTROL_SCRIPT_MAX_VERSION G_GINT64_CONSTANT (9007199254740991)

/**
 * GstSessionControlActionType:
 * @GST_SESSION_CONTROL_ACTION_PROMPT: send a `prompt` (world: the new scene
 *   description; director: a new prompt version).
 * @GST_SESSION_CONTROL_ACTION_COMMANDS: replace the held command set (world).
 * @GST_SESSION_CONTROL_ACTION_PRESS: start holding one command (world).
 * @GST_SESSION_CONTROL_ACTION_RELEASE: stop holding one command (world).
 * @GST_SESSION_CONTROL_ACTION_ACTIVATE: report one-shot (edge-triggered)
 *   commands (world).
 * @GST_SESSION_CONTROL_ACTION_RESET: restart the world with another preset,
 *   image or prompt (world).
 * @GST_SESSION_CONTROL_ACTION_PING: send a latency probe.
 * @GST_SESSION_CONTROL_ACTION_STOP: end the session.
 *
 * What one line of a control script asks for.
 */
typedef enum {
  GST_SESSION_CONTROL_ACTION_PROMPT,
  GST_SESSION_CONTROL_ACTION_COMMANDS,
  GST_SESSION_CONTROL_ACTION_PRESS,
  GST_SESSION_CONTROL_ACTION_RELEASE,
  GST_SESSION_CONTROL_ACTION_ACTIVATE,
  GST_SESSION_CONTROL_ACTION_RESET,
  GST_SESSION_CONTROL_ACTION_PING,
  GST_SESSION_CONTROL_ACTION_STOP,
} GstSessionControlActionType;

/**
 * GstSessionControlAction:
 * @time: when to act, in running time since the element started playing.
 * @line: the line of the script (1-based), for messages.
 * @type: what to do.
 * @text: `prompt`: the prompt text; `reset`: the prompt, or %NULL when not
 *   given; otherwise %NULL.
 * @commands: `commands`: the new held set; `press`, `release`: the one
 *   command (a #GstSessionWorldCommand); `activate`: the one-shot set;
 *   otherwise 0.
 * @held: the set of commands the script holds after this action (world;
 *   always 0 for the director). The `commands` message of a `commands`,
 *   `press`, `release` or `activate` action carries it as `active`.
 * @preset: `reset`: the preset, or %NULL.
 * @image_url: `reset`: the image URL, or %NULL.
 * @version: director `prompt`: the prompt version the script gives, or 0
 *   for "the version after the last one sent"; otherwise 0.
 *
 * One timed action of a #GstSessionControlScript. Command sets are bit sets
 * of #GstSessionWorldCommand. Every argument has been validated against the
 * contract when the script was parsed.
 */
typedef struct {
  GstClockTime time;
  guint line;
  GstSessionControlActionType type;
  gchar *text;
  guint commands;
  guint held;
  gchar *preset;
  gchar *image_url;
  gint64 version;
} GstSessionControlAction;

/**
 * GstSessionControlScript:
 *
 * A parsed, validated control script: actions in time order. Immutable, so
 * a reference may be shared between threads.
 */
typedef struct _GstSessionControlScript GstSessionControlScript;

GST_SESSION_API
GType gst_session_control_script_get_type (void);
#define GST_SESSION_TYPE_CONTROL_SCRIPT (gst_session_control_script_get_type ())

GST_SESSION_API
GstSessionControlScript * gst_session_control_script_parse (GstSessionApp app,
    const gchar * text, gssize length, GError ** error);

GST_SESSION_API
GstSessionControlScript * gst_session_control_script_load (GstSessionApp app,
    const gchar * path, GError ** error);

GST_SESSION_API
GstSessionControlScript * gst_session_control_script_ref (GstSessionControlScript * script);

GST_SESSION_API
void gst_session_control_script_unref (GstSessionControlScript * script);

GST_SESSION_API
GstSessionApp gst_session_control_script_get_app (const GstSessionControlScript * script);

GST_SESSION_API
guint gst_session_control_script_get_n_actions (const GstSessionControlScript * script);

GST_SESSION_API
const GstSessionControlAction * gst_session_control_script_get_action (const GstSessionControlScript * script,
    guint index);

GST_SESSION_API
guint gst_session_control_script_first_at (const GstSessionControlScript * script,
    GstClockTime time);

GST_SESSION_API
const gchar * gst_session_control_action_type_to_string (GstSessionControlActionType type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionControlScript, gst_session_control_script_unref)

G_END_DECLS

#endif /* __GST_SESSION_CONTROLSCRIPT_H__ */
