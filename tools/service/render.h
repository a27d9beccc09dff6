/* gst-session-service: software rendering of the synthetic media
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_RENDER_H__
#define __SVC_RENDER_H__

#include <gst/video/video.h>

G_BEGIN_DECLS

/* One colour as Y, U, V (BT.601, limited range) */
typedef struct
{
  guint8 c[3];
} SvcColor;

/* The palette of a world: two floor tiles, the sky and the fog */
typedef struct
{
  SvcColor floor_a;
  SvcColor floor_b;
  SvcColor sky_top;
  SvcColor sky_horizon;
  SvcColor sun;
} SvcPalette;

/* A camera over an infinite tiled floor. yaw and pitch in radians; yaw 0
 * looks along +z, positive yaw turns right, positive pitch looks up. */
typedef struct
{
  gdouble x;
  gdouble z;
  gdouble yaw;
  gdouble pitch;
  const SvcPalette *palette;
} SvcWorldView;

SvcColor svc_color_from_rgb (guint r, guint g, guint b);
SvcColor svc_color_from_hue (gdouble hue, gdouble saturation,
    gdouble value);
void svc_palette_for_name (const gchar * name, SvcPalette * palette);

void svc_render_world (GstVideoFrame * frame, const SvcWorldView * view);
void svc_render_fill (GstVideoFrame * frame, SvcColor color);
void svc_render_rect (GstVideoFrame * frame, gint x, gint y, gint width,
    gint height, SvcColor color);

G_END_DECLS

#endif /* __SVC_RENDER_H__ */
