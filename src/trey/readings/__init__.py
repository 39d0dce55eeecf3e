"""The card readings a wager can be paid on. Adding a reading is one module here and its tests.

See :mod:`trey.readings.base` for what a reading is.
"""

from __future__ import annotations

from trey.readings.base import Deals, Outcome, Reading, Seat
from trey.readings.colours import COLOURS
from trey.readings.dealer_hand import DEALER_HAND
from trey.readings.player_hand import PLAYER_HAND
from trey.readings.six_cards import SIX_CARDS

READINGS: dict[str, Reading] = {r.name: r for r in (PLAYER_HAND, DEALER_HAND, SIX_CARDS, COLOURS)}

__all__ = ["COLOURS", "DEALER_HAND", "PLAYER_HAND", "READINGS", "SIX_CARDS", "Deals", "Outcome", "Reading", "Seat"]
