/* gst-session-service: a receiver's loss, from its reports
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The loss a receiver reports about one stream: over windows of a second
 * (from the reports' cumulative counts, not their own fraction, which a
 * receiver that sends NACKs reports over a few packets at a time), then
 * smoothed over some four seconds. Zero-initialise it. Not locked. */
typedef struct
{
  gboolean have_window;
  gint64 window_start;          /* monotonic µs */
  gint32 window_lost;
  guint32 window_highest;
  guint avg;                    /* smoothed, in 1/4096 */
} SvcLossMeter;

/* A report block: @lost packets lost in all, @highest the extended highest
 * sequence number, at monotonic @now (µs). TRUE when a window closed; then
 * *@smoothed_pct is the smoothed loss in %. */
gboolean svc_loss_meter_report (SvcLossMeter * meter, gint64 now,
    gint32 lost, guint32 highest, gdouble * smoothed_pct);

/* The protection level (an expected loss in %, as libwebrtc's Opus sender
 * uses: 0, 1, 5, 10 or 20) for a smoothed loss, given the @current level
 * (going down takes 40 % less loss than going up). */
gint svc_loss_level (gdouble smoothed_pct, gint current);

G_END_DECLS
