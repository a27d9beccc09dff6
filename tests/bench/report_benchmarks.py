"""Sections 1 to 8 of docs/performance.md (report.py): the benchmarks that
every tests/bench/run runs (bench-ttff, bench-control, bench-cpu,
bench-scale, bench-renew, bench-director, bench-webhook, bench-contract),
each from its JSON result.
"""
import math

from report_common import (finite, fmt, med, pct, range_of, ratio, table,
                           verdict)


MILESTONES = ["offer", "gathered", "answered", "connected", "channel",
              "first_rtp", "first_frame"]

PHASES = [
    ("start-up (PLAYING → offer created)", None, "offer"),
    ("ICE gathering", "offer", "gathered"),
    ("start-session round trip", "gathered", "answered"),
    ("ICE connected", "answered", "connected"),
    ("→ channel open (DTLS, SCTP)", "connected", "channel"),
    ("→ first RTP out of webrtcbin (DTLS, next frame, jitterbuffer)",
     "connected", "first_rtp"),
    ("first RTP → first output buffer (depay, decode)", "first_rtp",
     "first_frame"),
]

EXPLAIN = {
    "start-up (PLAYING → offer created)":
        "creating webrtcbin and its offer; in a fresh process this includes "
        "loading the WebRTC plugins and generating the process's DTLS RSA "
        "key (in GStreamer 1.22 the first dtlssrtpdec of a process makes a "
        "2048-bit key: 80–180 ms measured on this machine)",
    "ICE gathering":
        "worldsrc sends its offer as soon as the 127.0.0.1 host candidate "
        "is there; the baseline waits for libnice to call gathering done, "
        "about 200 ms later (libnice also gathers TCP candidates and tries "
        "UPnP, on by default, before it calls it done)",
    "start-session round trip":
        "the service's answer: it builds its side of the session, checks "
        "its own gathering at once and then every 5 ms, and answers once "
        "its 127.0.0.1 host candidate is there",
    "ICE connected":
        "libnice's connectivity checks and the nomination of the pair, "
        "paced by libnice's timer, not by the network: 20 ms between checks "
        "by default (the baseline), 5 ms in worldsrc on a loopback path, "
        "where nothing can congest",
    "→ channel open (DTLS, SCTP)":
        "the DTLS handshake (a few ms on loopback) and the SCTP association",
    "→ first RTP out of webrtcbin (DTLS, next frame, jitterbuffer)":
        "the DTLS handshake, then the service's first frame (16 fps; the "
        "world's media starts with the frame of the current slot when the "
        "service answers, and each frame leaves once rendered and "
        "VP8-encoded at its instant; the encoder's first keyframe takes "
        "30–45 ms here), then the jitterbuffer latency (worldsrc 5 ms on "
        "loopback, the baseline webrtcbin's default 200 ms) before "
        "webrtcbin's src pad",
    "first RTP → first output buffer (depay, decode)":
        "depayloading and decoding one 1280x704 VP8 keyframe",
}


