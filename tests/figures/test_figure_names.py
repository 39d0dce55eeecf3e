"""One name, one figure (issue 18.2, 18.3, 18.11): a progressive's figures carry the same value under the same name
in every output trey writes, and the checks judge the figure they name."""

from __future__ import annotations

import csv
import io
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from conftest import PAYTABLES, run_cli
from trey.core.numbers import percent_text
from trey.engine import analyze
from trey.paytable.load import load_spec_bytes
from trey.trust.compliance import Profile, ProgressiveBasis, Verdict, run_checks

SOURCE = (PAYTABLES / "progressive" / "three-card-progressive.yaml").read_text()
# Two other bettors assumed, so that the figures with envy differ from a lone bettor's.
WITH_ENVY = SOURCE.replace("other_bettors: 0", "other_bettors: 2")


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("figures") / "progressive.yaml"
    path.write_text(WITH_ENVY)
    return path


def test_every_output_names_a_progressive_figure_one_way(game: Path, tmp_path: Path) -> None:
    p = analyze(load_spec_bytes(WITH_ENVY.encode(), "progressive.yaml")).wagers["progressive"].progressive
    assert p is not None
    # computed by hand from the pays (docs/published-figures.md: break-even $11,520, $175 less per other bettor)
    reset = Fraction(10_580 + 5_000, 22_100)  # fixed pays 10,580 per cycle, the $5,000 meter once
    envy = Fraction(2 * (1 * 100 + 3 * 25), 22_100)
    long_run = Fraction(10_580, 22_100) + Fraction(1, 10) + Fraction(5_000, 22_100)
    assert (p.rtp_at_reset, p.rtp_at_reset_with_envy) == (reset, reset + envy)
    assert (p.long_run_rtp, p.long_run_rtp_with_envy) == (long_run, long_run + envy)
    assert (p.break_even(), p.break_even(2)) == (11_520, 11_520 - 2 * 175)

    # JSON: the wager's rtp is the lone bettor's at the reset; each progressive figure under its own name
    data = json.loads(run_cli("analyze", game, "--format", "json").stdout)["wagers"]["progressive"]
    block = data["progressive"]
    assert data["rtp"] == block["rtp_at_reset"] == str(reset)
    assert data["house_edge"] == str(1 - reset)
    assert block["rtp_at_reset_with_envy"] == str(reset + envy)
    assert (block["long_run_rtp"], block["long_run_rtp_with_envy"]) == (str(long_run), str(long_run + envy))
    assert (block["break_even_meter"], block["break_even_meter_with_envy"]) == ("11520", "11170")

    # the terminal
    lines = _lines(run_cli("analyze", game).stdout)
    assert f"RTP (at the reset, lone bettor) {percent_text(reset)}" in lines
    assert f"House edge (at the reset, lone bettor) {percent_text(1 - reset)}" in lines
    assert f"RTP at the reset ($5,000), lone bettor {percent_text(reset)}" in lines
    assert f"RTP at the reset, with 2 other bettors' envy {percent_text(reset + envy)}" in lines
    assert any(line.startswith(f"Long-run RTP, lone bettor {percent_text(long_run)} (") for line in lines)
    assert f"Long-run RTP, with 2 other bettors' envy {percent_text(long_run + envy)}" in lines
    theo = next(line for line in lines if "an hour:" in line and "long-run" in line)
    assert f"long-run house edge {percent_text(1 - long_run)} × $1 average bet" in theo

    # CSV: the outcome rows' contributions add up to the same rtp
    rows = [r for r in csv.DictReader(io.StringIO(run_cli("analyze", game, "--format", "csv").stdout))]
    assert sum(Fraction(r["contribution_exact"]) for r in rows if r["wager"] == "progressive") == reset

    # the workbook
    book_path = tmp_path / "par.xlsx"
    assert run_cli("analyze", game, "--format", "xlsx", "--out", book_path).exit_code == 0
    summary = load_workbook(book_path)["Summary"]
    header = [c.value for c in summary[1]]
    row = next(r for r in summary.iter_rows(min_row=2, values_only=True) if r[1] == "progressive")
    cells = dict(zip(header, row, strict=True))
    assert (cells["RTP (exact)"], cells["Long-run RTP (exact)"]) == (str(reset), str(long_run))
    assert cells["House edge (exact)"] == str(1 - reset)

    # compare ranks by a figure it names
    compared = json.loads(run_cli("compare", game, "--format", "json").stdout)["rows"]
    progressive = next(r for r in compared if r["wager"] == "progressive")
    assert (progressive["rtp"], progressive["house_edge"]) == (str(reset), str(1 - reset))
    assert progressive["long_run_rtp"] == str(long_run)
    table = _lines(run_cli("compare", game).stdout)
    ranked = "Three Card Progressive: ranked by house edge (a progressive's at the reset, for a lone bettor);"
    assert any(line.startswith(ranked) for line in table)

    # the certificate: its JSON carries the analysis, its PDF names each figure beside its value
    out = tmp_path / "cert"
    assert run_cli("certify", game, "--out", out, "--date", "2026-01-01").exit_code == 0
    cert = json.loads((out / "progressive.certificate.json").read_text())
    assert cert["analysis"]["wagers"]["progressive"]["progressive"] == block
    text = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(out / "progressive.certificate.pdf").pages
    )
    assert f"RTP at the reset ($5,000), lone bettor: the wager's RTP {percent_text(reset)}" in text
    assert f"Return to player (RTP) at the reset, lone bettor {percent_text(reset)}" in text
    assert f"RTP at the reset, with 2 other bettors' envy {percent_text(reset + envy)}" in text
    assert f"Long-run RTP, with 2 other bettors' envy {percent_text(long_run + envy)}" in text
    assert (
        f"Three Card Progressive: theoretical return to player {percent_text(reset, 2)} with the meter at the reset "
        f"of $5,000, rising with the meter; {percent_text(long_run, 2)} in the long run"
    ) in text
    assert "A progressive's RTP floor is judged on its RTP with the meter at the reset, for a lone bettor" in text


