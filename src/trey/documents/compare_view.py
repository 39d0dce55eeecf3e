"""The comparison of paytables as an HTML page: a table per wager and a chart of house edge against deviation."""

from __future__ import annotations

from typing import Any

from trey import __version__
from trey.choose.compare import RANKED_BY, ComparisonRow
from trey.core.numbers import decimal_text, percent_text
from trey.documents.charts import edge_against_sd_svg
from trey.documents.environment import render


def _row(r: ComparisonRow) -> dict[str, str]:
    return {
        "file": r.file,
        "name": r.name,
        "house_edge": percent_text(r.house_edge),
        "vs_first": "—" if r.edge_vs_first is None else f"{decimal_text(r.edge_vs_first * 100, 4)} pt",
        "rtp": percent_text(r.rtp),
        "long_run_rtp": percent_text(r.long_run_rtp) if r.long_run_rtp is not None else "",
        "hit_frequency": percent_text(r.hit_frequency),
        "std_dev": f"{r.std_dev:.4f}",
        "vi90": f"{r.volatility_index_90:.4f}",
        "element_of_risk": percent_text(r.element_of_risk) if r.element_of_risk is not None else "",
        "average_wager": decimal_text(r.average_wager, 4) if r.average_wager is not None else "",
        "theo": decimal_text(r.theo_per_hour, 2),
    }


def render_comparison_html(rows: list[ComparisonRow], first_file: str) -> str:
    groups: list[dict[str, Any]] = []
    for wager in dict.fromkeys(r.wager for r in rows):
        group = [r for r in rows if r.wager == wager]
        points = [(r.file, r.std_dev, float(r.house_edge * 100)) for r in group]
        groups.append(
            {
                "title": group[0].title,
                "ante": any(r.element_of_risk is not None for r in group),
                "progressive": any(r.long_run_rtp is not None for r in group),
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
