/* gst-session-service: the platform side of spec 001 (queue, webhooks,
 * management) and what its modules share
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_ROUTES_H__
#define __SVC_ROUTES_H__

#include <json-glib/json-glib.h>
#include "service.h"

G_BEGIN_DECLS

typedef struct _SvcPlatform SvcPlatform;

SvcPlatform *svc_platform_new (SvcService * service, GError ** error);
void svc_platform_free (SvcPlatform * platform);

/* TRUE when @path (percent-encoded, no query) is one of the platform's:
 * the answer is set. svc_platform_handle_admin() for /admin/ paths whose
 * peer and key were checked. */
gboolean svc_platform_handle (SvcPlatform * platform, SoupServerMessage * msg,
    const gchar * path, GHashTable * query);
gboolean svc_platform_handle_admin (SvcPlatform * platform,
    SoupServerMessage * msg, const gchar * path);

/* ---- shared by queue.c and management.c ---- */

/* The decoded segments of @path after @prefix segments ("/a/b%2Fc" ->
 * {"a", "b/c"}); NULL when a segment does not decode or is empty */
gchar **svc_path_segments (const gchar * path);

/* The request body as JSON; NULL with *@why set when it is empty, larger
 * than @max or not JSON */
JsonNode *svc_read_json_body (SoupServerMessage * msg, gsize max,
    gchar ** why);

/* A model-level error answer of spec 001: {"detail": [{"loc", "msg",
 * "type", "url", "ctx"?, "input"?}]} with X-Svc-Retryable. @loc is
 * NULL-terminated ("body", then the field); @ctx is JSON text or NULL;
 * @input may be NULL. */
void svc_respond_model_error (SoupServerMessage * msg, SvcService * service,
    guint status, gboolean retryable, const gchar * type,
    const gchar * const *loc, const gchar * text, const gchar * ctx,
    JsonNode * input);
/* The same error object, added to @b (for webhook payloads) */
void svc_add_model_error_item (JsonBuilder * b, SvcService * service,
    const gchar * type, const gchar * const *loc, const gchar * text,
    const gchar * ctx, JsonNode * input);

gchar *svc_json_builder_finish (JsonBuilder * b);

G_END_DECLS

#endif /* __SVC_ROUTES_H__ */
