/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_ERROR_H__
#define __GST_SESSION_ERROR_H__

#include <gst/session/session-prelude.h>

G_BEGIN_DECLS

/**
 * GST_SESSION_ERROR:
 *
 * The error domain of every error of libgstsession.
 */
#define GST_SESSION_ERROR (gst_session_error_quark ())

/**
 * GstSessionError:
 * @GST_SESSION_ERROR_INVALID_JSON: the text is not JSON, not a JSON object,
 *   not UTF-8, or is over the size or nesting limits.
 * @GST_SESSION_ERROR_INVALID_MESSAGE: the message breaks a rule of the
 *   contract (spec 000); the text names the message type, the field as a
 *   JSON pointer, the rule and its limit.
 * @GST_SESSION_ERROR_UNKNOWN_TYPE: a message of a `type` the contract does
 *   not define was asked to be built.
 * @GST_SESSION_ERROR_HTTP: an HTTP operation failed; see #GstSessionHttpError.
 * @GST_SESSION_ERROR_INVALID_ARGUMENT: an argument of a library call is
 *   out of its range.
 *
 * Error codes of the %GST_SESSION_ERROR domain.
 */
typedef enum {
  GST_SESSION_ERROR_INVALID_JSON,
  GST_SESSION_ERROR_INVALID_MESSAGE,
  GST_SESSION_ERROR_UNKNOWN_TYPE,
  GST_SESSION_ERROR_HTTP,
  GST_SESSION_ERROR_INVALID_ARGUMENT,
} GstSessionError;

GST_SESSION_API
GQuark gst_session_error_quark (void);

G_END_DECLS

#endif /* __GST_SESSION_ERROR_H__ */
