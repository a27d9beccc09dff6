/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The lifecycle of a session source's sessions: a failed start is retried
 * as the HTTP error model says (gst_session_http_error_retry_decision) or
 * given up; a lost session is renewed when `renew` is set; giving up
 * before any output is an ERROR (gst-launch exits non-zero), after output
 * a WARNING and EOS, so that what was recorded is finalised; a run that
 * ends without a frame is an ERROR carrying the last start error (an
 * empty recording is a failure). Decisions and messages only: the element
 * tears down, starts, posts and ends the stream.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsessionlifecycle.h"

/* the base element's category: its log tells what the lifecycle did */
GST_DEBUG_CATEGORY_EXTERN (gst_session_src_debug);
#define GST_CAT_DEFAULT gst_session_src_debug

/* a warning's debug text: the element's path and @why, as
 * GST_ELEMENT_WARNING gives it */
static GstMessage *
lifecycle_warning (GstSessionLifecycle * lc, GError * err, const gchar * why)
{
  gchar *path = gst_object_get_path_string (lc->owner);
  gchar *debug = g_strdup_printf ("%s%s%s", path, why ? ":\n" : "",
      why ? why : "");
  GstMessage *msg = gst_message_new_warning (lc->owner, err, debug);

  g_free (debug);
  g_free (path);
  return msg;
}

void
gst_session_lifecycle_init (GstSessionLifecycle * lc, GstObject * owner)
{
  memset (lc, 0, sizeof (*lc));
  lc->owner = owner;
  gst_session_retry_policy_init (&lc->policy);
}

void
gst_session_lifecycle_clear (GstSessionLifecycle * lc)
{
  g_clear_pointer (&lc->last_start_error, g_free);
  g_clear_pointer (&lc->last_start_details, gst_structure_free);
}

/* READY→PAUSED: nothing of the previous run counts */
void
gst_session_lifecycle_new_run (GstSessionLifecycle * lc)
{
  gst_session_lifecycle_clear (lc);
  lc->error_posted = FALSE;
  lc->sessions = 0;
  lc->attempt = 0;
}

static GstStructure *
error_details (const gchar * what, const GstSessionHttpError * http)
{
  GstStructure *details = gst_structure_new ("details",
      "reason", G_TYPE_STRING, what, NULL);

  if (http) {
    GstSessionHttpErrorItem *item = http->items && http->items->len ?
        g_ptr_array_index (http->items, 0) : NULL;

    gst_structure_set (details, "status", G_TYPE_UINT, http->status,
        "error-type", G_TYPE_STRING, http->error_type,
        "detail", G_TYPE_STRING, http->detail, NULL);
    if (item && item->loc)
      gst_structure_set (details, "loc", G_TYPE_STRING, item->loc, NULL);
  }
  return details;
}

/* Giving up: before any output an ERROR, after it a WARNING (the element
 * then ends the stream with EOS). The message names @what and carries the
 * service's answer when there was one. */
GstMessage *
gst_session_lifecycle_give_up (GstSessionLifecycle * lc, const gchar * what,
    const GError * error, const GstSessionHttpError * http, gboolean delivered)
{
  GstStructure *details = error_details (what, http);
  GstMessage *msg;
  gchar *text;

  text = g_strdup_printf ("%s: %s", what, error->message);
  GST_WARNING_OBJECT (lc->owner, "%s", text);
  if (delivered) {
    msg = gst_message_new_warning_with_details (lc->owner, (GError *) error,
        text, details);
  } else {
    msg = gst_message_new_error_with_details (lc->owner, (GError *) error,
        text, details);
    lc->error_posted = TRUE;
  }
  g_free (text);
  return msg;
}

/* One start attempt failed (@http: the service's answer, or NULL when
 * there was none: refused, timed out, ICE). RETRY with *@delay and a
 * warning, or END with the give-up message. */
