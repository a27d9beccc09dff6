/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_H__
#define __GST_SESSION_H__

#include <gst/session/session-prelude.h>
#include <gst/session/sessionerror.h>
#include <gst/session/elementcheck.h>
#include <gst/session/jsongate.h>
#include <gst/session/teardown.h>
#include <gst/session/message.h>
#include <gst/session/world.h>
#include <gst/session/director.h>
#include <gst/session/profile.h>
#include <gst/session/answer.h>
#include <gst/session/controlscript.h>
#include <gst/session/controlevent.h>
#include <gst/session/worldcontroller.h>
#include <gst/session/directorcontroller.h>
#include <gst/session/sessioninit.h>

#endif /* __GST_SESSION_H__ */
