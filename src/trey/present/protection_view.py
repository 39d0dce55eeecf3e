"""``trey protect`` on the terminal: each scenario's figures, the informed strategy chart and the tells."""

from __future__ import annotations

from fractions import Fraction

from rich.console import Console
from rich.table import Table

from trey.cards.hands import describe_key
from trey.core.numbers import decimal_text, percent_text, sqrt_decimal
from trey.present.terminal import user_text, wide_console
from trey.protect.protection import Protection


def print_protection(protection: Protection, console: Console | None = None) -> None:
    console = console or wide_console()
    ante = protection.analysis.ante_play
    assert ante is not None
    console.print(f"[bold]{user_text(protection.spec.name)}[/bold]: game protection (Ante & Play, per Ante)")
    console.print(
        f"Normal play: player edge {percent_text(ante.stats.mean)} (house edge {percent_text(-ante.stats.mean)})"
    )
    console.print("")
    summary = Table(title="What the information is worth", title_justify="left")
    for column in ("the player knows", "player edge", "gain", "hit frequency", "SD", "average wager"):
        summary.add_column(column, justify="left" if column == "the player knows" else "right")
    for play in protection.scenarios:
        summary.add_row(
            user_text(play.scenario),
            percent_text(play.stats.mean),
            f"{decimal_text(play.gain * 100, 4)} pt",
            percent_text(play.stats.hit_frequency),
            decimal_text(sqrt_decimal(play.stats.variance), 4),
            decimal_text(play.average_wager, 4),
        )
    for c in protection.sampled:
        summary.add_row(
            f"{c.scenario} (±{100 * c.gain_error:.4f} pt; {c.samples:,} samples, seed {c.seed})",
            f"{100 * c.edge:.4f}%",
            f"{100 * c.gain:.4f} pt",
            f"{100 * c.hit_frequency:.4f}%",
            f"{c.std_dev:.4f}",
            f"{c.average_wager:.4f}",
        )
    console.print(summary)
    for play in protection.scenarios:
        deals = play.stats.cycle
        chart = Table(title=f"{user_text(play.scenario)}: the informed strategy and its tells", title_justify="left")
        for column in ("seen", "weakest hand played", "exceptions", "plays below normal", "folds above normal"):
            chart.add_column(column, justify="left" if column in ("seen", "weakest hand played") else "right")
        for line, tell in zip(play.chart, play.tells, strict=True):
            weakest = describe_key(line.weakest_played) if line.weakest_played is not None else "nothing"
            chart.add_row(
                user_text(line.seen),
                weakest,
                f"{line.folded_above + line.played_below:,}",
                _per_1000(tell.plays_below, deals),
                _per_1000(tell.folds_above, deals),
            )
        console.print(chart)
        console.print("Tells: per 1,000 hands dealt, decisions that differ from the normal strategy when this is seen.")
        console.print("")
    bets = Table(title="Side bets (placed before anything is seen)", title_justify="left")
    for column in ("wager", "RTP", "informed RTP", "why"):
        bets.add_column(column, justify="left" if column in ("wager", "why") else "right")
    for b in protection.side_bets:
        informed = percent_text(b.informed_rtp) if b.informed_rtp is not None else "not computed"
        bets.add_row(user_text(b.title), percent_text(b.rtp), informed, b.why)
    if protection.side_bets:
        console.print(bets)


def _per_1000(count: int, deals: int) -> str:
    return decimal_text(Fraction(count * 1000, deals), 2)
