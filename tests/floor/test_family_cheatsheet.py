"""The dealer sheet of a game of the Three Card Poker family (issue 31): one page with the payouts at the table's
bets, the raise rule, the resolution grid of every wager in every situation and the worked hands; rendered once."""

from __future__ import annotations

from html import unescape
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import PAYTABLES, run_cli

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sheet")
    result = run_cli("cheatsheet", FACE_UP_ULTIMATE, "--out", out, "--date", "2026-01-01")
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [str(out / f"face-up-ultimate.dealer-sheet.{k}") for k in ("html", "pdf")]
    return out


def test_the_sheet_is_one_page_with_the_raise_rule_the_grid_and_the_blind(sheet: Path) -> None:
    pages = PdfReader(sheet / "face-up-ultimate.dealer-sheet.pdf").pages
    assert len(pages) == 1
    text = " ".join(pages[0].extract_text().split())
    for said in (
        "The dealer deals one card face up before the player decides.",
        "The player folds (losing the Ante and the Blind); or plays 1x (a Play bet of 1× the Ante); or plays 3x "
        "with a pair or better (a Play bet of 3× the Ante).",
        "The dealer qualifies with Q-3-2 or better (Q-high).",
        "Play 3x wins 1 to 1 on 3× the Ante 15 30 45 75 150 300",
        "Mini-royal (A-K-Q suited) 100 to 1 500 1,000 1,500 2,500 5,000 10,000",
        "Straight 3 to 2 7* 15 22* 37* 75 150",
        "Settle in this order: Play → Blind → Ante.",
    ):
        assert said in text, said
    html = unescape((sheet / "face-up-ultimate.dealer-sheet.html").read_text())
    # The grid: the fold, then each Play bet in each of the six situations, the nets as rules.round.settle gives them.
    assert "<tr><td>Fold</td><td>fold</td><td>−1</td><td>push</td><td>−1</td></tr>" in html
    assert "<tr><td>3x</td><td>does not qualify, player higher</td><td>push</td><td>+3</td><td>table</td></tr>" in html
    assert "<tr><td>1x</td><td>qualifies, tie</td><td>push</td><td>push</td><td>push</td></tr>" in html
    assert html.count("<tr><td>1x</td>") == 6 and html.count("<tr><td>3x</td>") == 6


def test_the_worked_hands_are_answered_as_the_drill_answers(sheet: Path) -> None:
    html = unescape((sheet / "face-up-ultimate.dealer-sheet.html").read_text())
    assert "(plays 3x)" in html and "(folds)" in html
    assert "Ante: −$10 · Blind: −$10" in html  # the fold loses the Ante and the Blind
