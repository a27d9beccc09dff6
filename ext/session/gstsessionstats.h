/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_STATS_H__
#define __GST_SESSION_STATS_H__

#include <gst/gst.h>
#include "gstsessionoutput.h"
#include "gstsessionstage.h"

G_BEGIN_DECLS

/* what the previous message said, for rates */
typedef struct
{
  gint64 at;                    /* monotonic µs; 0: none yet */
  guint64 bytes[2];             /* per GstSessionOutputKind */
} GstSessionStatsState;

G_GNUC_INTERNAL
GstStructure *gst_session_stats_build (GstSessionStage * stage,
    GstSessionOutput * outputs[2], guint session,
    GstSessionStatsState * state, gint64 now);

G_GNUC_INTERNAL
void gst_session_stats_reset (GstSessionStatsState * state);

G_END_DECLS

#endif
