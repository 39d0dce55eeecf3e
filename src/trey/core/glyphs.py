"""The characters trey's documents can print: those its own fonts (Trey Sans, regular and bold) have glyphs for.

A paytable's text (its name, operator, titles, description, source) is printed on certificates, sheets and drills,
and read back from the PDF by ``trey verify``. Text in a script the fonts lack (Chinese, Armenian, an emoji) would be
drawn from whatever fonts a machine has, or as empty boxes, and could not be read back: a genuine certificate would
then fail its own verification. So the paytable's reader refuses it, located, instead (:func:`first_unprintable`).

Generated from the fonts by ``scripts/subset_fonts.py``; a test holds the two equal.
"""

from __future__ import annotations

import bisect

# Inclusive ranges of code points, ascending.
RANGES: tuple[tuple[int, int], ...] = (
    (0x0020, 0x007E),
    (0x00A0, 0x024F),
    (0x0370, 0x0377),
    (0x037A, 0x037F),
    (0x0384, 0x038A),
    (0x038C, 0x038C),
    (0x038E, 0x03A1),
    (0x03A3, 0x04FF),
    (0x1E00, 0x1EFB),
    (0x2000, 0x2064),
    (0x206A, 0x2071),
    (0x2074, 0x208E),
    (0x2090, 0x209C),
    (0x20A0, 0x20B5),
    (0x20B8, 0x20BA),
    (0x20BD, 0x20BD),
    (0x2100, 0x2109),
    (0x210B, 0x2149),
    (0x214B, 0x214B),
    (0x214E, 0x214E),
    (0x2150, 0x2185),
    (0x2189, 0x2189),
    (0x2190, 0x22FF),
    (0x25A0, 0x269C),
    (0x269E, 0x26B8),
    (0x26C0, 0x26C3),
    (0x26E2, 0x26E2),
    (0x2701, 0x2704),
    (0x2706, 0x2709),
    (0x270C, 0x2727),
    (0x2729, 0x274B),
    (0x274D, 0x274D),
    (0x274F, 0x2752),
    (0x2756, 0x2756),
    (0x2758, 0x275E),
    (0x2761, 0x2794),
    (0x2798, 0x27AF),
    (0x27B1, 0x27BE),
)
_STARTS = [low for low, _ in RANGES]


def printable_in_documents(ch: str) -> bool:
    code = ord(ch)
    index = bisect.bisect_right(_STARTS, code) - 1
    return index >= 0 and RANGES[index][0] <= code <= RANGES[index][1]


def first_unprintable(text: str) -> str | None:
    """The first character of ``text`` the documents' fonts cannot print, or None (ASCII text never has one)."""
    if text.isascii():
        return None
    return next((ch for ch in text if ch not in "\t\n" and not printable_in_documents(ch)), None)
