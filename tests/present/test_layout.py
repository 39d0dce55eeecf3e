"""The one mechanism that fits every table to its width (issue 30): the width it is given, tables whose labels wrap
and whose figures never do, and stacked blocks when even that does not fit."""

from __future__ import annotations

import fcntl
import io
import os
import re
import struct
import termios

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console

from trey.present.layout import (
    UNKNOWN_TERMINAL_WIDTH,
    UNLIMITED,
    TextTable,
    figure,
    label,
    layout,
    output_width,
    print_table,
    terminal_console,
    wrap,
)


class Piped(io.StringIO):
    """stdout redirected to a file or a pipe."""


def _terminal(columns: int) -> tuple[io.TextIOWrapper, int]:
    """A real terminal (a pseudo-terminal) that says it is ``columns`` wide, and the fd of its other end."""
    parent, child = os.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    return open(child, "w", encoding="utf-8"), parent


def test_the_width_is_the_terminals_then_columns_and_unlimited_when_piped() -> None:
    stream, parent = _terminal(73)
    try:
        assert stream.isatty()
        assert output_width({}, stream) == 73  # the terminal's own width
        assert output_width({"COLUMNS": "101"}, stream) == 101  # COLUMNS, as shutil and rich read it, wins
        assert terminal_console({}, stream).width == 73
    finally:
        stream.close()
        os.close(parent)
    assert output_width({}, Piped()) is None  # a file or a pipe: unlimited
    assert output_width({"COLUMNS": "60"}, Piped()) == 60  # COLUMNS is honoured when piped too (0.4.0 fixed 120)
    console = terminal_console({}, Piped())
    assert (console.width, console.soft_wrap) == (UNLIMITED, True)


@pytest.mark.parametrize("given", ["", "0", "-5", "abc", "8O", "1e3", "٣٠", "1234567", " "])
def test_a_columns_that_is_not_a_width_is_ignored(given: str) -> None:
    assert output_width({"COLUMNS": given}, Piped()) is None


def test_columns_is_bounded_and_a_terminal_without_a_size_gets_80() -> None:
    assert output_width({"COLUMNS": "999999"}, Piped()) == UNLIMITED  # no width makes rich pad a million cells
    stream, parent = _terminal(0)
    try:
        assert output_width({}, stream) == UNKNOWN_TERMINAL_WIDTH
    finally:
        stream.close()
        os.close(parent)


def test_wrap_breaks_at_plain_spaces_only_and_never_inside_a_word() -> None:
    assert wrap("3.3730%  (686689/20358520) and more", 20) == ["3.3730%", "(686689/20358520)", "and more"]
    assert wrap("1.000\u00a0€ a", 6) == ["1.000\u00a0€", "a"]  # a no-break space holds an amount together
    assert wrap("132,652,800", 5) == ["132,652,800"]  # too long: whole, past the width, never cut
    assert wrap("a b", 10, first="key: ") == ["key: a b"]
    assert wrap("wide value", 8, first="a key: ", rest="  ") == ["a key:", "  wide", "  value"]
    assert wrap("132,652,800", 12, first="  count: ", rest="    ", whole=True) == ["  count:", "    132,652,800"]


OUTCOMES = TextTable(
    (label("outcome"), figure("pays"), figure("combinations"), figure("1 in"), label("why")),
    [
        ("Ante Bonus: three of a kind", "1000", "132,652,800", "1,521.29", "lost on a fold: it follows the decisions"),
        ("tie", "0", "267,648", "4.45", ""),
    ],
    title="Ante & Play  —  cycle 407,170,400 deals",
)


def _printed(table: TextTable, width: int) -> tuple[str, bool]:
    console = Console(file=io.StringIO(), width=width)
    stacked = print_table(console, table).stacked
    out = console.file.getvalue()  # type: ignore[attr-defined]
    return out, stacked


