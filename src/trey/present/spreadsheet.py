"""PAR sheets as spreadsheets: ``trey analyze --format csv`` and ``--format xlsx`` (labs and suppliers trade them).

CSV: one row per wager outcome, then Ante & Play's outcomes by the player's hand, the columns of :data:`CSV_COLUMNS`
(stable, new ones only ever added at the end; the README lists them). The workbook: a summary sheet, one sheet per
wager (outcome, pays, combinations, probability, 1 in N, contribution to RTP, return), and Ante & Play's outcomes by
the player's hand; every figure a number (not text), rounded once for display by the number format only, with the
exact fraction in the column beside.
"""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from trey.choose.compare import ComparisonRow
from trey.core.numbers import decimal_text, fraction_text
from trey.engine.results import AntePlayAnalysis, GameAnalysis, HandOutcome, WagerAnalysis
from trey.engine.stats import OutcomeRow
from trey.figures.registry import (
    AVERAGE_WAGER,
    CYCLE,
    DEALER_QUALIFIES,
    ELEMENT_OF_RISK,
    HIT_FREQUENCY,
    HOUSE_EDGE,
    LONG_RUN_RTP,
    RTP,
    STD_DEV,
    VARIANCE,
    VOLATILITY_INDEX_90,
    Figure,
    Unit,
)
from trey.figures.theo import theoretical_wins

CSV_COLUMNS = (
    "wager",
    "title",
    "kind",
    "outcome",
    "pays",
    "combinations",
    "cycle",
    "probability",
    "probability_exact",
    "one_in",
    "contribution",
    "contribution_exact",
    "return",
    "return_exact",
    "hand",
)


def _rows(result: WagerAnalysis) -> list[tuple[str, OutcomeRow]]:
    """(kind, row): the wager's outcomes, then for Ante & Play its Ante Bonus rows (paid on top)."""
    rows = [("outcome", r) for r in result.outcomes]
    if isinstance(result, AntePlayAnalysis):
        rows += [("ante_bonus", r) for r in result.ante_bonus]
    return rows


# A spreadsheet reads a cell that begins with one of these as a formula (OWASP, "CSV Injection").
FORMULA_TRIGGERS = ("=", "+", "-", "@", "\t", "\r")
SHEET_NAME_CHARS = 31  # Excel's limit


def csv_text(text: str) -> str:
    """User text for a CSV cell: a leading formula character is neutralised by a leading apostrophe (OWASP)."""
    return "'" + text if text.startswith(FORMULA_TRIGGERS) else text


def sheet_names(wagers: list[str]) -> list[str]:
    """One sheet name per wager: its id when that fits Excel's 31 characters, else its first characters and its
    position, so that no two sheets share a name (the Summary's "sheet" column says which wager each holds)."""
    names = []
    for index, wager in enumerate(wagers, 1):
        name = wager if len(wager) <= SHEET_NAME_CHARS else f"{wager[: SHEET_NAME_CHARS - 4]}~{index:03d}"
        names.append(name)
    return names


def _csv_row(wager: str, title: str, kind: str, row: OutcomeRow | HandOutcome) -> list[object]:
    return [
        wager,
        csv_text(title),
        kind,
        str(row.situation) if isinstance(row, HandOutcome) else row.outcome,
        fraction_text(row.pays),
        row.combinations,
        row.cycle,
        decimal_text(row.probability, 12),
        fraction_text(row.probability),
        decimal_text(row.one_in, 4) if row.one_in is not None else "",
        decimal_text(row.contribution, 12),
        fraction_text(row.contribution),
        decimal_text(row.expected_net, 12),
        fraction_text(row.expected_net),
        row.hand if isinstance(row, HandOutcome) else "",
    ]


