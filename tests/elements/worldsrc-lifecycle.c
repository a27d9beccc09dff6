/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * worldsrc against the reference service, over real WebRTC on 127.0.0.1:
 * refused and retried starts, errors for a run that delivered nothing,
 * refusals before READY, a signaller of the application's own, the end
 * of a stream when the peer goes away or on EOS, start/stop cycles and
 * racy stops, and the API key kept out of every log, message and error.
 */

#include <gst/check/gstcheck.h>
#include <glib/gstdio.h>
#include <malloc.h>
#include <unistd.h>

#include <gst/session/http/http.h>

#include "world-test.h"

/* a transient refusal is retried, then the session starts */
GST_START_TEST (test_transient_refusal_retried)
{
  ServiceHarness *svc =
      service_harness_start ("--fault-refuse=runner_scheduling_failure:1",
      NULL);
  GstElement *pipeline = world_pipeline (svc, NULL);
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstMessage *msg;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no warning for the refused start");
  gst_message_unref (msg);
  fail_unless (frames_wait (f, 8, WAIT) >= 8);
  msg = expect (log, "session/negotiated", 1);
  {
    guint attempts = 0;

    gst_structure_get_uint (gst_message_get_structure (msg), "attempts",
        &attempts);
    fail_unless_equals_int (attempts, 2);
  }
  gst_message_unref (msg);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* a model-level 422 is permanent: an element error naming type and loc */
GST_START_TEST (test_422_is_an_element_error)
{
  ServiceHarness *svc =
      service_harness_start ("--fault-refuse=image_too_small", NULL);
  GstElement *pipeline = world_pipeline (svc, NULL);
  BusLog *log = bus_log_new (pipeline);
  GstMessage *msg;
  GError *err = NULL;
  const GstStructure *details = NULL;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = bus_log_wait (log, GST_MESSAGE_ERROR, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no error for a 422");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "image_too_small") != NULL, "%s",
      err->message);
  gst_message_parse_error_details (msg, &details);
  fail_unless (details != NULL);
  fail_unless_equals_string (gst_structure_get_string (details,
          "error-type"), "image_too_small");
  fail_unless (gst_structure_get_string (details, "loc") != NULL);
  g_error_free (err);
  gst_message_unref (msg);
  /* not retried */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* every start is refused and the stream is stopped before any frame: an
 * ERROR that carries the last refusal (gst-launch exits non-zero), not a
 * clean EOS that would leave an empty recording looking like a success */
GST_START_TEST (test_nothing_delivered_is_an_error)
{
  ServiceHarness *svc =
      service_harness_start ("--fault-refuse=runner_server_error", NULL);
  GstElement *pipeline = world_pipeline (svc, "max-retries=20");
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstMessage *msg;
  GError *err = NULL;
  const GstStructure *details = NULL;
  guint status = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  /* a retry is pending: the stop comes between two attempts */
  msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no warning for the refused start");
  gst_message_unref (msg);
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
  msg = bus_log_wait (log, GST_MESSAGE_ERROR, NULL, 1, WAIT);
  fail_unless (msg != NULL, "a stream with no frame ended without an error");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "before any frame") != NULL, "%s",
      err->message);
  fail_unless (strstr (err->message, "runner_server_error") != NULL, "%s",
      err->message);
  gst_message_parse_error_details (msg, &details);
  fail_unless (details != NULL);
  fail_unless (gst_structure_get_uint (details, "status", &status));
  fail_unless_equals_int (status, 500);
  fail_unless_equals_string (gst_structure_get_string (details,
          "error-type"), "runner_server_error");
  g_error_free (err);
  gst_message_unref (msg);
  /* the pads still end, so a muxer can finalise what it has */
  fail_unless (frames_wait_eos (f, WAIT), "no EOS after the error");
  fail_unless_equals_int (f->pts->len, 0);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* a value refused while the element is in NULL (no bus yet: gst-launch
 * sets properties first) fails NULL->READY naming the field and the rule;
 * a valid value clears it */
GST_START_TEST (test_refusal_before_ready_fails)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *src = gst_element_factory_make ("worldsrc", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  gchar *prompt = g_strnfill (2001, 'a');
  BusLog *log;
  GstMessage *msg;
  GError *err = NULL;

  g_object_set (src, "url", "http://127.0.0.1:9/world/start-session",
      "prompt", prompt, NULL);
  gst_bin_add_many (GST_BIN (pipeline), src, sink, NULL);
  fail_unless (gst_element_link (src, sink));
  log = bus_log_new (pipeline);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_READY),
      GST_STATE_CHANGE_FAILURE);
  msg = bus_log_wait (log, GST_MESSAGE_ERROR, NULL, 1, 0);
  fail_unless (msg != NULL, "no error for the refused prompt");
  gst_message_parse_error (msg, &err, NULL);
  fail_unless (strstr (err->message, "/prompt") != NULL, "%s", err->message);
  fail_unless (strstr (err->message, "2000") != NULL, "%s", err->message);
  g_error_free (err);
  gst_message_unref (msg);
  gst_element_set_state (pipeline, GST_STATE_NULL);

  g_object_set (src, "prompt", "a quiet harbour", NULL);
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_READY),
      GST_STATE_CHANGE_SUCCESS);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  g_free (prompt);
  bus_log_free (log);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* A signaller of the test's own: it hands each start to an HTTP signaller
 * and passes its signals on, counting the starts (the element uses the
 * signaller it is given, not one of its own) */
