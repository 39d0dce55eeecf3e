"""Take the workbench's picture for the README and the documentation: docs/img/workbench.png.

    .venv/bin/python scripts/screenshot.py            # rewrite docs/img/workbench.png
    .venv/bin/python scripts/screenshot.py OUT.png    # somewhere else

It starts ``trey serve`` (the command, on a free port of this machine), opens the standard game in Debian's Chromium
with Playwright (as the browser tests do: ``apt-get install -y chromium``), waits until the page says it is ready
and shows its figures, and saves the window as a PNG of at most 256 colours, which keeps the file small.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import expect, sync_playwright

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "img" / "workbench.png"
TREY = Path(sys.executable).parent / "trey"
WIDTH, HEIGHT = 1280, 860
PATIENCE_MS = 60_000  # the first analysis on a busy machine


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("the screenshot needs Debian's Chromium: apt-get install -y chromium")
    port = _free_port()
    server = subprocess.Popen([str(TREY), "serve", "--port", str(port)], stderr=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert server.stderr is not None
        announced = server.stderr.readline()  # "trey workbench: http://127.0.0.1:PORT/ ..." once it listens
        if f":{port}/" not in announced:
            sys.exit(f"trey serve did not start: {announced.strip()}")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
            page.set_default_timeout(PATIENCE_MS)
            page.goto(f"http://127.0.0.1:{port}/edit?file=standard.yaml")
            expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=PATIENCE_MS)
            expect(page.locator("#figures-ante_play")).to_be_visible(timeout=PATIENCE_MS)
            shot = out.with_suffix(".full.png")
            page.screenshot(path=str(shot))
            browser.close()
        out.parent.mkdir(parents=True, exist_ok=True)
        with Image.open(shot) as image:
            image.convert("RGB").quantize(colors=256, dither=Image.Dither.NONE).save(out, optimize=True)
        shot.unlink()
        print(f"wrote {out.relative_to(REPO) if out.is_relative_to(REPO) else out} ({out.stat().st_size:,} bytes)")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
