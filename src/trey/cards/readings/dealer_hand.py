"""``dealer_hand``: the dealer's three cards, with the same outcomes as the player's (a "Dealer Bonus")."""

from __future__ import annotations

from math import comb

from trey.cards.hands import IntArray
from trey.cards.readings.base import Deals, Reading, Seat
from trey.cards.readings.player_hand import CLASSES, OUTCOMES, class_of_hand, three_card_class_counts


class DealerHand(Reading):
    name = "dealer_hand"
    title = "the dealer's three cards"
    seat = Seat.DEALER
    ranks_three_card_hands = True
    classes = CLASSES
    outcomes = OUTCOMES
    cycle = comb(52, 3)  # the dealer's hand alone is any of the 22,100, equally likely
    suit_groups = (tuple(range(4)),)

    def classify(self, deals: Deals) -> IntArray:
        classes: IntArray = class_of_hand()[deals.dealer_hands]
        return classes

    def class_counts(self) -> tuple[int, ...]:
        return three_card_class_counts()


DEALER_HAND = DealerHand()
