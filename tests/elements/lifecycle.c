/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The session lifecycle of the session sources alone (its source compiled
 * in): what follows a failed start, a lost session, the end of a run, and
 * the watchdog's verdicts. No service, no network: the element tests
 * (elements/worldsrc, elements/faults) show the same against the real
 * service.
 */

#include <string.h>
#include <gst/check/gstcheck.h>

#include "gstsessionlifecycle.h"

/* the element's category, which the lifecycle logs under */
GST_DEBUG_CATEGORY (gst_session_src_debug);

static GstSessionHttpError *
http_error (guint status, const gchar * body)
{
  GstSessionHttpError *e = gst_session_http_error_parse (status, NULL, body,
      strlen (body));

  fail_unless (e != NULL);
  return e;
}

static const gchar *
message_text (GstMessage * msg, GError ** err, const GstStructure ** details)
{
  gchar *debug = NULL;

  *details = NULL;
  if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    gst_message_parse_error (msg, err, &debug);
    gst_message_parse_error_details (msg, details);
  } else {
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
    gst_message_parse_warning (msg, err, &debug);
    gst_message_parse_warning_details (msg, details);
  }
  g_free (debug);
  return (*err)->message;
}

/* @msg (taken) is of @type and its text has @part */
static void
check_message (GstMessage * msg, GstMessageType type, const gchar * part)
{
  const GstStructure *details;
  GError *err = NULL;

  fail_unless (msg != NULL);
  message_text (msg, &err, &details);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), type);
  fail_unless (part == NULL || strstr (err->message, part) != NULL, "%s",
      err->message);
  g_error_free (err);
  gst_message_unref (msg);
}

/* one lifecycle, its owner, and a start failure with the service's
 * answer @status, @body */
typedef struct
{
  GstObject *owner;
  GstSessionLifecycle lc;
  GstSessionHttpError *http;
  GError *failure;
} Fixture;

static void
fixture_init (Fixture * f, guint status, const gchar * body)
{
  f->owner = gst_object_ref_sink (gst_bin_new ("src"));
  gst_session_lifecycle_init (&f->lc, f->owner);
  f->http = status ? http_error (status, body) : NULL;
  f->failure = g_error_new (GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ,
      "HTTP %u %s", status, f->http ? f->http->error_type : "");
}

static void
fixture_clear (Fixture * f)
{
  g_clear_pointer (&f->http, gst_session_http_error_free);
  g_clear_error (&f->failure);
  gst_session_lifecycle_clear (&f->lc);
  gst_object_unref (f->owner);
}

/* a transient failure (503) is retried with a growing delay, up to
 * max-retries; then an ERROR before any output, with the service's answer */
GST_START_TEST (test_transient_failures_retry_then_give_up)
{
  Fixture f;
  GstClockTime delay, last = 0;
  const GstStructure *details;
  GstMessage *msg;
  GError *err = NULL;
  guint i;

  fixture_init (&f, 503,
      "{\"detail\": \"no runner free\", \"error_type\": \"runner_busy\"}");
  for (i = 0; i < 2; i++) {
    fail_unless_equals_int (gst_session_lifecycle_start_failed (&f.lc,
            f.failure, f.http, 2, 30 * GST_SECOND, FALSE, &delay, &msg),
        GST_SESSION_LIFECYCLE_RETRY);
    fail_unless (delay > 0 && delay <= 30 * GST_SECOND);
    fail_unless (i == 0 || delay > last / 2, "the delay did not grow");
    last = delay;
    message_text (msg, &err, &details);
    fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
    fail_unless (strstr (err->message, "Session start failed (HTTP 503 "
            "runner_busy), retrying in") != NULL, "%s", err->message);
    fail_unless (strstr (err->message, i == 0 ? "(attempt 2 of 3)" :
            "(attempt 3 of 3)") != NULL, "%s", err->message);
    g_clear_error (&err);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (gst_session_lifecycle_start_failed (&f.lc, f.failure,
          f.http, 2, 30 * GST_SECOND, FALSE, &delay, &msg),
      GST_SESSION_LIFECYCLE_END);
  message_text (msg, &err, &details);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_OPEN_READ));
  fail_unless (details != NULL);
  fail_unless_equals_string (gst_structure_get_string (details, "reason"),
      "Could not start a session");
  fail_unless_equals_string (gst_structure_get_string (details,
          "error-type"), "runner_busy");
  fail_unless_equals_string (gst_structure_get_string (details, "detail"),
      "no runner free");
  g_clear_error (&err);
  gst_message_unref (msg);
  /* the error was posted: the end adds none */
  fail_unless (gst_session_lifecycle_ending (&f.lc, FALSE) == NULL);

  fixture_clear (&f);
}

