/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessiondirectorcontroller
 * @title: GstSessionDirectorController
 * @short_description: the control logic of a director session
 *
 * - `configure` is sent when the channel opens, with the settings and the
 *   latest prompt, under the next version.
 * - A prompt is sent at once when the session is configured, else it waits
 *   for `configured` (the service answers `not_configured` otherwise); a
 *   prompt given before any session becomes the prompt of `configure`. At
 *   most %GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING wait: one more is
 *   refused with an error (a service that never acknowledges cannot make
 *   the queue grow without bound).
 * - Versions: the next one is the last one sent plus one, also across
 *   renewed sessions; an explicit version is sent as given (the service
 *   refuses one that is not above the last it accepted, and that refusal
 *   is reported).
 * - Settings are immutable once configured: a change is refused.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "directorcontroller.h"
#include "profile.h"
#include "session-private.h"
#include "sessioninit.h"
#include "controlevent-private.h"

struct _GstSessionDirectorController
{
  /* settings (strings owned) and the latest prompt */
  GstSessionDirectorConfig settings;
  gchar *prompt;

  gint64 last_assigned;         /* versions are numbered from this one */
  gint64 last_sent;
  gint64 applied;
  gdouble buffer_depth;

  /* per session */
  gboolean open;
  gboolean configured;
  gboolean configure_failed;    /* refused: the next prompt configures */
  GQueue waiting;               /* Waiting*: prompts sent once configured,
                                 * at most
                                 * GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING */
  GQueue deferred;              /* control_ping_mark or a stop, asked for before
                                 * a channel was open: sent once configured;
                                 * at most CONTROL_DEFERRED_MAX */
  ControlProbes probes;         /* the element's own pings */

  GstStructure *session_info;
  GstStructure *effective;      /* the last `configured` */
  GQueue *events;
};

typedef struct
{
  gchar *json;
  gint64 version;
} Waiting;

static void
waiting_free (Waiting * w)
{
  g_free (w->json);
  g_free (w);
}

static void
settings_clear (GstSessionDirectorConfig * c)
{
  g_free ((gchar *) c->resolution);
  g_free ((gchar *) c->aspect_ratio);
  g_free ((gchar *) c->acceleration);
  c->resolution = c->aspect_ratio = c->acceleration = NULL;
}

/* @from may share strings with @to (from get_settings): copy, then free */
static void
settings_copy (GstSessionDirectorConfig * to,
    const GstSessionDirectorConfig * from)
{
  GstSessionDirectorConfig old = *to;

  *to = *from;
  to->prompt = NULL;
  to->resolution = g_strdup (from->resolution);
  to->aspect_ratio = g_strdup (from->aspect_ratio);
  to->acceleration = g_strdup (from->acceleration);
  settings_clear (&old);
}

/**
 * gst_session_director_controller_new:
 *
 * Returns: (transfer full): a controller with the service's default
 * settings and no prompt.
 */
GstSessionDirectorController *
gst_session_director_controller_new (void)
{
  GstSessionDirectorController *ctrl = g_new0 (GstSessionDirectorController,
      1);

  gst_session_init ();
  gst_session_director_config_init (&ctrl->settings);
  g_queue_init (&ctrl->waiting);
  g_queue_init (&ctrl->deferred);
  ctrl->events = g_queue_new ();
  ctrl->buffer_depth = -1;
  return ctrl;
}

/**
 * gst_session_director_controller_free:
 * @ctrl: (transfer full): a controller
 */
void
gst_session_director_controller_free (GstSessionDirectorController * ctrl)
{
  if (ctrl == NULL)
    return;
  settings_clear (&ctrl->settings);
  g_free (ctrl->prompt);
  g_queue_clear_full (&ctrl->waiting, (GDestroyNotify) waiting_free);
  g_queue_clear_full (&ctrl->deferred, control_deferred_free);
  if (ctrl->session_info)
    gst_structure_free (ctrl->session_info);
  if (ctrl->effective)
    gst_structure_free (ctrl->effective);
  g_queue_free_full (ctrl->events,
      (GDestroyNotify) gst_session_control_event_free);
  g_free (ctrl);
}

