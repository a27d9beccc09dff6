/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_SIGNALLING_H__
#define __GST_SESSION_SIGNALLING_H__

#include <gst/session/session-prelude.h>

G_BEGIN_DECLS

G_END_DECLS

#endif /* __GST_SESSION_SIGNALLING_H__ */
