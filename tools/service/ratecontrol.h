/* gst-session-service: the video's send rate from the receiver's feedback
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A sender-side rate control, as a transport-cc sender runs one: once a
 * second from rtpsession's reading of the TWCC feedback, down on loss or
 * a growing queue, up slowly while neither; never above the receiver's
 * last REMB (its cap). Plain logic, not locked. */
typedef struct
{
  guint64 target;               /* bit/s */
  guint64 min, max;             /* bit/s */
  guint64 remb;                 /* the receiver's last REMB; 0: none */
} SvcRateControl;

void svc_rate_control_init (SvcRateControl * rc, guint64 min, guint64 max);

/* One second's TWCC reading: @loss_pct lost, @recv_bitrate received (bit/s),
 * @delay_growth_ns rtpsession's average delta of delta (a queue growing:
 * positive). Returns the new target. */
guint64 svc_rate_control_twcc (SvcRateControl * rc, gdouble loss_pct,
    guint64 recv_bitrate, gint64 delay_growth_ns);

/* The receiver's REMB @bitrate: the target's ceiling. Returns the target. */
guint64 svc_rate_control_remb (SvcRateControl * rc, guint64 bitrate);

G_END_DECLS
