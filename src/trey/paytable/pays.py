"""The pay kinds trey ships (see :mod:`trey.paytable.pay_kind` for what a kind is, and its registry):

- :class:`~trey.paytable.odds.Odds` — "40", "3 to 2", "1001 for 1": a multiple of the bet, the stake returned besides
  ("to") or included ("for");
- :class:`Amount` — a fixed amount of money, paid *for* the bet's fixed stake (the stake is not returned besides);
- :class:`MeterShare` — a share of a progressive meter, also paid for the stake.

Every pay is exact: amounts are whole or decimal text ("2.50"), shares are percentages ("10%", "12.5%") or
fractions ("1/10"); floats are refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from trey.paytable.odds import ODDS_HINT, OddsError, describe
from trey.paytable.pay_kind import PAY_KINDS, Money, PayKind, keyed_examples, keyed_forms, pay_kind

PayError = OddsError  # what is wrong with a pay: message, hint and a stable code

AMOUNT_HINT = "write a whole number such as 500, or text with at most two decimals such as '2.50'"
SHARE_HINT = "write a percentage such as '100%' or '12.5%', or a fraction such as '1/10'"
MAX_AMOUNT = 10**12
# What a file may write, stated once (the paytable schema's patterns are generated from these).
DECIMAL_PATTERN = re.compile(r"(0|[1-9][0-9]{0,12})(\.[0-9]{1,2})?")
PERCENT_PATTERN = re.compile(r"(0|[1-9][0-9]{0,2})(\.[0-9]{1,6})?%")
FRACTION_PATTERN = re.compile(r"([0-9]{1,9})/([1-9][0-9]{0,8})")


@pay_kind
@dataclass(frozen=True)
class Amount(PayKind):
    """A fixed amount paid for the stake."""

    key: ClassVar[str | None] = "amount"
    schema: ClassVar[dict[str, Any]] = {
        "$ref": "#/$defs/money",
        "title": "Amount",
        "description": "The amount paid for the stake.",
    }
    example: ClassVar[str] = "{amount: 500}"
    summary: ClassVar[str] = "{amount: 500} (a fixed amount paid for the bet's stake, which is not returned besides)"
    scales_with_bet: ClassVar[bool] = False

    amount: Fraction

    def __post_init__(self) -> None:
        if self.amount < 0 or self.amount > MAX_AMOUNT:
            raise PayError(f"amount {self.amount} is out of range", AMOUNT_HINT, code="pay.amount")

    @classmethod
    def parse(cls, value: object) -> Amount:
        return cls(parse_money(value))

    def returned(self, *, stake: Fraction, meter: Fraction) -> Fraction:  # noqa: ARG002
        return self.amount / stake

    def won(self, bet: Fraction | int, *, meter: Fraction | None) -> Fraction:  # noqa: ARG002
        return self.amount

    def can_win(self, stake: Fraction | None) -> bool:
        return stake is not None and self.amount > stake

    def words(self, money: Money) -> str:
        return f"{money(self.amount)} for the bet"

    def canonical(self) -> dict[str, int | str]:
        return {"amount": exact_number_text(self.amount)}

    def __str__(self) -> str:
        return str(exact_number_text(self.amount))


@pay_kind
@dataclass(frozen=True)
class MeterShare(PayKind):
    """A share of the progressive meter (1 = all of it: the meter is then reset)."""

    key: ClassVar[str | None] = "meter"
    schema: ClassVar[dict[str, Any]] = {
        "$ref": "#/$defs/share",
        "title": "Meter share",
        "description": "The share of the meter paid: 100% pays it all and resets it; a smaller share leaves the rest "
        "on it.",
    }
    example: ClassVar[str] = "{meter: '100%'}"
    summary: ClassVar[str] = "{meter: '100%'} (a share of the progressive meter, paid for the stake)"
    scales_with_bet: ClassVar[bool] = False

    share: Fraction

    def __post_init__(self) -> None:
        if not 0 < self.share <= 1:
            raise PayError(
                f"a meter share of {percent_text_exact(self.share)} is not between 0% and 100%",
                "a row pays at most the whole meter: 100%",
                code="pay.meter-share-range",
            )

    @classmethod
    def parse(cls, value: object) -> MeterShare:
        return cls(parse_share(value, "meter share"))

    @property
    def meter_share(self) -> Fraction:
        return self.share

    def returned(self, *, stake: Fraction, meter: Fraction) -> Fraction:
        return self.share * meter / stake

    def won(self, bet: Fraction | int, *, meter: Fraction | None) -> Fraction:  # noqa: ARG002
        if meter is None:
            raise ValueError("a meter share needs the meter's value")
        return self.share * meter

    def can_win(self, stake: Fraction | None) -> bool:  # noqa: ARG002
        return True  # the meter grows with every stake

    def words(self, money: Money) -> str:  # noqa: ARG002
        return f"{percent_text_exact(self.share)} of the meter"

    def canonical(self) -> dict[str, str]:
        return {"meter": percent_text_exact(self.share)}

    def __str__(self) -> str:
        return f"{percent_text_exact(self.share)} of the meter"


Pay = PayKind


def exact_number_text(value: Fraction) -> int | str:
    """``500`` or ``"2.5"``: an int when whole, else the exact decimal text (amounts have at most 2 decimals)."""
    if value.denominator == 1:
        return int(value)
    text = f"{float(value):.2f}".rstrip("0")
    if Fraction(text) != value:
        return f"{value.numerator}/{value.denominator}"
    return text


def percent_text_exact(share: Fraction) -> str:
    """``"100%"``, ``"12.5%"``; a share with no short exact percentage as a fraction, ``"1/3"``."""
    percent = share * 100
    for places in range(7):
        if (percent * 10**places).denominator == 1:
            return f"{float(percent):.{places}f}%"
    return f"{share.numerator}/{share.denominator}"


def parse_share(value: object, what: str = "share") -> Fraction:
    """``"10%"``, ``"12.5%"``, ``"1/10"`` → an exact Fraction. Raises :class:`PayError`."""
    if isinstance(value, float):
        raise PayError(f"a {what} must be exact, not the decimal number {value!r}", SHARE_HINT, code="pay.float")
    if isinstance(value, str):
        text = value.strip()
        if PERCENT_PATTERN.fullmatch(text):
            return Fraction(text[:-1]) / 100
        match = FRACTION_PATTERN.fullmatch(text)
        if match:
            return Fraction(int(match[1]), int(match[2]))
        if re.fullmatch(r"[0-9]+/[0-9]+", text):  # a fraction, but of numbers too long to be a real share
            raise PayError(
                f"the {what} {describe(value)} has a number of more than 9 digits",
                "write each number of the fraction with at most 9 digits, or a percentage such as '12.5%'",
                code="pay.share-too-long",
            )
    raise PayError(f"cannot read the {what} {describe(value)}", SHARE_HINT, code="pay.share")


def parse_money(value: object, what: str = "amount") -> Fraction:
    """``500`` or ``"2.50"`` → an exact Fraction of the currency. Raises :class:`PayError`."""
    if isinstance(value, float):
        raise PayError(f"an {what} must be exact, not the decimal number {value!r}", AMOUNT_HINT, code="pay.float")
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise PayError(f"an {what} cannot be negative: {value}", AMOUNT_HINT, code="pay.negative")
        return Fraction(value)
    if isinstance(value, str) and DECIMAL_PATTERN.fullmatch(value.strip()):
        return Fraction(value.strip())
    raise PayError(f"cannot read the {what} {describe(value)}", AMOUNT_HINT, code="pay.amount")


def parse_pay(value: object) -> Pay:
    """A pay as a file writes it: odds (``40``, ``"3 to 2"``), ``{amount: 500}`` or ``{meter: "100%"}`` — one
    of :data:`~trey.paytable.pay_kind.PAY_KINDS`, told apart by the mapping's one key."""
    keyed = [key for key in PAY_KINDS if key is not None]
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in keyed:
            key = next(iter(value))
            return PAY_KINDS[key].parse(value[key])
        raise PayError(
            f"a pay is odds, {keyed_forms()}, not a mapping of {sorted(value)}",
            f"write 40, '3 to 2', {keyed_examples()}",
            code="pay.type",
        )
    try:
        return PAY_KINDS[None].parse(value)
    except OddsError as exc:
        if exc.code == "odds.type":
            raise PayError(str(exc), f"{ODDS_HINT}, {keyed_examples()}", code="odds.type") from None
        raise
