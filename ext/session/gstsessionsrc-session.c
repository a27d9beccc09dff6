/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session source's sessions (gstsessionsrc.c): starting one (the
 * signaller, the stage, the offer and answer), its callbacks, the
 * watchdog (start and media timeouts, statistics; the latency that
 * follows the path is gstsessionsrc-path.c), retries, renewal, giving up,
 * and the end of the stream; all in the session thread.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/session/profile.h>

#include "gstsessionsrc-private.h"

#define GST_CAT_DEFAULT gst_session_src_debug

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
void
src_outputs_end (GstSessionSrc * self)
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

gboolean
src_outputs_started (GstSessionSrc * self)
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

void
src_clear_source (GSource ** source)
{
  if (*source) {
    g_source_destroy (*source);
    g_source_unref (*source);
    *source = NULL;
  }
}

void
src_teardown_session (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);

  src_clear_source (&priv->retry_source);
  if (priv->signaller) {
    g_signal_handlers_disconnect_by_data (priv->signaller, self);
    gst_session_signaller_stop (priv->signaller);
    g_clear_object (&priv->signaller);
  } else if (priv->prepared) {
    /* the attempt ended before its offer: the connection prepared ahead
     * (and its session thread's context) must not outlive it */
    GstSessionSignaller *signaller;

    GST_OBJECT_LOCK (self);
    signaller = g_object_ref (priv->configured_signaller);
    GST_OBJECT_UNLOCK (self);
    gst_session_signaller_stop (signaller);
    g_object_unref (signaller);
  }
  priv->prepared = FALSE;
  if (priv->stage) {
    /* a streaming thread of the stage that waits for the other stream
     * (gst_session_output_hold_begins) goes on at once */
    gst_session_output_origin_release (&priv->origin);
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
void
src_end_stream (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  if (priv->ended)
    return;
  priv->ended = TRUE;
  priv->want_session = FALSE;
  src_clear_source (&priv->drain_source);
  src_clear_source (&priv->stop_source);
  src_clear_source (&priv->watchdog_source);
  gst_session_scheduler_cancel (&priv->scheduler);
  src_teardown_session (self);
  post (self, gst_session_lifecycle_ending (&priv->lifecycle,
          src_outputs_started (self)));
  src_outputs_end (self);
}

/* A start failed for good, or a session was lost with no renewal: before
 * any output an error, after it a warning; then EOS, so that what was
 * recorded is finalised. */
static void
give_up (GstSessionSrc * self, const gchar * what, const GError * error,
    const GstSessionHttpError * http)
{
  post (self, gst_session_lifecycle_give_up (&PRIV (self)->lifecycle, what,
          error, http, src_outputs_started (self)));
  src_end_stream (self);
}

static gboolean
retry_timeout (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  src_clear_source (&priv->retry_source);
  if (priv->want_session)
    src_start_session (self);
  return G_SOURCE_REMOVE;
}

/* the next start attempt, @delay from now */
static void
retry_after (GstSessionSrc * self, GstClockTime delay)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  src_clear_source (&priv->retry_source);
  priv->retry_source = g_timeout_source_new (delay / GST_MSECOND);
  g_source_set_callback (priv->retry_source, retry_timeout, self, NULL);
  g_source_attach (priv->retry_source, priv->context);
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

  guint max_wait;

  GST_OBJECT_LOCK (self);
  max_retries = priv->max_retries;
  max_wait = priv->max_retry_wait;
  GST_OBJECT_UNLOCK (self);

  src_teardown_session (self);
  if (gst_session_lifecycle_start_failed (&priv->lifecycle, error, http,
          max_retries, max_wait * GST_MSECOND, src_outputs_started (self),
          &delay, &msg) == GST_SESSION_LIFECYCLE_END) {
    post (self, msg);
    src_end_stream (self);
    return;
  }
  post (self, msg);
  retry_after (self, delay);
}

/* A session ended (@lost: went away; else the service ended it) with
 * `renew` set: at once, after a backoff, or the end (see
 * gst_session_lifecycle_renewal). */
