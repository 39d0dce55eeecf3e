"""The Clopper-Pearson interval of a binomial proportion: the exact (binomial, not normal) confidence interval of a
simulated frequency, k of n rounds.

At confidence 1 - a the interval [p_L, p_U] holds every p whose binomial tails at k are both at least a / 2:
P(Bin(n, p_L) >= k) = a / 2 and P(Bin(n, p_U) <= k) = a / 2 (p_L = 0 when k = 0, p_U = 1 when k = n). Its coverage is
at least 1 - a for every p (Clopper and Pearson, Biometrika 26 (1934) 404-413). The tails are regularized incomplete
beta functions, P(Bin(n, p) >= k) = I_p(k, n - k + 1), evaluated in float64 by the continued fraction of Numerical
Recipes (Press et al., 3rd ed., section 6.4, modified Lentz) and solved for p by bisection; the ends are then
widened by one part in 10^9, far more than the evaluation's error, so the printed interval is never narrower than
the exact one.
"""

from __future__ import annotations

import math
from fractions import Fraction

_TINY = 1e-300
_WIDEN = 1e-9


def _continued_fraction(a: float, b: float, x: float) -> float:
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-16:
            return h
    raise ArithmeticError("the incomplete beta function's continued fraction did not converge")


def incomplete_beta(a: float, b: float, x: float) -> float:
    """I_x(a, b), the regularized incomplete beta function (a, b > 0, 0 <= x <= 1)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction(a, b, x) / a
    return 1.0 - front * _continued_fraction(b, a, 1.0 - x) / b


def _solve(tail: float, a: float, b: float) -> float:
    """The p in (0, 1) with I_p(a, b) = tail (I_p increases with p), by bisection to the float's precision."""
    low, high = 0.0, 1.0
    for _ in range(2_000):
        mid = (low + high) / 2
        if mid in (low, high):
            break
        if incomplete_beta(a, b, mid) < tail:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def clopper_pearson(successes: int, trials: int, confidence: Fraction = Fraction(99, 100)) -> tuple[float, float]:
    """The Clopper-Pearson interval (low, high) of ``successes`` in ``trials`` at ``confidence`` (see the module)."""
    if trials < 1 or not 0 <= successes <= trials:
        raise ValueError(f"{successes} successes in {trials} trials")
    if not 0 < confidence < 1:
        raise ValueError(f"a confidence of {confidence}")
    half = float((1 - confidence) / 2)
    k, n = successes, trials
    low = 0.0 if k == 0 else _solve(half, k, n - k + 1) * (1 - _WIDEN)
    high = 1.0 if k == n else min(1.0, _solve(1 - half, k + 1, n - k) * (1 + _WIDEN))
    return low, high