/* configure for the current settings, prompt and @version */
static gchar *
build_configure (GstSessionDirectorController * ctrl,
    const GstSessionDirectorConfig * settings, const gchar * prompt,
    gint64 version, GError ** error)
{
  GstSessionDirectorConfig c = *settings;

  c.prompt = prompt;
  c.prompt_version = version;
  return gst_session_director_build_configure (&c, error);
}

/**
 * gst_session_director_controller_set_settings:
 * @ctrl: a controller
 * @settings: memory, seed, resolution, aspect ratio, chunk duration,
 *   acceleration and safety checker (its prompt fields are ignored)
 * @error: return location for a #GError
 *
 * Returns: %FALSE (nothing changes) when a value breaks a rule of
 * `configure`, or when the session is configured: settings are immutable
 * then.
 */
gboolean
gst_session_director_controller_set_settings (GstSessionDirectorController *
    ctrl, const GstSessionDirectorConfig * settings, GError ** error)
{
  gchar *json;

  if (ctrl->open) {
    g_set_error_literal (error, GST_SESSION_ERROR,
        GST_SESSION_ERROR_INVALID_ARGUMENT,
        "configure: settings are immutable once a session is configured "
        "(they apply to the next session)");
    return FALSE;
  }
  /* validated with a stand-in prompt: the settings alone */
  json = build_configure (ctrl, settings, "-", 1, error);
  if (json == NULL)
    return FALSE;
  g_free (json);
  settings_copy (&ctrl->settings, settings);
  return TRUE;
}

/**
 * gst_session_director_controller_get_settings:
 * @ctrl: a controller
 * @settings: (out caller-allocates): the settings (strings owned by @ctrl)
 */
void
gst_session_director_controller_get_settings (GstSessionDirectorController *
    ctrl, GstSessionDirectorConfig * settings)
{
  *settings = ctrl->settings;
  settings->prompt = ctrl->prompt;
  settings->prompt_version = ctrl->last_assigned + 1;
}

/**
 * gst_session_director_controller_is_configured:
 * @ctrl: a controller
 *
 * Returns: %TRUE when the session's `configure` was acknowledged.
 */
gboolean
gst_session_director_controller_is_configured (GstSessionDirectorController *
    ctrl)
{
  return ctrl->open && ctrl->configured;
}

static void
send_json (GstSessionDirectorController * ctrl, gchar * json)
{
  control_events_send (ctrl->events, json);
}

/**
 * gst_session_director_controller_set_prompt:
 * @ctrl: a controller
 * @prompt: 1 to 50000 characters
 * @version: the version to send, or 0 for the last one sent plus one
 * @error: return location for a #GError
 *
 * Returns: %FALSE (nothing sent, nothing changes) when @prompt or
 * @version breaks a rule, or when the session is not configured yet and
 * %GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING prompts already wait for
 * it.
 */
gboolean
gst_session_director_controller_set_prompt (GstSessionDirectorController *
    ctrl, const gchar * prompt, gint64 version, GError ** error)
{
  gboolean reconfigure = FALSE;
  gchar *json;

  if (version < 0) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
        "prompt: /prompt_version is %" G_GINT64_FORMAT ", at least 1 allowed",
        version);
    return FALSE;
  }
  if (version == 0)
    version = ctrl->last_assigned + 1;
  json = gst_session_director_build_prompt (version, prompt, error);
  if (json == NULL)
    return FALSE;
  /* it would wait for configured: only while there is room */
  if (ctrl->open && !ctrl->configured && !ctrl->configure_failed &&
      g_queue_get_length (&ctrl->waiting) >=
      GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING) {
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "prompt: %u prompts already wait for the service to acknowledge "
        "configure (configured), at most %u allowed: refused",
        g_queue_get_length (&ctrl->waiting),
        GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING);
    g_free (json);
    return FALSE;
  }

  g_free (ctrl->prompt);
  ctrl->prompt = g_strdup (prompt);
  if (!ctrl->open) {
    /* the prompt of the next configure; its version is given then */
    g_free (json);
    return TRUE;
  }
  if (ctrl->configure_failed) {
    /* the session's configure was refused: this prompt configures it */
    reconfigure = TRUE;
    g_free (json);
    json = build_configure (ctrl, &ctrl->settings, prompt, version, error);
    if (json == NULL)
      return FALSE;
    ctrl->configure_failed = FALSE;
  }
  ctrl->last_assigned = MAX (ctrl->last_assigned, version);
  if (ctrl->configured || reconfigure) {
    ctrl->last_sent = MAX (ctrl->last_sent, version);
    send_json (ctrl, json);
  } else {
    Waiting *w = g_new0 (Waiting, 1);

    w->json = json;
    w->version = version;
    g_queue_push_tail (&ctrl->waiting, w);
  }
  return TRUE;
}

