"""A round's payout at a table of K seats sharing the dealer's hand: the two-seat count by inclusion-exclusion over
value indicators against a brute force on a 12-card deck written here (every (dealer, seat, seat, seat) deal one at
a time), and the union bounds for three seats at least the enumerated probability."""

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


@pytest.fixture(scope="module")
def toy() -> tuple[Hands, np.ndarray]:
    """Every hand of a 12-card deck and a value for each (seat hand, dealer hand) deal, values[seat, dealer]: mostly
    -1, sometimes a win of 1 to 20 (a side bet's shape); 0 where the hands meet (no deal)."""
    rng = np.random.default_rng(34)
    hands = list(itertools.combinations(range(DECK), 3))
    meet = np.array([[bool(set(p) & set(d)) for d in hands] for p in hands])
    values = rng.choice(np.array([-1, -1, -1, 1, 2, 20]), size=meet.shape)
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
    for x in (0, 2, 10, 19, 20, 25, 41, 59, 60):
        tail = sum(Fraction(n, deals) for v, n in three.items() if v > x)
        bound, is_exact = exact.tail_bound(3, Fraction(x))
        assert not is_exact and tail <= bound, x
    assert exact.tail_bound(3, Fraction(60)) == (Fraction(0), False)  # no round of three seats pays more than 60
    with pytest.raises(ValueError, match="a table has 1 to 7 seats, not 8"):
        exact.tail_bound(8, Fraction(1))
