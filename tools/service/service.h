/* gst-session-service: the reference service
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#ifndef __SVC_SERVICE_H__
#define __SVC_SERVICE_H__

#include <gst/gst.h>
#include <libsoup/soup.h>
#include <gst/session/session.h>

G_BEGIN_DECLS

GST_DEBUG_CATEGORY_EXTERN (svc_debug);
#define GST_CAT_DEFAULT svc_debug

/* service.c: the service's debug category ("session-service") */
void svc_debug_init (void);

typedef struct _SvcService SvcService;
typedef struct _SvcSession SvcSession;
typedef struct _SvcFaults SvcFaults;

typedef enum
{
  SVC_CODEC_VP8,
  SVC_CODEC_H264,
} SvcCodec;

/* Everything the command line sets. Read-only once the server runs. */
typedef struct
{
  gchar *host;
  gchar *ice_address;           /* gather ICE candidates here; NULL: host */
  guint port;
  gchar **api_keys;             /* any of them is accepted; never logged */
  guint runners;                /* concurrent sessions per app */
  SvcCodec video_codec;         /* preferred codec when the offer has both */
  gboolean media_cached;
  guint cached_seconds;
  gchar *cache_dump;            /* directory for the cache's MD5 lists */
  guint keepalive_seconds;
  guint ice_timeout_ms;
  gint64 world_max_blocks;
  gint64 world_frames_per_block;
  gboolean pong_fallback;
  gboolean no_transport_cc;     /* answer without transport-cc: REMB alone */
  gdouble configure_timeout;    /* director, seconds; <= 0: none */
  gdouble session_limit;        /* director, seconds; <= 0: none */
  gdouble first_chunk_delay;    /* director, seconds */
  gchar **blocked_words;
  gboolean loopback;            /* host is a loopback address */
  /* the platform side of spec 001 (queue, webhooks, management) */
  gdouble time_scale;           /* every platform timing is multiplied */
  gdouble rate_window;          /* seconds of a management limit window */
  gchar *webhook_user_id;
  gdouble webhook_key_rotate;   /* seconds between rotations; 0: none */
  gchar **webhook_ip_ranges;    /* of /v1/meta; NULL: the loopback ones */
} SvcConfig;

/* the largest request body any endpoint takes (a queue input); a larger
 * one is refused from its Content-Length, or while it arrives */
#define SVC_MAX_BODY (1024 * 1024)

#define SVC_MS(t) ((gdouble) (t) / GST_MSECOND)
#define SVC_SECONDS(t) ((gdouble) (t) / GST_SECOND)

G_END_DECLS

#endif /* __SVC_SERVICE_H__ */
