/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the client test programs share: the service (a SoupServer on
 * 127.0.0.1 on a thread of its own, its routes and the requests it saw),
 * the fixture and its clock that the test moves, a client made for it, and
 * checks of errors and of JSON answers. */

#ifndef __CLIENT_TEST_H__
#define __CLIENT_TEST_H__

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <gst/session/platform/platform.h>

#define API_KEY "sk-live-7f3a9c2e11d04b5e8a6f0c9d2b1e4a77"
#define WEBHOOK "https://hooks.example.com/done?token=a&b=c d"
#define SEC G_USEC_PER_SEC

#define OP(x) GST_SESSION_MANAGEMENT_OP_##x
#define PF_ERROR(x) GST_SESSION_PLATFORM_ERROR_##x

typedef struct
{
  gchar *method;
  gchar *path;                  /* percent-encoded, as sent */
  gchar *query;                 /* percent-encoded, as sent */
  gchar *webhook;               /* svc_webhook, decoded */
  gchar *authorization;
  gchar *content_type;
  gchar *body;
  guint port;                   /* the client's: one per connection */
} Seen;

typedef struct
{
  GThread *thread;
  GMainContext *context;
  GMainLoop *loop;
  SoupServer *server;
  gchar *queue_url;
  gchar *api_url;

  /* protects everything below */
  GMutex lock;
  GCond cond;
  gboolean ready;
  GPtrArray *seen;
  GPtrArray *held;              /* paused messages that never answer */
} Service;

extern Service *service;

guint service_count (void);

const Seen *service_seen (gint i);

extern gint64 fake_now;

void setup (void);

void teardown (void);

GstSessionPlatform *make_platform (void);

void check_error (GError * error, gint code);

JsonNode *manage (GstSessionPlatform * platform, GstSessionManagementOp op,
    const gchar * target, const gchar * const *command);

void check_json (JsonNode * node, const gchar * expected);

#endif
