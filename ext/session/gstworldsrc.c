/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:element-worldsrc
 * @title: worldsrc
 *
 * Streams an interactive generated world from a world session service and
 * lets the application steer it: a starting preset or image and a prompt
 * (sent as `configure`), prompt changes while playing (`prompt`, each
 * acknowledged by `prompt_applied`), resets to another world (`reset`),
 * held and one-shot movement commands (`commands`), and latency probes
 * (`ping`). Video is 1280x704 at 16 frames per second, raw (or encoded,
 * parsed, with `decode=false`), with live running-time timestamps and no
 * gaps.
 *
 * Every message of the service is posted on the bus as an element message
 * named `world/<type>` with the message's fields (`world/configured`,
 * `world/prompt_applied`, `world/reset_applied`, `world/stream_exhausted`,
 * `world/error` with `error`, `retryable` and, when a request failed,
 * `failed` ("configure", "prompt" or "reset"), `world/pong` with `ts` or
 * `client_ts`, `server_ts` and the measured `rtt_ms`, `world/session_info`,
 * `world/stats`), and emitted as #GstSessionSrc::control-message. A type
 * the contract does not define is posted as `world/unknown` with its
 * `type`; fields the contract does not name are in `other-fields`, JSON
 * text (names a service chooses never become GStreamer names). Each
 * negotiated session posts `session/negotiated` with its timings. Refused
 * values post a warning naming the field and the rule; nothing is sent. A
 * value refused while the element is in NULL (no bus yet) makes NULL→READY
 * fail with that text instead. A stream that ends before any frame was
 * delivered ends with an error carrying the last start error, never a
 * clean EOS alone.
 *
 * See docs/worldsrc.md for every property, signal and message.
 *
 * ## Example launch lines
 * |[
 * gst-launch-1.0 -e worldsrc url=http://127.0.0.1:8080/world/start-session \
 *     prompt="a misty pine forest" ! videoconvert ! \
 *     x264enc tune=zerolatency ! mp4mux ! filesink location=world.mp4
 * ]| Records a world to MP4, finalised on Ctrl-C.
 * |[
 * gst-launch-1.0 -e worldsrc url=http://127.0.0.1:8080/world/start-session \
 *     decode=false control-script=steer.txt ! webmmux ! \
 *     filesink location=world.webm
 * ]| Records the VP8 stream as it arrives, steered by a control script.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/session/worldcontroller.h>

#include "gstworldsrc.h"

GST_DEBUG_CATEGORY_STATIC (gst_world_src_debug);
#define GST_CAT_DEFAULT gst_world_src_debug

enum
{
  PROP_0,
  PROP_PROMPT,
  PROP_PRESET,
  PROP_IMAGE_URL,
  PROP_COMMANDS,
  PROP_SESSION_INFO,
  PROP_STATS,
  PROP_RTT,
};

enum
{
  SIGNAL_PRESS,
  SIGNAL_RELEASE,
  SIGNAL_ACTIVATE,
  SIGNAL_RESET,
  SIGNAL_PING,
  SIGNAL_SEND_KEYS,
  LAST_SIGNAL
};

static guint signals[LAST_SIGNAL];

struct _GstWorldSrc
{
  GstSessionSrc parent;

  /* ctrl lock (GST_SESSION_SRC_CTRL_LOCK): the controller, which holds
   * the setup (preset, image-url, prompt) */
  GstSessionWorldController *ctrl;
};

G_DEFINE_TYPE (GstWorldSrc, gst_world_src, GST_TYPE_SESSION_SRC);
GST_ELEMENT_REGISTER_DEFINE (worldsrc, "worldsrc", GST_RANK_NONE,
    GST_TYPE_WORLD_SRC);

static GstStaticPadTemplate video_template = GST_STATIC_PAD_TEMPLATE ("video",
    GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS ("video/x-raw, framerate = (fraction) 16/1; "
        "video/x-vp8; video/x-h264, stream-format = (string) avc, "
        "alignment = (string) au"));

