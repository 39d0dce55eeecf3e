"""The surveillance sheet and the certificate's game protection section print trey protect's figures, and the
certificate's section is verified like every other figure."""

from __future__ import annotations

import io
import json
import re
from datetime import date
from pathlib import Path

from pypdf import PdfReader

import trey
from conftest import STANDARD, run_cli, standard_protection
from trey.core.jsonschemas import validator
from trey.core.numbers import percent_text
from trey.protect.protection import protection_json


def _text(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_the_surveillance_sheet_is_one_page_of_the_same_figures(tmp_path: Path) -> None:
    money = ("--average-ante", "25", "--decisions-per-hour", "50")
    result = run_cli(
        "protect", STANDARD, "--no-two-cards", "--out", tmp_path, "--date", "2026-01-01", *money, "--format", "json"
    )
    assert result.exit_code == 0, result.stderr
    pdf = (tmp_path / "standard.surveillance.pdf").read_bytes()
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1
    text = _text(pdf)
    one = standard_protection().scenarios[0]
    assert f"one dealer card {percent_text(one.stats.mean, 2)}" in text  # 3.48%, as protect's 3.4829%
    assert "A A-9-2 or better 0.0 23.3" in text and "J every hand 24.7 0.0" in text
    # Each leak's cost an hour and the hours until it shows: protect's JSON, and gain x Ante x pace counted apart.
    assert "one informed player at $25 an Ante (--average-ante) and 50 decisions an hour (--decisions-per-hour)" in text
    leaks = json.loads(result.stdout)["leaks_in_money"]["leaks"]
    assert leaks[0]["cost_per_hour"] == round(float(one.gain * 25 * 50), 2) == 85.7
    for leak in leaks:  # the row's last two cells (its scenario may wrap)
        assert f"${leak['cost_per_hour']:,.2f} {leak['hours_to_show']:,.1f} h" in text
    assert "N0 = (SD ÷ edge)² rounds" in text
    again = run_cli("protect", STANDARD, "--no-two-cards", "--out", tmp_path, "--date", "2026-01-01")
    assert again.exit_code == 1  # nothing overwritten without --force
    assert "standard.surveillance.pdf (use --force to replace them, or choose another --out)" in again.stderr


def test_a_certificate_with_protection_carries_verifies_and_refuses_a_changed_figure(tmp_path: Path) -> None:
    raw = STANDARD.read_bytes()
    made = trey.certify(raw, "standard.yaml", issue_date=date(2026, 1, 1), protection=True)
    data = json.loads(made.files["standard.certificate.json"])
    assert data["certificate_format"] == 3
    assert list(validator("certificate").iter_errors(data)) == []
    expected = protection_json(standard_protection())
    # the same figures as trey protect, but its risk figures (issue 34), left out as certificates were first issued
    same = [{k: v for k, v in s.items() if k != "risk"} for s in expected["scenarios"]]
    assert data["protection"]["scenarios"] == same and all("risk" in s for s in expected["scenarios"])
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(made.files["standard.certificate.pdf"])).pages]
    text = " ".join(" ".join(page.split()) for page in pages)  # as _text reads it (the pages read once here)
    assert "Game protection" in text and "one dealer card 3.4829% 6.8558 pt 54.2203% 1.7417" in text
    # numbered with the others (issue 30.3: it had no number), and those after it follow on
    lines = [line for page in pages for line in page.splitlines()]
    numbered = [line for line in lines if re.fullmatch(r"\d+\. [A-Z].*", line)]
    assert [int(line.split(".")[0]) for line in numbered] == list(range(1, 12))
    assert numbered[7:] == [
        "8. Game protection",
        "9. Range of the realised RTP",
        "10. Contributions to RTP",
        "11. Player disclosure",
    ]
    pdf = tmp_path / "standard.certificate.pdf"
    pdf.write_bytes(made.files["standard.certificate.pdf"])
    assert run_cli("verify", pdf).exit_code == 0
    # Issue 30.9: a certificate issued with the chart's played_below (always 0, no longer written) reads and is
    # compared without it: here with a changed gain and the ID made again, only the gain is refused; any other
    # played_below is refused before anything is computed.
    from trey.trust.certificate import content_id

    for scenario in data["protection"]["scenarios"]:
        for line in scenario["chart"]:
            line["played_below"] = 0
    assert list(validator("certificate").iter_errors(data)) == []
    data["protection"]["scenarios"][0]["gain"] = "1/10"
    data["certificate_id"] = content_id(data)
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data))
    result = run_cli("verify", forged)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {forged}: the certificate does not verify; these fields differ from a fresh computation:\n"
        "  protection.scenarios[0].gain\n",
    )
    data["protection"]["scenarios"][0]["chart"][0]["played_below"] = 1
    forged.write_text(json.dumps(data))
    result = run_cli("verify", forged)
    assert (result.exit_code, result.stderr) == (
        1,
        f"error: {forged}: not a valid certificate: $.protection.scenarios[0].chart[0].played_below: 0 was expected "
        "(the file does not follow schemas/certificate.schema.json)\n",
    )
    from trey.trust.certificate import build_certificate

    spec = trey.load_spec(STANDARD)
    plain = build_certificate(spec, file_name="standard.yaml", file_size=len(raw), issue_date=date(2026, 1, 1)).data
    assert plain["certificate_format"] == 2 and "protection" not in plain  # without it, format 2 as before
