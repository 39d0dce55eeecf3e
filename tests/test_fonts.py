"""trey's own fonts (src/trey/report/fonts): what they are, that they cover what the documents print, and that text
in another script still reaches the PDF through the system's fonts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont
from pypdf import PdfReader

from conftest import REPO, STANDARD, embedded_fonts, run_cli

FONTS = REPO / "src" / "trey" / "report" / "fonts"
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


def test_text_in_another_script_falls_back_to_the_system_fonts(tmp_path: Path) -> None:
    """Armenian is not in Trey Sans; the name still reaches the PDF, drawn with the system's DejaVu Sans."""
    paytable = tmp_path / "yerevan.yaml"
    paytable.write_text(
        re.sub(r"^name: .*$", "name: Երևան Three Card Poker", STANDARD.read_text(), count=1, flags=re.M),
        encoding="utf-8",
    )
    result = run_cli("cheatsheet", paytable, "--out", tmp_path, "--date", "2026-01-01")
    assert result.exit_code == 0, result.stderr
    pdf = tmp_path / "yerevan.dealer-sheet.pdf"
    assert "Երևան Three Card Poker" in PdfReader(pdf).pages[0].extract_text()
    fonts = embedded_fonts(pdf)
    assert {"Trey-Sans", "Trey-Sans-Bold"} <= fonts
    assert fonts - {"Trey-Sans", "Trey-Sans-Bold", "Trey-Sans-Mono"}, "the Armenian letters need a system font"
