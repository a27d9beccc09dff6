/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The output stage of a session source: one always-present src pad (a ghost
 * of an internal live appsrc) that outlives the sessions feeding it. It owns
 * the output timeline:
 *
 * - timestamps are running time of the element's clock; the first video
 *   frame sets the origin and the frame grid (audio before it is cut), so
 *   audio and video start together, and at EOS each pad is filled up to the
 *   furthest, so they end together;
 * - each input is placed at its sender timestamp plus one transport latency
 *   shared by both streams (see gstsessionplacement.c): audio and video
 *   keep the sender's relation. The sender timestamp is its capture time
 *   from the sender reports (rtpbin's reference timestamp meta) once they
 *   came, before that the jitterbuffer's timestamp;
 * - video is a constant-rate sequence of slots: a frame takes the next
 *   free slot when its time is within 3/5 of a slot of it (see
 *   SLOT_REACH), slots before it repeat the last frame, a frame too far
 *   behind the next free slot is dropped; when input is overdue (a stall,
 *   a renewal) a clock-driven filler thread repeats the last frame slot by
 *   slot; interactive playout has no grid: each frame goes at its own
 *   place (see push_video_interactive), the filler as before;
 * - audio is a sample count since the origin: within 10 ms of its place an
 *   input follows on, a hole is filled with silence of the exact sample
 *   count, an overlap is cut;
 * - encoded output (decode=false) cannot repeat frames nor make up audio:
 *   over a gap its timestamps jump (muxers keep the time right), a
 *   stream starts at a keyframe, no video frame is dropped for being
 *   late (see push_encoded_video), and its transport latency is the first
 *   input's unless it rises by more than LATENCY_JUMP, so that frames
 *   keep the sender's spacing;
 * - off loopback every input is placed a recovery delay later (see
 *   gst_session_output_set_recovery), time for a retransmission;
 * - a late input whose delay is the machine's (decoding, from its arrival
 *   meta, see gstsessionarrival.c) does not move the timeline: it is
 *   dropped or cut as late, unless that delay lasts (see
 *   gstsessionplacement.c).
 *
 * Locking: out->lock protects the timeline and is held while pushing into
 * the appsrc (which only queues). Order: out->lock, then origin->lock.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/gstappsrc.h>

#include "gstsessionoutput-private.h"

GST_DEBUG_CATEGORY (session_output_debug);
#define GST_CAT_DEFAULT session_output_debug

/* audio within this of its place follows on (no fill, no cut) */
#define AUDIO_TOLERANCE(out) ((out)->ainfo.rate / 100)
/* The latency a pad reports is its overdue limit (when the filler steps in)
 * plus this: the filler's thread wakes at the limit and, on a loaded
 * machine, pushes some ms after it (the soak measured 11-15 ms over the
 * limit); a muxer waits for what the latency announces */
#define FILL_MARGIN (30 * GST_MSECOND)
/* Interactive playout: what the pads report, the time from a frame's
 * place to its push (decoding and scaling after its last packet came);
 * a frame the filler repeats is pushed after it, a repeat shown late */
#define INTERACTIVE_MARGIN (5 * GST_MSECOND)
/* a filler iteration pushes at most this much before looking again */
#define MAX_FILL_PER_WAKE 64

static gpointer filler_loop (gpointer data);

/* a buffer leaves the appsrc: its queue ends there (the pts, +1 so that
 * 0 stays "none yet") */
static GstPadProbeReturn
on_buffer_out (GstPad * pad, GstPadProbeInfo * info, gpointer data)
{
  GstSessionOutput *out = data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

  if (GST_BUFFER_PTS_IS_VALID (buf))
    g_atomic_pointer_set (&out->queue_out,
        (gpointer) (guintptr) (GST_BUFFER_PTS (buf) + 1));
  return GST_PAD_PROBE_OK;
}

GstSessionOutput *
gst_session_output_new (GstBin * bin, const gchar * pad_name,
    GstPadTemplate * templ, GstSessionOutputKind kind,
    GstSessionOutputOrigin * origin)
{
  GstSessionOutput *out = g_new0 (GstSessionOutput, 1);
  gchar *name = g_strdup_printf ("%s_out", pad_name);
  GstPad *target;

  if (session_output_debug == NULL)
    GST_DEBUG_CATEGORY_INIT (session_output_debug, "sessionoutput", 0,
        "session source output stage");

  out->kind = kind;
  out->origin = origin;
  g_mutex_init (&out->lock);
  g_mutex_init (&out->scale_lock);
  g_cond_init (&out->cond);
  out->fps_n = 0;
  out->fps_d = 1;
  out->frame_duration = GST_CLOCK_TIME_NONE;
  out->next_pts = GST_CLOCK_TIME_NONE;
  out->last_pts = GST_CLOCK_TIME_NONE;
  out->last_input = 0;

  out->appsrc = gst_element_factory_make ("appsrc", name);
  g_free (name);
  g_object_set (out->appsrc, "is-live", TRUE, "format", GST_FORMAT_TIME,
      "do-timestamp", FALSE, "max-bytes", (guint64) 0, "block", FALSE,
      "emit-signals", FALSE, NULL);
  gst_bin_add (bin, out->appsrc);

  target = gst_element_get_static_pad (out->appsrc, "src");
  gst_pad_add_probe (target, GST_PAD_PROBE_TYPE_BUFFER, on_buffer_out, out,
      NULL);
  out->ghost = gst_ghost_pad_new_from_template (pad_name, target, templ);
  gst_object_unref (target);
  gst_pad_set_active (out->ghost, TRUE);
  gst_element_add_pad (GST_ELEMENT (bin), out->ghost);
  return out;
}

