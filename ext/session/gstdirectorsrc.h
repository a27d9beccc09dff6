/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_DIRECTOR_SRC_H__
#define __GST_DIRECTOR_SRC_H__

#include "gstsessionsrc.h"

G_BEGIN_DECLS

#define GST_TYPE_DIRECTOR_SRC (gst_director_src_get_type ())
G_DECLARE_FINAL_TYPE (GstDirectorSrc, gst_director_src, GST, DIRECTOR_SRC,
    GstSessionSrc)

GST_ELEMENT_REGISTER_DECLARE (directorsrc);

G_END_DECLS

#endif /* __GST_DIRECTOR_SRC_H__ */
