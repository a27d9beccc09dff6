/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_PRIVATE_H__
#define __GST_SESSION_PRIVATE_H__

#include <gst/gst.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (gst_session_debug);
#define GST_CAT_DEFAULT gst_session_debug

G_END_DECLS

#endif
