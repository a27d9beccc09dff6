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
 *   shared by both streams (see map_input): audio and video keep the
 *   sender's relation. The sender timestamp is its capture time from the
 *   sender reports (rtpbin's reference timestamp meta, see sender_time)
 *   once they came, before that the jitterbuffer's timestamp;
 * - video is a constant-rate sequence of slots: a frame takes the slot
 *   nearest its time, slots before it repeat the last frame, a frame whose
 *   slot is taken is dropped; when input is overdue (a stall, a renewal) a
 *   clock-driven filler thread repeats the last frame slot by slot;
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
 *   dropped or cut as late, unless that delay lasts (see map_input).
 *
 * Locking: out->lock protects the timeline and is held while pushing into
 * the appsrc (which only queues). Order: out->lock, then origin->lock.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/app/gstappsrc.h>
#include <gst/audio/audio.h>
#include <gst/video/video.h>

#include "gstsessionoutput.h"

GST_DEBUG_CATEGORY_STATIC (session_output_debug);
#define GST_CAT_DEFAULT session_output_debug

/* audio is filled in chunks of this many milliseconds */
#define AUDIO_FILL_MS 20
/* input later than this is a gap (audio) */
#define AUDIO_OVERDUE (100 * GST_MSECOND)
/* a stream's latency moving by more than this is taken at once (a smaller
 * rise: see latency_rise_limit) */
#define LATENCY_JUMP (100 * GST_MSECOND)
/* inputs over which a stream's latency settles (its least delayed) */
#define LATENCY_SETTLE 12
/* audio within this of its place follows on (no fill, no cut) */
#define AUDIO_TOLERANCE(out) ((out)->ainfo.rate / 100)
/* The latency a pad reports is its overdue limit (when the filler steps in)
 * plus this: the filler's thread wakes at the limit and, on a loaded
 * machine, pushes some ms after it (the soak measured 11-15 ms over the
 * limit); a muxer waits for what the latency announces */
#define FILL_MARGIN (30 * GST_MSECOND)
/* a filler iteration pushes at most this much before looking again */
#define MAX_FILL_PER_WAKE 64
/* a sender time this far from where the others put it is not believed */
#define NTP_IMPLAUSIBLE (500 * GST_MSECOND)
/* the offset from sender time to running time follows the jitterbuffer's
 * timestamps by 1/this of each input's difference: it tracks the drift of
 * the two clocks (a time constant of some seconds), not their noise */
#define NTP_FOLLOW 256
/* a rise made of local delay (see map_input) is taken once it lasted this
 * long */
#define LOCAL_PERSIST GST_SECOND
/* a jitterbuffer timestamp this far after the input's arrival is not an
 * arrival estimate (see sender_time) */
#define JB_AHEAD_LIMIT (100 * GST_MSECOND)

struct _GstSessionOutput
{
  GstSessionOutputKind kind;
  GstElement *appsrc;
  GstPad *ghost;
  GstSessionOutputOrigin *origin;

  GMutex lock;
  GCond cond;
  GThread *filler;
  gboolean running;
  GstClock *clock;
  GstClockTime base_time;
  GstClockID wait_id;

  gint fps_n, fps_d;
  GstClockTime frame_duration;
  GstCaps *caps;
  gboolean raw;
  gboolean need_keyframe;
  GstAudioInfo ainfo;

  gboolean started;
  gboolean ended;
  GstClockTime next_pts;        /* video: next slot */
  GstClockTime last_pts;        /* encoded video: the last frame pushed */
  guint64 next_offset;          /* audio: samples since the origin */
  GstBuffer *last;              /* video: last frame, for repeats */
  gint64 last_input;            /* monotonic µs of the last input */
  GstClockTime recovery;        /* placement delay for retransmissions */
  gint width, height;           /* raw video output size; 0: not chosen */
  gint caps_width;              /* the width the output caps say */
  GstVideoConverter *scaler;    /* for frames of another size */
  GstVideoInfo scale_in, scale_out;
  GstSessionOutputStats stats;
};

static gpointer filler_loop (gpointer data);

/* A new session (or none) feeds the outputs: its latencies and sender
 * time offset are its own. Called with the origin lock. */
static void
origin_reset_session (GstSessionOutputOrigin * o, GstSessionOutputKind k)
{
  o->have_latency[k] = FALSE;
  o->rise_pending[k] = FALSE;
  o->have_local[k] = FALSE;
  o->by_sender[k] = FALSE;
  o->initial[k] = TRUE;
  o->ahead[k] = FALSE;
  o->have_ntp_offset = FALSE;
  o->have_common = FALSE;
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

  if (out->kind == GST_SESSION_OUTPUT_AUDIO)
    latency = AUDIO_OVERDUE;
  else if (GST_CLOCK_TIME_IS_VALID (out->frame_duration))
    latency = out->frame_duration + out->frame_duration / 2;
  else
    latency = 100 * GST_MSECOND;
  latency += FILL_MARGIN + out->recovery;
  g_object_set (out->appsrc, "min-latency", (gint64) latency,
      "max-latency", (gint64) - 1, NULL);
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
  gst_clear_buffer (&out->last);
  g_mutex_lock (&out->origin->lock);
  origin_reset_session (out->origin, out->kind);
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
  origin_reset_session (out->origin, out->kind);
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

static GstClockTime
overdue_limit (GstSessionOutput * out)
{
  if (out->kind == GST_SESSION_OUTPUT_AUDIO)
    return AUDIO_OVERDUE;
  return out->frame_duration + out->frame_duration / 2;
}

/* Inputs showing a rise must come at least this far apart to confirm it:
 * those queued behind one held-up input come all at once. */
static GstClockTime
rise_spacing (GstSessionOutput * out)
{
  if (out->kind == GST_SESSION_OUTPUT_VIDEO &&
      GST_CLOCK_TIME_IS_VALID (out->frame_duration))
    return out->frame_duration / 2;
  return AUDIO_FILL_MS / 2 * GST_MSECOND;
}

/* A latency rise beyond this is taken at once. Smaller rises are left to
 * the jitter: the inputs still reach their place before the filler does.
 * A larger one left alone would put every later input into a slot the
 * filler already took, and all would be dropped (a frame is safe while it
 * is at most its overdue limit less half a slot later than its place). */
static GstClockTimeDiff
latency_rise_limit (GstSessionOutput * out)
{
  if (out->kind == GST_SESSION_OUTPUT_AUDIO)
    return AUDIO_OVERDUE / 2;
  if (!GST_CLOCK_TIME_IS_VALID (out->frame_duration))
    return LATENCY_JUMP;
  return MIN (LATENCY_JUMP, (GstClockTimeDiff) (overdue_limit (out) -
          out->frame_duration / 2));
}

static void
push_buffer (GstSessionOutput * out, GstBuffer * buf)
{
  out->stats.out++;
  gst_app_src_push_buffer (GST_APP_SRC (out->appsrc), buf);
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
      push_buffer (out, buf);
    }
    out->next_pts += dur;
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
      out->caps_width == out->width)
    return;
  out->caps_width = out->width;
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

static GstCaps *
ntp_reference_caps (void)
{
  static GstCaps *caps;

  if (g_once_init_enter (&caps)) {
    GstCaps *c = gst_caps_new_empty_simple ("timestamp/x-ntp");

    GST_MINI_OBJECT_FLAG_SET (c, GST_MINI_OBJECT_FLAG_MAY_BE_LEAKED);
    g_once_init_leave (&caps, c);
  }
  return caps;
}

/* A stream's timestamps change basis: its latency is another number from
 * now on, taken anew at its next input, and the pair's does not fall for
 * it (see map_input). Called with the origin lock. */
static void
take_latency_anew (GstSessionOutputOrigin * o, GstSessionOutputKind k)
{
  if (o->have_latency[k]) {
    o->have_latency[k] = FALSE;
    o->initial[k] = FALSE;
  }
}

/* The input's arrival from the network, clock time: the latest of its
 * packets' (a frame's packets each carry one, see
 * GST_SESSION_OUTPUT_ARRIVAL), or NONE */
static GstClockTime
arrival_time (GstBuffer * in)
{
  GstClockTime latest = GST_CLOCK_TIME_NONE;
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta_filtered (in, &state,
              GST_REFERENCE_TIMESTAMP_META_API_TYPE))) {
    GstReferenceTimestampMeta *r = (GstReferenceTimestampMeta *) meta;

    if (r->reference && GST_CLOCK_TIME_IS_VALID (r->timestamp) &&
        gst_structure_has_name (gst_caps_get_structure (r->reference, 0),
            GST_SESSION_OUTPUT_ARRIVAL) &&
        (!GST_CLOCK_TIME_IS_VALID (latest) || r->timestamp > latest))
      latest = r->timestamp;
  }
  return latest;
}