#define TEST_TYPE_SIGNALLER (test_signaller_get_type ())
G_DECLARE_FINAL_TYPE (TestSignaller, test_signaller, TEST, SIGNALLER, GObject);

struct _TestSignaller
{
  GObject parent;
  GstSessionHttpSignaller *inner;
  gint starts;
};

/* "url", read-only: the element gathers on loopback for a loopback one */
static void
test_signaller_get_property (GObject * object, guint id, GValue * value,
    GParamSpec * pspec)
{
  g_object_get_property (G_OBJECT (TEST_SIGNALLER (object)->inner), "url",
      value);
}

static void test_signaller_iface_init (GstSessionSignallerInterface * iface);

G_DEFINE_TYPE_WITH_CODE (TestSignaller, test_signaller, G_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE (GST_SESSION_TYPE_SIGNALLER,
        test_signaller_iface_init));

static void
inner_answer (GstSessionSignaller * inner, const gchar * sdp,
    const GstStructure * answer, TestSignaller * self)
{
  gst_session_signaller_emit_answer (GST_SESSION_SIGNALLER (self), sdp, answer);
}

static void
inner_error (GstSessionSignaller * inner, const GError * error,
    const GstSessionHttpError * http, TestSignaller * self)
{
  gst_session_signaller_emit_error (GST_SESSION_SIGNALLER (self), error, http);
}

static void
inner_closed (GstSessionSignaller * inner, gint reason, const GError * error,
    TestSignaller * self)
{
  gst_session_signaller_emit_closed (GST_SESSION_SIGNALLER (self), reason,
      error);
}

static gboolean
test_signaller_start (GstSessionSignaller * signaller, const gchar * sdp,
    const gchar * session_id, GError ** error)
{
  TestSignaller *self = TEST_SIGNALLER (signaller);

  g_atomic_int_inc (&self->starts);
  return gst_session_signaller_start (GST_SESSION_SIGNALLER (self->inner),
      sdp, session_id, error);
}

static void
test_signaller_stop (GstSessionSignaller * signaller)
{
  gst_session_signaller_stop (GST_SESSION_SIGNALLER (TEST_SIGNALLER
          (signaller)->inner));
}

static void
test_signaller_iface_init (GstSessionSignallerInterface * iface)
{
  iface->start = test_signaller_start;
  iface->stop = test_signaller_stop;
}

static void
test_signaller_finalize (GObject * object)
{
  TestSignaller *self = TEST_SIGNALLER (object);

  g_signal_handlers_disconnect_by_data (self->inner, self);
  gst_object_unref (self->inner);
  G_OBJECT_CLASS (test_signaller_parent_class)->finalize (object);
}

