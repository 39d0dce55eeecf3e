"""``trey hand`` of a game of the family (issue 31): every option's exact expected value per Ante against a face-up
card, or each face-up rank, held to the plain count of tests/family_brute.py (which states the rules apart from
trey); the margin, the decision, the JSON and its schema, and the refusals."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache

import pytest

import family_brute as brute
from conftest import PAYTABLES, run_cli
from family_games import VARIANTS
from trey.cards.card import Card
from trey.core.jsonschemas import validator
from trey.protect.family_hand import FamilyHandReport, family_hand, family_hand_json

FACE_UP_ULTIMATE = PAYTABLES / "family" / "face-up-ultimate.yaml"
STANDARD = PAYTABLES / "standard.yaml"
NAMES = {0: "fold", 1: "1x", 3: "3x", 10: "10x"}


def _cards(text: str) -> tuple[int, ...]:
    return tuple(int(Card.parse(c)) for c in text.split())


@cache
def report(game: str, hand: str, up: str | None = None) -> FamilyHandReport:
    return family_hand(VARIANTS[game], hand, up=up)


def _plain_row(game: str, cells: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> tuple[dict[int, Fraction], set[int]]:
    """The plain count's average value of each option over the cells, and the options the cells take."""
    rules = brute.RULE_SETS[game]
    values: dict[int, Fraction] = {}
    taken = set()
    for player, up in cells:
        evs = brute.cell_evs(rules, player, up)
        taken.add(brute.best(evs))
        for option, value in evs.items():
            values[option] = values.get(option, Fraction(0)) + value / len(cells)
    return values, taken


@pytest.mark.parametrize(
    ("game", "hand", "up"),
    [
        ("face_up_ultimate", "Qh 8d 4c", "Qs"),  # How: Q-8-4 plays 1x against a queen
        ("face_up_ultimate", "8h 8d 4c", "Ks"),  # a pair: 3x open
        ("face_up_ultimate_play_pays_bad_beat", "Kh Kd 2c", "Kc"),  # the Play paid by a table, a bad beat
        ("face_up_10x_pairs_push", "5h 5d 9c", "Ac"),
    ],
)
def test_every_option_against_a_face_up_card_is_the_plain_count_s(game: str, hand: str, up: str) -> None:
    (row,) = report(game, hand, up).rows
    values, taken = _plain_row(game, [(_cards(hand), _cards(up))])
    assert row.values == values
    assert row.best == brute.best(values) and {o for o, n in row.taking.items() if n} == taken
    others = sorted(values.values())
    assert row.margin == others[-1] - others[-2]
    assert row.cells == 1 and row.up == up


def test_without_a_card_up_the_hand_faces_every_dealer_hand_its_cards_leave() -> None:
    (row,) = report("ante_pushes_no_face_up", "Qh 6d 4c").rows
    values, taken = _plain_row("ante_pushes_no_face_up", [(_cards("Qh 6d 4c"), ())])
    assert (row.up, row.values, row.decision) == (None, values, "play 1x" if taken == {1} else "fold")


def test_each_face_up_rank_is_the_average_of_its_cells() -> None:
    found = report("face_up_ultimate", "9-9-9")  # the four hands of three nines
    assert [r.up for r in found.rows] == ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
    nines = [(n for n in range(28, 32) if n != left) for left in range(28, 32)]
    hands = [tuple(h) for h in nines]
    for row, rank in ((found.rows[0], 12), (found.rows[5], 7)):
        cells = [(h, (u,)) for h in hands for u in range(rank * 4, rank * 4 + 4) if u not in h]
        values, taken = _plain_row("face_up_ultimate", cells)
        assert (row.cells, row.values, row.decision) == (len(cells), values, "play 3x")
        assert taken == {3}
    assert (found.rows[0].cells, found.rows[5].cells) == (16, 4)


