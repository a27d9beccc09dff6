/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fault matrix: every fault the reference service can inject, for each
 * element, with its expected outcome: recovered (the output timeline goes
 * on, gap-free), or the stream ends (EOS, with a warning or an error that
 * says why). docs/reliability.md lists the same table.
 */

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "service-harness.h"

#define WAIT (20 * GST_SECOND)

typedef enum
{
  RECOVERS,                     /* frames go on, timeline continuous */
  ENDS_WITH_WARNING,            /* EOS and a warning */
  ENDS,                         /* EOS (the service ended the stream) */
  FAILS,                        /* an element error before any media */
  GIVES_UP,                     /* an error, or a warning and EOS after the
                                 * few frames that came before the fault
                                 * (then repeated until the end) */
} Outcome;

typedef struct
{
  const gchar *name;
  const gchar *app;
  const gchar *flag;
  const gchar *props;
  Outcome outcome;
  const gchar *message;         /* an element message that must be posted */
  const gchar *text;            /* in the warning or error */
  guint warnings;               /* at least this many warnings */
  /* members of a fault rule for the live session, posted once 8 frames
   * came (not a time after the channel opened: under full CPU load the
   * first frame can come later, and a stream with no frame ends in an
   * error, not a warning) */
  const gchar *rule;
} Fault;

/* *INDENT-OFF* */
static const Fault faults[] = {
  { "refused-transient", "world", "--fault-refuse=runner_scheduling_failure:2",
    NULL, RECOVERS, "session/negotiated", "runner_scheduling_failure", 2 },
  { "refused-bad-request", "world", "--fault-refuse=bad_request", NULL,
    FAILS, NULL, "bad_request", 0 },
  { "refused-422", "world", "--fault-refuse=image_too_small", NULL, FAILS,
    NULL, "image_too_small", 0 },
  { "slow-answer", "world", "--fault-answer-delay=1", NULL, RECOVERS,
    "world/session_info", NULL, 0 },
  { "peer-dropped", "world", NULL, "media-timeout=1000",
    ENDS_WITH_WARNING, NULL, "lost", 1, "\"drop_after\": 0" },
  { "peer-dropped-renew", "world", "--fault-drop-after=2",
    "media-timeout=1000 renew=true", RECOVERS, NULL, "lost", 1 },
  { "peer-silent", "world", NULL, "media-timeout=1000", ENDS_WITH_WARNING,
    NULL, "no media", 1,
    "\"drop_after\": 0, \"drop_keep_response\": true" },
  { "media-stall", "world", "--fault-stall=2:2", "media-timeout=5000",
    RECOVERS, "world/stats", NULL, 0 },
  { "exhausted-early", "world", "--fault-exhaust-after=2", NULL, ENDS,
    "world/stream_exhausted", NULL, 0 },
  { "malformed-message", "world", "--fault-bad-message=malformed:1", NULL,
    RECOVERS, NULL, "invalid message from the service", 1 },
  { "unknown-message", "world", "--fault-bad-message=unknown_type:1", NULL,
    RECOVERS, NULL, NULL, 0 },
  { "schema-violation", "world", "--fault-bad-message=schema:1", NULL,
    RECOVERS, NULL, "invalid message from the service", 1 },
  { "deadline-missed", "director", "--fault-stall=2:3", "chunk-duration=5",
    RECOVERS, "director/deadline_missed", NULL, 0 },
  { "session-limit", "director", "--session-limit=4", "chunk-duration=5",
    RECOVERS, "director/stream_exhausted", NULL, 0 },
  { "director-error", "director", "--fault-director-error=generation_failed:2",
    "chunk-duration=5", RECOVERS, "director/error", NULL, 0 },
  { "director-dropped", "director", "--fault-drop-after=2",
    "media-timeout=1000 chunk-duration=5", RECOVERS, NULL, "lost", 1 },
  { "announced-size", "world", "--fault-announce=1280x1000", NULL, RECOVERS,
    NULL, "session_info /resolution is 1280x1000, not the world's 1280x704",
    1 },
  { "announced-huge", "world", "--fault-announce=8192x8192", NULL, RECOVERS,
    NULL, "session_info /resolution is 8192x8192", 1 },
  { "director-no-configured", "director", "--fault-no-configured",
    "renew=false", FAILS, NULL, "no configured from the service 20000 ms "
    "after the control channel opened", 0 },
  { "director-wrong-shape", "director", "--fault-resize=0:640x640",
    "renew=false", GIVES_UP, NULL, "no frame of the configured 1360x768 for "
    "5000 ms", 0 },
  { "director-refused", "director",
    "--fault-refuse=runner_connection_timeout:1", NULL, RECOVERS,
    "session/negotiated", "runner_connection_timeout", 1 },
};
/* *INDENT-ON* */

