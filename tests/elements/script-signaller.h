/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SCRIPT_SIGNALLER_H__
#define __SCRIPT_SIGNALLER_H__

#include <gst/session/http/http.h>

G_BEGIN_DECLS

/* A signaller of the tests' own, with no service and no network: each
 * start() takes the next scripted reply, given later on the caller's
 * thread-default context as a real signaller would. */
#define SCRIPT_TYPE_SIGNALLER (script_signaller_get_type ())
G_DECLARE_FINAL_TYPE (ScriptSignaller, script_signaller, SCRIPT, SIGNALLER,
    GObject);

ScriptSignaller *script_signaller_new (void);

/* the next start is answered with this HTTP status, X-Svc-Error-Type
 * (nullable) and JSON body */
void script_signaller_push_http_error (ScriptSignaller * self, guint status,
    const gchar * error_type, const gchar * body);

/* the next start is answered by @peer (a TestPeer of test-peer.h, not
 * owned: it must outlive the session) */
struct _TestPeer;
void script_signaller_push_peer (ScriptSignaller * self,
    struct _TestPeer * peer);

/* the next start is answered with @sdp as the service's answer, whatever
 * the offer (an answer webrtcbin refuses, say) */
void script_signaller_push_answer (ScriptSignaller * self, const gchar * sdp);

/* the next start is never answered */
void script_signaller_push_silence (ScriptSignaller * self);

guint script_signaller_starts (ScriptSignaller * self);
guint script_signaller_stops (ScriptSignaller * self);

/* when start @i (from 0) came, monotonic µs; 0 if it did not */
gint64 script_signaller_start_time (ScriptSignaller * self, guint i);

/* the offer of the last start (free it), or NULL */
gchar *script_signaller_last_offer (ScriptSignaller * self);

G_END_DECLS

#endif
