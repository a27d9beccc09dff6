/* gst-session: the service's peer lets go of each webrtcbin promise once
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * tools/service/peer.c on its own. GStreamer 1.22's webrtcbin frees an
 * operation still queued when it goes from READY to NULL without replying
 * to its promise (_stop_thread, _free_op): the change function never
 * runs, and the peer reference the promise holds was never let go (the
 * peer, its webrtcbin, ICE agent and DTLS with it, stayed). Here
 * webrtcbin's operation thread is held, by a get-stats whose reply waits,
 * until webrtcbin is closed: the negotiation step queued behind it is
 * dropped, and svc_peer_free() must still leave no webrtcbin alive.
 *
 * webrtcbin's operations are idle sources of its thread's main context:
 * one attached while an iteration dispatches is not dispatched in that
 * iteration, and the loop, told to quit meanwhile, never dispatches it.
 * The hold is placed so that the step is attached during it: in the
 * dispatch of the step before, or while the hold itself runs. Every wait
 * is a bounded wait.
 */

#include <gst/check/gstcheck.h>
#ifndef GST_USE_UNSTABLE_API
#define GST_USE_UNSTABLE_API
#endif
#include <gst/webrtc/webrtc.h>

/* the service's category, not gstcheck's */
#undef GST_CAT_DEFAULT
#include "peer.h"

#define TIMEOUT_US (5 * G_USEC_PER_SEC)

/* a browser's data channel offer, cut to what webrtcbin reads */
static const gchar *offer_sdp =
    "v=0\r\n"
    "o=- 4611731400430051336 2 IN IP4 127.0.0.1\r\n"
    "s=-\r\n"
    "t=0 0\r\n"
    "a=group:BUNDLE 0\r\n"
    "a=msid-semantic: WMS\r\n"
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n"
    "c=IN IP4 0.0.0.0\r\n"
    "a=ice-ufrag:Wv8m\r\n"
    "a=ice-pwd:qGYhZgzrG1nYbQXHzdQlEzEt\r\n"
    "a=ice-options:trickle\r\n"
    "a=fingerprint:sha-256 4F:5B:0A:94:1B:63:6E:59:A2:84:33:9A:7D:3C:55:0D:"
    "16:74:AB:2F:09:8D:E1:CC:41:90:5A:3E:7F:21:B6:08\r\n"
    "a=setup:actpass\r\n"
    "a=mid:0\r\n" "a=sctp-port:5000\r\n" "a=max-message-size:262144\r\n";

/* ---------------------------------------------------------------- *
 * holding webrtcbin's operation thread
 * ---------------------------------------------------------------- */

typedef struct
{
  GstElement *webrtc;
  gint hops;                    /* get-stats to queue again before holding */
  gint started;                 /* atomic: the offer's step is queued */
  gint holding;                 /* atomic */
  GPtrArray *probes;            /* promises of the holder's probes */
} Holder;

static void hold_next (Holder * h, GstPromiseChangeFunc func);

