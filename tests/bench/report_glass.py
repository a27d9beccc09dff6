"""The figures of tests/bench/net-glass: glass to glass per (sender,
client) pair, the issue's targets, the markdown section, and the plots
(PNG, written here with zlib and struct: lines, points, axes and a 5x7
bitmap font).

  summarise(result) -> {profile: {sender: {"rows": [...], ...}}}
  markdown(result) -> str
  plots(result, directory) -> [paths written]
"""
import math
import statistics
import struct
import zlib

STEADY_MS = 1000        # figures from 1 s after a client's first frame
LATE_MS = 20            # a frame this much later than the client's median
WIDTH_AT_S = 10         # received width: the last figure at or before 10 s
BITRATE_WINDOW_S = (5, 15)
RTP_CLOCK = 90000
SENDER_NAMES = {"reference": "reference service",
                "chromium": "chromium-service (libwebrtc)"}


# ---------------------------------------------------------------- figures

def pct(values, q):
    s = sorted(values)
    if not s:
        return None
    return s[min(len(s) - 1, int(q * (len(s) - 1) + 0.5))]


def figures(glass, late_due=None):
    if not glass:
        return None
    m = statistics.median(glass)
    return {"n": len(glass), "median": m, "p90": pct(glass, 0.9),
            "p99": pct(glass, 0.99),
            "late": sum(1 for g in glass if g > m + LATE_MS),
            "late_due": late_due}


def element_glass(data, sender):
    """Glass to glass of an element run (each frame's first rendering,
    from 1 s after the first), its lateness against its own schedule, and
    the least delay from capture to the arrival of a frame's last packet.
    The send time: the stamp's with chromium-service, else the sender
    report's."""
    frames = (data or {}).get("frames") or []
    key = 3 if sender == "chromium" else 1
    seen, glass, late, arrival, ntp_minus_stamp = set(), [], 0, [], []
    first = None
    for f in frames:
        sent = f[key]
        if sent is None:
            continue
        ident = f[4] if key == 3 else round(sent, 2)
        if ident in seen:
            continue
        seen.add(ident)
        if f[2] is not None:
            arrival.append(f[2] - sent)
        if key == 3 and f[1] is not None:
            ntp_minus_stamp.append(f[1] - sent)
        first = f[0] if first is None else first
        if f[0] < first + STEADY_MS:
            continue
        glass.append(f[0] - sent)
        late += 1 if f[5] else 0
    out = figures(glass, late)
    if out:
        out["values"] = glass
        out["min_arrival_ms"] = min(arrival) if arrival else None
        out["rendered"] = len(frames)
        if ntp_minus_stamp:
            out["ntp_minus_stamp_ms"] = statistics.median(ntp_minus_stamp)
    return out


def unwrap(values, modulo=1 << 32):
    out, base, last = [], 0, None
    for v in values:
        if last is not None and v - last < -modulo // 2:
            base += modulo
        elif last is not None and v - last > modulo // 2:
            base -= modulo
        out.append(v + base)
        last = v
    return out


def chromium_glass(data, min_arrival):
    """Chromium's glass to glass: from the stamps when it read them; and
    from each presented frame's RTP timestamp, anchored so that its least
    delay from capture to arrival is the element's (min_arrival, same
    sender and path). Each frame's first presentation, from 1 s after the
    first."""
    frames = (data or {}).get("presented") or []
    t0 = (data or {}).get("t0_epoch_ms")
    out = {}
    if not frames or t0 is None:
        return out
    first = frames[0][0]
    seen, stamped, pairs = set(), [], []
    for f in frames:
        if f[3] is None or f[4] in seen:
            continue
        seen.add(f[4])
        if f[0] >= first + STEADY_MS:
            stamped.append((f[2], t0 + f[0] - f[3]))
    if stamped:
        out["stamp"] = figures([g for _, g in stamped])
        out["stamp"]["values"] = [g for _, g in stamped]
    with_rtp = [f for f in frames if f[2] is not None and f[1] is not None]
    if with_rtp and min_arrival is not None:
        xs = unwrap([f[2] for f in with_rtp])
        ms = [x * 1000.0 / RTP_CLOCK for x in xs]
        d = min(f[1] - m for f, m in zip(with_rtp, ms)) - min_arrival
        seen, glass, by_rtp = set(), [], {}
        for f, m in zip(with_rtp, ms):
            if f[2] in seen:
                continue
            seen.add(f[2])
            if f[0] >= first + STEADY_MS:
                glass.append(f[0] - m - d)
                by_rtp[f[2]] = f[0] - m - d
        if glass:
            out["rtp"] = figures(glass)
            out["rtp"]["values"] = glass
            if stamped:
                err = [by_rtp[r] - g for r, g in stamped if r in by_rtp]
                if err:
                    out["rtp_error_ms"] = statistics.median(err)
    return out


