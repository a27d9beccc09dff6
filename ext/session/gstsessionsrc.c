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
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/webrtc/webrtc.h>

#include "gstsessionsrc.h"
#include "gstsessioncontext.h"
#include "gstsessionlifecycle.h"
#include "gstsessionscheduler.h"
#include "gstsessionstats.h"

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
#define DEFAULT_MEDIA_TIMEOUT 5000
#define DEFAULT_STOP_TIMEOUT 5000

/* jitterbuffer latency (ms) with latency=-1: loopback, or elsewhere */
#define AUTO_LATENCY_LOOPBACK 5
#define AUTO_LATENCY_REMOTE 200
/* the most latency=-1 rises to off loopback (see follow_path) */
#define AUTO_LATENCY_MAX 500

/* the longest stall announced by deadline_missed (late_by_seconds) that is
 * waited out before media-timeout counts: a service-sent number, clamped */
#define MAX_ANNOUNCED_LATE_S 60.0

#define WATCHDOG_MS 100
#define TEARDOWN_WAIT (5 * G_TIME_SPAN_SECOND)

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
  PROP_ICE_TCP,
  PROP_ICE_TRANSPORT_POLICY,
  PROP_SIGNALLER,
};

enum
{
  SIGNAL_CONTROL_MESSAGE,
  LAST_SIGNAL
};

static guint signals[LAST_SIGNAL];

typedef struct
{
  /* properties, under the object lock */
  gchar *url;
  gchar *api_key;
  gchar *stun_server;
  gchar *turn_server;
  gint latency;
  gboolean decode;
  gchar *channel_label;
  gboolean renew;
  guint max_retries;
  guint start_timeout;
  guint gathering_timeout;
  guint media_timeout;
  guint stop_timeout;
  gchar *session_id;
  gchar *control_script;
  guint stats_interval;
  gboolean ice_tcp;
  GstWebRTCICETransportPolicy ice_transport_policy;

  /* output stage, lives as long as the element */
  GstSessionOutputOrigin origin;
  GstSessionOutput *outputs[2];

  /* the session thread */
  GstSessionContext ctx;
  GMainContext *context;        /* ctx's, while it runs */
  GThread *dtls_thread;         /* making the DTLS key ahead of need */

  /* ctrl_lock: the subclass controller and the outbox */
  GMutex ctrl_lock;
  GQueue outbox;
  gboolean flush_pending;

  /* context thread only */
  GstSessionStage *stage;
  GstSessionSignaller *signaller;       /* the current attempt's */
  /* object lock: the one the property sets (an HTTP one by default) */
  GstSessionSignaller *configured_signaller;
  GstSessionLifecycle lifecycle;
  GSource *retry_source;
  GSource *watchdog_source;
  GstSessionStatsState stats_state;
  guint auto_latency;           /* latency=-1 off loopback: ms, or 0 */
  gboolean follows_path;        /* the session's latency is auto_latency */
  gint64 latency_checked;       /* monotonic µs */
  GSource *stop_source;
  GSource *drain_source;        /* the end, once what is in flight came */
  gint64 drain_started;
  gboolean want_session;
  gboolean channel_open;
  gboolean stopping;
  gboolean ended;
  gint64 started_at;
  gint64 opened_at;             /* control channel open (0: not yet) */
  gpointer first_frame_at;      /* atomic: monotonic µs, NULL: none yet */
  gint64 media_grace_until;     /* a late chunk was announced: wait */
  gint gate_open;               /* atomic: output flows (see wait_configured) */
  gint expected_width;          /* atomic: the configured video size, or 0 */
  gint expected_height;
  GstSessionScheduler scheduler;        /* plays the control script */

  /* object lock: refusals made while in NULL, before there is a bus to
   * tell (gst-launch sets properties first): control -> "Refused ..." */
  GHashTable *early_refusals;
} GstSessionSrcPrivate;

static void gst_session_src_child_proxy_init (GstChildProxyInterface * iface);

G_DEFINE_ABSTRACT_TYPE_WITH_CODE (GstSessionSrc, gst_session_src,
    GST_TYPE_BIN, G_ADD_PRIVATE (GstSessionSrc)
    G_IMPLEMENT_INTERFACE (GST_TYPE_CHILD_PROXY,
        gst_session_src_child_proxy_init));

#define PRIV(s) ((GstSessionSrcPrivate *) \
    gst_session_src_get_instance_private (GST_SESSION_SRC (s)))

static void start_session (GstSessionSrc * self);
static gboolean outputs_started (GstSessionSrc * self);
static void clear_source (GSource ** source);
static gboolean eos_in_context (gpointer data);

static void end_stream (GstSessionSrc * self);
static void teardown_session (GstSessionSrc * self);

/* ---- the session thread ---- */

/* GStreamer 1.22's DTLS elements make the process's certificate, a
 * 2048-bit RSA key (80-400 ms measured here), in the first dtlsdec's
 * instance init, whatever certificate is set on it later: a certificate
 * of our own (ECDSA, or one kept across processes) cannot spare that
 * time. It is made ahead of need instead, from NULL to READY, in a thread
 * of the element's that is joined before the element goes back to NULL
 * or is freed, so that no process exits while it runs; webrtcbin's own
 * first dtlsdec then waits for it (the key is made once, under a
 * g_once) while the session sets up. Once per process. */
static gint dtls_warm;