/**
 * gst_session_director_controller_get_prompt:
 * @ctrl: a controller
 *
 * Returns: (nullable): the latest prompt.
 */
const gchar *
gst_session_director_controller_get_prompt (GstSessionDirectorController * ctrl)
{
  return ctrl->prompt;
}

/**
 * gst_session_director_controller_channel_open:
 * @ctrl: a controller
 *
 * A session's control channel opened: sends `configure` with the settings
 * and the latest prompt under the next version. Without a prompt nothing
 * is sent (the service ends the session after its configuration timeout);
 * the element refuses to start without one.
 */
void
gst_session_director_controller_channel_open (GstSessionDirectorController *
    ctrl)
{
  GError *err = NULL;
  gchar *json;

  ctrl->open = TRUE;
  ctrl->configured = FALSE;
  ctrl->configure_failed = FALSE;
  control_probes_clear (&ctrl->probes);
  g_queue_clear_full (&ctrl->waiting, (GDestroyNotify) waiting_free);
  if (ctrl->prompt == NULL)
    return;
  json = build_configure (ctrl, &ctrl->settings, ctrl->prompt,
      ctrl->last_assigned + 1, &err);
  if (json == NULL) {
    /* validated when set: only an exhausted version range gets here */
    control_events_push (ctrl->events, GST_SESSION_CONTROL_EVENT_WARNING,
        NULL, NULL, NULL, err);
    return;
  }
  ctrl->last_sent = ++ctrl->last_assigned;
  send_json (ctrl, json);
}

/**
 * gst_session_director_controller_channel_closed:
 * @ctrl: a controller
 */
void
gst_session_director_controller_channel_closed (GstSessionDirectorController *
    ctrl)
{
  ctrl->open = FALSE;
  ctrl->configured = FALSE;
  /* prompts that never went: the next configure has the latest one */
  g_queue_clear_full (&ctrl->waiting, (GDestroyNotify) waiting_free);
  g_queue_clear_full (&ctrl->deferred, control_deferred_free);
}

/**
 * gst_session_director_controller_ping:
 * @ctrl: a controller
 * @error: return location for a #GError
 *
 * Sends `ping` with the monotonic time in ms; the pong gets `rtt_ms`.
 * Before a session's channel is open it waits for the session (at most
 * 32 messages wait, then refused), its time taken when it leaves.
 *
 * Returns: %TRUE
 */
gboolean
gst_session_director_controller_ping (GstSessionDirectorController * ctrl,
    GError ** error)
{
  gchar *json = gst_session_director_build_ping (control_now_ms (), error);

  if (json == NULL)
    return FALSE;
  if (ctrl->open) {
    send_json (ctrl, json);
    return TRUE;
  }
  g_free (json);
  return control_defer (&ctrl->deferred, control_ping_mark, error);
}

/**
 * gst_session_director_controller_probe:
 * @ctrl: a controller
 *
 * Sends a `ping` of the element's own, a probe of the path: its pong is a
 * ROUND_TRIP event, not a MESSAGE one. Only once the session is
 * configured (or runs the service's default): nothing waits for a probe.
 *
 * Returns: %TRUE when it was sent
 */
