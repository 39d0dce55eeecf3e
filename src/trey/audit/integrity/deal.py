"""Table rounds dealt from decks, in one stated order: what the simulator's rounds and the battery's tests deal.

:data:`DEAL_ORDER`: the deck is dealt in 3-card packets from its top (the order it left the shuffler): seat 1's
three cards first (deck positions 1–3), then seat 2's (4–6), …, seat K's, and the dealer's packet last (positions
3K + 1 to 3K + 3), each hand's cards in the order the deck holds them. A reader of a casino's log never needs this
order (a log says which cards each hand got); the battery's tests of hands read the hands as logged.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from trey.audit.deals import GROUPS, DealRecords
from trey.cards.card import DECK_SIZE

DEAL_ORDER = "3-card packets from the deck's top: seat 1, seat 2, …, seat K, then the dealer"
MAX_SEATS = 7
HAND = 3


def deal(
    decks: npt.NDArray[np.int8],
    *,
    seats: int,
    inputs: npt.NDArray[np.int8] | None = None,
    labels: dict[str, npt.NDArray[np.object_]] | None = None,
    log_decks: bool = True,
) -> DealRecords:
    """The table rounds of ``seats`` seats (1–7) dealt from each deck by :data:`DEAL_ORDER`, with the decks (when
    ``log_decks``), the inputs and the labels (by name of :data:`~trey.audit.deals.GROUPS`) as given."""
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"a table has 1 to {MAX_SEATS} seats")
    decks = np.asarray(decks, dtype=np.int8)
    if decks.ndim != 2 or decks.shape[1] != DECK_SIZE:
        raise ValueError(f"decks must be rows of {DECK_SIZE} cards")
    rounds = decks.shape[0]
    seat_cards = decks[:, : HAND * seats].reshape(rounds * seats, HAND)
    dealer = decks[:, HAND * seats : HAND * (seats + 1)].copy()
    for name in labels or {}:
        if name not in GROUPS:
            raise ValueError(f"no label named {name!r}: use {', '.join(GROUPS)}")
    return DealRecords(
        dealer=dealer,
        seat_round=np.repeat(np.arange(rounds, dtype=np.int64), seats),
        seat_number=np.tile(np.arange(1, seats + 1, dtype=np.int16), rounds),
        seats=seat_cards.copy(),
        decks=decks if log_decks else None,
        inputs=None if inputs is None else np.asarray(inputs, dtype=np.int8),
        labels=dict(labels or {}),
    )
