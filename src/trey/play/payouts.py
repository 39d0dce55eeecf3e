"""What a dealer pays: win amounts at real bet sizes, rounded to the chips in play and held to the payout cap.

Bets are whole currency units; chips may be fractions of the unit. Odds "3 to 2" on 5 win 7.5: the rule here
rounds *down* to a multiple of the smallest chip (7 with $1 chips, 7.50 with 50-cent chips), the usual house rule,
and says so. :class:`PayRule` is the one statement of it, for odds, fixed amounts and meter shares alike; every
document that prints an amount a dealer pays (the sheet's tables and worked hands, the drill) asks it.

Whether a progressive's pays are held to the table's payout cap is a rule of the house
(``table.payout_cap_covers_progressive``, default false: a progressive jackpot is paid in full, as the common practice
is — docs/regulatory-notes.md gives the source).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from trey.core.numbers import MoneyStyle
from trey.paytable.model import Table, money_style
from trey.paytable.odds import Odds
from trey.paytable.pay_kind import PayKind
from trey.paytable.pays import Pay

DEFAULT_BETS = (5, 10, 15, 25, 50, 100)
# Bet sizes dealers commonly see, the commonest first: columns are taken in this order.
COMMON_BETS = (5, 10, 25, 100, 50, 500, 1000, 15, 20, 200, 250, 1, 2, 3, 2500, 5000, 10000, 25000, 4, 2000)
MAX_COLUMNS = 6  # bet columns that fit one landscape page at 12 pt beside the labels
# The largest bet a column may show: its payouts (up to 1000 to 1, eleven characters with grouping) still fit a
# cell at 12 pt; a test renders the widest case and finds every column on the page.
MAX_BET = 100_000


@dataclass(frozen=True)
class Payout:
    exact: Fraction  # bet x net odds, or the amount, or the share of the meter: before rounding or cap
    amount: Fraction  # what the dealer pays: a whole number of the smallest chip
    rounded: bool  # the exact win was not a whole number of the smallest chip
    capped: bool  # the win exceeded the payout cap and is paid at the cap


def smallest_chip(table: Table | None) -> Fraction:
    return min(table.chips) if table is not None and table.chips else Fraction(1)


def bet_columns(table: Table | None) -> tuple[int, ...]:
    """The bet sizes a dealer commonly sees between the table's limits (at most 6), or the defaults."""
    if table is None or (table.minimum is None and table.maximum is None):
        return DEFAULT_BETS
    low = table.minimum or 1
    high = table.maximum or max(COMMON_BETS)
    chip = smallest_chip(table)
    chosen = {low, high}
    for bet in COMMON_BETS:
        if len(chosen) >= MAX_COLUMNS:
            break
        if low <= bet <= high and bet % chip == 0:
            chosen.add(bet)
    return tuple(sorted(chosen))


def payout(
    bet: Fraction | int, odds: Odds | Fraction, *, chip: Fraction | int = 1, cap: Fraction | int | None = None
) -> Payout:
    """The win on ``bet`` at ``odds`` (the stake is returned besides), rounded down to a multiple of the smallest
    ``chip`` (which may be a fraction of the unit, 0.50) and capped."""
    net = odds.net if isinstance(odds, Odds) else odds
    return _paid(bet * net, chip=chip, cap=cap)


def _paid(exact: Fraction, *, chip: Fraction | int, cap: Fraction | int | None) -> Payout:
    whole = Fraction(exact // chip) * chip
    rounded = whole != exact
    capped = cap is not None and whole > cap
    return Payout(exact, Fraction(cap) if capped and cap is not None else whole, rounded, capped)


@dataclass(frozen=True)
class PayRule:
    """How a table pays: its money style, the smallest chip wins are rounded down to, and the payout cap."""

    style: MoneyStyle
    chip: Fraction
    cap: int | None
    cap_covers_progressive: bool = False  # whether a progressive's pays are held to the cap too

    @classmethod
    def of(cls, table: Table | None) -> PayRule:
        if table is None:
            return cls(money_style(table), smallest_chip(table), None)
        return cls(money_style(table), smallest_chip(table), table.payout_cap, table.payout_cap_covers_progressive)

    def money(self, amount: Fraction | int) -> str:
        return self.style.money(amount)

    def pay(
        self,
        bet: Fraction | int,
        pay: Pay | Fraction,
        *,
        meter: Fraction | None = None,
        progressive: bool = False,
    ) -> Payout:
        """What the dealer hands over on ``bet``: for odds the win (the stake is returned besides), for an amount
        or a meter share (``meter``: its value) that amount, paid for the stake. Rounded down to the smallest chip;
        held to the cap, a progressive's pays only when the house says so."""
        exact = pay.won(bet, meter=meter) if isinstance(pay, PayKind) else bet * pay  # a Fraction: a net to pay
        exempt = progressive and not self.cap_covers_progressive
        return _paid(exact, chip=self.chip, cap=None if exempt else self.cap)

    def net(
        self, bet: Fraction | int, pay: Pay, *, meter: Fraction | None = None, progressive: bool = False
    ) -> Fraction:
        """The player's net result of a win: odds' win as paid; an amount or a share as paid, less the stake it
        was paid for."""
        paid = self.pay(bet, pay, meter=meter, progressive=progressive).amount
        return paid if pay.scales_with_bet else paid - bet
