/* gst-session-service: the platform side of spec 001 (queue, webhooks,
 * management)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_ROUTES_H__
#define __SVC_ROUTES_H__

#include "respond.h"

G_BEGIN_DECLS

typedef struct _SvcPlatform SvcPlatform;

SvcPlatform *svc_platform_new (const SvcContext * ctx, GError ** error);
void svc_platform_free (SvcPlatform * platform);

/* TRUE when @path (percent-encoded, no query) is one of the platform's:
 * the answer is set. svc_platform_handle_admin() for /admin/ paths whose
 * peer and key were checked. */
gboolean svc_platform_handle (SvcPlatform * platform, SoupServerMessage * msg,
    const gchar * path, GHashTable * query);
gboolean svc_platform_handle_admin (SvcPlatform * platform,
    SoupServerMessage * msg, const gchar * path);

G_END_DECLS

#endif /* __SVC_ROUTES_H__ */
