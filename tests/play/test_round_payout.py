"""A round's payout at a table of K seats sharing the dealer's hand: the two-seat count by inclusion-exclusion over
value indicators against a brute force on a 12-card deck written here (every (dealer, seat, seat, seat) deal one at
a time), and the proven bounds for three seats around the enumerated probability (the upper one never looser than
the plain union bounds), at every threshold from below the least total to beyond the largest."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from trey.play.round_payout import RoundPayout, pair_value_counts
from trey.play.table import PairCounter

DECK = 12


Hands = list[tuple[int, ...]]


SHAPES = {
    "side bet": [-1, -1, -1, 1, 2, 20],  # mostly -1, sometimes a win of 1 to 20
    "ante and play": [-2, -2, -1, -1, 0, 1, 2, 2, 4, 7],  # a seat can lose two units (Ante and Play)
}


@pytest.fixture(scope="module", params=list(SHAPES))
def toy(request: pytest.FixtureRequest) -> tuple[Hands, np.ndarray]:
    """Every hand of a 12-card deck and a value for each (seat hand, dealer hand) deal, values[seat, dealer], drawn
    from one of :data:`SHAPES`; 0 where the hands meet (no deal)."""
    rng = np.random.default_rng(34)
    hands = list(itertools.combinations(range(DECK), 3))
    meet = np.array([[bool(set(p) & set(d)) for d in hands] for p in hands])
    values = rng.choice(np.array(SHAPES[request.param]), size=meet.shape)
    return hands, np.where(meet, 0, values)


@pytest.fixture(scope="module")
def brute(toy: tuple[Hands, np.ndarray]) -> tuple[Counter[int], Counter[int]]:
    """The totals of two seats and of three over every deal of a dealer hand and three seat hands (12 cards: the
    third seat holds the three cards left), each deal listed: the ordered ways to split the nine cards left by the
    dealer's into three hands, read through each dealer hand's nine cards."""
    hands, values = toy
    lookup = np.zeros(DECK**3, dtype=np.int64)
    for i, (a, b, c) in enumerate(hands):
        lookup[(a * DECK + b) * DECK + c] = i
    splits = []
    for p in itertools.combinations(range(9), 3):
        after = [c for c in range(9) if c not in p]
        for q in itertools.combinations(after, 3):
            splits.append((p, q, tuple(c for c in after if c not in q)))
    positions = np.array(splits)  # (1680, 3 seats, 3 cards), each hand's positions ascending
    low = 3 * int(values.min())
    two_counts = np.zeros(3 * (int(values.max()) - low // 3) + 1, dtype=np.int64)
    three_counts = np.zeros_like(two_counts)
    for d, dealer in enumerate(hands):
        rest = np.array([c for c in range(DECK) if c not in dealer])
        held = rest[positions]
        seat = lookup[(held[:, :, 0] * DECK + held[:, :, 1]) * DECK + held[:, :, 2]]
        pair = values[seat[:, 0], d] + values[seat[:, 1], d]
        two_counts += np.bincount(pair - low, minlength=len(two_counts))
        three_counts += np.bincount(pair + values[seat[:, 2], d] - low, minlength=len(three_counts))
    two = Counter({v + low: int(n) for v, n in enumerate(two_counts.tolist()) if n})
    three = Counter({v + low: int(n) for v, n in enumerate(three_counts.tolist()) if n})
    return two, three


def _exact(hands: Hands, values: np.ndarray) -> RoundPayout:
    cards = np.array(hands, dtype=np.int64)
    counter = PairCounter(cards, DECK)
    levels = np.unique(values)
    one: Counter[int] = Counter()
    two = np.zeros((len(levels), len(levels)), dtype=np.int64)
    for d, dealer in enumerate(hands):
        free = np.array([not set(p) & set(dealer) for p in hands])
        one.update(values[free, d].tolist())
        two += pair_value_counts(values[:, d].astype(np.int64), free, counter, levels)
    seat_deals = len(hands) * math.comb(DECK - 3, 3)
    pair_deals = seat_deals * math.comb(DECK - 6, 3)
    joint = {
        (Fraction(a), Fraction(b)): Fraction(int(two[i, j]), pair_deals)
        for i, a in enumerate(levels.tolist())
        for j, b in enumerate(levels.tolist())
        if two[i, j]
    }
    return RoundPayout("toy", {Fraction(v): Fraction(n, seat_deals) for v, n in one.items()}, joint)


def test_two_seats_counted_by_inclusion_exclusion_equal_the_brute_force(
    toy: tuple[Hands, np.ndarray], brute: tuple[Counter[int], Counter[int]]
) -> None:
    exact = _exact(*toy)
    two, _ = brute
    deals = sum(two.values())
    assert {v: p for v, p in exact.two_seats.items() if p} == {Fraction(v): Fraction(n, deals) for v, n in two.items()}
    for x in (-3, 0, 5, 21, 39, 40):
        assert exact.tail_bound(2, Fraction(x)) == (sum(Fraction(n, deals) for v, n in two.items() if v > x), True)


def test_three_seats_union_bounds_hold_the_enumerated_tail(
    toy: tuple[Hands, np.ndarray], brute: tuple[Counter[int], Counter[int]]
) -> None:
    exact = _exact(*toy)
    _, three = brute
    deals = sum(three.values())
    for x in (*range(-3, 62), Fraction(1, 2), Fraction(41, 3)):
        tail = sum(Fraction(n, deals) for v, n in three.items() if v > x)
        bound, is_exact = exact.tail_bound(3, Fraction(x))
        assert not is_exact and tail <= bound, x
        upper, lower = exact.upper_bound(3, Fraction(x)), exact.lower_bound(3, Fraction(x))
        assert lower.value <= tail <= upper.value == bound, (x, lower, upper)
        # never looser than the plain union bounds: K P(Y > x / K) and C(K, 2) P(Y_1 + Y_2 > 2x / K)
        assert upper.value <= min(
            3 * exact.one_seat_above(Fraction(x, 3)), 3 * exact.two_seats_above(Fraction(2 * x, 3))
        )
    assert exact.tail_bound(3, Fraction(60)) == (Fraction(0), False)  # no round of three seats pays more than 60
    with pytest.raises(ValueError, match="a table has 1 to 7 seats, not 8"):
        exact.tail_bound(8, Fraction(1))


def test_the_programmes_bound_is_certified_whatever_the_solver_gives(
    toy: tuple[Hands, np.ndarray], brute: tuple[Counter[int], Counter[int]]
) -> None:
    """Any f and h certify a bound once moved by their largest violation: f = h = 0 gives 1 above and 0 below; the
    solver's own are sharper, and still hold the enumerated probability of three seats."""
    from trey.play.moment_bounds import _certified, _multisets, moment_bound

    exact = _exact(*toy)
    _, three = brute
    deals = sum(three.values())
    values = sorted(exact.one_seat)
    rows, totals = _multisets(values, 3)
    moments = [Fraction(0)] * rows.shape[1]
    indicator = np.array([2**30 if t > 5 else 0 for t in totals], dtype=object)
    zero = np.zeros(rows.shape[1])
    assert _certified(rows, zero, moments, indicator, upper=True) == 1
    assert _certified(rows, zero, moments, indicator, upper=False) == 0
    for x in (0, 5, 19, 22, 40):
        tail = sum(Fraction(n, deals) for v, n in three.items() if v > x)
        upper = moment_bound(exact.one_seat, exact.joint, 3, Fraction(x), upper=True)
        lower = moment_bound(exact.one_seat, exact.joint, 3, Fraction(x), upper=False)
        assert upper is not None and lower is not None and lower <= tail <= upper, x


