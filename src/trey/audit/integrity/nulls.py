"""The exact laws of a well-shuffled deck that the deal-integrity tests hold the logged decks to.

Every law is a function of the deck's size (and, for ranks, of the ranks and suits), so that the tests check each
against all the permutations of a small deck, counted one by one. Probabilities are ``Fraction``s.

- :func:`eulerian`: A(n, d), the permutations of n cards with d descents; a uniform deck has r rising sequences
  (relative to the order it was fed in) with probability A(n, r - 1) / n! (mean (n + 1)/2, variance (n + 1)/12:
  26.5 and 53/12 for 52 cards);
- :func:`riffle_distance`: Bayer and Diaconis's total-variation distance of k riffles from uniform, from their
  formula (a riffled deck with r rising sequences has probability C(2^k + n - r, n) / 2^(kn));
- :func:`adjacency_moments`, :func:`packet_moments`, :func:`turning_moments`, :func:`guessing_moments`: the mean and
  the variance, per deck, of the counts the tests sum over decks.
"""

from __future__ import annotations

import functools
from fractions import Fraction
from math import comb, factorial

import numpy as np

from trey.cards.card import DECK_SIZE
from trey.cards.hands import SixCardCategory, ThreeCardCategory
from trey.cards.readings.six_cards import SIX_CARD_SETS, category_counts

Moments = tuple[Fraction, Fraction]  # (mean, variance)

# The 22,100 three-card hands by category, weakest first (ThreeCardCategory's order).
THREE_CARD_COUNTS = {
    ThreeCardCategory.HIGH_CARD: 16_440,
    ThreeCardCategory.PAIR: 3_744,
    ThreeCardCategory.FLUSH: 1_096,
    ThreeCardCategory.STRAIGHT: 720,
    ThreeCardCategory.THREE_OF_A_KIND: 52,
    ThreeCardCategory.STRAIGHT_FLUSH: 48,
}
THREE_CARD_HANDS = comb(DECK_SIZE, 3)


@functools.cache
def eulerian(n: int) -> tuple[int, ...]:
    """A(n, d) for d = 0 … n - 1: the permutations of n cards with d descents (the recurrence
    A(n, d) = (d + 1) A(n - 1, d) + (n - d) A(n - 1, d - 1))."""
    if n < 1:
        raise ValueError("a deck has at least one card")
    row = [1]
    for size in range(2, n + 1):
        row = [
            (d + 1) * (row[d] if d < len(row) else 0) + (size - d) * (row[d - 1] if d >= 1 else 0) for d in range(size)
        ]
    return tuple(row)


@functools.cache
def rising_law(n: int = DECK_SIZE) -> tuple[Fraction, ...]:
    """P(r rising sequences) for r = 1 … n in a uniform deck of n cards (index r - 1)."""
    total = factorial(n)
    return tuple(Fraction(a, total) for a in eulerian(n))


def riffle_law(k: int, n: int = DECK_SIZE) -> tuple[Fraction, ...]:
    """P(r rising sequences) for r = 1 … n after k riffles (Bayer–Diaconis): A(n, r - 1) C(2^k + n - r, n) /
    2^(kn)."""
    scale = 2 ** (k * n)
    return tuple(Fraction(a * comb(2**k + n - r, n), scale) for r, a in enumerate(eulerian(n), start=1))


def riffle_distance(k: int, n: int = DECK_SIZE) -> Fraction:
    """Total-variation distance from uniform of a deck of n cards after k Gilbert–Shannon–Reeds riffles, exactly:
    half the sum over r of A(n, r - 1) |C(2^k + n - r, n) / 2^(kn) - 1/n!| (Bayer and Diaconis, "Trailing the
    dovetail shuffle to its lair", Ann. Appl. Probab. 2(2), 1992, Theorem 1 and Table 1)."""
    if not 0 <= k <= 64:
        raise ValueError("k must be from 0 to 64 riffles")
    uniform = Fraction(1, factorial(n))
    scale = 2 ** (k * n)
    total = sum(
        (a * abs(Fraction(comb(2**k + n - r, n), scale) - uniform) for r, a in enumerate(eulerian(n), start=1)),
        Fraction(0),
    )
    return total / 2


def harmonic(n: int, power: int = 1) -> Fraction:
    return sum((Fraction(1, m**power) for m in range(1, n + 1)), Fraction(0))


def guessing_moments(n: int = DECK_SIZE) -> Moments:
    """A guesser told each card after guessing it, guessing a card not yet seen: on a uniform deck the guess with m
    cards left is right with probability 1/m whatever came before, so the score is a sum of independent Bernoulli
    variables, mean H_n (4.5380 for 52) and variance H_n - H_n^(2)."""
    return harmonic(n), harmonic(n) - harmonic(n, 2)


def _window_moments(p_one: Fraction, p_next: Fraction, p_apart: Fraction, windows: int) -> Moments:
    """Mean and variance of the count of ``windows`` events in a row when an event has probability ``p_one``, two
    next to each other ``p_next`` together, and two further apart ``p_apart`` together (both never next: the
    events at windows i and i + 1 share cards, those further apart share none)."""
    mean = windows * p_one
    apart = (windows - 1) * (windows - 2) // 2
    second = mean + 2 * ((windows - 1) * p_next + apart * p_apart)
    return mean, second - mean * mean


