/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include <gst/check/gstcheck.h>

#include "harness-fixture.h"

Fixture *
fixture_new (const gchar * factory, const gchar * pad)
{
  Fixture *fx = g_new0 (Fixture, 1);

  fx->h = gst_harness_new_with_padnames (factory, NULL, pad);
  fx->bus = gst_bus_new ();
  gst_element_set_bus (fx->h->element, fx->bus);
  fx->sig = script_signaller_new ();
  g_object_set (fx->h->element, "signaller", fx->sig, NULL);
  if (g_str_equal (factory, "directorsrc"))
    g_object_set (fx->h->element, "prompt", "a lighthouse at dusk", NULL);
  return fx;
}

void
fixture_free (Fixture * fx)
{
  gst_harness_teardown (fx->h);
  gst_bus_set_flushing (fx->bus, TRUE);
  gst_object_unref (fx->bus);
  g_object_unref (fx->sig);
  test_peer_free (fx->peer);
  g_free (fx);
}

GstMessage *
fixture_next_message (Fixture * fx, GstMessageType types)
{
  return gst_bus_timed_pop_filtered (fx->bus, WAIT_S * GST_SECOND, types);
}