void
src_renew (GstSessionSrc * self, const gchar * why, gboolean lost)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  GstSessionEnded ended = { why, lost, };
  GstMessage *msg;
  GstClockTime delay;

  GST_OBJECT_LOCK (self);
  ended.min_media = priv->renew_min_media * GST_MSECOND;
  ended.max_retries = priv->max_retries;
  ended.max_wait = priv->max_retry_wait * GST_MSECOND;
  GST_OBJECT_UNLOCK (self);
  ended.media = gst_util_uint64_scale_int (g_atomic_int_get
      (&priv->session_frames), GST_SECOND * klass->fps_d, klass->fps_n);
  ended.delivered = src_outputs_started (self);

  src_teardown_session (self);
  switch (gst_session_lifecycle_renewal (&priv->lifecycle, &ended, &delay,
          &msg)) {
    case GST_SESSION_LIFECYCLE_RENEW:
      if (msg)
        post (self, msg);
      src_start_session (self);
      break;
    case GST_SESSION_LIFECYCLE_RETRY:
      post (self, msg);
      retry_after (self, delay);
      break;
    case GST_SESSION_LIFECYCLE_END:
      post (self, msg);
      src_end_stream (self);
      break;
  }
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
   * before is still coming (src_drain_then_end ends it) */
  if (priv->drain_source)
    return;
  if (priv->stopping) {
    src_end_stream (self);
    return;
  }
  GST_OBJECT_LOCK (self);
  renew = priv->renew;
  GST_OBJECT_UNLOCK (self);

  if (renew) {
    src_renew (self, why, TRUE);
    return;
  }
  gst_session_lifecycle_lost (&priv->lifecycle, why,
      src_outputs_started (self), &msg);
  post (self, msg);
  src_end_stream (self);
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
    return;
  }
  src_guess_from_signalling (self);
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
  priv->prepared = TRUE;
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
  /* the failed starts count on until the session has run normally
   * (src_renew) */
  post_negotiated (self);
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

typedef struct
{
  GstSessionSrc *self;
  guint session;
  GstClockTime at;
} Synced;

static void
synced_free (gpointer data)
{
  Synced *s = data;

  gst_object_unref (s->self);
  g_free (s);
}

/* A session's audio and video keep the sender's relation from @at on
 * (the session's number and the time taken when it happened: a renewal
 * may come before this runs) */
static gboolean
post_synced (gpointer data)
{
  Synced *s = data;

  if (PRIV (s->self)->ended)
    return G_SOURCE_REMOVE;
  gst_element_post_message (GST_ELEMENT (s->self),
      gst_message_new_element (GST_OBJECT (s->self),
          gst_structure_new ("session/synced",
              "session", G_TYPE_UINT, s->session,
              "running-time", G_TYPE_UINT64, (guint64) s->at, NULL)));
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

/* a frame of another size than the configured one, kept out: the
 * watchdog's reason says so */
static void
count_kept_out (GstSessionSrc * self, GstSample * sample)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  const GstStructure *s = gst_caps_get_structure (gst_sample_get_caps
      (sample), 0);
  gint w = 0, h = 0;

  gst_structure_get_int (s, "width", &w);
  gst_structure_get_int (s, "height", &h);
  g_atomic_int_set (&priv->kept_out_width, w);
  g_atomic_int_set (&priv->kept_out_height, h);
  g_atomic_int_inc (&priv->kept_out);
}

