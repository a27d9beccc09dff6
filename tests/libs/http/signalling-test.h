/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

/* What the signalling test programs share: the test's main context and
 * its bounded waits, the answer object, the service (a SoupServer on
 * 127.0.0.1 answering in one of several modes) and the client side (a
 * signaller whose signals are recorded). */

#ifndef __SIGNALLING_TEST_H__
#define __SIGNALLING_TEST_H__

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/session/session.h>
#include <gst/session/http/http.h>
#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#define TEST_KEY "sk-test-5f1c9a7e3b2d4c6a8e0f1b3d5c7a9e1f"
#define TEST_SESSION_ID "0b7f4c3e-1d2a-4e5b-9c8d-7a6f5e4d3c2b"
#define OFFER_SDP "v=0\r\no=- 42 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n" \
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n" \
    "c=IN IP4 0.0.0.0\r\na=mid:0\r\na=sctp-port:5000\r\n"
#define ANSWER_SDP "v=0\r\no=- 7 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n" \
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n" \
    "c=IN IP4 127.0.0.1\r\na=mid:0\r\na=setup:active\r\n"

/* the longest any wait may take, in milliseconds */
#define WAIT_MAX 10000

extern GMainContext *test_ctx;

gboolean wake_up (gpointer data);

/* Iterates the test context until @cond holds or @ms pass; a ticking source
 * keeps the blocking iteration from waiting forever. */
#define WAIT_FOR_MS(cond, ms) G_STMT_START {                               \
  gint64 _deadline = g_get_monotonic_time () + (gint64) (ms) * 1000;       \
  GSource *_tick = g_timeout_source_new (5);                               \
  g_source_set_callback (_tick, wake_up, NULL, NULL);                      \
  g_source_attach (_tick, test_ctx);                                       \
  while (!(cond) && g_get_monotonic_time () < _deadline)                   \
    g_main_context_iteration (test_ctx, TRUE);                             \
  g_source_destroy (_tick);                                                \
  g_source_unref (_tick);                                                  \
} G_STMT_END

#define WAIT_FOR(cond) G_STMT_START {                                      \
  WAIT_FOR_MS (cond, WAIT_MAX);                                            \
  fail_unless (cond, "timed out waiting for: %s", #cond);                  \
} G_STMT_END

void drain_context (void);

void context_setup (void);

void context_teardown (void);

/* ------------------------------------------------------------------------ */
/* the answer object                                                        */

gchar *answer_json (const gchar * type, gboolean with_sdp);

/* ------------------------------------------------------------------------ */
/* the service                                                              */

typedef enum
{
  MODE_SSE_HOLD,                /* answer, then keepalives, held open */
  MODE_SSE_TINY,                /* BOM, CRLF, multi-line data, tiny chunks */
  MODE_SSE_CLOSE,               /* answer, two keepalives, then the end */
  MODE_SSE_SILENT,              /* answer, then nothing, held open */
  MODE_SSE_RAW,                 /* the stream text given, then the end */
  MODE_RESPONSE,                /* status, content type and body given */
  MODE_ECHO_KEY,                /* 401 whose detail echoes the key */
  MODE_SLOW,                    /* never answers */
} Mode;

typedef struct
{
  SoupServer *server;
  gchar *url;
  Mode mode;

  /* MODE_RESPONSE, MODE_SSE_RAW */
  guint status;
  const gchar *content_type;
  gchar *body;
  gsize body_length;
  const gchar *error_type_header;
  const gchar *retryable_header;
  const gchar *location;

  /* what came */
  guint requests;
  gchar *req_method;
  gchar *req_path;
  gchar *req_content_type;
  gchar *req_accept;
  gchar *req_authorization;
  gchar *req_body;

  /* the streamed or held answer */
  SoupServerMessage *held;
  GSource *ticker;
  gchar *stream;
  gsize stream_offset;
  guint keepalives;
  gboolean held_finished;
} TestServer;

void start_ticker (TestServer * ts, guint ms);

TestServer *test_server_new_full (Mode mode, GTlsCertificate * certificate);

TestServer *test_server_new (Mode mode);

void test_server_set_response (TestServer * ts, guint status,
    const gchar * content_type, const gchar * body);

void test_server_free (TestServer * ts);

gchar *refused_url (void);

/* ------------------------------------------------------------------------ */
/* the client side                                                          */

typedef struct
{
  guint answers;
  guint errors;
  guint closeds;
  gchar *sdp;
  GstStructure *answer;
  GError *error;
  GstSessionHttpError *http_error;
  GstSessionSignallerCloseReason reason;
  GError *close_error;
  gboolean wrong_context;
  gint64 started;
  gint64 ended;
} Record;

void record_clear (Record * r);

GstSessionHttpSignaller *signaller_new (const gchar * url, const gchar * key,
    Record * r);

void start (GstSessionHttpSignaller * sig, const gchar * session_id,
    Record * r);

void signaller_free (GstSessionHttpSignaller * sig);

void run_to_error (TestServer * ts, const gchar * key, Record * r);

void check_offer_request (TestServer * ts, const gchar * key,
    const gchar * session_id);

#endif
