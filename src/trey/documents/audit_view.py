"""The audit report (``trey audit --out``): the certificate's look, the audit's tables and a chart of Ante & Play's
actual return against the expectation of the rounds."""

from __future__ import annotations

import dataclasses
import math
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

from trey.audit.audit import SHARP, Audit
from trey.audit.integrity.battery import FAMILY, OVERALL, Battery, Outcome
from trey.audit.integrity.deal import DEAL_ORDER
from trey.audit.integrity.nulls import rising_law
from trey.audit.verdict import Family, p_figure, p_text
from trey.core.numbers import decimal_text, percent_text
from trey.core.version import __version__
from trey.documents.charts import audit_trail_svg, position_heatmap_svg, rising_histogram_svg
from trey.documents.environment import render
from trey.paytable.model import money_style
from trey.present.labels import return_units

SEATS_LISTED = 50  # the seats the report lists: the flagged first
GROUPS_DETAILED = 24  # the shufflers, dealers, shifts and tables whose every test the report lists (in label order)


def audit_context(found: Audit, *, paper: str, day: date, logs: list[str]) -> dict[str, Any]:
    style = money_style(found.spec.table)
    money = style.money
    verdict = found.verdict
    family = verdict.family
    return {
        "game": found.spec.name,
        "returns_per": _capital(return_units(found.spec)),
        "paper": paper,
        "date": day.isoformat(),
        "logs": logs,
        "lines": f"{found.lines:,}",
        "rounds": f"{found.rounds:,}",
        "clean": verdict.passed,
        "verdict": verdict.headline,
        "findings": [str(f) for f in verdict.findings] if len(verdict.findings) > 1 else [],
        "level": family.statement,
        # a refused line by its log's file name, as the report names the logs (never the path it was read at)
        "problems": [str(dataclasses.replace(p, file=Path(p.file).name)) for p in found.problems],
        "problem_count": f"{found.problem_count:,}",
        "mispaid": [
            {
                "line": m.line,
                "round": m.round,
                "wager": found.spec.wagers.title(m.wager),
                "logged": money(m.logged),
                "due": money(m.due),
                "why": m.reason,
            }
            for m in found.mispaid
        ],
        "mispaid_count": f"{found.mispaid_count:,}",
        "overpaid": money(found.overpaid),
        "underpaid": money(found.underpaid),
        "not_checked": [
            {
                "line": c.line,
                "round": c.round,
                "wager": found.spec.wagers.title(c.wager),
                "logged": money(c.logged),
                "why": c.reason,
            }
            for c in found.not_checked
        ],
        "not_checked_count": f"{found.not_checked_count:,}",
        "breaks": [
            {
                "line": b.line,
                "round": b.round,
                "table": b.table,
                "logged": money(b.logged),
                "carried": money(b.carried),
                "since": f"{b.since:,}",
            }
            for b in found.meters.breaks
        ],
        "break_count": f"{found.meters.break_count:,}",
        "returns": [
            {
                "title": r.title,
                "rounds": f"{r.rounds:,}",
                "bet": money(r.bet),
                "paid_net": money(r.paid_net),
                "net": money(r.net),
                "paid_rtp": _percent(r.paid_rtp),
                "rtp": _percent(r.rtp),
                "expected": _percent(r.expected_rtp),
                "theoretical": percent_text(r.theoretical_rtp),
                "z": decimal_text(r.z_decimal, 2) if r.z is not None else "—",
            }
            for r in found.returns.values()
        ],
        "rounds_z": f"{found.rounds_z:.2f}" if found.rounds_z is not None else None,
        "rounds_z_flagged": family.is_flagged("sharp", SHARP),
        "cards": [
            {
                "test": t.name,
                "observations": f"{t.observations:,}",
                "statistic": f"{t.statistic:,.2f}",
                "df": t.degrees_of_freedom,
                "p": p_figure(t.p_value) if t.runs else "—",
                "flagged": family.is_flagged("card", t.name),
                "runs": t.runs,
                "furthest": t.departure if family.is_flagged("card", t.name) else "",
            }
            for t in found.card_tests
        ],
        "seats": [
            {
                "seat": d.seat,
                "rounds": f"{d.rounds:,}",
                "below": f"{d.plays_below:,}",
                "above": f"{d.folds_above:,}",
                "z": f"{d.z:.2f}" if d.z is not None else "—",
                "flagged": family.is_flagged("seat", d.seat),
            }
            for d in sorted(found.seats.values(), key=lambda d: (not family.is_flagged("seat", d.seat), d.seat))[
                :SEATS_LISTED
            ]
        ],
        "seat_count": f"{len(found.seats):,} {'seat' if len(found.seats) == 1 else 'seats'}",
        "chart": audit_trail_svg(found.trail.points, money) if len(found.trail.points) > 1 else None,
        "integrity": _integrity(found),
        "trey_version": __version__,
    }