@pytest.mark.parametrize("seats", [4, 7])
def test_every_bound_holds_any_exchangeable_table(seats: int) -> None:
    """Seats drawn from a few multisets of values, in a random order (exchangeable, as the seats of a round): one
    seat's and two seats' distributions and P(T > x) are exact here, and every bound holds the tail for K > 3."""
    rng = np.random.default_rng(seats)
    values = [-2, -1, 0, 1, 3, 10]
    chosen = [sorted(rng.choice(values, size=seats).tolist()) for _ in range(12)]
    weights = [Fraction(int(w), 1) for w in rng.integers(1, 20, size=len(chosen))]
    weights = [w / sum(weights) for w in weights]
    pairs = seats * (seats - 1)
    one: Counter[Fraction] = Counter()
    joint: Counter[tuple[Fraction, Fraction]] = Counter()
    for hand, w in zip(chosen, weights, strict=True):
        for i, a in enumerate(hand):
            one[Fraction(a)] += w / seats
            for j, b in enumerate(hand):
                if i != j:
                    joint[(Fraction(a), Fraction(b))] += w / pairs
    payout = RoundPayout("exchangeable", dict(one), dict(joint))
    for x in (-5, 0, 2, 5, 9, 12, 20, 35):
        tail = sum((w for hand, w in zip(chosen, weights, strict=True) if sum(hand) > x), Fraction(0))
        lower, upper = payout.lower_bound(seats, Fraction(x)), payout.upper_bound(seats, Fraction(x))
        assert lower.value <= tail <= upper.value, (x, lower, upper, tail)