typedef struct
{
  GMutex lock;
  GArray *pts;
  gboolean eos;
  GstCaps *first;               /* the first sample's caps */
  guint caps_changed;           /* samples with other caps than the first */
  guint mismatched;             /* buffers not of the size their caps say */
} Video;

static GstFlowReturn
on_sample (GstAppSink * sink, gpointer data)
{
  Video *v = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstVideoInfo info;
  GstClockTime pts;

  if (sample == NULL)
    return GST_FLOW_EOS;
  pts = GST_BUFFER_PTS (gst_sample_get_buffer (sample));
  g_mutex_lock (&v->lock);
  g_array_append_val (v->pts, pts);
  /* raw output is what its caps say, and they stay */
  if (gst_video_info_from_caps (&info, gst_sample_get_caps (sample)) &&
      gst_buffer_get_size (gst_sample_get_buffer (sample)) !=
      GST_VIDEO_INFO_SIZE (&info))
    v->mismatched++;
  if (v->first == NULL)
    v->first = gst_caps_ref (gst_sample_get_caps (sample));
  else if (!gst_caps_is_equal (v->first, gst_sample_get_caps (sample)))
    v->caps_changed++;
  g_mutex_unlock (&v->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static void
on_eos (GstAppSink * sink, gpointer data)
{
  Video *v = data;

  g_mutex_lock (&v->lock);
  v->eos = TRUE;
  g_mutex_unlock (&v->lock);
}

static guint
video_count (Video * v, gboolean * eos)
{
  guint n;

  g_mutex_lock (&v->lock);
  n = v->pts->len;
  if (eos)
    *eos = v->eos;
  g_mutex_unlock (&v->lock);
  return n;
}

/* waits until @pred holds, at most @timeout; polls (the condition spans
 * the bus log and the sink) */
#define WAIT_UNTIL(cond, timeout) G_STMT_START {                        \
  gint64 _deadline = g_get_monotonic_time () + (timeout) / GST_USECOND;  \
  while (!(cond) && g_get_monotonic_time () < _deadline)                \
    g_usleep (20000);                                                   \
} G_STMT_END

static gboolean
message_text_has (GstMessage * msg, const gchar * text)
{
  GError *err = NULL;
  gchar *dbg = NULL;
  gboolean found;

  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR)
    gst_message_parse_error (msg, &err, &dbg);
  else
    gst_message_parse_warning (msg, &err, &dbg);
  found = (err && strstr (err->message, text)) || (dbg && strstr (dbg, text));
  g_clear_error (&err);
  g_free (dbg);
  return found;
}

static gboolean
any_text (BusLog * log, GstMessageType type, const gchar * text)
{
  GstMessage *msg;
  guint i;
  gboolean found = FALSE;

  for (i = 1; !found && (msg = bus_log_wait (log, type, NULL, i, 0)); i++) {
    found = message_text_has (msg, text);
    gst_message_unref (msg);
  }
  return found;
}

