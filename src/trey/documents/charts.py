"""Charts as real plots: matplotlib figures saved as SVG, deterministic byte for byte for the same input."""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec

from trey.engine.stats import Z_90, Z_95, WagerStats

if TYPE_CHECKING:
    from matplotlib.figure import Figure

P = ParamSpec("P")

ROUNDS_ENDS = [1e2, 1e8]  # the range chart's lines are straight on its log-log axes: their ends draw them
INK = "#1a1a1a"
LINE = "#1f4e8c"
# One colour per wager on the range chart (matplotlib's default cycle, stated so that a new default cannot change
# the certificates).
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
# The share chart's rows: a bar each, a title row above each wager's bars, a gap between wagers.
BAR_INCHES = 0.24
TITLE_ROWS = 1.2
GAP_ROWS = 0.5
AXIS_INCHES = 0.5
# The tallest share chart: drawn 6.4 inches wide at 74% of the text width, 8 inches of it fill a Letter page's text
# height with its caption. More wagers than that holds are drawn in further charts, whole wagers each.
MAX_SHARE_INCHES = 8.0
# The range chart's legend, below the axes: this many entries a row, and the height of a row.
LEGEND_COLUMNS = 3
LEGEND_ROW_INCHES = 0.2


FONTS = Path(__file__).resolve().parent / "fonts"


@functools.cache
def import_matplotlib() -> None:
    """Import what drawing a chart needs (a third of a second), ahead of drawing, and show matplotlib the
    documents' font, which it measures the chart's text with (the PDF draws that text with the same font)."""
    import matplotlib.backends.backend_svg
    import matplotlib.figure  # noqa: F401
    from matplotlib import font_manager

    for name in ("TreySans.ttf", "TreySans-Bold.ttf"):
        font_manager.fontManager.addfont(str(FONTS / name))


def chart(draw: Callable[P, Figure]) -> Callable[P, str]:
    """A chart function: ``draw`` builds a matplotlib Figure under the house style, returned as SVG text."""

    @functools.wraps(draw)
    def svg(*args: P.args, **kwargs: P.kwargs) -> str:
        import matplotlib

        import_matplotlib()
        # Text is drawn as written: matplotlib would read a pair of "$" in a wager's title as mathematics ("$5 and
        # $10" would lose both signs), and the charts print titles and labels from paytable files.
        with matplotlib.rc_context(
            {
                "svg.hashsalt": "trey",
                "svg.fonttype": "none",
                "font.family": ["Trey Sans", "DejaVu Sans"],  # a browser showing the HTML has no Trey Sans
                "text.parse_math": False,
            }
        ):
            figure = draw(*args, **kwargs)
            buffer = io.StringIO()
            figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "trey"})
        # Drop the XML prolog and doctype: the SVG goes inside an HTML page.
        text = buffer.getvalue()
        return text[text.index("<svg") :]

    return svg


def _rounds_axis(axis: Any) -> None:
    """Rounds played, 100 to 100 million, on a log scale with plain labels: matplotlib's default 10^k labels go
    through its math-text parser, ten times slower."""
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

    axis.set_major_locator(FixedLocator([10.0**k for k in range(2, 9)]))
    axis.set_major_formatter(FixedFormatter(["100", "1k", "10k", "100k", "1M", "10M", "100M"]))
    axis.set_minor_locator(NullLocator())


@dataclass(frozen=True)
class Spread:
    """A wager as the range chart shows it: its title and its statistics."""

    title: str
    stats: WagerStats


