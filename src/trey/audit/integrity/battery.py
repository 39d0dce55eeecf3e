"""The shuffle-randomness battery: a registry of tests, each with the data it needs, its exact null, its minimum
sample and its statistic, run on all the rounds and on each shuffler, dealer, shift and table's.

Each test sums, over the rounds of a group, a count whose law on a well-shuffled deck is known exactly
(:mod:`trey.audit.integrity.nulls`), and gives a p-value:

- a *chi-square* test compares counts in cells with their expected values; it runs only when every cell is
  expected at least :data:`MIN_EXPECTED` times (its minimum sample is the smallest sample for which that holds),
  and says "not enough data" below it;
- a *z* test compares a total with its exact mean and variance (the total of independent rounds: the normal law;
  for a count of rare events, its upper tail from the gamma law of the same moments, see :func:`_z`), and runs
  from :data:`MIN_Z_SAMPLE` decks or rounds and an expected total of at least :data:`MIN_EXPECTED`.

Every test's p-value joins the audit's one family of statistical tests (family ``"deal"``, Holm at ``--alpha``:
:mod:`trey.audit.verdict`); a test not run for too little data is something not checked.

The two matrices of 52 × 52 cells (every card at every deck position; every ordered pair of consecutive cards)
have dependent cells: a deck is a permutation. Their statistics are scaled so that their exact null mean is the
chi-square's degrees of freedom: for the positions, by Schur's orthogonality the centred permutation matrix has 51²
uncorrelated coordinates of variance 1/51, so (51/52) Σ (O - E)²/E is chi-square with 51² = 2,601 degrees of
freedom; the serial pairs' Σ (O - E)²/E has exact null mean 2,601 (each card has one successor except the last),
read as chi-square with 2,601 degrees of freedom (``benchmarks/bench_integrity.py`` measures its false alarms).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from trey.audit.deals import GROUPS, DealRecords
from trey.audit.integrity import nulls
from trey.audit.integrity.features import RoundFeatures, features
from trey.audit.rounds import MAX_ID_CHARACTERS as MAX_LABEL_CHARACTERS
from trey.audit.verdict import StatisticalTest, p_text, z_p_value
from trey.cards.card import DECK_SIZE, Card
from trey.cards.hands import SixCardCategory, ThreeCardCategory
from trey.core.numbers import decimal_text
from trey.play.chisquare import chi_square_sf, gamma_sf

MIN_EXPECTED = 5  # a cell expected fewer times: "not enough data"
MIN_Z_SAMPLE = 100  # decks or rounds a z test needs at least
CHUNK = 1 << 16  # decks whose 52 × 52 cells are counted at once
MAX_GROUPS = 100  # values of one label (dealers, shufflers…) the battery runs on, the most frequent first
# Values of one label whose rounds are counted, the first met: a group's counts are about 66 kB with decks and inputs
# (three 52 × 52 matrices), so the four labels hold at most about 66 MB however many dealers or shifts a log names.
# The most frequent MAX_GROUPS of them are tested; the rounds of values met after these are counted and said.
MAX_TRACKED = 250
# Combinations of labels (table, dealer, shuffler, shift) of a batch counted at once, each its cells (about 86 kB with
# decks and inputs); a batch of more is counted label by label.
MAX_COMBINATIONS = 64
MAX_SEATS = 7  # seats a table round deals at most
HANDS_MOST = MAX_SEATS + 1  # hands a round deals: its seats and the dealer
SEAT_ROWS = MAX_SEATS + 1  # counts by seat number (1-7; row 0 holds none)
FAMILY = "deal"
OVERALL = "all rounds"

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Outcome:
    """One test on one group of rounds.

    ``sample``: the decks, rounds or hands counted (``unit``); ``needed``: the sample the test needs to run;
    ``p_value``: None when the sample is below it ("not enough data"); ``counts``: what ``observed`` and
    ``expected`` measure (the mean rising sequences per deck, the cell furthest from expectation…)."""

    test: str
    group: str
    unit: str
    sample: int
    needed: int
    method: str  # "chi-square", "z, two-sided" or "z, one-sided"
    df: int | None  # the chi-square's degrees of freedom
    statistic: float
    p_value: float | None
    counts: str
    observed: Fraction
    expected: Fraction

    @property
    def runs(self) -> bool:
        return self.p_value is not None

    @property
    def name(self) -> str:
        """As the family names it: ``rising sequences (shuffler SH-2)``."""
        return self.test if self.group == OVERALL else f"{self.test} ({self.group})"

    @property
    def statistic_text(self) -> str:
        """``chi-square 12.30, df 7`` or ``z = 2.10, one-sided``."""
        if self.df is not None:
            return f"{self.method} {self.statistic:,.2f}, df {self.df:,}"
        sided = self.method.partition(", ")[2]
        return f"z = {self.statistic:.2f}, {sided}"

    @property
    def says(self) -> str:
        """What the verdict says of it when flagged."""
        observed, expected = _value(self.observed), _value(self.expected)
        p = p_text(self.p_value) if self.p_value is not None else "not enough data"
        return (
            f"deal integrity, {self.name}: {self.counts} {observed} against {expected} expected "
            f"({self.statistic_text}, over {self.sample:,} {self.unit}, {p})"
        )


def _value(value: Fraction) -> str:
    if value.denominator == 1:
        return f"{value.numerator:,}"
    return decimal_text(value, 4 if abs(value) < 100 else 1, grouping=True)


@dataclass(frozen=True)
class IntegrityTest:
    """A registry entry: ``needs`` of ``decks``, ``inputs``, ``hands``; ``null``: its law on a well-shuffled deck;
    ``run``: the test on a group's :class:`Counts`."""

    name: str
    needs: tuple[str, ...]
    null: str
    unit: str
    run: Callable[[Counts], Outcome | None]  # a group's counts -> its outcome


REGISTRY: dict[str, IntegrityTest] = {}


def register(name: str, needs: Sequence[str], null: str, unit: str) -> Callable[..., object]:
    def wrap(run: Callable[[Counts], Outcome | None]) -> object:
        REGISTRY[name] = IntegrityTest(name, tuple(needs), null, unit, run)
        return run

    return wrap


# Each law's minimum sample and its probabilities as floats, worked out once: a law is one of the module's tuples
# (held here, so its id is not reused), looked up by identity (hashing 2,704 Fractions a test would cost more than
# the test).
_LAWS: dict[int, tuple[Sequence[Fraction], int, npt.NDArray[np.float64]]] = {}


def _prepared(law: Sequence[Fraction]) -> tuple[int, npt.NDArray[np.float64]]:
    """The smallest sample for which every cell is expected :data:`MIN_EXPECTED` times, and the law as floats."""
    found = _LAWS.get(id(law))
    if found is None or found[0] is not law:
        if len(_LAWS) > 64:
            _LAWS.clear()
        found = _LAWS[id(law)] = (law, math.ceil(MIN_EXPECTED / min(law)), np.array([float(p) for p in law]))
    return found[1], found[2]


