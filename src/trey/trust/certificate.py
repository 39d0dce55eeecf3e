"""Certificates: the evaluation of one paytable as canonical data, its content-derived ID, and its verification.

The certificate JSON carries everything needed to recompute it: the canonical paytable, the profile, the date,
the options. Its ID is the first 12 hex digits of the SHA-256 of the canonical serialisation of everything else,
so any change to a figure, a pay or the ID itself is detected by :func:`verify_certificate`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from trey.core.errors import SpecError, TreyError, VerificationError, json_path
from trey.core.files import display_name, read_bounded
from trey.core.text import VERSION, printable
from trey.core.version import __version__
from trey.engine import GameAnalysis, analyze
from trey.figures.export import analysis_json
from trey.paytable.load import check_data, load_spec_bytes, read_file
from trey.paytable.model import GameSpec, refuse_other_games
from trey.play.simulate import (
    MAX_ROUNDS,
    TESTABLE_EXPECTED,
    SimulationResult,
    rounds_to_test,
    simulate,
    simulation_json,
)
from trey.trust.compliance import (
    Finding,
    Profile,
    Verdict,
    is_shipped,
    load_profile,
    overall,
    run_checks,
    shipped_profile,
    shipped_profiles,
)
from trey.trust.signing import SignatureCheck, SignatureStatus, Signer, TrustedKey, check_signature, unsigned_block

if TYPE_CHECKING:
    from trey.engine.family import FamilyAnalysis
    from trey.engine.money import TableMoney
    from trey.figures.family_par import FamilyPar
    from trey.protect.protection import Protection

REVISION = 1
ID_DIGITS = 12
# The layout of the certificate JSON. Verification recomputes every figure with the running trey and accepts a
# certificate issued by an earlier version when every figure agrees (the version that issued it is stated, never
# compared); a certificate of a newer format than this trey reads is refused before anything else.
CERTIFICATE_FORMAT = 2
# Format 3 is format 2 with a "protection" section (certify --protection); a certificate without one is still
# written as format 2, so that trey 0.3 verifies it.
PROTECTION_FORMAT = 3
# Format 4 is the certificate of a game of the Three Card Poker family other than the standard one (issue 31): its
# analysis is the family's (analysis.game, the figures each named for what they are per), with the PAR tables of
# its round (outcomes). A standard game's certificate is still written as format 2 or 3.
FAMILY_FORMAT = 4
READ_FORMATS = (CERTIFICATE_FORMAT, PROTECTION_FORMAT, FAMILY_FORMAT)
# What changed since each earlier format, for the message that refuses it.
FORMAT_CHANGES = {
    1: "format 2 names every progressive figure for what it is (rtp_at_reset and long_run_rtp for a lone bettor, "
    "..._with_envy with the assumed bettors) and judges a floor on the RTP at the reset: verify it with the trey "
    "that issued it, or certify the paytable again",
}


@dataclass(frozen=True)
class SimulationOptions:
    rounds: int
    seed: int
    workers: int = 1  # a speed setting: results, and so the certificate, do not depend on it
    scheduler: str | None = None  # a Dask scheduler to run the chunks on instead (trey.core.runner): the same
    recheck: int = 0  # chunks a scheduler at an address dealt, dealt again here at random and compared


@dataclass(frozen=True)
class Certificate:
    """A certificate's data (``data``, JSON-ready) and the typed objects it was made from, for rendering."""

    data: dict[str, Any]
    spec: GameSpec
    analysis: GameAnalysis
    profile: Profile
    checks: list[Finding]
    simulation: SimulationResult | None
    issued_by: str = __version__  # the trey that issued it (verification: the stored certificate's)
    signature: SignatureCheck | None = None  # set by verification
    protection: Protection | None = None  # certify --protection
    family: FamilyAnalysis | None = None  # a game of the family other than the standard one (then ``analysis``
    # holds its side bets: none yet)
    par: FamilyPar | None = None  # its PAR tables
    money: TableMoney | None = None  # the table's money, when the paytable's table: describes a bet mix

    @property
    def certificate_id(self) -> str:
        return str(self.data["certificate_id"])

    @property
    def profile_label(self) -> str:
        """How the certificate names its profile: ``generic profile``, or a custom profile with its SHA-256."""
        return profile_label(self.profile)


