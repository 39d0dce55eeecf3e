"""``trey analyze --format`` offers exactly the registry's formats, and each is made by its entry."""

from __future__ import annotations

import json
from pathlib import Path

from trey.cli.game import AnalysisFormat
from trey.engine import analyze
from trey.figures.export import analysis_json
from trey.paytable.load import load_spec
from trey.present.formats import ANALYSIS_FORMATS, FormatOptions, file_format_rule
from trey.present.spreadsheet import analysis_csv

REPO = Path(__file__).resolve().parents[2]
ANALYSIS = analyze(load_spec(REPO / "paytables" / "standard.yaml"))


def test_the_command_offers_the_registrys_formats() -> None:
    assert [f.value for f in AnalysisFormat] == list(ANALYSIS_FORMATS) == ["table", "json", "csv", "xlsx"]
    assert file_format_rule() == "--format xlsx writes the workbook given with --out FILE.xlsx"


def test_each_format_is_made_by_its_entry() -> None:
    options = FormatOptions()
    assert json.loads(ANALYSIS_FORMATS["json"].make(ANALYSIS, options)) == analysis_json(ANALYSIS)  # type: ignore[arg-type]
    assert ANALYSIS_FORMATS["csv"].make(ANALYSIS, options) == analysis_csv(ANALYSIS)
    workbook = ANALYSIS_FORMATS["xlsx"].make(ANALYSIS, options)
    assert isinstance(workbook, bytes) and workbook.startswith(b"PK")
    assert [f.suffix for f in ANALYSIS_FORMATS.values()] == [None, None, None, ".xlsx"]
