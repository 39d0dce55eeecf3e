"""Ante & Play (with Ante Bonus), counted over all 22,100 x 18,424 = 407,170,400 player/dealer deals.

The rules of a round are one table, :func:`resolution_table`: for each situation (fold, dealer does not qualify,
player higher, tie, dealer higher) what the Ante and the Play net and whether the Ante Bonus is paid. The engine,
the settlement, the certificate's wording and the dealer sheet's grid all read it.

For each player hand the dealer's hands are split, by exact counting (see :mod:`trey.cards.hand_table`), into
the situations. The player's decision per hand follows the file's strategy; ``optimal`` compares, hand by hand,
the exact expected value of playing with that of folding. Results are per Ante: Ante + Play + Ante Bonus. The Ante
Bonus is paid on the player's hand as the ``player_hand`` reading reads it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import DEALER_HANDS, HANDS, HandTable, hand_table
from trey.cards.hands import IntArray, high_card_key
from trey.cards.readings import PLAYER_HAND
from trey.cards.readings.player_hand import class_of_hand
from trey.engine.results import AntePlayAnalysis, Decision, StrategyReport
from trey.engine.stats import OutcomeRow, net_distribution, stats_of
from trey.paytable.model import ANTE_PLAY, ANTE_PLAY_TITLE, AntePlay, Paytable, Rules, StrategyKind, Ties

BoolArray = npt.NDArray[np.bool_]


class Situation(StrEnum):
    """How an Ante & Play round ends, before the Ante Bonus."""

    FOLD = "fold"
    DEALER_NOT_QUALIFY = "dealer_not_qualify"
    WIN = "win"
    TIE = "tie"
    LOSE = "lose"

    @property
    def label(self) -> str:
        """The situation in words, the one name every document gives it: "Player higher"."""
        return {
            Situation.FOLD: "Player folds",
            Situation.DEALER_NOT_QUALIFY: "Dealer does not qualify",
            Situation.WIN: "Player higher",
            Situation.TIE: "Tie",
            Situation.LOSE: "Dealer higher",
        }[self]


@dataclass(frozen=True)
class Resolution:
    """One row of the rules: what the Ante and the Play net (per Ante) in a situation, and the Ante Bonus."""

    situation: Situation
    ante: Fraction
    play: Fraction | None  # None: there is no Play bet (the player folded)
    bonus_paid: bool

    @property
    def net(self) -> Fraction:
        return self.ante + (self.play if self.play is not None else 0)

    @property
    def staked(self) -> int:
        """Antes bet in all: the Ante alone on a fold, Ante and Play otherwise."""
        return 1 if self.play is None else 2

    def round_net(self, bonus: Fraction) -> Fraction:
        """Net result in Antes for a hand whose Ante Bonus pays ``bonus``."""
        return self.net + (bonus if self.bonus_paid else Fraction(0))


def resolution_table(rules: Rules) -> dict[Situation, Resolution]:
    """The one statement of how a round of Ante & Play is settled under ``rules``."""
    tie = Fraction(1) if rules.ties is Ties.PLAYER_WINS else Fraction(0)
    rows = (
        Resolution(Situation.FOLD, Fraction(-1), None, not rules.ante_bonus_requires_play),
        Resolution(Situation.DEALER_NOT_QUALIFY, Fraction(1), Fraction(0), True),  # Ante wins, Play pushes
        Resolution(Situation.WIN, Fraction(1), Fraction(1), True),
        Resolution(Situation.TIE, tie, tie, True),
        Resolution(Situation.LOSE, Fraction(-1), Fraction(-1), True),
    )
    return {row.situation: row for row in rows}


@dataclass(frozen=True)
class AntePlayOutcome:
    """How one round of Ante & Play ended: its situation and the Ante Bonus row the player's hand is in."""

    situation: Situation
    bonus: str | None  # the listed Ante Bonus row the hand is paid by, None for no bonus hand

    def __str__(self) -> str:
        return str(self.situation) if self.bonus is None else f"{self.situation} with {self.bonus}"


def bonus_columns(ante_bonus: Paytable) -> tuple[str | None, ...]:
    """The Ante Bonus column a hand can fall in: each listed row, then None (no bonus)."""
    return (*ante_bonus.listed, None)


def bonus_column(ante_bonus: Paytable, classes: IntArray) -> IntArray:
    """Each hand's index into :func:`bonus_columns`, from its ``player_hand`` class: the rarest listed row the
    class belongs to, else the last (no bonus)."""
    paid = PLAYER_HAND.paid_by(ante_bonus.listed)
    lookup = np.array([len(ante_bonus) if row is None else row for row in paid], dtype=np.int64)
    columns: IntArray = lookup[classes]
    return columns


def bonus_pays(ante_bonus: Paytable) -> list[Fraction]:
    """The net Ante Bonus of each column (0 for no bonus)."""
    return [odds.net for _, odds in ante_bonus.all_odds] + [Fraction(0)]


@dataclass(frozen=True, eq=False)
class DealerCounts:
    """Per player hand, how its 18,424 dealer hands split when the player plays."""

    not_qualify: IntArray
    player_higher: IntArray
    tie: IntArray
    dealer_higher: IntArray

    def by_situation(self) -> dict[Situation, IntArray]:
        return {
            Situation.DEALER_NOT_QUALIFY: self.not_qualify,
            Situation.WIN: self.player_higher,
            Situation.TIE: self.tie,
            Situation.LOSE: self.dealer_higher,
        }


