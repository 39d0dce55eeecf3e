"""The workbench's speed in a real browser (issue "A paytable workbench"): from an edit to the frame that shows
every figure recomputed, as the page itself measures it (the input event's time to the next animation frame after
the new figures are in), in Debian's Chromium driven by Playwright, against a uvicorn server on this machine.

    .venv/bin/python benchmarks/bench_workbench.py [EDITS]

Targets: 150 ms for a side bet's pay, 1 s for an Ante Bonus pay or a rule. Median and largest of EDITS (default 15)
edits of each kind, with the load average and, per edit, the CPU time of the server and the time the page's main
thread was busy (a shared machine stretches the wall time; these less).
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import uvicorn
from playwright.sync_api import CDPSession, Page, expect, sync_playwright

from common import REPO
from trey.web.app import workbench
from trey.web.server import server_options

expect.set_options(timeout=60_000)  # the first analysis on a busy machine


# The wait for an edit's answer. Not expect(...).to_have_attribute: each of its polls that fails takes Playwright's
# ARIA snapshot of the whole page (13,000 nodes: 60 to 190 ms) on the page's main thread, the thread that must take
# the answer in and draw it, so the harness delayed the very frame it measured (Chromium's trace: two snapshots per
# edit, the answer waiting behind them). A MutationObserver set before the edit resolves when the page says the
# answer is shown, and polls nothing. (Run through the DevTools protocol, it is no eval the page's CSP forbids.)
_UPDATED = """number => ({ shown: new Promise((resolve) => {
  const watcher = new MutationObserver(() => {
    if (document.body.dataset.updated === number) { watcher.disconnect(); resolve(document.body.dataset.took); }
  });
  watcher.observe(document.body, { attributes: true, attributeFilter: ["data-updated"] });
}) })"""


@dataclass
class Measured:
    """Each edit's figure as the page measures it, with what it cost: the CPU time of this process (the server; the
    Playwright client only waits) and the time the browser's main thread ran tasks (Chromium's TaskDuration, which
    counts Playwright's own steps of the edit too, and a task's time off the CPU): a machine shared with other work
    distorts the first less than the wall time; a Chromium trace splits the second (CPU per task)."""

    took: list[int] = field(default_factory=list)
    server_cpu: list[float] = field(default_factory=list)
    page_busy: list[float] = field(default_factory=list)


def _busy(cdp: CDPSession) -> float:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return float(next(m["value"] for m in metrics if m["name"] == "TaskDuration"))


def _edited(page: Page, cdp: CDPSession, edit: Callable[[], object], into: Measured | None = None) -> None:
    """Make ``edit`` (one input or change event) and wait until the page shows its answer; note the page's own
    measure of it (milliseconds from the event to the frame) and its cost ``into`` a :class:`Measured`."""
    before = int(page.evaluate("document.body.dataset.updated || '0'"))
    waiting = page.evaluate_handle(_UPDATED, str(before + 1))
    cpu, busy = time.process_time(), _busy(cdp)
    edit()  # one event: the page's edit number before + 1
    took = page.evaluate("waiting => waiting.shown", waiting)
    if into is not None:
        into.server_cpu.append((time.process_time() - cpu) * 1000)
        into.page_busy.append((_busy(cdp) - busy) * 1000)
        into.took.append(int(took))
    waiting.dispose()


def _timed(page: Page, cdp: CDPSession, path: str, values: list[str], edits: int, control: str = "input") -> Measured:
    edited = page.locator(f".field[data-path='{path}'] {control}")
    measured = Measured()
    for i in range(edits):
        _edited(page, cdp, partial(edited.fill, values[i % len(values)]), measured)
    return measured


def _report(label: str, measured: Measured, target: int) -> None:
    took = measured.took
    print(
        f"{label}: median {statistics.median(took):.0f} ms, largest {max(took)} ms over {len(took)} edits "
        f"(target {target} ms: {'met' if max(took) <= target else 'NOT met'}); CPU of the server "
        f"{statistics.median(measured.server_cpu):.0f} ms, the browser's main thread busy "
        f"{statistics.median(measured.page_busy):.0f} ms, Playwright's steps included (medians)"
    )


def main() -> None:
    edits = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    config = uvicorn.Config(workbench(REPO / "paytables"), port=8790, **server_options())  # as trey serve runs it
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs Debian's Chromium: apt-get install -y chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        cdp = page.context.new_cdp_session(page)
        cdp.send("Performance.enable")
        page.goto("http://127.0.0.1:8790/edit?file=standard.yaml")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")  # its script listens: edits are seen
        # Values never met before, so no answer comes from the server's memory: every table is checked and counted
        # (the wagers an edit left as they were taken from the analysis before, as the workbench does).
        side = _timed(page, cdp, '["wagers", "pair_plus", "flush"]', [f"{31 + i} to 10" for i in range(edits)], edits)
        bonus = _timed(
            page, cdp, '["wagers", "ante_play", "ante_bonus", "straight"]', [str(2 + i) for i in range(edits)], edits
        )
        qualifiers = [f"{high}-{middle}-{low}" for high in "KQJ" for middle in "987" for low in "65432"]
        # The qualifier is a list of named hands and "a hand such as Q-6-4…": choose that, then type hands.
        qualifier = page.locator('.field[data-path=\'["rules", "dealer_qualifier"]\'] select')
        _edited(page, cdp, lambda: qualifier.select_option(""))
        rule = _timed(page, cdp, '["rules", "dealer_qualifier"]', qualifiers[:edits], edits, "input.custom")
        browser.close()
    server.should_exit = True
    thread.join(timeout=10)
    print(f"load average {os.getloadavg()[0]:.2f} (1 minute), {os.cpu_count()} CPUs")
    _report("a Pair Plus pay (standard.yaml: Pair Plus counted again, every figure redrawn)", side, 150)
    _report("an Ante Bonus pay (the strategy re-derived)", bonus, 1000)
    _report("the dealer's qualifier (the strategy re-derived)", rule, 1000)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
