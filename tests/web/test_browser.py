"""The workbench in a real browser: Playwright driving Debian's Chromium (`.ci/run` installs it; Playwright's own
browser download is not used). What a manager does: open a table, change a pay, see the house edge change; change
the qualifier, see the strategy change; make a typo, see the problem at the field; download the YAML and load it.

Issue 33: no test depends on the machine's speed. The page says its state (body[data-ready] once its script
listens, body[data-sent] and body[data-updated] per edit, #comparison[data-state]); every test waits for the state
it needs, and every wait is long enough for a busy machine (60 s: a passing test never waits that long). The
manager's path (issue 33) is one test: open, choose ties "player wins" from a list, add a mini royal to Pair Plus, see
the summary's change, solve the flush for 2.32% and apply it, compare, save under a new name, find the new file
listed and valid."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from PIL import Image
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

from conftest import run_cli
from trey import __version__
from workbench import PATIENCE, PAYTABLES, Served, serving

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


FACE_UP = PAYTABLES / "family" / "face-up-ultimate.yaml"


def _field(page: Page, *path: str) -> Locator:
    wanted = "[" + ", ".join(p if p.isdigit() else f'"{p}"' for p in path) + "]"
    return page.locator(f".field[data-path='{wanted}']")


def _section(page: Page, *path: str) -> Locator:
    wanted = "[" + ", ".join(f'"{p}"' for p in path) + "]"
    return page.locator(f"fieldset[data-section='{wanted}']")


def _summary(page: Page, wager: str, figure: str = "House edge") -> Locator:
    return page.locator(f"#summary tr[data-wager='{wager}'] td[data-figure='{figure}']")


def _shown(page: Page, attribute: str, value: str) -> None:
    """Wait until the page's body says ``attribute="value"``. Not expect(...).to_have_attribute: each of its polls that
    fails takes an ARIA snapshot of the whole page on the page's main thread (60 to 190 ms on the editor), slowing
    the page it waits for (benchmarks/bench_workbench.py); a selector's poll reads one attribute."""
    page.wait_for_selector(f"body[{attribute}='{value}']", state="attached", timeout=PATIENCE_MS)


def _acted(page: Page, action: Callable[[], None]) -> None:
    """Do ``action`` (an edit), then wait until the page shows the server's answer to it."""
    before = int(page.locator("body").get_attribute("data-sent") or "0")
    action()
    _shown(page, "data-sent", str(before + 1))
    _shown(page, "data-updated", str(before + 1))


def _add(page: Page, section: Locator, label: str) -> None:
    """Choose ``label`` in a section's "add" list: the row or part is added and the form made again."""
    _acted(page, lambda: section.locator("select.addition").first.select_option(label=label))


def _variant(tmp_path: Path, source: Path, name: str, *edits: tuple[str, str]) -> Path:
    """``source`` with each (old, new) text replaced once: the same edit made in a file, for trey analyze."""
    text = source.read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new, 1)
    made = tmp_path / name
    made.write_text(text)
    return made


def _printed_edge(path: Path, title: str) -> str:
    """The house edge trey analyze prints for the wager titled ``title``."""
    printed = run_cli("analyze", path).stdout
    block = printed[printed.index(title) :]
    found = re.search(r"House edge\s+(-?[0-9.]+%)", block)
    assert found is not None
    return found.group(1)


def _figure(page: Page, wager: str, label: str) -> Locator:
    return page.locator(f"#figures-{wager} tr[data-figure='{label}'] td")


def _open(page: Page, server: str, name: str) -> None:
    """Open a paytable from the list, and wait until the page's script listens (an edit before it is lost)."""
    page.goto(f"{server}/")
    page.locator("#paytables tr", has_text=name).get_by_role("link", name="open").click()
    _shown(page, "data-ready", "true")


def _edit(page: Page, field: Locator, value: str) -> None:
    """Type ``value`` into ``field`` and wait until the page shows the server's answer to this edit."""
    field.fill(value)
    sent = page.locator("body").get_attribute("data-sent")  # set as the edit is sent, before its answer
    assert sent is not None, "the edit was not sent"
    _shown(page, "data-updated", sent)


def _download(page: Page, button: str, folder: Path) -> Path:
    with page.expect_download() as download:
        page.get_by_role("button", name=button).click()
    saved = folder / download.value.suggested_filename
    download.value.save_as(saved)
    return saved


