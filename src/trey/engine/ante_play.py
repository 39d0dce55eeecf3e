"""Ante & Play (with Ante Bonus), counted over all 22,100 x 18,424 = 407,170,400 player/dealer deals.

The rules of a round are stated once, in :mod:`trey.rules.ante_play`: the situations, what each nets
(:func:`~trey.rules.ante_play.resolution_table`) and how a deal's situation is decided. For each player hand the
dealer's hands are split, by exact counting (:func:`~trey.rules.ante_play.situation_counts`), into the situations.
The player's decision per hand follows the file's strategy; ``optimal`` compares, hand by hand, the exact expected
value of playing with that of folding. Results are per Ante: Ante + Play + Ante Bonus. The Ante
Bonus is paid on the player's hand as the ``player_hand`` reading reads it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import DEALER_HANDS, HANDS, HandTable, hand_table
from trey.cards.hands import IntArray, ThreeCardCategory, high_card_key, key_categories
from trey.cards.readings.player_hand import class_of_hand
from trey.engine.results import AntePlayAnalysis, Decision, HandOutcome, StrategyReport
from trey.engine.stats import OutcomeRow, net_distribution, stats_of
from trey.paytable.model import ANTE_PLAY, ANTE_PLAY_TITLE, AntePlay, Paytable, Rules, StrategyKind
from trey.rules.ante_play import (
    SITUATIONS,
    DealerCounts,
    Resolution,
    Situation,
    bonus_column,
    bonus_columns,
    bonus_pays,
    resolution_table,
    situation_counts,
)

BoolArray = npt.NDArray[np.bool_]


@lru_cache(maxsize=16)  # 0.7 MB each: a workbench whose users try every qualifier keeps the last 16
def dealer_counts_at(qualifier_key: int) -> DealerCounts:
    """:func:`~trey.rules.ante_play.situation_counts` of the hand table, once per qualifier: they do not depend on
    any pay, so tuning a paytable (``trey solve``) re-derives strategies and figures without counting again."""
    return situation_counts(hand_table(), qualifier_key)


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


@dataclass(frozen=True)
class HandValue:
    """What one player hand expects, per Ante and the Ante Bonus included, against the dealer hands it may face:
    playing and folding, exactly."""

    play: Fraction
    fold: Fraction

    @property
    def margin(self) -> Fraction:
        """What playing gains over folding (negative: folding loses less)."""
        return self.play - self.fold

    @property
    def plays(self) -> bool:
        """The better decision; indifference folds (the smaller total wager for the same return), as the optimal
        strategy does."""
        return self.margin > 0


def hand_value(
    counts: Mapping[Situation, int], resolution: Mapping[Situation, Resolution], bonus: Fraction
) -> HandValue:
    """The expectation of a hand whose Ante Bonus pays ``bonus``, from how many of the dealer hands it may face end
    in each played situation (``counts``: the engine's for a hand, or those holding a seen card): each dealer hand
    equally likely. The one statement of a hand's expectation; the optimal strategy's integer comparison in
    :func:`_decide` is this margin times the dealer hands (a test holds the two decisions equal for every hand)."""
    total = sum(counts.values())
    if total <= 0:
        raise ValueError("a hand needs at least one dealer hand to face")
    played = sum((n * resolution[s].round_net(bonus) for s, n in counts.items()), Fraction(0))
    return HandValue(played / total, resolution[Situation.FOLD].round_net(bonus))


def _sums_by(groups: IntArray, values: IntArray, size: int) -> IntArray:
    """The integer sum of ``values`` in each of ``size`` groups."""
    sums = np.zeros(size, dtype=np.int64)
    np.add.at(sums, groups, values)
    return sums


def _hand_names(ante_bonus: Paytable, category: IntArray, column: IntArray) -> dict[tuple[int, int], str]:
    """The rows of the outcome table by hand: each (category, Ante Bonus column) that holds hands, strongest
    category first, named by the category, or by the Ante Bonus row when that row pays part of a category apart
    (a mini-royal among the straight flushes)."""
    columns = bonus_columns(ante_bonus)
    names: dict[tuple[int, int], str] = {}
    for cat in sorted(set(category.tolist()), reverse=True):
        present = sorted(set(column[category == cat].tolist()))
        slug = ThreeCardCategory(cat).slug
        for col in present:
            row = columns[col]
            names[(cat, col)] = row if len(present) > 1 and row is not None and row != slug else slug
    return names


def _by_hand(
    ante_bonus: Paytable,
    table: HandTable,
    counts: DealerCounts,
    plays: BoolArray,
    column: IntArray,
    bonus: list[Fraction],
    resolution: Mapping[Situation, Resolution],
) -> tuple[HandOutcome, ...]:
    """Every (hand, situation) row of the strategy's deals: the hands of each row's category and Ante Bonus column,
    their dealer hands by situation when they are played, all 18,424 when folded."""
    category = key_categories(table.keys)
    width = len(bonus)
    groups = category * width + column
    size = (int(ThreeCardCategory.STRAIGHT_FLUSH) + 1) * width
    deals = {Situation.FOLD: _sums_by(groups, np.where(plays, 0, DEALER_HANDS), size)}
    for situation, count in counts.by_situation().items():
        deals[situation] = _sums_by(groups, np.where(plays, count, 0), size)
    cycle = HANDS * DEALER_HANDS
    return tuple(
        HandOutcome(name, s, resolution[s].round_net(bonus[col]), int(deals[s][cat * width + col]), cycle)
        for (cat, col), name in _hand_names(ante_bonus, category, column).items()
        for s in SITUATIONS
    )


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
    not_qualify = int(counts.not_qualify.sum())
    return AntePlayAnalysis(
        ANTE_PLAY,
        ANTE_PLAY_TITLE,
        outcomes,
        distribution,
        stats_of(distribution),
        strategy=_describe_strategy(game, table, plays),
        ante_bonus=bonus_rows,
        average_wager=1 + Fraction(int(plays.sum()), HANDS),
        by_hand=_by_hand(game.ante_bonus, table, counts, plays, column, bonus, resolution),
        dealer_qualifies=Fraction(cycle - not_qualify, cycle),
        plays=plays,
    )
