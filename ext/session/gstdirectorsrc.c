/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-directorsrc
 * @title: directorsrc
 *
 * Streams a continuous generated film with sound from a director session
 * service, steered by versioned prompts. Video at 24 fps (1360x768 by
 * default; the size follows `resolution` and `aspect-ratio`), audio raw at
 * 32000 Hz (or the rate downstream asks for), or both encoded (VP8 or
 * H.264, Opus) with `decode=false`.
 *
 * The output keeps its pace whatever the service does: when a chunk is
 * late (`deadline_missed`) or a session is being renewed, the last frame is
 * repeated and silence of the exact sample count fills the audio; audio
 * and video start together, and keep the sender's relation from each
 * session's first sender reports on (`session/synced`, once per session,
 * with the running time from which they do; before, the stream whose
 * first report came last is placed by its jitterbuffer timestamps or its
 * arrival).
 * `renew` is on by default: when the service
 * ends a session at its limit (`stream_exhausted`, reason
 * `session_limit`), a new session is configured with the latest prompt and
 * the stream goes on.
 *
 * Every service message is posted as an element message named
 * `director/<type>` (`director/configured` with the effective settings,
 * `director/prompt_pending`, `director/prompt_applied`,
 * `director/prompt_rejected`, `director/chunk`, `director/chunk_metrics`,
 * `director/session_metrics`, `director/deadline_missed`,
 * `director/stream_exhausted`, `director/error` with its `code`,
 * `director/pong` with `rtt_ms`, `director/session_info`), and emitted as
 * #GstSessionSrc::control-message. A type the contract does not define is
 * posted as `director/unknown` with its `type`; fields the contract does
 * not name are in `other-fields`, JSON text. Refused values post a warning
 * naming the field and the rule (in NULL, with no bus yet, NULL→READY fails
 * with that text instead). A stream that ends before any frame was
 * delivered ends with an error carrying the last start error, never a
 * clean EOS alone. See docs/directorsrc.md.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -e directorsrc url=http://127.0.0.1:8080/director/start-session \
 *     prompt="a slow pan over a harbour at dawn" name=d \
 *     d.video ! videoconvert ! x264enc tune=zerolatency ! mp4mux name=m ! \
 *     filesink location=film.mp4 \
 *     d.audio ! audioconvert ! avenc_aac ! m.
 * ]| Records a directed film with sound, finalised on Ctrl-C.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/session/directorcontroller.h>
#include <gst/session/profile.h>

#include "gstdirectorsrc.h"

GST_DEBUG_CATEGORY_STATIC (gst_director_src_debug);
#define GST_CAT_DEFAULT gst_director_src_debug

enum
{
  PROP_0,
  PROP_PROMPT,
  PROP_MEMORY,
  PROP_SEED,
  PROP_RESOLUTION,
  PROP_ASPECT_RATIO,
  PROP_CHUNK_DURATION,
  PROP_ACCELERATION,
  PROP_ENABLE_SAFETY_CHECKER,
  PROP_APPLIED_VERSION,
  PROP_LAST_VERSION,
  PROP_BUFFER_DEPTH,
  PROP_SESSION_INFO,
  PROP_CONFIGURED,
};

enum
{
  SIGNAL_SET_PROMPT,
  SIGNAL_PING,
  LAST_SIGNAL
};

static guint signals[LAST_SIGNAL];

/* the `enable-safety-checker` property: leave it to the service, or not */
#define GST_TYPE_DIRECTOR_SAFETY_CHECKER (gst_director_safety_checker_get_type ())
static GType
gst_director_safety_checker_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {-1, "Leave it to the service (not sent)", "default"},
    {0, "Off", "off"},
    {1, "On", "on"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    GType t = g_enum_register_static ("GstDirectorSafetyChecker", values);

    g_once_init_leave (&type, t);
  }
  return type;
}

struct _GstDirectorSrc
{
  GstSessionSrc parent;

  /* controller lock: */
  GstSessionDirectorController *ctrl;
};

G_DEFINE_TYPE (GstDirectorSrc, gst_director_src, GST_TYPE_SESSION_SRC);
GST_ELEMENT_REGISTER_DEFINE (directorsrc, "directorsrc", GST_RANK_NONE,
    GST_TYPE_DIRECTOR_SRC);

static GstStaticPadTemplate video_template = GST_STATIC_PAD_TEMPLATE ("video",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, framerate = (fraction) 24/1; "
        "video/x-vp8; video/x-h264, stream-format = (string) avc, "
        "alignment = (string) au"));

static GstStaticPadTemplate audio_template = GST_STATIC_PAD_TEMPLATE ("audio",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("audio/x-raw, format = (string) S16LE, "
        "layout = (string) interleaved, rate = (int) [ 8000, 96000 ]; "
        "audio/x-opus"));