/* ---- controls: validate and queue under the controller lock, refuse
 * with a warning (nothing sent) ---- */

typedef gboolean (*SetFunc) (GstSessionWorldController * ctrl, guint set,
    GError ** error);

/* Under the controller lock: the control's events to the outbox */
static void
collect (GstWorldSrc * self)
{
  gst_session_src_collect_events (GST_SESSION_SRC (self));
}

/* After the controller lock: refused or accepted */
static gboolean
done (GstWorldSrc * self, const gchar * what, gboolean ok, GError * err)
{
  return gst_session_src_control_done (GST_SESSION_SRC (self), what, ok, err);
}

static gboolean
command_set_action (GstWorldSrc * self, const gchar * what,
    const gchar * names, SetFunc func)
{
  GError *err = NULL;
  guint set = 0;
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  ok = gst_session_world_commands_parse (names, &set, &err) &&
      func (self->ctrl, set, &err);
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  return done (self, what, ok, err);
}

static gboolean
gst_world_src_press (GstWorldSrc * self, const gchar * commands)
{
  return command_set_action (self, "press", commands,
      gst_session_world_controller_press);
}

static gboolean
gst_world_src_release (GstWorldSrc * self, const gchar * commands)
{
  return command_set_action (self, "release", commands,
      gst_session_world_controller_release);
}

static gboolean
gst_world_src_activate (GstWorldSrc * self, const gchar * commands)
{
  return command_set_action (self, "activate", commands,
      gst_session_world_controller_activate);
}

static gboolean
gst_world_src_reset (GstWorldSrc * self, const gchar * preset,
    const gchar * image_url, const gchar * prompt)
{
  GError *err = NULL;
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  ok = gst_session_world_controller_reset (self->ctrl, preset, image_url,
      prompt, &err);
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  return done (self, "reset", ok, err);
}

static gboolean
gst_world_src_ping (GstWorldSrc * self)
{
  GError *err = NULL;
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  ok = gst_session_world_controller_ping (self->ctrl, &err);
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  return done (self, "ping", ok, err);
}

static gboolean
gst_world_src_send_keys (GstWorldSrc * self, const gchar * const *pressed,
    const gchar * const *activated)
{
  GError *err = NULL;
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  ok = gst_session_world_controller_send_keys (self->ctrl, pressed,
      activated, &err);
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  return done (self, "send-keys", ok, err);
}

/* ---- GstSessionSrc vfuncs (controller lock held) ---- */

static void
gst_world_src_channel_open (GstSessionSrc * src)
{
  gst_session_world_controller_channel_open (GST_WORLD_SRC (src)->ctrl);
}

static void
gst_world_src_channel_closed (GstSessionSrc * src)
{
  gst_session_world_controller_channel_closed (GST_WORLD_SRC (src)->ctrl);
}

static void
gst_world_src_receive (GstSessionSrc * src, const gchar * text)
{
  gst_session_world_controller_receive (GST_WORLD_SRC (src)->ctrl, text, -1);
}

static gboolean
gst_world_src_probe (GstSessionSrc * src)
{
  return gst_session_world_controller_probe (GST_WORLD_SRC (src)->ctrl);
}

static gboolean
gst_world_src_stop (GstSessionSrc * src)
{
  return gst_session_world_controller_stop (GST_WORLD_SRC (src)->ctrl, NULL);
}

static GQueue *
gst_world_src_take_events (GstSessionSrc * src)
{
  return gst_session_world_controller_take_events (GST_WORLD_SRC (src)->ctrl);
}