def _chi_square(
    test: str,
    unit: str,
    observed: IntArray,
    law: Sequence[Fraction],
    labels: Sequence[str],
    *,
    sample: int,
    df: int | None = None,
    scale: Fraction = Fraction(1),
) -> Outcome:
    """Cells against ``law`` (probabilities per unit of ``sample``); ``observed`` and ``expected`` of the outcome:
    the cell furthest from expectation in standard units."""
    needed, floats = _prepared(law)
    flat = observed.ravel()
    expected = floats * sample
    squares = np.divide((flat - expected) ** 2, expected, out=np.zeros(len(expected)), where=expected > 0)
    statistic = float(squares.sum())
    far = int(squares.argmax()) if len(squares) else 0
    statistic *= float(scale)
    freedom = df if df is not None else len(law) - 1
    p = chi_square_sf(statistic, freedom) if sample >= needed and sample else None
    return Outcome(
        test,
        "",
        unit,
        sample,
        needed,
        "chi-square",
        freedom,
        statistic,
        p,
        f"{labels[far]}:" if sample else "nothing counted:",
        Fraction(int(flat[far])) if sample else Fraction(0),
        law[far] * sample if sample else Fraction(0),
    )


def _z(
    test: str,
    unit: str,
    total: int,
    sample: int,
    moments: tuple[Fraction, Fraction],
    counts: str,
    *,
    one_sided: bool = False,
    skewed: bool = False,
    variance_total: Fraction | None = None,
    mean_total: Fraction | None = None,
) -> Outcome:
    """A total of ``sample`` independent rounds against its exact mean and variance (per round ``moments``, or the
    totals given); observed and expected: the mean per round.

    ``skewed``: a count of rare events, whose upper tail is heavier than the normal's: the upper tail is read from
    the gamma law of the same mean and variance instead (its third cumulant, twice the variance squared over the
    mean, is about twice a Poisson count's, and more than a sum of Bernoulli variables'): a p-value several times
    larger than the normal's at the family's level, where the normal's would be too small; the lower tail from the
    normal law (lighter than the count's own when it is skewed to the right)."""
    mean, variance = moments
    mu = mean_total if mean_total is not None else mean * sample
    var = variance_total if variance_total is not None else variance * sample
    needed = max(MIN_Z_SAMPLE, math.ceil(MIN_EXPECTED / mean) if mean else MIN_Z_SAMPLE)
    runs = sample >= needed and var > 0 and mu >= MIN_EXPECTED
    z = float(total - mu) / math.sqrt(float(var)) if var > 0 else 0.0
    p = None
    if runs:
        p = z_p_value(z, two_sided=not one_sided)
        if skewed and z > 0:
            shape, scale = float(mu * mu / var), float(var / mu)
            upper = gamma_sf(shape, total / scale)
            p = upper if one_sided else min(1.0, 2 * upper)
    method = "z, one-sided" if one_sided else "z, two-sided"
    per = Fraction(total, sample) if sample else Fraction(0)
    return Outcome(test, "", unit, sample, needed, method, None, z, p, counts, per, mu / sample if sample else mean)


SERIAL_OFF = np.array([a != b for a in range(DECK_SIZE) for b in range(DECK_SIZE)])

# What each group's counts hold, by name: the shape of its cells and the data it needs ("moves": the decks and the
# inputs both). A group's counts are these cells summed over its rounds, whatever their number: its memory is fixed.
CELLS: dict[str, tuple[tuple[int, ...], str]] = {
    "positions": ((DECK_SIZE, DECK_SIZE), "decks"),  # [deck position, card]
    "serial": ((DECK_SIZE * DECK_SIZE,), "decks"),  # [card × 52 + the next card]
    "turning": ((), "decks"),
    "moves": ((DECK_SIZE, DECK_SIZE), "moves"),  # [input position, deck position]
    "rising": ((DECK_SIZE,), "moves"),  # decks of r rising sequences, index r - 1
    "adjacent": ((), "moves"),
    "guess_riffle": ((), "moves"),
    "guess_shelf": ((), "moves"),
    "packet_pairs": ((), "inputs"),
    "hands": ((HANDS_MOST + 1,), "hands"),  # rounds of h hands dealt (the seats and the dealer)
    "dealer_category": ((len(ThreeCardCategory),), "hands"),
    "seat_category": ((SEAT_ROWS, len(ThreeCardCategory)), "hands"),  # [seat number, category]
    "six_category": ((SEAT_ROWS, len(SixCardCategory)), "hands"),
    "seat_lowest": ((3,), "hands"),
    "dealer_lowest": ((3,), "hands"),
}


def _needs(kind: str) -> set[str]:
    return {"moves": {"decks", "inputs"}}.get(kind, {kind})


