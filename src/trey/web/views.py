"""What the workbench shows beside the figures (issue 33): every wager's house edge, RTP and hit frequency against
the file opened, with a warning where a wager favours the player or breaks the chosen profile's checks; and the
comparison with the folder's tables as a panel of the page.

Every figure is worded by the rows the terminal prints (:func:`trey.present.figures_view.summary_rows`) and every
check is the profile's own (:func:`trey.trust.compliance.run_checks`): nothing is restated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from trey.core.numbers import percent_text
from trey.engine.family import FamilyAnalysis
from trey.engine.results import GameAnalysis
from trey.paytable.model import ANTE_PLAY, ANTE_PLAY_TITLE, PRESETS
from trey.paytable.pays import MeterShare
from trey.present.figures_view import summary_rows

SUMMARY_FIGURES = ("House edge", "RTP", "Hit frequency")  # the summary's columns, as summary_rows labels them


@dataclass(frozen=True)
class Summed:
    """What the summary says of each wager of a table, by id: its title, house edge and figures' texts."""

    wagers: dict[str, tuple[str, Fraction, dict[str, str]]]


def summarised(analysis: GameAnalysis) -> Summed:
    """The standard game's wagers, worded by the rows the terminal prints."""
    found = {}
    for wager, result in analysis.wagers.items():
        rows = summary_rows(result)
        texts = {name: next(text for label, text in rows if label.startswith(name)) for name in SUMMARY_FIGURES}
        found[wager] = (result.title, result.stats.house_edge, texts)
    return Summed(found)


def family_summed(analysis: FamilyAnalysis) -> Summed:
    """A family game's Ante & Play, per Ante, as its figures are published."""
    stats = analysis.stats
    texts = {
        "House edge": percent_text(stats.house_edge),
        "RTP": percent_text(stats.rtp),
        "Hit frequency": percent_text(stats.hit_frequency),
    }
    return Summed({ANTE_PLAY: (ANTE_PLAY_TITLE, stats.house_edge, texts)})


@dataclass(frozen=True)
class Change:
    before: str | None  # None: the wager was not in the file opened
    now: str

    @property
    def changed(self) -> bool:
        return self.before is not None and self.before != self.now


def wager_path(wager: str) -> list[str]:
    """The JSON path of a wager's section in the paytable's data: under wagers: (Ante & Play, the presets) or
    side_bets:."""
    return ["wagers", wager] if wager == ANTE_PLAY or wager in PRESETS else ["side_bets", wager]


