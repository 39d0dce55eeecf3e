"""A plain numpy brute force of Ante & Play (5-4-1, Q-6-4 strategy): every player hand against every dealer hand.

Kept here, out of the package, as the speed yardstick of the exact engine, and as one more cross-check: it prints
the house edge, which must equal the engine's.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np

from trey.cards.hands import high_card_key, three_card_keys

QUALIFIER = high_card_key((10, 1, 0))  # Q-3-2
PLAY_AT_LEAST = high_card_key((10, 4, 2))  # Q-6-4
BONUS = {5: 5, 4: 4, 3: 1}  # category -> Ante Bonus


def brute_force_house_edge() -> Fraction:
    hands = np.array(list(combinations(range(52), 3)), dtype=np.int64)
    keys = three_card_keys(hands)
    masks = (np.int64(1) << hands).sum(axis=1)
    qualifies = keys >= QUALIFIER
    total = 0
    for i in range(len(hands)):
        disjoint = (masks & masks[i]) == 0
        if keys[i] < PLAY_AT_LEAST:
            total -= int(disjoint.sum())
            continue
        dealer = keys[disjoint]
        dealer_qualifies = qualifies[disjoint]
        net = np.where(~dealer_qualifies, 1, np.where(dealer < keys[i], 2, np.where(dealer == keys[i], 0, -2)))
        total += int(net.sum()) + BONUS.get(int(keys[i]) >> 12, 0) * dealer.size
    return -Fraction(total, 22100 * 18424)


if __name__ == "__main__":
    edge = brute_force_house_edge()
    print(f"house edge {edge} = {float(edge):.6%}")
