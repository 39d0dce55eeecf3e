"""Readable terminal tables of an analysis (``trey analyze --format table``), a simulation and a comparison, fitted
to the terminal by :mod:`trey.present.layout` (no figure is ever cut)."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape

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
from trey.paytable.model import ANTE_PLAY, money_style
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
from trey.present.layout import TextTable, figure, label, print_all, print_table, say, terminal_console

if TYPE_CHECKING:
    from trey.choose.compare import Comparison
    from trey.play.simulate import SimulationResult
    from trey.protect.family_hand import FamilyHandReport
    from trey.protect.hand import Choice, HandReport


class _TerminalMoney(MoneyStyle):
    """Amounts for a terminal: CLDR's bidirectional marks (he_IL, ar_EG) and the isolates around them are shown as
    escapes, never sent to the terminal to reorder the line."""

    def money(self, amount: Fraction | int) -> str:
        return printable(super().money(amount))


def terminal_money(style: MoneyStyle) -> MoneyStyle:
    return _TerminalMoney(style.currency, style.locale)


def user_text(text: str) -> str:
    """Text from a paytable for a line printed as rich markup (the audit's): control characters escaped, and
    ``[...]`` shown, never read as markup. The tables of :mod:`trey.present.layout` need none of this."""
    return escape(printable(text))


def wager_parts(
    result: WagerAnalysis,
    *,
    exact: bool = False,
    style: MoneyStyle | None = None,
    meter: Fraction | None = None,
    theo: TheoreticalWin | None = None,
) -> list[TextTable | str]:
    """A wager's outcome table, its figures and, for a progressive, its meter's; then an empty line."""
    outcomes = TextTable(
        tuple(label(c) if c == "outcome" else figure(c) for c in OUTCOME_COLUMNS),
        outcome_rows(result, exact=exact),
        title=f"{result.title}  —  cycle {result.cycle:,} deals",
    )
    summary = TextTable(
        (label(bold=True), label()), summary_rows(result, exact=exact, style=style, theo=theo), pairs=True
    )
    parts: list[TextTable | str] = [outcomes, summary]
    if isinstance(result, AntePlayAnalysis):
        rows = hand_outcome_rows(result, exact=exact)
        parts.append(rows_table(f"{result.title} by the player's hand", HAND_COLUMNS, rows, text=(0, 1)))
    if result.progressive is not None:
        parts += progressive_parts(result.progressive, style=style or MoneyStyle(), meter=meter, exact=exact)
    return [*parts, ""]


def rows_table(
    title: str, columns: tuple[str, ...], rows: Sequence[tuple[str, ...]], *, text: tuple[int, ...] = (0,)
) -> TextTable:
    """A titled table of text rows: the columns of ``text`` are labels (left, wrapped), the others figures."""
    return TextTable(
        tuple(label(c) if i in text else figure(c) for i, c in enumerate(columns)), list(rows), title=title
    )


def progressive_parts(
    p: ProgressiveAnalysis, *, style: MoneyStyle, meter: Fraction | None = None, exact: bool = False
) -> list[TextTable | str]:
    """The RTP of a progressive against its meter: the formula's exact coefficients, reset, break-even, envy."""
    figures = TextTable(
        (label(bold=True), label()), progressive_rows(p, style=style, meter=meter, exact=exact), pairs=True
    )
    envy = TextTable(
        tuple(figure(c) for c in ENVY_COLUMNS),
        envy_rows(p, style=style),
        title="Envy: by the number of other progressive bettors",
        bold_title=False,
    )
    return [figures, envy]


def wide_console() -> Console:
    """A console for stdout at the width trey's tables fit (:func:`trey.present.layout.terminal_console`)."""
    return terminal_console()


def print_analysis(
    analysis: GameAnalysis,
    *,
    exact: bool = False,
    meter: Fraction | None = None,
    console: Console | None = None,
) -> None:
    console = console or terminal_console()
    say(console, f"{analysis.spec.name}  (sha256 {analysis.spec.sha256[:12]})", bold=True)
    say(console, "")
    style = terminal_money(money_style(analysis.spec.table))
    theos = theoretical_wins(analysis)
    for wager, result in analysis.wagers.items():
        print_all(console, wager_parts(result, exact=exact, style=style, meter=meter, theo=theos[wager]))


def units_text(amount: Fraction) -> str:
    """An amount in units of the initial bet: whole (``33,429``), or to the cent when a pay is fractional."""
    return f"{amount.numerator:,}" if amount.denominator == 1 else decimal_text(amount, 2, grouping=True)


SIMULATION_COLUMNS = ("wager", "observed RTP", "exact RTP", "95% interval", "z", "chi-square", "p-value", "result")


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
    console = console or terminal_console()
    normal = report.normal
    rows = [_choice_row("nothing", normal, exact)]
    if report.informed is not None:
        seen = " ".join(str(c) for c in report.seen)
        rows.append(_choice_row(f"the dealer's {seen}", report.informed, exact))
    title = f"{report.spec.name}: {report.hand}"
    print_table(console, rows_table(title, HAND_COLUMNS_OF_A_CHOICE, rows, text=(0, 4)))
    lines = [
        "Expected net results per Ante, the Ante Bonus included; playing is the better decision when the margin "
        "is above 0."
    ]
    if normal.hands > 1:
        lines.append(f"The average of the {normal.hands} hands of {report.hand}, each equally likely.")
    if report.informed is not None and report.informed.hands < normal.hands:
        lines.append(f"With the seen cards: the {report.informed.hands} of them that leave the seen cards in the deck.")
    does = "plays it" if report.strategy_plays == normal.hands else "folds it"
    if 0 < report.strategy_plays < normal.hands:
        does = f"plays {report.strategy_plays} of them"
    lines.append(f"The table's strategy ({strategy_kind_words(report.strategy.kind)}: {report.strategy.rule}) {does}.")
    for line in lines:
        say(console, line)


def print_family_hand(report: FamilyHandReport, *, exact: bool = False, console: Console | None = None) -> None:
    """``trey hand`` of a family game: each option's expected value per Ante against each face-up card, the margin
    and the decision (fits 80 columns; ``exact``: the exact fractions listed after the table)."""
    from trey.protect.family_hand import DEPENDS, option_name

    console = console or terminal_console()
    face_up = report.rows[0].up is not None
    first = "up card" if report.up is not None else "up rank" if face_up else "dealer"
    columns = (first, *(option_name(o) for o in report.options), "margin", "decision")
    rows = []
    for row in report.rows:
        values = [decimal_text(row.values[o], 4) if o in row.values else "—" for o in report.options]
        margin = decimal_text(row.margin, 4) if row.margin is not None else "—"
        rows.append((row.up or "none up", *values, margin, row.decision))
    against = f"against the up card {report.up}" if report.up is not None else "by the up card"
    title = f"{report.spec.name}: {report.hand}, {against if face_up else 'no dealer card up'}"
    print_table(console, rows_table(title, columns, rows, text=(0, len(columns) - 1)))
    lines = [
        "Expected net results per Ante (the Blind, the Ante Bonus and every table of the game included) of each "
        "option open to the hand (—: not open to it); the margin is what the best option gains over the next best."
    ]
    if face_up and report.up is None:
        lines.append("A rank's row is the average over its four up cards, each that the hand leaves in the deck.")
    if report.hands > 1:
        lines.append(f"The average of the {report.hands} hands of {report.hand}, each equally likely.")
    for row in report.rows:
        if row.decision == DEPENDS:
            split = ", ".join(f"{option_name(o)} in {n:,}" for o, n in row.taking.items() if n)
            lines.append(f"{row.up or 'Every dealer hand'}: the {row.cells:,} cells split by their suits: {split}.")
    if exact:
        for row in report.rows:
            exactly = ", ".join(f"{option_name(o)} {fraction_text(v)}" for o, v in row.values.items())
            lines.append(f"Exactly, {row.up or 'no card up'}: {exactly}.")
    for line in lines:
        say(console, line)


# How a simulation's amounts are stated: the standard game's in units of the initial bet; a family game's Ante & Play
# (issue 31) in Antes, its RTP per Ante (in a game with a Blind the initial bet is two Antes).
STANDARD_UNITS = "units of the initial bet"
FAMILY_UNITS = "in Antes; RTP per Ante"


def print_simulation(
    result: SimulationResult, console: Console | None = None, *, verdict: str | None = None, per_ante: bool = False
) -> None:
    """The simulation's tables and its verdict line (``verdict``: a merge's, which says what was dealt again).
    ``per_ante``: a game of the family other than the standard one, whose Ante & Play is stated per Ante."""
    console = console or terminal_console()
    say(
        console,
        f"{result.rounds:,} rounds, seed {result.seed}, generator {result.generator}, {result.workers} worker(s)",
    )
    rows = []
    for w in result.wagers.values():
        low, high = w.interval_95
        rows.append(
            (
                w.title,
                percent_text(w.observed_rtp),
                percent_text(w.exact_rtp),
                f"{low:.4%} to {high:.4%}",
                f"{w.z_score:+.2f}",
                f"{w.chi_square:.2f} ({w.degrees_of_freedom} df)",
                f"{w.p_value:.4g}",
                w.result,
            )
        )
    columns = tuple(label(c) if c == "wager" else figure(c) for c in SIMULATION_COLUMNS)
    print_table(console, TextTable(columns, rows, title="Observed against exact"))
    for w in result.wagers.values():
        if w.meter is not None:
            m = w.meter
            say(
                console,
                f"{w.title}: the RTP above is long-run, for the bettor's own hand "
                "(envy aside; increments and reseeds counted as paid); "
                f"the meter was carried through the rounds: {m.jackpots:,} jackpots paid "
                f"{decimal_text(m.paid_from_meter, 2, grouping=True)} (largest "
                f"{decimal_text(m.largest_jackpot, 2, grouping=True)}), the house reseeded "
                f"{decimal_text(m.reseeded, 2, grouping=True)}, final meter "
                f"{decimal_text(m.final_meter, 2, grouping=True)}; RTP paid {percent_text(m.paid_rtp)}",
            )
    for w in result.wagers.values():
        outcomes = [
            (outcome_name(c.outcome), f"{c.observed:,}", decimal_text(c.expected, 1, grouping=True)) for c in w.outcomes
        ]
        columns = (label("outcome"), figure("observed"), figure("expected"))
        units = FAMILY_UNITS if per_ante and w.wager == ANTE_PLAY else STANDARD_UNITS
        title = (
            f"{w.title}: outcomes; {units_text(w.total_wagered)} wagered, {units_text(w.total_returned)} returned "
            f"({units}), standard error of the RTP {w.std_error:.4%}"
        )
        print_table(console, TextTable(columns, outcomes, title=title, bold_title=False))
    if verdict is None:
        verdict = result.verdict
    say(console, verdict)


def print_comparison(rows: Comparison, console: Console | None = None) -> None:
    """Each wager's rows ranked, labelled by the shortest path suffix that tells the files apart; the title names
    the baseline of "vs first" (the first file given); the theoretical win in each table's currency."""
    from trey.choose.compare import RANKED_BY, vs_first_text

    console = console or terminal_console()
    baseline = rows.baseline
    for wager in dict.fromkeys(r.wager for r in rows):
        group = [r for r in rows if r.wager == wager]
        progressive = any(r.figure(LONG_RUN_RTP) is not None for r in group)
        ante = any(r.figure(ELEMENT_OF_RISK) is not None for r in group)
        ranked_by = RANKED_BY if progressive else "house edge"
        offered = any(r.edge_vs_first is not None for r in group)
        against = (
            f"vs first: against {baseline.label}, the first file given"
            if offered
            else f"no vs first: {baseline.label}, the first file given, has no {group[0].title}"
        )
        headers = ["file", "house edge", "vs first", "RTP", *(["long-run RTP"] if progressive else []), "hit freq."]
        headers += ["SD", "VI 90%", *(["EoR", "avg wager"] if ante else []), "theo/hour"]
        table_rows = []
        for r in group:
            cells = [
                r.label,
                HOUSE_EDGE.text_of(r.house_edge),
                vs_first_text(r),
                RTP.text_of(r.figure(RTP)),
                *([LONG_RUN_RTP.text_of(r.figure(LONG_RUN_RTP))] if progressive else []),
                *(f.text_of(r.figure(f)) for f in (HIT_FREQUENCY, STD_DEV, VOLATILITY_INDEX_90)),
            ]
            if ante:
                cells += [f.text_of(r.figure(f)) for f in (ELEMENT_OF_RISK, AVERAGE_WAGER)]
            cells.append(terminal_money(r.style).money(r.theo_per_hour))
            table_rows.append(cells)
        columns = (figure("file", left=True), *(figure(h) for h in headers[1:]))
        print_table(
            console, TextTable(columns, table_rows, title=f"{group[0].title}: ranked by {ranked_by}; {against}")
        )
