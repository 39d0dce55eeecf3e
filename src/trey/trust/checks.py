"""The compliance checks a profile's ``checks:`` may name: the registry :data:`CHECKS`.

Each check states once its profile key, its words and the schema of its value (the profile schema's ``checks``
are generated from this registry, ``make generated``), the requirement it prints, and how it judges one wager.
Adding a check is one function here, registered with :func:`check`, and its tests.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from trey.core.numbers import decimal_text, one_in_text, percent_text
from trey.engine.results import GameAnalysis, WagerAnalysis
from trey.paytable.model import ANTE_PLAY, MAX_OTHER_BETTORS
from trey.paytable.odds import Odds, OddsWording


class Verdict(StrEnum):
    PASS = "PASS"
    FAIL = "FAIL"

    @classmethod
    def of(cls, passed: bool) -> Verdict:
        return cls.PASS if passed else cls.FAIL


class ProgressiveBasis(StrEnum):
    """Which RTP of a progressive a floor judges. Both are a lone bettor's: envy never counts toward a floor."""

    RESET = "reset"  # the RTP with the meter at its reset: the least a bettor can be offered (the default)
    LONG_RUN = "long_run"  # the long-run RTP: the meter fed by the increment and reseeded by the house


@dataclass(frozen=True)
class Judging:
    """What a check judges: one wager's analysis, within the game's, under the profile's basis for progressives."""

    result: WagerAnalysis
    analysis: GameAnalysis
    basis: ProgressiveBasis
    per: str = ""  # what the RTP and the house edge are per, said after them ("" for a standard game's wagers)


Judge = Callable[[Any, Judging], "tuple[Verdict, str] | None"]  # None: the check does not run for this value


@dataclass(frozen=True)
class Check:
    key: str  # as the profile names it under checks:
    title: str
    description: str  # what the value means (the profile schema's description)
    schema: dict[str, Any]  # the JSON Schema of the value
    requirement: Callable[[Any], str]  # the requirement as the certificate prints it, for the profile's value
    judge: Judge


CHECKS: dict[str, Check] = {}


def check(
    key: str, title: str, description: str, schema: dict[str, Any], requirement: Callable[[Any], str]
) -> Callable[[Judge], Judge]:
    """Register the decorated judge as the check ``key``; checks run in the order they are registered."""

    def register(judge: Judge) -> Judge:
        if key in CHECKS:
            raise ValueError(f"a check named {key!r} is already registered")
        CHECKS[key] = Check(key, title, description, schema, requirement, judge)
        return judge

    return register


def checks_schema() -> dict[str, Any]:
    """The profile schema's ``checks`` properties, one per registered check."""
    return {c.key: {"title": c.title, "description": c.description, **c.schema} for c in CHECKS.values()}


def judged_rtp(result: WagerAnalysis, basis: ProgressiveBasis, bettors: int = 0) -> tuple[Fraction, str | None]:
    """The RTP a check judges, and for a progressive the words that name it: the wager's RTP, or a progressive's
    at the reset or in the long run (``basis``), for a lone bettor or with ``bettors`` other bettors' envy."""
    p = result.progressive
    if p is None:
        return result.stats.rtp, None
    who = "a lone bettor" if bettors == 0 else f"{bettors} other bettors' envy included"
    if basis is ProgressiveBasis.LONG_RUN:
        return p.long_run_rtp_of(bettors), f"long run, {who}"
    return p.rtp_at(p.reset, bettors), f"at the reset, {who}"


def named(figure: str | None) -> str:
    return f" ({figure})" if figure is not None else ""


@check(
    "odds_wording",
    "Odds wording",
    "'to': every paytable row must be worded 'N to M' (the 'for' wording fails).",
    {"const": "to"},
    lambda wording: f"odds worded '{wording}', never '{_other(OddsWording(wording))}'",
)
def _odds_wording(wording: str, on: Judging) -> tuple[Verdict, str]:
    required = OddsWording(wording)
    spec = on.analysis.spec
    rows = list(spec.wagers.paytable(on.result.wager))
    if on.result.wager == ANTE_PLAY and spec.game.blind is not None:  # a family game's Blind is Ante & Play's too
        rows += [(f"Blind {name}", pay) for name, pay in spec.game.blind]
    other = [
        f"{name.replace('_', ' ')} '{pay}'"
        for name, pay in rows
        if isinstance(pay, Odds) and pay.wording is not required
    ]
    if other:
        return Verdict.FAIL, f"'{_other(required)}' wording: " + ", ".join(other)
    return Verdict.PASS, f"every row worded '{required}'"


def _other(wording: OddsWording) -> OddsWording:
    return OddsWording.FOR if wording is OddsWording.TO else OddsWording.TO


@check(
    "rarest_award_one_in_at_most",
    "Rarest award",
    "Every paying outcome must happen at least once in this many rounds (GLI-11 §4.8.2: 100,000,000).",
    {"type": "integer", "minimum": 1},
    lambda limit: f"every award at least 1 in {int(limit):,}",
)
def _rarest_award(limit: int, on: Judging) -> tuple[Verdict, str]:
    rarest = on.result.rarest_win
    if rarest is None:
        return Verdict.PASS, "no award"
    assert rarest.one_in is not None
    detail = f"rarest award {rarest.outcome.replace('_', ' ')}: {one_in_text(rarest.one_in)}"
    return Verdict.of(rarest.one_in <= int(limit)), detail


@check(
    "house_edge_positive",
    "Positive house edge",
    "true: a wager whose house edge is zero or negative (player-favourable) fails.",
    {"type": "boolean"},
    lambda _: "house edge above zero",
)
def _house_edge_positive(wanted: bool, on: Judging) -> tuple[Verdict, str] | None:
    if not wanted:
        return None
    # What the house keeps of a progressive is its long-run edge, and its envy bonus pays each bettor for the other
    # seats' hands: the edge must stay positive on the worst row of the envy table (0-6 others).
    worst, worst_figure = max(
        (judged_rtp(on.result, ProgressiveBasis.LONG_RUN, bettors=k) for k in range(MAX_OTHER_BETTORS + 1)),
        key=lambda judged: judged[0],
    )
    edge = 1 - worst
    detail = f"house edge {percent_text(edge)}{on.per}{named(worst_figure)}" + (
        "" if edge > 0 else " (player-favourable)"
    )
    return Verdict.of(edge > 0), detail


@check(
    "rtp_floor_percent",
    "RTP floor",
    "The least return to player, in percent, every wager must reach.",
    {"type": "integer", "minimum": 0, "maximum": 100},
    lambda floor: f"RTP at least {decimal_text(Fraction(int(floor)), 0)}%",
)
def _rtp_floor(floor: int, on: Judging) -> tuple[Verdict, str]:
    rtp, figure = judged_rtp(on.result, on.basis)
    return Verdict.of(rtp >= Fraction(int(floor), 100)), f"RTP {percent_text(rtp)}{on.per}{named(figure)}"
