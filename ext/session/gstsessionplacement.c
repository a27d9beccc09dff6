/* gst-session
 * Copyright (C) 2026 gst-session developers
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Where an input goes on the output timeline (gstsessionoutput.c): its
 * sender time (the capture time of the sender reports, or the
 * jitterbuffer's timestamp, or its arrival), plus one transport latency
 * shared by audio and video, which follows the path: settled over a
 * session's first inputs, raised when a rise is confirmed, not for one
 * held-up input nor for the machine's own delay (decoding on a loaded
 * CPU, told by each input's arrival meta). The state is the origin's,
 * shared by the element's outputs, under its lock.
 */

#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsessionoutput-private.h"

#define GST_CAT_DEFAULT session_output_debug

/* a stream's latency moving by more than this is taken at once (a smaller
 * rise: see latency_rise_limit) */
#define LATENCY_JUMP (100 * GST_MSECOND)
/* inputs over which a stream's latency settles (its least delayed) */
#define LATENCY_SETTLE 12
/* a sender time this far from where the others put it is not believed */
#define NTP_IMPLAUSIBLE (500 * GST_MSECOND)
/* the offset from sender time to running time follows the jitterbuffer's
 * timestamps by 1/this of each input's difference: it tracks the drift of
 * the two clocks (a time constant of some seconds), not their noise */
#define NTP_FOLLOW 256
/* a rise made of local delay (see gst_session_output_place) is taken once
 * it lasted this long */
#define LOCAL_PERSIST GST_SECOND
/* in a session's first this long, a rise is taken as soon as confirmed,
 * local delay or not: the decoder's start on a loaded machine lags for
 * seconds, and a rise put off for LOCAL_PERSIST came as the director's
 * first sync marker did (placed 750-960 ms after its click) */
#define LOCAL_START_GRACE (3 * GST_SECOND)
/* a jitterbuffer timestamp this far after the input's arrival is not an
 * arrival estimate (see sender_time) */
#define JB_AHEAD_LIMIT (100 * GST_MSECOND)
/* a stream whose inputs stop this long paused (a stall of the sender, an
 * outage): what was known of its timing before may not hold after it */
#define STREAM_PAUSE (500 * GST_MSECOND)
/* an input held this long after its arrival (beyond the least) does not
 * tell the stream's usual latency */
#define USUAL_LOCAL_LIMIT (50 * GST_MSECOND)

/* After a pause the sender announced, the stream that resumes first waits
 * for the other, up to this long (real time) */
#define RESUME_WAIT (250 * G_TIME_SPAN_MILLISECOND)
/* such a pause is expected this long after the end the sender announced
 * (its media come back a little after it) */
#define PAUSE_MARGIN (2 * G_TIME_SPAN_SECOND)

void
gst_session_output_origin_init (GstSessionOutputOrigin * o)
{
  guint k;

  memset (o, 0, sizeof (*o));
  g_mutex_init (&o->lock);
  g_cond_init (&o->cond);
  o->origin = GST_CLOCK_TIME_NONE;
  o->resume_wait = RESUME_WAIT;
  for (k = 0; k < 2; k++) {
    o->first_at[k] = o->last_end[k] = GST_CLOCK_TIME_NONE;
    o->in_at[k] = o->in_end[k] = GST_CLOCK_TIME_NONE;
  }
}

void
gst_session_output_origin_clear (GstSessionOutputOrigin * o)
{
  g_mutex_clear (&o->lock);
  g_cond_clear (&o->cond);
}

/* The sender announced a pause of its media until @until (monotonic µs):
 * see gst_session_output_hold_begins */
void
gst_session_output_origin_announce_pause (GstSessionOutputOrigin * o,
    gint64 until)
{
  g_mutex_lock (&o->lock);
  o->pause_until = until + PAUSE_MARGIN;
  g_mutex_unlock (&o->lock);
}

/* A stream that waits for the other (gst_session_output_hold_begins)
 * waits no more: the session's streams are stopping */
void
gst_session_output_origin_release (GstSessionOutputOrigin * o)
{
  g_mutex_lock (&o->lock);
  o->holding[0] = o->holding[1] = FALSE;
  o->pause_until = 0;
  g_cond_broadcast (&o->cond);
  g_mutex_unlock (&o->lock);
}