static gpointer
make_dtls_key (gpointer data)
{
  GstElement *dec = gst_element_factory_make ("dtlssrtpdec", NULL);

  if (dec)
    gst_object_unref (dec);
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
static void
invoke (GstSessionSrc * self, GSourceFunc func)
{
  gst_session_context_invoke (&PRIV (self)->ctx, func, gst_object_ref (self),
      gst_object_unref);
}

/* ---- events: sending, posting, emitting ---- */


/* After the service ended the stream, what it sent before is still in
 * flight (the jitterbuffer's latency, a retransmission): the pads end once
 * no input came for DRAIN_QUIET_MS, or after DRAIN_MAX_MS. Ending at once
 * cut the last 0.2-1.1 s of a recording. */
#define DRAIN_QUIET_MS 250
#define DRAIN_MAX_MS 2000

/* Monotonic µs of the last input any output had. */
static gint64
last_input (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gint64 last = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
    if (priv->outputs[i])
      last = MAX (last, gst_session_output_get_last_input (priv->outputs[i]));
  return last;
}

static gboolean
drain_check (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  gint64 now = g_get_monotonic_time (), last = last_input (self);

  if (now - last < DRAIN_QUIET_MS * G_TIME_SPAN_MILLISECOND &&
      now - priv->drain_started < DRAIN_MAX_MS * G_TIME_SPAN_MILLISECOND)
    return G_SOURCE_CONTINUE;
  GST_INFO_OBJECT (self, "drained in %" G_GINT64_FORMAT " ms",
      (now - priv->drain_started) / 1000);
  clear_source (&priv->drain_source);
  end_stream (self);
  return G_SOURCE_REMOVE;
}

static void
drain_then_end (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  if (priv->ended || priv->drain_source)
    return;
  if (!outputs_started (self)) {
    end_stream (self);
    return;
  }
  priv->drain_started = g_get_monotonic_time ();
  priv->drain_source = g_timeout_source_new (20);
  g_source_set_callback (priv->drain_source, drain_check, self, NULL);
  g_source_attach (priv->drain_source, priv->context);
}

static void
handle_ended (GstSessionSrc * self, const GstStructure * details)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  const gchar *reason = gst_structure_get_string (details, "reason");
  gboolean renew;

  GST_OBJECT_LOCK (self);
  renew = priv->renew;
  GST_OBJECT_UNLOCK (self);

  /* director: "stopped" is final; world and "session_limit" may renew */
  if (!priv->stopping && renew && g_strcmp0 (reason, "stopped") != 0) {
    GST_INFO_OBJECT (self, "stream exhausted: renewing the session");
    teardown_session (self);
    start_session (self);
  } else {
    GST_INFO_OBJECT (self, "stream exhausted: end of stream once what is "
        "in flight came");
    drain_then_end (self);
  }
}

/* What the base class itself learns from service messages. */
static void
observe_message (GstSessionSrc * self, GstSessionMessage * message,
    const GstStructure * details)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  const gchar *type = gst_session_message_get_type_name (message);
  gdouble late;

  if (g_strcmp0 (type, "deadline_missed") == 0 &&
      gst_structure_get_double (details, "late_by_seconds", &late)) {
    /* the service announced a late chunk: silence is expected meanwhile
     * (the output repeats the last frame and fills silence) */
    /* a service-sent number: clamped before it becomes a time (1e300 or
     * NaN would overflow the conversion) */
    if (!(late > 0))
      late = 0;
    late = MIN (late, MAX_ANNOUNCED_LATE_S);
    priv->media_grace_until = g_get_monotonic_time () +
        (gint64) (late * G_USEC_PER_SEC);
  } else if (g_strcmp0 (type, "configured") == 0 ||
      g_strcmp0 (gst_structure_get_string (details, "failed"),
          "configure") == 0) {
    gint w = 0, h = 0;

    /* the size the configured settings give (director): frames of the
     * size before still in flight are kept out too */
    if (!gst_session_director_video_size (gst_structure_get_string (details,
                "resolution"), gst_structure_get_string (details,
                "aspect_ratio"), &w, &h) ||
        !gst_structure_has_field (details, "resolution"))
      w = h = 0;
    g_atomic_int_set (&priv->expected_width, w);
    g_atomic_int_set (&priv->expected_height, h);
    if (w > 0 && priv->outputs[GST_SESSION_OUTPUT_VIDEO])
      gst_session_output_set_video_size (priv->outputs
          [GST_SESSION_OUTPUT_VIDEO], w, h);
    g_atomic_int_set (&priv->gate_open, TRUE);
  } else if (g_strcmp0 (type, "session_info") == 0 &&
      priv->outputs[GST_SESSION_OUTPUT_VIDEO]) {
    const GValue *v = gst_structure_get_value (details, "resolution");
    const GstStructure *res = v && GST_VALUE_HOLDS_STRUCTURE (v) ?
        gst_value_get_structure (v) : NULL;
    gint64 w = 0, h = 0;

    /* the world announces its size: raw output keeps it, whatever size
     * the sender adapts to (a service-sent number: bounded there) */
    if (res && gst_structure_get_int64 (res, "width", &w) &&
        gst_structure_get_int64 (res, "height", &h) && w > 0 && h > 0 &&
        w <= 8192 && h <= 8192)
      gst_session_output_set_video_size (priv->outputs
          [GST_SESSION_OUTPUT_VIDEO], (gint) w, (gint) h);
  }
}

static void
act_on_event (GstSessionSrc * self, GstSessionControlEvent * ev)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GError *err = NULL;

  switch (ev->type) {
    case GST_SESSION_CONTROL_EVENT_SEND:
      GST_DEBUG_OBJECT (self, "sending %s", ev->json);
      if (priv->stage == NULL || !priv->channel_open) {
        GST_DEBUG_OBJECT (self, "no session, not sent: %s", ev->json);
      } else if (!gst_session_stage_send (priv->stage, ev->json, &err)) {
        GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
            ("Could not send a control message: %s", err->message), (NULL));
        g_clear_error (&err);
      }
      break;
    case GST_SESSION_CONTROL_EVENT_MESSAGE:
    case GST_SESSION_CONTROL_EVENT_ENDED:
      observe_message (self, ev->message, ev->details);
      g_signal_emit (self, signals[SIGNAL_CONTROL_MESSAGE], 0,
          gst_session_message_get_type_name (ev->message),
          gst_session_message_get_structure (ev->message));
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_element (GST_OBJECT (self),
              gst_structure_copy (ev->details)));
      if (ev->type == GST_SESSION_CONTROL_EVENT_ENDED)
        handle_ended (self, ev->details);
      break;
    case GST_SESSION_CONTROL_EVENT_WARNING:
      GST_ELEMENT_WARNING (self, STREAM, FAILED, ("%s", ev->error->message),
          (NULL));
      break;
  }
}

