"""The workbench's speed in a real browser (issue "A paytable workbench"): from an edit to the frame that shows
every figure recomputed, as the page itself measures it (the input event's time to the next animation frame after
the new figures are in), in Debian's Chromium driven by Playwright, against a uvicorn server on this machine.

    .venv/bin/python benchmarks/bench_workbench.py [EDITS]

Targets: 150 ms for a side bet's pay, 1 s for an Ante Bonus pay or a rule. Median and largest of EDITS (default 15)
edits of each kind.
"""

from __future__ import annotations

import shutil
import statistics
import sys
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import Page, expect, sync_playwright

from common import REPO
from trey.web.app import workbench
from trey.web.server import server_options

expect.set_options(timeout=60_000)  # the first analysis on a busy machine


def _timed(page: Page, path: str, values: list[str], edits: int, control: str = "input") -> list[int]:
    field = page.locator(f".field[data-path='{path}'] {control}")
    took = []
    for i in range(edits):
        before = int(page.evaluate("document.body.dataset.updated || '0'"))
        field.fill(values[i % len(values)])  # one input event: the page's edit number before + 1
        expect(page.locator("body")).to_have_attribute("data-updated", str(before + 1))  # no eval: the page's CSP
        took.append(int(page.evaluate("document.body.dataset.took")))
    return took


def _report(label: str, took: list[int], target: int) -> None:
    print(
        f"{label}: median {statistics.median(took):.0f} ms, largest {max(took)} ms over {len(took)} edits "
        f"(target {target} ms: {'met' if max(took) <= target else 'NOT met'})"
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
        page.goto("http://127.0.0.1:8790/edit?file=standard.yaml")
        expect(page.locator("body")).to_have_attribute("data-ready", "true")  # its script listens: edits are seen
        # Values never met before, so nothing comes from a cache: every edit is computed afresh.
        side = _timed(page, '["wagers", "pair_plus", "flush"]', [f"{31 + i} to 10" for i in range(edits)], edits)
        bonus = _timed(
            page, '["wagers", "ante_play", "ante_bonus", "straight"]', [str(2 + i) for i in range(edits)], edits
        )
        qualifiers = [f"{high}-{middle}-{low}" for high in "KQJ" for middle in "987" for low in "65432"]
        # The qualifier is a list of named hands and "a hand such as Q-6-4…": choose that, then type hands.
        before = int(page.evaluate("document.body.dataset.updated || '0'"))
        page.locator('.field[data-path=\'["rules", "dealer_qualifier"]\'] select').select_option("")
        expect(page.locator("body")).to_have_attribute("data-updated", str(before + 1))
        rule = _timed(page, '["rules", "dealer_qualifier"]', qualifiers[:edits], edits, "input.custom")
        browser.close()
    server.should_exit = True
    thread.join(timeout=10)
    _report("a Pair Plus pay (standard.yaml: every wager recomputed)", side, 150)
    _report("an Ante Bonus pay (the strategy re-derived)", bonus, 1000)
    _report("the dealer's qualifier (the strategy re-derived)", rule, 1000)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    main()
