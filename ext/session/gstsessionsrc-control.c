/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session source's control side (gstsessionsrc.c): the events the
 * controller queues (messages to send, to post, to emit; refusals; the
 * end of a run), acted on in the session thread, and the control script
 * played by the scheduler.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsessionsrc-private.h"

#define GST_CAT_DEFAULT gst_session_src_debug

/* ---- events: sending, posting, emitting ---- */


/* After the service ended the stream, what it sent before is still in
 * flight (the jitterbuffer's latency, a retransmission): the pads end once
 * no input came for DRAIN_QUIET_MS, or after DRAIN_MAX_MS. Ending at once
 * cut the last 0.2-1.1 s of a recording. */
#define DRAIN_QUIET_MS 250
#define DRAIN_MAX_MS 2000

/* Monotonic µs of the last input any output had, used or not. */
gint64
src_last_input (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gint64 last = 0;
  guint i;

  for (i = 0; i < G_N_ELEMENTS (priv->outputs); i++)
    if (priv->outputs[i])
      last = MAX (last, gst_session_output_get_last_arrival (priv->outputs[i]));
  return last;
}

/* Monotonic µs of the last video frame that reached the output: what the
 * media watchdog counts (packets, or frames kept out, fed it: a director
 * whose `configured` never came waited for ever with media arriving) */
gint64
src_last_frame (GstSessionSrc * self)
{
  GstSessionOutput *video = PRIV (self)->outputs[GST_SESSION_OUTPUT_VIDEO];

  return video ? gst_session_output_get_last_input (video) : 0;
}

static gboolean
drain_check (gpointer data)
{
  GstSessionSrc *self = data;
  GstSessionSrcPrivate *priv = PRIV (self);
  gint64 now = g_get_monotonic_time (), last = src_last_input (self);

  if (now - last < DRAIN_QUIET_MS * G_TIME_SPAN_MILLISECOND &&
      now - priv->drain_started < DRAIN_MAX_MS * G_TIME_SPAN_MILLISECOND)
    return G_SOURCE_CONTINUE;
  GST_INFO_OBJECT (self, "drained in %" G_GINT64_FORMAT " ms",
      (now - priv->drain_started) / 1000);
  src_clear_source (&priv->drain_source);
  src_end_stream (self);
  return G_SOURCE_REMOVE;
}

void
src_drain_then_end (GstSessionSrc * self)
{
  GstSessionSrcPrivate *priv = PRIV (self);

  if (priv->ended || priv->drain_source)
    return;
  if (!src_outputs_started (self)) {
    src_end_stream (self);
    return;
  }
  priv->drain_started = g_get_monotonic_time ();
  priv->drain_source = g_timeout_source_new (20);
  g_source_set_callback (priv->drain_source, drain_check, self, NULL);
  g_source_attach (priv->drain_source, priv->context);
}

static void
handle_ended (GstSessionSrc * self, gboolean final)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  gboolean renew;

  GST_OBJECT_LOCK (self);
  renew = priv->renew;
  GST_OBJECT_UNLOCK (self);

  /* the controller says whether the app's end is for good */
  if (!priv->stopping && renew && !final) {
    GST_INFO_OBJECT (self, "stream exhausted: renewing the session");
    src_renew (self, "stream exhausted", FALSE);
  } else {
    GST_INFO_OBJECT (self, "stream exhausted: end of stream once what is "
        "in flight came");
    src_drain_then_end (self);
  }
}

/* Raw video keeps the run's first size: a session announcing another
 * (@what) has its frames scaled to it, said in a warning (caps changing
 * mid-stream break a muxer; going through READY takes the new size) */
static void
keep_video_size (GstSessionSrc * self, GstSessionOutput * video, gint w,
    gint h, const gchar * what)
{
  GstCaps *caps;
  const GstStructure *s;
  gint ow = 0, oh = 0;

  if (gst_session_output_set_video_size (video, w, h) || !PRIV (self)->decode)
    return;
  caps = gst_pad_get_current_caps (gst_session_output_get_pad (video));
  s = caps ? gst_caps_get_structure (caps, 0) : NULL;
  if (s && gst_structure_get_int (s, "width", &ow) &&
      gst_structure_get_int (s, "height", &oh))
    GST_ELEMENT_WARNING (self, STREAM, FORMAT, ("The session's %s size "
            "%dx%d is not the output's %dx%d: its frames are scaled to it",
            what, w, h, ow, oh), ("the output keeps one size per run; go "
            "through READY for another"));
  gst_clear_caps (&caps);
}