static void
test_signaller_class_init (TestSignallerClass * klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_signaller_finalize;
  G_OBJECT_CLASS (klass)->get_property = test_signaller_get_property;
  g_object_class_install_property (G_OBJECT_CLASS (klass), 1,
      g_param_spec_string ("url", "URL", "The service", NULL,
          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
}

static void
test_signaller_init (TestSignaller * self)
{
}

static TestSignaller *
test_signaller_new (const gchar * url)
{
  TestSignaller *self = g_object_new (TEST_TYPE_SIGNALLER, NULL);

  self->inner = gst_object_ref_sink (gst_session_http_signaller_new (url));
  g_signal_connect (self->inner, "answer", G_CALLBACK (inner_answer), self);
  g_signal_connect (self->inner, "error", G_CALLBACK (inner_error), self);
  g_signal_connect (self->inner, "closed", G_CALLBACK (inner_closed), self);
  return self;
}

/* plays @pipeline (taken) until 16 frames came, with no error, then
 * stops and frees it */
static void
play_until_frames (GstElement * pipeline, const gchar * what)
{
  Frames *f = frames_attach (pipeline);
  BusLog *log = bus_log_new (pipeline);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_unless (frames_wait (f, 16, WAIT) >= 16, "no frames through %s", what);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  gst_object_unref (pipeline);
}

/* the signaller: an HTTP one by default, whose own properties are set as
 * a child (signaller::url, no url on the element), or one given to the
 * element, which it then uses */
GST_START_TEST (test_signaller_property)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  gchar *url = service_harness_url (svc, "world");
  gchar *desc = g_strdup_printf ("worldsrc name=src signaller::url=%s "
      "signaller::keepalive-timeout=60000 ! appsink name=sink sync=false",
      url);
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *src = get_src (pipeline);
  GObject *sig = NULL;
  TestSignaller *mine;
  guint keepalive = 0;

  g_object_get (src, "signaller", &sig, NULL);
  fail_unless (GST_SESSION_IS_HTTP_SIGNALLER (sig));
  g_object_get (sig, "keepalive-timeout", &keepalive, NULL);
  fail_unless_equals_int (keepalive, 60000);
  g_object_unref (sig);
  gst_object_unref (src);
  play_until_frames (pipeline, "signaller::url");

  pipeline = world_pipeline (svc, NULL);
  src = get_src (pipeline);
  g_object_set (src, "url", NULL, NULL);
  mine = test_signaller_new (url);
  g_object_set (src, "signaller", mine, NULL);
  gst_object_unref (src);
  play_until_frames (pipeline, "the given signaller");
  fail_unless_equals_int (g_atomic_int_get (&mine->starts), 1);
  g_object_unref (mine);
  g_free (desc);
  g_free (url);
  service_harness_stop (svc);
}

GST_END_TEST;

/* the peer goes away silently once frames came: EOS and a warning, the
 * file is playable. The drop is asked for then, not a fixed time after the
 * channel opened: under full CPU load the first frame came later than
 * that, and a session that never delivered a frame ends in an error */
GST_START_TEST (test_peer_dropped_gives_eos)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = world_pipeline (svc, "media-timeout=1000");
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstElement *src;
  GstMessage *msg;
  gchar *id = NULL, *rule;
  guint n;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_unless (frames_wait (f, 16, WAIT) >= 16, "fewer than 16 frames");
  src = get_src (pipeline);
  g_object_get (src, "session-id", &id, NULL);
  gst_object_unref (src);
  fail_unless (id != NULL, "no session id");
  rule = g_strdup_printf ("{\"session_id\": \"%s\", \"drop_after\": 0}", id);
  service_harness_post_faults (svc, rule);
  g_free (rule);
  g_free (id);
  fail_unless (frames_wait_eos (f, WAIT), "no EOS after the peer dropped");
  msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, 0);
  fail_unless (msg != NULL, "no warning for the lost session");
  gst_message_unref (msg);
  n = f->pts->len;
  fail_unless (n >= 16, "%u frames", n);
  assert_continuous (f, 0, n);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* EOS sent to the pipeline (gst-launch -e): stop, stream_exhausted, EOS */
