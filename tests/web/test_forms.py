"""The workbench's form (trey.web.forms): made from whatever the page sends back, a valid table or not."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from trey.paytable.load import load_spec
from trey.web.forms import sections
from workbench import PAYTABLES


@pytest.mark.parametrize(
    "sent",
    [
        {},
        {"name": ["x"], "wagers": [1, 2], "side_bets": "x", "table": 5, "rules": [], "game": "x"},
        {"wagers": {"pair_plus": {"flush": {"a": [1]}}, "x": 5}, "side_bets": {"b": {"reads": ["x"], "pays": 1}}},
        {"side_bets": {"b": {"reads": "player_hand", "pays": {"pair": {}}, "envy": [], "stake": {}}}},
        {"game": {"options": [{"play": [1]}, {"play": 2}, {}], "blind": []}, "trey": [3]},
    ],
)
def test_a_form_is_made_of_any_data_the_page_sends(sent: dict[str, Any]) -> None:
    made = sections(sent)  # an invalid table's form: its problems are shown at its fields, nothing raises
    assert [s.title for s in made][:4] == ["Game", "Round", "Rules", "Table"]


def test_every_fixed_value_is_a_choice_in_words() -> None:
    fields = {f.path: f for s in sections(load_spec(PAYTABLES / "standard.yaml").canonical()) for f in s.fields}
    ties = fields[("rules", "ties")]
    assert (ties.kind, ties.choices) == (
        "select",
        (("push", "push (Ante and Play returned)"), ("player_wins", "player wins (Ante and Play win)")),
    )
    qualifier = fields[("rules", "dealer_qualifier")]
    assert qualifier.kind == "hand" and qualifier.choices[-1] == ("", "a hand such as Q-6-4…")
    assert ("pair", "a pair or better") in qualifier.choices
    strategy = fields[("wagers", "ante_play", "strategy")]
    assert strategy.kind == "strategy" and strategy.choices[-1] == ("play_at_least", "a hand such as Q-6-4…")
    assert fields[("rules", "ante_bonus_requires_play")].kind == "bool"
    assert (fields[("table", "minimum")].kind, fields[("table", "minimum")].unit) == ("money", "USD")
    assert fields[("wagers", "pair_plus", "flush")].solve == "pair_plus"


def test_the_bet_mix_is_built_in_the_form() -> None:
    """Issue 34 in the workbench: the table's seats, occupancy and each side bet's share and bet are offered as
    additions, and every one of them, added, makes a valid table that describes its bet mix."""
    from trey.paytable.load import load_spec_bytes
    from trey.web.forms import yaml_text

    data = load_spec(PAYTABLES / "standard.yaml").canonical()
    table = next(s for s in sections(data) if s.title == "Table")
    offered = {a.label: a for a in table.additions}
    wanted = ["Seats", "Occupancy", "Bet mix: Pair Plus", "Bet mix: Prime", "Bet mix: Six Card Bonus"]
    assert [label for label in offered if label in wanted] == wanted
    for label in wanted:  # each alone starts a valid bet mix: it gives the seats' average Ante the table lacks
        alone = copy.deepcopy(data)
        _apply(alone, offered[label].sets)
        assert load_spec_bytes(yaml_text(alone).encode(), "mixed.yaml").table.average_bet == 10
    for label in wanted:
        _apply(data, offered[label].sets)
    spec = load_spec_bytes(yaml_text(data).encode(), "mixed.yaml")
    assert (spec.table.seats, spec.table.occupancy) == (7, 1)
    assert [(w, str(share), str(bet)) for w, share, bet in spec.table.side_bet_mix] == [
        ("pair_plus", "1/2", "5"),
        ("prime", "1/2", "5"),
        ("six_card_bonus", "1/2", "5"),
    ]
    again = next(s for s in sections(data) if s.title == "Table")
    assert not [a.label for a in again.additions if a.label in wanted]  # each offered once, until it is there


def _apply(data: dict[str, Any], sets: tuple[tuple[tuple[str | int, ...], Any], ...]) -> None:
    """An addition's values set into the data, as the page's script sets them (workbench.js, setAt)."""
    for path, value in sets:
        here = data
        for key in path[:-1]:
            here = here.setdefault(key, {})
        here[path[-1]] = copy.deepcopy(value)
