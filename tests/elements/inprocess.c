/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The elements in this process alone, on GstHarness, with a scripted
 * signaller (script-signaller.c) instead of a service: what does not need
 * a session to come up. The offer the element makes, how a refused start
 * ends, retries and their waits, a start that is never answered, EOS
 * while no session delivered, a control script that is not a regular
 * file, a session torn down while webrtcbin still has its offer to make
 * or to set. Seconds, not minutes; the real-service suites (worldsrc.c,
 * directorsrc.c, faults.c) stay the integration tests.
 */

#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <glib/gstdio.h>

#include "harness-fixture.h"

static gboolean
wait_starts (Fixture * fx, guint n)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (script_signaller_starts (fx->sig) < n &&
      g_get_monotonic_time () < deadline)
    g_usleep (2000);
  return script_signaller_starts (fx->sig) >= n;
}

/* the error's text and details, checked: it names @status and @needle */
static void
assert_error (GstMessage * msg, guint status, const gchar * needle)
{
  GError *err = NULL;
  const GstStructure *details = NULL;
  guint got = 0;

  fail_unless (msg != NULL, "no error");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, needle) != NULL, "%s", err->message);
  gst_message_parse_error_details (msg, &details);
  fail_unless (details != NULL, "no details: %s", err->message);
  fail_unless (gst_structure_get_uint (details, "status", &got),
      "no status: %" GST_PTR_FORMAT, details);
  fail_unless_equals_int (got, status);
  g_error_free (err);
}

#define MODEL_422 "{\"detail\":[{\"type\":\"image_too_small\"," \
    "\"msg\":\"the image is smaller than 512x512\",\"loc\":[\"body\"," \
    "\"image_url\"],\"input\":\"x\"}]}"
#define BUSY_503 "{\"detail\":\"no runner free\"," \
    "\"error_type\":\"runner_scheduling_failure\"}"

/* the offer asks for loss recovery: NACK with RTX, PLI and FIR for video,
 * Opus in-band FEC for the director's audio, and a data channel */
GST_START_TEST (test_offer_asks_for_loss_recovery)
{
  const gchar *factories[] = { "worldsrc", "directorsrc" };
  guint i;

  for (i = 0; i < G_N_ELEMENTS (factories); i++) {
    Fixture *fx = fixture_new (factories[i], "video");
    gchar *sdp;

    script_signaller_push_http_error (fx->sig, 422, NULL, MODEL_422);
    gst_harness_play (fx->h);
    fail_unless (wait_starts (fx, 1), "%s: no start", factories[i]);
    sdp = script_signaller_last_offer (fx->sig);
    fail_unless (sdp != NULL);
    fail_unless (strstr (sdp, "m=video ") != NULL, "%s", sdp);
    fail_unless (strstr (sdp, "a=rtcp-fb:96 nack\r\n") != NULL, "%s", sdp);
    fail_unless (strstr (sdp, "a=rtcp-fb:96 nack pli") != NULL, "%s", sdp);
    fail_unless (strstr (sdp, "a=rtcp-fb:96 ccm fir") != NULL, "%s", sdp);
    fail_unless (strstr (sdp, " rtx/90000") != NULL, "%s", sdp);
    fail_unless (strstr (sdp, "apt=96") != NULL, "%s", sdp);
    fail_unless (strstr (sdp, "m=application ") != NULL, "%s", sdp);
    fail_unless (strstr (sdp, "a=recvonly") != NULL, "%s", sdp);
    if (i == 1) {
      fail_unless (strstr (sdp, "m=audio ") != NULL, "%s", sdp);
      fail_unless (strstr (sdp, "useinbandfec=1") != NULL, "%s", sdp);
    } else {
      fail_unless (strstr (sdp, "m=audio ") == NULL, "%s", sdp);
    }
    g_free (sdp);
    fixture_free (fx);
  }
}

GST_END_TEST;

/* a model-level 422 is final: one start, an ERROR naming the type, the
 * status and the service's text, no retry */
