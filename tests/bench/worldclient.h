/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * worldsrc as the benchmarks drive it: `worldsrc url=… [props] ! fakesink`,
 * with a probe on the element's video pad that counts buffers, tells
 * frames that came from the service from repeats (a repeat shares its
 * memory with the frame before it), and optionally keeps every buffer's
 * arrival and timestamp.
 */

#ifndef __BENCH_WORLDCLIENT_H__
#define __BENCH_WORLDCLIENT_H__

#include <gst/gst.h>

#include "bench-common.h"

G_BEGIN_DECLS

typedef struct
{
  gdouble at;                   /* arrival on the pad, bench_now_ms () */
  GstClockTime pts;
  gboolean repeat;              /* the last frame again (a filler) */
} WorldBuffer;

typedef struct _WorldClient WorldClient;

/* @props: more properties of worldsrc (gst-launch syntax), or NULL;
 * @keep_buffers: keep a WorldBuffer for each buffer */
WorldClient *world_client_new (const gchar * url, const gchar * props,
    gboolean keep_buffers);
GstElement *world_client_get_src (WorldClient * c);
BenchBus *world_client_get_bus (WorldClient * c);
/* sets PLAYING; the clock starts here */
void world_client_play (WorldClient * c);
gdouble world_client_play_time (WorldClient * c);
/* waits until @n buffers (repeats included) reached the pad */
gboolean world_client_wait_frames (WorldClient * c, guint64 n,
    guint timeout_ms);
guint64 world_client_frames (WorldClient * c);
/* frames from the service (repeats excluded) */
guint64 world_client_real_frames (WorldClient * c);
/* the first buffer on the pad (bench_now_ms ()), 0 before */
gdouble world_client_first_frame (WorldClient * c);
/* a copy of the kept buffers (free it) */
GArray *world_client_buffers (WorldClient * c);
void world_client_free (WorldClient * c);

G_END_DECLS

#endif