static gboolean
gst_world_src_apply_action (GstSessionSrc * src,
    const GstSessionControlAction * a, GError ** error)
{
  GstWorldSrc *self = GST_WORLD_SRC (src);
  GstSessionWorldController *ctrl = self->ctrl;

  switch (a->type) {
    case GST_SESSION_CONTROL_ACTION_PROMPT:
      return gst_session_world_controller_set_prompt (ctrl, a->text, error);
    case GST_SESSION_CONTROL_ACTION_COMMANDS:
      return gst_session_world_controller_set_commands (ctrl, a->commands,
          error);
    case GST_SESSION_CONTROL_ACTION_PRESS:
      return gst_session_world_controller_press (ctrl, a->commands, error);
    case GST_SESSION_CONTROL_ACTION_RELEASE:
      return gst_session_world_controller_release (ctrl, a->commands, error);
    case GST_SESSION_CONTROL_ACTION_ACTIVATE:
      return gst_session_world_controller_activate (ctrl, a->commands, error);
    case GST_SESSION_CONTROL_ACTION_RESET:
      return gst_session_world_controller_reset (ctrl, a->preset,
          a->image_url, a->text, error);
    case GST_SESSION_CONTROL_ACTION_PING:
      return gst_session_world_controller_ping (ctrl, error);
    default:
      g_set_error (error, GST_SESSION_ERROR,
          GST_SESSION_ERROR_INVALID_ARGUMENT, "%s is not a world action",
          gst_session_control_action_type_to_string (a->type));
      return FALSE;
  }
}

/* ---- properties ---- */

/* @prop_id (PROP_PROMPT, PROP_PRESET or PROP_IMAGE_URL) set to @value */
static void
set_setup_property (GstWorldSrc * self, guint prop_id, const GValue * value)
{
  GstSessionSrc *src = GST_SESSION_SRC (self);
  GstSessionWorldController *ctrl = self->ctrl;
  const gchar *v = g_value_get_string (value);
  const gchar *what = prop_id == PROP_PROMPT ? "prompt" :
      prop_id == PROP_PRESET ? "preset" : "image-url";
  GError *err = NULL;
  gboolean ok;

  GST_SESSION_SRC_CTRL_LOCK (self);
  if (gst_session_src_is_playing (src) && prop_id != PROP_PROMPT) {
    g_set_error (&err, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "%s is sent in configure, once per session: use the \"reset\" "
        "action signal to change the world while playing", what);
    ok = FALSE;
  } else if (prop_id == PROP_PROMPT && gst_session_src_is_playing (src)) {
    ok = gst_session_world_controller_set_prompt (ctrl, v, &err);
  } else {
    /* the controller's own strings may be passed back: it copies each
     * before it frees the one it replaces */
    ok = gst_session_world_controller_set_setup (ctrl,
        prop_id == PROP_PRESET ? v :
        gst_session_world_controller_get_preset (ctrl),
        prop_id == PROP_IMAGE_URL ? v :
        gst_session_world_controller_get_image_url (ctrl),
        prop_id == PROP_PROMPT ? v :
        gst_session_world_controller_get_prompt (ctrl), &err);
  }
  collect (self);
  GST_SESSION_SRC_CTRL_UNLOCK (self);
  done (self, what, ok, err);
}

static void
gst_world_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstWorldSrc *self = GST_WORLD_SRC (object);

  switch (prop_id) {
    case PROP_PROMPT:
    case PROP_PRESET:
    case PROP_IMAGE_URL:
      set_setup_property (self, prop_id, value);
      break;
    case PROP_COMMANDS:{
      GError *err = NULL;
      guint set = 0;
      gboolean ok;

      GST_SESSION_SRC_CTRL_LOCK (self);
      ok = gst_session_world_commands_parse (g_value_get_string (value),
          &set, &err) &&
          gst_session_world_controller_set_commands (self->ctrl, set, &err);
      collect (self);
      GST_SESSION_SRC_CTRL_UNLOCK (self);
      done (self, "commands", ok, err);
      break;
    }
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
}

