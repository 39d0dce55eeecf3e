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

import numpy as np
import numpy.typing as npt

from trey.audit.deals import GROUPS, DealRecords
from trey.audit.integrity import nulls
from trey.audit.integrity.features import RoundFeatures, features
from trey.audit.verdict import StatisticalTest, p_text, z_p_value
from trey.cards.card import DECK_SIZE, Card
from trey.cards.hands import ThreeCardCategory
from trey.core.numbers import decimal_text
from trey.play.chisquare import chi_square_sf, gamma_sf

MIN_EXPECTED = 5  # a cell expected fewer times: "not enough data"
MIN_Z_SAMPLE = 100  # decks or rounds a z test needs at least
CHUNK = 1 << 16  # decks whose 52 × 52 cells are counted at once
MAX_GROUPS = 100  # values of one label (dealers, shufflers…) the battery runs on, the most frequent first
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
    ``run``: the test on the given rounds (row numbers) of the features."""

    name: str
    needs: tuple[str, ...]
    null: str
    unit: str
    run: Callable[[RoundFeatures, IntArray, IntArray], Outcome | None]  # (features, rounds, seats) -> outcome


REGISTRY: dict[str, IntegrityTest] = {}


def register(name: str, needs: Sequence[str], null: str, unit: str) -> Callable[..., object]:
    def wrap(run: Callable[[RoundFeatures, IntArray, IntArray], Outcome | None]) -> object:
        REGISTRY[name] = IntegrityTest(name, tuple(needs), null, unit, run)
        return run

    return wrap


@functools.cache
def _needed(law: tuple[Fraction, ...]) -> int:
    """The smallest sample for which every cell is expected :data:`MIN_EXPECTED` times."""
    return math.ceil(MIN_EXPECTED / min(law))


@functools.cache
def _floats(law: tuple[Fraction, ...]) -> npt.NDArray[np.float64]:
    return np.array([float(p) for p in law])


_LAW_FIGURES: dict[int, tuple[Sequence[Fraction], int, npt.NDArray[np.float64]]] = {}


def _law_figures(law: Sequence[Fraction]) -> tuple[int, npt.NDArray[np.float64]]:
    """:func:`_needed` and :func:`_floats` of ``law``, found by the law's identity: the laws are the module's
    constants, and hashing one of 2,704 Fractions at every test of every group cost more than the test itself."""
    found = _LAW_FIGURES.get(id(law))
    if found is None or found[0] is not law:
        if len(_LAW_FIGURES) >= 64:  # a law made afresh at each call: found by its value, as before
            _LAW_FIGURES.clear()
        found = _LAW_FIGURES[id(law)] = (law, _needed(tuple(law)), _floats(tuple(law)))
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
    needed, floats = _law_figures(law)
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


def _matrix(f: RoundFeatures, rounds: IntArray, name: str) -> IntArray:
    """The 52 × 52 counts of ``"positions"`` [deck position, card] or ``"moves"`` [input position, deck position]
    over ``rounds`` (all the rounds' counted once)."""
    everything = len(rounds) == f.records.rounds
    if everything and name in f.cache:
        return f.cache[name]
    rows = f.records.decks if name == "positions" else f.position
    assert rows is not None
    offsets = (np.arange(DECK_SIZE, dtype=np.intp) * DECK_SIZE)[None, :]
    counts: IntArray = np.zeros((DECK_SIZE, DECK_SIZE), dtype=np.int64)
    for start in range(0, len(rounds), CHUNK):  # the cells' indexes a chunk at a time: bounded memory
        part = rows[start : start + CHUNK] if everything else rows[rounds[start : start + CHUNK]]
        counts += np.bincount((offsets + part).ravel(), minlength=DECK_SIZE * DECK_SIZE).reshape(DECK_SIZE, DECK_SIZE)
    if everything:
        f.cache[name] = counts
    return counts


def _positions(f: RoundFeatures, rounds: IntArray) -> IntArray:
    """The 52 × 52 counts: [position, card]."""
    return _matrix(f, rounds, "positions")


CARD_NAMES = tuple(str(Card(c)) for c in range(DECK_SIZE))
POSITION_LAW = tuple([Fraction(1, DECK_SIZE)] * DECK_SIZE)
CELL_LAW = tuple([Fraction(1, DECK_SIZE)] * (DECK_SIZE * DECK_SIZE))  # each cell of a 52 × 52 matrix, per deck
DECK_LABELS = tuple(f"{CARD_NAMES[c]} at position {p + 1}" for p in range(DECK_SIZE) for c in range(DECK_SIZE))
INPUT_LABELS = tuple(f"input card {i + 1} at deck position {p + 1}" for i in range(DECK_SIZE) for p in range(DECK_SIZE))
SERIAL_OFF = np.array([a != b for a in range(DECK_SIZE) for b in range(DECK_SIZE)])
SERIAL_LABELS = tuple(
    f"{CARD_NAMES[a]} then {CARD_NAMES[b]}" for a in range(DECK_SIZE) for b in range(DECK_SIZE) if a != b
)
# per deck, 51 slots: a given ordered pair is next to each other with probability 51/(52·51) = 1/52
SERIAL_LAW = tuple([Fraction(1, DECK_SIZE)] * len(SERIAL_LABELS))


@register("deck positions", ("decks",), "every card at each of the 52 positions with probability 1/52", "decks")
def _deck_positions(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    counts = _positions(f, rounds)
    return _chi_square(
        "deck positions",
        "decks",
        counts,
        CELL_LAW,
        DECK_LABELS,
        sample=len(rounds),
        df=51 * 51,
        scale=Fraction(51, 52),
    )


@register(
    "serial pairs",
    ("decks",),
    "each ordered pair of distinct cards next to each other with probability 1/(52·51)",
    "decks",
)
def _serial_pairs(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    decks = f.records.decks
    assert decks is not None
    counts = np.zeros(DECK_SIZE * DECK_SIZE, dtype=np.int64)
    for start in range(0, len(rounds), CHUNK):
        d = decks[rounds[start : start + CHUNK]].astype(np.intp)
        counts += np.bincount((d[:, :-1] * DECK_SIZE + d[:, 1:]).ravel(), minlength=DECK_SIZE * DECK_SIZE)
    return _chi_square(
        "serial pairs", "decks", counts[SERIAL_OFF], SERIAL_LAW, SERIAL_LABELS, sample=len(rounds), df=51 * 51
    )


@register("rank turning points", ("decks",), "exact mean and variance over every sequence of ranks", "decks")
def _turning(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    assert f.turning is not None
    total = int(f.turning[rounds].sum())
    counts = "rank turning points (runs up and down) per deck"
    return _z("rank turning points", "decks", total, len(rounds), nulls.turning_moments(), counts)


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
def _rising(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    assert f.rising is not None
    histogram = np.bincount(f.rising[rounds] - 1, minlength=DECK_SIZE)
    law = rising_pooled_law()
    outcome = _chi_square(
        "rising sequences", "decks", _rising_pooled(histogram), law, RISING_LABELS, sample=len(rounds)
    )
    total = int(f.rising[rounds].sum())
    observed = Fraction(total, len(rounds)) if len(rounds) else Fraction(0)
    return dataclasses.replace(
        outcome, counts="mean rising sequences per deck", observed=observed, expected=Fraction(DECK_SIZE + 1, 2)
    )


@register(
    "input positions",
    ("decks", "inputs"),
    "every input position's card at each of the 52 deck positions with probability 1/52",
    "decks",
)
def _input_positions(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    counts = _matrix(f, rounds, "moves")
    return _chi_square(
        "input positions",
        "decks",
        counts,
        CELL_LAW,
        INPUT_LABELS,
        sample=len(rounds),
        df=51 * 51,
        scale=Fraction(51, 52),
    )


def _end_card(name: str, column: int) -> Callable[[RoundFeatures, IntArray, IntArray], Outcome]:
    def run(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
        assert f.position is not None
        counts = np.bincount(f.position[rounds, column], minlength=DECK_SIZE)
        labels = [f"at deck position {p + 1}" for p in range(DECK_SIZE)]
        return _chi_square(name, "decks", counts, POSITION_LAW, labels, sample=len(rounds))

    return run


@register(
    "the deck's first card",
    ("decks", "inputs"),
    "from each of the 52 input positions with probability 1/52",
    "decks",
)
def _first_card(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    assert f.first_source is not None
    counts = np.bincount(f.first_source[rounds], minlength=DECK_SIZE)
    labels = [f"from input position {i + 1}" for i in range(DECK_SIZE)]
    return _chi_square("the deck's first card", "decks", counts, POSITION_LAW, labels, sample=len(rounds))


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
def _adjacent(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    assert f.adjacent is not None
    total = int(f.adjacent[rounds].sum())
    counts = "input neighbours still next to each other, per deck"
    return _z("input neighbours adjacent", "decks", total, len(rounds), nulls.adjacency_moments(), counts, skewed=True)


@register(
    "input neighbours in one hand",
    ("inputs", "hands"),
    "each pair of input neighbours in one 3-card hand with probability h/442 (h hands dealt)",
    "rounds",
)
def _one_hand(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
    assert f.packet_pairs is not None
    total = int(f.packet_pairs[rounds].sum())
    by_hands = np.bincount(f.hands[rounds], minlength=9)
    mean = Fraction(0)
    variance = Fraction(0)
    for h, count in enumerate(by_hands.tolist()):
        if count:
            m, v = nulls.packet_moments(h)
            mean += count * m
            variance += count * v
    sample = len(rounds)
    per_round = (mean / sample if sample else Fraction(0), variance / sample if sample else Fraction(0))
    counts = "input neighbours dealt into one hand, per round"
    return _z(
        "input neighbours in one hand",
        "rounds",
        total,
        sample,
        per_round,
        counts,
        mean_total=mean,
        variance_total=variance,
        skewed=True,
    )


def _guessing(name: str, strategy: str) -> Callable[[RoundFeatures, IntArray, IntArray], Outcome]:
    def run(f: RoundFeatures, rounds: IntArray, _seats: IntArray) -> Outcome:
        scores = f.guess_riffle if strategy == "riffle" else f.guess_shelf
        assert scores is not None
        counts = "cards guessed right per deck"
        return _z(
            name,
            "decks",
            int(scores[rounds].sum()),
            len(rounds),
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


def _categories(f: RoundFeatures, rounds: IntArray, seats: IntArray, seat: int | None) -> Outcome:
    if seat is None:
        cats = f.dealer_category[rounds]
        name = "hand categories, dealer"
    else:
        chosen = seats[f.records.seat_number[seats] == seat]
        cats = f.seat_category[chosen]
        name = f"hand categories, seat {seat}"
    counts = np.bincount(cats, minlength=len(ThreeCardCategory))
    return _chi_square(name, "hands", counts, nulls.THREE_CARD_LAW, THREE_CARD_LABELS, sample=len(cats))


def _six(f: RoundFeatures, _rounds: IntArray, seats: IntArray, seat: int) -> Outcome:
    chosen = seats[f.records.seat_number[seats] == seat]
    cats = f.six_category[chosen]
    cells = np.zeros(len(nulls.SIX_CARD_CELLS), dtype=np.int64)
    by_category = np.bincount(cats, minlength=10)
    for i, (_, members) in enumerate(nulls.SIX_CARD_CELLS):
        cells[i] = sum(int(by_category[int(m)]) for m in members)
    labels = [label for label, _ in nulls.SIX_CARD_CELLS]
    return _chi_square(f"Six Card hands, seat {seat}", "hands", cells, nulls.six_card_law(), labels, sample=len(cats))


PACKET_LABELS = tuple(f"lowest card dealt {w} of its hand" for w in ("first", "second", "third"))
THIRDS = (Fraction(1, 3),) * 3


def _packet(f: RoundFeatures, rounds: IntArray, seats: IntArray, dealer: bool) -> Outcome:
    lowest = f.dealer_lowest[rounds] if dealer else f.seat_lowest[seats]
    name = "packet position, dealer" if dealer else "packet position, seats"
    counts = np.bincount(lowest, minlength=3)
    return _chi_square(name, "hands", counts, THIRDS, PACKET_LABELS, sample=len(lowest))


# The tests of hands, made per seat: listed by :func:`hand_tests` for the seats the log deals.
def hand_tests(seat_numbers: Sequence[int]) -> list[IntegrityTest]:
    tests = [
        IntegrityTest(
            "hand categories, dealer",
            ("hands",),
            "48/52/720/1,096/3,744/16,440 of 22,100",
            "hands",
            lambda f, r, s: _categories(f, r, s, None),
        ),
        IntegrityTest(
            "packet position, seats",
            ("hands",),
            "the lowest card at each position of a dealt hand with probability 1/3",
            "hands",
            lambda f, r, s: _packet(f, r, s, False),
        ),
        IntegrityTest(
            "packet position, dealer",
            ("hands",),
            "the lowest card at each position of a dealt hand with probability 1/3",
            "hands",
            lambda f, r, s: _packet(f, r, s, True),
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
        """What the verdict lists as not checked: the tests not run for too few decks, rounds or hands."""
        lines = []
        short = self.short
        if short:
            names = "; ".join(f"{o.name} ({o.sample:,} of {o.needed:,} {o.unit})" for o in short[:5])
            more = f"; and {len(short) - 5:,} more" if len(short) > 5 else ""
            lines.append(
                f"not checked: {len(short):,} deal-integrity {'test' if len(short) == 1 else 'tests'} for too little "
                f"data (a count expected fewer than {MIN_EXPECTED} times): {names}{more}"
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


def _available(records: DealRecords) -> set[str]:
    have = {"hands"} if records.rounds else set()
    if records.decks is not None:
        have.add("decks")
    if records.inputs is not None:
        have.add("inputs")
    return have


NEEDS_TEXT = {"decks": "the deck's order", "inputs": "the input order", "hands": "dealt hands"}


def deal_integrity(records: DealRecords) -> Battery:
    """The battery on ``records``: every test whose data the records hold, on all the rounds and on each value of
    each label (:data:`~trey.audit.deals.GROUPS`, at most :data:`MAX_GROUPS` values of a label, the most rounds
    first). What the audit calls with the rounds it read; its outcomes join the audit's Holm family."""
    if not records.rounds:
        return Battery((), 0)
    check_records(records)
    f = features(records)
    have = _available(records)
    seat_numbers = sorted(int(s) for s in np.unique(records.seat_number))
    registry = [*REGISTRY.values(), *hand_tests(seat_numbers)]
    runnable = [t for t in registry if set(t.needs) <= have]
    missing = tuple(
        f"{t.name} (needs {' and '.join(NEEDS_TEXT[n] for n in t.needs if n not in have)})"
        for t in registry
        if not set(t.needs) <= have
    )
    groups: list[tuple[str, IntArray]] = [(OVERALL, np.arange(records.rounds, dtype=np.int64))]
    left = []
    for label in GROUPS:
        values = records.labels.get(label)
        if values is None:
            continue
        names, codes, sizes = np.unique(values.astype(str), return_inverse=True, return_counts=True)
        order = [i for i in np.argsort(-sizes, kind="stable").tolist() if names[i] != ""]
        if len(order) > MAX_GROUPS:
            left.append(f"{len(order) - MAX_GROUPS:,} {label}s beyond the {MAX_GROUPS:,} with the most rounds")
        for i in sorted(order[:MAX_GROUPS], key=lambda i: str(names[i])):
            groups.append((f"{label} {names[i]}", np.flatnonzero(codes == i).astype(np.int64)))
    in_round = np.zeros(records.rounds, dtype=bool)
    outcomes = []
    for group, rounds in groups:
        in_round[:] = False
        in_round[rounds] = True
        seats = np.flatnonzero(in_round[records.seat_round]).astype(np.int64)
        for test in runnable:
            outcome = test.run(f, rounds, seats)
            if outcome is not None:
                outcomes.append(dataclasses.replace(outcome, group=group))
    positions = _positions(f, np.arange(records.rounds, dtype=np.int64)) if "decks" in have else None
    rising = np.bincount(f.rising - 1, minlength=DECK_SIZE) if f.rising is not None else None
    everything = np.arange(records.rounds, dtype=np.int64)
    moved = _matrix(f, everything, "moves") if f.position is not None else None
    return Battery(tuple(outcomes), records.rounds, missing, tuple(left), positions, rising, moved)