void
gst_session_output_free (GstSessionOutput * out)
{
  if (out == NULL)
    return;
  gst_session_output_stop (out);
  gst_clear_caps (&out->caps);
  gst_clear_buffer (&out->last);
  g_clear_pointer (&out->scaler, gst_video_converter_free);
  g_mutex_clear (&out->scale_lock);
  g_mutex_clear (&out->lock);
  g_cond_clear (&out->cond);
  g_free (out);
}

GstPad *
gst_session_output_get_pad (GstSessionOutput * out)
{
  return out->ghost;
}

static void
update_latency (GstSessionOutput * out)
{
  GstClockTime latency;

  if (out->kind == GST_SESSION_OUTPUT_AUDIO ||
      GST_CLOCK_TIME_IS_VALID (out->frame_duration))
    latency = overdue_limit (out);
  else
    latency = 100 * GST_MSECOND;
  /* not the recovery delay: every input's timestamp already has it (it
   * is placed that much after its least delayed arrival), so the one a
   * retransmission brought late still comes by its time, and nothing is
   * pushed later after it than the filler is; counted here too, a sink
   * showed every frame the recovery delay later again (glass to glass
   * on the LAN path, a syncing sink: 227 ms, of which 50 ms twice) */
  latency += FILL_MARGIN;
  if (out->interactive)
    latency = INTERACTIVE_MARGIN;
  g_object_set (out->appsrc, "min-latency", (gint64) latency,
      "max-latency", (gint64) - 1, NULL);
}

/* Interactive playout (see INTERACTIVE_MARGIN) or smooth */
void
gst_session_output_set_interactive (GstSessionOutput * out,
    gboolean interactive)
{
  g_mutex_lock (&out->lock);
  out->interactive = interactive;
  update_latency (out);
  g_mutex_unlock (&out->lock);
}

void
gst_session_output_set_nominal_rate (GstSessionOutput * out, gint fps_n,
    gint fps_d)
{
  g_mutex_lock (&out->lock);
  out->fps_n = fps_n;
  out->fps_d = fps_d;
  if (fps_n > 0 && fps_d > 0)
    out->frame_duration = gst_util_uint64_scale_int (GST_SECOND, fps_d, fps_n);
  update_latency (out);
  g_mutex_unlock (&out->lock);
}

/* Every input is placed @recovery later than its least delayed arrival,
 * so that one whose packets had to be asked for again (NACK, RTX) still
 * comes before its place, not after the filler repeated a frame or filled
 * silence there. Both outputs of an element take the same value, which
 * keeps audio and video in the sender's relation. Returns whether it
 * changed (the element then posts a latency message). */
gboolean
gst_session_output_set_recovery (GstSessionOutput * out, GstClockTime recovery)
{
  gboolean changed;

  g_mutex_lock (&out->lock);
  changed = out->recovery != recovery;
  out->recovery = recovery;
  update_latency (out);
  g_mutex_unlock (&out->lock);
  return changed;
}

void
gst_session_output_start (GstSessionOutput * out, GstClock * clock,
    GstClockTime base_time)
{
  g_mutex_lock (&out->lock);
  if (out->running) {
    /* PAUSED→PLAYING again: running time goes on from the pause */
    out->base_time = base_time;
    if (out->wait_id)
      gst_clock_id_unschedule (out->wait_id);
    g_mutex_unlock (&out->lock);
    return;
  }
  gst_object_replace ((GstObject **) & out->clock, GST_OBJECT (clock));
  out->base_time = base_time;
  out->running = TRUE;
  out->started = FALSE;
  out->ended = FALSE;
  out->need_keyframe = TRUE;
  out->next_offset = 0;
  out->next_pts = GST_CLOCK_TIME_NONE;
  out->last_pts = GST_CLOCK_TIME_NONE;
  out->last_input = g_get_monotonic_time ();
  memset (&out->stats, 0, sizeof (out->stats));
  g_atomic_pointer_set (&out->queue_out, NULL);
  /* a run chooses its size anew, and sets its caps */
  out->width = out->height = 0;
  gst_clear_caps (&out->caps);
  gst_clear_buffer (&out->last);
  out->filled_last = FALSE;
  g_mutex_lock (&out->origin->lock);
  gst_session_output_origin_reset (out->origin, out->kind);
  g_mutex_unlock (&out->origin->lock);
  update_latency (out);
  out->filler = g_thread_new ("session-filler", filler_loop, out);
  g_mutex_unlock (&out->lock);
}

