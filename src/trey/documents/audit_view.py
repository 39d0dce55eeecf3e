"""The audit report (``trey audit --out``): the certificate's look, the audit's tables and a chart of Ante & Play's
actual return against the expectation of the rounds."""

from __future__ import annotations

import dataclasses
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

from trey.audit.audit import SHARP, Audit
from trey.core.numbers import decimal_text, percent_text
from trey.core.version import __version__
from trey.documents.charts import audit_trail_svg
from trey.documents.environment import render
from trey.paytable.model import money_style
from trey.present.labels import return_units

SEATS_LISTED = 50  # the seats the report lists: the flagged first


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
                "statistic": f"{t.statistic:.2f}",
                "df": t.degrees_of_freedom,
                "p": f"{t.p_value:.3g}" if t.runs else "—",
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
        "trey_version": __version__,
    }


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _percent(value: Fraction | None) -> str:
    return percent_text(value) if value is not None else "—"


def render_audit_html(found: Audit, *, paper: str, day: date, logs: list[str]) -> str:
    return render("audit.html.j2", **audit_context(found, paper=paper, day=day, logs=logs))
