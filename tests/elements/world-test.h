/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the worldsrc test programs share: frames collected from the
 * element's video pad, a pipeline against the reference service, and
 * waiting for element messages.
 */

#ifndef __WORLD_TEST_H__
#define __WORLD_TEST_H__

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>

#include "service-harness.h"

G_BEGIN_DECLS

#define FRAME (GST_SECOND / 16)
#define WAIT (20 * GST_SECOND)

typedef struct
{
  GMutex lock;
  GCond cond;
  GArray *pts;
  GArray *arrival;              /* monotonic µs */
  GstCaps *caps;
  guint caps_changes;           /* samples whose caps are not the first's */
  guint wrong_size;             /* buffers not of the first caps' size */
  gboolean eos;
} Frames;

G_GNUC_INTERNAL
Frames *frames_attach (GstElement * pipeline);

G_GNUC_INTERNAL
void frames_free (Frames * f);

G_GNUC_INTERNAL
guint frames_wait (Frames * f, guint n, GstClockTime timeout);

G_GNUC_INTERNAL
gboolean frames_wait_eos (Frames * f, GstClockTime timeout);

G_GNUC_INTERNAL
void assert_continuous (Frames * f, guint from, guint to);

G_GNUC_INTERNAL
GstElement *world_pipeline (ServiceHarness * svc, const gchar * props);

G_GNUC_INTERNAL
GstMessage *expect (BusLog * log, const gchar * name, guint nth);

G_END_DECLS

#endif /* __WORLD_TEST_H__ */
