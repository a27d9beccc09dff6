/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The elements' controls in this process, on GstHarness: a session with a
 * peer of the test's own (test-peer.c: webrtcbin on 127.0.0.1, the control
 * channel, no media), answered through the scripted signaller. What the
 * element sends for each property, action signal and control-script line,
 * and what it makes of the service's messages (bus messages, properties,
 * the control-message signal). Seconds, not minutes.
 */

#include <string.h>
#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/check/gsttestclock.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "harness-fixture.h"

/* @factory's element on a harness, answered by a test peer; playing, its
 * control channel open. On the system clock, or on the harness's test
 * clock (@test_clock: it stands at running time 0 until the test moves it,
 * see advance_to) */
static Fixture *
session_new_valist (const gchar * factory, gboolean test_clock,
    const gchar * first_property, va_list args)
{
  Fixture *fx = fixture_new (factory, "video");
  GstClock *clock;

  fx->peer = test_peer_new ();
  script_signaller_push_peer (fx->sig, fx->peer);
  /* no media comes from the peer: the session is not lost for it. The
   * url is never called (the signaller answers) but says loopback: the
   * element gathers on 127.0.0.1, as the peer does */
  g_object_set (fx->h->element, "media-timeout", 0, "renew", FALSE, "url",
      "http://127.0.0.1:9", NULL);
  if (first_property)
    g_object_set_valist (G_OBJECT (fx->h->element), first_property, args);
  /* control scripts run on the running time: the system clock's, with a
   * base time (a harness gives none), or the test clock's from 0 */
  if (!test_clock)
    gst_harness_use_systemclock (fx->h);
  clock = gst_element_get_clock (fx->h->element);
  fail_unless (clock != NULL);
  gst_element_set_base_time (fx->h->element, test_clock ? 0 :
      gst_clock_get_time (clock));
  gst_object_unref (clock);
  gst_harness_play (fx->h);
  fail_unless (test_peer_wait_channel (fx->peer, WAIT_S),
      "no control channel within %d s", WAIT_S);
  return fx;
}

static Fixture *
session_new (const gchar * factory, const gchar * first_property, ...)
{
  Fixture *fx;
  va_list args;

  va_start (args, first_property);
  fx = session_new_valist (factory, FALSE, first_property, args);
  va_end (args);
  return fx;
}

static Fixture *
session_new_on_test_clock (const gchar * factory,
    const gchar * first_property, ...)
{
  Fixture *fx;
  va_list args;

  va_start (args, first_property);
  fx = session_new_valist (factory, TRUE, first_property, args);
  va_end (args);
  return fx;
}

/* the next element message named @name within WAIT_S, others skipped
 * (counted in @warnings when not NULL); fails without one, or at an
 * ERROR (unref it) */
static GstMessage *
expect_posted_counting (Fixture * fx, const gchar * name, guint * warnings)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline) {
    GstMessage *msg = gst_bus_timed_pop (fx->bus,
        (deadline - g_get_monotonic_time ()) * GST_USECOND);

    if (msg == NULL)
      break;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, name))
      return msg;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      fail ("an error while waiting for %s: %s", name, err->message);
    }
    if (warnings && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING)
      (*warnings)++;
    gst_message_unref (msg);
  }
  fail ("no %s within %d s", name, WAIT_S);
  return NULL;
}

static GstMessage *
expect_posted (Fixture * fx, const gchar * name)
{
  return expect_posted_counting (fx, name, NULL);
}

/* the peer's next message is @type; returns it (free it) */
static gchar *
expect_sent (Fixture * fx, const gchar * type)
{
  gchar *m = test_peer_next_of_type (fx->peer, type, WAIT_S);

  fail_unless (m != NULL, "the element sent no %s within %d s", type, WAIT_S);
  return m;
}

/* nothing more reaches the peer within @ms */
static void
assert_nothing_sent (Fixture * fx, guint ms)
{
  gint64 deadline = g_get_monotonic_time () + ms * 1000;
  guint n = test_peer_received (fx->peer);

  while (g_get_monotonic_time () < deadline)
    g_usleep (10000);
  fail_unless_equals_int (test_peer_received (fx->peer), n);
}