gboolean
gst_session_director_controller_probe (GstSessionDirectorController * ctrl)
{
  gdouble ts = control_now_ms ();
  gchar *json;

  if (!ctrl->open || !(ctrl->configured || ctrl->configure_failed))
    return FALSE;
  json = gst_session_director_build_ping (ts, NULL);
  if (json == NULL)
    return FALSE;
  control_probes_sent (&ctrl->probes, ts);
  send_json (ctrl, json);
  return TRUE;
}

/**
 * gst_session_director_controller_stop:
 * @ctrl: a controller
 * @error: return location for a #GError
 *
 * Sends `stop`: the service ends with `stream_exhausted`, reason
 * `stopped`.
 *
 * Returns: %TRUE
 */
gboolean
gst_session_director_controller_stop (GstSessionDirectorController * ctrl,
    GError ** error)
{
  gchar *json = gst_session_director_build_stop (error);

  if (json == NULL)
    return FALSE;
  if (ctrl->open) {
    send_json (ctrl, json);
    return TRUE;
  }
  return control_defer (&ctrl->deferred, json, error);
}

static void
replace_structure (GstStructure ** field, const GstStructure * s)
{
  if (*field)
    gst_structure_free (*field);
  *field = gst_structure_copy (s);
}

/**
 * gst_session_director_controller_receive:
 * @ctrl: a controller
 * @text: (array length=length) (element-type guint8): a service message
 * @length: length of @text, or -1 when NUL-terminated
 *
 * Reads one service message (see #GstSessionWorldController for the
 * events). `stream_exhausted` is an ENDED event whatever its reason.
 */
void
gst_session_director_controller_receive (GstSessionDirectorController * ctrl,
    const gchar * text, gssize length)
{
  GError *err = NULL;
  GstSessionMessage *msg;
  const GstStructure *s;
  GstStructure *details;
  const gchar *type;
  gboolean final;
  gint64 v;

  msg = gst_session_message_parse (GST_SESSION_APP_DIRECTOR,
      GST_SESSION_DIRECTION_SERVICE, text, length, &err);
  if (msg == NULL) {
    control_events_warn_invalid (ctrl->events, err);
    return;
  }
  type = gst_session_message_get_type_name (msg);
  s = gst_session_message_get_structure (msg);
  details = control_event_details (msg);

  if (!gst_session_message_is_known (msg)) {
    GST_INFO ("director: message of unknown type \"%s\"", type);
  } else if (strcmp (type, "configured") == 0) {
    Waiting *w;
    gchar *json;
    gint width = 0, height = 0;

    ctrl->configured = TRUE;
    replace_structure (&ctrl->effective, s);
    /* frames of the size before, still in flight, are kept out too */
    if (!gst_structure_has_field (s, "resolution") ||
        !gst_session_director_video_size (gst_structure_get_string (s,
                "resolution"), gst_structure_get_string (s, "aspect_ratio"),
            &width, &height))
      width = height = 0;
    control_events_output_open (ctrl->events, width, height);
    while ((w = g_queue_pop_head (&ctrl->waiting))) {
      ctrl->last_sent = MAX (ctrl->last_sent, w->version);
      send_json (ctrl, g_steal_pointer (&w->json));
      waiting_free (w);
    }
    while ((json = g_queue_pop_head (&ctrl->deferred))) {
      if (json == control_ping_mark)
        json = gst_session_director_build_ping (control_now_ms (), NULL);
      if (json)
        send_json (ctrl, json);
    }
  } else if (strcmp (type, "error") == 0 && !ctrl->configured) {
    const gchar *code = gst_structure_get_string (s, "code");

    /* the configure was refused (its prompt, or itself): what waited is
     * dropped, and the next prompt is sent as a configure */
    if (g_strcmp0 (code, "content_policy") == 0 ||
        g_strcmp0 (code, "invalid_message") == 0) {
      ctrl->configure_failed = TRUE;
      g_queue_clear_full (&ctrl->waiting, (GDestroyNotify) waiting_free);
      gst_structure_set (details, "failed", G_TYPE_STRING, "configure", NULL);
      /* the service's default runs: its media may flow */
      control_events_output_open (ctrl->events, 0, 0);
    }
  } else if (strcmp (type, "prompt_applied") == 0) {
    if (gst_structure_get_int64 (s, "prompt_version", &v))
      ctrl->applied = MAX (ctrl->applied, v);
  } else if (strcmp (type, "chunk") == 0) {
    gst_structure_get_double (s, "buffer_depth_seconds", &ctrl->buffer_depth);
  } else if (strcmp (type, "pong") == 0) {
    gdouble ts, rtt;

    gboolean has_ts = gst_structure_get_double (s, "client_ts", &ts);

    if (has_ts && control_probes_answered (&ctrl->probes, ctrl->events, ts)) {
      /* our own probe's: told as ROUND_TRIP, not posted */
      gst_structure_free (details);
      gst_session_message_unref (msg);
      return;
    } else if (has_ts) {
      rtt = control_now_ms () - ts;
      if (rtt >= 0 && rtt < 3600 * 1000.0)
        gst_structure_set (details, "rtt_ms", G_TYPE_DOUBLE, rtt, NULL);
    }
  } else if (strcmp (type, "session_info") == 0) {
    /* no size here: the director's is configured's resolution */
    replace_structure (&ctrl->session_info, s);
  } else if (strcmp (type, "deadline_missed") == 0) {
    gdouble late;

    /* the chunk is late: no media meanwhile, and none is missing */
    if (gst_structure_get_double (s, "late_by_seconds", &late))
      control_events_media_pause (ctrl->events, late);
  }

  final = strcmp (type, "stream_exhausted") == 0 &&
      g_strcmp0 (gst_structure_get_string (s, "reason"), "stopped") == 0;
  control_events_push (ctrl->events, strcmp (type, "stream_exhausted") == 0 ?
      GST_SESSION_CONTROL_EVENT_ENDED : GST_SESSION_CONTROL_EVENT_MESSAGE,
      NULL, msg, details, NULL);
  /* stopped (our stop) ends for good; a session limit may renew */
  if (final)
    ((GstSessionControlEvent *) g_queue_peek_tail (ctrl->events))->final = TRUE;
}

