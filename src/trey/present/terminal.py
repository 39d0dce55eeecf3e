"""Readable terminal tables of an analysis (``trey analyze --format table``), drawn with rich."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table

from trey.core.numbers import (
    MoneyStyle,
    decimal_text,
    fraction_text,
    percent_text,
)
from trey.core.text import printable
from trey.engine.progressive import ProgressiveAnalysis
from trey.engine.results import AntePlayAnalysis, GameAnalysis, WagerAnalysis
from trey.figures.registry import (
    AVERAGE_WAGER,
    ELEMENT_OF_RISK,
    HIT_FREQUENCY,
    HOUSE_EDGE,
    LONG_RUN_RTP,
    RTP,
    STD_DEV,
    VOLATILITY_INDEX_90,
)
from trey.figures.theo import TheoreticalWin, theoretical_wins
from trey.paytable.model import money_style
from trey.present.figures_view import (
    ENVY_COLUMNS,
    HAND_COLUMNS,
    OUTCOME_COLUMNS,
    envy_rows,
    hand_outcome_rows,
    outcome_name,
    outcome_rows,
    progressive_rows,
    summary_rows,
)
from trey.present.labels import strategy_kind_words
from trey.trust.compliance import Verdict

if TYPE_CHECKING:
    from trey.choose.compare import ComparisonRow
    from trey.play.simulate import SimulationResult
    from trey.protect.hand import Choice, HandReport


class _TerminalMoney(MoneyStyle):
    """Amounts for a terminal: CLDR's bidirectional marks (he_IL, ar_EG) and the isolates around them are shown as
    escapes, never sent to the terminal to reorder the line."""

    def money(self, amount: Fraction | int) -> str:
        return printable(super().money(amount))


def terminal_money(style: MoneyStyle) -> MoneyStyle:
    return _TerminalMoney(style.currency, style.locale)


def user_text(text: str) -> str:
    """Text from a paytable for rich: control characters escaped, and ``[...]`` shown, never read as markup."""
    return escape(printable(text))


def wager_table(
    result: WagerAnalysis,
    *,
    exact: bool = False,
    style: MoneyStyle | None = None,
    meter: Fraction | None = None,
    theo: TheoreticalWin | None = None,
) -> Group:
    title = f"{user_text(result.title)}  —  cycle {result.cycle:,} deals"
    outcomes = Table(title=title, title_justify="left", title_style="bold")
    for column in OUTCOME_COLUMNS:
        outcomes.add_column(column, justify="left" if column == "outcome" else "right", no_wrap=True)
    for row in outcome_rows(result, exact=exact):
        outcomes.add_row(*row)
    summary = Table(show_header=False, box=None, pad_edge=False)
    summary.add_column(style="bold")
    summary.add_column()
    for label, text in summary_rows(result, exact=exact, style=style, theo=theo):
        summary.add_row(label, text)
    parts: list[object] = [outcomes, summary]
    if isinstance(result, AntePlayAnalysis):
        rows = hand_outcome_rows(result, exact=exact)
        parts.append(rows_table(f"{user_text(result.title)} by the player's hand", HAND_COLUMNS, rows, text=(0, 1)))
    if result.progressive is not None:
        parts.append(progressive_table(result.progressive, style=style or MoneyStyle(), meter=meter, exact=exact))
    return Group(*parts, "")  # type: ignore[arg-type]


def rows_table(
    title: str, columns: tuple[str, ...], rows: Sequence[tuple[str, ...]], *, text: tuple[int, ...] = (0,)
) -> Table:
    """A titled table of text rows: the columns of ``text`` left-aligned, the figures right-aligned."""
    table = Table(title=title, title_justify="left")
    for index, column in enumerate(columns):
        table.add_column(column, justify="left" if index in text else "right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


def progressive_table(
    p: ProgressiveAnalysis, *, style: MoneyStyle, meter: Fraction | None = None, exact: bool = False
) -> Group:
    """The RTP of a progressive against its meter: the formula's exact coefficients, reset, break-even, envy."""
    figures = Table(show_header=False, box=None, pad_edge=False)
    figures.add_column(style="bold")
    figures.add_column()
    for label, text in progressive_rows(p, style=style, meter=meter, exact=exact):
        figures.add_row(label, text)
    envy = Table(title="Envy: by the number of other progressive bettors", title_justify="left")
    for column in ENVY_COLUMNS:
        envy.add_column(column, justify="right", no_wrap=True)
    for row in envy_rows(p, style=style):
        envy.add_row(*row)
    return Group(figures, envy)


