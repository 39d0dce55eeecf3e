"""All 22,100 three-card hands with their strength keys, and exact counts of the dealer hands below a strength.

The dealer's 18,424 possible hands for a given player hand are the hands disjoint from the player's three cards.
Counting those below a strength t uses inclusion-exclusion over the player's cards a, b, c::

    #disjoint(< t) = #all(< t) - #with a - #with b - #with c + #with ab + #with ac + #with bc - #with abc

where each term counts hands containing those cards with key < t. Each term is a binary search in an array of
keys sorted per card (and per pair of cards), so all 22,100 player hands are answered in a few vectorised steps
instead of 407 million comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from trey.cards.hands import IntArray, three_card_keys

HANDS = 22_100
DEALER_HANDS = 18_424  # C(49, 3)
_SPAN = 1 << 16  # larger than every key, so (group * _SPAN + key) sorts by group, then key
_PAIR_INDEX = np.array([[a * 52 + b for b in range(52)] for a in range(52)], dtype=np.int64)


@dataclass(frozen=True, eq=False)
class HandTable:
    cards: IntArray  # (22100, 3), each row ascending
    keys: IntArray  # (22100,)
    _sorted_keys: IntArray
    _by_card: IntArray  # sorted card * _SPAN + key, three entries per hand
    _by_pair: IntArray  # sorted pair * _SPAN + key, three entries per hand

    def dealer_hands_below(self, thresholds: IntArray) -> IntArray:
        """For each player hand i, how many dealer hands (disjoint from it) have a key < thresholds[i]; with
        thresholds of shape (22100, k), for each of hand i's k thresholds (one pass for all of them)."""
        a, b, c = self.cards[:, 0], self.cards[:, 1], self.cards[:, 2]
        t = thresholds.astype(np.int64)
        count = np.searchsorted(self._sorted_keys, t).astype(np.int64)
        for card in (a, b, c):
            count -= self._group_below(self._by_card, card, t)
        for x, y in ((a, b), (a, c), (b, c)):
            count += self._group_below(self._by_pair, _PAIR_INDEX[x, y], t)
        count -= (_column(self.keys, t) < t).astype(np.int64)
        return count

    def dealer_hands_holding_below(self, seen: tuple[int, ...], thresholds: IntArray) -> IntArray:
        """For each player hand i, how many dealer hands holding the ``seen`` card (one or two of them) and
        disjoint from the player's hand have a key < thresholds[i] (0 for a player hand that holds a seen card).

        The same inclusion-exclusion, among the hands that hold the seen cards: for one card s, the hands with s
        less those with s and a player card plus the one with s and two player cards; for two cards s and u, the
        hands with both less the three that also hold a player card. Thresholds of shape (22100, k) are answered
        for each of a hand's k thresholds at once, as by :meth:`dealer_hands_below`."""
        a, b, c = self.cards[:, 0], self.cards[:, 1], self.cards[:, 2]
        t = thresholds.astype(np.int64)
        holds_seen: npt.NDArray[np.bool_] = np.asarray(np.isin(self.cards, seen).any(axis=1), dtype=bool)
        if len(seen) == 1:
            (s,) = seen
            count = self._group_below(self._by_card, np.full(HANDS, s), t)
            for x in (a, b, c):
                count -= self._group_below(self._by_pair, _PAIR_INDEX[np.minimum(s, x), np.maximum(s, x)], t)
            for x, y in ((a, b), (a, c), (b, c)):
                count += _column(self._key_of_hand((np.full(HANDS, s), x, y), holds_seen), t) < t
        elif len(seen) == 2:
            s, u = sorted(seen)
            count = self._group_below(self._by_pair, np.full(HANDS, _PAIR_INDEX[s, u]), t)
            for x in (a, b, c):
                count -= _column(self._key_of_hand((np.full(HANDS, s), np.full(HANDS, u), x), holds_seen), t) < t
        else:
            raise ValueError("a player sees one or two of the dealer's cards")
        count[holds_seen] = 0
        return count

    def _key_of_hand(self, cards: tuple[IntArray, IntArray, IntArray], skip: npt.NDArray[np.bool_]) -> IntArray:
        """The key of each hand made of the three given cards (rows flagged in ``skip`` get a key no threshold
        reaches: they share a card and make no hand)."""
        rows = np.stack(cards, axis=1)  # in any order: hand_indexes looks up every order of three cards
        rows[skip] = (0, 1, 2)  # any hand: the result is discarded
        keys = self.keys[hand_indexes(rows)]
        return np.where(skip, np.int64(_SPAN), keys)

    @staticmethod
    def _group_below(sorted_groups: IntArray, group: IntArray, t: IntArray) -> IntArray:
        base = _column(group * _SPAN, t)
        return (np.searchsorted(sorted_groups, base + t) - np.searchsorted(sorted_groups, base)).astype(np.int64)


def _column(per_hand: IntArray, thresholds: IntArray) -> IntArray:
    """``per_hand`` (one value per hand) shaped to meet ``thresholds``: as it is for one threshold per hand, as a
    column for several."""
    return per_hand[:, None] if thresholds.ndim == 2 else per_hand


@cache
def hand_table() -> HandTable:
    """The table of every three-card hand (built once per process, about 20 ms)."""
    cards = np.array(list(combinations(range(52), 3)), dtype=np.int64)
    keys = three_card_keys(cards)
    a, b, c = cards[:, 0], cards[:, 1], cards[:, 2]
    by_card = np.sort(np.concatenate([a, b, c]) * _SPAN + np.tile(keys, 3))
    pairs = np.concatenate([_PAIR_INDEX[a, b], _PAIR_INDEX[a, c], _PAIR_INDEX[b, c]])
    by_pair = np.sort(pairs * _SPAN + np.tile(keys, 3))
    return HandTable(cards, keys, np.sort(keys), by_card, by_pair)


@cache
def _hand_index_lookup() -> IntArray:
    """Hand-table index of every ordered triple of cards, by ``a * 2704 + b * 52 + c`` (-1 for repeated cards)."""
    lookup = np.full(52**3, -1, dtype=np.int64)
    cards = hand_table().cards
    index = np.arange(len(cards), dtype=np.int64)
    for a, b, c in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        lookup[cards[:, a] * 2704 + cards[:, b] * 52 + cards[:, c]] = index
    return lookup


def hand_indexes(cards: npt.NDArray[np.integer]) -> IntArray:
    """Hand-table index of each row of an ``(n, 3)`` array of cards, in any order."""
    c = cards.astype(np.int64)
    indexes: IntArray = _hand_index_lookup()[c[:, 0] * 2704 + c[:, 1] * 52 + c[:, 2]]
    return indexes
