/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The GstSessionSignaller interface: its signals, start(), stop(),
 * prepare() and the emitters for implementations. Its HTTP
 * implementation is GstSessionHttpSignaller (httpsignaller.c, each
 * attempt in signalling-attempt.c).
 */

/**
 * SECTION:gstsessionsignaller
 * @title: GstSessionSignaller
 * @short_description: start-session signalling: offer out, answer back
 *
 * #GstSessionSignaller is the interface a source element starts its
 * session through: gst_session_signaller_start() sends the SDP offer, then
 * the signaller reports, from the #GMainContext that was the thread-default
 * context of the start() call:
 *
 * - exactly one of #GstSessionSignaller::answer (the SDP answer and the
 *   whole answer object) or #GstSessionSignaller::error (this attempt
 *   failed; the #GstSessionHttpError is given when the service answered
 *   with a non-2xx status);
 * - after an answer that came as a stream, at most one
 *   #GstSessionSignaller::closed when the stream ends (the service closed
 *   it, nothing came for the keepalive timeout, or reading failed): the
 *   session is over.
 *
 * gst_session_signaller_stop() ends the attempt or the session (closing our
 * side of the stream ends the session for the service); no signal is
 * emitted after it returns when it is called from the signaller's context
 * thread. Called from another thread, a signal whose emission had already
 * begun may still arrive; handlers that care compare the signaller they get
 * with the one they still run.
 *
 * A signaller makes one attempt per start(): retrying is for the caller,
 * with gst_session_http_error_retry_decision().
 *
 * #GstSessionHttpSignaller is the implementation of the contract's
 * start-session operation (docs/protocol.md, DESIGN decision 1):
 *
 * - `POST <url>`, `Content-Type: application/json`,
 *   `Authorization: Key <api-key>` when #GstSessionHttpSignaller:api-key is
 *   set, body `{"sdp": "<offer>", "type": "offer", "session_id": "<id>"}`;
 * - a 2xx `text/event-stream` answer: the first event with data is the
 *   answer object; the stream then stays open, with `: keepalive` comments,
 *   as long as the session lives;
 * - a 2xx `application/json` answer (or one without a content type): the
 *   body is the answer object; there is no stream and no
 *   #GstSessionSignaller::closed;
 * - any other status: the body (at most
 *   %GST_SESSION_HTTP_SIGNALLER_MAX_ERROR_BODY bytes) goes through
 *   gst_session_http_error_parse(); redirects are not followed (the key
 *   would follow them).
 *
 * The answer object must be a JSON object with a non-empty `sdp` string and
 * `type` equal to `answer`; its other fields are kept. It is handed out as
 * a #GstStructure named `answer`, with JSON values mapped as
 * #GstSessionMessage maps them (strings, %G_TYPE_INT64, %G_TYPE_DOUBLE,
 * %G_TYPE_BOOLEAN, null as a %NULL string, arrays as %GST_TYPE_ARRAY).
 * Only `sdp`, `type` and `session_id` are fields: the service's other
 * fields are in %GST_SESSION_MESSAGE_OTHER_FIELDS, as the JSON text of one
 * object, since GStreamer keeps every field name for the life of the
 * process.
 *
 * The API key is never logged, never put in an error text, and scrubbed
 * from texts the service sends back.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "signalling.h"

/* ------------------------------------------------------------------------ */
/* GstSessionSignaller                                                      */

enum
{
  SIGNAL_ANSWER,
  SIGNAL_ERROR,
  SIGNAL_CLOSED,
  N_SIGNALS
};

static guint signaller_signals[N_SIGNALS];

G_DEFINE_INTERFACE (GstSessionSignaller, gst_session_signaller, G_TYPE_OBJECT);

static void
gst_session_signaller_default_init (GstSessionSignallerInterface * iface)
{
  /**
   * GstSessionSignaller::answer:
   * @signaller: the signaller.
   * @sdp: the SDP answer.
   * @answer: the whole answer object (a #GstStructure named `answer`:
   *   `sdp`, `type`, `session_id`, and whatever else the service sent as
   *   JSON text in %GST_SESSION_MESSAGE_OTHER_FIELDS).
   *
   * The service answered the offer. Emitted at most once per start().
   */
  signaller_signals[SIGNAL_ANSWER] = g_signal_new ("answer",
      G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, G_TYPE_STRING, gst_structure_get_type ());

  /**
   * GstSessionSignaller::error:
   * @signaller: the signaller.
   * @error: what failed, in words for people.
   * @http_error: (nullable): the parsed non-2xx answer, or %NULL when the
   *   failure was not an HTTP error status (no connection, timeout, an
   *   answer that is not one).
   *
   * The attempt failed; no answer comes. Decide on a retry with
   * gst_session_http_error_retry_decision() when @http_error is set.
   */
  signaller_signals[SIGNAL_ERROR] = g_signal_new ("error",
      G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, G_TYPE_ERROR, GST_SESSION_TYPE_HTTP_ERROR);

  /**
   * GstSessionSignaller::closed:
   * @signaller: the signaller.
   * @reason: why the session ended.
   * @error: (nullable): details, or %NULL when the service closed the
   *   stream cleanly.
   *
   * The session the answer started has ended from the service's side (or
   * the connection to it was lost). Not emitted after stop().
   */
  signaller_signals[SIGNAL_CLOSED] = g_signal_new ("closed",
      G_TYPE_FROM_INTERFACE (iface), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
      G_TYPE_NONE, 2, GST_SESSION_TYPE_SIGNALLER_CLOSE_REASON, G_TYPE_ERROR);
}

