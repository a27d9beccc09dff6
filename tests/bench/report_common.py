"""What the sections of docs/performance.md share (report.py): reading a
benchmark's JSON result, formatting figures and ratios, markdown tables,
and the document (Doc) the sections add their text and summary rows to.
"""
import json
import math
import os


def load(directory, name):
    try:
        with open(os.path.join(directory, name + ".json"), encoding="utf-8") as f:
            text = f.read().strip()
    except OSError:
        return None
    try:
        return json.loads(text)
    except ValueError:
        pass
    try:
        # a program's result is its last line
        return json.loads(text.splitlines()[-1])
    except (ValueError, IndexError):
        return None


def med(series):
    if not series or series.get("median") is None:
        return math.nan
    return series["median"]


def pct(series, key):
    if not series or series.get(key) is None:
        return math.nan
    return series[key]


def fmt(v, unit="", digits=None):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if digits is None:
        digits = 0 if abs(v) >= 100 else 1 if abs(v) >= 10 else 2
    return f"{v:,.{digits}f}{unit}"


def ratio(a, b):
    if a is None or b is None or math.isnan(a) or math.isnan(b) or b == 0:
        return "n/a"
    return f"{a / b:.2f}×"


def verdict(ok):
    if ok is None:
        return "n/a"
    return "**pass**" if ok else "**miss**"


def finite(*vals):
    return all(v is not None and not math.isnan(v) for v in vals)


def table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c) for c in r) + " |")
    return "\n".join(out)


def range_of(series, unit=" ms"):
    return f"{fmt(pct(series, 'p10'), unit)} – {fmt(pct(series, 'p90'), unit)}"


class Doc:
    def __init__(self):
        self.parts = []
        self.summary = []

    def add(self, text=""):
        self.parts.append(text)

    def row(self, figure, value, baseline, rat, target, result):
        self.summary.append([figure, value, baseline, rat, target, result])
