"""The hold report (``trey hold LEDGER --out DIR``): the audit report's look for a shift ledger's hold. The verdict
box with every finding, the tests' level, each table-shift's win against the distribution its drop gives it, the
drop a skim needs to be seen, and what the test does not check."""

from __future__ import annotations

from datetime import date
from typing import Any

from trey.audit.hold import MIN_ROUNDS, HoldReport, headline, level_text, skim_text
from trey.audit.verdict import Kind, alpha_text, p_figure, p_text
from trey.core.numbers import percent_text
from trey.core.version import __version__
from trey.documents.environment import render
from trey.paytable.model import GameSpec, money_style

# The table-shifts the report lists (a ledger may hold 100,000 rows: the JSON has them all).
SHIFTS_LISTED = 200


def _share(value: float) -> str:
    return f"{value:.2%}".replace("-", "−")


def hold_report_context(report: HoldReport, spec: GameSpec, *, paper: str, day: date) -> dict[str, Any]:
    """Every string of the report; amounts in the table's currency and locale, each figure as ``trey hold
    --format json`` gives it, rounded once here."""
    style = money_style(spec.table)

    def money(x: Any) -> str:
        from fractions import Fraction

        return style.money(Fraction(repr(round(float(x), 2))))

    verdict = report.verdict
    mix = report.mix
    bets = (
        ", ".join(f"{spec.wagers.title(b.wager)} {percent_text(b.share, 0)} at {style.money(b.bet)}" for b in mix.bets)
        + f"; {mix.seats} seat{'s' if mix.seats != 1 else ''}, {percent_text(mix.occupancy, 0)} occupied"
        if mix is not None
        else "not stated"
    )
    unchecked = [str(f) for f in verdict.findings if f.kind is Kind.NOT_CHECKED]
    # (test, flagged, tested), in the ledger's order when they all fit, else the flagged first
    rows = sorted(
        [(t, f, True) for t, f in zip(report.tests, report.flagged, strict=True)]
        + [(t, False, False) for t in report.untested],
        key=lambda r: r[0].row.line,
    )
    if len(rows) > SHIFTS_LISTED:
        rows = ([r for r in rows if r[1]] + [r for r in rows if not r[1]])[:SHIFTS_LISTED]
    listed = rows
    every = len(report.tests) + len(report.untested)
    return {
        "game": spec.name,
        "ledger": report.ledger,
        "paper": paper,
        "date": day.isoformat(),
        "trey_version": __version__,
        "clean": verdict.passed,
        "verdict": headline(report),
        "findings": [str(f) for f in verdict.findings],
        "level": verdict.family.statement,
        "tests_level": level_text(report),
        "alpha": alpha_text(report.alpha),
        "ratio": f"{float(report.drop_to_handle):.2f}",
        "edge": percent_text(report.blended_edge, 4),
        "expected_hold": percent_text(report.expected_hold, 2),
        "bets": bets,
        "shift_count": f"{every:,}",
        "shifts": [
            {
                "table": t.row.table,
                "shift": t.row.shift,
                "hours": f"{float(t.row.hours):,.1f}",
                "drop": money(t.row.drop),
                "win": money(t.row.win),
                "hold": _share(t.hold),
                "expected": money(t.expected_win),
                "sd": money(t.sd),
                "z": f"{t.z:+.2f}".replace("-", "−") if tested else "—",
                "p": p_figure(t.p_value) if tested else "—",
                "flagged": flagged,
                "tested": tested,
            }
            for t, flagged, tested in listed
        ],
        "unlisted": f"{every - len(listed):,}" if every > len(listed) else None,
        "combined": [
            {
                "name": f"{c.table} ({c.shifts:,} shifts)" if c.table is not None else "every table-shift",
                "drop": money(c.drop),
                "win": money(c.win),
                "hold": _share(c.hold),
                "expected": money(c.expected_win),
                "sd": money(c.sd),
                "z": f"{c.z:+.2f}".replace("-", "−"),
                "p": p_figure(c.p_value),
                "flagged": flagged,
            }
            for c, flagged in zip(report.combined, report.combined_flagged, strict=True)
        ],
        "minimum_rounds": f"{MIN_ROUNDS:,}",
        "scatter": None
        if report.scatter is None
        else {
            "says": f"Scatter of the {report.scatter.shifts:,} table-shifts tested: the sum of their z² "
            f"{report.scatter.statistic:,.2f} against {report.scatter.shifts:,} expected "
            f"({p_text(report.scatter.p_value)}; one-sided, too little scatter flagged)",
            "flagged": report.scatter_flagged,
        },
        "skim_sentence": skim_text(report, money(round(report.drop_needed))),
        "unchecked": unchecked,
    }


def render_hold_report_html(report: HoldReport, spec: GameSpec, *, paper: str, day: date) -> str:
    return render("hold_report.html.j2", **hold_report_context(report, spec, paper=paper, day=day))