static gboolean
flush_outbox (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GQueue events = G_QUEUE_INIT;
  GstSessionControlEvent *ev;

  g_mutex_lock (&priv->ctrl_lock);
  events = priv->outbox;
  g_queue_init (&priv->outbox);
  priv->flush_pending = FALSE;
  g_mutex_unlock (&priv->ctrl_lock);

  while ((ev = g_queue_pop_head (&events))) {
    act_on_event (self, ev);
    gst_session_control_event_free (ev);
  }
  return G_SOURCE_REMOVE;
}

/**
 * gst_session_src_collect_events:
 * @src: a session source, with its controller lock held
 *
 * Moves the subclass controller's events to the outbox, to be acted on in
 * order on the context thread.
 */
void
gst_session_src_collect_events (GstSessionSrc * src)
{
  GstSessionSrcPrivate *priv = PRIV (src);
  GQueue *events = GST_SESSION_SRC_GET_CLASS (src)->take_events (src);
  gpointer ev;

  while ((ev = g_queue_pop_head (events)))
    g_queue_push_tail (&priv->outbox, ev);
  g_queue_free (events);
  if (!g_queue_is_empty (&priv->outbox) && !priv->flush_pending &&
      priv->context) {
    priv->flush_pending = TRUE;
    invoke (src, flush_outbox);
  }
}

GMutex *
gst_session_src_get_ctrl_lock (GstSessionSrc * src)
{
  return &PRIV (src)->ctrl_lock;
}

/**
 * gst_session_src_refuse:
 * @src: a session source
 * @what: the property or action that was refused
 * @error: why: names the field and the rule
 *
 * Tells the application that a value was refused (a warning on the bus);
 * nothing was sent and the session goes on.
 */
void
gst_session_src_refuse (GstSessionSrc * src, const gchar * what,
    const GError * error)
{
  GstSessionSrcPrivate *priv = PRIV (src);

  /* in NULL the element usually has no bus yet and the warning would be
   * lost: NULL->READY fails with it instead */
  GST_OBJECT_LOCK (src);
  if (GST_STATE (src) == GST_STATE_NULL &&
      GST_STATE_NEXT (src) <= GST_STATE_NULL)
    g_hash_table_replace (priv->early_refusals, g_strdup (what),
        g_strdup_printf ("Refused %s: %s", what, error->message));
  GST_OBJECT_UNLOCK (src);
  GST_ELEMENT_WARNING_WITH_DETAILS (src, LIBRARY, SETTINGS,
      ("Refused %s: %s", what, error->message),
      ("nothing was sent; the session goes on"),
      ("refused", G_TYPE_STRING, what, "reason", G_TYPE_STRING,
          error->message, NULL));
}

/**
 * gst_session_src_end_control:
 * @src: a session source, with its controller lock held
 * @what: the property or action
 * @ok: whether the controller accepted it
 * @error: (transfer full) (nullable): why not
 *
 * Ends a control made under the controller lock: collects the events,
 * unlocks, and refuses (a warning) when @ok is %FALSE.
 *
 * Returns: @ok
 */
gboolean
gst_session_src_end_control (GstSessionSrc * src, const gchar * what,
    gboolean ok, GError * error)
{
  gst_session_src_collect_events (src);
  g_mutex_unlock (&PRIV (src)->ctrl_lock);
  if (!ok) {
    gst_session_src_refuse (src, what, error);
    g_clear_error (&error);
  } else {
    /* a value accepted after a refused one replaces it */
    GST_OBJECT_LOCK (src);
    g_hash_table_remove (PRIV (src)->early_refusals, what);
    GST_OBJECT_UNLOCK (src);
  }
  return ok;
}

gboolean
gst_session_src_is_playing (GstSessionSrc * src)
{
  return GST_STATE (src) == GST_STATE_PLAYING;
}

/* ---- the session ---- */

static gboolean
url_is_loopback (const gchar * url)
{
  GUri *uri = url ? g_uri_parse (url, G_URI_FLAGS_NONE, NULL) : NULL;
  const gchar *host;
  gboolean loopback = FALSE;

  if (uri == NULL)
    return FALSE;
  host = g_uri_get_host (uri);
  if (host) {
    GInetAddress *addr = g_inet_address_new_from_string (host);

    if (addr) {
      loopback = g_inet_address_get_is_loopback (addr);
      g_object_unref (addr);
    } else {
      loopback = g_ascii_strcasecmp (host, "localhost") == 0;
    }
  }
  g_uri_unref (uri);
  return loopback;
}

/* EOS on every pad, after filling each up to the furthest: audio and
 * video end together as they started together. */
static void
outputs_end (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstClockTime end = 0, t;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++) {
    if (priv->outputs[i] == NULL)
      continue;
    t = gst_session_output_get_end (priv->outputs[i]);
    if (GST_CLOCK_TIME_IS_VALID (t))
      end = MAX (end, t);
  }
  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++) {
    if (priv->outputs[i] == NULL)
      continue;
    if (end > 0)
      gst_session_output_fill_to (priv->outputs[i], end);
    gst_session_output_end (priv->outputs[i]);
  }
}

static gboolean
outputs_started (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionOutputStats stats;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++) {
    if (priv->outputs[i]) {
      gst_session_output_get_stats (priv->outputs[i], &stats);
      if (stats.out > 0)
        return TRUE;
    }
  }
  return FALSE;
}

static void
clear_source (GSource ** source)
{
  if (*source) {
    g_source_destroy (*source);
    g_source_unref (*source);
    *source = NULL;
  }
}

