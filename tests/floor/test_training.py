"""Dealer training: payout drills with answer keys, every wager on the payout sheet, local money formats."""

from __future__ import annotations

import re
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest
from pypdf import PdfReader

from conftest import PAYTABLES, STANDARD, run_cli
from trey.cards.card import parse_cards
from trey.cards.hands import ThreeCardCategory, three_card_key
from trey.core.numbers import MoneyStyle
from trey.documents.dealer_view import fit_dealer_sheet
from trey.documents.drill_view import render_drill_html
from trey.engine import analyze
from trey.floor.drill import Level, make_drill, uncovered
from trey.paytable.load import check_bytes, load_spec
from trey.play.payouts import PayRule, payout

DATE = "2026-01-01"


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.fixture(scope="module")
def standard_drill(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("drill")
    result = run_cli("drill", STANDARD, "--out", out, "--level", "full", "--seed", "7", "--date", DATE)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.splitlines() == [str(out / "standard.drill.html"), str(out / "standard.drill.pdf")]
    return out


def test_the_answer_key_starts_on_a_page_of_its_own(standard_drill: Path) -> None:
    pages = [squeezed(p.extract_text()) for p in PdfReader(standard_drill / "standard.drill.pdf").pages]
    key = next(i for i, text in enumerate(pages) if text.startswith("Answerkey"))
    assert key > 0
    hands = [i for i, text in enumerate(pages) for n in range(1, 25) if f"Hand{n}.Player" in text]
    assert hands and max(hands) < key  # every question before the key
    assert all("Answerkey" not in text for text in pages[:key])
    # the first page says where the key starts (the key runs over several pages: "the last page" would be wrong)
    assert f"Theanswersareintheanswerkey,whichstartsonpage{key + 1}." in pages[0]
    assert key + 1 < len(pages)


@pytest.mark.parametrize("seed", [1, 7, 11])
def test_no_two_hands_of_a_drill_are_the_same_deal(seed: int) -> None:
    """Issue 18.7: the full drill chose the first deal showing each feature, and one deal is often the first for
    several (seed 7 repeated hands 6 and 10, 13, 18, 26 and 28)."""
    spec = load_spec(STANDARD)
    drill = make_drill(spec, analyze(spec), hands=24, seed=seed, level=Level.FULL)
    deals = [(hand.player, hand.dealer) for hand in drill.hands]
    assert len(set(deals)) == len(deals)
    assert uncovered(drill) == []


def _pair_plus_net(cards: tuple[int, ...]) -> Fraction:
    """Pair Plus 40-30-6-3-1 by the hand's category, independently of the settlement."""
    category = ThreeCardCategory(three_card_key(cards) >> 12)
    return Fraction(
        {
            ThreeCardCategory.STRAIGHT_FLUSH: 40,
            ThreeCardCategory.THREE_OF_A_KIND: 30,
            ThreeCardCategory.STRAIGHT: 6,
            ThreeCardCategory.FLUSH: 3,
            ThreeCardCategory.PAIR: 1,
        }.get(category, -1)
    )


def test_answers_equal_an_independent_settlement() -> None:
    spec = load_spec(STANDARD)
    drill = make_drill(spec, analyze(spec), hands=24, seed=11, level=Level.BASIC)
    q64, q32 = three_card_key(parse_cards("Qc 6d 4h")), three_card_key(parse_cards("Qc 3d 2h"))
    bonus = {ThreeCardCategory.STRAIGHT_FLUSH: 5, ThreeCardCategory.THREE_OF_A_KIND: 4, ThreeCardCategory.STRAIGHT: 1}
    rule = PayRule.of(spec.table)
    checked = 0
    for hand in drill.hands:
        bets = dict(hand.bets)
        ante = bets["Ante & Play"]
        answers = {line.part: line.amount for line in hand.lines}
        mine, theirs = three_card_key(hand.player), three_card_key(hand.dealer)
        plays = mine >= q64
        assert hand.plays == plays
        if not plays:
            assert (answers["Ante"], "Play" in answers) == (-ante, False)
            assert answers["Pair Plus"] == -bets["Pair Plus"]  # lost with the Ante
        else:
            result = 1 if theirs < q32 else (1 if mine > theirs else 0 if mine == theirs else -1)
            play = 0 if theirs < q32 else result
            assert (answers["Ante"], answers["Play"]) == (result * ante, play * ante)
            won = bonus.get(ThreeCardCategory(mine >> 12))
            assert answers["Ante Bonus"] == (won * ante if won else 0)
            net = _pair_plus_net(hand.player)
            bet = bets["Pair Plus"]
            expected = -bet if net < 0 else payout(bet, net, chip=rule.chip, cap=rule.cap).amount
            assert answers["Pair Plus"] == expected
        checked += 1
    assert checked == 24


@pytest.mark.parametrize(
    "paytable",
    [
        STANDARD,
        PAYTABLES / "progressive" / "three-card-progressive.yaml",
        PAYTABLES / "side_bets" / "dealer-bonus.yaml",
    ],
    ids=lambda p: p.stem,
)
def test_a_full_drill_covers_every_row_and_situation(paytable: Path) -> None:
    spec = load_spec(paytable)
    drill = make_drill(spec, analyze(spec), hands=4, seed=3, level=Level.FULL)
    assert uncovered(drill) == []
    reasons = [line.reason for hand in drill.hands for line in hand.lines]
    for bet in spec.wagers.side_bets:
        for row in bet.pays.listed:
            assert any(r.startswith(row.replace("_", " ") + ":") for r in reasons), (bet.id, row)
    for situation in ("player folds", "dealer does not qualify", "player higher", "tie", "dealer higher"):
        assert any(r.startswith(situation) for r in reasons), situation
    assert any(r.endswith("(paid whatever the dealer holds)") for r in reasons)  # an Ante Bonus on a losing hand
    if paytable == STANDARD:
        assert any("capped at $50,000" in r for r in reasons)  # six-card royal 1000 to 1 on $100 or more


def test_same_seed_same_drill_byte_for_byte(standard_drill: Path) -> None:
    """Rendered again, by the library this time (so the command writes what the library makes, too)."""
    import trey

    spec = load_spec(STANDARD)
    again = trey.drill(spec, "standard", seed=7, level="full", effective=date(2026, 1, 1))
    assert sorted(again) == ["standard.drill.html", "standard.drill.pdf"]
    for name, content in again.items():
        assert (standard_drill / name).read_bytes() == content, name
    from trey.documents.drill_view import render_drill_html
    from trey.engine import analyze
    from trey.floor.drill import Level, make_drill

    seven, eight = (
        render_drill_html(
            make_drill(spec, analyze(spec), hands=24, seed=seed, level=Level("full")),
            paper="letter",
            day=date(2026, 1, 1),
        )
        for seed in (7, 8)
    )
    assert (
        seven.encode() == (standard_drill / "standard.drill.html").read_bytes() and eight != seven
    )  # the HTML suffices
    assert run_cli("drill", STANDARD, "--out", standard_drill, "--seed", "7").exit_code == 1  # no overwrite


GERMAN = b"""trey: 2
name: Tisch in Euro
table: {currency: EUR, locale: de_DE, minimum: 100, maximum: 5000, chips: [5, 25, 100]}
wagers:
  pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}
"""


def test_a_euro_table_in_german_prints_german_amounts(tmp_path: Path) -> None:
    path = tmp_path / "euro.yaml"
    path.write_bytes(GERMAN)
    assert run_cli("cheatsheet", path, "--out", tmp_path, "--date", DATE).exit_code == 0
    sheet = " ".join(PdfReader(tmp_path / "euro.dealer-sheet.pdf").pages[0].extract_text().split())
    assert "Limits: minimum 100 €, maximum 5.000 €" in sheet
    assert "Straight flush 40 to 1 4.000 " in sheet  # 40 to 1 on 100 €, German grouping
    assert run_cli("drill", path, "--out", tmp_path, "--date", DATE, "--hands", "6").exit_code == 0
    key = " ".join((tmp_path / "euro.drill.html").read_text().split())
    assert re.search(r"Bets: Pair Plus [0-9.]+ €", key)
    assert re.search(r"[0-9]\.[0-9]{3} €", key)  # German grouping: a thousands point, the symbol after
    assert "$" not in key


def test_money_styles() -> None:
    assert MoneyStyle("EUR", "de_DE").money(Fraction(100050, 100)) == "1.000,50\u00a0€"  # a no-break space
    assert MoneyStyle("EUR", "de_DE").money(1000) == "1.000\u00a0€"
    assert MoneyStyle("GBP", "en_GB").money(1000) == "£1,000"
    assert MoneyStyle("MOP", "zh_Hant_MO").money(1000) == "MOP$1,000"
    assert MoneyStyle().money(Fraction(-15, 2)) == "−$7.50"


def test_a_50_cent_chip_rounds_a_3_to_2_payout() -> None:
    text = b"trey: 2\nname: Halves\ntable: {chips: ['0.50', 1, 5]}\n"
    text += b"wagers:\n  pair_plus: {flush: '3 to 2', pair: '6 to 5'}\n"
    spec = check_bytes(text, "halves.yaml").spec
    assert spec is not None and spec.table is not None and spec.table.chips[0] == Fraction(1, 2)
    rule = PayRule.of(spec.table)
    assert (rule.pay(5, Fraction(3, 2)).amount, rule.pay(5, Fraction(3, 2)).rounded) == (Fraction(15, 2), False)
    assert (rule.pay(7, Fraction(6, 5)).amount, rule.pay(7, Fraction(6, 5)).rounded) == (Fraction(8), True)  # 8.40
    dollar = PayRule.of(check_bytes(text.replace(b"'0.50', ", b""), "dollar.yaml").spec.table)  # type: ignore[union-attr]
    assert dollar.pay(5, Fraction(3, 2)).amount == 7  # $1 chips: 7.50 rounded down to 7
    sheet = fit_dealer_sheet(spec, analyze(spec), paper="letter", effective=date(2026, 1, 1), bets=(5, 10, 15))
    assert "7.50</td>" in sheet.html and "22.50</td>" in sheet.html  # 3 to 2 on $5 and $15, not rounded
    assert "(\\$0.50)" not in sheet.html and "smallest chip ($0.50)" in sheet.html


MANY = """trey: 2
name: Many side bets
table: {minimum: 5, maximum: 500, chips: [1, 5, 25, 100]}
wagers:
  ante_play: {ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}}
  pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}
  prime: {six_same_colour: 4, three_same_colour: 3}
  six_card_bonus: {royal_flush: 1000, straight_flush: 200, four_of_a_kind: 100, full_house: 20, flush: 15,
                   straight: 10, three_of_a_kind: 7}
side_bets:
  dealer_bonus: {reads: dealer_hand, pays: {mini_royal: 100, straight_flush: 40, three_of_a_kind: 30, straight: 6,
                                           flush: 3, pair: 1}}
  six_plus: {reads: six_cards, pays: {royal_flush_spades: 5000, royal_flush: 1000, straight_flush: 200,
                                      four_of_a_kind: 100, full_house: 20, flush: 15, straight: 10,
                                      three_of_a_kind: 7, two_pair: 2}}
"""


def test_more_wagers_continue_on_a_second_page_without_splitting_a_table(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(MANY)
    assert run_cli("cheatsheet", path, "--out", tmp_path, "--date", DATE).exit_code == 0
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "many.dealer-sheet.pdf").pages]
    assert len(pages) >= 2
    assert pages[0].endswith(f"Page 1 of {len(pages)}, continued on the next page")
    assert pages[-1].endswith(f"Page {len(pages)} of {len(pages)}")
    # every wager's table whole on one page: its title and its last row on the same page
    for title, last_row in [
        ("Ante & Play", "Bonus: straight 1 to 1"),
        ("Pair Plus", "Pair 1 to 1"),
        ("Prime", "Three cards of one colour 3 to 1"),
        ("Six Card Bonus", "Three of a kind 7 to 1"),
        ("Dealer Bonus", "Pair 1 to 1"),
        ("Six Plus", "Two pair 2 to 1"),
    ]:
        page = next(p for p in pages if f"{title} Bet" in p or f"{title} Ante" in p)
        assert last_row in page.split(f"{title} ")[1], title
    one = run_cli("cheatsheet", STANDARD, "--out", tmp_path / "one", "--date", DATE)
    assert one.exit_code == 0 and len(PdfReader(tmp_path / "one" / "standard.dealer-sheet.pdf").pages) == 1


