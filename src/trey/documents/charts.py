"""Charts as real plots: matplotlib figures saved as SVG, deterministic byte for byte for the same input."""

from __future__ import annotations

import functools
import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec

if TYPE_CHECKING:
    from matplotlib.figure import Figure

P = ParamSpec("P")

INK = "#1a1a1a"
LINE = "#1f4e8c"
LOSS = "#b00020"  # a negative contribution (Ante & Play's lost Play bets)
# The contribution chart's rows: a bar each, a title row above each wager's bars, a gap between wagers.
BAR_INCHES = 0.24
TITLE_ROWS = 1.2
GAP_ROWS = 0.5
AXIS_INCHES = 0.5
# The tallest contribution chart: drawn 6.4 inches wide at 74% of the text width, 8 inches of it fill a Letter page's
# text height with its caption. More wagers than that holds are drawn in further charts, whole wagers each.
MAX_CHART_INCHES = 8.0


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


def chart_rows(wager: Contributions) -> float:
    """The rows a wager takes on a contribution chart: its title, its bars, the gap after it."""
    return TITLE_ROWS + len(wager.rows) + GAP_ROWS


def chart_groups(wagers: Sequence[Contributions]) -> list[list[Contributions]]:
    """The wagers of each contribution chart, in order: as many whole wagers as fit :data:`MAX_CHART_INCHES`."""
    most = (MAX_CHART_INCHES - AXIS_INCHES) / BAR_INCHES + GAP_ROWS
    groups: list[list[Contributions]] = []
    rows = 0.0
    for wager in wagers:
        if groups and rows + chart_rows(wager) <= most:
            groups[-1].append(wager)
            rows += chart_rows(wager)
        else:
            groups.append([wager])
            rows = chart_rows(wager)
    return groups


@dataclass(frozen=True)
class Contribution:
    """One row of a PAR table as the chart draws it: its outcome, its contribution to RTP in percent, and that
    contribution as the table prints it (the bar's label)."""

    label: str
    percent: float
    text: str


@dataclass(frozen=True)
class Contributions:
    """A wager's PAR table rows, each with its contribution to RTP."""

    title: str
    rows: Sequence[Contribution]


@dataclass(frozen=True)
class Scale:
    """The contribution charts' x axis, one for all of a certificate's charts: its ends and its ticks."""

    low: float
    high: float
    ticks: tuple[int, ...]


def chart_scale(wagers: Sequence[Contributions]) -> Scale:
    """From 0 (or the most negative bar) to 100 (or the largest bar), with room for the labels beside the bars,
    ticks every 20 points."""
    values = [c.percent for wager in wagers for c in wager.rows]
    low = min([0.0, *values])
    high = max([100.0, *values])
    room = (high - low) * 0.18  # a label's width beside its bar
    ticks = tuple(range(math.floor(low / 20) * 20, math.ceil(high / 20) * 20 + 1, 20))
    return Scale(low - (room if low < 0 else 0), high + room, ticks)