static void
teardown_session (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);

  clear_source (&priv->retry_source);
  if (priv->signaller) {
    g_signal_handlers_disconnect_by_data (priv->signaller, self);
    gst_session_signaller_stop (priv->signaller);
    g_clear_object (&priv->signaller);
  }
  if (priv->stage) {
    gst_session_stage_free (priv->stage);
    priv->stage = NULL;
  }
  if (priv->channel_open) {
    priv->channel_open = FALSE;
    g_mutex_lock (&priv->ctrl_lock);
    klass->channel_closed (self);
    gst_session_src_collect_events (self);
    g_mutex_unlock (&priv->ctrl_lock);
  }
}

static void
post (GstSessionSrc * self, GstMessage * message)
{
  if (message)
    gst_element_post_message (GST_ELEMENT (self), message);
}

/* The stream really ends: EOS on every pad (muxers finalise), the session
 * is closed. */
static void
end_stream (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  if (priv->ended)
    return;
  priv->ended = TRUE;
  priv->want_session = FALSE;
  clear_source (&priv->drain_source);
  clear_source (&priv->stop_source);
  clear_source (&priv->watchdog_source);
  gst_session_scheduler_cancel (&priv->scheduler);
  teardown_session (self);
  post (self, gst_session_lifecycle_ending (&priv->lifecycle,
          outputs_started (self)));
  outputs_end (self);
}

/* A start failed for good, or a session was lost with no renewal: before
 * any output an error, after it a warning; then EOS, so that what was
 * recorded is finalised. */
static void
give_up (GstSessionSrc * self, const gchar * what, const GError * error,
    const GstSessionHttpError * http)
{
  post (self, gst_session_lifecycle_give_up (&PRIV (self)->lifecycle, what,
          error, http, outputs_started (self)));
  end_stream (self);
}

static gboolean
retry_timeout (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  clear_source (&priv->retry_source);
  if (priv->want_session)
    start_session (self);
  return G_SOURCE_REMOVE;
}

/* One start attempt failed: retry as the error model says, or give up. */
static void
start_failed (GstSessionSrc * self, const GError * error,
    const GstSessionHttpError * http)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstMessage *msg;
  GstClockTime delay;
  guint max_retries;

  GST_OBJECT_LOCK (self);
  max_retries = priv->max_retries;
  GST_OBJECT_UNLOCK (self);

  teardown_session (self);
  if (gst_session_lifecycle_start_failed (&priv->lifecycle, error, http,
          max_retries, outputs_started (self), &delay, &msg) ==
      GST_SESSION_LIFECYCLE_END) {
    post (self, msg);
    end_stream (self);
    return;
  }
  post (self, msg);
  priv->retry_source = g_timeout_source_new (delay / GST_MSECOND);
  g_source_set_callback (priv->retry_source, retry_timeout, self, NULL);
  g_source_attach (priv->retry_source, priv->context);
}

/* The session went away without stream_exhausted. 1.22.0 webrtcbin gives
 * no EOS for it: ICE failure, the channel or the signalling stream closing,
 * or silence tell. */
static void
session_lost (GstSessionSrc * self, const gchar * why)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstMessage *msg;
  gboolean renew;

  if (priv->ended || !priv->want_session)
    return;
  /* the service ended the stream and closes the session: what it sent
   * before is still coming (drain_then_end ends it) */
  if (priv->drain_source)
    return;
  if (priv->stopping) {
    end_stream (self);
    return;
  }
  GST_OBJECT_LOCK (self);
  renew = priv->renew;
  GST_OBJECT_UNLOCK (self);

  if (gst_session_lifecycle_lost (&priv->lifecycle, why, renew,
          outputs_started (self), &msg) == GST_SESSION_LIFECYCLE_RENEW) {
    post (self, msg);
    teardown_session (self);
    start_session (self);
    return;
  }
  post (self, msg);
  end_stream (self);
}

/* ---- stage and signaller callbacks (on the context) ---- */

static void
on_answer (GstSessionSignaller * signaller, const gchar * sdp,
    const GstStructure * answer, GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GError *err = NULL;

  if (priv->stage == NULL)
    return;
  GST_INFO_OBJECT (self, "answer received");
  if (!gst_session_stage_set_answer (priv->stage, sdp, &err)) {
    start_failed (self, err, NULL);
    g_error_free (err);
  }
}

static void
on_signaller_error (GstSessionSignaller * signaller, const GError * error,
    const GstSessionHttpError * http, GstSessionSrc * self)
{
  start_failed (self, error, http);
}

static void
on_signaller_closed (GstSessionSignaller * signaller, gint reason,
    const GError * error, GstSessionSrc * self)
{
  GST_INFO_OBJECT (self, "the service closed the session stream");
  /* a stream_exhausted being handled may arrive right after: give it the
   * stage's own teardown; otherwise the session is gone */
  session_lost (self, error ? error->message : "the service ended it");
}

/* The signaller of the next attempt, configured (the HTTP one takes the
 * element's url, api-key and start-timeout when they are set, and
 * signaller::url etc. otherwise; another signaller is configured by
 * whoever made it) and told to prepare, so that what it opens overlaps
 * with the offer being made. */
static void
prepare_signaller (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSignaller *signaller;
  gchar *url, *key;
  guint timeout;

  GST_OBJECT_LOCK (self);
  url = g_strdup (priv->url);
  key = g_strdup (priv->api_key);
  timeout = priv->start_timeout;
  signaller = g_object_ref (priv->configured_signaller);
  GST_OBJECT_UNLOCK (self);
  /* gst-launch's parser logs its command line at debug level: the key is
   * better given in the environment there */
  if (key == NULL || key[0] == '\0') {
    g_free (key);
    key = g_strdup (g_getenv ("GST_SESSION_API_KEY"));
  }
  if (GST_SESSION_IS_HTTP_SIGNALLER (signaller)) {
    if (url && *url)
      g_object_set (signaller, "url", url, NULL);
    if (key && *key)
      g_object_set (signaller, "api-key", key, NULL);
    g_object_set (signaller, "timeout", timeout, NULL);
  }
  if (key)
    memset (key, 0, strlen (key));
  g_free (url);
  g_free (key);
  gst_session_signaller_prepare (signaller);
  g_object_unref (signaller);
}

