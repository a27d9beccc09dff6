/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/**
 * SECTION:gstsessionsrc
 * @title: GstSessionSrc
 * @short_description: base bin of the session sources
 *
 * What worldsrc and directorsrc share: the properties of the connection,
 * the start-session signalling with its retries, the session stage
 * (webrtcbin and the decoders, replaced on renewal) and the output stage
 * (the always-present src pads and their gap-free timeline), the control
 * channel, the element messages and the `control-message` signal, and the
 * state changes of a live source.
 *
 * Threads and locks:
 * - a private thread runs a #GMainContext for signalling, session set-up
 *   and tear-down, timers, and for acting on controller events: sending on
 *   the control channel, posting messages, emitting `control-message`;
 * - the controller lock (GST_SESSION_SRC_CTRL_LOCK) protects the subclass
 *   controller and the outbox of events; it is never held while sending,
 *   posting or emitting; the object lock (properties) is never taken while
 *   holding it, nor the other way round;
 * - state changes wait for the context (bounded) to tear a session down.
 *
 * This file holds the element (properties, states, the session thread);
 * the sessions are in gstsessionsrc-session.c, the controller's events and
 * the control script in gstsessionsrc-control.c.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsessionsrc-private.h"
#include "gstsessiondtlskey.h"

GST_DEBUG_CATEGORY (gst_session_src_debug);
#define GST_CAT_DEFAULT gst_session_src_debug

#define DEFAULT_URL NULL
#define DEFAULT_STUN_SERVER NULL
#define DEFAULT_TURN_SERVER NULL
#define DEFAULT_LATENCY -1
#define DEFAULT_STATS_INTERVAL 1000
#define DEFAULT_DECODE TRUE
#define DEFAULT_CHANNEL_LABEL "control"
#define DEFAULT_MAX_RETRIES 5
#define DEFAULT_START_TIMEOUT 15000
#define DEFAULT_GATHERING_TIMEOUT 2000
#define DEFAULT_STOP_TIMEOUT 5000
#define DEFAULT_MAX_RETRY_WAIT 30000
#define DEFAULT_RENEW_MIN_MEDIA 2000
/* no cap: the sender's own estimate and the element's REMB govern */
#define DEFAULT_MAX_BITRATE 0


enum
{
  PROP_0,
  PROP_URL,
  PROP_API_KEY,
  PROP_STUN_SERVER,
  PROP_TURN_SERVER,
  PROP_LATENCY,
  PROP_DECODE,
  PROP_CHANNEL_LABEL,
  PROP_RENEW,
  PROP_MAX_RETRIES,
  PROP_START_TIMEOUT,
  PROP_GATHERING_TIMEOUT,
  PROP_MEDIA_TIMEOUT,
  PROP_STOP_TIMEOUT,
  PROP_SESSION_ID,
  PROP_CONTROL_SCRIPT,
  PROP_STATS_INTERVAL,
  PROP_MAX_BITRATE,
  PROP_ICE_TCP,
  PROP_ICE_TRANSPORT_POLICY,
  PROP_SIGNALLER,
  PROP_MAX_RETRY_WAIT,
  PROP_RENEW_MIN_MEDIA,
  PROP_PLAYOUT,
};

enum
{
  SIGNAL_CONTROL_MESSAGE,
  LAST_SIGNAL
};

static guint signals[LAST_SIGNAL];

/* the control-message signal, for @message (gstsessionsrc-control.c) */
void
src_emit_control_message (GstSessionSrc * self, GstSessionMessage * message)
{
  g_signal_emit (self, signals[SIGNAL_CONTROL_MESSAGE], 0,
      gst_session_message_get_type_name (message),
      gst_session_message_get_structure (message));
}


static void gst_session_src_child_proxy_init (GstChildProxyInterface * iface);

GType
gst_session_playout_get_type (void)
{
  static GType type = 0;
  static const GEnumValue values[] = {
    {GST_SESSION_PLAYOUT_INTERACTIVE, "Shown once complete, after the "
          "jitter", "interactive"},
    {GST_SESSION_PLAYOUT_SMOOTH, "Time for retransmissions and the sender's "
          "spread", "smooth"},
    {0, NULL, NULL},
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstSessionPlayout",
            values));
  return type;
}

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstSessionSrc, gst_session_src,
    GST_TYPE_BIN, G_ADD_PRIVATE (GstSessionSrc)
    G_IMPLEMENT_INTERFACE (GST_TYPE_CHILD_PROXY,
        gst_session_src_child_proxy_init));

