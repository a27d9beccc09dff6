/* gst-session-service: the HTTP server and the registry of sessions
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The top of the service's modules (docs/architecture.md): only main.c
 * includes it.
 */

#ifndef __SVC_HTTP_H__
#define __SVC_HTTP_H__

#include "service.h"

G_BEGIN_DECLS
/* the registry of sessions and the HTTP endpoints */
    SvcService * svc_service_new (SvcConfig * config, GPtrArray * rules,
    GError ** error);
gchar *svc_service_get_base_url (SvcService * service);
void svc_service_shutdown (SvcService * service);
gboolean svc_service_is_idle (SvcService * service);
void svc_service_free (SvcService * service);

G_END_DECLS

#endif /* __SVC_HTTP_H__ */
