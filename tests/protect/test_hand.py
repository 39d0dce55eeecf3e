"""``trey hand FILE Q-6-3 [--seen 7h]`` (issue 30.4): one hand's exact expected value of playing and of folding, the
margin and the decision, with and without a seen dealer card; held to a brute force written apart
(tests/plain_deals.py) and to trey protect's informed decisions, and every bad input refused."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

import trey
from conftest import PAYTABLES, STANDARD, run_cli
from plain_deals import DEALER_HANDS, hands, situation_counts
from trey.cards.card import parse_card
from trey.core.jsonschemas import validator
from trey.protect.hand import hand_json

Q_HIGH = (0, 10, 1, 0)
BONUS = {5: 5, 4: 4, 3: 1}  # the standard Ante Bonus by plain category: straight flush, trips, straight


def _plain_play(index: int, counts: tuple[int, int, int, int]) -> Fraction:
    """The expected net of playing hand ``index``, per Ante, from its dealer hands by situation."""
    not_qualify, higher, ties, lower = counts
    paid = BONUS.get(hands().strengths[index][0], 0)
    total = not_qualify + higher + ties + lower
    return Fraction((1 + paid) * not_qualify + (2 + paid) * higher + paid * ties + (paid - 2) * lower, total)


def _plain_seen_counts(index: int, seen: int) -> tuple[int, int, int, int]:
    """Hand ``index``'s dealer hands that hold the ``seen`` card, by situation, deal by deal."""
    h = hands()
    q = h.rank_of(Q_HIGH)
    holds = ((h.masks & (np.int64(1) << seen)) != 0) & ((h.masks & h.masks[index]) == 0)
    dealer = h.rank[holds]
    player = h.rank[index]
    qualifies = dealer >= q
    return (
        int((~qualifies).sum()),
        int((qualifies & (player > dealer)).sum()),
        int((qualifies & (player == dealer)).sum()),
        int((qualifies & (player < dealer)).sum()),
    )


