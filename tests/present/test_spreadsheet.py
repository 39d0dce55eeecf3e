"""The PAR workbook a lab would send (issue 30.6), read back with openpyxl: the header block, labels, number formats,
frozen panes, totals equal to the exact figures, and what-if sheets whose formulas give the RTP from their pays —
evaluated here by a small evaluator written apart from trey, against the engine's figures for other pays."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from datetime import datetime
from fractions import Fraction
from typing import Any

import pytest
from openpyxl import load_workbook

import trey
from conftest import PAYTABLES, STANDARD
from trey.choose.solve import with_pay
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.paytable.load import load_spec_bytes
from trey.present.spreadsheet import Formula, analysis_workbook

HOSTILE = '=HYPERLINK("http://example.invalid","Click")'
# The standard game, named by a hostile title, with a side bet of "for" and fractional odds named "+cmd", one lost
# on a fold, and the shipped progressive (which has no what-if sheet: its meter and envy are not linear pays).
PROGRESSIVE = (PAYTABLES / "progressive" / "three-card-progressive.yaml").read_text()
TEXT = (
    STANDARD.read_text()
    .replace("name: Three Card Poker (standard)", f"name: '{HOSTILE}'")
    .replace("trey: 1", "trey: 2")
    + "\nside_bets:\n"
    + "  lucky:\n    title: '+cmd|'' /C calc''!A0'\n    reads: colours\n"
    + "    pays: {six_same_colour: 5 for 1, three_same_colour: 3 to 2}\n"
    + "  dealer_bonus:\n    title: '@SUM(1+1)'\n    reads: dealer_hand\n"
    + "    pays: {straight_flush: 40, three_of_a_kind: 30, straight: 5, pair: 1}\n    on_fold: lost\n"
    + PROGRESSIVE[PROGRESSIVE.index("  progressive:\n") :]
)
CREATED = datetime(2026, 1, 1)


@pytest.fixture(scope="module")
def game() -> tuple[GameAnalysis, Any, bytes]:
    analysis = analyze(load_spec_bytes(TEXT.encode(), "hostile.yaml"))
    data = analysis_workbook(analysis, CREATED)
    return analysis, load_workbook(io.BytesIO(data)), data


def _rows(sheet: Any) -> list[tuple[Any, ...]]:
    return [tuple(cell.value for cell in row) for row in sheet.iter_rows()]


def _table(sheet: Any, heading_row: int = 1) -> tuple[list[str], list[tuple[Any, ...]]]:
    rows = _rows(sheet)
    return list(rows[heading_row - 1]), rows[heading_row:]


def test_the_header_block_names_the_game_its_file_trey_the_date_and_the_rules(game: tuple[Any, Any, bytes]) -> None:
    analysis, book, _ = game
    assert book.sheetnames[:3] == ["Game", "Summary", "ante_play"]
    sheet = book["Game"]
    block = {row[0].value: row[1] for row in sheet.iter_rows() if row[0].value is not None}
    assert (block["Game"].value, block["Game"].data_type) == (HOSTILE, "s")
    assert block["Paytable SHA-256"].value == hashlib.sha256(TEXT.encode()).hexdigest()
    assert block["trey version"].value == trey.__version__
    assert (block["Date"].value, block["Date"].number_format) == (CREATED, "yyyy-mm-dd")
    assert block["Dealer qualifier"].value == "Q-high: The dealer qualifies with Q-3-2 or better (Q-high)."
    assert block["Ties"].value == "Ante and Play push"
    assert block["Ante Bonus"].value == "paid only when the player plays"
    assert block["Player strategy"].value == "optimal: play Q-6-4 or better and fold the rest"
    assert block["@SUM(1+1) when the player folds"].value == "lost with the Ante"
    assert block["+cmd|' /C calc'!A0 when the player folds"].value == "settled on its own"
    assert block["Three Card Progressive"].value == "sheet progressive"
    assert analysis.spec.sha256 == block["Paytable SHA-256"].value


def test_labels_not_ids_numbers_formatted_and_headers_frozen(game: tuple[Any, Any, bytes]) -> None:
    _, book, _ = game
    headings, rows = _table(book["Summary"])
    assert [r[0] for r in rows] == [
        "Ante & Play",
        "Pair Plus",
        "Prime",
        "Six Card Bonus",
        "+cmd|' /C calc'!A0",
        "@SUM(1+1)",
        "Three Card Progressive",
    ]
    formats = {h: book["Summary"].cell(row=2, column=i).number_format for i, h in enumerate(headings, 1)}
    assert formats["Cycle"] == "#,##0" and formats["RTP"] == formats["House edge"] == "0.0000%"
    assert formats["RTP (exact)"] == "@" and formats["Variance"] == "#,##0.0000"
    assert formats["Theoretical win an hour"] == "#,##0.00"
    _, rows = _table(book["pair_plus"])
    assert [r[0] for r in rows] == [
        "Straight flush",
        "Three of a kind",
        "Straight",
        "Flush",
        "Pair",
        "No paying hand",
        "Total",
    ]
    headings, rows = _table(book["ante_play"])
    assert [r[0] for r in rows] == [
        "Player folds",
        "Dealer does not qualify",
        "Player higher",
        "Tie",
        "Dealer higher",
        "Ante Bonus: straight flush",
        "Ante Bonus: three of a kind",
        "Ante Bonus: straight",
        "Total",
    ]
    formats = {h: book["ante_play"].cell(row=3, column=i).number_format for i, h in enumerate(headings, 1)}
    assert formats == {
        "Outcome": "General",
        "Kind": "General",
        "Pays": "#,##0.0000",
        "Pays (exact)": "@",
        "Combinations": "#,##0",
        "Probability": "0.0000000000",
        "Probability (exact)": "@",
        "1 in N": "#,##0.00",
        "Contribution to RTP": "0.0000%",
        "Contribution to RTP (exact)": "@",
        "Return": "0.0000%",
        "Return (exact)": "@",
    }
    assert {r[0] for r in _table(book["ante_play by hand"])[1]} == {
        "Straight flush",
        "Three of a kind",
        "Straight",
        "Flush",
        "Pair",
        "High card",
        "Total",
    }
    panes = {name: book[name].freeze_panes for name in book.sheetnames}
    assert panes == {
        "Game": None,
        "Summary": "B2",
        "ante_play": "B2",
        "ante_play by hand": "C2",
        "pair_plus": "B2",
        "pair_plus what-if": "B6",
        "prime": "B2",
        "prime what-if": "B6",
        "six_card_bonus": "B2",
        "six_card_bonus what-if": "B6",
        "lucky": "B2",
        "lucky what-if": "B6",
        "dealer_bonus": "B2",
        "dealer_bonus what-if": "B6",
        "progressive": "B2",
    }
    # every column as wide as its widest cell shows (the headings included), within the widest text that wraps
    sheet = book["pair_plus"]
    for letter in "ABDGJL":  # the text columns: labels and exact fractions
        texts = [cell.value for cell in sheet[letter] if isinstance(cell.value, str)]
        assert sheet.column_dimensions[letter].width == max(len(text) for text in texts) + 2, letter
    assert sheet.column_dimensions["E"].width == len("Combinations") + 2  # wider than 22,100 shows
    assert book["Game"].column_dimensions["B"].width == 80 + 2  # the rules' sentences wrap beyond 80 characters


def test_the_totals_are_the_exact_figures(game: tuple[Any, Any, bytes]) -> None:
    analysis, book, _ = game
    for wager, result in analysis.wagers.items():
        headings, rows = _table(book[wager])
        total = dict(zip(headings, rows[-1], strict=True))
        body = [dict(zip(headings, row, strict=True)) for row in rows[:-1]]
        assert total["Outcome"] == "Total"
        paid_on_top = [r for r in body if r["Kind"] == "Ante Bonus (paid on top)"]
        assert total["Combinations"] == result.cycle == sum(r["Combinations"] for r in body if r not in paid_on_top)
        assert (total["Probability"], total["Probability (exact)"]) == (1, "1")
        # the RTP: the exact fraction beside, equal to the rows' exact contributions added up, and the number
        assert total["Contribution to RTP (exact)"] == str(result.stats.rtp)
        assert sum(Fraction(r["Contribution to RTP (exact)"]) for r in body) == result.stats.rtp
        assert total["Contribution to RTP"] == pytest.approx(float(result.stats.rtp), abs=1e-15)
        assert sum(r["Contribution to RTP"] for r in body) == pytest.approx(total["Contribution to RTP"], abs=1e-12)
        assert total["Return (exact)"] == str(-result.stats.house_edge)
        assert sum(Fraction(r["Return (exact)"]) for r in body) == -result.stats.house_edge
        assert total["Return"] == pytest.approx(-float(result.stats.house_edge), abs=1e-15)
    headings, rows = _table(book["ante_play by hand"])
    total = dict(zip(headings, rows[-1], strict=True))
    ante = analysis.wagers["ante_play"]
    assert total["Combinations"] == ante.cycle == sum(r[4] for r in rows[:-1])
    assert total["Return (exact)"] == str(ante.stats.mean) == str(sum(Fraction(r[8]) for r in rows[:-1]))


# --- a what-if sheet's formulas, evaluated apart from any spreadsheet program -----------------------------------

CELL = r"\$?([A-Z]+)\$?([0-9]+)"


def _evaluate(sheet: Any, formula: str, values: dict[str, Any]) -> float:
    """A formula of SUMPRODUCT, SUM, + - * / and cell addresses, with ``values`` in place of the sheet's cells."""

    def value(column: str, row: str) -> Any:
        address = f"{column}{row}"
        found = values.get(address, sheet[address].value)
        return _evaluate(sheet, found, values) if isinstance(found, str) and found.startswith("=") else found

    def cells(first: re.Match[str], last: re.Match[str]) -> list[Any]:
        assert first[1] == last[1]  # a column's range
        return [value(first[1], str(row)) for row in range(int(first[2]), int(last[2]) + 1)]

    def span(text: str) -> list[Any]:
        first, last = (re.fullmatch(CELL, end) for end in text.split(":"))
        assert first is not None and last is not None
        return cells(first, last)

    text = formula.removeprefix("=")
    text = re.sub(
        r"SUMPRODUCT\(([^,()]+),([^,()]+)\)",
        lambda m: repr(sum(a * b for a, b in zip(span(m[1]), span(m[2]), strict=True))),
        text,
    )
    text = re.sub(r"SUM\(([^,()]+)\)", lambda m: repr(sum(span(m[1]))), text)
    text = re.sub(CELL, lambda m: f"({value(m[1], m[2])!r})", text)
    assert re.fullmatch(r"[-+*/(). 0-9e]+", text), text
    return float(eval(text))  # digits and operators only, checked above


