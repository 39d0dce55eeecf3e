"""The workbench in a real browser: Playwright driving Debian's Chromium (`.ci/run` installs it; Playwright's own
browser download is not used). What a manager does: open a table, change a pay, see the house edge change; change
the qualifier, see the strategy change; make a typo, see the problem at the field; download the YAML and load it."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Page, expect, sync_playwright

from conftest import run_cli
from workbench import PAYTABLES, Served

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert CHROMIUM, "the browser tests need Debian's Chromium: apt-get install -y chromium (.ci/run does)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    opened = context.new_page()
    yield opened
    context.close()


def _field(page: Page, *path: str) -> object:
    wanted = "[" + ", ".join(f'"{p}"' for p in path) + "]"
    return page.locator(f".field[data-path='{wanted}']")


def _figure(page: Page, wager: str, label: str) -> object:
    return page.locator(f"#figures-{wager} tr[data-figure='{label}'] td")


def _open(page: Page, server: str, name: str) -> None:
    page.goto(f"{server}/")
    page.locator("#paytables tr", has_text=name).get_by_role("link", name="open").click()
    expect(page.locator("h1")).not_to_have_text("Paytables")


def test_a_pair_plus_pay_changed_changes_the_house_edge(page: Page, server: str) -> None:
    _open(page, server, "pair_plus/40-30-6-4-1.yaml")
    edge = _figure(page, "pair_plus", "House edge")
    expect(edge).to_have_text("2.3167%")  # published 2.32%
    _field(page, "wagers", "pair_plus", "flush").locator("input").fill("3")
    expect(edge).to_have_text("7.2760%")  # published 7.28% (docs/published-figures.md)
    expect(page.locator("#status")).to_contain_text("All figures are exact for this paytable (recomputed in")
    first = page.locator("td:first-child", has_text=re.compile(r"^flush$"))
    row = page.locator("#figures-pair_plus .outcomes tr").filter(has=first)
    expect(row.locator("td").nth(1)).to_have_text("3")
    flush = _field(page, "wagers", "pair_plus", "flush")
    flush.get_by_role("button", name="solve").click()
    expect(flush.locator("output")).to_have_text(
        "exactly 3791/1096 to 1; nearest: 3 to 1 (7.2760%), 4 to 1 (2.3167%), 2 to 1 (12.2353%), 5 to 1 (-2.6425%)"
    )


def test_a_rule_changed_changes_the_strategy(page: Page, server: str) -> None:
    _open(page, server, "standard.yaml")
    strategy = _figure(page, "ante_play", "Strategy")
    expect(strategy).to_contain_text("Q-6-4")
    _field(page, "rules", "dealer_qualifier").locator("input").fill("J-high")
    expect(strategy).not_to_contain_text("Q-6-4")
    shown = strategy.inner_text()
    variant = PAYTABLES.parent / "tests" / "data" / "standard-j-high.yaml"
    text = (PAYTABLES / "standard.yaml").read_text().replace("dealer_qualifier: Q-high", "dealer_qualifier: J-high")
    assert "J-high" in text
    variant.write_text(text)
    try:
        printed = run_cli("analyze", variant).stdout
    finally:
        variant.unlink()
    assert " ".join(shown.split()) in " ".join(printed.split())  # the terminal says the same strategy


def test_a_typo_is_shown_at_its_field_in_validates_words(page: Page, server: str, tmp_path: Path) -> None:
    _open(page, server, "pair_plus/40-30-6-4-1.yaml")
    flush = _field(page, "wagers", "pair_plus", "flush")
    flush.locator("input").fill("4x")
    problem = flush.locator(".problem")
    expect(problem).to_be_visible()
    typo = tmp_path / "typo.yaml"
    typo.write_text(
        (PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml").read_text().replace("    flush: 4\n", "    flush: 4x\n")
    )
    said = run_cli("validate", typo).stderr  # FILE:LINE:COLUMN: $.path: message (hint)
    words = re.search(r"\$\.wagers\.pair_plus\.flush: (.*)", said)
    assert words is not None
    expect(problem).to_have_text(words.group(1))
    assert flush.get_attribute("class") == "field invalid"
    expect(page.locator(".download button").first).to_be_disabled()
    flush.locator("input").fill("4")
    expect(problem).to_be_hidden()
    expect(_figure(page, "pair_plus", "House edge")).to_have_text("2.3167%")


def test_the_downloaded_yaml_loads_with_trey_validate(page: Page, server: str, tmp_path: Path) -> None:
    _open(page, server, "pair_plus/40-30-6-4-1.yaml")
    _field(page, "wagers", "pair_plus", "flush").locator("input").fill("3")
    expect(_figure(page, "pair_plus", "House edge")).to_have_text("7.2760%")
    with page.expect_download() as download:
        page.get_by_role("button", name="YAML").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "40-30-6-4-1-edited.yaml"
    assert saved.read_text().startswith(
        "# Edited in the trey workbench (trey 0.4.0), starting from pair_plus/40-30-6-4-1.yaml.\n"
    )
    assert run_cli("validate", saved).exit_code == 0
    assert "7.2760%" in run_cli("analyze", saved).stdout


def _looks_laid_out(page: Page, path: Path) -> None:
    """A screenshot that is not blank, and a page no wider than its window (nothing overflows sideways)."""
    page.screenshot(path=path, full_page=True)
    image = Image.open(path).convert("L")
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 20, f"{path.name} looks blank"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), f"{path.name} overflows"


def test_screenshots_of_the_main_views_are_laid_out(page: Page, server: str, tmp_path: Path) -> None:
    page.goto(f"{server}/")
    expect(page.locator("#paytables")).to_contain_text("40-30-6-4-1")
    _looks_laid_out(page, tmp_path / "index.png")
    _open(page, server, "progressive/three-card-progressive.yaml")
    expect(_figure(page, "progressive", "Break-even meter, lone bettor")).to_contain_text("$")
    _looks_laid_out(page, tmp_path / "edit.png")
    page.get_by_role("button", name="compare with the folder's tables").click()
    frame = page.frame_locator("#comparison")
    expect(frame.locator("body")).to_contain_text("edited")
    _looks_laid_out(page, tmp_path / "compare.png")
    page.set_viewport_size({"width": 800, "height": 900})
    _looks_laid_out(page, tmp_path / "narrow.png")


def test_a_row_added_as_yaml_joins_the_form_and_the_figures(page: Page, server: str) -> None:
    """The form edits values; the YAML pane adds what the form cannot (here Pair Plus's mini royal row), and the
    form follows. 40-30-6-3-1 with a mini royal at 50 is a shipped table: 7.0950%, as trey analyze prints it."""
    _open(page, server, "pair_plus/40-30-6-3-1.yaml")
    page.locator("#yaml-pane summary").click()
    pane = page.locator("#yaml")
    expect(pane).to_contain_text("flush: 3")
    pane.fill(pane.input_value().replace("  pair_plus:\n", "  pair_plus:\n    mini_royal: 50\n", 1))
    expect(_figure(page, "pair_plus", "House edge")).to_have_text("7.0950%")
    shipped = run_cli("analyze", PAYTABLES / "pair_plus" / "40-30-6-3-1-mini-royal-50.yaml").stdout
    assert "House edge          7.0950%" in shipped
    mini = _field(page, "wagers", "pair_plus", "mini_royal").locator("input")
    expect(mini).to_have_value("50")
    mini.fill("100")  # the new row's field edits like any other, and the pane follows
    expect(pane).to_have_value(re.compile(r"\n    mini_royal: 100\n"))
    pane.fill("wagers: [")
    expect(page.locator("#problems li").first).to_contain_text("line ")
    expect(_figure(page, "pair_plus", "House edge")).not_to_have_text("7.0950%")  # the last valid figures stay


def test_a_page_of_another_site_cannot_make_the_workbench_work(
    page: Page, served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 29.10: a page on another origin made the workbench render a certificate and push its download (a
    top-level form POST passes even Chromium's local-network protection). Here the page even holds the token."""
    import html
    import json

    import trey.web.app as web

    analysed: list[object] = []
    real = web.analyze
    monkeypatch.setattr(web, "analyze", lambda spec, checkpoint=None: analysed.append(spec) or real(spec, checkpoint))
    paytable = (PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml").read_text().replace("flush: 4\n", "flush: 7\n")
    request = html.escape(json.dumps({"yaml": paytable, "origin": "x.yaml"}))
    attack = (
        f'<form id="f" method="post" action="{served.url}/download/certificate">'
        f'<input name="request" value="{request}"><input name="token" value="{served.bench.token}"></form>'
        "<script>document.getElementById('f').submit()</script>"
    )
    page.route("http://attacker.test/", lambda route: route.fulfill(content_type="text/html", body=attack))
    downloads: list[object] = []
    page.on("download", lambda download: downloads.append(download))
    page.goto("http://attacker.test/")
    expect(page.locator("body")).to_contain_text(
        "the workbench answers only its own pages, and this request came from another site "
        "(Origin: http://attacker.test)"
    )
    assert page.url == f"{served.url}/download/certificate" and downloads == [] and analysed == []
