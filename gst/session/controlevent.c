/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "controlevent.h"
#include "controlevent-private.h"
#include "profile.h"
#include "sessionerror.h"
#include "session-private.h"

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

/* ---- shared by the controllers ---- */

void
control_events_push (GQueue * events, GstSessionControlEventType type,
    gchar * json, GstSessionMessage * message, GstStructure * details,
    GError * error)
{
  GstSessionControlEvent *ev = g_new0 (GstSessionControlEvent, 1);

  ev->type = type;
  ev->json = json;
  ev->message = message;
  ev->details = details;
  ev->error = error;
  g_queue_push_tail (events, ev);
}

void
control_events_send (GQueue * events, gchar * json)
{
  GST_DEBUG ("sending %s", json);
  control_events_push (events, GST_SESSION_CONTROL_EVENT_SEND, json, NULL,
      NULL, NULL);
}

/* A message from the service that could not be read: reported, skipped. */
void
control_events_warn_invalid (GQueue * events, GError * error)
{
  GError *w = g_error_new (error->domain, error->code,
      "invalid message from the service, skipped: %s", error->message);

  GST_WARNING ("%s", w->message);
  g_error_free (error);
  control_events_push (events, GST_SESSION_CONTROL_EVENT_WARNING, NULL, NULL,
      NULL, w);
}

/* The element message for @message: its fields, named "<app>/<type>"
 * ("<app>/unknown" for a type the contract does not define, whose type is
 * in a "type" field: names are kept for the life of the process). */
GstStructure *
control_event_details (const GstSessionMessage * message)
{
  GstStructure *details =
      gst_structure_copy (gst_session_message_get_structure (message));
  gchar *name = g_strdup_printf ("%s/%s",
      gst_session_app_get_name (gst_session_message_get_app (message)),
      gst_structure_get_name (details));

  gst_structure_set_name (details, name);
  g_free (name);
  return details;
}

/* The session's media may reach the output, at @width x @height when the
 * settings give a size (else 0 x 0) */
void
control_events_output_open (GQueue * events, gint width, gint height)
{
  control_events_push (events, GST_SESSION_CONTROL_EVENT_OUTPUT_OPEN, NULL,
      NULL, gst_structure_new ("session/output-open", "width", G_TYPE_INT,
          width, "height", G_TYPE_INT, height, NULL), NULL);
}

/* The video size a world's `session_info` announces (its `resolution`
 * object): the spec's 1280x704 is the only one taken; any other (a
 * service-sent number) is refused with a warning naming the field, and the
 * output keeps its size. A 1280x1000 announcement left the caps at
 * 1280x704 with buffers of 1280x1000; 8192x8192 made every 16x16 frame
 * scaled to 256 MB. */
void
control_events_video_size_from_info (GQueue * events,
    const GstStructure * session_info)
{
  const GValue *v = gst_structure_get_value (session_info, "resolution");
  const GstStructure *res = v && GST_VALUE_HOLDS_STRUCTURE (v) ?
      gst_value_get_structure (v) : NULL;
  gint64 w = 0, h = 0;
  GError *err;

  if (res == NULL || !gst_structure_get_int64 (res, "width", &w) ||
      !gst_structure_get_int64 (res, "height", &h))
    return;
  if (w == GST_SESSION_WORLD_WIDTH && h == GST_SESSION_WORLD_HEIGHT) {
    control_events_push (events, GST_SESSION_CONTROL_EVENT_VIDEO_SIZE, NULL,
        NULL, gst_structure_new ("session/video-size", "width", G_TYPE_INT,
            (gint) w, "height", G_TYPE_INT, (gint) h, NULL), NULL);
    return;
  }
  err = g_error_new (GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_MESSAGE,
      "session_info /resolution is %" G_GINT64_FORMAT "x%" G_GINT64_FORMAT
      ", not the world's %dx%d: ignored (the output keeps its size, other "
      "frames are scaled to it)", w, h, GST_SESSION_WORLD_WIDTH,
      GST_SESSION_WORLD_HEIGHT);
  GST_WARNING ("%s", err->message);
  control_events_push (events, GST_SESSION_CONTROL_EVENT_WARNING, NULL, NULL,
      NULL, err);
}

/* No media for @seconds (a service-sent number: not finite or below 0 is
 * 0; the element bounds how long it believes it) */
void
control_events_media_pause (GQueue * events, gdouble seconds)
{
  if (!(seconds > 0) || !isfinite (seconds))
    seconds = 0;
  control_events_push (events, GST_SESSION_CONTROL_EVENT_MEDIA_PAUSE, NULL,
      NULL, gst_structure_new ("session/media-pause", "seconds",
          G_TYPE_DOUBLE, seconds, NULL), NULL);
}

/* The clock of ping timestamps: monotonic, in milliseconds. */
gdouble
control_now_ms (void)
{
  return g_get_monotonic_time () / 1000.0;
}

gchar control_ping_mark[] = "ping";

void
control_deferred_free (gpointer json)
{
  if (json != control_ping_mark)
    g_free (json);
}

gboolean
control_defer (GQueue * deferred, gchar * json, GError ** error)
{
  if (g_queue_get_length (deferred) >= CONTROL_DEFERRED_MAX) {
    control_deferred_free (json);
    g_set_error (error, GST_SESSION_ERROR, GST_SESSION_ERROR_INVALID_ARGUMENT,
        "%d messages already wait for a session: refused",
        CONTROL_DEFERRED_MAX);
    return FALSE;
  }
  g_queue_push_tail (deferred, json);
  return TRUE;
}

void
control_probes_clear (ControlProbes * probes)
{
  memset (probes, 0, sizeof (*probes));
}

void
control_probes_sent (ControlProbes * probes, gdouble ts)
{
  probes->ts[probes->next] = ts;
  probes->next = (probes->next + 1) % CONTROL_PROBES;
}

gboolean
control_probes_answered (ControlProbes * probes, GQueue * events, gdouble ts)
{
  gdouble rtt;
  guint i;

  /* the service echoes the number it got; within a microsecond, for one
   * that prints fewer digits (probes go seconds apart) */
  for (i = 0; i < CONTROL_PROBES; i++)
    if (probes->ts[i] > 0 && fabs (probes->ts[i] - ts) < 1e-3)
      break;
  if (i == CONTROL_PROBES)
    return FALSE;
  probes->ts[i] = 0;
  rtt = control_now_ms () - ts;
  if (rtt >= 0)
    control_events_push (events, GST_SESSION_CONTROL_EVENT_ROUND_TRIP, NULL,
        NULL, gst_structure_new ("session/round-trip", "ms", G_TYPE_DOUBLE,
            rtt, NULL), NULL);
  return TRUE;
}
