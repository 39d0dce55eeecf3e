"""A certificate agrees with itself (issue 30.3): every chart and the range table are recomputed here from the
certificate's JSON alone and must equal what the certificate draws and prints; the charts are drawn as the same SVG
wherever they are drawn."""

from __future__ import annotations

import re
from datetime import date
from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from typing import Any

import pytest

from conftest import PAYTABLES, STANDARD
from trey.documents.certificate_view import chart_inputs, draw_charts, render_certificate_html
from trey.documents.charts import Contribution, Contributions, chart_scale, contribution_svg
from trey.paytable.load import load_spec
from trey.present.labels import outcome_label
from trey.trust.certificate import build_certificate

# docs/published-figures.md: three-card hands of 22,100; the standard Pair Plus pays 40-30-6-3-1 (house edge 7.28%).
PAIR_PLUS = {
    "Straight flush": (48, 40),
    "Three of a kind": (52, 30),
    "Straight": (720, 6),
    "Flush": (1096, 3),
    "Pair": (3744, 1),
}
PRECISION = Context(prec=60, rounding=ROUND_HALF_UP)


@pytest.fixture(scope="module")
def standard() -> Any:
    return build_certificate(load_spec(STANDARD), file_name="standard.yaml", file_size=1, issue_date=date(2026, 1, 1))


@pytest.fixture(scope="module")
def html(standard: Any) -> str:
    return render_certificate_html(standard, json_name="s.json", paytable_name="standard.yaml")