static void
gst_world_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstWorldSrc *self = GST_WORLD_SRC (object);

  GST_SESSION_SRC_CTRL_LOCK (self);
  switch (prop_id) {
    case PROP_PROMPT:
      g_value_set_string (value,
          gst_session_world_controller_get_prompt (self->ctrl));
      break;
    case PROP_PRESET:
      g_value_set_string (value,
          gst_session_world_controller_get_preset (self->ctrl));
      break;
    case PROP_IMAGE_URL:
      g_value_set_string (value,
          gst_session_world_controller_get_image_url (self->ctrl));
      break;
    case PROP_COMMANDS:
      g_value_take_string (value, gst_session_world_commands_to_string
          (gst_session_world_controller_get_held (self->ctrl)));
      break;
    case PROP_SESSION_INFO:
      g_value_take_boxed (value,
          gst_session_world_controller_get_session_info (self->ctrl));
      break;
    case PROP_STATS:
      g_value_take_boxed (value,
          gst_session_world_controller_get_stats (self->ctrl));
      break;
    case PROP_RTT:
      g_value_set_double (value,
          gst_session_world_controller_get_last_rtt (self->ctrl));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_SESSION_SRC_CTRL_UNLOCK (self);
}

static void
gst_world_src_finalize (GObject * object)
{
  GstWorldSrc *self = GST_WORLD_SRC (object);

  gst_session_world_controller_free (self->ctrl);
  G_OBJECT_CLASS (gst_world_src_parent_class)->finalize (object);
}

static void
gst_world_src_init (GstWorldSrc * self)
{
  self->ctrl = gst_session_world_controller_new ();
}

