/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The world session's control logic, alone: what it sends, when, and what
 * it makes of the service's answers.
 */

#include <gst/check/gstcheck.h>
#include <gst/session/session.h>

/* Takes the queued events; returns the sent texts joined by "\n" and counts
 * the other kinds. */
typedef struct
{
  GString *sent;
  guint messages;
  guint warnings;
  guint ended;
  gchar *last_warning;
  GstStructure *last_details;
  guint opened;                 /* OUTPUT_OPEN events */
  gint width, height;           /* of the last VIDEO_SIZE */
  guint round_trips;            /* ROUND_TRIP events */
  gdouble round_trip_ms;        /* of the last one */
} Drained;

static void
drained_clear (Drained * d)
{
  g_string_free (d->sent, TRUE);
  g_free (d->last_warning);
  if (d->last_details)
    gst_structure_free (d->last_details);
}

static Drained
drain (GstSessionWorldController * ctrl)
{
  Drained d = { g_string_new (NULL), 0, 0, 0, NULL, NULL, 0, 0, 0, 0, -1 };
  GQueue *q = gst_session_world_controller_take_events (ctrl);
  GstSessionControlEvent *ev;

  while ((ev = g_queue_pop_head (q))) {
    switch (ev->type) {
      case GST_SESSION_CONTROL_EVENT_SEND:
        if (d.sent->len)
          g_string_append_c (d.sent, '\n');
        g_string_append (d.sent, ev->json);
        break;
      case GST_SESSION_CONTROL_EVENT_MESSAGE:
      case GST_SESSION_CONTROL_EVENT_ENDED:
        if (ev->type == GST_SESSION_CONTROL_EVENT_ENDED)
          d.ended++;
        else
          d.messages++;
        if (d.last_details)
          gst_structure_free (d.last_details);
        d.last_details = gst_structure_copy (ev->details);
        break;
      case GST_SESSION_CONTROL_EVENT_WARNING:
        d.warnings++;
        g_free (d.last_warning);
        d.last_warning = g_strdup (ev->error->message);
        break;
      case GST_SESSION_CONTROL_EVENT_OUTPUT_OPEN:
        d.opened++;
        break;
      case GST_SESSION_CONTROL_EVENT_VIDEO_SIZE:
        fail_unless (gst_structure_get_int (ev->details, "width", &d.width));
        fail_unless (gst_structure_get_int (ev->details, "height", &d.height));
        break;
      case GST_SESSION_CONTROL_EVENT_MEDIA_PAUSE:
        fail ("a world announces no pause");
        break;
      case GST_SESSION_CONTROL_EVENT_ROUND_TRIP:
        d.round_trips++;
        fail_unless (gst_structure_get_double (ev->details, "ms",
                &d.round_trip_ms));
        break;
    }
    gst_session_control_event_free (ev);
  }
  g_queue_free (q);
  return d;
}

static void
discard (GstSessionWorldController * ctrl)
{
  Drained d = drain (ctrl);

  drained_clear (&d);
}

#define assert_sent(ctrl, expected) G_STMT_START {                     \
  Drained _d = drain (ctrl);                                            \
  fail_unless_equals_string (_d.sent->str, expected);                   \
  drained_clear (&_d);                                                  \
} G_STMT_END

static void
receive (GstSessionWorldController * ctrl, const gchar * json)
{
  gst_session_world_controller_receive (ctrl, json, -1);
}

GST_START_TEST (test_default_world_sends_no_configure)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();

  gst_session_world_controller_channel_open (ctrl);
  assert_sent (ctrl, "");
  fail_unless (gst_session_world_controller_is_ready (ctrl));
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "a bay", NULL));
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt\":\"a bay\"}");
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

/* a ping (or stop) asked for before the first channel opened waits and
 * goes once the session is ready, its time taken then; it was dropped at
 * the channel's opening (a control script's early ping had no pong) */
