"""PAR sheets as spreadsheets: ``trey analyze --format csv`` and ``--format xlsx`` (labs and suppliers trade them).

CSV: one row per wager outcome, then Ante & Play's outcomes by the player's hand, the columns of :data:`CSV_COLUMNS`
(stable, new ones only ever added at the end; docs/commands/analyze.md lists them). The workbook: the header block
(the game, its file's SHA-256, trey's version, the date, the rules), a summary sheet, one sheet per wager (outcome,
pays, combinations, probability, 1 in N, contribution to RTP, return, and totals that are the wager's exact figures),
Ante & Play's outcomes by the player's hand, and a what-if sheet per side bet linear in its pays; every figure a
number (not text), rounded once for display by the number format only, with the exact fraction in the column beside.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from trey.cards.card import card_text, cards_text
from trey.cards.hand_table import hand_table
from trey.cards.hands import describe_key
from trey.choose.compare import ComparisonRow
from trey.core.numbers import decimal_text, fraction_text
from trey.core.version import __version__
from trey.engine.family import FamilyAnalysis, chart_exceptions
from trey.engine.results import AntePlayAnalysis, GameAnalysis, HandOutcome, WagerAnalysis
from trey.engine.stats import OutcomeRow
from trey.figures.family import FAMILY_FIGURES, option_name, rule_hand, strategy_sentence, up_rank_name
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
from trey.paytable.model import ANTE_PLAY
from trey.present.family_view import round_words
from trey.present.labels import hand_label, outcome_label, strategy_kind_words, variant_rows

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


# --- the PAR workbook --------------------------------------------------------------------------------------------
#
# Sheets, in order: "Game" (the header block), "Summary" (a row per wager), then for each wager its sheet of outcomes,
# Ante & Play's outcomes by hand, and a side bet's what-if sheet when its RTP is linear in its pays. Each sheet is a
# list of rows made by one function below from the analysis; a new shape of round adds its rows to a wager's sheet
# (:func:`_outcome_rows`) or a sheet of its own (:func:`_wager_sheets`) the same way. :class:`_Book` turns the rows
# into cells: number formats by column, widths that fit, frozen headers, and every string a string cell — a formula
# only where trey wrote one (:class:`Formula`), from cell addresses and numbers of its own, never from user text.

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
GAME_SHEET = "Game"
SUMMARY_SHEET = "Summary"
# After a wager's sheet name: a space, which no wager id has, so no two sheets clash.
BY_HAND_SHEET = " by hand"
WHAT_IF_SHEET = " what-if"
# Excel compares sheet names ignoring case: a wager named "summary" must not take the Summary's name.
RESERVED_SHEETS = (GAME_SHEET.casefold(), SUMMARY_SHEET.casefold())

# Number formats (Excel's codes): the value is the exact figure as a float, rounded only on screen.
PERCENT = "0.0000%"
PROBABILITY = "0.0000000000"
COUNT = "#,##0"
DECIMAL = "#,##0.0000"
MONEY = "#,##0.00"
DATE = "yyyy-mm-dd"
TEXT = "@"
WIDEST = 80  # characters: a longer text wraps to the column's width rather than widen it
NARROWEST = 8


@dataclass(frozen=True)
class Formula:
    """A formula trey writes: ``text`` is made of cell addresses, ranges, numbers, operators and SUMPRODUCT only."""

    text: str

    def __post_init__(self) -> None:
        if not FORMULA_GRAMMAR.fullmatch(self.text):
            raise ValueError(f"{self.text!r} is not a formula trey writes")


# What a Formula may hold: no quotes, no sheet names, no text of a file's, so no user text can ever enter one.
FORMULA_GRAMMAR = re.compile(r"=(?:SUMPRODUCT|SUM|[A-Z]{1,3}\$?[0-9]{1,7}|\$|[0-9]+|[-+*/(),:])+")

Cell = str | int | float | date | Formula | None


@dataclass(frozen=True)
class Column:
    """A column of a table: its heading and its cells' number format (None: General)."""

    heading: str
    number_format: str | None = None


