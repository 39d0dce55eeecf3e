"""Readable terminal tables of an analysis (``trey analyze --format table``), drawn with rich."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table

from trey.engine.results import AntePlayAnalysis, GameAnalysis, WagerAnalysis
from trey.engine.stats import Z_90, Z_95
from trey.numbers import decimal_text, fraction_text, one_in_text, percent_text
from trey.text import printable

if TYPE_CHECKING:
    from trey.simulate import SimulationResult


def user_text(text: str) -> str:
    """Text from a paytable for rich: control characters escaped, and ``[...]`` shown, never read as markup."""
    return escape(printable(text))


def _figure(value: Fraction, exact: bool) -> str:
    text = percent_text(value)
    return f"{text}  ({fraction_text(value)})" if exact else text


def _outcome_name(name: str) -> str:
    return name.replace("_", " ")


def wager_table(result: WagerAnalysis, *, exact: bool = False) -> Group:
    title = f"{user_text(result.title)}  —  cycle {result.cycle:,} deals"
    outcomes = Table(title=title, title_justify="left", title_style="bold")
    for column in ("outcome", "pays", "combinations", "probability", "1 in", "contribution"):
        outcomes.add_column(column, justify="left" if column == "outcome" else "right", no_wrap=True)
    rows = list(result.outcomes)
    if isinstance(result, AntePlayAnalysis):
        rows += [r for r in result.ante_bonus]
    for row in rows:
        name = _outcome_name(row.outcome)
        if not row.returns_stake:
            name = f"Ante Bonus: {name}"
        outcomes.add_row(
            name,
            fraction_text(row.pays),
            f"{row.combinations:,}",
            _figure(row.probability, exact),
            one_in_text(row.one_in).removeprefix("1 in "),
            _figure(row.contribution, exact),
        )
    stats = result.stats
    summary = Table(show_header=False, box=None, pad_edge=False)
    summary.add_column(style="bold")
    summary.add_column()
    summary.add_row("RTP", _figure(stats.rtp, exact))
    summary.add_row("House edge", _figure(stats.house_edge, exact))
    summary.add_row("Hit frequency", _figure(stats.hit_frequency, exact))
    summary.add_row(
        "Variance",
        decimal_text(stats.variance, 4) + (f"  ({fraction_text(stats.variance)})" if exact else ""),
    )
    summary.add_row("Standard deviation", f"{stats.std_dev:.4f}")
    summary.add_row(
        "Volatility index",
        f"{stats.volatility_index(Z_90):.4f} (90%), {stats.volatility_index(Z_95):.4f} (95%)",
    )
    if isinstance(result, AntePlayAnalysis):
        strategy = result.strategy
        summary.add_row(
            "Strategy",
            f"{strategy.kind}: {strategy.sentence} ({strategy.hands_played:,} hands played, "
            f"{strategy.hands_folded:,} folded)",
        )
        summary.add_row("Average wager", decimal_text(result.average_wager, 4) + " Antes")
        summary.add_row("Element of risk", _figure(result.element_of_risk, exact))
    return Group(outcomes, summary, "")


def wide_console() -> Console:
    """A console for stdout; files and pipes get 120 columns, so that no figure is cut."""
    console = Console(emoji=False)  # ":smile:" in a name stays text
    return console if console.is_terminal else Console(width=120, emoji=False)


def print_analysis(analysis: GameAnalysis, *, exact: bool = False, console: Console | None = None) -> None:
    console = console or wide_console()
    console.print(
        f"[bold]{user_text(analysis.spec.name)}[/bold]  (sha256 {analysis.spec.sha256[:12]})", highlight=False
    )
    console.print("")
    for result in analysis.wagers.values():
        console.print(wager_table(result, exact=exact))


def print_simulation(result: SimulationResult, console: Console | None = None) -> None:
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
            "PASS" if w.passed else "FAIL",
        )
    console.print(summary)
    for w in result.wagers.values():
        outcomes = Table(title=f"{user_text(w.title)}: outcomes", title_justify="left")
        for column in ("outcome", "observed", "expected"):
            outcomes.add_column(column, justify="left" if column == "outcome" else "right", no_wrap=True)
        for c in w.outcomes:
            outcomes.add_row(_outcome_name(c.outcome), f"{c.observed:,}", decimal_text(c.expected, 1, grouping=True))
        console.print(outcomes)
    console.print(
        "PASS: the simulation agrees with the exact figures"
        if result.passed
        else "FAIL: the simulation disagrees with the exact figures (|z| > 4 or p < 1e-6)"
    )