static void
on_offer_ready (GstSessionStage * stage, const gchar * sdp, gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GError *err = NULL;

  GST_OBJECT_LOCK (self);
  priv->signaller = g_object_ref (priv->configured_signaller);
  GST_OBJECT_UNLOCK (self);
  g_signal_connect (priv->signaller, "answer", G_CALLBACK (on_answer), self);
  g_signal_connect (priv->signaller, "error",
      G_CALLBACK (on_signaller_error), self);
  g_signal_connect (priv->signaller, "closed",
      G_CALLBACK (on_signaller_closed), self);
  if (!gst_session_signaller_start (priv->signaller, sdp, NULL, &err)) {
    start_failed (self, err, NULL);
    g_error_free (err);
    return;
  }
  GST_OBJECT_LOCK (self);
  g_free (priv->session_id);
  priv->session_id = NULL;
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (priv->signaller),
          "session-id"))
    g_object_get (priv->signaller, "session-id", &priv->session_id, NULL);
  GST_OBJECT_UNLOCK (self);
}

static void
post_negotiated (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionStageTimes t;
  GstStructure *s;
  gchar *id;

  gst_session_stage_get_times (priv->stage, &t);
  GST_OBJECT_LOCK (self);
  id = g_strdup (priv->session_id);
  GST_OBJECT_UNLOCK (self);
#define MS(a, b) ((a) && (b) ? ((b) - (a)) / 1000.0 : -1.0)
  s = gst_structure_new ("session/negotiated",
      "session-id", G_TYPE_STRING, id,
      "session", G_TYPE_UINT, priv->lifecycle.sessions,
      "attempts", G_TYPE_UINT, priv->lifecycle.attempt + 1,
      "offer-ms", G_TYPE_DOUBLE, MS (t.created, t.offer_created),
      "gathering-ms", G_TYPE_DOUBLE, MS (t.offer_created, t.gathered),
      "signalling-ms", G_TYPE_DOUBLE, MS (t.gathered, t.answer_set),
      "ice-ms", G_TYPE_DOUBLE, MS (t.answer_set, t.connected),
      "channel-ms", G_TYPE_DOUBLE, MS (t.created, t.channel_open), NULL);
#undef MS
  g_free (id);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

static void
on_channel_open (GstSessionStage * stage, gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);

  GST_INFO_OBJECT (self, "control channel open");
  priv->channel_open = TRUE;
  priv->opened_at = g_get_monotonic_time ();
  post_negotiated (self);
  priv->lifecycle.attempt = 0;
  g_mutex_lock (&priv->ctrl_lock);
  klass->channel_open (self);
  gst_session_src_collect_events (self);
  g_mutex_unlock (&priv->ctrl_lock);
  if (priv->stopping) {
    g_mutex_lock (&priv->ctrl_lock);
    klass->stop (self);
    gst_session_src_collect_events (self);
    g_mutex_unlock (&priv->ctrl_lock);
  }
}

static void
on_channel_closed (GstSessionStage * stage, gpointer data)
{
  session_lost (GST_SESSION_SRC (data), "the control channel closed");
}

static void
on_channel_message (GstSessionStage * stage, const gchar * text, gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  GST_LOG_OBJECT (self, "received %s", text);
  g_mutex_lock (&priv->ctrl_lock);
  GST_SESSION_SRC_GET_CLASS (self)->receive (self, text);
  gst_session_src_collect_events (self);
  g_mutex_unlock (&priv->ctrl_lock);
}

static gboolean
post_first_frame (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionStageTimes t;
  gint64 at = g_atomic_pointer_get (&priv->first_frame_at) ?
      GPOINTER_TO_SIZE (priv->first_frame_at) : 0;

  if (priv->stage == NULL)
    return G_SOURCE_REMOVE;
  gst_session_stage_get_times (priv->stage, &t);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self),
          gst_structure_new ("session/first-frame",
              "session", G_TYPE_UINT, priv->lifecycle.sessions,
              "first-rtp-ms", G_TYPE_DOUBLE,
              t.first_rtp ? (t.first_rtp - t.created) / 1000.0 : -1.0,
              "first-frame-ms", G_TYPE_DOUBLE,
              at ? (at - t.created) / 1000.0 : -1.0, NULL)));
  return G_SOURCE_REMOVE;
}

static gboolean
size_expected (GstSessionSrc * self, GstSample * sample)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gint ew = g_atomic_int_get (&priv->expected_width);
  gint eh = g_atomic_int_get (&priv->expected_height);
  GstCaps *caps = gst_sample_get_caps (sample);
  gint w = 0, h = 0;

  if (ew == 0 || caps == NULL)
    return TRUE;
  gst_structure_get_int (gst_caps_get_structure (caps, 0), "width", &w);
  gst_structure_get_int (gst_caps_get_structure (caps, 0), "height", &h);
  /* encoded caps may not carry a size: let them through; nor is a frame of
   * the configured shape at another size kept out (a sender adapting its
   * resolution): raw output scales it (gstsessionoutput.c, choose_size) */
  return (w == 0 && h == 0) || (w == ew && h == eh) ||
      (h > 0 && ABS ((gdouble) w / h - (gdouble) ew / eh) < 0.02);
}

static void
on_sample (GstSessionStage * stage, GstSessionOutputKind kind,
    GstSample * sample, gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionOutputResult result;

  /* before `configured` the service streams its default size: keep it out
   * of the output (the timeline is filled meanwhile) */
  if (!g_atomic_int_get (&priv->gate_open) ||
      (kind == GST_SESSION_OUTPUT_VIDEO && !size_expected (self, sample))) {
    if (priv->outputs[kind])
      gst_session_output_touch (priv->outputs[kind]);
    return;
  }
  if (priv->outputs[kind] == NULL)
    return;
  result = gst_session_output_push (priv->outputs[kind], sample);
  /* encoded video waits for a keyframe (a session's start, the director's
   * gate opening): asked for now, not at the sender's next one */
  if (result == GST_SESSION_OUTPUT_WANTS_KEYFRAME)
    gst_session_stage_request_keyframe (stage);
  /* the first frame of each session on the pad: its time to first frame */
  if (kind == GST_SESSION_OUTPUT_VIDEO && result == GST_SESSION_OUTPUT_PLACED &&
      g_atomic_pointer_compare_and_exchange (&priv->first_frame_at, NULL,
          GSIZE_TO_POINTER ((gsize) g_get_monotonic_time ())))
    invoke (self, post_first_frame);
}

