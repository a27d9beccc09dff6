/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_WORLD_SRC_H__
#define __GST_WORLD_SRC_H__

#include "gstsessionsrc.h"

G_BEGIN_DECLS

#define GST_TYPE_WORLD_SRC (gst_world_src_get_type ())
G_DECLARE_FINAL_TYPE (GstWorldSrc, gst_world_src, GST, WORLD_SRC,
    GstSessionSrc)

GST_ELEMENT_REGISTER_DECLARE (worldsrc);

G_END_DECLS

#endif /* __GST_WORLD_SRC_H__ */
