"""What the audited rounds should return, paid as the table pays: every outcome's due at the bets as logged, by the
table's pay rule (a win of "3 to 2" on $5 rounded down to the chip), weighed by its exact probability.

- :func:`outcome_laws`: each wager's outcomes (as the settlement numbers them) counted over the wager's cycle under
  the paytable's strategy: the law the theoretical RTP is the mean of, at exact odds;
- :class:`HandDues`: Ante & Play's due at one bet size for each player hand, played (summed over its 18,424 dealer
  hands) and folded: the sharp test's expectation of each round given its cards and decision.

Dues are whole cents from the one settlement and pay rule (the caller's ``due_of``), so sums are exact integers."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.cards.readings.player_hand import class_of_hand
from trey.engine.results import GameAnalysis
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.play.settle import Settler
from trey.rules.ante_play import SITUATIONS, AntePlayOutcome, Situation, bonus_column, bonus_columns, situation_counts

# The due of a wager's outcome (its index in the settlement's table) at a bet size in cents, in cents.
DueOf = Callable[[int, int], int]
_INT64_SAFE = 1 << 62


@functools.cache
def played_situations(qualifier_key: int) -> dict[Situation, npt.NDArray[np.int64]]:
    """Per player hand, how many of its 18,424 dealer hands end in each situation when it is played (a dealer
    qualifying at ``qualifier_key``): counted once for each qualifier, read only."""
    counted = situation_counts(hand_table(), qualifier_key).by_situation()
    result = {s: c.astype(np.int64) for s, c in counted.items()}
    for counts in result.values():
        counts.flags.writeable = False
    return result


@dataclass(frozen=True)
class OutcomeLaw:
    """How many of a wager's cycle of deals end in each of its outcomes, under the paytable's strategy."""

    counts: tuple[int, ...]  # by outcome index
    cycle: int

    def moments(self, dues: list[int]) -> tuple[int, int]:
        """Sum over the cycle of the due and of its square (cents, cents²), for dues by outcome index."""
        first = sum(c * d for c, d in zip(self.counts, dues, strict=True))
        second = sum(c * d * d for c, d in zip(self.counts, dues, strict=True))
        return first, second


def outcome_laws(spec: GameSpec, analysis: GameAnalysis, settler: Settler) -> dict[str, OutcomeLaw]:
    """Each wager's outcome law. Ante & Play's outcomes are (situation, Ante Bonus column): counted hand by hand
    from the dealer hands each player hand meets, played or folded as the strategy says; a side bet's are the
    engine's outcome rows (a bet lost on a fold counted lost where the strategy folds)."""
    laws = {}
    game = spec.wagers.ante_play
    if game is not None:
        plays = analysis.plays
        assert plays is not None
        columns = len(game.ante_bonus) + 1
        named = [AntePlayOutcome(s, c) for s in SITUATIONS for c in bonus_columns(game.ante_bonus)]
        assert list(settler.tables[ANTE_PLAY].outcomes) == named, "the settlement numbers outcomes otherwise"
        column = bonus_column(game.ante_bonus, class_of_hand())
        counts = np.zeros(len(SITUATIONS) * columns, dtype=np.int64)
        by_situation = played_situations(spec.rules.dealer_qualifier.minimum_key)
        for situation, dealt in by_situation.items():
            index = SITUATIONS.index(situation) * columns + column[plays]
            np.add.at(counts, index, dealt[plays])
        np.add.at(counts, SITUATIONS.index(Situation.FOLD) * columns + column[~plays], DEALER_HANDS)
        laws[ANTE_PLAY] = OutcomeLaw(tuple(int(c) for c in counts), HANDS * DEALER_HANDS)
    for bet in spec.wagers.side_bets:
        rows = {row.outcome: row for row in analysis.wagers[bet.id].outcomes}
        table = settler.tables[bet.id]
        counted = tuple(rows[name].combinations for name in table.rows)
        laws[bet.id] = OutcomeLaw(counted, analysis.wagers[bet.id].cycle)
    return laws


@dataclass(frozen=True)
class HandDues:
    """Ante & Play at one bet size, per player hand: the due summed over the hand's 18,424 dealer hands when it is
    played (exact cents), the due when it is folded (cents), and as floats for the chart: the mean and variance of
    the due played, in currency units."""

    played: npt.NDArray[Any]  # int64, or Python integers past what 64 bits hold
    folded: npt.NDArray[Any]
    mean: npt.NDArray[np.float64]
    variance: npt.NDArray[np.float64]

    @classmethod
    def at(cls, spec: GameSpec, size: int, due_of: DueOf) -> HandDues:
        game = spec.wagers.ante_play
        assert game is not None
        columns = len(game.ante_bonus) + 1
        column = bonus_column(game.ante_bonus, class_of_hand())
        dues = np.array([due_of(i, size) for i in range(len(SITUATIONS) * columns)], dtype=object)
        by_situation = played_situations(spec.rules.dealer_qualifier.minimum_key)
        dealt = np.stack(list(by_situation.values()))  # (situations, hands)
        index = np.stack([SITUATIONS.index(s) * columns + column for s in by_situation])
        exact = np.int64 if max(abs(int(d)) for d in dues) * DEALER_HANDS < _INT64_SAFE else object
        due = dues[index].astype(exact)  # (situations, hands): each hand's due in each situation played
        played = (dealt.astype(exact) * due).sum(axis=0)
        as_float = due.astype(np.float64) / 100
        mean = (dealt * as_float).sum(axis=0) / DEALER_HANDS
        variance = np.maximum((dealt * as_float**2).sum(axis=0) / DEALER_HANDS - mean**2, 0.0)
        folded = dues[SITUATIONS.index(Situation.FOLD) * columns + column].astype(exact)
        return cls(played, folded, mean, variance)


def exact_sum(values: npt.NDArray[Any]) -> int:
    """The exact sum of integers held as int64 or as Python ints: in 64 bits while it cannot overflow them."""
    if values.dtype != object and len(values) and int(np.abs(values).max()) * len(values) >= _INT64_SAFE:
        values = values.astype(object)
    return int(values.sum())
