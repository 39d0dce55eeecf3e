"""Ante & Play (with Ante Bonus), counted over all 22,100 x 18,424 = 407,170,400 player/dealer deals.

For each player hand the dealer's hands are split, by exact counting (see :mod:`trey.engine.hand_table`), into:
dealer does not qualify, dealer qualifies and the player is higher, tie, dealer higher. The player's decision
per hand follows the file's strategy; ``optimal`` compares, hand by hand, the exact expected value of playing
with that of folding. Results are per Ante: Ante + Play + Ante Bonus.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.engine.hand_table import DEALER_HANDS, HANDS, HandTable, hand_table
from trey.engine.results import AntePlayAnalysis, StrategyReport
from trey.engine.stats import OutcomeRow, net_distribution, stats_of
from trey.hands import IntArray, ThreeCardCategory, describe_key, high_card_key, key_category
from trey.spec import ANTE_BONUS_OUTCOMES, AntePlay, Rules, StrategyKind, Ties, WagerName

BoolArray = npt.NDArray[np.bool_]

# Net result in Antes of the Ante and Play bets alone, by outcome (the Ante Bonus comes on top).
FOLD = "fold"
DEALER_NOT_QUALIFY = "dealer_not_qualify"
WIN = "win"
TIE = "tie"
LOSE = "lose"
OUTCOMES = (FOLD, DEALER_NOT_QUALIFY, WIN, TIE, LOSE)


NO_BONUS = "no_bonus"
BONUS_COLUMNS = (*ANTE_BONUS_OUTCOMES, NO_BONUS)  # a hand's Ante Bonus column: its bonus outcome, or none


def staked_units(outcome: str) -> int:
    """Antes bet in all: the Ante alone on a fold, Ante and Play otherwise."""
    return 1 if outcome == FOLD else 2


def round_net(rules: Rules, outcome: str, bonus: Fraction) -> Fraction:
    """Net result in Antes of a round ending in ``outcome`` for a hand whose Ante Bonus pays ``bonus``.

    The one statement of the Ante Bonus on a fold: paid only when the rules do not require the Play bet."""
    paid = outcome != FOLD or not rules.ante_bonus_requires_play
    return base_nets(rules)[outcome] + (bonus if paid else Fraction(0))


def base_nets(rules: Rules) -> dict[str, Fraction]:
    return {
        FOLD: Fraction(-1),
        DEALER_NOT_QUALIFY: Fraction(1),  # Ante wins 1 to 1, Play pushes
        WIN: Fraction(2),
        TIE: Fraction(2) if rules.ties is Ties.PLAYER_WINS else Fraction(0),
        LOSE: Fraction(-2),
    }


@dataclass(frozen=True, eq=False)
class DealerCounts:
    """Per player hand, how its 18,424 dealer hands split when the player plays."""

    not_qualify: IntArray
    player_higher: IntArray
    tie: IntArray
    dealer_higher: IntArray

    def by_outcome(self) -> dict[str, IntArray]:
        return {
            DEALER_NOT_QUALIFY: self.not_qualify,
            WIN: self.player_higher,
            TIE: self.tie,
            LOSE: self.dealer_higher,
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


def ante_bonus_outcome(keys: IntArray) -> npt.NDArray[np.int64]:
    """Index into ANTE_BONUS_OUTCOMES of each hand's bonus outcome, or -1 for no bonus hand."""
    category = keys >> 12
    index = np.full(keys.shape, -1, dtype=np.int64)
    index[category == ThreeCardCategory.STRAIGHT_FLUSH] = 0
    index[category == ThreeCardCategory.THREE_OF_A_KIND] = 1
    index[category == ThreeCardCategory.STRAIGHT] = 2
    return index


