/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The director session's control logic, alone: versions, configure,
 * prompts held until configured, immutable settings, service messages.
 */

#include <gst/check/gstcheck.h>
#include <string.h>
#include <gst/session/session.h>

/* What the element learns besides the messages (OUTPUT_OPEN, MEDIA_PAUSE,
 * VIDEO_SIZE, ROUND_TRIP), the last of each */
static GstStructure *told[4];

static void
told_clear (void)
{
  guint i;

  for (i = 0; i < G_N_ELEMENTS (told); i++)
    if (told[i])
      gst_structure_free (g_steal_pointer (&told[i]));
}

/* where told[] keeps an event of @type, or -1 */
static gint
told_index (GstSessionControlEventType type)
{
  switch (type) {
    case GST_SESSION_CONTROL_EVENT_OUTPUT_OPEN:
      return 0;
    case GST_SESSION_CONTROL_EVENT_VIDEO_SIZE:
      return 1;
    case GST_SESSION_CONTROL_EVENT_MEDIA_PAUSE:
      return 2;
    case GST_SESSION_CONTROL_EVENT_ROUND_TRIP:
      return 3;
    default:
      return -1;
  }
}

static gchar *
sent (GstSessionDirectorController * ctrl, guint * n_messages)
{
  GQueue *q = gst_session_director_controller_take_events (ctrl);
  GString *out = g_string_new (NULL);
  GstSessionControlEvent *ev;

  if (n_messages)
    *n_messages = 0;
  told_clear ();
  while ((ev = g_queue_pop_head (q))) {
    if (ev->type == GST_SESSION_CONTROL_EVENT_SEND) {
      if (out->len)
        g_string_append_c (out, '\n');
      g_string_append (out, ev->json);
    } else if (told_index (ev->type) >= 0) {
      gint i = told_index (ev->type);

      if (told[i])
        gst_structure_free (told[i]);
      told[i] = gst_structure_copy (ev->details);
    } else if (n_messages) {
      (*n_messages)++;
    }
    gst_session_control_event_free (ev);
  }
  g_queue_free (q);
  return g_string_free (out, FALSE);
}

#define TOLD_OPEN (told[0])
#define TOLD_SIZE (told[1])
#define TOLD_PAUSE (told[2])
#define TOLD_ROUND_TRIP (told[3])

#define assert_sent(ctrl, expected) G_STMT_START {       \
  gchar *_s = sent (ctrl, NULL);                          \
  fail_unless_equals_string (_s, expected);               \
  g_free (_s);                                            \
} G_STMT_END

static void
receive (GstSessionDirectorController * ctrl, const gchar * json)
{
  gst_session_director_controller_receive (ctrl, json, -1);
}

GST_START_TEST (test_configure_then_versions)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  GstSessionDirectorConfig c;

  gst_session_director_controller_get_settings (ctrl, &c);
  c.resolution = "480p";
  c.memory = 20;
  fail_unless (gst_session_director_controller_set_settings (ctrl, &c, NULL));
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "dawn", 0,
          NULL));
  assert_sent (ctrl, "");

  gst_session_director_controller_channel_open (ctrl);
  assert_sent (ctrl, "{\"type\":\"configure\",\"prompt_version\":1,"
      "\"prompt\":\"dawn\",\"memory\":20,\"resolution\":\"480p\"}");

  /* held until configured */
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "noon", 0,
          NULL));
  assert_sent (ctrl, "");
  receive (ctrl, "{\"type\":\"configured\",\"prompt_version\":1,"
      "\"enable_safety_checker\":true}");
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt_version\":2,"
      "\"prompt\":\"noon\"}");
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "dusk", 0,
          NULL));
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt_version\":3,"
      "\"prompt\":\"dusk\"}");
  /* an explicit version is sent as given */
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "old", 2,
          NULL));
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt_version\":2,"
      "\"prompt\":\"old\"}");
  fail_unless_equals_int64
      (gst_session_director_controller_get_last_sent_version (ctrl), 3);

  receive (ctrl, "{\"type\":\"prompt_applied\",\"prompt_version\":3}");
  fail_unless_equals_int64
      (gst_session_director_controller_get_applied_version (ctrl), 3);

  /* a renewed session: configure with the latest prompt, next version */
  gst_session_director_controller_channel_closed (ctrl);
  gst_session_director_controller_channel_open (ctrl);
  assert_sent (ctrl, "{\"type\":\"configure\",\"prompt_version\":4,"
      "\"prompt\":\"old\",\"memory\":20,\"resolution\":\"480p\"}");
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

