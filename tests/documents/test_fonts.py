"""trey's own fonts (src/trey/documents/fonts): what they are, that they cover what the documents print, and that text
in another script still reaches the PDF through the system's fonts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from conftest import REPO, STANDARD, run_cli

FONTS = REPO / "src" / "trey" / "documents" / "fonts"
SOURCES = REPO / "src" / "trey"


@pytest.mark.parametrize(
    ("file", "family", "full_name"),
    [
        ("TreySans.ttf", "Trey Sans", "Trey Sans"),
        ("TreySans-Bold.ttf", "Trey Sans", "Trey Sans Bold"),
        ("TreySansMono.ttf", "Trey Sans Mono", "Trey Sans Mono"),
    ],
)
def test_the_fonts_are_renamed_dejavu_subsets_with_their_notices(file: str, family: str, full_name: str) -> None:
    font = TTFont(FONTS / file)
    names = font["name"]
    assert (names.getDebugName(1), names.getDebugName(4)) == (family, full_name)
    assert names.getDebugName(5) == "Version 2.37"  # DejaVu's version, as built by scripts/subset_fonts.py
    assert "Bitstream" in names.getDebugName(0)  # the copyright notice is kept
    assert not any(word in (names.getDebugName(i) or "") for i in (1, 4, 6, 16) for word in ("Vera", "Arev"))
    assert len(font.getGlyphOrder()) < 2_500  # a subset: DejaVu Sans has 6,253 glyphs
    licence = (FONTS / "LICENSE-DejaVu.txt").read_text()
    assert "Bitstream Vera Fonts Copyright" in licence and "Arev Fonts Copyright" in licence


def test_every_character_trey_itself_prints_is_in_its_fonts() -> None:
    """Templates, labels and messages: every non-ASCII character in trey's source is drawn by Trey Sans (regular
    and bold) and by Trey Sans Mono, never by a fallback font."""
    used = set()
    for path in [*SOURCES.rglob("*.py"), *SOURCES.rglob("*.j2")]:
        used |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 0x7E}
    assert {"×", "≤", "−", "—", "♠", "♥", "€", "⁶"} <= used  # the scan finds what the documents print
    for file in ("TreySans.ttf", "TreySans-Bold.ttf", "TreySansMono.ttf"):
        cmap = TTFont(FONTS / file).getBestCmap()
        missing = sorted(c for c in used if ord(c) not in cmap)
        assert missing == [], f"{file} lacks {missing}: add their block in scripts/subset_fonts.py"


def test_text_in_a_script_the_fonts_lack_is_refused_where_it_is_written(tmp_path: Path) -> None:
    """Issue 19: a genuine certificate named in Chinese failed its own verification (the PDF could not give the
    text back). Text the documents' fonts cannot print is refused by the paytable's reader, located."""
    for name, char in (
        ("Երևան Three Card Poker", "Ե U+0535"),
        ("澳門 Three Card Poker", "澳 U+6FB3"),
        ("Dice 🎲", "🎲 U+1F3B2"),
    ):
        paytable = tmp_path / "other.yaml"
        paytable.write_text(re.sub(r"^name: .*$", f"name: {name}", STANDARD.read_text(), count=1, flags=re.M))
        result = run_cli("validate", paytable)
        shown = char.split(" ")
        assert (result.exit_code, result.stderr) == (
            1,
            f"{paytable}:3:7: $.name: the text holds '{shown[0]}' {shown[1]}, which trey's documents cannot print "
            "(write it in Latin, Greek or Cyrillic letters: the documents' fonts have no other script, and a "
            "certificate must read back what it prints)\n",
        )
    accented = tmp_path / "accents.yaml"
    accented.write_text(
        re.sub(r"^name: .*$", "name: Crème Brûlée Ελλάδα Москва €", STANDARD.read_text(), count=1, flags=re.M)
    )
    assert run_cli("validate", accented).exit_code == 0


def test_the_printable_ranges_are_the_fonts_own() -> None:
    from trey.core.glyphs import RANGES

    covered = None
    for file in ("TreySans.ttf", "TreySans-Bold.ttf"):
        cmap = set(TTFont(FONTS / file).getBestCmap())
        covered = cmap if covered is None else covered & cmap
    assert {c for low, high in RANGES for c in range(low, high + 1)} == covered
