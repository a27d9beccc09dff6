/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_HTTP_CALL_H__
#define __GST_SESSION_HTTP_CALL_H__

#include <gio/gio.h>
#include <libsoup/soup.h>
#include <gst/session/http/http-prelude.h>
#include <gst/session/http/httperror.h>

G_BEGIN_DECLS

/**
 * GST_SESSION_HTTP_KEY_PLACEHOLDER:
 *
 * What gst_session_http_scrub() puts where the API key was.
 */
#define GST_SESSION_HTTP_KEY_PLACEHOLDER "<api-key>"

GST_SESSION_HTTP_API
SoupSession * gst_session_http_session_new (void);

GST_SESSION_HTTP_API
GUri * gst_session_http_parse_url (const gchar * url, const gchar * what,
    GError ** error);

GST_SESSION_HTTP_API
gchar * gst_session_http_safe_url (GUri * uri, gboolean hide_query);

GST_SESSION_HTTP_API
SoupMessage * gst_session_http_request_new (const gchar * method,
    const gchar * url, const gchar * accept, const gchar * api_key,
    GBytes * json_body, gboolean tls_validation, GError ** error);

GST_SESSION_HTTP_API
SoupMessage * gst_session_http_request_new_from_uri (const gchar * method,
    GUri * uri, const gchar * accept, const gchar * api_key,
    GBytes * json_body, gboolean tls_validation, GError ** error);

GST_SESSION_HTTP_API
void gst_session_http_scrub (gchar ** text, const gchar * key);

GST_SESSION_HTTP_API
void gst_session_http_scrub_error (GstSessionHttpError * http_error,
    const gchar * key);

GST_SESSION_HTTP_API
void gst_session_http_fetch_async (SoupSession * session, SoupMessage * msg,
    guint timeout, gsize max_body, gsize max_error_body,
    GCancellable * cancellable, GAsyncReadyCallback callback,
    gpointer user_data);

GST_SESSION_HTTP_API
GBytes * gst_session_http_fetch_finish (SoupSession * session,
    GAsyncResult * result, guint * status, SoupMessageHeaders ** headers,
    GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_HTTP_CALL_H__ */