def wide_console() -> Console:
    """A console for stdout; files and pipes get 120 columns, so that no figure is cut."""
    console = Console(emoji=False)  # ":smile:" in a name stays text
    return console if console.is_terminal else Console(width=120, emoji=False)


def print_analysis(
    analysis: GameAnalysis,
    *,
    exact: bool = False,
    meter: Fraction | None = None,
    console: Console | None = None,
) -> None:
    console = console or wide_console()
    console.print(
        f"[bold]{user_text(analysis.spec.name)}[/bold]  (sha256 {analysis.spec.sha256[:12]})", highlight=False
    )
    console.print("")
    style = terminal_money(money_style(analysis.spec.table))
    theos = theoretical_wins(analysis)
    for wager, result in analysis.wagers.items():
        console.print(wager_table(result, exact=exact, style=style, meter=meter, theo=theos[wager]))


HAND_COLUMNS_OF_A_CHOICE = ("the player sees", "play", "fold", "margin", "decision")


def _ev_text(value: Fraction, exact: bool) -> str:
    text = decimal_text(value, 4)
    return f"{text} ({fraction_text(value)})" if exact else text


def _choice_row(sees: str, choice: Choice, exact: bool) -> tuple[str, ...]:
    decision = choice.decision
    if decision == "depends on the suits":
        decision += f" (plays {choice.playing} of {choice.hands})"
    return (sees, *(_ev_text(v, exact) for v in (choice.play, choice.fold, choice.margin)), decision)


def print_hand(report: HandReport, *, exact: bool = False, console: Console | None = None) -> None:
    """``trey hand``: the expected values of playing and folding a hand, and with a seen dealer card."""
    console = console or wide_console()
    normal = report.normal
    rows = [_choice_row("nothing", normal, exact)]
    if report.informed is not None:
        seen = " ".join(str(c) for c in report.seen)
        rows.append(_choice_row(f"the dealer's {seen}", report.informed, exact))
    title = f"{user_text(report.spec.name)}: {user_text(report.hand)}"
    console.print(rows_table(title, HAND_COLUMNS_OF_A_CHOICE, rows, text=(0, 4)), highlight=False)
    lines = [
        "Expected net results per Ante, the Ante Bonus included; playing is the better decision when the margin "
        "is above 0."
    ]
    if normal.hands > 1:
        lines.append(f"The average of the {normal.hands} hands of {user_text(report.hand)}, each equally likely.")
    if report.informed is not None and report.informed.hands < normal.hands:
        lines.append(f"With the seen cards: the {report.informed.hands} of them that leave the seen cards in the deck.")
    does = "plays it" if report.strategy_plays == normal.hands else "folds it"
    if 0 < report.strategy_plays < normal.hands:
        does = f"plays {report.strategy_plays} of them"
    lines.append(f"The table's strategy ({strategy_kind_words(report.strategy.kind)}: {report.strategy.rule}) {does}.")
    console.print("\n".join(lines), highlight=False)


