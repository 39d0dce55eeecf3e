"""The formats ``trey analyze`` writes an analysis in: the registry :data:`ANALYSIS_FORMATS`.

Each format states its name (``--format``), its help, where it goes (standard output, or the file ``--out`` names
with its suffix) and how it is made. The command lists the registry's names and makes the one asked for; adding a
format is one entry here and its tests. Making a format imports what it needs then, so that the command starts
without numpy, rich or openpyxl.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from trey.engine.results import GameAnalysis


@dataclass(frozen=True)
class FormatOptions:
    exact: bool = False  # exact fractions beside the rounded figures (the terminal's tables)
    meter: Fraction | None = None  # progressives evaluated at this meter too


@dataclass(frozen=True)
class AnalysisFormat:
    name: str
    help: str
    suffix: str | None  # None: written to standard output; else to the file --out names, which ends so
    noun: str  # what it is: "workbook"
    # The text or bytes of the analysis; None when the format printed itself (the terminal's tables, which
    # style themselves for the terminal they are printed on).
    make: Callable[[GameAnalysis, FormatOptions], str | bytes | None]


def _table(analysis: GameAnalysis, options: FormatOptions) -> None:
    from trey.present.terminal import print_analysis

    print_analysis(analysis, exact=options.exact, meter=options.meter)


def _json(analysis: GameAnalysis, options: FormatOptions) -> str:
    from trey.figures.export import analysis_json

    return json.dumps(analysis_json(analysis, meter=options.meter), indent=2) + "\n"


def _csv(analysis: GameAnalysis, options: FormatOptions) -> str:  # noqa: ARG001
    from trey.present.spreadsheet import analysis_csv

    return analysis_csv(analysis)


def _xlsx(analysis: GameAnalysis, options: FormatOptions) -> bytes:  # noqa: ARG001
    from trey.present.spreadsheet import analysis_workbook

    return analysis_workbook(analysis)


ANALYSIS_FORMATS: dict[str, AnalysisFormat] = {
    f.name: f
    for f in (
        AnalysisFormat("table", "tables for a terminal", None, "table", _table),
        AnalysisFormat("json", "the JSON contract", None, "JSON document", _json),
        AnalysisFormat("csv", "a row per wager outcome", None, "CSV", _csv),
        AnalysisFormat("xlsx", "the PAR workbook, with --out FILE.xlsx", ".xlsx", "workbook", _xlsx),
    )
}


def file_format_rule() -> str:
    """Which formats --out is for, in words: "--format xlsx writes the workbook given with --out FILE.xlsx"."""
    return " and ".join(
        f"--format {f.name} writes the {f.noun} given with --out FILE{f.suffix}"
        for f in ANALYSIS_FORMATS.values()
        if f.suffix is not None
    )
