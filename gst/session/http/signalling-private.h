/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the HTTP signaller (httpsignaller.c) and its attempts
 * (signalling-attempt.c) share, inside libgstsessionhttp only: one
 * start-session attempt, which start() makes and sends and stop() ends. */

#ifndef __GST_SESSION_HTTP_SIGNALLING_PRIVATE_H__
#define __GST_SESSION_HTTP_SIGNALLING_PRIVATE_H__

#include <gio/gio.h>
#include <libsoup/soup.h>
#include "sse.h"

G_BEGIN_DECLS

typedef enum
{
  BODY_NONE,
  BODY_ANSWER,                  /* a JSON answer */
  BODY_ERROR,                   /* a non-2xx answer */
  BODY_STREAM,                  /* an event stream */
} BodyKind;

/* One start(): the request and, after an event-stream answer, the session.
 *
 * Threads: @done and @cancellable may be touched from any thread (stop());
 * everything else only from @context (stop() defers its part there with
 * g_main_context_invoke). An attempt holds no lock: it never touches its
 * signaller's fields, only emits its signals.
 *
 * References: the signaller's current attempt, every pending operation and
 * every attached timer each hold one. */
typedef struct
{
  gint refcount;
  /* set (0 -> 1, atomically) by the terminal signal or by stop(): once
   * set, nothing is emitted */
  gint done;
  GWeakRef signaller;
  GMainContext *context;
  GCancellable *cancellable;

  /* context thread only */
  gchar *api_key;               /* for scrubbing; never logged */
  guint timeout;
  guint keepalive_timeout;
  SoupSession *session;
  SoupMessage *msg;
  GInputStream *stream;
  /* an operation is pending or its completion is running: the I/O objects
   * stay until it returns */
  gboolean io_busy;
  BodyKind body_kind;
  GByteArray *body;
  GstSessionSseParser *parser;
  gboolean answered;
  GSource *start_timer;
  GSource *keepalive_timer;
} Call;

G_GNUC_INTERNAL
Call *signalling_call_ref (Call * call);
G_GNUC_INTERNAL
void signalling_call_unref (Call * call);
G_GNUC_INTERNAL
gboolean signalling_call_is_done (Call * call);
/* Any thread. */
G_GNUC_INTERNAL
void signalling_call_stop (Call * call);
/* A timer on the attempt's context, holding a reference to it. */
G_GNUC_INTERNAL
GSource *signalling_call_add_timer (Call * call, guint ms, GSourceFunc func);
/* The timer of the attempt's timeout: the attempt fails. */
G_GNUC_INTERNAL
gboolean signalling_on_start_timeout (gpointer user_data);
/* The completion of soup_session_send_async() for the attempt's POST. */
G_GNUC_INTERNAL
void signalling_on_sent (GObject * source, GAsyncResult * res,
    gpointer user_data);

G_END_DECLS

#endif /* __GST_SESSION_HTTP_SIGNALLING_PRIVATE_H__ */
