/* gst-session: a test client of the reference service
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The service runs as a child process on 127.0.0.1, port 0. The client is
 * webrtcbin driven directly as the offerer: recv-only transceivers, the
 * "control" data channel made before the offer, full ICE gathering on
 * 127.0.0.1, the offer POSTed by libsoup from a private thread that then
 * keeps reading the event stream. Every wait is a bounded wait on a
 * condition.
 */

#include <string.h>
#include <signal.h>
#include <math.h>
#include <gio/gio.h>
#include <gst/app/app.h>
#include <gst/video/video.h>
#ifndef GST_USE_UNSTABLE_API
#define GST_USE_UNSTABLE_API
#endif
#include <gst/webrtc/webrtc.h>

#include "svc-client.h"

/* ---------------------------------------------------------------- *
 * the service process
 * ---------------------------------------------------------------- */

struct _SvcProcess
{
  GSubprocess *process;
  gchar *url;
  GThread *log_thread;
  GMutex lock;
  GString *log;                 /* lock */
};

static gpointer read_log (gpointer data);

SvcProcess *
svc_process_start (const gchar * first_arg, ...)
{
  GPtrArray *argv = g_ptr_array_new_with_free_func (g_free);
  const gchar *root = g_getenv ("GST_SESSION_BUILD_ROOT");
  SvcProcess *p = g_new0 (SvcProcess, 1);
  GError *error = NULL;
  GDataInputStream *out;
  const gchar *arg;
  va_list args;

  g_assert (root != NULL);
  g_ptr_array_add (argv, g_build_filename (root, "tools", "service",
          "gst-session-service", NULL));
  g_ptr_array_add (argv, g_strdup ("--port=0"));
  va_start (args, first_arg);
  for (arg = first_arg; arg; arg = va_arg (args, const gchar *))
      g_ptr_array_add (argv, g_strdup (arg));
  va_end (args);
  g_ptr_array_add (argv, NULL);

  p->process = g_subprocess_newv ((const gchar * const *) argv->pdata,
      G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE, &error);
  g_assert_no_error (error);
  g_ptr_array_unref (argv);
  g_mutex_init (&p->lock);
  p->log = g_string_new (NULL);
  p->log_thread = g_thread_new ("svc-log", read_log, p);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (p->process));
  p->url = g_data_input_stream_read_line (out, NULL, NULL, &error);
  g_object_unref (out);
  g_assert_no_error (error);
  g_assert (p->url != NULL);
  g_assert (g_str_has_prefix (p->url, "http://127.0.0.1:"));
  return p;
}

const gchar *
svc_process_url (SvcProcess * p)
{
  return p->url;
}

static void
on_exited (GObject * source, GAsyncResult * result, gpointer data)
{
  gboolean *done = data;

  g_subprocess_wait_finish (G_SUBPROCESS (source), result, NULL);
  *done = TRUE;
}

static gboolean
on_deadline (gpointer data)
{
  gboolean *late = data;

  *late = TRUE;
  return G_SOURCE_REMOVE;
}

static gpointer
read_log (gpointer data)
{
  SvcProcess *p = data;
  GDataInputStream *in =
      g_data_input_stream_new (g_subprocess_get_stderr_pipe (p->process));
  gchar *line;

  while ((line = g_data_input_stream_read_line (in, NULL, NULL, NULL))) {
    g_printerr ("service: %s\n", line);
    g_mutex_lock (&p->lock);
    g_string_append_printf (p->log, "%s\n", line);
    g_mutex_unlock (&p->lock);
    g_free (line);
  }
  g_object_unref (in);
  return NULL;
}

/* SIGTERM, then a bounded wait: the exit status, 128 + the signal when a
 * signal ended it (139: SIGSEGV), or -1 when the service did not exit in
 * time. *@log (optional) gets what it wrote on stderr. */
gint
svc_process_stop (SvcProcess * p, gchar ** log)
{
  gboolean done = FALSE, late = FALSE;
  guint timer;
  gint status = -1;

  g_subprocess_send_signal (p->process, SIGTERM);
  g_subprocess_wait_async (p->process, NULL, on_exited, &done);
  timer = g_timeout_add (10000, on_deadline, &late);
  while (!done && !late)
    g_main_context_iteration (NULL, TRUE);
  if (!late)
    g_source_remove (timer);
  if (done && g_subprocess_get_if_exited (p->process))
    status = g_subprocess_get_exit_status (p->process);
  else if (done && g_subprocess_get_if_signaled (p->process))
    status = 128 + g_subprocess_get_term_sig (p->process);
  if (!done) {
    g_subprocess_force_exit (p->process);
    while (!done)
      g_main_context_iteration (NULL, TRUE);
  }
  g_thread_join (p->log_thread);
  if (log)
    *log = g_strdup (p->log->str);
  g_string_free (p->log, TRUE);
  g_mutex_clear (&p->lock);
  g_object_unref (p->process);
  g_free (p->url);
  g_free (p);
  return status;
}

/* ---------------------------------------------------------------- *
 * plain HTTP
 * ---------------------------------------------------------------- */