def test_a_pair_plus_pay_changed_changes_the_house_edge(page: Page, server: str, tmp_path: Path) -> None:
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
    expect(flush.locator(".was")).to_have_text("was 4")  # the file's value, beside the edited field
    expect(_summary(page, "pair_plus")).to_have_text("2.3167% → 7.2760%")
    flush.get_by_role("button", name="solve").click()
    expect(flush.locator("output .exact")).to_have_text("5.0000% needs exactly 3.4589 to 1 (3791/1096 to 1).")
    uses = flush.locator("output button.use")
    expect(uses).to_have_text(
        ["use 3 to 1 (7.2760%)", "use 4 to 1 (2.3167%)", "use 2 to 1 (12.2353%)", "use 5 to 1 (-2.6425%)"]
    )
    _acted(page, lambda: uses.nth(1).click())  # "use 4 to 1": the field takes it, and the figures follow
    expect(flush.locator("input")).to_have_value("4 to 1")
    expect(edge).to_have_text("2.3167%")
    expect(_summary(page, "pair_plus")).to_have_text("2.3167%")  # the file's figure again: no change shown
    # Issue 33: a player-favourable pay is warned of, in the summary and, for the chosen profile, at its wager.
    _acted(page, lambda: page.locator("#profile").select_option("generic"))
    expect(page.locator("#summary .warning")).to_have_count(0)
    _edit(page, _field(page, "wagers", "pair_plus", "pair").locator("input"), "3 to 2")
    expect(_figure(page, "pair_plus", "House edge")).to_have_text("-6.1538%")  # 2.3167% − ½ × P(pair) 16.9412%
    expect(page.locator("#summary tr[data-wager='pair_plus'] .warning").first).to_have_text(
        "⚠ favours the player: a house edge of -6.1538%"
    )
    said = run_cli(
        "validate",
        "--profile",
        "generic",
        _variant(
            tmp_path, PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml", "favourable.yaml", ("pair: 1", "pair: 3 to 2")
        ),
    ).stdout
    failed = re.search(r"pair_plus: FAIL: (.*)", said)
    assert failed is not None  # trey validate --profile's own words, at the wager's section of the form
    expect(_section(page, "wagers", "pair_plus").locator(".findings")).to_have_text(
        f"generic: house_edge_positive FAILS: {failed.group(1)}"
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
    qualifier = _field(page, "rules", "dealer_qualifier").locator("select")
    _acted(page, lambda: qualifier.select_option(label="J-high (J-3-2 or better)"))
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
    # A side bet's pay redraws that side bet's figures only: the other wagers' sections stay the same elements.
    page.evaluate("() => { for (const s of document.querySelectorAll('#figures section')) s.keptByTest = true; }")
    edge = _figure(page, "pair_plus", "House edge")
    before = edge.inner_text()
    _edit(page, _field(page, "wagers", "pair_plus", "flush").locator("input"), "4")
    expect(edge).not_to_have_text(before)
    kept = "() => Array.from(document.querySelectorAll('#figures section'), (s) => [s.id, s.keptByTest === true])"
    assert page.evaluate(kept) == [
        ["figures-ante_play", True],
        ["figures-pair_plus", False],
        ["figures-prime", True],
        ["figures-six_card_bonus", True],
    ]


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
    expect(flush).to_have_class(re.compile(r"\binvalid\b"))
    expect(page.locator("#problems li")).to_have_text([f"$.wagers.pair_plus.flush: {words.group(1)}"])  # in view too
    expect(page.locator(".download button").first).to_be_disabled()
    expect(page.locator("body")).to_have_class(re.compile(r"\bdimmed\b"))  # the figures shown are the last valid
    expect(page.locator("body")).to_have_attribute("data-stale", "true")
    _edit(page, flush.locator("input"), "4")
    expect(problem).to_be_hidden()
    expect(page.locator("body")).not_to_have_class(re.compile(r"\bdimmed\b"))
    expect(page.locator("body")).not_to_have_attribute("data-stale", "true")
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


# Every table and chart inside the card that holds it, and the page no wider than its window: what overflows.
OVERFLOWING = """() => {
  const cards = ".wager, .comparison, .overview, .list, fieldset, .naming, .saving";
  const out = [];
  for (const item of document.querySelectorAll("table, svg, input, select")) {
    const card = item.parentElement.closest(cards);
    if (!card || item.closest("[hidden]")) continue;
    if (item.getBoundingClientRect().right > card.getBoundingClientRect().right + 0.5) {
      out.push(`${item.tagName.toLowerCase()}.${item.getAttribute("class") || ""} in ${card.className}`);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth) out.push("the page");
  return out;
}"""
SHOTS = Path(__file__).resolve().parents[2] / "build" / "workbench-shots"  # kept, to be looked at


def _looks_laid_out(page: Page, name: str) -> None:
    """A screenshot that is not blank (kept in build/workbench-shots), and nothing wider than what holds it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    image = Image.open(path).convert("L")
    colours = image.getcolors(maxcolors=1 << 16)
    assert colours is None or len(colours) > 20, f"{path.name} looks blank"
    assert page.evaluate(OVERFLOWING) == [], f"{path.name} overflows"


@pytest.mark.parametrize("width", [1024, 1920])
def test_screenshots_of_the_main_views_are_laid_out(page: Page, server: str, width: int) -> None:
    """Issue 33: at 1024 × 768 the outcome tables were cut on the right ("1 in" showed "1,52"). At both widths every
    table fits its card (a scroll bar at the bottom of a long card is out of sight: no fit)."""
    page.set_viewport_size({"width": width, "height": 768 if width == 1024 else 1080})
    page.goto(f"{server}/")
    expect(page.locator("#paytables tbody tr").first.locator("td.file")).to_have_text("standard.yaml")  # first
    expect(page.locator("h1")).to_have_text("Paytables")
    _looks_laid_out(page, f"index-{width}")
    _open(page, server, "progressive/three-card-progressive.yaml")
    expect(_figure(page, "progressive", "Break-even meter, lone bettor")).to_contain_text("$")
    meter = page.locator("#figures-progressive .outcomes tr", has_text="mini royal spades").locator("td").nth(1)
    expect(meter).to_have_text("100% of the meter (4999 at the reset)")  # not "pays 4999"
    _looks_laid_out(page, f"edit-{width}")
    page.get_by_role("button", name="compare with the folder's tables").click()
    expect(page.locator("#comparison")).to_have_attribute("data-state", "loaded")  # every table analysed
    expect(page.locator("#comparison tr.edited").first).to_contain_text("★ edited")
    _looks_laid_out(page, f"compare-{width}")
    page.get_by_role("button", name="close").click()
    expect(page.locator("#comparison")).to_be_hidden()


@pytest.fixture(scope="module")
def writable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Served, Path]]:
    """A workbench started --writable over a folder of two tables (the comparison analyses each: few, for speed)."""
    folder = tmp_path_factory.mktemp("writable")
    (folder / "pair_plus").mkdir()
    for name in ("standard.yaml", "pair_plus/40-30-6-4-1.yaml"):
        shutil.copyfile(PAYTABLES / name, folder / name)
    for served in serving(folder, writable=True):
        yield served, folder


def test_the_managers_path(page: Page, writable: tuple[Served, Path], tmp_path: Path) -> None:
    """Open, choose ties "player wins" from a list, add a mini royal to Pair Plus, see the summary's change, solve the
    flush for 2.32% and apply it, compare, save under a new name, find the new file listed and valid."""
    served, folder = writable
    _open(page, served.url, "standard.yaml")
    ties = _field(page, "rules", "ties").locator("select")
    _acted(page, lambda: ties.select_option(label="player wins (Ante and Play win)"))
    expect(_field(page, "rules", "ties").locator(".was")).to_have_text("was push (Ante and Play returned)")
    standard = PAYTABLES / "standard.yaml"
    ties_file = _variant(tmp_path, standard, "ties.yaml", ("ties: push", "ties: player_wins"))
    expect(_summary(page, "ante_play")).to_have_text(f"3.3730% → {_printed_edge(ties_file, 'Ante & Play')}")
    _add(page, _section(page, "wagers", "pair_plus"), "Mini-royal")
    mini = _field(page, "wagers", "pair_plus", "mini_royal")
    expect(mini.locator(".was")).to_have_text("new")
    _edit(page, mini.locator("input"), "50")
    # 40-30-6-3-1 with a mini royal at 50 is a shipped table: 7.0950%, as trey analyze prints it.
    shipped = PAYTABLES / "pair_plus" / "40-30-6-3-1-mini-royal-50.yaml"
    assert _printed_edge(shipped, "Pair Plus") == "7.0950%"
    expect(_summary(page, "pair_plus")).to_have_text("7.2760% → 7.0950%")
    # Solve the flush for 2.32%: the house edge falls by P(flush) = 1096/22100 per unit of its pay (another way).
    page.locator("#target").fill("2.32%")
    flush = _field(page, "wagers", "pair_plus", "flush")
    flush.get_by_role("button", name="solve").click()
    printed = json.loads(run_cli("analyze", shipped, "--format", "json").stdout)
    exact = 3 + (Fraction(printed["wagers"]["pair_plus"]["house_edge"]) - Fraction(232, 10_000)) / Fraction(1096, 22100)
    expect(flush.locator("output .exact")).to_have_text(
        f"2.3200% needs exactly {float(exact):.4f} to 1 ({exact.numerator}/{exact.denominator} to 1)."
    )
    four = flush.locator("output button.use.bracket", has_text="use 4 to 1")
    _acted(page, lambda: four.click())
    made = _variant(
        tmp_path,
        standard,
        "made.yaml",
        ("ties: push", "ties: player_wins"),
        ("  pair_plus:\n", "  pair_plus:\n    mini_royal: 50\n"),
        ("    flush: 3\n    pair", "    flush: 4\n    pair"),
    )
    edge = _printed_edge(made, "Pair Plus")
    expect(_summary(page, "pair_plus")).to_have_text(f"7.2760% → {edge}")
    page.get_by_role("button", name="compare with the folder's tables").click()
    comparison = page.locator("#comparison")
    expect(comparison).to_have_attribute("data-state", "loaded")
    pair_plus = comparison.locator(".compare-wager[data-wager='pair_plus']")
    expect(pair_plus.locator("tr.edited td").nth(2)).to_have_text(edge)
    expect(pair_plus).to_contain_text("40-30-6-4-1.yaml")
    _edit(page, flush.locator("input"), "3")  # the panel follows the edits
    expect(pair_plus.locator("tr.edited td").nth(2)).to_have_text("7.0950%")
    _acted(page, lambda: flush.locator("output button.use", has_text="use 4 to 1").click())
    expect(pair_plus.locator("tr.edited td").nth(2)).to_have_text(edge)
    page.locator("#save-name").fill("my-table")
    page.get_by_role("button", name="save", exact=True).click()
    saved = page.locator("#saved")
    expect(saved).to_have_attribute("data-state", "saved")
    expect(saved).to_contain_text("Saved as my-table.yaml.")
    written = folder / "my-table.yaml"
    assert run_cli("validate", written).exit_code == 0
    assert _printed_edge(written, "Pair Plus") == edge
    first = written.read_bytes()
    page.get_by_role("button", name="save", exact=True).click()  # again: never over a file without asking
    expect(saved).to_have_attribute("data-state", "exists")
    expect(saved).to_have_text(
        "my-table.yaml already exists in " + folder.name + " (confirm to replace it, or give another name)"
    )
    assert written.read_bytes() == first
    page.get_by_role("button", name="replace it").click()
    expect(saved).to_have_attribute("data-state", "saved")
    page.goto(f"{served.url}/")
    row = page.locator("#paytables tr", has_text="my-table.yaml")
    expect(row).to_contain_text(f"Pair Plus {edge}")
    expect(row.get_by_role("link", name="open")).to_be_visible()


def test_a_table_is_built_in_the_form(page: Page, server: str, tmp_path: Path) -> None:
    """A new paytable from nothing: a preset and a progressive with its envy added, a pay row removed, table limits
    given; and a file of one's own opened into the form."""
    page.goto(f"{server}/")
    page.get_by_role("button", name="new paytable").click()  # from nothing (the list's first choice)
    _shown(page, "data-ready", "true")
    adding = page.locator("fieldset", has=page.locator("legend", has_text="Add a wager or side bet"))
    _add(page, adding, "Pair Plus (preset)")
    pair_plus = _section(page, "wagers", "pair_plus")
    _add(page, pair_plus, "Flush")
    _edit(page, _field(page, "wagers", "pair_plus", "flush").locator("input"), "4")
    _acted(page, lambda: _field(page, "wagers", "pair_plus", "pair").locator("button.remove").click())
    expect(_field(page, "wagers", "pair_plus", "pair")).to_have_count(0)
    # Pair Plus paying a flush alone, 4 to 1: 1096 flushes in 22,100 hands, so the house edge is 1 − 5 × 1096/22100.
    expect(_figure(page, "pair_plus", "House edge")).to_have_text(
        f"{float((1 - 5 * Fraction(1096, 22100)) * 100):.4f}%"
    )
    _add(page, adding, "a progressive on the player's hand")
    progressive = _section(page, "side_bets", "progressive")
    _add(page, progressive, "an envy bonus")
    expect(_field(page, "side_bets", "progressive", "envy", "mini_royal_spades").locator("input")).to_have_value("100")
    _add(page, _section(page, "table"), "Minimum bet")
    expect(_field(page, "table", "minimum").locator(".unit")).to_have_text("USD")
    meter = page.locator("#figures-progressive .outcomes tr", has_text="mini royal spades").locator("td").nth(1)
    expect(meter).to_have_text("100% of the meter (4999 at the reset)")
    with page.expect_download() as download:
        page.get_by_role("button", name="YAML").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "New-table.yaml" and run_cli("validate", saved).exit_code == 0
    text = saved.read_text()
    assert "minimum: 5" in text and "envy:" in text and "meter: 100%" in text and "pair:" not in text
    # A file of one's own: read like the YAML pane, and the form made of it.
    _acted(page, lambda: page.locator("#upload").set_input_files(str(PAYTABLES / "prime" / "3-4.yaml")))
    expect(_field(page, "wagers", "prime", "three_same_colour").locator("input")).to_have_value("3")
    expect(_figure(page, "prime", "House edge")).to_have_text(_printed_edge(PAYTABLES / "prime" / "3-4.yaml", "Prime"))


def test_a_family_games_round_is_edited_in_the_form(page: Page, server: str, tmp_path: Path) -> None:
    """Issue 33.8: a game of the family (here Face Up Ultimate) opens with its round's parts as fields; a change of
        an option's weakest hand, and an option removed, are counted again as trey analyze counts them; a row of its
    Blind is solved as trey solve solves it."""
    _open(page, server, "family/face-up-ultimate.yaml")
    expect(_summary(page, "ante_play")).to_have_text("3.8807%")  # published (docs/published-figures.md)
    weakest = _field(page, "game", "options", "1", "at_least")
    _acted(page, lambda: weakest.locator("select").select_option(label="A-high (A-3-2 or better)"))
    variant = _variant(tmp_path, FACE_UP, "a-high.yaml", ("at_least: pair", "at_least: A-high"))
    printed = re.search(r"House edge per Ante\s+(-?[0-9.]+%)", run_cli("analyze", variant).stdout)
    assert printed is not None
    expect(_summary(page, "ante_play")).to_have_text(f"3.8807% → {printed.group(1)}")
    expect(weakest.locator(".was")).to_have_text("was a pair or better")
    option = _field(page, "game", "options", "1", "play")
    _acted(page, lambda: option.locator("button.remove").click())
    expect(_field(page, "game", "options", "1", "play")).to_have_count(0)
    one = _variant(tmp_path, FACE_UP, "one.yaml", ("    - play: 3\n      at_least: pair\n", ""))
    printed = re.search(r"House edge per Ante\s+(-?[0-9.]+%)", run_cli("analyze", one).stdout)
    assert printed is not None
    expect(_summary(page, "ante_play")).to_have_text(f"3.8807% → {printed.group(1)}")
    # The Blind's flush solved for the page's target (5%), as trey solve solves the edited table's row.
    flush = _field(page, "game", "blind", "flush")
    flush.get_by_role("button", name="solve").click()
    solved = run_cli(
        "solve", one, "--wager", "ante_play", "--row", "blind.flush", "--house-edge", "5%", "--format", "json"
    )
    exact = Fraction(json.loads(solved.stdout)["exact_pay"])
    expect(flush.locator("output .exact")).to_have_text(
        f"5.0000% needs exactly {float(exact):,.4f} to 1 ({exact} to 1)."
    )


def test_a_row_added_as_yaml_joins_the_form_and_the_figures(page: Page, server: str) -> None:
    """The form edits values; the YAML pane adds what the form cannot (here Pair Plus's mini royal row), and the
    form follows. 40-30-6-3-1 with a mini royal at 50 is a shipped table: 7.0950%, as trey analyze prints it."""
    _open(page, server, "pair_plus/40-30-6-3-1.yaml")
    page.locator("#yaml-pane summary").click()
    pane = page.locator("#yaml")
    expect(pane).to_contain_text("flush: 3")
    # the wager's line at two spaces (the file's table: names pair_plus too, in its bet mix, deeper)
    _edit(page, pane, pane.input_value().replace("\n  pair_plus:\n", "\n  pair_plus:\n    mini_royal: 50\n", 1))
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
    monkeypatch.setattr(
        web, "analyze", lambda spec, checkpoint=None, **kw: analysed.append(spec) or real(spec, checkpoint, **kw)
    )
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
