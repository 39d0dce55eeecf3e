"""The workbench's form: every value of a paytable as a field named by its JSON path, and back.

The form is made from the paytable's canonical data (what the loader makes of the file), so it has a field for
everything the file says — rules, every pay, side bets (reading, outcomes, on_fold), progressive parameters, table
limits — and the page sends back the same data with its edits. That data is written as YAML and read by the one
loader every file goes through, so a problem is found and worded as ``trey validate`` finds and words it, and is
shown at the field its JSON path names.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from trey.core.text import printable
from trey.core.version import __version__
from trey.paytable.model import ANTE_PLAY
from trey.paytable.yamldoc import canonical_yaml

MAX_FIELDS = 2_000  # a paytable has a few hundred values at most (17 wagers of 32 rows)


@dataclass(frozen=True)
class Field:
    path: tuple[str | int, ...]
    kind: str  # "int", "text", "bool" or "list" (a list of values, written with commas)
    value: str
    solve: str | None = None  # the wager whose row this pay is, when trey solve can solve it

    @property
    def path_json(self) -> str:
        return json.dumps(list(self.path))

    @property
    def label(self) -> str:
        return " ".join(str(p).replace("_", " ") for p in self.path[2:] or self.path[-1:])

    @property
    def row(self) -> str:
        return str(self.path[-1])


@dataclass(frozen=True)
class Section:
    title: str
    fields: list[Field]


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, list):
        return "list"
    return "text"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return str(value)


def _solvable(path: tuple[str | int, ...], value: Any) -> str | None:
    """The wager of a pay written as odds (what trey solve solves), else None."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    if len(path) == 3 and path[0] == "wagers" and path[1] != ANTE_PLAY:
        return str(path[1])
    if len(path) == 4 and path[:3] == ("wagers", ANTE_PLAY, "ante_bonus"):
        return ANTE_PLAY
    if len(path) == 4 and path[0] == "side_bets" and path[2] == "pays":
        return str(path[1])
    return None


def sections(data: dict[str, Any]) -> list[Section]:
    """The form's sections: the game, rules, table, then each wager and side bet."""
    found: dict[str, list[Field]] = {}

    def walk(value: Any, path: tuple[str | int, ...], section: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key), section)
            return
        fields = found.setdefault(section, [])
        if sum(len(f) for f in found.values()) >= MAX_FIELDS:
            return
        fields.append(Field(path, _kind(value), _text(value), _solvable(path, value)))

    for key, value in data.items():
        if key in ("wagers", "side_bets") and isinstance(value, dict):
            for wager, item in value.items():
                walk(item, (key, wager), f"{'Side bet' if key == 'side_bets' else 'Wager'}: {wager}")
        elif key == "trey":
            continue
        else:
            walk(value, (key,), {"rules": "Rules", "table": "Table"}.get(key, "Game"))
    return [Section(title, fields) for title, fields in found.items()]


def yaml_text(data: Any, origin: str | None = None) -> str:
    """The paytable as a YAML file: canonical (the loader's keys, in its order), with a comment naming its origin
    when one is given (the downloaded file; what is checked, analysed and certified is the text without it)."""
    body = canonical_yaml(json.loads(json.dumps(data)))  # plain dicts (the strict reader's are a subclass)
    return body if origin is None else origin_comment(origin) + body


def origin_comment(origin: str, sha256: str | None = None) -> str:
    """The first line of a downloaded paytable: the file it started from (and that file's SHA-256), as one YAML
    comment line."""
    digest = f" (SHA-256 {sha256})" if sha256 else ""
    return f"# Edited in the trey workbench (trey {__version__}), starting from {comment_text(origin)}{digest}.\n"


# What YAML reads as a line break besides CR and LF (YAML 1.1, as PyYAML reads it: NEL, LINE SEPARATOR, PARAGRAPH
# SEPARATOR), a byte-order mark, and what it refuses in a stream (U+FFFE, U+FFFF); printable() escapes the rest.
_YAML_BREAKS = re.compile("[\x85\u2028\u2029\ufeff\ufffe\uffff]")


def comment_text(text: str) -> str:
    """``text`` made safe inside a one-line YAML comment: every character YAML reads as a line break (or refuses)
    written as an escape, so a file's name cannot end the comment and add keys to the paytable."""
    said = printable(text)[:200]
    return _YAML_BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", said)
