/* gst-session-service: the video's send rate from the receiver's feedback
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * AIMD as libwebrtc's: down on loss or a growing queue, else up 8 %/s.
 */

#include "ratecontrol.h"

/* rtpsession's average delta of delta above this: the path's queue grows */
#define QUEUE_GROWTH (2 * 1000 * 1000)

void
svc_rate_control_init (SvcRateControl * rc, guint64 min, guint64 max)
{
  rc->min = min;
  rc->max = max;
  rc->target = max;
  rc->remb = 0;
}

static guint64
bounded (SvcRateControl * rc, guint64 bitrate)
{
  guint64 max = rc->remb ? MIN (rc->max, rc->remb) : rc->max;

  return CLAMP (bitrate, rc->min, MAX (max, rc->min));
}

guint64
svc_rate_control_twcc (SvcRateControl * rc, gdouble loss_pct,
    guint64 recv_bitrate, gint64 delay_growth_ns)
{
  guint64 t = rc->target;

  if (loss_pct > 10.0)
    t = (guint64) (t * (1.0 - loss_pct / 200.0));
  else if (delay_growth_ns > QUEUE_GROWTH && recv_bitrate > 0)
    t = MIN (t, recv_bitrate * 85 / 100);
  else if (loss_pct >= 0 && loss_pct < 2.0)
    t = t + t * 8 / 100 + 1000;
  rc->target = bounded (rc, t);
  return rc->target;
}

guint64
svc_rate_control_remb (SvcRateControl * rc, guint64 bitrate)
{
  rc->remb = bitrate;
  rc->target = bounded (rc, rc->target);
  return rc->target;
}