/* configure went out; the service acknowledges it */
static void
configured (Fixture * fx)
{
  g_free (expect_sent (fx, "configure"));
  test_peer_send (fx->peer, "{\"type\":\"configured\"}");
}

static void
assert_contains (const gchar * text, const gchar * needle)
{
  fail_unless (strstr (text, needle) != NULL, "'%s' not in %s", needle, text);
}

/* A world session: configure carries the setup; the service's
 * acknowledgements become bus messages. Prompts set while playing go one
 * at a time, each after the previous one's prompt_applied; one set while
 * another waits replaces the waiting one. */
GST_START_TEST (test_world_prompts_one_at_a_time)
{
  Fixture *fx = session_new ("worldsrc", "prompt", "a quiet harbour",
      "preset", "desert-valley", NULL);
  gchar *m;

  m = expect_sent (fx, "configure");
  assert_contains (m, "\"prompt\":\"a quiet harbour\"");
  assert_contains (m, "\"preset\":\"desert-valley\"");
  g_free (m);
  test_peer_send (fx->peer, "{\"type\":\"configured\"}");
  gst_message_unref (expect_posted (fx, "world/configured"));

  g_object_set (fx->h->element, "prompt", "fog rolls in", NULL);
  m = expect_sent (fx, "prompt");
  assert_contains (m, "\"prompt\":\"fog rolls in\"");
  g_free (m);
  /* two more while the first waits: the second replaces the first */
  g_object_set (fx->h->element, "prompt", "rain starts", NULL);
  g_object_set (fx->h->element, "prompt", "a storm breaks", NULL);
  assert_nothing_sent (fx, 300);
  test_peer_send (fx->peer, "{\"type\":\"prompt_applied\"}");
  gst_message_unref (expect_posted (fx, "world/prompt_applied"));
  m = expect_sent (fx, "prompt");
  assert_contains (m, "\"prompt\":\"a storm breaks\"");
  g_free (m);
  test_peer_send (fx->peer, "{\"type\":\"prompt_applied\"}");
  gst_message_unref (expect_posted (fx, "world/prompt_applied"));
  assert_nothing_sent (fx, 200);
  fixture_free (fx);
}

GST_END_TEST;

/* Held and one-shot commands go as commands reports; a conflicting press
 * is refused and sends nothing; a ping's pong gives the round trip. */
GST_START_TEST (test_world_commands_and_ping)
{
  Fixture *fx = session_new ("worldsrc", "prompt", "a quiet harbour", NULL);
  gboolean ok = FALSE;
  GstMessage *msg;
  gdouble rtt = -1;
  gchar *m, *reply;

  configured (fx);
  g_signal_emit_by_name (fx->h->element, "press", "forward", &ok);
  fail_unless (ok);
  m = expect_sent (fx, "commands");
  assert_contains (m, "\"active\":[\"forward\"]");
  g_free (m);
  /* forward and backward conflict */
  g_signal_emit_by_name (fx->h->element, "press", "backward", &ok);
  fail_if (ok, "a press of backward while forward is held was taken");
  assert_nothing_sent (fx, 200);
  g_signal_emit_by_name (fx->h->element, "activate", "look_up", &ok);
  fail_unless (ok);
  m = expect_sent (fx, "commands");
  assert_contains (m, "\"activated\":[\"look_up\"]");
  assert_contains (m, "\"active\":[\"forward\"]");
  g_free (m);
  g_signal_emit_by_name (fx->h->element, "release", "forward", &ok);
  fail_unless (ok);
  m = expect_sent (fx, "commands");
  assert_contains (m, "\"active\":[]");
  g_free (m);

  g_signal_emit_by_name (fx->h->element, "ping", &ok);
  fail_unless (ok);
  m = expect_sent (fx, "ping");
  /* the service echoes the client's ts */
  {
    const gchar *ts = strstr (m, "\"ts\":");

    fail_unless (ts != NULL, "%s", m);
    reply = g_strdup_printf ("{\"type\":\"pong\",\"ts\":%.*s}",
        (int) strcspn (ts + 5, ",}"), ts + 5);
  }
  g_free (m);
  test_peer_send (fx->peer, reply);
  g_free (reply);
  msg = expect_posted (fx, "world/pong");
  fail_unless (gst_structure_get_double (gst_message_get_structure (msg),
          "rtt_ms", &rtt));
  fail_unless (rtt >= 0 && rtt < WAIT_S * 1000, "rtt %f ms", rtt);
  gst_message_unref (msg);
  g_object_get (fx->h->element, "rtt", &rtt, NULL);
  fail_unless (rtt >= 0, "rtt property %f", rtt);
  fixture_free (fx);
}

