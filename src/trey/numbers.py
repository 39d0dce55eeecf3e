"""The one rounding rule: exact Fractions become text only here, rounded once, half away from zero.

Square roots (standard deviation, volatility index) are taken from the exact variance in 40-digit decimal
arithmetic and rounded by the same rule, so every printed figure is reproducible to the last digit.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction

_CONTEXT = Context(prec=40, rounding=ROUND_HALF_UP)


def fraction_text(value: Fraction) -> str:
    """Lowest terms: ``"12/5525"``, or ``"40"`` when whole."""
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def to_decimal(value: Fraction) -> Decimal:
    return _CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))


def round_decimal(value: Fraction | Decimal, places: int) -> Decimal:
    exact = to_decimal(value) if isinstance(value, Fraction) else value
    return exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP, context=_CONTEXT)


def sqrt_decimal(value: Fraction) -> Decimal:
    if value < 0:
        raise ValueError("square root of a negative number")
    return to_decimal(value).sqrt(_CONTEXT)


def decimal_text(value: Fraction | Decimal, places: int, *, grouping: bool = False) -> str:
    rounded = round_decimal(value, places)
    if rounded == 0:
        rounded = abs(rounded)  # never print -0.00
    return f"{rounded:,.{places}f}" if grouping else f"{rounded:.{places}f}"


def percent_text(value: Fraction, places: int = 4) -> str:
    """``Fraction(3373, 100000)`` → ``"3.3730%"``."""
    return decimal_text(value * 100, places) + "%"


def rounded_float(value: Fraction | Decimal, places: int) -> float:
    """A float for JSON, from the exact value rounded once."""
    return float(round_decimal(value, places))


def one_in_text(value: Fraction | None, places: int = 2) -> str:
    """``"1 in 460.42"``; "never" when the outcome cannot happen."""
    return "never" if value is None else f"1 in {decimal_text(value, places, grouping=True)}"


CURRENCY_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£", "CAD": "$", "AUD": "$"}


def money_text(amount: Fraction | int, currency: str = "USD") -> str:
    """``$1,000`` or ``$2.50`` (cents only when the amount has them); ``MOP 1,000`` for a currency without a
    symbol here. Rounded once, by the rule above."""
    value = Fraction(amount)
    text = decimal_text(value, 0, grouping=True) if value.denominator == 1 else decimal_text(value, 2, grouping=True)
    if value < 0:
        text = text.removeprefix("-")
    sign = "−" if value < 0 else ""
    symbol = CURRENCY_SYMBOLS.get(currency)
    return f"{sign}{symbol}{text}" if symbol else f"{sign}{currency} {text}"
