/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The type knowledge of spec 001, as data: the model-level and the
 * request-level error types, their statuses, retryability and ctx keys,
 * looked up by the parser (httperror.c) and the retry policy (retry.c).
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "httperror-private.h"

/* ---------------------------------------------------------------------- */
/* The type knowledge of spec 001, as data. One place per rule.           */
/* ---------------------------------------------------------------------- */

/* Statuses that are worth retrying when nothing more specific is known:
 * request timeout and the transient server side failures. Every other status
 * (other 4xx, 501, 505, ...) is not. */
gboolean
http_error_status_is_transient (guint status)
{
  switch (status) {
    case 408:
    case 500:
    case 502:
    case 503:
    case 504:
      return TRUE;
    default:
      return FALSE;
  }
}

/* Spec 001, "Model-level errors": type, status, retryable, ctx keys. */
static const ModelErrorType model_error_types[] = {
  {"internal_server_error", 500, MODEL_RETRY_BY_HEADER, {NULL}},
  {"generation_timeout", 504, MODEL_RETRY_BY_HEADER, {NULL}},
  {"downstream_service_error", 400, MODEL_RETRY_BY_HEADER, {NULL}},
  {"downstream_service_unavailable", 500, MODEL_RETRY_BY_HEADER, {NULL}},
  {"content_policy_violation", 422, MODEL_RETRY_NEVER, {NULL}},
  {"no_media_generated", 422, MODEL_RETRY_NEVER, {NULL}},
  {"image_too_small", 422, MODEL_RETRY_NEVER, {"min_height", "min_width"}},
  {"image_too_large", 422, MODEL_RETRY_NEVER, {"max_height", "max_width"}},
  {"image_load_error", 422, MODEL_RETRY_NEVER, {NULL}},
  {"file_download_error", 422, MODEL_RETRY_NEVER, {NULL}},
  {"face_detection_error", 422, MODEL_RETRY_NEVER, {NULL}},
  {"file_too_large", 422, MODEL_RETRY_NEVER, {"max_size"}},
  {"greater_than", 422, MODEL_RETRY_NEVER, {"gt"}},
  {"greater_than_equal", 422, MODEL_RETRY_NEVER, {"ge"}},
  {"less_than", 422, MODEL_RETRY_NEVER, {"lt"}},
  {"less_than_equal", 422, MODEL_RETRY_NEVER, {"le"}},
  {"multiple_of", 422, MODEL_RETRY_NEVER, {"multiple_of"}},
  {"sequence_too_short", 422, MODEL_RETRY_NEVER, {"min_length"}},
  {"sequence_too_long", 422, MODEL_RETRY_NEVER, {"max_length"}},
  {"one_of", 422, MODEL_RETRY_NEVER, {"expected"}},
  {"feature_not_supported", 422, MODEL_RETRY_NEVER, {NULL}},
  {"invalid_archive", 422, MODEL_RETRY_NEVER, {"supported_extensions"}},
  {"archive_file_count_below_minimum", 422, MODEL_RETRY_NEVER,
      {"min_count", "provided_count", "supported_extensions"}},
  {"archive_file_count_exceeds_maximum", 422, MODEL_RETRY_NEVER,
      {"max_count", "provided_count", "supported_extensions"}},
  {"audio_duration_too_long", 422, MODEL_RETRY_NEVER,
      {"max_duration", "provided_duration"}},
  {"audio_duration_too_short", 422, MODEL_RETRY_NEVER,
      {"min_duration", "provided_duration"}},
  {"unsupported_audio_format", 422, MODEL_RETRY_NEVER, {"supported_formats"}},
  {"unsupported_image_format", 422, MODEL_RETRY_NEVER, {"supported_formats"}},
  {"unsupported_video_format", 422, MODEL_RETRY_NEVER, {"supported_formats"}},
  {"video_duration_too_long", 422, MODEL_RETRY_NEVER,
      {"max_duration", "provided_duration"}},
  {"video_duration_too_short", 422, MODEL_RETRY_NEVER,
      {"min_duration", "provided_duration"}},
};

/* Spec 001, "Request-level errors": error_type, typical status, and the
 * retry guidance ("runner and timeout errors are typically transient and
 * worth retrying; client_disconnected and bad_request are not").
 *
 * Decisions past the spec:
 * - client_cancelled is not retried: the client itself asked to stop.
 * - internal_error IS retried with backoff: the spec gives no guidance for
 *   it; it is a 500, the status rule retries a 500, and an unexpected
 *   failure of the service is more likely passing than caused by the
 *   request (a bad request is reported as bad_request). The attempt limit
 *   of the policy bounds the cost when it is not. */
static const RequestErrorType request_error_types[] = {
  {"request_timeout", 504, TRUE},
  {"startup_timeout", 504, TRUE},
  {"runner_scheduling_failure", 503, TRUE},
  {"runner_connection_timeout", 503, TRUE},
  {"runner_disconnected", 503, TRUE},
  {"runner_connection_refused", 503, TRUE},
  {"runner_connection_error", 503, TRUE},
  {"runner_incomplete_response", 502, TRUE},
  {"runner_server_error", 500, TRUE},
  {"client_disconnected", 499, FALSE},
  {"client_cancelled", 499, FALSE},
  {"bad_request", 400, FALSE},
  {"internal_error", 500, TRUE},
};

const ModelErrorType *
http_error_lookup_model_type (const gchar * type)
{
  guint i;

  if (type == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (model_error_types); i++) {
    if (strcmp (model_error_types[i].type, type) == 0)
      return &model_error_types[i];
  }
  return NULL;
}

const RequestErrorType *
http_error_lookup_request_type (const gchar * error_type)
{
  guint i;

  if (error_type == NULL)
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (request_error_types); i++) {
    if (strcmp (request_error_types[i].error_type, error_type) == 0)
      return &request_error_types[i];
  }
  return NULL;
}

/* Without an X-Svc-Retryable header. */
gboolean
http_error_model_type_is_transient (const ModelErrorType * entry)
{
  return entry->retry == MODEL_RETRY_BY_HEADER
      && http_error_status_is_transient (entry->status);
}

/* TRUE when spec 001 lists @key in the ctx of some model-level type. */
gboolean
http_error_is_ctx_key (const gchar * key)
{
  guint i, j;

  for (i = 0; i < G_N_ELEMENTS (model_error_types); i++) {
    for (j = 0; j < MAX_CTX_KEYS && model_error_types[i].ctx_keys[j]; j++) {
      if (strcmp (model_error_types[i].ctx_keys[j], key) == 0)
        return TRUE;
    }
  }
  return FALSE;
}
