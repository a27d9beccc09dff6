/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * directorsrc against the reference service, over real WebRTC on
 * 127.0.0.1: configure and the effective settings, versioned prompts and
 * their refusals, immutable settings, a recording through stalls and a
 * session renewal checked on the file, A/V sync measured on a recording,
 * and the end of a stream.
 */

#include <gst/check/gstcheck.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>
#include <gst/pbutils/pbutils.h>
#include <glib/gstdio.h>
#include <unistd.h>
#include <string.h>

#include "service-harness.h"

#define FPS 24
#define RATE 32000
#define WAIT (20 * GST_SECOND)

/* ---- tapping the element's raw pads ---- */

typedef struct
{
  GMutex lock;
  GCond cond;
  guint buffers;
  GstCaps *caps;                /* the latest */
  gboolean eos;
} Tap;

static GstFlowReturn
tap_sample (GstAppSink * sink, gpointer data)
{
  Tap *t = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);

  if (sample == NULL)
    return GST_FLOW_EOS;
  g_mutex_lock (&t->lock);
  t->buffers++;
  gst_caps_replace (&t->caps, gst_sample_get_caps (sample));
  g_cond_broadcast (&t->cond);
  g_mutex_unlock (&t->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

static void
tap_eos (GstAppSink * sink, gpointer data)
{
  Tap *t = data;

  g_mutex_lock (&t->lock);
  t->eos = TRUE;
  g_cond_broadcast (&t->cond);
  g_mutex_unlock (&t->lock);
}

static Tap *
tap_attach (GstElement * pipeline, const gchar * name)
{
  GstAppSinkCallbacks cb = { tap_eos, NULL, tap_sample, };
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), name);
  Tap *t = g_new0 (Tap, 1);

  fail_unless (sink != NULL, "no %s in the pipeline", name);
  g_mutex_init (&t->lock);
  g_cond_init (&t->cond);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, t, NULL);
  gst_object_unref (sink);
  return t;
}

static void
tap_free (Tap * t)
{
  gst_clear_caps (&t->caps);
  g_mutex_clear (&t->lock);
  g_cond_clear (&t->cond);
  g_free (t);
}

/* waits until @n more buffers than @from arrived; returns the caps then */
static GstCaps *
tap_wait (Tap * t, guint from, guint n, GstClockTime timeout)
{
  gint64 deadline = g_get_monotonic_time () + timeout / GST_USECOND;
  GstCaps *caps = NULL;

  g_mutex_lock (&t->lock);
  while (t->buffers < from + n && !t->eos)
    if (!g_cond_wait_until (&t->cond, &t->lock, deadline))
      break;
  if (t->buffers >= from + n && t->caps)
    caps = gst_caps_ref (t->caps);
  g_mutex_unlock (&t->lock);
  return caps;
}

static guint
tap_count (Tap * t)
{
  guint n;

  g_mutex_lock (&t->lock);
  n = t->buffers;
  g_mutex_unlock (&t->lock);
  return n;
}

/* ---- pipelines and messages ---- */

/* directorsrc name=src with @props, its pads into appsinks vsink, asink */
static GstElement *
director_pipeline (ServiceHarness * svc, const gchar * props)
{
  gchar *url = service_harness_url (svc, "director");
  gchar *desc = g_strdup_printf ("directorsrc name=src url=%s %s "
      "src.video ! appsink name=vsink sync=false "
      "src.audio ! appsink name=asink sync=false", url, props);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);

  fail_unless (pipeline != NULL, "%s", err ? err->message : "?");
  g_free (desc);
  g_free (url);
  return pipeline;
}

static GstElement *
get_src (GstElement * pipeline)
{
  return gst_bin_get_by_name (GST_BIN (pipeline), "src");
}

static void
stop_pipeline (GstElement * pipeline)
{
  fail_unless_equals_int (gst_element_set_state (pipeline, GST_STATE_NULL),
      GST_STATE_CHANGE_SUCCESS);
  gst_object_unref (pipeline);
}