static void
on_sample (GstSessionStage * stage, GstSessionOutputKind kind,
    GstSample * sample, gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionOutputResult result;
  GstClockTime at;

  /* before `configured` the service streams its default size: keep it out
   * of the output (the timeline is filled meanwhile) */
  if (!g_atomic_int_get (&priv->gate_open) ||
      (kind == GST_SESSION_OUTPUT_VIDEO && !size_expected (self, sample))) {
    if (priv->outputs[kind])
      gst_session_output_touch (priv->outputs[kind]);
    if (g_atomic_int_get (&priv->gate_open))
      count_kept_out (self, sample);
    return;
  }
  if (priv->outputs[kind] == NULL)
    return;
  result = gst_session_output_push (priv->outputs[kind], sample);
  /* encoded video waits for a keyframe (a session's start, the director's
   * gate opening): asked for now, not at the sender's next one */
  if (result == GST_SESSION_OUTPUT_WANTS_KEYFRAME)
    gst_session_stage_request_keyframe (stage);
  if (kind == GST_SESSION_OUTPUT_VIDEO && result == GST_SESSION_OUTPUT_PLACED)
    g_atomic_int_inc (&priv->session_frames);
  /* the first frame of each session on the pad: its time to first frame */
  if (kind == GST_SESSION_OUTPUT_VIDEO && result == GST_SESSION_OUTPUT_PLACED &&
      g_atomic_pointer_compare_and_exchange (&priv->first_frame_at, NULL,
          GSIZE_TO_POINTER ((gsize) g_get_monotonic_time ())))
    src_invoke (self, post_first_frame);
  /* audio and video on the sender's clock: sync is the sender's from here */
  if (gst_session_output_origin_take_synced (&priv->origin, &at)) {
    Synced *s = g_new (Synced, 1);

    s->self = gst_object_ref (self);
    s->session = g_atomic_int_get (&priv->session_number);
    s->at = at;
    gst_session_context_invoke (&priv->ctx, post_synced, s, synced_free);
  }
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

/* session/stats every stats-interval ms while media flows */
static void
post_stats (GstSessionSrc * self, guint interval, gint64 now)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstStructure *s;
  GstClockTime rtt;

  if (interval == 0 || !priv->channel_open ||
      (priv->stats_state.at && now - priv->stats_state.at <
          (gint64) interval * 1000 - WATCHDOG_MS * 500))
    return;
  s = gst_session_stats_build (priv->stage, priv->outputs,
      priv->lifecycle.sessions, &priv->stats_state, now);
  rtt = gst_session_path_probe_round_trip (&priv->path_probe);
  gst_structure_set (s, "path-round-trip-ms", G_TYPE_DOUBLE,
      GST_CLOCK_TIME_IS_VALID (rtt) ? rtt / 1e6 : -1.0, NULL);
  gst_element_post_message (GST_ELEMENT (self),
      gst_message_new_element (GST_OBJECT (self), s));
}

/* Why no frame reached the output: none came, or those that came were
 * not of the configured size */
static gchar *
silence_reason (GstSessionSrc * self, guint media_timeout)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gint kept = g_atomic_int_get (&priv->kept_out);

  if (kept == 0)
    return g_strdup_printf ("no media for %u ms", media_timeout);
  return g_strdup_printf ("no frame of the configured %dx%d for %u ms: %d "
      "frames of %dx%d came", g_atomic_int_get (&priv->expected_width),
      g_atomic_int_get (&priv->expected_height), media_timeout, kept,
      g_atomic_int_get (&priv->kept_out_width),
      g_atomic_int_get (&priv->kept_out_height));
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
  src_follow_path (self, now);

  times.started_at = priv->started_at;
  times.opened_at = priv->channel_open ? priv->opened_at : 0;
  times.gate_at = !g_atomic_int_get (&priv->gate_open) ? 0 :
      MAX (times.opened_at, priv->gate_opened_at);
  times.last_input = priv->channel_open ? src_last_frame (self) : 0;
  times.grace_until = priv->media_grace_until;
  switch (gst_session_lifecycle_watch (&times,
          priv->signaller ? start_timeout : 0, media_timeout,
          DEFAULT_MEDIA_TIMEOUT, CONFIGURED_TIMEOUT_MS, now)) {
    case GST_SESSION_WATCH_START_TIMEOUT:
      err = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ,
          "no session after %u ms", start_timeout);
      start_failed (self, err, NULL);
      g_error_free (err);
      break;
    case GST_SESSION_WATCH_NOT_CONFIGURED:
      why = g_strdup_printf ("no configured from the service %u ms after "
          "the control channel opened", CONFIGURED_TIMEOUT_MS);
      session_lost (self, why);
      g_free (why);
      break;
    case GST_SESSION_WATCH_SILENT:
      why = silence_reason (self, media_timeout);
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