GST_START_TEST (test_eos_sends_stop)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = world_pipeline (svc, NULL);
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstMessage *msg;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_unless (frames_wait (f, 8, WAIT) >= 8);
  fail_unless (gst_element_send_event (pipeline, gst_event_new_eos ()));
  gst_message_unref (expect (log, "world/stream_exhausted", 1));
  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL);
  gst_message_unref (msg);
  bus_log_assert_no_error (log);
  stop_pipeline (pipeline);
  bus_log_free (log);
  frames_free (f);
  service_harness_stop (svc);
}

GST_END_TEST;

/* states: repeated start/stop cycles, also mid-negotiation, no hang */
static gint64
heap_in_use (void)
{
  /* the heap in use, not the resident size: glibc keeps what threads
   * freed in per-thread arenas, and how many arenas a run makes depends on
   * how its threads meet (under full CPU load the resident size grew by
   * 24-36 MiB over the 40 sessions with no byte more in use) */
  struct mallinfo2 info = mallinfo2 ();

  return (gint64) (info.uordblks + info.hblkhd);
}

GST_START_TEST (test_start_stop_cycles)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  gint64 heap_warm = 0, heap_end;
  guint i;

  for (i = 0; i < 50; i++) {
    GstElement *pipeline = world_pipeline (svc, NULL);
    gint64 t0 = g_get_monotonic_time ();

    if (i == 10)
      heap_warm = heap_in_use ();

    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    /* alternate: stop mid-negotiation, or after the first frame */
    if (i % 2) {
      Frames *f = frames_attach (pipeline);
      gchar *thread;

      fail_unless (frames_wait (f, 1, WAIT) >= 1, "cycle %u: no frame", i);
      stop_pipeline (pipeline);
      frames_free (f);
      /* the session's DTLS threads ended with it, not after */
      thread = service_harness_dtls_thread ();
      fail_unless (thread == NULL, "cycle %u: %s still alive after the "
          "element reached NULL", i, thread);
    } else {
      /* mid-negotiation: once the offer went out (it has a session id) */
      GstElement *src = get_src (pipeline);
      gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
      gchar *id = NULL;

      while (id == NULL && g_get_monotonic_time () < deadline) {
        g_object_get (src, "session-id", &id, NULL);
        if (id == NULL)
          g_usleep (1000);
      }
      fail_unless (id != NULL, "cycle %u: no offer within 10 s", i);
      g_free (id);
      gst_object_unref (src);
      stop_pipeline (pipeline);
    }
    fail_unless (g_get_monotonic_time () - t0 < 25 * G_USEC_PER_SEC,
        "cycle %u took too long", i);
  }
  /* no growth per session: 40 more cycles after warming up */
  heap_end = heap_in_use ();
  GST_INFO ("heap in use after 10 cycles %" G_GINT64_FORMAT
      " B, after 50 %" G_GINT64_FORMAT " B", heap_warm, heap_end);
  fail_unless (heap_end - heap_warm < 16 * 1024 * 1024,
      "the heap in use grew by %" G_GINT64_FORMAT " B over 40 sessions",
      heap_end - heap_warm);
  service_harness_stop (svc);
}

GST_END_TEST;

/* stops at the racy moments of a negotiation: right after PLAYING (the
 * offer being created), after a few ms (the local description being set,
 * gathering), and when the first frame is in flight; every session stage
 * must be freed with its private pipeline, none left running (it would
 * hold webrtcbin, libnice and SCTP threads and sockets past the element) */
GST_START_TEST (test_stop_at_racy_moments)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  guint before = 0, after, i;

  for (i = 0; i < 40; i++) {
    GstElement *pipeline = world_pipeline (svc, NULL);

    gst_element_set_state (pipeline, GST_STATE_PLAYING);
    if (i % 4 == 1)
      g_usleep (2000 * (i % 8));
    else if (i % 4 == 2)
      g_usleep (20000);
    else if (i % 4 == 3) {
      Frames *f = frames_attach (pipeline);

      frames_wait (f, 1, WAIT);
      stop_pipeline (pipeline);
      frames_free (f);
      pipeline = NULL;
    }
    if (pipeline)
      stop_pipeline (pipeline);
    if (i == 3)
      before = service_harness_thread_count ();
  }
  /* threads stop asynchronously after their join: let them go */
  for (i = 0; i < 50 && service_harness_thread_count () > before + 4; i++)
    g_usleep (100000);
  after = service_harness_thread_count ();
  GST_INFO ("threads after 4 cycles %u, after 40 %u", before, after);
  fail_unless (after <= before + 4, "%u threads left running after 36 "
      "stopped sessions (%u before)", after - before, before);
  service_harness_stop (svc);
}