void
gst_session_output_stop (GstSessionOutput * out)
{
  GThread *filler;

  g_mutex_lock (&out->lock);
  out->running = FALSE;
  if (out->wait_id)
    gst_clock_id_unschedule (out->wait_id);
  g_cond_broadcast (&out->cond);
  filler = out->filler;
  out->filler = NULL;
  g_mutex_unlock (&out->lock);

  if (filler)
    g_thread_join (filler);

  g_mutex_lock (&out->lock);
  gst_clear_object (&out->clock);
  out->started = FALSE;
  gst_clear_buffer (&out->last);
  g_mutex_unlock (&out->lock);

  g_mutex_lock (&out->origin->lock);
  out->origin->origin = GST_CLOCK_TIME_NONE;
  gst_session_output_origin_reset (out->origin, out->kind);
  g_mutex_unlock (&out->origin->lock);
}

static GstClockTime
running_now (GstSessionOutput * out)
{
  GstClockTime now = gst_clock_get_time (out->clock);

  return now > out->base_time ? now - out->base_time : 0;
}

static GstClockTime
audio_time (GstSessionOutput * out, guint64 offset)
{
  return out->origin->origin + gst_util_uint64_scale_int (offset, GST_SECOND,
      out->ainfo.rate);
}

/* The running time of the next output, and how overdue an input may be. */
static GstClockTime
next_time (GstSessionOutput * out)
{
  return out->kind == GST_SESSION_OUTPUT_AUDIO ?
      audio_time (out, out->next_offset) : out->next_pts;
}

/* How far behind its time downstream may fall, and how much the appsrc
 * may hold, before the output drops: downstream that takes less than
 * what comes (a stalled sink, a slow encoder) made the queue grow without
 * bound (0.9-2.2 GB in 35 s behind 8192x8192 frames) */
#define QUEUE_MAX_TIME (3 * GST_SECOND)
#define QUEUE_MAX_BYTES (128 * 1024 * 1024)

/* How far behind the clock downstream is: from the last buffer that left
 * the appsrc (queue_out, its pad's probe) to now, while the appsrc holds
 * more. A burst pushed ahead of its time (the filler after a wait, the
 * fill at the end) is not behind. Called with the lock. */
static GstClockTime
queue_lag (GstSessionOutput * out)
{
  GstClockTime left = (GstClockTime) g_atomic_pointer_get (&out->queue_out);
  GstClockTime now;

  if (left == 0 || out->clock == NULL ||
      gst_app_src_get_current_level_bytes (GST_APP_SRC (out->appsrc)) == 0)
    return 0;
  now = running_now (out);
  return now > left - 1 ? now - (left - 1) : 0;
}

static void
push_buffer (GstSessionOutput * out, GstBuffer * buf)
{
  GstAppSrc *appsrc = GST_APP_SRC (out->appsrc);
  GstClockTime queued = queue_lag (out);

  if (queued > QUEUE_MAX_TIME ||
      gst_app_src_get_current_level_bytes (appsrc) > QUEUE_MAX_BYTES) {
    if (out->stats.queue_dropped++ == 0)
      GST_WARNING_OBJECT (out->appsrc, "downstream takes less than comes: "
          "%" GST_TIME_FORMAT " behind, %" G_GUINT64_FORMAT " bytes queued: "
          "dropping", GST_TIME_ARGS (queued),
          gst_app_src_get_current_level_bytes (appsrc));
    /* encoded video cannot go on from a dropped frame */
    if (!out->raw && out->kind == GST_SESSION_OUTPUT_VIDEO)
      out->need_keyframe = TRUE;
    gst_buffer_unref (buf);
    return;
  }
  out->stats.out++;
  gst_app_src_push_buffer (appsrc, buf);
}

/* One slot (video) or AUDIO_FILL_MS (audio, capped to @max) of filler. */
static void
fill_one (GstSessionOutput * out, GstClockTime max)
{
  GstClockTime pts = next_time (out), dur;

  if (out->kind == GST_SESSION_OUTPUT_AUDIO) {
    guint64 samples = out->ainfo.rate * AUDIO_FILL_MS / 1000;

    if (GST_CLOCK_TIME_IS_VALID (max)) {
      guint64 until = gst_util_uint64_scale_int (max - out->origin->origin,
          out->ainfo.rate, GST_SECOND);

      samples = MIN (samples, until > out->next_offset ?
          until - out->next_offset : 0);
    }
    if (samples == 0)
      return;
    dur = audio_time (out, out->next_offset + samples) - pts;
    if (out->raw) {
      GstBuffer *buf = gst_buffer_new_allocate (NULL,
          samples * out->ainfo.bpf, NULL);
      GstMapInfo map;

      gst_buffer_map (buf, &map, GST_MAP_WRITE);
      gst_audio_format_info_fill_silence (out->ainfo.finfo, map.data, map.size);
      gst_buffer_unmap (buf, &map);
      GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = pts;
      GST_BUFFER_DURATION (buf) = dur;
      GST_BUFFER_OFFSET (buf) = out->next_offset;
      GST_BUFFER_OFFSET_END (buf) = out->next_offset + samples;
      push_buffer (out, buf);
    }
    /* encoded audio cannot be made up: the timestamps jump instead */
    out->next_offset += samples;
  } else {
    dur = out->frame_duration;
    /* encoded video cannot repeat a frame: the timestamps jump instead */
    if (out->raw && out->last) {
      GstBuffer *buf = gst_buffer_copy (out->last);

      GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = pts;
      GST_BUFFER_DURATION (buf) = dur;
      out->last_pts = pts;
      push_buffer (out, buf);
    }
    out->next_pts += dur;
    out->filled_last = TRUE;
  }
  out->stats.repeated++;
  out->stats.filled += dur;
}

