"""The card readings a wager can be paid on. Adding a reading is one module here and its tests.

See :mod:`trey.cards.readings.base` for what a reading is.
"""

from __future__ import annotations

from trey.cards.readings.base import Deals, Outcome, Reading, Seat
from trey.cards.readings.colours import COLOURS
from trey.cards.readings.dealer_hand import DEALER_HAND
from trey.cards.readings.player_hand import PLAYER_HAND
from trey.cards.readings.six_cards import SIX_CARDS

READINGS: dict[str, Reading] = {r.name: r for r in (PLAYER_HAND, DEALER_HAND, SIX_CARDS, COLOURS)}

__all__ = ["COLOURS", "DEALER_HAND", "PLAYER_HAND", "READINGS", "SIX_CARDS", "Deals", "Outcome", "Reading", "Seat"]
