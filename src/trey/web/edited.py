"""What the workbench's documents say a table is (issue 30.5): a table that differs from the file it was opened from
is not that file's table, and every document made of it says so.

A table equal to its file (the same canonical data) is that file: its documents are made of the file's own bytes.
A table that differs is titled with the name the user gave it, or, until one is given (its name is still the
file's), ``NAME (edited from FILE)``; the file's description and source, which are about the file's table, are
replaced (a description the user wrote, or a source, is kept): there is no description, and the source names the
file and its SHA-256. The YAML, the certificate, the dealer sheet and the drill are all made of the same bytes, so
the dealer sheet's and the certificate's SHA-256 are the downloaded YAML's, whose first line and source name the
original's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import PurePosixPath
from typing import Any

from trey.core.errors import TreyError
from trey.core.glyphs import first_unprintable
from trey.paytable.load import check_data
from trey.paytable.schema import paytable_schema
from trey.web.forms import comment_text, origin_comment, yaml_text

FILE_CHARS = 100  # of a file's name inside a title (a folder's names may be long)
WORKBENCH = "edited in the trey workbench"


@dataclass(frozen=True)
class Original:
    """A paytable of the folder as the workbench read it: its name there, its bytes, their SHA-256, its canonical
    data (what the loader makes of it)."""

    name: str
    raw: bytes
    sha256: str
    data: dict[str, Any]


@dataclass(frozen=True)
class Naming:
    """What the documents of a table are titled: ``differs`` from its file, ``named`` by the user (its name is not
    the file's), and the ``title`` every document carries."""

    differs: bool
    named: bool
    title: str


@dataclass(frozen=True)
class Documented:
    """What every document of a table is made of: ``raw``, the file's own bytes or the edited table's YAML (its
    provenance in its first line and its source), and the stem of the files' names."""

    naming: Naming
    raw: bytes
    stem: str


@cache
def _limit(key: str) -> int:
    """The longest text the paytable format allows at ``key`` (its schema's maxLength): a title made here must load."""
    return int(paytable_schema()["properties"][key]["maxLength"])


def file_label(name: str) -> str:
    """A file's name as documents may print it: what a page could not show (a control, a bidirectional control, a
    line or paragraph separator, a character outside the documents' fonts) written as an escape, at most
    :data:`FILE_CHARS` characters. U+2028 and U+2029, which the loader takes in a name and a page breaks a line at,
    are escaped too (as in the YAML's first line)."""
    said = "".join(ch if first_unprintable(ch) is None else f"\\u{ord(ch):04x}" for ch in comment_text(name))
    return said if len(said) <= FILE_CHARS else said[: FILE_CHARS - 1] + "…"


def edited_title(name: str, file: str) -> str:
    """``NAME (edited from FILE)``, the name shortened (…) when the two would be longer than a name may be."""
    tail = f" (edited from {file_label(file)})"
    room = _limit("name") - len(tail)
    return (name if len(name) <= room else name[: room - 1] + "…") + tail


def naming(data: dict[str, Any], original: Original) -> Naming:
    """How the documents of the table ``data`` (canonical), opened from ``original``, are titled."""
    if data == original.data:
        return Naming(differs=False, named=False, title=str(data["name"]))
    named = data["name"] != original.data["name"]
    return Naming(True, named, str(data["name"]) if named else edited_title(original.data["name"], original.name))


def provenance(original: Original) -> str:
    """The source of a table edited from ``original``: the file and its SHA-256."""
    return f"{file_label(original.name)} (SHA-256 {original.sha256}), {WORKBENCH}"


def documented(data: dict[str, Any], original: Original) -> Documented:
    """What the documents of the valid table ``data`` (canonical), opened from ``original``, are made of."""
    titled = naming(data, original)
    stem = file_stem(original.name)
    if not titled.differs:
        return Documented(titled, original.raw, stem)
    edited = {k: v for k, v in data.items() if k not in ("description", "source")}
    edited["name"] = titled.title
    for key, replaced in (("description", None), ("source", provenance(original))):
        kept = data.get(key)
        if kept is not None and kept != original.data.get(key):  # the user's own words
            edited[key] = kept
        elif replaced is not None:
            edited[key] = replaced
    checked = check_data(edited, "the edited paytable")
    if checked.spec is None or checked.errors:  # not expected: only a name within its bound and a source were set
        said = str(checked.errors[0]).splitlines()[0] if checked.errors else "it does not load"
        raise TreyError(f"the edited table's documents cannot be made: {said}", hint="give the table another name")
    body = yaml_text(checked.spec.canonical())
    return Documented(titled, (origin_comment(original.name, original.sha256) + body).encode(), f"{stem}-edited")


def file_stem(origin: str) -> str:
    """A file name for what is downloaded: the opened file's stem, in safe characters."""
    base = PurePosixPath(origin).stem if origin else "paytable"
    safe = "".join(c if c.isascii() and (c.isalnum() or c in "-_.") else "-" for c in base)[:80].strip("-.")
    return safe or "paytable"
