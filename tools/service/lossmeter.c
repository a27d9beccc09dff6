/* gst-session-service: a receiver's loss, from its reports
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "lossmeter.h"

gboolean
svc_loss_meter_report (SvcLossMeter * meter, gint64 now, gint32 lost,
    guint32 highest, gdouble * smoothed_pct)
{
  gint64 expected, got_lost;
  guint fraction;

  if (!meter->have_window || (gint32) (highest - meter->window_highest) < 0) {
    meter->have_window = TRUE;
    meter->window_start = now;
    meter->window_lost = lost;
    meter->window_highest = highest;
    return FALSE;
  }
  if (now - meter->window_start < G_USEC_PER_SEC)
    return FALSE;
  expected = (gint64) (guint32) (highest - meter->window_highest);
  got_lost = (gint64) lost - meter->window_lost;
  meter->window_start = now;
  meter->window_lost = lost;
  meter->window_highest = highest;
  if (expected <= 0)
    return FALSE;
  /* in 1/256, then smoothed in 1/16 of that: one lost burst is not a
   * lossy path */
  fraction = (guint) CLAMP (got_lost * 256 / expected, 0, 255);
  meter->avg = (meter->avg * 3 + fraction * 16) / 4;
  *smoothed_pct = meter->avg * 100.0 / 4096;
  return TRUE;
}

/* the levels and the loss (%) at or above which each applies */
static const struct
{
  gint percent;
  gdouble threshold;
} levels[] = {
  {20, 20.0}, {10, 10.0}, {5, 5.0}, {1, 1.0},
};

gint
svc_loss_level (gdouble smoothed_pct, gint current)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (levels); i++) {
    gdouble t = levels[i].threshold;

    /* staying at the current level (or above it) takes less */
    if (levels[i].percent <= current)
      t = t * 3 / 5;
    if (smoothed_pct >= t)
      return levels[i].percent;
  }
  return 0;
}
