"""The certificate's charts: each figure type drawn once for all wagers, checked against figures computed here from
the published hand counts (docs/published-figures.md), and drawn as the same SVG wherever they are drawn."""

from __future__ import annotations

import math
import re
from datetime import date
from fractions import Fraction
from typing import Any

import pytest

from conftest import STANDARD
from trey.documents.certificate_view import chart_inputs, draw_charts, render_certificate_html
from trey.documents.charts import Share, Shares, Spread, return_share_svg, rtp_range_svg
from trey.engine.stats import Z_90, Z_95, WagerStats
from trey.paytable.load import load_spec
from trey.trust.certificate import build_certificate

# docs/published-figures.md: three-card hands of 22,100; the standard Pair Plus pays 40-30-6-3-1 (house edge 7.28%).
PAIR_PLUS = {
    "Straight flush": (48, 40),
    "Three of a kind": (52, 30),
    "Straight": (720, 6),
    "Flush": (1096, 3),
    "Pair": (3744, 1),
}


@pytest.fixture(scope="module")
def standard() -> Any:
    return build_certificate(load_spec(STANDARD), file_name="standard.yaml", file_size=1, issue_date=date(2026, 1, 1))


def texts(svg: str) -> list[str]:
    """The text nodes of an SVG, unescaped."""
    return [t.replace("&amp;", "&") for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def test_the_range_chart_draws_every_wager_from_its_standard_deviation(standard: Any) -> None:
    spreads = chart_inputs(standard).spreads
    figure = rtp_range_svg.__wrapped__(spreads)  # the matplotlib figure before it becomes SVG
    axes = figure.axes[0]
    drawn = [line for line in axes.lines if len(line.get_xdata())]
    assert len(drawn) == 2 * len(spreads)  # a 95% and a 90% line per wager
    for spread, line_95, line_90 in zip(spreads, drawn[0::2], drawn[1::2], strict=True):
        sd = math.sqrt(float(spread.stats.variance))
        for line, z, style in ((line_95, Z_95, "-"), (line_90, Z_90, "--")):
            assert line.get_linestyle() == style
            assert list(line.get_xdata()) == [100, 100_000_000]
            assert list(line.get_ydata()) == pytest.approx([z * sd / 10 * 100, z * sd / 10_000 * 100], rel=1e-12)
    # Published: the Ante & Play standard deviation is about 1.64 Antes, so 95% of 100-hand sessions end within
    # about 1.96 × 1.64 / 10 = 32 points of the RTP.
    assert drawn[0].get_ydata()[0] == pytest.approx(32.2, abs=0.2)
    labels = texts(rtp_range_svg(spreads))
    for title in ("Ante & Play", "Pair Plus", "Prime", "Six Card Bonus", "95% of sessions", "90% of sessions"):
        assert title in labels
    assert labels[:7] == ["100", "1k", "10k", "100k", "1M", "10M", "100M"]
    assert {"0.01", "0.1", "1", "10", "100", "1,000"} <= set(labels)


def test_the_share_chart_gives_each_outcome_its_share_of_the_return(standard: Any) -> None:
    shares = chart_inputs(standard).shares
    pair_plus = next(s for s in shares if s.title == "Pair Plus")
    returned = {label: Fraction(count * (1 + pays), 22_100) for label, (count, pays) in PAIR_PLUS.items()}
    rtp = sum(returned.values(), Fraction(0))
    assert round(float(1 - rtp), 4) == 0.0728  # the published house edge
    expected = {label: float(value / rtp * 100) for label, value in returned.items()}
    assert {s.label: s.percent for s in pair_plus.shares} == pytest.approx(expected, rel=1e-12)
    figure = return_share_svg.__wrapped__(shares)
    axes = figure.axes[0]
    bars = [
        (label.get_text(), patch.get_width()) for label, patch in zip(axes.get_yticklabels(), axes.patches, strict=True)
    ]
    first = sum(len(s.shares) for s in shares[: shares.index(pair_plus)])  # the wagers are drawn one under the other
    assert bars[first : first + len(expected)] == [
        (label, pytest.approx(p, rel=1e-12)) for label, p in expected.items()
    ]
    labels = texts(return_share_svg(shares))
    titles = ["Ante & Play", "Pair Plus", "Prime", "Six Card Bonus"]
    assert [t for t in labels if t in titles] == titles
    for label, percent in expected.items():
        assert label in labels
        assert f"{percent:.1f}%" in labels
    assert "36.5%" in labels  # pairs: 7,488 of the 20,492 units returned


def test_titles_are_drawn_as_written_never_read_as_mathematics(standard: Any) -> None:
    stats = next(iter(standard.analysis.wagers.values())).stats
    title = "$5 and $10 Bonus_1^2"
    assert title in texts(rtp_range_svg([Spread(title, stats)]))
    assert title in texts(return_share_svg([Shares(title, [Share("x", 100.0)])]))


def test_a_wager_that_never_varies_is_named_not_drawn() -> None:
    flat = Spread(
        "Never pays", WagerStats(cycle=22_100, mean=Fraction(-1), variance=Fraction(0), hit_frequency=Fraction(0))
    )
    labels = texts(rtp_range_svg([flat]))
    assert "Never pays: no spread" in labels
    assert "Never pays: returns nothing" in texts(return_share_svg([Shares("Never pays", [])]))


def test_charts_drawn_in_the_background_are_the_charts_drawn_here(standard: Any) -> None:
    """certify draws the charts in a forked child; the page must be the same as with the charts drawn in process."""
    from trey.core.background import in_background
    from trey.documents.charts import import_matplotlib

    with in_background(draw_charts, prepare=import_matplotlib) as pending:
        pending.send(chart_inputs(standard))
        background = pending.result()
    assert background == draw_charts(chart_inputs(standard))
    here = render_certificate_html(standard, json_name="s.json", paytable_name="s.yaml")
    assert render_certificate_html(standard, json_name="s.json", paytable_name="s.yaml", charts=background) == here


def _inside(figure: Any, artist: Any) -> bool:
    """Whether an artist's drawn box lies within the figure (after the layout has placed everything)."""
    box = artist.get_window_extent()
    whole = figure.bbox
    return bool(box.x0 >= whole.x0 and box.y0 >= whole.y0 and box.x1 <= whole.x1 and box.y1 <= whole.y1)


@pytest.mark.parametrize("count", [4, 19])
def test_the_range_charts_axis_titles_and_legend_are_within_the_chart(standard: Any, count: int) -> None:
    """Issue 18.8 and 18.13: the y axis title was cut at the left edge, the legend clipped with many wagers."""
    from trey.documents.charts import import_matplotlib

    import_matplotlib()
    spreads = list(chart_inputs(standard).spreads)
    many = [Spread(f"Wager {i}", spreads[i % len(spreads)].stats) for i in range(count)]
    figure = rtp_range_svg.__wrapped__(many)
    figure.draw_without_rendering()
    axes = figure.axes[0]
    assert _inside(figure, axes.yaxis.label) and _inside(figure, axes.xaxis.label)
    for label in axes.get_yticklabels():
        assert _inside(figure, label)
    (legend,) = figure.legends
    assert _inside(figure, legend)
    assert len(legend.get_texts()) == count + 2  # every wager, and the two line styles


def test_many_wagers_share_charts_of_whole_wagers_each_within_a_page() -> None:
    """Issue 18.13: from eight wagers on the share chart ran off the page; now whole wagers go to further charts."""
    from trey.documents.charts import MAX_SHARE_INCHES, share_chart_groups

    wagers = [Shares(f"Bet {i}", [Share(f"row {k}", 10.0) for k in range(9 if i % 2 else 13)]) for i in range(19)]
    groups = share_chart_groups(wagers)
    assert [w for group in groups for w in group] == wagers  # every wager once, in order
    assert len(groups) > 1
    for group in groups:
        figure = return_share_svg.__wrapped__(group)
        assert figure.get_figheight() <= MAX_SHARE_INCHES
        svg = return_share_svg(group)
        assert [t for t in texts(svg) if t.startswith("Bet ")] == [w.title for w in group]
