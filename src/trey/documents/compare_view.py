"""The comparison of paytables as an HTML page: a table per wager and a chart of house edge against deviation."""

from __future__ import annotations

from typing import Any

from trey.choose.compare import COMPARED, RANKED_BY, ComparisonRow, vs_first_text
from trey.core.numbers import decimal_text, sqrt_decimal
from trey.core.version import __version__
from trey.documents.charts import edge_against_sd_svg
from trey.documents.environment import render
from trey.figures.registry import ELEMENT_OF_RISK, LONG_RUN_RTP


def _row(r: ComparisonRow) -> dict[str, str]:
    return {
        "file": r.file,
        "name": r.name,
        "vs_first": vs_first_text(r),
        **{figure.name: figure.text_of(r.figure(figure)) for figure in COMPARED},
        "theo": decimal_text(r.theo_per_hour, 2),
    }


def render_comparison_html(rows: list[ComparisonRow], first_file: str) -> str:
    groups: list[dict[str, Any]] = []
    for wager in dict.fromkeys(r.wager for r in rows):
        group = [r for r in rows if r.wager == wager]
        points = [(r.file, float(sqrt_decimal(r.variance)), float(r.house_edge * 100)) for r in group]
        groups.append(
            {
                "title": group[0].title,
                "ante": any(r.figure(ELEMENT_OF_RISK) is not None for r in group),
                "progressive": any(r.figure(LONG_RUN_RTP) is not None for r in group),
                "rows": [_row(r) for r in group],
                "chart": edge_against_sd_svg(points, f"{group[0].title}: house edge against standard deviation"),
            }
        )
    intro = (
        f"Each wager's tables ranked by {RANKED_BY}; differences in percentage "
        f"points to the first file given, {first_file}. Theoretical win an hour: house edge × average bet × decisions "
        "an hour, from each file's table section (60 decisions and a unit bet unless it says otherwise; a "
        "progressive's theoretical win is on its long-run house edge)."
    )
    return render("compare.html.j2", groups=groups, intro=intro, trey_version=__version__)