void
src_start_session (GstSessionSrc * self)
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
  priv->interactive = priv->playout == GST_SESSION_PLAYOUT_INTERACTIVE;
  config.ice_tcp = priv->ice_tcp;
  config.relay_only = priv->ice_transport_policy ==
      GST_WEBRTC_ICE_TRANSPORT_POLICY_RELAY;
  config.latency_ms = priv->latency >= 0 ? (guint) priv->latency :
      config.loopback_only ? AUTO_LATENCY_LOOPBACK :
      MAX (src_start_latency (self), priv->auto_latency);
  priv->follows_path = priv->latency < 0 && !config.loopback_only;
  config.stun_server = stun = g_strdup (priv->stun_server);
  config.turn_server = turn = g_strdup (priv->turn_server);
  config.channel_label = label = g_strdup (priv->channel_label);
  config.gathering_timeout = priv->gathering_timeout * GST_MSECOND;
  config.max_bitrate = priv->max_bitrate;
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
  g_atomic_int_set (&priv->session_number, priv->lifecycle.sessions);
  gst_session_stats_reset (&priv->stats_state);
  gst_session_path_probe_reset (&priv->path_probe);
  gst_session_path_readings_reset (&priv->path_readings);
  priv->path_measured = FALSE;
  priv->started_at = g_get_monotonic_time ();
  priv->opened_at = 0;
  priv->media_grace_until = 0;
  g_atomic_pointer_set (&priv->first_frame_at, NULL);
  g_atomic_int_set (&priv->session_frames, 0);
  g_atomic_int_set (&priv->kept_out, 0);
  priv->gate_opened_at = 0;
  g_atomic_int_set (&priv->gate_open, !klass->wait_configured);
  g_atomic_int_set (&priv->expected_width, 0);
  g_atomic_int_set (&priv->expected_height, 0);
  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
    if (priv->outputs[i]) {
      gst_session_output_new_session (priv->outputs[i]);
      gst_session_output_set_interactive (priv->outputs[i], priv->interactive);
    }
  /* off loopback, lost packets are asked for again: the output places
   * media the jitterbuffer's latency later, time for a retransmission to
   * arrive (on loopback nothing is lost, and nothing is added) */
  src_set_recovery (self, config.loopback_only ? 0 : priv->follows_path ?
      src_start_recovery (self) * GST_MSECOND :
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

gboolean
src_start_in_context (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  priv->want_session = TRUE;
  priv->lifecycle.attempt = 0;
  src_start_session (self);
  /* a wait set before a pause is on the old base time, maybe the old
   * clock: set anew */
  gst_session_scheduler_cancel (&priv->scheduler);
  if (!priv->ended)
    gst_session_scheduler_schedule (&priv->scheduler, priv->context);
  return G_SOURCE_REMOVE;
}

gboolean
src_pause_script_in_context (gpointer data)
{
  GstSessionSrc *self = data;

  gst_session_scheduler_cancel (&PRIV (self)->scheduler);
  return G_SOURCE_REMOVE;
}

void
src_stop_in_context (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);

  priv->want_session = FALSE;
  src_clear_source (&priv->watchdog_source);
  src_clear_source (&priv->stop_source);
  src_clear_source (&priv->drain_source);
  gst_session_scheduler_cancel (&priv->scheduler);
  src_teardown_session (self);
  src_flush_outbox (self);
}

gboolean
src_stop_timeout (gpointer data)
{
  GstSessionSrc *self = data;

  GST_INFO_OBJECT (self, "no stream_exhausted in time after stop");
  src_clear_source (&PRIV (self)->stop_source);
  src_end_stream (self);
  return G_SOURCE_REMOVE;
}

/* EOS sent to the element (gst-launch -e): `stop`, a bounded wait for
 * stream_exhausted, then EOS on every pad. */
gboolean
src_eos_in_context (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionSrcClass *klass = GST_SESSION_SRC_GET_CLASS (self);
  guint timeout;

  if (priv->ended || priv->stopping)
    return G_SOURCE_REMOVE;
  priv->stopping = TRUE;
  if (!priv->channel_open) {
    src_end_stream (self);
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
  g_source_set_callback (priv->stop_source, src_stop_timeout, self, NULL);
  g_source_attach (priv->stop_source, priv->context);
  return G_SOURCE_REMOVE;
}
