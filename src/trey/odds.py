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


ODDS_PATTERN = re.compile(r"^\s*(\d+)\s+(to|for)\s+(\d+)\s*$")


@dataclass(frozen=True)
class Odds:
    numerator: int
    denominator: int = 1
    wording: OddsWording = OddsWording.TO

    def __post_init__(self) -> None:
        if self.numerator < 0:
            raise ValueError(f"odds cannot be negative: {self.numerator}")
        if self.denominator <= 0:
            raise ValueError(f"odds '{self}' divide by zero")
        if self.wording is OddsWording.FOR and self.numerator < self.denominator:
            raise ValueError(f"'{self}' returns less than the stake, so a win would lose money")

    @classmethod
    def parse(cls, value: int | str) -> Odds:
        """Read odds as a paytable writes them. Raises ``ValueError`` with a readable message."""
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError(f"odds must be a whole number or text like '3 to 2', not {value!r}")
        if isinstance(value, int):
            return cls(value)
        match = ODDS_PATTERN.match(value)
        if match is None:
            raise ValueError(f"cannot read odds {value!r}")
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