def canonical_bytes(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def profile_sha256(profile: Profile) -> str:
    """The SHA-256 of a profile's canonical JSON (as a certificate's ``profile`` holds it): what names a custom
    profile on the certificate, recomputed by verification."""
    return hashlib.sha256(canonical_bytes(profile.canonical())).hexdigest()


def profile_label(profile: Profile) -> str:
    """``generic profile`` for a profile trey ships; ``custom profile NAME, SHA-256 HEX`` for any other."""
    if is_shipped(profile):
        return f"{profile.name} profile"
    return f"custom profile {profile.name}, SHA-256 {profile_sha256(profile)}"


def content_id(data: dict[str, Any]) -> str:
    """The ID of a certificate: a hash of all its content but the ID and the signature (signed or not, the same
    certificate has the same ID)."""
    content = {k: v for k, v in data.items() if k not in ("certificate_id", "signature")}
    return hashlib.sha256(canonical_bytes(content)).hexdigest()[:ID_DIGITS]


def signed_bytes(data: dict[str, Any], block: dict[str, str]) -> bytes:
    """What a signature covers: the canonical JSON of the certificate (the ID included) with the signature block
    but its value, so that the signer's name, key and algorithm it states are covered too."""
    return canonical_bytes({**{k: v for k, v in data.items() if k != "signature"}, "signature": block})


def check_json(check: Finding) -> dict[str, str]:
    return {
        "check": check.check,
        "requirement": check.requirement,
        "wager": str(check.wager),
        "result": str(check.verdict),
        "detail": check.detail,
    }


def build_certificate(
    spec: GameSpec,
    *,
    file_name: str,
    file_size: int,
    issue_date: date,
    profile_name: str | Profile = "generic",
    simulation: SimulationOptions | None = None,
    paper: str = "a4",
    signer: Signer | None = None,
    protection: bool = False,
    untestable_refused: bool = True,
) -> Certificate:
    """The certificate's data and what it was computed from; with ``protection``, its game protection section
    (the exact figures of one seen dealer card and of the built-in card classes: about 1.5 s more). A simulation
    too small to test every wager is refused before it is dealt (``untestable_refused``; verification, which
    re-runs a certificate's simulation as it was issued, reports it instead)."""
    profile = profile_name if isinstance(profile_name, Profile) else load_profile(profile_name)
    if not spec.is_standard_game:
        return _family_certificate(
            spec,
            file_name=file_name,
            file_size=file_size,
            issue_date=issue_date,
            profile=profile,
            simulation=simulation,
            paper=paper,
            signer=signer,
            protection=protection,
        )
    analysis = analyze(spec)
    checks = run_checks(profile, analysis)
    simulated = None
    if simulation is not None and untestable_refused and simulation.rounds < (needed := rounds_to_test(analysis)):
        raise TreyError(
            f"a simulation of {simulation.rounds:,} rounds is too few to test every wager of this game",
            hint=f"--simulate {needed:,} or more: a wager is tested when two of its outcomes are expected "
            f"{TESTABLE_EXPECTED} times or more",
        )
    if simulation is not None:
        simulated = simulate(
            spec,
            simulation.rounds,
            simulation.seed,
            workers=simulation.workers,
            scheduler=simulation.scheduler,
            analysis=analysis,
            recheck=simulation.recheck,
        )
    verdicts = [overall(checks)]
    data = _head(
        spec,
        certificate_format=PROTECTION_FORMAT if protection else CERTIFICATE_FORMAT,
        file_name=file_name,
        file_size=file_size,
        issue_date=issue_date,
        paper=paper,
        profile=profile,
    )
    data["analysis"] = analysis_json(analysis)
    money = None
    if spec.table is not None and spec.table.has_mix:
        # The table's money, as `trey analyze --format json` gives it (verified as every figure of the certificate)
        from trey.engine.money import table_money_json
        from trey.play.table import money_of_table

        found = money_of_table(spec, analysis, None)
        if found is not None:
            money = found[0]
            data["analysis"]["table_money"] = table_money_json(found[0]) | {"from": found[1].source_json()}
    data["checks"] = [check_json(c) for c in checks]
    data["simulation"] = None
    if simulated is not None:
        sim = simulation_json(simulated, spec)
        data["simulation"] = {k: sim[k] for k in ("rounds", "seed", "generator", "passed", "wagers")}
        verdicts.append(Verdict.of(simulated.passed))
    guarded = None
    if protection:
        from trey.protect.protection import certified_protection_json, protect

        guarded = protect(spec, two=False, analysis=analysis)
        data["protection"] = certified_protection_json(guarded)
    _seal(data, verdicts, signer)
    return Certificate(data, spec, analysis, profile, checks, simulated, protection=guarded, money=money)


def _seal(data: dict[str, Any], verdicts: list[Verdict], signer: Signer | None) -> None:
    """The overall verdict, the certificate ID and the signature, last."""
    data["overall"] = str(Verdict.FAIL if Verdict.FAIL in verdicts else Verdict.PASS)
    data["certificate_id"] = content_id(data)
    if signer is not None:
        block = unsigned_block(signer)
        data["signature"] = {**block, "value": base64.b64encode(signer.sign(signed_bytes(data, block))).decode()}


def _head(
    spec: GameSpec,
    *,
    certificate_format: int,
    file_name: str,
    file_size: int,
    issue_date: date,
    paper: str,
    profile: Profile,
) -> dict[str, Any]:
    return {
        "certificate_id": "",
        "certificate_format": certificate_format,
        "revision": REVISION,
        "issue_date": issue_date.isoformat(),
        "trey_version": __version__,
        "paper": paper,
        "profile": profile.canonical(),
        # A custom profile is named as such, with its hash; a shipped profile's certificate has no such key.
        **({} if is_shipped(profile) else {"profile_sha256": profile_sha256(profile)}),
        "paytable": {
            "file": file_name,
            "size": file_size,
            "sha256": spec.sha256,
            "canonical": spec.canonical(),
        },
    }


def refuse_what_a_family_certificate_lacks(spec: GameSpec, *, protection: bool, where: str) -> None:
    """A family game's certificate has no side bets yet: refused, located at ``where`` (the file as the user named
    it), rather than certified without them. (Its game protection section is made: ``protection`` is kept for the
    callers.)"""
    del protection
    if spec.is_standard_game:
        return
    if spec.wagers.side_bets:
        hint = "certify the side bets beside the standard game"
        refuse_other_games(spec, "trey certify of side bets", where, hint=hint)


def _family_certificate(
    spec: GameSpec,
    *,
    file_name: str,
    file_size: int,
    issue_date: date,
    profile: Profile,
    simulation: SimulationOptions | None,
    paper: str,
    signer: Signer | None,
    protection: bool,
) -> Certificate:
    """The certificate of a game of the family other than the standard one (format 4): its round counted by
    :func:`~trey.engine.family.analyze_family`, its PAR tables, the profile's checks of it per Ante."""
    from trey.engine.family import analyze_family
    from trey.figures.family import family_analysis_json
    from trey.figures.family_par import family_par, family_par_json
    from trey.trust.compliance import run_family_checks

    refuse_what_a_family_certificate_lacks(spec, protection=protection, where=file_name)
    family = analyze_family(spec)
    par = family_par(family)
    checks = run_family_checks(profile, family)
    data = _head(
        spec,
        certificate_format=FAMILY_FORMAT,
        file_name=file_name,
        file_size=file_size,
        issue_date=issue_date,
        paper=paper,
        profile=profile,
    )
    data["analysis"] = family_analysis_json(family)
    data["outcomes"] = family_par_json(par)
    data["checks"] = [check_json(c) for c in checks]
    data["simulation"] = None
    verdicts = [overall(checks)]
    simulated = None
    if simulation is not None:  # play/simulate deals the family's rounds (its analysis is its own)
        simulated = simulate(
            spec,
            simulation.rounds,
            simulation.seed,
            workers=simulation.workers,
            scheduler=simulation.scheduler,
            recheck=simulation.recheck,
        )
        sim = simulation_json(simulated, spec)
        data["simulation"] = {k: sim[k] for k in ("rounds", "seed", "generator", "passed", "wagers")}
        verdicts.append(Verdict.of(simulated.passed))
    if protection:  # the exact scenarios of trey protect (a hole card beyond the face-up one, its rank, classes)
        from trey.protect.family import certified_family_protection_json, protect_family

        data["protection"] = certified_family_protection_json(protect_family(spec, analysis=family))
    _seal(data, verdicts, signer)
    return Certificate(data, spec, GameAnalysis(spec, {}), profile, checks, simulated, family=family, par=par)


# Figures a wager's analysis gained without a change of format, each derived from what the certificate carried
# already (the range of the realised RTP from the variance, the outcomes by hand and the dealer's qualifying from
# the counting): a certificate issued before they were added lacks them and is compared without them; one that
# has them must agree with the fresh computation like every other field.
ADDED_FIELDS = frozenset({"rtp_range", "by_hand", "dealer_qualifies", "risk"})
ADDED_FIELDS_AT = re.compile(r"\$\.analysis\.wagers\.[a-z][a-z0-9_]*")  # in a wager's analysis, and nowhere else


# Fields a certificate issued earlier may carry and the fresh computation no longer writes, where: the informed
# strategy chart's played_below, 0 by construction (its schema admits 0 only), so that dropping it loses nothing.
REMOVED_FIELDS = frozenset({"played_below"})
REMOVED_FIELDS_AT = re.compile(r"\$\.protection\.scenarios\[[0-9]+\]\.chart\[[0-9]+\]")


def _absent_as_issued(stored: dict[str, Any], key: str, path: str) -> bool:
    """A field the fresh computation has and a certificate issued before it existed lacks."""
    return key not in stored and key in ADDED_FIELDS and ADDED_FIELDS_AT.fullmatch(path) is not None


def _removed_since_issued(fresh: dict[str, Any], key: str, path: str) -> bool:
    """A field a certificate issued earlier has and the fresh computation no longer writes."""
    return key not in fresh and key in REMOVED_FIELDS and REMOVED_FIELDS_AT.fullmatch(path) is not None


def _differences(stored: Any, fresh: Any, path: str) -> list[str]:
    """The JSON paths where a stored certificate and a fresh computation differ; the version of trey that wrote
    each is not a figure and is never compared, nor are the fields of :data:`ADDED_FIELDS` a certificate issued
    before them lacks, nor those of :data:`REMOVED_FIELDS` it still has."""
    if isinstance(stored, dict) and isinstance(fresh, dict):
        diffs = []
        for key in sorted((set(stored) | set(fresh)) - {"trey_version"}, key=str):
            if _absent_as_issued(stored, key, path) or _removed_since_issued(fresh, key, path):
                continue
            if key not in stored or key not in fresh:
                diffs.append(f"{path}.{key}")
            else:
                diffs.extend(_differences(stored[key], fresh[key], f"{path}.{key}"))
        return diffs
    if isinstance(stored, list) and isinstance(fresh, list) and len(stored) == len(fresh):
        return [
            d for i, (a, b) in enumerate(zip(stored, fresh, strict=True)) for d in _differences(a, b, f"{path}[{i}]")
        ]
    return [] if stored == fresh and type(stored) is type(fresh) else [path]


MAX_CERTIFICATE_BYTES = 16 * 1024 * 1024
# What a certificate holds at most, checked before its schema (whose validator's work grows with every item): a
# certificate of Ante & Play, the presets, 16 side bets of the file's own, a simulation and game protection holds some
# 20,000 values, no list or object of more than a few hundred entries, no text longer than a paytable's description.
MAX_VALUES = 100_000
MAX_ENTRIES = 2_000
MAX_TEXT = 10_000
# Verification re-runs the certificate's simulation; the certificate must not choose how long that takes. Larger
# simulations are verified only when the user allows them with --allow-rounds.
VERIFY_ROUNDS_LIMIT = 100_000_000
# Verification on a Dask cluster: the cluster chooses the counts it hands back (trey.core.runner), so this many of
# its chunks, chosen at random, are dealt again on the verifier's machine and must be the same.
VERIFY_RECHECK = 3
EARLIEST_DATE = date(1980, 1, 1)  # PDF and font timestamps are written for these years
LATEST_DATE = date(2099, 12, 31)


def checked_date(day: date, what: str = "the issue date") -> date:
    if not EARLIEST_DATE <= day <= LATEST_DATE:
        raise TreyError(
            f"{what} {day.isoformat()} is outside the years trey dates documents",
            hint=f"give a date from {EARLIEST_DATE.isoformat()} to {LATEST_DATE.isoformat()}",
        )
    return day


def _refused(path: Path, message: str, field: str | None = None, *, hint: str) -> VerificationError:
    return VerificationError(f"{display_name(path)}: {message}", fields=[field] if field else [], hint=hint)


def read_certificate(path: Path) -> dict[str, Any]:
    """A certificate file's data after the cheap checks (see :func:`parse_certificate`)."""
    return parse_certificate(read_bounded(path, limit=MAX_CERTIFICATE_BYTES, what="a certificate's .json file"), path)


def parse_certificate(raw: bytes, path: Path) -> dict[str, Any]:
    """A certificate's data after the cheap checks: strict JSON (no duplicate keys), the format, the schema, the
    date. Nothing here recomputes anything: a forged or hostile file is refused before it can cost time."""
    from trey.core.jsonread import JsonInputError, loads_strict, oversized
    from trey.core.jsonschemas import error_message, validator

    containers = raw.count(b"{") + raw.count(b"[")  # each a Python object once parsed: counted before
    if containers > MAX_VALUES:
        raise _refused(
            path,
            f"not a valid certificate: {containers:,} objects and lists, more than the {MAX_VALUES:,} values a "
            "certificate holds",
            hint=_JSON_HINT,
        )
    try:
        data = loads_strict(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise _refused(path, f"not a certificate: not UTF-8 at byte {exc.start}", hint=_JSON_HINT) from None
    except JsonInputError as exc:
        field = json_path(exc.path) if exc.path is not None else None
        raise _refused(path, f"not a certificate: {exc}", field, hint=_JSON_HINT) from None
    found = data.get("certificate_format") if isinstance(data, dict) else None
    if isinstance(found, int) and not isinstance(found, bool) and found not in READ_FORMATS:
        issued = data.get("trey_version")
        named = f"trey {issued}" if isinstance(issued, str) and VERSION.fullmatch(issued) else "an unnamed trey"
        raise _refused(
            path,
            f"the certificate is of format {found} (written by {named}); this trey "
            f"{__version__} reads formats {CERTIFICATE_FORMAT}, {PROTECTION_FORMAT} and {FAMILY_FORMAT}",
            "$.certificate_format",
            hint="verify it with the trey that issued it, or a newer one"
            if found > FAMILY_FORMAT
            else FORMAT_CHANGES.get(found, "verify it with the trey that issued it"),
        )
    excess = oversized(data, values=MAX_VALUES, entries=MAX_ENTRIES, text=MAX_TEXT)
    if excess is not None:  # before the schema validator, whose work grows with every item
        where = json_path(excess[0])
        raise _refused(
            path,
            f"not a valid certificate: {where}: {excess[1]}",
            where,
            hint="a certificate trey writes is far smaller: give the .certificate.json that trey certify wrote",
        )
    errors = sorted(validator("certificate").iter_errors(data), key=lambda e: (list(map(str, e.absolute_path)), str(e)))
    if errors:
        first = errors[0]
        where = json_path(tuple(first.absolute_path))
        raise _refused(
            path,
            f"not a valid certificate: {where}: {error_message(first)}",
            where,
            hint="the file does not follow schemas/certificate.schema.json",
        )
    try:
        checked_date(date.fromisoformat(data["issue_date"]))
    except ValueError:
        raise _refused(
            path,
            f"not a valid certificate: $.issue_date: {data['issue_date']!r} is not a date",
            "$.issue_date",
            hint="dates are written YYYY-MM-DD",
        ) from None
    except TreyError as exc:
        raise _refused(
            path, f"not a valid certificate: $.issue_date: {exc.message}", "$.issue_date", hint=exc.hint or ""
        ) from None
    result: dict[str, Any] = data
    return result


_JSON_HINT = "give the .certificate.json file that trey certify wrote"


def _paytable_problems(recorded: dict[str, Any], paytable: tuple[str, bytes], canonical: dict[str, Any]) -> list[str]:
    """How a paytable file (name, bytes: given with --paytable, or embedded in a PDF) differs from the paytable the
    certificate was computed from.

    The certificate's own hash fields are claims: the file is parsed and its canonical content compared with the
    canonical paytable inside the certificate, which is what every figure is recomputed from."""
    name, raw = paytable
    given = load_spec_bytes(raw, name)
    problems = []
    if canonical_bytes(given.canonical()) != canonical_bytes(canonical):
        problems.append(
            "paytable.canonical (the file given with --paytable describes another game than the certificate)"
        )
    if hashlib.sha256(raw).hexdigest() != recorded["sha256"]:
        problems.append("paytable.sha256 (the file given with --paytable has another SHA-256)")
    if len(raw) != recorded["size"]:
        problems.append("paytable.size (the file given with --paytable has another size)")
    return problems


def verify_certificate(
    path: Path,
    paytable: Path | None = None,
    *,
    allow_rounds: int = VERIFY_ROUNDS_LIMIT,
    workers: int = 1,
    scheduler: str | None = None,
    trusted: list[TrustedKey] | None = None,
) -> Certificate:
    """Verify a certificate's .json file (see :func:`verify_certificate_data`)."""
    given = (display_name(paytable), read_file(paytable)) if paytable is not None else None
    return verify_certificate_data(
        read_certificate(path),
        path,
        given,
        allow_rounds=allow_rounds,
        workers=workers,
        scheduler=scheduler,
        trusted=trusted,
    )


def verify_certificate_data(
    stored: dict[str, Any],
    path: Path,
    paytable: tuple[str, bytes] | None = None,
    *,
    allow_rounds: int = VERIFY_ROUNDS_LIMIT,
    workers: int = 1,
    scheduler: str | None = None,
    trusted: list[TrustedKey] | None = None,
) -> Certificate:
    """Check a certificate, cheapest first, and recompute it; raise :class:`VerificationError` naming each field
    that differs.

    Order: strict JSON and the schema; the certificate ID against the content; the embedded paytable; the size of
    the simulation against ``allow_rounds``; the file given with ``paytable`` against the embedded paytable; only
    then the recomputation. A certificate whose ID does not match its content is reported with the fields of the
    exact analysis that differ, without re-running its simulation. ``stored`` has passed
    :func:`parse_certificate`; ``paytable`` is a file's name and bytes to check against it."""
    name = display_name(path)
    recorded = stored["paytable"]
    problems: list[str] = []
    id_matches = content_id(stored) == stored["certificate_id"]
    if not id_matches:
        problems.append("certificate_id (it does not match the certificate's content)")
    signature = _check_signature(name, stored, trusted)
    _check_profile(name, stored)
    result = check_data(recorded["canonical"], f"{name}:paytable.canonical")
    if result.spec is None:
        raise SpecError(result.errors)
    sim = stored["simulation"]
    if sim is not None and id_matches and sim["rounds"] > allow_rounds:
        raise VerificationError(
            f"{name}: the certificate's simulation has {sim['rounds']:,} rounds; verification re-runs at most "
            f"{allow_rounds:,}",
            fields=["simulation.rounds"],
            hint=f"allow it with --allow-rounds {sim['rounds']} (up to {MAX_ROUNDS:,})",
        )
    if paytable is not None:
        problems.extend(_paytable_problems(recorded, paytable, recorded["canonical"]))
    spec = replace(result.spec, sha256=recorded["sha256"])
    fresh = build_certificate(
        spec,
        file_name=recorded["file"],
        file_size=recorded["size"],
        issue_date=date.fromisoformat(stored["issue_date"]),
        profile_name=Profile.from_data(stored["profile"]),  # the profile it was issued against, as it states it
        simulation=SimulationOptions(sim["rounds"], sim["seed"], workers, scheduler, VERIFY_RECHECK)
        if sim and id_matches
        else None,
        paper=stored["paper"],
        protection="protection" in stored,
        untestable_refused=False,
    )
    compared = {k: v for k, v in stored.items() if k != "signature"}
    if not id_matches:  # the simulation was not re-run: compare everything else
        compared["simulation"] = None
        compared["overall"] = fresh.data["overall"]
    for field in _differences(compared, fresh.data, "$"):
        if field != "$.certificate_id":
            problems.append(field.removeprefix("$."))
    if not id_matches and sim is not None:
        problems.append("simulation (not re-run: the certificate was altered after it was issued)")
    if problems:
        raise VerificationError(
            f"{name}: the certificate does not verify; these fields differ from a fresh computation:\n  "
            + "\n  ".join(problems),
            fields=problems,
        )
    verified = {**fresh.data, "signature": stored["signature"]} if "signature" in stored else fresh.data
    return replace(fresh, data=verified, issued_by=str(stored["trey_version"]), signature=signature)


def _check_profile(name: str, stored: dict[str, Any]) -> None:
    """A certificate's profile is a shipped one, content and all, or says it is custom with its SHA-256: a profile
    that only calls itself ``generic`` is refused, as certify refuses the file."""
    profile = Profile.from_data(stored["profile"])
    claimed = stored.get("profile_sha256")
    shipped = shipped_profile(profile.name)
    if shipped is not None and not is_shipped(profile):
        raise VerificationError(
            f"{name}: the certificate's profile calls itself {profile.name!r}, the name of a profile trey ships, but "
            "it is not that profile",
            fields=["profile"],
            hint="a profile of a shipped profile's name must be that profile; a custom profile is named as such",
        )
    if shipped is None and claimed is None:
        raise VerificationError(
            f"{name}: the certificate's profile {printable(profile.name)!r} is not one trey ships, and the certificate "
            "does not name it as a custom profile with its SHA-256",
            fields=["profile_sha256"],
            hint=f"trey ships {', '.join(shipped_profiles())}; certify the paytable again to name a custom profile",
        )
    if claimed is not None and (shipped is not None or claimed != profile_sha256(profile)):
        raise VerificationError(
            f"{name}: the certificate's profile_sha256 is not the SHA-256 of a custom profile it carries",
            fields=["profile_sha256"],
            hint="a custom profile's SHA-256 is that of its canonical JSON; a shipped profile has none",
        )


def _check_signature(name: str, stored: dict[str, Any], trusted: list[TrustedKey] | None) -> SignatureCheck:
    """A signature that does not cover this content always fails; with trusted keys, so do an unsigned
    certificate and one signed by another key."""
    block = stored.get("signature")
    check = check_signature(block, lambda unsigned: signed_bytes(stored, unsigned), trusted or [])
    claim = f"{printable(block['signer'])} ({block['fingerprint']})" if block else ""
    if check.status is SignatureStatus.INVALID:
        raise VerificationError(
            f"{name}: the signature does not match the certificate's content (it names {claim})",
            fields=["signature"],
            hint="the certificate was changed after it was signed, or the signature is not by the key it names",
        )
    if trusted and check.status is SignatureStatus.UNSIGNED:
        raise VerificationError(
            f"{name}: the certificate is not signed", fields=["signature"], hint="ask the lab for a signed certificate"
        )
    if trusted and check.status is SignatureStatus.UNTRUSTED:
        raise VerificationError(
            f"{name}: the certificate is signed by a key you do not trust ({check.fingerprint}, which calls itself "
            f"{printable(block['signer']) if block else ''})",
            fields=["signature"],
            hint="check the key with the lab, then give its certificate with --trust",
        )
    return check


def default_issue_date(environ: Mapping[str, str] | None = None) -> date:
    """SOURCE_DATE_EPOCH when set (reproducible builds), else today."""
    env = os.environ if environ is None else environ
    epoch = env.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            day = datetime.fromtimestamp(int(epoch), tz=UTC).date()
        except (ValueError, OverflowError, OSError):
            raise TreyError(
                f"SOURCE_DATE_EPOCH is not a number of seconds: {printable(epoch)!r}",
                hint="set it to whole seconds since 1970-01-01 UTC, or unset it",
            ) from None
        return checked_date(day, "SOURCE_DATE_EPOCH gives the date")
    return date.today()


def python_version() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"
