"""``trey validate`` as a library call: paytable files checked, and optionally held to a profile's approved tables
and minimum RTPs; what was found, as data and as the lines the command prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trey.core.files import display_name
from trey.paytable.load import CheckResult, check_file, validation_json
from trey.trust.checks import Verdict
from trey.trust.compliance import Finding, Profile, finding_json, profile_findings


@dataclass(frozen=True)
class Validation:
    """What :func:`validate` finds: each file's problems and, with a profile, its findings."""

    strict: bool  # warnings fail too
    results: list[tuple[str, CheckResult]]  # by the file's printable name
    profile: Profile | None = None
    findings: dict[str, list[Finding]] = field(default_factory=dict)  # by file: the profile's, for valid files

    def failed(self, name: str, result: CheckResult) -> bool:
        """Whether the file ``name`` fails: an error, a warning when strict, or a profile's check that failed."""
        bad = bool(result.errors) or (self.strict and bool(result.warnings))
        return bad or any(f.verdict is Verdict.FAIL for f in self.findings.get(name, []))

    @property
    def passed(self) -> bool:
        """Every file passed."""
        return not any(self.failed(name, result) for name, result in self.results)

    def json(self) -> dict[str, Any]:
        """``trey validate --format json`` (schemas/validation.schema.json)."""
        checks = {name: [finding_json(f) for f in found] for name, found in self.findings.items()}
        return validation_json(self.results, strict=self.strict, profile_checks=checks if self.profile else None)

    def lines(self) -> tuple[list[str], list[str]]:
        """What the command prints: (on stdout, on stderr) — each problem on stderr, each valid file and each of
        the profile's findings on stdout."""
        out: list[str] = []
        errors: list[str] = []
        for name, result in self.results:
            errors += [str(problem) for problem in result.problems]
            bad = bool(result.errors) or (self.strict and bool(result.warnings))
            if result.spec is not None and not bad:
                note = f", {len(result.warnings)} warning(s)" if result.warnings else ""
                out.append(f"{name}: valid ({', '.join(result.spec.wagers.titles)}{note})")
            out += [f"{name}: {f.wager}: {f.verdict}: {f.detail}" for f in self.findings.get(name, [])]
        return out, errors


def validate(paths: list[Path], *, strict: bool = False, profile: Profile | None = None) -> Validation:
    """Check every file; with ``profile``, hold each valid game to its approved tables and minimum RTPs."""
    results = [(display_name(path), check_file(path)) for path in paths]
    findings = {}
    if profile is not None:
        findings = {name: profile_findings(profile, r.spec) for name, r in results if r.spec is not None}
    return Validation(strict, results, profile, findings)
