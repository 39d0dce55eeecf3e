"""The workbench's form (trey.web.forms): made from whatever the page sends back, a valid table or not."""

from __future__ import annotations

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
