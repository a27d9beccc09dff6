/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __GST_SESSION_SRC_H__
#define __GST_SESSION_SRC_H__

#include <gst/gst.h>
#include <gst/session/controlevent.h>
#include <gst/session/controlscript.h>
#include <gst/session/message.h>
#include <gst/session/http/http.h>

#include "gstsessionoutput.h"
#include "gstsessionstage.h"

G_BEGIN_DECLS

/**
 * GstSessionPlayout:
 * @GST_SESSION_PLAYOUT_INTERACTIVE: a frame is shown once it is complete,
 *   after what the path's jitter asks for; a lost packet is waited for
 *   only while losses make retransmissions pay (worldsrc's default)
 * @GST_SESSION_PLAYOUT_SMOOTH: time for two requests of each lost packet
 *   and 1.5 frames of the sender's spread before a frame is repeated
 *   (directorsrc's default: a film, mostly recorded)
 *
 * How long media waits before it is shown (#GstSessionSrc:playout).
 */
typedef enum
{
  GST_SESSION_PLAYOUT_INTERACTIVE,
  GST_SESSION_PLAYOUT_SMOOTH,
} GstSessionPlayout;

#define GST_TYPE_SESSION_PLAYOUT (gst_session_playout_get_type ())
GType gst_session_playout_get_type (void);

#define GST_TYPE_SESSION_SRC (gst_session_src_get_type ())
G_DECLARE_DERIVABLE_TYPE (GstSessionSrc, gst_session_src, GST, SESSION_SRC,
    GstBin)

/**
 * GstSessionSrcClass:
 * @app: which application the subclass speaks
 * @has_audio: whether it has an audio pad
 * @fps_n: nominal video rate (numerator)
 * @fps_d: nominal video rate (denominator)
 * @width: the video size the contract gives (world: 1280x704), or 0 when
 *   each session's settings give it (director)
 * @height: its height
 * @default_renew: default of the #GstSessionSrc:renew property
 * @default_playout: default of the #GstSessionSrc:playout property
 * @wait_configured: keep each session's media out of the output until
 *   `configured` (director: the service streams its default size before)
 * @channel_open: a session's control channel opened
 * @channel_closed: the session ended
 * @receive: a message arrived from the service
 * @stop: send `stop`; %FALSE when nothing could be sent
 * @take_events: the controller's queued events
 * @apply_action: apply one action of the control script (not `stop`,
 *   which the base class turns into an EOS)
 * @check_start: optional: whether the settings allow a session to start
 *   (checked at READY→PAUSED; the error fails the state change)
 *
 * All vfuncs but @take_events's caller run with the controller lock held
 * (GST_SESSION_SRC_CTRL_LOCK); they must not emit signals or post
 * messages: they queue events, which the base class acts on after
 * unlocking, in order, on its context thread.
 */
struct _GstSessionSrcClass
{
  GstBinClass parent_class;

  GstSessionApp app;
  gboolean has_audio;
  gint fps_n;
  gint fps_d;
  gint width;
  gint height;
  gboolean default_renew;
  GstSessionPlayout default_playout;
  gboolean wait_configured;

  void (*channel_open) (GstSessionSrc * src);
  void (*channel_closed) (GstSessionSrc * src);
  void (*receive) (GstSessionSrc * src, const gchar * text);
  gboolean (*stop) (GstSessionSrc * src);
  GQueue *(*take_events) (GstSessionSrc * src);
  gboolean (*apply_action) (GstSessionSrc * src,
      const GstSessionControlAction * action, GError ** error);
  gboolean (*check_start) (GstSessionSrc * src, GError ** error);
  gboolean (*probe) (GstSessionSrc * src);

  gpointer _gst_reserved[GST_PADDING];
};

G_GNUC_INTERNAL
GMutex *gst_session_src_get_ctrl_lock (GstSessionSrc * src);

#define GST_SESSION_SRC_CTRL_LOCK(s) \
    g_mutex_lock (gst_session_src_get_ctrl_lock (GST_SESSION_SRC (s)))
#define GST_SESSION_SRC_CTRL_UNLOCK(s) \
    g_mutex_unlock (gst_session_src_get_ctrl_lock (GST_SESSION_SRC (s)))

G_GNUC_INTERNAL
void gst_session_src_collect_events (GstSessionSrc * src);

G_GNUC_INTERNAL
void gst_session_src_refuse (GstSessionSrc * src, const gchar * what,
    const GError * error);

G_GNUC_INTERNAL
gboolean gst_session_src_control_done (GstSessionSrc * src, const gchar * what,
    gboolean ok, GError * error);

G_GNUC_INTERNAL
gboolean gst_session_src_is_playing (GstSessionSrc * src);

G_END_DECLS

#endif /* __GST_SESSION_SRC_H__ */