/* Fills what is overdue at @now, so the timeline has no hole. */
static void
fill_until (GstSessionOutput * out, GstClockTime now)
{
  guint n = 0;

  while (out->running && !out->ended && n++ < MAX_FILL_PER_WAKE &&
      now > next_time (out) + overdue_limit (out)) {
    GstClockTime before = next_time (out);

    fill_one (out, out->kind == GST_SESSION_OUTPUT_AUDIO ?
        now - overdue_limit (out) / 2 : GST_CLOCK_TIME_NONE);
    if (next_time (out) == before)
      break;
  }
}

/* Fills up to @end exactly (audio: to the sample; video: to the nearest
 * slot). Bounded. */
static void
fill_to_locked (GstSessionOutput * out, GstClockTime end)
{
  guint n = 0;

  while (out->started && !out->ended && next_time (out) < end &&
      n++ < 10 * MAX_FILL_PER_WAKE) {
    GstClockTime before = next_time (out);

    if (out->kind == GST_SESSION_OUTPUT_VIDEO &&
        end - before < out->frame_duration / 2)
      break;
    fill_one (out, end);
    if (next_time (out) == before)
      break;
  }
}

static gpointer
filler_loop (gpointer data)
{
  GstSessionOutput *out = data;

  g_mutex_lock (&out->lock);
  while (out->running) {
    GstClockTime target;
    GstClockID id;
    GstClockReturn ret;

    /* encoded output has nothing to fill with: its timestamps jump over
     * a gap by themselves, so the filler sleeps (no wake-up per frame) */
    if (!out->started || out->ended || out->clock == NULL || !out->raw ||
        (out->kind == GST_SESSION_OUTPUT_VIDEO &&
            !GST_CLOCK_TIME_IS_VALID (out->frame_duration))) {
      g_cond_wait (&out->cond, &out->lock);
      continue;
    }
    target = out->base_time + next_time (out) + overdue_limit (out);
    id = gst_clock_new_single_shot_id (out->clock, target);
    out->wait_id = id;
    g_mutex_unlock (&out->lock);
    ret = gst_clock_id_wait (id, NULL);
    g_mutex_lock (&out->lock);
    out->wait_id = NULL;
    gst_clock_id_unref (id);
    if (!out->running || ret == GST_CLOCK_UNSCHEDULED)
      continue;
    if (out->started && !out->ended)
      fill_until (out, running_now (out));
  }
  g_mutex_unlock (&out->lock);
  return NULL;
}

static void
set_caps (GstSessionOutput * out, GstCaps * caps)
{
  GstStructure *s;
  GstCaps *outcaps;

  if (out->caps && gst_caps_is_equal (out->caps, caps) &&
      out->caps_width == out->width && out->caps_height == out->height)
    return;
  out->caps_width = out->width;
  out->caps_height = out->height;
  gst_caps_replace (&out->caps, caps);
  outcaps = gst_caps_copy (caps);
  s = gst_caps_get_structure (outcaps, 0);
  out->raw = g_str_has_prefix (gst_structure_get_name (s), "video/x-raw") ||
      g_str_has_prefix (gst_structure_get_name (s), "audio/x-raw");
  if (out->kind == GST_SESSION_OUTPUT_VIDEO && out->fps_n > 0)
    gst_structure_set (s, "framerate", GST_TYPE_FRACTION, out->fps_n,
        out->fps_d, NULL);
  if (out->kind == GST_SESSION_OUTPUT_VIDEO && out->raw && out->width > 0)
    gst_structure_set (s, "width", G_TYPE_INT, out->width, "height",
        G_TYPE_INT, out->height, NULL);
  if (out->kind == GST_SESSION_OUTPUT_AUDIO && out->raw)
    gst_audio_info_from_caps (&out->ainfo, caps);
  else if (out->kind == GST_SESSION_OUTPUT_AUDIO) {
    gint rate = 48000, channels = 2;

    gst_structure_get_int (s, "rate", &rate);
    gst_structure_get_int (s, "channels", &channels);
    gst_audio_info_set_format (&out->ainfo, GST_AUDIO_FORMAT_S16LE, rate,
        channels, NULL);
  }
  GST_INFO_OBJECT (out->appsrc, "output caps %" GST_PTR_FORMAT, outcaps);
  gst_app_src_set_caps (GST_APP_SRC (out->appsrc), outcaps);
  gst_caps_unref (outcaps);
}

static void
start_timeline (GstSessionOutput * out, GstClockTime now)
{
  g_mutex_lock (&out->origin->lock);
  if (!GST_CLOCK_TIME_IS_VALID (out->origin->origin))
    out->origin->origin = now;
  out->next_pts = out->origin->origin;
  out->next_offset = 0;
  g_mutex_unlock (&out->origin->lock);
  out->started = TRUE;
  g_cond_broadcast (&out->cond);
}

/* Encoded video cannot repeat a frame, and a frame left out breaks those
 * that refer to it until the next keyframe: no frame is dropped for being
 * late. Over a gap the filler only moves the time on, so a late frame
 * still takes its own slot when no frame was pushed there; one whose slot
 * an earlier frame took (the latency placed anew) goes half a slot after
 * that frame, and the next frames are on their slots again. */