/* a ping or stop asked for before a channel opened waits for the
 * session's `configured` (it went into no channel, lost at debug level);
 * at most 32 wait */
GST_START_TEST (test_early_ping_waits_for_the_session)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  GError *err = NULL;
  gchar *out;
  guint i;

  fail_unless (gst_session_director_controller_set_prompt (ctrl, "dawn", 0,
          NULL));
  fail_unless (gst_session_director_controller_ping (ctrl, NULL));
  assert_sent (ctrl, "");
  gst_session_director_controller_channel_open (ctrl);
  out = sent (ctrl, NULL);
  fail_unless (g_str_has_prefix (out, "{\"type\":\"configure\""), "%s", out);
  fail_if (strstr (out, "ping") != NULL, "%s", out);
  g_free (out);
  receive (ctrl, "{\"type\":\"configured\",\"prompt_version\":1,"
      "\"enable_safety_checker\":true}");
  out = sent (ctrl, NULL);
  fail_unless (g_str_has_prefix (out, "{\"type\":\"ping\""), "%s", out);
  g_free (out);
  gst_session_director_controller_channel_closed (ctrl);
  for (i = 0; i < 32; i++)
    fail_unless (gst_session_director_controller_ping (ctrl, NULL));
  fail_if (gst_session_director_controller_ping (ctrl, &err));
  fail_unless (err != NULL && strstr (err->message, "32") != NULL);
  g_clear_error (&err);
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

/* the element's own pings (probes of the path): only once configured;
 * their pongs are ROUND_TRIP events, not messages, each once */
