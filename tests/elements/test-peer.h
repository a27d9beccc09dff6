/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __TEST_PEER_H__
#define __TEST_PEER_H__

#include <gst/gst.h>

G_BEGIN_DECLS

/* The service's side of a session in the test's own process: a webrtcbin
 * that answers the element's offer on 127.0.0.1 and takes the control
 * channel the element opens. It sends no media. The test reads what the
 * element sends on the channel and answers as a service would. */
typedef struct _TestPeer TestPeer;

TestPeer *test_peer_new (void);
void test_peer_free (TestPeer * peer);

/* Answers @offer (blocking, bounded): the answer SDP with its candidate,
 * or NULL with @error set */
gchar *test_peer_answer (TestPeer * peer, const gchar * offer,
    GError ** error);

/* whether the element's control channel reached the peer within
 * @timeout_s seconds */
gboolean test_peer_wait_channel (TestPeer * peer, guint timeout_s);

/* the next message the element sent on the channel within @timeout_s
 * seconds (free it), or NULL */
gchar *test_peer_next (TestPeer * peer, guint timeout_s);

/* the next message of JSON type @type within @timeout_s seconds, the others
 * before it skipped (free it), or NULL */
gchar *test_peer_next_of_type (TestPeer * peer, const gchar * type,
    guint timeout_s);

/* sends @json to the element on the channel */
void test_peer_send (TestPeer * peer, const gchar * json);

/* sends the @size bytes of @data to the element on the channel as one
 * binary message (as a service that sends its JSON as binary would, or a
 * hostile one) */
void test_peer_send_data (TestPeer * peer, const guint8 * data, gsize size);

/* how many messages the element sent so far */
guint test_peer_received (TestPeer * peer);

G_END_DECLS

#endif
