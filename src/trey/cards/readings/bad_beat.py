"""``bad_beat``: a strong player hand beaten by the dealer's (an illustrative "Bad Beat" side bet).

A reading of both hands and of the showdown between them: it pays when the player holds a straight or better and
the dealer's hand is higher, whatever the player decides (the dealer's higher hand is a straight or better, so it
qualifies under any qualifier). Counted over the 22,100 x 18,424 = 407,170,400 player/dealer deals: for each
player hand, the dealer hands above it are counted by the hand table's exact counts (no enumeration).
"""

from __future__ import annotations

import numpy as np

from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.cards.hands import IntArray, ThreeCardCategory
from trey.cards.readings.base import Deals, Outcome, Reading, Seat

CLASSES = ("straight_flush_beaten", "three_of_a_kind_beaten", "straight_beaten", "nothing")
OUTCOMES = (
    Outcome(
        "straight_flush_beaten", frozenset({0}), "Straight flush beaten", "A straight flush, lower than the dealer's."
    ),
    Outcome(
        "three_of_a_kind_beaten",
        frozenset({1}),
        "Three of a kind beaten",
        "Three of a kind, lower than the dealer's hand.",
    ),
    Outcome("straight_beaten", frozenset({2}), "Straight beaten", "A straight, lower than the dealer's hand."),
)
NOTHING = len(CLASSES) - 1
# The class of a beaten hand by its category (indexed by ThreeCardCategory); below a straight, "nothing".
_CLASS_OF_CATEGORY = np.full(len(ThreeCardCategory), NOTHING, dtype=np.int64)
for _class, _category in enumerate(
    (ThreeCardCategory.STRAIGHT_FLUSH, ThreeCardCategory.THREE_OF_A_KIND, ThreeCardCategory.STRAIGHT)
):
    _CLASS_OF_CATEGORY[_category] = _class
_CATEGORY_SHIFT = 12  # a hand's key is its category, then its ranks: key >> 12 is the category


class BadBeat(Reading):
    name = "bad_beat"
    title = "the player's straight or better against a higher dealer hand"
    seat = Seat.BOTH
    ranks_three_card_hands = True
    classes = CLASSES
    outcomes = OUTCOMES
    cycle = HANDS * DEALER_HANDS

    def classify(self, deals: Deals) -> IntArray:
        keys = hand_table().keys
        player, dealer = keys[deals.player_hands], keys[deals.dealer_hands]
        classes: IntArray = np.where(dealer > player, _CLASS_OF_CATEGORY[player >> _CATEGORY_SHIFT], NOTHING)
        return classes

    def class_counts(self) -> tuple[int, ...]:
        table = hand_table()
        higher = DEALER_HANDS - table.dealer_hands_below(table.keys + 1)  # dealer hands above each player hand
        classes = _CLASS_OF_CATEGORY[table.keys >> _CATEGORY_SHIFT]
        beaten = np.bincount(classes, weights=higher, minlength=len(CLASSES)).astype(np.int64)
        beaten[NOTHING] = 0
        counts = [int(n) for n in beaten]
        counts[NOTHING] = self.cycle - sum(counts)
        return tuple(counts)

    def showcase_deals(self, rng: np.random.Generator) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:  # noqa: ARG002
        """A deal of each beaten hand, which random deals rarely show (a card is rank * 4 + suit, a deuce 0):
        K-Q-J of clubs against A-K-Q of diamonds, three deuces against three threes, 2-3-4 against 5-6-7."""
        return [((44, 40, 36), (49, 45, 41)), ((0, 1, 2), (4, 5, 6)), ((0, 5, 10), (12, 17, 22))]


BAD_BEAT = BadBeat()
