"""Tables for a terminal that never cut a figure (issue 30): one mechanism for every command's table.

A table's columns are marked :attr:`Kind.LABEL` (words: an outcome, a wager's title, a sentence) or
:attr:`Kind.FIGURE` (a number, a fraction, a file's label: one line, never shortened). :func:`layout` fits the table
to the width it has:

1. every column at its natural width, when that fits;
2. else the label columns wrapped between words (the widest first), never narrower than their longest word, the
   figure columns whole;
3. else, when even that does not fit, the rows as stacked ``label: value`` blocks.

Cells are wrapped here, on plain spaces only (a no-break space inside "1.000 €" holds), and the table is drawn
here, in rich's heavy-headed box, line by line: rich's own table would wrap, fold or ellipsize a cell by its own
rules (its default cuts a number to "1,521…") and takes minutes over the 200,000 rows of a solve grid. rich styles
the title and the header on a terminal. A word longer than the whole width (only in blocks, at a width narrower
than the word) runs past the edge whole; it is never cut.

The width is :func:`output_width`'s: ``COLUMNS`` when set, else the terminal's, else (a file, a pipe) unlimited.
Every text goes through :func:`~trey.core.text.printable` and is never read as rich markup.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TextIO

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from trey.core.text import printable

# "Unlimited": the console's width when stdout is a file or a pipe, and the most COLUMNS is taken to mean.
UNLIMITED = 65_536
UNKNOWN_TERMINAL_WIDTH = 80  # a terminal that does not say its size (a serial line) gets the traditional width
MAX_COLUMNS_DIGITS = 6  # COLUMNS longer than this is not a width (nor read as a number)


class Kind(StrEnum):
    """What a column holds, which says how it may be fitted."""

    LABEL = "label"  # words: wrapped between them when the table is too wide, a word never cut
    FIGURE = "figure"  # a number, a fraction, a file's label: one line, whole


@dataclass(frozen=True)
class Column:
    header: str
    kind: Kind
    right: bool = False  # right-justified (figures, by default)
    bold: bool = False


def label(header: str = "", *, bold: bool = False) -> Column:
    """A column of words, left-justified."""
    return Column(header, Kind.LABEL, bold=bold)


def figure(header: str = "", *, left: bool = False) -> Column:
    """A column of figures, right-justified unless ``left`` (a file's label)."""
    return Column(header, Kind.FIGURE, right=not left)


@dataclass(frozen=True)
class TextTable:
    """A table as plain text cells (never markup), the title above it.

    ``pairs``: a table of ``label  value`` rows without header or box (a wager's figures); its blocks are one
    ``label: value`` line a row."""

    columns: tuple[Column, ...]
    rows: Sequence[Sequence[str]]
    title: str = ""
    pairs: bool = False
    bold_title: bool = True

    def __post_init__(self) -> None:
        for row in self.rows:
            if len(row) != len(self.columns):
                raise ValueError(f"a row of {len(row)} cells in a table of {len(self.columns)} columns")


@dataclass(frozen=True)
class Layout:
    """How a table is printed: at these column widths (without padding), or, when ``widths`` is None, as blocks."""

    widths: tuple[int, ...] | None
    width: int = 0  # the table's whole width in cells (0 for blocks)

    @property
    def stacked(self) -> bool:
        return self.widths is None


def output_width(environ: Mapping[str, str] | None = None, stream: TextIO | None = None) -> int | None:
    """The width trey's tables fit: ``COLUMNS`` when it is a positive whole number (the most, :data:`UNLIMITED`),
    else the terminal's when ``stream`` (stdout) is one, else None: unlimited (a file, a pipe)."""
    environ = os.environ if environ is None else environ
    stream = sys.stdout if stream is None else stream
    given = environ.get("COLUMNS", "").strip()
    if given.isascii() and given.isdigit() and len(given) <= MAX_COLUMNS_DIGITS and int(given) > 0:
        return min(int(given), UNLIMITED)
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        terminal = False
    if not terminal:
        return None
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns if columns > 0 else UNKNOWN_TERMINAL_WIDTH


def terminal_console(environ: Mapping[str, str] | None = None, stream: TextIO | None = None) -> Console:
    """A console for stdout at :func:`output_width`'s width (unlimited: nothing is wrapped)."""
    width = output_width(environ, stream)
    return Console(
        file=stream,
        width=width or UNLIMITED,
        soft_wrap=width is None,
        emoji=False,  # ":smile:" in a name stays text
        highlight=False,
    )


_WORDS = re.compile(r"( *)([^ ]+)")


def cells(text: str) -> int:
    """The cells ``text`` takes on a terminal (a wide character two)."""
    return len(text) if text.isascii() else cell_len(text)


def wrap(text: str, width: int, *, first: str = "", rest: str = "", whole: bool = False) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at plain spaces only (the spaces inside a line kept as
    written: "3.3730%  (1/2)"); ``whole``: not broken at all. The first line begins with ``first`` (a label, never
    broken), the others with ``rest``; a word too long for a line stands whole on one of its own, past the width."""
    if not first and cells(text) <= width:
        return [text]
    words = [("", text)] if whole else _WORDS.findall(text)
    lines: list[str] = []
    line = first
    empty = True  # nothing on the line yet but its prefix
    for gap, word in words:
        if empty and (not line.strip() or cells(line + word) <= width):
            line += word
        elif not empty and cells(line) + len(gap) + cells(word) <= width:
            line += gap + word
        else:
            lines.append(line.rstrip())
            line = rest + word
        empty = False
    lines.append(line.rstrip() if empty else line)
    return lines


def _longest_word(text: str) -> int:
    return max(cells(word) for word in text.split(" ")) if " " in text else cells(text)


# The box: a border left, right and between columns, and a cell of padding each side of a column; pairs: two
# cells between columns.
def _overhead(table: TextTable) -> int:
    n = len(table.columns)
    return 2 * (n - 1) if table.pairs else 3 * n + 1


def layout(table: TextTable, width: int) -> Layout:
    """The widths that fit ``table`` in ``width`` cells, or blocks when even wrapped labels do not fit."""
    natural = []
    least = []
    for index, column in enumerate(table.columns):
        body = [cells(row[index]) for row in table.rows]
        header = [] if table.pairs else [cells(column.header)]
        natural.append(max(body + header, default=0))
        words = [] if table.pairs else [_longest_word(column.header)]
        if column.kind is Kind.FIGURE:
            least.append(max(body + words, default=0))
        else:
            least.append(max([_longest_word(row[index]) for row in table.rows] + words, default=0))
    room = width - _overhead(table)
    if sum(natural) <= room:
        return Layout(tuple(natural), sum(natural) + _overhead(table))
    if sum(least) > room:
        return Layout(None)
    widths = _narrowed(natural, least, room)
    return Layout(tuple(widths), sum(widths) + _overhead(table))


def _narrowed(natural: list[int], least: list[int], room: int) -> list[int]:
    """The widest columns narrowed first, to a common cap (none below its least width)."""

    def capped(cap: int) -> list[int]:
        return [min(n, max(m, cap)) for n, m in zip(natural, least, strict=True)]

    low, high = 0, max(natural)
    while low < high:  # the largest cap that fits
        middle = (low + high + 1) // 2
        if sum(capped(middle)) <= room:
            low = middle
        else:
            high = middle - 1
    widths = capped(low)
    spare = room - sum(widths)
    # The cells left over go first to the columns nearest their natural width, so that most are whole.
    for index in sorted(range(len(widths)), key=lambda i: natural[i] - widths[i]):
        given = min(spare, natural[index] - widths[index])
        widths[index] += given
        spare -= given
    # A column short of whole takes the cells it lacks from the widest other wrapped one, when that can spare them.
    for index in sorted(range(len(widths)), key=lambda i: natural[i] - widths[i]):
        need = natural[index] - widths[index]
        donors = [j for j in range(len(widths)) if j != index and widths[j] < natural[j]]
        if need and donors:
            donor = max(donors, key=lambda j: widths[j])
            if widths[donor] - need >= least[donor]:
                widths[donor] -= need
                widths[index] += need
    return widths


def _fill(text: str, width: int, right: bool) -> str:
    pad = " " * (width - cells(text))
    return pad + text if right else text + pad


def _cell_lines(table: TextTable, row: Sequence[str], widths: tuple[int, ...]) -> list[list[str]]:
    """One row's physical lines: each cell wrapped to its column and filled to its width, the shorter cells below
    with blank lines."""
    rights = [column.right for column in table.columns]
    if all(c.isascii() and len(c) <= w for c, w in zip(row, widths, strict=True)):  # one line (most rows)
        return [[c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, rights, strict=True)]]
    wrapped = [wrap(cell, width) for cell, width in zip(row, widths, strict=True)]
    height = max(len(lines) for lines in wrapped)
    return [
        [
            _fill(lines[i] if i < len(lines) else "", width, right)
            for lines, width, right in zip(wrapped, widths, rights, strict=True)
        ]
        for i in range(height)
    ]


def table_lines(table: TextTable, widths: tuple[int, ...]) -> Iterator[Text | str]:
    """The table drawn at ``widths``: rich's heavy-headed box (the look trey has always had) and a cell of padding
    each side, or for ``pairs`` the columns two cells apart without a box. Styled lines (the header, a bold column)
    are :class:`~rich.text.Text`; the body's plain lines are str, made as they are written (a grid of 200,000
    rows)."""
    bold = [column.bold for column in table.columns]
    if table.pairs:
        for row in table.rows:
            for parts in _cell_lines(table, row, widths):
                yield _styled(parts, bold, "", "  ", "") if any(bold) else "  ".join(parts).rstrip()
        return
    frame = box.HEAVY_HEAD
    padded = [w + 2 for w in widths]
    yield frame.get_top(padded)
    head = (frame.head_left + " ", f" {frame.head_vertical} ", " " + frame.head_right)
    for parts in _cell_lines(table, [c.header for c in table.columns], widths):
        yield _styled(parts, [True] * len(parts), *head)
    yield frame.get_row(padded, "head")
    edge, between, end = frame.mid_left + " ", f" {frame.mid_vertical} ", " " + frame.mid_right
    for row in table.rows:
        for parts in _cell_lines(table, row, widths):
            yield _styled(parts, bold, edge, between, end) if any(bold) else edge + between.join(parts) + end
    yield frame.get_bottom(padded)


def _styled(parts: list[str], bold: list[bool], edge: str, between: str, end: str) -> Text:
    line = Text(edge)
    for index, (part, strong) in enumerate(zip(parts, bold, strict=True)):
        if index:
            line.append(between)
        line.append(part, style="bold" if strong else "")
    line.append(end)
    line.rstrip()
    return line


def block_lines(table: TextTable, width: int) -> list[str]:
    """The rows as stacked ``label: value`` blocks of at most ``width`` cells (but for a word wider than that):
    a row's first cell opens its block, the others follow indented, a blank line between blocks. A figure that
    does not fit after its label goes whole on the next line."""
    lines: list[str] = []
    for number, row in enumerate(table.rows):
        if number and not table.pairs:
            lines.append("")
        if table.pairs:
            name, *values = row
            lines += wrap(" ".join(v for v in values if v), width, first=f"{name}: ", rest="  ")
            continue
        given = [(c, v) for c, v in zip(table.columns, row, strict=True) if v]  # an empty cell has no line
        for index, (column, value) in enumerate(given):
            indent = "" if index == 0 else "  "
            key = f"{column.header}: " if column.header else ""
            lines += wrap(value, width, first=indent + key, rest=indent + "  ", whole=column.kind is Kind.FIGURE)
    return lines


def _printable(text: str) -> str:
    return text if text.isascii() and text.isprintable() else printable(text)


def clean(table: TextTable) -> TextTable:
    """The table with every text made printable (user text cannot drive the terminal)."""
    return TextTable(
        tuple(Column(_printable(c.header), c.kind, c.right, c.bold) for c in table.columns),
        [tuple(_printable(cell) for cell in row) for row in table.rows],
        _printable(table.title),
        table.pairs,
        table.bold_title,
    )


def print_table(console: Console, table: TextTable) -> Layout:
    """Print ``table`` fitted to the console's width (see :func:`layout`); returns the layout chosen."""
    table = clean(table)
    chosen = layout(table, console.width)
    if table.title:
        say(console, table.title, bold=table.bold_title)
    if chosen.widths is None:
        _emit(console, block_lines(table, console.width))
        if not table.pairs:
            _emit(console, [""])
    else:
        _emit(console, table_lines(table, chosen.widths))
    return chosen