GST_START_TEST (test_probe_round_trip)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  GstSessionMessage *ping;
  gchar *out, *pong;
  gdouble ts = -1, ms = -1;
  guint n;

  fail_unless (gst_session_director_controller_set_prompt (ctrl, "dawn", 0,
          NULL));
  fail_if (gst_session_director_controller_probe (ctrl));
  gst_session_director_controller_channel_open (ctrl);
  fail_if (gst_session_director_controller_probe (ctrl));
  g_free (sent (ctrl, NULL));
  receive (ctrl, "{\"type\":\"configured\",\"prompt_version\":1,"
      "\"enable_safety_checker\":true}");
  g_free (sent (ctrl, NULL));
  fail_unless (gst_session_director_controller_probe (ctrl));
  out = sent (ctrl, NULL);
  ping = gst_session_message_parse (GST_SESSION_APP_DIRECTOR,
      GST_SESSION_DIRECTION_CLIENT, out, -1, NULL);
  fail_unless (ping != NULL, "%s", out);
  fail_unless (gst_structure_get_double (gst_session_message_get_structure
          (ping), "ts", &ts));
  gst_session_message_unref (ping);
  g_free (out);

  pong = g_strdup_printf ("{\"type\":\"pong\",\"client_ts\":%.17g}", ts);
  receive (ctrl, pong);
  g_free (sent (ctrl, &n));
  fail_unless_equals_int (n, 0);
  fail_unless (TOLD_ROUND_TRIP != NULL);
  fail_unless (gst_structure_get_double (TOLD_ROUND_TRIP, "ms", &ms));
  fail_unless (ms >= 0 && ms < 5000);
  /* once */
  receive (ctrl, pong);
  g_free (sent (ctrl, &n));
  fail_unless_equals_int (n, 1);
  fail_unless (TOLD_ROUND_TRIP == NULL);
  g_free (pong);
  told_clear ();
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_refusals)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  GstSessionDirectorConfig c;
  GError *err = NULL;
  gchar *long_prompt = g_strnfill (50001, 'a');

  fail_if (gst_session_director_controller_set_prompt (ctrl, long_prompt, 0,
          &err));
  fail_unless (strstr (err->message, "50000") != NULL);
  g_clear_error (&err);
  fail_if (gst_session_director_controller_set_prompt (ctrl, "", 0, &err));
  g_clear_error (&err);
  fail_if (gst_session_director_controller_set_prompt (ctrl, "x", -1, &err));
  g_clear_error (&err);

  gst_session_director_controller_get_settings (ctrl, &c);
  c.chunk_duration = 16;
  fail_if (gst_session_director_controller_set_settings (ctrl, &c, &err));
  fail_unless (strstr (err->message, "/chunk_duration") != NULL);
  g_clear_error (&err);

  /* immutable once a session runs */
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "x", 0, NULL));
  gst_session_director_controller_channel_open (ctrl);
  gst_session_director_controller_get_settings (ctrl, &c);
  c.memory = 5;
  fail_if (gst_session_director_controller_set_settings (ctrl, &c, &err));
  fail_unless (strstr (err->message, "immutable") != NULL);
  g_clear_error (&err);
  g_free (long_prompt);
  g_free (sent (ctrl, NULL));
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_service_messages)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  GstStructure *s;
  guint n;
  gchar *out;

  fail_unless (gst_session_director_controller_set_prompt (ctrl, "x", 0, NULL));
  gst_session_director_controller_channel_open (ctrl);
  receive (ctrl, "{\"type\":\"session_info\"}");
  s = gst_session_director_controller_get_session_info (ctrl);
  fail_unless (s != NULL);
  gst_structure_free (s);
  receive (ctrl, "{\"type\":\"configured\",\"prompt_version\":1,"
      "\"enable_safety_checker\":false,\"memory\":12}");
  s = gst_session_director_controller_get_configured (ctrl);
  fail_unless (s != NULL);
  gst_structure_free (s);
  receive (ctrl, "{\"type\":\"chunk\",\"chunk_index\":0,\"prompt_version\":1,"
      "\"generation_seconds\":1,\"playback_seconds\":10,"
      "\"requested_duration_seconds\":10,\"generated_frame_count\":240,"
      "\"trimmed_context_frames\":0,\"next_generation_estimate_seconds\":1,"
      "\"route\":\"unknown\",\"buffer_depth_seconds\":7.5,"
      "\"buffer_depth_chunks\":1,\"scheduling_lead_ms\":0,"
      "\"scheduling_slack_ms\":0,\"dispatch\":{\"wall_ms\":1,"
      "\"classified_ms\":1,\"overhead_ms\":0,\"phases_ms\":{}}}");
  fail_unless (gst_session_director_controller_get_buffer_depth (ctrl) == 7.5);
  /* malformed and invalid: reported, skipped */
  receive (ctrl, "{\"type\":");
  receive (ctrl, "{\"type\":\"chunk\",\"chunk_index\":-1}");
  out = sent (ctrl, &n);
  fail_unless_equals_int (n, 5);
  g_free (out);
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

/* Whether the ENDED event of a stream_exhausted with @reason is final */
static gboolean
ended_final (GstSessionDirectorController * ctrl, const gchar * reason)
{
  gchar *json = g_strdup_printf ("{\"type\":\"stream_exhausted\","
      "\"chunks\":2,\"reason\":\"%s\"}", reason);
  GQueue *q;
  GstSessionControlEvent *ev;
  gboolean final = FALSE;
  guint ended = 0;

  receive (ctrl, json);
  g_free (json);
  q = gst_session_director_controller_take_events (ctrl);
  while ((ev = g_queue_pop_head (q))) {
    if (ev->type == GST_SESSION_CONTROL_EVENT_ENDED) {
      ended++;
      final = ev->final;
    }
    gst_session_control_event_free (ev);
  }
  g_queue_free (q);
  fail_unless_equals_int (ended, 1);
  return final;
}

/* What the element needs of the director's messages, without knowing
 * their names: the output opens at configured (at the size of the
 * settings it names) or at a refused configure (no size), and a late
 * chunk announces a pause of the media */