def element_series(data):
    """Per session/stats message: [s, received width, height, kbit/s]
    (None before the first frame, and in the first message, which has no
    rate yet)."""
    out = []
    for i, e in enumerate((data or {}).get("stats") or []):
        rate = e.get("video-bitrate")
        out.append([e.get("t"), e.get("video-received-width") or None,
                    e.get("video-received-height") or None,
                    rate / 1000.0 if rate is not None and i else None])
    return out


def chromium_series(data):
    """Per second from the 500 ms getStats samples: [s, width, height,
    kbit/s of bytesReceived]."""
    samples = [x for x in (data or {}).get("samples") or [] if x.get("video")]
    out, prev = [], None
    for k in range(1, 3600):
        upto = [x for x in samples if x["t"] <= k * 1000]
        if not upto:
            continue
        if upto[-1] is samples[-1] and samples[-1]["t"] < (k - 1) * 1000:
            break
        cur = upto[-1]
        v = cur["video"]
        rate = None
        if prev is not None and cur["t"] > prev["t"]:
            rate = (v.get("bytesReceived", 0) - prev["video"].get(
                "bytesReceived", 0)) * 8 / (cur["t"] - prev["t"])
        out.append([k, v.get("frameWidth"), v.get("frameHeight"), rate])
        prev = cur
    return out


def sender_series(sender):
    """What chromium-service sent in a session, per second: [s, width,
    height, kbit/s of bytesSent, target kbit/s, its estimate kbit/s]."""
    out, prev = [], None
    for x in (sender or {}).get("samples") or []:
        if x.get("t_ms") is None:
            continue
        rate = None
        if prev is not None and x["t_ms"] > prev["t_ms"]:
            rate = ((x.get("bytesSent") or 0) - (prev.get("bytesSent") or 0)) \
                * 8 / (x["t_ms"] - prev["t_ms"])
        out.append([x["t_ms"] / 1000.0, x.get("frameWidth"), x.get("frameHeight"),
                    rate, (x.get("targetBitrate") or 0) / 1000.0,
                    x.get("available_kbps")])
        prev = x
    return out


def width_at(series, at=WIDTH_AT_S, column=1):
    """The last figure of @column (the width) at or before @at s."""
    w = [s[column] for s in series if s[0] is not None and s[0] <= at + 0.25
         and len(s) > column and s[column]]
    return w[-1] if w else None


def mean_rate(series, window=BITRATE_WINDOW_S):
    r = [s[3] for s in series if s[0] is not None and s[3] is not None
         and window[0] < s[0] <= window[1] + 0.25]
    return sum(r) / len(r) if r else None


def continuity(pairs):
    """From (time ms, counter) per rendering: the share of the counters
    from the first to the last rendered that were, and the longest time
    between two new ones (ms), over the whole run."""
    seen, times, counters = set(), [], []
    for t, c in pairs:
        if c is None or c in seen:
            continue
        seen.add(c)
        times.append(t)
        counters.append(c)
    if len(counters) < 2:
        return None
    span = max(counters) - min(counters) + 1
    return {"share": len(counters) / span,
            "longest_ms": max(b - a for a, b in zip(times, times[1:]))}


def run_continuity(data, key):
    """continuity() of a run: an element's "frames" or Chromium's
    "presented", each [time ms, ..., counter at index 4, ...]."""
    return continuity([(f[0], f[4]) for f in (data or {}).get(key) or []
                       if len(f) > 4])


def mean_target(series, window=BITRATE_WINDOW_S):
    """The sender's encoder target (the picture's bitrate, without FEC and
    retransmissions), averaged over the window."""
    r = [s[4] for s in series if s[0] is not None and s[4]
         and window[0] < s[0] <= window[1] + 0.25]
    return sum(r) / len(r) if r else None


