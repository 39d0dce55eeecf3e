"""Certificates: the evaluation of one paytable as canonical data, its content-derived ID, and its verification.

The certificate JSON carries everything needed to recompute it: the canonical paytable, the profile, the date,
the options. Its ID is the first 12 hex digits of the SHA-256 of the canonical serialisation of everything else,
so any change to a figure, a pay or the ID itself is detected by :func:`verify_certificate`.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from trey import __version__
from trey.compliance import Finding, Profile, load_profile, overall, run_checks
from trey.engine import GameAnalysis, analyze
from trey.errors import SpecError, TreyError, VerificationError
from trey.export import analysis_json, simulation_json
from trey.loader import check_data
from trey.simulate import SimulationResult, simulate
from trey.spec import GameSpec

REVISION = 1
ID_DIGITS = 12


@dataclass(frozen=True)
class SimulationOptions:
    rounds: int
    seed: int
    workers: int = 1


@dataclass(frozen=True)
class Certificate:
    """A certificate's data (``data``, JSON-ready) and the typed objects it was made from, for rendering."""

    data: dict[str, Any]
    spec: GameSpec
    analysis: GameAnalysis
    profile: Profile
    checks: list[Finding]
    simulation: SimulationResult | None

    @property
    def certificate_id(self) -> str:
        return str(self.data["certificate_id"])


def canonical_bytes(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def content_id(data: dict[str, Any]) -> str:
    """The ID of a certificate: a hash of all its content but the ID."""
    content = {k: v for k, v in data.items() if k != "certificate_id"}
    return hashlib.sha256(canonical_bytes(content)).hexdigest()[:ID_DIGITS]


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
    profile_name: str = "generic",
    simulation: SimulationOptions | None = None,
    paper: str = "a4",
) -> Certificate:
    profile = load_profile(profile_name)
    analysis = analyze(spec)
    checks = run_checks(profile, analysis)
    simulated = None
    if simulation is not None:
        simulated = simulate(spec, simulation.rounds, simulation.seed, workers=simulation.workers, analysis=analysis)
    verdicts = [str(overall(checks))]
    data: dict[str, Any] = {
        "certificate_id": "",
        "revision": REVISION,
        "issue_date": issue_date.isoformat(),
        "trey_version": __version__,
        "paper": paper,
        "profile": profile.canonical(),
        "paytable": {
            "file": file_name,
            "size": file_size,
            "sha256": spec.sha256,
            "canonical": spec.canonical(),
        },
        "analysis": analysis_json(analysis),
        "checks": [check_json(c) for c in checks],
        "simulation": None,
    }
    if simulated is not None:
        sim = simulation_json(simulated, spec)
        data["simulation"] = {k: sim[k] for k in ("rounds", "seed", "workers", "generator", "passed", "wagers")}
        verdicts.append("PASS" if simulated.passed else "FAIL")
    data["overall"] = "FAIL" if "FAIL" in verdicts else "PASS"
    data["certificate_id"] = content_id(data)
    return Certificate(data, spec, analysis, profile, checks, simulated)


def _differences(stored: Any, fresh: Any, path: str) -> list[str]:
    if isinstance(stored, dict) and isinstance(fresh, dict):
        diffs = []
        for key in sorted(set(stored) | set(fresh), key=str):
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


def read_certificate(path: Path) -> dict[str, Any]:
    from trey.jsonschemas import validator

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TreyError(f"{path}: no such file", hint="give the certificate's .json file") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise VerificationError(f"{path}: not a certificate: {exc}", hint="give the .certificate.json file") from None
    errors = sorted(validator("certificate").iter_errors(data), key=str)
    if errors:
        first = errors[0]
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in first.absolute_path)
        raise VerificationError(
            f"{path}: not a valid certificate: {where}: {first.message}",
            fields=[where],
            hint="the file does not follow schemas/certificate.schema.json",
        )
    result: dict[str, Any] = data
    return result


def verify_certificate(path: Path, paytable: Path | None = None) -> Certificate:
    """Recompute a certificate from the paytable inside it; raise :class:`VerificationError` naming each field
    that differs. With ``paytable``, also check that file's SHA-256 and content against the certificate."""
    stored = read_certificate(path)
    recorded = stored["paytable"]
    problems: list[str] = []
    if paytable is not None:
        raw = paytable.read_bytes() if paytable.is_file() else None
        if raw is None:
            raise TreyError(f"{paytable}: no such file", hint="give the paytable the certificate was issued for")
        if hashlib.sha256(raw).hexdigest() != recorded["sha256"]:
            problems.append("paytable.sha256 (the file given with --paytable has another SHA-256)")
    result = check_data(recorded["canonical"], f"{path}:paytable.canonical")
    if result.spec is None:
        raise SpecError(result.errors)
    spec = replace(result.spec, sha256=recorded["sha256"])
    sim = stored.get("simulation")
    fresh = build_certificate(
        spec,
        file_name=recorded["file"],
        file_size=recorded["size"],
        issue_date=date.fromisoformat(stored["issue_date"]),
        profile_name=stored["profile"]["name"],
        simulation=SimulationOptions(sim["rounds"], sim["seed"], sim["workers"]) if sim else None,
        paper=stored["paper"],
    )
    if content_id(stored) != stored["certificate_id"]:
        problems.append("certificate_id (it does not match the certificate's content)")
    for field in _differences(stored, fresh.data, "$"):
        if field != "$.certificate_id":
            problems.append(field.removeprefix("$."))
    if problems:
        raise VerificationError(
            f"{path}: the certificate does not verify; these fields differ from a fresh computation:\n  "
            + "\n  ".join(problems),
            fields=problems,
        )
    return fresh


def default_issue_date(environ: Mapping[str, str] | None = None) -> date:
    """SOURCE_DATE_EPOCH when set (reproducible builds), else today."""
    env = os.environ if environ is None else environ
    epoch = env.get("SOURCE_DATE_EPOCH")
    if epoch:
        try:
            return datetime.fromtimestamp(int(epoch), tz=UTC).date()
        except (ValueError, OverflowError):
            raise TreyError(f"SOURCE_DATE_EPOCH is not a number of seconds: {epoch!r}") from None
    return date.today()


def python_version() -> str:
    return f"{sys.version_info.major}.{sys.version_info.minor}"
