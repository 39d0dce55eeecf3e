"""The workbench in a real browser: Playwright driving Debian's Chromium (`.ci/run` installs it; Playwright's own
browser download is not used). What a manager does: open a table, change a pay, see the house edge change; change
the qualifier, see the strategy change; make a typo, see the problem at the field; download the YAML and load it.

Issue 33: no test depends on the machine's speed. The page says its state (body[data-ready] once its script
listens, body[data-sent] and body[data-updated] per edit, #comparison[data-state]); every test waits for the state
it needs, and every wait is long enough for a busy machine (60 s: a passing test never waits that long)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from conftest import run_cli
from trey import __version__
from workbench import PATIENCE, PAYTABLES, Served

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
PATIENCE_MS = int(PATIENCE * 1000)  # every wait: an analysis, a comparison, a document on a busy machine
expect.set_options(timeout=PATIENCE_MS)


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
    opened.set_default_timeout(PATIENCE_MS)  # actions, navigations and downloads
    yield opened
    context.close()


def _field(page: Page, *path: str) -> Locator:
    wanted = "[" + ", ".join(f'"{p}"' for p in path) + "]"
    return page.locator(f".field[data-path='{wanted}']")


def _figure(page: Page, wager: str, label: str) -> Locator:
    return page.locator(f"#figures-{wager} tr[data-figure='{label}'] td")


def _open(page: Page, server: str, name: str) -> None:
    """Open a paytable from the list, and wait until the page's script listens (an edit before it is lost)."""
    page.goto(f"{server}/")
    page.locator("#paytables tr", has_text=name).get_by_role("link", name="open").click()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")


def _edit(page: Page, field: Locator, value: str) -> None:
    """Type ``value`` into ``field`` and wait until the page shows the server's answer to this edit."""
    field.fill(value)
    sent = page.locator("body").get_attribute("data-sent")  # set as the edit is sent, before its answer
    assert sent is not None, "the edit was not sent"
    expect(page.locator("body")).to_have_attribute("data-updated", sent)


def _download(page: Page, button: str, folder: Path) -> Path:
    with page.expect_download() as download:
        page.get_by_role("button", name=button).click()
    saved = folder / download.value.suggested_filename
    download.value.save_as(saved)
    return saved


def test_a_pair_plus_pay_changed_changes_the_house_edge(page: Page, server: str) -> None:
    _open(page, server, "pair_plus/40-30-6-4-1.yaml")
    edge = _figure(page, "pair_plus", "House edge")
    expect(edge).to_have_text("2.3167%")  # published 2.32%
    _edit(page, _field(page, "wagers", "pair_plus", "flush").locator("input"), "3")
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


def _printed_rows(printed: str, title: str) -> list[str]:
    """The rows of the table titled ``title`` in trey analyze's output, each as its cells joined by a space."""
    lines = printed.splitlines()
    rows = []
    for line in lines[lines.index(title) + 1 :]:
        if line.startswith("└"):
            break
        if line.startswith("│"):
            rows.append(" ".join(cell.strip() for cell in line.strip("│").split("│")))
    return rows


def test_a_rule_changed_changes_the_strategy_and_the_outcomes_by_hand(page: Page, server: str, tmp_path: Path) -> None:
    """And issue 30.4: the figures show Ante & Play's outcomes by the player's hand, as trey analyze prints them."""
    _open(page, server, "standard.yaml")
    strategy = _figure(page, "ante_play", "Strategy")
    expect(strategy).to_contain_text("Q-6-4")
    _edit(page, _field(page, "rules", "dealer_qualifier").locator("input"), "J-high")
    expect(strategy).not_to_contain_text("Q-6-4")
    shown = strategy.inner_text()
    variant = tmp_path / "standard-j-high.yaml"
    text = (PAYTABLES / "standard.yaml").read_text().replace("dealer_qualifier: Q-high", "dealer_qualifier: J-high")
    assert "J-high" in text
    variant.write_text(text)
    printed = run_cli("analyze", variant).stdout
    assert " ".join(shown.split()) in " ".join(printed.split())  # the terminal says the same strategy
    by_hand = page.locator("#figures-ante_play table.by-hand tbody tr")
    rows = [" ".join(row.split()) for row in by_hand.all_inner_texts()]  # its cells, by tabs
    assert rows == _printed_rows(printed, "Ante & Play by the player's hand")
    assert len(rows) > 20 and rows[0].startswith("Straight flush Dealer does not qualify ")


