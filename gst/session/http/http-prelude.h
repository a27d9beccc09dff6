/* gst-session
 * Copyright (C) 2026 gst-session developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

#ifndef __GST_SESSION_HTTP_PRELUDE_H__
#define __GST_SESSION_HTTP_PRELUDE_H__

#include <gst/session/session-prelude.h>

#ifndef GST_SESSION_HTTP_API
# ifdef BUILDING_GST_SESSION_HTTP
#  define GST_SESSION_HTTP_API GST_API_EXPORT
# else
#  define GST_SESSION_HTTP_API GST_API_IMPORT
# endif
#endif

#endif /* __GST_SESSION_HTTP_PRELUDE_H__ */
