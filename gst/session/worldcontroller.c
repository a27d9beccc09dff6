/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionworldcontroller
 * @title: GstSessionWorldController
 * @short_description: the control logic of a world session
 *
 * Sequencing, per the world session profile of spec 000:
 *
 * - `configure` is sent once per session, when the channel opens, and only
 *   when a preset, an image or a prompt is set (else the default world
 *   starts by itself). Until `configured` arrives nothing else is sent:
 *   controls wait, commands accumulate.
 * - `prompt` and `reset` are serial: one is in flight until its
 *   `prompt_applied` or `reset_applied` (or an `error`) arrives. A prompt
 *   queued behind another queued prompt replaces it: the latest text wins.
 *   At most %GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED wait: one more is
 *   refused with an error (a service that never acknowledges cannot make
 *   the queue grow without bound).
 * - `commands` is sent on every change of the held set or of the one-shot
 *   set, with `active` always and `activated` when not empty; one-shots
 *   accumulate while nothing may be sent.
 * - Prompts and resets also update the setup, so a renewed session is
 *   configured with the latest world and prompt.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "worldcontroller.h"
#include "world.h"
#include "session-private.h"
#include "sessioninit.h"
#include "controlevent-private.h"

typedef enum
{
  REQUEST_NONE,
  REQUEST_PROMPT,
  REQUEST_RESET,
} RequestKind;

typedef struct
{
  RequestKind kind;
  gchar *json;
  gchar *prompt;                /* for coalescing prompts */
} Request;

struct _GstSessionWorldController
{
  /* setup: what configure carries */
  gchar *preset;
  gchar *image_url;
  gchar *prompt;

  /* per session */
  gboolean open;
  gboolean configure_sent;
  gboolean configured;
  RequestKind in_flight;
  GQueue serial;                /* Request*, prompt and reset: at most
                                 * GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED */
  GQueue deferred;              /* gchar* JSON, sent once ready: at most
                                 * CONTROL_DEFERRED_MAX while not ready (it
                                 * is emptied at once when ready) */

  /* commands */
  guint held;
  guint activated;
  gboolean commands_dirty;

  GstStructure *session_info;
  GstStructure *stats;
  gdouble last_rtt;
  ControlProbes probes;         /* the element's own pings */

  GQueue *events;
};

static void
request_free (Request * r)
{
  g_free (r->json);
  g_free (r->prompt);
  g_free (r);
}

static void
push_event (GstSessionWorldController * ctrl, GstSessionControlEventType type,
    gchar * json, GstSessionMessage * message, GstStructure * details,
    GError * error)
{
  control_events_push (ctrl->events, type, json, message, details, error);
}

static void
send_json (GstSessionWorldController * ctrl, gchar * json)
{
  control_events_send (ctrl->events, json);
}

/**
 * gst_session_world_controller_new:
 *
 * Returns: (transfer full): a controller with no setup (the default world).
 */
GstSessionWorldController *
gst_session_world_controller_new (void)
{
  GstSessionWorldController *ctrl = g_new0 (GstSessionWorldController, 1);

  gst_session_init ();
  g_queue_init (&ctrl->serial);
  g_queue_init (&ctrl->deferred);
  ctrl->events = g_queue_new ();
  ctrl->last_rtt = -1;
  return ctrl;
}

static void
clear_session (GstSessionWorldController * ctrl)
{
  ctrl->open = FALSE;
  ctrl->configure_sent = FALSE;
  ctrl->configured = FALSE;
  ctrl->in_flight = REQUEST_NONE;
  control_probes_clear (&ctrl->probes);
  g_queue_clear_full (&ctrl->serial, (GDestroyNotify) request_free);
  g_queue_clear_full (&ctrl->deferred, control_deferred_free);
}

/**
 * gst_session_world_controller_free:
 * @ctrl: (transfer full): a controller
 */
void
gst_session_world_controller_free (GstSessionWorldController * ctrl)
{
  if (ctrl == NULL)
    return;
  clear_session (ctrl);
  g_free (ctrl->preset);
  g_free (ctrl->image_url);
  g_free (ctrl->prompt);
  if (ctrl->session_info)
    gst_structure_free (ctrl->session_info);
  if (ctrl->stats)
    gst_structure_free (ctrl->stats);
  g_queue_free_full (ctrl->events,
      (GDestroyNotify) gst_session_control_event_free);
  g_free (ctrl);
}

static gboolean
is_ready (GstSessionWorldController * ctrl)
{
  return ctrl->open && (!ctrl->configure_sent || ctrl->configured);
}

