"""Charts as real plots: matplotlib figures saved as SVG, deterministic byte for byte for the same input."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from trey.engine.stats import Z_90, Z_95, WagerStats

ROUNDS_AXIS = [10 ** (k / 8) for k in range(16, 65)]  # 10^2 .. 10^8
INK = "#1a1a1a"
BAND_95 = "#c9d7ea"
BAND_90 = "#8fb0d9"
LINE = "#1f4e8c"


def _svg(figure: object) -> str:
    import matplotlib
    from matplotlib.figure import Figure

    assert isinstance(figure, Figure)
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "trey", "svg.fonttype": "none", "font.family": "DejaVu Sans"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "trey"})
    # Drop the XML prolog and doctype: the SVG goes inside an HTML page.
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def rtp_band_svg(stats: WagerStats, title: str) -> str:
    """The range of the realised RTP against rounds played: 90% and 95% bands around the theoretical RTP."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import FixedFormatter, FixedLocator, NullLocator

    rtp = float(stats.rtp) * 100
    figure = Figure(figsize=(6.4, 2.6))
    axes = figure.add_subplot()
    for z, colour, label in ((Z_95, BAND_95, "95% of sessions"), (Z_90, BAND_90, "90% of sessions")):
        bands = [stats.rtp_band(int(n), z) for n in ROUNDS_AXIS]
        axes.fill_between(
            ROUNDS_AXIS,
            [low * 100 for low, _ in bands],
            [high * 100 for _, high in bands],
            color=colour,
            label=label,
            linewidth=0,
        )
    axes.axhline(rtp, color=LINE, linewidth=1.2, label=f"theoretical RTP {rtp:.2f}%")
    axes.set_xscale("log")
    axes.set_xlim(ROUNDS_AXIS[0], ROUNDS_AXIS[-1])
    # Plain tick labels: matplotlib's default 10^k labels go through its math-text parser, ten times slower.
    axes.xaxis.set_major_locator(FixedLocator([10.0**k for k in range(2, 9)]))
    axes.xaxis.set_major_formatter(FixedFormatter(["100", "1k", "10k", "100k", "1M", "10M", "100M"]))
    axes.xaxis.set_minor_locator(NullLocator())
    axes.set_xlabel("rounds played", color=INK)
    axes.set_ylabel("realised RTP (%)", color=INK)
    axes.set_title(title, color=INK, fontsize=10)
    axes.grid(True, which="major", color="#dddddd", linewidth=0.5)
    axes.legend(loc="upper right", fontsize=7, frameon=False)
    figure.subplots_adjust(left=0.1, right=0.95, top=0.9, bottom=0.17)
    return _svg(figure)


@dataclass(frozen=True)
class Share:
    label: str
    percent: float


def return_share_svg(shares: Sequence[Share], title: str) -> str:
    """Each paying outcome's share of the return to player, as horizontal bars."""
    from matplotlib.figure import Figure

    figure = Figure(figsize=(6.4, 0.5 + 0.32 * max(1, len(shares))))
    axes = figure.add_subplot()
    labels = [s.label for s in shares][::-1]
    values = [s.percent for s in shares][::-1]
    bars = axes.barh(labels, values, color=LINE)
    axes.bar_label(bars, labels=[f"{v:.1f}%" for v in values], padding=3, fontsize=7, color=INK)
    axes.set_xlim(0, max([*values, 1.0]) * 1.18)
    axes.set_xlabel("share of the amount returned to the player, stakes included (%)", color=INK)
    axes.set_title(title, color=INK, fontsize=10)
    axes.tick_params(labelsize=8)
    for side in ("top", "right"):
        axes.spines[side].set_visible(False)
    height = figure.get_figheight()
    figure.subplots_adjust(left=0.3, right=0.97, top=1 - 0.3 / height, bottom=0.45 / height)
    return _svg(figure)


def rtp_meter_svg(points: Sequence[tuple[float, float]], break_even: float | None, currency: str, title: str) -> str:
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
    axes.set_title(title, color=INK, fontsize=10)
    axes.grid(True, color="#dddddd", linewidth=0.5)
    axes.ticklabel_format(axis="x", style="plain")
    figure.subplots_adjust(left=0.1, right=0.95, top=0.9, bottom=0.17)
    return _svg(figure)


def edge_against_sd_svg(points: Sequence[tuple[str, float, float]], title: str) -> str:
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
    return _svg(figure)
