"""Prime: the player's three cards of one colour (3 to 1), all six cards of one colour (4 to 1).

Counted over all 22,100 x 18,424 player/dealer deals: for a one-colour player hand, the dealer's hands of that
same colour are C(23, 3) of the 18,424 (23 cards of the colour remain).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from trey.cards import RED_SUITS
from trey.engine.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.engine.results import WagerAnalysis
from trey.engine.stats import OutcomeRow, distribution_of_rows, stats_of
from trey.spec import Paytable, WagerName

LOSE = "lose"
CARDS_PER_COLOUR = 26


def colour_counts() -> tuple[int, int]:
    """(deals with six cards of one colour, deals with only the player's three of one colour)."""
    cards = hand_table().cards
    red = np.isin(cards % 4, RED_SUITS).sum(axis=1)
    one_colour = int(np.count_nonzero((red == 3) | (red == 0)))
    same_colour_dealer = comb(CARDS_PER_COLOUR - 3, 3)
    six = one_colour * same_colour_dealer
    return six, one_colour * DEALER_HANDS - six


def analyze_prime(paytable: Paytable) -> WagerAnalysis:
    six, three_only = colour_counts()
    cycle = HANDS * DEALER_HANDS
    six_odds, three_odds = paytable.get("six_same_colour"), paytable.get("three_same_colour")
    rows = []
    if six_odds is not None:
        rows.append(OutcomeRow("six_same_colour", six_odds.net, six, cycle))
    if three_odds is not None:
        # Without a six-colour row, six of one colour is still three of one colour.
        rows.append(OutcomeRow("three_same_colour", three_odds.net, three_only + (0 if six_odds else six), cycle))
    paid = sum(r.combinations for r in rows)
    rows.append(OutcomeRow(LOSE, Fraction(-1), cycle - paid, cycle))
    distribution = distribution_of_rows(rows)
    return WagerAnalysis(WagerName.PRIME, tuple(rows), distribution, stats_of(distribution))
