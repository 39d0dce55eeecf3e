"""A second red-team pass on what a certificate or a part may carry: text that reaches terminals and documents (a
version of trey, a profile's name) is held to its pattern, a pattern's ``$`` is the end of the text (Python's also
matched before a final line break), and no certificate chooses how much work its reading costs: its containers are
counted before it is parsed, its values, entries and texts before the schema validator walks them, and each
list of the schema has its bound. Each refusal is one located line, exit 1."""

from __future__ import annotations

import copy
import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from conftest import STANDARD, run_cli
from trey import __version__
from trey.paytable.load import load_spec
from trey.trust.certificate import MAX_ENTRIES, MAX_TEXT, MAX_VALUES, build_certificate, content_id, profile_sha256
from trey.trust.compliance import Profile

HINT = "(the file does not follow schemas/certificate.schema.json)"
SMALLER = "(a certificate trey writes is far smaller: give the .certificate.json that trey certify wrote)"


@pytest.fixture(scope="module")
def issued() -> dict[str, Any]:
    return build_certificate(
        load_spec(STANDARD), file_name="standard.yaml", file_size=STANDARD.stat().st_size, issue_date=date(2026, 1, 1)
    ).data


def _forged(data: dict[str, Any], tmp_path: Path, *, custom: bool = False) -> Path:
    """The certificate as a forger writes it: the profile's SHA-256 and the ID recomputed, anyone can."""
    data = copy.deepcopy(data)
    if custom:
        data["profile_sha256"] = profile_sha256(Profile.from_data(data["profile"]))
    data["certificate_id"] = content_id(data)
    path = tmp_path / "forged.certificate.json"
    path.write_text(json.dumps(data))
    return path


def _refused(path: Path) -> str:
    result = run_cli("verify", path)
    assert (result.exit_code, result.stdout) == (1, "")
    return result.stderr


@pytest.mark.parametrize(
    "version",
    ["0.3.0 (approved by the regulator)", "0.4.0\nverified", "v0.4.0", "01.4.0", "0.4.0+local", "9" * 41],
)
def test_a_certificates_version_of_trey_is_a_version(issued: dict[str, Any], tmp_path: Path, version: str) -> None:
    """The version is stated, never compared: it went, as written, into verify's one-line summary ("issued by trey
    0.4.0\\nverified") and into the message that refuses a format."""
    path = _forged({**issued, "trey_version": version}, tmp_path)
    assert _refused(path) == (
        f"error: {path}: not a valid certificate: $.trey_version: {version[:40]!r} is not a version of trey (such as "
        f"{__version__}) {HINT}\n"
    )
    later = _forged({**issued, "certificate_format": 9, "trey_version": version}, tmp_path)
    assert f"(written by an unnamed trey); this trey {__version__} reads formats" in _refused(later)


def test_a_pattern_ends_at_the_end_of_the_text(issued: dict[str, Any], tmp_path: Path) -> None:
    """A custom profile named "my-lab\\n" passed ^[a-z0-9-]+$ (Python's $ matches before a final line break) and
    split verify's summary in two; the profile's schema, referenced from the certificate's, was also validated
    without trey's rules (jsonschema picked the standard class by the referenced file's $schema)."""
    path = _forged({**issued, "profile": {**issued["profile"], "name": "my-lab\n"}}, tmp_path, custom=True)
    assert _refused(path) == (
        f"error: {path}: not a valid certificate: $.profile.name: 'my-lab\\n' does not match '^[a-z0-9-]+$' {HINT}\n"
    )
    cycle = copy.deepcopy(issued)
    cycle["analysis"]["wagers"]["pair_plus"]["cycle"] = 22100.0  # an integer of the analysis schema, referenced
    path = _forged(cycle, tmp_path)
    assert _refused(path) == (
        f"error: {path}: not a valid certificate: $.analysis.wagers.pair_plus.cycle: 22100.0 is not of type "
        f"'integer' {HINT}\n"
    )