/**
 * gst_session_director_controller_take_events:
 * @ctrl: a controller
 *
 * Returns: (transfer full): the events queued since the last call.
 */
GQueue *
gst_session_director_controller_take_events (GstSessionDirectorController *
    ctrl)
{
  GQueue *events = ctrl->events;

  ctrl->events = g_queue_new ();
  return events;
}

/**
 * gst_session_director_controller_get_last_sent_version:
 * @ctrl: a controller
 *
 * Returns: the highest prompt version sent (0: none yet).
 */
gint64
    gst_session_director_controller_get_last_sent_version
    (GstSessionDirectorController * ctrl) {
  return ctrl->last_sent;
}

/**
 * gst_session_director_controller_get_applied_version:
 * @ctrl: a controller
 *
 * Returns: the highest version the service applied (0: none yet).
 */
gint64
    gst_session_director_controller_get_applied_version
    (GstSessionDirectorController * ctrl) {
  return ctrl->applied;
}

/**
 * gst_session_director_controller_get_buffer_depth:
 * @ctrl: a controller
 *
 * Returns: the buffer depth in seconds the last chunk reported, or -1.
 */
gdouble
gst_session_director_controller_get_buffer_depth (GstSessionDirectorController
    * ctrl)
{
  return ctrl->buffer_depth;
}

/**
 * gst_session_director_controller_get_session_info:
 * @ctrl: a controller
 *
 * Returns: (transfer full) (nullable): the last `session_info`.
 */
GstStructure *
gst_session_director_controller_get_session_info (GstSessionDirectorController
    * ctrl)
{
  return ctrl->session_info ? gst_structure_copy (ctrl->session_info) : NULL;
}

/**
 * gst_session_director_controller_get_configured:
 * @ctrl: a controller
 *
 * Returns: (transfer full) (nullable): the last `configured`: the
 * effective settings.
 */
GstStructure *
gst_session_director_controller_get_configured (GstSessionDirectorController *
    ctrl)
{
  return ctrl->effective ? gst_structure_copy (ctrl->effective) : NULL;
}