/**
 * gst_session_signaller_start:
 * @signaller: a signaller.
 * @offer_sdp: the complete SDP offer (ICE gathered, no trickle).
 * @session_id: (nullable): the session id to send, or %NULL for a new
 *   random UUID.
 * @error: return location for a #GError, or %NULL.
 *
 * Starts one attempt. Call it with the #GMainContext that should run the
 * signaller pushed as thread-default; every signal is emitted from it.
 *
 * Returns: %TRUE when the attempt started (an #GstSessionSignaller::answer
 *   or #GstSessionSignaller::error follows); %FALSE with @error set when
 *   nothing started (no URL, an attempt still running, ...).
 */
gboolean
gst_session_signaller_start (GstSessionSignaller * signaller,
    const gchar * offer_sdp, const gchar * session_id, GError ** error)
{
  GstSessionSignallerInterface *iface;
  gchar *generated = NULL;
  gboolean ret;

  g_return_val_if_fail (GST_SESSION_IS_SIGNALLER (signaller), FALSE);
  g_return_val_if_fail (offer_sdp != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = GST_SESSION_SIGNALLER_GET_IFACE (signaller);
  g_return_val_if_fail (iface->start != NULL, FALSE);

  if (session_id == NULL)
    session_id = generated = g_uuid_string_random ();

  ret = iface->start (signaller, offer_sdp, session_id, error);
  g_free (generated);

  return ret;
}

/**
 * gst_session_signaller_stop:
 * @signaller: a signaller.
 *
 * Ends the running attempt, or the session it started: an open answer
 * stream is closed, which ends the session for the service. Safe to call
 * at any time, from any thread, more than once.
 */
void
gst_session_signaller_stop (GstSessionSignaller * signaller)
{
  GstSessionSignallerInterface *iface;

  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));

  iface = GST_SESSION_SIGNALLER_GET_IFACE (signaller);
  if (iface->stop)
    iface->stop (signaller);
}

/**
 * gst_session_signaller_prepare:
 * @signaller: a signaller.
 *
 * A start() is near (the offer is being made): the signaller may open now
 * what the start will need, so that it overlaps with the offer. Optional
 * (@prepare may be %NULL); nothing is emitted, and a failure here only
 * means the start opens it itself.
 */
void
gst_session_signaller_prepare (GstSessionSignaller * signaller)
{
  GstSessionSignallerInterface *iface;

  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));

  iface = GST_SESSION_SIGNALLER_GET_IFACE (signaller);
  if (iface->prepare)
    iface->prepare (signaller);
}

/**
 * gst_session_signaller_emit_answer:
 * @signaller: a signaller.
 * @sdp: the SDP answer.
 * @answer: the answer object.
 *
 * For implementations: emits #GstSessionSignaller::answer.
 */
void
gst_session_signaller_emit_answer (GstSessionSignaller * signaller,
    const gchar * sdp, const GstStructure * answer)
{
  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));
  g_return_if_fail (sdp != NULL && answer != NULL);

  g_signal_emit (signaller, signaller_signals[SIGNAL_ANSWER], 0, sdp, answer);
}

/**
 * gst_session_signaller_emit_error:
 * @signaller: a signaller.
 * @error: the error.
 * @http_error: (nullable): the parsed HTTP error, if any.
 *
 * For implementations: emits #GstSessionSignaller::error.
 */
void
gst_session_signaller_emit_error (GstSessionSignaller * signaller,
    const GError * error, const GstSessionHttpError * http_error)
{
  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));
  g_return_if_fail (error != NULL);

  g_signal_emit (signaller, signaller_signals[SIGNAL_ERROR], 0, error,
      http_error);
}

/**
 * gst_session_signaller_emit_closed:
 * @signaller: a signaller.
 * @reason: why the session ended.
 * @error: (nullable): details.
 *
 * For implementations: emits #GstSessionSignaller::closed.
 */
void
gst_session_signaller_emit_closed (GstSessionSignaller * signaller,
    GstSessionSignallerCloseReason reason, const GError * error)
{
  g_return_if_fail (GST_SESSION_IS_SIGNALLER (signaller));

  g_signal_emit (signaller, signaller_signals[SIGNAL_CLOSED], 0, reason, error);
}