static void
push_encoded_video (GstSessionOutput * out, GstBuffer * in, GstClockTime slot)
{
  GstClockTime d = out->frame_duration, pts = slot;
  GstBuffer *buf;

  if (GST_CLOCK_TIME_IS_VALID (out->last_pts) && pts < out->last_pts + d / 2)
    pts = out->last_pts + d / 2;
  buf = gst_buffer_copy (in);
  GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = d;
  GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_DISCONT);
  out->last_pts = pts;
  out->next_pts = MAX (out->next_pts, pts + d);
  push_buffer (out, buf);
}

/* A raw frame takes the next free slot when its time is within this much
 * of it (3/5 of a slot, 25 ms at 24 fps) either way: frames whose times
 * fall near the middle between two slots (the grid is set by the first
 * frame, the latency may move after it) would otherwise, rounded to the
 * nearest, go one into the slot before (taken: dropped), the next into
 * the slot after (the one between repeated) with a millisecond of jitter.
 * A tenth of a slot either side of the middle (4 ms at 24 fps) is what it
 * takes to cross back, and a frame is never more than 3/5 of a slot off
 * its time. Right after the filler repeated a slot, the frame that was
 * late for it is dropped by the nearest slot (half a slot): taken into
 * the next slot, it and every frame after it would stay that late. */
#define SLOT_REACH(d) ((d) * 3 / 5)

/* Pushes a copy of the last frame (or @in) at next_pts, a frame long */
static void
repeat_frame (GstSessionOutput * out, GstBuffer * in)
{
  GstClockTime d = out->frame_duration;
  GstBuffer *buf = gst_buffer_copy (out->last ? out->last : in);

  GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = out->next_pts;
  GST_BUFFER_DURATION (buf) = d;
  GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_DISCONT);
  out->last_pts = out->next_pts;
  push_buffer (out, buf);
  out->stats.repeated++;
  out->stats.filled += d;
  out->next_pts += d;
}

/* Interactive raw video: each frame at its own place (a sender's pacing
 * wanders against any grid), at least half a frame after the one before;
 * a gap over 1.5 frames is filled with repeats, and a frame whose place a
 * repeat took is dropped. A frame that comes after its place is shown as
 * it comes (@now): pushed late, a video sink would drop it. */
static void
push_video_interactive (GstSessionOutput * out, GstBuffer * in,
    GstClockTime mapped, GstClockTime now)
{
  GstClockTime d = out->frame_duration, pts = mapped;
  GstBuffer *buf;
  guint n = 0;

  if (GST_CLOCK_TIME_IS_VALID (out->last_pts)) {
    if (out->filled_last && mapped <= out->last_pts) {
      GST_LOG_OBJECT (out->appsrc, "frame at %" GST_TIME_FORMAT " late, "
          "repeated at %" GST_TIME_FORMAT ": dropped", GST_TIME_ARGS (mapped),
          GST_TIME_ARGS (out->last_pts));
      out->stats.dropped++;
      return;
    }
    while (out->next_pts + d / 2 < mapped && n++ < 10 * MAX_FILL_PER_WAKE)
      repeat_frame (out, in);
    pts = MAX (MAX (mapped, now), out->last_pts + d / 2);
  }
  buf = gst_buffer_copy (in);
  GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = pts;
  GST_BUFFER_DURATION (buf) = d;
  GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_DISCONT);
  out->filled_last = FALSE;
  gst_buffer_replace (&out->last, buf);
  out->last_pts = pts;
  out->next_pts = pts + d;
  push_buffer (out, buf);
}

static void
push_video (GstSessionOutput * out, GstBuffer * in, GstClockTime mapped,
    GstClockTime now)
{
  GstClockTime d = out->frame_duration, slot;
  GstBuffer *buf;
  guint n = 0;

  if (out->raw && out->interactive) {
    push_video_interactive (out, in, mapped, now);
    return;
  }
  if (!out->raw) {
    /* the slot nearest to the input's time */
    slot = out->origin->origin +
        gst_util_uint64_scale_round (mapped > out->origin->origin ?
        mapped - out->origin->origin : 0, 1, d) * d;
    push_encoded_video (out, in, slot);
    return;
  }
  if (mapped + (out->filled_last ? d / 2 : SLOT_REACH (d)) < out->next_pts) {
    /* its slot is taken (filled while it was late): dropped */
    GST_LOG_OBJECT (out->appsrc, "frame at %" GST_TIME_FORMAT " late, its "
        "slot is taken (next %" GST_TIME_FORMAT "): dropped",
        GST_TIME_ARGS (mapped), GST_TIME_ARGS (out->next_pts));
    out->stats.dropped++;
    return;
  }
  /* slots before it: the last frame repeated, or this first frame shown
   * early */
  while (out->next_pts + SLOT_REACH (d) < mapped &&
      n++ < 10 * MAX_FILL_PER_WAKE)
    repeat_frame (out, in);
  buf = gst_buffer_copy (in);
  GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = out->next_pts;
  GST_BUFFER_DURATION (buf) = d;
  GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_DISCONT);
  out->filled_last = FALSE;
  gst_buffer_replace (&out->last, buf);
  out->next_pts += d;
  push_buffer (out, buf);
}