def _number(value: Fraction | Decimal | int) -> float | int:
    if isinstance(value, int):
        return value
    if isinstance(value, Decimal):
        return float(value)
    return int(value) if value.denominator == 1 else float(value)


def _exact(column: Column) -> tuple[Column, Column]:
    """A figure's column and the column beside it holding its exact fraction as text."""
    return column, Column(f"{column.heading} (exact)", TEXT)


def _both(value: Fraction) -> tuple[float | int, str]:
    return _number(value), fraction_text(value)


@dataclass
class _Table:
    """Rows of cells under a row of headings, at ``top`` (1-based) of a sheet; ``bold`` rows (0-based, of
    ``rows``) are totals; the panes freeze below the headings and right of ``frozen_columns``."""

    columns: tuple[Column, ...]
    rows: list[tuple[Cell, ...]]
    top: int = 1
    frozen_columns: int = 1
    bold: tuple[int, ...] = ()


@dataclass
class _SheetPlan:
    name: str
    block: list[tuple[Cell, ...]] = field(default_factory=list)  # rows above the table (label, value, ...)
    tables: list[_Table] = field(default_factory=list)
    formats: dict[tuple[int, int], str] = field(default_factory=dict)  # (row, column), 1-based: a block cell's
    block_widths: bool = True  # False: the block's text runs over the empty cells beside it, widening no column


def _sheet_name(wager: str, index: int, suffix: str = "") -> str:
    """A wager's sheet (``suffix`` "" for its outcomes, or " by hand", " what-if"): its id when that fits Excel's
    31 characters and is not a fixed sheet's name, else its first characters and its position, so that no two
    sheets share a name (the Summary's "Sheet" column says which wager each holds)."""
    name = wager + suffix
    if len(name) <= SHEET_NAME_CHARS and wager.casefold() not in RESERVED_SHEETS:
        return name
    mark = f"~{index:03d}{suffix}"
    return wager[: SHEET_NAME_CHARS - len(mark)] + mark


def sheet_names(wagers: list[str]) -> list[str]:
    """One sheet name per wager (see :func:`_sheet_name`)."""
    return [_sheet_name(wager, index) for index, wager in enumerate(wagers, 1)]


def _strategy_words(result: AntePlayAnalysis) -> str:
    return f"{strategy_kind_words(result.strategy.kind)}: {result.strategy.sentence}"


def _game_sheet(analysis: GameAnalysis, day: date) -> _SheetPlan:
    """The header block: what the workbook is of (the game, its file's SHA-256, trey's version, the date) and the
    rules the figures are counted under, in the certificate's words."""
    spec = analysis.spec
    plan = _SheetPlan(GAME_SHEET)
    block = plan.block
    block.append(("Game", spec.name))
    for label, text in (("Operator", spec.operator), ("Description", spec.description), ("Source", spec.source)):
        if text is not None:
            block.append((label, text))
    block.append(("Paytable SHA-256", spec.sha256 or "none: the game was built in code, not read from a file"))
    block.append(("trey version", __version__))
    block.append(("Date", day))
    plan.formats[(len(block), 2)] = DATE
    block.append((None, None))
    block.append(("Rules", None))
    rules = variant_rows(spec)
    ante = analysis.ante_play
    if ante is not None:
        rules.append(("Player strategy", _strategy_words(ante)))
    else:
        rules.append(("Ante & Play", "not offered: every wager is settled on its own cards"))
    block += rules
    block.append((None, None))
    block.append(("Wagers", None))
    names = sheet_names(list(analysis.wagers))
    for result, name in zip(analysis.wagers.values(), names, strict=True):
        block.append((result.title, f"sheet {name}"))
    block.append((None, None))
    block.append(
        (
            "Reading it",
            "Every figure is a number, rounded only by its cell's format; its exact fraction is the text in the column "
            "beside it. Totals are the exact figures. A what-if sheet recomputes a side bet's RTP from pays you type.",
        )
    )
    return plan


