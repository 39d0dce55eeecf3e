"""The payout drill of a game of the Three Card Poker family (issue 31): every answer of its deals is the settlement of
the round at the optimal strategy's decision, held against tests/family_brute.py (written apart from trey: the
decision by walking every set of the dealer's hidden cards, the nets by its own rules)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from html import unescape
from pathlib import Path

import numpy as np
import pytest

import family_brute
from conftest import PAYTABLES, run_cli
from trey.engine.decide import hidden_counts
from trey.engine.family import analyze_family
from trey.floor.drill import Drill, Level, uncovered
from trey.floor.family import FamilyTable, make_family_drill
from trey.paytable.load import load_spec, load_spec_bytes
from trey.paytable.model import GameSpec

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"


# Two more games of the family, as tests/engine/test_family.py and tests/family_brute.py state them: no card up and
# the Ante pushing; a card up, no raise, and an Ante Bonus.
OTHERS = {
    "ante_pushes_no_face_up": "game: {ante_when_dealer_does_not_qualify: pushes}\nwagers: {ante_play: {}}\n",
    "face_up_no_raises": "game: {face_up: 1}\n"
    "wagers: {ante_play: {ante_bonus: {straight_flush: 5, three_of_a_kind: 4, straight: 1}}}\n",
}


@cache
def spec(name: str = "face_up_ultimate") -> GameSpec:
    if name == "face_up_ultimate":
        return load_spec(FACE_UP_ULTIMATE)
    return load_spec_bytes(f"trey: 3\nname: {name}\n{OTHERS[name]}".encode(), f"{name}.yaml")


@cache
def drill(level: Level, name: str = "face_up_ultimate", hands: int = 24) -> Drill:
    return make_family_drill(spec(name), analyze_family(spec(name)), hands=hands, seed=7, level=level)


def _brute_answers(
    player: tuple[int, ...], dealer: tuple[int, ...], ante: Fraction, name: str = "face_up_ultimate"
) -> tuple[int, Fraction]:
    """The option and the round's net in money, by the brute force alone."""
    rules = family_brute.RULE_SETS[name]
    option = family_brute.optimal_option(rules, player, dealer[: rules.face_up])
    mine, theirs = family_brute.hand_strength(tuple(sorted(player))), family_brute.hand_strength(tuple(sorted(dealer)))
    qualifies = rules.qualifier is None or theirs >= rules.qualifier
    result = (mine > theirs) - (mine < theirs)
    return option, family_brute.net(rules, option, family_brute.row(mine), qualifies, result) * ante


@pytest.mark.parametrize("level", list(Level))
def test_every_answer_is_the_settlement_at_the_optimal_decision(level: Level) -> None:
    practice = drill(level)
    assert len(practice.hands) >= 24
    for hand in practice.hands:
        player = tuple(int(c) for c in hand.player)
        dealer = tuple(int(c) for c in hand.dealer)
        ante = dict(hand.bets)["Ante"]
        option, net = _brute_answers(player, dealer, ante)
        assert hand.decision == ("folds" if option == 0 else f"plays {option}x"), hand.number
        paid = sum(line.amount for line in hand.lines)
        # A win that is not a whole chip ($1: 3 to 2 on an odd bet) is rounded down, and the key says so.
        assert net - 1 < paid <= net, hand.number
        assert (paid == net) == all("rounded down" not in line.reason for line in hand.lines), hand.number
        parts = [line.part for line in hand.lines]
        assert parts == ["Ante", "Blind"] if option == 0 else ["Ante", f"Play ({option}x)", "Blind"]
        assert dict(hand.bets).get(f"Play ({option}x)") == (ante * option if option else None)


@pytest.mark.parametrize("name", sorted(OTHERS))
def test_the_answers_of_other_games_of_the_family_are_the_brute_forces(name: str) -> None:
    practice = drill(Level.FULL, name, 6)
    assert uncovered(practice) == []
    bonus = name == "face_up_no_raises"
    for hand in practice.hands:
        player = tuple(int(c) for c in hand.player)
        dealer = tuple(int(c) for c in hand.dealer)
        ante = dict(hand.bets)["Ante"]
        option, net = _brute_answers(player, dealer, ante, name)
        assert hand.decision == ("folds" if option == 0 else f"plays {option}x"), hand.number
        assert sum(line.amount for line in hand.lines) == net, hand.number  # whole-number pays: no rounding
        assert [line.part for line in hand.lines] == [
            "Ante",
            *(["Play (1x)"] if option else []),
            *(["Ante Bonus"] if bonus else []),
        ]
    if bonus:
        assert {"bonus:straight", "bonus:three_of_a_kind", "bonus:straight_flush"} <= set(practice.needed)


def test_a_full_drill_covers_every_option_situation_and_blind_row() -> None:
    practice = drill(Level.FULL)
    assert uncovered(practice) == []
    assert {"fold", "3x:True:WIN", "3x:False:WIN", "blind:mini_royal", "blind:push"} <= set(practice.needed)
    # 3x needs a pair, which beats every hand that does not qualify: no such deal, so nothing asks for one.
    assert "3x:False:LOSE" not in practice.needed


def test_the_table_decides_every_suit_of_up_card_as_the_engine_does() -> None:
    """The up cards of other suits than clubs are decided by the suits' symmetry: held to the engine's exact
    expectations of those very cells."""
    from trey.engine.decide import Expectations

    game = spec()
    family = analyze_family(game)
    table = FamilyTable(game, family)
    assert game.wagers.ante_play is not None
    expect = Expectations(game.game, game.rules, game.wagers.ante_play.ante_bonus)
    rng = np.random.Generator(np.random.PCG64(3))
    cards = np.stack([rng.permutation(52)[:4] for _ in range(200)])
    players, ups = cards[:, :3], cards[:, 3]
    options = table.options(players, ups)
    from trey.cards.hand_table import hand_indexes

    indexes = hand_indexes(players)
    for up in np.unique(ups).tolist():
        here = ups == up
        counts = hidden_counts(int(up), game.rules.dealer_qualifier.minimum_key)
        expected = expect.decide(counts[indexes[here]], indexes[here])
        assert options[here].tolist() == expected.tolist()


def test_trey_drill_writes_a_family_drill(tmp_path: Path) -> None:
    result = run_cli("drill", FACE_UP_ULTIMATE, "--out", tmp_path, "--hands", "4", "--date", "2026-01-01")
    assert result.exit_code == 0, result.stderr
    html = unescape((tmp_path / "face-up-ultimate.drill.html").read_text())
    assert "face up, then" in html
    assert "the optimal strategy's decision (trey's engine)" in html
    assert (tmp_path / "face-up-ultimate.drill.pdf").read_bytes().startswith(b"%PDF")