def dealer_counts(table: HandTable, qualifier_key: int) -> DealerCounts:
    """Split each player hand's dealer hands by outcome, for dealer hands qualifying at ``qualifier_key`` or better."""
    keys = table.keys
    below = table.dealer_hands_below(keys)
    below_or_equal = table.dealer_hands_below(keys + 1)
    not_qualify = table.dealer_hands_below(np.full(HANDS, qualifier_key, dtype=np.int64))
    qualifies_at_player_key = keys >= qualifier_key
    return DealerCounts(
        not_qualify=not_qualify,
        player_higher=np.maximum(below - not_qualify, 0),
        tie=np.where(qualifies_at_player_key, below_or_equal - below, 0),
        dealer_higher=DEALER_HANDS - np.maximum(below_or_equal, not_qualify),
    )


@cache
def dealer_counts_at(qualifier_key: int) -> DealerCounts:
    """:func:`dealer_counts` of the hand table, once per qualifier: they do not depend on any pay, so tuning a
    paytable (``trey solve``) re-derives strategies and figures without counting again."""
    return dealer_counts(hand_table(), qualifier_key)


def _decide(
    game: AntePlay, rules: Rules, table: HandTable, counts: DealerCounts, column: IntArray, bonus: list[Fraction]
) -> BoolArray:
    strategy = game.strategy
    if strategy.kind is StrategyKind.ALWAYS_PLAY:
        return np.ones(HANDS, dtype=bool)
    if strategy.kind is StrategyKind.MIMIC_DEALER:
        return table.keys >= rules.dealer_qualifier.minimum_key
    if strategy.kind is StrategyKind.PLAY_AT_LEAST:
        assert strategy.ranks is not None
        return table.keys >= high_card_key(strategy.ranks)
    # Optimal: play when 18,424 x (EV of playing - EV of folding) > 0. The Ante and Play part of that gain is an
    # integer per hand. The Ante Bonus adds 18,424 x bonus when it needs the Play bet (otherwise it is paid either
    # way and cancels), so each bonus column compares the integer gain with one exact threshold: no scaling, and
    # no overflow whatever the odds.
    resolution = resolution_table(rules)
    fold = resolution[Situation.FOLD]
    gain = np.full(HANDS, -int(fold.net) * DEALER_HANDS, dtype=np.int64)  # folding would lose the Ante
    for situation, count in counts.by_situation().items():
        gain = gain + count * int(resolution[situation].net)
    plays = np.zeros(HANDS, dtype=bool)
    for col, pay in enumerate(bonus):
        extra = pay * DEALER_HANDS if not fold.bonus_paid else Fraction(0)
        # gain + extra > 0 <=> gain > floor(-extra), gain being an integer. Indifference folds: the smaller
        # total wager for the same return (never met by the usual tables).
        threshold = max(math.floor(-extra), -(2**62))
        in_column = column == col
        plays[in_column] = gain[in_column] > threshold
    return plays


def _describe_strategy(game: AntePlay, table: HandTable, plays: BoolArray) -> StrategyReport:
    played = int(plays.sum())
    threshold: int | None = None
    decision = Decision.HAND_BY_HAND
    if played == HANDS:
        decision = Decision.EVERY_HAND
    elif played == 0:
        decision = Decision.NO_HAND
    else:
        weakest = int(table.keys[plays].min())
        if np.array_equal(plays, table.keys >= weakest):
            decision, threshold = Decision.AT_LEAST, weakest
    return StrategyReport(game.strategy.kind, decision, threshold, played, HANDS - played)


def analyze_ante_play(game: AntePlay, rules: Rules) -> AntePlayAnalysis:
    table = hand_table()
    counts = dealer_counts_at(rules.dealer_qualifier.minimum_key)
    column = bonus_column(game.ante_bonus, class_of_hand())
    bonus = bonus_pays(game.ante_bonus)
    plays = _decide(game, rules, table, counts, column, bonus)
    resolution = resolution_table(rules)
    fold = resolution[Situation.FOLD]

    situation_counts = {Situation.FOLD: int((~plays).sum()) * DEALER_HANDS}
    pairs: list[tuple[Fraction, int]] = []
    bonus_combinations = [0] * len(game.ante_bonus)
    for col, pay in enumerate(bonus):
        in_col = column == col
        pairs.append((fold.round_net(pay), int((in_col & ~plays).sum()) * DEALER_HANDS))
        played_in_col = in_col & plays
        for situation, count in counts.by_situation().items():
            n = int(count[played_in_col].sum())
            situation_counts[situation] = situation_counts.get(situation, 0) + n
            pairs.append((resolution[situation].round_net(pay), n))
        if col < len(game.ante_bonus):
            paid_hands = in_col if fold.bonus_paid else played_in_col
            bonus_combinations[col] = int(paid_hands.sum()) * DEALER_HANDS

    cycle = HANDS * DEALER_HANDS
    outcomes = tuple(
        OutcomeRow(str(s), r.net, situation_counts[s], cycle, staked=r.staked) for s, r in resolution.items()
    )
    bonus_rows = tuple(
        OutcomeRow(name, odds.net, bonus_combinations[i], cycle, returns_stake=False)
        for i, (name, odds) in enumerate(game.ante_bonus.all_odds)
    )
    distribution = net_distribution(pairs)
    return AntePlayAnalysis(
        ANTE_PLAY,
        ANTE_PLAY_TITLE,
        outcomes,
        distribution,
        stats_of(distribution),
        strategy=_describe_strategy(game, table, plays),
        ante_bonus=bonus_rows,
        average_wager=1 + Fraction(int(plays.sum()), HANDS),
        plays=plays,
    )
