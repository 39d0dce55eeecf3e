"""Paytables side by side: one row per (file, wager), ranked by house edge, with the difference to the first file.

The house edge is 1 - RTP as everywhere in trey: a progressive's with the meter at the reset, for a lone bettor
(:data:`RANKED_BY` says so in every header); its long-run RTP stands in a column of its own.

A table-games manager chooses among several tables (the Ante Bonus tables a supplier leases, Pair Plus from 2.32%
to 7.28% house edge); :func:`compare` gives every figure they weigh, exact, for each file and wager.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from trey.core.errors import TreyError
from trey.core.numbers import decimal_text, fraction_text
from trey.engine import analyze
from trey.figures.registry import (
    AVERAGE_WAGER,
    ELEMENT_OF_RISK,
    HIT_FREQUENCY,
    HOUSE_EDGE,
    LONG_RUN_RTP,
    RTP,
    STD_DEV,
    VARIANCE,
    VOLATILITY_INDEX_90,
    Figure,
    Value,
)
from trey.figures.theo import theoretical_win
from trey.paytable.model import GameSpec
from trey.paytable.schema_errors import did_you_mean

RANKED_BY = "house edge (a progressive's at the reset, for a lone bettor)"


# The figures a comparison gives of each (file, wager), in the order of its JSON contract.
COMPARED = (
    HOUSE_EDGE,
    RTP,
    LONG_RUN_RTP,
    HIT_FREQUENCY,
    VARIANCE,
    STD_DEV,
    VOLATILITY_INDEX_90,
    ELEMENT_OF_RISK,
    AVERAGE_WAGER,
)


@dataclass(frozen=True)
class ComparisonRow:
    file: str
    name: str
    wager: str
    title: str
    figures: Mapping[str, Value | None]  # the figures of COMPARED by name (None: it does not apply to the wager)
    theo_per_hour: Fraction
    edge_vs_first: Fraction | None  # house edge minus the first file's for the same wager (None: it has none)

    @property
    def house_edge(self) -> Fraction:
        """1 - rtp: the figure the rows are ranked by (a progressive's at the reset, for a lone bettor)."""
        edge = self.figures[HOUSE_EDGE.name]
        assert isinstance(edge, Fraction)
        return edge

    @property
    def variance(self) -> Fraction:
        variance = self.figures[VARIANCE.name]
        assert isinstance(variance, Fraction)
        return variance

    def figure(self, figure: Figure) -> Value | None:
        return self.figures[figure.name]


def vs_first_text(row: ComparisonRow) -> str:
    """The house edge's difference to the first file's, in percentage points ("—" when that file has no such
    wager)."""
    if row.edge_vs_first is None:
        return "—"
    return f"{decimal_text(row.edge_vs_first * 100, HOUSE_EDGE.places)} pt"


def compare(games: list[tuple[str, GameSpec]], wager: str | None = None) -> list[ComparisonRow]:
    """Rows for every (file, wager), or only ``wager``; wagers in the order first met, each ranked by house edge."""
    rows: list[ComparisonRow] = []
    offered: list[str] = []
    for file, spec in games:
        analysis = analyze(spec)
        for wager_id, result in analysis.wagers.items():
            if wager_id not in offered:
                offered.append(wager_id)
            if wager is not None and wager_id != wager:
                continue
            rows.append(
                ComparisonRow(
                    file=file,
                    name=spec.name,
                    wager=wager_id,
                    title=result.title,
                    figures={figure.name: figure.of(result) for figure in COMPARED},
                    theo_per_hour=theoretical_win(result, analysis).per_hour,
                    edge_vs_first=None,
                )
            )
    if wager is not None and wager not in offered:
        raise TreyError(f"no file offers the wager {wager!r}", hint=did_you_mean(wager, offered))
    first_file = games[0][0]
    first = {r.wager: r.house_edge for r in rows if r.file == first_file}
    order = {w: i for i, w in enumerate(offered)}
    ranked = sorted(rows, key=lambda r: (order[r.wager], r.house_edge, r.file))
    return [
        ComparisonRow(**{**r.__dict__, "edge_vs_first": r.house_edge - first[r.wager] if r.wager in first else None})
        for r in ranked
    ]


def comparison_json(rows: list[ComparisonRow]) -> dict[str, Any]:
    """``trey compare --format json`` (schemas/comparison.schema.json)."""

    return {
        "rows": [
            {
                "file": r.file,
                "name": r.name,
                "wager": r.wager,
                "title": r.title,
                **{figure.name: figure.json_of(r.figure(figure)) for figure in COMPARED},
                "theoretical_win_per_hour": fraction_text(r.theo_per_hour),
                "house_edge_vs_first": fraction_text(r.edge_vs_first) if r.edge_vs_first is not None else None,
            }
            for r in rows
        ]
    }