static void
push_audio (GstSessionOutput * out, GstBuffer * in, GstClockTime mapped)
{
  guint64 samples, pos, skip = 0;
  GstClockTime next;
  GstBuffer *buf;

  samples = out->raw ? gst_buffer_get_size (in) / out->ainfo.bpf :
      gst_util_uint64_scale_int (GST_BUFFER_DURATION_IS_VALID (in) ?
      GST_BUFFER_DURATION (in) : 20 * GST_MSECOND, out->ainfo.rate, GST_SECOND);
  if (samples == 0)
    return;
  pos = gst_util_uint64_scale_int_round (mapped > out->origin->origin ?
      mapped - out->origin->origin : 0, out->ainfo.rate, GST_SECOND);

  /* within the tolerance the samples follow on; beyond, silence fills the
   * hole, or what overlaps is cut */
  if (pos > out->next_offset + AUDIO_TOLERANCE (out)) {
    fill_to_locked (out, audio_time (out, pos));
  } else if (pos + AUDIO_TOLERANCE (out) < out->next_offset) {
    skip = out->next_offset - pos;
    if (skip >= samples || !out->raw) {
      out->stats.dropped++;
      return;
    }
  }

  next = next_time (out);
  if (skip) {
    buf = gst_buffer_copy_region (in, GST_BUFFER_COPY_ALL,
        skip * out->ainfo.bpf, (samples - skip) * out->ainfo.bpf);
    samples -= skip;
  } else {
    buf = gst_buffer_copy (in);
  }
  GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = next;
  GST_BUFFER_DURATION (buf) =
      audio_time (out, out->next_offset + samples) - next;
  GST_BUFFER_OFFSET (buf) = out->next_offset;
  GST_BUFFER_OFFSET_END (buf) = out->next_offset + samples;
  GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_DISCONT);
  out->next_offset += samples;
  push_buffer (out, buf);
}

/* Raw video keeps one size: the one the session announced (the world's
 * session_info resolution, the director's configured size), else the
 * first frame's. A sender that lowers or raises its resolution with loss,
 * bandwidth or CPU (libwebrtc does, unannounced) is scaled back, so a
 * muxer or encoder downstream never sees its caps change. Encoded output
 * cannot be scaled: its caps follow the stream (docs/worldsrc.md). */
static void
choose_size (GstSessionOutput * out, GstCaps * caps)
{
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  gint w = 0, h = 0;

  if (out->width > 0 || !gst_structure_has_name (s, "video/x-raw"))
    return;
  if (gst_structure_get_int (s, "width", &w) &&
      gst_structure_get_int (s, "height", &h) && w > 0 && h > 0 &&
      w <= GST_SESSION_OUTPUT_MAX_SIZE && h <= GST_SESSION_OUTPUT_MAX_SIZE) {
    out->width = w;
    out->height = h;
  }
}

/* The raw video size of the run, when none is chosen yet; a later one
 * (another session's, at another size) is scaled to it: caps that change
 * mid-stream break a muxer. Returns whether the output has that size. */
gboolean
gst_session_output_set_video_size (GstSessionOutput * out, gint width,
    gint height)
{
  gboolean same;

  g_mutex_lock (&out->lock);
  if (out->width == 0 && width > 0 && height > 0 &&
      width <= GST_SESSION_OUTPUT_MAX_SIZE &&
      height <= GST_SESSION_OUTPUT_MAX_SIZE) {
    out->width = width;
    out->height = height;
  }
  same = out->width == width && out->height == height;
  g_mutex_unlock (&out->lock);
  return same;
}

/* @in scaled to @width x @height, or NULL when it has that size already
 * (or cannot be mapped, or is not raw video). Called without the output
 * lock, so that the filler and the other stream go on meanwhile; the
 * scaler is the video stream's own (scale_lock). A frame far larger than
 * the output (a hostile sender: 8192x8192) is not scaled: *@refused. */
static GstBuffer *
scale_frame (GstSessionOutput * out, GstBuffer * in, GstCaps * caps,
    gint width, gint height, gboolean * refused)
{
  GstVideoInfo info;
  GstVideoFrame src, dst;
  GstBuffer *buf = NULL;

  *refused = FALSE;
  if (width <= 0 || !gst_video_info_from_caps (&info, caps) ||
      (GST_VIDEO_INFO_WIDTH (&info) == width &&
          GST_VIDEO_INFO_HEIGHT (&info) == height))
    return NULL;
  if ((guint64) GST_VIDEO_INFO_WIDTH (&info) * GST_VIDEO_INFO_HEIGHT (&info) >
      (guint64) SCALE_MAX_AREA_RATIO * width * height) {
    *refused = TRUE;
    return NULL;
  }
  g_mutex_lock (&out->scale_lock);
  if (out->scaler == NULL || !gst_video_info_is_equal (&info, &out->scale_in)
      || GST_VIDEO_INFO_WIDTH (&out->scale_out) != width
      || GST_VIDEO_INFO_HEIGHT (&out->scale_out) != height) {
    g_clear_pointer (&out->scaler, gst_video_converter_free);
    out->scale_in = info;
    gst_video_info_set_format (&out->scale_out, GST_VIDEO_INFO_FORMAT (&info),
        width, height);
    /* the converter scales, it does not change the rate */
    GST_VIDEO_INFO_FPS_N (&out->scale_out) = GST_VIDEO_INFO_FPS_N (&info);
    GST_VIDEO_INFO_FPS_D (&out->scale_out) = GST_VIDEO_INFO_FPS_D (&info);
    out->scaler = gst_video_converter_new (&out->scale_in, &out->scale_out,
        gst_structure_new ("scaler", GST_VIDEO_CONVERTER_OPT_RESAMPLER_METHOD,
            GST_TYPE_VIDEO_RESAMPLER_METHOD, GST_VIDEO_RESAMPLER_METHOD_LINEAR,
            GST_VIDEO_CONVERTER_OPT_THREADS, G_TYPE_UINT, 1, NULL));
    GST_INFO_OBJECT (out->appsrc, "scaling %dx%d frames to %dx%d",
        GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info), width,
        height);
  }
  if (out->scaler == NULL)
    goto done;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out->scale_out),
      NULL);
  if (!gst_video_frame_map (&src, &out->scale_in, in, GST_MAP_READ)) {
    gst_clear_buffer (&buf);
    goto done;
  }
  if (!gst_video_frame_map (&dst, &out->scale_out, buf, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&src);
    gst_clear_buffer (&buf);
    goto done;
  }
  gst_video_converter_frame (out->scaler, &src, &dst);
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  gst_buffer_copy_into (buf, in, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS | GST_BUFFER_COPY_META, 0, -1);
done:
  g_mutex_unlock (&out->scale_lock);
  return buf;
}