GST_END_TEST;

/* What the service sends becomes bus messages and properties: a
 * session_info (the property too), a type this version does not know
 * (passed through with its fields), and input no service should send
 * (not JSON, nested past the bound, without a type) is dropped with a
 * warning while the session goes on. */
GST_START_TEST (test_world_service_messages)
{
  Fixture *fx = session_new ("worldsrc", "prompt", "a quiet harbour", NULL);
  GstStructure *info = NULL;
  GString *deep = g_string_new ("{\"type\":\"stats\",\"x\":");
  GstMessage *msg;
  gboolean ok = FALSE;
  guint i, warnings = 0;

  configured (fx);
  test_peer_send (fx->peer, "{\"type\":\"session_info\",\"model_id\":"
      "\"m\",\"model_revision\":\"r\",\"resolution\":{\"width\":1280,"
      "\"height\":704},\"frames_per_second\":16,\"frames_per_block\":16,"
      "\"max_blocks\":100,\"key_order\":[\"forward\"],\"conflict_groups\":"
      "[[\"forward\",\"backward\"]],\"default_prompt\":\"p\",\"presets\":"
      "[{\"name\":\"example\",\"prompt\":\"e\"}],\"turn\":false,"
      "\"turn_status\":\"idle\"}");
  gst_message_unref (expect_posted (fx, "world/session_info"));
  g_object_get (fx->h->element, "session-info", &info, NULL);
  fail_unless (info != NULL, "no session-info property");
  gst_structure_free (info);

  test_peer_send (fx->peer, "{\"type\":\"weather\",\"rain\":0.5}");
  msg = expect_posted (fx, "world/unknown");
  fail_unless_equals_string (gst_structure_get_string
      (gst_message_get_structure (msg), "type"), "weather");
  assert_contains (gst_structure_get_string (gst_message_get_structure
          (msg), "other-fields"), "rain");
  gst_message_unref (msg);

  /* hostile: nested deeper than any bound, an object that is not a
   * message, and not JSON at all (a text longer than the 512 KiB bound
   * cannot come: the channel's SCTP message size is smaller) */
  for (i = 0; i < 10000; i++)
    g_string_append_c (deep, '[');
  test_peer_send (fx->peer, deep->str);
  g_string_free (deep, TRUE);
  test_peer_send (fx->peer, "{\"no_type\":1}");
  test_peer_send (fx->peer, "not json");
  /* each dropped with a warning (no error), and the session goes on: the
   * channel keeps order, so the next message is read after them */
  test_peer_send (fx->peer, "{\"type\":\"tide\"}");
  msg = expect_posted_counting (fx, "world/unknown", &warnings);
  fail_unless_equals_string (gst_structure_get_string
      (gst_message_get_structure (msg), "type"), "tide");
  gst_message_unref (msg);
  fail_unless (warnings >= 3, "%u warnings for 3 bad messages", warnings);
  g_signal_emit_by_name (fx->h->element, "ping", &ok);
  fail_unless (ok);
  g_free (expect_sent (fx, "ping"));
  fixture_free (fx);
}

GST_END_TEST;

/* The `type` of a world/unknown element message */
static const gchar *
unknown_type (GstMessage * msg)
{
  return gst_structure_get_string (gst_message_get_structure (msg), "type");
}

/* Messages are text (docs/protocol.md): a binary data-channel message is
 * read as text. One that is valid text is read as a text message is; one
 * that is not (a NUL byte in it, here after a whole JSON object) is
 * refused whole with a warning, and never read as the JSON before its
 * NUL; the session goes on. */