/* How much of a rise of the input's latency is local delay: the time from
 * its arrival from the network to the output (decoding, a thread that
 * waited for the CPU) beyond the least seen, or -1 when the input has no
 * arrival. Called with the origin lock. */
static GstClockTimeDiff
local_excess (GstSessionOutput * out, GstBuffer * in, GstClockTime now)
{
  GstSessionOutputOrigin *o = out->origin;
  GstClockTime arrival = arrival_time (in);
  GstClockTimeDiff local;
  gint k = out->kind;

  if (!GST_CLOCK_TIME_IS_VALID (arrival))
    return -1;
  local = GST_CLOCK_DIFF (arrival, now + out->base_time);
  GST_LOG_OBJECT (out->appsrc, "%" GST_STIME_FORMAT " from arrival to "
      "output", GST_STIME_ARGS (local));
  if (!o->have_local[k] || local < o->local_base[k]) {
    o->local_base[k] = local;
    o->have_local[k] = TRUE;
  }
  return local - o->local_base[k];
}

/* The input's sender time, as running time. rtpbin's lip-sync moves one
 * stream's timestamps at each sender report by its estimate of the two
 * streams' arrival delays, which on a loaded machine is off by up to 100
 * ms and more from one report to the next (measured: 38 to 198 ms within
 * 10 s). The sender reports also give each input its capture time on the
 * sender's clock (the reference timestamp meta rtpbin adds, kept by the
 * depayloaders and decoders): one clock for both streams, so their
 * relation is the sender's exactly. It is brought to running time by one
 * offset per session, shared by both streams, that follows the
 * jitterbuffer's timestamps slowly (the drift of the two clocks). Before
 * the first report, and for a capture time far from the others, the
 * jitterbuffer's timestamp. Called with the origin lock. */
