/* gst-session
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_PLATFORM_H__
#define __GST_SESSION_PLATFORM_H__

#include <gst/session/session-prelude.h>

#endif