GST_START_TEST (test_world_binary_messages)
{
  static const gchar nul[] = "{\"type\":\"weather\",\"rain\":1}\0garbage";
  static const gchar text[] = "{\"type\":\"breeze\"}";
  Fixture *fx = session_new ("worldsrc", "prompt", "a quiet harbour", NULL);
  gint64 deadline;
  gboolean tide = FALSE, warned = FALSE;
  GstMessage *msg;

  configured (fx);
  gst_message_unref (expect_posted (fx, "world/configured"));

  /* binary, and valid text: read as the text it is */
  test_peer_send_data (fx->peer, (const guint8 *) text, sizeof (text) - 1);
  msg = expect_posted (fx, "world/unknown");
  fail_unless_equals_string (unknown_type (msg), "breeze");
  gst_message_unref (msg);

  /* binary with a NUL: refused whole, with a warning; the next message
   * is read as usual */
  test_peer_send_data (fx->peer, (const guint8 *) nul, sizeof (nul) - 1);
  test_peer_send (fx->peer, "{\"type\":\"tide\"}");
  deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  while (!(tide && warned) && g_get_monotonic_time () < deadline) {
    msg = gst_bus_timed_pop (fx->bus,
        (deadline - g_get_monotonic_time ()) * GST_USECOND);
    if (msg == NULL)
      break;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT &&
        gst_message_has_name (msg, "world/unknown")) {
      fail_if (g_strcmp0 (unknown_type (msg), "weather") == 0,
          "the binary message was read as the JSON before its NUL byte");
      fail_unless_equals_string (unknown_type (msg), "tide");
      tide = TRUE;
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_WARNING) {
      GError *err = NULL;

      gst_message_parse_warning (msg, &err, NULL);
      if (strstr (err->message, "binary message") != NULL) {
        assert_contains (err->message, "invalid message from the service, "
            "skipped");
        assert_contains (err->message, "35 bytes");
        warned = TRUE;
      }
      g_error_free (err);
    } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
      fail ("an error for a binary message");
    }
    gst_message_unref (msg);
  }
  fail_unless (tide, "no world/unknown for the text after the binary message");
  fail_unless (warned, "no warning for the binary message with a NUL byte");
  fixture_free (fx);
}

GST_END_TEST;

/* EOS sent to the element: stop goes out; the service's stream_exhausted
 * ends the stream (EOS on the pad) at once. */
GST_START_TEST (test_eos_sends_stop_then_ends)
{
  Fixture *fx = session_new ("directorsrc", "prompt", "a lighthouse at dusk",
      "stop-timeout", 20000, NULL);
  GstEvent *ev;
  gint64 t0;

  g_free (expect_sent (fx, "configure"));
  fail_unless (gst_element_send_event (fx->h->element, gst_event_new_eos ()));
  g_free (expect_sent (fx, "stop"));
  /* the stream goes on until the service ends it */
  while ((ev = gst_harness_try_pull_event (fx->h))) {
    fail_if (GST_EVENT_TYPE (ev) == GST_EVENT_EOS, "EOS before "
        "stream_exhausted");
    gst_event_unref (ev);
  }
  t0 = g_get_monotonic_time ();
  test_peer_send (fx->peer, "{\"type\":\"stream_exhausted\",\"reason\":"
      "\"stopped\",\"chunks\":0}");
  gst_message_unref (expect_posted (fx, "director/stream_exhausted"));
  /* EOS reaches the pad, long before stop-timeout */
  while ((ev = gst_harness_pull_event (fx->h)) &&
      GST_EVENT_TYPE (ev) != GST_EVENT_EOS)
    gst_event_unref (ev);
  fail_unless (ev != NULL, "no EOS on the pad");
  gst_event_unref (ev);
  fail_unless (g_get_monotonic_time () - t0 < 10 * G_USEC_PER_SEC);
  fixture_free (fx);
}

GST_END_TEST;

/* The director's prompts carry their version; the configure the first
 * one. */
GST_START_TEST (test_director_prompt_versions)
{
  Fixture *fx = session_new ("directorsrc", "prompt", "a lighthouse at dusk",
      NULL);
  gboolean ok = FALSE;
  gchar *m;

  m = expect_sent (fx, "configure");
  assert_contains (m, "\"prompt_version\":1");
  g_free (m);
  test_peer_send (fx->peer, "{\"type\":\"configured\",\"prompt_version\":1,"
      "\"enable_safety_checker\":true}");
  g_signal_emit_by_name (fx->h->element, "set-prompt", (gint64) 0,
      "the storm passes", &ok);
  fail_unless (ok);
  m = expect_sent (fx, "prompt");
  assert_contains (m, "\"prompt_version\":2");
  assert_contains (m, "\"prompt\":\"the storm passes\"");
  g_free (m);
  fixture_free (fx);
}

