"""Paytables side by side: one row per (file, wager), ranked by house edge, with the difference to the first file.

The house edge is 1 - RTP as everywhere in trey: a progressive's with the meter at the reset, for a lone bettor
(:data:`RANKED_BY` says so in every header); its long-run RTP stands in a column of its own.

A table-games manager chooses among several tables (the Ante Bonus tables a supplier leases, Pair Plus from 2.32%
to 7.28% house edge); :func:`compare` gives every figure they weigh, exact, for each file and wager.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from trey.core.errors import TreyError
from trey.core.numbers import fraction_text, rounded_float, sqrt_decimal
from trey.engine import analyze
from trey.engine.results import AntePlayAnalysis
from trey.engine.stats import Z_90
from trey.figures.theo import theoretical_win
from trey.paytable.model import GameSpec
from trey.paytable.schema_errors import did_you_mean

RANKED_BY = "house edge (a progressive's at the reset, for a lone bettor)"


@dataclass(frozen=True)
class ComparisonRow:
    file: str
    name: str
    wager: str
    title: str
    house_edge: Fraction  # 1 - rtp: the figure the rows are ranked by
    rtp: Fraction  # the wager's RTP (a progressive's at the reset, for a lone bettor)
    long_run_rtp: Fraction | None  # a progressive's long-run RTP, for a lone bettor
    hit_frequency: Fraction
    variance: Fraction
    element_of_risk: Fraction | None  # Ante & Play
    average_wager: Fraction | None  # Ante & Play, in Antes
    theo_per_hour: Fraction
    edge_vs_first: Fraction | None  # house edge minus the first file's for the same wager (None: it has none)

    @property
    def std_dev(self) -> float:
        return float(sqrt_decimal(self.variance))

    @property
    def volatility_index_90(self) -> float:
        return Z_90 * self.std_dev


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
            ante = result if isinstance(result, AntePlayAnalysis) else None
            rtp = result.stats.rtp
            rows.append(
                ComparisonRow(
                    file=file,
                    name=spec.name,
                    wager=wager_id,
                    title=result.title,
                    house_edge=1 - rtp,
                    rtp=rtp,
                    long_run_rtp=result.progressive.long_run_rtp if result.progressive is not None else None,
                    hit_frequency=result.stats.hit_frequency,
                    variance=result.stats.variance,
                    element_of_risk=ante.element_of_risk if ante is not None else None,
                    average_wager=ante.average_wager if ante is not None else None,
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

    def exact(value: Fraction | None) -> str | None:
        return fraction_text(value) if value is not None else None

    return {
        "rows": [
            {
                "file": r.file,
                "name": r.name,
                "wager": r.wager,
                "title": r.title,
                "house_edge": fraction_text(r.house_edge),
                "rtp": fraction_text(r.rtp),
                "long_run_rtp": exact(r.long_run_rtp),
                "hit_frequency": fraction_text(r.hit_frequency),
                "variance": fraction_text(r.variance),
                "std_dev": rounded_float(sqrt_decimal(r.variance), 4),
                "volatility_index_90": rounded_float(sqrt_decimal(r.variance) * Decimal(str(Z_90)), 4),
                "element_of_risk": exact(r.element_of_risk),
                "average_wager": exact(r.average_wager),
                "theoretical_win_per_hour": fraction_text(r.theo_per_hour),
                "house_edge_vs_first": exact(r.edge_vs_first),
            }
            for r in rows
        ]
    }