GstSessionSrcPrivate *
gst_session_src_priv (GstSessionSrc * src)
{
  return gst_session_src_get_instance_private (src);
}



/* ---- the session thread ---- */

/* GStreamer 1.22's DTLS elements make the process's certificate in the
 * first dtlsdec's instance init (see gstsessiondtlskey.c). It is made
 * ahead of need, from NULL to READY, in a thread of the element's that is
 * joined before the element goes back to NULL or is freed, so that no
 * process exits while it runs; webrtcbin's own first dtlsdec then waits
 * for it (under a g_once) while the session sets up. Once per process. */
static gint dtls_warm;

static gpointer
make_dtls_key (gpointer data)
{
  gst_session_dtls_key_prepare ();
  return NULL;
}

static void
start_dtls_key (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  if (!g_atomic_int_compare_and_exchange (&dtls_warm, 0, 1))
    return;
  priv->dtls_thread = g_thread_new ("session-dtls", make_dtls_key, NULL);
}

static void
join_dtls_key (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  if (priv->dtls_thread) {
    g_thread_join (priv->dtls_thread);
    priv->dtls_thread = NULL;
  }
}

static void
start_context (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  gst_session_context_start (&priv->ctx, "session-ctx");
  priv->context = priv->ctx.context;
}

static void
stop_context (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  gst_session_context_stop (&priv->ctx);
  priv->context = NULL;
}

/* Runs @func on the session thread and waits for it (bounded). */
static gboolean
run_sync (GstSessionSrc * self, GstSessionContextFunc func)
{
  if (gst_session_context_call (&PRIV (self)->ctx, func, self, TEARDOWN_WAIT))
    return TRUE;
  GST_ERROR_OBJECT (self, "the session thread did not answer in time");
  return FALSE;
}

/* Runs @func on the session thread later, never right away: callers may
 * hold the controller lock, even on the session thread itself. */
void
src_invoke (GstSessionSrc * self, GSourceFunc func)
{
  gst_session_context_invoke (&PRIV (self)->ctx, func, gst_object_ref (self),
      gst_object_unref);
}

static gboolean
gst_session_src_send_event (GstElement * element, GstEvent * event)
{
  GstSessionSrc *self = GST_SESSION_SRC (element);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    GST_INFO_OBJECT (self, "EOS requested: stopping the session");
    gst_event_unref (event);
    if (PRIV (self)->context == NULL || GST_STATE (self) < GST_STATE_PAUSED) {
      src_outputs_end (self);
      return TRUE;
    }
    src_invoke (self, src_eos_in_context);
    return TRUE;
  }
  return GST_ELEMENT_CLASS (gst_session_src_parent_class)->send_event
      (element, event);
}

/* ---- state ---- */

/* A value refused before the element had a bus fails NULL->READY, with the
 * text the warning had: a refused prompt never starts a default world in
 * silence. */
static gboolean
check_early_refusals (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GList *keys, *l;
  GString *text = g_string_new (NULL);
  gchar *first = NULL;

  GST_OBJECT_LOCK (self);
  keys = g_list_sort (g_hash_table_get_keys (priv->early_refusals),
      (GCompareFunc) g_strcmp0);
  for (l = keys; l; l = l->next) {
    g_string_append_printf (text, "%s%s", text->len ? "; " : "",
        (const gchar *) g_hash_table_lookup (priv->early_refusals, l->data));
    if (first == NULL)
      first = g_strdup (l->data);
  }
  g_list_free (keys);
  GST_OBJECT_UNLOCK (self);

  if (text->len == 0) {
    g_string_free (text, TRUE);
    return TRUE;
  }
  GST_ELEMENT_ERROR_WITH_DETAILS (self, LIBRARY, SETTINGS, ("%s", text->str),
      ("a value set before the element started was refused; nothing was "
          "sent; set a valid value to clear it"), ("refused", G_TYPE_STRING,
          first, NULL));
  g_free (first);
  g_string_free (text, TRUE);
  return FALSE;
}