def _of_ranks(ranks: tuple[int, int, int]) -> list[int]:
    """The plain indexes of the hands of these ranks, not a flush."""
    return [i for i, c in enumerate(hands().cards) if sorted(c // 4) == sorted(ranks) and len(set(c % 4)) > 1]


def test_q_6_3_folds_and_with_a_seen_seven_plays_as_the_brute_force_gives() -> None:
    result = run_cli("hand", STANDARD, "Q-6-3", "--seen", "7h", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(validator("hand").iter_errors(data)) == []
    index = _of_ranks((10, 4, 1))
    assert len(index) == 60
    counted = situation_counts(Q_HIGH, tuple(index))
    play = sum((_plain_play(i, tuple(c)) for i, c in zip(index, counted, strict=True)), Fraction(0)) / 60
    seven = parse_card("7h")
    seen = sum((_plain_play(i, _plain_seen_counts(i, seven)) for i in index), Fraction(0)) / 60
    assert data["normal"] == {
        "hands": 60,
        "play": str(play),
        "fold": "-1",
        "margin": str(play + 1),
        "decision": "fold",
        "hands_played": 0,
    }
    assert data["informed"] == {
        "hands": 60,
        "play": str(seen),
        "fold": "-1",
        "margin": str(seen + 1),
        "decision": "play",
        "hands_played": 60,
    }
    assert (round(float(play), 4), round(float(seen), 4)) == (-1.0031, -0.8206)
    assert data["strategy"] == {"kind": "optimal", "rule": "Q-6-4", "hands_played": 0}
    assert (data["hand"], data["seen"]) == ("Q-6-3", ["7h"])


def test_the_terminal_says_it_in_words() -> None:
    result = run_cli("hand", STANDARD, "Q-6-4", "--seen", "Qh")
    assert result.exit_code == 0, result.stderr
    lines = [" ".join(line.replace("│", " ").split()) for line in result.stdout.splitlines()]
    assert lines[0] == "Three Card Poker (standard): Q-6-4"
    assert "nothing -0.9939 -1.0000 0.0061 play" in lines
    assert lines[-4:] == [
        "Expected net results per Ante, the Ante Bonus included; playing is the better decision when the margin is "
        "above 0.",
        "The average of the 60 hands of Q-6-4, each equally likely.",
        "With the seen cards: the 45 of them that leave the seen cards in the deck.",
        "The table's strategy (optimal: Q-6-4) plays it.",
    ]
    exact = run_cli("hand", STANDARD, "Qh-6d-4c", "--exact")
    assert "Three Card Poker (standard): Qh 6d 4c (Q-6-4)" in exact.stdout
    assert "(-1)" in exact.stdout and "/" in exact.stdout


def test_the_informed_decision_is_trey_protects_for_every_hand() -> None:
    """The seen card's counts are trey protect's (not written again): the margin's decision is the informed
    player's of protect's one-card scenario, for every seventh hand of the 22,100 (hand_value is exact fractions,
    a hand at a time)."""
    from trey.cards.hand_table import HANDS
    from trey.cards.readings.player_hand import class_of_hand
    from trey.engine.ante_play import hand_value
    from trey.protect.informed import PLAYED, ContextCounts, Informed, seen_counts
    from trey.rules.ante_play import bonus_column, bonus_pays, resolution_table

    spec = trey.load_spec(STANDARD)
    game = spec.wagers.ante_play
    assert game is not None
    seen = int(parse_card("7h"))
    counts = seen_counts((seen,), spec.rules.dealer_qualifier.minimum_key)
    decided = Informed(game, spec.rules).decide(ContextCounts(counts[None], counts.sum(axis=1)[None])).plays[0]
    resolution = resolution_table(spec.rules)
    bonus = bonus_pays(game.ante_bonus)
    column = bonus_column(game.ante_bonus, class_of_hand())
    valued = [
        hand_value(dict(zip(PLAYED, map(int, counts[i]), strict=True)), resolution, bonus[column[i]]).plays
        if counts[i].sum()
        else False
        for i in range(0, HANDS, 7)
    ]
    assert np.array_equal(np.array(valued), decided[::7])
    assert 0 < decided.sum() < HANDS


def test_the_library_gives_what_the_command_prints() -> None:
    report = trey.hand(trey.load_spec(STANDARD), "K-Q-J", seen="As Kd")  # a straight, two cards seen
    assert report.hand == "straight, K-high"
    assert report.seen == (parse_card("As"), parse_card("Kd"))
    assert report.informed is not None and report.informed.hands == 45  # the K-Q-J holding the Kd cannot count
    command = run_cli("hand", STANDARD, "K-Q-J", "--seen", "As Kd", "--format", "json")
    assert json.loads(command.stdout) == hand_json(report)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["Q-6"], "'Q-6' is not a three-card hand"),
        (["Q-6-3-2"], "'Q-6-3-2' is not a three-card hand"),
        (["Qh-6x-3c"], "'Qh-6x-3c' is not a three-card hand: not a suit in '6x' (use c, d, h or s)"),
        (["Qh-Qh-3c"], "'Qh-Qh-3c' is not a three-card hand: a card appears twice"),
        (["Q-6-3", "--seen", "7h 8h 9h"], "'7h 8h 9h': a player sees one or two of the dealer's cards"),
        (["Qh-6d-3c", "--seen", "6d"], "6d is in the player's hand, not the dealer's"),
        (["Q-6-3", "--seen", "7h 7h"], "cannot read the seen cards '7h 7h': a card appears twice in '7h 7h'"),
        (["Q" * 5000], f"'{'Q' * 40}' is not a three-card hand"),
    ],
)
def test_a_hand_or_seen_card_that_cannot_be_is_a_usage_error(args: list[str], message: str) -> None:
    result = run_cli("hand", STANDARD, *args)
    assert result.exit_code == 2 and result.stdout == ""
    assert message in " ".join(result.stderr.replace("│", " ").split())


def test_a_game_without_ante_and_play_and_a_hand_that_holds_every_seen_card_are_refused() -> None:
    result = run_cli("hand", PAYTABLES / "pair_plus" / "40-30-6-4-1.yaml", "Q-6-3")
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        "error: Pair Plus 40-30-6-4-1: the game has no Ante & Play, so no hand is played or folded (trey hand "
        "weighs the Ante & Play decision)\n",
    )
    result = run_cli("hand", STANDARD, "Q-Q-Q", "--seen", "Qh Qd")
    assert (result.exit_code, result.stderr) == (
        1,
        "error: every three of a kind, Q-high holds Qh Qd: the dealer cannot hold it too (name a seen card the hand "
        "leaves in the deck)\n",
    )


def test_dealer_hands_counted_with_a_seen_card_are_those_holding_it() -> None:
    """The plain count here: a player hand leaves 1,128 dealer hands holding a given other card (C(48, 2))."""
    assert sum(_plain_seen_counts(0, 51)) == 1_128
    assert sum(situation_counts(Q_HIGH, (0,))[0]) == DEALER_HANDS