def _summary_sheet(analysis: GameAnalysis, given: dict[str, dict[str, Fraction]] | None = None) -> _SheetPlan:
    """A row per wager of its figures; ``given``: per wager, figures by name its analysis does not carry (a family
    game's element of risk)."""
    columns: list[Column] = [Column("Wager"), Column("Sheet")]
    for figure in WORKBOOK_FIGURES:
        column = Column(figure.label, _figure_format(figure))
        columns += _exact(column) if _has_exact(figure) else [column]
    columns += _exact(Column("Theoretical win an hour", MONEY))
    theos = theoretical_wins(analysis)
    rows: list[tuple[Cell, ...]] = []
    for (wager, result), sheet in zip(analysis.wagers.items(), sheet_names(list(analysis.wagers)), strict=True):
        line: list[Cell] = [result.title, sheet]
        for figure in WORKBOOK_FIGURES:
            value = figure.of(result)
            extra = (given or {}).get(wager, {}).get(figure.name)
            if value is None and extra is not None:
                line += [_number(extra), fraction_text(extra)] if _has_exact(figure) else [_number(extra)]
                continue
            line.append(_number(value) if value is not None else None)
            if _has_exact(figure):
                line.append(figure.exact_text(result) or None)
        line += _both(theos[wager].per_hour)
        rows.append(tuple(line))
    return _SheetPlan(SUMMARY_SHEET, tables=[_Table(tuple(columns), rows)])


def _has_exact(figure: Figure) -> bool:
    return figure.exact and figure.unit is not Unit.DEALS


def _figure_format(figure: Figure) -> str:
    return {Unit.SHARE: PERCENT, Unit.DEALS: COUNT}.get(figure.unit, DECIMAL)


OUTCOME_COLUMNS = (
    Column("Outcome"),
    Column("Kind"),
    *_exact(Column("Pays", DECIMAL)),
    Column("Combinations", COUNT),
    *_exact(Column("Probability", PROBABILITY)),
    Column("1 in N", MONEY),
    *_exact(Column("Contribution to RTP", PERCENT)),
    *_exact(Column("Return", PERCENT)),
)
KIND_LABELS = {"outcome": "outcome", "ante_bonus": "Ante Bonus (paid on top)"}


def _outcome_rows(result: WagerAnalysis) -> _Table:
    """A wager's PAR table: its outcomes (Ante & Play's Ante Bonus rows after them, paid on top), then the totals,
    which are the wager's exact figures: the cycle, probability 1, the RTP and the expected net (−house edge)."""
    rows: list[tuple[Cell, ...]] = []
    for kind, row in _rows(result):
        label = outcome_label(row.outcome, wager=result.wager, bonus=kind == "ante_bonus")
        rows.append(
            (
                label,
                KIND_LABELS[kind],
                *_both(row.pays),
                row.combinations,
                *_both(row.probability),
                _number(row.one_in) if row.one_in is not None else None,
                *_both(row.contribution),
                *_both(row.expected_net),
            )
        )
    outcomes = [row for _, row in _rows(result) if row.returns_stake]  # the bonus rows are paid on top of these
    _check_totals(result, sum(r.combinations for r in outcomes), sum((r.contribution for _, r in _rows(result)), 0))
    rows.append(
        (
            "Total",
            "every deal once; the Ante Bonus on top" if len(outcomes) < len(rows) else "every deal once",
            None,
            None,
            result.cycle,
            *_both(Fraction(1)),
            None,
            *_both(result.stats.rtp),
            *_both(result.stats.mean),
        )
    )
    return _Table(OUTCOME_COLUMNS, rows, bold=(len(rows) - 1,))


def _check_totals(result: WagerAnalysis, combinations: int, rtp: Fraction | int) -> None:
    """The rows add up to the figures the totals state, exactly (the engine's invariant, kept where it is shown)."""
    if combinations != result.cycle or rtp != result.stats.rtp:
        raise ValueError(f"{result.wager}: the outcome rows do not add up to its cycle and RTP")


BY_HAND_COLUMNS = (
    Column("Hand"),
    Column("Outcome"),
    *_exact(Column("Pays", DECIMAL)),
    Column("Combinations", COUNT),
    *_exact(Column("Probability", PROBABILITY)),
    *_exact(Column("Return", PERCENT)),
)