static void
on_stage_failed (GstSessionStage * stage, const GError * error, gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  if (!priv->channel_open)
    start_failed (self, error, NULL);
  else
    session_lost (self, error->message);
}

static const GstSessionStageCallbacks stage_callbacks = {
  on_offer_ready,
  on_channel_open,
  on_channel_closed,
  on_channel_message,
  on_sample,
  NULL,
  on_stage_failed,
};

/* Every output places media @recovery later (time for a retransmission);
 * a latency message when that changed what the pads report */
static void
set_recovery (GstSessionSrc * self, GstClockTime recovery)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gboolean changed = FALSE;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
    if (priv->outputs[i])
      changed |= gst_session_output_set_recovery (priv->outputs[i], recovery);
  if (changed)
    gst_element_post_message (GST_ELEMENT (self),
        gst_message_new_latency (GST_OBJECT (self)));
}

/* latency=-1 off loopback: the jitterbuffer must wait long enough for a
 * retransmission, which takes a round trip and the wait for the NACK's
 * RTCP packet. Once retransmissions measured the round trip (NACK to RTX),
 * the latency rises to twice it plus 80 ms when that is more (at most
 * AUTO_LATENCY_MAX, never down within the element's life, so the timeline
 * moves once), and the output places media that much later. */
static void
follow_path (GstSessionSrc * self, gint64 now)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionTransportStats t;
  guint current, target;

  if (!priv->follows_path || !priv->channel_open ||
      now - priv->latency_checked < G_USEC_PER_SEC)
    return;
  priv->latency_checked = now;
  gst_session_stage_get_transport_stats (priv->stage, GST_SESSION_OUTPUT_VIDEO,
      &t);
  if (!t.valid || !GST_CLOCK_TIME_IS_VALID (t.rtx_round_trip))
    return;
  current = MAX (AUTO_LATENCY_REMOTE, priv->auto_latency);
  target = (guint) (2 * t.rtx_round_trip / GST_MSECOND) + 80;
  target = MIN ((target + 19) / 20 * 20, AUTO_LATENCY_MAX);
  if (target < current + 40)
    return;
  GST_INFO_OBJECT (self, "round trip %" GST_TIME_FORMAT ": latency %u ms, "
      "was %u", GST_TIME_ARGS (t.rtx_round_trip), target, current);
  priv->auto_latency = target;
  gst_session_stage_set_latency (priv->stage, target);
  set_recovery (self, target * GST_MSECOND);
}

/* session/stats every stats-interval ms while media flows */
static void
post_stats (GstSessionSrc * self, guint interval, gint64 now)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstStructure *s;

  if (interval == 0 || !priv->channel_open ||
      (priv->stats_state.at && now - priv->stats_state.at <
          (gint64) interval * 1000 - WATCHDOG_MS * 500))
    return;
  s = gst_session_stats_build (priv->stage, priv->outputs,
      priv->lifecycle.sessions, &priv->stats_state, now);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* Silence and start-up watchdog: 1.22.0 tells nothing when a peer goes.
 * Also the clock of session/stats. */
static gboolean
watchdog (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionWatchTimes times;
  guint media_timeout, start_timeout, stats_interval;
  gint64 now = g_get_monotonic_time ();
  GError *err;
  gchar *why;

  if (priv->stage == NULL || priv->ended)
    return G_SOURCE_CONTINUE;
  GST_OBJECT_LOCK (self);
  media_timeout = priv->media_timeout;
  start_timeout = priv->start_timeout;
  stats_interval = priv->stats_interval;
  GST_OBJECT_UNLOCK (self);
  post_stats (self, stats_interval, now);
  follow_path (self, now);

  times.started_at = priv->started_at;
  times.opened_at = priv->channel_open ? priv->opened_at : 0;
  times.last_input = priv->channel_open ? last_input (self) : 0;
  times.grace_until = priv->media_grace_until;
  switch (gst_session_lifecycle_watch (&times,
          priv->signaller ? start_timeout : 0, media_timeout,
          DEFAULT_MEDIA_TIMEOUT, now)) {
    case GST_SESSION_WATCH_START_TIMEOUT:
      err = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ,
          "no session after %u ms", start_timeout);
      start_failed (self, err, NULL);
      g_error_free (err);
      break;
    case GST_SESSION_WATCH_SILENT:
      why = g_strdup_printf ("no media for %u ms", media_timeout);
      session_lost (self, why);
      g_free (why);
      break;
    case GST_SESSION_WATCH_OK:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* The session's rate (32000 Hz) unless downstream of the audio pad only
 * takes others: then the nearest one it takes. */
static gint
preferred_audio_rate (GstSessionSrc * self, gint * channels)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstCaps *filter, *peer;
  gint rate = GST_SESSION_DIRECTOR_AUDIO_RATE;

  *channels = 2;
  if (priv->outputs[GST_SESSION_OUTPUT_AUDIO] == NULL)
    return rate;
  filter = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING,
      "S16LE", "layout", G_TYPE_STRING, "interleaved", "rate",
      GST_TYPE_INT_RANGE, 8000, 96000, "channels", GST_TYPE_INT_RANGE, 1, 2,
      NULL);
  peer = gst_pad_peer_query_caps (gst_session_output_get_pad
      (priv->outputs[GST_SESSION_OUTPUT_AUDIO]), filter);
  if (!gst_caps_is_empty (peer)) {
    GstStructure *s;

    peer = gst_caps_truncate (peer);
    peer = gst_caps_make_writable (peer);
    s = gst_caps_get_structure (peer, 0);
    gst_structure_fixate_field_nearest_int (s, "rate",
        GST_SESSION_DIRECTOR_AUDIO_RATE);
    gst_structure_fixate_field_nearest_int (s, "channels", 2);
    gst_structure_get_int (s, "rate", &rate);
    gst_structure_get_int (s, "channels", channels);
  }
  gst_caps_unref (peer);
  gst_caps_unref (filter);
  if (rate != GST_SESSION_DIRECTOR_AUDIO_RATE || *channels != 2)
    GST_INFO_OBJECT (self, "downstream asks for audio at %d Hz, %d "
        "channel(s)", rate, *channels);
  return rate;
}