GST_START_TEST (test_early_ping_waits_for_the_session)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();
  GError *err = NULL;
  guint i;

  fail_unless (gst_session_world_controller_ping (ctrl, NULL));
  assert_sent (ctrl, "");
  gst_session_world_controller_channel_open (ctrl);
  {
    Drained d = drain (ctrl);

    fail_unless (g_str_has_prefix (d.sent->str, "{\"type\":\"ping\""),
        "%s", d.sent->str);
    drained_clear (&d);
  }
  gst_session_world_controller_channel_closed (ctrl);
  /* bounded while no session is open */
  for (i = 0; i < 32; i++)
    fail_unless (gst_session_world_controller_ping (ctrl, NULL));
  fail_if (gst_session_world_controller_ping (ctrl, &err));
  fail_unless (err != NULL && strstr (err->message, "32") != NULL);
  g_clear_error (&err);
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_configure_first_and_acknowledged)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();
  fail_unless (gst_session_world_controller_set_setup (ctrl, "desert-valley",
          NULL, "dunes at dusk", NULL));
  /* controls before the session are kept, not sent */
  fail_unless (gst_session_world_controller_press (ctrl,
          GST_SESSION_WORLD_COMMAND_FORWARD, NULL));
  assert_sent (ctrl, "");

  gst_session_world_controller_channel_open (ctrl);
  assert_sent (ctrl, "{\"type\":\"configure\",\"preset\":\"desert-valley\","
      "\"prompt\":\"dunes at dusk\"}");
  fail_if (gst_session_world_controller_is_ready (ctrl));

  /* nothing else goes before configured */
  fail_unless (gst_session_world_controller_activate (ctrl,
          GST_SESSION_WORLD_COMMAND_LOOK_UP, NULL));
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "night", NULL));
  fail_unless (gst_session_world_controller_ping (ctrl, NULL));
  assert_sent (ctrl, "");

  receive (ctrl, "{\"type\":\"configured\"}");
  fail_unless (gst_session_world_controller_is_ready (ctrl));
  {
    Drained d = drain (ctrl);
    gchar **lines = g_strsplit (d.sent->str, "\n", -1);

    fail_unless_equals_int (g_strv_length (lines), 3);
    fail_unless (g_str_has_prefix (lines[0], "{\"type\":\"ping\",\"ts\":"));
    fail_unless_equals_string (lines[1], "{\"type\":\"commands\",\"active\":"
        "[\"forward\"],\"activated\":[\"look_up\"]}");
    fail_unless_equals_string (lines[2],
        "{\"type\":\"prompt\",\"prompt\":\"night\"}");
    fail_unless_equals_int (d.messages, 1);
    fail_unless (gst_structure_has_name (d.last_details, "world/configured"));
    /* the element lets the session's media out */
    fail_unless_equals_int (d.opened, 1);
    g_strfreev (lines);
    drained_clear (&d);
  }
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_prompts_are_serial_and_coalesce)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();

  gst_session_world_controller_channel_open (ctrl);
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "one", NULL));
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "two", NULL));
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "three", NULL));
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt\":\"one\"}");
  fail_unless_equals_int (gst_session_world_controller_get_pending (ctrl), 2);

  receive (ctrl, "{\"type\":\"prompt_applied\"}");
  /* "two" was replaced by "three" while it waited */
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt\":\"three\"}");
  fail_unless (gst_session_world_controller_reset (ctrl, NULL,
          "https://example.com/a.png", NULL, NULL));
  assert_sent (ctrl, "");
  receive (ctrl, "{\"type\":\"prompt_applied\"}");
  assert_sent (ctrl, "{\"type\":\"reset\","
      "\"image_url\":\"https://example.com/a.png\"}");
  /* an error answers the request in flight: the next one may go */
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "four", NULL));
  assert_sent (ctrl, "");
  receive (ctrl, "{\"type\":\"error\",\"error\":\"bad image\","
      "\"retryable\":false}");
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt\":\"four\"}");
  receive (ctrl, "{\"type\":\"prompt_applied\"}");
  fail_unless_equals_int (gst_session_world_controller_get_pending (ctrl), 0);
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_invalid_controls_refused_nothing_sent)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();
  GError *err = NULL;
  gchar *long_prompt = g_strnfill (2001, 'a');

  gst_session_world_controller_channel_open (ctrl);
  fail_if (gst_session_world_controller_set_prompt (ctrl, long_prompt, &err));
  fail_unless (strstr (err->message, "/prompt") != NULL);
  fail_unless (strstr (err->message, "2000") != NULL);
  g_clear_error (&err);
  fail_if (gst_session_world_controller_set_prompt (ctrl, "", &err));
  g_clear_error (&err);
  fail_if (gst_session_world_controller_set_commands (ctrl,
          GST_SESSION_WORLD_COMMAND_LEFT | GST_SESSION_WORLD_COMMAND_RIGHT,
          &err));
  fail_unless (strstr (err->message, "conflicts") != NULL);
  g_clear_error (&err);
  fail_unless (gst_session_world_controller_press (ctrl,
          GST_SESSION_WORLD_COMMAND_FORWARD, NULL));
  assert_sent (ctrl, "{\"type\":\"commands\",\"active\":[\"forward\"]}");
  fail_if (gst_session_world_controller_press (ctrl,
          GST_SESSION_WORLD_COMMAND_BACKWARD, &err));
  fail_unless (strstr (err->message, "held \"forward\"") != NULL);
  g_clear_error (&err);
  fail_if (gst_session_world_controller_activate (ctrl,
          GST_SESSION_WORLD_COMMAND_LOOK_UP |
          GST_SESSION_WORLD_COMMAND_LOOK_DOWN, &err));
  g_clear_error (&err);
  fail_if (gst_session_world_controller_set_setup (ctrl, NULL, NULL,
          long_prompt, &err));
  g_clear_error (&err);
  assert_sent (ctrl, "");
  /* a refused value changes nothing the element's properties read */
  fail_unless (gst_session_world_controller_get_prompt (ctrl) == NULL);
  fail_unless_equals_int (gst_session_world_controller_get_held (ctrl),
      GST_SESSION_WORLD_COMMAND_FORWARD);
  g_free (long_prompt);
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_commands_report_on_change)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();

  gst_session_world_controller_channel_open (ctrl);
  fail_unless (gst_session_world_controller_press (ctrl,
          GST_SESSION_WORLD_COMMAND_FORWARD, NULL));
  fail_unless (gst_session_world_controller_press (ctrl,
          GST_SESSION_WORLD_COMMAND_FORWARD, NULL));
  fail_unless (gst_session_world_controller_press (ctrl,
          GST_SESSION_WORLD_COMMAND_LOOK_LEFT, NULL));
  fail_unless (gst_session_world_controller_activate (ctrl,
          GST_SESSION_WORLD_COMMAND_RIGHT, NULL));
  fail_unless (gst_session_world_controller_release (ctrl,
          GST_SESSION_WORLD_COMMAND_FORWARD |
          GST_SESSION_WORLD_COMMAND_LOOK_LEFT, NULL));
  fail_unless (gst_session_world_controller_release (ctrl,
          GST_SESSION_WORLD_COMMAND_FORWARD, NULL));
  assert_sent (ctrl,
      "{\"type\":\"commands\",\"active\":[\"forward\"]}\n"
      "{\"type\":\"commands\",\"active\":[\"forward\",\"look_left\"]}\n"
      "{\"type\":\"commands\",\"active\":[\"forward\",\"look_left\"],"
      "\"activated\":[\"right\"]}\n" "{\"type\":\"commands\",\"active\":[]}");
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_renewed_session_reconfigures_with_latest)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();

  fail_unless (gst_session_world_controller_set_setup (ctrl, "landscape",
          NULL, "hills", NULL));
  gst_session_world_controller_channel_open (ctrl);
  receive (ctrl, "{\"type\":\"configured\"}");
  fail_unless (gst_session_world_controller_press (ctrl,
          GST_SESSION_WORLD_COMMAND_LEFT, NULL));
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "snowy hills",
          NULL));
  discard (ctrl);
  receive (ctrl, "{\"type\":\"stream_exhausted\"}");
  {
    Drained d = drain (ctrl);

    fail_unless_equals_int (d.ended, 1);
    drained_clear (&d);
  }
  gst_session_world_controller_channel_closed (ctrl);
  gst_session_world_controller_channel_open (ctrl);
  assert_sent (ctrl, "{\"type\":\"configure\",\"preset\":\"landscape\","
      "\"prompt\":\"snowy hills\"}");
  /* what the element's properties read */
  fail_unless_equals_string (gst_session_world_controller_get_preset (ctrl),
      "landscape");
  fail_unless (gst_session_world_controller_get_image_url (ctrl) == NULL);
  fail_unless_equals_string (gst_session_world_controller_get_prompt (ctrl),
      "snowy hills");
  receive (ctrl, "{\"type\":\"configured\"}");
  assert_sent (ctrl, "{\"type\":\"commands\",\"active\":[\"left\"]}");
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_service_messages)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();
  GstStructure *s;
  Drained d;
  gint64 v;
  gdouble rtt;

  gst_session_world_controller_channel_open (ctrl);
  receive (ctrl, "{\"type\":\"session_info\",\"model_id\":\"m\","
      "\"model_revision\":\"r\",\"resolution\":{\"width\":1280,"
      "\"height\":704},\"frames_per_second\":16,\"frames_per_block\":16,"
      "\"max_blocks\":100,\"key_order\":[\"forward\"],\"conflict_groups\":"
      "[[\"forward\",\"backward\"]],\"default_prompt\":\"p\",\"presets\":"
      "[{\"name\":\"example\",\"prompt\":\"e\"}],\"turn\":false,"
      "\"turn_status\":\"idle\"}");
  s = gst_session_world_controller_get_session_info (ctrl);
  fail_unless (s != NULL);
  fail_unless (gst_structure_get_int64 (s, "max_blocks", &v));
  fail_unless_equals_int64 (v, 100);
  gst_structure_free (s);

  receive (ctrl, "{\"type\":\"stats\",\"block_index\":3,\"block_seconds\":1,"
      "\"generation_fps\":16.5,\"gpu_wait_frac\":0.1,\"queue_age_ms_p50\":2,"
      "\"queue_age_ms_max\":5,\"pace_sleep_ms_avg\":1,\"queue_depth\":1}");
  s = gst_session_world_controller_get_stats (ctrl);
  fail_unless (gst_structure_get_int64 (s, "block_index", &v));
  fail_unless_equals_int64 (v, 3);
  gst_structure_free (s);

  /* a malformed message and an invalid one are reported and skipped */
  receive (ctrl, "{\"type\":\"stats\"");
  receive (ctrl, "{\"type\":\"error\"}");
  receive (ctrl, "{\"type\":\"hello_from_the_future\",\"x\":1}");
  d = drain (ctrl);
  fail_unless_equals_int (d.warnings, 2);
  fail_unless_equals_int (d.messages, 3);
  /* the element keeps the size session_info announced */
  fail_unless_equals_int (d.width, 1280);
  fail_unless_equals_int (d.height, 704);
  fail_unless (gst_structure_has_name (d.last_details, "world/unknown"));
  fail_unless_equals_string (gst_structure_get_string (d.last_details,
          "type"), "hello_from_the_future");
  fail_unless_equals_string (gst_structure_get_string (d.last_details,
          GST_SESSION_MESSAGE_OTHER_FIELDS), "{\"x\":1}");
  fail_unless (strstr (d.last_warning, "/error is required") != NULL);
  drained_clear (&d);

  /* pong: our own timestamp comes back as ts or client_ts */
  fail_unless (gst_session_world_controller_ping (ctrl, NULL));
  d = drain (ctrl);
  {
    GstSessionMessage *ping = gst_session_message_parse (GST_SESSION_APP_WORLD,
        GST_SESSION_DIRECTION_CLIENT, d.sent->str, -1, NULL);
    gdouble ts;
    gchar *pong;

    fail_unless (gst_structure_get_double (gst_session_message_get_structure
            (ping), "ts", &ts));
    pong = g_strdup_printf ("{\"type\":\"pong\",\"client_ts\":%.3f,"
        "\"server_ts\":1.0}", ts);
    receive (ctrl, pong);
    g_free (pong);
    gst_session_message_unref (ping);
  }
  drained_clear (&d);
  d = drain (ctrl);
  fail_unless (gst_structure_get_double (d.last_details, "rtt_ms", &rtt));
  fail_unless (rtt >= 0 && rtt < 5000);
  fail_unless (gst_session_world_controller_get_last_rtt (ctrl) >= 0);
  drained_clear (&d);
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

