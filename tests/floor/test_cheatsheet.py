"""trey cheatsheet: the amounts printed on the dealer sheet, its layout, and its worked hands."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import PAYTABLES, STANDARD, run_cli
from trey.cards.hands import three_card_key
from trey.documents.dealer_view import _pick_worked_hands, dealer_sheet_context
from trey.documents.payoff_keys import payoff_key
from trey.engine import analyze
from trey.paytable.load import load_spec
from trey.paytable.model import Table
from trey.paytable.odds import Odds
from trey.play.payouts import bet_columns, payout
from trey.play.settle import Settler, ante_play_parts

DATE = "2026-01-01"


def sheet(out: Path, paytable: Path = STANDARD, *args: str) -> tuple[str, str]:
    result = run_cli("cheatsheet", paytable, "--out", out, "--date", DATE, *args)
    assert result.exit_code == 0, result.stderr
    stem = paytable.stem
    html = (out / f"{stem}.dealer-sheet.html").read_text()
    reader = PdfReader(out / f"{stem}.dealer-sheet.pdf")
    assert len(reader.pages) == 1
    return html, reader.pages[0].extract_text()


@pytest.fixture(scope="module")
def standard_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sheet")
    sheet(out)
    return out


@pytest.fixture(scope="module")
def standard(standard_folder: Path) -> tuple[str, str]:
    html = (standard_folder / "standard.dealer-sheet.html").read_text()
    return html, PdfReader(standard_folder / "standard.dealer-sheet.pdf").pages[0].extract_text()


def write_spec(tmp_path: Path, text: str, name: str = "table.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_committed_sheet_equals_a_fresh_render(standard_folder: Path) -> None:
    from conftest import REPO

    for name in ("standard.dealer-sheet.html", "standard.dealer-sheet.pdf"):
        assert (REPO / "reports" / name).read_bytes() == (standard_folder / name).read_bytes(), "run make reports"


def test_standard_bet_columns_come_from_the_table_limits(standard: tuple[str, str]) -> None:
    _, pdf = standard
    spec = load_spec(STANDARD)
    assert bet_columns(spec.table) == (5, 10, 25, 50, 100, 500)
    assert "Bet $5 $10 $25 $50 $100 $500" in pdf


@pytest.mark.parametrize(
    "row",
    [
        # (wager row as printed) then the wins at $5 $10 $25 $50 $100 $500: bet x odds, computed by hand
        "Straight flush 40 to 1 200 400 1,000 2,000 4,000 20,000",
        "Three of a kind 30 to 1 150 300 750 1,500 3,000 15,000",
        "Bonus: straight flush 5 to 1 25 50 125 250 500 2,500",
        "Six cards of one colour 4 to 1 20 40 100 200 400 2,000",
        "Four of a kind 100 to 1 500 1,000 2,500 5,000 10,000 50,000",
        # 1000 x $100 = $100,000 and 200 x $500 = $100,000 exceed the $50,000 cap
        "Royal flush 1000 to 1 5,000 10,000 25,000 50,000 CAP CAP",
        "Straight flush 200 to 1 1,000 2,000 5,000 10,000 20,000 CAP",
    ],
)
def test_amounts_in_the_pdf(standard: tuple[str, str], row: str) -> None:
    assert row in standard[1]


def test_amounts_and_cap_in_the_html(standard: tuple[str, str]) -> None:
    html = re.sub(r"\s+", " ", standard[0])
    assert '<td class="amount">1,000</td>' in html
    assert '<td class="amount cap">CAP</td>' in html
    assert "CAP</b>: the win exceeds the payout cap; pay $50,000." in html
    assert "For training — the approved rules govern" in html
    assert load_spec(STANDARD).sha256 in html


def test_the_sheet_states_what_it_shows(standard: tuple[str, str]) -> None:
    pdf = standard[1].replace("\n", " ")
    assert "Amounts are the win: the stake is returned besides." in pdf
    assert "rounded down to it; none on this sheet." in pdf
    assert "30 to 1 ×3, add a zero" in pdf
    assert "Settle in this order: Play → Ante Bonus → Ante → Pair Plus → Prime → Six Card Bonus." in pdf
    assert "Q♥ K♥ A♥" in pdf
    assert '<span class="card red">Q♥</span>' in standard[0]
    assert '<span class="card">7♣</span>' in standard[0]


def test_fractional_odds_are_rounded_down_to_the_smallest_chip(tmp_path: Path) -> None:
    text = (
        "trey: 1\nname: Fractions\ntable: {minimum: 5, maximum: 100, chips: [%s]}\n"
        "wagers:\n  prime: {three_same_colour: '3 to 2'}\n"
    )
    _, pdf = sheet(tmp_path / "a", write_spec(tmp_path, text % "1, 5, 25"))
    # bets $5 $10 $15 $25 $50 $100; 3/2 x $5 = $7.50 -> $7 with $1 chips, $22.50 -> $22, $37.50 -> $37
    assert "Three cards of one colour 3 to 2 7* 15 22* 37* 75 150" in pdf
    assert "rounded down to it (marked *)." in pdf.replace("\n", " ")
    _, pdf = sheet(tmp_path / "b", write_spec(tmp_path, text % "5, 25", "chips5.yaml"))
    # with $5 the smallest chip: $7.50 -> $5, $22.50 -> $20, $37.50 -> $35
    assert "Three cards of one colour 3 to 2 5* 15 20* 35* 75 150" in pdf
    assert payout(5, Odds(3, 2), chip=5).amount == 5


def test_for_odds_show_what_the_dealer_pays(tmp_path: Path) -> None:
    text = "trey: 1\nname: For\nwagers:\n  six_card_bonus: {royal_flush: '1001 for 1', three_of_a_kind: 7}\n"
    _, pdf = sheet(tmp_path / "out", write_spec(tmp_path, text))
    assert "Royal flush 1000 to 1 (table says 1001 for 1) 5,000 10,000 15,000 25,000 50,000 100,000" in " ".join(
        pdf.split()
    )
    assert "No table limits in the paytable file: common bets $5, $10, $15, $25, $50, $100." in pdf.replace("\n", " ")


def test_bets_option_overrides_the_columns(tmp_path: Path) -> None:
    _, pdf = sheet(tmp_path, STANDARD, "--bets", "2,7,1000")
    assert "Bet $2 $7 $1,000" in pdf
    assert "Straight flush 40 to 1 80 280 40,000" in pdf
    assert run_cli("cheatsheet", STANDARD, "--out", tmp_path / "x", "--bets", "5,ten").exit_code == 2
    assert run_cli("cheatsheet", STANDARD, "--out", tmp_path / "x", "--bets", "0,5").exit_code == 2


def test_fits_one_landscape_page_at_letter_and_a4(tmp_path: Path) -> None:
    for paper, size in (("letter", (792, 612)), ("a4", (842, 595))):
        result = run_cli("cheatsheet", STANDARD, "--out", tmp_path / paper, "--date", DATE, "--paper", paper)
        assert result.exit_code == 0
        reader = PdfReader(tmp_path / paper / "standard.dealer-sheet.pdf")
        assert len(reader.pages) == 1
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == size
        text = reader.pages[0].extract_text()
        # nothing clipped: the last table row and the last worked hand are on the page
        assert "Three of a kind 7 to 1 35 70 175 350 700 3,500" in text
        assert text.count(" · Dealer ") == 3


def test_type_sizes_for_the_table(standard: tuple[str, str]) -> None:
    html = standard[0]
    style = html.split("<style>")[1].split("</style>")[0]
    found = re.findall(r"([^{};]*)\{[^{}]*?font-size: ([0-9.]+)pt", style)
    sizes = [(selector.strip(), float(size)) for selector, size in found]
    assert ("body", 10) in sizes
    assert ("table.pay td.amount", 12) in sizes
    assert ("table.pay th.bet", 12) in sizes
    # Below 10 pt only the page footer and the certificate's monospace digests, which this sheet does not use.
    assert {sel for sel, size in sizes if size < 10} == {".page-footer", "@bottom-right", ".mono"}
    assert 'class="mono"' not in html


def test_resolution_grid_follows_the_rules(tmp_path: Path) -> None:
    data = load_spec(STANDARD).canonical()
    data["rules"] = {
        "dealer_qualifier": "J-high",
        "ties": "player_wins",
        "ante_bonus_requires_play": False,
        "pair_plus_on_fold": "stands",
    }
    import yaml

    path = write_spec(tmp_path, yaml.safe_dump(data), "variant.yaml")
    _, pdf = sheet(tmp_path / "out", path)
    text = pdf.replace("\n", " ")
    assert "The dealer qualifies with J-3-2 or better (J-high)." in text
    assert "When the player folds: Pair Plus stands (settled on its own);" in text
    assert "Player folds loses — paid" in text  # the Ante Bonus is paid on a fold too
    assert "Tie 1 to 1 1 to 1 paid" in text  # ties go to the player


def test_worked_hands_agree_with_the_rules() -> None:
    """Each worked hand, settled by the settlement code, against an independent reading of the rules."""
    spec = load_spec(STANDARD)
    analysis = analyze(spec)
    assert analysis.ante_play is not None
    settler = Settler(spec, analysis.ante_play.plays)
    hands = _pick_worked_hands(settler)
    assert len(hands) == 3
    bonus = {3: Fraction(1), 4: Fraction(4), 5: Fraction(5)}  # straight, trips, straight flush
    q642 = three_card_key((40, 17, 10))  # Qc 6d 4h: the weakest hand played
    for player, dealer in hands:
        settled = settler.settle_round(player, dealer)["ante_play"]
        mine, theirs = three_card_key(player), three_card_key(dealer)
        plays = mine >= q642
        qualifies = theirs >= three_card_key((40, 5, 2))  # Qc 3d 2h
        parts = ante_play_parts(settled, spec)
        if not plays:
            assert parts == {"Ante": -1, "Play": None, "Ante Bonus": None}
            continue
        ante, play = (1, 0) if not qualifies else (1, 1) if mine > theirs else (0, 0) if mine == theirs else (-1, -1)
        expected_bonus = bonus.get(mine >> 12)
        assert (parts["Ante"], parts["Play"], parts["Ante Bonus"]) == (ante, play, expected_bonus)
        assert settled.net == ante + play + (expected_bonus or 0)


def test_worked_hands_show_the_settled_amounts() -> None:
    spec = load_spec(STANDARD)
    context = dealer_sheet_context(spec, analyze(spec), paper="letter", effective=date(2026, 1, 1), bets=None)
    first = context["worked_hands"][0]
    assert [t for t, _ in first["player"]] == ["6♥", "5♠", "4♦"]
    assert first["lines"][:3] == [("Ante", "+$10"), ("Play", "+$10"), ("Bonus", "+$10")]
    assert ("Pair Plus", "+$60 (straight)") in first["lines"]


def test_payoff_keys() -> None:
    assert payoff_key(Fraction(30)) == "×3, add a zero"
    assert payoff_key(Fraction(6)) == "×5 + the bet"
    assert payoff_key(Fraction(1000)) == "add 3 zeros"
    assert payoff_key(Fraction(35)) == "×3, add a zero + ×5"
    assert payoff_key(Fraction(3, 2)) == "the bet + half"
    assert payoff_key(Fraction(1)) == "even money"


def test_bet_columns_without_and_with_limits() -> None:
    assert bet_columns(None) == (5, 10, 15, 25, 50, 100)
    assert bet_columns(Table(minimum=25, maximum=5000, chips=(5, 25, 100))) == (25, 50, 100, 500, 1000, 5000)
    assert bet_columns(Table(minimum=10, maximum=10)) == (10,)


def test_escaping_and_no_overwrite(tmp_path: Path) -> None:
    path = write_spec(
        tmp_path, "trey: 1\nname: <script>alert(1)</script>\nwagers:\n  pair_plus: {pair: 1}\n", "evil.yaml"
    )
    html, pdf = sheet(tmp_path / "out", path)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt; · dealer payout sheet" in html
    assert "<script>alert(1)</script> · dealer payout sheet" in pdf
    again = run_cli("cheatsheet", path, "--out", tmp_path / "out", "--date", DATE)
    assert again.exit_code == 1
    assert again.stderr.startswith(f"error: would overwrite {tmp_path / 'out' / 'evil.dealer-sheet.html'}, ")
    assert run_cli("cheatsheet", path, "--out", tmp_path / "out", "--date", DATE, "--force").exit_code == 0


def test_spec_without_ante_play_has_no_resolution_grid(tmp_path: Path) -> None:
    _, pdf = sheet(tmp_path, PAYTABLES / "prime" / "3-4.yaml")
    assert "Situation" not in pdf
    assert "Settle in this order: Prime." in pdf