static GstClockTime
sender_time (GstSessionOutputOrigin * o, GstSessionOutputKind k,
    GstBuffer * in, GstClockTime now, gboolean * by_sender)
{
  GstClockTime pts = GST_BUFFER_PTS (in);
  GstReferenceTimestampMeta *meta;
  GstClockTimeDiff diff;

  *by_sender = FALSE;
  meta = gst_buffer_get_reference_timestamp_meta (in, ntp_reference_caps ());
  if (!GST_CLOCK_TIME_IS_VALID (pts))
    return pts;
  /* The jitterbuffer's timestamps are its arrival estimates: one far
   * after the input's real arrival is none. At a session's start the
   * sender's first packets come in a burst (queued while DTLS was set
   * up), the jitterbuffer takes the first one's late arrival as its
   * reference, and the next ones' timestamps run ahead of their arrival
   * by the burst's delay (0.4-0.6 s on the Internet profile; the video's
   * frames then came with one timestamp, clamped, and the latency rose by
   * 335 ms once they caught up: a 335 ms gap in a recording's audio).
   * Once seen, the stream's inputs are taken as arriving now until its
   * first one with a capture time from the sender reports (a jitter's few
   * ms ahead is normal: in-order packets leave the jitterbuffer at once).
   * After that an input without one is the decoder's (loss concealment),
   * placed by its own timestamp (see map_input). */
  if (meta == NULL || !GST_CLOCK_TIME_IS_VALID (meta->timestamp)) {
    if (o->by_sender[k])
      return pts;
    if (GST_CLOCK_DIFF (now, pts) > JB_AHEAD_LIMIT && !o->ahead[k]) {
      GST_DEBUG ("%s: jitterbuffer timestamps %" GST_STIME_FORMAT " ahead "
          "of arrival: placed by arrival until the sender reports",
          k == GST_SESSION_OUTPUT_VIDEO ? "video" : "audio",
          GST_STIME_ARGS (GST_CLOCK_DIFF (now, pts)));
      o->ahead[k] = TRUE;
      /* another basis, as when the sender's times come: the latency is
       * taken anew, and the pair's does not fall for it (taken as a fall
       * of 134 ms while the stream settled, it cut the audio already out:
       * a sync click lost under load) */
      take_latency_anew (o, k);
    }
    return o->ahead[k] ? now : pts;
  }
  /* the offset is taken from the arrival too while the jitterbuffer runs
   * ahead of it */
  o->ahead[k] = FALSE;
  if (GST_CLOCK_DIFF (now, pts) > JB_AHEAD_LIMIT)
    pts = now;
  diff = GST_CLOCK_DIFF (meta->timestamp, pts);
  GST_LOG ("sender time %" GST_TIME_FORMAT ", jitterbuffer %" GST_TIME_FORMAT
      ", offset %" GST_STIME_FORMAT, GST_TIME_ARGS (meta->timestamp),
      GST_TIME_ARGS (pts), GST_STIME_ARGS (o->ntp_offset));
  if (!o->have_ntp_offset) {
    o->ntp_offset = diff;
    o->have_ntp_offset = TRUE;
  } else if (ABS (diff - o->ntp_offset) > NTP_IMPLAUSIBLE) {
    return pts;
  } else {
    /* both streams': following one alone, the offset fell behind the
     * clocks' drift and the shared latency rose in 45 ms steps every few
     * seconds at rest (a click 175-195 ms from its marker, 3 runs of 7) */
    o->ntp_offset += (diff - o->ntp_offset) / NTP_FOLLOW;
  }
  if (o->ntp_offset < 0 && meta->timestamp < (GstClockTime) - o->ntp_offset)
    return pts;
  *by_sender = TRUE;
  return meta->timestamp + o->ntp_offset;
}

