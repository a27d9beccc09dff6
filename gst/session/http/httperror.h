/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_HTTP_ERROR_H__
#define __GST_SESSION_HTTP_ERROR_H__

#include <gst/session/http/http-prelude.h>
#include <gst/session/sessionerror.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

/**
 * GST_SESSION_HTTP_ERROR_MAX_BODY:
 *
 * The largest error body gst_session_http_error_parse() reads as JSON
 * (1 MiB); a longer body gives %GST_SESSION_HTTP_ERROR_KIND_OTHER.
 */
#define GST_SESSION_HTTP_ERROR_MAX_BODY (1024 * 1024)

/**
 * GST_SESSION_HTTP_ERROR_MAX_DEPTH:
 *
 * The deepest nesting of JSON arrays and objects that
 * gst_session_http_error_parse() accepts in an error body; a deeper body
 * gives %GST_SESSION_HTTP_ERROR_KIND_OTHER.
 */
#define GST_SESSION_HTTP_ERROR_MAX_DEPTH 32

/**
 * GstSessionHttpErrorKind:
 * @GST_SESSION_HTTP_ERROR_KIND_MODEL: a model-level error: a JSON body
 *   `{"detail": [error object, ...]}` (spec 001).
 * @GST_SESSION_HTTP_ERROR_KIND_REQUEST: a request-level error: a JSON body
 *   `{"detail": "...", "error_type": "..."}` or an `X-Svc-Error-Type` header.
 * @GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT: status 429 (the wait is read from
 *   `x-ratelimit-reset`), whatever the body; `error_type`, `detail` and the
 *   items of a body of either form are kept.
 * @GST_SESSION_HTTP_ERROR_KIND_OTHER: anything else: a body that is empty,
 *   not JSON, not of either form, over %GST_SESSION_HTTP_ERROR_MAX_BODY or
 *   nested deeper than %GST_SESSION_HTTP_ERROR_MAX_DEPTH. The status is
 *   kept.
 */
typedef enum {
  GST_SESSION_HTTP_ERROR_KIND_MODEL,
  GST_SESSION_HTTP_ERROR_KIND_REQUEST,
  GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT,
  GST_SESSION_HTTP_ERROR_KIND_OTHER,
} GstSessionHttpErrorKind;

/**
 * GstSessionHttpErrorItem:
 * @type: machine-readable category (use it for logic).
 * @msg: human-readable text (display it, never parse it).
 * @url: link to the description of @type, or %NULL.
 * @loc: the location as a JSON pointer (RFC 6901: `/body/prompt`,
 *   `/body/images/0`; `~` and `/` in a name are escaped as `~0` and `~1`),
 *   or %NULL when the item has no `loc`.
 * @ctx: the structured context (a #GstStructure named `ctx`), or %NULL.
 *   Only the ctx keys spec 001 lists (`min_width`, `max_size`, `expected`,
 *   ...) are fields; other keys are kept, as the JSON text of one object,
 *   in %GST_SESSION_MESSAGE_OTHER_FIELDS (GStreamer keeps every field name
 *   for the life of the process). JSON integers become #G_TYPE_INT64,
 *   reals #G_TYPE_DOUBLE, strings #G_TYPE_STRING, booleans
 *   #G_TYPE_BOOLEAN, arrays #GST_TYPE_ARRAY, objects a #G_TYPE_STRING of
 *   their compact JSON text and null a #G_TYPE_STRING holding %NULL. The
 *   elements of a #GST_TYPE_ARRAY share one type (as GStreamer requires): integers mixed with reals all become
 *   #G_TYPE_DOUBLE, and an array of any other mix of types (nested arrays
 *   included) or holding a null is kept as a #G_TYPE_STRING holding its
 *   compact JSON text.
 * @input: the offending input as compact JSON text, or %NULL.
 *
 * One object of the `detail` array of a model-level error.
 */
typedef struct {
  gchar *type;
  gchar *msg;
  gchar *url;
  gchar *loc;
  GstStructure *ctx;
  gchar *input;
} GstSessionHttpErrorItem;