GstSessionLifecycleNext
gst_session_lifecycle_start_failed (GstSessionLifecycle * lc,
    const GError * error, const GstSessionHttpError * http, guint max_retries,
    GstClockTime max_wait, gboolean delivered, GstClockTime * delay,
    GstMessage ** message)
{
  GstSessionRetryDecision decision;
  const gchar *reason;
  GError *err;

  lc->attempt++;
  lc->policy.max_attempts = max_retries + 1;
  g_free (lc->last_start_error);
  lc->last_start_error = g_strdup (error->message);
  if (lc->last_start_details)
    gst_structure_free (lc->last_start_details);
  lc->last_start_details = error_details ("Could not start a session", http);
  if (http) {
    decision = gst_session_http_error_retry_decision (http, &lc->policy,
        lc->attempt);
  } else {
    /* no answer at all: transient */
    decision.retry = lc->attempt < lc->policy.max_attempts;
    decision.delay = gst_session_retry_policy_backoff (&lc->policy,
        lc->attempt);
    decision.reason = decision.retry ? "no answer" : "attempts exhausted";
  }

  if (decision.retry) {
    gchar *text, *capped = NULL;

    /* a service may ask for a day (x-ratelimit-reset): max-retry-wait
     * bounds every wait, and each retry says so */
    reason = decision.reason;
    if (decision.delay > max_wait) {
      capped = g_strdup_printf ("%s; the %" G_GUINT64_FORMAT " s asked for "
          "capped by max-retry-wait", decision.reason,
          decision.delay / GST_SECOND);
      reason = capped;
      decision.delay = max_wait;
    }
    text = g_strdup_printf ("Session start failed (%s), retrying in %"
        G_GUINT64_FORMAT " ms (attempt %u of %u)", error->message,
        decision.delay / GST_MSECOND, lc->attempt + 1, lc->policy.max_attempts);
    err = g_error_new_literal (GST_RESOURCE_ERROR,
        GST_RESOURCE_ERROR_OPEN_READ, text);
    GST_WARNING_OBJECT (lc->owner, "%s (%s)", text, reason);
    *message = lifecycle_warning (lc, err, reason);
    g_error_free (err);
    g_free (text);
    g_free (capped);
    *delay = decision.delay;
    return GST_SESSION_LIFECYCLE_RETRY;
  }

  if (http) {
    err = gst_session_http_error_to_gerror (http);
    err->domain = GST_RESOURCE_ERROR;
    err->code = http->status == 401 || http->status == 403 ?
        GST_RESOURCE_ERROR_NOT_AUTHORIZED : GST_RESOURCE_ERROR_OPEN_READ;
  } else {
    err = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ,
        "%s", error->message);
  }
  *message = gst_session_lifecycle_give_up (lc, "Could not start a session",
      err, http, delivered);
  g_error_free (err);
  *delay = 0;
  return GST_SESSION_LIFECYCLE_END;
}

/* The session went away without stream_exhausted (1.22.0 webrtcbin gives
 * no EOS for it: ICE failure, the channel or the signalling stream
 * closing, or silence tell) and `renew` is not set: END with the give-up
 * message (with renew, see gst_session_lifecycle_renewal). */
GstSessionLifecycleNext
gst_session_lifecycle_lost (GstSessionLifecycle * lc, const gchar * why,
    gboolean delivered, GstMessage ** message)
{
  GError *err;

  err = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
      "The session was lost (%s)", why);
  *message = gst_session_lifecycle_give_up (lc, "Session lost", err, NULL,
      delivered);
  g_error_free (err);
  return GST_SESSION_LIFECYCLE_END;
}

/* A session ended with `renew` set: one that delivered min_media of video
 * renews at once; a shorter one is a failed start (backoff, then END). */
