"""``trey audit`` on the terminal: what was refused, what was mis-paid, and each wager's return."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console

from trey.audit.audit import SHARP, Audit
from trey.audit.integrity.battery import FAMILY, OVERALL
from trey.audit.verdict import p_figure
from trey.core.numbers import decimal_text, percent_text
from trey.paytable.model import money_style
from trey.present.labels import return_units
from trey.present.layout import TextTable, figure, label, print_table
from trey.present.terminal import terminal_money, user_text, wide_console


def print_audit(found: Audit, console: Console | None = None) -> None:
    """The verdict first (its headline, each finding, the tests' level), then what it rests on."""
    console = console or wide_console()
    money = terminal_money(money_style(found.spec.table)).money
    verdict = found.verdict
    family = verdict.family
    colour = "green" if verdict.passed else "red"
    lines = verdict.lines
    console.print(f"[bold {colour}]{user_text(lines[0])}[/bold {colour}]", highlight=False)
    for line in lines[1:]:
        console.print(user_text(line), highlight=False)
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
    wagers = f"{found.mispaid_count:,} {'wager' if found.mispaid_count == 1 else 'wagers'}"
    console.print(f"{wagers} mis-paid: {money(found.overpaid)} overpaid, {money(found.underpaid)} underpaid")
    if found.meters.breaks:
        columns = (figure("line"), figure("round", left=True), label("table"), figure("logged"), figure("carried"))
        rows = [
            (str(b.line), b.round, b.table, money(b.logged), money(b.carried), f"line {b.since:,}")
            for b in found.meters.breaks
        ]
        title = "Meters that do not follow from the rounds before at their table"
        print_table(console, TextTable((*columns, figure("carried from", left=True)), rows, title=title))
    if found.not_checked:
        unchecked = (figure("line"), figure("round", left=True), label("wager"), figure("logged"), label("why"))
        listed = [(str(c.line), c.round, c.wager, money(c.logged), c.reason) for c in found.not_checked]
        print_table(console, TextTable(unchecked, listed, title="Wagers not checked"))
    if found.not_checked_count > len(found.not_checked):
        console.print(f"... {found.not_checked_count - len(found.not_checked):,} more wagers not checked")
    returns = []
    for r in found.returns.values():
        returns.append(
            (
                r.title,
                f"{r.rounds:,}",
                money(r.bet),
                money(r.paid_net),
                money(r.net),
                _percent(r.paid_rtp),
                _percent(r.rtp),
                _percent(r.expected_rtp),
                percent_text(r.theoretical_rtp),
                decimal_text(r.z_decimal, 2) if r.z is not None else "—",
            )
        )
    headers = ("rounds", "bet", "net paid", "net due", "RTP paid", "RTP due", "expected RTP", "theoretical RTP", "z")
    return_columns = (label("wager"), *(figure(c) for c in headers))
    title = (
        f"Return per wager ({return_units(found.spec)}): paid as logged, due, and expected at these bets by the "
        "table's pay rule (z: due against expected); theoretical: the paytable's, at exact odds"
    )
    print_table(console, TextTable(return_columns, returns, title=title))
    if found.rounds_z is not None:
        flag = " (flagged)" if family.is_flagged("sharp", SHARP) else ""
        console.print(
            f"Ante & Play against the exact expectation of these very rounds (their cards and decisions): "
            f"z = {found.rounds_z:.2f}{flag}"
        )
    cards = [
        (
            t.name,
            f"{t.observations:,}",
            f"{t.statistic:,.2f}",
            str(t.degrees_of_freedom),
            p_figure(t.p_value) if t.runs else "—",
            ("FLAGGED" if family.is_flagged("card", t.name) else "") if t.runs else "not run",
            t.departure if family.is_flagged("card", t.name) else "",
        )
        for t in found.card_tests
    ]
    card_columns = (
        label("test"),
        *(figure(c) for c in ("observations", "chi-square", "df", "p-value")),
        label(""),
        label("furthest from expectation (a flagged test)"),
    )
    if cards:
        title = f"Are the cards random? (chi-square; {family.statement})"
        print_table(console, TextTable(card_columns, cards, title=title))
    if found.integrity is not None:
        _print_integrity(console, found)
    for d in found.seats.values():
        if family.is_flagged("seat", d.seat):
            console.print(
                f"{user_text(d.seat)}: {d.deviations:,} decisions off the normal strategy in {d.rounds:,} rounds "
                f"({d.plays_below:,} played below it, {d.folds_above:,} folded above it) won more than the player's "
                f"cards alone explain (z = {d.z:.2f}): the figures show decisions that follow the dealer's cards"
            )


def _percent(value: Fraction | None) -> str:
    return percent_text(value) if value is not None else "—"


def _print_integrity(console: Console, found: Audit) -> None:
    """The deal-integrity tests on all the rounds, then each group's tests that were flagged."""
    battery = found.integrity
    assert battery is not None
    family = found.verdict.family
    columns = (
        label("test"),
        label("group"),
        figure("sample"),
        figure("needs"),
        figure("statistic"),
        label("law"),
        figure("p-value"),
        label(""),
        label("observed against expected"),
    )
    rows = []
    for o in battery.outcomes:
        flagged = family.is_flagged(FAMILY, o.name)
        if o.group != OVERALL and not flagged:
            continue
        rows.append(
            (
                o.test,
                o.group,
                f"{o.sample:,} {o.unit}",
                f"{o.needed:,}",
                f"{o.statistic:,.2f}",
                f"chi-square, df {o.df:,}" if o.df is not None else o.method,
                p_figure(o.p_value) if o.p_value is not None else "—",
                "FLAGGED" if flagged else ("" if o.runs else "not enough data"),
                user_text(o.says.partition(": ")[2].rpartition(" (")[0]),
            )
        )
    title = f"Deal integrity: is the shuffle random? ({family.statement}; groups: their flagged tests)"
    print_table(console, TextTable(columns, rows, title=title))
    for line in battery.missing:
        console.print(f"not run, for data the log does not carry: {user_text(line)}", highlight=False)