static SvcHttpReply *
reply_new (SoupMessage * msg, const gchar * data, gsize size)
{
  SvcHttpReply *r = g_new0 (SvcHttpReply, 1);
  SoupMessageHeaders *h = soup_message_get_response_headers (msg);
  JsonParser *parser = json_parser_new ();

  r->status = soup_message_get_status (msg);
  r->body = g_strndup (data ? data : "", size);
  r->content_type = g_strdup (soup_message_headers_get_content_type (h, NULL));
  r->error_type = g_strdup (soup_message_headers_get_one (h,
          "X-Svc-Error-Type"));
  r->retryable = g_strdup (soup_message_headers_get_one (h, "X-Svc-Retryable"));
  if (size && json_parser_load_from_data (parser, r->body, -1, NULL))
    r->json = json_node_copy (json_parser_get_root (parser));
  g_object_unref (parser);
  return r;
}

SvcHttpReply *
svc_http (const gchar * method, const gchar * url, const gchar * body,
    const gchar * key)
{
  SoupSession *session = soup_session_new ();
  SoupMessage *msg = soup_message_new (method, url);
  GBytes *bytes;
  GError *error = NULL;
  SvcHttpReply *reply;
  gsize size;
  const gchar *data;

  g_assert (msg != NULL);
  if (key) {
    gchar *auth = g_strdup_printf ("Key %s", key);

    soup_message_headers_replace (soup_message_get_request_headers (msg),
        "Authorization", auth);
    g_free (auth);
  }
  if (body) {
    GBytes *b = g_bytes_new (body, strlen (body));

    soup_message_set_request_body_from_bytes (msg, "application/json", b);
    g_bytes_unref (b);
  }
  bytes = soup_session_send_and_read (session, msg, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (bytes, &size);
  reply = reply_new (msg, data, size);
  g_bytes_unref (bytes);
  g_object_unref (msg);
  g_object_unref (session);
  return reply;
}

void
svc_http_reply_free (SvcHttpReply * r)
{
  if (!r)
    return;
  g_free (r->body);
  g_free (r->content_type);
  g_free (r->error_type);
  g_free (r->retryable);
  if (r->json)
    json_node_unref (r->json);
  g_free (r);
}

/* The app_state of session @id from GET /admin/sessions (a new reference),
 * or NULL */
JsonObject *
svc_admin_session (const gchar * base_url, const gchar * id)
{
  gchar *url = g_strdup_printf ("%s/admin/sessions", base_url);
  SvcHttpReply *r = svc_http ("GET", url, NULL, NULL);
  JsonObject *found = NULL;
  JsonArray *sessions;
  guint i;

  g_free (url);
  g_assert_cmpuint (r->status, ==, 200);
  sessions = json_object_get_array_member (json_node_get_object (r->json),
      "sessions");
  for (i = 0; i < json_array_get_length (sessions); i++) {
    JsonObject *s = json_array_get_object_element (sessions, i);

    if (g_strcmp0 (json_object_get_string_member (s, "session_id"), id) == 0
        && json_object_has_member (s, "app_state"))
      found = json_object_ref (json_object_get_object_member (s, "app_state"));
  }
  svc_http_reply_free (r);
  return found;
}

/* ---------------------------------------------------------------- *
 * the client
 * ---------------------------------------------------------------- */

typedef struct
{
  gchar *text;
  gchar *type;
  JsonObject *obj;
  gboolean taken;
} Message;

struct _SvcClient
{
  GMutex lock;
  GCond cond;
  GstSessionApp app;
  SvcClientOptions options;
  gchar *base_url;
  gchar *key;
  gchar *session_id;

  GstElement *pipeline;
  GstElement *webrtc;
  GstWebRTCDataChannel *channel;
  GThread *http_thread;
  GCancellable *cancel;
  GThread *ping_thread;
  gint ping_stop;               /* atomic */
  gint pings_sent;              /* atomic */
  gchar *offer;

  /* lock */
  gboolean channel_open;
  gboolean channel_closed;
  GPtrArray *messages;
  guint invalid;
  guint64 video_frames;
  gint width, height;
  GstSample *last_video;
  guint64 audio_samples;
  gint audio_rate;
  gdouble audio_rms;
  gboolean mark_prev;
  guint quiet_run;
  GArray *video_marks;          /* Mark */
  GArray *audio_marks;
  gboolean answered;
  gboolean response_ended;
  guint keepalives;
  gchar *answer;
  SvcHttpReply *error_reply;
};

static void
message_free (Message * m)
{
  g_free (m->text);
  g_free (m->type);
  if (m->obj)
    json_object_unref (m->obj);
  g_free (m);
}

static void
signal_change (SvcClient * c)
{
  g_cond_broadcast (&c->cond);
}

static void
on_message_string (GstWebRTCDataChannel * channel, const gchar * text,
    SvcClient * c)
{
  Message *m = g_new0 (Message, 1);
  JsonParser *parser = json_parser_new ();
  gboolean valid = TRUE;

  m->text = g_strdup (text);
  if (json_parser_load_from_data (parser, text, -1, NULL) &&
      JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser))) {
    m->obj = json_object_ref (json_node_get_object (json_parser_get_root
            (parser)));
    if (json_object_has_member (m->obj, "type"))
      m->type = g_strdup (json_object_get_string_member (m->obj, "type"));
  }
  g_object_unref (parser);
  {
    GError *error = NULL;
    GstSessionMessage *msg = gst_session_message_parse (c->app,
        GST_SESSION_DIRECTION_SERVICE, text, -1, &error);

    if (!msg || !gst_session_message_is_known (msg)) {
      GST_ERROR ("invalid service message %s: %s", text,
          error ? error->message : "unknown type");
      valid = FALSE;
    }
    g_clear_error (&error);
    if (msg)
      gst_session_message_unref (msg);
  }
  GST_DEBUG ("received %s", text);
  g_mutex_lock (&c->lock);
  g_ptr_array_add (c->messages, m);
  if (!valid)
    c->invalid++;
  signal_change (c);
  g_mutex_unlock (&c->lock);
}