def adjacency_moments(n: int = DECK_SIZE) -> Moments:
    """The count of the n - 1 pairs of cards next to each other in the input still next to each other (either
    way round) in the deck: a pair is with probability 2/n (1/26 for 52 cards); two pairs sharing a card (three
    cards in a row, the shared one in the middle) 2/(n(n - 1)); two disjoint pairs 4/(n(n - 1))."""
    return _window_moments(Fraction(2, n), Fraction(2, n * (n - 1)), Fraction(4, n * (n - 1)), n - 1)


def packet_moments(hands: int, n: int = DECK_SIZE) -> Moments:
    """The count of the n - 1 pairs of cards next to each other in the input dealt into one 3-card hand, in a
    round of ``hands`` hands (the seats and the dealer): a pair is with probability 6h/(n(n - 1)) (h/442 for 52
    cards), three cards in a row all in one hand 6h/(n(n - 1)(n - 2)), two disjoint pairs each in a hand (two
    different hands) 36h(h - 1)/(n(n - 1)(n - 2)(n - 3))."""
    if not 0 <= 3 * hands <= n:
        raise ValueError("the hands need more cards than the deck holds")
    falling = n * (n - 1)
    return _window_moments(
        Fraction(6 * hands, falling),
        Fraction(6 * hands, falling * (n - 2)),
        Fraction(36 * hands * (hands - 1), falling * (n - 2) * (n - 3)),
        n - 1,
    )


def _is_turning(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The middle rank strictly above both its neighbours or strictly below both."""
    result: np.ndarray = ((b > a) & (b > c)) | ((b < a) & (b < c))
    return result


def _rank_tuples(length: int, ranks: int, suits: int) -> tuple[np.ndarray, np.ndarray]:
    """Every sequence of ``length`` ranks (rows) and the ways to deal it as distinct cards, ``suits`` of a rank."""
    grid = np.indices((ranks,) * length, dtype=np.int8).reshape(length, -1)
    weight = np.ones(grid.shape[1], dtype=np.int64)
    for j in range(length):
        earlier = sum(((grid[i] == grid[j]).astype(np.int64) for i in range(j)), np.zeros(grid.shape[1], np.int64))
        weight *= np.maximum(suits - earlier, 0)
    return grid, weight


def _falling(n: int, k: int) -> int:
    return factorial(n) // factorial(n - k)


@functools.cache
def turning_moments(ranks: int = 13, suits: int = 4) -> Moments:
    """The count of rank turning points in a deck (a card whose rank is strictly above both its neighbours' or
    strictly below both), over the deck's n - 2 inner cards: exact, by every sequence of three to six ranks
    weighted by its ways to be dealt as distinct cards."""
    n = ranks * suits
    grid, weight = _rank_tuples(3, ranks, suits)
    p_one = Fraction(int(weight[_is_turning(*grid)].sum()), _falling(n, 3))
    grid, weight = _rank_tuples(4, ranks, suits)
    both = _is_turning(grid[0], grid[1], grid[2]) & _is_turning(grid[1], grid[2], grid[3])
    p_next = Fraction(int(weight[both].sum()), _falling(n, 4))
    grid, weight = _rank_tuples(5, ranks, suits)
    both = _is_turning(grid[0], grid[1], grid[2]) & _is_turning(grid[2], grid[3], grid[4])
    p_two = Fraction(int(weight[both].sum()), _falling(n, 5))
    # Two windows sharing no card: the first three ranks, then the ways to deal the next three from what is left.
    first, first_weight = _rank_tuples(3, ranks, suits)
    second, _ = _rank_tuples(3, ranks, suits)
    turning_first = np.flatnonzero(_is_turning(*first) & (first_weight > 0))
    turning_second = _is_turning(*second)
    apart = 0
    for row in turning_first.tolist():
        used = np.bincount(first[:, row], minlength=ranks)
        w = np.ones(second.shape[1], dtype=np.int64)
        for j in range(3):
            earlier = sum((second[i] == second[j]).astype(np.int64) for i in range(j)) if j else 0
            w *= np.maximum(suits - used[second[j]] - earlier, 0)
        apart += int(first_weight[row]) * int(w[turning_second].sum())
    p_apart = Fraction(apart, _falling(n, 6))
    windows = n - 2
    mean = windows * p_one
    far = (windows - 2) * (windows - 3) // 2  # pairs of windows three or more apart
    second_moment = mean + 2 * ((windows - 1) * p_next + (windows - 2) * p_two + far * p_apart)
    return mean, second_moment - mean * mean


THREE_CARD_LAW = tuple(Fraction(THREE_CARD_COUNTS[c], THREE_CARD_HANDS) for c in ThreeCardCategory)

# The Six Card hands' cells: the rare ones pooled (a royal or straight flush or four of a kind in one cell), so that
# the test needs thousands of hands, not hundreds of thousands.
SIX_CARD_CELLS = (
    ("high card", (SixCardCategory.HIGH_CARD,)),
    ("pair", (SixCardCategory.PAIR,)),
    ("two pair", (SixCardCategory.TWO_PAIR,)),
    ("three of a kind", (SixCardCategory.THREE_OF_A_KIND,)),
    ("straight", (SixCardCategory.STRAIGHT,)),
    ("flush", (SixCardCategory.FLUSH,)),
    ("full house", (SixCardCategory.FULL_HOUSE,)),
    (
        "four of a kind or better",
        (SixCardCategory.FOUR_OF_A_KIND, SixCardCategory.STRAIGHT_FLUSH, SixCardCategory.ROYAL_FLUSH),
    ),
)


@functools.cache
def six_card_law() -> tuple[Fraction, ...]:
    counts = category_counts()
    return tuple(Fraction(sum(counts[c] for c in cats), SIX_CARD_SETS) for _, cats in SIX_CARD_CELLS)
