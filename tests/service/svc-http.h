/* gst-session: plain HTTP to the reference service
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_HTTP_H__
#define __SVC_HTTP_H__

#include <libsoup/soup.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* ---- plain HTTP ---- */

typedef struct
{
  guint status;
  gchar *body;
  gchar *content_type;
  gchar *error_type;            /* X-Svc-Error-Type */
  gchar *retryable;             /* X-Svc-Retryable */
  JsonNode *json;
} SvcHttpReply;

SvcHttpReply *svc_http (const gchar * method, const gchar * url,
    const gchar * body, const gchar * key);
/* the reply of @msg with its body @data */
SvcHttpReply *svc_http_reply_new (SoupMessage * msg, const gchar * data,
    gsize size);
void svc_http_reply_free (SvcHttpReply * reply);
JsonObject *svc_admin_session (const gchar * base_url, const gchar * id);

G_END_DECLS

#endif /* __SVC_HTTP_H__ */