GST_START_TEST (test_element_events)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  gint w = 0, h = 0;
  gdouble seconds = -1;
  gchar *out;

  fail_unless (gst_session_director_controller_set_prompt (ctrl, "x", 0, NULL));
  gst_session_director_controller_channel_open (ctrl);
  g_free (sent (ctrl, NULL));
  fail_unless (TOLD_OPEN == NULL);
  receive (ctrl, "{\"type\":\"configured\",\"prompt_version\":1,"
      "\"enable_safety_checker\":false,\"resolution\":\"480p\","
      "\"aspect_ratio\":\"1:1\"}");
  out = sent (ctrl, NULL);
  fail_unless (TOLD_OPEN != NULL);
  fail_unless (gst_structure_get_int (TOLD_OPEN, "width", &w));
  fail_unless (gst_structure_get_int (TOLD_OPEN, "height", &h));
  fail_unless_equals_int (w, 480);
  fail_unless_equals_int (h, 480);
  g_free (out);
  receive (ctrl, "{\"type\":\"deadline_missed\",\"chunk_index\":3,"
      "\"late_by_seconds\":2.5,\"behavior\":"
      "\"freeze_video_and_silence_audio_until_ready\"}");
  g_free (sent (ctrl, NULL));
  fail_unless (TOLD_PAUSE != NULL);
  fail_unless (gst_structure_get_double (TOLD_PAUSE, "seconds", &seconds));
  fail_unless (seconds == 2.5);
  /* a director's session_info names no size */
  receive (ctrl, "{\"type\":\"session_info\"}");
  g_free (sent (ctrl, NULL));
  fail_unless (TOLD_SIZE == NULL);
  /* the end: for good when stopped, not at a session limit */
  fail_if (ended_final (ctrl, "session_limit"));
  fail_unless (ended_final (ctrl, "stopped"));
  gst_session_director_controller_free (ctrl);

  /* a refused configure: the service's default runs, no size */
  ctrl = gst_session_director_controller_new ();
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "y", 0, NULL));
  gst_session_director_controller_channel_open (ctrl);
  g_free (sent (ctrl, NULL));
  receive (ctrl, "{\"type\":\"error\",\"code\":\"content_policy\","
      "\"error\":\"blocked\",\"prompt_version\":1}");
  g_free (sent (ctrl, NULL));
  fail_unless (TOLD_OPEN != NULL);
  fail_unless (gst_structure_get_int (TOLD_OPEN, "width", &w));
  fail_unless_equals_int (w, 0);
  told_clear ();
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

/* settings set one after the other, as properties are (they share strings
 * with get_settings) */
GST_START_TEST (test_settings_in_turn)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  GstSessionDirectorConfig c;

  gst_session_director_controller_get_settings (ctrl, &c);
  c.resolution = "480p";
  fail_unless (gst_session_director_controller_set_settings (ctrl, &c, NULL));
  gst_session_director_controller_get_settings (ctrl, &c);
  c.aspect_ratio = "1:1";
  fail_unless (gst_session_director_controller_set_settings (ctrl, &c, NULL));
  gst_session_director_controller_get_settings (ctrl, &c);
  c.memory = 5;
  fail_unless (gst_session_director_controller_set_settings (ctrl, &c, NULL));
  gst_session_director_controller_get_settings (ctrl, &c);
  fail_unless_equals_string (c.resolution, "480p");
  fail_unless_equals_string (c.aspect_ratio, "1:1");
  fail_unless_equals_int (c.memory, 5);
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

/* a configure refused for its prompt: the next prompt configures */
GST_START_TEST (test_refused_configure)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();

  fail_unless (gst_session_director_controller_set_prompt (ctrl,
          "forbidden things", 0, NULL));
  gst_session_director_controller_channel_open (ctrl);
  assert_sent (ctrl, "{\"type\":\"configure\",\"prompt_version\":1,"
      "\"prompt\":\"forbidden things\"}");
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "waits", 0,
          NULL));
  receive (ctrl, "{\"type\":\"prompt_rejected\",\"prompt_version\":1,"
      "\"reason\":\"content_policy\"}");
  receive (ctrl, "{\"type\":\"error\",\"code\":\"content_policy\","
      "\"error\":\"blocked\",\"prompt_version\":1}");
  assert_sent (ctrl, "");
  /* the waiting prompt was never sent */
  fail_unless_equals_int64
      (gst_session_director_controller_get_last_sent_version (ctrl), 1);
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "a calm sea",
          0, NULL));
  assert_sent (ctrl, "{\"type\":\"configure\",\"prompt_version\":3,"
      "\"prompt\":\"a calm sea\"}");
  fail_unless_equals_int64
      (gst_session_director_controller_get_last_sent_version (ctrl), 3);
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