@chart
def rtp_range_svg(wagers: Sequence[Spread]) -> Figure:
    """Every wager on one chart: how far from its theoretical RTP the realised RTP of a session of n rounds may
    fall, for 95% (solid) and 90% (dashed) of sessions. Log-log, so each wager is a straight line of slope -1/2
    (z × standard deviation / √n); the y axis is in percentage points of RTP."""
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

    # The legend stands below the axes, in rows of three, so that no number of wagers can hide a line or be
    # clipped; matplotlib's constrained layout measures the tick labels and the axis titles, so none is cut off.
    entries = len(wagers) + 2
    legend_rows = math.ceil(entries / LEGEND_COLUMNS)
    figure = Figure(figsize=(6.4, 3.0 + LEGEND_ROW_INCHES * legend_rows), layout="constrained")
    axes = figure.add_subplot()
    halves = []
    for index, wager in enumerate(wagers):
        colour = PALETTE[index % len(PALETTE)]
        if wager.stats.variance == 0:  # every session returns the RTP exactly: no line to draw
            axes.plot([], [], color=colour, linewidth=4, label=f"{wager.title}: no spread")
            continue
        for z, style in ((Z_95, "-"), (Z_90, "--")):
            half = [(high - low) / 2 * 100 for low, high in (wager.stats.rtp_band(int(n), z) for n in ROUNDS_ENDS)]
            halves += half
            axes.plot(ROUNDS_ENDS, half, color=colour, linestyle=style, linewidth=1.3)
        axes.plot([], [], color=colour, linewidth=4, label=wager.title)  # the legend's swatch for this wager
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(ROUNDS_ENDS[0], ROUNDS_ENDS[-1])
    _rounds_axis(axes.xaxis)
    # Whole decades around the lines, labelled in plain numbers (0.01, 1, 1,000).
    low, high = (math.floor(math.log10(min(halves))), math.ceil(math.log10(max(halves)))) if halves else (-2, 0)
    axes.set_ylim(10.0**low, 10.0**high)
    axes.yaxis.set_major_locator(FixedLocator([10.0**k for k in range(low, high + 1)]))
    axes.yaxis.set_major_formatter(FixedFormatter([f"{10.0**k:,.{max(0, -k)}f}" for k in range(low, high + 1)]))
    axes.yaxis.set_minor_locator(NullLocator())
    axes.set_xlabel("rounds played", color=INK)
    axes.set_ylabel("± points of RTP", color=INK)
    axes.grid(True, which="major", color="#dddddd", linewidth=0.5)
    handles, _ = axes.get_legend_handles_labels()
    handles += [
        Line2D([], [], color=INK, linewidth=1.3, label="95% of sessions"),
        Line2D([], [], color=INK, linewidth=1.3, linestyle="--", label="90% of sessions"),
    ]
    figure.legend(handles=handles, loc="outside lower center", ncols=LEGEND_COLUMNS, fontsize=7, frameon=False)
    return figure


def share_rows(wager: Shares) -> float:
    """The rows a wager takes on a share chart: its title, its bars, the gap after it."""
    return TITLE_ROWS + len(wager.shares) + GAP_ROWS


def share_chart_groups(wagers: Sequence[Shares]) -> list[list[Shares]]:
    """The wagers of each share chart, in order: as many whole wagers as fit :data:`MAX_SHARE_INCHES`."""
    most = (MAX_SHARE_INCHES - AXIS_INCHES) / BAR_INCHES + GAP_ROWS
    groups: list[list[Shares]] = []
    rows = 0.0
    for wager in wagers:
        if groups and rows + share_rows(wager) <= most:
            groups[-1].append(wager)
            rows += share_rows(wager)
        else:
            groups.append([wager])
            rows = share_rows(wager)
    return groups


@dataclass(frozen=True)
class Share:
    label: str
    percent: float


@dataclass(frozen=True)
class Shares:
    """A wager's paying outcomes and the share of the amount returned that each accounts for."""

    title: str
    shares: Sequence[Share]


@chart
def return_share_svg(wagers: Sequence[Shares]) -> Figure:
    """Each paying outcome's share of the amount returned (stakes included), as horizontal bars: the wagers one
    under the other, each under its title, on one scale from 0 to 100%. One axes for all (a panel per wager would
    cost matplotlib a set of axes each)."""
    from matplotlib.figure import Figure

    # Rows from the top: per wager, a title row then its bars in the order of its paytable.
    positions, labels, values, titles = [], [], [], []
    row = 0.0
    for wager in wagers:
        titles.append((row, wager.title if wager.shares else f"{wager.title}: returns nothing"))
        for share, at in zip(wager.shares, range(len(wager.shares)), strict=True):
            positions.append(row + TITLE_ROWS + at)
            labels.append(share.label)
            values.append(share.percent)
        row += share_rows(wager)
    rows = row - GAP_ROWS
    height = BAR_INCHES * rows + AXIS_INCHES
    figure = Figure(figsize=(6.4, height))
    axes = figure.add_subplot()
    drawn = axes.barh(positions, values, color=LINE, height=0.6)
    axes.bar_label(drawn, labels=[f"{v:.1f}%" for v in values], padding=3, fontsize=7, color=INK)
    for top, title in titles:
        axes.text(0, top + TITLE_ROWS - 0.55, title, fontsize=8.5, fontweight="bold", color=INK, va="baseline")
    axes.set_yticks(positions, labels, fontsize=8)
    axes.set_ylim(rows - 0.4, -0.4)  # the first row at the top
    axes.set_xlim(0, 110)
    axes.set_xticks(range(0, 101, 20))
    axes.tick_params(axis="y", length=0)
    axes.tick_params(axis="x", labelsize=8)
    axes.set_xlabel("share of the amount returned, stakes included (%)", color=INK)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    figure.subplots_adjust(left=0.3, right=0.97, top=1 - 0.05 / height, bottom=AXIS_INCHES / height)
    return figure


