"""Are the dealt cards random? Chi-square tests of the logged cards, counted as a stream.

- every card's frequency, overall and at each of the six positions (player 1-3, dealer 1-3), against 1/52;
- ranks (1/13) and suits (1/4) overall;
- repeats between consecutive rounds at one table: how many of a round's six cards the next round deals again,
  against the hypergeometric law of two independent shuffles (a shuffler that fails to mix repeats cards).

A test runs when every count is expected at least :data:`MIN_EXPECTED` times (a log of a few rounds is too short
for some of them: the cards at each position need 260 rounds). Each test names the cells furthest from
expectation (the cards, ranks, suits or repeats), with their observed and expected counts: what a flagged test
says in the verdict. Whether a test is flagged is the verdict's rule (:mod:`trey.audit.verdict`: one level for all
the audit's tests, Holm-corrected).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from trey.cards.card import RANK_CHARS, SUIT_SYMBOLS, Card
from trey.core.numbers import decimal_text
from trey.play.chisquare import chi_square_sf

POSITIONS = ("player 1", "player 2", "player 3", "dealer 1", "dealer 2", "dealer 3")
MAX_TABLES_FOLLOWED = 10_000  # tables whose last round is remembered for the repeat test
# P(k of six cards dealt again | two independent shuffles): hypergeometric, 6 of 52 against 6.
REPEAT_LAW = tuple(Fraction(comb(6, k) * comb(46, 6 - k), comb(52, 6)) for k in range(7))
REPEATS = ("sharing no card", "sharing 1 card", "sharing 2 cards", "sharing 3 cards or more")
MAX_NAMED = 3  # cells a test names at most
# A test runs only when every count is expected at least this often: below it the chi-square law is no guide to
# the statistic's (the usual rule, and the simulator's).
MIN_EXPECTED = 5


@dataclass(frozen=True)
class Cell:
    """One count of a test: what it counts (``A♠``, ``A (any suit)``), observed and expected; ``where``: the
    position (`` as player 1``); ``dealt``: False for a count of rounds (the repeats)."""

    label: str
    observed: int
    expected: Fraction
    where: str = ""
    dealt: bool = True

    def __str__(self) -> str:
        if not self.dealt:
            return f"{self.label}: {self.observed:,}, {count_text(self.expected)} expected"
        return f"{self.label} {_times(self.observed)}{self.where}, {count_text(self.expected)} expected"


def count_text(expected: Fraction) -> str:
    """An expected count: whole from 100 (``6,132``), else to one decimal (``51.2``)."""
    return decimal_text(expected, 0 if expected >= 100 else 1, grouping=True)


def _times(observed: int) -> str:
    return f"dealt {observed:,} {'time' if observed == 1 else 'times'}"


@dataclass(frozen=True)
class CardTest:
    name: str
    statistic: float
    degrees_of_freedom: int
    p_value: float
    observations: int
    furthest: tuple[Cell, ...] = ()  # the cells furthest from expectation, furthest first
    fewest_expected: Fraction = Fraction(MIN_EXPECTED)  # the smallest expected count

    @property
    def runs(self) -> bool:
        """Whether the rounds are enough for the test: every count expected :data:`MIN_EXPECTED` times or more."""
        return self.fewest_expected >= MIN_EXPECTED

    @property
    def departure(self) -> str:
        """The cells furthest from expectation, as the verdict names them: ``A♠ dealt 0 times, 6,132 expected``."""
        return "; ".join(str(c) for c in self.furthest)


@dataclass
class CardCounts:
    """Counts of the logged cards, by position, and of the repeats between a table's consecutive rounds."""

    by_position: np.ndarray = field(default_factory=lambda: np.zeros((6, 52), dtype=np.int64))
    repeats: np.ndarray = field(default_factory=lambda: np.zeros(7, dtype=np.int64))
    last: dict[str, int] = field(default_factory=dict)  # table -> the last round's cards as a bit mask
    # table -> the first round's cards, of the first MAX_TABLES_FOLLOWED tables met: what the counts of rounds read
    # before these would add (a part of a log audited on its own: trey.audit.distributed)
    first: dict[str, int] = field(default_factory=dict, repr=False)
    # tests() of the counts it was last worked out for (the verdict, the JSON and the documents each ask for them)
    _tests: tuple[bytes, tuple[CardTest, ...]] | None = field(default=None, init=False, repr=False, compare=False)

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
            if table not in self.first and len(self.first) < MAX_TABLES_FOLLOWED:
                self.first[table] = int(masks[order[start]])
            if before is not None:
                self.repeats[(before & int(masks[order[start]])).bit_count()] += 1
            elif len(self.last) >= MAX_TABLES_FOLLOWED:
                self.last.pop(next(iter(self.last)))
            self.last[table] = int(masks[order[end]])

    def tests(self) -> list[CardTest]:
        counted = self.by_position.tobytes() + self.repeats.tobytes()
        if self._tests is None or self._tests[0] != counted:
            self._tests = counted, tuple(self._tests_of_counts())
        return list(self._tests[1])

    def _tests_of_counts(self) -> list[CardTest]:
        results = []
        overall = self.by_position.sum(axis=0)
        if overall.sum():
            cards = [Card(c).rank.char + Card(c).suit.symbol for c in range(52)]
            results.append(_uniform("cards, overall", overall, cards))
            ranks = [f"{r} (any suit)" for r in RANK_CHARS]
            results.append(_uniform("ranks, overall", overall.reshape(13, 4).sum(axis=1), ranks))
            suits = [f"{s} (any rank)" for s in SUIT_SYMBOLS]
            results.append(_uniform("suits, overall", overall.reshape(13, 4).sum(axis=0), suits))
            for name, counts in zip(POSITIONS, self.by_position, strict=True):
                results.append(_uniform(f"cards, {name}", counts, cards, f" as {name}"))
        pairs = int(self.repeats.sum())
        if pairs:
            # Repeats of 3 to 6 cards are pooled: each alone is too rare for the chi-square approximation.
            observed = [*(int(r) for r in self.repeats[:3]), int(self.repeats[3:].sum())]
            law = [*REPEAT_LAW[:3], sum(REPEAT_LAW[3:], Fraction(0))]
            expected = [p * pairs for p in law]
            statistic = sum(float((o - e) ** 2 / e) for o, e in zip(observed, expected, strict=True))
            labels = [f"rounds {r} with the one before" for r in REPEATS]
            cells = [Cell(x, o, e, dealt=False) for x, o, e in zip(labels, observed, expected, strict=True)]
            results.append(
                CardTest(
                    "repeats between consecutive rounds",
                    statistic,
                    3,
                    chi_square_sf(statistic, 3),
                    pairs,
                    _furthest(cells),
                    min(expected),
                )
            )
        return results


