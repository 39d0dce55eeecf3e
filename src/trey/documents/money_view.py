"""The table's money as documents print it (issue 34): the bet mix the paytable's ``table:`` describes, its blended
house edge, the theoretical win per table-hour and the range an hour's win falls in. The figures are
:mod:`trey.engine.money`'s, rounded as ``trey analyze --format json`` rounds them (cents), so that every tool
prints the same amounts; this only words them, in the table's currency and locale."""

from __future__ import annotations

from typing import Any

from trey.core.numbers import MoneyStyle, percent_text
from trey.engine.money import TableMoney, hours_text, money_rounded
from trey.engine.stats import Z_90, Z_95
from trey.paytable.model import GameSpec, money_style


def money_lines(money: TableMoney, spec: GameSpec) -> dict[str, Any]:
    """The strings of the certificate's appendix and the workbench's card: ``bets`` (a line each), ``table``,
    ``edge``, ``theo``, ``wagered``, and when the whole table was counted ``sd``, ``range_90``, ``range_95``,
    ``hours``."""
    style = money_style(spec.table)
    mix = money.mix
    seats = f"{mix.seats} seat{'s' if mix.seats != 1 else ''}"
    view: dict[str, Any] = {
        "bets": [
            f"{spec.wagers.title(b.wager)}: {percent_text(b.share, 0 if (b.share * 100).denominator == 1 else 2)} "
            f"of the seated players, {style.money(b.bet)} on average"
            for b in mix.bets
        ],
        "table": f"{seats}, {percent_text(mix.occupancy, 0 if (mix.occupancy * 100).denominator == 1 else 2)} "
        f"occupied, {mix.decisions_per_hour} decisions an hour",
        "edge": percent_text(money.blended_edge, 4),
        "wagered_seat": style.money(money_rounded(money.wagered_per_seat)),
        "theo": style.money(money_rounded(money.theo_per_hour)),
        "wagered": style.money(money_rounded(money.wagered_per_hour)),
    }
    sd = money.sd_per_hour
    if sd is not None:
        view["sd"] = style.money(money_rounded(sd))
        view["range_90"] = _range(money, Z_90, style)
        view["range_95"] = _range(money, Z_95, style)
        view["hours"] = hours_text(money)
    return view


def _range(money: TableMoney, z: float, style: MoneyStyle) -> str:
    low, high = money.range_per_hour(z) or (0.0, 0.0)
    return f"{style.money(money_rounded(low))} to {style.money(money_rounded(high))}"