static void
on_channel_open (GstWebRTCDataChannel * channel, SvcClient * c)
{
  g_mutex_lock (&c->lock);
  c->channel_open = TRUE;
  signal_change (c);
  g_mutex_unlock (&c->lock);
}

static void
on_channel_close (GstWebRTCDataChannel * channel, SvcClient * c)
{
  g_mutex_lock (&c->lock);
  c->channel_closed = TRUE;
  signal_change (c);
  g_mutex_unlock (&c->lock);
}

static GstClockTime
sample_running_time (GstSample * sample, GstClockTime pts)
{
  const GstSegment *segment = gst_sample_get_segment (sample);

  if (!segment || !GST_CLOCK_TIME_IS_VALID (pts))
    return GST_CLOCK_TIME_NONE;
  return gst_segment_to_running_time (segment, GST_FORMAT_TIME, pts);
}

/* A sync mark: where the client's pipeline placed it, and the sender's
 * capture time of it (the NTP time of its sender report, which rtpbin
 * attaches as a reference timestamp meta) once reports came */
typedef struct
{
  GstClockTime running;
  GstClockTime sender;
} Mark;

/* timestamp/x-ntp: the reference timestamps of the sender reports */
static GstCaps *ntp_caps;

static GstClockTime
sender_time (GstBuffer * buffer)
{
  GstReferenceTimestampMeta *meta =
      gst_buffer_get_reference_timestamp_meta (buffer, ntp_caps);

  return meta ? meta->timestamp : GST_CLOCK_TIME_NONE;
}

/* the director's sync marker: the top right square is white */
static gboolean
marker_on (GstSample * sample, const GstVideoInfo * info)
{
  GstVideoFrame frame;
  gint size = GST_VIDEO_INFO_HEIGHT (info) / 8;
  gint x = GST_VIDEO_INFO_WIDTH (info) - size / 2, y = size / 2;
  guint8 luma;

  if (!gst_video_frame_map (&frame, info, gst_sample_get_buffer (sample),
          GST_MAP_READ))
    return FALSE;
  luma = ((const guint8 *) GST_VIDEO_FRAME_COMP_DATA (&frame, 0))[y *
      GST_VIDEO_FRAME_COMP_STRIDE (&frame, 0) + x];
  gst_video_frame_unmap (&frame);
  return luma > 180;
}

static GstFlowReturn
on_video_sample (GstAppSink * sink, gpointer data)
{
  SvcClient *c = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstVideoInfo info;
  gboolean mark = FALSE;

  if (!sample)
    return GST_FLOW_OK;
  gst_video_info_from_caps (&info, gst_sample_get_caps (sample));
  if (c->app == GST_SESSION_APP_DIRECTOR)
    mark = marker_on (sample, &info);
  g_mutex_lock (&c->lock);
  c->video_frames++;
  c->width = GST_VIDEO_INFO_WIDTH (&info);
  c->height = GST_VIDEO_INFO_HEIGHT (&info);
  if (mark && !c->mark_prev) {
    GstBuffer *buffer = gst_sample_get_buffer (sample);
    Mark m = { sample_running_time (sample, GST_BUFFER_PTS (buffer)),
      sender_time (buffer)
    };

    g_array_append_val (c->video_marks, m);
  }
  c->mark_prev = mark;
  if (c->last_video)
    gst_sample_unref (c->last_video);
  c->last_video = sample;
  signal_change (c);
  g_mutex_unlock (&c->lock);
  return GST_FLOW_OK;
}

#define CLICK_LEVEL (0.6 * 32767)
#define QUIET_LEVEL (0.5 * 32767)

static GstFlowReturn
on_audio_sample (GstAppSink * sink, gpointer data)
{
  SvcClient *c = data;
  GstSample *sample = gst_app_sink_pull_sample (sink);
  GstBuffer *buffer;
  GstStructure *s;
  GstMapInfo map;
  GstClockTime start;
  gint rate = 0, channels = 1;
  gdouble sum = 0;
  gsize n = 0, i;

  if (!sample)
    return GST_FLOW_OK;
  buffer = gst_sample_get_buffer (sample);
  s = gst_caps_get_structure (gst_sample_get_caps (sample), 0);
  gst_structure_get_int (s, "rate", &rate);
  gst_structure_get_int (s, "channels", &channels);
  channels = MAX (channels, 1);
  start = sample_running_time (sample, GST_BUFFER_PTS (buffer));
  g_mutex_lock (&c->lock);
  if (gst_buffer_map (buffer, &map, GST_MAP_READ)) {
    const gint16 *v = (const gint16 *) map.data;

    n = map.size / 2;
    for (i = 0; i < n; i++) {
      gint a = ABS ((gint) v[i]);

      sum += (gdouble) v[i] * v[i];
      /* the sync click: loud after at least 100 ms below the tone's peak */
      if (a > CLICK_LEVEL && c->quiet_run >= (guint) rate / 10 * channels &&
          GST_CLOCK_TIME_IS_VALID (start) && rate > 0) {
        GstClockTime offset = gst_util_uint64_scale (i / channels,
            GST_SECOND, rate), sender = sender_time (buffer);
        Mark m = { start + offset,
          GST_CLOCK_TIME_IS_VALID (sender) ? sender + offset : sender
        };

        g_array_append_val (c->audio_marks, m);
        c->quiet_run = 0;
      } else if (a < QUIET_LEVEL) {
        c->quiet_run++;
      } else {
        c->quiet_run = 0;
      }
    }
    gst_buffer_unmap (buffer, &map);
  }
  c->audio_rate = rate;
  c->audio_samples += n / channels;
  if (n)
    c->audio_rms = sqrt (sum / n) / 32768.0;
  signal_change (c);
  g_mutex_unlock (&c->lock);
  gst_sample_unref (sample);
  return GST_FLOW_OK;
}