def _by_hand_rows(result: AntePlayAnalysis) -> _Table:
    """Ante & Play's outcomes by the player's hand, every row (0 where it never happens), pays with the Ante Bonus
    included; the totals: the cycle, probability 1 and the expected net per Ante."""
    rows: list[tuple[Cell, ...]] = []
    row: HandOutcome
    for row in result.by_hand:
        rows.append(
            (
                hand_label(row.hand),
                row.situation.label,
                *_both(row.pays),
                row.combinations,
                *_both(row.probability),
                *_both(row.expected_net),
            )
        )
    if sum(r.combinations for r in result.by_hand) != result.cycle:
        raise ValueError(f"{result.wager}: the outcomes by hand do not add up to its cycle")
    rows.append(("Total", "every deal once", None, None, result.cycle, *_both(Fraction(1)), *_both(result.stats.mean)))
    return _Table(BY_HAND_COLUMNS, rows, frozen_columns=2, bold=(len(rows) - 1,))


def what_if_linear(result: WagerAnalysis) -> bool:
    """Whether a wager's RTP is 1 + Σ combinations × net pay / cycle over its rows, each pay free: a side bet
    without a meter or an envy bonus (Ante & Play's strategy, and so its counts, move with its pays)."""
    return not isinstance(result, AntePlayAnalysis) and result.progressive is None


WHAT_IF_TOP = 5  # the what-if table's heading row
WHAT_IF_COLUMNS = (
    Column("Outcome"),
    Column("Combinations", COUNT),
    Column("Pays (net, per unit bet)", DECIMAL),
    Column("Contribution to RTP", PERCENT),
    Column("Pays as analysed (exact)", TEXT),
)


def _what_if_sheet(result: WagerAnalysis, name: str) -> _SheetPlan:
    """A side bet's pays as numbers you may change, and its RTP and house edge as formulas over them: RTP =
    1 + SUMPRODUCT(combinations, pays) / cycle (each row's contribution beside it), the figures as analysed below
    for comparison. Every formula is made here from cell addresses only."""
    first = WHAT_IF_TOP + 1
    last = first + len(result.outcomes) - 1
    total = last + 1
    rows: list[tuple[Cell, ...]] = []
    for number, row in enumerate(result.outcomes, first):
        rows.append(
            (
                outcome_label(row.outcome, wager=result.wager),
                row.combinations,
                _number(row.pays),
                Formula(f"=B{number}*(C{number}+1)/$B${total}"),
                fraction_text(row.pays),
            )
        )
    rows.append(("Total", result.cycle, None, Formula(f"=SUM(D{first}:D{last})"), None))
    products = f"SUMPRODUCT(B{first}:B{last},C{first}:C{last})/B{total}"
    plan = _SheetPlan(
        name,
        block=[
            ("What if", result.title),
            (
                "Type other pays in the Pays column (net per unit bet: 40 for 40 to 1; the last row is the stake "
                "lost): each row's contribution, the RTP and the house edge follow by formulas. The combinations "
                "are the analysis's.",
            ),
        ],
        block_widths=False,
        tables=[_Table(WHAT_IF_COLUMNS, rows, top=WHAT_IF_TOP, bold=(len(rows) - 1,))],
    )
    figures_top = total + 2
    figures: list[tuple[Cell, ...]] = [
        ("RTP", Formula(f"=1+{products}"), None),
        ("House edge", Formula(f"=-{products}"), None),
        ("RTP as analysed", *_both(result.stats.rtp)),
        ("House edge as analysed", *_both(result.stats.house_edge)),
    ]
    plan.tables.append(
        _Table((Column("Figure"), Column("Value", PERCENT), Column("Exact", TEXT)), figures, top=figures_top)
    )
    return plan


def what_if_formulas(result: WagerAnalysis) -> tuple[str, str]:
    """The RTP and house-edge formulas of a wager's what-if sheet (for its tests and readers)."""
    plan = _what_if_sheet(result, "x")
    rtp, edge = (row[1] for row in plan.tables[1].rows[:2])
    assert isinstance(rtp, Formula) and isinstance(edge, Formula)
    return rtp.text, edge.text


