/* gst-session-service: the live media of one session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_MEDIA_H__
#define __SVC_MEDIA_H__

#include <gst/video/video.h>
#include "service.h"

G_BEGIN_DECLS

#define SVC_AUDIO_RATE 48000
#define SVC_AUDIO_BLOCK 960     /* 20 ms */

/* the live video encoder's range, kbit/s: it starts at the top, and a
 * receiver's REMB moves it within (svc_media_set_video_bitrate) */
#define SVC_VIDEO_KBPS 1500
#define SVC_VIDEO_MIN_KBPS 100

typedef struct _SvcMedia SvcMedia;

/* Called on the streaming threads of the session's pipeline, never on
 * the main thread; they must only take the app's scene lock. */
typedef struct
{
  /* Draw raw frame @index (presentation time @pts); set *@text (transfer
   * full) to the overlay text. */
  void (*draw) (gpointer user_data, GstVideoFrame * frame, guint64 index,
      GstClockTime pts, gchar ** text);
  /* Fill @n mono samples at 48 kHz, the first being sample @offset of the
   * running time. May be NULL (silence). */
  void (*fill_audio) (gpointer user_data, gint16 * samples, guint n,
      guint64 offset);
  /* A video frame was sent, in live and cached mode. May be NULL. */
  void (*frame_sent) (gpointer user_data, guint64 index, GstClockTime pts);
} SvcMediaCallbacks;

typedef struct
{
  SvcCodec codec;
  guint video_pt;
  gboolean audio;
  guint audio_pt;
  gint width;
  gint height;
  gint fps;
  gboolean cached;
  guint cached_seconds;
  const gchar *cached_label;
  const gchar *cache_dump;      /* directory, or NULL */
} SvcMediaSettings;

SvcMedia *svc_media_new (GstBin * pipeline, const SvcMediaSettings * settings,
    const SvcMediaCallbacks * callbacks, gpointer user_data, GError ** error);
gboolean svc_media_check_elements (GError ** error);
GstPad *svc_media_get_video_pad (SvcMedia * media);
GstPad *svc_media_get_audio_pad (SvcMedia * media);
void svc_media_start (SvcMedia * media);
void svc_media_stop (SvcMedia * media);
void svc_media_stall (SvcMedia * media, GstClockTime from, GstClockTime until);
void svc_media_report_loss (SvcMedia * media, guint32 ssrc, gint32 lost,
    guint32 highest);
void svc_media_set_video_bitrate (SvcMedia * media, guint64 bitrate);
gint64 svc_media_get_video_bitrate (SvcMedia * media);
void svc_media_set_video_size (SvcMedia * media, gint width, gint height);
void svc_media_force_video_size (SvcMedia * media, gint width, gint height);
void svc_media_get_video_size (SvcMedia * media, gint * width, gint * height);
GstClockTime svc_media_get_running_time (SvcMedia * media);
GstClockTime svc_media_frame_time (SvcMedia * media, guint64 index);
guint64 svc_media_frame_at (SvcMedia * media, GstClockTime time);
void svc_media_free (SvcMedia * media);

G_END_DECLS

#endif /* __SVC_MEDIA_H__ */
