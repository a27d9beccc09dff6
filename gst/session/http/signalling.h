/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_SIGNALLING_H__
#define __GST_SESSION_SIGNALLING_H__

#include <gst/session/http/http-prelude.h>
#include <gst/session/http/http-enumtypes.h>
#include <gst/session/sessionerror.h>
#include <gst/session/http/httperror.h>

G_BEGIN_DECLS

/**
 * GstSessionSignallerCloseReason:
 * @GST_SESSION_SIGNALLER_CLOSE_REASON_SERVICE: the service ended the
 *   session: it closed the answer stream.
 * @GST_SESSION_SIGNALLER_CLOSE_REASON_KEEPALIVE_TIMEOUT: nothing (no data,
 *   no keepalive comment) came for longer than the keepalive timeout; the
 *   signaller closed the stream.
 * @GST_SESSION_SIGNALLER_CLOSE_REASON_NETWORK_ERROR: reading the stream
 *   failed (connection reset, TLS error, ...).
 * @GST_SESSION_SIGNALLER_CLOSE_REASON_PROTOCOL_ERROR: the stream broke the
 *   event-stream format or its bounds; the signaller closed it.
 *
 * Why a started session ended (the #GstSessionSignaller::closed signal).
 */
typedef enum {
  GST_SESSION_SIGNALLER_CLOSE_REASON_SERVICE,
  GST_SESSION_SIGNALLER_CLOSE_REASON_KEEPALIVE_TIMEOUT,
  GST_SESSION_SIGNALLER_CLOSE_REASON_NETWORK_ERROR,
  GST_SESSION_SIGNALLER_CLOSE_REASON_PROTOCOL_ERROR,
} GstSessionSignallerCloseReason;

#define GST_SESSION_TYPE_SIGNALLER_CLOSE_REASON \
    (gst_session_signaller_close_reason_get_type ())

/* GstSessionSignaller: the interface */

#define GST_SESSION_TYPE_SIGNALLER (gst_session_signaller_get_type ())
GST_SESSION_HTTP_API
G_DECLARE_INTERFACE (GstSessionSignaller, gst_session_signaller, GST_SESSION,
    SIGNALLER, GObject)

/**
 * GstSessionSignallerInterface:
 * @parent_iface: the parent interface.
 * @start: starts one attempt: sends @offer_sdp with @session_id (never
 *   %NULL here). Returns %FALSE with @error set only when nothing was
 *   started (no signal follows); otherwise exactly one of
 *   #GstSessionSignaller::answer or #GstSessionSignaller::error follows.
 * @stop: ends the attempt or the session it started; no signal follows.
 *
 * The start-session signalling of a source element: how an SDP offer
 * reaches the service and its answer comes back. Like gst-plugins-rs's
 * webrtc signaller, so another start-session style can be added without
 * touching the elements.
 */
struct _GstSessionSignallerInterface
{
  GTypeInterface parent_iface;

  gboolean (*start) (GstSessionSignaller * signaller, const gchar * offer_sdp,
      const gchar * session_id, GError ** error);
  void (*stop) (GstSessionSignaller * signaller);
  void (*prepare) (GstSessionSignaller * signaller);

  /*< private >*/
  gpointer _gst_reserved[GST_PADDING - 1];
};

GST_SESSION_HTTP_API
gboolean gst_session_signaller_start (GstSessionSignaller * signaller,
    const gchar * offer_sdp, const gchar * session_id, GError ** error);

GST_SESSION_HTTP_API
void gst_session_signaller_stop (GstSessionSignaller * signaller);

GST_SESSION_HTTP_API
void gst_session_signaller_prepare (GstSessionSignaller * signaller);

GST_SESSION_HTTP_API
void gst_session_signaller_emit_answer (GstSessionSignaller * signaller,
    const gchar * sdp, const GstStructure * answer);

GST_SESSION_HTTP_API
void gst_session_signaller_emit_error (GstSessionSignaller * signaller,
    const GError * error, const GstSessionHttpError * http_error);

GST_SESSION_HTTP_API
void gst_session_signaller_emit_closed (GstSessionSignaller * signaller,
    GstSessionSignallerCloseReason reason, const GError * error);

/* GstSessionHttpSignaller: DESIGN §1 over libsoup */

/**
 * GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER:
 *
 * Largest answer read, in bytes: the data of the answer event, or a JSON
 * answer body.
 */
#define GST_SESSION_HTTP_SIGNALLER_MAX_ANSWER (1024 * 1024)

/**
 * GST_SESSION_HTTP_SIGNALLER_MAX_ERROR_BODY:
 *
 * Largest part of a non-2xx answer body read for the error model, in bytes.
 */
#define GST_SESSION_HTTP_SIGNALLER_MAX_ERROR_BODY (64 * 1024)

#define GST_SESSION_TYPE_HTTP_SIGNALLER (gst_session_http_signaller_get_type ())
GST_SESSION_HTTP_API
G_DECLARE_FINAL_TYPE (GstSessionHttpSignaller, gst_session_http_signaller,
    GST_SESSION, HTTP_SIGNALLER, GstObject)

GST_SESSION_HTTP_API
GstSessionHttpSignaller * gst_session_http_signaller_new (const gchar * url);

GST_SESSION_HTTP_API
gchar * gst_session_http_signaller_get_session_id (GstSessionHttpSignaller * signaller);

G_END_DECLS

#endif /* __GST_SESSION_SIGNALLING_H__ */
