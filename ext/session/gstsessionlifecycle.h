/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_LIFECYCLE_H__
#define __GST_SESSION_LIFECYCLE_H__

#include <gst/gst.h>
#include <gst/session/http/httperror.h>

G_BEGIN_DECLS

/* What a session source does next, after a start failed or a session
 * went away. */
typedef enum
{
  GST_SESSION_LIFECYCLE_RETRY,  /* another start, after the delay */
  GST_SESSION_LIFECYCLE_RENEW,  /* a new session, now */
  GST_SESSION_LIFECYCLE_END,    /* the stream ends (EOS on every pad) */
} GstSessionLifecycleNext;

/* The watchdog's verdict on a session (see gst_session_lifecycle_watch) */
typedef enum
{
  GST_SESSION_WATCH_OK,
  GST_SESSION_WATCH_START_TIMEOUT,      /* no control channel in time */
  GST_SESSION_WATCH_SILENT,     /* no frame output for media-timeout */
  GST_SESSION_WATCH_NOT_CONFIGURED,     /* the output never opened */
} GstSessionWatch;

/* The times a session is watched by, monotonic µs (0: not yet) */
typedef struct
{
  gint64 started_at;            /* the start attempt */
  gint64 opened_at;             /* the control channel opened */
  gint64 gate_at;               /* the output opened to its media */
  gint64 last_input;            /* the last frame that reached the output */
  gint64 grace_until;           /* the end of an announced late chunk */
} GstSessionWatchTimes;

/* The lifecycle of the sessions of one run (READY→PAUSED to PAUSED→READY):
 * start attempts, retries, renewals, giving up, and how the run ends. It
 * decides and makes the messages; the element acts (tears down, starts,
 * posts, ends the stream). Used from the element's context thread only. */
typedef struct
{
  GstObject *owner;             /* the messages' source (not a reference) */
  GstSessionRetryPolicy policy;
  guint attempt;                /* failed starts since a session opened */
  guint sessions;               /* sessions started in this run */
  gchar *last_start_error;      /* why the last start failed */
  GstStructure *last_start_details;
  gboolean error_posted;        /* this run already ended with an ERROR */
} GstSessionLifecycle;

G_GNUC_INTERNAL
void gst_session_lifecycle_init (GstSessionLifecycle * lc, GstObject * owner);

G_GNUC_INTERNAL
void gst_session_lifecycle_clear (GstSessionLifecycle * lc);

G_GNUC_INTERNAL
void gst_session_lifecycle_new_run (GstSessionLifecycle * lc);

G_GNUC_INTERNAL
GstSessionLifecycleNext gst_session_lifecycle_start_failed (GstSessionLifecycle * lc,
    const GError * error, const GstSessionHttpError * http, guint max_retries,
    GstClockTime max_wait, gboolean delivered, GstClockTime * delay,
    GstMessage ** message);

/* What a renewal owes to a session that ended (see the .c) */
typedef struct
{
  const gchar *why;             /* how it ended, for the messages */
  gboolean lost;                /* lost (a warning), not ended by the service */
  GstClockTime media;           /* the video it delivered */
  GstClockTime min_media;       /* renew-min-media */
  guint max_retries;
  GstClockTime max_wait;        /* max-retry-wait */
  gboolean delivered;           /* the run has output */
} GstSessionEnded;

G_GNUC_INTERNAL
GstSessionLifecycleNext gst_session_lifecycle_renewal (GstSessionLifecycle * lc,
    const GstSessionEnded * ended, GstClockTime * delay,
    GstMessage ** message);

G_GNUC_INTERNAL
GstSessionLifecycleNext gst_session_lifecycle_lost (GstSessionLifecycle * lc,
    const gchar * why, gboolean delivered, GstMessage ** message);

G_GNUC_INTERNAL
GstMessage *gst_session_lifecycle_give_up (GstSessionLifecycle * lc,
    const gchar * what, const GError * error, const GstSessionHttpError * http,
    gboolean delivered);

G_GNUC_INTERNAL
GstMessage *gst_session_lifecycle_ending (GstSessionLifecycle * lc,
    gboolean delivered);

G_GNUC_INTERNAL
GstSessionWatch gst_session_lifecycle_watch (const GstSessionWatchTimes * t,
    guint start_timeout_ms, guint media_timeout_ms,
    guint first_media_timeout_ms, guint configured_timeout_ms, gint64 now);

G_END_DECLS

#endif
