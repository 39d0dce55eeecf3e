"""The errors trey reports to its users.

Every error carries structured fields (where, what, the offending value, a hint) and builds its message from
them, so the CLI can print it in one place and tests can assert on the fields as well as on the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from trey.core.codes import is_known_code

PathPart = str | int
JsonPath = tuple[PathPart, ...]


def json_path(path: JsonPath) -> str:
    """``("wagers", "pair_plus", "pair")`` → ``$.wagers.pair_plus.pair``; list indexes as ``[0]``."""
    text = "$"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


class Severity(StrEnum):
    """An error makes a file invalid; a warning fails only ``trey validate --strict``."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with an input file, located as precisely as we know.

    ``code`` is stable (``yaml.duplicate-key``, ``odds.float``...): tools key on it, never on the wording.
    docs/commands/validate.md lists every code. ``path`` is the JSON path as a sequence of keys and list indexes.
    """

    file: str
    message: str
    path: JsonPath | None = None
    line: int | None = None
    column: int | None = None
    hint: str | None = None
    severity: Severity = Severity.ERROR
    code: str = ""  # required: one of trey.core.codes.Code

    def __post_init__(self) -> None:
        if not is_known_code(self.code):  # a bug: every code a user can meet is listed, with its meaning
            raise ValueError(f"problem code {self.code!r} is not in trey.core.codes.Code")

    def as_json(self) -> dict[str, object]:
        """The problem as data (``trey validate --format json``; schemas/validation.schema.json)."""
        return {
            "code": self.code,
            "severity": str(self.severity),
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "path": list(self.path) if self.path is not None else None,
            "json_path": json_path(self.path) if self.path is not None else None,
            "message": self.message,
            "hint": self.hint,
        }

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}:{self.column if self.column is not None else 1}"
        text = f"{where}: "
        if self.severity is Severity.WARNING:
            text += "warning: "
        if self.path is not None:
            text += f"{json_path(self.path)}: "
        text += self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


class TreyError(Exception):
    """Base class of every error caused by the user's input or environment (never a bug)."""

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message


class SpecError(TreyError):
    """A paytable file (or a certificate's embedded paytable) is not a valid game description."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        if not self.problems:
            raise ValueError("SpecError needs at least one problem")
        super().__init__("\n".join(str(p) for p in self.problems))


class OutputError(TreyError):
    """An output file cannot be written (exists without --force, unwritable directory...)."""


class VerificationError(TreyError):
    """A certificate does not agree with a fresh computation."""

    def __init__(self, message: str, *, fields: Iterable[str] = (), hint: str | None = None) -> None:
        self.fields = tuple(fields)
        super().__init__(message, hint=hint)