def test_what_if_formulas_give_the_rtp_of_the_pays_typed(game: tuple[Any, Any, bytes]) -> None:
    analysis, book, _ = game
    linear = ["pair_plus", "prime", "six_card_bonus", "lucky", "dealer_bonus"]
    assert [name.removesuffix(" what-if") for name in book.sheetnames if name.endswith(" what-if")] == linear
    for wager in linear:
        sheet = book[f"{wager} what-if"]
        result = analysis.wagers[wager]
        rows = _rows(sheet)
        assert rows[0][:2] == ("What if", result.title) and sheet["B1"].data_type == "s"
        first, last = 6, 6 + len(result.outcomes) - 1
        total = last + 1
        assert rows[4] == (
            "Outcome",
            "Combinations",
            "Pays (net, per unit bet)",
            "Contribution to RTP",
            "Pays as analysed (exact)",
        )
        assert [r[1] for r in rows[first - 1 : last]] == [r.combinations for r in result.outcomes]
        assert sheet[f"B{total}"].value == result.cycle
        figures = {row[0]: row for row in rows[total + 1 :] if row[0]}
        products = f"SUMPRODUCT(B{first}:B{last},C{first}:C{last})/B{total}"
        assert figures["RTP"][1] == f"=1+{products}"
        assert figures["House edge"][1] == f"=-{products}"
        assert [sheet[f"D{n}"].value for n in range(first, last + 1)] == [
            f"=B{n}*(C{n}+1)/$B${total}" for n in range(first, last + 1)
        ]
        assert sheet[f"D{total}"].value == f"=SUM(D{first}:D{last})"
        assert figures["RTP as analysed"][2] == str(result.stats.rtp)
        rtp_cell = f"B{total + 3}"
        assert sheet[rtp_cell].value == figures["RTP"][1]
        # as analysed, the formulas give the exact RTP (to float precision)
        rtp = float(result.stats.rtp)
        assert _evaluate(sheet, figures["RTP"][1], {}) == pytest.approx(rtp, abs=1e-12)
        assert _evaluate(sheet, figures["House edge"][1], {}) == pytest.approx(1 - rtp, abs=1e-12)
        assert _evaluate(sheet, f"=D{total}", {}) == pytest.approx(rtp, abs=1e-12)
    # another pay typed in: the formula gives what the engine counts for that pay (Pair Plus's pair paying 2 to 1)
    sheet = book["pair_plus what-if"]
    pair_row = next(n for n in range(6, 12) if sheet[f"A{n}"].value == "Pair")
    other = analyze(with_pay(analysis.spec, "pair_plus", "pair", Fraction(2))).wagers["pair_plus"].stats.rtp
    assert _evaluate(sheet, sheet["B15"].value, {f"C{pair_row}": 2}) == pytest.approx(float(other), abs=1e-12)
    # the wagers whose RTP is not linear in free pays have none: Ante & Play (its strategy moves), the progressive
    assert "ante_play what-if" not in book.sheetnames and "progressive what-if" not in book.sheetnames


