/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the files of the HTTP error model share, inside libgstsessionhttp
 * only: the type knowledge of spec 001 (httperror-types.c), read by the
 * parser (httperror.c) and the retry policy (retry.c), and a limit of the
 * texts (httperror-text.c) and of the retry decision. */

#ifndef __GST_SESSION_HTTP_ERROR_PRIVATE_H__
#define __GST_SESSION_HTTP_ERROR_PRIVATE_H__

#include <glib.h>

G_BEGIN_DECLS

/* x-ratelimit-reset is read up to a day; longer waits are a day. */
#define MAX_RATELIMIT_RESET (24.0 * 60.0 * 60.0)

/* The "Retryable" column of the model-level table. */
typedef enum
{
  /* "false": retrying the identical request cannot succeed */
  MODEL_RETRY_NEVER,
  /* "true or false": the X-Svc-Retryable header decides; without it the
   * type's status in the table does (http_error_status_is_transient()) */
  MODEL_RETRY_BY_HEADER,
} ModelRetry;

#define MAX_CTX_KEYS 3

typedef struct
{
  const gchar *type;
  guint status;
  ModelRetry retry;
  const gchar *ctx_keys[MAX_CTX_KEYS + 1];
} ModelErrorType;

typedef struct
{
  const gchar *error_type;
  guint status;
  gboolean transient;
} RequestErrorType;

G_GNUC_INTERNAL
gboolean http_error_status_is_transient (guint status);
G_GNUC_INTERNAL
const ModelErrorType *http_error_lookup_model_type (const gchar * type);
G_GNUC_INTERNAL
const RequestErrorType *http_error_lookup_request_type (const gchar *
    error_type);
G_GNUC_INTERNAL
gboolean http_error_model_type_is_transient (const ModelErrorType * entry);
G_GNUC_INTERNAL
gboolean http_error_is_ctx_key (const gchar * key);

G_END_DECLS

#endif /* __GST_SESSION_HTTP_ERROR_PRIVATE_H__ */