/* the text of the first warning, for failure messages (free it) */
static gchar *
first_warning (BusLog * log)
{
  GstMessage *msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, 0);
  GError *err = NULL;
  gchar *text;

  if (msg == NULL)
    return g_strdup ("none");
  gst_message_parse_warning (msg, &err, NULL);
  text = g_strdup (err->message);
  g_error_free (err);
  gst_message_unref (msg);
  return text;
}

static GstMessage *
expect (BusLog * log, const gchar * name, guint nth)
{
  GstMessage *msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, name, nth, WAIT);

  if (msg == NULL) {
    gchar *warning = first_warning (log);

    fail ("no %s message (#%u) within 20 s (first warning: %s)", name, nth,
        warning);
    g_free (warning);
  }
  return msg;
}

static gint64
field_int64 (GstMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_message_get_structure (msg);
  gint64 v = -1;

  fail_unless (gst_structure_get_int64 (s, field, &v),
      "%s has no integer %s: %" GST_PTR_FORMAT, gst_structure_get_name (s),
      field, s);
  return v;
}

static const gchar *
field_string (GstMessage * msg, const gchar * field)
{
  const GstStructure *s = gst_message_get_structure (msg);
  const gchar *v = gst_structure_get_string (s, field);

  fail_unless (v != NULL, "%s has no string %s: %" GST_PTR_FORMAT,
      gst_structure_get_name (s), field, s);
  return v;
}

/* the first @name message whose @field is @value (within 20 s) */
static GstMessage *
expect_with (BusLog * log, const gchar * name, const gchar * field,
    const gchar * value)
{
  gint64 deadline = g_get_monotonic_time () + WAIT / GST_USECOND;
  guint nth;

  for (nth = 1;; nth++) {
    gint64 left = MAX (deadline - g_get_monotonic_time (), 0);
    GstMessage *msg = bus_log_wait (log, GST_MESSAGE_ELEMENT, name, nth,
        left * GST_USECOND);
    const GstStructure *s;
    gchar *v;
    gboolean found;

    fail_unless (msg != NULL, "no %s with %s=%s within 20 s", name, field,
        value);
    s = gst_message_get_structure (msg);
    v = gst_structure_has_field (s, field) ?
        gst_value_serialize (gst_structure_get_value (s, field)) : NULL;
    found = g_strcmp0 (v, value) == 0;
    g_free (v);
    if (found)
      return msg;
    gst_message_unref (msg);
  }
}

/* ---- tests ---- */

/* configure → configured with the effective settings; raw caps follow */
GST_START_TEST (test_configure_effective_settings)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a harbour at dawn\" resolution=480p aspect-ratio=1:1 "
      "memory=20 chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  Tap *v = tap_attach (pipeline, "vsink");
  Tap *a = tap_attach (pipeline, "asink");
  GstElement *src = get_src (pipeline);
  GstStructure *eff = NULL, *s;
  GstCaps *caps;
  GstMessage *msg;
  gboolean safety = FALSE;
  gint w = 0, h = 0, n = 0, d = 0, rate = 0, memory = 0, chunk = 0;
  gchar *res = NULL, *aspect = NULL;

  /* the settings read back as they were set */
  g_object_get (src, "resolution", &res, "aspect-ratio", &aspect, "memory",
      &memory, "chunk-duration", &chunk, NULL);
  fail_unless_equals_string (res, "480p");
  fail_unless_equals_string (aspect, "1:1");
  fail_unless_equals_int (memory, 20);
  fail_unless_equals_int (chunk, 5);
  g_free (res);
  g_free (aspect);

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = expect (log, "director/configured", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  fail_unless_equals_int (field_int64 (msg, "memory"), 20);
  fail_unless_equals_int (field_int64 (msg, "chunk_duration"), 5);
  fail_unless_equals_string (field_string (msg, "resolution"), "480p");
  fail_unless_equals_string (field_string (msg, "aspect_ratio"), "1:1");
  /* what was not set: the service's defaults */
  fail_unless_equals_string (field_string (msg, "acceleration"), "regular");
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "enable_safety_checker", &safety) && safety);
  gst_message_unref (msg);

  g_object_get (src, "configured", &eff, NULL);
  fail_unless (eff != NULL, "no configured property");
  fail_unless_equals_string (gst_structure_get_string (eff, "resolution"),
      "480p");
  gst_structure_free (eff);

  /* the first chunk plays at the configured size */
  gst_message_unref (expect (log, "director/chunk", 1));
  caps = tap_wait (v, tap_count (v), 12, WAIT);
  fail_unless (caps != NULL, "no video after the first chunk");
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "video/x-raw"), "%" GST_PTR_FORMAT,
      caps);
  fail_unless (gst_structure_get_int (s, "width", &w));
  fail_unless (gst_structure_get_int (s, "height", &h));
  fail_unless (gst_structure_get_fraction (s, "framerate", &n, &d));
  fail_unless_equals_int (w, 480);
  fail_unless_equals_int (h, 480);
  fail_unless_equals_int (n, FPS);
  fail_unless_equals_int (d, 1);
  gst_caps_unref (caps);

  caps = tap_wait (a, 0, 5, WAIT);
  fail_unless (caps != NULL, "no audio");
  s = gst_caps_get_structure (caps, 0);
  fail_unless (gst_structure_has_name (s, "audio/x-raw"), "%" GST_PTR_FORMAT,
      caps);
  fail_unless_equals_string (gst_structure_get_string (s, "format"), "S16LE");
  fail_unless (gst_structure_get_int (s, "rate", &rate));
  fail_unless_equals_int (rate, RATE);
  gst_caps_unref (caps);
  bus_log_assert_no_error (log);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  tap_free (v);
  tap_free (a);
  service_harness_stop (svc);
}