def _decide(game: AntePlay, rules: Rules, table: HandTable, counts: DealerCounts, bonus: list[Fraction]) -> BoolArray:
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
    nets = base_nets(rules)
    gain = np.full(HANDS, DEALER_HANDS, dtype=np.int64)  # folding would lose the Ante: 18,424 x 1
    for outcome, count in counts.by_outcome().items():
        gain = gain + count * int(nets[outcome])
    column = bonus_column(table.keys)
    plays = np.zeros(HANDS, dtype=bool)
    for col, pay in enumerate(bonus):
        extra = pay * DEALER_HANDS if rules.ante_bonus_requires_play else Fraction(0)
        # gain + extra > 0 <=> gain > floor(-extra), gain being an integer. Indifference folds: the smaller
        # total wager for the same return (never met by the usual tables).
        threshold = max(math.floor(-extra), -(2**62))
        in_column = column == col
        plays[in_column] = gain[in_column] > threshold
    return plays


def bonus_column(keys: IntArray) -> npt.NDArray[np.int64]:
    """Each hand's index into BONUS_COLUMNS."""
    index = ante_bonus_outcome(keys)
    return np.where(index < 0, len(ANTE_BONUS_OUTCOMES), index)


def _describe_strategy(game: AntePlay, table: HandTable, plays: BoolArray) -> StrategyReport:
    played = int(plays.sum())
    threshold: int | None = None
    rule = "hand by hand (no single threshold)"
    if played == HANDS:
        threshold, rule = int(table.keys.min()), "play every hand"
    elif played == 0:
        rule = "fold every hand"
    else:
        weakest = int(table.keys[plays].min())
        if np.array_equal(plays, table.keys >= weakest):
            threshold = weakest
            rule = describe_key(weakest)
            if key_category(weakest) is not ThreeCardCategory.HIGH_CARD:
                rule = f"{rule} or better"
    return StrategyReport(game.strategy.kind, rule, threshold, played, HANDS - played)


def analyze_ante_play(game: AntePlay, rules: Rules) -> AntePlayAnalysis:
    table = hand_table()
    counts = dealer_counts(table, rules.dealer_qualifier.minimum_key)
    bonus_pays = [odds.net if (odds := game.ante_bonus.get(o)) else Fraction(0) for o in ANTE_BONUS_OUTCOMES]
    bonus = [*bonus_pays, Fraction(0)]  # last column: no bonus hand
    plays = _decide(game, rules, table, counts, bonus)
    column = bonus_column(table.keys)
    nets = base_nets(rules)

    outcome_counts = {FOLD: int((~plays).sum()) * DEALER_HANDS}
    pairs: list[tuple[Fraction, int]] = []
    bonus_combinations = [0] * len(ANTE_BONUS_OUTCOMES)
    for col, pay in enumerate(bonus):
        in_col = column == col
        folded = int((in_col & ~plays).sum()) * DEALER_HANDS
        pairs.append((round_net(rules, FOLD, pay), folded))
        played_in_col = in_col & plays
        for outcome, count in counts.by_outcome().items():
            n = int(count[played_in_col].sum())
            outcome_counts[outcome] = outcome_counts.get(outcome, 0) + n
            pairs.append((round_net(rules, outcome, pay), n))
        if col < len(ANTE_BONUS_OUTCOMES):
            paid_hands = played_in_col if rules.ante_bonus_requires_play else in_col
            bonus_combinations[col] = int(paid_hands.sum()) * DEALER_HANDS

    cycle = HANDS * DEALER_HANDS
    outcomes = tuple(OutcomeRow(o, nets[o], outcome_counts[o], cycle, staked=staked_units(o)) for o in OUTCOMES)
    bonus_rows = tuple(
        OutcomeRow(name, pay, bonus_combinations[i], cycle, returns_stake=False)
        for i, (name, pay) in enumerate(zip(ANTE_BONUS_OUTCOMES, bonus_pays, strict=True))
        if game.ante_bonus.get(name) is not None
    )
    distribution = net_distribution(pairs)
    stats = stats_of(distribution)
    return AntePlayAnalysis(
        WagerName.ANTE_PLAY,
        outcomes,
        distribution,
        stats,
        strategy=_describe_strategy(game, table, plays),
        ante_bonus=bonus_rows,
        average_wager=1 + Fraction(int(plays.sum()), HANDS),
        plays=plays,
    )
