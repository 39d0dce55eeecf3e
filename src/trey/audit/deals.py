"""The dealt cards of table rounds, as the deal-integrity battery reads them (issue 32).

Every source (JSON Lines, CSV, Parquet, SQL, through a mapping) is read into table rounds; what the randomness
tests need of them is this: one row per round for the dealer's hand and, when logged, the deck's order as it left
the shuffler and the order it was fed in; one row per seat for the player's hand; and each round's labels (table,
dealer, shuffler, shift) to run the battery per group. Cards are the numbers 0–51 of :mod:`trey.cards.card`.

Interface agreed between the table-round readers and the battery.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

GROUPS = ("table", "dealer", "shuffler", "shift")  # the labels the battery is also run by, in this order


@dataclass(frozen=True)
class DealRecords:
    """The cards of ``rounds`` table rounds (all arrays numpy, rows in the log's order).

    - ``dealer``: int8 ``(rounds, 3)``, the dealer's cards in the order dealt;
    - ``seat_round``: int64 ``(seats,)``, the round (row of ``dealer``) each seat belongs to, non-decreasing;
    - ``seat_number``: int16 ``(seats,)``, the seat's number at its table (1–7);
    - ``seats``: int8 ``(seats, 3)``, the player's cards in the order dealt;
    - ``decks``: int8 ``(rounds, 52)`` or None: every card in the order it left the shuffler (None: not logged;
      a round without it inside a log that has it is not allowed: the readers refuse the log's mixture);
    - ``inputs``: int8 ``(rounds, 52)`` or None: the order the cards were fed in;
    - ``labels``: by name of :data:`GROUPS`, an object array ``(rounds,)`` of str (``""``: not given).
    """

    dealer: npt.NDArray[np.int8]
    seat_round: npt.NDArray[np.int64]
    seat_number: npt.NDArray[np.int16]
    seats: npt.NDArray[np.int8]
    decks: npt.NDArray[np.int8] | None = None
    inputs: npt.NDArray[np.int8] | None = None
    labels: dict[str, npt.NDArray[np.object_]] = field(default_factory=dict)

    @property
    def rounds(self) -> int:
        return int(self.dealer.shape[0])
