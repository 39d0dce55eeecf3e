"""The family's settlement (trey.rules.round, issue 31) against tests/family_brute.py's, written apart from trey, for
every option, class of deal and paying row of a handful of games; the standard game's resolution table, now read from
it, as it was."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

import family_brute as brute
from trey.paytable.model import (
    BLIND_OUTCOMES,
    STANDARD_ROUND,
    AnteWithoutQualifier,
    DealerQualifier,
    Paytable,
    PlayOption,
    RoundShape,
    Rules,
    Ties,
)
from trey.paytable.odds import Odds
from trey.rules.ante_play import Situation, resolution_table
from trey.rules.round import DEAL_CLASSES, FOLD, DealClass, Showdown, settle, staked

FU_BLIND = {"mini_royal": 100, "straight_flush": 8, "three_of_a_kind": 6, "straight": (3, 2), "flush": 1}
BONUS = {"straight_flush": 5, "three_of_a_kind": 4, "straight": 1}


def odds_table(outcomes: tuple[str, ...], pays: dict[str, int | tuple[int, int]]) -> Paytable:
    return Paytable.from_mapping(
        outcomes, {row: Odds(*pay) if isinstance(pay, tuple) else Odds(pay, 1) for row, pay in pays.items()}
    )


def fractions(pays: dict[str, int | tuple[int, int]]) -> dict[str, Fraction]:
    return {row: Fraction(*pay) if isinstance(pay, tuple) else Fraction(pay) for row, pay in pays.items()}


FACE_UP_ULTIMATE = RoundShape(
    face_up=1,
    options=(PlayOption(1), PlayOption(3, DealerQualifier.parse("pair"))),
    ante_when_dealer_does_not_qualify=AnteWithoutQualifier.PUSHES,
    play_needs_qualifier=False,
    blind=odds_table(BLIND_OUTCOMES, FU_BLIND),
)

# (trey's shape, rules and Ante Bonus; family_brute's rules of the same game)
GAMES = {
    "standard": (STANDARD_ROUND, Rules(), BONUS, brute.STANDARD),
    "face up ultimate": (FACE_UP_ULTIMATE, Rules(), {}, brute.FACE_UP_ULTIMATE),
    "ties to the player, a bonus on a fold": (
        replace(FACE_UP_ULTIMATE, ante_when_dealer_does_not_qualify=AnteWithoutQualifier.WINS),
        Rules(ties=Ties.PLAYER_WINS, ante_bonus_requires_play=False),
        BONUS,
        None,  # family_brute pays the Ante Bonus only when the player plays: checked by hand below
    ),
    "ante pushes": (
        replace(STANDARD_ROUND, ante_when_dealer_does_not_qualify=AnteWithoutQualifier.PUSHES),
        Rules(),
        {},
        replace(brute.STANDARD, ante_when_dealer_does_not_qualify="pushes", ante_bonus=None),
    ),
}


def _blind_pay(shape: RoundShape, row: str) -> Fraction | None:
    if shape.blind is None:
        return None
    applies = ("mini_royal", "straight_flush") if row == "mini_royal" else (row,)
    return next((odds.net for r in applies if (odds := shape.blind.odds(r)) is not None), None)


def _bonus(pays: dict[str, int | tuple[int, int]], row: str) -> Fraction:
    table = fractions(pays)
    applies = ("mini_royal", "straight_flush") if row == "mini_royal" else (row,)
    return next((table[r] for r in applies if r in table), Fraction(0))


@pytest.mark.parametrize("name", [n for n, g in GAMES.items() if g[3] is not None])
def test_every_net_equals_the_plain_settlement(name: str) -> None:
    shape, rules, bonus_pays, plain = GAMES[name]
    assert plain is not None
    for row in brute.ROWS:
        for option in (FOLD, *shape.multiples):
            for deal in DEAL_CLASSES:
                nets = settle(
                    shape, rules, option, deal, blind_pay=_blind_pay(shape, row), bonus=_bonus(bonus_pays, row)
                )
                expected = brute.net(plain, option, row, deal.qualifies, int(deal.showdown))
                assert nets.total == expected, (row, option, deal)
            assert staked(shape, option) == brute.wager(plain, option)


def test_ties_to_the_player_win_the_ante_and_the_play_but_push_the_blind() -> None:
    shape, rules, _, _ = GAMES["ties to the player, a bonus on a fold"]
    tie = settle(shape, rules, 3, DealClass(True, Showdown.TIE), blind_pay=Fraction(8), bonus=Fraction(5))
    assert (tie.ante, tie.play, tie.blind, tie.bonus) == (1, 3, 0, 5)
    short = settle(shape, rules, 1, DealClass(False, Showdown.LOSE), blind_pay=Fraction(8), bonus=Fraction(5))
    assert (short.ante, short.play, short.blind, short.bonus) == (1, -1, -1, 5)  # the Ante wins, the Play does not
    fold = settle(shape, rules, FOLD, DealClass(True, Showdown.WIN), blind_pay=Fraction(8), bonus=Fraction(5))
    assert (fold.ante, fold.play, fold.blind, fold.bonus) == (-1, 0, -1, 5)  # the bonus does not need the Play


def test_a_blind_win_below_its_lowest_row_pushes() -> None:
    nets = settle(FACE_UP_ULTIMATE, Rules(), 1, DealClass(True, Showdown.WIN), blind_pay=None)
    assert (nets.ante, nets.play, nets.blind) == (1, 1, 0)


def test_an_option_the_game_does_not_offer_is_refused() -> None:
    with pytest.raises(ValueError, match=r"the game offers no Play bet of 2x \(it offers \[1, 3\]\)"):
        settle(FACE_UP_ULTIMATE, Rules(), 2, DEAL_CLASSES[0])


@pytest.mark.parametrize("ties", list(Ties))
@pytest.mark.parametrize("requires_play", [True, False])
def test_the_standard_resolution_table_is_as_it_was(ties: Ties, requires_play: bool) -> None:
    """trey 0.4.0 wrote the table out; it is now read from the family's settlement, with the same rows."""
    table = resolution_table(Rules(ties=ties, ante_bonus_requires_play=requires_play))
    tie = Fraction(1 if ties is Ties.PLAYER_WINS else 0)
    assert [(r.situation, r.ante, r.play, r.bonus_paid) for r in table.values()] == [
        (Situation.FOLD, -1, None, not requires_play),
        (Situation.DEALER_NOT_QUALIFY, 1, 0, True),
        (Situation.WIN, 1, 1, True),
        (Situation.TIE, tie, tie, True),
        (Situation.LOSE, -1, -1, True),
    ]