def phase_values(series, a, b):
    """median of the per-session differences (difference of medians when
    the per-session values do not line up)"""
    if series is None:
        return math.nan
    vb = series[b]["values"]
    if a is None:
        return med(series[b])
    va = series[a]["values"]
    if len(va) == len(vb) and va:
        d = sorted(y - x for x, y in zip(va, vb))
        n = len(d)
        return d[n // 2] if n % 2 else (d[n // 2 - 1] + d[n // 2]) / 2
    return med(series[b]) - med(series[a])


def section_ttff(doc, r):
    doc.add("## 1. Time to first frame")
    doc.add()
    if r is None:
        doc.add("No result (bench-ttff failed or did not run).")
        return
    n = r["runs"]
    doc.add(f"From setting the pipeline to PLAYING to the first buffer on "
            f"the source's video pad (`worldsrc url=… ! fakesink`, all "
            f"defaults), beside the baseline client (a plain webrtcbin "
            f"client, see [Baseline](#baseline)), against the live reference "
            f"service on 127.0.0.1. **Cold**: the first session of a fresh "
            f"process (one child process per session, {n} of each, "
            f"alternating). **Warm**: {n} sequential sessions of each in one "
            f"process, alternating, after one discarded session of each. "
            f"Medians; p10–p90 in brackets. worldsrc's milestones come from "
            f"its `session/negotiated` and `session/first-frame` messages. "
            f"A cold process makes its DTLS certificate on the key of the "
            f"user's key cache (made by the first process that found none, "
            f"see docs/worldsrc.md, The DTLS key); GStreamer 1.22 would make "
            f"a new RSA key, 80-400 ms, in every process. Cold is held to "
            f"the warm median + 30 ms and to 150 ms.")
    doc.add()
    rows = []
    for label, key in [("warm", "warm"), ("cold", "cold")]:
        w = r[f"{key}_worldsrc"]
        b = r[f"{key}_baseline"]
        wv, bv = med(w["first_frame"]), med(b["first_frame"])
        # issue 29: warm <= 150 ms and the baseline; cold <= 150 ms and
        # the warm median + 30 ms
        warm = key == "warm"
        wm = med(r["warm_worldsrc"]["first_frame"])
        ok = finite(wv, bv) and wv <= 150 and (
            wv <= bv if warm else finite(wm) and wv <= wm + 30)
        target = "≤ 150 ms and ≤ baseline" if warm else \
            "≤ 150 ms and ≤ warm + 30 ms"
        rows.append([f"{label} (p50)", f"{fmt(wv, ' ms')} [{range_of(w['first_frame'])}]",
                     f"{fmt(bv, ' ms')} [{range_of(b['first_frame'])}]",
                     ratio(wv, bv), target,
                     verdict(ok if finite(wv, bv) else None)])
        doc.row(f"Time to first frame, {label} (p50)", fmt(wv, " ms"),
                fmt(bv, " ms"), ratio(wv, bv), target,
                verdict(ok if finite(wv, bv) else None))
        if w["failed"] or b["failed"]:
            rows.append([f"{label}: failed sessions", w["failed"], b["failed"],
                         "", "0", verdict(w["failed"] == 0)])
    doc.add(table(["TTFF", "worldsrc", "baseline", "ratio", "target",
                   "result"], rows))
    doc.add()
    doc.add("Breakdown (ms, medians of the per-session durations; the "
            "channel and the media go in parallel after ICE, so the rows "
            "after ICE do not add up):")
    doc.add()
    rows = []
    for label, a, b in PHASES:
        rows.append([label] + [fmt(phase_values(r[k], a, b))
                               for k in ["warm_worldsrc", "warm_baseline",
                                         "cold_worldsrc", "cold_baseline"]])
    rows.append(["**total: PLAYING → first output buffer**"] +
                [f"**{fmt(med(r[k]['first_frame']))}**"
                 for k in ["warm_worldsrc", "warm_baseline",
                           "cold_worldsrc", "cold_baseline"]])
    doc.add(table(["phase", "worldsrc warm", "baseline warm",
                   "worldsrc cold", "baseline cold"], rows))
    doc.add()
    doc.add("**What dominates.**")
    doc.add()
    for key, name in [("warm_worldsrc", "worldsrc, warm"),
                      ("cold_worldsrc", "worldsrc, cold"),
                      ("warm_baseline", "the baseline, warm"),
                      ("cold_baseline", "the baseline, cold")]:
        seq = [(label, phase_values(r[key], a, b)) for label, a, b in PHASES
               if not label.startswith("→ channel")]
        seq = [(l, v) for l, v in seq if finite(v)]
        total = med(r[key]["first_frame"])
        seq.sort(key=lambda x: -x[1])
        if not seq or not finite(total):
            continue
        doc.add(f"- {name} ({fmt(total, ' ms')}): "
                + ", then ".join(f"*{l}* {fmt(v, ' ms')} ({v / total:.0%})"
                                 for l, v in seq[:2]) + ".")
    doc.add()
    doc.add("Where those phases go:")
    doc.add()
    for label, _, _ in PHASES:
        doc.add(f"- *{label}*: {EXPLAIN[label]}.")
    doc.add()
    w = r["warm_worldsrc"]
    a2r = phase_values(w, "answered", "first_rtp")
    doc.add("The jitterbuffer sits inside webrtcbin, so its latency is part "
            "of the first-RTP row: that row is where the baseline's 200 ms "
            "default shows (against worldsrc's 5 ms on loopback); the "
            "baseline's other loss is gathering. For worldsrc, the first RTP "
            f"leaves webrtcbin {fmt(a2r, ' ms')} after the answer (warm "
            "median): the service starts its media when it answers, and its "
            "first frame is rendered and VP8-encoded while ICE and DTLS come "
            "up, so the first frame follows the service's encoder, not the "
            "client. Against the 150 ms target the element's own share is "
            "small (its start-up, gathering on loopback, ICE checks paced for "
            "loopback, the 5 ms jitterbuffer and the decode); the rest is the "
            "service's answer and its encoder.")
    doc.add()


def section_control(doc, r):
    doc.add("## 2. Control latency")
    doc.add()
    if r is None:
        doc.add("No result (bench-control failed or did not run).")
        return
    doc.add(f"One worldsrc session and one baseline session open at once "
            f"against the live service; {r['samples']} pings and "
            f"{r['samples']} prompts each, interleaved, 20 ms apart. "
            f"Measured exactly:")
    doc.add()
    doc.add("- *ping round trip*: from emitting worldsrc's `ping` action "
            "(baseline: sending `{\"type\": \"ping\"}` on its data channel) "
            "to the `pong` reaching the application (worldsrc: the "
            "`world/pong` bus message, seen by a sync handler; baseline: "
            "`on-message-string`);")
    doc.add("- *way there / way back*: the service stamps its pong with "
            "`server_ts`, its monotonic clock, which is the client's clock "
            "on one machine: there = `server_ts` − the ping's `ts` (taken "
            "when the ping is built), back = arrival − `server_ts`;")
    doc.add("- *prompt round trip*: from `g_object_set (src, \"prompt\", …)` "
            "(baseline: sending `prompt`) to `prompt_applied` reaching the "
            "application; the service acknowledges a world prompt at once;")
    doc.add("- *prompt → service*: the prompt round trip minus the median "
            "way back of the pings: the property change's arrival at the "
            "service.")
    doc.add()
    w, b = r["worldsrc"], r["baseline"]
    rows = []
    for key, label in [("prompt_oneway_est", "prompt → service (est.)"),
                       ("prompt_rtt", "prompt round trip"),
                       ("ping_rtt", "ping round trip"),
                       ("ping_up", "ping, way there"),
                       ("ping_down", "ping, way back")]:
        wv, bv = med(w[key]), med(b[key])
        target = "< 1 ms" if key in ("prompt_oneway_est", "ping_rtt") else ""
        ok = (wv < 1.0) if target and finite(wv) else None
        rows.append([label, f"{fmt(wv, ' ms', 2)} [{range_of(w[key])}]",
                     f"{fmt(bv, ' ms', 2)} [{range_of(b[key])}]",
                     ratio(wv, bv), target or "—",
                     verdict(ok) if target else "—"])
        if target:
            doc.row(f"Control: {label} (p50)", fmt(wv, " ms", 2),
                    fmt(bv, " ms", 2), ratio(wv, bv), "< 1 ms", verdict(ok))
    doc.add(table(["p50 [p10 – p90]", "worldsrc", "baseline", "ratio",
                   "target", "result"], rows))
    if w["lost"] or b["lost"]:
        doc.add()
        doc.add(f"Unanswered within 3 s: worldsrc {w['lost']}, baseline "
                f"{b['lost']}.")
    doc.add()
    extra = med(w["ping_rtt"]) - med(b["ping_rtt"])
    if finite(extra) and extra > 0.02:
        cost = (f"which costs about {fmt(extra, ' ms', 2)} per round trip "
                f"against the bare data channel")
    else:
        cost = ("which does not show against the bare data channel (the "
                "difference is within the noise)")
    doc.add("**What dominates.** Both ways are the data channel's path "
            "through webrtcbin (SCTP over DTLS over ICE, each hop a queue "
            "and a thread) on both ends. worldsrc adds building and "
            "validating the message, the hop to its session thread and, on "
            f"the way back, parsing and the bus post, {cost}. The tail (p90) "
            "is scheduling on the loaded two-core machine: a message waits "
            "for a core at each thread hop.")
    doc.add()


def section_cpu(doc, r):
    doc.add("## 3. CPU and memory per session")
    doc.add()
    if r is None:
        doc.add("No result (bench-cpu failed or did not run).")
        return
    media = r.get("cpu_media", "cached, still")
    doc.add(f"One session at a time; CPU against the service's "
            f"{'live, moving picture (it renders every frame, and every client holds forward+look_left, so the camera moves as a generated world does)' if media.startswith('live') else 'cached still picture'}, "
            f"memory against its cached media (which costs the service "
            f"almost nothing); CPU is getrusage of the bench process over "
            f"{fmt(r['window_s'], ' s', 0)} windows, in % of one core, "
            f"{r['runs']} runs with the order rotating; the process alone "
            f"takes {fmt(r['idle_cpu_pct'], ' %', 2)}. Memory: resident set "
            f"of a fresh process after its first session (plugins included) "
            f"and the slope over {r['memory_sessions']} concurrent sessions.")
    doc.add()
    cw, cn, cb = (med(r["cpu_worldsrc"]), med(r["cpu_worldsrc_nodecode"]),
                  med(r["cpu_baseline"]))
    cbn = med(r.get("cpu_baseline_nodecode"))
    mw, mb = med(r["mem_added_worldsrc"]), med(r["mem_added_baseline"])
    fw, fb = med(r["mem_first_worldsrc"]), med(r["mem_first_baseline"])
    rows = [
        ["CPU, decoding to fakesink", fmt(cw, " %"), fmt(cb, " %"),
         ratio(cw, cb), "≤ 1.05× baseline",
         verdict(cw <= 1.05 * cb if finite(cw, cb) else None)],
        ["CPU, `decode=false` (baseline: decoding)", fmt(cn, " %"),
         fmt(cb, " %"), ratio(cn, cb), "—", "—"],
        ["CPU, `decode=false` vs decoding (both worldsrc)", fmt(cn, " %"),
         fmt(cw, " %"), ratio(cn, cw), "≤ 0.2× decoding",
         verdict(cn <= 0.2 * cw if finite(cn, cw) else None)],
        ["CPU, `decode=false` (baseline: not decoding either)",
         fmt(cn, " %"), fmt(cbn, " %"), ratio(cn, cbn), "≤ 1.05× baseline",
         verdict(cn <= 1.05 * cbn if finite(cn, cbn) else None)],
        ["the floor: baseline not decoding vs decoding", fmt(cbn, " %"),
         fmt(cb, " %"), ratio(cbn, cb), "—", "—"],
        ["frames per second from the service", fmt(med(r["fps_worldsrc"])),
         fmt(med(r["fps_baseline"])), "", "16", ""],
        ["resident memory, first session", fmt(fw, " MiB"), fmt(fb, " MiB"),
         ratio(fw, fb), "—", "—"],
        ["resident memory per added session", fmt(mw, " MiB"),
         fmt(mb, " MiB"), ratio(mw, mb), "≤ 1.1× baseline",
         verdict(mw <= 1.1 * mb if finite(mw, mb) else None)],
    ]
    doc.add(table(["per session (median)", "worldsrc", "baseline", "ratio",
                   "target", "result"], rows))
    doc.row("CPU per session, decoding", fmt(cw, " % of a core"),
            fmt(cb, " %"), ratio(cw, cb), "≤ 1.05× baseline",
            verdict(cw <= 1.05 * cb if finite(cw, cb) else None))
    doc.row("CPU per session, `decode=false`", fmt(cn, " %"), fmt(cw, " % "
            "(decoding)"), ratio(cn, cw), "≤ 0.2× decoding",
            verdict(cn <= 0.2 * cw if finite(cn, cw) else None))
    doc.row("CPU per session, `decode=false` vs a baseline not decoding",
            fmt(cn, " %"), fmt(cbn, " %"), ratio(cn, cbn),
            "≤ 1.05× baseline",
            verdict(cn <= 1.05 * cbn if finite(cn, cbn) else None))
    doc.row("Resident memory per added session", fmt(mw, " MiB"),
            fmt(mb, " MiB"), ratio(mw, mb), "≤ 1.1× baseline",
            verdict(mw <= 1.1 * mb if finite(mw, mb) else None))
    doc.add()
    doc.add("**What dominates.** VP8 decoding of 1280x704 at 16 fps is the "
            "bulk of a session's CPU: without it (`decode=false`) the "
            "session costs the transport (ICE, DTLS/SRTP, jitterbuffer, "
            "depayloading) and worldsrc's output stage. At the service's "
            "1.5 Mbit/s, VP8 decoding costs only about twice the transport, "
            "so `decode=false` saves about 60 %, not 80 %: what is left is "
            "webrtcbin's own threads waking for every packet (SCTP's timer, "
            "libnice's and the jitterbuffer's), the same in the baseline. "
            "The baseline without a decoder (depayloaded frames to fakesink) "
            f"measures that floor in the same run: {ratio(cbn, cb)} of its "
            "decoding cost, so no client of this stream reaches 0.2× on "
            "this machine; the figure that is ours to meet is `decode=false` "
            "against that floor. "
            "The still cached picture decodes almost for free (`--still`), "
            "which would hide this. Memory per session is "
            "webrtcbin's (libnice, DTLS/SRTP, SCTP, rtpbin), the decoder's "
            "frame pool and, for worldsrc, one more frame held for "
            "repeats; the first session carries the plugins.")
    doc.add()


def section_scale(doc, r):
    doc.add("## 4. Scale: concurrent world sessions in one process")
    doc.add()
    if r is None:
        doc.add("No result (bench-scale failed or did not run).")
        return
    doc.add(f"N worldsrc sessions (decoding to fakesink) in one process, "
            f"then N baseline clients (never both at once; the order "
            f"rotates), against `gst-session-service --media cached "
            f"--runners 16`; {fmt(r['window_s'], ' s', 0)} windows, "
            f"{r['runs']} runs, medians. *fps* counts frames that came from "
            f"the service (worldsrc's repeats excluded) per session: the "
            f"median session and the slowest; worldsrc's output rate (repeats "
            f"included) is given apart. CPU is per session, in % of one "
            f"core.")
    doc.add()
    rows = []
    last = None
    for lv in r["levels"]:
        w, b = lv["worldsrc"], lv["baseline"]
        fmin = med(w["fps_min"])
        ok = fmin >= 15.5 if finite(fmin) else None
        rows.append([lv["sessions"], fmt(med(w["fps_median"])),
                     fmt(fmin), fmt(med(w["out_fps"])),
                     fmt(med(b["fps_median"])), fmt(med(b["fps_min"])),
                     fmt(med(w["cpu_per_session"]), " %"),
                     fmt(med(b["cpu_per_session"]), " %"),
                     ratio(med(w["cpu_per_session"]),
                           med(b["cpu_per_session"])),
                     fmt(med(w["service_cpu_per_session"]), " %"),
                     "16 fps", verdict(ok)])
        last = (lv, w, b, ok)
    doc.add(table(["sessions", "worldsrc fps", "slowest", "output fps",
                   "baseline fps", "slowest", "worldsrc CPU",
                   "baseline CPU", "ratio", "service CPU", "target",
                   "result"], rows))
    if last:
        lv, w, b, ok = last
        doc.row(f"Scale: fps per session at {lv['sessions']} sessions "
                f"(slowest)", fmt(med(w["fps_min"])),
                fmt(med(b["fps_min"])),
                ratio(med(w["fps_min"]), med(b["fps_min"])), "16",
                verdict(ok))
        doc.row(f"Scale: CPU per session at {lv['sessions']} sessions",
                fmt(med(w["cpu_per_session"]), " %"),
                fmt(med(b["cpu_per_session"]), " %"),
                ratio(med(w["cpu_per_session"]),
                      med(b["cpu_per_session"])), "—", "—")
    doc.add()
    doc.add("**What dominates.** Per-session CPU stays flat: each session is "
            "its own webrtcbin, decoder and threads, with nothing shared to "
            "contend on; decoding dominates as in section 3. Two cores "
            "carry 16 decoding sessions with room to spare because the "
            "cached picture decodes cheaply; with live, moving content the "
            "limit is decoding. The slowest session is the figure to watch: "
            "a session whose frames all come a little later than its "
            "timeline expects shows a repeated frame instead of each new "
            "one (its output rate stays 16). Before this was fixed, 16 "
            "concurrent start-ups left one or more sessions at 0 fps for "
            "the whole window: their latency settled low during the "
            "start-up rush, then rose by 60–100 ms, less than the output "
            "then took at once; a rise of more than a frame now is, once "
            "a later input arriving at its own pace shows it too "
            "(`tests/elements/timeline.c` replays it on a test clock).")
    doc.add()


def section_renew(doc, r):
    doc.add("## 5. Session renewal")
    doc.add()
    if r is None:
        doc.add("No result (bench-renew failed or did not run).")
        return
    w, b = r["worldsrc"], r["baseline"]
    doc.add(f"The service ends every world session after {r['blocks']} "
            f"blocks of 16 frames (`--world-max-blocks {r['blocks']} "
            f"--runners 2`); worldsrc with `renew=true` negotiates the next "
            f"while its output goes on. {r['renewals']} renewals, medians. "
            f"The *media gap* is measured on the element's video pad from "
            f"the last frame that came from the service to the first frame "
            f"of the next session (repeats excluded; a repeat shares its "
            f"memory with the frame before). The baseline is the plain "
            f"client that, on `stream_exhausted`, builds a new client: its "
            f"gap is from its last frame to the new client's first.")
    doc.add()
    gw, gb = med(w["gap"]), med(b["gap"])
    ok = gw < 200 if finite(gw) else None
    steps = r["output_steps_not_one_frame"]
    rows = [
        ["media gap (p50)", f"{fmt(gw, ' ms')} [{range_of(w['gap'])}]",
         f"{fmt(gb, ' ms')} [{range_of(b['gap'])}]", ratio(gw, gb),
         "< 200 ms", verdict(ok)],
        ["output timestamps not 0.5 to 1.5 frames apart", steps, "(no output "
         "timeline)", "", "0", verdict(steps == 0)],
        ["repeated frames per renewal (p50)", fmt(med(w["repeats"]), "", 1),
         "—", "", "", ""],
        ["longest wall-clock wait between output buffers",
         fmt(r["output_max_wait_ms"], " ms"), "—", "", "", ""],
    ]
    doc.add(table(["renewal", "worldsrc", "baseline", "ratio", "target",
                   "result"], rows))
    doc.row("Session renewal: media gap (p50)", fmt(gw, " ms"),
            fmt(gb, " ms"), ratio(gw, gb), "< 200 ms", verdict(ok))
    doc.row("Session renewal: output timeline continuous",
            f"{steps} steps off", "—", "", "0", verdict(steps == 0))
    doc.add()
    doc.add("Breakdown of the gap (ms, medians):")
    doc.add()
    rows = [
        ["last frame → `stream_exhausted` reaches the application",
         fmt(med(w["to_exhausted"])), fmt(med(b["to_exhausted"]))],
        ["→ next session's control channel open",
         fmt(med(w["to_negotiated"])), fmt(med(b["to_negotiated"]))],
        ["  of which: start-session round trip", fmt(med(w["signalling"])),
         fmt(med(b["signalling"]))],
        ["  of which: ICE connected", fmt(med(w["ice"])),
         fmt(med(b["ice"]))],
        ["  of which: session start → channel open", fmt(med(w["channel"])),
         fmt(med(b["channel"]))],
        ["channel open → first frame of the new session",
         fmt(med(w["to_frame"])), fmt(med(b["to_frame"]))],
    ]
    doc.add(table(["", "worldsrc", "baseline"], rows))
    doc.add()
    doc.add("**What dominates.** The renewal is a full new session after the "
            "old one has ended: its negotiation (start-session round trip "
            "and ICE, as in section 1) up to the open channel, then the "
            "wait for the service's first frame of the new session; tearing "
            "the old session down takes little (the difference between the "
            "second row and the session's own start → channel open). The "
            "output timeline does not notice: the last frame is repeated "
            "slot by slot and every timestamp stays one frame after the one "
            "before. The repeats start once a frame is 1.5 frames overdue, "
            "so the wall-clock wait between two output buffers around a "
            "renewal reaches the value above, which a downstream that "
            "syncs to the clock absorbs only with that much latency.")
    doc.add()


def section_director(doc, r):
    doc.add("## 6. Director: A/V drift and stalls")
    doc.add()
    if r is None:
        doc.add("No result (bench-director failed or did not run).")
        return
    off = r["av_offset_ms"]
    doc.add(f"directorsrc (`chunk-duration=5`, decoding, raw audio at "
            f"32000 Hz) for {r['duration_s']} s against the live service, "
            f"which stalls the chunk due after {r['stall_at_s']} s by "
            f"{r['stall_for_s']} s (`--fault-stall`: `deadline_missed`, no "
            f"media meanwhile). At the first frame of every chunk the "
            f"service shows a white square and plays a click at the same "
            f"instant; probes on the element's pads find both in the output. "
            f"The offset is click − marker in output running time (positive: "
            f"audio late). One run ({'--long: 10 minutes' if r['long'] else '60 s; `tests/bench/run --long` runs 10 minutes'}); "
            f"the chunks are the samples. There is no baseline: a plain "
            f"webrtcbin client has no output timeline to keep (its recording "
            f"would simply lack the stall's {r['stall_for_s']} s).")
    doc.add()
    worst = max(abs(pct(off, "max")), abs(pct(off, "min"))) if off \
        else math.nan
    vals = [c["offset_ms"] for c in (r.get("chunks") or [])]
    third = len(vals) // 3
    if third >= 1:
        def median(v):
            v = sorted(v)
            n = len(v)
            return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
        drift = median(vals[-third:]) - median(vals[:third])
    else:
        drift = r["drift_first_to_last_ms"]
    ok_sync = (worst <= 1000 / 24) if finite(worst) else None
    ok_drift = (abs(drift) <= 1000 / 48) if finite(drift) else None
    gaps = r["video_steps_not_one_frame"] + r["audio_discontinuities"]
    rows = [
        ["markers / clicks / unpaired", f"{r['markers']} / {r['clicks']} / "
         f"{r['unpaired_markers']}", "", ""],
        ["A/V offset, median", fmt(med(off), " ms"), "", ""],
        ["A/V offset, min … max", f"{fmt(pct(off, 'min'), ' ms')} … "
         f"{fmt(pct(off, 'max'), ' ms')}", "within ±1 frame (41.7 ms)",
         verdict(ok_sync)],
        ["drift: median offset of the last third of the chunks − of the "
         "first third", fmt(drift, " ms"), "within ±½ frame (20.8 ms)",
         verdict(ok_drift)],
        ["last chunk − first chunk", fmt(r["drift_first_to_last_ms"], " ms"),
         "", ""],
        ["drift, least-squares slope", fmt(r["drift_ms_per_min"], " ms/min"),
         "", ""],
        ["video timestamps not one frame apart",
         r["video_steps_not_one_frame"], "0",
         verdict(r["video_steps_not_one_frame"] == 0)],
        ["audio buffers not starting where the one before ended",
         r["audio_discontinuities"], "0",
         verdict(r["audio_discontinuities"] == 0)],
        ["video: frames repeated (stall and late frames)",
         r["video_repeats"], "", ""],
        ["audio: silence filled", fmt(r["audio_silence_s"], " s"), "", ""],
        ["`deadline_missed` / sessions / errors / warnings",
         f"{r['deadline_missed']} / {r['sessions']} / {r['errors']} / "
         f"{r['warnings']}", "", ""],
        ["end of video / audio", f"{fmt(r['video_end_s'], ' s', 3)} / "
         f"{fmt(r['audio_end_s'], ' s', 3)}", "", ""],
    ]
    doc.add(table(["", "directorsrc", "target", "result"], rows))
    doc.row("Director: recording gap-free across a stall",
            f"{gaps} gaps/overlaps", "—", "", "0", verdict(gaps == 0))
    doc.row("Director: A/V offset over the run (min … max)",
            f"{fmt(pct(off, 'min'), ' ms')} … {fmt(pct(off, 'max'), ' ms')}",
            "—", "", "within ±41.7 ms", verdict(ok_sync))
    doc.row("Director: A/V drift over the run (last third − first third)",
            fmt(drift, " ms"), "—", "", "within ±20.8 ms",
            verdict(ok_drift))
    doc.add()
    chunks = r.get("chunks") or []
    if chunks:
        doc.add("Per chunk (the marker's output time; what the output filled "
                "since the marker before):")
        doc.add()
        crow = []
        prev = None
        for c in chunks:
            step = "" if prev is None else fmt(c["offset_ms"] - prev, " ms")
            crow.append([fmt(c["at_s"], " s", 3), fmt(c["offset_ms"], " ms"),
                         step, c["video_repeats_since_last"],
                         c["silent_buffers_since_last"]])
            prev = c["offset_ms"]
        doc.add(table(["marker at", "click − marker", "change",
                       "video repeats", "silent audio buffers"], crow))
        doc.add()
    frame_steps = sum(1 for a, b in zip(vals, vals[1:])
                      if abs(abs(b - a) - 1000 / 24) < 1.0)
    doc.add("**What dominates.** Both streams follow one clock and the "
            "output stage places each input at its sender time plus one "
            "common latency (the larger of the two streams' transport "
            "latencies, settled over their first inputs), so nothing drifts "
            "continuously. The sender time is the capture time the RTCP "
            "sender reports give each input (rtpbin's reference timestamp "
            "meta, on the sender's one clock for both streams; the service "
            "reports by capture time and every second), so the relation is "
            "the sender's own, not rtpbin's lip-sync estimate: that moves "
            "one stream at each report by its guess of the two arrival "
            "delays, by up to 150 ms between reports on a loaded machine "
            "(the elements tests measured 38 to 198 ms within 10 s). Before "
            "the first report (the first second) the jitterbuffer's "
            "timestamps are used. The offset moves for three reasons: "
            "rounding "
            "(video takes the next free 1/24 s slot when within 3/5 of a "
            "frame of it, up to 25 ms off, so that frames half a slot off "
            "the grid do not flip between a dropped and a repeated one; "
            "audio follows on within 10 ms of its place); a "
            "stream's latency moving by more than 100 ms (media resuming "
            "after the stall) or, once settled, rising by more than a frame "
            "(audio: 50 ms) for two inputs at their own pace, which "
            "re-places that stream; and late video "
            "frames: a frame more than 1.5 frames overdue has its slot "
            "filled by a repeat and is then dropped, and when that is the "
            "first frame of a marker, the marker shows one frame (41.7 ms) "
            f"later. {frame_steps} of the changes above are exactly one "
            "frame, at chunks with repeats (late frames on this loaded "
            "machine, see the load average). Over the stall the "
            "last frame is repeated slot by slot and silence is filled to "
            "the sample, so the timeline stays continuous.")
    doc.add()


def section_webhook(doc, r):
    doc.add("## 7. Webhooks")
    doc.add()
    if r is None:
        doc.add("No result (bench-webhook failed or did not run).")
    else:
        doc.add(f"One delivery with a {r['body_bytes']}-byte body, a fixed "
                f"Ed25519 key and its signature, verified over and over: "
                f"`gst_session_webhook_verify()` (headers from a "
                f"SoupMessageHeaders, timestamp, SHA-256 of the body, the "
                f"signed message rebuilt, Ed25519 with a one-key key set), "
                f"`gst_session_webhook_verify_values()`, and nettle's "
                f"`ed25519_sha512_verify()` alone on the same signed message. "
                f"{r['runs']} rotating blocks timed in the thread's CPU "
                f"time (rates per CPU second: other processes on the shared "
                f"machine do not skew them), medians.")
        doc.add()
        v, vv, n = med(r["verify"]), med(r["verify_values"]), med(r["nettle"])
        over = 1 - v / n if finite(v, n) else math.nan
        over2 = 1 - vv / n if finite(vv, n) else math.nan
        rows = [
            ["`gst_session_webhook_verify`", fmt(v, "/s"), fmt(n, "/s"),
             ratio(v, n), f"overhead {fmt(over * 100, ' %', 1)}", "≤ 10 %",
             verdict(over <= 0.10 if finite(over) else None)],
            ["`gst_session_webhook_verify_values`", fmt(vv, "/s"),
             fmt(n, "/s"), ratio(vv, n), f"overhead {fmt(over2 * 100, ' %', 1)}",
             "≤ 10 %", verdict(over2 <= 0.10 if finite(over2) else None)],
        ]
        doc.add(table(["verifications per CPU second", "library", "nettle "
                       "alone", "ratio", "", "target", "result"], rows))
        doc.row("Webhook verification overhead", fmt(v, "/s"), fmt(n, "/s"),
                ratio(v, n), "≤ 10 % overhead",
                verdict(over <= 0.10 if finite(over) else None))
        doc.add()
        doc.add("**What dominates.** The Ed25519 verification (a "
                "double-scalar multiplication) is almost all of it; the "
                "SHA-256 of a 1 KiB body, the header checks and the "
                "allocations around it cost a few per cent.")
        doc.add()
    doc.add("### Durable deliveries through the receiver")
    doc.add()
    lst = (r or {}).get("listen")
    if not lst or "skipped" in lst:
        doc.add("`gst-session webhook listen`: "
                + ((lst or {}).get("skipped") or "not run") + ".")
        doc.add()
        return
    one, four, fl = (med(lst["stored_1_sender"]), med(lst["stored_4_senders"]),
                     med(lst["fsync_floor"]))
    doc.add("`gst-session webhook listen --jsonl` with the key set served by "
            "the benchmark and its database in the build directory (on "
            "disk): signed deliveries (1 KiB bodies, signed beforehand) "
            "posted over keep-alive connections by 1 and by 4 concurrent "
            "senders, each answered 200 `{\"status\": \"stored\"}` only once "
            "verified and its commit synced. Beside it the floor of any "
            "durable receiver on this disk: appending the same body to a "
            "file and `fdatasync()`, in a loop. "
            f"{lst['deliveries']} deliveries, {lst['refused']} refused; all "
            f"were processed (JSONL appended and synced) "
            f"{fmt(lst['processed_lag_ms'], ' ms')} after the last 200.")
    doc.add()
    rows = [
        ["1 sender", fmt(one, "/s"), fmt(fl, "/s"), ratio(one, fl)],
        ["4 senders", fmt(four, "/s"), fmt(fl, "/s"), ratio(four, fl)],
    ]
    doc.add(table(["durable deliveries per second", "receiver",
                   "append + fdatasync floor", "ratio"], rows))
    doc.row("Webhook receiver: durable deliveries (4 senders)",
            fmt(four, "/s"), fmt(fl, "/s (fsync floor)"), ratio(four, fl),
            "—", "—")
    doc.add()
    if finite(one, four) and four > 1.1 * one:
        conc = ("Concurrent senders overlap their verification and HTTP "
                "with each other's syncs.")
    else:
        conc = ("More senders do not raise the rate: SQLite commits one "
                "transaction at a time, each waiting for its own sync (no "
                "group commit), and the store, the processing and the mark "
                "share that one writer.")
    doc.add("**What dominates.** Each delivery costs the receiver about three "
            "synced writes: the SQLite commit that stores it (WAL, "
            "`synchronous=FULL`) before the 200, the synced JSONL append, "
            "and the commit that marks it processed; then the Ed25519 "
            "verification (about 0.1 ms, above) and the HTTP exchange. "
            + conc)
    doc.add()


def section_contract(doc, r):
    doc.add("## 8. Contract library")
    doc.add()
    if r is None:
        doc.add("No result (bench-contract failed or did not run).")
        return
    doc.add(f"Messages built and parsed per CPU second by libgstsession, "
            f"beside json-glib doing only its own part of the same work "
            f"(building with JsonBuilder and json_to_string(), parsing with "
            f"json_parser_load_from_data()); {r['runs']} alternating blocks "
            f"timed in the thread's CPU time, medians.")
    doc.add()
    rows = []
    for key, label in [("world_commands_build", "world `commands`, built"),
                       ("world_commands_parse", "world `commands`, parsed "
                        "(as the service reads them)"),
                       ("director_chunk_build", "director `chunk`, built "
                        "from its fields"),
                       ("director_chunk_parse", "director `chunk`, parsed "
                        "(as directorsrc reads it)")]:
        lib, gl = med(r[key]["library"]), med(r[key]["json_glib"])
        rows.append([label, fmt(lib, "/s"), fmt(gl, "/s"), ratio(lib, gl),
                     f"{fmt(1e6 / lib, ' µs', 1) if finite(lib) else 'n/a'}"])
    doc.add(table(["messages per CPU second", "library", "json-glib alone",
                   "ratio", "library, per message"], rows))
    cb = med(r["director_chunk_parse"]["library"])
    doc.row("Contract: director chunks parsed", fmt(cb, "/s"),
            fmt(med(r["director_chunk_parse"]["json_glib"]), "/s"),
            ratio(cb, med(r["director_chunk_parse"]["json_glib"])), "—", "—")
    doc.add()
    doc.add("**What dominates.** Parsing is json-glib's parse plus the "
            "library's checks of every member against spec 000's schema "
            "(types, ranges, lengths, no unknown members, UTF-8) and the "
            "conversion to a GstStructure; building validates the same way "
            "before it serialises. Either way a message costs microseconds, "
            "against messages that come a few per second.")
    doc.add()