/* A new session (or none) feeds the outputs: its latencies and sender
 * time offset are its own. Called with the origin lock. */
void
gst_session_output_origin_reset (GstSessionOutputOrigin * o,
    GstSessionOutputKind k)
{
  o->have_latency[k] = FALSE;
  o->rise_pending[k] = FALSE;
  o->window_open[k] = FALSE;
  o->have_local[k] = FALSE;
  o->first_at[k] = GST_CLOCK_TIME_NONE;
  o->by_sender[k] = FALSE;
  o->basis[k] = 0;
  o->initial[k] = TRUE;
  o->ahead[k] = FALSE;
  o->have_ntp_offset = FALSE;
  o->have_common = FALSE;
  o->synced = FALSE;
  o->synced_told = FALSE;
  o->last_end[0] = o->last_end[1] = GST_CLOCK_TIME_NONE;
  o->in_at[k] = o->in_end[k] = GST_CLOCK_TIME_NONE;
  o->have_usual[k] = FALSE;
  /* a hold of this stream ends (see gst_session_output_hold_begins) */
  o->holding[k] = FALSE;
  o->resuming[k] = FALSE;
  o->pause_until = 0;
  g_cond_broadcast (&o->cond);
}

/* Once per session: whether audio and video are both placed by the
 * sender's capture times now, and from which running time on (@running_time).
 * Until then the stream without its first sender report is placed by its
 * arrival: the video's first frames come behind the audio by their
 * encoding, and at the report the audio takes a silence that long. */
gboolean
gst_session_output_origin_take_synced (GstSessionOutputOrigin * o,
    GstClockTime * running_time)
{
  gboolean take;

  g_mutex_lock (&o->lock);
  take = o->synced && !o->synced_told;
  if (take) {
    o->synced_told = TRUE;
    *running_time = o->synced_at;
  }
  g_mutex_unlock (&o->lock);
  return take;
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
 * comes before the filler takes its slot, its overdue limit after it; half
 * a slot is kept for where its time falls between two slots). */
