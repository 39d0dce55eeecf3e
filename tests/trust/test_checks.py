"""Compliance checks are a registry: each states its key, words, value schema and judge once; a profile runs the
ones it names in the registry's order, and a check added to the registry is run and in the profile schema."""

from __future__ import annotations

from pathlib import Path

import pytest

from trey.engine import analyze
from trey.paytable.load import load_spec
from trey.trust.checks import CHECKS, Check, Judging, Verdict, checks_schema
from trey.trust.compliance import Profile, load_profile, profile_schema, run_checks

REPO = Path(__file__).resolve().parents[2]
ANALYSIS = analyze(load_spec(REPO / "paytables" / "standard.yaml"))


def test_the_profile_schema_lists_the_registered_checks_in_order() -> None:
    assert (
        list(profile_schema()["properties"]["checks"]["properties"])
        == list(CHECKS)
        == [
            "odds_wording",
            "rarest_award_one_in_at_most",
            "house_edge_positive",
            "rtp_floor_percent",
        ]
    )


def test_a_profile_runs_the_checks_it_names_for_every_wager() -> None:
    findings = run_checks(load_profile("generic"), ANALYSIS)
    assert [(f.wager, f.check) for f in findings][:3] == [
        ("ante_play", "odds_wording"),
        ("ante_play", "rarest_award_one_in_at_most"),
        ("ante_play", "house_edge_positive"),
    ]
    assert {f.requirement for f in findings} == {
        "odds worded 'to', never 'for'",
        "every award at least 1 in 100,000,000",
        "house edge above zero",
    }


def test_a_check_added_to_the_registry_is_run_and_in_the_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    def at_most(limit: int, on: Judging) -> tuple[Verdict, str]:
        edge = on.result.stats.house_edge
        return Verdict.of(edge * 100 <= limit), f"house edge {float(edge * 100):.2f}%"

    added = Check(
        "house_edge_at_most_percent",
        "Largest house edge",
        "The house edge, in percent, no wager may exceed.",
        {"type": "integer", "minimum": 0},
        lambda limit: f"house edge at most {limit}%",
        at_most,
    )
    monkeypatch.setitem(CHECKS, added.key, added)
    assert checks_schema()["house_edge_at_most_percent"]["title"] == "Largest house edge"
    profile = Profile("strict", "Strict", "A test profile.", {"house_edge_at_most_percent": 4})
    found = [(f.wager, f.requirement, f.verdict, f.detail) for f in run_checks(profile, ANALYSIS)]
    assert found == [
        ("ante_play", "house edge at most 4%", Verdict.PASS, "house edge 3.37%"),
        ("pair_plus", "house edge at most 4%", Verdict.FAIL, "house edge 7.28%"),
        ("prime", "house edge at most 4%", Verdict.PASS, "house edge 3.62%"),
        ("six_card_bonus", "house edge at most 4%", Verdict.FAIL, "house edge 8.56%"),
    ]
