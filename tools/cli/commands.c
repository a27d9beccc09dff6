/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * gst-session submit, apps and runners.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "cli.h"

gint
cli_submit (CliGlobal * global, gint argc, gchar ** argv)
{
  return cli_fail (global, CLI_EXIT_INTERNAL, "not yet");
}

gint
cli_apps (CliGlobal * global, gint argc, gchar ** argv)
{
  return cli_fail (global, CLI_EXIT_INTERNAL, "not yet");
}

gint
cli_runners (CliGlobal * global, gint argc, gchar ** argv)
{
  return cli_fail (global, CLI_EXIT_INTERNAL, "not yet");
}
