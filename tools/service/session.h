/* gst-session-service: one session (a start-session request, its peer,
 * its media and its app)
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_SESSION_H__
#define __SVC_SESSION_H__

#include <json-glib/json-glib.h>
#include "service.h"
#include "media.h"
#include "faults.h"

G_BEGIN_DECLS

typedef enum
{
  SVC_SESSION_NEGOTIATING,
  SVC_SESSION_STREAMING,
  SVC_SESSION_CLOSING,
  SVC_SESSION_CLOSED,
} SvcSessionState;

typedef enum
{
  SVC_CLOSE_GRACEFUL,           /* after stream_exhausted: drain, close */
  SVC_CLOSE_CLIENT_GONE,        /* the response or the channel closed */
  SVC_CLOSE_DROP,               /* fault: no goodbye */
  SVC_CLOSE_SHUTDOWN,           /* the service stops */
  SVC_CLOSE_FAILED,             /* the pipeline or ICE failed */
} SvcCloseMode;

/* What an app implements; every function runs on the main thread. */
typedef struct
{
  const gchar *name;
  gint width;
  gint height;
  gint fps;
  gboolean audio;
  const SvcMediaCallbacks *media_callbacks;
  gpointer (*create) (SvcSession * session);
  /* the control channel opened */
  void (*channel_open) (gpointer app);
  /* a valid client message of a known type */
  void (*message) (gpointer app, const GstSessionMessage * message);
  /* an invalid client message; @text is the library's error text */
  void (*invalid) (gpointer app, const gchar * text);
  /* fault: end the stream now (stream_exhausted, then close) */
  void (*exhaust) (gpointer app);
  /* fault: stall the media for @seconds */
  void (*stall) (gpointer app, gdouble seconds);
  /* fault: send an error with @code (director) */
  void (*error_fault) (gpointer app, const gchar * code);
  /* debug state for GET /admin/sessions */
  void (*describe) (gpointer app, JsonBuilder * builder);
  void (*free) (gpointer app);
} SvcAppClass;

/* world-app.c and director-app.c; the registry (http.c) hands a session
 * its app's class */
extern const SvcAppClass svc_world_class;
extern const SvcAppClass svc_director_class;

/* Called when the session closed or its response finished (the registry
 * forgets it once both) */
typedef void (*SvcSessionChanged) (SvcSession * session, gpointer user_data);

SvcSession *svc_session_new (const SvcConfig * config,
    SvcSessionChanged changed, gpointer changed_data, GstSessionApp app,
    const SvcAppClass * klass, const gchar * id, SoupServerMessage * msg,
    SvcFaults * faults);
SvcSession *svc_session_ref (SvcSession * session);
void svc_session_unref (SvcSession * session);
gboolean svc_session_start (SvcSession * session, const gchar * offer,
    GError ** error);
void svc_session_respond_error (SvcSession * session, guint status,
    const gchar * type, const gchar * detail);
void svc_session_close (SvcSession * session, SvcCloseMode mode);
void svc_session_apply_faults (SvcSession * session, const SvcFaults * faults);
gboolean svc_session_has_response (SvcSession * session);
gboolean svc_session_poll_client (SvcSession * session);
void svc_session_shutdown (SvcSession * session);
void svc_session_describe (SvcSession * session, JsonBuilder * builder);

const gchar *svc_session_get_id (SvcSession * session);
GstSessionApp svc_session_get_app (SvcSession * session);
SvcSessionState svc_session_get_state (SvcSession * session);
const SvcConfig *svc_session_get_config (SvcSession * session);
SvcMedia *svc_session_get_media (SvcSession * session);
gdouble svc_session_get_age (SvcSession * session);

/* For the apps */
/* the session's faults (the live ones merged in); owned by the session */
const SvcFaults *svc_session_get_faults (SvcSession * session);
gboolean svc_session_send (SvcSession * session, GstStructure * fields);
gboolean svc_session_send_raw (SvcSession * session, const gchar * text);
void svc_session_end (SvcSession * session);
guint svc_session_add_timer (SvcSession * session, guint ms,
    GSourceFunc func, gpointer data);
void svc_session_remove_timer (SvcSession * session, guint id);
void svc_session_post (SvcSession * session, GSourceFunc func,
    gpointer data, GDestroyNotify notify);

G_END_DECLS

#endif /* __SVC_SESSION_H__ */
