"""``player_hand``: the player's three cards, as Pair Plus reads them."""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

from trey.cards.hand_table import hand_table
from trey.cards.hands import IntArray, ThreeCardCategory
from trey.cards.readings.base import ROYAL_SUITS, Cards, Deals, Reading, Seat, poker_classes, poker_outcomes

# Classes, rarest first; the mini-royals (A-K-Q suited) apart by suit, spades first.
CLASSES = poker_classes("mini_royal", ("three_of_a_kind", "straight", "flush", "pair"))
OUTCOMES = poker_outcomes(
    ("mini_royal", "Mini-royal", "A-K-Q"),
    CLASSES,
    {
        "straight_flush": ("Straight flush", "Three suited cards in sequence."),
        "three_of_a_kind": ("Three of a kind", "Three cards of one rank."),
        "straight": ("Straight", "Three cards in sequence, not all one suit."),
        "flush": ("Flush", "Three cards of one suit, not in sequence."),
        "pair": ("Pair", "Two cards of one rank."),
    },
)
_ACE_HIGH_STRAIGHT_FLUSH_KEY = (int(ThreeCardCategory.STRAIGHT_FLUSH) << 12) | (12 << 8)
# Class of each three-card category (a straight flush that is no mini-royal is class 4).
_CLASS_OF_CATEGORY = np.array([9, 8, 7, 6, 5, 4], dtype=np.int64)  # indexed by ThreeCardCategory
_CLASS_OF_SUIT = np.array([ROYAL_SUITS.index(s) for s in range(4)], dtype=np.int64)


def _classes(keys: IntArray, first_suits: Cards) -> IntArray:
    """The class of hands from their strength keys and the suit of one of their cards (the rule, stated once)."""
    classes = _CLASS_OF_CATEGORY[keys >> 12]
    royal = keys == _ACE_HIGH_STRAIGHT_FLUSH_KEY  # all three cards of one suit: any card names it
    result: IntArray = np.where(royal, _CLASS_OF_SUIT[first_suits], classes)
    return result


@cache
def class_of_hand() -> IntArray:
    """The class of each of the 22,100 hands of the hand table (its keys are computed once, there)."""
    table = hand_table()
    return _classes(table.keys, table.cards[:, 0] % 4)


def three_card_class_counts() -> tuple[int, ...]:
    """Over the C(52, 3) = 22,100 hands, by counting ranks and suits."""
    sequences = 12  # A-2-3 up to A-K-Q
    rank_sets = comb(13, 3) - sequences  # three different ranks not in sequence
    counts = (
        *(1,) * 4,  # one A-K-Q of each suit
        sequences * 4 - 4,  # the other straight flushes
        13 * comb(4, 3),  # three of a kind
        sequences * (4**3 - 4),  # straights: any suits but all alike
        rank_sets * 4,  # flushes
        13 * comb(4, 2) * 12 * 4,  # pairs: the pair's rank and suits, the kicker's rank and suit
        rank_sets * (4**3 - 4),  # high cards
    )
    assert sum(counts) == comb(52, 3)
    return counts


class PlayerHand(Reading):
    name = "player_hand"
    title = "the player's three cards"
    seat = Seat.PLAYER
    ranks_three_card_hands = True
    classes = CLASSES
    outcomes = OUTCOMES
    cycle = comb(52, 3)
    suit_groups = (tuple(range(4)),)

    def classify(self, deals: Deals) -> IntArray:
        classes: IntArray = class_of_hand()[deals.player_hands]
        return classes

    def class_counts(self) -> tuple[int, ...]:
        return three_card_class_counts()


PLAYER_HAND = PlayerHand()
