"""An Ante & Play round's situation is decided once: deal by deal (:func:`situation_of`, which the settlement
uses) and counted per player hand (:func:`situation_counts`, which the engine uses) agree over every one of the
407,170,400 deals.

A deal's situation reads the hands' ranks and whether each is a flush, never which suit: a deal and its image
under a permutation of the suits end alike. So every deal is covered by the deals of one player hand per suit
pattern (1,755 of the 22,100) against all their dealer hands, once the counts are shown equal across each pattern.
"""

from __future__ import annotations

import numpy as np
import pytest

from every_deal import deal_blocks, representatives, suit_patterns
from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.paytable.model import DealerQualifier, Rules
from trey.rules.ante_play import SITUATIONS, Situation, resolution_table, situation_counts, situation_of


def _tallied(players: np.ndarray, qualifier_key: int) -> np.ndarray:
    """(situations, players): how many of each player hand's 18,424 dealer hands end in each situation when the
    player plays, by :func:`situation_of` on every deal."""
    keys = hand_table().keys
    tally = np.zeros((len(SITUATIONS), len(players)), dtype=np.int64)
    for step, hands, deals in deal_blocks(players):
        shape = deals.shape
        situation = situation_of(
            np.ones(shape, dtype=bool),
            np.broadcast_to(keys[hands, None], shape),
            np.broadcast_to(keys[None, :], shape),
            qualifier_key,
        )
        for index in range(len(SITUATIONS)):
            tally[index, step] = ((situation == index) & deals).sum(axis=1)
    return tally


@pytest.mark.parametrize("qualifier", ["Q-6-4", "pair"])
def test_situation_of_every_deal_equals_the_engines_counts(qualifier: str) -> None:
    key = DealerQualifier.parse(qualifier).minimum_key
    pattern = suit_patterns()
    players = representatives()
    assert len(players) == 1_755
    tally = _tallied(players, key)
    counts = situation_counts(hand_table(), key).by_situation()
    for situation, counted in counts.items():
        assert (counted == counted[pattern]).all(), situation  # alike across each suit pattern
        assert (tally[SITUATIONS.index(situation)] == counted[players]).all(), situation
    assert (tally[SITUATIONS.index(Situation.FOLD)] == 0).all()
    assert (tally.sum(axis=0) == DEALER_HANDS).all()


def test_a_fold_is_a_fold_whatever_the_cards() -> None:
    keys = hand_table().keys
    folded = situation_of(np.zeros(HANDS, dtype=bool), keys, keys[::-1], 0)
    assert set(folded.tolist()) == {SITUATIONS.index(Situation.FOLD)}


def test_the_situations_are_the_resolution_tables_rows_in_order() -> None:
    assert tuple(resolution_table(Rules())) == SITUATIONS