GST_END_TEST;

/* a refusal (401) is never retried; after output, giving up is a warning
 * (the element ends with EOS, what was recorded is kept) */
GST_START_TEST (test_refusal_gives_up_at_once)
{
  Fixture f;
  const GstStructure *details;
  GstClockTime delay;
  GstMessage *msg;
  GError *err = NULL;

  fixture_init (&f, 401,
      "{\"detail\": \"bad key\", \"error_type\": \"unauthorized\"}");
  fail_unless_equals_int (gst_session_lifecycle_start_failed (&f.lc, f.failure,
          f.http, 5, 30 * GST_SECOND, FALSE, &delay, &msg),
      GST_SESSION_LIFECYCLE_END);
  message_text (msg, &err, &details);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  fail_unless (g_error_matches (err, GST_RESOURCE_ERROR,
          GST_RESOURCE_ERROR_NOT_AUTHORIZED), "%s", err->message);
  g_clear_error (&err);
  gst_message_unref (msg);

  /* a new run: the same refusal after output is a warning */
  gst_session_lifecycle_new_run (&f.lc);
  fail_unless_equals_int (gst_session_lifecycle_start_failed (&f.lc, f.failure,
          f.http, 5, 30 * GST_SECOND, TRUE, &delay, &msg),
      GST_SESSION_LIFECYCLE_END);
  check_message (msg, GST_MESSAGE_WARNING, NULL);
  fail_unless (gst_session_lifecycle_ending (&f.lc, TRUE) == NULL);

  fixture_clear (&f);
}

GST_END_TEST;

/* a lost session is renewed when asked, else the stream ends */
GST_START_TEST (test_lost_session_renews_or_ends)
{
  Fixture f;
  const GstStructure *details;
  GstMessage *msg;
  GError *err = NULL;

  GstSessionEnded ended = { "no media for 5000 ms", TRUE, 60 * GST_SECOND,
    2 * GST_SECOND, 5, 30 * GST_SECOND, TRUE
  };
  GstClockTime delay;

  fixture_init (&f, 0, NULL);
  fail_unless_equals_int (gst_session_lifecycle_renewal (&f.lc, &ended,
          &delay, &msg), GST_SESSION_LIFECYCLE_RENEW);
  fail_unless_equals_uint64 (delay, 0);
  check_message (msg, GST_MESSAGE_WARNING,
      "Session lost (no media for 5000 ms): starting a new one");

  fail_unless_equals_int (gst_session_lifecycle_lost (&f.lc, "ICE failed",
          TRUE, &msg), GST_SESSION_LIFECYCLE_END);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
  fail_unless_equals_string (message_text (msg, &err, &details),
      "The session was lost (ICE failed)");
  fail_unless_equals_string (gst_structure_get_string (details, "reason"),
      "Session lost");
  g_clear_error (&err);
  gst_message_unref (msg);

  /* before any output: an error */
  fail_unless_equals_int (gst_session_lifecycle_lost (&f.lc, "ICE failed",
          FALSE, &msg), GST_SESSION_LIFECYCLE_END);
  check_message (msg, GST_MESSAGE_ERROR, "The session was lost");

  fixture_clear (&f);
}

GST_END_TEST;

/* a run that ends without a frame is an error carrying the last start
 * error; one that delivered ends clean */
