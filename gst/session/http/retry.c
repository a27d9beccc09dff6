/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The retry policy of spec 001: GstSessionRetryPolicy and its
 * exponential backoff, which error types are transient, and
 * gst_session_http_error_retry_decision() (the X-Svc-Retryable and
 * x-ratelimit-reset headers, the type tables of httperror-types.c, the
 * status).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/session/sessioninit.h>
#include "../session-private.h"
#include "httperror.h"
#include "httperror-private.h"

/* The cap of a backoff whose policy has no cap (max_delay NONE): ~146 years */
#define BACKOFF_NO_CAP ((gdouble) G_MAXINT64 / 2.0)

/* ---------------------------------------------------------------------- */
/* Retry policy                                                           */
/* ---------------------------------------------------------------------- */

static GstSessionRetryPolicy *
retry_policy_copy (const GstSessionRetryPolicy * policy)
{
  return g_memdup2 (policy, sizeof (GstSessionRetryPolicy));
}

G_DEFINE_BOXED_TYPE (GstSessionRetryPolicy, gst_session_retry_policy,
    retry_policy_copy, g_free);

/* reason is a static string: a shallow copy is a full copy */
static GstSessionRetryDecision *
retry_decision_copy (const GstSessionRetryDecision * decision)
{
  return g_memdup2 (decision, sizeof (GstSessionRetryDecision));
}

G_DEFINE_BOXED_TYPE (GstSessionRetryDecision, gst_session_retry_decision,
    retry_decision_copy, g_free);

/**
 * gst_session_retry_policy_init:
 * @policy: (out caller-allocates): the policy to fill.
 *
 * Fills @policy with the defaults: 5 attempts in all, a first delay of
 * 500 ms doubling per attempt up to 30 s, with 20 % jitter.
 */
void
gst_session_retry_policy_init (GstSessionRetryPolicy * policy)
{
  g_return_if_fail (policy != NULL);

  policy->max_attempts = 5;
  policy->initial_delay = 500 * GST_MSECOND;
  policy->max_delay = 30 * GST_SECOND;
  policy->multiplier = 2.0;
  policy->jitter = 0.2;
}

/* base^exp by squaring: no libm, O(log exp); +inf on overflow. Stops early
 * once the result passes @limit (a base of at least 1 only grows). */
static gdouble
power_until (gdouble base, guint exp, gdouble limit)
{
  gdouble result = 1.0;

  while (exp > 0) {
    if (exp & 1)
      result *= base;
    if (!(result <= limit))
      return result;
    exp >>= 1;
    if (exp > 0)
      base *= base;
  }
  return result;
}

/**
 * gst_session_retry_policy_backoff:
 * @policy: (nullable): the policy, or %NULL for the defaults.
 * @attempt: the number of attempts made so far (1 after the first failure;
 *   0 is taken as 1).
 *
 * The wait before the next attempt: `initial_delay * multiplier ^
 * (attempt - 1)`, capped at `max_delay`, then moved by a random fraction of
 * up to ±`jitter` of itself, and never above `max_delay` nor below 0. A
 * multiplier under 1 is taken as 1, a jitter outside 0..1 is clamped, a
 * `max_delay` of %GST_CLOCK_TIME_NONE means no cap.
 *
 * Returns: the delay.
 */
GstClockTime
gst_session_retry_policy_backoff (const GstSessionRetryPolicy * policy,
    guint attempt)
{
  GstSessionRetryPolicy defaults;
  gdouble cap, initial, multiplier, jitter, delay;

  if (policy == NULL) {
    gst_session_retry_policy_init (&defaults);
    policy = &defaults;
  }

  cap = policy->max_delay == GST_CLOCK_TIME_NONE ? BACKOFF_NO_CAP :
      MIN ((gdouble) policy->max_delay, BACKOFF_NO_CAP);
  initial = policy->initial_delay == GST_CLOCK_TIME_NONE ? cap :
      MIN ((gdouble) policy->initial_delay, cap);
  if (initial <= 0)
    return 0;
  /* the negations also catch NaN */
  multiplier = policy->multiplier >= 1.0 ? policy->multiplier : 1.0;
  jitter = policy->jitter > 0.0 ? MIN (policy->jitter, 1.0) : 0.0;

  delay = initial * power_until (multiplier, attempt > 1 ? attempt - 1 : 0,
      cap / initial);
  if (!(delay <= cap))
    delay = cap;
  if (jitter > 0.0)
    delay *= 1.0 + jitter * g_random_double_range (-1.0, 1.0);
  if (!(delay >= 0.0))
    delay = 0.0;
  if (delay > cap)
    delay = cap;
  return (GstClockTime) delay;
}

/**
 * gst_session_http_error_type_is_transient:
 * @error_type: (nullable): a model-level `type` or request-level
 *   `error_type` of spec 001.
 *
 * Whether an error of this type is worth retrying when no `X-Svc-Retryable`
 * header says otherwise: the request-level runner and timeout types and
 * `internal_error`, and the model-level types whose retryability the spec
 * leaves to the header and whose status is a 5xx (`internal_server_error`,
 * `generation_timeout`, `downstream_service_unavailable`). Unknown types and
 * %NULL are not.
 *
 * Returns: %TRUE when the type is transient.
 */
