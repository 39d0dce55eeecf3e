"""``trey audit`` on the terminal: what was refused, what was mis-paid, and each wager's return."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from trey.audit.audit import Audit
from trey.core.numbers import decimal_text, percent_text
from trey.paytable.model import money_style
from trey.present.terminal import terminal_money, user_text, wide_console


def print_audit(found: Audit, console: Console | None = None) -> None:
    console = console or wide_console()
    money = terminal_money(money_style(found.spec.table)).money
    console.print(
        f"[bold]{user_text(found.spec.name)}[/bold]: audit of {found.rounds:,} rounds ({found.lines:,} lines)"
    )
    for problem in found.problems:
        console.print(user_text(str(problem)), highlight=False)
    if found.problem_count > len(found.problems):
        console.print(f"... {found.problem_count - len(found.problems):,} more lines refused or logged twice")
    if found.mispaid:
        table = Table(title="Mis-paid rounds", title_justify="left")
        for column in ("line", "round", "wager", "logged", "due", "why"):
            table.add_column(column, justify="right" if column in ("line", "logged", "due") else "left")
        for m in found.mispaid:
            table.add_row(str(m.line), user_text(m.round), m.wager, money(m.logged), money(m.due), user_text(m.reason))
        console.print(table)
    console.print(
        f"{found.mispaid_count:,} wagers mis-paid: {money(found.overpaid)} overpaid, {money(found.underpaid)} underpaid"
    )
    if found.not_checked:
        table = Table(title="Wagers not checked", title_justify="left")
        for column in ("line", "round", "wager", "logged", "why"):
            table.add_column(column, justify="right" if column in ("line", "logged") else "left")
        for c in found.not_checked:
            table.add_row(str(c.line), user_text(c.round), c.wager, money(c.logged), user_text(c.reason))
        console.print(table)
    if found.not_checked_count > len(found.not_checked):
        console.print(f"... {found.not_checked_count - len(found.not_checked):,} more wagers not checked")
    returns = Table(title="Return per wager (per unit of the initial bet)", title_justify="left")
    for column in ("wager", "rounds", "bet", "net", "RTP", "theoretical RTP", "z"):
        returns.add_column(column, justify="left" if column == "wager" else "right")
    for r in found.returns.values():
        returns.add_row(
            user_text(r.title),
            f"{r.rounds:,}",
            money(r.bet),
            money(r.net),
            percent_text(r.rtp) if r.rtp is not None else "—",
            percent_text(r.theoretical_rtp),
            decimal_text(r.z_decimal, 2) if r.z is not None else "—",
        )
    console.print(returns)
    if found.rounds_z is not None:
        console.print(
            f"Ante & Play against the expectation of these very rounds (their cards and decisions): "
            f"z = {found.rounds_z:.2f}"
        )
    cards = Table(title="Are the cards random? (chi-square; flagged below 10^-6)", title_justify="left")
    for column in ("test", "observations", "chi-square", "df", "p-value", ""):
        cards.add_column(column, justify="left" if column in ("test", "") else "right")
    for t in found.card_tests:
        cards.add_row(
            t.name,
            f"{t.observations:,}",
            f"{t.statistic:.2f}",
            str(t.degrees_of_freedom),
            f"{t.p_value:.3g}",
            "FLAGGED" if t.flagged else "",
        )
    console.print(cards)
    flagged = [d for d in found.seats.values() if d.flagged]
    for d in flagged:
        console.print(
            f"{user_text(d.seat)}: {d.deviations:,} decisions off the normal strategy in {d.rounds:,} rounds "
            f"({d.plays_below:,} played below it, {d.folds_above:,} folded above it) won more than the player's "
            f"cards alone explain (z = {d.z:.2f}): the figures show decisions that follow the dealer's cards"
        )
    console.print(user_text(str(found.verdict)), highlight=False)
