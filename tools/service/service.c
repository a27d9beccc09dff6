/* gst-session-service: what every module of the service shares
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The leaf of the service's modules (docs/architecture.md).
 */

#include "service.h"

GST_DEBUG_CATEGORY (svc_debug);

void
svc_debug_init (void)
{
  GST_DEBUG_CATEGORY_INIT (svc_debug, "session-service", 0,
      "gst-session reference service");
}
