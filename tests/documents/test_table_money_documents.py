"""The table's money in the documents (issue 34): the certificate's appendix, the workbench's card and the leaks
of the surveillance sheet print the figures of ``trey analyze`` and ``trey protect`` (their JSON), for the same
table; a paytable whose ``table:`` describes no bet mix gets none."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import date
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import httpx

from conftest import PAYTABLES, STANDARD, run_cli
from trey.documents.certificate_view import render_certificate_html
from trey.engine import analyze
from trey.paytable.load import load_spec
from trey.paytable.model import Table
from trey.protect.money import leak_money
from trey.trust.certificate import build_certificate
from workbench import PATIENCE

PAIR_PLUS = PAYTABLES / "pair_plus" / "40-30-6-3-1.yaml"  # the shipped example with a table: bet mix


def dollars(amount: float) -> str:
    """An amount as the documents write USD: whole amounts without cents, a minus sign in front."""
    text = f"${abs(amount):,.0f}" if amount == int(amount) else f"${abs(amount):,.2f}"
    return ("−" if amount < 0 else "") + text


def _analyzed() -> dict[str, object]:
    run = run_cli("analyze", PAIR_PLUS, "--format", "json")
    assert run.exit_code == 0, run.stderr
    money = json.loads(run.stdout)["table_money"]
    assert isinstance(money, dict)
    return money


def _plain(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def expected_lines(money: dict[str, object]) -> list[str]:
    low95, high95 = money["range_per_hour_95"]  # type: ignore[misc]
    low90, high90 = money["range_per_hour_90"]  # type: ignore[misc]
    return [
        "Pair Plus: 100% of the seated players, $10 on average",
        "6 seats, 75% occupied, 60 decisions an hour",
        f"{100 * float(money['blended_house_edge']):.4f}% of $10 wagered per seat and round",  # type: ignore[arg-type]
        f"{dollars(money['theoretical_win_per_hour'])} of {dollars(money['wagered_per_hour'])} wagered",  # type: ignore[arg-type]
        f"{dollars(low90)} to {dollars(high90)}",
        f"{dollars(low95)} to {dollars(high95)}",
    ]


def test_the_certificate_s_appendix_prints_analyze_s_figures() -> None:
    """The certificate's HTML (what its PDF is laid out from; no PDF layout here: the table's money is one more
    appendix of the same figures)."""
    money = _analyzed()
    assert money["theoretical_win_per_hour"] == 196.45 and money["range_per_hour_95"] == [-722.6, 1115.5]
    spec = load_spec(PAIR_PLUS)
    cert = build_certificate(
        spec, file_name=PAIR_PLUS.name, file_size=PAIR_PLUS.stat().st_size, issue_date=date(2026, 1, 1)
    )
    assert cert.data["analysis"]["table_money"] == money  # the certificate's JSON: analyze's, exactly
    text = _plain(render_certificate_html(cert, json_name="x.json", paytable_name=PAIR_PLUS.name))
    appendix = text[text.index("Appendix E. The table's money") :]
    for line in expected_lines(money):
        assert line in appendix, line
    assert f"Standard deviation of an hour's win {dollars(money['sd_per_hour'])}" in appendix  # type: ignore[arg-type]
    hours = money["hours_for_range_within_10_percent"]
    assert f"Hours until the win is within 10% of theo (95%) {round(hours):,}" in appendix  # type: ignore[arg-type]


def test_the_certificate_s_table_money_is_verified(tmp_path: Path) -> None:
    spec = load_spec(PAIR_PLUS)
    size = PAIR_PLUS.stat().st_size
    data = build_certificate(spec, file_name=PAIR_PLUS.name, file_size=size, issue_date=date(2026, 1, 1)).data
    data["analysis"]["table_money"]["theoretical_win_per_hour"] = 150.0
    forged = tmp_path / "forged.certificate.json"
    forged.write_text(json.dumps(data, indent=2))
    result = run_cli("verify", forged, "--paytable", PAIR_PLUS)
    assert result.exit_code == 1
    assert "analysis.table_money.theoretical_win_per_hour" in [line.strip() for line in result.stderr.splitlines()]


def test_the_workbench_card_and_api_print_analyze_s_figures(server: str) -> None:
    money = _analyzed()
    data = load_spec(PAIR_PLUS).canonical()
    figures = httpx.post(f"{server}/api/figures", json={"paytable": data, "form": True}, timeout=PATIENCE).json()
    assert figures["valid"], figures
    card = _plain(
        figures["figures"].split('<section class="wager money" id="figures-money">', 1)[1].split("</section>")[0]
    )
    lines = expected_lines(money)
    for line in lines[:4] + lines[5:]:
        assert line in card, line
    assert f"(SD {dollars(money['sd_per_hour'])})" in card  # type: ignore[arg-type]
    assert "Pair plus: share of players" in figures["fields"] and "Pair plus: average bet" in figures["fields"]
    analyzed = httpx.post(
        f"{server}/api/analyze", content=PAIR_PLUS.read_bytes(), headers={"Content-Type": "application/yaml"}
    )
    assert analyzed.json()["table_money"] == money
    # A table without a bet mix: no card.
    standard = load_spec(STANDARD).canonical()
    plain = httpx.post(f"{server}/api/figures", json={"paytable": standard}, timeout=PATIENCE).json()
    assert "figures-money" not in plain["figures"]


def test_the_leaks_cost_at_the_table_s_average_ante() -> None:
    """protect's leaks in money: the Ante and pace of the paytable's table: when the command line gives none (a
    stand-in protection of one scenario: the choice of Ante and pace is what is tested here; the exact scenarios'
    costs are tests/protect's)."""
    stats = analyze(load_spec(PAIR_PLUS)).wagers["pair_plus"].stats
    one = SimpleNamespace(scenario="one dealer card", stats=stats, gain=Fraction(3, 100))
    found = SimpleNamespace(spec=load_spec(STANDARD), scenarios=(one,))
    assert leak_money(found, None, None) is None  # the standard table gives no average Ante
    table = Table(average_bet=Fraction(25), decisions_per_hour=40)
    at_table = SimpleNamespace(spec=replace(found.spec, table=table), scenarios=(one,))
    leaks = leak_money(at_table, None, None)
    assert leaks is not None and (leaks.ante_from, leaks.pace_from) == ("paytable", "paytable")
    assert leaks.costs[0].cost_per_hour == Fraction(3, 100) * 25 * 40 == 30
    overridden = leak_money(at_table, Fraction(10), None)
    assert overridden is not None and overridden.ante_from == "command line" and overridden.decisions_per_hour == 40
    assert overridden.costs[0].cost_per_hour == 12
    default_pace = leak_money(found, Fraction(10), None)
    assert default_pace is not None and (default_pace.pace_from, default_pace.decisions_per_hour) == ("default", 60)