def say(console: Console, text: str, *, bold: bool = False) -> None:
    """A line of text (made printable) wrapped between words at the console's width, a word never cut."""
    lines = wrap(_printable(text), console.width)
    _emit(console, [Text(line, style="bold") for line in lines] if bold else list(lines))


def _emit(console: Console, lines: Iterable[Text | str]) -> None:
    """Lines as they are: styled ones through rich (which styles them only for a terminal), plain ones written
    straight to the console's file, a few thousand at a time, in order; neither wrapped nor cropped."""
    plain: list[str] = []
    styles = console.color_system is not None  # None: a file or a pipe, which get the text alone
    for line in lines:
        if isinstance(line, str) or not styles:
            plain.append(line if isinstance(line, str) else line.plain)
            if len(plain) < _WRITE_LINES:
                continue
        if plain:
            console.file.write("\n".join(plain) + "\n")
            plain = []
        if not isinstance(line, str) and styles:
            console.print(line, soft_wrap=True, crop=False)
    if plain:
        console.file.write("\n".join(plain) + "\n")


_WRITE_LINES = 4096


def print_all(console: Console, parts: Iterable[TextTable | str]) -> None:
    """Tables and lines in order ("" prints an empty line)."""
    for part in parts:
        if isinstance(part, TextTable):
            print_table(console, part)
        else:
            say(console, part)