/* With the object lock: the start-session URL, the element's or else the
 * signaller's own `url` (signaller::url), if it has one. ICE gathers on
 * loopback alone for a loopback service (libnice skips it otherwise). */
static gchar *
signalling_url_locked (GstSessionSrcPrivate * priv)
{
  GParamSpec *pspec;
  gchar *url = NULL;

  if (priv->url && *priv->url)
    return g_strdup (priv->url);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS
      (priv->configured_signaller), "url");
  if (pspec && pspec->value_type == G_TYPE_STRING &&
      (pspec->flags & G_PARAM_READABLE))
    g_object_get (priv->configured_signaller, "url", &url, NULL);
  if (url && *url == '\0')
    g_clear_pointer (&url, g_free);
  return url;
}

static void
start_session (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  GstSessionStageConfig config = { 0, };
  GError *err = NULL;
  gchar *url, *stun, *turn, *label;
  gboolean http;
  guint i;

  if (!priv->want_session || priv->ended || priv->stage)
    return;

  /* copies taken under the lock: set_property may replace and free the
   * strings meanwhile (renewals run while PLAYING) */
  GST_OBJECT_LOCK (self);
  url = signalling_url_locked (priv);
  http = GST_SESSION_IS_HTTP_SIGNALLER (priv->configured_signaller);
  config.video = TRUE;
  config.audio = klass->has_audio;
  config.decode = priv->decode;
  config.loopback_only = url_is_loopback (url);
  config.ice_tcp = priv->ice_tcp;
  config.relay_only = priv->ice_transport_policy ==
      GST_WEBRTC_ICE_TRANSPORT_POLICY_RELAY;
  config.latency_ms = priv->latency >= 0 ? (guint) priv->latency :
      config.loopback_only ? AUTO_LATENCY_LOOPBACK :
      MAX (AUTO_LATENCY_REMOTE, priv->auto_latency);
  priv->follows_path = priv->latency < 0 && !config.loopback_only;
  config.stun_server = stun = g_strdup (priv->stun_server);
  config.turn_server = turn = g_strdup (priv->turn_server);
  config.channel_label = label = g_strdup (priv->channel_label);
  config.gathering_timeout = priv->gathering_timeout * GST_MSECOND;
  GST_OBJECT_UNLOCK (self);
  config.audio_rate = preferred_audio_rate (self, &config.audio_channels);

  if (url == NULL && http) {
    GError *e = g_error_new_literal (GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_NOT_FOUND, "No url set: the start-session "
        "endpoint, e.g. http://127.0.0.1:8080/world/start-session");

    give_up (self, "Could not start a session", e, NULL);
    g_error_free (e);
    g_free (stun);
    g_free (turn);
    g_free (label);
    return;
  }
  g_free (url);
  /* the start-session connection opens while the offer is made */
  prepare_signaller (self);

  config.clock = gst_element_get_clock (GST_ELEMENT (self));
  config.base_time = gst_element_get_base_time (GST_ELEMENT (self));

  priv->lifecycle.sessions++;
  gst_session_stats_reset (&priv->stats_state);
  priv->started_at = g_get_monotonic_time ();
  priv->opened_at = 0;
  priv->media_grace_until = 0;
  g_atomic_pointer_set (&priv->first_frame_at, NULL);
  g_atomic_int_set (&priv->gate_open, !klass->wait_configured);
  g_atomic_int_set (&priv->expected_width, 0);
  g_atomic_int_set (&priv->expected_height, 0);
  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
    if (priv->outputs[i])
      gst_session_output_new_session (priv->outputs[i]);
  /* off loopback, lost packets are asked for again: the output places
   * media the jitterbuffer's latency later, time for a retransmission to
   * arrive (on loopback nothing is lost, and nothing is added) */
  set_recovery (self, config.loopback_only ? 0 :
      config.latency_ms * GST_MSECOND);
  GST_INFO_OBJECT (self, "starting session %u (attempt %u)",
      priv->lifecycle.sessions, priv->lifecycle.attempt + 1);
  priv->stage =
      gst_session_stage_new (GST_ELEMENT (self), &config, &stage_callbacks,
      self, priv->context, &err);
  gst_clear_object (&config.clock);
  g_free (stun);
  g_free (turn);
  g_free (label);
  if (priv->stage == NULL) {
    give_up (self, "Could not create the session", err, NULL);
    g_error_free (err);
    return;
  }
  gst_session_stage_start (priv->stage);
  if (priv->watchdog_source == NULL) {
    priv->watchdog_source = g_timeout_source_new (WATCHDOG_MS);
    g_source_set_callback (priv->watchdog_source, watchdog, self, NULL);
    g_source_attach (priv->watchdog_source, priv->context);
  }
}

static gboolean
start_in_context (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  priv->want_session = TRUE;
  priv->lifecycle.attempt = 0;
  start_session (self);
  if (!priv->ended)
    gst_session_scheduler_schedule (&priv->scheduler, priv->context);
  return G_SOURCE_REMOVE;
}

static void
stop_in_context (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  priv->want_session = FALSE;
  clear_source (&priv->watchdog_source);
  clear_source (&priv->stop_source);
  clear_source (&priv->drain_source);
  gst_session_scheduler_cancel (&priv->scheduler);
  teardown_session (self);
  flush_outbox (self);
}