def texts(svg: str) -> list[str]:
    """The text nodes of an SVG, unescaped."""
    return [t.replace("&amp;", "&") for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


def tables(html: str, table_class: str) -> list[list[list[str]]]:
    """The certificate's tables of a class: the text of each row's cells, tags stripped."""
    found = []
    for table in re.findall(rf'<table class="{table_class}">(.*?)</table>', html, re.S):
        rows = []
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            row_cells = re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
            rows.append([" ".join(re.sub(r"<[^>]+>", " ", c).replace("&amp;", "&").split()) for c in row_cells])
        found.append(rows)
    return found


def percent(value: Fraction) -> str:
    """A percentage with 4 decimals, rounded half away from zero, computed here."""
    exact = PRECISION.divide(Decimal(value.numerator) * 100, Decimal(value.denominator))
    return f"{exact.quantize(Decimal('0.0001'), ROUND_HALF_UP, PRECISION)}%"


def json_contributions(data: dict[str, Any]) -> dict[str, list[tuple[str, Fraction]]]:
    """Each wager's PAR rows and their contributions to RTP, from the certificate JSON only: probability × (1 +
    pays) for an outcome, probability × pays for an Ante Bonus row, paid on top."""
    found = {}
    for wager, w in data["analysis"]["wagers"].items():
        rows = [
            (outcome_label(o["outcome"], wager=wager), Fraction(o["probability"]) * (1 + Fraction(o["pays"])))
            for o in w["outcomes"]
        ]
        rows += [
            (outcome_label(o["outcome"], bonus=True), Fraction(o["probability"]) * Fraction(o["pays"]))
            for o in w.get("ante_bonus", [])
        ]
        found[w["title"]] = rows
    return found


def test_the_contribution_chart_draws_the_par_tables_rows_from_the_json(standard: Any, html: str) -> None:
    """Finding 30.3: chart 2 gave Ante & Play's 'dealer does not qualify' 38.4% where its caption's own basis gives
    43.5%. Now each bar is a row of a PAR table, its contribution as the JSON gives it and the table prints it."""
    expected = json_contributions(standard.data)
    drawn = chart_inputs(standard).contributions
    assert [w.title for w in drawn] == list(expected)
    printed = tables(html, "par")  # each wager's PAR table, in order
    for wager, table in zip(drawn, printed, strict=True):
        rows = [(label, value) for label, value in expected[wager.title] if value]  # nothing to draw for a 0
        assert [c.label for c in wager.rows] == [label for label, _ in rows]
        assert [c.percent for c in wager.rows] == [float(value * 100) for _, value in rows]
        assert [c.text for c in wager.rows] == [percent(value) for _, value in rows]
        # the table's contribution column, of the same rows
        assert [(row[0], row[6]) for row in table[1:-1] if row[6] != "0.0000%"] == [
            (c.label, c.text) for c in wager.rows
        ]
        assert sum((value for _, value in expected[wager.title]), Fraction(0)) == Fraction(
            standard.data["analysis"]["wagers"][
                next(k for k, v in standard.data["analysis"]["wagers"].items() if v["title"] == wager.title)
            ]["rtp"]
        )
    ante = {c.label: c.text for c in drawn[0].rows}
    assert (ante["Dealer does not qualify"], ante["Player higher"]) == ("41.9940%", "71.7302%")
    assert ante["Dealer higher"] == "-22.4480%"  # a lost Play bet: less than nothing back
    # Pair Plus from the published hand counts: each bar its count × (1 + pays) / 22,100
    pair_plus = next(w for w in drawn if w.title == "Pair Plus")
    assert {c.label: c.percent for c in pair_plus.rows} == pytest.approx(
        {label: count * (1 + pays) / 221 for label, (count, pays) in PAIR_PLUS.items()}, rel=1e-12
    )
    # the bars drawn are these numbers, labelled with the table's text
    scale = chart_scale(drawn)
    figure = contribution_svg.__wrapped__(drawn, scale)
    axes = figure.axes[0]
    bars = [(t.get_text(), p.get_width()) for t, p in zip(axes.get_yticklabels(), axes.patches, strict=True)]
    assert bars == [(c.label, c.percent) for w in drawn for c in w.rows]
    labels = texts(contribution_svg(drawn, scale))
    for w in drawn:
        assert w.title in labels
        for c in w.rows:
            assert c.label in labels and c.text in labels
    assert "contribution to RTP (% of the initial wager)" in labels
    assert "<figcaption>Every row of the PAR tables of section 5 that contributes to RTP" in html


def test_the_range_table_is_the_json_range_and_the_variance(standard: Any, html: str) -> None:
    """Chart 1's eight near-parallel lines are replaced by a table: each wager's realised RTP after 1,000 to
    10,000,000 rounds in 90% and 95% of sessions, RTP ± z × sqrt(variance / rounds), computed here from the JSON's
    exact RTP and variance and compared with the JSON's range and the certificate's table."""
    (table,) = tables(html, "ranges")
    rows = table[1:]
    printed = iter(rows)
    for w in standard.data["analysis"]["wagers"].values():
        rtp, variance = Fraction(w["rtp"]), Fraction(w["variance"])
        ranges = {(r["rounds"], r["confidence"]): (r["low"], r["high"]) for r in w["rtp_range"]}
        assert list(ranges) == [(n, c) for n in (1_000, 10_000, 100_000, 1_000_000, 10_000_000) for c in (90, 95)]
        for rounds in (1_000, 10_000, 100_000, 1_000_000, 10_000_000):
            spread = (Decimal(variance.numerator) / Decimal(variance.denominator) / rounds).sqrt(PRECISION)
            centre = Decimal(rtp.numerator) / Decimal(rtp.denominator)
            shown = []
            for confidence, z in ((90, "1.645"), (95, "1.960")):
                low, high = (centre - Decimal(z) * spread, centre + Decimal(z) * spread)
                six = [float(x.quantize(Decimal("0.000001"), ROUND_HALF_UP, PRECISION)) for x in (low, high)]
                assert list(ranges[rounds, confidence]) == six
                shown.append(
                    " to ".join(
                        f"{(x * 100).quantize(Decimal('0.0001'), ROUND_HALF_UP, PRECISION)}%" for x in (low, high)
                    )
                )
            row = next(printed)
            assert row[-3:] == [f"{rounds:,}", *shown]
    # published: the Ante & Play standard deviation is about 1.64 Antes, so 95% of 1,000-round sessions end within
    # about 1.96 × 1.64 / √1000 = 10.2 points of the RTP (96.63%)
    ante = standard.data["analysis"]["wagers"]["ante_play"]["rtp_range"]
    low, high = next((r["low"], r["high"]) for r in ante if (r["rounds"], r["confidence"]) == (1_000, 95))
    assert (high - low) / 2 == pytest.approx(0.102, abs=0.001)
    assert rows[0][0] == "Ante & Play RTP 96.6270%"


def test_a_progressives_meter_chart_is_its_rtp_formula() -> None:
    """The meter chart's basis is stated (a lone bettor's RTP against the meter) and its points are the JSON's
    formula: fixed + per unit of meter × M."""
    spec = load_spec(PAYTABLES / "progressive" / "three-card-progressive.yaml")
    cert = build_certificate(spec, file_name="p.yaml", file_size=1, issue_date=date(2026, 1, 1))
    formula = cert.data["analysis"]["wagers"]["progressive"]["progressive"]["rtp_formula"]
    reset = Fraction(cert.data["analysis"]["wagers"]["progressive"]["progressive"]["reset"])
    points = chart_inputs(cert).meters["progressive"].points
    assert points[0][0] == float(reset)
    for meter, rtp in points:
        assert rtp == pytest.approx(
            float(Fraction(formula["fixed"]) + Fraction(formula["per_unit_of_meter"]) * Fraction(meter)), rel=1e-12
        )
    html = render_certificate_html(
        cert, json_name="p.json", paytable_name="p.yaml", charts=draw_charts(chart_inputs(cert))
    )
    assert "Progressive: a lone bettor&#39;s RTP against the meter, from the reset to" in html
    # a side bet returns at least nothing: a bound below 0% is the normal approximation failing, and is marked
    assert '<td class="num">-109.9753% † to 250.9708%</td>' in html
    assert "† Below what any session can return" in html


def test_titles_are_drawn_as_written_never_read_as_mathematics() -> None:
    title = "$5 and $10 Bonus_1^2"
    wagers = [Contributions(title, [Contribution("x", 100.0, "100.0000%")])]
    assert title in texts(contribution_svg(wagers, chart_scale(wagers)))


def test_a_wager_that_returns_nothing_is_named_not_drawn() -> None:
    wagers = [Contributions("Never pays", [])]
    assert "Never pays: returns nothing" in texts(contribution_svg(wagers, chart_scale(wagers)))


def test_charts_drawn_in_the_background_are_the_charts_drawn_here(standard: Any, html: str) -> None:
    """certify draws the charts in a forked child; the page must be the same as with the charts drawn in process."""
    from trey.core.background import in_background
    from trey.documents.charts import import_matplotlib

    with in_background(draw_charts, prepare=import_matplotlib) as pending:
        pending.send(chart_inputs(standard))
        background = pending.result()
    assert background == draw_charts(chart_inputs(standard))
    again = render_certificate_html(standard, json_name="s.json", paytable_name="standard.yaml", charts=background)
    assert again == html


def _inside(figure: Any, artist: Any) -> bool:
    """Whether an artist's drawn box lies within the figure (after the layout has placed everything)."""
    box = artist.get_window_extent()
    whole = figure.bbox
    return bool(box.x0 >= whole.x0 and box.y0 >= whole.y0 and box.x1 <= whole.x1 and box.y1 <= whole.y1)


def test_the_bars_labels_are_within_the_chart_negative_ones_too(standard: Any) -> None:
    from trey.documents.charts import import_matplotlib

    import_matplotlib()
    drawn = chart_inputs(standard).contributions
    figure = contribution_svg.__wrapped__(drawn, chart_scale(drawn))
    figure.draw_without_rendering()
    axes = figure.axes[0]
    labels = [t for t in axes.texts if t.get_text().endswith("%")]
    assert len(labels) == sum(len(w.rows) for w in drawn)
    assert all(_inside(figure, t) for t in [*labels, *axes.get_yticklabels(), axes.xaxis.label])


def test_many_wagers_share_charts_of_whole_wagers_each_within_a_page_on_one_scale() -> None:
    """Issue 18.13: from eight wagers on the share chart ran off the page; now whole wagers go to further charts,
    every one on the same scale."""
    from trey.documents.charts import MAX_CHART_INCHES, chart_groups

    wagers = [
        Contributions(f"Bet {i}", [Contribution(f"row {k}", 10.0 - i, f"{10 - i}%") for k in range(9 if i % 2 else 13)])
        for i in range(5)
    ]
    groups = chart_groups(wagers)
    assert [w for group in groups for w in group] == wagers  # every wager once, in order
    assert len(groups) > 1
    scale = chart_scale(wagers)
    for group in groups:
        figure = contribution_svg.__wrapped__(group, scale)
        assert figure.get_figheight() <= MAX_CHART_INCHES
        assert figure.axes[0].get_xlim() == (scale.low, scale.high)
        assert [t for t in texts(contribution_svg(group, scale)) if t.startswith("Bet ")] == [w.title for w in group]
