/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst_session_sctp_guard_install (gst/session/teardown.c) on GStreamer
 * 1.22's own SCTP plugin: an association outlives its last user by the
 * grace period, then goes when a later one is let go. What it guards
 * against, usrsctp's timer thread calling back with a freed association,
 * is a race (1 run in about 50 of elements/controls under load); this
 * checks the mechanism, without the race.
 */

#include <gst/check/gstcheck.h>
#include <gst/session/teardown.h>

/* the guard's grace period (SCTP_RELEASE_GRACE) */
#define GRACE_US (2 * G_USEC_PER_SEC)

static void
set_flag (gpointer data)
{
  g_atomic_int_set ((gint *) data, 1);
}

/* a new association made directly, outside the plugin's table of
 * associations by id (its finalize removes whatever is under the id, so
 * the ids here are ones nothing else in the process uses) */
static GObject *
new_association (GType type, guint id)
{
  return g_object_new (type, "association-id", id, NULL);
}

GST_START_TEST (test_sctp_association_outlives_its_last_user)
{
  GstElement *enc = gst_element_factory_make ("sctpenc", NULL);
  GType type;
  GObject *a;
  gint finalized = 0;
  gint64 released, deadline;

  fail_unless (enc != NULL, "no sctpenc (gstreamer1.0-plugins-bad)");
  /* the plugin registers its association type with its first one */
  fail_if (gst_session_sctp_guard_install (),
      "installed before the plugin made any association");
  g_object_set (enc, "sctp-association-id", 65535, NULL);
  fail_unless (gst_element_set_state (enc, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE);
  type = g_type_from_name ("GstSctpAssociation");
  fail_unless (type != 0);
  fail_unless (gst_session_sctp_guard_install ());
  fail_unless (gst_session_sctp_guard_install (), "a second call");

  a = new_association (type, 65534);
  g_object_set_qdata_full (a, g_quark_from_static_string ("test-finalized"),
      &finalized, set_flag);
  g_object_unref (a);
  released = g_get_monotonic_time ();
  fail_if (g_atomic_int_get (&finalized),
      "the association was freed as its last user let it go");

  /* later ones let go release it once its grace period is over: one
   * every 100 ms, for at most twice the grace period */
  deadline = released + 2 * GRACE_US;
  while (!g_atomic_int_get (&finalized) && g_get_monotonic_time () < deadline) {
    g_usleep (100 * 1000);
    g_object_unref (new_association (type, 65533));
  }
  fail_unless (g_atomic_int_get (&finalized),
      "still held %d ms after it was let go", (gint) (2 * GRACE_US / 1000));
  fail_unless (g_get_monotonic_time () - released >= GRACE_US,
      "released before its grace period");

  gst_element_set_state (enc, GST_STATE_NULL);
  gst_object_unref (enc);
}

GST_END_TEST;

static Suite *
teardown_suite (void)
{
  Suite *s = suite_create ("teardown");
  TCase *tc = tcase_create ("sctp");

  tcase_set_timeout (tc, 30);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_sctp_association_outlives_its_last_user);
  return s;
}

GST_CHECK_MAIN (teardown);
