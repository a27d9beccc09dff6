"""Section 9 of docs/performance.md (report.py): the soak
(tests/bench/bench-soak.c, run by tests/bench/run --soak), from its JSON
result.
"""
import math

from report_common import fmt, table, verdict


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
    doc.add(f"directorsrc (renew on, chunks of 5 s) against the live "
            f"reference service for {fmt(r['minutes'], ' min', 1)}, a fault "
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
            "±2 %, no gap", verdict(r.get("pass")))
    doc.row("Soak: pipeline RSS after warm-up → end",
            f"{fmt(mem.get('rss_start_mb'), ' MiB', 0)} → "
            f"{fmt(mem.get('rss_end_mb'), ' MiB', 0)} "
            f"({fmt(mem.get('rss_growth_mb_per_hour'), ' MiB/h', 0)})",
            "—", "—", "—", "—")
