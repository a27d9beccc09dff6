/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_DTLS_KEY_H__
#define __GST_SESSION_DTLS_KEY_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* the environment variable that names the key cache; "0" or empty: none */
#define GST_SESSION_DTLS_KEY_CACHE_ENV "GST_SESSION_DTLS_KEY_CACHE"

G_GNUC_INTERNAL
void gst_session_dtls_key_prepare (void);

G_END_DECLS

#endif /* __GST_SESSION_DTLS_KEY_H__ */