def analysis_csv(analysis: GameAnalysis) -> str:
    """The rows of every wager's PAR table (``kind`` outcome or ante_bonus), then Ante & Play's outcomes by the
    player's hand (``kind`` by_hand, the hand's category in ``hand``, pays with the Ante Bonus included)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for wager, result in analysis.wagers.items():
        for kind, row in _rows(result):
            writer.writerow(_csv_row(wager, result.title, kind, row))
        if isinstance(result, AntePlayAnalysis):
            for hand_row in result.by_hand:
                writer.writerow(_csv_row(wager, result.title, "by_hand", hand_row))
    return buffer.getvalue()


# The Summary sheet's figures, each a number cell and, when exact, its fraction beside it.
WORKBOOK_FIGURES = (
    CYCLE,
    RTP,
    HOUSE_EDGE,
    LONG_RUN_RTP,
    HIT_FREQUENCY,
    VARIANCE,
    STD_DEV,
    ELEMENT_OF_RISK,
    DEALER_QUALIFIES,
)
BY_HAND_SHEET = " by hand"  # after the wager's sheet name: a space, which no wager id has, so no two sheets clash


def _has_exact(figure: Figure) -> bool:
    return figure.exact and figure.unit is not Unit.DEALS


def _number(value: Fraction | Decimal | int) -> float | int:
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        return float(value)
    return int(value) if value.denominator == 1 else float(value)


def analysis_workbook(analysis: GameAnalysis, created: datetime | None = None) -> bytes:
    """The PAR workbook; the same analysis and ``created`` give the same bytes. ``created`` defaults to midnight of
    the issue date rule's day (``SOURCE_DATE_EPOCH``, else today), as every document of trey is dated."""
    if created is None:
        from datetime import UTC

        from trey.trust.certificate import default_issue_date

        day = default_issue_date()
        created = datetime(day.year, day.month, day.day, tzinfo=UTC).replace(tzinfo=None)
    from openpyxl import Workbook
    from openpyxl.styles import Font
    from openpyxl.writer.excel import ExcelWriter

    book = Workbook()
    book.properties.created = created
    book.properties.modified = created
    book.properties.creator = "trey"
    summary = book.active
    assert summary is not None
    summary.title = "Summary"
    sheets = sheet_names(list(analysis.wagers))
    header = ["wager", "sheet", "title"]
    for figure in WORKBOOK_FIGURES:
        header += [figure.heading, f"{figure.heading} (exact)"] if _has_exact(figure) else [figure.heading]
    header += ["theoretical win an hour", "theoretical win an hour (exact)"]
    summary.append(header)
    theos = theoretical_wins(analysis)
    for (wager, result), sheet_name in zip(analysis.wagers.items(), sheets, strict=True):
        line: list[object] = [wager, sheet_name, result.title]
        for figure in WORKBOOK_FIGURES:
            value = figure.of(result)
            line.append(_number(value) if value is not None else None)
            if _has_exact(figure):
                line.append(figure.exact_text(result) or None)
        line += [_number(theos[wager].per_hour), fraction_text(theos[wager].per_hour)]
        summary.append(line)
    percent = {figure.heading for figure in WORKBOOK_FIGURES if figure.unit is Unit.SHARE}
    for cells in summary.iter_rows(min_row=2):
        for cell, name in zip(cells, header, strict=True):
            if name in percent:
                cell.number_format = "0.0000%"
    for result, sheet_name in zip(analysis.wagers.values(), sheets, strict=True):
        sheet = book.create_sheet(sheet_name)
        sheet.append(
            [
                "outcome",
                "kind",
                "pays",
                "pays (exact)",
                "combinations",
                "probability",
                "probability (exact)",
                "1 in N",
                "contribution to RTP",
                "contribution to RTP (exact)",
                "return",
                "return (exact)",
            ]
        )
        for kind, row in _rows(result):
            sheet.append(
                [
                    row.outcome,
                    kind,
                    _number(row.pays),
                    fraction_text(row.pays),
                    row.combinations,
                    _number(row.probability),
                    fraction_text(row.probability),
                    _number(row.one_in) if row.one_in is not None else None,
                    _number(row.contribution),
                    fraction_text(row.contribution),
                    _number(row.expected_net),
                    fraction_text(row.expected_net),
                ]
            )
        _style(sheet, percent_columns=(8, 10))
        if isinstance(result, AntePlayAnalysis):
            _by_hand_sheet(
                book.create_sheet(sheet_name[: SHEET_NAME_CHARS - len(BY_HAND_SHEET)] + BY_HAND_SHEET), result
            )
    for cell in summary[1]:
        cell.font = Font(bold=True)
    for worksheet in book.worksheets:  # text is text: a name such as '=HYPERLINK(...)' never becomes a formula
        for cells in worksheet.iter_rows():
            for cell in cells:
                if isinstance(cell.value, str):
                    cell.data_type = "s"
    buffer = io.BytesIO()
    # ExcelWriter, not Workbook.save: save() stamps the modified date with the clock, so no two runs would match.
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        ExcelWriter(book, archive).save()
    return _pinned_zip(buffer.getvalue(), created)