@dataclass
class Counts:
    """One group's rounds as the battery's tests read them: how many rounds and seats, and the :data:`CELLS` summed
    over them (int64: a cell counts at most 52 a round). Mergeable: two groups' counts add up cell by cell."""

    rounds: int = 0
    seats: int = 0
    cells: dict[str, IntArray] = field(default_factory=dict)

    def __getitem__(self, name: str) -> IntArray:
        found = self.cells.get(name)
        if found is None:
            found = self.cells[name] = np.zeros(CELLS[name][0], dtype=np.int64)
        return found

    def total(self, name: str) -> int:
        return int(self[name].sum())

    def add(self, f: RoundFeatures, rounds: IntArray | None = None, seats: IntArray | None = None) -> None:
        """The rounds of ``f`` (row numbers, all of them when None) and their seats (row numbers) counted in."""
        records = f.records

        def take(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return values if rounds is None else values[rounds]

        def take_seats(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
            return values if seats is None else values[seats]

        self.rounds += records.rounds if rounds is None else len(rounds)
        seat_number = take_seats(records.seat_number).astype(np.intp)
        self.seats += len(seat_number)
        if records.decks is not None:
            decks = take(records.decks)
            self._matrix("positions", decks)
            serial = self["serial"]
            for start in range(0, len(decks), CHUNK):
                d = decks[start : start + CHUNK].astype(np.intp)
                serial += np.bincount((d[:, :-1] * DECK_SIZE + d[:, 1:]).ravel(), minlength=DECK_SIZE * DECK_SIZE)
            assert f.turning is not None
            self["turning"][...] += int(take(f.turning).sum())
        if f.position is not None:
            assert f.rising is not None and f.adjacent is not None
            assert f.guess_riffle is not None and f.guess_shelf is not None
            self._matrix("moves", take(f.position))
            self["rising"][...] += np.bincount(take(f.rising) - 1, minlength=DECK_SIZE)
            for name, values in (
                ("adjacent", f.adjacent),
                ("guess_riffle", f.guess_riffle),
                ("guess_shelf", f.guess_shelf),
            ):
                self[name][...] += int(take(values).sum())
        if f.packet_pairs is not None:
            self["packet_pairs"][...] += int(take(f.packet_pairs).sum())
        self["hands"][...] += np.bincount(take(f.hands), minlength=HANDS_MOST + 1)
        kinds = len(ThreeCardCategory)
        self["dealer_category"][...] += np.bincount(take(f.dealer_category), minlength=kinds)
        by_seat = seat_number * kinds + take_seats(f.seat_category)
        self["seat_category"][...] += np.bincount(by_seat, minlength=SEAT_ROWS * kinds).reshape(SEAT_ROWS, kinds)
        six = len(SixCardCategory)
        by_seat = seat_number * six + take_seats(f.six_category)
        self["six_category"][...] += np.bincount(by_seat, minlength=SEAT_ROWS * six).reshape(SEAT_ROWS, six)
        self["seat_lowest"][...] += np.bincount(take_seats(f.seat_lowest), minlength=3)
        self["dealer_lowest"][...] += np.bincount(take(f.dealer_lowest), minlength=3)

    def _matrix(self, name: str, rows: npt.NDArray[np.integer]) -> None:
        """Rows of 52 (a deck's cards, or its input cards' deck positions) counted in the 52 × 52 cells
        [column, value], a chunk of rows at a time: bounded memory."""
        offsets = (np.arange(DECK_SIZE, dtype=np.intp) * DECK_SIZE)[None, :]
        counts = self[name]
        for start in range(0, len(rows), CHUNK):
            part = rows[start : start + CHUNK]
            cells = np.bincount((offsets + part).ravel(), minlength=DECK_SIZE * DECK_SIZE)
            counts += cells.reshape(DECK_SIZE, DECK_SIZE)

    def merge(self, other: Counts) -> None:
        """``other``'s rounds counted in."""
        self.rounds += other.rounds
        self.seats += other.seats
        for name, values in other.cells.items():
            self[name][...] += values

    def drop(self, kind: str) -> None:
        """Forget the cells that need ``kind`` of data (a batch without it: the tests of it are not run)."""
        for name, (_, needs) in CELLS.items():
            if kind in _needs(needs):
                self.cells.pop(name, None)

    def check(self, have: set[str]) -> None:
        """ValueError unless the counts are what counting rounds can give (a worker's counts are a claim): every
        cell of the right shape, none negative, and each total what its rounds and seats make it. The cells it
        reads that are not counted (zeros) are not kept: a state checked twice is checked alike."""
        counted = set(self.cells)
        try:
            self._check(have)
        finally:
            for name in set(self.cells) - counted:
                del self.cells[name]

    def _check(self, have: set[str]) -> None:
        if not (isinstance(self.rounds, int) and isinstance(self.seats, int) and self.rounds >= 0):
            raise ValueError("a group's rounds and seats must be whole numbers")
        if not 0 <= self.seats <= MAX_SEATS * self.rounds:
            raise ValueError("a group's seats must be at most 7 a round")
        for name, values in self.cells.items():
            if name not in CELLS:
                raise ValueError(f"no count named {name!r}")
            shape, needs = CELLS[name]
            if not _needs(needs) <= have:
                raise ValueError(f"{name} is counted without the data it needs")
            if not isinstance(values, np.ndarray) or values.dtype != np.int64 or values.shape != shape:
                raise ValueError(f"{name} must be int64 counts of shape {shape}")
            if int(values.min(initial=0)) < 0:
                raise ValueError(f"{name} must not be negative")
        n, seats = self.rounds, self.seats

        def equal(name: str, value: object, expected: object) -> None:
            if not np.array_equal(np.asarray(value), np.asarray(expected)):
                raise ValueError(f"{name} does not add up to the group's {n:,} rounds and {seats:,} seats")

        def at_most(name: str, per_round: int) -> None:
            if self.total(name) > per_round * n:
                raise ValueError(f"{name} must be at most {per_round} a round")

        if "decks" in have:
            for axis in (0, 1):
                equal("positions", self["positions"].sum(axis=axis), np.full(DECK_SIZE, n))
            serial = self["serial"]
            equal("serial", (serial.sum(), serial[~SERIAL_OFF].sum()), ((DECK_SIZE - 1) * n, 0))
            at_most("turning", DECK_SIZE - 2)
        if {"decks", "inputs"} <= have:
            for axis in (0, 1):
                equal("moves", self["moves"].sum(axis=axis), np.full(DECK_SIZE, n))
            equal("rising", self.total("rising"), n)
            rising_total = int((np.arange(1, DECK_SIZE + 1) * self["rising"]).sum())
            if not n <= rising_total <= DECK_SIZE * n:
                raise ValueError("rising does not add up to the group's rounds")
            at_most("adjacent", DECK_SIZE - 1)
            at_most("guess_riffle", DECK_SIZE)
            at_most("guess_shelf", DECK_SIZE)
        if "inputs" in have:
            at_most("packet_pairs", DECK_SIZE - 1)
        hands = self["hands"]
        equal("hands", (hands.sum(), hands[0], int((np.arange(HANDS_MOST + 1) - 1) @ hands)), (n, 0, seats))
        for name in ("dealer_category", "dealer_lowest"):
            equal(name, self.total(name), n)
        categories, six = self["seat_category"], self["six_category"]
        equal("seat_category", (categories.sum(), categories[0].sum()), (seats, 0))
        equal("six_category", six.sum(axis=1), categories.sum(axis=1))
        equal("seat_lowest", self.total("seat_lowest"), seats)


def grouped_counts(f: RoundFeatures, codes: npt.NDArray[np.intp], groups: int) -> list[Counts]:
    """The :class:`Counts` of each of ``groups`` groups of the rounds of ``f``, round r in group ``codes[r]``: what
    :meth:`Counts.add` counts of each group's rounds (the same cells, made in the same order), every group's at once
    (:func:`stacked_counts`)."""
    rounds, seats, cells = stacked_counts(f, codes, groups)
    return [
        Counts(int(rounds[g]), int(seats[g]), {name: values[g, ...] for name, values in cells.items()})
        for g in range(groups)
    ]


def stacked_counts(
    f: RoundFeatures, codes: npt.NDArray[np.intp], groups: int
) -> tuple[IntArray, IntArray, dict[str, IntArray]]:
    """Each group's rounds, seats and cells (by name, each of shape ``(groups, *its shape)``), round r in group
    ``codes[r]``: a cell by one count of the cell's index and the group's combined (not one pass over the rounds a
    group), a chunk of :data:`CHUNK` rounds at a time: bounded memory."""
    records = f.records
    cells: dict[str, IntArray] = {}

    def count(name: str, index: npt.NDArray[Any], group: npt.NDArray[np.intp]) -> None:
        shape = CELLS[name][0]
        size = math.prod(shape)
        combined = (group.reshape(-1, *([1] * (index.ndim - 1))) * size + index).ravel()
        found = np.bincount(combined, minlength=groups * size).reshape(groups, *shape)
        cells[name] = cells[name] + found if name in cells else found

    def total(name: str, values: npt.NDArray[Any], group: npt.NDArray[np.intp]) -> None:
        # Each chunk's sums below 2^53 (at most 52 a round): exact in the float weights bincount sums in.
        found = np.bincount(group, weights=values, minlength=groups).astype(np.int64)
        cells[name] = cells[name] + found if name in cells else found

    offsets = np.arange(DECK_SIZE, dtype=np.intp) * DECK_SIZE
    kinds, six = len(ThreeCardCategory), len(SixCardCategory)
    for start in range(0, max(records.rounds, 1), CHUNK):
        stop = min(start + CHUNK, records.rounds)
        first, last = np.searchsorted(records.seat_round, [start, stop])
        group = codes[start:stop].astype(np.intp)
        seat_group = codes[records.seat_round[first:last]].astype(np.intp)
        seat_number = records.seat_number[first:last].astype(np.intp)
        if records.decks is not None:
            decks = records.decks[start:stop].astype(np.intp)
            count("positions", offsets + decks, group)
            count("serial", decks[:, :-1] * DECK_SIZE + decks[:, 1:], group)
            assert f.turning is not None
            total("turning", f.turning[start:stop], group)
        if f.position is not None:
            assert f.rising is not None and f.adjacent is not None
            assert f.guess_riffle is not None and f.guess_shelf is not None
            count("moves", offsets + f.position[start:stop].astype(np.intp), group)
            count("rising", f.rising[start:stop] - 1, group)
            for name, values in (
                ("adjacent", f.adjacent),
                ("guess_riffle", f.guess_riffle),
                ("guess_shelf", f.guess_shelf),
            ):
                total(name, values[start:stop], group)
        if f.packet_pairs is not None:
            total("packet_pairs", f.packet_pairs[start:stop], group)
        count("hands", f.hands[start:stop], group)
        count("dealer_category", f.dealer_category[start:stop], group)
        count("seat_category", seat_number * kinds + f.seat_category[first:last], seat_group)
        count("six_category", seat_number * six + f.six_category[first:last], seat_group)
        count("seat_lowest", f.seat_lowest[first:last], seat_group)
        count("dealer_lowest", f.dealer_lowest[start:stop], group)
    rounds = np.bincount(codes, minlength=groups)
    seats = np.bincount(codes[records.seat_round], minlength=groups)
    return rounds, seats, cells


def _label_codes(values: npt.NDArray[Any]) -> tuple[npt.NDArray[Any], IntArray, IntArray]:
    """A label's values, each round's among them, and where each is first met (their order): by pyarrow's
    dictionary of the texts, made in the order they are met; by np.unique's sort when they are not all text."""
    try:
        encoded = pc.dictionary_encode(pa.array(values, type=pa.string()))
    except (pa.ArrowException, TypeError, ValueError):
        encoded = None
    if encoded is None or encoded.null_count:
        names, first, codes = np.unique(values.astype(str), return_index=True, return_inverse=True)
        return names, codes.ravel(), first
    names = np.array(encoded.dictionary.to_pylist(), dtype=object)
    return names, encoded.indices.to_numpy(zero_copy_only=False).astype(np.intp), np.arange(len(names))


def _summed(rounds: IntArray, seats: IntArray, cells: dict[str, IntArray], which: npt.NDArray[np.bool_]) -> Counts:
    """The counts of the groups ``which`` of :func:`stacked_counts`' together."""
    return Counts(
        int(rounds[which].sum()), int(seats[which].sum()), {name: v[which].sum(axis=0) for name, v in cells.items()}
    )


CARD_NAMES = tuple(str(Card(c)) for c in range(DECK_SIZE))
POSITION_LAW = tuple([Fraction(1, DECK_SIZE)] * DECK_SIZE)
CELL_LAW = tuple([Fraction(1, DECK_SIZE)] * (DECK_SIZE * DECK_SIZE))  # each cell of a 52 × 52 matrix, per deck
DECK_LABELS = tuple(f"{CARD_NAMES[c]} at position {p + 1}" for p in range(DECK_SIZE) for c in range(DECK_SIZE))
INPUT_LABELS = tuple(f"input card {i + 1} at deck position {p + 1}" for i in range(DECK_SIZE) for p in range(DECK_SIZE))
SERIAL_LABELS = tuple(
    f"{CARD_NAMES[a]} then {CARD_NAMES[b]}" for a in range(DECK_SIZE) for b in range(DECK_SIZE) if a != b
)
# per deck, 51 slots: a given ordered pair is next to each other with probability 51/(52·51) = 1/52
SERIAL_LAW = tuple([Fraction(1, DECK_SIZE)] * len(SERIAL_LABELS))


@register("deck positions", ("decks",), "every card at each of the 52 positions with probability 1/52", "decks")
def _deck_positions(c: Counts) -> Outcome:
    return _chi_square(
        "deck positions",
        "decks",
        c["positions"],
        CELL_LAW,
        DECK_LABELS,
        sample=c.rounds,
        df=51 * 51,
        scale=Fraction(51, 52),
    )


@register(
    "serial pairs",
    ("decks",),
    "each ordered pair of distinct cards next to each other with probability 1/(52·51)",
    "decks",
)
def _serial_pairs(c: Counts) -> Outcome:
    counts = c["serial"]
    return _chi_square(
        "serial pairs", "decks", counts[SERIAL_OFF], SERIAL_LAW, SERIAL_LABELS, sample=c.rounds, df=51 * 51
    )


@register("rank turning points", ("decks",), "exact mean and variance over every sequence of ranks", "decks")
def _turning(c: Counts) -> Outcome:
    counts = "rank turning points (runs up and down) per deck"
    return _z("rank turning points", "decks", c.total("turning"), c.rounds, nulls.turning_moments(), counts)


RISING_LOW, RISING_HIGH = 23, 30  # the test's cells: 23 rising sequences or fewer, 24, …, 29, 30 or more


def _rising_pooled(histogram: IntArray) -> IntArray:
    """A histogram of rising sequences (index r - 1) in the test's cells."""
    h = np.asarray(histogram, dtype=np.int64)
    return np.array([h[:RISING_LOW].sum(), *h[RISING_LOW : RISING_HIGH - 1], h[RISING_HIGH - 1 :].sum()])


@functools.cache
def rising_pooled_law() -> tuple[Fraction, ...]:
    """The Eulerian law in the rising-sequence test's cells."""
    law = nulls.rising_law()
    low, high = RISING_LOW, RISING_HIGH - 1
    return (sum(law[:low], Fraction(0)), *law[low:high], sum(law[high:], Fraction(0)))


RISING_LABELS = (
    f"decks of {RISING_LOW} rising sequences or fewer",
    *(f"decks of {r} rising sequences" for r in range(RISING_LOW + 1, RISING_HIGH)),
    f"decks of {RISING_HIGH} rising sequences or more",
)


@register("rising sequences", ("decks", "inputs"), "the Eulerian law: A(52, r - 1)/52!", "decks")
def _rising(c: Counts) -> Outcome:
    histogram = c["rising"]
    law = rising_pooled_law()
    outcome = _chi_square("rising sequences", "decks", _rising_pooled(histogram), law, RISING_LABELS, sample=c.rounds)
    total = int((np.arange(1, DECK_SIZE + 1, dtype=np.int64) * histogram).sum())
    observed = Fraction(total, c.rounds) if c.rounds else Fraction(0)
    return dataclasses.replace(
        outcome, counts="mean rising sequences per deck", observed=observed, expected=Fraction(DECK_SIZE + 1, 2)
    )


@register(
    "input positions",
    ("decks", "inputs"),
    "every input position's card at each of the 52 deck positions with probability 1/52",
    "decks",
)
def _input_positions(c: Counts) -> Outcome:
    return _chi_square(
        "input positions",
        "decks",
        c["moves"],
        CELL_LAW,
        INPUT_LABELS,
        sample=c.rounds,
        df=51 * 51,
        scale=Fraction(51, 52),
    )


def _end_card(name: str, column: int) -> Callable[[Counts], Outcome]:
    def run(c: Counts) -> Outcome:
        counts = c["moves"][column]  # where the input's card at ``column`` went
        labels = [f"at deck position {p + 1}" for p in range(DECK_SIZE)]
        return _chi_square(name, "decks", counts, POSITION_LAW, labels, sample=c.rounds)

    return run


@register(
    "the deck's first card",
    ("decks", "inputs"),
    "from each of the 52 input positions with probability 1/52",
    "decks",
)
def _first_card(c: Counts) -> Outcome:
    counts = np.ascontiguousarray(c["moves"][:, 0])  # the input positions whose card went first
    labels = [f"from input position {i + 1}" for i in range(DECK_SIZE)]
    return _chi_square("the deck's first card", "decks", counts, POSITION_LAW, labels, sample=c.rounds)


for _name, _column in (("input's top card", 0), ("input's bottom card", DECK_SIZE - 1)):
    REGISTRY[_name] = IntegrityTest(
        _name,
        ("decks", "inputs"),
        "at each of the 52 deck positions with probability 1/52",
        "decks",
        _end_card(_name, _column),
    )


@register(
    "input neighbours adjacent",
    ("decks", "inputs"),
    "each pair of input neighbours next to each other in the deck with probability 1/26",
    "decks",
)
def _adjacent(c: Counts) -> Outcome:
    counts = "input neighbours still next to each other, per deck"
    moments = nulls.adjacency_moments()
    return _z("input neighbours adjacent", "decks", c.total("adjacent"), c.rounds, moments, counts, skewed=True)


@register(
    "input neighbours in one hand",
    ("inputs", "hands"),
    "each pair of input neighbours in one 3-card hand with probability h/442 (h hands dealt)",
    "rounds",
)
def _one_hand(c: Counts) -> Outcome:
    mean = Fraction(0)
    variance = Fraction(0)
    for h, count in enumerate(c["hands"].tolist()):
        if count:
            m, v = nulls.packet_moments(h)
            mean += count * m
            variance += count * v
    sample = c.rounds
    per_round = (mean / sample if sample else Fraction(0), variance / sample if sample else Fraction(0))
    counts = "input neighbours dealt into one hand, per round"
    return _z(
        "input neighbours in one hand",
        "rounds",
        c.total("packet_pairs"),
        sample,
        per_round,
        counts,
        mean_total=mean,
        variance_total=variance,
        skewed=True,
    )


def _guessing(name: str, strategy: str) -> Callable[[Counts], Outcome]:
    def run(c: Counts) -> Outcome:
        counts = "cards guessed right per deck"
        return _z(
            name,
            "decks",
            c.total(f"guess_{strategy}"),
            c.rounds,
            nulls.guessing_moments(),
            counts,
            one_sided=True,
            skewed=True,
        )

    return run


for _name, _strategy, _how in (
    ("guessing, riffle strategy", "riffle", "the next card up in the input"),
    ("guessing, shelf strategy", "shelf", "the next card down then up in the input"),
):
    REGISTRY[_name] = IntegrityTest(
        _name,
        ("decks", "inputs"),
        f"a guesser naming {_how}, right with probability 1/m with m cards left: mean H₅₂ = 4.5380",
        "decks",
        _guessing(_name, _strategy),
    )

THREE_CARD_LABELS = tuple(c.display_name.lower() for c in ThreeCardCategory)


def _categories(c: Counts, seat: int | None) -> Outcome:
    if seat is None:
        counts = c["dealer_category"]
        name = "hand categories, dealer"
    else:
        counts = c["seat_category"][seat]
        name = f"hand categories, seat {seat}"
    sample = int(counts.sum())
    return _chi_square(name, "hands", counts, nulls.THREE_CARD_LAW, THREE_CARD_LABELS, sample=sample)


def _six(c: Counts, seat: int) -> Outcome:
    by_category = c["six_category"][seat]
    cells = np.zeros(len(nulls.SIX_CARD_CELLS), dtype=np.int64)
    for i, (_, members) in enumerate(nulls.SIX_CARD_CELLS):
        cells[i] = sum(int(by_category[int(m)]) for m in members)
    labels = [label for label, _ in nulls.SIX_CARD_CELLS]
    sample = int(by_category.sum())
    return _chi_square(f"Six Card hands, seat {seat}", "hands", cells, nulls.six_card_law(), labels, sample=sample)


PACKET_LABELS = tuple(f"lowest card dealt {w} of its hand" for w in ("first", "second", "third"))
THIRDS = (Fraction(1, 3),) * 3


def _packet(c: Counts, dealer: bool) -> Outcome:
    counts = c["dealer_lowest"] if dealer else c["seat_lowest"]
    name = "packet position, dealer" if dealer else "packet position, seats"
    return _chi_square(name, "hands", counts, THIRDS, PACKET_LABELS, sample=int(counts.sum()))


# The tests of hands, made per seat: listed by :func:`hand_tests` for the seats the log deals.
def hand_tests(seat_numbers: Sequence[int]) -> list[IntegrityTest]:
    tests = [
        IntegrityTest(
            "hand categories, dealer",
            ("hands",),
            "48/52/720/1,096/3,744/16,440 of 22,100",
            "hands",
            functools.partial(_categories, seat=None),
        ),
        IntegrityTest(
            "packet position, seats",
            ("hands",),
            "the lowest card at each position of a dealt hand with probability 1/3",
            "hands",
            functools.partial(_packet, dealer=False),
        ),
        IntegrityTest(
            "packet position, dealer",
            ("hands",),
            "the lowest card at each position of a dealt hand with probability 1/3",
            "hands",
            functools.partial(_packet, dealer=True),
        ),
    ]
    for seat in seat_numbers:
        tests.append(
            IntegrityTest(
                f"hand categories, seat {seat}",
                ("hands",),
                "48/52/720/1,096/3,744/16,440 of 22,100",
                "hands",
                functools.partial(_categories, seat=seat),
            )
        )
    for seat in seat_numbers:
        tests.append(
            IntegrityTest(
                f"Six Card hands, seat {seat}",
                ("hands",),
                "the best five of six cards, of C(52, 6) = 20,358,520",
                "hands",
                functools.partial(_six, seat=seat),
            )
        )
    return tests


@dataclass(frozen=True)
class Battery:
    """The battery's outcomes on all the rounds and each group's, and what it could not run."""

    outcomes: tuple[Outcome, ...]
    rounds: int
    missing: tuple[str, ...] = ()  # tests the log's data does not allow ("needs the deck order")
    groups_left: tuple[str, ...] = ()  # labels with more values than MAX_GROUPS: what was left out
    positions: IntArray | None = field(default=None, repr=False)  # all rounds' 52 × 52 [position, card]
    rising: IntArray | None = field(default=None, repr=False)  # all rounds' rising sequences, index r - 1
    input_positions: IntArray | None = field(default=None, repr=False)  # all rounds' [input position, deck position]

    def statistical_tests(self) -> list[StatisticalTest]:
        """The tests that ran, for the audit's family (``"deal"``)."""
        return [StatisticalTest(FAMILY, o.name, o.p_value, o.says) for o in self.outcomes if o.p_value is not None]

    @property
    def short(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.runs]

    @property
    def not_checked(self) -> list[str]:
        """What the verdict lists as not checked: the tests not run for too few decks, rounds or hands, and those the
        log's data does not allow (without the deck's order, a riffled or shelf-shuffled deck looks random)."""
        lines = []
        short = self.short
        if short:
            names = "; ".join(f"{o.name} ({o.sample:,} of {o.needed:,} {o.unit})" for o in short[:5])
            more = f"; and {len(short) - 5:,} more" if len(short) > 5 else ""
            lines.append(
                f"not checked: {len(short):,} deal-integrity {'test' if len(short) == 1 else 'tests'} for too little "
                f"data (a count expected fewer than {MIN_EXPECTED} times): {names}{more}"
            )
        if self.missing:  # a log without the deck's or the input's order cannot show a shuffler's order
            names = "; ".join(self.missing[:5]) + (
                f"; and {len(self.missing) - 5:,} more" if len(self.missing) > 5 else ""
            )
            lines.append(
                f"not checked: {len(self.missing):,} deal-integrity {'test' if len(self.missing) == 1 else 'tests'} "
                f"for data the log does not carry: {names}"
            )
        lines.extend(f"not checked: deal integrity of {g}" for g in self.groups_left)
        return lines

    def by_group(self) -> dict[str, list[Outcome]]:
        grouped: dict[str, list[Outcome]] = {}
        for o in self.outcomes:
            grouped.setdefault(o.group, []).append(o)
        return grouped


def _permutations(rows: npt.NDArray[np.int8]) -> bool:
    """Every row holds each of the 52 cards once."""
    if rows.ndim != 2 or rows.shape[1] != DECK_SIZE or rows.min(initial=0) < 0 or rows.max(initial=0) >= DECK_SIZE:
        return False
    return _distinct_rows(rows)


_BITS = np.left_shift(np.uint64(1), np.arange(DECK_SIZE, dtype=np.uint64))
_PERMUTATION_ROWS = 1 << 14  # rows summed at a time: 7 MB of 64-bit numbers, not 80 MB for 200,000 decks


def _distinct_rows(rows: npt.NDArray[np.int8]) -> bool:
    """Whether every row of 52 cards 0–51 holds 52 distinct cards: the sum of 2^card over the row is 2^52 - 1. A
    sum of 52 powers of two has as many bits set as it has terms only when they are distinct (two equal ones carry
    into one), and 2^52 - 1 has 52: the sum is it exactly when the row is a permutation (below 2^58: no overflow).
    A chunk of rows at a time, as one look-up and one sum."""
    full = np.uint64((1 << DECK_SIZE) - 1)
    for start in range(0, len(rows), _PERMUTATION_ROWS):
        sums = _BITS[rows[start : start + _PERMUTATION_ROWS]].sum(axis=1, dtype=np.uint64)
        if not bool((sums == full).all()):
            return False
    return True


def check_records(records: DealRecords) -> None:
    """ValueError when the records are not what the readers promise (the battery reads them as such): hands of
    three cards 0–51, seats numbered 1–7 in rounds that exist, in order; decks and inputs permutations of the 52
    cards, one a round; labels one a round."""
    rounds = records.rounds
    if records.dealer.shape != (rounds, 3) or records.seats.ndim != 2 or records.seats.shape[1] != 3:
        raise ValueError("the dealer's and the seats' hands must be rows of three cards")
    seats = len(records.seats)
    if records.seat_round.shape != (seats,) or records.seat_number.shape != (seats,):
        raise ValueError("every seat needs its round and its number")
    for hands in (records.dealer, records.seats):
        if len(hands) and (hands.min() < 0 or hands.max() >= DECK_SIZE):
            raise ValueError("a card must be a number from 0 to 51")
    if seats and (
        records.seat_round.min() < 0
        or records.seat_round.max() >= rounds
        or bool((np.diff(records.seat_round) < 0).any())
        or records.seat_number.min() < 1
        or records.seat_number.max() > 7
    ):
        raise ValueError("seats must belong to rounds in order, numbered 1 to 7")
    if int(np.bincount(records.seat_round, minlength=rounds).max(initial=0)) > 7:
        raise ValueError("a round has at most seven seats")
    for name, rows in (("deck", records.decks), ("input", records.inputs)):
        if rows is not None and (rows.shape != (rounds, DECK_SIZE) or not _permutations(rows)):
            raise ValueError(f"every round's {name} must hold each of the 52 cards once")
    for label, values in records.labels.items():
        if label not in GROUPS or values.shape != (rounds,):
            raise ValueError(f"labels must be among {', '.join(GROUPS)}, one a round")


NEEDS_TEXT = {"decks": "the deck's order", "inputs": "the input order", "hands": "dealt hands"}


@dataclass
class BatteryState:
    """The battery's counts of the rounds read so far, batch by batch (:meth:`add`), in memory that does not grow
    with their number: the counts of all the rounds, and of each value of each label (:data:`GROUPS`) among the
    first :data:`MAX_TRACKED` met; :meth:`battery` runs the tests on them. Two states merge (:meth:`merge`): the
    counts of a log read in parts add up to those of the log read at once.

    ``decks``, ``inputs``: whether every batch so far logged them (None: no batch yet): a batch without them makes
    their tests not run, as on the records joined (their counts are forgotten)."""

    overall: Counts = field(default_factory=Counts)
    groups: dict[str, dict[str, Counts]] = field(default_factory=dict)  # label -> value -> counts, first met first
    untracked: dict[str, int] = field(default_factory=dict)  # label -> rounds of values met past MAX_TRACKED
    decks: bool | None = None
    inputs: bool | None = None

    @property
    def rounds(self) -> int:
        return self.overall.rounds

    def have(self) -> set[str]:
        """The data every round counted has: ``hands``, ``decks``, ``inputs``."""
        have = {"hands"} if self.rounds else set()
        have |= {name for name, given in (("decks", self.decks), ("inputs", self.inputs)) if given}
        return have

    def _logged(self, decks: bool, inputs: bool) -> None:
        """What the next rounds log; the counts of what they lack forgotten."""
        self.decks = decks and self.decks is not False
        self.inputs = inputs and self.inputs is not False
        for kind, given in (("decks", self.decks), ("inputs", self.inputs)):
            if not given:
                for counts in self._all():
                    counts.drop(kind)

    def _all(self) -> list[Counts]:
        return [self.overall, *(c for values in self.groups.values() for c in values.values())]

    def _group(self, label: str, value: str, rounds: int) -> Counts | None:
        """The counts of ``value`` of ``label`` (None: past the values followed, its ``rounds`` said)."""
        values = self.groups.setdefault(label, {})
        found = values.get(value)
        if found is None:
            if len(values) >= MAX_TRACKED:
                self.untracked[label] = self.untracked.get(label, 0) + rounds
                return None
            found = values[value] = Counts()
        return found

    def add(self, records: DealRecords) -> None:
        """A batch of rounds counted in (ValueError: records not as the readers promise, :func:`check_records`)."""
        if not records.rounds:
            return
        check_records(records)
        self._logged(records.decks is not None, records.inputs is not None)
        if not self.decks:
            records = dataclasses.replace(records, decks=None)
        if not self.inputs:
            records = dataclasses.replace(records, inputs=None)
        f = features(records)
        labels = []  # (label, its values, each round's value among them, where each value is met first)
        for label in GROUPS:
            values = records.labels.get(label)
            if values is not None:
                labels.append((label, *_label_codes(values)))
        # Each round's combination of labels, numbered (in the order of their numbers, kept below the rounds').
        combined = np.zeros(records.rounds, dtype=np.intp)
        for _, names, codes, _ in labels:
            _, combined = np.unique(combined * len(names) + codes, return_inverse=True)
            combined = combined.ravel()
        combinations = int(combined.max()) + 1
        if combinations > MAX_COMBINATIONS:  # counted label by label
            self._add_by_label(f, labels)
            return
        # Every combination's counts in one count of each cell; all the rounds' and each value's, their sums.
        rounds, seats, cells = stacked_counts(f, combined, combinations)
        self.overall.merge(_summed(rounds, seats, cells, np.ones(combinations, dtype=bool)))
        at = np.zeros(combinations, dtype=np.intp)
        at[combined] = np.arange(records.rounds)  # a round of each combination
        for label, names, codes, first in labels:
            of_combination = codes[at]
            sizes = np.bincount(codes, minlength=len(names))
            for i in np.argsort(first, kind="stable").tolist():  # the values in the order the log meets them
                if names[i] == "":
                    continue
                counts = self._group(label, str(names[i]), int(sizes[i]))
                if counts is not None:
                    counts.merge(_summed(rounds, seats, cells, of_combination == i))

    def _add_by_label(self, f: RoundFeatures, labels: list[tuple[str, Any, IntArray, IntArray]]) -> None:
        """A batch of rounds of many combinations of labels counted in: all of them, then each label's values."""
        overall = grouped_counts(f, np.zeros(f.records.rounds, dtype=np.intp), 1)[0]
        self.overall.merge(overall)
        for label, names, codes, first in labels:
            sizes = np.bincount(codes, minlength=len(names))
            # The values in the order the log meets them, each its counts (None: not followed, its rounds said).
            targets: list[tuple[int, Counts]] = []
            for i in np.argsort(first, kind="stable").tolist():
                if names[i] == "":
                    continue
                counts = self._group(label, str(names[i]), int(sizes[i]))
                if counts is not None:
                    targets.append((i, counts))
            if len(names) == 1 and targets:  # one value, every round's: the counts of all the rounds
                targets[0][1].merge(overall)
                continue
            if not targets:
                continue
            # The values followed numbered 0, 1, ...; the others all one more, counted and not kept.
            compact = np.full(len(names), len(targets), dtype=np.intp)
            compact[[i for i, _ in targets]] = np.arange(len(targets))
            per_group = grouped_counts(f, compact[codes], len(targets) + 1)
            for k, (_, counts) in enumerate(targets):
                counts.merge(per_group[k])

    def merge(self, other: BatteryState) -> None:
        """``other``'s rounds (read after these) counted in, once it is checked (:meth:`check`): the same counts as
        its batches added one by one, as long as neither state met more than :data:`MAX_TRACKED` values of a label."""
        other.check()
        if not other.rounds:
            return
        self._logged(bool(other.decks), bool(other.inputs))
        have = self.have() | {"hands"}  # other's rounds have hands (these may have none yet)
        self.overall.merge(_restricted(other.overall, have))
        for label, values in other.groups.items():
            for value, counts in values.items():
                mine = self._group(label, value, counts.rounds)
                if mine is not None:
                    mine.merge(_restricted(counts, have))
        for label, rounds in other.untracked.items():
            self.untracked[label] = self.untracked.get(label, 0) + rounds

    def check(self) -> None:
        """ValueError unless the state is one counting rounds can give: what a worker returns is a claim, checked
        before it is merged (shapes, bounds, totals; labels known, values named in at most
        :data:`MAX_LABEL_CHARACTERS` characters, at most :data:`MAX_TRACKED` a label, their rounds within all)."""
        for flag in (self.decks, self.inputs):
            if flag is not None and type(flag) is not bool:
                raise ValueError("decks and inputs must be flags")
        if self.rounds and (self.decks is None or self.inputs is None):
            raise ValueError("rounds counted must say whether they logged decks and inputs")
        have = self.have()
        self.overall.check(have)
        for label, values in self.groups.items():
            if label not in GROUPS:
                raise ValueError(f"labels must be among {', '.join(GROUPS)}")
            if len(values) > MAX_TRACKED:
                raise ValueError(f"at most {MAX_TRACKED:,} values of a label are counted")
            for value, counts in values.items():
                if not isinstance(value, str) or not 0 < len(value) <= MAX_LABEL_CHARACTERS:
                    raise ValueError(f"a {label} is named in 1 to {MAX_LABEL_CHARACTERS} characters")
                counts.check(have)
            untracked = self.untracked.get(label, 0)
            if not isinstance(untracked, int) or untracked < 0:
                raise ValueError("rounds not followed must be a whole number")
            if sum(c.rounds for c in values.values()) + untracked > self.rounds:
                raise ValueError(f"the rounds of the {label}s are more than all the rounds")
        if not set(self.untracked) <= set(self.groups):
            raise ValueError("rounds not followed must be of a label counted")

    def battery(self) -> Battery:
        """The tests on the counts: on all the rounds, then on each label's values (the :data:`MAX_GROUPS` with the
        most rounds, by name)."""
        if not self.rounds:
            return Battery((), 0)
        have = self.have()
        overall = self.overall
        categories = overall["seat_category"]
        seat_numbers = [s for s in range(1, SEAT_ROWS) if int(categories[s].sum())]
        registry = [*REGISTRY.values(), *hand_tests(seat_numbers)]
        runnable = [t for t in registry if set(t.needs) <= have]
        missing = tuple(
            f"{t.name} (needs {' and '.join(NEEDS_TEXT[n] for n in t.needs if n not in have)})"
            for t in registry
            if not set(t.needs) <= have
        )
        groups: list[tuple[str, Counts]] = [(OVERALL, overall)]
        left = []
        for label in GROUPS:
            values = self.groups.get(label, {})
            order = sorted(values, key=lambda v: (-values[v].rounds, v))  # the most rounds first, then by name
            if len(order) > MAX_GROUPS:
                left.append(f"{len(order) - MAX_GROUPS:,} {label}s beyond the {MAX_GROUPS:,} with the most rounds")
            if self.untracked.get(label):
                left.append(
                    f"the {label}s met after the first {MAX_TRACKED:,} ({self.untracked[label]:,} rounds: at most "
                    f"{MAX_TRACKED:,} {label}s are followed)"
                )
            groups.extend((f"{label} {v}", values[v]) for v in sorted(order[:MAX_GROUPS]))
        outcomes = []
        for group, counts in groups:
            for test in runnable:
                outcome = test.run(counts)
                if outcome is not None:
                    outcomes.append(dataclasses.replace(outcome, group=group))
        positions = overall["positions"].copy() if "decks" in have else None
        moves = {"decks", "inputs"} <= have
        rising = overall["rising"].copy() if moves else None
        moved = overall["moves"].copy() if moves else None
        return Battery(tuple(outcomes), self.rounds, missing, tuple(left), positions, rising, moved)


PLAIN_KEYS = ("decks", "inputs", "overall", "groups", "untracked")
MAX_COUNT = 1 << 62  # a cell, a sum or a number of rounds in plain data, at most


def state_to_plain(state: BatteryState) -> dict[str, Any]:
    """``state`` as plain data (dicts, lists, ints, bools: what msgpack and JSON carry), values in the order they
    were met: how a worker hands its counts back (:func:`state_of_plain` reads and checks them)."""
    return {
        "decks": state.decks,
        "inputs": state.inputs,
        "overall": _counts_to_plain(state.overall),
        "groups": {
            label: [[v, _counts_to_plain(c)] for v, c in values.items()] for label, values in state.groups.items()
        },
        "untracked": dict(state.untracked),
    }


def _counts_to_plain(counts: Counts) -> dict[str, Any]:
    cells = {name: [int(x) for x in values.ravel().tolist()] for name, values in counts.cells.items()}
    return {"rounds": counts.rounds, "seats": counts.seats, "cells": cells}


def _whole(value: object, what: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_COUNT:
        raise ValueError(f"{what} must be a whole number from 0 to 2^62")
    return value


def _counts_of_plain(data: object) -> Counts:
    if not isinstance(data, dict) or set(data) != {"rounds", "seats", "cells"} or not isinstance(data["cells"], dict):
        raise ValueError("a group's counts are its rounds, seats and cells")
    cells = {}
    for name, values in data["cells"].items():
        if name not in CELLS:
            raise ValueError(f"no count named {str(name)[:40]!r}")
        shape = CELLS[name][0]
        size = math.prod(shape)
        if not isinstance(values, list) or len(values) != size:
            raise ValueError(f"{name} must be a list of {size:,} counts")
        array = np.array(values)  # whole numbers within 64 bits make int64 (at C speed), anything else does not
        if array.dtype != np.int64 or not bool(((array >= 0) & (array <= MAX_COUNT)).all()):
            raise ValueError(f"{name} must be whole numbers from 0 to 2^62")
        cells[name] = array.reshape(shape)
    return Counts(_whole(data["rounds"], "rounds"), _whole(data["seats"], "seats"), cells)


def state_of_plain(data: object) -> BatteryState:
    """The state :func:`state_to_plain` gave, read as a claim: ValueError for anything else than such data of
    counts that counting rounds can give (:meth:`BatteryState.check`), its sizes bounded before it is read."""
    if not isinstance(data, dict) or set(data) != set(PLAIN_KEYS):
        raise ValueError(f"a battery's state has {', '.join(PLAIN_KEYS)}")
    groups, untracked = data["groups"], data["untracked"]
    if not isinstance(groups, dict) or not set(groups) <= set(GROUPS) or not isinstance(untracked, dict):
        raise ValueError(f"a battery's groups are by label: {', '.join(GROUPS)}")
    state = BatteryState(decks=data["decks"], inputs=data["inputs"], overall=_counts_of_plain(data["overall"]))
    for label, values in groups.items():
        if not isinstance(values, list) or len(values) > MAX_TRACKED:
            raise ValueError(f"at most {MAX_TRACKED:,} values of a label are counted")
        named: dict[str, Counts] = {}
        for pair in values:
            if not isinstance(pair, list) or len(pair) != 2 or not isinstance(pair[0], str) or pair[0] in named:
                raise ValueError(f"each {label} is named once, with its counts")
            named[pair[0]] = _counts_of_plain(pair[1])
        state.groups[label] = named
    state.untracked = {str(label): _whole(rounds, "rounds not followed") for label, rounds in untracked.items()}
    state.check()
    return state


def _restricted(counts: Counts, have: set[str]) -> Counts:
    """``counts`` without the cells of data not in ``have``."""
    cells = {n: v for n, v in counts.cells.items() if _needs(CELLS[n][1]) <= have}
    return Counts(counts.rounds, counts.seats, cells)


def deal_integrity(records: DealRecords) -> Battery:
    """The battery on ``records``: every test whose data the records hold, on all the rounds and on each value of
    each label (:data:`~trey.audit.deals.GROUPS`, at most :data:`MAX_GROUPS` values of a label, the most rounds
    first). The same as their batches added one by one to a :class:`BatteryState`."""
    state = BatteryState()
    state.add(records)
    return state.battery()
