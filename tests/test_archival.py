"""Certificates that last: a version policy for verification, and schemas that standard validators use alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, STANDARD, run_cli
from trey.certificate import content_id

SCHEMAS = REPO / "src" / "trey" / "schemas"
CHECK = Path(sys.executable).with_name("check-jsonschema")


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("outputs")
    assert run_cli("certify", STANDARD, "--out", out, "--date", "2026-01-01", "--simulate", "20000").exit_code == 0
    (out / "analysis.json").write_text(run_cli("analyze", STANDARD, "--format", "json").stdout)
    (out / "simulation.json").write_text(run_cli("simulate", STANDARD, "--rounds", "5000", "--format", "json").stdout)
    return out


@pytest.mark.parametrize(
    ("schema", "instance"),
    [
        ("certificate", "standard.certificate.json"),
        ("analysis", "analysis.json"),
        ("simulation", "simulation.json"),
    ],
)
def test_check_jsonschema_validates_the_outputs_with_the_shipped_schemas(
    outputs: Path, schema: str, instance: str
) -> None:
    """A standard validator, given only the schemas/ folder (the schemas refer to each other by file name)."""
    command = [str(CHECK), "--schemafile", str(SCHEMAS / f"{schema}.schema.json"), str(outputs / instance)]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ok -- validation done" in result.stdout
    broken = json.loads((outputs / instance).read_text())
    broken["wagers" if schema != "certificate" else "analysis"] = "nothing"
    (outputs / f"broken-{instance}").write_text(json.dumps(broken))
    command[-1] = str(outputs / f"broken-{instance}")
    assert subprocess.run(command, capture_output=True, text=True, check=False).returncode == 1


def _reissued(outputs: Path, change: object) -> Path:
    data = json.loads((outputs / "standard.certificate.json").read_text())
    change(data)  # type: ignore[operator]
    data["certificate_id"] = content_id(data)
    path = outputs / "reissued.json"
    path.write_text(json.dumps(data))
    return path


def test_a_certificate_from_an_earlier_version_verifies_when_every_figure_agrees(outputs: Path) -> None:
    def earlier(data: dict[str, object]) -> None:
        data["trey_version"] = "0.1.9"
        data["analysis"]["trey_version"] = "0.1.9"  # type: ignore[index]

    path = _reissued(outputs, earlier)
    result = run_cli("verify", path)
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(", overall PASS, issued by trey 0.1.9\n")


def test_a_certificate_of_a_newer_format_is_refused_first(outputs: Path) -> None:
    def newer(data: dict[str, object]) -> None:
        data["certificate_format"] = 2
        data["trey_version"] = "9.0.0"
        data["something_new"] = {"the": "future"}

    path = _reissued(outputs, newer)
    result = run_cli("verify", path)
    assert result.exit_code == 1
    assert result.stderr == (
        f"error: {path}: the certificate is of format 2 (written by trey 9.0.0); this trey 0.2.0 reads format 1 "
        "(verify it with the trey that issued it, or a newer one)\n"
    )
