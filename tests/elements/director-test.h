/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the directorsrc test programs share: taps on the element's raw
 * pads, pipelines against the reference service, waiting for element
 * messages and reading their fields, recordings and their decoding, and
 * the A/V sync measured on markers and clicks.
 */

#ifndef __DIRECTOR_TEST_H__
#define __DIRECTOR_TEST_H__

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>

#include "service-harness.h"

G_BEGIN_DECLS

#define FPS 24
#define RATE 32000
#define WAIT (20 * GST_SECOND)

typedef struct
{
  GMutex lock;
  GCond cond;
  guint buffers;
  GstCaps *caps;                /* the latest */
  gboolean eos;
} Tap;

/* what a decoded recording holds */
typedef struct
{
  GArray *vpts;                 /* GstClockTime of every frame */
  GArray *markers;              /* PTS of the first frame of a white marker */
  GArray *clicks;               /* time of the first sample of a click */
  gboolean white;               /* the last frame had the marker */
  guint64 samples;
  gint rate;
  GstClockTime first_sample, end_sample;
  GstClockTime last_loud;
  GMutex lock;                  /* for markers, while running */
  GCond cond;
} Decoded;

G_GNUC_INTERNAL
Tap *tap_attach (GstElement * pipeline, const gchar * name);

G_GNUC_INTERNAL
void tap_free (Tap * t);

G_GNUC_INTERNAL
GstCaps *tap_wait (Tap * t, guint from, guint n, GstClockTime timeout);

G_GNUC_INTERNAL
guint tap_count (Tap * t);

G_GNUC_INTERNAL
GstElement *director_pipeline (ServiceHarness * svc, const gchar * props);

G_GNUC_INTERNAL
gchar *first_warning (BusLog * log);

G_GNUC_INTERNAL
GstMessage *expect (BusLog * log, const gchar * name, guint nth);

G_GNUC_INTERNAL
const gchar *field_string (GstMessage * msg, const gchar * field);

G_GNUC_INTERNAL
GstMessage *expect_with (BusLog * log, const gchar * name, const gchar * field,
    const gchar * value);

G_GNUC_INTERNAL
guint count_with (BusLog * log, const gchar * name, const gchar * field,
    const gchar * value);

G_GNUC_INTERNAL
gchar *temp_path (const gchar * what, const gchar * ext);

G_GNUC_INTERNAL
GstElement *record_pipeline (ServiceHarness * svc, const gchar * props,
    const gchar * path, gboolean sync);

G_GNUC_INTERNAL
Decoded *decoded_attach (GstElement * pipeline, const gchar * vname,
    const gchar * aname);

G_GNUC_INTERNAL
Decoded *decode_file (const gchar * path);

G_GNUC_INTERNAL
gboolean decoded_wait_markers (Decoded * d, guint n, GstClockTime timeout);

G_GNUC_INTERNAL
void decoded_free (Decoded * d);

/* a session's output before its session/synced: this long at most */
#define PRESYNC_WINDOW (2 * GST_SECOND)

G_GNUC_INTERNAL
guint measure_sync (Decoded * d, const gchar * what, const GArray * synced,
    GstClockTime shift, GstClockTimeDiff * worst, GstClockTimeDiff * presync,
    guint * missing, guint * before);

G_GNUC_INTERNAL
gint64 field_int64 (GstMessage * msg, const gchar * field);

G_END_DECLS

#endif /* __DIRECTOR_TEST_H__ */
