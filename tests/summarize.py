#!/usr/bin/env python3
"""Reads meson's testlog.json (or several: tests/run runs the deps suite
on its own first) and prints the closing line.

A GstCheck suite counts each of its test cases (its "Checks: N, Failures: F,
Errors: E" line); any other test counts once. Exits 1 when anything failed.
"""
import json
import re
import sys

CHECKS = re.compile(r"Checks: (\d+), Failures: (\d+), Errors: (\d+)")

passed = failed = skipped = 0
for path in sys.argv[1:]:
    with open(path, encoding="utf-8", errors="replace") as log:
        for line in log:
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            result = t.get("result", "")
            out = (t.get("stdout") or "") + (t.get("stderr") or "")
            m = CHECKS.findall(out)
            if result == "SKIP":
                skipped += 1
            elif m:
                n, f, e = (sum(int(x[i]) for x in m) for i in range(3))
                passed += n - f - e
                failed += f + e
                if result != "OK" and f + e == 0:
                    failed += 1  # crashed or timed out after its summary
            elif result in ("OK", "EXPECTEDFAIL"):
                passed += 1
            else:
                failed += 1

line = f"{passed} passed, {failed} failed"
if skipped:
    line += f", {skipped} skipped"
print(line)
sys.exit(1 if failed else 0)