static GstClockTimeDiff
latency_rise_limit (GstSessionOutput * out)
{
  if (out->kind == GST_SESSION_OUTPUT_AUDIO)
    return overdue_limit (out) / 2;
  if (!GST_CLOCK_TIME_IS_VALID (out->frame_duration))
    return LATENCY_JUMP;
  return MIN (LATENCY_JUMP, (GstClockTimeDiff) (overdue_limit (out) -
          out->frame_duration / 2));
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

/* Whether the input comes after a gap in its stream's timestamps: the
 * sender paused (a stall), or the path did (an outage). Called with the
 * origin lock. */
static gboolean
after_gap (GstSessionOutputOrigin * o, GstSessionOutputKind k, GstClockTime pts)
{
  return GST_CLOCK_TIME_IS_VALID (o->in_end[k]) &&
      GST_CLOCK_TIME_IS_VALID (pts) && pts > o->in_end[k] + STREAM_PAUSE;
}

/* Whether the @other stream's inputs stopped: none came in STREAM_PAUSE.
 * Called with the origin lock. */
static gboolean
other_paused (GstSessionOutputOrigin * o, GstSessionOutputKind other,
    GstClockTime now)
{
  return GST_CLOCK_TIME_IS_VALID (o->in_at[other]) &&
      now > o->in_at[other] + STREAM_PAUSE;
}

/* The sender announced a pause (the director's deadline_missed: it sends
 * nothing until the late chunk is ready), both streams paused, and @in is
 * the first of its stream after it: whether it waits (then
 * gst_session_output_hold_wait, without the output's lock) until the other
 * stream's first input after the pause was placed, at most resume_wait
 * (250 ms). The sender's video may come back after its audio, by its
 * encoding on a loaded machine (130-180 ms measured after a 2 s stall):
 * placed before the video's latency was known, the audio's first block
 * after the stall, with the sync click, went out 130-180 ms before the
 * video's marker, and the video's first frames came too late for their
 * slots. The output is filling the pause anyway; a little more of it
 * costs nothing, and both streams resume in the sender's relation, each
 * at its latency from then (see gst_session_output_place). An input held
 * the whole wait is placed by its arrival as ever: on loopback, where the
 * recovery delay is 0, it is then late for its place and cut. Not after
 * an outage of the path (unannounced): the video's first frame then waits
 * for a keyframe, and the audio's first ones would be cut for it. @now:
 * the input's arrival at the output, as it is placed. Called with the
 * output's lock. */
gboolean
gst_session_output_hold_begins (GstSessionOutput * out, GstBuffer * in,
    GstClockTime now)
{
  GstSessionOutputOrigin *o = out->origin;
  gint k = out->kind, other = 1 - out->kind;
  gboolean hold;

  g_mutex_lock (&o->lock);
  hold = o->have_common && o->have_latency[other] && !o->holding[other] &&
      g_get_monotonic_time () < o->pause_until &&
      other_paused (o, other, now) && after_gap (o, k, GST_BUFFER_PTS (in));
  if (hold) {
    GST_DEBUG_OBJECT (out->appsrc, "both streams paused: the first input "
        "after the pause waits for the other stream's");
    o->holding[k] = TRUE;
    o->resuming[k] = TRUE;
  }
  g_mutex_unlock (&o->lock);
  return hold;
}

/* See gst_session_output_hold_begins. Without the output's lock. */
void
gst_session_output_hold_wait (GstSessionOutput * out)
{
  GstSessionOutputOrigin *o = out->origin;
  gint k = out->kind;
  gint64 until = g_get_monotonic_time () + o->resume_wait;

  g_mutex_lock (&o->lock);
  while (o->holding[k])
    if (!g_cond_wait_until (&o->cond, &o->lock, until))
      break;
  if (o->holding[k]) {
    GST_DEBUG_OBJECT (out->appsrc, "the other stream did not resume within "
        "%" G_GINT64_FORMAT " ms", o->resume_wait / G_TIME_SPAN_MILLISECOND);
    o->holding[k] = FALSE;
  }
  g_mutex_unlock (&o->lock);
}

/* The other stream's hold ends: this stream's first input after the
 * pause was placed. Called with the origin lock. */
static void
end_hold (GstSessionOutputOrigin * o, GstSessionOutputKind other,
    gboolean resumed)
{
  if (resumed && o->holding[other]) {
    o->holding[other] = FALSE;
    o->pause_until = 0;
    g_cond_broadcast (&o->cond);
  }
}

/* A stream's timestamps change basis: its latency is another number from
 * now on, taken anew at its next input, and the pair's does not fall for
 * it (see gst_session_output_place). Called with the origin lock. */
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
GstClockTime
gst_session_output_arrival_time (GstBuffer * in)
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
 * its @arrival from the network (clock time, arrival_time) to the output
 * (decoding, a thread that waited for the CPU) beyond the least seen, or
 * -1 when the input has no arrival. Called with the origin lock. */
static GstClockTimeDiff
local_excess (GstSessionOutput * out, GstClockTime arrival, GstClockTime now)
{
  GstSessionOutputOrigin *o = out->origin;
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

/* A jitterbuffer timestamp on the stream's sender-time basis */
static GstClockTime
on_basis (GstSessionOutputOrigin * o, GstSessionOutputKind k, GstClockTime pts)
{
  if (o->basis[k] < 0 && pts < (GstClockTime) - o->basis[k])
    return 0;
  return pts + o->basis[k];
}

/* The sender time of an input without a believable capture time among
 * those placed by theirs: its timestamp on the stream's basis. After a
 * gap in the stream's timestamps (a stall) that basis is from before it,
 * and the jitterbuffer's timestamps may have moved since (200 ms against
 * the capture times across a 2 s stall; the first audio block after it,
 * with the sync click, went 200 ms early): then the input is taken to
 * have come at the stream's usual latency (not its least, which put the
 * click 36-40 ms late), and the basis is its. Called with the origin
 * lock. */
static GstClockTime
without_capture_time (GstSessionOutputOrigin * o, GstSessionOutputKind k,
    GstClockTime pts, GstClockTime now)
{
  GstClockTimeDiff t;

  if (!o->have_latency[k] || !after_gap (o, k, pts))
    return on_basis (o, k, pts);
  t = GST_CLOCK_DIFF (o->have_usual[k] ? o->usual[k] : o->latency[k], now);
  if (t < 0)
    t = 0;
  GST_DEBUG ("%s: %" GST_STIME_FORMAT " gap in the timestamps, no capture "
      "time: placed by arrival", k == GST_SESSION_OUTPUT_VIDEO ? "video" :
      "audio", GST_STIME_ARGS (GST_CLOCK_DIFF (o->in_end[k], pts)));
  o->basis[k] = GST_CLOCK_DIFF (pts, (GstClockTime) t);
  return t;
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
    GstBuffer * in, GstClockTime now, GstClockTime arrived,
    gboolean * by_sender)
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
   * Once seen, the stream's inputs are placed by their arrival from the
   * network (the stage's arrival meta, else now) until its
   * first one with a capture time from the sender reports (a jitter's few
   * ms ahead is normal: in-order packets leave the jitterbuffer at once).
   * After that an input without one is the decoder's (loss concealment)
   * or came before the next report, placed by its own timestamp on the
   * stream's basis (see on_basis and gst_session_output_place). */
  if (meta == NULL || !GST_CLOCK_TIME_IS_VALID (meta->timestamp)) {
    /* one without a capture time among those with one keeps their basis:
     * the jitterbuffer's timestamps and the capture times differ by what
     * rtpbin's lip-sync last moved the stream (the first audio after a
     * stall, placed by its own timestamp, came 22 ms before the video
     * that went with it) */
    if (o->by_sender[k])
      return without_capture_time (o, k, pts, now);
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
    /* by its arrival from the network, not by when it left the
     * jitterbuffer: the jitterbuffer holds such inputs until their
     * timestamps (0.8 s), then lets them all out at once at the sender's
     * first report; placed then, they opened a gap as long (673 ms in a
     * recording's audio, Internet profile) */
    return o->ahead[k] ? arrived : pts;
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
    /* the basis is relative to the input's own timestamp */
    return o->by_sender[k] ? without_capture_time (o, k, GST_BUFFER_PTS (in),
        now) : pts;
  } else {
    /* both streams': following one alone, the offset fell behind the
     * clocks' drift and the shared latency rose in 45 ms steps every few
     * seconds at rest (a click 175-195 ms from its marker, 3 runs of 7) */
    o->ntp_offset += (diff - o->ntp_offset) / NTP_FOLLOW;
  }
  if (o->ntp_offset < 0 && meta->timestamp < (GstClockTime) - o->ntp_offset)
    return o->by_sender[k] ? on_basis (o, k, GST_BUFFER_PTS (in)) : pts;
  *by_sender = TRUE;
  o->basis[k] = GST_CLOCK_DIFF (GST_BUFFER_PTS (in), meta->timestamp +
      o->ntp_offset);
  return meta->timestamp + o->ntp_offset;
}

/* Interactive video has no slot to reach: a frame later than its place
 * is shown late (a video sink drops one 20 ms late), one earlier waits.
 * Once a second (LOCAL_PERSIST) its latency becomes the least of that
 * second's inputs when that moved by more than this, up or down (down
 * only with no other stream placed by it, whose inputs out already a fall
 * would cut): the path (a queue that filled or drained, a sender's clock
 * against ours) is followed, not one input's delay. */
#define INTERACTIVE_FOLLOW(out) ((GstClockTimeDiff) (out)->frame_duration / 8)

/* Called with the origin lock, for each input placed by its latency */
static void
follow_path (GstSessionOutput * out, GstClockTimeDiff lat, GstClockTime now)
{
  GstSessionOutputOrigin *o = out->origin;
  gint k = out->kind;
  GstClockTimeDiff move;

  if (!out->interactive || out->kind != GST_SESSION_OUTPUT_VIDEO ||
      !GST_CLOCK_TIME_IS_VALID (out->frame_duration) || o->settle[k] > 0) {
    o->window_open[k] = FALSE;
    return;
  }
  if (!o->window_open[k]) {
    o->window_open[k] = TRUE;
    o->window_at[k] = now;
    o->window_min[k] = lat;
    return;
  }
  o->window_min[k] = MIN (o->window_min[k], lat);
  if (now < o->window_at[k] + LOCAL_PERSIST)
    return;
  move = o->window_min[k] - o->latency[k];
  if (move > INTERACTIVE_FOLLOW (out) || (move < -INTERACTIVE_FOLLOW (out) &&
          !o->have_latency[1 - k])) {
    GST_DEBUG_OBJECT (out->appsrc, "latency follows the path: %"
        GST_STIME_FORMAT " to %" GST_STIME_FORMAT,
        GST_STIME_ARGS (o->latency[k]), GST_STIME_ARGS (o->window_min[k]));
    o->latency[k] = o->window_min[k];
    o->rise_pending[k] = FALSE;
  }
  o->window_open[k] = FALSE;
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
GstClockTime
gst_session_output_place (GstSessionOutput * out, GstBuffer * in,
    GstClockTime now)
{
  GstSessionOutputOrigin *o = out->origin;
  GstClockTime pts, end;
  GstClockTimeDiff lat, rise, common;
  GstClockTimeDiff local;
  GstClockTime arrival, arrived;
  gint k = out->kind, other = 1 - out->kind;
  gboolean by_sender, is_local, resumed, concealed, steady = FALSE;

  g_mutex_lock (&o->lock);
  arrival = gst_session_output_arrival_time (in);
  arrived = now;
  if (GST_CLOCK_TIME_IS_VALID (arrival) && arrival >= out->base_time &&
      arrival - out->base_time < now)
    arrived = arrival - out->base_time;
  resumed = after_gap (o, k, GST_BUFFER_PTS (in));
  pts = sender_time (o, k, in, now, arrived, &by_sender);
  /* the decoder's own (concealment, see below) says nothing of the
   * stream's pace: 2 s of it at once after a stall, stamped at the stall's
   * start, would hide the gap */
  concealed = !by_sender && o->by_sender[k] && o->have_common && !resumed;
  if (GST_CLOCK_TIME_IS_VALID (GST_BUFFER_PTS (in)) && !concealed)
    o->in_end[k] = GST_BUFFER_PTS (in) + (GST_BUFFER_DURATION_IS_VALID (in) ?
        GST_BUFFER_DURATION (in) : 0);
  /* a rise is confirmed by the inputs that follow at the stream's pace:
   * one that comes after the stream paused (a stall) does not show that
   * the path got slower before it. An input from before the stall, held
   * by the jitterbuffer until it ended, confirmed one and moved both
   * streams 220 ms later for the rest of the session (a sync click 183
   * ms from its marker, under load) */
  if (o->rise_pending[k] && !concealed &&
      GST_CLOCK_TIME_IS_VALID (o->in_at[k]) &&
      now > o->in_at[k] + STREAM_PAUSE) {
    GST_DEBUG_OBJECT (out->appsrc, "the stream paused %" GST_STIME_FORMAT
        ": the rise pending from before is left",
        GST_STIME_ARGS (GST_CLOCK_DIFF (o->in_at[k], now)));
    o->rise_pending[k] = FALSE;
  }
  if (!concealed)
    o->in_at[k] = now;
  if (!GST_CLOCK_TIME_IS_VALID (pts)) {
    end_hold (o, other, resumed);
    g_mutex_unlock (&o->lock);
    return now;
  }
  if (!by_sender && o->by_sender[k] && o->have_common) {
    /* made by the decoder, not sent (loss concealment: after a stall,
     * 2 s of it at once, stamped at the stall's start): no capture time,
     * and its arrival says nothing of the path. Placed by its own
     * timestamp on the stream's basis (sender_time) at the current
     * latency; one from the past is cut */
    common = o->common;
    end_hold (o, other, resumed);
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
  if (resumed && o->have_latency[other] && o->have_latency[k] &&
      (o->holding[other] || o->resuming[k])) {
    /* each stream's first input after an announced pause (see
     * gst_session_output_hold_begins): the stream's latency is its, at
     * once (the video's encoding behind the audio after a stall), and the
     * pair's rises with it. Not after other pauses (audio that was
     * silent, an outage): one input's delay is not taken for good */
    GST_DEBUG_OBJECT (out->appsrc, "first input after a pause: its latency "
        "is taken anew");
    take_latency_anew (o, k);
  }
  o->resuming[k] = FALSE;
  lat = GST_CLOCK_DIFF (pts, now);
  rise = o->have_latency[k] ? lat - o->latency[k] : 0;
  local = local_excess (out, arrival, now);
  if (!GST_CLOCK_TIME_IS_VALID (o->first_at[k]))
    o->first_at[k] = now;
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
    steady = TRUE;
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
    /* an input held after its arrival (queued in the jitterbuffer behind
     * a lost packet; local also holds decoding on a loaded CPU, the
     * machine's delay, which does not move the timeline either) is late
     * by that wait, not by the path: taken with it, the latency put both
     * streams later for the rest of the session (at the first sender
     * report, the audio packet behind a loss: 51-97 ms gaps in a
     * recording's audio, Internet profile). Its wait is left out up to the
     * recovery delay, which absorbs it in the inputs that follow (see
     * above). Not while placed by arrival: that time holds no wait. An
     * input whose own packet was retransmitted arrived with it: its wait
     * is the path's here */
    if (local > 0 && !o->ahead[k])
      lat -= MIN (local, (GstClockTimeDiff) out->recovery);
    o->latency[k] = lat;
    o->have_latency[k] = TRUE;
    o->settle[k] = LATENCY_SETTLE;
    o->rise_pending[k] = FALSE;
    o->window_open[k] = FALSE;
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
     * lasts is taken: every input would be dropped. In the session's
     * first seconds (LOCAL_START_GRACE) a rise is a rise. */
    is_local = local >= 0 && rise - local <= latency_rise_limit (out) &&
        now >= o->first_at[k] + LOCAL_START_GRACE;
    o->window_open[k] = FALSE;
    if (!o->rise_pending[k]) {
      o->rise_pending[k] = TRUE;
      o->rise_at[k] = now;
      o->rise_lat[k] = lat;
      o->rise_local[k] = is_local;
    } else {
      /* one input showing the path's share makes the rise the path's */
      o->rise_local[k] = o->rise_local[k] && is_local;
    }
    /* interactive: the frames a retransmission held come late and
     * together; only a rise that lasts is the path's (taken at once, one
     * lost packet put every later frame 125 ms later, LAN) */
    if (o->rise_pending[k] && now >= o->rise_at[k] +
        (o->rise_local[k] || out->interactive ? LOCAL_PERSIST :
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
    steady = TRUE;
    if (o->settle[k] > 0) {
      /* the first inputs may be held up (decoder start, a keyframe wait):
       * the least delayed of them sets the latency, which then stays */
      o->settle[k]--;
      o->latency[k] = MIN (o->latency[k], lat);
      if (o->settle[k] == 0)
        o->initial[k] = FALSE;
    }
  }
  follow_path (out, lat, now);
  /* the stream's usual latency, for an input without a capture time
   * after a gap (without_capture_time): from the inputs that came at their
   * pace (not one held by the jitterbuffer over a stall, 2 s) */
  if (steady && by_sender && local < USUAL_LOCAL_LIMIT) {
    if (!o->have_usual[k])
      o->usual[k] = lat;
    o->usual[k] += (lat - o->usual[k]) / 8;
    o->have_usual[k] = TRUE;
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
  pts += common + out->recovery;
  /* where this input ends: content placed before on the old basis (at a
   * latency lower by the rise this may bring, or by arrival) runs up to
   * there, not in the sender's relation */
  end = pts + (GST_BUFFER_DURATION_IS_VALID (in) ? GST_BUFFER_DURATION (in) :
      0);
  if (by_sender && o->by_sender[other] && !o->synced) {
    o->synced = TRUE;
    o->synced_at = pts;
    if (GST_CLOCK_TIME_IS_VALID (o->last_end[other]))
      o->synced_at = MAX (o->synced_at, o->last_end[other]);
    if (GST_CLOCK_TIME_IS_VALID (o->last_end[k]))
      o->synced_at = MAX (o->synced_at, o->last_end[k]);
    GST_DEBUG_OBJECT (out->appsrc, "both streams placed by the sender's "
        "capture times from %" GST_TIME_FORMAT, GST_TIME_ARGS (o->synced_at));
  }
  o->last_end[k] = end;
  end_hold (o, other, resumed);
  g_mutex_unlock (&o->lock);
  return pts;
}