GST_END_TEST;

/* ---- the API key never reaches a log, a message or an error ---- */

#define KEY "k3y-Sup3rSecret-0123456789"

static gint key_seen;

static void
key_log_function (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (text && strstr (text, KEY))
    g_atomic_int_set (&key_seen, 1);
}

static gboolean
message_mentions_key (GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  gchar *text = s ? gst_structure_to_string (s) : NULL;
  gboolean found = text && strstr (text, KEY);

  g_free (text);
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR ||
      GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
    GError *err = NULL;
    gchar *dbg = NULL;

    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
      gst_message_parse_error (msg, &err, &dbg);
    else
      gst_message_parse_warning (msg, &err, &dbg);
    found |= (err && strstr (err->message, KEY)) || (dbg && strstr (dbg, KEY));
    g_clear_error (&err);
    g_free (dbg);
  }
  return found;
}

GST_START_TEST (test_api_key_never_logged)
{
  ServiceHarness *svc = service_harness_start ("--api-key=" KEY, NULL);
  GstElement *pipeline = world_pipeline (svc, NULL);
  GstElement *src = get_src (pipeline);
  BusLog *log = bus_log_new (pipeline);
  Frames *f = frames_attach (pipeline);
  GstMessage *msg;
  guint i;

  gst_debug_set_default_threshold (GST_LEVEL_MEMDUMP);
  gst_debug_add_log_function (key_log_function, NULL, NULL);
  g_object_set (src, "api-key", KEY, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  fail_unless (frames_wait (f, 5, WAIT) >= 5, "no frames with the key");
  stop_pipeline (pipeline);
  gst_object_unref (src);
  frames_free (f);

  /* a wrong key: refused (401), not retried, an error without the key */
  pipeline = world_pipeline (svc, NULL);
  src = get_src (pipeline);
  bus_log_free (log);
  log = bus_log_new (pipeline);
  g_object_set (src, "api-key", KEY "-wrong", NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = bus_log_wait (log, GST_MESSAGE_ERROR, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no error for a wrong key");
  gst_message_unref (msg);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);
  stop_pipeline (pipeline);
  gst_object_unref (src);

  gst_debug_remove_log_function (key_log_function);
  gst_debug_set_default_threshold (GST_LEVEL_NONE);
  fail_if (g_atomic_int_get (&key_seen), "the API key reached a log line");
  for (i = 1; (msg = bus_log_wait (log, GST_MESSAGE_ANY, NULL, i, 0)); i++) {
    fail_if (message_mentions_key (msg), "the API key reached a message");
    gst_message_unref (msg);
  }
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

static Suite *
worldsrc_lifecycle_suite (void)
{
  Suite *s = suite_create ("worldsrc-lifecycle");
  TCase *tc = tcase_create ("service");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, service_harness_settle_threads);
  tcase_add_test (tc, test_transient_refusal_retried);
  tcase_add_test (tc, test_422_is_an_element_error);
  tcase_add_test (tc, test_nothing_delivered_is_an_error);
  tcase_add_test (tc, test_refusal_before_ready_fails);
  tcase_add_test (tc, test_peer_dropped_gives_eos);
  tcase_add_test (tc, test_eos_sends_stop);
  tcase_add_test (tc, test_signaller_property);
  tcase_add_test (tc, test_api_key_never_logged);
  tcase_add_test (tc, test_start_stop_cycles);
  tcase_add_test (tc, test_stop_at_racy_moments);
  return s;
}

GST_CHECK_MAIN (worldsrc_lifecycle);
