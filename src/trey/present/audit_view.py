"""``trey audit`` on the terminal: what was refused, what was mis-paid, and each wager's return."""

from __future__ import annotations

from rich.console import Console

from trey.audit.audit import Audit
from trey.core.numbers import decimal_text, percent_text
from trey.paytable.model import money_style
from trey.present.layout import TextTable, figure, label, print_table
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
        mispaid = (figure("line"), figure("round", left=True), label("wager"), figure("logged"), figure("due"))
        rows = [(str(m.line), m.round, m.wager, money(m.logged), money(m.due), m.reason) for m in found.mispaid]
        print_table(console, TextTable((*mispaid, label("why")), rows, title="Mis-paid rounds"))
    console.print(
        f"{found.mispaid_count:,} wagers mis-paid: {money(found.overpaid)} overpaid, {money(found.underpaid)} underpaid"
    )
    if found.not_checked:
        unchecked = (figure("line"), figure("round", left=True), label("wager"), figure("logged"), label("why"))
        lines = [(str(c.line), c.round, c.wager, money(c.logged), c.reason) for c in found.not_checked]
        print_table(console, TextTable(unchecked, lines, title="Wagers not checked"))
    if found.not_checked_count > len(found.not_checked):
        console.print(f"... {found.not_checked_count - len(found.not_checked):,} more wagers not checked")
    returns = []
    for r in found.returns.values():
        returns.append(
            (
                r.title,
                f"{r.rounds:,}",
                money(r.bet),
                money(r.net),
                percent_text(r.rtp) if r.rtp is not None else "—",
                percent_text(r.theoretical_rtp),
                decimal_text(r.z_decimal, 2) if r.z is not None else "—",
            )
        )
    columns = (label("wager"), *(figure(c) for c in ("rounds", "bet", "net", "RTP", "theoretical RTP", "z")))
    print_table(console, TextTable(columns, returns, title="Return per wager (per unit of the initial bet)"))
    if found.rounds_z is not None:
        console.print(
            f"Ante & Play against the expectation of these very rounds (their cards and decisions): "
            f"z = {found.rounds_z:.2f}"
        )
    cards = [
        (
            t.name,
            f"{t.observations:,}",
            f"{t.statistic:.2f}",
            str(t.degrees_of_freedom),
            f"{t.p_value:.3g}",
            "FLAGGED" if t.flagged else "",
        )
        for t in found.card_tests
    ]
    columns = (label("test"), *(figure(c) for c in ("observations", "chi-square", "df", "p-value")), label(""))
    print_table(console, TextTable(columns, cards, title="Are the cards random? (chi-square; flagged below 10^-6)"))
    flagged = [d for d in found.seats.values() if d.flagged]
    for d in flagged:
        console.print(
            f"{user_text(d.seat)}: {d.deviations:,} decisions off the normal strategy in {d.rounds:,} rounds "
            f"({d.plays_below:,} played below it, {d.folds_above:,} folded above it) won more than the player's "
            f"cards alone explain (z = {d.z:.2f}): the figures show decisions that follow the dealer's cards"
        )
    console.print(user_text(str(found.verdict)), highlight=False)
