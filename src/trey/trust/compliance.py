"""Compliance profiles and the checks a certificate is issued against.

A profile is a small YAML file (schemas/profile.schema.json) naming the checks to run, and optionally the paytables
a jurisdiction approves per wager and a minimum RTP per wager; ``generic``, ``rng-85`` and ``example-approved`` ship
inside the package, and any profile file can be given by its path (read and validated like a paytable, every
problem located). Each check gives PASS or FAIL per wager with the figure it looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from importlib import resources
from typing import Any

from trey.core.codes import Code
from trey.core.errors import TreyError
from trey.core.numbers import fraction_text, percent_text
from trey.engine.family import FamilyAnalysis
from trey.engine.results import GameAnalysis, WagerAnalysis
from trey.engine.stats import OutcomeRow
from trey.paytable.model import ANTE_PLAY, GameSpec, money_style
from trey.paytable.odds import Odds, net_odds_text
from trey.paytable.pays import Pay
from trey.trust.checks import CHECKS, Judging, ProgressiveBasis, Verdict, checks_schema, judged_rtp, named

__all__ = ["ProgressiveBasis", "Verdict", "judged_rtp"]  # stated in trey.trust.checks, named here as well


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    description: str
    checks: dict[str, Any]
    approved: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # wager id -> approved paytables
    minimum_rtp: dict[str, str] = field(default_factory=dict)  # wager id -> "85%"
    progressive_rtp: ProgressiveBasis = ProgressiveBasis.RESET

    def canonical(self) -> dict[str, Any]:
        data = {"name": self.name, "title": self.title, "description": self.description, "checks": self.checks}
        if self.approved:
            data["approved"] = self.approved
        if self.minimum_rtp:
            data["minimum_rtp"] = self.minimum_rtp
        if self.progressive_rtp is not ProgressiveBasis.RESET:
            data["progressive_rtp"] = str(self.progressive_rtp)
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Profile:
        """From data that follows schemas/profile.schema.json."""
        return cls(
            data["name"],
            data["title"],
            " ".join(data["description"].split()),
            data["checks"],
            data.get("approved", {}),
            data.get("minimum_rtp", {}),
            ProgressiveBasis(data.get("progressive_rtp", ProgressiveBasis.RESET)),
        )


@dataclass(frozen=True)
class Finding:
    check: str  # the profile key
    requirement: str
    wager: str  # the wager's id
    verdict: Verdict
    detail: str


def profile_schema() -> dict[str, Any]:
    """The profile schema, its ``checks`` generated from the registry of checks (:mod:`trey.trust.checks`)."""
    from trey.core.jsonschemas import load_schema, with_parts

    parts = {
        "/properties/checks/properties": checks_schema(),
        "/properties/progressive_rtp/enum": [str(basis) for basis in ProgressiveBasis],
    }
    return with_parts(load_schema("profile"), parts)


def shipped_profiles() -> list[str]:
    folder = resources.files("trey.trust").joinpath("profiles")
    return sorted(p.name.removesuffix(".yaml") for p in folder.iterdir() if p.name.endswith(".yaml"))


def shipped_profile(name: str) -> Profile | None:
    """The profile trey ships under ``name``, or None when it ships none of that name."""
    from trey.core.jsonschemas import validator
    from trey.paytable.yamldoc import parse_yaml

    if name not in shipped_profiles():
        return None
    raw = resources.files("trey.trust").joinpath("profiles", f"{name}.yaml").read_bytes()
    doc = parse_yaml(f"{name}.yaml", raw)  # the same safe reader as paytables: duplicate keys refused
    # Shipped files: a failure here is a bug in trey, not bad input.
    assert not doc.problems, doc.problems
    validator("profile").validate(doc.data)
    return Profile.from_data(doc.data)


def is_shipped(profile: Profile) -> bool:
    """Whether ``profile`` is, content and all, the profile trey ships under its name. Any other is a custom
    profile, which a certificate names as such, with its SHA-256 (:func:`trey.trust.certificate.profile_sha256`)."""
    shipped = shipped_profile(profile.name)
    return shipped is not None and shipped.canonical() == profile.canonical()


def load_profile(name: str) -> Profile:
    """A shipped profile by name, or a profile file by its path; a user error lists what is wrong."""
    shipped = shipped_profile(name)
    if shipped is not None:
        return shipped
    if not name.endswith((".yaml", ".yml")) and "/" not in name:
        raise TreyError(
            f"unknown profile {name!r}", hint="choose one of: " + ", ".join(shipped_profiles()) + ", or a file's path"
        )
    return load_profile_file(name)


def load_profile_file(path: str) -> Profile:
    """A profile file, read and checked like a paytable: every problem located (file:line:column, JSON path)."""
    from trey.core.errors import SpecError
    from trey.core.files import display_name, read_bounded
    from trey.paytable.schema_errors import schema_problems
    from trey.paytable.yamldoc import MAX_FILE_BYTES, PROFILE_FILE, parse_yaml

    name = display_name(path)
    doc = parse_yaml(name, read_bounded(path, limit=MAX_FILE_BYTES, what="a profile file"), PROFILE_FILE)
    refused = {p.path for p in doc.problems}
    found = schema_problems(doc, "profile", profile_schema())  # checks as registered now, not only as shipped
    problems = list(doc.problems) + [p for p in found if p.path not in refused]
    problems.sort(key=lambda p: (p.line or 0, p.column or 0))
    if problems:
        raise SpecError(problems)
    profile = Profile.from_data(doc.data)
    # A file may not pass for a shipped profile: a certificate names a shipped profile by its name alone.
    if profile.name in shipped_profiles() and not is_shipped(profile):
        raise SpecError(
            [
                doc.problem(
                    Code.PROFILE_SHIPPED_NAME,
                    ("name",),
                    f"the profile calls itself {profile.name!r}, the name of a profile trey ships, but it is not "
                    "that profile",
                    "give it a name of its own: a certificate names a custom profile as such, with its SHA-256",
                )
            ]
        )
    return profile


@dataclass(frozen=True)
class Approval:
    """How a wager's paytable stands against a profile's approved list."""

    wager: str
    approved: bool
    index: int | None  # the matching (or, when none matches, the closest) approved table, 1-based
    differences: tuple[str, ...]  # against the closest when none matches


def _rows(spec: GameSpec, wager: str) -> dict[str, str]:
    """Every term of a wager's pays an approved table can be held to, in words: each row, whatever it pays (odds by
    their net pay, an amount, a share of the meter), and an envy bonus (which no approved table states)."""
    money = money_style(spec.table).money
    rows = {name: _pay_words(pay, money) for name, pay in spec.wagers.paytable(wager)}
    if wager != ANTE_PLAY and spec.wagers.side_bet(wager).envy:
        envy = spec.wagers.side_bet(wager).envy
        rows[ENVY] = "pays " + ", ".join(f"{money(amount)} on another bettor's {name}" for name, amount in envy)
    return rows


ENVY = "envy bonus"  # a term of a side bet besides its rows: what it pays on the other bettors' hands


def _pay_words(pay: Pay, money: Callable[[Fraction], str]) -> str:
    return net_odds_text(pay.net) if isinstance(pay, Odds) else pay.words(money)


def approval(spec: GameSpec, profile: Profile, wager: str) -> Approval | None:
    """Which approved table the wager's paytable equals, every term of it (each row by what it pays: odds by the
    net pay, and a row paying an amount or a share of the meter never equals odds; an envy bonus, which no approved
    table states, never matches), or the closest; None when the profile approves nothing for the wager."""
    approved = profile.approved.get(wager)
    if approved is None:
        return None
    mine = _rows(spec, wager)
    best: tuple[int, int, tuple[str, ...]] | None = None
    for index, table in enumerate(approved, 1):
        theirs = {name: net_odds_text(Odds.parse(raw).net) for name, raw in table.items()}
        differences = tuple(
            f"{name}: {mine.get(name, 'no pay')} here, {theirs.get(name, 'no pay' if name != ENVY else 'none')} "
            "approved"
            for name in sorted(set(mine) | set(theirs))
            if mine.get(name) != theirs.get(name)
        )
        if not differences:
            return Approval(wager, True, index, ())
        if best is None or len(differences) < len(best[2]):
            best = (len(differences), index, differences)
    assert best is not None
    return Approval(wager, False, best[1], best[2])


def approval_sentence(found: Approval) -> str:
    if found.approved:
        return f"matches approved table {found.index}"
    return f"matches no approved table; the closest is table {found.index} ({'; '.join(found.differences)})"


# What a wager the profile checks nothing of is given: nothing checked is not a PASS (a profile whose checks are all
# switched off, or whose approved tables and minimum RTPs name other wagers, certifies nothing of it).
UNCHECKED = "checked"
UNCHECKED_REQUIREMENT = "at least one of the profile's checks"
UNCHECKED_DETAIL = "the profile checks nothing of this wager: nothing checked is not a PASS"


def run_checks(profile: Profile, analysis: GameAnalysis, *, per: str = "") -> list[Finding]:
    """Every check the profile names (in the registry's order), then its approved tables and minimum RTPs, for
    each wager; a wager none of them checks FAILS (:data:`UNCHECKED`). ``per``: what the RTPs and house edges are
    per, said after each (a family game's are per Ante)."""
    results: list[Finding] = []
    for wager, result in analysis.wagers.items():
        before = len(results)
        on = Judging(result, analysis, profile.progressive_rtp, per)
        for key, check in CHECKS.items():
            if key not in profile.checks:
                continue
            value = profile.checks[key]
            judged = check.judge(value, on)
            if judged is not None:
                results.append(Finding(key, check.requirement(value), wager, *judged))
        if profile.approved:
            found = approval(analysis.spec, profile, wager)
            results.append(
                Finding(
                    "approved",
                    "paytable on the profile's approved list",
                    wager,
                    Verdict.of(found is not None and found.approved),
                    approval_sentence(found) if found is not None else "the profile approves no table for this wager",
                )
            )
        if wager in profile.minimum_rtp:
            floor = Fraction(profile.minimum_rtp[wager].removesuffix("%")) / 100
            rtp, figure = judged_rtp(result, profile.progressive_rtp)
            results.append(
                Finding(
                    "minimum_rtp",
                    f"RTP at least {profile.minimum_rtp[wager]}",
                    wager,
                    Verdict.of(rtp >= floor),
                    f"RTP {percent_text(rtp)}{per}{named(figure)}",
                )
            )
        if len(results) == before:
            results.append(Finding(UNCHECKED, UNCHECKED_REQUIREMENT, wager, Verdict.FAIL, UNCHECKED_DETAIL))
    return results


def family_wager(family: FamilyAnalysis) -> WagerAnalysis:
    """A family game's Ante & Play as the checks judge a wager (issue 31): its outcomes are its net results per
    Ante (the Ante, the Play, the Blind and the Ante Bonus together), each distinct net win an award whose rarity
    the award check judges; its RTP and house edge are per Ante."""
    outcomes = tuple(
        OutcomeRow(
            f"net {'win' if r.net > 0 else 'result'} of {fraction_text(r.net)} Antes",
            r.net,
            r.combinations,
            family.cycle,
        )
        for r in family.net_results
    )
    return WagerAnalysis(ANTE_PLAY, "Ante & Play", outcomes, family.net_results, family.stats)


FAMILY_PER = " per Ante"


def run_family_checks(profile: Profile, family: FamilyAnalysis) -> list[Finding]:
    """The profile's checks of a family game: Ante & Play judged on its figures per Ante (:func:`family_wager`), the
    odds wording of its Blind's table as of its Ante Bonus's."""
    return run_checks(profile, GameAnalysis(family.spec, {ANTE_PLAY: family_wager(family)}), per=FAMILY_PER)


def judged_figure_sentence(basis: ProgressiveBasis) -> str:
    """Why a progressive's floor and house edge are judged on the figures they are, for the certificate."""
    edge = (
        " The house edge of a progressive is judged on its long-run RTP with the envy of 0 to 6 other bettors, the "
        "worst of them: what the house keeps in the long run, however many bettors share the table."
    )
    return _floor_sentence(basis) + edge


def _floor_sentence(basis: ProgressiveBasis) -> str:
    if basis is ProgressiveBasis.LONG_RUN:
        return (
            "A progressive's RTP floor is judged on its long-run RTP for a lone bettor (the profile says "
            "progressive_rtp: long_run): the meter fed by the increment of every stake and reseeded by the house. "
            "The envy bonus never counts toward a floor: a player alone at the table never receives it."
        )
    return (
        "A progressive's RTP floor is judged on its RTP with the meter at the reset, for a lone bettor: the least "
        "any bettor is offered, whatever the meter shows. The envy bonus never counts toward a floor: a player "
        "alone at the table never receives it."
    )


def finding_checks() -> list[str]:
    """What a finding's ``check`` may be, in the order they run: each registered check, the approved tables, the
    minimum RTPs, and :data:`UNCHECKED` (schemas/validation.schema.json lists them, ``make generated``)."""
    return [*CHECKS, "approved", "minimum_rtp", UNCHECKED]


def profile_findings(profile: Profile, spec: GameSpec) -> list[Finding]:
    """Every finding of the profile for one game (``trey validate --profile``): the checks it names, its approved
    tables and minimum RTPs, as certify runs them (a game of the family's per Ante, :func:`run_family_checks`)."""
    if not spec.is_standard_game:
        from trey.engine.family import analyze_family

        return run_family_checks(profile, analyze_family(spec))
    from trey.engine import analyze

    return run_checks(profile, analyze(spec))


def finding_json(finding: Finding) -> dict[str, str]:
    return {"wager": finding.wager, "check": finding.check, "result": str(finding.verdict), "detail": finding.detail}


def overall(results: list[Finding]) -> Verdict:
    return Verdict.FAIL if any(r.verdict is Verdict.FAIL for r in results) else Verdict.PASS