/**
 * GstSessionHttpError:
 * @status: the HTTP status code.
 * @kind: which error form the answer has.
 * @error_type: the machine-readable type: the request-level `error_type`
 *   (the `X-Svc-Error-Type` header wins when the body lacks it), or the type
 *   of the first model-level item; %NULL when none is known.
 * @detail: text for people: the request-level `detail`, or the first item's
 *   `msg`; %NULL when none.
 * @items: (element-type GstSessionHttpErrorItem): model-level items; never
 *   %NULL after gst_session_http_error_parse(), empty unless the body is of
 *   the model-level form.
 * @retryable: the `X-Svc-Retryable` header: 1 true, 0 false, -1 absent (or
 *   neither `true` nor `false`).
 * @ratelimit_reset: seconds from `x-ratelimit-reset`, or -1 when absent or
 *   not a non-negative number.
 *
 * One non-2xx answer, parsed per spec 001.
 */
typedef struct {
  guint status;
  GstSessionHttpErrorKind kind;
  gchar *error_type;
  gchar *detail;
  GPtrArray *items;
  gint retryable;
  gdouble ratelimit_reset;
} GstSessionHttpError;

GST_SESSION_HTTP_API
GType gst_session_http_error_get_type (void);
#define GST_SESSION_TYPE_HTTP_ERROR (gst_session_http_error_get_type ())

GST_SESSION_HTTP_API
GstSessionHttpError * gst_session_http_error_parse (guint status,
    SoupMessageHeaders * headers, const gchar * body, gsize body_length);

GST_SESSION_HTTP_API
GstSessionHttpError * gst_session_http_error_copy (const GstSessionHttpError * error);

GST_SESSION_HTTP_API
void gst_session_http_error_free (GstSessionHttpError * error);

GST_SESSION_HTTP_API
gchar * gst_session_http_error_to_string (const GstSessionHttpError * error);

GST_SESSION_HTTP_API
GError * gst_session_http_error_to_gerror (const GstSessionHttpError * error);

/**
 * GstSessionRetryPolicy:
 * @max_attempts: attempts in all, the first included (0: unlimited).
 * @initial_delay: the first backoff delay.
 * @max_delay: the cap of any backoff delay.
 * @multiplier: growth of the delay per attempt.
 * @jitter: fraction (0 to 1) of each delay that is randomised.
 *
 * Exponential backoff with jitter and a cap.
 */
typedef struct {
  guint max_attempts;
  GstClockTime initial_delay;
  GstClockTime max_delay;
  gdouble multiplier;
  gdouble jitter;
} GstSessionRetryPolicy;

GST_SESSION_HTTP_API
GType gst_session_retry_policy_get_type (void);
#define GST_SESSION_TYPE_RETRY_POLICY (gst_session_retry_policy_get_type ())

GST_SESSION_HTTP_API
void gst_session_retry_policy_init (GstSessionRetryPolicy * policy);

/**
 * GstSessionRetryDecision:
 * @retry: whether to try again.
 * @delay: how long to wait first.
 * @reason: why, for logs (a static string).
 *
 * The answer of gst_session_http_error_retry_decision(). @delay is 0 when
 * @retry is %FALSE.
 */
typedef struct {
  gboolean retry;
  GstClockTime delay;
  const gchar *reason;
} GstSessionRetryDecision;

GST_SESSION_HTTP_API
GType gst_session_retry_decision_get_type (void);
#define GST_SESSION_TYPE_RETRY_DECISION (gst_session_retry_decision_get_type ())

GST_SESSION_HTTP_API
GstSessionRetryDecision gst_session_http_error_retry_decision (const GstSessionHttpError * error,
    const GstSessionRetryPolicy * policy, guint attempt);

GST_SESSION_HTTP_API
GstClockTime gst_session_retry_policy_backoff (const GstSessionRetryPolicy * policy,
    guint attempt);

GST_SESSION_HTTP_API
gboolean gst_session_http_error_type_is_transient (const gchar * error_type);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (GstSessionHttpError, gst_session_http_error_free)

G_END_DECLS

#endif /* __GST_SESSION_HTTP_ERROR_H__ */