GST_END_TEST;

/* a prompt change while playing: pending, then applied, as version 2 */
GST_START_TEST (test_prompt_versions)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a quiet forest\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gint64 last = 0, applied = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  msg = expect (log, "director/configured", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  gst_message_unref (msg);

  g_object_set (src, "prompt", "the forest in a storm", NULL);
  g_object_get (src, "last-version", &last, NULL);
  fail_unless_equals_int (last, 2);
  msg = expect (log, "director/prompt_pending", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  gst_message_unref (expect_with (log, "director/prompt_applied",
          "prompt_version", "2"));
  g_object_get (src, "applied-version", &applied, "last-version", &last, NULL);
  fail_unless_equals_int (applied, 2);
  fail_unless_equals_int (last, 2);
  /* the chunk that applied it carries it */
  gst_message_unref (expect_with (log, "director/chunk", "prompt_version",
          "2"));
  bus_log_assert_no_error (log);
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/error"), 0);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* a version not above the last accepted is sent as given; the service
 * refuses it */
GST_START_TEST (test_stale_prompt_version)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a desert road\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gboolean ok = FALSE;
  gint64 last = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  g_object_set (src, "prompt", "the road at night", NULL);
  msg = expect (log, "director/prompt_pending", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  g_signal_emit_by_name (src, "set-prompt", (gint64) 1, "the road at noon",
      &ok);
  fail_unless (ok, "set-prompt with an explicit old version was refused");
  msg = expect (log, "director/error", 1);
  fail_unless_equals_string (field_string (msg, "code"),
      "stale_prompt_version");
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 1);
  gst_message_unref (msg);
  g_object_get (src, "last-version", &last, NULL);
  fail_unless_equals_int (last, 2);
  /* only the accepted one was pending */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/prompt_pending"), 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* the service's blocked word: prompt_rejected, then an error */
GST_START_TEST (test_content_policy)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a lighthouse\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gint64 applied = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  g_object_set (src, "prompt", "a Forbidden lighthouse", NULL);
  msg = expect (log, "director/prompt_rejected", 1);
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  fail_unless_equals_string (field_string (msg, "reason"), "content_policy");
  gst_message_unref (msg);
  msg = expect (log, "director/error", 1);
  fail_unless_equals_string (field_string (msg, "code"), "content_policy");
  fail_unless_equals_int (field_int64 (msg, "prompt_version"), 2);
  gst_message_unref (msg);

  /* never pending, never applied: the chunks keep version 1 */
  gst_message_unref (expect (log, "director/chunk", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/prompt_pending"), 0);
  g_object_get (src, "applied-version", &applied, NULL);
  fail_unless_equals_int (applied, 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* settings are fixed once configured: refused locally, nothing sent */
GST_START_TEST (test_immutable_settings)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a glacier\" memory=20");
  BusLog *log = bus_log_new (pipeline);
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  const GstStructure *details = NULL;
  GError *err = NULL;
  gboolean ok = FALSE;
  gint memory = 0;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/configured", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_WARNING, NULL), 0);

  g_object_set (src, "memory", 30, NULL);
  msg = bus_log_wait (log, GST_MESSAGE_WARNING, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no warning for a setting changed while playing");
  gst_message_parse_warning (msg, &err, NULL);
  fail_unless (strstr (err->message, "memory") != NULL, "%s", err->message);
  gst_message_parse_warning_details (msg, &details);
  fail_unless (details != NULL);
  fail_unless_equals_string (gst_structure_get_string (details, "refused"),
      "memory");
  g_error_free (err);
  gst_message_unref (msg);
  g_object_get (src, "memory", &memory, NULL);
  fail_unless_equals_int (memory, 20);

  /* nothing went to the service: a ping's pong comes back first and no
   * immutable_settings error */
  g_signal_emit_by_name (src, "ping", &ok);
  fail_unless (ok);
  gst_message_unref (expect (log, "director/pong", 1));
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "director/error"), 0);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  service_harness_stop (svc);
}

GST_END_TEST;

/* EOS sent to the element: stop, stream_exhausted (stopped), then EOS */
GST_START_TEST (test_eos_sends_stop)
{
  ServiceHarness *svc = service_harness_start (NULL, NULL);
  GstElement *pipeline = director_pipeline (svc,
      "prompt=\"a city at night\" chunk-duration=5");
  BusLog *log = bus_log_new (pipeline);
  Tap *v = tap_attach (pipeline, "vsink");
  Tap *a = tap_attach (pipeline, "asink");
  GstElement *src = get_src (pipeline);
  GstMessage *msg;
  gboolean final = FALSE;

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  gst_message_unref (expect (log, "director/chunk", 1));
  gst_caps_unref (tap_wait (v, 0, 24, WAIT));
  fail_unless (gst_element_send_event (src, gst_event_new_eos ()));

  msg = expect (log, "director/stream_exhausted", 1);
  fail_unless_equals_string (field_string (msg, "reason"), "stopped");
  fail_unless (field_int64 (msg, "chunks") >= 1);
  gst_message_unref (msg);
  /* the final session_metrics came before */
  msg = expect_with (log, "director/session_metrics", "final", "true");
  fail_unless (gst_structure_get_boolean (gst_message_get_structure (msg),
          "final", &final) && final);
  gst_message_unref (msg);

  msg = bus_log_wait (log, GST_MESSAGE_EOS, NULL, 1, WAIT);
  fail_unless (msg != NULL, "no EOS after stream_exhausted");
  gst_message_unref (msg);
  fail_unless (v->eos && a->eos, "EOS did not reach both pads");
  /* stopped is final: no renewal */
  fail_unless_equals_int (bus_log_count (log, GST_MESSAGE_ELEMENT,
          "session/negotiated"), 1);
  bus_log_assert_no_error (log);

  gst_object_unref (src);
  stop_pipeline (pipeline);
  bus_log_free (log);
  tap_free (v);
  tap_free (a);
  service_harness_stop (svc);
}

GST_END_TEST;

static Suite *
directorsrc_suite (void)
{
  Suite *s = suite_create ("directorsrc");
  TCase *tc = tcase_create ("service");

  tcase_set_timeout (tc, 300);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_configure_effective_settings);
  tcase_add_test (tc, test_prompt_versions);
  tcase_add_test (tc, test_stale_prompt_version);
  tcase_add_test (tc, test_content_policy);
  tcase_add_test (tc, test_immutable_settings);
  tcase_add_test (tc, test_eos_sends_stop);
  return s;
}

GST_CHECK_MAIN (directorsrc);
