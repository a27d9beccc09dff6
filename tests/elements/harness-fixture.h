/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __HARNESS_FIXTURE_H__
#define __HARNESS_FIXTURE_H__

#include <gst/check/gstharness.h>

#include "script-signaller.h"
#include "test-peer.h"

G_BEGIN_DECLS

/* generous: a loaded machine; every wait ends as soon as its condition */
#define WAIT_S 20

/* An element of this process on GstHarness, the in-process suites'
 * (inprocess.c, controls.c): its bus, its scripted signaller, and the
 * test peer that answers it, if any */
typedef struct
{
  GstHarness *h;
  GstBus *bus;
  ScriptSignaller *sig;
  TestPeer *peer;
} Fixture;

/* @factory's element on a harness with @pad, a bus of its own (a harness
 * gives none) and the scripted signaller, not yet playing; a director
 * has its prompt (a director session starts with one) */
Fixture *fixture_new (const gchar * factory, const gchar * pad);

/* tears the harness down, then frees the peer, if any */
void fixture_free (Fixture * fx);

/* the next message of @types within WAIT_S, skipping others; NULL if none */
GstMessage *fixture_next_message (Fixture * fx, GstMessageType types);

G_END_DECLS

#endif