static gboolean
stop_timeout (gpointer data)
{
  GstSessionSrc *self = data;

  GST_INFO_OBJECT (self, "no stream_exhausted in time after stop");
  clear_source (&PRIV (self)->stop_source);
  end_stream (self);
  return G_SOURCE_REMOVE;
}

/* EOS sent to the element (gst-launch -e): `stop`, a bounded wait for
 * stream_exhausted, then EOS on every pad. */
static gboolean
eos_in_context (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  guint timeout;

  if (priv->ended || priv->stopping)
    return G_SOURCE_REMOVE;
  priv->stopping = TRUE;
  if (!priv->channel_open) {
    end_stream (self);
    return G_SOURCE_REMOVE;
  }
  g_mutex_lock (&priv->ctrl_lock);
  klass->stop (self);
  gst_session_src_collect_events (self);
  g_mutex_unlock (&priv->ctrl_lock);

  GST_OBJECT_LOCK (self);
  timeout = priv->stop_timeout;
  GST_OBJECT_UNLOCK (self);
  priv->stop_source = g_timeout_source_new (timeout);
  g_source_set_callback (priv->stop_source, stop_timeout, self, NULL);
  g_source_attach (priv->stop_source, priv->context);
  return G_SOURCE_REMOVE;
}

static gboolean
gst_session_src_send_event (GstElement * element, GstEvent * event)
{
  GstSessionSrc *self = GST_SESSION_SRC (element);

  if (GST_EVENT_TYPE (event) == GST_EVENT_EOS) {
    GST_INFO_OBJECT (self, "EOS requested: stopping the session");
    gst_event_unref (event);
    if (PRIV (self)->context == NULL || GST_STATE (self) < GST_STATE_PAUSED) {
      outputs_end (self);
      return TRUE;
    }
    invoke (self, eos_in_context);
    return TRUE;
  }
  return GST_ELEMENT_CLASS (gst_session_src_parent_class)->send_event
      (element, event);
}

/* ---- the control script ---- */

/* One due action of the control script (the scheduler's callback). */
static gboolean
script_act (const GstSessionControlAction * a, gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  GError *err = NULL;
  gboolean ok;

  if (priv->ended)
    return FALSE;
  GST_INFO_OBJECT (self, "control-script line %u at %" GST_TIME_FORMAT
      ": %s", a->line, GST_TIME_ARGS (a->time),
      gst_session_control_action_type_to_string (a->type));
  if (a->type == GST_SESSION_CONTROL_ACTION_STOP) {
    eos_in_context (self);
    return !priv->ended;
  }
  g_mutex_lock (&priv->ctrl_lock);
  ok = klass->apply_action (self, a, &err);
  gst_session_src_collect_events (self);
  g_mutex_unlock (&priv->ctrl_lock);
  if (!ok) {
    gchar *what = g_strdup_printf ("control-script line %u", a->line);

    gst_session_src_refuse (self, what, err);
    g_free (what);
    g_clear_error (&err);
  }
  return !priv->ended;
}

static gboolean
load_script (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  GstSessionControlScript *script;
  GError *err = NULL;
  gchar *path;

  gst_session_scheduler_set_script (&priv->scheduler, NULL);
  GST_OBJECT_LOCK (self);
  path = g_strdup (priv->control_script);
  GST_OBJECT_UNLOCK (self);
  if (path == NULL || path[0] == '\0') {
    g_free (path);
    return TRUE;
  }
  script = gst_session_control_script_load (klass->app, path, &err);
  g_free (path);
  if (script == NULL) {
    GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message), (NULL));
    g_error_free (err);
    return FALSE;
  }
  GST_INFO_OBJECT (self, "control script with %u actions",
      gst_session_control_script_get_n_actions (script));
  gst_session_scheduler_set_script (&priv->scheduler, script);
  return TRUE;
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
      if (!check_early_refusals (self) || !load_script (self))
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
      run_sync (self, stop_in_context);
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
      if (!priv->ended)
        invoke (self, start_in_context);
      break;
    }
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
  g_mutex_clear (&priv->origin.lock);
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
  priv->decode = DEFAULT_DECODE;
  priv->channel_label = g_strdup (DEFAULT_CHANNEL_LABEL);
  priv->max_retries = DEFAULT_MAX_RETRIES;
  priv->start_timeout = DEFAULT_START_TIMEOUT;
  priv->gathering_timeout = DEFAULT_GATHERING_TIMEOUT;
  priv->media_timeout = DEFAULT_MEDIA_TIMEOUT;
  priv->stop_timeout = DEFAULT_STOP_TIMEOUT;
  g_mutex_init (&priv->ctrl_lock);
  priv->early_refusals = g_hash_table_new_full (g_str_hash, g_str_equal,
      g_free, g_free);
  gst_session_context_init (&priv->ctx);
  gst_session_scheduler_init (&priv->scheduler, GST_ELEMENT (self),
      script_act, self);
  g_mutex_init (&priv->origin.lock);
  priv->origin.origin = GST_CLOCK_TIME_NONE;
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
   * (5 ms on loopback; elsewhere 200 ms, rising to twice the round trip
   * retransmissions measure plus 80 ms, at most 500 ms). Off loopback the
   * output places media this much later, time for a retransmission.
   */
  g_object_class_install_property (gobject_class, PROP_LATENCY,
      g_param_spec_int ("latency", "Latency",
          "Jitterbuffer latency in ms (-1: 5 on loopback; elsewhere 200, "
          "rising with the measured round trip up to 500)",
          -1, 10000, DEFAULT_LATENCY, G_PARAM_READWRITE |
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

  g_object_class_install_property (gobject_class, PROP_MAX_RETRIES,
      g_param_spec_uint ("max-retries", "Max retries",
          "Retries of a failed start when the error is transient", 0, 100,
          DEFAULT_MAX_RETRIES, G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_PLAYING));

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
   * The session counts as lost after this many ms without media (0:
   * never). After a late chunk is announced (`deadline_missed`), the
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
   * state change with an error naming the line and the rule.
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
