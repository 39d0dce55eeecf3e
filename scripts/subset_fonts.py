"""Build the fonts trey's documents use (src/trey/documents/fonts/) from DejaVu Sans 2.37.

Why bundled fonts: every PDF embeds the subset of the glyphs it uses, and WeasyPrint's subsetting (fontTools) costs
time in proportion to the number of glyphs in the whole font. DejaVu Sans has 6,253; the scripts a paytable is
written in here (Latin, Greek, Cyrillic) with the punctuation, currency, arithmetic, arrows and card suits the
documents print need 2,455. Bundled, the fonts are also the same on every machine, so the same inputs give the same
PDF wherever trey runs. Text in any other script falls back to the system's fonts (the style sheet lists DejaVu Sans
and sans-serif after Trey Sans).

The fonts are renamed "Trey Sans" and "Trey Sans Mono", as the Bitstream Vera and Arev licences ask of modified
fonts; their copyright and licence notices are kept (fonts/LICENSE-DejaVu.txt). Outlines, metrics, kerning and
hinting are DejaVu's, unchanged; the timestamps are the source's, so the same source gives the same bytes.

    .venv/bin/python scripts/subset_fonts.py [DIR]   # DIR: where DejaVuSans.ttf 2.37 is (Debian: fonts-dejavu-core)
"""

from __future__ import annotations

import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

SOURCE = Path("/usr/share/fonts/truetype/dejavu")
TARGET = Path(__file__).resolve().parent.parent / "src" / "trey" / "documents" / "fonts"
VERSION = "Version 2.37"

BLOCKS = {
    "Basic Latin": (0x0020, 0x007E),
    "Latin-1 Supplement": (0x00A0, 0x00FF),
    "Latin Extended-A": (0x0100, 0x017F),
    "Latin Extended-B": (0x0180, 0x024F),
    "Greek and Coptic": (0x0370, 0x03FF),
    "Cyrillic": (0x0400, 0x04FF),
    "Latin Extended Additional": (0x1E00, 0x1EFF),
    "General Punctuation": (0x2000, 0x206F),
    "Superscripts and Subscripts": (0x2070, 0x209F),
    "Currency Symbols": (0x20A0, 0x20CF),
    "Letterlike Symbols": (0x2100, 0x214F),
    "Number Forms": (0x2150, 0x218F),
    "Arrows": (0x2190, 0x21FF),
    "Mathematical Operators": (0x2200, 0x22FF),
    "Geometric Shapes": (0x25A0, 0x25FF),
    "Miscellaneous Symbols": (0x2600, 0x26FF),  # the card suits
    "Dingbats": (0x2700, 0x27BF),
}

FONTS = {  # source file: (target file, family, style)
    "DejaVuSans.ttf": ("TreySans.ttf", "Trey Sans", "Book"),
    "DejaVuSans-Bold.ttf": ("TreySans-Bold.ttf", "Trey Sans", "Bold"),
    "DejaVuSansMono.ttf": ("TreySansMono.ttf", "Trey Sans Mono", "Book"),
}


def build(source: Path, target: Path, family: str, style: str) -> int:
    font = TTFont(source, recalcTimestamp=False)
    if font["name"].getDebugName(5) != VERSION:
        raise SystemExit(f"{source}: {font['name'].getDebugName(5)}, not DejaVu {VERSION}")
    options = subset.Options()
    options.layout_features = ["*"]  # kerning and every feature Pango may shape with
    options.legacy_kern = True
    options.hinting = True  # the same metrics as the system's DejaVu
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = True
    options.drop_tables += ["FFTM"]  # FontForge's build timestamps
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[u for low, high in BLOCKS.values() for u in range(low, high + 1)])
    subsetter.subset(font)
    postscript = family.replace(" ", "") + ("" if style == "Book" else f"-{style}")
    names = {
        1: family,
        3: f"{family} {style}: subset of DejaVu {VERSION}",
        4: family if style == "Book" else f"{family} {style}",
        6: postscript,
        16: family,
    }
    table = font["name"]
    for record in list(table.names):
        if record.nameID in names:
            table.setName(names[record.nameID], record.nameID, record.platformID, record.platEncID, record.langID)
    font.save(target)
    return len(font.getGlyphOrder())


def main() -> None:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    for file, (target, family, style) in FONTS.items():
        glyphs = build(source / file, TARGET / target, family, style)
        print(f"{TARGET / target}: {family} {style}, {glyphs:,} glyphs, {(TARGET / target).stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