/* A video sync marker and the audio click nearest to it: FALSE until both
 * were seen. The latest marker, and the clicks, by their capture times on
 * the sender's clock when they carry one (what the service sent, whatever
 * this client's load did to its own lip-sync: rtpbin moves a stream by its
 * arrival estimates at each sender report, off by 100 ms and more on a
 * loaded machine); before the first sender reports, the first marker by
 * running times of the client's pipeline. */
gboolean
svc_client_sync_marks (SvcClient * c, gboolean * sender_times,
    GstClockTime * video, GstClockTime * audio)
{
  guint i;
  gboolean found = FALSE, by_sender;
  Mark v;

  g_mutex_lock (&c->lock);
  if (c->video_marks->len > 0) {
    /* the latest marker with the sender's time, when a click has one too;
     * else the first marker, by running time */
    by_sender = FALSE;
    for (i = 0; i < c->audio_marks->len; i++)
      by_sender |= GST_CLOCK_TIME_IS_VALID (g_array_index (c->audio_marks,
              Mark, i).sender);
    v = g_array_index (c->video_marks, Mark, 0);
    for (i = c->video_marks->len; by_sender && i > 0; i--) {
      v = g_array_index (c->video_marks, Mark, i - 1);
      if (GST_CLOCK_TIME_IS_VALID (v.sender))
        break;
    }
    by_sender = by_sender && GST_CLOCK_TIME_IS_VALID (v.sender);
    if (sender_times)
      *sender_times = by_sender;
    if (!by_sender)
      v = g_array_index (c->video_marks, Mark, 0);
    *video = by_sender ? v.sender : v.running;
    for (i = 0; i < c->audio_marks->len; i++) {
      Mark a = g_array_index (c->audio_marks, Mark, i);
      GstClockTime t = by_sender ? a.sender : a.running;

      if (!GST_CLOCK_TIME_IS_VALID (t))
        continue;
      if (!found || ABS (GST_CLOCK_DIFF (t, *video)) <
          ABS (GST_CLOCK_DIFF (*audio, *video)))
        *audio = t;
      found = TRUE;
    }
  }
  g_mutex_unlock (&c->lock);
  return found;
}

static void
on_pad_added (GstElement * webrtc, GstPad * pad, SvcClient * c)
{
  GstCaps *caps;
  const gchar *enc, *desc;
  GstElement *bin;
  GstAppSink *sink;
  GstAppSinkCallbacks cb = { NULL, };
  GstPad *sinkpad;
  gboolean video;

  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC)
    return;
  caps = gst_pad_get_current_caps (pad);
  if (!caps)
    caps = gst_pad_query_caps (pad, NULL);
  enc = gst_structure_get_string (gst_caps_get_structure (caps, 0),
      "encoding-name");
  if (g_strcmp0 (enc, "VP8") == 0)
    desc = "rtpvp8depay request-keyframe=true wait-for-keyframe=true ! "
        "vp8dec max-errors=-1 threads=1 ! videoconvert ! video/x-raw,format=I420 ! "
        "appsink name=sink sync=false";
  else if (g_strcmp0 (enc, "H264") == 0)
    desc = "rtph264depay request-keyframe=true wait-for-keyframe=true ! "
        "avdec_h264 max-errors=-1 ! videoconvert ! video/x-raw,format=I420 ! "
        "appsink name=sink sync=false";
  else if (g_strcmp0 (enc, "OPUS") == 0)
    desc = "rtpopusdepay ! opusdec max-errors=-1 ! audioconvert ! "
        "audio/x-raw,format=S16LE ! appsink name=sink sync=false";
  else
    desc = "fakesink";
  video = enc && g_strcmp0 (enc, "OPUS") != 0;
  gst_caps_unref (caps);

  bin = gst_parse_bin_from_description (desc, TRUE, NULL);
  g_assert (bin != NULL);
  sink = GST_APP_SINK (gst_bin_get_by_name (GST_BIN (bin), "sink"));
  if (sink) {
    cb.new_sample = video ? on_video_sample : on_audio_sample;
    gst_app_sink_set_callbacks (sink, &cb, c, NULL);
    gst_object_unref (sink);
  }
  gst_bin_add (GST_BIN (c->pipeline), bin);
  gst_element_sync_state_with_parent (bin);
  sinkpad = gst_element_get_static_pad (bin, "sink");
  g_assert_cmpint (gst_pad_link (pad, sinkpad), ==, GST_PAD_LINK_OK);
  gst_object_unref (sinkpad);
}

