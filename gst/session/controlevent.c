/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "controlevent.h"

/**
 * gst_session_control_event_free:
 * @event: (transfer full): an event
 */
void
gst_session_control_event_free (GstSessionControlEvent * event)
{
  if (event == NULL)
    return;
  g_free (event->json);
  if (event->message)
    gst_session_message_unref (event->message);
  if (event->details)
    gst_structure_free (event->details);
  g_clear_error (&event->error);
  g_free (event);
}
