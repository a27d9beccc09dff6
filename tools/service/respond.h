/* gst-session-service: answers and checks every endpoint module shares
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A leaf of the service's modules: it knows the configuration and
 * libsoup, no endpoint and no session (docs/architecture.md).
 */

#ifndef __SVC_RESPOND_H__
#define __SVC_RESPOND_H__

#include <json-glib/json-glib.h>
#include "service.h"

G_BEGIN_DECLS
/* What an endpoint module has of the service: its configuration and the
 * base URL it listens on (for the error documents' addresses). Owned by
 * the service, alive as long as it. */
    typedef struct
{
  const SvcConfig *config;
  const gchar *base_url;
} SvcContext;

/* @body is taken */
void svc_respond_json (SoupServerMessage * msg, guint status, gchar * body);

/* A request-level error of spec 001: {"detail", "error_type"} with
 * X-Svc-Error-Type */
void svc_respond_request_error (SoupServerMessage * msg, guint status,
    const gchar * type, const gchar * detail);

/* `Authorization: Key <key>` when the service has keys; otherwise answers
 * 401 and returns FALSE. The key is never logged. */
gboolean svc_check_auth (const SvcConfig * config, SoupServerMessage * msg);
gboolean svc_is_loopback_peer (SoupServerMessage * msg);

/* The decoded segments of @path ("/a/b%2Fc" -> {"a", "b/c"}); NULL when
 * a segment does not decode or is empty */
gchar **svc_path_segments (const gchar * path);

/* The request body as JSON through the library's one JSON gate; NULL
 * with *@why set when it is empty, larger than @max or not JSON */
JsonNode *svc_read_json_body (SoupServerMessage * msg, gsize max, gchar ** why);

/* A model-level error answer of spec 001: {"detail": [{"loc", "msg",
 * "type", "url", "ctx"?, "input"?}]} with X-Svc-Retryable. @loc is
 * NULL-terminated ("body", then the field); @ctx_node (copied) and @input
 * may be NULL. */
void svc_respond_model_error (SoupServerMessage * msg, const SvcContext * ctx,
    guint status, gboolean retryable, const gchar * type,
    const gchar * const *loc, const gchar * text, JsonNode * ctx_node,
    JsonNode * input);
/* The same error object, added to @b (for webhook payloads) */
void svc_add_model_error_item (JsonBuilder * b, const SvcContext * ctx,
    const gchar * type, const gchar * const *loc, const gchar * text,
    JsonNode * ctx_node, JsonNode * input);
/* {"@member": @value}, for an error's ctx (free with json_node_unref) */
JsonNode *svc_json_object_int (const gchar * member, gint64 value);

/* The builder's JSON text; @b is freed */
gchar *svc_json_builder_finish (JsonBuilder * b);

G_END_DECLS

#endif /* __SVC_RESPOND_H__ */
