"""Ante & Play counted apart from trey: every three-card hand listed with itertools, ranked by the plain hand order
of plain_hands.py, and each player hand's dealer hands split by situation by comparing those ranks, deal by deal,
with numpy. Nothing of trey's counting is used (no hand keys, no hand table, no inclusion–exclusion).

A deal's situation reads ranks and whether cards share a suit, never which suit: a deal and its image under a
permutation of the suits end alike. So one player hand of each suit pattern (1,755 of the 22,100), counted against
every dealer hand and weighted by how many hands share its pattern, counts every one of the 407,170,400 deals; the
brute force of benchmarks/bruteforce_by_hand.py counts them all without that argument."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations

import numpy as np

from plain_hands import strength

DEALER_HANDS = 18_424
STEP = 400  # player hands a step: 400 x 22,100 pairs of hands


@dataclass(frozen=True, eq=False)
class Hands:
    """Every three-card hand, in the order itertools lists them: its cards, its rank among all strengths (equal
    strengths, equal ranks), its category (5 a straight flush ... 0 a high card), its cards as a bit mask."""

    cards: np.ndarray
    strengths: list[tuple[int, ...]]
    rank: np.ndarray
    category: np.ndarray
    masks: np.ndarray
    keys: np.ndarray  # every strength once, as ordered ints, ascending

    def rank_of(self, hand_strength: tuple[int, ...]) -> int:
        """The rank of a strength such as the qualifier's (0, 10, 1, 0): Q-3-2."""
        return int(np.searchsorted(self.keys, _order_key(hand_strength)))


def _order_key(s: tuple[int, ...]) -> int:
    """A strength as one int that orders as the tuple does (each part below 16)."""
    return sum(part << (4 * (3 - i)) for i, part in enumerate(s))


@cache
def hands() -> Hands:
    listed = list(combinations(range(52), 3))
    strengths = [strength(h) for h in listed]
    keys = np.array([_order_key(s) for s in strengths], dtype=np.int64)
    ordered = np.unique(keys)
    rank = np.searchsorted(ordered, keys).astype(np.int64)
    cards = np.array(listed, dtype=np.int64)
    category = np.array([s[0] for s in strengths])
    return Hands(cards, strengths, rank, category, (np.int64(1) << cards).sum(axis=1), ordered)


@cache
def patterns() -> tuple[np.ndarray, np.ndarray]:
    """One player hand of each suit pattern (its index), and how many hands share the pattern."""
    cards = hands().cards
    codes = []
    for perm in permutations(range(4)):
        image = np.sort((cards // 4) * 4 + np.array(perm)[cards % 4], axis=1)
        codes.append(image[:, 0] * 2704 + image[:, 1] * 52 + image[:, 2])
    _, first, weight = np.unique(np.min(np.stack(codes), axis=0), return_index=True, return_counts=True)
    return first, weight


@cache
def situation_counts(qualifier: tuple[int, ...], players: tuple[int, ...] | None = None) -> np.ndarray:
    """(players, 4): how many of each player hand's 18,424 dealer hands end with the dealer not qualifying (below
    ``qualifier``), the player higher, a tie, the dealer higher; ``players`` default: the patterns' hands."""
    h = hands()
    chosen = patterns()[0] if players is None else np.array(players)
    q = h.rank_of(qualifier)
    counts = np.zeros((len(chosen), 4), dtype=np.int64)
    for start in range(0, len(chosen), STEP):
        index = chosen[start : start + STEP]
        deal = (h.masks[index, None] & h.masks[None, :]) == 0
        player, dealer = h.rank[index, None], h.rank[None, :]
        qualifies = deal & (dealer >= q)
        counts[start : start + STEP] = np.stack(
            [
                (deal & (dealer < q)).sum(axis=1),
                (qualifies & (player > dealer)).sum(axis=1),
                (qualifies & (player == dealer)).sum(axis=1),
                (qualifies & (player < dealer)).sum(axis=1),
            ],
            axis=1,
        )
    assert (counts.sum(axis=1) == DEALER_HANDS).all()
    return counts
