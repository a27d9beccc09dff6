/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session: the command-line tool (webhooks, queue, management).
 */

#include <gst/session/session.h>

int
main (int argc, char **argv)
{
  g_printerr ("gst-session: no command yet\n");
  return 2;
}
