"""Issue 18.9: one pay rule — rounded down to the smallest chip, held to the cap, a progressive's pays held to it only
when the house says so — for odds, fixed amounts and meter shares, on the sheet's tables, its worked hands and the
drill alike."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from trey.cards.card import parse_cards
from trey.documents.dealer_view import _pick_worked_hands, dealer_sheet_context
from trey.engine import analyze
from trey.floor.drill import answer_lines
from trey.paytable.load import check_bytes
from trey.paytable.model import GameSpec
from trey.paytable.odds import Odds
from trey.paytable.pays import Amount, MeterShare
from trey.play.payouts import PayRule
from trey.play.settle import Settler


def _game(covers: bool, *, share: str = "100%", reset: int = 50_001, chips: str = "[1, 5, 25]") -> GameSpec:
    text = f"""trey: 2
name: Capped jackpot
table:
  currency: USD
  chips: {chips}
  payout_cap: 10000
  payout_cap_covers_progressive: {str(covers).lower()}
side_bets:
  jackpot:
    reads: player_hand
    stake: 1
    pays:
      mini_royal_spades: {{meter: '{share}'}}
      straight_flush: {{amount: 20000}}
      three_of_a_kind: {{amount: '2.50'}}
      straight: 3
    progressive: {{reset: {reset}, increment: 10%}}
"""
    spec = check_bytes(text.encode(), "capped.yaml").spec
    assert spec is not None
    return spec


SPADE_ROYAL = (parse_cards("As Ks Qs"), parse_cards("2c 7d 9h"))
STRAIGHT_FLUSH = (parse_cards("9h Th Jh"), parse_cards("2c 7d 4s"))
TRIPS = (parse_cards("7c 7d 7h"), parse_cards("2c 9d 4s"))


def _drill_line(spec: GameSpec, deal: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple[Fraction, str]:
    settled = Settler(spec, None).settle_round(*deal)
    (line,) = answer_lines(spec, settled, {"jackpot": Fraction(1)}, PayRule.of(spec.table))
    return line.amount, line.reason


def test_a_jackpot_is_paid_in_full_unless_the_house_holds_it_to_the_cap() -> None:
    assert _drill_line(_game(False), SPADE_ROYAL) == (
        Fraction(50_000),
        "mini royal spades: 100% of the meter at $50,001 = $50,001 for the $1 bet (net $50,000)",
    )
    assert _drill_line(_game(True), SPADE_ROYAL) == (
        Fraction(9_999),
        "mini royal spades: 100% of the meter at $50,001 = $50,001 for the $1 bet, capped at $10,000 (net $9,999)",
    )


def test_a_share_and_an_amount_are_rounded_down_to_the_smallest_chip() -> None:
    amount, text = _drill_line(_game(False, share="12.5%"), SPADE_ROYAL)  # 6,250.125
    assert (amount, text) == (
        Fraction(6_249),
        "mini royal spades: 12.5% of the meter at $50,001 = $6,250.13 for the $1 bet, rounded down to $6,250 "
        "(smallest chip $1) (net $6,249)",
    )
    assert _drill_line(_game(False), TRIPS) == (
        Fraction(1),
        "three of a kind: $2.50 for the $1 bet, rounded down to $2 (smallest chip $1) (net $1)",
    )


@pytest.mark.parametrize("covers", [False, True])
def test_the_sheet_table_its_worked_hands_and_the_drill_pay_the_same(covers: bool) -> None:
    spec = _game(covers)
    rule = PayRule.of(spec.table)
    context = dealer_sheet_context(spec, analyze(spec), paper="letter", effective=date(2026, 1, 1), bets=None)
    (table,) = [t for t in context["tables"] if t["rows"]]
    cells = {row["label"]: row["cells"][0] for row in table["rows"]}
    assert cells["Straight flush"]["text"] == ("CAP" if covers else "$20,000")
    assert (cells["Three of a kind"]["text"], cells["Three of a kind"]["rounded"]) == ("$2", True)  # printed "$2*"
    paid = rule.pay(1, Amount(Fraction(20_000)), progressive=True)
    assert paid.amount == (10_000 if covers else 20_000) and paid.capped == covers
    # the drill's answer for a straight flush is what the sheet's cell says, less the $1 stake
    assert _drill_line(spec, STRAIGHT_FLUSH)[0] == paid.amount - 1
    # every worked hand on the sheet is the pay rule's net of its outcome
    settler = Settler(spec, None)
    for (player, dealer), shown in zip(_pick_worked_hands(settler), context["worked_hands"], strict=True):
        outcome = str(settler.settle_round(player, dealer)["jackpot"].outcome)
        pay = spec.wagers.side_bet("jackpot").pays.get(outcome)
        net = -1 if pay is None else rule.net(1, pay, meter=Fraction(50_001), progressive=True)
        ((label, text),) = shown["lines"]
        assert label == "Jackpot"
        assert text.split(" ")[0] == (f"+${int(net):,}" if net > 0 else f"−${int(-net):,}")
    assert context["cap"] == "$10,000 per wager per round" + (
        ", progressives included" if covers else " (progressive pays are paid in full)"
    )


def test_the_pay_rule_itself() -> None:
    rule = PayRule.of(_game(True).table)
    assert rule.pay(5, Odds(3, 2)).amount == 7  # 7.50 rounded down to a $1 chip
    assert rule.pay(5, MeterShare(Fraction(1, 8)), meter=Fraction(50_001), progressive=True).amount == 6_250
    assert rule.pay(1, MeterShare(Fraction(1)), meter=Fraction(50_001), progressive=True).capped
    assert (
        not PayRule.of(_game(False).table)
        .pay(1, MeterShare(Fraction(1)), meter=Fraction(50_001), progressive=True)
        .capped
    )
    with pytest.raises(ValueError, match="a meter share needs the meter's value"):
        rule.pay(1, MeterShare(Fraction(1)))