/* Under the controller lock: the control's events to the outbox */
static void
collect (GstDirectorSrc * self)
{
  gst_session_src_collect_events (GST_SESSION_SRC (self));
}

/* After the controller lock: refused or accepted */
static gboolean
done (GstDirectorSrc * self, const gchar * what, gboolean ok, GError * err)
{
  return gst_session_src_control_done (GST_SESSION_SRC (self), what, ok, err);
}

static gboolean
set_prompt (GstDirectorSrc * self, const gchar * what, gint64 version,
    const gchar * prompt)
{
  GError *err = NULL;
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  ok = gst_session_director_controller_set_prompt (self->ctrl, prompt,
      version, &err);
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  return done (self, what, ok, err);
}

static gboolean
gst_director_src_set_prompt (GstDirectorSrc * self, gint64 version,
    const gchar * prompt)
{
  return set_prompt (self, "set-prompt", version, prompt);
}

static gboolean
gst_director_src_ping (GstDirectorSrc * self)
{
  GError *err = NULL;
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  ok = gst_session_director_controller_ping (self->ctrl, &err);
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  return done (self, "ping", ok, err);
}

/* ---- GstSessionSrc vfuncs (controller lock held) ---- */

static void
gst_director_src_channel_open (GstSessionSrc * src)
{
  gst_session_director_controller_channel_open (GST_DIRECTOR_SRC (src)->ctrl);
}

static void
gst_director_src_channel_closed (GstSessionSrc * src)
{
  gst_session_director_controller_channel_closed (GST_DIRECTOR_SRC (src)->ctrl);
}

static void
gst_director_src_receive (GstSessionSrc * src, const gchar * text)
{
  gst_session_director_controller_receive (GST_DIRECTOR_SRC (src)->ctrl, text,
      -1);
}

static gboolean
gst_director_src_probe (GstSessionSrc * src)
{
  return gst_session_director_controller_probe (GST_DIRECTOR_SRC (src)->ctrl);
}

static gboolean
gst_director_src_stop (GstSessionSrc * src)
{
  return gst_session_director_controller_stop (GST_DIRECTOR_SRC (src)->ctrl,
      NULL);
}

static GQueue *
gst_director_src_take_events (GstSessionSrc * src)
{
  return gst_session_director_controller_take_events (GST_DIRECTOR_SRC
      (src)->ctrl);
}

static gboolean
gst_director_src_apply_action (GstSessionSrc * src,
    const GstSessionControlAction * a, GError ** error)
{
  GstDirectorSrc *self = GST_DIRECTOR_SRC (src);

  switch (a->type) {
    case GST_SESSION_CONTROL_ACTION_PROMPT:
      return gst_session_director_controller_set_prompt (self->ctrl, a->text,
          a->version, error);
    case GST_SESSION_CONTROL_ACTION_PING:
      return gst_session_director_controller_ping (self->ctrl, error);
    default:
      g_set_error (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT, "%s is not a director action",
          gst_session_control_action_type_to_string (a->type));
      return FALSE;
  }
}

static gboolean
gst_director_src_check_start (GstSessionSrc * src, GError ** error)
{
  GstDirectorSrc *self = GST_DIRECTOR_SRC (src);
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  ok = gst_session_director_controller_get_prompt (self->ctrl) != NULL;
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  if (!ok)
    g_set_error_literal (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_SETTINGS,
        "No prompt set: a director session starts with a prompt "
        "(the \"prompt\" property, 1 to 50000 characters)");
  return ok;
}

/* ---- properties ---- */

static void
set_setting (GstDirectorSrc * self, GParamSpec * pspec, const GValue * value)
{
  GstSessionDirectorConfig c;
  GError *err = NULL;
  gboolean ok;
  gchar *what;

  GST_SESSION_SRC_CTRL_LOCK (self);
  gst_session_director_controller_get_settings (self->ctrl, &c);
  switch (pspec->param_id) {
    case PROP_MEMORY:
      c.memory = g_value_get_int (value);
      break;
    case PROP_SEED:
      c.has_seed = g_value_get_int64 (value) >= 0;
      c.seed = g_value_get_int64 (value);
      break;
    case PROP_RESOLUTION:
      c.resolution = g_value_get_string (value);
      break;
    case PROP_ASPECT_RATIO:
      c.aspect_ratio = g_value_get_string (value);
      break;
    case PROP_CHUNK_DURATION:
      c.chunk_duration = g_value_get_int (value);
      break;
    case PROP_ACCELERATION:
      c.acceleration = g_value_get_string (value);
      break;
    case PROP_ENABLE_SAFETY_CHECKER:
      c.enable_safety_checker = g_value_get_enum (value);
      break;
  }
  ok = gst_session_director_controller_set_settings (self->ctrl, &c, &err);
  what = g_strdup (g_param_spec_get_name (pspec));
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  done (self, what, ok, err);
  g_free (what);
}

