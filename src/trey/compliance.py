"""Compliance profiles and the checks a certificate is issued against.

A profile is a small YAML file (schemas/profile.schema.json) naming the checks to run; ``generic`` and ``rng-85``
ship inside the package. Each check gives PASS or FAIL per wager with the figure it looked at.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from importlib import resources
from typing import Any

from trey.engine.results import GameAnalysis
from trey.errors import TreyError
from trey.numbers import decimal_text, one_in_text, percent_text
from trey.odds import Odds, OddsWording


class Verdict(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    description: str
    checks: dict[str, Any]

    def canonical(self) -> dict[str, Any]:
        return {"name": self.name, "title": self.title, "description": self.description, "checks": self.checks}


@dataclass(frozen=True)
class Finding:
    check: str  # the profile key
    requirement: str
    wager: str  # the wager's id
    verdict: Verdict
    detail: str


def shipped_profiles() -> list[str]:
    folder = resources.files("trey").joinpath("profiles")
    return sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml"))


def load_profile(name: str) -> Profile:
    """A shipped profile by name; an unknown name is a user error listing the known ones."""
    from trey.jsonschemas import validator
    from trey.yamldoc import parse_yaml

    if name not in shipped_profiles():
        raise TreyError(f"unknown profile {name!r}", hint="choose one of: " + ", ".join(shipped_profiles()))
    raw = resources.files("trey").joinpath("profiles", f"{name}.yaml").read_bytes()
    doc = parse_yaml(f"{name}.yaml", raw)  # the same safe reader as paytables: duplicate keys refused
    data = doc.data
    # Shipped files: a failure here is a bug in trey, not bad input.
    assert not doc.problems, doc.problems
    validator("profile").validate(data)
    return Profile(data["name"], data["title"], " ".join(data["description"].split()), data["checks"])


def run_checks(profile: Profile, analysis: GameAnalysis) -> list[Finding]:
    checks = profile.checks
    results: list[Finding] = []
    for wager, result in analysis.wagers.items():
        if "odds_wording" in checks:
            worded_for = [
                f"{name.replace('_', ' ')} '{pay}'"
                for name, pay in analysis.spec.wagers.paytable(wager)
                if isinstance(pay, Odds) and pay.wording is OddsWording.FOR
            ]
            results.append(
                Finding(
                    "odds_wording",
                    "odds worded 'to', never 'for'",
                    wager,
                    Verdict.FAIL if worded_for else Verdict.PASS,
                    ("'for' wording: " + ", ".join(worded_for)) if worded_for else "every row worded 'to'",
                )
            )
        if "rarest_award_one_in_at_most" in checks:
            limit = int(checks["rarest_award_one_in_at_most"])
            rarest = result.rarest_win
            if rarest is None:
                verdict, detail = Verdict.PASS, "no award"
            else:
                assert rarest.one_in is not None
                verdict = Verdict.PASS if rarest.one_in <= limit else Verdict.FAIL
                detail = f"rarest award {rarest.outcome.replace('_', ' ')}: {one_in_text(rarest.one_in)}"
            results.append(
                Finding(
                    "rarest_award_one_in_at_most",
                    f"every award at least 1 in {limit:,}",
                    wager,
                    verdict,
                    detail,
                )
            )
        # A progressive is judged on its long-run RTP (the meter fed by its increment, reseeded by the house).
        long_run = "long-run " if result.progressive is not None else ""
        if checks.get("house_edge_positive"):
            edge = 1 - result.judged_rtp
            results.append(
                Finding(
                    "house_edge_positive",
                    "house edge above zero",
                    wager,
                    Verdict.PASS if edge > 0 else Verdict.FAIL,
                    f"{long_run}house edge {percent_text(edge)}" + ("" if edge > 0 else " (player-favourable)"),
                )
            )
        if "rtp_floor_percent" in checks:
            floor = Fraction(int(checks["rtp_floor_percent"]), 100)
            rtp = result.judged_rtp
            results.append(
                Finding(
                    "rtp_floor_percent",
                    f"RTP at least {decimal_text(floor * 100, 0)}%",
                    wager,
                    Verdict.PASS if rtp >= floor else Verdict.FAIL,
                    f"{long_run}RTP {percent_text(rtp)}",
                )
            )
    return results


def overall(results: list[Finding]) -> Verdict:
    return Verdict.FAIL if any(r.verdict is Verdict.FAIL for r in results) else Verdict.PASS