static GstStateChangeReturn
gst_session_src_change_state (GstElement * element, GstStateChange transition)
{
  GstSessionSrc *self = GST_SESSION_SRC (element);
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  GstStateChangeReturn ret;
  guint i;

  switch (transition) {
    case GST_STATE_CHANGE_NULL_TO_READY:{
      GError *err = NULL;

      if (!gst_session_stage_check_plugins (klass->has_audio, &err)) {
        GST_ELEMENT_ERROR (self, CORE, MISSING_PLUGIN, ("%s", err->message),
            (NULL));
        g_error_free (err);
        return GST_STATE_CHANGE_FAILURE;
      }
      if (!check_early_refusals (self) || !src_load_script (self))
        return GST_STATE_CHANGE_FAILURE;
      start_dtls_key (self);
      start_context (self);
      break;
    }
    case GST_STATE_CHANGE_READY_TO_PAUSED:{
      GError *err = NULL;

      if (klass->check_start && !klass->check_start (self, &err)) {
        GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message),
            (NULL));
        g_error_free (err);
        return GST_STATE_CHANGE_FAILURE;
      }
    }
      priv->ended = FALSE;
      priv->stopping = FALSE;
      gst_session_lifecycle_new_run (&priv->lifecycle);
      gst_session_scheduler_rewind (&priv->scheduler);
      break;
    case GST_STATE_CHANGE_PAUSED_TO_READY:
      /* no sample may arrive while the outputs stop */
      run_sync (self, src_stop_in_context);
      for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
        if (priv->outputs[i])
          gst_session_output_stop (priv->outputs[i]);
      break;
    default:
      break;
  }

  ret = GST_ELEMENT_CLASS (gst_session_src_parent_class)->change_state
      (element, transition);
  if (ret == GST_STATE_CHANGE_FAILURE)
    return ret;

  switch (transition) {
    case GST_STATE_CHANGE_PAUSED_TO_PLAYING:{
      GstClock *clock = gst_element_get_clock (element);

      if (clock == NULL) {
        GST_ELEMENT_ERROR (self, CORE, CLOCK, ("No clock"), (NULL));
        return GST_STATE_CHANGE_FAILURE;
      }
      for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
        if (priv->outputs[i])
          gst_session_output_start (priv->outputs[i], clock,
              gst_element_get_base_time (element));
      gst_object_unref (clock);
      /* the spec's size, before any frame of a sender that starts small */
      if (klass->width > 0 && priv->outputs[GST_SESSION_OUTPUT_VIDEO])
        gst_session_output_set_video_size (priv->outputs
            [GST_SESSION_OUTPUT_VIDEO], klass->width, klass->height);
      if (!priv->ended)
        src_invoke (self, src_start_in_context);
      break;
    }
    case GST_STATE_CHANGE_PLAYING_TO_PAUSED:
      /* the script stops with the running time */
      src_invoke (self, src_pause_script_in_context);
      break;
    case GST_STATE_CHANGE_READY_TO_NULL:
      stop_context (self);
      join_dtls_key (self);
      gst_session_scheduler_clear (&priv->scheduler);
      break;
    default:
      break;
  }
  if (transition == GST_STATE_CHANGE_READY_TO_PAUSED ||
      transition == GST_STATE_CHANGE_PLAYING_TO_PAUSED)
    ret = GST_STATE_CHANGE_NO_PREROLL;
  return ret;
}

/* ---- properties ---- */

