/* gst-session
 * Copyright (C) 2026 gst-session developers
 *
 * This library is free software; you can redistribute it and/or
 * modify it under the terms of the GNU Library General Public
 * License as published by the Free Software Foundation; either
 * version 2.1 of the License, or (at your option) any later version.
 */

/* libgstsessionhttp: talking to a service over HTTP (the call layer, the
 * error model and retry policy, start-session signalling, server-sent
 * events). Depends on the contract (gst/session/) and libsoup;
 * docs/architecture.md. */

#ifndef __GST_SESSION_HTTP_H__
#define __GST_SESSION_HTTP_H__

#include <gst/session/http/http-prelude.h>
#include <gst/session/http/http-enumtypes.h>
#include <gst/session/http/httperror.h>
#include <gst/session/http/call.h>
#include <gst/session/http/signalling.h>
#include <gst/session/http/sse.h>

#endif /* __GST_SESSION_HTTP_H__ */