static void
add_recvonly (SvcClient * c, const gchar * caps_str)
{
  GstCaps *caps = gst_caps_from_string (caps_str);
  GstWebRTCRTPTransceiver *trans = NULL;

  g_signal_emit_by_name (c->webrtc, "add-transceiver",
      GST_WEBRTC_RTP_TRANSCEIVER_DIRECTION_RECVONLY, caps, &trans);
  g_assert (trans != NULL);
  gst_object_unref (trans);
  gst_caps_unref (caps);
}

SvcClient *
svc_client_new (const gchar * base_url, GstSessionApp app,
    const SvcClientOptions * options)
{
  SvcClient *c = g_new0 (SvcClient, 1);
  GstElement *ice = NULL;
  gboolean ok = FALSE;

  g_mutex_init (&c->lock);
  g_cond_init (&c->cond);
  c->app = app;
  if (options)
    c->options = *options;
  c->key = g_strdup (c->options.key);
  c->options.key = c->key;
  c->base_url = g_strdup (base_url);
  c->session_id = g_uuid_string_random ();
  c->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)
      message_free);
  if (g_once_init_enter (&ntp_caps)) {
    GstCaps *caps = gst_caps_new_empty_simple ("timestamp/x-ntp");

    GST_MINI_OBJECT_FLAG_SET (caps, GST_MINI_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&ntp_caps, caps);
  }
  c->video_marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  c->audio_marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  c->cancel = g_cancellable_new ();

  c->pipeline = gst_pipeline_new (NULL);
  c->webrtc = gst_element_factory_make ("webrtcbin", NULL);
  g_assert (c->webrtc != NULL);
  g_object_set (c->webrtc, "bundle-policy",
      GST_WEBRTC_BUNDLE_POLICY_MAX_BUNDLE, NULL);
  gst_bin_add (GST_BIN (c->pipeline), c->webrtc);
  {
    /* each buffer carries its capture time on the sender's clock once
     * sender reports came (see svc_client_sync_marks) */
    GstElement *rtpbin = gst_bin_get_by_name (GST_BIN (c->webrtc), "rtpbin");

    if (rtpbin && g_object_class_find_property (G_OBJECT_GET_CLASS (rtpbin),
            "add-reference-timestamp-meta"))
      g_object_set (rtpbin, "add-reference-timestamp-meta", TRUE, NULL);
    if (rtpbin)
      gst_object_unref (rtpbin);
  }
  g_object_get (c->webrtc, "ice-agent", &ice, NULL);
  g_assert (ice != NULL);
  g_signal_emit_by_name (ice, "add-local-ip-address", "127.0.0.1", &ok);
  gst_object_unref (ice);
  g_signal_connect (c->webrtc, "pad-added", G_CALLBACK (on_pad_added), c);

  if (c->options.h264)
    add_recvonly (c, "application/x-rtp,media=video,encoding-name=H264,"
        "payload=102,clock-rate=90000,packetization-mode=(string)1,"
        "profile-level-id=(string)42e01f");
  else
    add_recvonly (c, "application/x-rtp,media=video,encoding-name=VP8,"
        "payload=96,clock-rate=90000");
  if (app == GST_SESSION_APP_DIRECTOR && !c->options.no_audio)
    add_recvonly (c, "application/x-rtp,media=audio,encoding-name=OPUS,"
        "payload=111,clock-rate=48000,encoding-params=(string)2");
  return c;
}

const gchar *
svc_client_session_id (SvcClient * c)
{
  return c->session_id;
}

static GstPromise *
promise_wait (GstPromise * promise)
{
  g_assert_cmpint (gst_promise_wait (promise), ==, GST_PROMISE_RESULT_REPLIED);
  return promise;
}

static gchar *
make_offer (SvcClient * c)
{
  GstPromise *promise = gst_promise_new ();
  const GstStructure *reply;
  GstWebRTCSessionDescription *offer = NULL, *local = NULL;
  GstWebRTCICEGatheringState state;
  gint64 deadline;
  gchar *text;

  g_signal_emit_by_name (c->webrtc, "create-offer", NULL, promise);
  reply = gst_promise_get_reply (promise_wait (promise));
  gst_structure_get (reply, "offer", GST_TYPE_WEBRTC_SESSION_DESCRIPTION,
      &offer, NULL);
  gst_promise_unref (promise);
  g_assert (offer != NULL);

  promise = gst_promise_new ();
  g_signal_emit_by_name (c->webrtc, "set-local-description", offer, promise);
  promise_wait (promise);
  gst_promise_unref (promise);
  gst_webrtc_session_description_free (offer);

  /* full gathering, bounded: 1.22.0 can lose the "complete" notify */
  deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  do {
    g_object_get (c->webrtc, "ice-gathering-state", &state, NULL);
    if (state == GST_WEBRTC_ICE_GATHERING_STATE_COMPLETE)
      break;
    g_usleep (10000);
  } while (g_get_monotonic_time () < deadline);

  g_object_get (c->webrtc, "local-description", &local, NULL);
  g_assert (local != NULL);
  text = gst_sdp_message_as_text (local->sdp);
  gst_webrtc_session_description_free (local);
  g_assert (strstr (text, "a=candidate") != NULL);
  return text;
}