static void
send_commands (GstSessionWorldController * ctrl)
{
  gchar **active = gst_session_world_commands_to_strv (ctrl->held);
  gchar **activated = gst_session_world_commands_to_strv (ctrl->activated);
  GError *err = NULL;
  gchar *json;

  json = gst_session_world_build_commands ((const gchar * const *) active,
      ctrl->activated ? (const gchar * const *) activated : NULL, &err);
  /* the sets were validated when they changed: this cannot fail */
  g_assert (json != NULL);
  send_json (ctrl, json);
  ctrl->activated = 0;
  ctrl->commands_dirty = FALSE;
  g_strfreev (active);
  g_strfreev (activated);
}

/* Sends whatever may be sent now. */
static void
pump (GstSessionWorldController * ctrl)
{
  gchar *json;

  if (!is_ready (ctrl))
    return;
  while ((json = g_queue_pop_head (&ctrl->deferred))) {
    if (json == control_ping_mark)
      json = gst_session_world_build_ping (TRUE, control_now_ms (), NULL);
    if (json)
      send_json (ctrl, json);
  }
  if (ctrl->commands_dirty)
    send_commands (ctrl);
  if (ctrl->in_flight == REQUEST_NONE && !g_queue_is_empty (&ctrl->serial)) {
    Request *r = g_queue_pop_head (&ctrl->serial);

    ctrl->in_flight = r->kind;
    send_json (ctrl, g_steal_pointer (&r->json));
    request_free (r);
  }
}

/* Whether a @what ("prompt" or "reset") may join the serial queue: FALSE
 * with @error set when GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED wait. */
static gboolean
serial_has_room (GstSessionWorldController * ctrl, const gchar * what,
    GError ** error)
{
  if (g_queue_get_length (&ctrl->serial) <
      GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED)
    return TRUE;
  g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
      "%s: %u prompts and resets already wait for the service to "
      "acknowledge the one before them, at most %u allowed: refused",
      what, g_queue_get_length (&ctrl->serial),
      GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED);
  return FALSE;
}

static void
set_string (gchar ** field, const gchar * value)
{
  gchar *old = *field;

  *field = g_strdup (value);
  g_free (old);
}

/**
 * gst_session_world_controller_set_setup:
 * @ctrl: a controller
 * @preset: (nullable): a built-in world
 * @image_url: (nullable): a starting image (wins over @preset)
 * @prompt: (nullable): a description
 * @error: return location for a #GError
 *
 * Sets what `configure` carries at the start of each session. Refused
 * (nothing changes) when a value breaks a rule of `configure`.
 *
 * Returns: %TRUE when accepted.
 */
gboolean
gst_session_world_controller_set_setup (GstSessionWorldController * ctrl,
    const gchar * preset, const gchar * image_url, const gchar * prompt,
    GError ** error)
{
  gchar *json = gst_session_world_build_configure (preset, image_url, prompt,
      error);

  if (json == NULL)
    return FALSE;
  g_free (json);
  set_string (&ctrl->preset, preset);
  set_string (&ctrl->image_url, image_url);
  set_string (&ctrl->prompt, prompt);
  return TRUE;
}

/**
 * gst_session_world_controller_channel_open:
 * @ctrl: a controller
 *
 * A session's control channel opened: sends `configure` when there is a
 * setup, then whatever may be sent. Per-session state starts afresh; the
 * held commands carry over and are reported once ready.
 */
void
gst_session_world_controller_channel_open (GstSessionWorldController * ctrl)
{
  GQueue waiting = ctrl->deferred;

  /* what was asked for while no session was open (a control script's
   * ping before the first channel opened) goes now, after configure: it
   * was dropped here before */
  g_queue_init (&ctrl->deferred);
  clear_session (ctrl);
  ctrl->deferred = waiting;
  ctrl->open = TRUE;
  if (ctrl->preset || ctrl->image_url || ctrl->prompt) {
    gchar *json = gst_session_world_build_configure (ctrl->preset,
        ctrl->image_url, ctrl->prompt, NULL);

    g_assert (json != NULL);    /* validated by set_setup */
    ctrl->configure_sent = TRUE;
    send_json (ctrl, json);
  }
  if (ctrl->held)
    ctrl->commands_dirty = TRUE;
  pump (ctrl);
}

/**
 * gst_session_world_controller_channel_closed:
 * @ctrl: a controller
 *
 * The session ended: what waited to be sent is dropped (a new session is
 * configured from the setup, which already has the latest prompt).
 */
