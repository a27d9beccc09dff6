"""What tests/bench/net-bench reports (docs/performance.md section 10):
the profiles and clients it runs, the issue's targets, the summary of a
client's runs, the targets met, and the section's text. Imported by
net-bench, and through it by report_net.py."""

import re
import statistics

PROFILES = [
    ("LAN", ["--delay", "1"]),
    ("Internet", ["--delay", "25", "--jitter", "5", "--loss", "1"]),
    ("Mobile", ["--delay", "60", "--jitter", "20", "--loss", "3", "--burst",
                "3", "--rate", "4000"]),
]
# (key, label, app, kind)
CLIENTS = [
    ("worldsrc", "worldsrc", "world", "element"),
    ("directorsrc", "directorsrc", "director", "element"),
    ("chromium-world", "Chromium, world", "world", "chromium"),
    ("chromium-director", "Chromium, director", "director", "chromium"),
]
FPS = {"world": 16, "director": 24}
ELEMENT_OF = {"chromium-world": "worldsrc", "chromium-director": "directorsrc"}
CHROMIUM_OF = {v: k for k, v in ELEMENT_OF.items()}
# the targets: profile -> (decodable share %, longest stretch ms,
# longest audio gap ms or None); every profile: never worse than Chromium
TARGETS = {"Internet": (99.5, 250.0, 60.0), "Mobile": (97.0, 1000.0, None)}
SEED_BASE = 1400            # run r meets --seed SEED_BASE + r


def spread(values):
    vals = [v for v in values if v is not None]
    if not vals:
        return None
    return {"median": round(statistics.median(vals), 3), "min": min(vals),
            "max": max(vals), "n": len(vals)}


def summarise(runs):
    def col(f):
        return [f(r) for r in runs]
    s = {
        "decodable_pct": spread(col(lambda r: r.get("decodable_pct"))),
        "longest_stretch_ms": spread(col(lambda r: r.get("longest_stretch_ms"))),
        "fps": spread(col(lambda r: r.get("fps"))),
        "lost_before": spread(col(lambda r: r.get("lost_before"))),
        "lost_after": spread(col(lambda r: r.get("lost_after"))),
        "failed": sum(1 for r in runs if not r["ok"]),
        "nacks": spread(col(lambda r: (r.get("stats") or {}).get(
            "video-nacks-sent", (r.get("reported") or {}).get("nack_count")))),
        "recovered": spread(col(lambda r: (r.get("stats") or {}).get(
            "video-packets-recovered", (r.get("reported") or {}).get(
                "retransmitted_packets_received")))),
        "skipped": spread(col(lambda r: r.get("frames_skipped"))),
        "latency_rise_ms": spread(col(lambda r: r.get("latency_rise_ms"))),
        "plis": spread(col(lambda r: (r.get("stats") or {}).get(
            "video-plis-sent", (r.get("reported") or {}).get("pli_count")))),
    }
    if any(r.get("audio") for r in runs):
        a = [r.get("audio") or {} for r in runs]
        s["audio_received_pct"] = spread([x.get("received_pct") for x in a])
        s["audio_longest_gap_ms"] = spread([x.get("longest_gap_ms") for x in a])
        s["audio_concealed_pct"] = spread([x.get("concealed_pct") for x in a])
        s["audio_longest_concealment_ms"] = spread(
            [x.get("longest_concealment_ms") for x in a])
        s["audio_lost_after"] = spread([x.get("lost_after") for x in a])
    return s


def targets(results):
    """Every target of the issue: [{profile, client, figure, target, value,
    baseline, met}] (medians)."""
    out = []

    def med(p, c, k):
        s = (results.get(p, {}).get(c) or {}).get("summary", {}).get(k)
        return s["median"] if s else None

    for p, _ in PROFILES:
        if p not in results:
            continue
        for c in ("worldsrc", "directorsrc"):
            if c not in results[p]:
                continue
            ch = CHROMIUM_OF[c]
            d, g = med(p, c, "decodable_pct"), med(p, c, "longest_stretch_ms")
            cd, cg = med(p, ch, "decodable_pct"), med(p, ch, "longest_stretch_ms")
            t = TARGETS.get(p)
            if t:
                out.append(dict(profile=p, client=c, figure="decodable_pct",
                                target="≥ %g %%" % t[0], value=d,
                                met=d is not None and d >= t[0]))
                out.append(dict(profile=p, client=c, figure="longest_stretch_ms",
                                target="≤ %g ms" % t[1], value=g,
                                met=g is not None and g <= t[1]))
                if t[2] is not None and c == "directorsrc":
                    a = med(p, c, "audio_longest_gap_ms")
                    out.append(dict(profile=p, client=c,
                                    figure="audio_longest_gap_ms",
                                    target="≤ %g ms" % t[2], value=a,
                                    met=a is not None and a <= t[2]))
            if ch in results[p]:
                out.append(dict(profile=p, client=c, figure="decodable_pct",
                                target="≥ Chromium", value=d, baseline=cd,
                                met=None if d is None or cd is None else d >= cd))
                out.append(dict(profile=p, client=c, figure="longest_stretch_ms",
                                target="≤ Chromium", value=g, baseline=cg,
                                met=None if g is None or cg is None else g <= cg))
    return out


