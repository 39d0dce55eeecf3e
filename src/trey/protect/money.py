"""Leaks in money: what each scenario of :func:`~trey.protect.protection.protect` costs the house per hour at a
table's average Ante and pace, and how many hours of play it takes to show.

One informed player betting ``average_ante`` on each of ``decisions_per_hour`` rounds gains ``gain`` per Ante over
a normal player (the informed return less the normal one): the leak costs gain x ante x decisions an hour. It shows
after N0 = (SD / edge)^2 rounds of the informed player's edge (when the information turns the game in the player's
favour; else never as a winning player, and the rounds until the gain alone equals one SD are given instead).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from trey.engine.money import DEFAULT_DECISIONS_PER_HOUR, FROM_COMMAND_LINE, FROM_DEFAULT, FROM_PAYTABLE
from trey.engine.risk import rounds_to_show
from trey.engine.stats import WagerStats
from trey.paytable.model import GameSpec


class _Scenario(Protocol):
    """A scenario of information, of the standard game's protection or of a family game's: per Ante."""

    @property
    def scenario(self) -> str: ...
    @property
    def stats(self) -> WagerStats: ...
    @property
    def gain(self) -> Fraction: ...


class Informed(Protocol):
    """What :func:`trey.protect.protection.protect` or :func:`trey.protect.family.protect_family` finds."""

    @property
    def spec(self) -> GameSpec: ...
    @property
    def scenarios(self) -> Sequence[_Scenario]: ...


@dataclass(frozen=True)
class LeakCost:
    scenario: str
    gain_per_ante: Fraction
    cost_per_hour: Fraction
    player_edge: Fraction  # the informed player's edge per Ante (positive: the player wins)
    n0_rounds: float | None  # (SD / player edge)^2 when the player wins, else (SD / gain)^2
    hours_to_show: float | None


def leak_costs(protection: Informed, average_ante: Fraction, decisions_per_hour: int) -> tuple[LeakCost, ...]:
    """Each exactly counted scenario of ``protection`` in money (see the module)."""
    if average_ante <= 0 or not 1 <= decisions_per_hour <= 1000:
        raise ValueError("the average Ante must be positive and decisions an hour 1 to 1000")
    costs = []
    for play in protection.scenarios:
        edge = play.stats.mean
        exact = rounds_to_show(play.stats.variance, edge if edge > 0 else play.gain)
        rounds = None if exact is None else float(exact)
        costs.append(
            LeakCost(
                play.scenario,
                play.gain,
                play.gain * average_ante * decisions_per_hour,
                edge,
                rounds,
                None if rounds is None else rounds / decisions_per_hour,
            )
        )
    return tuple(costs)


def leak_costs_json(costs: tuple[LeakCost, ...], average_ante: Fraction, decisions_per_hour: int) -> dict[str, Any]:
    return {
        "average_ante": float(average_ante),
        "decisions_per_hour": decisions_per_hour,
        "leaks": [
            {
                "scenario": c.scenario,
                "gain_per_ante": float(c.gain_per_ante),
                "cost_per_hour": round(float(c.cost_per_hour), 2),
                "player_edge": float(c.player_edge),
                "n0_rounds": None if c.n0_rounds is None else round(c.n0_rounds, 1),
                "hours_to_show": None if c.hours_to_show is None else round(c.hours_to_show, 1),
            }
            for c in costs
        ],
    }


def leak_cost_lines(costs: tuple[LeakCost, ...], average_ante: Fraction, decisions_per_hour: int) -> list[str]:
    lines = [
        f"Leaks in money: one informed player at {float(average_ante):,.2f} an Ante, "
        f"{decisions_per_hour} decisions an hour"
    ]
    for c in costs:
        shows = "never" if c.hours_to_show is None else f"{c.hours_to_show:,.1f} h ({c.n0_rounds:,.0f} rounds)"
        lines.append(f"  {c.scenario}: costs {float(c.cost_per_hour):,.2f} an hour; shows after {shows}")
    return lines


@dataclass(frozen=True)
class LeakMoney:
    """The leaks of a protection in money, at an average Ante and pace, and where each came from (the command
    line, the paytable's ``table:`` or the default pace)."""

    average_ante: Fraction
    decisions_per_hour: int
    costs: tuple[LeakCost, ...]
    ante_from: str
    pace_from: str


def leak_money(protection: Informed, average_ante: Fraction | None, decisions_per_hour: int | None) -> LeakMoney | None:
    """``trey protect``'s leaks in money: the average Ante from ``--average-ante``, else the paytable's ``table:
    average_bet``; the pace from ``--decisions-per-hour``, else ``table: decisions_per_hour``, else 60. None when
    neither gives an average Ante. ValueError when one is out of range."""
    table = protection.spec.table
    ante, ante_from = average_ante, FROM_COMMAND_LINE
    if ante is None:
        if table is None or table.average_bet is None:
            return None
        ante, ante_from = table.average_bet, FROM_PAYTABLE
    pace, pace_from = decisions_per_hour, FROM_COMMAND_LINE
    if pace is None:
        paytable_pace = table.decisions_per_hour if table is not None else None
        pace, pace_from = (
            (paytable_pace, FROM_PAYTABLE) if paytable_pace is not None else (DEFAULT_DECISIONS_PER_HOUR, FROM_DEFAULT)
        )
    return LeakMoney(ante, pace, leak_costs(protection, ante, pace), ante_from, pace_from)