void
gst_session_world_controller_channel_closed (GstSessionWorldController * ctrl)
{
  clear_session (ctrl);
}

/**
 * gst_session_world_controller_set_prompt:
 * @ctrl: a controller
 * @prompt: the new description, 1 to 2000 characters
 * @error: return location for a #GError
 *
 * Changes the description: sent as `prompt` when the session is ready and
 * no other prompt or reset awaits its acknowledgement; kept in the setup
 * for the next session. It replaces a prompt that waits last in the queue.
 *
 * Returns: %TRUE when accepted, %FALSE (nothing sent, nothing changes)
 * when @prompt breaks a rule or when
 * %GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED requests wait, the last a
 * reset.
 */
gboolean
gst_session_world_controller_set_prompt (GstSessionWorldController * ctrl,
    const gchar * prompt, GError ** error)
{
  gchar *json = gst_session_world_build_prompt (prompt, error);
  Request *last;

  if (json == NULL)
    return FALSE;
  last = ctrl->open ? g_queue_peek_tail (&ctrl->serial) : NULL;
  if (ctrl->open && !(last && last->kind == REQUEST_PROMPT) &&
      !serial_has_room (ctrl, "prompt", error)) {
    g_free (json);
    return FALSE;
  }
  set_string (&ctrl->prompt, prompt);
  if (!ctrl->open) {
    g_free (json);
    return TRUE;
  }
  if (last && last->kind == REQUEST_PROMPT) {
    GST_DEBUG ("world: prompt replaces a queued prompt");
    g_free (last->json);
    last->json = json;
    set_string (&last->prompt, prompt);
  } else {
    Request *r = g_new0 (Request, 1);

    r->kind = REQUEST_PROMPT;
    r->json = json;
    r->prompt = g_strdup (prompt);
    g_queue_push_tail (&ctrl->serial, r);
  }
  pump (ctrl);
  return TRUE;
}

/**
 * gst_session_world_controller_reset:
 * @ctrl: a controller
 * @preset: (nullable): a built-in world
 * @image_url: (nullable): a starting image (wins over @preset)
 * @prompt: (nullable): a description
 * @error: return location for a #GError
 *
 * Restarts with another world: sent as `reset` in turn with prompts; also
 * becomes the setup of later sessions.
 *
 * Returns: %TRUE when accepted, %FALSE (nothing sent, nothing changes)
 * when a value breaks a rule or when
 * %GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED requests wait.
 */
gboolean
gst_session_world_controller_reset (GstSessionWorldController * ctrl,
    const gchar * preset, const gchar * image_url, const gchar * prompt,
    GError ** error)
{
  gchar *json = gst_session_world_build_reset (preset, image_url, prompt,
      error);
  Request *r;

  if (json == NULL)
    return FALSE;
  if (ctrl->open && !serial_has_room (ctrl, "reset", error)) {
    g_free (json);
    return FALSE;
  }
  set_string (&ctrl->preset, preset);
  set_string (&ctrl->image_url, image_url);
  set_string (&ctrl->prompt, prompt);
  if (!ctrl->open) {
    g_free (json);
    return TRUE;
  }
  r = g_new0 (Request, 1);
  r->kind = REQUEST_RESET;
  r->json = json;
  g_queue_push_tail (&ctrl->serial, r);
  pump (ctrl);
  return TRUE;
}

static gboolean
check_set (const gchar * what, guint set, GError ** error)
{
  guint i;

  if (set & ~((1u << GST_SESSION_WORLD_N_COMMANDS) - 1)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "%s: 0x%x is not a set of commands", what, set);
    return FALSE;
  }
  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    guint c = 1u << i;

    if ((set & c) && (set & gst_session_world_command_conflicts (c))) {
      g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
          "%s: \"%s\" conflicts with \"%s\" (mutually exclusive)", what,
          gst_session_world_command_to_string (c),
          gst_session_world_command_to_string
          (gst_session_world_command_conflicts (c)));
      return FALSE;
    }
  }
  return TRUE;
}

static void
update_held (GstSessionWorldController * ctrl, guint held)
{
  if (held == ctrl->held)
    return;
  ctrl->held = held;
  ctrl->commands_dirty = TRUE;
  pump (ctrl);
}

/**
 * gst_session_world_controller_set_commands:
 * @ctrl: a controller
 * @held: the set of commands held now (#GstSessionWorldCommand bits)
 * @error: return location for a #GError
 *
 * Replaces the held set; a report is sent when it changed.
 *
 * Returns: %FALSE (nothing changes or is sent) when two held commands
 * conflict.
 */