FORMULA_TEXT = re.compile(r"=(?:SUMPRODUCT|SUM|\$?[A-Z]{1,2}\$?[0-9]+|[0-9]+|[-+*/(),:])+")


def test_user_text_stays_text_and_never_enters_a_formula(game: tuple[Any, Any, bytes]) -> None:
    _, book, data = game
    hostile = {HOSTILE, "+cmd|' /C calc'!A0", "@SUM(1+1)"}
    seen = set()
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                if cell.data_type == "f":
                    assert sheet.title.endswith(" what-if") and FORMULA_TEXT.fullmatch(cell.value), cell.value
                elif isinstance(cell.value, str) and any(cell.value.startswith(h) for h in hostile):
                    assert cell.data_type == "s"
                    seen.add(cell.value)
    assert seen >= hostile
    # in the file itself: every <f> element is one of trey's formulas, none holds a title or a quote
    archive = zipfile.ZipFile(io.BytesIO(data))
    sheets = [name for name in archive.namelist() if name.startswith("xl/worksheets/")]
    formulas = [f for name in sheets for f in re.findall(r"<f>(.*?)</f>", archive.read(name).decode())]
    assert formulas and all(FORMULA_TEXT.fullmatch("=" + f) for f in formulas)
    with pytest.raises(ValueError, match="is not a formula trey writes"):
        Formula('=HYPERLINK("http://example.invalid","Click")')
    with pytest.raises(ValueError, match="is not a formula trey writes"):
        Formula("=1+'Pair Plus'!B2")


def test_a_wager_named_like_a_fixed_sheet_gets_a_sheet_of_its_own() -> None:
    """Excel's sheet names ignore case: a side bet ``summary`` would take the Summary's place (openpyxl renamed it
    summary1, and the Summary pointed at a sheet that did not exist)."""
    text = "trey: 2\nname: clash\nside_bets:\n"
    for bet in ("summary", "game"):
        text += f"  {bet}:\n    reads: colours\n    pays: {{three_same_colour: 3}}\n"
    book = load_workbook(io.BytesIO(analysis_workbook(analyze(load_spec_bytes(text.encode(), "c.yaml")), CREATED)))
    assert book.sheetnames == ["Game", "Summary", "summary~001", "summary~001 what-if", "game~002", "game~002 what-if"]
    assert [r[:2] for r in _table(book["Summary"])[1]] == [("Summary", "summary~001"), ("Game", "game~002")]