/* a service that never acknowledges configure: prompts wait, at most
 * GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING; one more is refused with an
 * error naming the bound (nothing sent, no version taken, the latest
 * prompt unchanged), and once configured comes what waited goes, in
 * order */
GST_START_TEST (test_waiting_prompts_bounded)
{
  GstSessionDirectorController *ctrl = gst_session_director_controller_new ();
  const guint max = GST_SESSION_DIRECTOR_CONTROLLER_MAX_WAITING;
  GError *err = NULL;
  GString *expected = g_string_new (NULL);
  gchar *text, *out;
  guint i;

  fail_unless (gst_session_director_controller_set_prompt (ctrl, "dawn", 0,
          NULL));
  gst_session_director_controller_channel_open (ctrl);
  assert_sent (ctrl, "{\"type\":\"configure\",\"prompt_version\":1,"
      "\"prompt\":\"dawn\"}");
  for (i = 0; i < max; i++) {
    text = g_strdup_printf ("prompt %u", i);
    fail_unless (gst_session_director_controller_set_prompt (ctrl, text, 0,
            &err), "prompt %u refused: %s", i, err ? err->message : "");
    if (expected->len)
      g_string_append_c (expected, '\n');
    g_string_append_printf (expected, "{\"type\":\"prompt\","
        "\"prompt_version\":%u,\"prompt\":\"%s\"}", i + 2, text);
    g_free (text);
  }
  assert_sent (ctrl, "");

  /* full: refused, and nothing changes */
  fail_if (gst_session_director_controller_set_prompt (ctrl, "refused", 0,
          &err), "a prompt past the bound of %u was queued", max);
  fail_unless (err != NULL);
  fail_unless (err->domain == GST_SESSION_ERROR);
  fail_unless_equals_int (err->code, GST_SESSION_ERROR_INVALID_ARGUMENT);
  fail_unless (g_str_has_prefix (err->message, "prompt: "), "%s", err->message);
  fail_unless (strstr (err->message, "64") != NULL, "%s", err->message);
  g_clear_error (&err);
  fail_if (gst_session_director_controller_set_prompt (ctrl, "again", 200,
          &err));
  g_clear_error (&err);
  fail_unless_equals_string (gst_session_director_controller_get_prompt
      (ctrl), "prompt 63");
  assert_sent (ctrl, "");

  /* configured: all that waited goes, in order */
  receive (ctrl, "{\"type\":\"configured\",\"prompt_version\":1,"
      "\"enable_safety_checker\":true}");
  assert_sent (ctrl, expected->str);
  fail_unless_equals_int64
      (gst_session_director_controller_get_last_sent_version (ctrl), max + 1);
  /* the refused prompts took no version */
  fail_unless (gst_session_director_controller_set_prompt (ctrl, "dusk", 0,
          NULL));
  out = g_strdup_printf ("{\"type\":\"prompt\",\"prompt_version\":%u,"
      "\"prompt\":\"dusk\"}", max + 2);
  assert_sent (ctrl, out);
  g_free (out);
  g_string_free (expected, TRUE);
  gst_session_director_controller_free (ctrl);
}

GST_END_TEST;

static Suite *
directorcontroller_suite (void)
{
  Suite *s = suite_create ("directorcontroller");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_configure_then_versions);
  tcase_add_test (tc, test_refusals);
  tcase_add_test (tc, test_service_messages);
  tcase_add_test (tc, test_settings_in_turn);
  tcase_add_test (tc, test_refused_configure);
  tcase_add_test (tc, test_element_events);
  tcase_add_test (tc, test_early_ping_waits_for_the_session);
  tcase_add_test (tc, test_probe_round_trip);
  tcase_add_test (tc, test_waiting_prompts_bounded);
  return s;
}

GST_CHECK_MAIN (directorcontroller);