GST_END_TEST;

/* Moves the element's test clock to running time @t, runs what waited on
 * it until the peer receives a message (bounded: the scheduler sets its
 * next wait on the session thread), and returns that message, of @type */
static gchar *
sent_at (Fixture * fx, GstClockTime t, const gchar * type)
{
  GstTestClock *clock = GST_TEST_CLOCK (gst_element_get_clock (fx->h->element));
  gint64 deadline = g_get_monotonic_time () + WAIT_S * G_USEC_PER_SEC;
  guint n = test_peer_received (fx->peer);

  gst_test_clock_set_time (clock, t);
  while (test_peer_received (fx->peer) == n &&
      g_get_monotonic_time () < deadline) {
    GstClockID id;

    while ((id = gst_test_clock_process_next_clock_id (clock)))
      gst_clock_id_unref (id);
    g_usleep (2000);
  }
  gst_object_unref (clock);
  return expect_sent (fx, type);
}

/* A control script's actions go at their running times, in order, each
 * as the control it names, on the pipeline's clock (a test clock here:
 * the script moves only as the clock is moved) */
GST_START_TEST (test_control_script_actions_in_order)
{
  gchar *path = NULL;
  gint fd = g_file_open_tmp ("controls-XXXXXX.txt", &path, NULL);
  const gchar *script = "8 press forward\n8.3 prompt the tide comes in\n"
      "8.6 release forward\n8.9 ping\n";
  GstTestClock *clock;
  GstClockID id = NULL;
  Fixture *fx;
  guint n;
  gchar *m;

  fail_unless (fd >= 0);
  fail_unless (write (fd, script, strlen (script)) == (gssize) strlen (script));
  close (fd);
  fx = session_new_on_test_clock ("worldsrc", "prompt", "a quiet harbour",
      "control-script", path, NULL);
  configured (fx);
  /* the script waits on the element's clock for its first action */
  clock = GST_TEST_CLOCK (gst_element_get_clock (fx->h->element));
  fail_unless (gst_test_clock_timed_wait_for_multiple_pending_ids (clock, 1,
          WAIT_S * 1000, NULL), "the script set no wait on the clock");
  fail_unless (gst_test_clock_peek_next_pending_id (clock, &id));
  fail_unless_equals_uint64 (gst_clock_id_get_time (id), 8 * GST_SECOND);
  gst_clock_id_unref (id);
  /* just before it, nothing is due and nothing goes */
  n = test_peer_received (fx->peer);
  gst_test_clock_set_time (clock, 8 * GST_SECOND - 1);
  fail_if (gst_test_clock_process_next_clock_id (clock));
  fail_unless_equals_int (test_peer_received (fx->peer), n);
  gst_object_unref (clock);
  m = sent_at (fx, 8 * GST_SECOND, "commands");
  assert_contains (m, "\"active\":[\"forward\"]");
  g_free (m);
  m = sent_at (fx, 8300 * GST_MSECOND, "prompt");
  assert_contains (m, "the tide comes in");
  g_free (m);
  test_peer_send (fx->peer, "{\"type\":\"prompt_applied\"}");
  m = sent_at (fx, 8600 * GST_MSECOND, "commands");
  assert_contains (m, "\"active\":[]");
  g_free (m);
  g_free (sent_at (fx, 8900 * GST_MSECOND, "ping"));
  fixture_free (fx);
  g_unlink (path);
  g_free (path);
}

GST_END_TEST;

/* A service's answer with media but no DTLS fingerprint: webrtcbin
 * refuses it (it could not authenticate the service) */
