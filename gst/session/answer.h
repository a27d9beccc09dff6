/* gst-session
 * Copyright (C) 2026 gst-session developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_SESSION_ANSWER_H__
#define __GST_SESSION_ANSWER_H__

#include <gst/session/session-prelude.h>
#include <gst/session/sessionerror.h>

G_BEGIN_DECLS

GST_SESSION_API
GstStructure *gst_session_answer_parse (const gchar * text, gsize length,
    GError ** error);

G_END_DECLS

#endif /* __GST_SESSION_ANSWER_H__ */