static void
run_fault (const Fault * f)
{
  ServiceHarness *svc = service_harness_start (f->flag, NULL);
  gchar *url = service_harness_url (svc, f->app);
  gboolean director = g_str_equal (f->app, "director");
  gchar *desc = g_strdup_printf ("%ssrc name=src url=%s %s %s "
      "src.video ! appsink name=sink sync=false %s", f->app, url,
      director ? "prompt=\"a test\"" : "", f->props ? f->props : "",
      director ? "src.audio ! fakesink sync=false async=false" : "");
  GstElement *pipeline = gst_parse_launch (desc, NULL);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstAppSinkCallbacks cb = { on_eos, NULL, on_sample, };
  Video v = { {0}, g_array_new (FALSE, FALSE, sizeof (GstClockTime)),
  FALSE, NULL, 0, 0
  };
  BusLog *log = bus_log_new (pipeline);
  gboolean eos = FALSE;
  guint n, i;

  GST_INFO ("fault %s: %s %s", f->name, f->flag, GST_STR_NULL (f->props));
  g_mutex_init (&v.lock);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, &v, NULL);
  gst_element_set_state (pipeline, GST_STATE_PLAYING);

  if (f->rule) {
    GstElement *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
    gchar *id = NULL, *rule;

    WAIT_UNTIL (video_count (&v, NULL) >= 8, WAIT);
    fail_unless (video_count (&v, NULL) >= 8, "%s: no media", f->name);
    g_object_get (src, "session-id", &id, NULL);
    gst_object_unref (src);
    fail_unless (id != NULL, "%s: no session id", f->name);
    rule = g_strdup_printf ("{\"session_id\": \"%s\", %s}", id, f->rule);
    service_harness_post_faults (svc, rule);
    g_free (rule);
    g_free (id);
  }

  switch (f->outcome) {
    case FAILS:
      /* (a director's configured is waited for 20 s) */
      WAIT_UNTIL (bus_log_count (log, GST_MESSAGE_ERROR, NULL) > 0, 2 * WAIT);
      fail_unless (any_text (log, GST_MESSAGE_ERROR, f->text),
          "%s: no error naming %s", f->name, f->text);
      fail_unless_equals_int (video_count (&v, NULL), 0);
      break;
    case GIVES_UP:
      /* (under load the first chunk, then media-timeout: up to a minute;
       * frames of the configured size that came first may leave "no
       * media" as the reason) */
      WAIT_UNTIL (bus_log_count (log, GST_MESSAGE_ERROR, NULL) > 0 ||
          (video_count (&v, &eos), eos), 3 * WAIT);
      fail_unless (any_text (log, GST_MESSAGE_ERROR, f->text) ||
          any_text (log, GST_MESSAGE_ERROR, "The session was lost (no ") ||
          (eos && (any_text (log, GST_MESSAGE_WARNING, f->text) ||
                  any_text (log, GST_MESSAGE_WARNING,
                      "The session was lost (no "))),
          "%s: no end naming %s (eos %d, %u errors, %u warnings)", f->name,
          f->text, eos, bus_log_count (log, GST_MESSAGE_ERROR, NULL),
          bus_log_count (log, GST_MESSAGE_WARNING, NULL));
      break;
    case ENDS:
    case ENDS_WITH_WARNING:
      WAIT_UNTIL ((video_count (&v, &eos), eos), 2 * WAIT);
      fail_unless (eos, "%s: no EOS", f->name);
      bus_log_assert_no_error (log);
      break;
    case RECOVERS:
      /* media for 8 s after the first frame, through the fault */
      WAIT_UNTIL (video_count (&v, NULL) > 0, WAIT);
      fail_unless (video_count (&v, NULL) > 0, "%s: no media", f->name);
      WAIT_UNTIL (video_count (&v, &eos) > (director ? 24 : 16) * 8 || eos,
          2 * WAIT);
      n = video_count (&v, &eos);
      fail_if (eos, "%s: the stream ended", f->name);
      fail_unless (n > (director ? 24 : 16) * 8, "%s: %u frames", f->name, n);
      bus_log_assert_no_error (log);
      break;
  }
  if (f->message) {
    GstMessage *msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, f->message, 1,
        WAIT);

    fail_unless (msg != NULL, "%s: no %s", f->name, f->message);
    gst_message_unref (msg);
  }
  if (f->outcome != FAILS && f->outcome != GIVES_UP && f->text)
    fail_unless (any_text (log, GST_MESSAGE_WARNING, f->text),
        "%s: no warning naming \"%s\"", f->name, f->text);
  fail_unless (bus_log_count (log, GST_MESSAGE_WARNING, NULL) >= f->warnings,
      "%s: fewer than %u warnings", f->name, f->warnings);

  /* whatever happened, the timeline has no gap and no overlap (the
   * director's a frame apart, the world's interactive playout each frame
   * at its own place, half a frame to one and a half after the one
   * before), and every frame is what the caps say, which never change */
  g_mutex_lock (&v.lock);
  fail_unless_equals_int (v.mismatched, 0);
  fail_unless (v.caps_changed == 0, "%s: %u frames of other caps than %"
      GST_PTR_FORMAT, f->name, v.caps_changed, v.first);
  for (i = 1; i < v.pts->len; i++) {
    GstClockTime a = g_array_index (v.pts, GstClockTime, i - 1);
    GstClockTime b = g_array_index (v.pts, GstClockTime, i);
    GstClockTime d = GST_SECOND / (director ? 24 : 16);

    fail_unless (director ? b > a && (b - a) - d < GST_MSECOND :
        b >= a + d / 2 && b <= a + d + d / 2,
        "%s: frame %u at %" GST_TIME_FORMAT " after %" GST_TIME_FORMAT,
        f->name, i, GST_TIME_ARGS (b), GST_TIME_ARGS (a));
  }
  g_mutex_unlock (&v.lock);

  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  bus_log_free (log);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_array_unref (v.pts);
  gst_clear_caps (&v.first);
  g_mutex_clear (&v.lock);
  g_free (desc);
  g_free (url);
  service_harness_stop (svc);
}

GST_START_TEST (test_fault)
{
  /* FAULT=name runs one row, for a developer */
  const gchar *only = g_getenv ("FAULT");

  if (only == NULL || g_str_equal (only, faults[__i__].name))
    run_fault (&faults[__i__]);
}

GST_END_TEST;

static Suite *
faults_suite (void)
{
  Suite *s = suite_create ("faults");
  TCase *tc = tcase_create ("matrix");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  /* after GST_END_TEST, before the process exits */
  tcase_add_checked_fixture (tc, NULL, service_harness_settle_threads);
  tcase_add_loop_test (tc, test_fault, 0, G_N_ELEMENTS (faults));
  return s;
}

GST_CHECK_MAIN (faults);
