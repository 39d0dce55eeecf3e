"""A signed audit report (`trey audit --out DIR --sign KEY`): verified with its signature, audited again from the
logs it names, and refused when the logs are others or the PDF was changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import STANDARD, run_cli


@pytest.fixture(scope="module")
def signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    folder = tmp_path_factory.mktemp("signed-audit")
    assert run_cli("keygen", "--out", folder / "keys", "--name", "Example Lab").exit_code == 0
    log = folder / "hands.jsonl"
    assert run_cli("simulate", STANDARD, "--rounds", "300", "--seed", "5", "--log", log).exit_code == 0
    key = folder / "keys" / "trey-signing-key.pem"
    result = run_cli("audit", STANDARD, log, "--out", folder / "out", "--sign", key, "--date", "2026-01-02")
    assert result.exit_code == 1  # 300 rounds: too few for some card tests (INCOMPLETE)
    return folder / "out" / "standard.audit.pdf", log, folder / "keys" / "trey-signing-cert.pem"


def test_a_signed_report_is_verified_and_audited_again_from_its_logs(signed: tuple[Path, Path, Path]) -> None:
    pdf, log, cert = signed
    alone = run_cli("verify", pdf)
    assert alone.exit_code == 0
    assert alone.stdout.startswith(f"{pdf}: verified; audit report of 300 rounds, verdict INCOMPLETE; ")
    assert alone.stdout.rstrip().endswith(
        "not audited again (give the hand histories it names with --log: hands.jsonl)"
    )
    again = run_cli("verify", pdf, "--trust", cert, "--log", log)
    assert again.exit_code == 0
    assert "the PDF is signed by Example Lab (SHA256:" in again.stdout
    assert again.stdout.rstrip().endswith(f"audited again from {log}: the same")


def test_other_logs_or_a_changed_pdf_are_refused(signed: tuple[Path, Path, Path], tmp_path: Path) -> None:
    pdf, log, _ = signed
    other = tmp_path / "other.jsonl"
    other.write_bytes(b"".join(log.read_bytes().splitlines(keepends=True)[:200]))
    refused = run_cli("verify", pdf, "--log", other)
    assert refused.exit_code == 1
    assert refused.stderr.startswith(f"error: {pdf}: the audit of {other} differs from the report's in ante_play")
    assert refused.stderr.rstrip().endswith(
        "(give the hand histories the report names (hands.jsonl), as they were audited)"
    )
    changed = tmp_path / "changed.pdf"
    raw = pdf.read_bytes()
    middle = len(raw) // 3  # inside the signed bytes: a page's stream
    changed.write_bytes(raw[:middle] + bytes([raw[middle] ^ 1]) + raw[middle + 1 :])
    tampered = run_cli("verify", changed)
    assert tampered.exit_code == 1 and tampered.stderr.startswith(f"error: {changed}")


def test_sign_needs_the_report_and_log_needs_an_audit_report(tmp_path: Path) -> None:
    result = run_cli("audit", STANDARD, tmp_path / "none.jsonl", "--sign", tmp_path / "key.pem")
    assert result.exit_code == 2
    assert "--sign signs the report: give --out DIR too" in result.stderr
    certificate = Path(__file__).resolve().parents[2] / "reports" / "standard.certificate.pdf"
    assert run_cli("verify", certificate, "--log", tmp_path / "x.jsonl").exit_code == 2