gboolean
gst_session_world_controller_set_commands (GstSessionWorldController * ctrl,
    guint held, GError ** error)
{
  if (!check_set ("commands", held, error))
    return FALSE;
  update_held (ctrl, held);
  return TRUE;
}

/**
 * gst_session_world_controller_press:
 * @ctrl: a controller
 * @commands: commands to hold from now on
 * @error: return location for a #GError
 *
 * Returns: %FALSE (nothing changes or is sent) when a command conflicts
 * with another pressed or held one: release that first.
 */
gboolean
gst_session_world_controller_press (GstSessionWorldController * ctrl,
    guint commands, GError ** error)
{
  guint i;

  if (!check_set ("press", commands, error))
    return FALSE;
  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    guint c = 1u << i;
    guint other = gst_session_world_command_conflicts (c);

    if ((commands & c) && (ctrl->held & other)) {
      g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
          "press: \"%s\" conflicts with held \"%s\" (release it first)",
          gst_session_world_command_to_string (c),
          gst_session_world_command_to_string (other));
      return FALSE;
    }
  }
  update_held (ctrl, ctrl->held | commands);
  return TRUE;
}

/**
 * gst_session_world_controller_release:
 * @ctrl: a controller
 * @commands: commands to let go of (not held ones are ignored)
 * @error: return location for a #GError
 *
 * Returns: %FALSE when @commands is not a set of commands.
 */
gboolean
gst_session_world_controller_release (GstSessionWorldController * ctrl,
    guint commands, GError ** error)
{
  if (commands & ~((1u << GST_SESSION_WORLD_N_COMMANDS) - 1)) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "release: 0x%x is not a set of commands", commands);
    return FALSE;
  }
  update_held (ctrl, ctrl->held & ~commands);
  return TRUE;
}

/**
 * gst_session_world_controller_activate:
 * @ctrl: a controller
 * @commands: one-shot commands
 * @error: return location for a #GError
 *
 * Reports edge-triggered commands: sent at once in `activated` when ready,
 * else accumulated until the next report (a later command replaces an
 * earlier one of its conflict group).
 *
 * Returns: %FALSE (nothing sent) when @commands conflict among themselves.
 */
gboolean
gst_session_world_controller_activate (GstSessionWorldController * ctrl,
    guint commands, GError ** error)
{
  guint i, conflicts = 0;

  if (!check_set ("activate", commands, error))
    return FALSE;
  if (commands == 0)
    return TRUE;
  for (i = 0; i < GST_SESSION_WORLD_N_COMMANDS; i++) {
    if (commands & (1u << i))
      conflicts |= gst_session_world_command_conflicts (1u << i);
  }
  ctrl->activated = (ctrl->activated & ~conflicts) | commands;
  ctrl->commands_dirty = TRUE;
  pump (ctrl);
  return TRUE;
}

/* Sends @json (taken; control_ping_mark for a ping) now or once a
 * session is ready. */
static gboolean
send_or_defer (GstSessionWorldController * ctrl, gchar * json, GError ** error)
{
  if (json == NULL)
    return FALSE;
  if (is_ready (ctrl))
    g_queue_push_tail (&ctrl->deferred, json);
  else if (!control_defer (&ctrl->deferred, json, error))
    return FALSE;
  pump (ctrl);
  return TRUE;
}

/**
 * gst_session_world_controller_send_keys:
 * @ctrl: a controller
 * @pressed: (nullable) (array zero-terminated=1): keys held, at most 32
 * @activated: (nullable) (array zero-terminated=1): keys pressed since the
 *   last report, at most 32
 * @error: return location for a #GError
 *
 * Sends the deprecated legacy `keys` report.
 *
 * Returns: %FALSE (nothing sent) when a list breaks a rule.
 */
gboolean
gst_session_world_controller_send_keys (GstSessionWorldController * ctrl,
    const gchar * const *pressed, const gchar * const *activated,
    GError ** error)
{
  return send_or_defer (ctrl, gst_session_world_build_keys (pressed,
          activated, error), error);
}


/**
 * gst_session_world_controller_ping:
 * @ctrl: a controller
 * @error: return location for a #GError
 *
 * Sends `ping` with the monotonic time in milliseconds as `ts`; the pong
 * then carries `rtt_ms`. Before a session is ready it waits (at most 32
 * messages wait), and its time is taken when it leaves.
 *
 * Returns: %TRUE
 */
