"""``colours``: Prime. The player's three cards of one colour, and all six cards (player's and dealer's) of one."""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

from trey.cards.card import RED_SUITS
from trey.cards.hand_table import hand_table
from trey.cards.hands import IntArray
from trey.cards.readings.base import ALL_SUIT_PERMUTATIONS, Deals, Outcome, Reading, Seat

CARDS_PER_COLOUR = 26
CLASSES = ("six_same_colour", "three_same_colour_only", "nothing")
# Six cards of one colour are also three of one colour: paid as such when six_same_colour is not listed.
OUTCOMES = (
    Outcome(
        "six_same_colour",
        frozenset({0}),
        "Six of one colour",
        "The player's and dealer's six cards all one colour (replaces the three-colour pay).",
    ),
    Outcome(
        "three_same_colour",
        frozenset({0, 1}),
        "Three of one colour",
        "The player's three cards all one colour (paid by six_same_colour instead when that row is listed and all "
        "six cards are one colour).",
    ),
)
_IS_RED = np.array([c % 4 in RED_SUITS for c in range(52)], dtype=np.int8)


@cache
def _reds_of_hand() -> IntArray:
    """How many red cards each hand of the hand table holds."""
    reds: IntArray = _IS_RED[hand_table().cards].sum(axis=1).astype(np.int64)
    return reds


def _classes(player_red: IntArray, dealer_red: IntArray | np.int64) -> IntArray:
    """The class of deals from the red cards of the player's hand and of the dealer's."""
    one_colour = (player_red == 0) | (player_red == 3)
    six = one_colour & (dealer_red == player_red)
    return np.where(six, 0, np.where(one_colour, 1, 2)).astype(np.int64)


class Colours(Reading):
    name = "colours"
    title = "the colours of the player's three cards and of all six"
    seat = Seat.BOTH
    classes = CLASSES
    outcomes = OUTCOMES
    cycle = comb(52, 3) * comb(49, 3)
    # Clubs and spades are black, diamonds and hearts red: only permutations keeping colours together.
    symmetries = tuple(p for p in ALL_SUIT_PERMUTATIONS if {p[0], p[3]} in ({0, 3}, {1, 2}))

    def classify(self, deals: Deals) -> IntArray:
        reds = _reds_of_hand()
        return _classes(reds[deals.player_hands], reds[deals.dealer_hands])

    def classify_against(self, dealer: int) -> IntArray:
        """As :meth:`Reading.classify_against`: every hand's reds against the dealer's."""
        reds = _reds_of_hand()
        return _classes(reds, reds[dealer])

    def class_counts(self) -> tuple[int, ...]:
        one_colour_hands = 2 * comb(CARDS_PER_COLOUR, 3)
        # The dealer's hand from the 23 cards of that colour left, or from any of the 49.
        six = one_colour_hands * comb(CARDS_PER_COLOUR - 3, 3)
        three_only = one_colour_hands * comb(49, 3) - six
        return six, three_only, self.cycle - six - three_only


COLOURS = Colours()