def print_simulation(result: SimulationResult, console: Console | None = None, *, verdict: str | None = None) -> None:
    """The simulation's tables and its verdict line (``verdict``: a merge's, which says what was dealt again)."""
    console = console or wide_console()
    console.print(
        f"{result.rounds:,} rounds, seed {result.seed}, generator {result.generator}, {result.workers} worker(s)",
        highlight=False,
    )
    summary = Table(title="Observed against exact", title_justify="left", title_style="bold")
    for column in ("wager", "observed RTP", "exact RTP", "95% interval", "z", "chi-square", "p-value", "result"):
        summary.add_column(column, justify="left" if column == "wager" else "right", no_wrap=True)
    for w in result.wagers.values():
        low, high = w.interval_95
        summary.add_row(
            user_text(w.title),
            percent_text(w.observed_rtp),
            percent_text(w.exact_rtp),
            f"{low:.4%} to {high:.4%}",
            f"{w.z_score:+.2f}",
            f"{w.chi_square:.2f} ({w.degrees_of_freedom} df)",
            f"{w.p_value:.4g}",
            str(Verdict.of(w.passed)),
        )
    console.print(summary)
    for w in result.wagers.values():
        if w.meter is not None:
            m = w.meter
            console.print(
                f"{user_text(w.title)}: the RTP above is long-run, for the bettor's own hand "
                "(envy aside; increments and reseeds counted as paid); "
                f"the meter was carried through the rounds: {m.jackpots:,} jackpots paid "
                f"{decimal_text(m.paid_from_meter, 2, grouping=True)} (largest "
                f"{decimal_text(m.largest_jackpot, 2, grouping=True)}), final meter "
                f"{decimal_text(m.final_meter, 2, grouping=True)}; RTP paid {percent_text(m.paid_rtp)}",
                highlight=False,
            )
    for w in result.wagers.values():
        outcomes = Table(title=f"{user_text(w.title)}: outcomes", title_justify="left")
        for column in ("outcome", "observed", "expected"):
            outcomes.add_column(column, justify="left" if column == "outcome" else "right", no_wrap=True)
        for c in w.outcomes:
            outcomes.add_row(outcome_name(c.outcome), f"{c.observed:,}", decimal_text(c.expected, 1, grouping=True))
        console.print(outcomes)
    if verdict is None:
        verdict = (
            "PASS: the simulation agrees with the exact figures"
            if result.passed
            else "FAIL: the simulation disagrees with the exact figures (|z| > 4 or p < 1e-6)"
        )
    console.print(verdict, highlight=False, soft_wrap=True)  # one line, however long: tools read it


def print_comparison(rows: list[ComparisonRow], console: Console | None = None) -> None:
    from trey.choose.compare import RANKED_BY, vs_first_text

    console = console or wide_console()
    for wager in dict.fromkeys(r.wager for r in rows):
        group = [r for r in rows if r.wager == wager]
        progressive = any(r.figure(LONG_RUN_RTP) is not None for r in group)
        ranked_by = RANKED_BY if progressive else "house edge"
        table = Table(title=f"{user_text(group[0].title)}: ranked by {ranked_by}", title_justify="left")
        columns = ["file", "house edge", "vs first", "RTP", *(["long-run RTP"] if progressive else []), "hit freq."]
        columns += ["SD", "VI 90%"]
        ante = any(r.figure(ELEMENT_OF_RISK) is not None for r in group)
        if ante:
            columns += ["EoR", "avg wager"]
        columns += ["theo/hour"]
        for column in columns:
            table.add_column(column, justify="left" if column == "file" else "right", no_wrap=column != "file")
        for r in group:
            cells = [
                user_text(r.file),
                HOUSE_EDGE.text_of(r.house_edge),
                vs_first_text(r),
                RTP.text_of(r.figure(RTP)),
                *([LONG_RUN_RTP.text_of(r.figure(LONG_RUN_RTP))] if progressive else []),
                *(f.text_of(r.figure(f)) for f in (HIT_FREQUENCY, STD_DEV, VOLATILITY_INDEX_90)),
            ]
            if ante:
                cells += [f.text_of(r.figure(f)) for f in (ELEMENT_OF_RISK, AVERAGE_WAGER)]
            cells.append(decimal_text(r.theo_per_hour, 2))
            table.add_row(*cells)
        console.print(table)