static gchar *
offer_body (SvcClient * c)
{
  JsonBuilder *b = json_builder_new ();
  JsonNode *root;
  gchar *text;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "sdp");
  json_builder_add_string_value (b, c->offer);
  json_builder_set_member_name (b, "type");
  json_builder_add_string_value (b, "offer");
  json_builder_set_member_name (b, "session_id");
  json_builder_add_string_value (b, c->session_id);
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  text = json_to_string (root, FALSE);
  json_node_unref (root);
  g_object_unref (b);
  return text;
}

static gpointer
http_thread (gpointer data)
{
  SvcClient *c = data;
  GMainContext *context = g_main_context_new ();
  SoupSession *session;
  SoupMessage *msg;
  GInputStream *stream;
  GError *error = NULL;
  gchar *url, *body;
  GBytes *bytes;

  g_main_context_push_thread_default (context);
  session = soup_session_new_with_options ("timeout", 0, NULL);
  url = g_strdup_printf ("%s/%s/start-session", c->base_url,
      c->app == GST_SESSION_APP_WORLD ? "world" : "director");
  msg = soup_message_new ("POST", url);
  g_free (url);
  if (c->key) {
    gchar *auth = g_strdup_printf ("Key %s", c->key);

    soup_message_headers_replace (soup_message_get_request_headers (msg),
        "Authorization", auth);
    g_free (auth);
  }
  body = offer_body (c);
  bytes = g_bytes_new_take (body, strlen (body));
  soup_message_set_request_body_from_bytes (msg, "application/json", bytes);
  g_bytes_unref (bytes);

  stream = soup_session_send (session, msg, c->cancel, &error);
  if (error)
    GST_WARNING ("start-session: %s", error->message);
  if (!stream || soup_message_get_status (msg) != 200) {
    GByteArray *all = g_byte_array_new ();
    guint8 buf[4096];
    gssize n;

    while (stream && (n = g_input_stream_read (stream, buf, sizeof (buf),
                c->cancel, NULL)) > 0)
      g_byte_array_append (all, buf, n);
    g_mutex_lock (&c->lock);
    c->error_reply = reply_new (msg, (const gchar *) all->data, all->len);
    c->answered = TRUE;
    c->response_ended = TRUE;
    signal_change (c);
    g_mutex_unlock (&c->lock);
    g_byte_array_unref (all);
  } else {
    GDataInputStream *lines = g_data_input_stream_new (stream);
    gchar *line;

    while ((line = g_data_input_stream_read_line (lines, NULL, c->cancel,
                &error))) {
      g_mutex_lock (&c->lock);
      if (g_str_has_prefix (line, "data: ") && !c->answer) {
        JsonParser *parser = json_parser_new ();

        g_assert (json_parser_load_from_data (parser, line + 6, -1, NULL));
        g_assert_cmpstr (json_object_get_string_member (json_node_get_object
                (json_parser_get_root (parser)), "type"), ==, "answer");
        g_assert_cmpstr (json_object_get_string_member (json_node_get_object
                (json_parser_get_root (parser)), "session_id"), ==,
            c->session_id);
        c->answer = g_strdup (json_object_get_string_member
            (json_node_get_object (json_parser_get_root (parser)), "sdp"));
        c->answered = TRUE;
        g_object_unref (parser);
      } else if (line[0] == ':') {
        c->keepalives++;
      }
      signal_change (c);
      g_mutex_unlock (&c->lock);
      g_free (line);
    }
    g_object_unref (lines);
    GST_INFO ("the event stream ended: %s", error ? error->message : "EOF");
    g_mutex_lock (&c->lock);
    c->answered = TRUE;
    c->response_ended = TRUE;
    signal_change (c);
    g_mutex_unlock (&c->lock);
  }
  g_clear_error (&error);
  if (stream)
    g_object_unref (stream);
  g_object_unref (msg);
  g_object_unref (session);
  g_main_context_pop_thread_default (context);
  g_main_context_unref (context);
  return NULL;
}

/* Waits on the client's condition until @pred holds; lock held */
#define WAIT_LOCKED(c, pred, timeout_ms) G_STMT_START {                 \
  gint64 _end = g_get_monotonic_time () + (gint64) (timeout_ms) * 1000; \
  while (!(pred))                                                       \
    if (!g_cond_wait_until (&(c)->cond, &(c)->lock, _end))              \
      break;                                                            \
} G_STMT_END

