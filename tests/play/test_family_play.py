"""Settlement and simulation of the family's games (issue 31) against the plain count of tests/family_brute.py, which
states the rules apart from trey: each sampled deal's option and net, and the simulated figures within bounds of the
exact ones."""

from __future__ import annotations

import json
import random
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

import family_brute as brute
from conftest import PAYTABLES, run_cli
from family_games import VARIANTS
from trey.cards.hand_table import hand_indexes
from trey.engine.decide import NO_CELL, Expectations, decision_table, hidden_counts
from trey.paytable.load import load_spec, load_spec_bytes
from trey.paytable.model import GameSpec
from trey.play.settle import FamilyOutcome, FamilySettler
from trey.play.simulate import simulate

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
FU_HOUSE_EDGE = Fraction(1975131, 50896300)  # benchmarks/bruteforce_family.py, and How's 3.8807%


def _paytable(name: str, body: str) -> GameSpec:
    return load_spec_bytes(f"trey: 3\nname: {name}\n{body}".encode(), f"{name}.yaml")


@cache
def specs() -> dict[str, GameSpec]:
    shipped = FACE_UP_ULTIMATE.read_text()
    return {
        "face_up_ultimate": load_spec(FACE_UP_ULTIMATE),
        "face_up_ultimate_k_high": load_spec_bytes(
            shipped.replace("dealer_qualifier: Q-high", "dealer_qualifier: K-high").encode(), "k-high.yaml"
        ),
        "ante_pushes_no_face_up": _paytable(
            "Ante pushes", "game: {ante_when_dealer_does_not_qualify: pushes}\nwagers: {ante_play: {}}\n"
        ),
        "face_up_no_raises": _paytable(
            "Face up",
            "game: {face_up: 1}\n"
            "wagers: {ante_play: {ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}}}\n",
        ),
    }


@cache
def settler(name: str) -> FamilySettler:
    return FamilySettler(specs()[name])


def _deals(count: int, seed: int) -> np.ndarray:
    rng = random.Random(seed)
    return np.array([rng.sample(range(52), 6) for _ in range(count)], dtype=np.int64)


@pytest.mark.parametrize("name", ["face_up_ultimate", "face_up_ultimate_k_high", "face_up_no_raises"])
def test_each_sampled_round_takes_the_plain_counts_optimal_option(name: str) -> None:
    rules = brute.RULE_SETS[name]
    cards = _deals(25, seed=31)
    chosen = settler(name).options_of(cards[:, :3], cards[:, 3:])
    plain = [brute.optimal_option(rules, tuple(row[:3]), (int(row[3]),)) for row in cards.tolist()]
    assert chosen.tolist() == plain


def test_without_a_card_up_the_rounds_take_the_plain_counts_option() -> None:
    cards = _deals(3, seed=7)
    chosen = settler("ante_pushes_no_face_up").options_of(cards[:, :3], cards[:, 3:])
    rules = brute.RULE_SETS["ante_pushes_no_face_up"]
    assert chosen.tolist() == [brute.optimal_option(rules, tuple(row[:3]), ()) for row in cards.tolist()]


@pytest.mark.parametrize(
    "name",
    [
        "face_up_ultimate",
        "face_up_ultimate_k_high",
        "ante_pushes_no_face_up",
        "prime_style",  # the Play paid by a table on a win, a tie, a dealer who does not qualify; a bad beat
        "face_up_ultimate_play_pays_bad_beat",
    ],
)
def test_every_option_of_sampled_rounds_nets_what_the_plain_rules_say(name: str) -> None:
    rules = brute.RULE_SETS[name]
    game = settler(name) if name in specs() else FamilySettler(VARIANTS[name])
    cards = _deals(1500, seed=5)
    player, dealer = cards[:, :3], cards[:, 3:]
    for option in game.expect.options:
        strengths = [brute.hand_strength(tuple(sorted(row))) for row in player.tolist()]
        allowed = np.array([option in brute.allowed_options(rules, s) for s in strengths])
        index = game.settle(player[allowed], dealer[allowed], np.full(int(allowed.sum()), option))["ante_play"]
        table = game.tables["ante_play"]
        for row, i in zip(np.flatnonzero(allowed).tolist(), index.tolist(), strict=True):
            mine = brute.hand_strength(tuple(sorted(player[row].tolist())))
            theirs = brute.hand_strength(tuple(sorted(dealer[row].tolist())))
            qualifies = rules.qualifier is None or theirs >= rules.qualifier
            result = (mine > theirs) - (mine < theirs)
            assert table.nets[i] == brute.net(rules, option, brute.row(mine), qualifies, result), (row, option)
            outcome = table.outcomes[i]
            assert isinstance(outcome, FamilyOutcome) and outcome.option == option
            assert table.staked[i] == brute.wager(rules, option)


def test_an_option_the_hand_may_not_take_is_refused() -> None:
    game = settler("face_up_ultimate")
    player, dealer = np.array([[0, 5, 18]]), np.array([[13, 20, 30]])  # 6-3-2 offsuit: no pair
    with pytest.raises(ValueError, match="not open to its hand"):
        game.settle(player, dealer, np.array([3]))
    with pytest.raises(ValueError, match="not open to its hand"):
        game.settle(player, dealer, np.array([2]))


def test_the_decision_table_reads_every_suit_as_the_engine_decides_it() -> None:
    spec = specs()["face_up_ultimate"]
    assert spec.wagers.ante_play is not None
    expect = Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    table = decision_table(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    assert table.shape == (52, 22100)
    for up in (1, 26, 51):  # the 2 of the second suit, the 8 of the third, the ace of the fourth
        counts = hidden_counts(up, spec.rules.dealer_qualifier.minimum_key)
        direct = np.where(counts.sum(axis=1) > 0, expect.decide(counts), NO_CELL)
        assert np.array_equal(table[up], direct)
    holding = hand_indexes(np.array([[51, 0, 1]]))
    assert table[51, holding[0]] == NO_CELL


@cache
def face_up_simulation() -> object:
    return simulate(specs()["face_up_ultimate"], 200_000, 1)


def test_a_simulation_of_face_up_ultimate_is_within_bounds_of_the_exact_figures() -> None:
    result = face_up_simulation()
    wager = result.wagers["ante_play"]  # type: ignore[attr-defined]
    assert wager.exact_rtp == 1 - FU_HOUSE_EDGE
    assert abs(wager.z_score) <= 4 and wager.p_value >= 1e-6 and wager.tested
    assert result.passed  # type: ignore[attr-defined]
    assert sum(c.observed for c in wager.outcomes) == 200_000
    assert [c.outcome for c in wager.outcomes][:3] == ["net -5", "net -3", "net -2"]


def test_trey_simulate_deals_a_family_game() -> None:
    run = run_cli("simulate", FACE_UP_ULTIMATE, "--rounds", "200000", "--format", "json")
    assert run.exit_code == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["passed"] is True
    assert data["wagers"]["ante_play"]["exact_rtp"] == "48921169/50896300"
    expected = face_up_simulation().wagers["ante_play"]  # type: ignore[attr-defined]
    assert data["wagers"]["ante_play"]["observed_rtp"] == f"{expected.observed_rtp}"