def test_a_typo_is_shown_at_its_field_in_validates_words(page: Page, server: str, tmp_path: Path) -> None:
    _open(page, server, "pair_plus/40-30-6-4-1.yaml")
    flush = _field(page, "wagers", "pair_plus", "flush")
    _edit(page, flush.locator("input"), "4x")
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
    expect(flush).to_have_class("field invalid")
    expect(page.locator(".download button").first).to_be_disabled()
    _edit(page, flush.locator("input"), "4")
    expect(problem).to_be_hidden()
    expect(_figure(page, "pair_plus", "House edge")).to_have_text("2.3167%")


def test_an_edited_table_asks_for_a_name_and_its_documents_say_what_it_is(
    page: Page, server: str, tmp_path: Path
) -> None:
    """Issue 30.5: an edited table's documents carried the file's title and description. The page asks for a name
    once the table differs from its file; until one is given its documents say which file it was edited from."""
    import hashlib

    from trey.paytable.load import load_spec

    _open(page, server, "pair_plus/40-30-6-4-1.yaml")
    naming = page.locator("#naming")
    expect(naming).to_be_hidden()  # the file's own table
    _edit(page, _field(page, "wagers", "pair_plus", "flush").locator("input"), "3")
    expect(_figure(page, "pair_plus", "House edge")).to_have_text("7.2760%")
    expect(naming).to_be_visible()
    expect(naming.locator("label")).to_have_text(
        "This table differs from pair_plus/40-30-6-4-1.yaml: name it for its documents"
    )
    title = "Pair Plus 40-30-6-4-1 (edited from pair_plus/40-30-6-4-1.yaml)"
    expect(page.locator("#titled")).to_have_text(f"Until you name it, its documents are titled “{title}”.")
    saved = _download(page, "YAML", tmp_path)
    assert saved.name == "40-30-6-4-1-edited.yaml"
    digest = hashlib.sha256((PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml").read_bytes()).hexdigest()
    assert saved.read_text().startswith(
        f"# Edited in the trey workbench (trey {__version__}), starting from pair_plus/40-30-6-4-1.yaml "
        f"(SHA-256 {digest}).\n"
    )
    assert run_cli("validate", saved).exit_code == 0
    assert "7.2760%" in run_cli("analyze", saved).stdout
    spec = load_spec(saved)
    assert (spec.name, spec.description) == (title, None)
    _edit(page, page.locator("#new-name"), "Pair Plus 40-30-6-3-1 (Grand)")
    expect(page.locator("#titled")).to_have_text("Its documents are titled “Pair Plus 40-30-6-3-1 (Grand)”.")
    expect(_field(page, "name").locator("input")).to_have_value("Pair Plus 40-30-6-3-1 (Grand)")  # the form's too
    named = load_spec(_download(page, "YAML", tmp_path))
    assert (named.name, named.description) == ("Pair Plus 40-30-6-3-1 (Grand)", None)
    _edit(page, page.locator("#new-name"), "")  # no name: the file's again
    _edit(page, _field(page, "wagers", "pair_plus", "flush").locator("input"), "4")
    expect(naming).to_be_hidden()
    unedited = _download(page, "YAML", tmp_path)
    assert unedited.read_bytes() == (PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml").read_bytes()


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
    expect(page.locator("#comparison")).to_have_attribute("data-state", "loaded")  # every table analysed
    expect(page.frame_locator("#comparison").locator("body")).to_contain_text("edited")
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
    _edit(page, pane, pane.input_value().replace("  pair_plus:\n", "  pair_plus:\n    mini_royal: 50\n", 1))
    expect(_figure(page, "pair_plus", "House edge")).to_have_text("7.0950%")
    shipped = run_cli("analyze", PAYTABLES / "pair_plus" / "40-30-6-3-1-mini-royal-50.yaml").stdout
    assert "House edge          7.0950%" in shipped
    mini = _field(page, "wagers", "pair_plus", "mini_royal").locator("input")
    expect(mini).to_have_value("50")
    _edit(page, mini, "100")  # the new row's field edits like any other, and the pane follows
    expect(pane).to_have_value(re.compile(r"\n    mini_royal: 100\n"))
    _edit(page, pane, "wagers: [")
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