/* a running average over about 16 frames */
#define TIMING_WEIGHT (1.0 / 16)

/* Where a video input's time went (GstSessionOutputStats), at @now,
 * placed at @mapped. Called with the lock. */
static void
note_timing (GstSessionOutput * out, GstBuffer * in, GstCaps * caps,
    GstClockTime now, GstClockTime mapped)
{
  GstClockTime arrival = gst_session_output_arrival_time (in);
  const GstStructure *s = gst_caps_get_structure (caps, 0);
  gdouble ahead = GST_CLOCK_DIFF (now, mapped) / 1e6;

  gst_structure_get_int (s, "width", &out->stats.received_width);
  gst_structure_get_int (s, "height", &out->stats.received_height);
  if (GST_CLOCK_TIME_IS_VALID (arrival) && arrival >= out->base_time) {
    gdouble local = GST_CLOCK_DIFF (arrival - out->base_time, now) / 1e6;

    out->stats.arrival_to_output_ms += (local -
        out->stats.arrival_to_output_ms) * TIMING_WEIGHT;
  }
  out->stats.ahead_ms += (ahead - out->stats.ahead_ms) * TIMING_WEIGHT;
  if (ahead < 0)
    out->stats.late++;
}

/* Pushes one decoded (or parsed) sample of the session onto the timeline.
 * Encoded video starts at a keyframe: until one comes, each input is
 * dropped and the answer says so (the element then asks the sender for
 * one: waiting for the next scheduled keyframe cost up to 1.3 s of a
 * director recording whenever its first frames were not one). */
GstSessionOutputResult
gst_session_output_push (GstSessionOutput * out, GstSample * sample)
{
  GstBuffer *in = gst_sample_get_buffer (sample);
  GstCaps *caps = gst_sample_get_caps (sample);
  GstClockTime now, mapped;
  GstSessionOutputResult result = GST_SESSION_OUTPUT_DROPPED;
  guint64 pushed;

  GstBuffer *scaled = NULL;
  gboolean refused = FALSE;
  gint width, height;

  if (in == NULL || caps == NULL)
    return result;

  if (out->kind == GST_SESSION_OUTPUT_VIDEO) {
    g_mutex_lock (&out->lock);
    choose_size (out, caps);
    width = out->width;
    height = out->height;
    g_mutex_unlock (&out->lock);
    scaled = scale_frame (out, in, caps, width, height, &refused);
  }

  g_mutex_lock (&out->lock);
  if (!out->running || out->ended || out->clock == NULL)
    goto done;
  out->stats.in++;
  out->last_input = g_get_monotonic_time ();
  if (refused) {
    if (out->stats.refused++ == 0)
      GST_WARNING_OBJECT (out->appsrc, "frames of %" GST_PTR_FORMAT " are "
          "over %u times the output's %dx%d: dropped, not scaled", caps,
          SCALE_MAX_AREA_RATIO, out->width, out->height);
    out->stats.dropped++;
    goto done;
  }
  if (scaled) {
    out->stats.scaled++;
    in = scaled;
  }
  set_caps (out, caps);
  if (!out->raw && out->kind == GST_SESSION_OUTPUT_VIDEO) {
    if (out->need_keyframe &&
        GST_BUFFER_FLAG_IS_SET (in, GST_BUFFER_FLAG_DELTA_UNIT)) {
      GST_LOG_OBJECT (out->appsrc, "input %" GST_TIME_FORMAT " dropped: "
          "waiting for a keyframe", GST_TIME_ARGS (GST_BUFFER_PTS (in)));
      out->stats.dropped++;
      result = GST_SESSION_OUTPUT_WANTS_KEYFRAME;
      goto done;
    }
    out->need_keyframe = FALSE;
  }

  now = running_now (out);
  if (out->started && gst_session_output_hold_begins (out, in, now)) {
    g_mutex_unlock (&out->lock);
    gst_session_output_hold_wait (out);
    g_mutex_lock (&out->lock);
    if (!out->running || out->ended || out->clock == NULL)
      goto done;
  }
  pushed = out->stats.out;
  mapped = gst_session_output_place (out, in, now);
  if (out->kind == GST_SESSION_OUTPUT_VIDEO)
    note_timing (out, in, caps, now, mapped);
  GST_LOG_OBJECT (out->appsrc, "input %" GST_TIME_FORMAT "%s at %"
      GST_TIME_FORMAT ": placed at %" GST_TIME_FORMAT,
      GST_TIME_ARGS (GST_BUFFER_PTS (in)),
      GST_BUFFER_FLAG_IS_SET (in, GST_BUFFER_FLAG_DELTA_UNIT) ? "" : " (key)",
      GST_TIME_ARGS (now), GST_TIME_ARGS (mapped));
  if (!out->started) {
    GstClockTime origin;

    g_mutex_lock (&out->origin->lock);
    origin = out->origin->origin;
    g_mutex_unlock (&out->origin->lock);
    /* the first video frame sets the origin and the frame grid: audio that
     * comes before it waits (it is cut at the origin), so both start at
     * the same instant of the sender's timeline */
    if (out->kind == GST_SESSION_OUTPUT_AUDIO && out->origin->has_video &&
        !GST_CLOCK_TIME_IS_VALID (origin)) {
      out->stats.dropped++;
      goto done;
    }
    start_timeline (out, mapped);
  }
  if (out->kind == GST_SESSION_OUTPUT_VIDEO)
    push_video (out, in, mapped, now);
  else
    push_audio (out, in, mapped);
  if (out->stats.out > pushed)
    result = GST_SESSION_OUTPUT_PLACED;

done:
  g_mutex_unlock (&out->lock);
  gst_clear_buffer (&scaled);
  return result;
}

