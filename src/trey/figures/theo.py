"""Theoretical win: what a wager earns the house an hour, on average (casino operations and player rating).

    theoretical win per hour = house edge x average bet x decisions per hour

with 60 decisions an hour unless the table says otherwise. Ante & Play is quoted both per Ante (its house edge on
the average Ante) and per total action (the element of risk on the average amount wagered, Ante and Play): the two
give the same money, as the regulators' and the floor's ways of saying it. A progressive is judged on its long-run
house edge, on its fixed stake.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from trey.engine.results import AntePlayAnalysis, GameAnalysis, WagerAnalysis

if TYPE_CHECKING:
    from trey.core.numbers import MoneyStyle

DEFAULT_DECISIONS_PER_HOUR = 60


@dataclass(frozen=True)
class TheoreticalWin:
    wager: str
    average_bet: Fraction  # the average initial bet (the Ante), in currency
    average_bet_given: bool  # False: per unit bet (no table.average_bet)
    decisions_per_hour: int
    decisions_per_hour_default: bool
    house_edge: Fraction  # per unit of the initial bet: for a progressive the long-run one, lone bettor
    edge_name: str  # what house_edge is: "house edge", or "long-run house edge" for a progressive
    per_hour: Fraction
    # Ante & Play only: the average amount wagered a round (Ante and Play) and the element of risk on it
    average_action: Fraction | None = None
    element_of_risk: Fraction | None = None


def theoretical_win(result: WagerAnalysis, analysis: GameAnalysis) -> TheoreticalWin:
    table = analysis.spec.table
    dph = table.decisions_per_hour if table is not None and table.decisions_per_hour is not None else None
    given = table.average_bet if table is not None else None
    # The house's win on a progressive is its long-run edge: every amount fed to the meter is paid out in time.
    edge = 1 - (result.progressive.long_run_rtp if result.progressive is not None else result.stats.rtp)
    name = "long-run house edge" if result.progressive is not None else "house edge"
    if result.progressive is not None:
        bet, bet_given = result.progressive.stake, True  # a fixed wager: its stake is the bet
    else:
        bet, bet_given = (given, True) if given is not None else (Fraction(1), False)
    decisions = dph if dph is not None else DEFAULT_DECISIONS_PER_HOUR
    per_hour = edge * bet * decisions
    if isinstance(result, AntePlayAnalysis):
        action = bet * result.average_wager  # element of risk x action x decisions: the same money as per_hour
        return TheoreticalWin(
            result.wager, bet, bet_given, decisions, dph is None, edge, name, per_hour, action, result.element_of_risk
        )
    return TheoreticalWin(result.wager, bet, bet_given, decisions, dph is None, edge, name, per_hour)


def theoretical_wins(analysis: GameAnalysis) -> dict[str, TheoreticalWin]:
    return {wager: theoretical_win(result, analysis) for wager, result in analysis.wagers.items()}


def theo_sentence(theo: TheoreticalWin, style: MoneyStyle) -> str:
    """``$50.59 an hour: house edge 3.3730% x $25 average bet x 60 decisions an hour (the default)``."""
    from trey.core.numbers import percent_text

    money = style.money
    bet = money(theo.average_bet) if theo.average_bet_given else f"{money(1)} (per unit)"
    default = " (the default)" if theo.decisions_per_hour_default else ""
    text = (
        f"{money(theo.per_hour)} an hour: {theo.edge_name} {percent_text(theo.house_edge)} × {bet} average "
        f"bet × {theo.decisions_per_hour} decisions an hour{default}"
    )
    if theo.average_action is not None and theo.element_of_risk is not None:
        text += (
            f"; per total action: element of risk {percent_text(theo.element_of_risk)} × "
            f"{money(theo.average_action)} average action"
        )
    return text