def _wager_sheets(result: WagerAnalysis, wager: str, index: int) -> list[_SheetPlan]:
    """A wager's own sheets: its outcomes, Ante & Play's by hand, a linear side bet's what-if."""
    plans = [_SheetPlan(_sheet_name(wager, index), tables=[_outcome_rows(result)])]
    if isinstance(result, AntePlayAnalysis):
        plans.append(_SheetPlan(_sheet_name(wager, index, BY_HAND_SHEET), tables=[_by_hand_rows(result)]))
    if what_if_linear(result):
        plans.append(_what_if_sheet(result, _sheet_name(wager, index, WHAT_IF_SHEET)))
    return plans


def workbook_plans(analysis: GameAnalysis, day: date) -> list[_SheetPlan]:
    """Every sheet of the PAR workbook, in order, as rows."""
    plans = [_game_sheet(analysis, day), _summary_sheet(analysis)]
    for index, (wager, result) in enumerate(analysis.wagers.items(), 1):
        plans += _wager_sheets(result, wager, index)
    return plans


def analysis_workbook(analysis: GameAnalysis, created: datetime | None = None) -> bytes:
    """The PAR workbook; the same analysis and ``created`` give the same bytes. ``created`` defaults to midnight of
    the issue date rule's day (``SOURCE_DATE_EPOCH``, else today), as every document of trey is dated."""
    created = _creation_time(created)
    return _workbook(workbook_plans(analysis, created.date()), created)


def _creation_time(created: datetime | None) -> datetime:
    """``created``, else midnight of the issue date rule's day (``SOURCE_DATE_EPOCH``, else today)."""
    if created is not None:
        return created
    from trey.trust.certificate import default_issue_date

    day = default_issue_date()
    return datetime(day.year, day.month, day.day)


def _workbook(plans: list[_SheetPlan], created: datetime) -> bytes:
    """A workbook of these sheets, dated ``created``: the same plans and date give the same bytes."""
    from openpyxl import Workbook

    book = Workbook()
    book.properties.created = created
    book.properties.modified = created
    book.properties.creator = "trey"
    first = book.active
    assert first is not None
    book.remove(first)
    for plan in plans:
        _write_sheet(book.create_sheet(plan.name), plan)
    return _workbook_bytes(book, created)


def _write_sheet(sheet: Any, plan: _SheetPlan) -> None:
    """The plan's cells, formats, widths and frozen panes; strings as string cells, formulas only as trey wrote
    them (a name such as '=HYPERLINK(...)' stays text)."""
    from openpyxl.styles import Alignment, Font

    if sheet.title != plan.name:
        raise ValueError(f"two sheets named {plan.name!r}")
    bold = Font(bold=True)
    widths: dict[int, int] = {}

    def put(row: int, column: int, value: Cell, number_format: str | None, *, fit: bool = True) -> Any:
        cell = sheet.cell(row=row, column=column)
        if isinstance(value, Formula):
            cell.value = value.text
            cell.data_type = "f"
        elif value is not None:
            cell.value = value
            if isinstance(value, str):
                cell.data_type = "s"
        if number_format is not None and not (isinstance(value, str) and number_format != TEXT):
            cell.number_format = number_format
        if fit:
            shown = _shown_width(value, number_format)
            if isinstance(value, str) and shown > WIDEST:
                cell.alignment = Alignment(wrap_text=True, vertical="top")
            widths[column] = max(widths.get(column, 0), min(shown, WIDEST))
        return cell

    for r, line in enumerate(plan.block, 1):
        for c, value in enumerate(line, 1):
            cell = put(r, c, value, plan.formats.get((r, c)), fit=plan.block_widths)
            if c == 1 and value is not None:
                cell.font = bold
    for table in plan.tables:
        for c, column in enumerate(table.columns, 1):
            put(table.top, c, column.heading, None).font = bold
        for offset, line in enumerate(table.rows):
            for c, (column, value) in enumerate(zip(table.columns, line, strict=True), 1):
                cell = put(table.top + 1 + offset, c, value, column.number_format)
                if offset in table.bold:
                    cell.font = bold
    from openpyxl.utils import get_column_letter

    if plan.tables:
        table = plan.tables[0]
        sheet.freeze_panes = f"{get_column_letter(table.frozen_columns + 1)}{table.top + 1}"

    for number, width in sorted(widths.items()):
        sheet.column_dimensions[get_column_letter(number)].width = max(width, NARROWEST) + 2