@chart
def rtp_meter_svg(points: Sequence[tuple[float, float]], break_even: float | None, currency: str) -> Figure:
    """A progressive's RTP against its meter, a straight line, with the break-even meter marked."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 2.6))
    axes = figure.add_subplot()
    meters = [m for m, _ in points]
    axes.plot(meters, [r * 100 for _, r in points], color=LINE, linewidth=1.4, label="RTP at the meter")
    axes.axhline(100, color="#999999", linewidth=0.8, linestyle="--")
    if break_even is not None:
        axes.axvline(break_even, color="#b00020", linewidth=1)
        axes.annotate(
            f"break-even {currency} {break_even:,.0f}",
            (break_even, 100),
            textcoords="offset points",
            xytext=(6, -14),
            fontsize=7,
            color="#b00020",
        )
    axes.set_xlim(meters[0], meters[-1])
    axes.set_xlabel(f"meter ({currency})", color=INK)
    axes.set_ylabel("RTP (%)", color=INK)
    axes.grid(True, color="#dddddd", linewidth=0.5)
    axes.ticklabel_format(axis="x", style="plain")
    figure.subplots_adjust(left=0.1, right=0.95, top=0.96, bottom=0.17)
    return figure


@chart
def edge_against_sd_svg(points: Sequence[tuple[str, float, float]], title: str) -> Figure:
    """One labelled point per table: standard deviation across, house edge (%) up."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.4))
    axes = figure.add_subplot()
    axes.scatter([sd for _, sd, _ in points], [edge for _, _, edge in points], color=LINE, s=18, zorder=3)
    for label, sd, edge in points:
        axes.annotate(label, (sd, edge), textcoords="offset points", xytext=(4, 3), fontsize=6.5, color=INK)
    axes.set_xlabel("standard deviation per unit bet", color=INK)
    axes.set_ylabel("house edge (%)", color=INK)
    axes.set_title(title, color=INK, fontsize=10)
    axes.grid(True, color="#dddddd", linewidth=0.5)
    axes.margins(x=0.15, y=0.12)
    figure.subplots_adjust(left=0.1, right=0.97, top=0.9, bottom=0.14)
    return figure


@chart
def audit_trail_svg(points: Sequence[tuple[int, float, float]], currency: str) -> Figure:
    """Ante & Play's actual net less the expectation of the rounds so far, with the band of two standard
    deviations a fair game stays in about 95% of the time."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 2.6))
    axes = figure.add_subplot()
    rounds = [r for r, _, _ in points]
    axes.fill_between(
        rounds, [-2 * s for _, _, s in points], [2 * s for _, _, s in points], color="#e8eef7", label="±2 SD"
    )
    axes.plot(rounds, [d for _, d, _ in points], color=LINE, linewidth=1.2, label="actual less expected")
    axes.axhline(0, color="#999999", linewidth=0.8, linestyle="--")
    axes.set_xlabel("rounds", color=INK)
    axes.set_ylabel(f"net ({currency})", color=INK)
    axes.grid(True, color="#dddddd", linewidth=0.5)
    axes.ticklabel_format(axis="both", style="plain")
    axes.legend(loc="upper left", fontsize=7, frameon=False)
    figure.subplots_adjust(left=0.13, right=0.97, top=0.95, bottom=0.17)
    return figure
