"""Payout odds as written on a paytable: ``40`` (40 to 1), ``"3 to 2"``, ``"1001 for 1"``.

"N to M" pays N/M net and returns the stake; "N for M" hands back N/M in all, stake included, so it pays
N/M - 1 net. Odds are exact: no floats anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction


class OddsWording(StrEnum):
    TO = "to"
    FOR = "for"


ODDS_PATTERN = re.compile(r"^\s*(\d{1,12})\s+(to|for)\s+(\d{1,12})\s*$")
MAX_ODDS_TERM = 10**9  # far beyond any real paytable; keeps a typo from producing astronomical figures


class OddsError(ValueError):
    """Odds that cannot be: the message says why, the hint how to write them."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class Odds:
    numerator: int
    denominator: int = 1
    wording: OddsWording = OddsWording.TO

    def __post_init__(self) -> None:
        if max(self.numerator, self.denominator) > MAX_ODDS_TERM:
            raise OddsError(f"odds '{self}' are too large", f"each number is at most {MAX_ODDS_TERM:,}")
        if self.numerator < 0:
            raise OddsError(f"odds cannot be negative: {self.numerator}", "a losing hand is simply left out")
        if self.denominator <= 0:
            raise OddsError(f"odds '{self}' divide by zero", "the second number must be at least 1")
        if self.wording is OddsWording.FOR and self.numerator < self.denominator:
            raise OddsError(
                f"'{self}' returns less than the stake, so a win would lose money",
                "'N for M' includes the stake: N must be at least M",
            )

    @classmethod
    def parse(cls, value: int | str) -> Odds:
        """Read odds as a paytable writes them. Raises :class:`OddsError` (a ``ValueError``) saying why not."""
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise OddsError(f"odds must be a whole number or text like '3 to 2', not {_short(value)}")
        if isinstance(value, int):
            return cls(value)
        match = ODDS_PATTERN.match(value)
        if match is None:
            raise OddsError(f"cannot read odds {_short(value)}", "write N, 'N to M' or 'N for M'")
        return cls(int(match[1]), int(match[3]), OddsWording(match[2]))

    @property
    def net(self) -> Fraction:
        """What a winning unit bet gains, the stake aside."""
        ratio = Fraction(self.numerator, self.denominator)
        return ratio - 1 if self.wording is OddsWording.FOR else ratio

    @property
    def to_one_text(self) -> str:
        """The same pay in "to" wording: ``"1000 to 1"``, ``"3 to 2"``."""
        net = self.net
        return f"{net.numerator} to {net.denominator}"

    def canonical(self) -> int | str:
        """How the canonical paytable writes these odds: an int for "N to 1", else the text."""
        if self.wording is OddsWording.TO and self.denominator == 1:
            return self.numerator
        return str(self)

    def __str__(self) -> str:
        return f"{self.numerator} {self.wording} {self.denominator}"
