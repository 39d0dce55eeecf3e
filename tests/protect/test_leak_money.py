"""Leaks in money: each scenario's cost per hour and the hours until it shows; Jacobson's N0 of one seen card."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from conftest import run_cli, standard_protection
from trey.core.jsonschemas import validator
from trey.protect.money import leak_costs

REPO = Path(__file__).resolve().parents[2]


def test_one_seen_card_costs_and_shows_after_jacobsons_n0() -> None:
    protection = standard_protection()
    costs = {c.scenario: c for c in leak_costs(protection, Fraction(25), 60)}
    one = costs["one dealer card"]
    play = next(p for p in protection.scenarios if p.scenario == "one dealer card")
    assert one.cost_per_hour == play.gain * 25 * 60
    assert one.player_edge == play.stats.mean > 0
    # Jacobson: edge +3.4829%, SD 1.7417, "about 2,501 hands" (docs/published-figures.md).
    assert one.n0_rounds is not None and round(one.n0_rounds) == 2501
    assert one.hours_to_show is not None and abs(one.hours_to_show - 2501 / 60) < 0.01


def test_trey_protect_average_ante_json() -> None:
    run = run_cli(
        "protect",
        str(REPO / "paytables" / "standard.yaml"),
        "--no-two-cards",
        "--format",
        "json",
        "--average-ante",
        "25",
    )
    assert run.exit_code == 0
    data = json.loads(run.stdout)
    validator("protection").validate(data)
    leaks = {leak["scenario"]: leak for leak in data["leaks_in_money"]["leaks"]}
    assert round(leaks["one dealer card"]["n0_rounds"]) == 2501