GST_START_TEST (test_refused_start_is_an_error)
{
  Fixture *fx = fixture_new ("worldsrc", "video");
  GstMessage *msg;

  script_signaller_push_http_error (fx->sig, 422, NULL, MODEL_422);
  gst_harness_play (fx->h);
  msg = fixture_next_message (fx, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  assert_error (msg, 422, "image_too_small");
  gst_message_unref (msg);
  fail_unless_equals_int (script_signaller_starts (fx->sig), 1);
  fixture_free (fx);
}

GST_END_TEST;

/* a transient 503 is retried after the policy's wait (0.5 s, then 1 s,
 * each +-20 %), with a warning each; once max-retries is spent, an ERROR
 * with the last refusal */
GST_START_TEST (test_transient_retried_then_error)
{
  Fixture *fx = fixture_new ("worldsrc", "video");
  GstMessage *msg;
  gint64 t[3];
  guint i;

  g_object_set (fx->h->element, "max-retries", 2, NULL);
  for (i = 0; i < 3; i++)
    script_signaller_push_http_error (fx->sig, 503,
        "runner_scheduling_failure", BUSY_503);
  gst_harness_play (fx->h);
  for (i = 0; i < 3; i++) {
    fail_unless (wait_starts (fx, i + 1), "start %u did not come", i + 1);
    t[i] = script_signaller_start_time (fx->sig, i);
  }
  fail_unless (t[1] - t[0] >= 350 * 1000, "retried after %" G_GINT64_FORMAT
      " us", t[1] - t[0]);
  fail_unless (t[2] - t[1] >= 750 * 1000, "retried after %" G_GINT64_FORMAT
      " us", t[2] - t[1]);
  for (i = 0; i < 2; i++) {
    GError *err = NULL;

    msg = fixture_next_message (fx, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
    fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING,
        "warning %u", i);
    gst_message_parse_warning (msg, &err, NULL);
    fail_unless (strstr (err->message, "retrying") != NULL, "%s", err->message);
    g_error_free (err);
    gst_message_unref (msg);
  }
  msg = fixture_next_message (fx, GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  assert_error (msg, 503, "runner_scheduling_failure");
  gst_message_unref (msg);
  fail_unless_equals_int (script_signaller_starts (fx->sig), 3);
  fixture_free (fx);
}

GST_END_TEST;

/* a start never answered ends at start-timeout, and with no retry left in
 * an ERROR; the signaller is stopped (nothing left running) */
GST_START_TEST (test_unanswered_start_times_out)
{
  Fixture *fx = fixture_new ("worldsrc", "video");
  GstMessage *msg;
  GError *err = NULL;
  gint64 t0;

  g_object_set (fx->h->element, "max-retries", 0, "start-timeout", 300, NULL);
  script_signaller_push_silence (fx->sig);
  t0 = g_get_monotonic_time ();
  gst_harness_play (fx->h);
  msg = fixture_next_message (fx, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error for a start never answered");
  fail_unless (g_get_monotonic_time () - t0 >= 300 * 1000);
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "no session after 300 ms") != NULL,
      "%s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  fail_unless_equals_int (script_signaller_starts (fx->sig), 1);
  fail_unless (script_signaller_stops (fx->sig) >= 1, "signaller not stopped");
  fixture_free (fx);
}

GST_END_TEST;

/* EOS between two attempts, before any frame: an ERROR that carries the
 * last refusal (an empty recording is a failure), then EOS on the pad so
 * that a muxer can finish; no further start */
GST_START_TEST (test_eos_before_any_frame_is_an_error)
{
  Fixture *fx = fixture_new ("directorsrc", "video");
  GstMessage *msg;
  GstEvent *ev;
  gboolean eos = FALSE;
  gint64 deadline;

  g_object_set (fx->h->element, "max-retries", 20, NULL);
  script_signaller_push_http_error (fx->sig, 503,
      "runner_scheduling_failure", BUSY_503);
  gst_harness_play (fx->h);
  msg = fixture_next_message (fx, GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING,
      "no warning for the refused start");
  gst_message_unref (msg);
  fail_unless (gst_element_send_event (fx->h->element, gst_event_new_eos ()));
  msg = fixture_next_message (fx, GST_MESSAGE_ERROR);
  assert_error (msg, 503, "before any frame");
  gst_message_unref (msg);
  deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  while (!eos && g_get_monotonic_time () < deadline) {
    ev = gst_harness_try_pull_event (fx->h);
    if (ev == NULL) {
      g_usleep (2000);
      continue;
    }
    eos = GST_EVENT_TYPE (ev) == GST_EVENT_EOS;
    gst_event_unref (ev);
  }
  fail_unless (eos, "no EOS on the pad after the error");
  fail_unless_equals_int (gst_harness_buffers_received (fx->h), 0);
  fail_unless_equals_int (script_signaller_starts (fx->sig), 1);
  fixture_free (fx);
}

GST_END_TEST;

typedef struct
{
  GMutex lock;
  GCond cond;
  gboolean done;
  GstElement *element;
  GstStateChangeReturn ret;
} StateJob;

static gpointer
state_job_run (gpointer data)
{
  StateJob *job = data;
  GstStateChangeReturn ret = gst_element_set_state (job->element,
      GST_STATE_READY);

  g_mutex_lock (&job->lock);
  job->ret = ret;
  job->done = TRUE;
  g_cond_signal (&job->cond);
  g_mutex_unlock (&job->lock);
  return NULL;
}

/* control-script naming a FIFO fails NULL->READY at once with an error
 * naming the file (a read of it would wait for a writer forever). The
 * state change runs in a thread, so that a hang fails the test in 5 s */
GST_START_TEST (test_control_script_fifo_refused)
{
  Fixture *fx = fixture_new ("worldsrc", "video");
  StateJob *job = g_new0 (StateJob, 1);
  gchar *dir = g_dir_make_tmp ("inprocess-XXXXXX", NULL);
  gchar *path, *expected;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  GThread *thread;
  GstMessage *msg;
  GError *err = NULL;
  gboolean done;

  fail_unless (dir != NULL);
  path = g_build_filename (dir, "steer.fifo", NULL);
  fail_unless_equals_int (mkfifo (path, 0600), 0);
  g_object_set (fx->h->element, "control-script", path, NULL);
  g_mutex_init (&job->lock);
  g_cond_init (&job->cond);
  job->element = fx->h->element;
  thread = g_thread_new ("state", state_job_run, job);
  g_mutex_lock (&job->lock);
  while (!job->done)
    if (!g_cond_wait_until (&job->cond, &job->lock, deadline))
      break;
  done = job->done;
  g_mutex_unlock (&job->lock);
  if (!done) {
    /* the thread and @job stay: it may never return */
    g_thread_unref (thread);
    fail ("NULL->READY with control-script=%s did not return within 5 s", path);
  }
  g_thread_join (thread);
  fail_unless_equals_int (job->ret, GST_STATE_CHANGE_FAILURE);
  msg = fixture_next_message (fx, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error");
  gst_message_parse_error (msg, &err, NULL);
  expected = g_strdup_printf ("control-script %s: not a regular file (a "
      "FIFO); only regular files are read", path);
  fail_unless_equals_string (err->message, expected);
  g_free (expected);
  g_error_free (err);
  gst_message_unref (msg);
  g_mutex_clear (&job->lock);
  g_cond_clear (&job->cond);
  g_free (job);
  fixture_free (fx);
  fail_unless_equals_int (g_remove (path), 0);
  fail_unless_equals_int (g_rmdir (dir), 0);
  g_free (path);
  g_free (dir);
}

GST_END_TEST;

/* ---- a session torn down while webrtcbin still has an operation ---- */

/* webrtcbin's thread is held until the stage's teardown closed it, with
 * the stage's create-offer (HOLD_OFFER) or set-local-description
 * (HOLD_LOCAL) still queued: its promise is never replied, and must not
 * keep the stage's pipeline alive. */
enum
{
  HOLD_OFFER,
  HOLD_LOCAL
};

typedef struct
{
  GMutex lock;
  GCond cond;
  gint mode;
  gboolean held;                /* webrtcbin's thread is in hold_pc */
  gboolean release;
  GstElement *webrtc;           /* the stage's, a reference */
  gint made;                    /* stage pipelines seen (atomic) */
  gint gone;                    /* of them finalized (atomic) */
} PendingOp;

static PendingOp pending;

/* webrtcbin's thread, until the test releases it */
static void
hold_pc (void)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  g_mutex_lock (&pending.lock);
  pending.held = TRUE;
  g_cond_broadcast (&pending.cond);
  while (!pending.release &&
      g_cond_wait_until (&pending.cond, &pending.lock, deadline));
  g_mutex_unlock (&pending.lock);
}

static void
hold_in_stats (GstPromise * promise, gpointer user_data)
{
  hold_pc ();
}

static void
hold_after_local (GstElement * webrtc, gpointer desc, GstPromise * promise,
    gpointer user_data)
{
  hold_pc ();
}

static void
pipeline_gone (gpointer data, GObject * where)
{
  g_atomic_int_inc (&pending.gone);
}

/* "create-offer", on the element's context before webrtcbin queues it */
static gboolean
on_create_offer (GSignalInvocationHint * hint, guint n_params,
    const GValue * params, gpointer data)
{
  GstElement *webrtc = g_value_get_object (&params[0]);
  GstObject *pipeline = gst_object_get_parent (GST_OBJECT (webrtc));

  g_atomic_int_inc (&pending.made);
  if (pipeline) {
    g_object_weak_ref (G_OBJECT (pipeline), pipeline_gone, NULL);
    gst_object_unref (pipeline);
  }
  g_mutex_lock (&pending.lock);
  pending.webrtc = gst_object_ref (webrtc);
  g_mutex_unlock (&pending.lock);
  if (pending.mode == HOLD_OFFER) {
    GstPromise *hold = gst_promise_new_with_change_func (hold_in_stats, NULL,
        NULL);
    gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

    /* run before the create-offer, held once running: the create-offer
     * comes after the dispatch that holds it */
    g_signal_emit_by_name (webrtc, "get-stats", NULL, hold);
    gst_promise_unref (hold);
    g_mutex_lock (&pending.lock);
    while (!pending.held &&
        g_cond_wait_until (&pending.cond, &pending.lock, deadline));
    g_mutex_unlock (&pending.lock);
  } else {
    g_signal_connect_after (webrtc, "set-local-description",
        G_CALLBACK (hold_after_local), NULL);
  }
  return TRUE;
}

static void
closed_probe (GstPromise * promise, gpointer user_data)
{
  if (gst_promise_wait (promise) == GST_PROMISE_RESULT_REPLIED)
    *(gboolean *) user_data = TRUE;
}

/* whether @webrtc is closed: it replies to get-stats in the emission
 * (only while its thread is held) */
static gboolean
webrtc_closed (GstElement * webrtc)
{
  gboolean closed = FALSE;
  GstPromise *probe = gst_promise_new_with_change_func (closed_probe, &closed,
      NULL);

  g_signal_emit_by_name (webrtc, "get-stats", NULL, probe);
  if (!closed)
    gst_promise_interrupt (probe);      /* queued: it is not wanted */
  gst_promise_unref (probe);
  return closed;
}

static gpointer
stop_element (gpointer data)
{
  gst_element_set_state (GST_ELEMENT (data), GST_STATE_NULL);
  return NULL;
}

/* 50 sessions each torn down with webrtcbin's create-offer, then 50 with
 * its set-local-description, never run: every stage's pipeline is
 * finalized (and no promise is freed unanswered: a warning, fatal here) */
GST_START_TEST (test_teardown_with_operation_pending)
{
  GstElementFactory *factory = gst_element_factory_find ("webrtcbin");
  GstPluginFeature *loaded;
  gpointer klass;
  guint signal_id;
  gulong hook;
  guint i;

  fail_unless (factory != NULL);
  loaded = gst_plugin_feature_load (GST_PLUGIN_FEATURE (factory));
  fail_unless (loaded != NULL);
  klass = g_type_class_ref (gst_element_factory_get_element_type
      (GST_ELEMENT_FACTORY (loaded)));
  signal_id = g_signal_lookup ("create-offer", G_TYPE_FROM_CLASS (klass));
  g_mutex_init (&pending.lock);
  g_cond_init (&pending.cond);
  hook = g_signal_add_emission_hook (signal_id, 0, on_create_offer, NULL, NULL);
  for (i = 0; i < 100; i++) {
    Fixture *fx = fixture_new ("worldsrc", "video");
    gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
    const gchar *what = i < 50 ? "create-offer" : "set-local-description";
    GstElement *webrtc;
    GThread *stop;

    pending.mode = i < 50 ? HOLD_OFFER : HOLD_LOCAL;
    script_signaller_push_silence (fx->sig);
    gst_harness_play (fx->h);
    g_mutex_lock (&pending.lock);
    while (!pending.held &&
        g_cond_wait_until (&pending.cond, &pending.lock, deadline));
    webrtc = pending.webrtc;
    pending.webrtc = NULL;
    g_mutex_unlock (&pending.lock);
    fail_unless (webrtc != NULL, "session %u: no create-offer", i);
    fail_unless (pending.held, "session %u (%s): webrtcbin's thread not "
        "held", i, what);
    /* the teardown waits for webrtcbin's thread, in hold_pc */
    stop = g_thread_new ("stop", stop_element, fx->h->element);
    while (!webrtc_closed (webrtc) && g_get_monotonic_time () < deadline)
      g_usleep (1000);
    fail_unless (webrtc_closed (webrtc), "session %u (%s): webrtcbin not "
        "closed", i, what);
    /* closed, then its loop quit at once (a lock later) */
    g_usleep (20 * G_TIME_SPAN_MILLISECOND);
    g_mutex_lock (&pending.lock);
    pending.release = TRUE;
    g_cond_broadcast (&pending.cond);
    g_mutex_unlock (&pending.lock);
    g_thread_join (stop);
    gst_object_unref (webrtc);
    g_mutex_lock (&pending.lock);
    pending.held = FALSE;
    pending.release = FALSE;
    g_mutex_unlock (&pending.lock);
    while (g_atomic_int_get (&pending.gone) < g_atomic_int_get (&pending.made)
        && g_get_monotonic_time () < deadline)
      g_usleep (1000);
    fail_unless (g_atomic_int_get (&pending.gone) ==
        g_atomic_int_get (&pending.made), "session %u (%s pending): its "
        "pipeline was not finalized (%d of %d were)", i, what,
        g_atomic_int_get (&pending.gone), g_atomic_int_get (&pending.made));
    fixture_free (fx);
  }
  g_signal_remove_emission_hook (signal_id, hook);
  g_type_class_unref (klass);
  gst_object_unref (loaded);
  gst_object_unref (factory);
  g_mutex_clear (&pending.lock);
  g_cond_clear (&pending.cond);
}

GST_END_TEST;

static Suite *
inprocess_suite (void)
{
  Suite *s = suite_create ("inprocess");
  TCase *tc = tcase_create ("scripted");

  tcase_set_timeout (tc, 60);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_offer_asks_for_loss_recovery);
  tcase_add_test (tc, test_refused_start_is_an_error);
  tcase_add_test (tc, test_transient_retried_then_error);
  tcase_add_test (tc, test_unanswered_start_times_out);
  tcase_add_test (tc, test_eos_before_any_frame_is_an_error);
  tcase_add_test (tc, test_control_script_fifo_refused);
  tcase_add_test (tc, test_teardown_with_operation_pending);
  return s;
}

GST_CHECK_MAIN (inprocess);