#define NO_FINGERPRINT_ANSWER "v=0\r\n" \
    "o=- 1 1 IN IP4 127.0.0.1\r\n" \
    "s=-\r\n" \
    "t=0 0\r\n" \
    "a=group:BUNDLE video0 application1\r\n" \
    "m=video 9 UDP/TLS/RTP/SAVPF 96\r\n" \
    "c=IN IP4 127.0.0.1\r\n" \
    "a=mid:video0\r\n" \
    "a=sendonly\r\n" \
    "a=rtcp-mux\r\n" \
    "a=rtpmap:96 VP8/90000\r\n" \
    "a=ice-ufrag:abcd\r\n" \
    "a=ice-pwd:abcdefghijklmnopqrstuvwx\r\n" \
    "a=setup:passive\r\n" \
    "a=candidate:1 1 UDP 2015363327 127.0.0.1 9 typ host\r\n" \
    "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n" \
    "c=IN IP4 127.0.0.1\r\n" \
    "a=mid:application1\r\n" \
    "a=sctp-port:5000\r\n" \
    "a=ice-ufrag:abcd\r\n" \
    "a=ice-pwd:abcdefghijklmnopqrstuvwx\r\n" \
    "a=setup:passive\r\n"

/* An answer webrtcbin refuses ends its attempt at once, with webrtcbin's
 * reason: a retry with a warning, then (max-retries spent) an ERROR, each
 * well before start-timeout (20 s here) */
GST_START_TEST (test_refused_answer_fails_at_once)
{
  Fixture *fx = fixture_new ("worldsrc", "video");
  GstMessage *msg;
  GError *err = NULL;
  gint64 t0;

  g_object_set (fx->h->element, "max-retries", 1, "start-timeout", 20000,
      "url", "http://127.0.0.1:9", NULL);
  script_signaller_push_answer (fx->sig, NO_FINGERPRINT_ANSWER);
  script_signaller_push_answer (fx->sig, NO_FINGERPRINT_ANSWER);
  t0 = g_get_monotonic_time ();
  gst_harness_play (fx->h);

  msg = gst_bus_timed_pop_filtered (fx->bus, 5 * GST_SECOND,
      GST_MESSAGE_WARNING | GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "nothing within 5 s of an answer webrtcbin "
      "refuses (start-timeout is 20 s)");
  fail_unless_equals_int (GST_MESSAGE_TYPE (msg), GST_MESSAGE_WARNING);
  fail_unless (g_get_monotonic_time () - t0 < 2 * G_USEC_PER_SEC,
      "the refused answer took %" G_GINT64_FORMAT " ms",
      (g_get_monotonic_time () - t0) / 1000);
  gst_message_parse_warning (msg, &err, NULL);
  assert_contains (err->message, "retrying");
  assert_contains (err->message, "The service's answer was refused by "
      "webrtcbin: ");
  assert_contains (err->message, "fingerprint");
  g_clear_error (&err);
  gst_message_unref (msg);

  /* the retry is refused the same way: the attempts are spent */
  t0 = g_get_monotonic_time ();
  msg = gst_bus_timed_pop_filtered (fx->bus, 5 * GST_SECOND, GST_MESSAGE_ERROR);
  fail_unless (msg != NULL, "no error within 5 s of the second refused "
      "answer");
  fail_unless (g_get_monotonic_time () - t0 < 3 * G_USEC_PER_SEC);
  gst_message_parse_error (msg, &err, NULL);
  assert_contains (err->message, "The service's answer was refused by "
      "webrtcbin: ");
  assert_contains (err->message, "fingerprint");
  g_clear_error (&err);
  gst_message_unref (msg);
  fail_unless_equals_int (script_signaller_starts (fx->sig), 2);
  fixture_free (fx);
}

GST_END_TEST;

static Suite *
controls_suite (void)
{
  Suite *s = suite_create ("controls");
  TCase *tc = tcase_create ("peer");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_world_prompts_one_at_a_time);
  tcase_add_test (tc, test_world_commands_and_ping);
  tcase_add_test (tc, test_world_service_messages);
  tcase_add_test (tc, test_world_binary_messages);
  tcase_add_test (tc, test_eos_sends_stop_then_ends);
  tcase_add_test (tc, test_director_prompt_versions);
  tcase_add_test (tc, test_control_script_actions_in_order);
  tcase_add_test (tc, test_refused_answer_fails_at_once);
  return s;
}

GST_CHECK_MAIN (controls);