def summary(current: Summed, baseline: Summed | None, findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A row per wager: its house edge, RTP and hit frequency now and in the file opened (``baseline``), and what
    is wrong with it (favourable to the player; a failed check of the profile); then a row per wager removed."""
    rows = []
    for wager, (title, edge, now) in current.wagers.items():
        before = baseline.wagers[wager][2] if baseline and wager in baseline.wagers else None
        warnings = []
        if edge < 0:
            warnings.append(f"favours the player: a house edge of {now['House edge']}")
        warnings += [f"{f['check']}: {f['detail']}" for f in findings if f["wager"] == wager and f["result"] == "FAIL"]
        rows.append(
            {
                "id": wager,
                "title": title,
                "figures": [Change(before[n] if before else None, now[n]) for n in SUMMARY_FIGURES],
                "new": baseline is not None and before is None,
                "removed": False,
                "warnings": warnings,
            }
        )
    if baseline is not None:
        for wager, (title, _, _) in baseline.wagers.items():
            if wager not in current.wagers:
                rows.append({"id": wager, "title": title, "removed": True, "new": False, "figures": [], "warnings": []})
    return rows


def meter_pays(analysis: GameAnalysis, wager: str, rows: Sequence[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """The outcome rows of a wager with a meter share's pay said as a share of the meter ("100% of the meter"),
    not as what it pays at the reset."""
    if wager == ANTE_PLAY:
        return list(rows)
    shares = {name: pay for name, pay in analysis.spec.wagers.paytable(wager).rows if isinstance(pay, MeterShare)}
    if not shares:
        return list(rows)
    outcomes = [r.outcome for r in analysis.wagers[wager].outcomes]
    shown = []
    for i, row in enumerate(rows):
        pay = shares.get(outcomes[i]) if i < len(outcomes) else None
        shown.append((row[0], f"{pay} ({row[1]} at the reset)", *row[2:]) if pay is not None else row)
    return shown


def comparison_groups(rows: list[Any], first_file: str) -> list[dict[str, Any]]:
    """The comparison (trey.choose.compare's rows) by wager: each table's figures as compare words them, and the
    points of a chart of house edge against standard deviation, laid out so that every label stays inside it."""
    from trey.choose.compare import COMPARED, vs_first_text
    from trey.core.numbers import sqrt_decimal

    groups: list[dict[str, Any]] = []
    for wager in dict.fromkeys(r.wager for r in rows):
        group = [r for r in rows if r.wager == wager]
        shown = [f for f in COMPARED if any(r.figure(f) is not None for r in group)]
        points = [(r.label, float(sqrt_decimal(r.variance)), float(r.house_edge * 100)) for r in group]
        groups.append(
            {
                "id": wager,
                "title": group[0].title,
                "columns": [f.label for f in shown],
                "rows": [
                    {
                        "label": r.label,
                        "name": r.name,
                        "edited": r.file == first_file,
                        "vs_first": vs_first_text(r),
                        "cells": [f.text_of(r.figure(f)) for f in shown],
                    }
                    for r in group
                ],
                "chart": chart(points, [r.file == first_file for r in group]),
            }
        )
    return groups


CHART_WIDTH, CHART_HEIGHT = 720, 300
LABEL_CHARS = 36  # of a file's label in the chart's legend (the whole label is its tooltip and in the table)
PLOT = (60, 20, 420, 250)  # left, top, right, bottom of the plot: the labels have the room on its right


def chart(points: list[tuple[str, float, float]], edited: list[bool]) -> dict[str, Any]:
    """A scatter of house edge (up) against standard deviation (across), as coordinates for an SVG of
    :data:`CHART_WIDTH` × :data:`CHART_HEIGHT`: each point's label beside it, listed at the right as well when
    points crowd, so that no label is cut."""
    left, top, right, bottom = PLOT
    xs, ys = [p[1] for p in points], [p[2] for p in points]
    pad_x = (max(xs) - min(xs)) * 0.06 or 0.05  # no point on the frame: its number stays inside the chart
    x0, x1 = min(xs) - pad_x, max(xs) + pad_x
    y0, y1 = min(min(ys), 0.0), max(max(ys), 0.0)
    y1 += (y1 - y0) * 0.08 or 1.0
    span_x = x1 - x0
    span_y = y1 - y0

    def at(x: float, y: float) -> tuple[float, float]:
        return (
            round(left + (x - x0) / span_x * (right - left), 1),
            round(bottom - (y - y0) / span_y * (bottom - top), 1),
        )

    marks = []
    for n, (label, x, y) in enumerate(points, 1):
        px, py = at(x, y)
        short = label if len(label) <= LABEL_CHARS else label[: LABEL_CHARS - 1] + "…"
        marks.append({"n": n, "label": label, "short": short, "x": px, "y": py, "edited": edited[n - 1]})
    zero = at(x0, 0.0)[1]
    ticks_y = [{"y": at(x0, v)[1], "text": f"{v:.1f}%"} for v in (y0, (y0 + y1) / 2, y1)]
    ticks_x = [{"x": at(v, y0)[0], "text": f"{v:.2f}"} for v in (x0, (x0 + x1) / 2, x1)]
    legend = [{**m, "y": top + 6 + 14 * i} for i, m in enumerate(marks[:16])]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "plot": PLOT,
        "marks": marks,
        "zero": zero,
        "ticks_y": ticks_y,
        "ticks_x": ticks_x,
        "legend": legend,
        "legend_x": right + 24,
    }
