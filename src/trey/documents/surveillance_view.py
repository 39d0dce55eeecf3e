"""The surveillance sheet: one page for the surveillance room and the pit, from ``trey protect``: what each leak
is worth, the strategy of a player who sees one dealer card, and the decisions that give such a player away."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

from trey.core.numbers import decimal_text, percent_text, sqrt_decimal
from trey.core.version import __version__
from trey.documents.environment import render
from trey.protect.protection import Protection, strategy_words


def surveillance_context(protection: Protection, *, paper: str, day: date) -> dict[str, Any]:
    ante = protection.analysis.ante_play
    assert ante is not None
    leaks = [
        {
            "knows": play.scenario,
            "edge": percent_text(play.stats.mean, 2),
            "gain": f"{decimal_text(play.gain * 100, 2)} pt",
            "sd": decimal_text(sqrt_decimal(play.stats.variance), 4),
        }
        for play in protection.scenarios
    ]
    leaks += [
        {
            "knows": f"{c.scenario} (sampled: ±{100 * c.gain_error:.2f} pt, {c.samples:,} samples, seed {c.seed})",
            "edge": f"{100 * c.edge:.2f}%",
            "gain": f"{100 * c.gain:.2f} pt",
            "sd": f"{c.std_dev:.4f}",
        }
        for c in protection.sampled
    ]
    one = protection.scenarios[0]
    deals = one.stats.cycle
    chart = [
        {
            "seen": line.seen,
            "weakest": strategy_words(line.weakest_played),
            "plays_below": decimal_text(Fraction(tell.plays_below * 1000, deals), 1),
            "folds_above": decimal_text(Fraction(tell.folds_above * 1000, deals), 1),
        }
        for line, tell in zip(one.chart, one.tells, strict=True)
    ]
    return {
        "game": protection.spec.name,
        "paper": paper,
        "date": day.isoformat(),
        "normal_edge": percent_text(-ante.stats.mean, 2),
        "normal_rule": ante.strategy.rule,
        "leaks": leaks,
        "chart": chart,
        "trey_version": __version__,
    }


def render_surveillance_html(protection: Protection, *, paper: str, day: date) -> str:
    return render("surveillance.html.j2", **surveillance_context(protection, paper=paper, day=day))