@chart
def contribution_svg(wagers: Sequence[Contributions], scale: Scale) -> Figure:
    """Each row of each PAR table and its contribution to RTP, as horizontal bars labelled as the table prints
    them: the wagers one under the other, each under its title, on one scale; a negative contribution (a lost
    Play bet costs more than the Ante) drawn to the left of zero. One axes for all (a panel per wager would cost
    matplotlib a set of axes each)."""
    from matplotlib.figure import Figure

    # Rows from the top: per wager, a title row then its bars in the order of its PAR table.
    positions, labels, values, texts, titles = [], [], [], [], []
    row = 0.0
    for wager in wagers:
        titles.append((row, wager.title if wager.rows else f"{wager.title}: returns nothing"))
        for contribution, at in zip(wager.rows, range(len(wager.rows)), strict=True):
            positions.append(row + TITLE_ROWS + at)
            labels.append(contribution.label)
            values.append(contribution.percent)
            texts.append(contribution.text)
        row += chart_rows(wager)
    rows = row - GAP_ROWS
    height = BAR_INCHES * rows + AXIS_INCHES
    figure = Figure(figsize=(6.4, height))
    axes = figure.add_subplot()
    colours = [LOSS if v < 0 else LINE for v in values]
    drawn = axes.barh(positions, values, color=colours, height=0.6)
    axes.bar_label(drawn, labels=texts, padding=3, fontsize=7, color=INK)
    for top, title in titles:
        axes.text(scale.low, top + TITLE_ROWS - 0.55, title, fontsize=8.5, fontweight="bold", color=INK, va="baseline")
    axes.set_yticks(positions, labels, fontsize=8)
    axes.set_ylim(rows - 0.4, -0.4)  # the first row at the top
    axes.set_xlim(scale.low, scale.high)
    axes.set_xticks(scale.ticks)
    axes.axvline(0, color=INK, linewidth=0.6)
    axes.tick_params(axis="y", length=0)
    axes.tick_params(axis="x", labelsize=8)
    axes.set_xlabel("contribution to RTP (% of the initial wager)", color=INK)
    for side in ("top", "right", "left"):
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
def audit_trail_svg(points: Sequence[tuple[int, float, float]], money: Callable[[Fraction], str]) -> Figure:
    """Ante & Play's actual net less the expectation of the rounds so far, with the band of two standard
    deviations a fair game stays in about 95% of the time. ``money``: the table's money style (the axis's ticks
    in it: "$1,000", "−$2,500")."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    figure = Figure(figsize=(6.4, 2.9))
    axes = figure.add_subplot()
    rounds = [r for r, _, _ in points]
    axes.fill_between(
        rounds, [-2 * s for _, _, s in points], [2 * s for _, _, s in points], color="#e8eef7", label="±2 SD"
    )
    axes.plot(rounds, [d for _, d, _ in points], color=LINE, linewidth=1.2, label="actual less expected")
    axes.axhline(0, color="#999999", linewidth=0.8, linestyle="--")
    axes.set_title("Ante & Play: the players' net less its expectation, round by round", color=INK, fontsize=9.5)
    axes.set_xlabel("rounds audited", color=INK)
    axes.set_ylabel("players' net less expected", color=INK)
    axes.grid(True, color="#dddddd", linewidth=0.5)
    axes.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    axes.yaxis.set_major_formatter(FuncFormatter(lambda y, _: money(Fraction(round(y)))))
    axes.legend(loc="upper left", fontsize=7, frameon=False)
    figure.subplots_adjust(left=0.17, right=0.97, top=0.9, bottom=0.16)
    return figure


@chart
def position_heatmap_svg(panels: Sequence[tuple[str, str, str, Sequence[Sequence[float]]]]) -> Figure:
    """Each 52 × 52 matrix of counts as a heat map of its standardised departures, (observed - expected) /
    √expected, on one diverging scale (a well-shuffled deck shows noise, a bias a pattern). ``panels``: (title,
    row label, column label, the departures)."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 3.3 if len(panels) > 1 else 4.2))
    top = max([4.0, *(abs(v) for _, _, _, m in panels for row in m for v in row)])
    image = None
    for i, (title, rows, columns, matrix) in enumerate(panels):
        axes = figure.add_subplot(1, len(panels), i + 1)
        image = axes.imshow(
            matrix, cmap="RdBu_r", vmin=-top, vmax=top, interpolation="nearest", extent=(0.5, 52.5, 52.5, 0.5)
        )
        axes.set_title(title, color=INK, fontsize=8.5)
        axes.set_ylabel(rows, color=INK, fontsize=7.5)
        axes.set_xlabel(columns, color=INK, fontsize=7.5)
        axes.set_xticks([1, 13, 26, 39, 52])
        axes.set_yticks([1, 13, 26, 39, 52])
        axes.tick_params(labelsize=7)
    if image is not None:
        figure.subplots_adjust(left=0.08, right=0.86, wspace=0.35, top=0.92, bottom=0.12)
        bar = figure.colorbar(image, ax=figure.axes, shrink=0.8, pad=0.03)
        bar.ax.tick_params(labelsize=7)
        bar.set_label("(observed − expected) / √expected", fontsize=7, color=INK)
    return figure


@chart
def rising_histogram_svg(observed: Sequence[int], expected: Sequence[float]) -> Figure:
    """The decks' rising sequences (index r - 1) as bars, against the count the Eulerian law expects (a line)."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(6.4, 2.6))
    axes = figure.add_subplot()
    shown = [r for r in range(1, len(observed) + 1) if observed[r - 1] or expected[r - 1] >= 0.5]
    low, high = (min(shown), max(shown)) if shown else (1, len(observed))
    rs = list(range(low, high + 1))
    axes.bar(rs, [observed[r - 1] for r in rs], color=LINE, width=0.8, label="decks logged")
    axes.plot(
        rs,
        [expected[r - 1] for r in rs],
        color=LOSS,
        linewidth=1.2,
        marker="o",
        markersize=2.5,
        label="expected of a uniform deck (Eulerian)",
    )
    axes.set_xlabel("rising sequences of the deck, relative to its input", color=INK)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylabel("decks", color=INK)
    axes.grid(True, color="#dddddd", linewidth=0.5)
    axes.legend(loc="upper left", fontsize=7, frameon=False)
    axes.tick_params(labelsize=7.5)
    figure.subplots_adjust(left=0.1, right=0.97, top=0.95, bottom=0.17)
    return figure