static void
gst_session_src_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSessionSrcPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_URL:
      g_free (priv->url);
      priv->url = g_value_dup_string (value);
      break;
    case PROP_API_KEY:
      g_free (priv->api_key);
      priv->api_key = g_value_dup_string (value);
      break;
    case PROP_SIGNALLER:{
      GstSessionSignaller *sig = g_value_dup_object (value);

      /* NULL: back to an HTTP signaller of its own */
      if (sig == NULL)
        sig = GST_SESSION_SIGNALLER (gst_object_ref_sink
            (gst_session_http_signaller_new (NULL)));
      g_set_object (&priv->configured_signaller, sig);
      g_object_unref (sig);
      break;
    }
    case PROP_STUN_SERVER:
      g_free (priv->stun_server);
      priv->stun_server = g_value_dup_string (value);
      break;
    case PROP_TURN_SERVER:
      g_free (priv->turn_server);
      priv->turn_server = g_value_dup_string (value);
      break;
    case PROP_LATENCY:
      priv->latency = g_value_get_int (value);
      break;
    case PROP_PLAYOUT:
      priv->playout = g_value_get_enum (value);
      break;
    case PROP_DECODE:
      priv->decode = g_value_get_boolean (value);
      break;
    case PROP_CHANNEL_LABEL:
      g_free (priv->channel_label);
      priv->channel_label = g_value_dup_string (value);
      if (priv->channel_label == NULL || priv->channel_label[0] == '\0') {
        g_free (priv->channel_label);
        priv->channel_label = g_strdup (DEFAULT_CHANNEL_LABEL);
      }
      break;
    case PROP_RENEW:
      priv->renew = g_value_get_boolean (value);
      break;
    case PROP_MAX_RETRIES:
      priv->max_retries = g_value_get_uint (value);
      break;
    case PROP_MAX_RETRY_WAIT:
      priv->max_retry_wait = g_value_get_uint (value);
      break;
    case PROP_RENEW_MIN_MEDIA:
      priv->renew_min_media = g_value_get_uint (value);
      break;
    case PROP_START_TIMEOUT:
      priv->start_timeout = g_value_get_uint (value);
      break;
    case PROP_GATHERING_TIMEOUT:
      priv->gathering_timeout = g_value_get_uint (value);
      break;
    case PROP_MEDIA_TIMEOUT:
      priv->media_timeout = g_value_get_uint (value);
      break;
    case PROP_STOP_TIMEOUT:
      priv->stop_timeout = g_value_get_uint (value);
      break;
    case PROP_ICE_TRANSPORT_POLICY:
      priv->ice_transport_policy = g_value_get_enum (value);
      break;
    case PROP_ICE_TCP:
      priv->ice_tcp = g_value_get_boolean (value);
      break;
    case PROP_STATS_INTERVAL:
      priv->stats_interval = g_value_get_uint (value);
      break;
    case PROP_MAX_BITRATE:
      priv->max_bitrate = g_value_get_uint (value);
      break;
    case PROP_CONTROL_SCRIPT:
      g_free (priv->control_script);
      priv->control_script = g_value_dup_string (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_session_src_get_property (GObject * object, guint prop_id, GValue * value,
    GParamSpec * pspec)
{
  GstSessionSrcPrivate *priv = PRIV (object);

  GST_OBJECT_LOCK (object);
  switch (prop_id) {
    case PROP_URL:
      g_value_set_string (value, priv->url);
      break;
    case PROP_SIGNALLER:
      g_value_set_object (value, priv->configured_signaller);
      break;
    case PROP_STUN_SERVER:
      g_value_set_string (value, priv->stun_server);
      break;
    case PROP_TURN_SERVER:
      g_value_set_string (value, priv->turn_server);
      break;
    case PROP_LATENCY:
      g_value_set_int (value, priv->latency);
      break;
    case PROP_PLAYOUT:
      g_value_set_enum (value, priv->playout);
      break;
    case PROP_DECODE:
      g_value_set_boolean (value, priv->decode);
      break;
    case PROP_CHANNEL_LABEL:
      g_value_set_string (value, priv->channel_label);
      break;
    case PROP_RENEW:
      g_value_set_boolean (value, priv->renew);
      break;
    case PROP_MAX_RETRIES:
      g_value_set_uint (value, priv->max_retries);
      break;
    case PROP_MAX_RETRY_WAIT:
      g_value_set_uint (value, priv->max_retry_wait);
      break;
    case PROP_RENEW_MIN_MEDIA:
      g_value_set_uint (value, priv->renew_min_media);
      break;
    case PROP_START_TIMEOUT:
      g_value_set_uint (value, priv->start_timeout);
      break;
    case PROP_GATHERING_TIMEOUT:
      g_value_set_uint (value, priv->gathering_timeout);
      break;
    case PROP_MEDIA_TIMEOUT:
      g_value_set_uint (value, priv->media_timeout);
      break;
    case PROP_STOP_TIMEOUT:
      g_value_set_uint (value, priv->stop_timeout);
      break;
    case PROP_SESSION_ID:
      g_value_set_string (value, priv->session_id);
      break;
    case PROP_ICE_TRANSPORT_POLICY:
      g_value_set_enum (value, priv->ice_transport_policy);
      break;
    case PROP_ICE_TCP:
      g_value_set_boolean (value, priv->ice_tcp);
      break;
    case PROP_STATS_INTERVAL:
      g_value_set_uint (value, priv->stats_interval);
      break;
    case PROP_MAX_BITRATE:
      g_value_set_uint (value, priv->max_bitrate);
      break;
    case PROP_CONTROL_SCRIPT:
      g_value_set_string (value, priv->control_script);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (object);
}

static void
gst_session_src_finalize (GObject * object)
{
  GstSessionSrcPrivate *priv = PRIV (object);
  guint i;

  join_dtls_key (GST_SESSION_SRC (object));
  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
    gst_session_output_free (priv->outputs[i]);
  g_free (priv->url);
  g_free (priv->api_key);
  g_clear_object (&priv->configured_signaller);
  g_free (priv->stun_server);
  g_free (priv->turn_server);
  g_free (priv->channel_label);
  g_free (priv->session_id);
  g_free (priv->control_script);
  gst_session_lifecycle_clear (&priv->lifecycle);
  g_hash_table_unref (priv->early_refusals);
  gst_session_scheduler_clear (&priv->scheduler);
  g_queue_clear_full (&priv->outbox,
      (GDestroyNotify) gst_session_control_event_free);
  g_mutex_clear (&priv->ctrl_lock);
  gst_session_context_clear (&priv->ctx);
  gst_session_output_origin_clear (&priv->origin);
  G_OBJECT_CLASS (gst_session_src_parent_class)->finalize (object);
}

static void
gst_session_src_constructed (GObject * object)
{
  GstSessionSrc *self = GST_SESSION_SRC (object);
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  GstElementClass *eclass = GST_ELEMENT_CLASS (klass);
  GstPadTemplate *templ;

  G_OBJECT_CLASS (gst_session_src_parent_class)->constructed (object);

  priv->renew = klass->default_renew;
  priv->playout = klass->default_playout;
  templ = gst_element_class_get_pad_template (eclass, "video");
  if (templ) {
    priv->outputs[GST_SESSION_OUTPUT_VIDEO] =
        gst_session_output_new (GST_BIN (self), "video", templ,
        GST_SESSION_OUTPUT_VIDEO, &priv->origin);
    gst_session_output_set_nominal_rate (priv->outputs
        [GST_SESSION_OUTPUT_VIDEO], klass->fps_n, klass->fps_d);
  }
  priv->origin.has_video = priv->outputs[GST_SESSION_OUTPUT_VIDEO] != NULL;
  templ = gst_element_class_get_pad_template (eclass, "audio");
  if (templ)
    priv->outputs[GST_SESSION_OUTPUT_AUDIO] =
        gst_session_output_new (GST_BIN (self), "audio", templ,
        GST_SESSION_OUTPUT_AUDIO, &priv->origin);
}

static void
gst_session_src_init (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  priv->configured_signaller = GST_SESSION_SIGNALLER (gst_object_ref_sink
      (gst_session_http_signaller_new (NULL)));
  priv->latency = DEFAULT_LATENCY;
  priv->stats_interval = DEFAULT_STATS_INTERVAL;
  priv->max_bitrate = DEFAULT_MAX_BITRATE;
  priv->decode = DEFAULT_DECODE;
  priv->channel_label = g_strdup (DEFAULT_CHANNEL_LABEL);
  priv->max_retries = DEFAULT_MAX_RETRIES;
  priv->max_retry_wait = DEFAULT_MAX_RETRY_WAIT;
  priv->renew_min_media = DEFAULT_RENEW_MIN_MEDIA;
  priv->start_timeout = DEFAULT_START_TIMEOUT;
  priv->gathering_timeout = DEFAULT_GATHERING_TIMEOUT;
  priv->media_timeout = DEFAULT_MEDIA_TIMEOUT;
  priv->stop_timeout = DEFAULT_STOP_TIMEOUT;
  g_mutex_init (&priv->ctrl_lock);
  priv->early_refusals = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  gst_session_context_init (&priv->ctx);
  gst_session_scheduler_init (&priv->scheduler, GST_ELEMENT (self),
      src_script_act, self);
  gst_session_output_origin_init (&priv->origin);
  g_queue_init (&priv->outbox);
  gst_session_lifecycle_init (&priv->lifecycle, GST_OBJECT (self));
  GST_OBJECT_FLAG_SET (self, GST_ELEMENT_FLAG_SOURCE);
}

/* ---- GstChildProxy: the bin's elements, and "signaller" ---- */

static GstChildProxyInterface *parent_child_proxy;

static GObject *
child_proxy_get_child_by_name (GstChildProxy * proxy, const gchar * name)
{
  GstSessionSrcPrivate *priv = PRIV (proxy);
  GObject *child = NULL;

  if (g_strcmp0 (name, "signaller") == 0) {
    GST_OBJECT_LOCK (proxy);
    child = g_object_ref (G_OBJECT (priv->configured_signaller));
    GST_OBJECT_UNLOCK (proxy);
    return child;
  }
  return parent_child_proxy->get_child_by_name (proxy, name);
}

static guint
child_proxy_get_children_count (GstChildProxy * proxy)
{
  return parent_child_proxy->get_children_count (proxy) + 1;
}

static GObject *
child_proxy_get_child_by_index (GstChildProxy * proxy, guint index)
{
  guint n = parent_child_proxy->get_children_count (proxy);

  if (index == n)
    return child_proxy_get_child_by_name (proxy, "signaller");
  return parent_child_proxy->get_child_by_index (proxy, index);
}

static void
gst_session_src_child_proxy_init (GstChildProxyInterface * iface)
{
  parent_child_proxy = g_type_interface_peek_parent (iface);
  iface->get_child_by_name = child_proxy_get_child_by_name;
  iface->get_children_count = child_proxy_get_children_count;
  iface->get_child_by_index = child_proxy_get_child_by_index;
}

static void
gst_session_src_class_init (GstSessionSrcClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);

  GST_DEBUG_CATEGORY_INIT (gst_session_src_debug, "sessionsrc", 0,
      "session source base");

  gobject_class->set_property = gst_session_src_set_property;
  gobject_class->get_property = gst_session_src_get_property;
  gobject_class->finalize = gst_session_src_finalize;
  gobject_class->constructed = gst_session_src_constructed;
  element_class->change_state =
      GST_DEBUG_FUNCPTR (gst_session_src_change_state);
  element_class->send_event = GST_DEBUG_FUNCPTR (gst_session_src_send_event);

  /**
   * GstSessionSrc:url:
   *
   * The start-session endpoint of the service, e.g.
   * `http://127.0.0.1:8080/world/start-session`. On a loopback address,
   * ICE gathers on 127.0.0.1 only, with connectivity checks paced 5 ms
   * apart.
   */
  g_object_class_install_property (gobject_class, PROP_URL,
      g_param_spec_string ("url", "URL", "The start-session endpoint",
          DEFAULT_URL, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:api-key:
   *
   * Sent as `Authorization: Key <api-key>`. Write-only: it is never
   * logged, posted or readable back. When unset, the environment variable
   * `GST_SESSION_API_KEY` is used: prefer it with gst-launch-1.0, whose
   * parser logs its whole command line at debug level.
   */
  g_object_class_install_property (gobject_class, PROP_API_KEY,
      g_param_spec_string ("api-key", "API key",
          "The service's API key (write-only, never logged)", NULL,
          G_PARAM_WRITABLE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:signaller:
   *
   * How the offer reaches the service and the answer comes back: any
   * #GstSessionSignaller. By default a #GstSessionHttpSignaller of the
   * element's own, which takes #GstSessionSrc:url, #GstSessionSrc:api-key
   * and #GstSessionSrc:start-timeout when they are set; its other
   * properties are reached as a child, `signaller::tls-validation=false`
   * or `signaller::keepalive-timeout=60000` (GstChildProxy). Setting NULL
   * gives the element a new HTTP signaller.
   */
  g_object_class_install_property (gobject_class, PROP_SIGNALLER,
      g_param_spec_object ("signaller", "Signaller",
          "The start-session signaller (an HTTP one by default)",
          GST_SESSION_TYPE_SIGNALLER, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_STUN_SERVER,
      g_param_spec_string ("stun-server", "STUN server",
          "STUN server, stun://host:port (none by default)",
          DEFAULT_STUN_SERVER, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_TURN_SERVER,
      g_param_spec_string ("turn-server", "TURN server",
          "TURN server, turn(s)://user:password@host:port (none by default)",
          DEFAULT_TURN_SERVER, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:latency:
   *
   * The jitterbuffer latency in milliseconds; -1 picks one for the path
   * (5 ms on loopback; elsewhere what the frame interval asks for at
   * first, then enough for two requests of a lost packet by the round trip
   * and jitter the session measures, with its own pings on the control
   * channel and its retransmissions; at most 500 ms, never down). Off
   * loopback the output places media this much later, time for a
   * retransmission.
   */
  g_object_class_install_property (gobject_class, PROP_LATENCY,
      g_param_spec_int ("latency", "Latency",
          "Jitterbuffer latency in ms (-1: 5 on loopback; elsewhere it "
          "follows the measured round trip and jitter, 40 to 500)",
          -1, 10000, DEFAULT_LATENCY, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:playout:
   *
   * How long media waits before it is shown. `interactive` (worldsrc's
   * default): a frame is placed three times the path's jitter and 7 ms
   * (at least 10 ms) after its least delayed arrival, and the pads report
   * 5 ms (the output's own delay); a frame that waited for a
   * retransmission is shown late rather than the others later. `smooth`
   * (directorsrc's default): placed late enough for two requests of each
   * lost packet, and the pads report 1.5 frames less that and 30 ms (the
   * filler's wait before it repeats a frame). Either way the jitterbuffer
   * waits for retransmissions (#GstSessionSrc:latency); on loopback
   * nothing is placed later.
   */
  g_object_class_install_property (gobject_class, PROP_PLAYOUT,
      g_param_spec_enum ("playout", "Playout",
          "interactive: shown once complete, after the jitter; smooth: time "
          "for retransmissions and the sender's spread (default: worldsrc "
          "interactive, directorsrc smooth)", GST_TYPE_SESSION_PLAYOUT,
          GST_SESSION_PLAYOUT_INTERACTIVE, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:ice-transport-policy:
   *
   * `relay` uses only candidates relayed by the TURN server of
   * #GstSessionSrc:turn-server, even where a direct path exists (it hides
   * the local addresses from the service, or tests the relay); `all` (the
   * default) uses every path that works.
   */
  g_object_class_install_property (gobject_class, PROP_ICE_TRANSPORT_POLICY,
      g_param_spec_enum ("ice-transport-policy", "ICE transport policy",
          "all: every path that works; relay: through the TURN server only",
          GST_TYPE_WEBRTC_ICE_TRANSPORT_POLICY,
          GST_WEBRTC_ICE_TRANSPORT_POLICY_ALL, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:ice-tcp:
   *
   * Gather TCP candidates too (RFC 6544), for networks that block UDP. Off
   * by default: they take gathering time, and the offer waits for nothing
   * but the UDP host candidates (and the STUN or TURN server's when one is
   * set). Never on loopback.
   */
  g_object_class_install_property (gobject_class, PROP_ICE_TCP,
      g_param_spec_boolean ("ice-tcp", "ICE TCP",
          "Gather TCP candidates too (for networks that block UDP)", FALSE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:stats-interval:
   *
   * Milliseconds between two `session/stats` element messages while a
   * session has media (0: none): packets received, lost and recovered by
   * retransmission, NACKs and PLIs sent, jitter, round trip, bitrate, and
   * the output's frames in, repeated and dropped, per stream. See
   * docs/worldsrc.md for each field.
   */
  g_object_class_install_property (gobject_class, PROP_STATS_INTERVAL,
      g_param_spec_uint ("stats-interval", "Stats interval",
          "Milliseconds between session/stats messages (0: none)", 0,
          3600000, DEFAULT_STATS_INTERVAL, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstSessionSrc:max-bitrate:
   *
   * The most video the sender is asked to send, in bits per second: the
   * REMB the element sends once a second never says more, and the offer
   * carries it as b=TIAS and b=AS on the video. 0 (the default): no cap,
   * the sender follows its own estimate of the path (transport-cc) and the
   * element's REMB. Taken when a session starts.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_BITRATE,
      g_param_spec_uint ("max-bitrate", "Max bitrate",
          "Most video bits per second the sender is told to send (REMB, "
          "b=TIAS; 0: no cap)", 0, G_MAXUINT, DEFAULT_MAX_BITRATE,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:decode:
   *
   * %TRUE outputs raw video (and audio); %FALSE outputs the encoded
   * stream as it arrived, parsed (VP8, or H.264 avc/au; Opus), for
   * recording or restreaming without re-encoding.
   */
  g_object_class_install_property (gobject_class, PROP_DECODE,
      g_param_spec_boolean ("decode", "Decode",
          "Output raw media (false: the encoded stream, parsed)",
          DEFAULT_DECODE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  g_object_class_install_property (gobject_class, PROP_CHANNEL_LABEL,
      g_param_spec_string ("channel-label", "Channel label",
          "Label of the control data channel", DEFAULT_CHANNEL_LABEL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc:renew:
   *
   * When the service ends a session that can be continued (world:
   * `stream_exhausted`; director: reason `session_limit`) or the session
   * is lost, negotiate a new one; the output timeline goes on without a
   * gap (the last frame is repeated, silence fills audio).
   */
  g_object_class_install_property (gobject_class, PROP_RENEW,
      g_param_spec_boolean ("renew", "Renew",
          "Negotiate a new session when the service ends or loses one",
          FALSE, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstSessionSrc:max-retries:
   *
   * Retries of a failed start when the error is transient, in a row. A
   * renewed session that ended before it delivered #GstSessionSrc:renew-min-media
   * of video counts as a failed start too: past this many in a row the
   * stream ends with an error that says why.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_RETRIES,
      g_param_spec_uint ("max-retries", "Max retries",
          "Retries of a failed start when the error is transient", 0, 100,
          DEFAULT_MAX_RETRIES, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstSessionSrc:max-retry-wait:
   *
   * The longest wait in ms before a retry, whatever the service asks
   * (`x-ratelimit-reset`, which may say a day) or the backoff gives; each
   * retry posts a warning saying how long it waits and why.
   */
  g_object_class_install_property (gobject_class, PROP_MAX_RETRY_WAIT,
      g_param_spec_uint ("max-retry-wait", "Max retry wait",
          "Longest wait in ms before a retry, whatever the service asks",
          0, 86400000, DEFAULT_MAX_RETRY_WAIT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstSessionSrc:renew-min-media:
   *
   * With #GstSessionSrc:renew, a session that ran normally (it delivered
   * at least this many ms of video) is renewed at once; one that ended
   * sooner, or delivered nothing, counts as a failed start: the next one
   * waits the backoff of failed starts, and #GstSessionSrc:max-retries such
   * sessions in a row end the stream with an error. 0: every session that
   * delivered a frame ran normally.
   */
  g_object_class_install_property (gobject_class, PROP_RENEW_MIN_MEDIA,
      g_param_spec_uint ("renew-min-media", "Renew min media",
          "ms of video a session must deliver for its end to renew at once "
          "(shorter: a failed start, with backoff)", 0, 3600000,
          DEFAULT_RENEW_MIN_MEDIA, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_START_TIMEOUT,
      g_param_spec_uint ("start-timeout", "Start timeout",
          "Longest wait in ms from the offer to an open control channel "
          "(0: none)", 0, G_MAXUINT, DEFAULT_START_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_GATHERING_TIMEOUT,
      g_param_spec_uint ("gathering-timeout", "Gathering timeout",
          "Longest ICE gathering in ms before the offer is sent with the "
          "candidates found so far", 10, 60000, DEFAULT_GATHERING_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  /**
   * GstSessionSrc:media-timeout:
   *
   * The session counts as lost after this many ms without a video frame
   * reaching the output (packets that arrive, or frames of another size
   * than the configured one, do not count; 0: never). After a late chunk is announced (`deadline_missed`), the
   * silence counts from the end of the announced delay. A session's first
   * media gets at least 5000 ms after its control channel opened.
   */
  g_object_class_install_property (gobject_class, PROP_MEDIA_TIMEOUT,
      g_param_spec_uint ("media-timeout", "Media timeout",
          "The session counts as lost after this many ms without media "
          "(0: never)", 0, G_MAXUINT, DEFAULT_MEDIA_TIMEOUT,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_STOP_TIMEOUT,
      g_param_spec_uint ("stop-timeout", "Stop timeout",
          "On EOS, longest wait in ms for stream_exhausted after stop", 0,
          60000, DEFAULT_STOP_TIMEOUT, G_PARAM_READWRITE |
          G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING));

  g_object_class_install_property (gobject_class, PROP_SESSION_ID,
      g_param_spec_string ("session-id", "Session id",
          "The id of the current session", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));

  /**
   * GstSessionSrc:control-script:
   *
   * A file of timed actions (docs/control-script.md) applied at their
   * running time once playing: steer a session from gst-launch without
   * code. Loaded and validated at NULL→READY; an invalid file fails the
   * state change with an error naming the line and the rule. Only a
   * regular file of at most 1 MiB is read: a FIFO, a directory, a device
   * or a larger file fails NULL→READY at once with an error naming the
   * file and the rule.
   */
  g_object_class_install_property (gobject_class, PROP_CONTROL_SCRIPT,
      g_param_spec_string ("control-script", "Control script",
          "File of timed actions applied while playing", NULL,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));

  /**
   * GstSessionSrc::control-message:
   * @src: the element
   * @type: the message type, e.g. "configured"
   * @fields: the message's fields (defaults filled in)
   *
   * Emitted for every message of the service, from the element's session
   * thread; the same message is posted on the bus as an element message
   * named `<app>/<type>`.
   */
  signals[SIGNAL_CONTROL_MESSAGE] = g_signal_new ("control-message",
      G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, G_TYPE_STRING,
      GST_TYPE_STRUCTURE | G_SIGNAL_TYPE_STATIC_SCOPE);

  gst_type_mark_as_plugin_api (GST_TYPE_SESSION_SRC, 0);
}