def test_what_a_certificate_holds_is_bounded_before_it_is_walked(issued: dict[str, Any], tmp_path: Path) -> None:
    """A custom profile of 4,000,000 approved tables made verify work 46 s, 150,000 outcomes 9 s, before refusing
    anything (the 16 MiB file is within its bound): each is now a located line in well under a second."""
    profile = {**issued["profile"], "name": "my-lab"}
    many = _forged({**issued, "profile": {**profile, "approved": {"pair_plus": [{}] * MAX_VALUES}}}, tmp_path)
    assert _refused(many) == (
        f"error: {many}: not a valid certificate: {MAX_VALUES + 187:,} objects and lists, more than the "
        f"{MAX_VALUES:,} values a certificate holds (give the .certificate.json file that trey certify wrote)\n"
    )
    outcomes = copy.deepcopy(issued)
    outcomes["analysis"]["wagers"]["pair_plus"]["outcomes"] = [0] * (MAX_ENTRIES + 1)
    path = _forged(outcomes, tmp_path)
    assert _refused(path) == (
        f"error: {path}: not a valid certificate: $.analysis.wagers.pair_plus.outcomes: {MAX_ENTRIES + 1:,} "
        f"entries, more than the {MAX_ENTRIES:,} allowed {SMALLER}\n"
    )
    values = copy.deepcopy(issued)
    values["analysis"]["wagers"]["pair_plus"]["outcomes"] = [[0] * 1_000] * 101
    path = _forged(values, tmp_path)
    assert _refused(path).startswith(f"error: {path}: not a valid certificate: $.analysis.wagers.pair_plus.outcomes[")
    assert _refused(path).endswith(f": more than the {MAX_VALUES:,} values a document of this kind holds {SMALLER}\n")
    title = _forged({**issued, "profile": {**profile, "title": "x" * (MAX_TEXT + 1)}}, tmp_path, custom=True)
    assert _refused(title) == (
        f"error: {title}: not a valid certificate: $.profile.title: a text of {MAX_TEXT + 1:,} characters, more "
        f"than the {MAX_TEXT:,} allowed {SMALLER}\n"
    )


@pytest.mark.parametrize(
    ("place", "value", "said"),
    [
        (("profile", "approved"), {"pair_plus": [{}] * 1_001}, "$.profile.approved.pair_plus: 1001 entries, more "),
        (("profile", "title"), "x" * 201, "$.profile.title: '" + "x" * 185),
        (("paytable", "file"), "../standard.yaml", "$.paytable.file: '../standard.yaml' does not match "),
        (("paytable", "file"), "standard\n.yaml", "$.paytable.file: 'standard\\n.yaml' does not match "),
        (("simulation",), {"rounds": 1, "seed": 0, "generator": "x" * 41, "passed": True, "wagers": {}}, "$.simu"),
    ],
    ids=["approved-tables", "profile-title", "file-path", "file-line-break", "generator"],
)
def test_ids_and_sizes_are_held_to_the_schema(
    issued: dict[str, Any], tmp_path: Path, place: tuple[str, ...], value: object, said: str
) -> None:
    data = copy.deepcopy(issued)
    data["profile"]["name"] = "my-lab"
    node = data
    for key in place[:-1]:
        node = node[key]
    node[place[-1]] = value
    path = _forged(data, tmp_path, custom=True)
    message = _refused(path)
    assert message.startswith(f"error: {path}: not a valid certificate: {said}") and message.endswith(f"{HINT}\n")
    assert len(message.splitlines()) == 1


def test_a_parts_version_of_trey_is_a_version(tmp_path: Path) -> None:
    part = tmp_path / "part.json"
    made = run_cli("simulate", STANDARD, "--rounds", 1_000, "--shard", "1/1", "--out", part)
    assert made.exit_code == 0, made.stderr
    data = json.loads(part.read_text())
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps({**data, "trey_version": "0.4.0\nPASS: every chunk checked"}))
    result = run_cli("merge", forged)
    assert (result.exit_code, result.stdout, result.stderr) == (
        1,
        "",
        f"error: {forged}: $.trey_version: '0.4.0\\nPASS: every chunk checked' is not a version of trey (such as "
        f"{__version__}) (give a part written by trey simulate --shard)\n",
    )