def summarise(result):
    out = {}
    for pname, pr in (result.get("profiles") or {}).items():
        out[pname] = {}
        for sender, sr in (pr.get("senders") or {}).items():
            runs = sr.get("runs") or []
            s = {"error": sr.get("error"), "rows": []}
            # the least capture-to-arrival delay of the elements, per app
            min_arrival = {}
            for r in runs:
                if r["kind"] != "element":
                    continue
                g = element_glass(r.get("data"), sender)
                r["_glass"] = g
                if g and g.get("min_arrival_ms") is not None:
                    app = r["app"]
                    min_arrival[app] = min(min_arrival.get(app, math.inf),
                                           g["min_arrival_ms"])
            for r in runs:
                row = {"client": r["client"], "app": r["app"], "rc": r["rc"],
                       "kind": r["kind"], "seconds": r.get("seconds")}
                row["lossy"] = "--loss" in (pr.get("options") or [])
                if r["kind"] == "element":
                    row["continuity"] = run_continuity(r.get("data"), "frames") \
                        if sender == "chromium" else None
                    row["glass"] = r.get("_glass")
                    row["series"] = element_series(r.get("data"))
                    row["latency_ms"] = (r.get("data") or {}).get("latency_ms")
                    row["notes"] = ((r.get("data") or {}).get("notes") or [])[:3]
                else:
                    cg = chromium_glass(r.get("data"), min_arrival.get(r["app"]))
                    row["method"] = "stamp" if "stamp" in cg else "rtp"
                    row["glass"] = cg.get(row["method"])
                    row["rtp_glass"] = cg.get("rtp")
                    row["rtp_error_ms"] = cg.get("rtp_error_ms")
                    row["series"] = chromium_series(r.get("data"))
                    row["continuity"] = run_continuity(r.get("data"), "presented") \
                        if sender == "chromium" else None
                    row["clock_offset_ms"] = (r.get("data") or {}).get(
                        "page_clock_offset_ms")
                    row["error"] = (r.get("data") or {}).get("error")
                row["sender_series"] = sender_series(r.get("sender"))
                if r.get("sender"):
                    offs = [x.get("clock_offset_ms") for x in
                            r["sender"].get("samples") or []
                            if x.get("clock_offset_ms") is not None]
                    row["sender_clock_offset_ms"] = min(offs) if offs else None
                s["rows"].append(row)
                r.pop("_glass", None)
            s["chromium"] = {row["app"]: row for row in s["rows"]
                             if row["kind"] == "chromium"}
            out[pname][sender] = s
    return out


def summary_json(result):
    """The figures without the per-frame values, for the JSON result."""
    out = {}
    for pname, ps in summarise(result).items():
        out[pname] = {}
        for sender, s in ps.items():
            rows = []
            for row in s["rows"]:
                r = {k: v for k, v in row.items() if k not in ("series",
                                                               "sender_series")}
                for k in ("glass", "rtp_glass"):
                    if r.get(k):
                        r[k] = {a: b for a, b in r[k].items() if a != "values"}
                r["width_at_10s"] = width_at(row["series"])
                r["kbps_5_15s"] = mean_rate(row["series"])
                r["targets"] = [[t, ok] for t, ok in targets(
                    sender, row, s["chromium"].get(row["app"]))] \
                    if row["kind"] == "element" else []
                rows.append(r)
            out[pname][sender] = {"error": s.get("error"), "rows": rows}
    return out


def client_label(row):
    if row["kind"] == "chromium":
        return "Chromium (%s)" % row["app"]
    return row["client"]


def targets(sender, row, ch):
    """The issue's targets for an element row against Chromium of its app:
    [(text, ok)]."""
    out = []
    g, c = row.get("glass"), (ch or {}).get("glass")
    if g and c:
        out.append(("median %.0f ms ≤ Chromium's %.0f + 20 ms"
                    % (g["median"], c["median"]),
                    g["median"] <= c["median"] + 20))
        out.append(("p90 %.0f ms ≤ Chromium's p90 %.0f + 30 ms"
                    % (g["p90"], c["p90"]), g["p90"] <= c["p90"] + 30))
    if sender == "chromium" and ch:
        we, wc = width_at(row["series"]), width_at(ch["series"])
        if we and wc:
            out.append(("received width at %d s %d ≥ Chromium's %d"
                        % (WIDTH_AT_S, we, wc), we >= wc))
        be, bc = mean_rate(row["series"]), mean_rate(ch["series"])
        if be is not None and bc:
            out.append(("bitrate %d–%d s %.0f kbit/s at least 90 %% of "
                        "Chromium's %.0f" % (BITRATE_WINDOW_S + (be, bc)),
                        be >= 0.9 * bc))
        ce, cc = row.get("continuity"), ch.get("continuity")
        if row.get("lossy") and ce and cc:
            out.append(("frames shown %.1f %% of the sent counters, at least "
                        "99.5 %% or Chromium's %.1f %%"
                        % (ce["share"] * 100, cc["share"] * 100),
                        ce["share"] >= min(0.995, cc["share"])))
            out.append(("the longest stretch without a new frame %.0f ms ≤ "
                        "Chromium's %.0f ms" % (ce["longest_ms"],
                                                cc["longest_ms"]),
                        ce["longest_ms"] <= cc["longest_ms"]))
        te, tc = mean_target(row["sender_series"]), mean_target(ch["sender_series"])
        if te is not None and tc:
            out.append(("the sender's encoder target %d–%d s %.0f kbit/s at "
                        "least 90 %% of Chromium's %.0f"
                        % (BITRATE_WINDOW_S + (te, tc)), te >= 0.9 * tc))
    return out