gboolean
gst_session_world_controller_ping (GstSessionWorldController * ctrl,
    GError ** error)
{
  gchar *json = gst_session_world_build_ping (TRUE, control_now_ms (), error);

  if (json == NULL)
    return FALSE;
  g_free (json);
  return send_or_defer (ctrl, control_ping_mark, error);
}

/**
 * gst_session_world_controller_probe:
 * @ctrl: a controller
 *
 * Sends a `ping` of the element's own, a probe of the path: its pong is a
 * ROUND_TRIP event, not a MESSAGE one, and leaves #GstWorldSrc:rtt alone.
 * Only once the session is ready (nothing waits for a probe).
 *
 * Returns: %TRUE when it was sent
 */
gboolean
gst_session_world_controller_probe (GstSessionWorldController * ctrl)
{
  gdouble ts = control_now_ms ();
  gchar *json;

  if (!is_ready (ctrl))
    return FALSE;
  json = gst_session_world_build_ping (TRUE, ts, NULL);
  if (json == NULL)
    return FALSE;
  control_probes_sent (&ctrl->probes, ts);
  send_json (ctrl, json);
  return TRUE;
}

/**
 * gst_session_world_controller_stop:
 * @ctrl: a controller
 * @error: return location for a #GError
 *
 * Sends `stop`; the service ends the stream with `stream_exhausted`.
 *
 * Returns: %TRUE
 */
gboolean
gst_session_world_controller_stop (GstSessionWorldController * ctrl,
    GError ** error)
{
  return send_or_defer (ctrl, gst_session_world_build_stop (error), error);
}

static void
replace_structure (GstStructure ** field, const GstStructure * s)
{
  if (*field)
    gst_structure_free (*field);
  *field = gst_structure_copy (s);
}

/**
 * gst_session_world_controller_receive:
 * @ctrl: a controller
 * @text: (array length=length) (element-type guint8): a message from the
 *   service
 * @length: length of @text, or -1 when NUL-terminated
 *
 * Reads one service message: acknowledgements advance the sequencing,
 * `session_info` and `stats` are kept, `pong` gets its round-trip time, and
 * every message becomes a MESSAGE event (`stream_exhausted` an ENDED one).
 * A malformed or invalid message becomes a WARNING event and is skipped.
 */
void
gst_session_world_controller_receive (GstSessionWorldController * ctrl,
    const gchar * text, gssize length)
{
  GError *err = NULL;
  GstSessionMessage *msg;
  const GstStructure *s;
  GstStructure *details;
  const gchar *type;

  msg = gst_session_message_parse (GST_SESSION_APP_WORLD,
      GST_SESSION_DIRECTION_SERVICE, text, length, &err);
  if (msg == NULL) {
    control_events_warn_invalid (ctrl->events, err);
    return;
  }

  type = gst_session_message_get_type_name (msg);
  s = gst_session_message_get_structure (msg);
  details = control_event_details (msg);

  if (!gst_session_message_is_known (msg)) {
    GST_INFO ("world: message of unknown type \"%s\"", type);
  } else if (strcmp (type, "configured") == 0) {
    ctrl->configured = TRUE;
    control_events_output_open (ctrl->events, 0, 0);
  } else if (strcmp (type, "prompt_applied") == 0 ||
      strcmp (type, "reset_applied") == 0) {
    ctrl->in_flight = REQUEST_NONE;
  } else if (strcmp (type, "error") == 0) {
    /* the request in flight failed; a failed configure leaves the default
     * world running: either way the next control may go */
    if (ctrl->configure_sent && !ctrl->configured) {
      ctrl->configured = TRUE;
      gst_structure_set (details, "failed", G_TYPE_STRING, "configure", NULL);
      /* the default world runs: its media may flow */
      control_events_output_open (ctrl->events, 0, 0);
    } else if (ctrl->in_flight != REQUEST_NONE) {
      gst_structure_set (details, "failed", G_TYPE_STRING,
          ctrl->in_flight == REQUEST_PROMPT ? "prompt" : "reset", NULL);
      ctrl->in_flight = REQUEST_NONE;
    }
  } else if (strcmp (type, "pong") == 0) {
    gdouble ts;

    gboolean has_ts = gst_structure_get_double (s, "ts", &ts) ||
        gst_structure_get_double (s, "client_ts", &ts);

    if (has_ts && control_probes_answered (&ctrl->probes, ctrl->events, ts)) {
      /* our own probe's: told as ROUND_TRIP, not posted */
      gst_structure_free (details);
      gst_session_message_unref (msg);
      return;
    } else if (has_ts) {
      gdouble rtt = control_now_ms () - ts;

      /* only our own timestamps make sense here */
      if (rtt >= 0 && rtt < 3600 * 1000.0) {
        ctrl->last_rtt = rtt;
        gst_structure_set (details, "rtt_ms", G_TYPE_DOUBLE, rtt, NULL);
      }
    }
  } else if (strcmp (type, "session_info") == 0) {
    replace_structure (&ctrl->session_info, s);
    control_events_video_size_from_info (ctrl->events, s);
  } else if (strcmp (type, "stats") == 0) {
    replace_structure (&ctrl->stats, s);
  }

  push_event (ctrl, strcmp (type, "stream_exhausted") == 0 ?
      GST_SESSION_CONTROL_EVENT_ENDED : GST_SESSION_CONTROL_EVENT_MESSAGE,
      NULL, msg, details, NULL);
  pump (ctrl);
}

