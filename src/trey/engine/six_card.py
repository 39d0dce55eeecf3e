"""Six Card Bonus: the best five-card hand of the player's and dealer's six cards, over all C(52,6) = 20,358,520.

Six cards hold a flush only when five or six share a suit, and then the other card can at most pair one of them,
so the best hand is decided by the suited cards alone. Every other set is decided by its ranks alone. So:

1. count every six-card set by the category its ranks make (each multiset of ranks, weighted by the ways to
   give its cards suits: a product of C(4, m));
2. count the sets with five or six cards of one suit directly, by the category their suited cards make;
3. move those flush sets from their rank category to their flush category.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np

from trey.engine.results import WagerAnalysis
from trey.engine.stats import OutcomeRow, distribution_of_rows, stats_of
from trey.hands import IntArray, SixCardCategory, rank_categories, suited_categories
from trey.spec import Paytable, WagerName

SIX_CARD_SETS = comb(52, 6)
LOSE = "lose"
_WAYS_TO_SUIT = np.array([comb(4, m) for m in range(7)], dtype=np.int64)  # C(4, m): 0 for m > 4


def _count_matrix(rank_lists: IntArray) -> IntArray:
    """``(n, k)`` ranks → ``(n, 13)`` counts of each rank."""
    counts: IntArray = (rank_lists[:, :, None] == np.arange(13)).sum(axis=1)
    return counts


def _tally(counts: Counter[int], categories: IntArray, weights: IntArray | int, sign: int = 1) -> None:
    weights = np.broadcast_to(np.asarray(weights, dtype=np.int64), categories.shape)
    for category in np.unique(categories):
        counts[int(category)] += sign * int(weights[categories == category].sum())


@cache
def category_counts() -> dict[SixCardCategory, int]:
    """How many of the 20,358,520 six-card sets make each best-five category."""
    counts: Counter[int] = Counter()
    # 1. Every multiset of six ranks, weighted by the ways to suit it (zero when a rank would need five cards).
    multisets = _count_matrix(np.array(list(combinations_with_replacement(range(13), 6)), dtype=np.int64))
    _tally(counts, rank_categories(multisets), _WAYS_TO_SUIT[multisets].prod(axis=1))

    # 2 and 3. Five or six cards of one suit (only one suit can have five), times the 4 suits.
    def move(suited: IntArray, sixth: IntArray | None, sets: int) -> None:
        ranks = suited if sixth is None else np.column_stack([suited, sixth])
        masks = (np.int64(1) << suited).sum(axis=1)
        _tally(counts, rank_categories(_count_matrix(ranks)), sets, sign=-1)
        _tally(counts, suited_categories(masks), sets)

    six = np.array(list(combinations(range(13), 6)), dtype=np.int64)
    move(six, None, 4)
    five = np.array(list(combinations(range(13), 5)), dtype=np.int64)
    # The sixth card pairs one of the five ranks: 5 ranks x 3 other suits (the category is the same for each).
    move(five, five[:, 0], 4 * 5 * 3)
    # The sixth card is one of the 8 other ranks, in one of the 3 other suits.
    others = np.array([[r for r in range(13) if r not in row] for row in five.tolist()], dtype=np.int64)
    for column in range(others.shape[1]):
        move(five, others[:, column], 4 * 3)
    if sum(counts.values()) != SIX_CARD_SETS:
        raise AssertionError("six-card counts do not add up to C(52, 6)")
    return {SixCardCategory(c): n for c, n in sorted(counts.items())}


_OUTCOME_CATEGORY = {
    "royal_flush": SixCardCategory.ROYAL_FLUSH,
    "straight_flush": SixCardCategory.STRAIGHT_FLUSH,
    "four_of_a_kind": SixCardCategory.FOUR_OF_A_KIND,
    "full_house": SixCardCategory.FULL_HOUSE,
    "flush": SixCardCategory.FLUSH,
    "straight": SixCardCategory.STRAIGHT,
    "three_of_a_kind": SixCardCategory.THREE_OF_A_KIND,
}


def paid_outcome(paytable: Paytable, category: SixCardCategory) -> str | None:
    """The paytable row a category is paid by: its own, or a royal flush as a straight flush when royals are not
    listed; None when it does not pay."""
    for outcome, _ in paytable:
        wanted = _OUTCOME_CATEGORY[outcome]
        if category is wanted or (
            wanted is SixCardCategory.STRAIGHT_FLUSH
            and category is SixCardCategory.ROYAL_FLUSH
            and paytable.get("royal_flush") is None
        ):
            return outcome
    return None


def analyze_six_card_bonus(paytable: Paytable) -> WagerAnalysis:
    combos: Counter[str] = Counter()
    for category, n in category_counts().items():
        combos[paid_outcome(paytable, category) or LOSE] += n
    rows = [OutcomeRow(outcome, odds.net, combos[outcome], SIX_CARD_SETS) for outcome, odds in paytable]
    rows.append(OutcomeRow(LOSE, Fraction(-1), combos[LOSE], SIX_CARD_SETS))
    distribution = distribution_of_rows(rows)
    return WagerAnalysis(WagerName.SIX_CARD_BONUS, tuple(rows), distribution, stats_of(distribution))
