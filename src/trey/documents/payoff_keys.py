"""Payoff keys: how a dealer multiplies a bet in the head (x30 = x3 then add a zero)."""

from __future__ import annotations

from fractions import Fraction

_SMALL = {
    1: "even money",
    2: "double",
    3: "double + the bet",
    4: "double twice",
    5: "add a zero, halve",
    6: "×5 + the bet",
    7: "×5 + double",
    8: "double three times",
    9: "add a zero − the bet",
}


def _zeros(k: int) -> str:
    return "add a zero" if k == 1 else f"add {k} zeros"


def payoff_key(net: Fraction) -> str:
    """The mental arithmetic for a win of ``net`` times the bet."""
    if net.denominator != 1:
        if net == Fraction(3, 2):
            return "the bet + half"
        if net == Fraction(1, 2):
            return "half the bet"
        return f"×{net.numerator} ÷ {net.denominator}"
    n = net.numerator
    if n == 0:
        return "pays nothing"
    if n in _SMALL:
        return _SMALL[n]
    zeros = 0
    while n % 10 == 0:
        n //= 10
        zeros += 1
    if zeros and n == 1:
        return _zeros(zeros)
    if zeros and n < 10:
        return f"×{n}, {_zeros(zeros)}"
    if not zeros and n < 100:
        tens, units = divmod(n, 10)
        head = "add a zero" if tens == 1 else f"×{tens}, add a zero"
        return f"{head} + ×{units}" if units != 1 else f"{head} + the bet"
    return f"×{net.numerator}"
