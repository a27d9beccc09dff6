/* gst-session: a test's preload into the reference service
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GStreamer 1.22's webrtcbin gives each SCTP association it makes a
 * random id, g_random_int_range (0, G_MAXUINT16): with this preloaded,
 * every one of them draws the same id, the collision that two of its
 * webrtcbins of a process meet by chance (tests/service/renewals.c).
 * Every other range is GLib's.
 */

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#define SHIM_ASSOCIATION_ID 4242

int32_t g_random_int_range (int32_t begin, int32_t end);

int32_t
g_random_int_range (int32_t begin, int32_t end)
{
  static int32_t (*real) (int32_t, int32_t);

  if (begin == 0 && end == 65535)
    return SHIM_ASSOCIATION_ID;
  if (real == NULL)
    *(void **) (&real) = dlsym (RTLD_NEXT, "g_random_int_range");
  return real (begin, end);
}