GST_START_TEST (test_nothing_delivered_is_an_error)
{
  Fixture f;
  const GstStructure *details;
  GstClockTime delay;
  GstMessage *msg;
  GError *err = NULL;
  guint64 frames = 1;

  fixture_init (&f, 500, "{\"detail\": \"no element textoverlay\", "
      "\"error_type\": \"runner_server_error\"}");
  /* a stop during the retry's wait */
  fail_unless_equals_int (gst_session_lifecycle_start_failed (&f.lc, f.failure,
          f.http, 5, 30 * GST_SECOND, FALSE, &delay, &msg),
      GST_SESSION_LIFECYCLE_RETRY);
  gst_message_unref (msg);
  fail_unless (gst_session_lifecycle_ending (&f.lc, TRUE) == NULL);
  msg = gst_session_lifecycle_ending (&f.lc, FALSE);
  fail_unless (msg != NULL);
  message_text (msg, &err, &details);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  fail_unless (strstr (err->message, "before any frame arrived: the last "
          "session start failed (HTTP 500 runner_server_error)") != NULL,
      "%s", err->message);
  fail_unless_equals_string (gst_structure_get_string (details,
          "error-type"), "runner_server_error");
  fail_unless (gst_structure_get_uint64 (details, "frames", &frames));
  fail_unless_equals_uint64 (frames, 0);
  g_clear_error (&err);
  gst_message_unref (msg);
  /* once only */
  fail_unless (gst_session_lifecycle_ending (&f.lc, FALSE) == NULL);

  /* a new run with no failed start: the count of starts */
  gst_session_lifecycle_new_run (&f.lc);
  f.lc.sessions = 1;
  msg = gst_session_lifecycle_ending (&f.lc, FALSE);
  fail_unless_equals_string (message_text (msg, &err, &details),
      "The stream ended before any frame arrived (1 session start)");
  g_clear_error (&err);
  gst_message_unref (msg);

  fixture_clear (&f);
}

GST_END_TEST;

#define S (G_TIME_SPAN_SECOND)

GST_START_TEST (test_watchdog_verdicts)
{
  GstSessionWatchTimes t = { 0, };

  /* starting: the start timeout, from the attempt */
  t.started_at = 10 * S;
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 24 * S), GST_SESSION_WATCH_OK);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 26 * S), GST_SESSION_WATCH_START_TIMEOUT);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 0, 2000, 5000,
          20000, 100 * S), GST_SESSION_WATCH_OK);

  /* open, the output not yet (the director's configured): 20 s for it,
   * media or not */
  t.opened_at = 11 * S;
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 30 * S), GST_SESSION_WATCH_OK);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 32 * S), GST_SESSION_WATCH_NOT_CONFIGURED);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          0, 300 * S), GST_SESSION_WATCH_OK);

  /* the output open, no frame yet: the first frame gets 5 s, not 2 */
  t.opened_at = 9 * S;
  t.gate_at = 11 * S;
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 15 * S), GST_SESSION_WATCH_OK);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 17 * S), GST_SESSION_WATCH_SILENT);

  /* media flowed: silence counts from the last input */
  t.last_input = 20 * S;
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 21 * S), GST_SESSION_WATCH_OK);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 23 * S), GST_SESSION_WATCH_SILENT);
  /* an announced late chunk is waited out; media-timeout=0 never ends */
  t.grace_until = 30 * S;
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 31 * S), GST_SESSION_WATCH_OK);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 2000, 5000,
          20000, 33 * S), GST_SESSION_WATCH_SILENT);
  fail_unless_equals_int (gst_session_lifecycle_watch (&t, 15000, 0, 5000,
          20000, 300 * S), GST_SESSION_WATCH_OK);
}

GST_END_TEST;

/* a renewed session that ended before it delivered renew-min-media counts
 * as a failed start: backoff, then an error naming why; one that ran
 * normally renews at once and the count starts again */