static void
gst_director_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstDirectorSrc *self = GST_DIRECTOR_SRC (object);

  switch (prop_id) {
    case PROP_PROMPT:
      set_prompt (self, "prompt", 0, g_value_get_string (value));
      break;
    case PROP_MEMORY:
    case PROP_SEED:
    case PROP_RESOLUTION:
    case PROP_ASPECT_RATIO:
    case PROP_CHUNK_DURATION:
    case PROP_ACCELERATION:
    case PROP_ENABLE_SAFETY_CHECKER:
      set_setting (self, pspec, value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_director_src_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstDirectorSrc *self = GST_DIRECTOR_SRC (object);
  GstSessionDirectorConfig c;

  GST_SESSION_SRC_CTRL_LOCK (self);
  gst_session_director_controller_get_settings (self->ctrl, &c);
  switch (prop_id) {
    case PROP_PROMPT:
      g_value_set_string (value, c.prompt);
      break;
    case PROP_MEMORY:
      g_value_set_int (value, c.memory);
      break;
    case PROP_SEED:
      g_value_set_int64 (value, c.has_seed ? c.seed : -1);
      break;
    case PROP_RESOLUTION:
      g_value_set_string (value, c.resolution);
      break;
    case PROP_ASPECT_RATIO:
      g_value_set_string (value, c.aspect_ratio);
      break;
    case PROP_CHUNK_DURATION:
      g_value_set_int (value, c.chunk_duration);
      break;
    case PROP_ACCELERATION:
      g_value_set_string (value, c.acceleration);
      break;
    case PROP_ENABLE_SAFETY_CHECKER:
      g_value_set_enum (value, c.enable_safety_checker);
      break;
    case PROP_APPLIED_VERSION:
      g_value_set_int64 (value,
          gst_session_director_controller_get_applied_version (self->ctrl));
      break;
    case PROP_LAST_VERSION:
      g_value_set_int64 (value,
          gst_session_director_controller_get_last_sent_version (self->ctrl));
      break;
    case PROP_BUFFER_DEPTH:
      g_value_set_double (value,
          gst_session_director_controller_get_buffer_depth (self->ctrl));
      break;
    case PROP_SESSION_INFO:
      g_value_take_boxed (value,
          gst_session_director_controller_get_session_info (self->ctrl));
      break;
    case PROP_CONFIGURED:
      g_value_take_boxed (value,
          gst_session_director_controller_get_configured (self->ctrl));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_SESSION_SRC_CTRL_UNLOCK (self);
}

static void
gst_director_src_finalize (GObject * object)
{
  gst_session_director_controller_free (GST_DIRECTOR_SRC (object)->ctrl);
  G_OBJECT_CLASS (gst_director_src_parent_class)->finalize (object);
}

static void
gst_director_src_init (GstDirectorSrc * self)
{
  self->ctrl = gst_session_director_controller_new ();
}

#define SETTING_FLAGS (G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | \
    GST_PARAM_MUTABLE_READY)

static void
gst_director_src_class_init (GstDirectorSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstSessionSrcClass *src_class = GST_SESSION_SRC_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_director_src_debug, "directorsrc", 0,
      "director session source");

  gobject_class->set_property = gst_director_src_set_property;
  gobject_class->get_property = gst_director_src_get_property;
  gobject_class->finalize = gst_director_src_finalize;

  src_class->app = GST_SESSION_APP_DIRECTOR;
  src_class->has_audio = TRUE;
  src_class->fps_n = GST_SESSION_DIRECTOR_FPS;
  src_class->fps_d = 1;
  src_class->default_playout = GST_SESSION_PLAYOUT_SMOOTH;
  src_class->default_renew = TRUE;
  src_class->wait_configured = TRUE;
  src_class->channel_open = gst_director_src_channel_open;
  src_class->channel_closed = gst_director_src_channel_closed;
  src_class->receive = gst_director_src_receive;
  src_class->stop = gst_director_src_stop;
  src_class->probe = gst_director_src_probe;
  src_class->take_events = gst_director_src_take_events;
  src_class->apply_action = gst_director_src_apply_action;
  src_class->check_start = gst_director_src_check_start;

  /**
   * GstDirectorSrc:prompt:
   *
   * The prompt, 1 to 50000 characters. Before playing it goes in
   * `configure`; while playing each change is sent as a `prompt` with the
   * next version (the last one sent plus one), reported as
   * `director/prompt_pending` then `director/prompt_applied` (or
   * `director/prompt_rejected`).
   */
  g_object_class_install_property (gobject_class, PROP_PROMPT,
      g_param_spec_string ("prompt", "Prompt",
          "The prompt (configure, then versioned prompt messages)", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_MEMORY,
      g_param_spec_int ("memory", "Memory",
          "Prior segment prompts kept as context, 1 to 50 (0: not sent, the "
          "service's default 12)", 0, 50, 0, SETTING_FLAGS));

  g_object_class_install_property (gobject_class, PROP_SEED,
      g_param_spec_int64 ("seed", "Seed", "Seed (-1: not sent)", -1,
          G_MAXINT64, -1, SETTING_FLAGS));

  g_object_class_install_property (gobject_class, PROP_RESOLUTION,
      g_param_spec_string ("resolution", "Resolution",
          "480p or 768p (unset: the service's default, 768p)", NULL,
          SETTING_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ASPECT_RATIO,
      g_param_spec_string ("aspect-ratio", "Aspect ratio",
          "16:9, 9:16 or 1:1 (unset: the service's default, 16:9)", NULL,
          SETTING_FLAGS));

  /**
   * GstDirectorSrc:chunk-duration:
   *
   * Seconds per chunk, 5 to 15; 0 leaves it out. Spec 000 does not say
   * whether configure accepts it: it is sent only when set (the reference
   * service accepts it and echoes it in `configured`).
   */
  g_object_class_install_property (gobject_class, PROP_CHUNK_DURATION,
      g_param_spec_int ("chunk-duration", "Chunk duration",
          "Seconds per chunk, 5 to 15 (0: not sent)", 0, 15, 0, SETTING_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ACCELERATION,
      g_param_spec_string ("acceleration", "Acceleration",
          "none or regular (unset: not sent)", NULL, SETTING_FLAGS));

  g_object_class_install_property (gobject_class, PROP_ENABLE_SAFETY_CHECKER,
      g_param_spec_enum ("enable-safety-checker", "Safety checker",
          "Ask for the safety checker on or off (default: not sent)",
          GST_TYPE_DIRECTOR_SAFETY_CHECKER, -1, SETTING_FLAGS));

  g_object_class_install_property (gobject_class, PROP_APPLIED_VERSION,
      g_param_spec_int64 ("applied-version", "Applied version",
          "The last prompt version the service applied (0: none)", 0,
          G_MAXINT64, 0, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_LAST_VERSION,
      g_param_spec_int64 ("last-version", "Last version",
          "The last prompt version sent (0: none)", 0, G_MAXINT64, 0,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_BUFFER_DEPTH,
      g_param_spec_double ("buffer-depth", "Buffer depth",
          "Seconds buffered at the service, from the last chunk (-1: none)",
          -1, G_MAXDOUBLE, -1, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_SESSION_INFO,
      g_param_spec_boxed ("session-info", "Session info",
          "The service's last session_info", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_CONFIGURED,
      g_param_spec_boxed ("configured", "Configured",
          "The effective settings of the last configured", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstDirectorSrc::set-prompt:
   * @src: the element
   * @version: the version, or 0 for the last one sent plus one
   * @prompt: 1 to 50000 characters
   *
   * Sends a prompt with an explicit version. A version not above the last
   * one the service accepted is sent as given; the service refuses it
   * (`director/error`, code `stale_prompt_version`).
   *
   * Returns: %TRUE when accepted (nothing is sent otherwise).
   */
  signals[SIGNAL_SET_PROMPT] = g_signal_new_class_handler ("set-prompt",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_director_src_set_prompt), NULL, NULL, NULL,
      G_TYPE_BOOLEAN, 2, G_TYPE_INT64, G_TYPE_STRING);

  /**
   * GstDirectorSrc::ping:
   * @src: the element
   *
   * Sends `ping`; the answer is posted as `director/pong` with `rtt_ms`.
   *
   * Returns: %TRUE
   */
  signals[SIGNAL_PING] = g_signal_new_class_handler ("ping",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_director_src_ping), NULL, NULL, NULL, G_TYPE_BOOLEAN, 0);

  gst_element_class_add_static_pad_template (element_class, &video_template);
  gst_element_class_add_static_pad_template (element_class, &audio_template);
  gst_element_class_set_static_metadata (element_class,
      "Director session source", "Source/Audio/Video/Network",
      "Streams a continuous generated film with sound, steered by versioned "
      "prompts", "gst-session developers");
  gst_type_mark_as_plugin_api (GST_TYPE_DIRECTOR_SAFETY_CHECKER, 0);
}
