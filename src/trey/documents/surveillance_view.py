"""The surveillance sheet: one page for the surveillance room and the pit, from ``trey protect``: what each leak
is worth, the strategy of a player who sees one dealer card, and the decisions that give such a player away."""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from typing import Any

from trey.core.numbers import MoneyStyle, decimal_text, percent_text, sqrt_decimal
from trey.core.version import __version__
from trey.documents.environment import render
from trey.engine.money import FROM_COMMAND_LINE, FROM_DEFAULT, FROM_PAYTABLE, money_rounded
from trey.paytable.model import money_style
from trey.protect.money import LeakCost, LeakMoney
from trey.protect.protection import Protection, strategy_words


def surveillance_context(
    protection: Protection, *, paper: str, day: date, leaks: LeakMoney | None = None
) -> dict[str, Any]:
    """The sheet's strings; with ``leaks``, each exactly counted leak's cost an hour and the hours until it shows
    (the figures of ``trey protect --format json``'s ``leaks_in_money``, rounded as it rounds them)."""
    ante = protection.analysis.ante_play
    assert ante is not None
    style = money_style(protection.spec.table)
    costs = {c.scenario: c for c in leaks.costs} if leaks is not None else {}
    leak_rows = [
        {
            "knows": play.scenario,
            "edge": percent_text(play.stats.mean, 2),
            "gain": f"{decimal_text(play.gain * 100, 2)} pt",
            "sd": decimal_text(sqrt_decimal(play.stats.variance), 4),
            **(leak_cost_cells(costs[play.scenario], style) if play.scenario in costs else {"cost": "", "shows": ""}),
        }
        for play in protection.scenarios
    ]
    leak_rows += [
        {
            "cost": "—",
            "shows": "—",
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
        "leaks": leak_rows,
        "money": leak_money_context(leaks, style),
        "chart": chart,
        "trey_version": __version__,
    }


WHERE = {FROM_COMMAND_LINE: "OPTION", FROM_PAYTABLE: "the paytable's table:", FROM_DEFAULT: "the default"}


def leak_money_context(leaks: LeakMoney | None, style: MoneyStyle) -> dict[str, str] | None:
    """The sheet's line on the leaks' money: the Ante and pace, and where each came from (the sheet of the
    standard game and of the family's)."""
    if leaks is None:
        return None
    return {
        "ante": style.money(leaks.average_ante),
        "ante_from": WHERE[leaks.ante_from].replace("OPTION", "--average-ante"),
        "pace": f"{leaks.decisions_per_hour} decisions an hour",
        "pace_from": WHERE[leaks.pace_from].replace("OPTION", "--decisions-per-hour"),
    }


def leak_cost_cells(cost: LeakCost, style: MoneyStyle) -> dict[str, str]:
    """A leak's cost an hour, and the hours until it shows (N0 of the informed player's rounds, in hours)."""
    shows = "never" if cost.hours_to_show is None else f"{cost.hours_to_show:,.1f} h"
    return {"cost": style.money(money_rounded(cost.cost_per_hour)), "shows": shows}


def render_surveillance_html(protection: Protection, *, paper: str, day: date, leaks: LeakMoney | None = None) -> str:
    return render("surveillance.html.j2", **surveillance_context(protection, paper=paper, day=day, leaks=leaks))
