"""Every one of the 407,170,400 player/dealer deals, up to a permutation of the suits: one player hand of each of
the 1,755 suit patterns against every dealer hand that shares no card with it, each deal weighted by the number
of player hands of its pattern. A rule that reads ranks and whether cards share a suit, never which suit, gives the
same result on a deal and on its images, so these weighted deals count every deal."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import permutations

import numpy as np

from trey.cards.hand_table import hand_indexes, hand_table

# Player hands a step: 65 x 22,100 pairs of hands (27 steps over the 1,755 patterns). Steps this small keep each
# step's arrays (some 10 MB) in the processor's caches: 585 a step made arrays of 100 MB, and the same deals took
# five times as long.
CHUNK = 65


@cache
def suit_patterns() -> np.ndarray:
    """Each hand's pattern: the smallest hand index among its 24 images under a permutation of the suits."""
    cards = hand_table().cards.astype(np.int64)
    images = [hand_indexes((cards // 4) * 4 + np.array(perm)[cards % 4]) for perm in permutations(range(4))]
    return np.min(np.stack(images), axis=0)


def representatives() -> np.ndarray:
    return np.unique(suit_patterns())


def pattern_sizes() -> np.ndarray:
    """How many hands share each representative's pattern (they add up to 22,100)."""
    return np.unique(suit_patterns(), return_counts=True)[1]


def deal_blocks(players: np.ndarray) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
    """For ``players`` (hand indexes) in steps: the step's slice of ``players``, its hands' indexes and a
    (step, 22,100) mask of the dealer hands that are deals with each (no card shared)."""
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), hand_table().cards.astype(np.int64)), axis=1)
    for start in range(0, len(players), CHUNK):
        step = slice(start, start + CHUNK)
        yield step, players[step], (masks[players[step], None] & masks[None, :]) == 0
