"""Payout odds as written on a paytable: ``40`` (40 to 1), ``"3 to 2"``, ``"1001 for 1"``.

"N to M" pays N/M net and returns the stake; "N for M" hands back N/M in all, stake included, so it pays
N/M - 1 net. Odds are exact: no floats anywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from trey.paytable.pay_kind import Money, PayKind, pay_kind


class OddsWording(StrEnum):
    TO = "to"
    FOR = "for"


# ASCII digits only: Python's \d also matches Arabic-Indic and other digits, which a dealer would not read as 40.
ODDS_PATTERN = re.compile(r"[ ]*([0-9]{1,12})[ ]+(to|for)[ ]+([0-9]{1,12})[ ]*")
MAX_ODDS_TERM = 10**9  # far beyond any real paytable; keeps a typo from producing astronomical figures


class OddsError(ValueError):
    """Odds that cannot be: the message says why, the hint how to write them, the code which rule failed."""

    def __init__(self, message: str, hint: str | None = None, *, code: str) -> None:
        super().__init__(message)
        self.hint = hint
        self.code = code


ODDS_HINT = "write a whole number (40 means 40 to 1) or quoted text such as '3 to 2'"


def describe(value: object) -> str:
    """A value as a table-games manager would name it: ``'maybe' (text)``, ``a list``, ``nothing (null)``."""
    if isinstance(value, bool):
        return f"{str(value).lower()} (true/false)"
    if isinstance(value, int):
        return f"{value} (a whole number)"
    if isinstance(value, float):
        return f"{value!r} (a decimal number)"
    if isinstance(value, str):
        return f"{_short(value)} (text)"
    if value is None:
        return "nothing (null)"
    if isinstance(value, list):
        return "a list"
    return "a mapping"


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def net_odds_text(net: Fraction) -> str:
    """A net pay as odds: ``"40 to 1"``, ``"3 to 2"`` — the one way trey writes "N to M"."""
    return f"{net.numerator} to {net.denominator}"


@pay_kind
@dataclass(frozen=True)
class Odds(PayKind):
    """A multiple of the bet: "N to M" (the stake returned besides) or "N for M" (the stake included)."""

    key: ClassVar[str | None] = None
    schema: ClassVar[dict[str, Any]] = {"$ref": "#/$defs/odds"}
    example: ClassVar[str] = "'3 to 2'"
    summary: ClassVar[str] = "odds (as elsewhere)"
    scales_with_bet: ClassVar[bool] = True

    numerator: int
    denominator: int = 1
    wording: OddsWording = OddsWording.TO

    def __post_init__(self) -> None:
        if max(self.numerator, self.denominator) > MAX_ODDS_TERM:
            raise OddsError(
                f"odds '{self}' are too large", f"each number is at most {MAX_ODDS_TERM:,}", code="odds.too-large"
            )
        if self.numerator < 0:
            raise OddsError(
                f"odds cannot be negative: {self.numerator}", "a losing hand is simply left out", code="odds.negative"
            )
        if self.denominator <= 0:
            raise OddsError(
                f"odds '{self}' divide by zero", "the second number must be at least 1", code="odds.zero-denominator"
            )
        if self.wording is OddsWording.FOR and self.numerator < self.denominator:
            raise OddsError(
                f"'{self}' returns less than the stake, so a win would lose money",
                "'N for M' includes the stake: N must be at least M",
                code="odds.for-below-stake",
            )

    @classmethod
    def parse(cls, value: object) -> Odds:
        """Read odds as a paytable writes them. Raises :class:`OddsError` (a ``ValueError``) saying why not."""
        if isinstance(value, float):
            raise OddsError(f"odds must be exact, not the decimal number {value!r}", ODDS_HINT, code="odds.float")
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise OddsError(f"odds must be a whole number or text, got {describe(value)}", ODDS_HINT, code="odds.type")
        if isinstance(value, int):
            return cls(value)
        match = ODDS_PATTERN.fullmatch(value)
        if match is None:
            raise OddsError(
                f"cannot read odds {_short(value)}", "write N, 'N to M' or 'N for M'", code="odds.unreadable"
            )
        return cls(int(match[1]), int(match[3]), OddsWording(match[2]))

    @property
    def net(self) -> Fraction:
        """What a winning unit bet gains, the stake aside."""
        ratio = Fraction(self.numerator, self.denominator)
        return ratio - 1 if self.wording is OddsWording.FOR else ratio

    def returned(self, *, stake: Fraction, meter: Fraction) -> Fraction:  # noqa: ARG002  (odds read neither)
        return 1 + self.net

    def won(self, bet: Fraction | int, *, meter: Fraction | None) -> Fraction:  # noqa: ARG002
        return bet * self.net

    def can_win(self, stake: Fraction | None) -> bool:  # noqa: ARG002
        return self.net > 0

    def words(self, money: Money) -> str:  # noqa: ARG002
        """As a regulator wants them: "X to 1" wording; a 'for' row is restated and flagged."""
        if self.wording is OddsWording.FOR:
            return f"{self.to_one_text} (written '{self}')"
        return str(self)

    @property
    def to_one_text(self) -> str:
        """The same pay in "to" wording: ``"1000 to 1"``, ``"3 to 2"``."""
        return net_odds_text(self.net)

    def canonical(self) -> int | str:
        """How the canonical paytable writes these odds: an int for "N to 1", else the text."""
        if self.wording is OddsWording.TO and self.denominator == 1:
            return self.numerator
        return str(self)

    def __str__(self) -> str:
        return f"{self.numerator} {self.wording} {self.denominator}"
