"""The chi-square distribution's survival function, for the simulator's goodness-of-fit check.

P(X >= x) for X ~ chi-square(k) is the regularised upper incomplete gamma function Q(k/2, x/2), computed by its
power series below a + 1 and by its continued fraction above (Numerical Recipes, 6.2). No SciPy needed.
"""

from __future__ import annotations

import math

_EPSILON = 1e-15
_TINY = 1e-300
_MAX_TERMS = 10_000


def _lower_series(a: float, x: float) -> float:
    """P(a, x) by its series, for x < a + 1."""
    term = total = 1.0 / a
    denominator = a
    for _ in range(_MAX_TERMS):
        denominator += 1
        term *= x / denominator
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    """Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1."""
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < _EPSILON:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def chi_square_sf(statistic: float, degrees_of_freedom: int) -> float:
    """P(X >= statistic) for a chi-square variable with the given degrees of freedom."""
    if degrees_of_freedom < 1:
        raise ValueError("at least one degree of freedom is needed")
    if statistic <= 0:
        return 1.0
    a, x = degrees_of_freedom / 2, statistic / 2
    if x < a + 1:
        return max(0.0, 1.0 - _lower_series(a, x))
    return _upper_fraction(a, x)


def chi_square_cdf(statistic: float, degrees_of_freedom: int) -> float:
    """P(X <= statistic) for a chi-square variable: the lower tail, by its own series where it is small (1 minus
    the survival function would lose it)."""
    if degrees_of_freedom < 1:
        raise ValueError("at least one degree of freedom is needed")
    if statistic <= 0:
        return 0.0
    a, x = degrees_of_freedom / 2, statistic / 2
    if x < a + 1:
        return min(1.0, _lower_series(a, x))
    return max(0.0, 1.0 - _upper_fraction(a, x))


def gamma_sf(shape: float, x: float) -> float:
    """P(X >= x) for a gamma variable of the given shape and scale 1: the regularised upper incomplete gamma
    function Q(shape, x)."""
    if shape <= 0:
        raise ValueError("the shape must be above 0")
    if x <= 0:
        return 1.0
    if x < shape + 1:
        return max(0.0, 1.0 - _lower_series(shape, x))
    return _upper_fraction(shape, x)