def _furthest(cells: list[Cell]) -> tuple[Cell, ...]:
    """The cell furthest from expectation in standard units (|observed - expected| / sqrt(expected)), and the next
    ones while at least half as far (at most :data:`MAX_NAMED`)."""
    squares = [((c.observed - c.expected) ** 2 / c.expected, i) for i, c in enumerate(cells) if c.expected]
    # The squares over their common denominator, whole numbers in the same order (sorted many times faster)
    common = math.lcm(*(square.denominator for square, _ in squares))
    whole = {i: square.numerator * (common // square.denominator) for square, i in squares}
    far = sorted(squares, key=lambda x: (-whole[x[1]], x[1]))  # the furthest first; among equals, in the cells' order
    if not far or not far[0][0]:
        return ()
    named = [cells[i] for square, i in far[:MAX_NAMED] if 4 * square >= far[0][0]]
    return tuple(named)


def _uniform(name: str, counts: np.ndarray, labels: list[str], where: str = "") -> CardTest:
    total, k = int(counts.sum()), len(counts)
    expected = Fraction(total, k)
    # the sum of (c - total/k)² / (total/k), in whole numbers: the sum of (k c - total)² over k total
    statistic = float(Fraction(sum((k * int(c) - total) ** 2 for c in counts), k * total))
    freedom = len(counts) - 1
    cells = [Cell(label, int(c), expected, where) for label, c in zip(labels, counts, strict=True)]
    p_value = chi_square_sf(statistic, freedom)
    return CardTest(name, statistic, freedom, p_value, total, _furthest(cells), expected)
