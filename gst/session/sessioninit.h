/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_INIT_H__
#define __GST_SESSION_INIT_H__

#include <gst/gst.h>
#include <gst/session/session-prelude.h>

G_BEGIN_DECLS

GST_SESSION_API
void gst_session_init (void);

G_END_DECLS

#endif /* __GST_SESSION_INIT_H__ */
