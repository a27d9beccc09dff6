/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_TEARDOWN_H__
#define __GST_SESSION_TEARDOWN_H__

#include <gst/gst.h>
#include <gst/session/session-prelude.h>

G_BEGIN_DECLS

GST_SESSION_API
void gst_session_webrtc_stop_channel_senders (GstElement * webrtc);

GST_SESSION_API
gboolean gst_session_sctp_guard_install (void);

GST_SESSION_API
void gst_session_openssl_skip_exit_cleanup (void);

GST_SESSION_API
void gst_session_sctp_ids_assign (GstElement * webrtc);

G_END_DECLS

#endif /* __GST_SESSION_TEARDOWN_H__ */
