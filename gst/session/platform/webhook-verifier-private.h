/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* GstSessionWebhookVerifier's insides, shared by webhook-verifier.c (the
 * object, its properties and caches) and webhook-verifier-jobs.c (fetches
 * and the verifications waiting for them); inside libgstsessionplatform
 * only. */

#ifndef __GST_SESSION_WEBHOOK_VERIFIER_PRIVATE_H__
#define __GST_SESSION_WEBHOOK_VERIFIER_PRIVATE_H__

#include <libsoup/soup.h>
#include "webhook.h"

G_BEGIN_DECLS

/* The two documents a verifier fetches. */
typedef enum
{
  DOC_KEY_SET,
  DOC_IP_RANGES,
  N_DOCS
} DocKind;

G_GNUC_INTERNAL
extern const gchar *const webhook_doc_names[N_DOCS];

/* A continuation of a job waiting for a fetch. */
typedef struct
{
  void (*resume) (GTask * task);
  GTask *task;
} Waiter;

/* One cached document and its fetching. */
typedef struct
{
  /* GstSessionWebhookKeySet or GstSessionWebhookIpRanges, or NULL */
  gpointer value;
  /* clock seconds: when @value was stored, when a fetch last started */
  gint64 stored_at;
  gint64 attempted_at;
  gboolean attempted;
  /* the last fetch failed: why (for people; no secrets) */
  gchar *failure;
  gboolean fetching;
  /* Waiter, resumed when the running fetch ends */
  GArray *waiters;
} Cache;

/* Locking: the object lock protects every field below, the caches
 * included. It is never held while calling out: not around the clock
 * function, libsoup, parsing, verification or returning a GTask. */
struct _GstSessionWebhookVerifier
{
  GstObject parent;

  gchar *jwks_url;
  gchar *api_url;
  guint key_set_max_age;
  guint refetch_cooldown;
  guint ip_ranges_max_age;
  guint leeway;
  guint max_body_size;
  guint timeout;
  gboolean allow_insecure_http;

  GstSessionWebhookClockFunc clock_func;
  gpointer clock_data;
  GDestroyNotify clock_notify;

  Cache caches[N_DOCS];
  /* made at the first fetch, kept for all (its connections are reused) */
  SoupSession *session;
};

G_GNUC_INTERNAL
void webhook_cache_clear_value (Cache * cache, DocKind kind);
G_GNUC_INTERNAL
gpointer webhook_cache_ref_value (const Cache * cache, DocKind kind);
G_GNUC_INTERNAL
gint64 webhook_verifier_now (GstSessionWebhookVerifier * self);
G_GNUC_INTERNAL
gint64 webhook_elapsed_since (gint64 now, gint64 then);

G_END_DECLS

#endif /* __GST_SESSION_WEBHOOK_VERIFIER_PRIVATE_H__ */
