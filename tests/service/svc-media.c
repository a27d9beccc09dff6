/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * What the test client receives on its media streams: each stream
 * depayloaded and decoded into an appsink, the frames and samples counted,
 * the director's video sync markers and audio clicks found, with their
 * times on the client's pipeline and on the sender's clock.
 */

#include <math.h>
#include <gst/app/app.h>
#include <gst/video/video.h>

#include "svc-client-private.h"

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
  c->last_video_sender = sender_time (gst_sample_get_buffer (sample));
  c->last_video_running = sample_running_time (sample,
      GST_BUFFER_PTS (gst_sample_get_buffer (sample)));
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
      /* the sync click: above CLICK_LEVEL after samples worth 100 ms
       * below QUIET_LEVEL (the tone peaks at a quarter of full scale).
       * The decoded burst may rise through the band between the two
       * levels: a sample there neither ends nor extends the quiet run
       * (it ended it before: 8 runs of 270 under load missed two clicks) */
      if (a > CLICK_LEVEL) {
        if (c->quiet_run >= (guint) rate / 10 * channels &&
            GST_CLOCK_TIME_IS_VALID (start) && rate > 0) {
          GstClockTime offset = gst_util_uint64_scale (i / channels,
              GST_SECOND, rate), sender = sender_time (buffer);
          Mark m = { start + offset,
            GST_CLOCK_TIME_IS_VALID (sender) ? sender + offset : sender
          };

          g_array_append_val (c->audio_marks, m);
        }
        c->quiet_run = 0;
      } else if (a < QUIET_LEVEL) {
        c->quiet_run++;
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

void
svc_media_init (SvcClient * c)
{
  if (g_once_init_enter (&ntp_caps)) {
    GstCaps *caps = gst_caps_new_empty_simple ("timestamp/x-ntp");

    GST_MINI_OBJECT_FLAG_SET (caps, GST_MINI_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&ntp_caps, caps);
  }
  c->video_marks = g_array_new (FALSE, FALSE, sizeof (Mark));
  c->audio_marks = g_array_new (FALSE, FALSE, sizeof (Mark));
}

void
svc_media_clear (SvcClient * c)
{
  g_array_unref (c->video_marks);
  g_array_unref (c->audio_marks);
  if (c->last_video)
    gst_sample_unref (c->last_video);
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

void
svc_media_pad_added (GstElement * webrtc, GstPad * pad, SvcClient * c)
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

guint64
svc_client_video_frames_at (SvcClient * c, GstClockTime * sender,
    GstClockTime * running_time)
{
  guint64 n;

  g_mutex_lock (&c->lock);
  n = c->video_frames;
  *sender = c->last_video_sender;
  *running_time = c->last_video_running;
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