/* What the controller tells the element of its app's messages: the
 * output may flow (and at which size), the size the service announced, a
 * pause of the media it announced. */
static void
observe (GstSessionSrc * self, GstSessionControlEvent * ev)
{
  GstSessionSrcPrivate *priv = PRIV (self);
  GstSessionOutput *video = priv->outputs[GST_SESSION_OUTPUT_VIDEO];
  gint w = 0, h = 0;
  gdouble seconds = 0;

  switch (ev->type) {
    case GST_SESSION_CONTROL_EVENT_OUTPUT_OPEN:
      /* frames of another size (the one before, still in flight) are
       * kept out */
      gst_structure_get_int (ev->details, "width", &w);
      gst_structure_get_int (ev->details, "height", &h);
      if (w <= 0 || h <= 0)
        w = h = 0;
      g_atomic_int_set (&priv->expected_width, w);
      g_atomic_int_set (&priv->expected_height, h);
      if (w > 0 && video)
        keep_video_size (self, video, w, h, "configured");
      if (priv->gate_opened_at == 0)
        priv->gate_opened_at = g_get_monotonic_time ();
      g_atomic_int_set (&priv->gate_open, TRUE);
      break;
    case GST_SESSION_CONTROL_EVENT_VIDEO_SIZE:
      /* raw output keeps it, whatever size the sender adapts to */
      if (gst_structure_get_int (ev->details, "width", &w) &&
          gst_structure_get_int (ev->details, "height", &h) && video)
        keep_video_size (self, video, w, h, "session_info");
      break;
    case GST_SESSION_CONTROL_EVENT_MEDIA_PAUSE:
      /* silence is expected meanwhile (the output repeats the last frame
       * and fills silence); a service-sent number, clamped before it
       * becomes a time */
      gst_structure_get_double (ev->details, "seconds", &seconds);
      seconds = CLAMP (seconds, 0, MAX_ANNOUNCED_LATE_S);
      priv->media_grace_until = g_get_monotonic_time () +
          (gint64) (seconds * G_USEC_PER_SEC);
      /* both streams resume together after it */
      gst_session_output_origin_announce_pause (&priv->origin,
          priv->media_grace_until);
      break;
    default:
      break;
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
    case GST_SESSION_CONTROL_EVENT_OUTPUT_OPEN:
    case GST_SESSION_CONTROL_EVENT_VIDEO_SIZE:
    case GST_SESSION_CONTROL_EVENT_MEDIA_PAUSE:
      observe (self, ev);
      break;
    case GST_SESSION_CONTROL_EVENT_MESSAGE:
    case GST_SESSION_CONTROL_EVENT_ENDED:
      src_emit_control_message (self, ev->message);
      gst_element_post_message (GST_ELEMENT (self),
          gst_message_new_element (GST_OBJECT (self),
              gst_structure_copy (ev->details)));
      if (ev->type == GST_SESSION_CONTROL_EVENT_ENDED)
        handle_ended (self, ev->final);
      break;
    case GST_SESSION_CONTROL_EVENT_WARNING:
      GST_ELEMENT_WARNING (self, STREAM, FAILED, ("%s", ev->error->message),
          (NULL));
      break;
    case GST_SESSION_CONTROL_EVENT_ROUND_TRIP:{
      gdouble ms = -1;

      /* a probe of the path (latency=-1 follows it) */
      if (gst_structure_get_double (ev->details, "ms", &ms))
        src_path_round_trip (self, ms);
      break;
    }
  }
}

gboolean
src_flush_outbox (gpointer data)
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
    src_invoke (src, src_flush_outbox);
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
 * gst_session_src_control_done:
 * @src: a session source
 * @what: the property or action
 * @ok: whether the controller accepted it
 * @error: (transfer full) (nullable): why not
 *
 * Ends a control, after the controller lock was released (the control
 * collected the controller's events under it): refuses (a warning) when
 * @ok is %FALSE; an accepted value replaces a refused one.
 *
 * Returns: @ok
 */
gboolean
gst_session_src_control_done (GstSessionSrc * src, const gchar * what,
    gboolean ok, GError * error)
{
  if (!ok) {
    gst_session_src_refuse (src, what, error);
    g_clear_error (&error);
  } else {
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

/* ---- the control script ---- */

/* One due action of the control script (the scheduler's callback). */
gboolean
src_script_act (const GstSessionControlAction * a, gpointer data)
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
    src_eos_in_context (self);
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

gboolean
src_load_script (GstSessionSrc * self)
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
