"""Text that trey did not write: finding what cannot be printed or encoded, and making it safe to echo.

Names, keys and file names come from users. A lone surrogate (``"\\ud800"`` in a YAML or JSON string) is not a
character and cannot be encoded as UTF-8; control characters and bidirectional overrides in a name would reach the
terminal as escape sequences. Readers refuse the first, and everything echoed to a terminal goes through
:func:`printable` first.
"""

from __future__ import annotations

import re

# Characters that reorder or hide what follows them on a terminal or a page ("Trojan source").
_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")


# A version of trey as a certificate, a part or an output names the trey that wrote it (PEP 440's public versions,
# bounded: 0.4.0, 1.2rc1, 0.5.0.dev3): text a file carries that reaches terminals and documents, so held to this.
_NUMBER = "(0|[1-9][0-9]{0,3})"
VERSION_PATTERN = f"^{_NUMBER}(\\.{_NUMBER}){{1,3}}((a|b|rc){_NUMBER})?(\\.post{_NUMBER})?(\\.dev{_NUMBER})?$"
VERSION = re.compile(VERSION_PATTERN)


_SURROGATE = re.compile("[\ud800-\udfff]")
# Control characters (Unicode category Cc: U+0000-U+001F and U+007F-U+009F) but tab and line feed, and the
# bidirectional controls: one search instead of a look-up per character (schemas and certificates are long).
_HIDDEN = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + "".join(sorted(_BIDI_CONTROLS)) + "]")


def lone_surrogate(text: str) -> str | None:
    """The first lone surrogate in ``text`` written as ``\\udXXX``, or None when the text is all characters."""
    found = _SURROGATE.search(text)
    return None if found is None else f"\\u{ord(found.group()):04x}"


def hidden_control(text: str) -> str | None:
    """The first character of ``text`` that a reader of a report could not see or that would reorder what they
    see (a control character other than tab and line break, or a bidirectional control), written as an escape;
    None when there is none."""
    found = _HIDDEN.search(text)
    return None if found is None else _escaped(found.group())


def _escaped(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: str, *, keep_line_breaks: bool = False) -> str:
    """``text`` with control characters, bidirectional controls and lone surrogates written as escapes
    (``\\x1b``, ``\\u202e``, ``\\udcff``), so that echoing it can neither drive the terminal nor fail to encode.
    Line breaks are escaped too (one message is one line) unless ``keep_line_breaks``."""
    out = []
    for ch in text:
        if ch == "\n" and keep_line_breaks:
            out.append(ch)
        elif ch in "\t\n" or ch in _BIDI_CONTROLS or 0xD800 <= ord(ch) <= 0xDFFF or _HIDDEN.fullmatch(ch):
            out.append(_escaped(ch))
        else:
            out.append(ch)
    return "".join(out)


def non_ascii_characters(text: str) -> str:
    """``'\\u0430' U+0430`` for each non-ASCII character of ``text``, for a hint about look-alike keys."""
    return ", ".join(f"{ch!r} U+{ord(ch):04X}" for ch in dict.fromkeys(text) if ord(ch) > 0x7F)