static gboolean
wait_flag (gint * flag, gint64 deadline)
{
  while (!g_atomic_int_get (flag) && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  return g_atomic_int_get (flag);
}

static void
on_probe (GstPromise * promise, gpointer data)
{
  g_atomic_int_set ((gint *) data, 1);
}

/* Whether webrtcbin is closed (going from READY to NULL): a get-stats is
 * then answered at once, in this thread (which webrtcbin's operations
 * wait for: none is answered from its queue meanwhile) */
static gboolean
webrtc_closed (Holder * h)
{
  gint *replied = g_new0 (gint, 1);
  GstPromise *probe = gst_promise_new_with_change_func (on_probe, replied,
      g_free);

  g_signal_emit_by_name (h->webrtc, "get-stats", NULL, probe);
  g_ptr_array_add (h->probes, probe);
  return g_atomic_int_get (replied);
}

/* webrtcbin's operation thread, in the reply to a get-stats: what the
 * main thread queues meanwhile is dispatched in one iteration after it */
static void
on_gate (GstPromise * promise, gpointer data)
{
  Holder *h = data;

  wait_flag (&h->started, g_get_monotonic_time () + TIMEOUT_US);
}

/* webrtcbin's operation thread, in the reply to a get-stats */
static void
on_stats (GstPromise * promise, gpointer data)
{
  Holder *h = data;
  gint64 deadline = g_get_monotonic_time () + TIMEOUT_US;

  if (h->hops-- > 0) {
    /* dispatched after what the step dispatched before this one queued */
    hold_next (h, on_stats);
    return;
  }
  g_atomic_int_set (&h->holding, 1);
  while (!webrtc_closed (h) && g_get_monotonic_time () < deadline)
    g_usleep (10 * G_TIME_SPAN_MILLISECOND);
  /* webrtcbin tells its thread's loop to quit, next */
  g_usleep (50 * G_TIME_SPAN_MILLISECOND);
}

static void
hold_next (Holder * h, GstPromiseChangeFunc func)
{
  GstPromise *promise = gst_promise_new_with_change_func (func, h, NULL);

  g_signal_emit_by_name (h->webrtc, "get-stats", NULL, promise);
  gst_promise_unref (promise);
}

/* the probes webrtcbin dropped unanswered end as interrupted */
static void
holder_clear (Holder * h)
{
  guint i;

  for (i = 0; i < h->probes->len; i++)
    gst_promise_interrupt (g_ptr_array_index (h->probes, i));
  g_ptr_array_unref (h->probes);
}

/* ---------------------------------------------------------------- *
 * the peer
 * ---------------------------------------------------------------- */

static void
on_answer (gpointer user_data, const gchar * sdp, const GError * error)
{
  gint *answered = user_data;

  fail_unless (sdp != NULL, "no answer: %s", error ? error->message : "?");
  g_atomic_int_set (answered, 1);
}

static void
on_nothing (gpointer user_data)
{
}

static void
on_message (gpointer user_data, const gchar * text)
{
}

static void
on_failed (gpointer user_data, const gchar * reason)
{
}

static const SvcPeerCallbacks callbacks = {
  on_answer, on_nothing, on_message, on_nothing, on_failed, NULL,
};

static void
config_init (SvcConfig * config)
{
  memset (config, 0, sizeof (*config));
  config->host = (gchar *) "127.0.0.1";
  config->loopback = TRUE;
  config->ice_timeout_ms = 3000;
}

/* what the main context has queued (the peer's events) runs, until no
 * webrtcbin is alive or the time is up */
static guint
wait_none_alive (void)
{
  gint64 deadline = g_get_monotonic_time () + 2 * G_USEC_PER_SEC;

  while (svc_peer_count_alive () > 0 && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  return svc_peer_count_alive ();
}

/* Frees a peer while its @hops-th negotiation step (0: set the offer, 1:
 * create the answer, 2: set the answer) is queued in webrtcbin. 0: held
 * first, the offer set meanwhile. Else a gate holds the thread while the
 * offer's step and a get-stats are queued: both are dispatched in one
 * iteration, the get-stats after the step, which queued the next one
 * then; the get-stats holds there (1), or queues one more that is
 * dispatched after that next step, and holds (2). */
static void
free_with_queued (gint hops, const gchar * what)
{
  SvcConfig config;
  SvcPeer *peer;
  GstBin *pipeline;
  Holder h = { NULL, 0, 0, 0, NULL };
  GError *error = NULL;
  gint answered = 0;

  config_init (&config);
  peer = svc_peer_new (&config, &callbacks, &answered);
  pipeline = svc_peer_get_pipeline (peer);
  h.webrtc = gst_bin_get_by_name (pipeline, "webrtc");
  h.probes = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_promise_unref);
  fail_unless_equals_int (svc_peer_count_alive (), 1);

  /* webrtcbin's thread runs from READY */
  fail_unless (gst_element_set_state (GST_ELEMENT (pipeline),
          GST_STATE_READY) == GST_STATE_CHANGE_SUCCESS);
  if (hops == 0) {
    hold_next (&h, on_stats);
    fail_unless (wait_flag (&h.holding, g_get_monotonic_time () +
            TIMEOUT_US), "webrtcbin's thread was not held");
  } else {
    hold_next (&h, on_gate);
  }
  fail_unless (svc_peer_start (peer, offer_sdp, &error), "%s",
      error ? error->message : "");
  if (hops > 0) {
    h.hops = hops - 1;
    hold_next (&h, on_stats);
    g_atomic_int_set (&h.started, 1);
  }
  fail_unless (wait_flag (&h.holding, g_get_monotonic_time () + TIMEOUT_US),
      "webrtcbin's thread was not held");

  svc_peer_free (peer);
  holder_clear (&h);
  gst_object_unref (h.webrtc);
  fail_unless_equals_int (g_atomic_int_get (&answered), 0);
  fail_unless (wait_none_alive () == 0, "a webrtcbin is still alive 2 s "
      "after svc_peer_free(), which ran with %s queued in webrtcbin", what);
}

GST_START_TEST (test_free_with_offer_queued)
{
  free_with_queued (0, "set-remote-description");
}

GST_END_TEST;

GST_START_TEST (test_free_with_create_answer_queued)
{
  free_with_queued (1, "create-answer");
}

GST_END_TEST;

GST_START_TEST (test_free_with_answer_queued)
{
  free_with_queued (2, "set-local-description");
}

GST_END_TEST;

/* the negotiation runs to its end, then the peer goes: each promise was
 * let go once (a second unref is a critical), nothing stays, and no
 * handler of the peer's is left on webrtcbin's rtpbin */
GST_START_TEST (test_free_after_answer)
{
  SvcConfig config;
  SvcPeer *peer;
  GstElement *webrtc, *rtpbin;
  GError *error = NULL;
  gint answered = 0;
  gint64 deadline = g_get_monotonic_time () + TIMEOUT_US;

  config_init (&config);
  peer = svc_peer_new (&config, &callbacks, &answered);
  webrtc = gst_bin_get_by_name (svc_peer_get_pipeline (peer), "webrtc");
  rtpbin = gst_bin_get_by_name (GST_BIN (webrtc), "rtpbin");
  gst_object_unref (webrtc);
  fail_unless (rtpbin != NULL);
  fail_unless (svc_peer_start (peer, offer_sdp, &error), "%s",
      error ? error->message : "");
  while (!g_atomic_int_get (&answered) && g_get_monotonic_time () < deadline)
    if (!g_main_context_iteration (NULL, FALSE))
      g_usleep (1000);
  fail_unless (g_atomic_int_get (&answered), "no answer in 5 s");
  svc_peer_free (peer);
  fail_if (g_signal_has_handler_pending (rtpbin,
          g_signal_lookup ("element-added", GST_TYPE_BIN), 0, FALSE),
      "rtpbin's element-added still has a handler after svc_peer_free()");
  gst_object_unref (rtpbin);
  fail_unless (wait_none_alive () == 0,
      "a webrtcbin is still alive 2 s after svc_peer_free()");
}

GST_END_TEST;

static Suite *
peer_promises_suite (void)
{
  Suite *s = suite_create ("service-peer-promises");
  TCase *tc = tcase_create ("general");

  svc_debug_init ();
  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_free_with_offer_queued);
  tcase_add_test (tc, test_free_with_create_answer_queued);
  tcase_add_test (tc, test_free_with_answer_queued);
  tcase_add_test (tc, test_free_after_answer);
  return s;
}

GST_CHECK_MAIN (peer_promises);
