"""Section 9 of docs/performance.md (report.py): the soak
(tests/bench/bench-soak.c, run by tests/bench/run --soak), from its JSON
result.

The descriptor and memory curves are a table of the samples (one a
minute), not a plot: no plotting tool is among the project's packages
(tests/deps.sh), and no other report draws one.
"""
import math

from report_common import fmt, table, verdict


def series_rows(samples, every_s=60):
    """The samples about every @every_s seconds, and the last one."""
    rows, next_t = [], 0
    for i, x in enumerate(samples):
        t = x.get("t") or 0
        # the samples come every 10 s, give or take a few hundred ms
        if t + 5 >= next_t or i == len(samples) - 1:
            rows.append(x)
            next_t = t + every_s
    return rows


def mib(kb):
    return None if kb is None else kb / 1024


def section_soak(doc, r):
    doc.add("## 9. Soak")
    doc.add()
    if r is None:
        doc.add("Not run in this report; run `tests/bench/run --soak` (every "
                "benchmark, then a 30-minute soak) or `tests/bench/run "
                "--soak-only`. See [reliability.md](reliability.md#soak).")
        doc.row("Soak (directorsrc, faults, RTMP)", "not run", "—", "—",
                "every fault recovered, no gap, duration ±2 %", "n/a")
        return
    faults = r.get("fault_list", [])
    rec = r.get("recording", {})
    out = r.get("output", {})
    mem = r.get("memory", {})
    cpu = r.get("cpu", {})
    ren = r.get("renewals", {})
    fds = r.get("descriptors", {})
    every = r.get("session_seconds", 0)
    renewing = (f"every session ended {every} s after its first frame "
                f"(`stream_exhausted`, `session_limit`, through the admin "
                f"API; not while a fault is open), so that the element "
                f"renews it, "
                if every else "")
    doc.add(f"directorsrc (renew on, chunks of 5 s) against the live "
            f"reference service for {fmt(r['minutes'], ' min', 1)}, "
            f"{renewing}a fault "
            f"injected every {r['fault_every_s']} s through the service's "
            f"admin API into the live session, restreamed as H.264 + AAC in "
            f"FLV (`x264enc` ultrafast, `flvmux latency="
            f"{r.get('mux_latency_ms', 0)} ms`, `rtmp2sink`) to a local "
            f"nginx-rtmp that records it; `tests/bench/bench-soak.c`. The "
            f"received stream is nginx's recording, read with ffprobe; "
            f"ffprobe also read the live RTMP URL "
            f"{rec.get('live_reads_ok', 0)} time(s) during the run "
            f"({rec.get('live_reads_failed', 0)} failed). Load average "
            f"{r.get('load_before', '?')} before, {r.get('load_after', '?')} "
            f"after. Result: {verdict(r.get('pass'))}.")
    doc.add()
    if r.get("ended_early_at_s") is not None:
        gone = r.get("service_exited_at_s")
        doc.add(f"**The stream ended early**, "
                f"{fmt(r['ended_early_at_s'], ' s', 1)} into the run"
                + (f" (the service exited at {fmt(gone, ' s', 1)})"
                   if gone is not None else "")
                + "; the figures below cover the run up to then.")
        doc.add()
    kinds = {}
    for f in faults:
        k = kinds.setdefault(f["kind"], {"n": 0, "ok": 0, "rec": [],
                                         "held": [], "exp": f["expected"],
                                         "sessions": 0, "warnings": 0})
        k["n"] += 1
        k["ok"] += 1 if f["as_expected"] else 0
        if f.get("recovered_after_s") is not None:
            k["rec"].append(f["recovered_after_s"])
        k["held"].append(f.get("video_held_s") or 0)
        k["sessions"] += f.get("sessions", 0)
        k["warnings"] += f.get("warnings", 0)
    rows = []
    for name, k in kinds.items():
        worst = max(k["rec"]) if k["rec"] else math.nan
        rows.append([f"`{name}`", k["exp"], k["n"], f"{k['ok']}/{k['n']}",
                     k["sessions"], k["warnings"], fmt(worst, " s", 1),
                     fmt(max(k["held"]), " s", 1)])
    doc.add(f"{r['faults']} faults, {r['faults_as_expected']} recovered as "
            f"expected; {r['sessions']} sessions in all, {r['warnings']} "
            f"warnings, {r['deadline_missed']} `deadline_missed`, "
            f"{r['director_errors']} `director/error`, "
            f"{r['stream_exhausted']} `stream_exhausted`, {r['chunks']} "
            f"chunks; {r['prompts_set']} prompts set, "
            f"{r['prompts_applied']} applied. Recovered: a new session's "
            f"first frame for the faults that end a session, else the next "
            f"chunk of the same session; held: repeated frames at the "
            f"output meanwhile (the longest of that kind).")
    doc.add()
    doc.add(table(["fault", "expected", "injected", "as expected",
                   "new sessions", "warnings", "recovered within (worst)",
                   "video held (worst)"], rows))
    doc.add()
    if every:
        gap = ren.get("to_first_frame_ms") or {}
        doc.add(f"Renewals between the faults: {ren.get('requested', 0)} "
                f"asked ({ren.get('not_applied', 0)} not applied, "
                f"{ren.get('stuck', 0)} without a new session within "
                f"20 s); from the request to the new session's first frame "
                f"{fmt(gap.get('median'), ' ms', 0)} median, "
                f"{fmt(gap.get('max'), ' ms', 0)} at most; "
                f"{ren.get('warnings_outside_faults', 0)} warnings outside "
                f"the faults (a renewal that was not immediate, or a "
                f"backoff, would be one).")
        for text in ren.get("warning_texts", [])[:3]:
            doc.add(f"- `{text}`")
        doc.add()
    wall = r.get("wall_s")
    rows = []
    for key, label in [("video", "video (H.264)"), ("audio", "audio (AAC)")]:
        t = rec.get(key, {})
        diff = rec.get(f"{key}_vs_wall_pct")
        ok = (diff is not None and abs(diff) <= 2 and t.get("gaps") == 0
              and t.get("backward_steps") == 0 and t.get("packets", 0) > 0)
        rows.append([label, t.get("packets", 0),
                     fmt(t.get("duration_s"), " s", 1),
                     f"{diff:+.2f} %" if diff is not None else "n/a",
                     fmt(t.get("nominal_step_ms"), " ms", 0),
                     fmt(t.get("max_step_ms"), " ms", 0), t.get("gaps", "n/a"),
                     t.get("backward_steps", "n/a"), verdict(ok)])
    doc.add(f"The received stream against the wall time of the run "
            f"({fmt(wall, ' s', 1)}, first to last buffer out of the "
            f"element); a gap is a step longer than the usual one by more "
            f"than one frame (audio: one packet):")
    doc.add()
    doc.add(table(["recorded", "packets", "duration", "vs wall",
                   "usual step", "longest step", "gaps", "backward steps",
                   "result"], rows))
    doc.add()
    doc.add(f"At the element's pads: {out.get('video_steps_not_one_frame')} "
            f"video steps other than one frame, "
            f"{out.get('audio_discontinuities')} audio discontinuities; "
            f"{fmt(out.get('video_repeated_s'), ' s', 1)} of repeated "
            f"frames and {fmt(out.get('audio_silence_s'), ' s', 1)} of "
            f"silence over the faults. Buffers left the pads at most "
            f"{fmt(out.get('video_max_late_ms'), ' ms', 1)} (video) and "
            f"{fmt(out.get('audio_max_late_ms'), ' ms', 1)} (audio) after "
            f"their running time, against the latency the pads report, "
            f"{fmt(out.get('video_latency_ms'), ' ms', 1)} and "
            f"{fmt(out.get('audio_latency_ms'), ' ms', 1)}.")
    doc.add()
    rows = [["pipeline process (element, decoders, encoders, muxer, sink)",
             fmt(mem.get("rss_start_mb"), " MiB", 1),
             fmt(mem.get("rss_end_mb"), " MiB", 1),
             fmt(mem.get("rss_growth_mb_per_hour"), " MiB/h", 1),
             fmt(cpu.get("process_pct_of_core"), " %", 0)],
            ["reference service", fmt(mem.get("service_rss_start_mb"),
                                      " MiB", 1),
             fmt(mem.get("service_rss_end_mb"), " MiB", 1),
             fmt(mem.get("service_rss_growth_mb_per_hour"), " MiB/h", 1),
             fmt(cpu.get("service_pct_of_core"), " %", 0)],
            ["nginx-rtmp", "", "", "", fmt(cpu.get("nginx_pct_of_core"),
                                           " %", 0)]]
    doc.add(f"Resident memory after a {fmt(mem.get('warmup_s'), ' s', 0)} "
            f"warm-up and at the end, its growth (least squares over the "
            f"samples taken every 10 s after the warm-up), and CPU as a "
            f"share of one core over the run:")
    doc.add()
    doc.add(table(["process", "RSS after warm-up", "RSS at the end",
                   "growth", "CPU"], rows))
    doc.add()
    if fds:
        limit = fds.get("limit_per_100_sessions", 2)
        judged = fds.get("judged", True)

        def fd_ok(v):
            return None if v is None or not judged else v <= limit

        rows = [["pipeline process", fmt(fds.get("first"), "", 0),
                 fmt(fds.get("after_warmup"), "", 0),
                 fmt(fds.get("end"), "", 0), fmt(fds.get("max"), "", 0),
                 fmt(fds.get("growth_per_100_sessions"), "", 2),
                 fmt(mem.get("rss_growth_kb_per_100_sessions"), " KiB", 0),
                 verdict(fd_ok(fds.get("growth_per_100_sessions")))],
                ["reference service", fmt(fds.get("service_first"), "", 0),
                 fmt(fds.get("service_after_warmup"), "", 0),
                 fmt(fds.get("service_end"), "", 0),
                 fmt(fds.get("service_max"), "", 0),
                 fmt(fds.get("service_growth_per_100_sessions"), "", 2),
                 fmt(mem.get("service_rss_growth_kb_per_100_sessions"),
                     " KiB", 0),
                 verdict(fd_ok(fds.get("service_growth_per_100_sessions")))]]
        doc.add(f"Open descriptors (`/proc/PID/fd`, every 10 s) at the "
                f"first sample, after the warm-up, at the end and at most, "
                f"and the growth per 100 sessions (least squares over the "
                f"samples after the warm-up, "
                f"{fmt(fds.get('sessions_after_warmup'), '', 0)} sessions); "
                f"more than {fmt(limit, '', 0)} per 100 sessions fails the "
                f"soak"
                + ("" if judged else " (not judged here: fewer than 50 "
                   "sessions after the warm-up)")
                + ". The resident memory's growth per 100 sessions the "
                f"same way:")
        doc.add()
        doc.add(table(["process", "descriptors first", "after warm-up",
                       "end", "max", "growth per 100 sessions",
                       "RSS per 100 sessions", "result"], rows))
        doc.add()
    samples = r.get("samples") or []
    if samples and isinstance(samples[0], dict):
        rows = [[fmt(x.get("t"), " s", 0), x.get("sessions", "n/a"),
                 fmt(x.get("fds"), "", 0), fmt(mib(x.get("rss_kb")), "", 1),
                 fmt(x.get("svc_fds"), "", 0),
                 fmt(mib(x.get("svc_rss_kb")), "", 1)]
                for x in series_rows(samples)]
        doc.add("The curves, one sample a minute (all of them, every 10 s, "
                "are `samples` in the JSON result; a table, as no plotting "
                "tool is among the project's packages):")
        doc.add()
        doc.add(table(["time", "sessions", "pipeline fds",
                       "pipeline RSS (MiB)", "service fds",
                       "service RSS (MiB)"], rows))
        doc.add()
    doc.add("How to read the memory figures: "
            "[reliability.md](reliability.md#soak-results) (resident memory "
            "grew in steps at renewals there, glibc's per-thread malloc "
            "arenas, and stopped growing with `MALLOC_ARENA_MAX=2`; a growth "
            "per hour from a short run overstates the long-run one).")
    doc.add()
    vd = rec.get("video_vs_wall_pct")
    doc.row("Soak: faults recovered as expected",
            f"{r['faults_as_expected']}/{r['faults']}", "—", "—", "all",
            verdict(r["faults"] > 0 and
                    r["faults_as_expected"] == r["faults"]))
    doc.row("Soak: received duration vs wall, gaps",
            (f"{vd:+.2f} %, " if vd is not None else "n/a, ")
            + f"{rec.get('video', {}).get('gaps', '?')} + "
            f"{rec.get('audio', {}).get('gaps', '?')} gaps", "—", "—",
            "±2 %, no gap",
            verdict(vd is not None and abs(vd) <= 2
                    and rec.get("video", {}).get("gaps") == 0
                    and rec.get("audio", {}).get("gaps") == 0))
    if fds:
        doc.row("Soak: descriptors per 100 sessions (pipeline, service)",
                f"{fmt(fds.get('growth_per_100_sessions'), '', 1)}, "
                f"{fmt(fds.get('service_growth_per_100_sessions'), '', 1)}",
                "—", "—",
                f"≤ {fmt(fds.get('limit_per_100_sessions', 2), '', 0)}",
                verdict(None if not fds.get("judged", True) else
                        fds.get("ok") if "ok" in fds else
                        all(v is not None and v <= fds.get(
                            "limit_per_100_sessions", 2) for v in
                            [fds.get("growth_per_100_sessions"),
                             fds.get("service_growth_per_100_sessions")])))
    doc.row("Soak: pipeline RSS after warm-up → end",
            f"{fmt(mem.get('rss_start_mb'), ' MiB', 0)} → "
            f"{fmt(mem.get('rss_end_mb'), ' MiB', 0)} "
            f"({fmt(mem.get('rss_growth_mb_per_hour'), ' MiB/h', 0)})",
            "—", "—", "—", "—")
