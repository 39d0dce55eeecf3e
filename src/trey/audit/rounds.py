"""A batch of logged rounds as columns: what the audit needs of each round, in whole cents and card numbers, so that
validity, settlement and statistics run over arrays rather than round by round.

Both readers of a hand history make them: the columnar one (:mod:`trey.audit.columnar`) for the lines it proves
clean, and the line reader (:mod:`trey.audit.log`) for every other line, so the audit downstream is one."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from trey.paytable.model import ANTE_PLAY, GameSpec

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
PARTS = ("ante", "play", "ante_bonus")  # Ante & Play's net, part by part, as the answer key splits it
PART_COUNT = len(PARTS)
MAX_ID_CHARACTERS = 64  # a round's id and its table's name
MAX_SEAT = 999  # a round's seat, when it names one
# Every logged amount is below this (13 digits before the point, as DECIMAL_PATTERN writes them), in both readers:
# in cents it is below 2^50, so sums and differences of a batch's amounts stay exact in 64 bits.
AMOUNT_LIMIT = 10**13


def meters(spec: GameSpec) -> dict[str, Fraction]:
    """The wagers with a progressive meter a round may log, by id, with the meter's reset (it never stands lower)."""
    return {b.id: b.progressive.reset for b in spec.wagers.side_bets if b.progressive is not None}


def cents(amount: Fraction) -> int:
    """A logged amount in whole cents (the readers refuse finer ones)."""
    whole, rest = divmod(amount.numerator * 100, amount.denominator)
    assert rest == 0, "an amount finer than a cent"
    return whole


@dataclass(frozen=True)
class Rounds:
    """``n`` valid rounds in the order of their lines. A wager not bet in a round has ``bet_on`` False there (and
    0 as its bet and net); ``plays`` is the logged decision, True where the round has no Ante (nothing was folded)."""

    lines: IntArray  # line numbers
    ids: pa.Array  # text
    tables: pa.Array  # text or null
    seats: pa.Array  # int64 or null
    player: IntArray  # (n, 3) cards, as logged
    dealer: IntArray
    plays: BoolArray
    bet_on: dict[str, BoolArray]  # by wager id, every wager of the paytable
    bets: dict[str, IntArray]  # the initial bets, in cents
    net: dict[str, IntArray]  # what the player won (+) or lost, in cents
    has_parts: BoolArray
    parts: IntArray  # (n, 3) cents: ante, play, ante_bonus, where has_parts
    meter_on: dict[str, BoolArray]  # by progressive wager id: whether the round logs its meter
    meter: dict[str, IntArray]  # the meter as the round was dealt, in cents (0 where not logged)

    def __len__(self) -> int:
        return len(self.lines)

    def id_of(self, row: int) -> str:
        return str(self.ids[row].as_py())

    @property
    def ante_rows(self) -> BoolArray:
        return self.bet_on.get(ANTE_PLAY, np.zeros(len(self), dtype=bool))

    def take(self, rows: IntArray | BoolArray) -> Rounds:
        index = np.flatnonzero(rows) if rows.dtype == bool else rows
        taken = pa.array(index, type=pa.int64())
        return Rounds(
            self.lines[index],
            self.ids.take(taken),
            self.tables.take(taken),
            self.seats.take(taken),
            self.player[index],
            self.dealer[index],
            self.plays[index],
            {w: a[index] for w, a in self.bet_on.items()},
            {w: a[index] for w, a in self.bets.items()},
            {w: a[index] for w, a in self.net.items()},
            self.has_parts[index],
            self.parts[index],
            {w: a[index] for w, a in self.meter_on.items()},
            {w: a[index] for w, a in self.meter.items()},
        )

    @staticmethod
    def joined(batches: Sequence[Rounds]) -> Rounds:
        """Several batches as one, in the order of their lines."""
        if len(batches) == 1:
            return batches[0]
        wagers = list(batches[0].bet_on)
        lines = np.concatenate([b.lines for b in batches])
        whole = Rounds(
            lines,
            pa.concat_arrays([b.ids for b in batches]),
            pa.concat_arrays([b.tables for b in batches]),
            pa.concat_arrays([b.seats for b in batches]),
            np.concatenate([b.player for b in batches]),
            np.concatenate([b.dealer for b in batches]),
            np.concatenate([b.plays for b in batches]),
            {w: np.concatenate([b.bet_on[w] for b in batches]) for w in wagers},
            {w: np.concatenate([b.bets[w] for b in batches]) for w in wagers},
            {w: np.concatenate([b.net[w] for b in batches]) for w in wagers},
            np.concatenate([b.has_parts for b in batches]),
            np.concatenate([b.parts for b in batches]),
            {w: np.concatenate([b.meter_on[w] for b in batches]) for w in batches[0].meter_on},
            {w: np.concatenate([b.meter[w] for b in batches]) for w in batches[0].meter},
        )
        order = np.argsort(lines, kind="stable")
        return whole.take(order)