gboolean
gst_session_http_error_type_is_transient (const gchar * error_type)
{
  const RequestErrorType *request = http_error_lookup_request_type (error_type);
  const ModelErrorType *model;

  if (request)
    return request->transient;
  model = http_error_lookup_model_type (error_type);
  if (model)
    return http_error_model_type_is_transient (model);
  return FALSE;
}

/* Whether to retry at all, and why, before the attempt limit. */
static gboolean
classify (const GstSessionHttpError * error, const gchar ** reason)
{
  gboolean by_type;
  guint i;

  /* spec 001: "read X-Svc-Retryable for retry decisions"; it wins */
  if (error->retryable == 0) {
    *reason = "X-Svc-Retryable: false";
    return FALSE;
  }
  if (error->retryable == 1) {
    *reason = "X-Svc-Retryable: true";
    return TRUE;
  }

  if (error->kind == GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT) {
    *reason = error->ratelimit_reset >= 0 ?
        "rate limited: waiting for x-ratelimit-reset" :
        "rate limited without x-ratelimit-reset: backoff";
    return TRUE;
  }

  if (error->status == 401 || error->status == 403) {
    *reason = "authentication refused (401/403): not retried";
    return FALSE;
  }

  switch (error->kind) {
    case GST_SESSION_HTTP_ERROR_KIND_REQUEST:{
      const RequestErrorType *entry =
          http_error_lookup_request_type (error->error_type);

      if (entry == NULL)
        break;
      *reason = entry->transient ? "transient request-level error" :
          "request-level error that retrying cannot fix";
      return entry->transient;
    }
    case GST_SESSION_HTTP_ERROR_KIND_MODEL:
      /* retried only when every item is transient: by its type when the
       * table knows it, else by the status */
      by_type = FALSE;
      for (i = 0; error->items && i < error->items->len; i++) {
        const GstSessionHttpErrorItem *item =
            g_ptr_array_index (error->items, i);
        const ModelErrorType *entry = http_error_lookup_model_type (item->type);

        if (entry) {
          by_type = TRUE;
          if (!http_error_model_type_is_transient (entry)) {
            *reason = "model-level error that retrying cannot fix";
            return FALSE;
          }
        } else if (!http_error_status_is_transient (error->status)) {
          *reason = "model-level error of an unknown type and a status "
              "that is not retried";
          return FALSE;
        }
      }
      if (by_type) {
        *reason = "transient model-level error";
        return TRUE;
      }
      break;
    default:
      break;
  }

  if (http_error_status_is_transient (error->status)) {
    *reason = "transient HTTP status";
    return TRUE;
  }
  *reason = "HTTP status that retrying cannot fix";
  return FALSE;
}

/**
 * gst_session_http_error_retry_decision:
 * @error: the error of the last attempt.
 * @policy: (nullable): the policy, or %NULL for the defaults.
 * @attempt: the number of attempts made so far, the failed one included
 *   (1 after the first failure).
 *
 * Decides whether to send the identical request again, in this order:
 *
 * 1. an `X-Svc-Retryable` header decides when present (`false`: never;
 *    `true`: retry);
 * 2. a rate limit (429) is retried after `x-ratelimit-reset` seconds
 *    (capped at a day), or after the backoff when that header is absent;
 *    this wait also applies when `X-Svc-Retryable: true` came with a 429;
 * 3. 401 and 403 are never retried;
 * 4. a known request-level `error_type`: runner and timeout types and
 *    `internal_error` are retried, `client_disconnected`,
 *    `client_cancelled` and `bad_request` are not;
 * 5. model-level items of known types: every 422 type and
 *    `downstream_service_error` are not retried; `internal_server_error`,
 *    `generation_timeout` and `downstream_service_unavailable` are;
 * 6. otherwise the status: 408, 500, 502, 503 and 504 are retried, any
 *    other is not.
 *
 * Retries wait gst_session_retry_policy_backoff() unless a rate limit says
 * otherwise. When @attempt reaches the policy's `max_attempts` (unless 0),
 * nothing is retried and the reason says the attempts are exhausted.
 *
 * Returns: the decision.
 */
GstSessionRetryDecision
gst_session_http_error_retry_decision (const GstSessionHttpError * error,
    const GstSessionRetryPolicy * policy, guint attempt)
{
  GstSessionRetryDecision decision = { FALSE, 0, NULL };
  GstSessionRetryPolicy defaults;

  gst_session_init ();

  if (error == NULL) {
    decision.reason = "no error";
    return decision;
  }
  if (policy == NULL) {
    gst_session_retry_policy_init (&defaults);
    policy = &defaults;
  }

  decision.retry = classify (error, &decision.reason);
  if (decision.retry && policy->max_attempts > 0
      && attempt >= policy->max_attempts) {
    decision.retry = FALSE;
    decision.reason = "attempts exhausted";
  }

  if (decision.retry) {
    if (error->kind == GST_SESSION_HTTP_ERROR_KIND_RATE_LIMIT
        && error->ratelimit_reset >= 0) {
      decision.delay = (GstClockTime) (MIN (error->ratelimit_reset,
              MAX_RATELIMIT_RESET) * GST_SECOND);
    } else {
      decision.delay = gst_session_retry_policy_backoff (policy, attempt);
    }
  }

  GST_DEBUG ("HTTP %u %.128s, attempt %u: %s (%s), delay %" GST_TIME_FORMAT,
      error->status, GST_STR_NULL (error->error_type), attempt,
      decision.retry ? "retry" : "give up", decision.reason,
      GST_TIME_ARGS (decision.delay));

  return decision;
}