def _shown_width(value: Cell, number_format: str | None) -> int:
    """About how many characters a cell shows: its text, or its number as the format renders it."""
    if value is None:
        return 0
    if isinstance(value, str):
        return max((len(line) for line in value.splitlines()), default=0)
    if isinstance(value, Formula):
        return 12
    if isinstance(value, date):
        return 10
    if number_format == PERCENT:
        return len(f"{value * 100:,.4f}%")
    if number_format == PROBABILITY:
        return len(f"{value:.10f}")
    if number_format == COUNT:
        return len(f"{value:,}")
    if number_format in (DECIMAL, MONEY):
        return len(f"{value:,.{4 if number_format == DECIMAL else 2}f}")
    return len(str(value))


def _workbook_bytes(book: Any, created: datetime) -> bytes:
    from openpyxl.writer.excel import ExcelWriter

    buffer = io.BytesIO()
    # ExcelWriter, not Workbook.save: save() stamps the modified date with the clock, so no two runs would match.
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as archive:
        ExcelWriter(book, archive).save()
    return _pinned_zip(buffer.getvalue(), created)


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


# --- a game of the Three Card Poker family other than the standard one (issue 31) ----------------------------------
#
# The CSV: Ante & Play's net results per Ante (``kind`` net_result), then its strategy (``kind`` strategy: a row per
# face-up rank and option, its cells; ``hand`` the rule's weakest hand for a Play bet), then the side bets' rows as
# beside the standard game. The workbook: the Game sheet (the round in words and its figures, each named for what it
# is per), the Summary, Ante & Play's net results, its strategy by face-up card, every cell the rule does not say, and
# each side bet's sheets.


def _family_wagers(analysis: FamilyAnalysis) -> GameAnalysis:
    return GameAnalysis(analysis.spec, {ANTE_PLAY: analysis.as_wager(), **analysis.side_bet_analysis.wagers})


