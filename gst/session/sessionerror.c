/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sessionerror.h"

G_DEFINE_QUARK (gst_session_error_quark, gst_session_error);