GST_START_TEST (test_short_sessions_back_off_then_end)
{
  GstSessionEnded ended = { "stream exhausted", FALSE, GST_SECOND / 16,
    2 * GST_SECOND, 2, 30 * GST_SECOND, FALSE
  };
  const GstStructure *details;
  GstClockTime delay, last = 0;
  GstMessage *msg;
  GError *err = NULL;
  Fixture f;
  guint i;

  fixture_init (&f, 0, NULL);
  for (i = 0; i < 2; i++) {
    fail_unless_equals_int (gst_session_lifecycle_renewal (&f.lc, &ended,
            &delay, &msg), GST_SESSION_LIFECYCLE_RETRY);
    fail_unless (delay >= 400 * GST_MSECOND && delay > last,
        "no backoff: %" GST_TIME_FORMAT, GST_TIME_ARGS (delay));
    last = delay;
    check_message (msg, GST_MESSAGE_WARNING, "Short session, a failed start "
        "(session ended (stream exhausted) after 0.1 s of video, less than "
        "renew-min-media's 2.0 s): retrying in");
  }
  /* a session that ran normally: at once, and no message (the service
   * ended it) */
  ended.media = 2 * GST_SECOND;
  fail_unless_equals_int (gst_session_lifecycle_renewal (&f.lc, &ended,
          &delay, &msg), GST_SESSION_LIFECYCLE_RENEW);
  fail_unless (msg == NULL && delay == 0);
  fail_unless_equals_int (f.lc.attempt, 0);

  /* nothing delivered: failed, three in a row end the run with an error */
  ended.media = 0;
  ended.min_media = 0;
  for (i = 0; i < 2; i++) {
    fail_unless_equals_int (gst_session_lifecycle_renewal (&f.lc, &ended,
            &delay, &msg), GST_SESSION_LIFECYCLE_RETRY);
    gst_message_unref (msg);
  }
  fail_unless_equals_int (gst_session_lifecycle_renewal (&f.lc, &ended,
          &delay, &msg), GST_SESSION_LIFECYCLE_END);
  message_text (msg, &err, &details);
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_ERROR);
  fail_unless (strstr (err->message, "3 sessions in a row ended early; the "
          "last: session ended (stream exhausted) after 0.0 s") != NULL,
      "%s", err->message);
  fail_unless_equals_string (gst_structure_get_string (details, "reason"),
      "Sessions too short");
  g_clear_error (&err);
  gst_message_unref (msg);
  fail_unless (gst_session_lifecycle_ending (&f.lc, FALSE) == NULL);
  fixture_clear (&f);
}

GST_END_TEST;

/* a rate limit that asks for a day waits max-retry-wait, and says so */
GST_START_TEST (test_retry_wait_is_capped)
{
  GstClockTime delay;
  GstMessage *msg;
  Fixture f;
  guint i;

  fixture_init (&f, 429, "{\"detail\": \"slow down\", "
      "\"error_type\": \"rate_limited\"}");
  f.http->ratelimit_reset = 86400;
  for (i = 0; i < 3; i++) {
    fail_unless_equals_int (gst_session_lifecycle_start_failed (&f.lc,
            f.failure, f.http, 5, 30 * GST_SECOND, FALSE, &delay, &msg),
        GST_SESSION_LIFECYCLE_RETRY);
    fail_unless_equals_uint64 (delay, 30 * GST_SECOND);
    /* each retry says it (the debug text carries the reason) */
    {
      GError *err = NULL;
      gchar *debug = NULL;

      gst_message_parse_warning (msg, &err, &debug);
      fail_unless (strstr (err->message, "retrying in 30000 ms") != NULL,
          "%s", err->message);
      fail_unless (strstr (debug, "the 86400 s asked for capped by "
              "max-retry-wait") != NULL, "%s", debug);
      g_error_free (err);
      g_free (debug);
    }
    gst_message_unref (msg);
  }
  fixture_clear (&f);
}

GST_END_TEST;

static Suite *
lifecycle_suite (void)
{
  Suite *s = suite_create ("lifecycle");
  TCase *tc = tcase_create ("general");

  GST_DEBUG_CATEGORY_INIT (gst_session_src_debug, "sessionsrc", 0,
      "session source");
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_transient_failures_retry_then_give_up);
  tcase_add_test (tc, test_refusal_gives_up_at_once);
  tcase_add_test (tc, test_lost_session_renews_or_ends);
  tcase_add_test (tc, test_short_sessions_back_off_then_end);
  tcase_add_test (tc, test_retry_wait_is_capped);
  tcase_add_test (tc, test_nothing_delivered_is_an_error);
  tcase_add_test (tc, test_watchdog_verdicts);
  return s;
}

GST_CHECK_MAIN (lifecycle);
