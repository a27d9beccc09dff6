"""Sections 10 to 12 of docs/performance.md (report.py): the network paths,
which tests/bench/net-bench, net-ttff and net-outage render themselves
from their JSON results (tests/bench/run --net).
"""
import os


def section_net(doc, r):
    """Section 10, rendered by tests/bench/net-bench itself (one text for
    its --markdown and this report)."""
    doc.add("## 10. Network paths")
    doc.add()
    if r is None:
        doc.add("Not run in this report; run `tests/bench/run --net` or "
                "`tests/bench/net-bench` (root, Chromium; about 15 minutes).")
        doc.row("Network paths (LAN, Internet, Mobile)", "not run", "—", "—",
                "Internet ≥ 99.5 %, ≤ 250 ms; Mobile ≥ 97 %, ≤ 1 s; "
                "≥ Chromium", "n/a")
        return
    import importlib.machinery
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "net-bench")
    loader = importlib.machinery.SourceFileLoader("net_bench", path)
    module = importlib.util.module_from_spec(
        importlib.util.spec_from_loader("net_bench", loader))
    loader.exec_module(module)
    text, rows = module.markdown(r, heading=False)
    doc.add(text.rstrip())
    doc.add()
    for row in rows:
        doc.row(*row)


def section_rendered(doc, r, title, script):
    """A section that tests/bench/SCRIPT renders itself (its intro() and
    markdown()), from its JSON result @r."""
    doc.add(title)
    doc.add()
    if r is None:
        doc.add("Not run in this report; run `tests/bench/run --net` or "
                "`tests/bench/%s --markdown` (root, Chromium)." % script)
        return
    import importlib.machinery
    import importlib.util
    name = script.replace("-", "_")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), script)
    loader = importlib.machinery.SourceFileLoader(name, path)
    module = importlib.util.module_from_spec(
        importlib.util.spec_from_loader(name, loader))
    loader.exec_module(module)
    doc.add(module.intro(r).rstrip())
    doc.add()
    doc.add(module.markdown(r).rstrip())
    doc.add()


def section_net_ttff(doc, r):
    """Section 11, rendered by tests/bench/net-ttff itself."""
    section_rendered(doc, r, "## 11. Time to first frame across network paths",
                     "net-ttff")


def section_net_outage(doc, r):
    """Section 12, rendered by tests/bench/net-outage itself."""
    section_rendered(doc, r, "## 12. Resuming after a blackout of the path",
                     "net-outage")
