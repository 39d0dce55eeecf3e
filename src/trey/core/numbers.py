"""The one rounding rule: exact Fractions become text only here, rounded once, half away from zero.

Square roots (standard deviation, volatility index) are taken from the exact variance in 40-digit decimal
arithmetic and rounded by the same rule, so every printed figure is reproducible to the last digit.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from functools import lru_cache

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


def outward(value: Decimal, places: int, *, up: bool) -> Decimal:
    """``value`` to ``places`` significant digits, rounded away from inside a bound (up for an upper bound)."""
    if value == 0:
        return value
    exponent = value.adjusted() - places + 1
    return value.quantize(Decimal(1).scaleb(exponent), rounding=ROUND_CEILING if up else ROUND_FLOOR)


def one_in_text(value: Fraction | None, places: int = 2) -> str:
    """``"1 in 460.42"``; "never" when the outcome cannot happen."""
    return "never" if value is None else f"1 in {decimal_text(value, places, grouping=True)}"


@dataclass(frozen=True)
class MoneyStyle:
    """How a table writes money: its ISO 4217 currency and its locale's symbol, grouping and decimals (Babel's
    data: "$1,000" in en_US, "1.000 €" in de_DE, "MOP$1,000" in zh_Hant_MO). Whole amounts print without decimals,
    others with two, rounded once by the rule above."""

    currency: str = "USD"
    locale: str = "en_US"

    def _pattern(self, value: Fraction, with_symbol: bool) -> tuple[str, Decimal]:
        from babel import Locale

        data = Locale.parse(self.locale)
        pattern = (data.currency_formats["standard"] if with_symbol else data.decimal_formats[None]).pattern
        pattern = pattern.split(";")[0]
        number = re.search(r"[#0,.]+", pattern)
        assert number is not None
        whole = value.denominator == 1
        # The locale's own grouping (en_IN groups 1,00,000), two decimals or none.
        grouping = number.group().split(".")[0]
        digits = grouping if whole else grouping + ".00"
        return pattern[: number.start()] + digits + pattern[number.end() :], round_decimal(value, 0 if whole else 2)

    @property
    def minor_unit(self) -> Fraction:
        """The currency's smallest unit (CLDR): 1/100 for USD and EUR, 1 for JPY, 1/1000 for KWD."""
        from babel.numbers import get_currency_precision

        return Fraction(1, 10 ** get_currency_precision(self.currency))

    def money(self, amount: Fraction | int) -> str:
        """``$1,000``, ``$7.50``, ``1.000 €``; a negative amount with a minus sign in front. An amount written
        right to left, or with CLDR's bidirectional marks (he_IL, ar_EG), is isolated (U+2068 ... U+2069), so that
        in "3 to 2 × ₪ 7.50 = ₪ 11" the marks of one amount cannot swap it with its neighbours."""
        return _money_text(self, Fraction(amount))

    def amount(self, amount: Fraction | int) -> str:
        """The number alone, grouped as the locale groups: ``1,000``, ``7.50``, ``1.000``."""
        return _amount_text(self, Fraction(amount))


# Babel formats an amount in some 80 µs, and a document or an audit writes the same few amounts thousands of times:
# the text of each (style, amount) is kept (it depends on nothing else).
@lru_cache(maxsize=8192)
def _money_text(style: MoneyStyle, value: Fraction) -> str:
    from babel.numbers import format_currency

    pattern, number = style._pattern(abs(value), with_symbol=True)
    text = format_currency(number, style.currency, format=pattern, locale=style.locale, currency_digits=False)
    return ("−" if value < 0 else "") + isolated(text)  # the sign outside: an isolate would carry it to its end


@lru_cache(maxsize=8192)
def _amount_text(style: MoneyStyle, value: Fraction) -> str:
    from babel.numbers import format_decimal

    pattern, number = style._pattern(abs(value), with_symbol=False)
    return ("−" if value < 0 else "") + format_decimal(number, format=pattern, locale=style.locale)


# Right-to-left letters (Hebrew, Arabic and their presentation forms) and the marks CLDR's patterns carry.
_RIGHT_TO_LEFT = re.compile("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u200e\u200f\u061c]")
FIRST_STRONG_ISOLATE, POP_DIRECTIONAL_ISOLATE = "\u2068", "\u2069"


def isolated(text: str) -> str:
    """``text`` between U+2068 and U+2069 when it has right-to-left letters or bidirectional marks, else as is."""
    if _RIGHT_TO_LEFT.search(text) is None:
        return text
    return FIRST_STRONG_ISOLATE + text + POP_DIRECTIONAL_ISOLATE


def break_even_text(break_even: Fraction | None, reset: Fraction, money: Callable[[Fraction], str]) -> str:
    """A progressive's break-even meter as words: none without meter rows, and no meter (a negative amount) when
    the RTP is above 100% at every meter the game can show (the break-even lies below the reset)."""
    if break_even is None:
        return "none: no meter row"
    if break_even < reset:
        return "none: above 100% at every meter"
    return money(break_even)