/* the ts of the ping @json (one message) */
static gdouble
ping_ts (const gchar * json)
{
  GstSessionMessage *ping = gst_session_message_parse (GST_SESSION_APP_WORLD,
      GST_SESSION_DIRECTION_CLIENT, json, -1, NULL);
  gdouble ts = -1;

  fail_unless (ping != NULL, "%s", json);
  fail_unless (gst_structure_get_double (gst_session_message_get_structure
          (ping), "ts", &ts));
  gst_session_message_unref (ping);
  return ts;
}

static void
receive_pong (GstSessionWorldController * ctrl, const gchar * field, gdouble ts)
{
  gchar *pong = g_strdup_printf ("{\"type\":\"pong\",\"%s\":%.17g}", field,
      ts);

  receive (ctrl, pong);
  g_free (pong);
}

/* the element's own pings (probes of the path): only once the session is
 * ready; their pongs are ROUND_TRIP events, never posted, and leave the
 * application's rtt alone; each answers once, and only in its session */
GST_START_TEST (test_probe_round_trip)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();
  gdouble probe, user;
  Drained d;

  fail_if (gst_session_world_controller_probe (ctrl));
  fail_unless (gst_session_world_controller_set_setup (ctrl, "forest", NULL,
          NULL, NULL));
  gst_session_world_controller_channel_open (ctrl);
  discard (ctrl);
  fail_if (gst_session_world_controller_probe (ctrl));  /* not configured */
  assert_sent (ctrl, "");
  receive (ctrl, "{\"type\":\"configured\"}");
  discard (ctrl);

  fail_unless (gst_session_world_controller_probe (ctrl));
  d = drain (ctrl);
  probe = ping_ts (d.sent->str);
  drained_clear (&d);
  fail_unless (gst_session_world_controller_ping (ctrl, NULL));
  d = drain (ctrl);
  user = ping_ts (d.sent->str);
  drained_clear (&d);

  /* the probe's pong: told, not posted */
  receive_pong (ctrl, "ts", probe);
  d = drain (ctrl);
  fail_unless_equals_int (d.round_trips, 1);
  fail_unless_equals_int (d.messages, 0);
  fail_unless (d.round_trip_ms >= 0 && d.round_trip_ms < 5000);
  drained_clear (&d);
  fail_unless (gst_session_world_controller_get_last_rtt (ctrl) < 0);

  /* the same pong again is not a probe's any more: posted */
  receive_pong (ctrl, "client_ts", probe);
  d = drain (ctrl);
  fail_unless_equals_int (d.round_trips, 0);
  fail_unless_equals_int (d.messages, 1);
  drained_clear (&d);

  /* the application's ping is posted with its rtt_ms */
  receive_pong (ctrl, "client_ts", user);
  d = drain (ctrl);
  fail_unless_equals_int (d.round_trips, 0);
  fail_unless_equals_int (d.messages, 1);
  fail_unless (gst_structure_has_field (d.last_details, "rtt_ms"));
  drained_clear (&d);

  /* a probe of the session before answers nothing in the next one */
  fail_unless (gst_session_world_controller_probe (ctrl));
  d = drain (ctrl);
  probe = ping_ts (d.sent->str);
  drained_clear (&d);
  gst_session_world_controller_channel_closed (ctrl);
  gst_session_world_controller_channel_open (ctrl);
  discard (ctrl);
  receive_pong (ctrl, "ts", probe);
  d = drain (ctrl);
  fail_unless_equals_int (d.round_trips, 0);
  fail_unless_equals_int (d.messages, 1);
  drained_clear (&d);
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