def outcome_row(o: Outcome, family: Family) -> dict[str, Any]:
    """One deal-integrity test as the report's tables show it (formatted text)."""
    flagged = family.is_flagged(FAMILY, o.name)
    return {
        "test": o.test,
        "group": o.group,
        "sample": f"{o.sample:,} {o.unit}",
        "needed": f"{o.needed:,}",
        "statistic": f"{o.statistic:,.2f}",
        "kind": f"χ², df {o.df:,}" if o.df is not None else f"z, {o.method.partition(', ')[2]}",
        "p": p_figure(o.p_value) if o.p_value is not None else "—",
        "counts": o.counts,
        "observed": _fraction(o.observed),
        "expected": _fraction(o.expected),
        "verdict": "flagged" if flagged else ("not enough data" if not o.runs else "pass"),
        "flagged": flagged,
    }


def _fraction(value: Fraction) -> str:
    if value.denominator == 1:
        return f"{value.numerator:,}"
    return decimal_text(value, 4 if abs(value) < 100 else 1, grouping=True)


def _integrity(found: Audit) -> dict[str, Any] | None:
    """The deal-integrity section: every test on all the rounds, a line per group, the flagged tests of every group,
    and the charts."""
    battery = found.integrity
    if battery is None:
        return None
    family = found.verdict.family
    grouped = battery.by_group()
    overall = [outcome_row(o, family) for o in grouped.get(OVERALL, [])]
    groups = []
    flagged: list[dict[str, Any]] = []
    detailed: list[dict[str, Any]] = []
    for group, outcomes in grouped.items():
        rows = [outcome_row(o, family) for o in outcomes]
        flagged.extend(r for r in rows if r["flagged"] and group != OVERALL)
        if group == OVERALL:
            continue
        if len(detailed) < GROUPS_DETAILED:
            detailed.append({"group": group, "tests": rows})
        ran = [o for o in outcomes if o.p_value is not None]
        low = min(ran, key=lambda o: o.p_value or 0.0) if ran else None
        groups.append(
            {
                "group": group,
                "rounds": f"{max((o.sample for o in outcomes if o.unit in ('decks', 'rounds')), default=0):,}",
                "run": f"{len(ran):,}",
                "short": f"{len(outcomes) - len(ran):,}",
                "flagged": f"{sum(r['flagged'] for r in rows):,}",
                "lowest": f"{low.test} ({p_text(low.p_value or 0.0)})" if low is not None else "—",
            }
        )
    return {
        "overall": overall,
        "groups": groups,
        "flagged": flagged,
        "detailed": detailed,
        "undetailed": f"{len(groups) - len(detailed):,}" if len(groups) > len(detailed) else "",
        "missing": list(battery.missing),
        "left": list(battery.groups_left),
        "heatmap": _heatmap(battery),
        "rising": _rising_chart(battery),
        "deal_order": DEAL_ORDER,
    }


def _departures(counts: Any) -> list[list[float]]:
    total = int(counts.sum())
    decks = total // 52
    expected = decks / 52
    return [[(int(c) - expected) / math.sqrt(expected) for c in row] for row in counts.tolist()] if decks else []


def _heatmap(battery: Battery) -> str | None:
    panels = []
    if battery.positions is not None and int(battery.positions.sum()):
        panels.append(("cards by deck position", "deck position", "card (2♣ … A♠)", _departures(battery.positions)))
    if battery.input_positions is not None and int(battery.input_positions.sum()):
        panels.append(
            (
                "input position to deck position",
                "input position",
                "deck position",
                _departures(battery.input_positions),
            )
        )
    return position_heatmap_svg(panels) if panels else None


def _rising_chart(battery: Battery) -> str | None:
    if battery.rising is None or not int(battery.rising.sum()):
        return None
    decks = int(battery.rising.sum())
    expected = [float(p * decks) for p in rising_law()]
    return rising_histogram_svg([int(c) for c in battery.rising], expected)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _percent(value: Fraction | None) -> str:
    return percent_text(value) if value is not None else "—"


def render_audit_html(found: Audit, *, paper: str, day: date, logs: list[str]) -> str:
    return render("audit.html.j2", **audit_context(found, paper=paper, day=day, logs=logs))
