"""Are the dealt cards random? Chi-square tests of the logged cards, counted as a stream.

- every card's frequency, overall and at each of the six positions (player 1-3, dealer 1-3), against 1/52;
- ranks (1/13) and suits (1/4) overall;
- repeats between consecutive rounds at one table: how many of a round's six cards the next round deals again,
  against the hypergeometric law of two independent shuffles (a shuffler that fails to mix repeats cards).

A test is flagged when its p-value is below 10^-6, the simulator's rule (:data:`~trey.play.simulate.P_VALUE_LIMIT`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from trey.play.chisquare import chi_square_sf
from trey.play.simulate import P_VALUE_LIMIT

POSITIONS = ("player 1", "player 2", "player 3", "dealer 1", "dealer 2", "dealer 3")
MAX_TABLES_FOLLOWED = 10_000  # tables whose last round is remembered for the repeat test
# P(k of six cards dealt again | two independent shuffles): hypergeometric, 6 of 52 against 6.
REPEAT_LAW = tuple(comb(6, k) * comb(46, 6 - k) / comb(52, 6) for k in range(7))


@dataclass(frozen=True)
class CardTest:
    name: str
    statistic: float
    degrees_of_freedom: int
    p_value: float
    observations: int

    @property
    def flagged(self) -> bool:
        return self.p_value < P_VALUE_LIMIT


@dataclass
class CardCounts:
    """Counts of the logged cards, by position, and of the repeats between a table's consecutive rounds."""

    by_position: np.ndarray = field(default_factory=lambda: np.zeros((6, 52), dtype=np.int64))
    repeats: np.ndarray = field(default_factory=lambda: np.zeros(7, dtype=np.int64))
    last: dict[str, int] = field(default_factory=dict)  # table -> the last round's cards as a bit mask

    def add(self, cards: np.ndarray, tables: pa.Array) -> None:
        """``cards``: (n, 6) player then dealer cards, in logged order; ``tables``: each round's table (or null)."""
        for position in range(6):
            self.by_position[position] += np.bincount(cards[:, position], minlength=52)
        masks = np.bitwise_or.reduce(np.left_shift(np.uint64(1), cards.astype(np.uint64)), axis=1)
        encoded = pc.dictionary_encode(tables)
        codes = encoded.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
        rows = np.flatnonzero(codes >= 0)
        if not len(rows):
            return
        # Each table's rounds in the order of their lines: a round repeats cards of the one before it at its table.
        order = rows[np.argsort(codes[rows], kind="stable")]
        table_of = codes[order]
        follows = np.flatnonzero(table_of[1:] == table_of[:-1]) + 1
        np.add.at(self.repeats, np.bitwise_count(masks[order[follows]] & masks[order[follows - 1]]), 1)
        starts = np.flatnonzero(np.concatenate([[True], table_of[1:] != table_of[:-1]]))
        ends = np.concatenate([starts[1:], [len(order)]]) - 1
        names = encoded.dictionary.to_pylist()
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            table = names[int(table_of[start])]
            before = self.last.get(table)
            if before is not None:
                self.repeats[(before & int(masks[order[start]])).bit_count()] += 1
            elif len(self.last) >= MAX_TABLES_FOLLOWED:
                self.last.pop(next(iter(self.last)))
            self.last[table] = int(masks[order[end]])

    def tests(self) -> list[CardTest]:
        results = []
        overall = self.by_position.sum(axis=0)
        if overall.sum():
            results.append(_uniform("cards, overall", overall))
            results.append(_uniform("ranks, overall", overall.reshape(13, 4).sum(axis=1)))
            results.append(_uniform("suits, overall", overall.reshape(13, 4).sum(axis=0)))
            for name, counts in zip(POSITIONS, self.by_position, strict=True):
                results.append(_uniform(f"cards, {name}", counts))
        pairs = int(self.repeats.sum())
        if pairs:
            expected = np.array(REPEAT_LAW) * pairs
            # Repeats of 3 to 6 cards are pooled: each alone is too rare for the chi-square approximation.
            observed = np.append(self.repeats[:3], self.repeats[3:].sum())
            pooled = np.append(expected[:3], expected[3:].sum())
            statistic = float(((observed - pooled) ** 2 / pooled).sum())
            results.append(
                CardTest("repeats between consecutive rounds", statistic, 3, chi_square_sf(statistic, 3), pairs)
            )
        return results


def _uniform(name: str, counts: np.ndarray) -> CardTest:
    total = int(counts.sum())
    expected = total / len(counts)
    statistic = float(((counts - expected) ** 2 / expected).sum())
    freedom = len(counts) - 1
    return CardTest(name, statistic, freedom, chi_square_sf(statistic, freedom), total)