def family_csv(analysis: FamilyAnalysis) -> str:
    """``trey analyze --format csv`` of a family game (the columns of :data:`CSV_COLUMNS`)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    ante = analysis.as_wager()
    for row in ante.outcomes:
        writer.writerow(_csv_row(ANTE_PLAY, ante.title, "net_result", row))
    for chart in analysis.chart:
        up = up_rank_name(chart.up_rank)
        total = sum(chart.cells)
        rules = dict(zip(analysis.game.multiples, chart.rule, strict=True))
        for count, cells in zip(analysis.options, chart.cells, strict=True):
            weakest = rules.get(count.option)
            probability = Fraction(cells, total)
            writer.writerow(
                [
                    *(ANTE_PLAY, ante.title, "strategy", f"{up}: {option_name(count.option)}", count.option),
                    *(cells, total, decimal_text(probability, 12), fraction_text(probability), "", "", ""),
                    *("", "", "" if weakest is None else rule_hand(weakest)),
                ]
            )
    for wager, result in analysis.side_bet_analysis.wagers.items():
        for kind, row in _rows(result):
            writer.writerow(_csv_row(wager, result.title, kind, row))
    return buffer.getvalue()


FAMILY_STRATEGY_SHEET = "ante_play strategy"
FAMILY_EXCEPTIONS_SHEET = "ante_play exceptions"


def family_workbook_plans(analysis: FamilyAnalysis, day: date) -> list[_SheetPlan]:
    """Every sheet of a family game's workbook, in order, as rows."""
    spec = analysis.spec
    wagers = _family_wagers(analysis)
    game = _SheetPlan(GAME_SHEET)
    block = game.block
    block.append(("Game", spec.name))
    for label, text in (("Operator", spec.operator), ("Description", spec.description), ("Source", spec.source)):
        if text is not None:
            block.append((label, text))
    block.append(("Paytable SHA-256", spec.sha256 or "none: the game was built in code, not read from a file"))
    block.append(("trey version", __version__))
    block.append(("Date", day))
    game.formats[(len(block), 2)] = DATE
    block.append((None, None))
    block.append(("The round", None))
    block += [(None, words) for words in round_words(spec.game, spec.rules)]
    block.append(("Player strategy", f"optimal, cell by cell; as a rule: {strategy_sentence(analysis)}"))
    block.append((None, None))
    block.append(("Ante & Play", None))
    for family_figure in FAMILY_FIGURES:
        block.append((family_figure.label, family_figure.text(analysis, exact=True)))
    block.append((None, None))
    block.append(("Wagers", None))
    names = sheet_names(list(wagers.wagers))
    for result, name in zip(wagers.wagers.values(), names, strict=True):
        block.append((result.title, f"sheet {name}"))
    block.append(("Ante & Play's strategy", f"sheets {FAMILY_STRATEGY_SHEET}, {FAMILY_EXCEPTIONS_SHEET}"))
    game.block_widths = False
    plans = [game, _summary_sheet(wagers, {ANTE_PLAY: {ELEMENT_OF_RISK.name: analysis.element_of_risk}})]
    plans.append(_SheetPlan(names[0], tables=[_outcome_rows(analysis.as_wager())]))
    plans += [_family_strategy_sheet(analysis), _family_exceptions_sheet(analysis)]
    for index, (wager, result) in enumerate(analysis.side_bet_analysis.wagers.items(), 2):
        plans += _wager_sheets(result, wager, index)
    return plans


def _family_strategy_sheet(analysis: FamilyAnalysis) -> _SheetPlan:
    multiples = analysis.game.multiples
    columns = (
        Column("Face-up card"),
        *(Column(f"Rule {option_name(m)}") for m in multiples),
        *(Column(f"Rule {option_name(m)} exceptions", COUNT) for m in multiples),
        *(Column(f"Weakest {option_name(m)} in some cell") for m in multiples),
        *(Column(f"{option_name(o.option)} cells", COUNT) for o in analysis.options),
    )
    rows: list[tuple[Cell, ...]] = [
        (
            up_rank_name(row.up_rank),
            *("never" if key is None else rule_hand(key) for key in row.rule),
            *row.rule_exceptions,
            *("never" if key is None else describe_key(key) for key in row.weakest),
            *row.cells,
        )
        for row in analysis.chart
    ]
    return _SheetPlan(FAMILY_STRATEGY_SHEET, tables=[_Table(columns, rows)])


def _family_exceptions_sheet(analysis: FamilyAnalysis) -> _SheetPlan:
    columns = (Column("Face-up card"), Column("Hand"), Column("Rule"), Column("Optimal"), Column("Decided by"))
    table = hand_table()
    rows: list[tuple[Cell, ...]] = [
        (
            "none" if e.up_card < 0 else card_text(e.up_card),
            cards_text(table.cards[e.hand]),
            option_name(e.rule),
            option_name(e.option),
            "suits" if e.by_suits else "ranks",
        )
        for e in chart_exceptions(analysis)
    ]
    note = (
        "Every cell the rule by face-up card decides otherwise than the optimal strategy, against the up card of "
        "clubs: each stands for the four of its rank, the suits permuted."
    )
    plan = _SheetPlan(FAMILY_EXCEPTIONS_SHEET, block=[(note,), (None,)], tables=[_Table(columns, rows, top=3)])
    plan.block_widths = False
    return plan


def family_workbook(analysis: FamilyAnalysis, created: datetime | None = None) -> bytes:
    """``trey analyze --format xlsx`` of a family game; the same analysis and ``created`` give the same bytes."""
    created = _creation_time(created)
    return _workbook(family_workbook_plans(analysis, created.date()), created)