/* A new session feeds this output from now on: encoded output must start
 * again at a keyframe. */
void
gst_session_output_new_session (GstSessionOutput * out)
{
  g_mutex_lock (&out->lock);
  out->need_keyframe = TRUE;
  g_mutex_unlock (&out->lock);
  g_mutex_lock (&out->origin->lock);
  /* the new session's sender reports give a new offset */
  gst_session_output_origin_reset (out->origin, out->kind);
  g_mutex_unlock (&out->origin->lock);
}

/* The stream truly ends: EOS, so muxers finalise. */
void
gst_session_output_end (GstSessionOutput * out)
{
  g_mutex_lock (&out->lock);
  if (out->ended) {
    g_mutex_unlock (&out->lock);
    return;
  }
  out->ended = TRUE;
  g_cond_broadcast (&out->cond);
  if (out->wait_id)
    gst_clock_id_unschedule (out->wait_id);
  gst_session_output_origin_release (out->origin);
  GST_INFO_OBJECT (out->appsrc, "end of stream after %" G_GUINT64_FORMAT
      " buffers (%" G_GUINT64_FORMAT " repeated)", out->stats.out,
      out->stats.repeated);
  g_mutex_unlock (&out->lock);
  gst_app_src_end_of_stream (GST_APP_SRC (out->appsrc));
}

gboolean
gst_session_output_is_ended (GstSessionOutput * out)
{
  gboolean ended;

  g_mutex_lock (&out->lock);
  ended = out->ended;
  g_mutex_unlock (&out->lock);
  return ended;
}

/* Where the timeline stands: the running time of the next output, or NONE
 * before any output. */
GstClockTime
gst_session_output_get_end (GstSessionOutput * out)
{
  GstClockTime end;

  g_mutex_lock (&out->lock);
  end = out->started && !out->ended ? next_time (out) : GST_CLOCK_TIME_NONE;
  g_mutex_unlock (&out->lock);
  return end;
}

/* Fills up to @end (the last frame repeated, silence), so that all the
 * outputs of an element end together. Bounded. */
void
gst_session_output_fill_to (GstSessionOutput * out, GstClockTime end)
{
  g_mutex_lock (&out->lock);
  fill_to_locked (out, end);
  g_mutex_unlock (&out->lock);
}

/* Input arrived but is not used (yet): what is in flight still comes
 * (the end's drain waits for it), but it does not reach the output: the
 * media watchdog does not count it */
void
gst_session_output_touch (GstSessionOutput * out)
{
  g_mutex_lock (&out->lock);
  out->last_arrival = g_get_monotonic_time ();
  g_mutex_unlock (&out->lock);
}

/* monotonic µs of the last input that reached the output stage */
gint64
gst_session_output_get_last_input (GstSessionOutput * out)
{
  gint64 t;

  g_mutex_lock (&out->lock);
  t = out->last_input;
  g_mutex_unlock (&out->lock);
  return t;
}

/* monotonic µs of the last input that arrived, used or not */
gint64
gst_session_output_get_last_arrival (GstSessionOutput * out)
{
  gint64 t;

  g_mutex_lock (&out->lock);
  t = MAX (out->last_input, out->last_arrival);
  g_mutex_unlock (&out->lock);
  return t;
}

void
gst_session_output_get_stats (GstSessionOutput * out,
    GstSessionOutputStats * stats)
{
  g_mutex_lock (&out->lock);
  *stats = out->stats;
  g_mutex_unlock (&out->lock);
}
