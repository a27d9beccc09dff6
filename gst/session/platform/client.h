/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_PLATFORM_CLIENT_H__
#define __GST_SESSION_PLATFORM_CLIENT_H__

#include <gst/session/platform/platform-prelude.h>
#include <gst/session/platform/platform-enumtypes.h>
#include <gst/session/sessionerror.h>
#include <gst/session/http/httperror.h>
#include <gst/session/platform/ratelimit.h>
#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * GstSessionPlatformError:
 * @GST_SESSION_PLATFORM_ERROR_INVALID_INPUT: an argument is not usable (a
 *   URL, an app path, an id, a body that is not a JSON object, ...);
 *   nothing was sent.
 * @GST_SESSION_PLATFORM_ERROR_REFUSED: the service refused the request and
 *   sending it again as it is will not help (a 4xx other than 429, or a 5xx
 *   that gst_session_http_error_retry_decision() does not retry).
 * @GST_SESSION_PLATFORM_ERROR_RATE_LIMITED: the call was rate limited:
 *   refused here before sending (the limiter's window is full) or answered
 *   429; the seconds until the window resets are given as `retry_after`.
 *   Never retried by the client (spec 001).
 * @GST_SESSION_PLATFORM_ERROR_TRANSIENT: the service could not be reached,
 *   did not answer in time, or answered with an error that
 *   gst_session_http_error_retry_decision() would retry (most 5xx, 408);
 *   the same call may succeed later. The client does not retry on its own.
 * @GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE: the service answered 2xx
 *   with a body that is not what the operation returns (not JSON, too
 *   large, a submission without `request_id`), or answered with a
 *   redirect, which is not followed.
 *
 * Codes of the %GST_SESSION_ERROR domain used by #GstSessionPlatform; they
 * start at 100, apart from #GstSessionError. A cancelled call fails with
 * %G_IO_ERROR_CANCELLED instead.
 */
typedef enum {
  GST_SESSION_PLATFORM_ERROR_INVALID_INPUT = 100,
  GST_SESSION_PLATFORM_ERROR_REFUSED,
  GST_SESSION_PLATFORM_ERROR_RATE_LIMITED,
  GST_SESSION_PLATFORM_ERROR_TRANSIENT,
  GST_SESSION_PLATFORM_ERROR_INVALID_RESPONSE,
} GstSessionPlatformError;

#define GST_SESSION_TYPE_PLATFORM_ERROR (gst_session_platform_error_get_type ())

/**
 * GST_SESSION_PLATFORM_MAX_BODY:
 *
 * The largest body sent or read as the result of a call, in bytes (8 MiB).
 */
#define GST_SESSION_PLATFORM_MAX_BODY (8 * 1024 * 1024)

/**
 * GST_SESSION_PLATFORM_MAX_ERROR_BODY:
 *
 * The largest part of a non-2xx body read for the error model, in bytes.
 */
#define GST_SESSION_PLATFORM_MAX_ERROR_BODY (64 * 1024)

/**
 * GST_SESSION_PLATFORM_MAX_DEPTH:
 *
 * The deepest nesting of JSON arrays and objects accepted in a body.
 */
#define GST_SESSION_PLATFORM_MAX_DEPTH 64

#define GST_SESSION_TYPE_PLATFORM (gst_session_platform_get_type ())
GST_SESSION_PLATFORM_API
G_DECLARE_FINAL_TYPE (GstSessionPlatform, gst_session_platform, GST_SESSION,
    PLATFORM, GstObject)

GST_SESSION_PLATFORM_API
GstSessionPlatform * gst_session_platform_new (const gchar * queue_url,
    const gchar * api_url, const gchar * api_key);

GST_SESSION_PLATFORM_API
GstSessionRateLimiter * gst_session_platform_get_rate_limiter (GstSessionPlatform * platform);

GST_SESSION_PLATFORM_API
void gst_session_platform_submit_async (GstSessionPlatform * platform,
    const gchar * app_path, const gchar * webhook_url, const gchar * body,
    GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data);

GST_SESSION_PLATFORM_API
gboolean gst_session_platform_submit_finish (GstSessionPlatform * platform,
    GAsyncResult * result, gchar ** request_id, gchar ** gateway_request_id,
    guint * retry_after, GstSessionHttpError ** http_error, GError ** error);

GST_SESSION_PLATFORM_API
gboolean gst_session_platform_submit (GstSessionPlatform * platform,
    const gchar * app_path, const gchar * webhook_url, const gchar * body,
    GCancellable * cancellable, gchar ** request_id,
    gchar ** gateway_request_id, guint * retry_after,
    GstSessionHttpError ** http_error, GError ** error);

GST_SESSION_PLATFORM_API
void gst_session_platform_manage_async (GstSessionPlatform * platform,
    GstSessionManagementOp op, const gchar * target,
    const gchar * const * command, GCancellable * cancellable,
    GAsyncReadyCallback callback, gpointer user_data);

GST_SESSION_PLATFORM_API
JsonNode * gst_session_platform_manage_finish (GstSessionPlatform * platform,
    GAsyncResult * result, guint * retry_after,
    GstSessionHttpError ** http_error, GError ** error);

GST_SESSION_PLATFORM_API
JsonNode * gst_session_platform_manage (GstSessionPlatform * platform,
    GstSessionManagementOp op, const gchar * target,
    const gchar * const * command, GCancellable * cancellable,
    guint * retry_after, GstSessionHttpError ** http_error, GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_PLATFORM_CLIENT_H__ */