guint
svc_client_start (SvcClient * c)
{
  GstWebRTCSessionDescription *answer;
  GstSDPMessage *sdp;
  GstPromise *promise;
  gchar *text;

  g_assert_cmpint (gst_element_set_state (c->pipeline, GST_STATE_PLAYING),
      !=, GST_STATE_CHANGE_FAILURE);
  g_signal_emit_by_name (c->webrtc, "create-data-channel", "control", NULL,
      &c->channel);
  g_assert (c->channel != NULL);
  g_signal_connect (c->channel, "on-open", G_CALLBACK (on_channel_open), c);
  g_signal_connect (c->channel, "on-close", G_CALLBACK (on_channel_close), c);
  g_signal_connect (c->channel, "on-message-string",
      G_CALLBACK (on_message_string), c);

  c->offer = make_offer (c);
  c->http_thread = g_thread_new ("svc-client-http", http_thread, c);

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->answered, 30000);
  text = g_strdup (c->answer);
  g_mutex_unlock (&c->lock);
  if (!text)
    return c->error_reply ? c->error_reply->status : 0;

  g_assert_cmpint (gst_sdp_message_new_from_text (text, &sdp), ==, GST_SDP_OK);
  g_free (text);
  answer = gst_webrtc_session_description_new (GST_WEBRTC_SDP_TYPE_ANSWER, sdp);
  promise = gst_promise_new ();
  g_signal_emit_by_name (c->webrtc, "set-remote-description", answer, promise);
  promise_wait (promise);
  gst_promise_unref (promise);
  gst_webrtc_session_description_free (answer);
  return 200;
}

static gpointer
ping_thread (gpointer data)
{
  SvcClient *c = data;
  guint i = 0;

  while (!g_atomic_int_get (&c->ping_stop)) {
    gchar *text = g_strdup_printf ("{\"type\": \"ping\", \"ts\": %u}", i++);

    if (gst_webrtc_data_channel_send_string_full (c->channel, text, NULL))
      g_atomic_int_inc (&c->pings_sent);
    g_free (text);
    g_usleep (200);
  }
  return NULL;
}

/* Sends pings without a pause from a thread of its own until the client
 * is freed; the pipeline stops while they go */
void
svc_client_start_pinging (SvcClient * c)
{
  g_assert (c->channel != NULL && c->ping_thread == NULL);
  c->ping_thread = g_thread_new ("svc-client-ping", ping_thread, c);
}

guint
svc_client_pings_sent (SvcClient * c)
{
  return g_atomic_int_get (&c->pings_sent);
}

SvcHttpReply *
svc_client_error_reply (SvcClient * c)
{
  return c->error_reply;
}

gboolean
svc_client_wait_open (SvcClient * c, gint timeout_ms)
{
  gboolean open;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->channel_open, timeout_ms);
  open = c->channel_open;
  g_mutex_unlock (&c->lock);
  return open;
}

gboolean
svc_client_send (SvcClient * c, const gchar * text)
{
  return gst_webrtc_data_channel_send_string_full (c->channel, text, NULL);
}

static Message *
find_message (SvcClient * c, const gchar * type)
{
  guint i;

  for (i = 0; i < c->messages->len; i++) {
    Message *m = g_ptr_array_index (c->messages, i);

    if (!m->taken && g_strcmp0 (m->type, type) == 0)
      return m;
  }
  return NULL;
}

JsonObject *
svc_client_wait_message (SvcClient * c, const gchar * type, gint timeout_ms)
{
  Message *m;
  gint64 start = g_get_monotonic_time ();

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, find_message (c, type), timeout_ms);
  m = find_message (c, type);
  if (m)
    m->taken = TRUE;
  g_mutex_unlock (&c->lock);
  if (!m)
    GST_WARNING ("no '%s' message after %.3f s (%u messages, %" G_GUINT64_FORMAT
        " video frames)", type, (g_get_monotonic_time () - start) / 1e6,
        c->messages->len, c->video_frames);
  return m ? m->obj : NULL;
}

gboolean
svc_client_wait_invalid (SvcClient * c, guint n, gint timeout_ms)
{
  gboolean ok;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->invalid >= n, timeout_ms);
  ok = c->invalid >= n;
  g_mutex_unlock (&c->lock);
  return ok;
}

guint
svc_client_count_messages (SvcClient * c, const gchar * type)
{
  guint i, n = 0;

  g_mutex_lock (&c->lock);
  for (i = 0; i < c->messages->len; i++) {
    Message *m = g_ptr_array_index (c->messages, i);

    n += g_strcmp0 (m->type, type) == 0;
  }
  g_mutex_unlock (&c->lock);
  return n;
}

gboolean
svc_client_wait_video_frames (SvcClient * c, guint64 frames, gint timeout_ms)
{
  gboolean ok;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->video_frames >= frames, timeout_ms);
  ok = c->video_frames >= frames;
  g_mutex_unlock (&c->lock);
  return ok;
}

guint64
svc_client_video_frames (SvcClient * c)
{
  guint64 n;

  g_mutex_lock (&c->lock);
  n = c->video_frames;
  g_mutex_unlock (&c->lock);
  return n;
}

void
svc_client_video_size (SvcClient * c, gint * width, gint * height)
{
  g_mutex_lock (&c->lock);
  *width = c->width;
  *height = c->height;
  g_mutex_unlock (&c->lock);
}

GstSample *
svc_client_last_video (SvcClient * c)
{
  GstSample *s;

  g_mutex_lock (&c->lock);
  s = c->last_video ? gst_sample_ref (c->last_video) : NULL;
  g_mutex_unlock (&c->lock);
  return s;
}

