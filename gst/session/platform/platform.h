/* gst-session
 * Copyright (C) 2026 gst-session developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* libgstsessionplatform: what the tools use of the platform (webhook
 * keys, verification and deliveries, management rate limits, the queue
 * and management client). Depends on the contract, the HTTP layer and
 * nettle; never used by the plugin. docs/architecture.md. */

#ifndef __GST_SESSION_PLATFORM_H__
#define __GST_SESSION_PLATFORM_H__

#include <gst/session/platform/platform-prelude.h>
#include <gst/session/platform/platform-enumtypes.h>
#include <gst/session/platform/webhook.h>
#include <gst/session/platform/ratelimit.h>
#include <gst/session/platform/client.h>

#endif /* __GST_SESSION_PLATFORM_H__ */
