"""Expectations.decide takes every cell's decision at once from each hand's int64 nets (the hands in order, in
blocks of the 22,100 hands, or any hands): every way gives the decision taken group by group, the code written
first (tests/engine/test_family.py holds both to the best of Expectations.values on sampled hands)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import STANDARD
from family_games import FU_BLIND, FU_GAME, paytable
from trey.cards.hand_table import HANDS
from trey.engine.decide import Expectations, hidden_counts
from trey.paytable.load import load_spec
from trey.paytable.model import STANDARD_ROUND


def _face_up(blind: str, rules: str) -> Expectations:
    spec = paytable("x", FU_GAME.replace("{BLIND}", blind) + f"rules: {rules}\nwagers: {{ante_play: {{}}}}\n")
    assert spec.wagers.ante_play is not None
    return Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)


def _standard() -> Expectations:
    spec = load_spec(STANDARD)
    assert spec.wagers.ante_play is not None
    return Expectations(STANDARD_ROUND, spec.rules, spec.wagers.ante_play.ante_bonus)


@pytest.mark.parametrize(
    ("game", "up_cards"),
    [
        ("standard", [None]),
        ("face up", [21, 48, 0]),  # three options: fold, play 1x, 3x with a pair or better
        ("face up, ties win", [5, 33]),
    ],
)
def test_every_way_of_deciding_takes_the_group_by_group_decision(game: str, up_cards: list[int | None]) -> None:
    expect = {
        "standard": _standard,
        "face up": lambda: _face_up(FU_BLIND, "{}"),
        "face up, ties win": lambda: _face_up(FU_BLIND, "{ties: player_wins, dealer_qualifier: pair}"),
    }[game]()
    qualifier = expect.rules.dealer_qualifier.minimum_key
    blocks = [hidden_counts(up, qualifier) for up in up_cards]
    counts = np.concatenate(blocks)
    every = np.tile(np.arange(HANDS), len(blocks))
    reference = expect._decide_by_group(counts, every)
    assert len(set(reference.tolist())) == len(expect.options)  # every option is taken somewhere
    assert np.array_equal(expect.decide(counts, every), reference)  # in blocks of every hand
    assert np.array_equal(expect.decide(blocks[0]), reference[:HANDS])  # the hands in order
    shuffled = np.random.Generator(np.random.PCG64(5)).permutation(len(every))
    assert np.array_equal(expect.decide(counts[shuffled], every[shuffled]), reference[shuffled])  # any hands
    some = shuffled[:1000]
    ties = np.zeros_like(counts[some])  # no cell: the fold
    assert (expect.decide(ties, every[some]) == 0).all()
    assert (expect.decide(np.zeros((HANDS, 6), dtype=np.int64)) == 0).all()  # every value equal: the fold