def test_the_suits_may_split_a_face_up_rank() -> None:
    """Against a deuce, 9c-5c-2d plays 1x against the 2c and folds against the 2h and the 2s (the suits of the up
    card against the player's clubs): the rank's row depends on the suits."""
    deuces = report("face_up_ultimate", "9c 5c 2d").rows[-1]
    cells = [(_cards("9c 5c 2d"), (u,)) for u in _cards("2c 2h 2s")]
    values, taken = _plain_row("face_up_ultimate", cells)
    assert (deuces.up, deuces.cells, deuces.values, taken) == ("2", 3, values, {0, 1})
    assert (deuces.decision, deuces.taking) == ("depends on the suits", {0: 2, 1: 1, 3: 0})
    assert [brute.best(brute.cell_evs(brute.FACE_UP_ULTIMATE, h, u)) for h, u in cells] == [1, 0, 0]


def test_trey_hand_of_a_family_game_prints_every_option_by_face_up_rank() -> None:
    result = run_cli("hand", FACE_UP_ULTIMATE, "9c-5c-2d")
    assert (result.exit_code, result.stderr) == (0, "")
    lines = result.stdout.splitlines()
    assert lines[0] == "Face Up Ultimate Three Card Poker: 9c 5c 2d (9-5-2), by the up card"
    assert max(len(line) for line in lines[:17]) <= 80
    assert lines[2].split() == [
        "┃",
        "up",
        "rank",
        "┃",
        "fold",
        "┃",
        "1x",
        "┃",
        "3x",
        "┃",
        "margin",
        "┃",
        "decision",
        "┃",
    ]
    deuces = report("face_up_ultimate", "9c 5c 2d").rows[-1]
    fold, played = (f"{float(deuces.values[o]):.4f}" for o in (0, 1))
    assert f"│ 2       │ {fold} │ {played} │  — │" in result.stdout
    split = ", ".join(f"{NAMES[o]} in {n:,}" for o, n in deuces.taking.items() if n)
    assert f"2: the 3 cells split by their suits: {split}." in result.stdout  # fold in 2, 1x in 1


def test_trey_hand_json_of_a_family_game_follows_its_schema() -> None:
    result = run_cli("hand", FACE_UP_ULTIMATE, "Qh-8d-4c", "--up", "Qs", "--format", "json")
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert list(validator("hand").iter_errors(data)) == []
    assert data == family_hand_json(report("face_up_ultimate", "Qh 8d 4c", "Qs")) | {"hand": "Qh 8d 4c (Q-8-4)"}
    (row,) = data["by_up_card"]
    assert (data["options"], row["values"]["3x"], row["decision"]) == (["fold", "1x", "3x"], None, "play 1x")
    assert row["values"]["fold"] == "-2"  # the Ante and the Blind lost
    standard = json.loads(run_cli("hand", STANDARD, "Q-6-3", "--format", "json").stdout)
    assert list(validator("hand").iter_errors(standard)) == []
    assert list(validator("hand").iter_errors(standard | {"by_up_card": []}))  # one form or the other


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (
            (STANDARD, "Q-6-3", "--up", "7h"),
            1,
            "error: Three Card Poker (standard): the standard game shows no dealer card face up, so --up has nothing "
            "to name (--seen weighs the hand for a player who sees a dealer card)\n",
        ),
        (
            (FACE_UP_ULTIMATE, "Q-6-3", "--seen", "7h"),
            1,
            f"error: {FACE_UP_ULTIMATE}: --seen is for the standard game; in Face Up Ultimate Three Card Poker the "
            "hand is weighed against the face-up card (--up) (trey protect weighs a hole card seen beyond the "
            "face-up one)\n",
        ),
    ],
)
def test_trey_hand_refuses_what_the_game_does_not_deal(args: tuple[object, ...], code: int, message: str) -> None:
    result = run_cli("hand", *args)
    assert (result.exit_code, result.stdout) == (code, "")
    assert result.stderr == message


def test_a_face_up_card_in_the_hand_or_not_a_card_is_a_usage_error() -> None:
    result = run_cli("hand", FACE_UP_ULTIMATE, "Qh-8d-4c", "--up", "Qh")
    assert result.exit_code == 2 and "Qh is in the player's hand, not the dealer's" in result.stderr
    result = run_cli("hand", FACE_UP_ULTIMATE, "Q-8-4", "--up", "7h 8h")
    assert result.exit_code == 2 and "'7h 8h': the dealer shows one card face up" in result.stderr
