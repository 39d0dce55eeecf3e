"""The card readings a wager can be paid on, by name: the registry :data:`READINGS`.

Adding a reading is one module in this package and its tests: every module here is imported and each
:class:`Reading` instance it defines at module level is registered, the four of trey 0.1 first, the others by
module name. The paytable schema's list of readings is generated from this registry (``make generated``), and a
reading registered from outside the package (:func:`register`) is accepted by the loader as well. See
:mod:`trey.cards.readings.base` for what a reading is.
"""

from __future__ import annotations

import importlib
import pkgutil

from trey.cards.readings.base import Deals, Outcome, Reading, Seat
from trey.cards.readings.colours import COLOURS
from trey.cards.readings.dealer_hand import DEALER_HAND
from trey.cards.readings.player_hand import PLAYER_HAND
from trey.cards.readings.six_cards import SIX_CARDS

READINGS: dict[str, Reading] = {}


def register(reading: Reading) -> Reading:
    """Add a reading to :data:`READINGS`; a second reading of the same name is refused."""
    if reading.name in READINGS and READINGS[reading.name] is not reading:
        raise ValueError(f"a reading named {reading.name!r} is already registered")
    READINGS[reading.name] = reading
    return reading


def _register_the_package() -> None:
    for reading in (PLAYER_HAND, DEALER_HAND, SIX_CARDS, COLOURS):
        register(reading)
    for module in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if module.name == "base":
            continue
        for value in vars(importlib.import_module(f"{__name__}.{module.name}")).values():
            if isinstance(value, Reading):
                register(value)


_register_the_package()

__all__ = [
    "COLOURS",
    "DEALER_HAND",
    "PLAYER_HAND",
    "READINGS",
    "SIX_CARDS",
    "Deals",
    "Outcome",
    "Reading",
    "Seat",
    "register",
]