/**
 * gst_session_world_controller_take_events:
 * @ctrl: a controller
 *
 * Returns: (transfer full): the events queued since the last call, oldest
 * first (free each with gst_session_control_event_free(), then the queue).
 */
GQueue *
gst_session_world_controller_take_events (GstSessionWorldController * ctrl)
{
  GQueue *events = ctrl->events;

  ctrl->events = g_queue_new ();
  return events;
}

/**
 * gst_session_world_controller_get_preset:
 * @ctrl: a controller
 *
 * Returns: (nullable): the setup's preset: set by
 * gst_session_world_controller_set_setup() or the latest
 * gst_session_world_controller_reset().
 */
const gchar *
gst_session_world_controller_get_preset (GstSessionWorldController * ctrl)
{
  return ctrl->preset;
}

/**
 * gst_session_world_controller_get_image_url:
 * @ctrl: a controller
 *
 * Returns: (nullable): the setup's starting image, as
 * gst_session_world_controller_get_preset().
 */
const gchar *
gst_session_world_controller_get_image_url (GstSessionWorldController * ctrl)
{
  return ctrl->image_url;
}

/**
 * gst_session_world_controller_get_prompt:
 * @ctrl: a controller
 *
 * Returns: (nullable): the latest prompt accepted (the setup's, a reset's
 * or one set while playing).
 */
const gchar *
gst_session_world_controller_get_prompt (GstSessionWorldController * ctrl)
{
  return ctrl->prompt;
}

/**
 * gst_session_world_controller_get_held:
 * @ctrl: a controller
 *
 * Returns: the held set of commands.
 */
guint
gst_session_world_controller_get_held (GstSessionWorldController * ctrl)
{
  return ctrl->held;
}

/**
 * gst_session_world_controller_is_ready:
 * @ctrl: a controller
 *
 * Returns: %TRUE when the channel is open and configure (if any) was
 * acknowledged.
 */
gboolean
gst_session_world_controller_is_ready (GstSessionWorldController * ctrl)
{
  return is_ready (ctrl);
}

/**
 * gst_session_world_controller_get_pending:
 * @ctrl: a controller
 *
 * Returns: how many prompts and resets are queued or awaiting their
 * acknowledgement.
 */
guint
gst_session_world_controller_get_pending (GstSessionWorldController * ctrl)
{
  return g_queue_get_length (&ctrl->serial) +
      (ctrl->in_flight != REQUEST_NONE ? 1 : 0);
}

/**
 * gst_session_world_controller_get_session_info:
 * @ctrl: a controller
 *
 * Returns: (transfer full) (nullable): the last `session_info`.
 */
GstStructure *
gst_session_world_controller_get_session_info (GstSessionWorldController * ctrl)
{
  return ctrl->session_info ? gst_structure_copy (ctrl->session_info) : NULL;
}

/**
 * gst_session_world_controller_get_stats:
 * @ctrl: a controller
 *
 * Returns: (transfer full) (nullable): the last `stats`.
 */
GstStructure *
gst_session_world_controller_get_stats (GstSessionWorldController * ctrl)
{
  return ctrl->stats ? gst_structure_copy (ctrl->stats) : NULL;
}

/**
 * gst_session_world_controller_get_last_rtt:
 * @ctrl: a controller
 *
 * Returns: the last measured ping round trip in milliseconds, or -1.
 */
gdouble
gst_session_world_controller_get_last_rtt (GstSessionWorldController * ctrl)
{
  return ctrl->last_rtt;
}
