/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the end-to-end programs of gst-session (cli-e2e-deliveries.c,
 * cli-e2e-refusals.c) share: the reference service and webhook listen
 * started against it, submissions, and the service's record of its
 * deliveries. Every wait is bounded (WAIT_MS). */

#ifndef __CLI_E2E_COMMON_H__
#define __CLI_E2E_COMMON_H__

#include <json-glib/json-glib.h>

#include "cli-harness.h"

G_BEGIN_DECLS

#define WAIT_MS 15000

/* the reference service at --time-scale 0.01 */
CliChild *service_start (void);
gchar *jwks_url (CliChild * svc);
/* webhook listen against @svc; @mode and @target: "--jsonl" FILE, ... */
CliChild *listen_start (CliChild * svc, const gchar * port, const gchar * db,
    const gchar * mode, const gchar * target);
gchar *webhook_url (CliChild * listener);
/* gst-session --json submit; returns the request id */
gchar *submit (CliChild * svc, const gchar * app, const gchar * webhook,
    const gchar * data);
/* waits until the listener says it processed @id */
gboolean wait_processed (CliChild * listener, const gchar * id);
/* the object @text holds; *@parser owns it */
JsonObject *parse_object (const gchar * text, JsonParser ** parser);
/* The service's record of the deliveries of @id: how many deliveries, how
 * many delivered, how many attempts in all and how many failed. */
void service_deliveries (CliChild * svc, const gchar * id, guint * n,
    guint * delivered, guint * attempts, guint * failed);
/* waits until the service's record of @id has reached these numbers */
gboolean wait_deliveries (CliChild * svc, const gchar * id,
    guint deliveries, guint delivered, guint failed);

G_END_DECLS

#endif /* __CLI_E2E_COMMON_H__ */
