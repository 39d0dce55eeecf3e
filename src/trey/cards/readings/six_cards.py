"""``six_cards``: the best five-card poker hand of the player's and the dealer's six cards (Six Card Bonus).

Counted over all C(52, 6) = 20,358,520 six-card sets. Six cards hold a flush only when five or six share a suit,
and then the other card can at most pair one of them, so the best hand is decided by the suited cards alone. Every
other set is decided by its ranks alone. So:

1. count every six-card set by the category its ranks make (each multiset of ranks, weighted by the ways to
   give its cards suits: a product of C(4, m));
2. count the sets with five or six cards of one suit directly, by the category their suited cards make;
3. move those flush sets from their rank category to their flush category.

A royal flush is of one suit; the four suits are alike, so each holds a quarter of the royal flushes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from trey.cards.card import card
from trey.cards.hand_table import hand_table
from trey.cards.hands import (
    IntArray,
    SixCardCategory,
    best_five_categories,
    categories_of_parts,
    rank_categories,
    six_card_parts,
    suited_categories,
)
from trey.cards.readings.base import ROYAL_SUITS, Deals, Reading, Seat, poker_classes, poker_outcomes

SIX_CARD_SETS = comb(52, 6)
CLASSES = poker_classes(
    "royal_flush",
    ("four_of_a_kind", "full_house", "flush", "straight", "three_of_a_kind", "two_pair", "pair"),
)
OUTCOMES = poker_outcomes(
    ("royal_flush", "Royal flush", "A-K-Q-J-10"),
    CLASSES,
    {
        "straight_flush": ("Straight flush", "Five suited cards in sequence."),
        "four_of_a_kind": ("Four of a kind", "Four cards of one rank."),
        "full_house": ("Full house", "Three of a kind and a pair."),
        "flush": ("Flush", "Five cards of one suit."),
        "straight": ("Straight", "Five cards in sequence."),
        "three_of_a_kind": ("Three of a kind", "Three cards of one rank."),
        "two_pair": ("Two pair", "Two pairs."),
        "pair": ("Pair", "Two cards of one rank."),
    },
)
# Class of each SixCardCategory (a royal flush is split by suit afterwards).
_CLASS_OF_CATEGORY = np.array([12, 11, 10, 9, 8, 7, 6, 5, 4, 0], dtype=np.int64)
_CLASS_OF_SUIT = np.array([ROYAL_SUITS.index(s) for s in range(4)], dtype=np.int64)
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


def _classes(categories: IntArray, cards_of: Callable[[IntArray], npt.NDArray[np.integer]]) -> IntArray:
    """The reading's class of each deal from its best-five category (``cards_of(rows)``: the six cards of rows)."""
    classes: IntArray = _CLASS_OF_CATEGORY[categories]
    royal = np.flatnonzero(classes == 0)
    if royal.size:  # the suit holding five or six of the six cards
        suits = np.asarray(cards_of(royal)) % 4
        flush_suit = (suits[:, :, None] == np.arange(4)).sum(axis=1).argmax(axis=1)
        classes[royal] = _CLASS_OF_SUIT[flush_suit]
    return classes


def _cards_against(dealer: IntArray) -> Callable[[IntArray], IntArray]:
    """The six cards of given hands of the hand table, each with the dealer's three."""
    cards = hand_table().cards

    def cards_of(rows: IntArray) -> IntArray:
        return np.concatenate([cards[rows], np.broadcast_to(dealer, (len(rows), 3))], axis=1)

    return cards_of


@cache
def _hand_parts() -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Every hand's :func:`~trey.cards.hands.six_card_parts`, and (13, 22100) how many of its cards hold each rank."""
    cards = hand_table().cards
    presence, pairs, suits = six_card_parts(cards)
    rank_counts = np.zeros((13, len(cards)), dtype=np.int32)
    for column in range(3):
        np.add.at(rank_counts, (cards[:, column] // 4, np.arange(len(cards))), 1)
    return presence, pairs, suits, rank_counts


class SixCards(Reading):
    name = "six_cards"
    title = "the best five of the player's and the dealer's six cards"
    seat = Seat.BOTH
    classes = CLASSES
    outcomes = OUTCOMES
    cycle = SIX_CARD_SETS
    suit_groups = (tuple(range(4)),)

    def classify(self, deals: Deals) -> IntArray:
        cards = np.concatenate([deals.player, deals.dealer], axis=1)
        return _classes(best_five_categories(cards), lambda rows: cards[rows])

    def classify_against(self, dealer: int) -> IntArray:
        """As :meth:`Reading.classify_against`, from each hand's :func:`~trey.cards.hands.six_card_parts` (made
        once) and the dealer's: the masks OR, the codes add, and the pairs of equal rank add with those across the
        two hands (the hand's cards of each of the dealer's ranks)."""
        table = hand_table()
        presence, pairs, suits, rank_counts = _hand_parts()
        up = table.cards[dealer]
        dealer_presence, dealer_pairs, dealer_suits = (int(x[0]) for x in six_card_parts(up[None, :]))
        across = rank_counts[up[0] // 4] + rank_counts[up[1] // 4] + rank_counts[up[2] // 4]
        cards_of = _cards_against(up)
        categories = categories_of_parts(
            presence | dealer_presence, pairs + (across + dealer_pairs), suits + dealer_suits, cards_of
        )
        return _classes(categories, cards_of)

    def class_counts(self) -> tuple[int, ...]:
        by_category = category_counts()
        royals = by_category[SixCardCategory.ROYAL_FLUSH]
        assert royals % 4 == 0
        counts = [0] * len(CLASSES)
        for category, n in by_category.items():
            if category is SixCardCategory.ROYAL_FLUSH:
                for suit_class in range(4):
                    counts[suit_class] = royals // 4
            else:
                counts[int(_CLASS_OF_CATEGORY[category])] = n
        return tuple(counts)

    def showcase_deals(self, rng: np.random.Generator) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:  # noqa: ARG002
        """A royal flush of each suit, which random deals almost never show: A K Q to the player, J 10 to the
        dealer, and a card of another suit."""
        return [
            ((card(12, suit), card(11, suit), card(10, suit)), (card(9, suit), card(8, suit), card(0, (suit + 1) % 4)))
            for suit in range(4)
        ]


SIX_CARDS = SixCards()
