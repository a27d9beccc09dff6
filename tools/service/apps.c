/* gst-session-service: the queue's apps (spec 001)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#include "apps.h"

static const SvcQueueApp apps[] = {
  {"echo", "returns its input as the result", 2},
  {"upper", "returns its input with the \"text\" field in upper case", 1},
  {"fail", "fails with the model-level error named by \"type\" "
        "(default internal_server_error)", 1},
  {"not-json", "returns a result that is not JSON serializable", 1},
  {"slow", "takes \"seconds\" seconds (default 1, at most 60), then "
        "returns them", 1},
  {"flaky", "fails once inside the service and is retried there: the "
        "delivery's gateway_request_id names the retry", 1},
};

const SvcQueueApp *
svc_queue_apps (guint * n_apps)
{
  *n_apps = G_N_ELEMENTS (apps);
  return apps;
}

const SvcQueueApp *
svc_queue_find_app (gchar ** segments)
{
  const gchar *name;
  guint n = g_strv_length (segments), i;

  /* "reference/<app>", or "<app>" alone */
  if (n == 2 && g_str_equal (segments[0], SVC_APP_OWNER))
    name = segments[1];
  else if (n == 1)
    name = segments[0];
  else
    return NULL;
  for (i = 0; i < G_N_ELEMENTS (apps); i++)
    if (g_str_equal (apps[i].name, name))
      return &apps[i];
  return NULL;
}
