"""The audit report (``trey audit --out``): the certificate's look, the audit's tables and a chart of Ante & Play's
actual return against the expectation of the rounds."""

from __future__ import annotations

from datetime import date
from typing import Any

from trey.audit.audit import Audit
from trey.core.numbers import decimal_text, percent_text
from trey.core.version import __version__
from trey.documents.charts import audit_trail_svg
from trey.documents.environment import render
from trey.paytable.model import money_style


def audit_context(found: Audit, *, paper: str, day: date, logs: list[str]) -> dict[str, Any]:
    style = money_style(found.spec.table)
    money = style.money
    return {
        "game": found.spec.name,
        "paper": paper,
        "date": day.isoformat(),
        "logs": logs,
        "lines": f"{found.lines:,}",
        "rounds": f"{found.rounds:,}",
        "clean": found.verdict.passed,
        "verdict": str(found.verdict),
        "problems": [str(p) for p in found.problems],
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
        "returns": [
            {
                "title": r.title,
                "rounds": f"{r.rounds:,}",
                "bet": money(r.bet),
                "net": money(r.net),
                "rtp": percent_text(r.rtp) if r.rtp is not None else "—",
                "theoretical": percent_text(r.theoretical_rtp),
                "z": decimal_text(r.z_decimal, 2) if r.z is not None else "—",
            }
            for r in found.returns.values()
        ],
        "rounds_z": f"{found.rounds_z:.2f}" if found.rounds_z is not None else None,
        "cards": [
            {
                "test": t.name,
                "observations": f"{t.observations:,}",
                "statistic": f"{t.statistic:.2f}",
                "df": t.degrees_of_freedom,
                "p": f"{t.p_value:.3g}",
                "flagged": t.flagged,
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
                "flagged": d.flagged,
            }
            for d in sorted(found.seats.values(), key=lambda d: (not d.flagged, d.seat))[:50]
        ],
        "chart": audit_trail_svg(found.trail.points, style.currency) if len(found.trail.points) > 1 else None,
        "trey_version": __version__,
    }


def render_audit_html(found: Audit, *, paper: str, day: date, logs: list[str]) -> str:
    return render("audit.html.j2", **audit_context(found, paper=paper, day=day, logs=logs))