GST_START_TEST (test_failed_configure_unblocks)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();
  Drained d;

  fail_unless (gst_session_world_controller_set_setup (ctrl, NULL,
          "https://example.com/none.png", NULL, NULL));
  gst_session_world_controller_channel_open (ctrl);
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "x", NULL));
  discard (ctrl);
  receive (ctrl, "{\"type\":\"error\",\"error\":\"image failed\"}");
  d = drain (ctrl);
  fail_unless_equals_string (d.sent->str,
      "{\"type\":\"prompt\",\"prompt\":\"x\"}");
  fail_unless_equals_string (gst_structure_get_string (d.last_details,
          "failed"), "configure");
  /* the default world runs: its media may flow */
  fail_unless_equals_int (d.opened, 1);
  drained_clear (&d);
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

/* a service that never acknowledges: prompts and resets wait, at most
 * GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED; one more reset is refused with
 * an error naming the bound (nothing sent, the setup unchanged), a prompt
 * behind a waiting prompt still replaces it, and once the acks come what
 * waited goes, in order, one at a time */
GST_START_TEST (test_serial_queue_bounded)
{
  GstSessionWorldController *ctrl = gst_session_world_controller_new ();
  const guint max = GST_SESSION_WORLD_CONTROLLER_MAX_QUEUED;
  GError *err = NULL;
  gchar *text, *url;
  guint i;

  gst_session_world_controller_channel_open (ctrl);
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "first", NULL));
  assert_sent (ctrl, "{\"type\":\"prompt\",\"prompt\":\"first\"}");
  /* resets and prompts in turn: nothing coalesces */
  for (i = 0; i < max; i++) {
    if (i % 2 == 0) {
      url = g_strdup_printf ("https://example.com/%u.png", i);
      fail_unless (gst_session_world_controller_reset (ctrl, NULL, url, NULL,
              &err), "reset %u refused: %s", i, err ? err->message : "");
      g_free (url);
    } else {
      text = g_strdup_printf ("prompt %u", i);
      fail_unless (gst_session_world_controller_set_prompt (ctrl, text,
              &err), "prompt %u refused: %s", i, err ? err->message : "");
      g_free (text);
    }
  }
  assert_sent (ctrl, "");
  fail_unless_equals_int (gst_session_world_controller_get_pending (ctrl),
      max + 1);

  /* full: a reset is refused, and changes nothing */
  fail_if (gst_session_world_controller_reset (ctrl, "desert-valley", NULL,
          "refused", &err), "a reset past the bound of %u was queued", max);
  fail_unless (err != NULL);
  fail_unless (err->domain == GST_SESSION_ERROR);
  fail_unless_equals_int (err->code, GST_SESSION_ERROR_INVALID_ARGUMENT);
  fail_unless (g_str_has_prefix (err->message, "reset: "), "%s", err->message);
  fail_unless (strstr (err->message, "64") != NULL, "%s", err->message);
  g_clear_error (&err);
  fail_unless (gst_session_world_controller_get_preset (ctrl) == NULL);
  fail_unless_equals_string (gst_session_world_controller_get_prompt (ctrl),
      "prompt 63");
  /* a prompt behind the waiting prompt replaces it: accepted */
  fail_unless (gst_session_world_controller_set_prompt (ctrl, "latest",
          &err), "%s", err ? err->message : "");
  assert_sent (ctrl, "");
  fail_unless_equals_int (gst_session_world_controller_get_pending (ctrl),
      max + 1);

  /* the acks come: each waiting request goes in turn, in order */
  for (i = 0; i < max; i++) {
    Drained d;
    gchar *expected;

    receive (ctrl, i % 2 == 0 ? "{\"type\":\"prompt_applied\"}" :
        "{\"type\":\"reset_applied\"}");
    if (i % 2 == 0)
      expected = g_strdup_printf ("{\"type\":\"reset\",\"image_url\":"
          "\"https://example.com/%u.png\"}", i);
    else if (i == max - 1)
      expected = g_strdup ("{\"type\":\"prompt\",\"prompt\":\"latest\"}");
    else
      expected = g_strdup_printf ("{\"type\":\"prompt\",\"prompt\":"
          "\"prompt %u\"}", i);
    d = drain (ctrl);
    fail_unless_equals_string (d.sent->str, expected);
    g_free (expected);
    drained_clear (&d);
  }
  receive (ctrl, "{\"type\":\"prompt_applied\"}");
  assert_sent (ctrl, "");
  fail_unless_equals_int (gst_session_world_controller_get_pending (ctrl), 0);
  /* room again */
  fail_unless (gst_session_world_controller_reset (ctrl, "desert-valley",
          NULL, NULL, NULL));
  assert_sent (ctrl, "{\"type\":\"reset\",\"preset\":\"desert-valley\"}");
  gst_session_world_controller_free (ctrl);
}

GST_END_TEST;

static Suite *
worldcontroller_suite (void)
{
  Suite *s = suite_create ("worldcontroller");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_default_world_sends_no_configure);
  tcase_add_test (tc, test_configure_first_and_acknowledged);
  tcase_add_test (tc, test_prompts_are_serial_and_coalesce);
  tcase_add_test (tc, test_invalid_controls_refused_nothing_sent);
  tcase_add_test (tc, test_commands_report_on_change);
  tcase_add_test (tc, test_renewed_session_reconfigures_with_latest);
  tcase_add_test (tc, test_service_messages);
  tcase_add_test (tc, test_failed_configure_unblocks);
  tcase_add_test (tc, test_early_ping_waits_for_the_session);
  tcase_add_test (tc, test_probe_round_trip);
  tcase_add_test (tc, test_serial_queue_bounded);
  return s;
}

GST_CHECK_MAIN (worldcontroller);
