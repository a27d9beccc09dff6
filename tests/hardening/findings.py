#!/usr/bin/env python3
"""Reads the testlog.json of a suite run under sanitizers and tells the
sanitizer findings apart from functional failures.

A finding: an AddressSanitizer, LeakSanitizer or UBSan report, a GstCheck
error (":E:": a crash, a signal or an early exit, which is how a report in
a forked test shows), a timeout, or a test that died before its summary.
Functional failures (":F:" assertions) are listed but not counted: the
suite's own run in the normal build counts them, and timing under ASan is
not the suite's.

Usage: findings.py TESTLOG.json [REPORT_DIR]
  REPORT_DIR: where ASAN_OPTIONS/UBSAN_OPTIONS log_path wrote reports; any
  report file there is a finding too. Exits 1 when there is a finding.
"""
import json
import os
import re
import sys

REPORT = re.compile(r"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|"
                    r"Sanitizer:DEADLYSIGNAL|AddressSanitizer: CHECK failed")
ERROR = re.compile(r":E:")
FAILURE = re.compile(r":F:")
SUMMARY = re.compile(r"Checks: \d+, Failures: \d+, Errors: \d+")

findings = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as log:
    for line in log:
        if not line.strip():
            continue
        t = json.loads(line)
        out = (t.get("stdout") or "") + (t.get("stderr") or "")
        lines = out.splitlines()
        reports = [i for i, l in enumerate(lines) if REPORT.search(l)]
        errors = [l for l in lines if ERROR.search(l)]
        failures = [l for l in lines if FAILURE.search(l)]
        died = t.get("result") != "OK" and not SUMMARY.search(out)
        timeout = t.get("result") == "TIMEOUT"
        name = t.get("name", "?")
        if reports or errors or died or timeout:
            findings += 1
            print(f"{name}: FINDING ({t.get('result')})")
            for i in reports[:3]:
                print("\n".join(lines[i:i + 25]))
            for l in errors[:10]:
                print(l)
        else:
            print(f"{name}: no sanitizer finding ({t.get('result')})")
        for l in failures[:10]:
            print(f"  functional failure (counted by the suite itself): {l}")
if len(sys.argv) > 2 and os.path.isdir(sys.argv[2]):
    for name in sorted(os.listdir(sys.argv[2])):
        path = os.path.join(sys.argv[2], name)
        findings += 1
        print(f"sanitizer report {path}:")
        with open(path, encoding="utf-8", errors="replace") as report:
            print("".join(report.readlines()[:60]))
sys.exit(1 if findings else 0)