def test_a_table_that_fits_is_printed_as_it_is() -> None:
    out, stacked = _printed(OUTCOMES, 120)
    assert not stacked
    assert "│ Ante Bonus: three of a kind │ 1000 │  132,652,800 │ 1,521.29 │" in out
    assert out.splitlines()[0] == "Ante & Play  —  cycle 407,170,400 deals"


def test_too_narrow_the_labels_wrap_and_the_figures_stay_whole() -> None:
    out, stacked = _printed(OUTCOMES, 80)
    assert not stacked
    lines = out.splitlines()
    assert max(len(line) for line in lines) == 80
    # the label a few cells short is made whole, the longest one wraps between its words
    assert "│ Ante Bonus: three of a kind │ 1000 │  132,652,800 │ 1,521.29 │ lost on a     │" in lines
    assert "│                             │      │              │          │ fold: it      │" in lines


def test_when_even_wrapped_labels_do_not_fit_the_rows_are_stacked_blocks() -> None:
    out, stacked = _printed(OUTCOMES, 40)
    assert stacked
    assert out.splitlines() == [
        "Ante & Play  —  cycle 407,170,400 deals",
        "outcome: Ante Bonus: three of a kind",
        "  pays: 1000",
        "  combinations: 132,652,800",
        "  1 in: 1,521.29",
        "  why: lost on a fold: it follows the",
        "    decisions",
        "",
        "outcome: tie",
        "  pays: 0",
        "  combinations: 267,648",
        "  1 in: 4.45",
        "",
    ]


def test_pairs_are_label_and_value_then_label_colon_value() -> None:
    pairs = TextTable((label(bold=True), label()), [("RTP", "96.6270%"), ("House edge", "3.3730%")], pairs=True)
    assert _printed(pairs, 80)[0] == "RTP         96.6270%\nHouse edge  3.3730%\n"
    assert _printed(pairs, 14)[0] == "RTP: 96.6270%\nHouse edge:\n  3.3730%\n"


def test_user_text_is_shown_never_read_as_markup_or_sent_to_the_terminal() -> None:
    table = TextTable((label("name"), figure("n")), [("[bold]x[/bold] \x1b[2J", "1")])
    out, _ = _printed(table, 80)
    assert "[bold]x[/bold] \\x1b[2J" in out and "\x1b" not in out


_WORD = st.text(alphabet="abcdefghij-", min_size=1, max_size=12)
_FIGURE = st.one_of(
    st.integers(-(10**12), 10**12).map(lambda n: f"{n:,}"),
    st.tuples(st.integers(1, 10**9), st.integers(1, 10**9)).map(lambda t: f"{t[0]}/{t[1]}"),
    st.decimals(-1000, 1000, places=4, allow_nan=False).map(lambda d: f"{d}%"),
)


@st.composite
def _tables(draw: st.DrawFn) -> TextTable:
    kinds = draw(st.lists(st.booleans(), min_size=1, max_size=7))  # True: a figure column
    columns = tuple(figure(f"f{i} x") if k else label(f"label {i}") for i, k in enumerate(kinds))
    rows = draw(
        st.lists(
            st.tuples(*(_FIGURE if k else st.lists(_WORD, max_size=6).map(" ".join) for k in kinds)),
            min_size=1,
            max_size=6,
        )
    )
    return TextTable(columns, rows)


@settings(max_examples=60, deadline=None)
@given(_tables(), st.integers(10, 160))
def test_no_figure_and_no_word_is_ever_cut_at_any_width(table: TextTable, width: int) -> None:
    out, stacked = _printed(table, width)
    assert "…" not in out
    if not stacked:
        assert layout(table, width).width <= width
        assert all(len(line) <= width for line in out.splitlines())
    for row in table.rows:
        for column, cell in zip(table.columns, row, strict=True):
            pieces = [cell] if column.kind == "figure" else cell.split()
            for piece in pieces:
                assert re.search(rf"(?<![\w,./-]){re.escape(piece)}(?![\w/-]|[.,]\d)", out), (piece, out)