# ---------------------------------------------------------------- markdown

def fmt(v, digits=1, unit=""):
    if v is None:
        return "n/a"
    return "%.*f%s" % (digits, v, unit)


def cell(s, digits=1, unit="", scale=1.0):
    """median [min–max] of a summary entry"""
    if not s:
        return "n/a"
    m, lo, hi = (s["median"] * scale, s["min"] * scale, s["max"] * scale)
    if s["n"] < 2 or fmt(lo, digits) == fmt(hi, digits):
        return fmt(m, digits, unit)
    return "%s [%s–%s]" % (fmt(m, digits, unit), fmt(lo, digits),
                           fmt(hi, digits, unit))


FIGURE_NAMES = {"decodable_pct": "decodable frames",
                "longest_stretch_ms": "longest stretch without a new frame",
                "audio_longest_gap_ms": "longest audio gap"}


def value_text(figure, v):
    if v is None:
        return "n/a"
    if figure == "decodable_pct":
        return "%.2f %%" % v
    return "%.0f ms" % v


def markdown(r, heading=True):
    """The section (text) and the Summary rows of docs/performance.md:
    [figure, value, baseline, ratio, target, result]."""
    L = []
    add = L.append
    m = r.get("machine", {})
    if heading:
        add("## 10. Network paths")
        add("")
    add("Each client streams one session of %g s per run across an emulated "
        "path (`tests/net/netpath` between two network namespaces): the "
        "reference service in one (`--media cached --cache-dump`), the client "
        "in the other; %d run(s), a fresh path, service and client per "
        "session, one client at a time; every client of run *r* meets netpath "
        "`--seed %d+r`, so the same random draws decide the losses (by packet "
        "number). `tests/bench/net-bench`, which wrote this section." %
        (r["seconds"], r["runs"], r.get("seed_base", SEED_BASE)))
    add("")
    add("- **worldsrc, directorsrc**: `decode=false` into Matroska and "
        "`session/stats` (`stats-interval=1000`, `gst-launch-1.0 -m`) in the "
        "same run. A frame counts as *decodable* when its bytes are one of "
        "the service's loop and every frame since the last keyframe is the "
        "loop's successor of the one before; the *longest stretch* is the "
        "largest step between such frames' timestamps (the recording's "
        "timeline), from the first frame to the session's end. For every "
        "client a frame counts when it arrived before the stop: here the "
        "window ends at the stop moved in the recording's timeline by as much "
        "as the element's jitterbuffer latency rose while media flowed "
        "(`jitterbuffer-latency-ms`, the last `session/stats` against the "
        "first after the first frame; each rise places later media that much "
        "later, and the audio's gap it leaves is not expected to hold "
        "packets); *skipped*: loop positions missing between two recorded "
        "frames (frames lost, or passed over by the service when it answered "
        "a keyframe request with a keyframe from elsewhere in its loop); *after "
        "recovery*: `video-packets-lost` of the last `session/stats`; audio: "
        "Opus packets recorded against the session's length after the first "
        "one (20 ms each), and the largest step between their timestamps.")
    add("- **Chromium** (headless, `tests/net/chromium-client`, the same "
        "service and path): `framesDecoded` (getStats) as decodable frames, "
        "plus the complete frames still in its jitter buffer at the stop "
        "(`framesReceived` − `framesDecoded` − `framesDropped`); "
        "the longest stretch between presented frames "
        "(`requestVideoFrameCallback`, 60 Hz rendering steps), or from the "
        "last to the session's end; *after recovery*: `packetsLost` minus "
        "`retransmittedPacketsReceived`; audio: packets received / (received "
        "+ lost), concealed samples and the longest concealment run (an upper "
        "bound at 500 ms resolution).")
    add("- *Expected* frames: the session's seconds after the first frame × "
        "16 fps (world) or 24 fps (director); *fps*: decodable frames per "
        "second of that time; shares are capped at 100 % (Chromium decodes a "
        "frame or two before it presents the first, where its window starts). "
        "*On the path*: what netpath dropped toward the "
        "client (random loss and, on Mobile, tail drops at the rate cap; "
        "signalling, DTLS and RTCP packets included). Medians [min–max].")
    add("")
    cmdline = r.get("command") or "tests/bench/net-bench"
    add("Machine: %s × %s (`nproc`), kernel %s, GStreamer %s, Chromium %s; "
        "run %s, commit %s%s; `%s` (%s min)." % (
            m.get("nproc", "?"), m.get("cpu", "?"), m.get("kernel", "?"),
            m.get("gstreamer", "?"), m.get("chromium", "?"), m.get("date", "?"),
            m.get("commit", "?"),
            " (with uncommitted changes in gst/, ext/ or tools/)"
            if m.get("dirty", "0") not in ("0", "") else "", cmdline,
            fmt(r.get("duration_s", 0) / 60.0, 0)))
    add("")
    res = r.get("results", {})
    for p, popts in PROFILES:
        if p not in res:
            continue
        add("### %s (`%s`)" % (p, " ".join(r.get("profiles", {}).get(p, popts))))
        add("")
        add("| client | decodable frames | longest stretch | fps | lost on the "
            "path / after recovery | audio |")
        add("|---|---|---|---|---|---|")
        for key, label, app, kind in CLIENTS:
            e = res[p].get(key)
            if not e:
                continue
            s = e["summary"]
            if kind == "element":
                audio = ("received %s, longest gap %s" % (
                    cell(s.get("audio_received_pct"), 1, " %"),
                    cell(s.get("audio_longest_gap_ms"), 0, " ms"))
                    if app == "director" else "—")
            else:
                audio = ("concealed %s, longest concealment ≤ %s" % (
                    cell(s.get("audio_concealed_pct"), 2, " %"),
                    cell(s.get("audio_longest_concealment_ms"), 0, " ms"))
                    if app == "director" else "—")
            failed = " (%d failed)" % s["failed"] if s.get("failed") else ""
            add("| %s%s | %s | %s | %s | %s / %s | %s |" % (
                label, failed, cell(s["decodable_pct"], 2, " %"),
                cell(s["longest_stretch_ms"], 0, " ms"), cell(s["fps"], 1),
                cell(s["lost_before"], 0), cell(s["lost_after"], 0), audio))
        add("")
        add("Recovery (medians): " + "; ".join(
            "%s %s NACKs, %s recovered by retransmission, %s keyframe requests%s"
            % (label, cell(res[p][key]["summary"].get("nacks"), 0),
               cell(res[p][key]["summary"].get("recovered"), 0),
               cell(res[p][key]["summary"].get("plis"), 0),
               "" if kind != "element" else
               ", %s frames skipped, latency rose %s" % (
                   cell(res[p][key]["summary"].get("skipped"), 0),
                   cell(res[p][key]["summary"].get("latency_rise_ms"), 0, " ms")))
            for key, label, _, kind in CLIENTS if key in res[p]) + ".")
        add("")
    rows = []
    tl = r.get("targets", [])
    if tl:
        add("Targets (issue 14; medians of the runs):")
        add("")
    for t in tl:
        name = FIGURE_NAMES[t["figure"]]
        base = t.get("baseline")
        verdict = "n/a" if t["met"] is None else "**met**" if t["met"] else "**missed**"
        if "baseline" in t:
            add("- %s, %s: %s %s: %s against Chromium's %s: %s" % (
                t["profile"], t["client"], name, t["target"],
                value_text(t["figure"], t["value"]),
                value_text(t["figure"], base), verdict))
        else:
            miss = ""
            if t["met"] is False and t["value"] is not None:
                goal = float(re.search(r"[\d.]+", t["target"]).group())
                gap = abs(t["value"] - goal)
                miss = " (by %s)" % ("%.2f percentage points" % gap
                                     if t["figure"] == "decodable_pct"
                                     else value_text(t["figure"], gap))
            add("- %s, %s: %s %s: %s: %s%s" % (
                t["profile"], t["client"], name, t["target"],
                value_text(t["figure"], t["value"]), verdict, miss))
    if tl:
        add("")
    # the Summary: one row per figure and profile, Chromium as the baseline
    seen = {}
    for t in tl:
        seen.setdefault((t["profile"], t["client"], t["figure"]), []).append(t)
    for (p, c, f), ts in seen.items():
        base = next((t.get("baseline") for t in ts if "baseline" in t), None)
        goal = " and ".join(t["target"] for t in ts)
        oks = [t["met"] for t in ts]
        result = "n/a" if None in oks else "**pass**" if all(oks) else "**miss**"
        if result == "**miss**" and any(oks):
            result += " (%s)" % ", ".join(t["target"] for t in ts if not t["met"])
        val = ts[0]["value"]
        rat = ("%.2f×" % (val / base)) if val is not None and base else "n/a"
        if f == "audio_longest_gap_ms":
            base_text, rat = "—", "—"
        else:
            base_text = "Chromium " + value_text(f, base) if base is not None else "—"
        rows.append(["Network, %s: %s, %s (median)" % (p, c, FIGURE_NAMES[f]),
                     value_text(f, val), base_text, rat, goal, result])
    return "\n".join(L).rstrip() + "\n", rows


# ---------------------------------------------------------------- main