GstSessionLifecycleNext
gst_session_lifecycle_renewal (GstSessionLifecycle * lc,
    const GstSessionEnded * ended, GstClockTime * delay, GstMessage ** message)
{
  GError *err;
  gchar *text;

  *delay = 0;
  *message = NULL;
  if (ended->media > 0 && ended->media >= ended->min_media) {
    lc->attempt = 0;
    if (ended->lost) {
      text = g_strdup_printf ("Session lost (%s): starting a new one",
          ended->why);
      err = g_error_new_literal (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
          text);
      GST_WARNING_OBJECT (lc->owner, "%s", text);
      *message = lifecycle_warning (lc, err, NULL);
      g_error_free (err);
      g_free (text);
    }
    return GST_SESSION_LIFECYCLE_RENEW;
  }

  lc->attempt++;
  lc->policy.max_attempts = ended->max_retries + 1;
  g_free (lc->last_start_error);
  lc->last_start_error = g_strdup_printf ("session %s (%s) after %.1f s of "
      "video, less than renew-min-media's %.1f s", ended->lost ? "lost" :
      "ended", ended->why,
      ended->media / (gdouble) GST_SECOND,
      ended->min_media / (gdouble) GST_SECOND);
  if (lc->last_start_details)
    gst_structure_free (lc->last_start_details);
  lc->last_start_details = error_details ("Session too short", NULL);
  if (lc->attempt < lc->policy.max_attempts) {
    *delay = MIN (gst_session_retry_policy_backoff (&lc->policy, lc->attempt),
        ended->max_wait);
    text = g_strdup_printf ("Short session, a failed start (%s): "
        "retrying in %" G_GUINT64_FORMAT " ms (attempt %u of %u)",
        lc->last_start_error, *delay / GST_MSECOND, lc->attempt + 1,
        lc->policy.max_attempts);
    err = g_error_new_literal (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
        text);
    GST_WARNING_OBJECT (lc->owner, "%s", text);
    *message = lifecycle_warning (lc, err, "backoff");
    g_error_free (err);
    g_free (text);
    return GST_SESSION_LIFECYCLE_RETRY;
  }
  err = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_READ,
      "%u sessions in a row ended early; the last: %s", lc->attempt,
      lc->last_start_error);
  *message = gst_session_lifecycle_give_up (lc, "Sessions too short", err,
      NULL, ended->delivered);
  g_error_free (err);
  return GST_SESSION_LIFECYCLE_END;
}

/* The run ends. Before any frame was delivered (every start failed, or a
 * stop or EOS came first), an ERROR that carries the last start error,
 * unless one was posted already; else NULL (a clean end). */
GstMessage *
gst_session_lifecycle_ending (GstSessionLifecycle * lc, gboolean delivered)
{
  GstStructure *details;
  GstMessage *msg;
  GError *err;
  gchar *debug;

  if (delivered || lc->error_posted)
    return NULL;
  if (lc->last_start_error) {
    err = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ,
        "The stream ended before any frame arrived: the last session start "
        "failed (%s)", lc->last_start_error);
    details = lc->last_start_details ?
        gst_structure_copy (lc->last_start_details) :
        gst_structure_new_empty ("details");
  } else {
    err = g_error_new (GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED,
        "The stream ended before any frame arrived (%u session start%s)",
        lc->sessions, lc->sessions == 1 ? "" : "s");
    details = gst_structure_new_empty ("details");
  }
  gst_structure_set (details, "frames", G_TYPE_UINT64, (guint64) 0, NULL);
  debug = g_strdup_printf ("%u failed start attempt%s, no frame output",
      lc->attempt, lc->attempt == 1 ? "" : "s");
  GST_WARNING_OBJECT (lc->owner, "%s", err->message);
  lc->error_posted = TRUE;
  msg = gst_message_new_error_with_details (lc->owner, err, debug, details);
  g_free (debug);
  g_error_free (err);
  return msg;
}

/* The watchdog's verdict at @now (monotonic µs): no channel in
 * @start_timeout_ms, no output opened (`configured`) in
 * @configured_timeout_ms, or no frame output for @media_timeout_ms (the
 * first frame gets @first_media_timeout_ms after the output opened). */
GstSessionWatch
gst_session_lifecycle_watch (const GstSessionWatchTimes * t,
    guint start_timeout_ms, guint media_timeout_ms,
    guint first_media_timeout_ms, guint configured_timeout_ms, gint64 now)
{
  gint64 last;

  if (t->opened_at == 0) {
    if (start_timeout_ms &&
        now - t->started_at > (gint64) start_timeout_ms * 1000)
      return GST_SESSION_WATCH_START_TIMEOUT;
    return GST_SESSION_WATCH_OK;
  }
  if (t->gate_at == 0)
    return configured_timeout_ms &&
        now - t->opened_at > (gint64) configured_timeout_ms *1000 ?
        GST_SESSION_WATCH_NOT_CONFIGURED : GST_SESSION_WATCH_OK;
  if (media_timeout_ms == 0)
    return GST_SESSION_WATCH_OK;
  if (t->last_input <= t->gate_at)
    media_timeout_ms = MAX (media_timeout_ms, first_media_timeout_ms);
  last = MAX (t->last_input, t->gate_at);
  last = MAX (last, t->grace_until);
  return now - last > (gint64) media_timeout_ms *1000 ?
      GST_SESSION_WATCH_SILENT : GST_SESSION_WATCH_OK;
}