def _style(sheet: Any, *, percent_columns: tuple[int, ...]) -> None:
    """Bold headings, and the columns (0-based) shown as percentages."""
    from openpyxl.styles import Font

    rows = list(sheet.iter_rows())
    for cell in rows[0]:
        cell.font = Font(bold=True)
    for cells in rows[1:]:
        for column in percent_columns:
            cells[column].number_format = "0.0000%"


def _by_hand_sheet(sheet: Any, result: AntePlayAnalysis) -> None:
    """Ante & Play's outcomes by the player's hand, every row (0 where it never happens)."""
    columns = ["hand", "outcome", "pays", "pays (exact)", "combinations", "probability", "probability (exact)"]
    sheet.append([*columns, "return", "return (exact)"])
    row: HandOutcome
    for row in result.by_hand:
        sheet.append(
            [
                row.hand,
                str(row.situation),
                _number(row.pays),
                fraction_text(row.pays),
                row.combinations,
                _number(row.probability),
                fraction_text(row.probability),
                _number(row.expected_net),
                fraction_text(row.expected_net),
            ]
        )
    _style(sheet, percent_columns=(7,))


def _pinned_zip(data: bytes, when: datetime) -> bytes:
    """The workbook (a zip) again with every entry's timestamp set to ``when``: reproducible bytes."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            pinned = zipfile.ZipInfo(info.filename, date_time=when.timetuple()[:6])
            pinned.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(pinned, source.read(info.filename))
    return out.getvalue()


# trey compare --format csv: these figures (a share's column says it is in percent), then the theoretical win an
# hour, the difference to the first file and the exact house edge.
COMPARISON_CSV_FIGURES = (
    HOUSE_EDGE,
    RTP,
    LONG_RUN_RTP,
    HIT_FREQUENCY,
    STD_DEV,
    VOLATILITY_INDEX_90,
    ELEMENT_OF_RISK,
    AVERAGE_WAGER,
)
COMPARISON_CSV_COLUMNS = (
    "file",
    "name",
    "wager",
    "title",
    *(figure.csv_column for figure in COMPARISON_CSV_FIGURES),
    "theoretical_win_per_hour",
    "house_edge_vs_first_points",
    "house_edge_exact",
    "label",  # added after the first release's columns, which keep their places
    "currency",  # of theoretical_win_per_hour
)


def comparison_csv(rows: list[ComparisonRow]) -> str:
    """``trey compare --format csv``: the columns of :data:`COMPARISON_CSV_COLUMNS`, rounded once (4 decimals),
    the exact house edge as a fraction, then the row's label and the theoretical win's currency."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COMPARISON_CSV_COLUMNS)
    for r in rows:
        writer.writerow(
            [
                csv_text(r.file),
                csv_text(r.name),
                r.wager,
                csv_text(r.title),
                *(figure.number_text_of(r.figure(figure)) for figure in COMPARISON_CSV_FIGURES),
                decimal_text(r.theo_per_hour, 2),
                HOUSE_EDGE.number_text_of(r.edge_vs_first),
                fraction_text(r.house_edge),
                csv_text(r.label),
                r.style.currency,
            ]
        )
    return buffer.getvalue()