def ms(v):
    return "—" if v is None else "%.0f ms" % v


def markdown(result, image_prefix="perf/"):
    """The section; the plots linked as image_prefix + their names (from
    docs/performance.md: perf/)."""
    m = result.get("machine") or {}
    summary = summarise(result)
    lines = ["## Glass to glass beside Chromium (`tests/bench/net-glass`)", ""]
    lines.append(
        "Machine: %s × %s (`nproc`), kernel %s, %s; commit %s, %s; the run "
        "took %s s (`tests/bench/net-glass --markdown`). Each profile is one "
        "fresh `tests/net/netpath` path (seed %s); in it the reference "
        "service (`--media cached`) and then chromium-service (headless "
        "Chromium sending a canvas stamped with its send time) serve, each "
        "warmed by one discarded session per app. Clients, one after the "
        "other: worldsrc (playout interactive, %g s), worldsrc "
        "`playout=smooth` and directorsrc (smooth, %g s each) into "
        "`fakesink sync=true signal-handoffs=true`, and headless Chromium "
        "(`tests/net/chromium-client`, as long as the element of its app). "
        "Glass to glass is the rendering's wall time (the handoff; "
        "Chromium: `requestVideoFrameCallback`'s `presentationTime`) minus "
        "the frame's send time: the stamp's with chromium-service (read by "
        "`framestamp.py`, and by the page); with the reference service the "
        "sender report's NTP time for the elements, and for Chromium, which "
        "exposes no capture time for a receive-only stream, the frame's RTP "
        "timestamp anchored so that its least capture-to-arrival delay is "
        "the elements' in the same run (the same anchoring on "
        "chromium-service is off its stamps by the figure given below). "
        "Each frame's first rendering, from 1 s after the client's first "
        "frame. *> median + 20*: frames rendered more than 20 ms later "
        "than the client's median; *late*: frames the element rendered "
        "more than 20 ms after their due time (timestamp plus the "
        "pipeline's latency)." % (
            m.get("nproc", "?"), m.get("cpu", "?"), m.get("kernel", "?"),
            m.get("chromium", "?"), m.get("commit", "?"), m.get("date", "?"),
            result.get("run_seconds", "?"), result.get("seed", "?"),
            result.get("long", 30), result.get("seconds", 15)))
    lines.append("")
    for pname, ps in summary.items():
        pr = result["profiles"][pname]
        lines.append("### %s (`%s`)" % (pname, " ".join(pr.get("options") or [])))
        lines.append("")
        if pr.get("load"):
            lines.append("Load average (1 min) before and after: %.1f, %.1f "
                         "(this run's clients and senders, and anything "
                         "else on the machine)." % tuple(pr["load"]))
            lines.append("")
        lines.append("| sender | client | frames | median | p90 | p99 | "
                     "> median + 20 | late | median ÷ Chromium's |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        checks, notes = [], []
        anchors = []
        for sender, s in ps.items():
            if s.get("error"):
                lines.append("| %s | — | %s | | | | | | |" % (
                    SENDER_NAMES.get(sender, sender), s["error"]))
                continue
            for row in s["rows"]:
                g = row.get("glass")
                ch = s["chromium"].get(row["app"])
                cg = (ch or {}).get("glass")
                name = client_label(row)
                if row["kind"] == "chromium" and row.get("method") == "rtp":
                    name += " ¹"
                if not g:
                    lines.append("| %s | %s | no frame (exit %s%s) | | | | | | |" % (
                        SENDER_NAMES.get(sender, sender), name, row["rc"],
                        ": " + row["error"] if row.get("error") else ""))
                    continue
                lines.append("| %s | %s | %d | %s | %s | %s | %d | %s | %s |" % (
                    SENDER_NAMES.get(sender, sender), name, g["n"],
                    ms(g["median"]), ms(g["p90"]), ms(g["p99"]), g["late"],
                    "—" if g.get("late_due") is None else g["late_due"],
                    "%.2f×" % (g["median"] / cg["median"])
                    if cg and cg["median"] > 0 else "—"))
                if row["kind"] == "element" and sender == "reference" \
                        and g.get("min_arrival_ms") is not None:
                    anchors.append("%s %.1f ms" % (row["client"],
                                                   g["min_arrival_ms"]))
                if row["kind"] == "element":
                    for text, ok in targets(sender, row, ch):
                        checks.append("- %s, %s: %s: **%s**" % (
                            SENDER_NAMES.get(sender, sender), row["client"],
                            text, "met" if ok else "missed"))
                    if (g or {}).get("ntp_minus_stamp_ms") is not None:
                        notes.append(
                            "%s on chromium-service: the sender report's "
                            "capture time minus the stamp's send time is "
                            "%+.1f ms (median): what a glass to glass from "
                            "the sender reports misses with this sender." % (
                                row["client"], g["ntp_minus_stamp_ms"]))
                elif row.get("rtp_error_ms") is not None:
                    notes.append(
                        "Chromium (%s) on chromium-service: its RTP-anchored "
                        "glass to glass is %+.1f ms off its stamps (median; "
                        "RTP-anchored median %.0f ms)." % (
                            row["app"], row["rtp_error_ms"],
                            row["rtp_glass"]["median"]))
        lines.append("")
        lines.append("![glass to glass, %s](%sglass-%s.png)" % (
            pname, image_prefix, pname.lower()))
        lines.append("")
        if any(r.get("method") == "rtp" for s in ps.values()
               for r in s.get("rows") or []):
            lines.append("¹ From the RTP timestamps, anchored on the "
                         "elements' least capture-to-arrival delay.")
            lines.append("")
        lines.append("Targets (issue 29: same sender, same path):")
        lines.append("")
        lines += checks or ["- no figures"]
        lines.append("")
        rec = received_table(ps.get("chromium"))
        if rec:
            lines += rec
        if anchors:
            notes.append("The reference service: the elements' least "
                         "delay from capture to a frame's last packet, per "
                         "run (Chromium's anchor; their spread is its "
                         "uncertainty): %s." % ", ".join(anchors))
        if notes:
            lines += notes + [""]
        offs = clock_notes(ps)
        if offs:
            lines += [offs, ""]
    images = ["![received from %s](%sreceived-%s.png)" % (
        SENDER_NAMES.get(sender, sender), image_prefix, sender)
        for sender in result.get("senders") or []]
    if images:
        lines += ["### Received, the first 30 s (world)", "",
                  "Per second, worldsrc (playout interactive) and Chromium "
                  "on both paths: the width received and the video bitrate.",
                  ""]
        for image in images:
            lines += [image, ""]
    return "\n".join(lines)


def received_table(s):
    if not s or s.get("error"):
        return []
    out = ["Received from chromium-service (the element's `session/stats` "
           "`video-received-width` and `video-bitrate`; Chromium's "
           "`inbound-rtp` `frameWidth` and `bytesReceived`; the sender's "
           "`outbound-rtp` beside them: `bytesSent`, and `targetBitrate`, "
           "its encoder's target, the picture's bitrate; what it sends over "
           "that is retransmissions and, to a client that offers them "
           "(Chromium does, the element does not), RED and ULPFEC, which "
           "libwebrtc adds once the receiver reports loss; and its estimate of "
           "the path, the candidate pair's `availableOutgoingBitrate`):", "",
           "| client | width at %d s | sent width at %d s | bitrate %d–%d s | "
           "sent %d–%d s | encoder target %d–%d s | estimate at %d s |"
           % ((WIDTH_AT_S, WIDTH_AT_S) + BITRATE_WINDOW_S * 3 + (WIDTH_AT_S,)),
           "|---|---|---|---|---|---|---|"]
    for row in s["rows"]:
        w = width_at(row["series"])
        sw = width_at(row["sender_series"])
        b = mean_rate(row["series"])
        sb = mean_rate(row["sender_series"])
        tb = mean_target(row["sender_series"])
        est = width_at(row["sender_series"], column=5)
        out.append("| %s | %s | %s | %s | %s | %s | %s |" % (
            client_label(row), w or "—", sw or "—",
            "—" if b is None else "%.0f kbit/s" % b,
            "—" if sb is None else "%.0f kbit/s" % sb,
            "—" if tb is None else "%.0f kbit/s" % tb,
            "—" if est is None else "%.0f kbit/s" % est))
    return out + [""]


def clock_notes(ps):
    """The pages' clocks against the wall clock (a local POST later)."""
    client, sender = [], []
    for s in ps.values():
        for row in s.get("rows") or []:
            if row.get("clock_offset_ms") is not None:
                client.append(row["clock_offset_ms"])
            if row.get("sender_clock_offset_ms") is not None:
                sender.append(row["sender_clock_offset_ms"])
    if not client and not sender:
        return ""
    return ("Clocks: the wall clock minus the Chromium pages' (`timeOrigin + "
            "now()`, the least over their local POSTs, which adds the POST's "
            "time): client %s, sender %s." % (
                "%.1f–%.1f ms" % (min(client), max(client)) if client else "—",
                "%.1f–%.1f ms" % (min(sender), max(sender)) if sender else "—"))


# ---------------------------------------------------------------- PNG

# 5x7 glyphs, ASCII 32..126: five column bytes each, bit 0 the top row
FONT = bytes.fromhex(
    "0000000000" "00005f0000" "0007000700" "147f147f14" "242a7f2a12"
    "2313086462" "3649552250" "0005030000" "001c224100" "0041221c00"
    "082a1c2a08" "08083e0808" "0050300000" "0808080808" "0060600000"
    "2010080402" "3e5149453e" "00427f4000" "4261514946" "2141454b31"
    "1814127f10" "2745454539" "3c4a494930" "0171090503" "3649494936"
    "064949291e" "0036360000" "0056360000" "0008142241" "1414141414"
    "4122140800" "0201510906" "324979413e" "7e1111117e" "7f49494936"
    "3e41414122" "7f4141221c" "7f49494941" "7f09090101" "3e41415132"
    "7f0808087f" "00417f4100" "2040413f01" "7f08142241" "7f40404040"
    "7f0204027f" "7f0408107f" "3e4141413e" "7f09090906" "3e4151215e"
    "7f09192946" "4649494931" "01017f0101" "3f4040403f" "1f2040201f"
    "7f2018207f" "6314081463" "0304780403" "6151494543" "00007f4141"
    "0204081020" "41417f0000" "0402010204" "4040404040" "0001020400"
    "2054545478" "7f48444438" "3844444420" "384444487f" "3854545418"
    "087e090102" "081454543c" "7f08040478" "00447d4000" "2040443d00"
    "007f102844" "00417f4000" "7c04180478" "7c08040478" "3844444438"
    "7c14141408" "081414187c" "7c08040408" "4854545420" "043f444020"
    "3c4040207c" "1c2040201c" "3c4030403c" "4428102844" "0c5050503c"
    "4464544c44" "0008364100" "00007f0000" "0041360800" "08082a1c08")
# the symbols beyond ASCII the labels use, drawn as their nearest glyph
SUBSTITUTE = {"–": "-", "—": "-", "≤": "<", "≥": ">", "×": "x", "÷": "/"}


class Canvas:
    def __init__(self, width, height, background=(255, 255, 255)):
        self.w, self.h = width, height
        self.px = bytearray(bytes(background) * (width * height))

    def dot(self, x, y, c):
        if 0 <= x < self.w and 0 <= y < self.h:
            i = 3 * (y * self.w + x)
            self.px[i:i + 3] = bytes(c)

    def fill(self, x0, y0, x1, y1, c):
        for y in range(max(0, y0), min(self.h, y1)):
            for x in range(max(0, x0), min(self.w, x1)):
                self.dot(x, y, c)

    def line(self, x0, y0, x1, y1, c, width=1, dash=None, clip=None):
        """A line of width px (Bresenham); dash: (on, off) px; clip: the
        rectangle (x0, y0, x1, y1) it stays in."""
        x0, y0, x1, y1 = int(round(x0)), int(round(y0)), int(round(x1)), \
            int(round(y1))
        dx, dy = abs(x1 - x0), -abs(y1 - y0)
        sx, sy = (1 if x0 < x1 else -1), (1 if y0 < y1 else -1)
        err, n, r = dx + dy, 0, width // 2
        for _ in range(dx - dy + 1):        # bounded: the line's length
            on = dash is None or n % (dash[0] + dash[1]) < dash[0]
            if on and (clip is None or (clip[0] <= x0 <= clip[2]
                                        and clip[1] <= y0 <= clip[3])):
                for ox in range(-r, width - r):
                    for oy in range(-r, width - r):
                        self.dot(x0 + ox, y0 + oy, c)
            n += 1
            if x0 == x1 and y0 == y1:
                break
            e2 = 2 * err
            if e2 >= dy:
                err += dy
                x0 += sx
            if e2 <= dx:
                err += dx
                y0 += sy

    def text(self, x, y, s, c=(0, 0, 0), scale=1):
        for ch in s:
            ch = SUBSTITUTE.get(ch, ch)
            code = ord(ch) if 32 <= ord(ch) < 127 else ord("?")
            cols = FONT[5 * (code - 32):5 * (code - 32) + 5]
            for cx, bits in enumerate(cols):
                for cy in range(7):
                    if bits >> cy & 1:
                        self.fill(x + cx * scale, y + cy * scale,
                                  x + (cx + 1) * scale, y + (cy + 1) * scale, c)
            x += 6 * scale

    @staticmethod
    def text_width(s, scale=1):
        return 6 * scale * len(s) - scale

    def png(self):
        raw = b"".join(b"\0" + bytes(self.px[3 * self.w * y:3 * self.w * (y + 1)])
                       for y in range(self.h))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + \
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        return (b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", self.w, self.h, 8, 2, 0,
                                           0, 0)) +
                chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def ticks(lo, hi, n=6):
    """Round tick values from lo to hi, about n of them."""
    if hi <= lo:
        hi = lo + 1
    raw = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(raw))
    step = next(s * mag for s in (1, 2, 2.5, 5, 10) if s * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    return [first + i * step for i in range(int((hi - first) / step + 1e-9) + 1)]


def nice_top(v, n=6):
    """The first round tick at or above v."""
    t = ticks(0, max(v, 1e-9), n)
    step = t[1] - t[0] if len(t) > 1 else 1
    return math.ceil(v / step - 1e-9) * step


def tick_text(v):
    return ("%d" % v) if abs(v - round(v)) < 1e-9 else ("%g" % round(v, 3))


class Panel:
    """Axes in a rectangle of a canvas: data to pixels, ticks, series."""
    GRID, AXIS = (225, 225, 225), (60, 60, 60)

    def __init__(self, canvas, box, xlim, ylim, title, xlabel, ylabel,
                 legend_columns=1):
        self.c, self.box = canvas, box       # x0, y0, x1, y1 of the plot area
        self.xlim, self.ylim = xlim, ylim
        x0, y0, x1, y1 = box
        for t in ticks(*xlim):
            x = self.x(t)
            canvas.line(x, y0, x, y1, self.GRID)
            canvas.line(x, y1, x, y1 + 4, self.AXIS)
            s = tick_text(t)
            canvas.text(int(x - Canvas.text_width(s) / 2), y1 + 7, s, self.AXIS)
        for t in ticks(*ylim, n=5):
            y = self.y(t)
            canvas.line(x0, y, x1, y, self.GRID)
            canvas.line(x0 - 4, y, x0, y, self.AXIS)
            s = tick_text(t)
            canvas.text(x0 - 7 - Canvas.text_width(s), int(y - 3), s, self.AXIS)
        canvas.line(x0, y1, x1, y1, self.AXIS)
        canvas.line(x0, y0, x0, y1, self.AXIS)
        canvas.text(x0, y0 - 30, title, (0, 0, 0), 2)
        canvas.text(x0 - 7 - Canvas.text_width(ylabel) // 2, y0 - 13, ylabel,
                    self.AXIS)
        canvas.text(int((x0 + x1) / 2 - Canvas.text_width(xlabel) / 2), y1 + 20,
                    xlabel, self.AXIS)
        # the legend: below the axis' label, in columns
        self.legend_n, self.legend_columns = 0, legend_columns

    def x(self, v):
        x0, _, x1, _ = self.box
        return x0 + (v - self.xlim[0]) / (self.xlim[1] - self.xlim[0]) * (x1 - x0)

    def y(self, v):
        _, y0, _, y1 = self.box
        return y1 - (v - self.ylim[0]) / (self.ylim[1] - self.ylim[0]) * (y1 - y0)

    def series(self, points, color, label, dash=None, width=2, marks=False):
        pts = [(self.x(a), self.y(b)) for a, b in points if a is not None
               and b is not None]
        for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
            self.c.line(xa, ya, xb, yb, color, width, dash, self.box)
        if marks:
            for xa, ya in pts:
                if self.box[0] <= xa <= self.box[2] and \
                        self.box[1] <= ya <= self.box[3]:
                    self.c.fill(int(xa) - 2, int(ya) - 2, int(xa) + 3,
                                int(ya) + 3, color)
        if label is None:
            return
        x0, _, x1, y1 = self.box
        col = self.legend_n % self.legend_columns
        lx = x0 + col * (x1 - x0) // self.legend_columns
        ly = y1 + 36 + 14 * (self.legend_n // self.legend_columns)
        self.c.line(lx, ly + 3, lx + 24, ly + 3, color, 2, dash)
        self.c.text(lx + 30, ly, label, (0, 0, 0))
        self.legend_n += 1


COLORS = {"worldsrc": (31, 119, 180), "worldsrc smooth": (44, 160, 44),
          "directorsrc": (148, 103, 189), "Chromium (world)": (255, 127, 14),
          "Chromium (director)": (214, 39, 40)}


def cdf(values):
    s = sorted(values)
    n = len(s)
    return [(v, (i + 1) / n) for i, v in enumerate(s)]


def plots(result, directory):
    import os
    summary = summarise(result)
    written = []
    for pname, ps in summary.items():
        senders = [s for s in ps if ps[s].get("rows")]
        if not senders:
            continue
        c = Canvas(560 * len(senders), 520)
        for i, sender in enumerate(senders):
            ox = 560 * i
            # each panel to its own p99s (the tail beyond is cut)
            top = max([row["glass"]["p99"] for row in ps[sender]["rows"]
                       if row.get("glass")] + [0])
            top = nice_top(top * 1.05 + 5) if top else 100
            p = Panel(c, (ox + 70, 60, ox + 540, 380), (0, max(top, 20)), (0, 1),
                      "%s: %s" % (pname, SENDER_NAMES.get(sender, sender)),
                      "glass to glass (ms)", "share of frames")
            for row in ps[sender]["rows"]:
                g = row.get("glass")
                if not g:
                    continue
                label = client_label(row)
                pts = cdf(g["values"])
                p.series(pts, COLORS.get(label, (0, 0, 0)),
                         "%s (median %.0f)" % (label, g["median"]),
                         dash=(6, 4) if row["kind"] == "chromium" else None)
        c.text(10, 502, "The share of frames rendered within a glass to "
               "glass time (each frame's first rendering, from 1 s after the "
               "first frame); tests/bench/net-glass, commit %s" % (
                   (result.get("machine") or {}).get("commit", "?")), (90, 90, 90))
        path = os.path.join(directory, "glass-%s.png" % pname.lower())
        with open(path, "wb") as f:
            f.write(c.png())
        written.append(path)
    for sender in result.get("senders") or []:
        series = []
        for pname, ps in summary.items():
            s = ps.get(sender)
            for row in (s or {}).get("rows") or []:
                if row["app"] == "world" and row["client"] in ("worldsrc",
                                                               "Chromium"):
                    series.append((pname, row))
        if not series:
            continue
        c = Canvas(1000, 730)
        wmax = max([x[1] or 0 for _, r in series for x in r["series"]] + [100])
        bmax = max([x[3] or 0 for _, r in series for x in r["series"]] + [100])
        pw = Panel(c, (80, 60, 960, 300), (0, 30), (0, nice_top(wmax * 1.05, 5)),
                   "Received from %s: world" % SENDER_NAMES.get(sender, sender),
                   "seconds from the session's start", "width (px)")
        pb = Panel(c, (80, 370, 960, 610), (0, 30), (0, nice_top(bmax * 1.05, 5)),
                   "", "seconds from the session's start", "video kbit/s",
                   legend_columns=2)
        palette = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40)]
        for k, (pname, row) in enumerate(series):
            label = "%s, %s" % (client_label(row), pname)
            color = palette[k % len(palette)]
            dash = (6, 4) if row["kind"] == "chromium" else None
            pw.series([(x[0], x[1]) for x in row["series"]], color, None, dash,
                      marks=True)
            pb.series([(x[0], x[3]) for x in row["series"]], color, label, dash,
                      marks=True)
        c.text(10, 712, "worldsrc: session/stats video-received-width, "
               "video-bitrate; Chromium: inbound-rtp frameWidth, bytesReceived "
               "(per second); commit %s" % (
                   (result.get("machine") or {}).get("commit", "?")), (90, 90, 90))
        path = os.path.join(directory, "received-%s.png" % sender)
        with open(path, "wb") as f:
            f.write(c.png())
        written.append(path)
    return written