/* The running time on the output timeline of an input. Each stream's
 * transport latency (arrival minus the sender's timestamp, as the
 * jitterbuffer and rtpbin's RTCP sync give it) is tracked, smoothed; both
 * streams are then placed at their sender timestamp plus the larger of the
 * two latencies: audio and video keep the sender's relation even when one
 * takes longer to encode or decode. A latency that jumps (a sender
 * resuming after a pause, RTCP sync moving a stream) is taken at once;
 * once settled, a smaller rise of more than a frame is taken when a later
 * input confirms it, as late inputs would otherwise all be dropped. A
 * rise made of local delay (the input came from the network on time, the
 * decoder was late) is taken only once it lasted LOCAL_PERSIST. */
static GstClockTime
map_input (GstSessionOutput * out, GstBuffer * in, GstClockTime now)
{
  GstSessionOutputOrigin *o = out->origin;
  GstClockTime pts;
  GstClockTimeDiff lat, rise, common;
  GstClockTimeDiff local;
  gint k = out->kind, other = 1 - out->kind;
  gboolean by_sender, is_local;

  g_mutex_lock (&o->lock);
  pts = sender_time (o, k, in, now, &by_sender);
  if (!GST_CLOCK_TIME_IS_VALID (pts)) {
    g_mutex_unlock (&o->lock);
    return now;
  }
  if (!by_sender && o->by_sender[k] && o->have_common) {
    /* made by the decoder, not sent (loss concealment: after a stall,
     * 2 s of it at once, stamped at the stall's start): no capture time,
     * and its arrival says nothing of the path. Placed by its own
     * timestamp at the current latency; one from the past is cut */
    common = o->common;
    g_mutex_unlock (&o->lock);
    return pts + common + out->recovery;
  }
  if (by_sender && !o->by_sender[k]) {
    /* the stream's timestamps change basis, from its arrivals to the
     * sender's clock: its latency is another number from now on, taken
     * anew (not a jump of the path's delay) */
    o->by_sender[k] = TRUE;
    if (o->have_latency[k])
      GST_DEBUG_OBJECT (out->appsrc, "placed by the sender's capture times "
          "from now on");
    take_latency_anew (o, k);
  }
  lat = GST_CLOCK_DIFF (pts, now);
  rise = o->have_latency[k] ? lat - o->latency[k] : 0;
  local = local_excess (out, in, now);
  /* a rise within the recovery delay is what the delay is there for (a
   * retransmission, a lost packet waited for, the jitterbuffer's latency
   * raised once media flows): the input still comes before its place.
   * Taken as a new latency it moved both streams later for good, a gap
   * in the timeline (160-240 ms of audio, Internet profile) */
  if (rise > 0)
    rise -= MIN (rise, (GstClockTimeDiff) out->recovery);
  if (!out->raw && o->have_latency[k] && rise <= LATENCY_JUMP) {
    /* encoded output keeps the sender's spacing: its first input's
     * latency stays (the jitterbuffer holds the first packets, so the
     * next ones come with less; placed anew, they bunched half a slot
     * apart); an input that arrives earlier than that is placed later
     * than it came, which costs nothing, as none is dropped. One on time
     * after a late one shows that one was jitter (a retransmission lost
     * again): left pending, any late input seconds later confirmed it,
     * and the timeline jumped (Internet path: gaps of 0.5-1.1 s) */
    o->rise_pending[k] = FALSE;
  } else if (!o->have_latency[k] || rise < -LATENCY_JUMP) {
    /* the first input, or one much earlier than the latency says (a
     * sender resuming with timestamps ahead, the first frame held up by
     * the decoder's start): taken at once */
    if (o->have_latency[k]) {
      GST_DEBUG_OBJECT (out->appsrc, "latency fell from %" GST_STIME_FORMAT
          " to %" GST_STIME_FORMAT, GST_STIME_ARGS (o->latency[k]),
          GST_STIME_ARGS (lat));
      if (o->settle[k] == 0)
        o->initial[k] = FALSE;
    }
    o->latency[k] = lat;
    o->have_latency[k] = TRUE;
    o->settle[k] = LATENCY_SETTLE;
    o->rise_pending[k] = FALSE;
  } else if (rise > latency_rise_limit (out) &&
      (o->settle[k] == 0 || rise > LATENCY_JUMP)) {
    /* a rise is taken when a later input shows it too: one late input is
     * jitter, left alone, and so are those queued behind it (they come
     * with it, not at their own pace). So is one input far behind the
     * others (after a stall, the audio decoder let go of a block from
     * before it, 2 s old): taken, it moved both streams 2 s later for
     * the rest of the session.
     * A rise the input's local delay explains (the path's share of it
     * under the limit) is the machine's: a decoder that stalled on a
     * loaded CPU, then let the frames out as it caught up. Those are late
     * for their place, dropped or cut, and the latency stays: taken, the
     * stream moved later than the other one's inputs already out (a sync
     * marker 105-419 ms after its click, under load). A local delay that
     * lasts is taken: every input would be dropped. */
    is_local = local >= 0 && rise - local <= latency_rise_limit (out);
    if (!o->rise_pending[k]) {
      o->rise_pending[k] = TRUE;
      o->rise_at[k] = now;
      o->rise_lat[k] = lat;
      o->rise_local[k] = is_local;
    } else if ((o->rise_local[k] = o->rise_local[k] && is_local),
        now >= o->rise_at[k] + (o->rise_local[k] ? LOCAL_PERSIST :
            rise_spacing (out))) {
      GST_DEBUG_OBJECT (out->appsrc, "latency rose from %" GST_STIME_FORMAT
          " to %" GST_STIME_FORMAT "%s", GST_STIME_ARGS (o->latency[k]),
          GST_STIME_ARGS (MIN (lat, o->rise_lat[k])),
          o->rise_local[k] ? " (local delay that lasted)" : "");
      if (rise > LATENCY_JUMP)
        o->initial[k] = FALSE;
      o->latency[k] = MIN (lat, o->rise_lat[k]);
      /* the local delay this input has is the usual from now on */
      if (o->rise_local[k])
        o->local_base[k] += local;
      o->rise_pending[k] = FALSE;
    }
  } else {
    o->rise_pending[k] = FALSE;
    if (o->settle[k] > 0) {
      /* the first inputs may be held up (decoder start, a keyframe wait):
       * the least delayed of them sets the latency, which then stays */
      o->settle[k]--;
      o->latency[k] = MIN (o->latency[k], lat);
      if (o->settle[k] == 0)
        o->initial[k] = FALSE;
    }
  }
  /* Both streams are placed at one latency, the larger of the two. It
   * rises with either, so that both keep their relation. With two streams
   * it falls only while a stream settles at the start of the session: a
   * fall moves the other stream earlier too, and audio that was already
   * out is cut (a click lost under load, when the video's timestamps
   * changed basis). A stream whose own latency falls later (its
   * timestamps moved ahead) is placed later alone: a gap in that stream,
   * filled, and the pair keeps its relation. */
  common = o->latency[k];
  if (o->have_latency[other])
    common = MAX (common, o->latency[other]);
  if (o->have_common && common < o->common && o->have_latency[other] &&
      !o->initial[k])
    common = o->common;
  o->common = common;
  o->have_common = TRUE;
  g_mutex_unlock (&o->lock);
  return pts + common + out->recovery;
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

static void
push_video (GstSessionOutput * out, GstBuffer * in, GstClockTime mapped)
{
  GstClockTime d = out->frame_duration, slot;
  GstBuffer *buf;
  guint n = 0;

  /* the slot nearest to the input's time */
  slot = out->origin->origin +
      gst_util_uint64_scale_round (mapped > out->origin->origin ?
      mapped - out->origin->origin : 0, 1, d) * d;
  if (!out->raw) {
    push_encoded_video (out, in, slot);
    return;
  }
  if (slot + d / 2 < out->next_pts) {
    /* its slot is taken (filled while it was late): dropped */
    GST_LOG_OBJECT (out->appsrc, "frame at %" GST_TIME_FORMAT " late, its "
        "slot is taken (next %" GST_TIME_FORMAT "): dropped",
        GST_TIME_ARGS (mapped), GST_TIME_ARGS (out->next_pts));
    out->stats.dropped++;
    return;
  }
  /* slots before it: the last frame repeated, or this first frame shown
   * early */
  while (out->next_pts + d / 2 < slot && n++ < 10 * MAX_FILL_PER_WAKE) {
    buf = gst_buffer_copy (out->last ? out->last : in);
    GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = out->next_pts;
    GST_BUFFER_DURATION (buf) = d;
    GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_DISCONT);
    push_buffer (out, buf);
    out->stats.repeated++;
    out->stats.filled += d;
    out->next_pts += d;
  }
  buf = gst_buffer_copy (in);
  GST_BUFFER_PTS (buf) = GST_BUFFER_DTS (buf) = out->next_pts;
  GST_BUFFER_DURATION (buf) = d;
  GST_BUFFER_FLAG_UNSET (buf, GST_BUFFER_FLAG_DISCONT);
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
      gst_structure_get_int (s, "height", &h) && w > 0 && h > 0) {
    out->width = w;
    out->height = h;
  }
}

