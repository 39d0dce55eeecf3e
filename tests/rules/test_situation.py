"""An Ante & Play round's situation is decided once: deal by deal (:func:`situation_of`, which the settlement
uses) and counted per player hand (:func:`situation_counts`, which the engine uses) agree over every one of the
407,170,400 deals.

A deal's situation reads the hands' ranks and whether each is a flush, never which suit: a deal and its image
under a permutation of the suits end alike. So every deal is covered by the deals of one player hand per suit
pattern (1,755 of the 22,100) against all their dealer hands, once the counts are shown equal across each pattern.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np
import pytest

from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_indexes, hand_table
from trey.paytable.model import DealerQualifier, Rules
from trey.rules.ante_play import SITUATIONS, Situation, resolution_table, situation_counts, situation_of

CHUNK = 585  # player hands a step: 585 x 22,100 deals


def _suit_patterns() -> np.ndarray:
    """Each hand's pattern: the smallest hand index among its 24 images under a permutation of the suits."""
    cards = hand_table().cards.astype(np.int64)
    images = [hand_indexes((cards // 4) * 4 + np.array(perm)[cards % 4]) for perm in permutations(range(4))]
    return np.min(np.stack(images), axis=0)


def _tallied(players: np.ndarray, qualifier_key: int) -> np.ndarray:
    """(situations, players): how many of each player hand's 18,424 dealer hands end in each situation when the
    player plays, by :func:`situation_of` on every deal (hands sharing a card are not deals)."""
    table = hand_table()
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), table.cards.astype(np.int64)), axis=1)
    tally = np.zeros((len(SITUATIONS), len(players)), dtype=np.int64)
    for start in range(0, len(players), CHUNK):
        chunk = slice(start, start + CHUNK)
        player = players[chunk]
        deals = (masks[player, None] & masks[None, :]) == 0
        shape = deals.shape
        situation = situation_of(
            np.ones(shape, dtype=bool),
            np.broadcast_to(table.keys[player, None], shape),
            np.broadcast_to(table.keys[None, :], shape),
            qualifier_key,
        )
        for index in range(len(SITUATIONS)):
            tally[index, chunk] = ((situation == index) & deals).sum(axis=1)
    return tally


@pytest.mark.parametrize("qualifier", ["Q-6-4", "pair"])
def test_situation_of_every_deal_equals_the_engines_counts(qualifier: str) -> None:
    key = DealerQualifier.parse(qualifier).minimum_key
    pattern = _suit_patterns()
    representatives = np.unique(pattern)
    assert len(representatives) == 1_755
    tally = _tallied(representatives, key)
    counts = situation_counts(hand_table(), key).by_situation()
    for situation, counted in counts.items():
        assert (counted == counted[pattern]).all(), situation  # alike across each suit pattern
        assert (tally[SITUATIONS.index(situation)] == counted[representatives]).all(), situation
    assert (tally[SITUATIONS.index(Situation.FOLD)] == 0).all()
    assert (tally.sum(axis=0) == DEALER_HANDS).all()


def test_a_fold_is_a_fold_whatever_the_cards() -> None:
    keys = hand_table().keys
    folded = situation_of(np.zeros(HANDS, dtype=bool), keys, keys[::-1], 0)
    assert set(folded.tolist()) == {SITUATIONS.index(Situation.FOLD)}


def test_the_situations_are_the_resolution_tables_rows_in_order() -> None:
    assert tuple(resolution_table(Rules())) == SITUATIONS