def _profile(**extra: object) -> Profile:
    return Profile.from_data(
        {"name": "floor", "title": "floor", "description": "floor", "checks": {"rtp_floor_percent": 75}, **extra}
    )


def test_a_floor_is_judged_on_the_lone_bettors_rtp_at_the_reset_unless_the_profile_says_long_run() -> None:
    """At the reset 70.50% (a lone bettor), with two others' envy 72.08%, in the long run 80.50%: a 75% floor
    fails at the reset, passes in the long run, and envy never lifts it."""
    analysis = analyze(load_spec_bytes(WITH_ENVY.encode(), "progressive.yaml"))
    (at_reset,) = [f for f in run_checks(_profile(), analysis) if f.wager == "progressive"]
    assert (at_reset.verdict, at_reset.detail) == (Verdict.FAIL, "RTP 70.4977% (at the reset, a lone bettor)")
    long = _profile(progressive_rtp="long_run")
    assert long.progressive_rtp is ProgressiveBasis.LONG_RUN
    (in_long_run,) = [f for f in run_checks(long, analysis) if f.wager == "progressive"]
    assert (in_long_run.verdict, in_long_run.detail) == (Verdict.PASS, "RTP 80.4977% (long run, a lone bettor)")


def test_house_edge_positive_is_judged_on_the_worst_row_of_the_envy_table(tmp_path: Path) -> None:
    """No other bettor assumed, but six of them make the game pay more than it takes: the check fails."""
    generous = SOURCE.replace("mini_royal_spades: 100\n", "mini_royal_spades: 100\n      three_of_a_kind: 40\n")
    path = tmp_path / "generous.yaml"
    path.write_text(generous)
    p = analyze(load_spec_bytes(generous.encode(), "generous.yaml")).wagers["progressive"].progressive
    assert p is not None and p.long_run_rtp < 1 < p.long_run_rtp_of(6)
    result = run_cli("certify", path, "--out", tmp_path / "out", "--date", "2026-01-01")
    assert result.exit_code == 1
    data = json.loads((tmp_path / "out" / "generous.certificate.json").read_text())
    (edge,) = [c for c in data["checks"] if c["wager"] == "progressive" and c["check"] == "house_edge_positive"]
    assert edge["result"] == "FAIL"
    assert edge["detail"] == (
        f"house edge {percent_text(1 - p.long_run_rtp_of(6))} (long run, 6 other bettors' envy included) "
        "(player-favourable)"
    )


def test_a_break_even_below_the_reset_is_named_not_printed_as_a_negative_meter(tmp_path: Path) -> None:
    rich = SOURCE.replace("three_of_a_kind: {amount: 90}", "three_of_a_kind: {amount: 400}")
    path = tmp_path / "rich.yaml"
    path.write_text(rich)
    p = analyze(load_spec_bytes(rich.encode(), "rich.yaml")).wagers["progressive"].progressive
    assert p is not None and (breaks := p.break_even()) is not None and breaks < p.reset
    lines = _lines(run_cli("analyze", path).stdout)
    assert "Break-even meter, lone bettor none: above 100% at every meter" in lines
    assert not any("−$" in line and "meter" in line for line in lines)


SINGLE_WAGER = {
    "player_hand": "{straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}",
    "dealer_hand": "{straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}",
    "six_cards": "{royal_flush: 1000, straight_flush: 200, four_of_a_kind: 100, full_house: 20, flush: 15}",
    "colours": "{six_same_colour: 4, three_same_colour: 3}",
}
# Other wagers, and the rules and decisions of an Ante & Play this game does not have (whole words, as written).
OTHER_WAGERS = re.compile(r"\bAnte\b|\bPlay\b|Pair Plus|Six Card Bonus|\bPrime\b|qualif|\bfold|strategy", re.I)


@pytest.mark.parametrize("reading", SINGLE_WAGER)
def test_a_single_wager_certificate_speaks_only_of_its_wager(reading: str, tmp_path: Path) -> None:
    """Issue 18.6: a certificate of one side bet names no other wager, rule or strategy anywhere in it."""
    source = f"trey: 2\nname: One bet\nside_bets:\n  lucky:\n    reads: {reading}\n    pays: {SINGLE_WAGER[reading]}\n"
    if reading == "six_cards":  # the command's files, the PDF too
        path = tmp_path / "one.yaml"
        path.write_text(source)
        result = run_cli("certify", path, "--out", tmp_path, "--date", "2026-01-01")
        assert result.exit_code == 0, result.stderr
        html = (tmp_path / "one.certificate.html").read_text()
    else:  # the same HTML, made by the library without its PDF (the command writes what the library makes)
        from datetime import date

        from trey.documents.certificate_view import render_certificate_html
        from trey.trust.certificate import build_certificate

        spec = load_spec_bytes(source.encode(), "one.yaml")
        cert = build_certificate(spec, file_name="one.yaml", file_size=len(source), issue_date=date(2026, 1, 1))
        assert cert.data["overall"] == "PASS"
        html = render_certificate_html(cert, json_name="one.certificate.json", paytable_name="one.yaml")
    text = html.split("<body>", 1)[1]
    assert "Lucky counts " in text  # the method names the wager it counts
    assert OTHER_WAGERS.findall(text) == []
    if reading == "six_cards":  # and the PDF says the same
        pdf = " ".join(page.extract_text() for page in PdfReader(tmp_path / "one.certificate.pdf").pages)
        assert OTHER_WAGERS.findall(pdf) == []
