"""Paytables side by side: one row per (file, wager), ranked by house edge, with the difference to the first file.

The house edge is 1 - RTP as everywhere in trey: a progressive's with the meter at the reset, for a lone bettor
(:data:`RANKED_BY` says so in every header); its long-run RTP stands in a column of its own.

The baseline of the difference ("vs first") is the first file given, whatever its rank: the one a manager puts
first (the table on the floor) is the one the others are weighed against; the comparison names it
(:attr:`Comparison.baseline`). Each file is labelled by the shortest suffix of its path that no other file's
path shares (:func:`file_labels`), so that rows are told apart without printing long paths; a file given twice is
refused (its rows could not be told apart).

A table-games manager chooses among several tables (the Ante Bonus tables a supplier leases, Pair Plus from 2.32%
to 7.28% house edge); :func:`compare` gives every figure they weigh, exact, for each file and wager.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import PurePosixPath
from typing import Any

from trey.core.errors import TreyError
from trey.core.numbers import MoneyStyle, decimal_text, fraction_text
from trey.engine import analyze
from trey.engine.family import FamilyAnalysis, analyze_family
from trey.engine.results import GameAnalysis
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
from trey.paytable.model import ANTE_PLAY, GameSpec, money_style
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
    """One (file, wager) of a comparison: the wager's figures by name, its theoretical win an hour and its house
    edge against the first file's, labelled by the shortest suffix of the file's path."""

    file: str
    name: str
    wager: str
    title: str
    figures: Mapping[str, Value | None]  # the figures of COMPARED by name (None: it does not apply to the wager)
    theo_per_hour: Fraction  # in the currency of the file's table section (style)
    edge_vs_first: Fraction | None  # house edge minus the first file's for the same wager (None: it has none)
    label: str = ""  # the shortest suffix of the file's path that tells it from the other files compared
    style: MoneyStyle = field(default_factory=MoneyStyle)  # the file's currency and locale

    @property
    def house_edge(self) -> Fraction:
        """1 - rtp: the figure the rows are ranked by (a progressive's at the reset, for a lone bettor)."""
        edge = self.figures[HOUSE_EDGE.name]
        assert isinstance(edge, Fraction)
        return edge

    @property
    def variance(self) -> Fraction:
        """The wager's variance per unit bet."""
        variance = self.figures[VARIANCE.name]
        assert isinstance(variance, Fraction)
        return variance

    def figure(self, figure: Figure) -> Value | None:
        """The row's value of ``figure`` (None: it does not apply to the wager)."""
        return self.figures[figure.name]


@dataclass(frozen=True)
class Baseline:
    """What "vs first" is against: the first file given (as given, and its label)."""

    file: str
    label: str


class Comparison(list[ComparisonRow]):
    """The rows, ranked (a list, as the library has always returned), and the :class:`Baseline` of their "vs
    first"."""

    def __init__(self, rows: Iterable[ComparisonRow], baseline: Baseline) -> None:
        super().__init__(rows)
        self.baseline = baseline


def file_labels(files: Sequence[str]) -> list[str]:
    """Each file by the shortest suffix of its path, in whole components, that no other file's path ends with:
    ``paytables/pair_plus/40-30-6-3-1.yaml`` is ``40-30-6-3-1.yaml`` beside other names, ``pair_plus/standard.yaml``
    beside ``ante_bonus/standard.yaml``. A file given twice is refused: nothing tells its rows apart."""
    parts = [PurePosixPath(file).parts or (file,) for file in files]
    seen: dict[tuple[str, ...], str] = {}
    for file, path in zip(files, parts, strict=True):
        if path in seen:
            again = "given twice" if seen[path] == file else f"{seen[path]} given again"
            raise TreyError(f"{file} is {again}", hint="give each file once")
        seen[path] = file
    labels = []
    for index, path in enumerate(parts):
        others = [p for i, p in enumerate(parts) if i != index]
        length = 1
        while length < len(path) and any(p[-length:] == path[-length:] for p in others):
            length += 1
        labels.append("/".join(path[-length:]))
    return labels


def vs_first_text(row: ComparisonRow) -> str:
    """The house edge's difference to the first file's, in percentage points ("—" when that file has no such
    wager)."""
    if row.edge_vs_first is None:
        return "—"
    return f"{decimal_text(row.edge_vs_first * 100, HOUSE_EDGE.places)} pt"


def compare(
    games: list[tuple[str, GameSpec]],
    wager: str | None = None,
    *,
    counted: Mapping[str, FamilyAnalysis] | None = None,
) -> Comparison:
    """Rows for every (file, wager), or only ``wager``; wagers in the order first met, each ranked by house edge,
    with the difference to the first file given (the baseline). ``counted``: family games' analyses already made,
    by their game's SHA-256 (the workbench's, not counted again)."""
    rows: list[ComparisonRow] = []
    offered: list[str] = []
    labels = file_labels([file for file, _ in games])
    for (file, spec), file_label in zip(games, labels, strict=True):
        analysis, per_action = _analysis_of(spec, (counted or {}).get(spec.sha256))
        for wager_id, result in analysis.wagers.items():
            if wager_id not in offered:
                offered.append(wager_id)
            if wager is not None and wager_id != wager:
                continue
            figures = {figure.name: figure.of(result) for figure in COMPARED}
            if wager_id in per_action:
                figures[ELEMENT_OF_RISK.name], figures[AVERAGE_WAGER.name] = per_action[wager_id]
            rows.append(
                ComparisonRow(
                    file=file,
                    name=spec.name,
                    wager=wager_id,
                    title=result.title,
                    figures=figures,
                    theo_per_hour=theoretical_win(result, analysis).per_hour,
                    edge_vs_first=None,
                    label=file_label,
                    style=money_style(spec.table),
                )
            )
    if wager is not None and wager not in offered:
        raise TreyError(f"no file offers the wager {wager!r}", hint=did_you_mean(wager, offered))
    first_file = games[0][0]
    first = {r.wager: r.house_edge for r in rows if r.file == first_file}
    order = {w: i for i, w in enumerate(offered)}
    ranked = sorted(rows, key=lambda r: (order[r.wager], r.house_edge, r.file))
    return Comparison(
        (
            ComparisonRow(
                **{**r.__dict__, "edge_vs_first": r.house_edge - first[r.wager] if r.wager in first else None}
            )
            for r in ranked
        ),
        Baseline(first_file, labels[0]),
    )


def _analysis_of(
    spec: GameSpec, counted: FamilyAnalysis | None = None
) -> tuple[GameAnalysis, dict[str, tuple[Fraction, Fraction]]]:
    """Every wager of a game, and the per-action figures (element of risk, average total action) of an Ante & Play
    the standard game's figures do not carry. A game of the family other than the standard one is counted by
    :func:`~trey.engine.family.analyze_family`: its Ante & Play per Ante (as the standard game's house edge is), its
    per-action figures its own (a Blind and a 3x Play included), its side bets as beside the standard game."""
    if spec.is_standard_game:
        return analyze(spec), {}
    found = counted if counted is not None and counted.spec == spec else analyze_family(spec)
    wagers = {ANTE_PLAY: found.as_wager(), **found.side_bet_analysis.wagers}
    return GameAnalysis(spec, wagers), {ANTE_PLAY: (found.element_of_risk, found.average_action)}


def comparison_json(rows: Comparison) -> dict[str, Any]:
    """``trey compare --format json`` (schemas/comparison.schema.json)."""

    return {
        "baseline": {"file": rows.baseline.file, "label": rows.baseline.label},
        "rows": [
            {
                "file": r.file,
                "label": r.label,
                "name": r.name,
                "wager": r.wager,
                "title": r.title,
                **{figure.name: figure.json_of(r.figure(figure)) for figure in COMPARED},
                "theoretical_win_per_hour": fraction_text(r.theo_per_hour),
                "currency": r.style.currency,
                "house_edge_vs_first": fraction_text(r.edge_vs_first) if r.edge_vs_first is not None else None,
            }
            for r in rows
        ],
    }