def test_a_drill_html_names_every_hand_and_wager() -> None:
    spec = load_spec(STANDARD)
    drill = make_drill(spec, analyze(spec), hands=5, seed=1, level=Level.BASIC)
    page = render_drill_html(drill, paper="letter", day=date(2026, 1, 1))
    assert page.count('<div class="hand">') == len(drill.hands) == 5
    assert page.count('Six Card Bonus: <span class="blank">') == 5


RTL_TABLE = """trey: 1
name: Israeli table
table: {currency: ILS, locale: he_IL, minimum: 5, maximum: 100, chips: ['0.50', 1, 5, 25]}
wagers:
  ante_play:
    ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}
  pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: '3 to 2'}
"""
ISOLATE = re.compile("\u2068[^\u2068\u2069]*\u2069")


def test_right_to_left_amounts_are_isolated_so_the_arithmetic_reads_in_order() -> None:
    """Issue 18.10: CLDR's he_IL and ar_EG patterns carry right-to-left marks; without isolates a reason read
    "pair: 3 to 2 × 7.50 = ₪ 5₪". Every amount is isolated, its sign outside."""
    israeli, egyptian = MoneyStyle("ILS", "he_IL"), MoneyStyle("EGP", "ar_EG")
    assert israeli.money(Fraction(15, 2)) == "\u2068\u200f7.50\xa0\u200f₪\u2069"
    assert israeli.money(-10) == "−\u2068\u200f10\xa0\u200f₪\u2069"
    assert egyptian.money(300) == "\u2068\u200f300\xa0ج.م.\u200f\u2069"
    assert MoneyStyle().money(Fraction(15, 2)) == "$7.50"  # left-to-right money is left as it is
    spec = check_bytes(RTL_TABLE.encode(), "he.yaml").spec
    assert spec is not None
    drill = make_drill(spec, analyze(spec), hands=24, seed=1, level=Level.FULL)
    pairs = [line.reason for hand in drill.hands for line in hand.lines if line.reason.startswith("pair: 3 to 2")]
    assert pairs
    for reason in pairs:  # "pair: 3 to 2 × ⁨7.50 ₪⁩ = ⁨7.50 ₪⁩, rounded down to ⁨7 ₪⁩ ..."
        outside = ISOLATE.sub("AMOUNT", reason)
        assert outside.startswith("pair: 3 to 2 × AMOUNT = AMOUNT")
        assert "\u200f" not in outside and "₪" not in outside  # no mark or symbol outside an isolate
    html = render_drill_html(drill, paper="a4", day=date(2026, 1, 1))
    assert "\u200f" not in ISOLATE.sub("", html)