void
gst_session_output_set_video_size (GstSessionOutput * out, gint width,
    gint height)
{
  g_mutex_lock (&out->lock);
  if (width > 0 && height > 0 && width <= 8192 && height <= 8192) {
    out->width = width;
    out->height = height;
  }
  g_mutex_unlock (&out->lock);
}

/* @in scaled to the output size, or NULL when it has that size already
 * (or cannot be mapped). Called with the lock. */
static GstBuffer *
scale_frame (GstSessionOutput * out, GstBuffer * in, GstCaps * caps)
{
  GstVideoInfo info;
  GstVideoFrame src, dst;
  GstBuffer *buf;

  if (out->width <= 0 || !gst_video_info_from_caps (&info, caps) ||
      (GST_VIDEO_INFO_WIDTH (&info) == out->width &&
          GST_VIDEO_INFO_HEIGHT (&info) == out->height))
    return NULL;
  if (out->scaler == NULL || !gst_video_info_is_equal (&info, &out->scale_in)) {
    g_clear_pointer (&out->scaler, gst_video_converter_free);
    out->scale_in = info;
    gst_video_info_set_format (&out->scale_out, GST_VIDEO_INFO_FORMAT (&info),
        out->width, out->height);
    out->scaler = gst_video_converter_new (&out->scale_in, &out->scale_out,
        gst_structure_new ("scaler", GST_VIDEO_CONVERTER_OPT_RESAMPLER_METHOD,
            GST_TYPE_VIDEO_RESAMPLER_METHOD, GST_VIDEO_RESAMPLER_METHOD_LINEAR,
            GST_VIDEO_CONVERTER_OPT_THREADS, G_TYPE_UINT, 1, NULL));
    GST_INFO_OBJECT (out->appsrc, "scaling %dx%d frames to %dx%d",
        GST_VIDEO_INFO_WIDTH (&info), GST_VIDEO_INFO_HEIGHT (&info),
        out->width, out->height);
  }
  if (out->scaler == NULL)
    return NULL;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out->scale_out),
      NULL);
  if (!gst_video_frame_map (&src, &out->scale_in, in, GST_MAP_READ)) {
    gst_buffer_unref (buf);
    return NULL;
  }
  if (!gst_video_frame_map (&dst, &out->scale_out, buf, GST_MAP_WRITE)) {
    gst_video_frame_unmap (&src);
    gst_buffer_unref (buf);
    return NULL;
  }
  gst_video_converter_frame (out->scaler, &src, &dst);
  gst_video_frame_unmap (&dst);
  gst_video_frame_unmap (&src);
  gst_buffer_copy_into (buf, in, GST_BUFFER_COPY_FLAGS |
      GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
  out->stats.scaled++;
  return buf;
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

  if (in == NULL || caps == NULL)
    return result;

  g_mutex_lock (&out->lock);
  if (!out->running || out->ended || out->clock == NULL)
    goto done;
  out->stats.in++;
  out->last_input = g_get_monotonic_time ();

  if (out->kind == GST_SESSION_OUTPUT_VIDEO)
    choose_size (out, caps);
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

  pushed = out->stats.out;
  now = running_now (out);
  mapped = map_input (out, in, now);
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
  if (out->kind == GST_SESSION_OUTPUT_VIDEO && out->raw) {
    GstBuffer *scaled = scale_frame (out, in, caps);

    push_video (out, scaled ? scaled : in, mapped);
    gst_clear_buffer (&scaled);
  } else if (out->kind == GST_SESSION_OUTPUT_VIDEO) {
    push_video (out, in, mapped);
  } else {
    push_audio (out, in, mapped);
  }
  if (out->stats.out > pushed)
    result = GST_SESSION_OUTPUT_PLACED;

done:
  g_mutex_unlock (&out->lock);
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
  origin_reset_session (out->origin, out->kind);
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

/* Input arrived but is not used (yet): it still shows the peer is alive. */
void
gst_session_output_touch (GstSessionOutput * out)
{
  g_mutex_lock (&out->lock);
  out->last_input = g_get_monotonic_time ();
  g_mutex_unlock (&out->lock);
}

gint64
gst_session_output_get_last_input (GstSessionOutput * out)
{
  gint64 t;

  g_mutex_lock (&out->lock);
  t = out->last_input;
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
