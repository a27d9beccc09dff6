/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What client.c and client-call.c share, inside libgstsessionplatform
 * only. */

#ifndef __GST_SESSION_PLATFORM_CLIENT_PRIVATE_H__
#define __GST_SESSION_PLATFORM_CLIENT_PRIVATE_H__

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>
#include <gst/session/http/http.h>
#include "client.h"
#include "ratelimit.h"

G_BEGIN_DECLS

/* the longest id, app path segment or JSON error quoted */
#define MAX_ID_LENGTH 1024
#define ERROR_TEXT_MAX 160

typedef enum
{
  CALL_SUBMIT,
  CALL_MANAGE,
} CallKind;

typedef struct
{
  gchar *request_id;
  gchar *gateway_request_id;
} Submission;

/* One submit or manage call: the task data of its GTask. Lives on the
 * context of the task (the caller's thread-default context); its requests
 * go through gst_session_http_fetch_async() with the caller's
 * cancellable. No lock: nothing here is shared. */
typedef struct
{
  GstSessionPlatform *self;
  CallKind kind;
  GstSessionManagementOp op;
  gchar *api_key;               /* never logged */
  guint timeout;
  gboolean tls_validation;
  GstSessionRateLimiter *limiter;

  /* the client's session; the whole call ends by @deadline (monotonic
   * time) when @timeout is set */
  SoupSession *session;
  gint64 deadline;
  SoupMessage *msg;
  GByteArray *body;

  /* the request under way: method, URL, path relative to the base (for
   * the limits it counts toward) and a name for people */
  const gchar *method;
  gchar *url;
  gchar *path;
  gchar *what;
  GBytes *request_body;

  /* runners logs: the second URL and the first result */
  gchar *logs_url;
  gchar *logs_path;
  JsonNode *runner;

  /* handed out by finish() with an error */
  guint retry_after;
  GstSessionHttpError *http_error;
} Call;

G_GNUC_INTERNAL
JsonNode *platform_parse_json (const gchar * text, gsize length, gboolean empty_ok, gchar ** why);
G_GNUC_INTERNAL
gboolean platform_segment_ok (const gchar * s, gsize length);
G_GNUC_INTERNAL
void platform_append_segment (GString * url, const gchar * s, gsize length);
G_GNUC_INTERNAL
gchar *platform_base_url (const gchar * url, const gchar * what, GError ** error);
G_GNUC_INTERNAL
void platform_call_free (gpointer data);
G_GNUC_INTERNAL
void platform_submission_free (gpointer data);
G_GNUC_INTERNAL
void platform_call_fail (GTask * task, gint code, gchar * message);
G_GNUC_INTERNAL
gboolean platform_is_stop_or_kill (GstSessionManagementOp op);
G_GNUC_INTERNAL
void platform_call_fail_rate_limited (GTask * task, const gchar * why);
G_GNUC_INTERNAL
void platform_call_send (GTask * task);

G_END_DECLS

#endif /* __GST_SESSION_PLATFORM_CLIENT_PRIVATE_H__ */