static void
gst_world_src_class_init (GstWorldSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstSessionSrcClass *src_class = GST_SESSION_SRC_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_world_src_debug, "worldsrc", 0,
      "world session source");

  gobject_class->set_property = gst_world_src_set_property;
  gobject_class->get_property = gst_world_src_get_property;
  gobject_class->finalize = gst_world_src_finalize;

  src_class->app = GST_SESSION_APP_WORLD;
  src_class->has_audio = FALSE;
  src_class->fps_n = GST_SESSION_WORLD_FPS_N;
  src_class->fps_d = GST_SESSION_WORLD_FPS_D;
  src_class->width = GST_SESSION_WORLD_WIDTH;
  src_class->height = GST_SESSION_WORLD_HEIGHT;
  src_class->default_playout = GST_SESSION_PLAYOUT_INTERACTIVE;
  src_class->default_renew = FALSE;
  src_class->channel_open = gst_world_src_channel_open;
  src_class->channel_closed = gst_world_src_channel_closed;
  src_class->receive = gst_world_src_receive;
  src_class->stop = gst_world_src_stop;
  src_class->probe = gst_world_src_probe;
  src_class->take_events = gst_world_src_take_events;
  src_class->apply_action = gst_world_src_apply_action;

  /**
   * GstWorldSrc:prompt:
   *
   * The scene description, at most 2000 characters. Set before playing it
   * goes in `configure`; set while playing it is sent as a `prompt`
   * message (1 to 2000 characters), serially, each acknowledged by
   * `prompt_applied`. An invalid value is refused with a warning and the
   * property keeps its value.
   */
  g_object_class_install_property (gobject_class, PROP_PROMPT,
      g_param_spec_string ("prompt", "Prompt",
          "Scene description (sent in configure, then as prompt messages)",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstWorldSrc:preset:
   *
   * A built-in world (at most 100 characters, e.g. "desert-valley"), sent
   * in `configure`. To change worlds while playing use #GstWorldSrc::reset.
   */
  g_object_class_install_property (gobject_class, PROP_PRESET,
      g_param_spec_string ("preset", "Preset", "Built-in starting world",
          NULL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstWorldSrc:image-url:
   *
   * A starting image (at most 4096 characters) used in place of a
   * built-in world; the service prefers it over #GstWorldSrc:preset.
   */
  g_object_class_install_property (gobject_class, PROP_IMAGE_URL,
      g_param_spec_string ("image-url", "Image URL",
          "Starting image (wins over preset)", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstWorldSrc:commands:
   *
   * The held commands, joined by "+" (e.g. "forward+look_left"; "" for
   * none), among forward, left, backward, right, look_up, look_left,
   * look_down, look_right. Two of one conflict group are refused. Each
   * change sends a `commands` report.
   */
  g_object_class_install_property (gobject_class, PROP_COMMANDS,
      g_param_spec_string ("commands", "Commands",
          "Held commands, e.g. forward+look_left", "",
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_SESSION_INFO,
      g_param_spec_boxed ("session-info", "Session info",
          "The service's last session_info", GST_TYPE_STRUCTURE,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_STATS,
      g_param_spec_boxed ("stats", "Stats", "The service's last stats",
          GST_TYPE_STRUCTURE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  g_object_class_install_property (gobject_class, PROP_RTT,
      g_param_spec_double ("rtt", "Round-trip time",
          "Last ping round trip in ms (-1: none yet)", -1, G_MAXDOUBLE, -1,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstWorldSrc::press:
   * @src: the element
   * @commands: commands to hold, e.g. "forward" or "forward+look_left"
   *
   * Holds commands until released. A command that conflicts with a held
   * one is refused (release it first).
   *
   * Returns: %TRUE when accepted.
   */
  signals[SIGNAL_PRESS] = g_signal_new_class_handler ("press",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_world_src_press), NULL, NULL, NULL, G_TYPE_BOOLEAN, 1,
      G_TYPE_STRING);

  /**
   * GstWorldSrc::release:
   * @src: the element
   * @commands: commands to let go of
   *
   * Returns: %TRUE when accepted.
   */
  signals[SIGNAL_RELEASE] = g_signal_new_class_handler ("release",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_world_src_release), NULL, NULL, NULL, G_TYPE_BOOLEAN,
      1, G_TYPE_STRING);

  /**
   * GstWorldSrc::activate:
   * @src: the element
   * @commands: one-shot commands
   *
   * Reports edge-triggered commands in `activated`.
   *
   * Returns: %TRUE when accepted.
   */
  signals[SIGNAL_ACTIVATE] = g_signal_new_class_handler ("activate",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_world_src_activate), NULL, NULL, NULL, G_TYPE_BOOLEAN,
      1, G_TYPE_STRING);

  /**
   * GstWorldSrc::reset:
   * @src: the element
   * @preset: (nullable): a built-in world
   * @image_url: (nullable): a starting image (wins over @preset)
   * @prompt: (nullable): a description
   *
   * Restarts with another world; acknowledged by `reset_applied`. The
   * values also become the properties (and the setup of a renewed
   * session).
   *
   * Returns: %TRUE when accepted.
   */
  signals[SIGNAL_RESET] = g_signal_new_class_handler ("reset",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_world_src_reset), NULL, NULL, NULL, G_TYPE_BOOLEAN, 3,
      G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * GstWorldSrc::ping:
   * @src: the element
   *
   * Sends `ping`; the answer is posted as `world/pong` with `rtt_ms`.
   *
   * Returns: %TRUE when accepted.
   */
  signals[SIGNAL_PING] = g_signal_new_class_handler ("ping",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION,
      G_CALLBACK (gst_world_src_ping), NULL, NULL, NULL, G_TYPE_BOOLEAN, 0);

  /**
   * GstWorldSrc::send-keys:
   * @src: the element
   * @pressed: (nullable): keys held, at most 32
   * @activated: (nullable): keys pressed since the last report, at most 32
   *
   * Sends the legacy `keys` report.
   *
   * Deprecated: the spec keeps `keys` for existing clients; use
   * #GstWorldSrc:commands and the press, release and activate signals.
   *
   * Returns: %TRUE when accepted.
   */
  signals[SIGNAL_SEND_KEYS] = g_signal_new_class_handler ("send-keys",
      G_TYPE_FROM_CLASS (klass),
      G_SIGNAL_RUN_LAST | G_SIGNAL_ACTION | G_SIGNAL_DEPRECATED,
      G_CALLBACK (gst_world_src_send_keys), NULL, NULL, NULL, G_TYPE_BOOLEAN,
      2, G_TYPE_STRV, G_TYPE_STRV);

  gst_element_class_add_static_pad_template (element_class, &video_template);
  gst_element_class_set_static_metadata (element_class,
      "World session source", "Source/Video/Network",
      "Streams an interactive generated world, steered by prompts, "
      "presets, images and movement commands", "gst-session developers");
}