gdouble
svc_sample_luma_diff (GstSample * a, GstSample * b, gdouble top)
{
  GstVideoInfo info;
  GstVideoFrame fa, fb;
  gdouble sum = 0;
  gint x, y, y0, n = 0;

  g_assert (gst_video_info_from_caps (&info, gst_sample_get_caps (a)));
  g_assert (gst_video_frame_map (&fa, &info, gst_sample_get_buffer (a),
          GST_MAP_READ));
  g_assert (gst_video_frame_map (&fb, &info, gst_sample_get_buffer (b),
          GST_MAP_READ));
  y0 = (gint) (top * GST_VIDEO_INFO_HEIGHT (&info));
  for (y = y0; y < GST_VIDEO_INFO_HEIGHT (&info); y += 2) {
    const guint8 *ra = (const guint8 *) GST_VIDEO_FRAME_COMP_DATA (&fa, 0) +
        y * GST_VIDEO_FRAME_COMP_STRIDE (&fa, 0);
    const guint8 *rb = (const guint8 *) GST_VIDEO_FRAME_COMP_DATA (&fb, 0) +
        y * GST_VIDEO_FRAME_COMP_STRIDE (&fb, 0);

    for (x = 0; x < GST_VIDEO_INFO_WIDTH (&info); x += 2, n++)
      sum += ABS ((gint) ra[x] - (gint) rb[x]);
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  return n ? sum / n : 0;
}

gboolean
svc_client_wait_audio (SvcClient * c, guint64 samples, gint timeout_ms)
{
  gboolean ok;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->audio_samples >= samples, timeout_ms);
  ok = c->audio_samples >= samples;
  g_mutex_unlock (&c->lock);
  return ok;
}

gint
svc_client_audio_rate (SvcClient * c)
{
  gint rate;

  g_mutex_lock (&c->lock);
  rate = c->audio_rate;
  g_mutex_unlock (&c->lock);
  return rate;
}

gdouble
svc_client_audio_rms (SvcClient * c)
{
  gdouble rms;

  g_mutex_lock (&c->lock);
  rms = c->audio_rms;
  g_mutex_unlock (&c->lock);
  return rms;
}

gboolean
svc_client_wait_response_end (SvcClient * c, gint timeout_ms)
{
  gboolean ended;

  g_mutex_lock (&c->lock);
  WAIT_LOCKED (c, c->response_ended, timeout_ms);
  ended = c->response_ended;
  g_mutex_unlock (&c->lock);
  return ended;
}

guint
svc_client_keepalives (SvcClient * c)
{
  guint n;

  g_mutex_lock (&c->lock);
  n = c->keepalives;
  g_mutex_unlock (&c->lock);
  return n;
}

gboolean
svc_client_channel_closed (SvcClient * c)
{
  gboolean closed;

  g_mutex_lock (&c->lock);
  closed = c->channel_closed;
  g_mutex_unlock (&c->lock);
  return closed;
}


void
svc_client_free (SvcClient * c)
{
  guint invalid;

  g_cancellable_cancel (c->cancel);
  if (c->http_thread)
    g_thread_join (c->http_thread);
  gst_session_webrtc_stop_channel_senders (c->webrtc);
  gst_element_set_state (c->pipeline, GST_STATE_NULL);
  if (c->ping_thread) {
    g_atomic_int_set (&c->ping_stop, 1);
    g_thread_join (c->ping_thread);
  }
  if (c->channel) {
    g_signal_handlers_disconnect_by_data (c->channel, c);
    gst_object_unref (c->channel);
  }
  gst_object_unref (c->pipeline);

  g_mutex_lock (&c->lock);
  invalid = c->invalid;
  g_mutex_unlock (&c->lock);
  if (!c->options.expect_invalid)
    g_assert_cmpuint (invalid, ==, 0);

  g_ptr_array_unref (c->messages);
  g_array_unref (c->video_marks);
  g_array_unref (c->audio_marks);
  if (c->last_video)
    gst_sample_unref (c->last_video);
  svc_http_reply_free (c->error_reply);
  g_object_unref (c->cancel);
  g_free (c->answer);
  g_free (c->offer);
  g_free (c->key);
  g_free (c->base_url);
  g_free (c->session_id);
  g_mutex_clear (&c->lock);
  g_cond_clear (&c->cond);
  g_free (c);
}

static guint
thread_count (void)
{
  GDir *dir = g_dir_open ("/proc/self/task", 0, NULL);
  guint n = 0;

  if (dir == NULL)
    return 0;
  while (g_dir_read_name (dir))
    n++;
  g_dir_close (dir);
  return n;
}

/* A checked teardown (tcase_add_checked_fixture): GST_END_TEST has freed
 * GStreamer's task pool, so the streaming threads of the test's
 * webrtcbins end now; those that ran DTLS free OpenSSL's per-thread state
 * as they end, and exit() runs OpenSSL's atexit cleanup, which frees the
 * same state (a double free or a SIGSEGV in the test process after its
 * last check). GLib's idle pool threads are told to end, then this waits
 * (at most 3 s) until no thread has ended for 200 ms. As the element
 * suites do (tests/elements/service-harness.c). */
void
svc_settle_threads (void)
{
  gint64 deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  gint64 stable_since = g_get_monotonic_time ();
  guint n = thread_count ();

  while (g_get_monotonic_time () < deadline &&
      g_get_monotonic_time () - stable_since < 200 * G_TIME_SPAN_MILLISECOND) {
    guint now;

    g_thread_pool_stop_unused_threads ();
    g_usleep (5000);
    now = thread_count ();
    if (now != n) {
      n = now;
      stable_since = g_get_monotonic_time ();
    }
  }
}
