"""``trey protect`` on the terminal: each scenario's figures, the informed strategy chart and the tells."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console

from trey.cards.hands import describe_key
from trey.core.numbers import decimal_text, fraction_text, percent_text, sqrt_decimal
from trey.engine.risk import RiskFigures, risk_figures
from trey.present.layout import TextTable, figure, label, print_table, say, terminal_console
from trey.protect.protection import Protection


def print_protection(protection: Protection, console: Console | None = None) -> None:
    console = console or terminal_console()
    ante = protection.analysis.ante_play
    assert ante is not None
    say(console, f"{protection.spec.name}: game protection (Ante & Play, per Ante)", bold=True)
    say(
        console,
        f"Normal play: player edge {percent_text(ante.stats.mean)} (house edge {percent_text(-ante.stats.mean)})",
    )
    say(console, "")
    normal = ante.stats
    rows = [
        (
            "nothing (normal play)",
            percent_text(normal.mean),
            f"{decimal_text(Fraction(0), 4)} pt",
            percent_text(normal.hit_frequency),
            decimal_text(sqrt_decimal(normal.variance), 4),
            decimal_text(ante.average_wager, 4),
        )
    ]
    rows += [
        (
            play.scenario,
            percent_text(play.stats.mean),
            f"{decimal_text(play.gain * 100, 4)} pt",
            percent_text(play.stats.hit_frequency),
            decimal_text(sqrt_decimal(play.stats.variance), 4),
            decimal_text(play.average_wager, 4),
        )
        for play in protection.scenarios
    ]
    rows += [
        (
            f"{c.scenario} (±{100 * c.gain_error:.4f} pt; {c.samples:,} samples, seed {c.seed})",
            f"{100 * c.edge:.4f}%",
            f"{100 * c.gain:.4f} pt",
            f"{100 * c.hit_frequency:.4f}%",
            f"{c.std_dev:.4f}",
            f"{c.average_wager:.4f}",
        )
        for c in protection.sampled
    ]
    columns = (label("the player knows"), *(figure(c) for c in ("player edge", "gain", "hit frequency", "SD")))
    summary = TextTable((*columns, figure("average wager")), rows, title="What the information is worth")
    print_table(console, summary)
    print_table(console, risk_table(protection))
    for play in protection.scenarios:
        deals = play.stats.cycle
        chart = [
            (
                line.seen,
                describe_key(line.weakest_played) if line.weakest_played is not None else "nothing",
                f"{line.folded_above:,}",
                _per_1000(tell.plays_below, deals),
                _per_1000(tell.folds_above, deals),
            )
            for line, tell in zip(play.chart, play.tells, strict=True)
        ]
        columns = (label("seen"), figure("weakest hand played", left=True), figure("folded at or above"))
        columns += (figure("plays below normal"), figure("folds above normal"))
        print_table(console, TextTable(columns, chart, title=f"{play.scenario}: the informed strategy and its tells"))
        say(
            console,
            "Folded at or above: the hands (with their contexts) at or above the weakest hand played that are folded "
            "anyway (card removal), which break the weakest-hand rule. "
            "Tells: per 1,000 hands dealt, decisions that differ from the normal strategy when this is seen.",
        )
        say(console, "")
    bets = [
        (
            b.title,
            percent_text(b.rtp),
            percent_text(b.informed_rtp) if b.informed_rtp is not None else "not computed",
            b.why,
        )
        for b in protection.side_bets
    ]
    if bets:
        columns = (label("wager"), figure("RTP"), figure("informed RTP"), label("why"))
        print_table(console, TextTable(columns, bets, title="Side bets (placed before anything is seen)"))


def risk_table(protection: Protection) -> TextTable:
    """How long each scenario's edge takes to show (issue 34): N0, the desirability index and the most likely
    result of one round, exact (:mod:`trey.engine.risk`)."""
    ante = protection.analysis.ante_play
    assert ante is not None
    rows = [
        ("nothing (normal play)", *risk_cells(risk_figures(ante.net_results))),
        *((play.scenario, *risk_cells(risk_figures(play.net_results))) for play in protection.scenarios),
    ]
    columns = (label("the player knows"), figure("N0 (rounds)"), figure("DI"), figure("most likely round"))
    return TextTable(columns, rows, title="How long the edge takes to show")


def risk_cells(figures: RiskFigures) -> tuple[str, str, str]:
    """N0 (rounded to whole rounds, or "never" at no edge), the DI to 4 decimals, the most likely net result and its
    probability."""
    n0 = decimal_text(figures.n0, 0, grouping=True) if figures.n0 is not None else "never"
    cycle = figures.stats.cycle
    likely = ", ".join(
        f"{net_words(r.net)} ({percent_text(Fraction(r.combinations, cycle))})" for r in figures.most_likely
    )
    return n0, decimal_text(figures.desirability_index, 4), likely


def net_words(net: Fraction) -> str:
    """``lose 2``, ``win 1/2``, ``push``: a net result in units."""
    if net == 0:
        return "push"
    return f"{'win' if net > 0 else 'lose'} {fraction_text(abs(net))}"


def _per_1000(count: int, deals: int) -> str:
    return decimal_text(Fraction(count * 1000, deals), 2)