def test_the_terminal_shows_bidirectional_marks_as_escapes(tmp_path: Path) -> None:
    path = tmp_path / "he.yaml"
    path.write_text(RTL_TABLE)
    result = run_cli("analyze", path)
    assert result.exit_code == 0
    assert not {"\u200f", "\u2068", "\u2069"} & set(result.stdout)
    assert "\\u2068\\u200f2.02 \\u200f₪\\u2069 an hour" in " ".join(result.stdout.split())


def test_money_keeps_the_locales_grouping() -> None:
    assert MoneyStyle("INR", "en_IN").money(100_000) == "₹1,00,000"
    assert MoneyStyle("INR", "en_IN").money(Fraction(1_234_567_5, 10)) == "₹12,34,567.50"
    assert MoneyStyle("USD", "en_US").money(1_234_567) == "$1,234,567"


def test_the_library_makes_the_sheet_and_the_drill_the_commands_write(tmp_path: Path) -> None:
    import trey
    from conftest import REPO

    spec = load_spec(STANDARD)
    sheet = trey.dealer_sheet(spec, "standard", effective=date(2026, 1, 1))
    # the level and the paper as each defaults (test_same_seed_same_drill_byte_for_byte compares a full drill of 24)
    practice = trey.drill(spec, "standard", hands=6, seed=3, effective=date(2026, 1, 1))
    assert run_cli("drill", STANDARD, "--out", tmp_path, "--hands", "6", "--seed", "3", "--date", DATE).exit_code == 0
    for name, content in practice.items():
        assert (tmp_path / name).read_bytes() == content, name
    # The command's sheet is the committed one (tests/floor/test_cheatsheet.py renders it and compares the bytes).
    for name, content in sheet.items():
        assert (REPO / "reports" / name).read_bytes() == content, name
