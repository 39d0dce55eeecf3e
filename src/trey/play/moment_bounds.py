"""The sharpest bounds on P(T_K > X) that one seat's distribution and two seats' joint distribution allow, by
linear programming, each certified exactly (issue 34: a round's payout at a table of K seats).

T_K = Y_1 + ... + Y_K, the seats exchangeable, each Y_i taking the values v of one seat's distribution. For any
f (a number per value) and h (a number per unordered pair of values), g = sum_i f(Y_i) + sum_{i<j} h(Y_i, Y_j) has
the exact mean K E[f(Y)] + C(K, 2) E[h(Y_1, Y_2)], from the counted distributions. If g >= 1{T_K > X} for every
multiset of K values, P(T_K > X) <= E[g]; if g <= 1{T_K > X} for every one, P(T_K > X) >= E[g]. The best such f
and h solve a linear programme over the C(L + K - 1, K) multisets of the L values (11,440 for Ante & Play's ten
values at seven seats); its dual is the largest (smallest) P(T_K > X) of any distribution of K values with the
given one- and two-seat moments.

The programme is solved in floating point (a two-phase simplex over the dual: a tableau, Dantzig's rule, Bland's
after a run of degenerate steps). Its solution is then **certified**, never trusted: f and h are rounded to
multiples of 2**-30; g is evaluated at every multiset exactly, in integers; the largest violation d (the most g
falls below the indicator, for an upper bound) is added to f / K at every value, which raises g by d everywhere;
and the bound is E[g] + d, an exact Fraction. Any f and h, however inaccurate, give a valid bound this way; the
solver only makes it sharp. When the solver fails (it should not), no bound is given and the caller keeps its
others.
"""

from __future__ import annotations

import contextlib
import itertools
import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

SCALE = 2**30
MAX_MULTISETS = 20_000  # 7 seats of at most 10 values: 11,440


def _simplex_max(
    g: npt.NDArray[np.float64], r: npt.NDArray[np.float64], w: npt.NDArray[np.float64]
) -> list[npt.NDArray[np.float64]] | None:
    """For max w.y s.t. G y = r, y >= 0 (r >= 0): the optimal dual vector z = w_B B^-1, as the tableau carries it
    and solved afresh from the final basis (two candidates), or None."""
    m, n = g.shape
    tableau = np.zeros((m + 1, n + m + 1))
    tableau[:m, :n] = g
    tableau[:m, n : n + m] = np.eye(m)
    tableau[:m, -1] = r
    basis = list(range(n, n + m))
    tableau[m, :n] = -g.sum(axis=0)
    tableau[m, -1] = -r.sum()
    tol = 1e-11

    def run(columns: int) -> bool:
        degenerate = 0
        for _ in range(50_000):
            costs = tableau[m, :columns]
            if degenerate > 50:  # Bland's rule: the first improving column, the first tied row
                improving = np.flatnonzero(costs < -tol)
                if not improving.size:
                    return True
                j = int(improving[0])
            else:
                j = int(np.argmin(costs))
                if costs[j] >= -tol:
                    return True
            column = tableau[:m, j]
            positive = column > tol
            if not positive.any():
                return False  # unbounded: cannot happen here (the y sum to 1)
            ratios = np.where(positive, tableau[:m, -1] / np.where(positive, column, 1.0), np.inf)
            best = ratios.min()
            ties = np.flatnonzero(ratios <= best + tol)
            i = int(min(ties, key=lambda row: basis[row]))
            degenerate = degenerate + 1 if best <= tol else 0
            tableau[i] /= tableau[i, j]
            factor = tableau[:, j].copy()
            factor[i] = 0.0
            tableau[:] -= np.outer(factor, tableau[i])
            basis[i] = j
        return False

    if not run(n) or tableau[m, -1] < -1e-9:
        return None
    tableau[m] = 0.0
    tableau[m, :n] = -w
    for row, j in enumerate(basis):
        if j < n and w[j]:
            tableau[m] += w[j] * tableau[row]
    if not run(n):
        return None
    candidates = [tableau[m, n : n + m].copy()]
    # z from the final basis afresh too (the tableau's row carries every pivot's rounding): B^T z = w_B
    full = np.hstack([g, np.eye(m)])
    costs = np.concatenate([w, np.zeros(m)])
    with contextlib.suppress(np.linalg.LinAlgError):
        candidates.append(np.linalg.solve(full[:, basis].T, costs[basis]))
    return candidates


def _independent_rows(g: npt.NDArray[np.float64]) -> list[int]:
    """Rows of ``g`` independent of the ones before them (Gram-Schmidt): the moments of a multiset are linearly
    dependent (the counts add up to K, the pair counts to C(K, 2)), and a redundant equation leaves the simplex an
    ill-conditioned basis."""
    kept: list[int] = []
    basis: list[npt.NDArray[np.float64]] = []
    for i, row in enumerate(g):
        rest = row.copy()
        for q in basis:
            rest -= (q @ rest) * q
        norm = float(np.linalg.norm(rest))
        if norm > 1e-9 * max(1.0, float(np.linalg.norm(row))):
            kept.append(i)
            basis.append(rest / norm)
    return kept


def _multisets(values: list[Fraction], seats: int) -> tuple[npt.NDArray[np.int64], list[Fraction]]:
    """(multisets, L + L (L + 1) / 2): each multiset's count of each value and of each unordered pair of values
    (i <= j: n_i n_j, or C(n_i, 2)); and each multiset's total."""
    size = len(values)
    pairs = [(i, j) for i in range(size) for j in range(i, size)]
    rows, totals = [], []
    for chosen in itertools.combinations_with_replacement(range(size), seats):
        n = [0] * size
        for i in chosen:
            n[i] += 1
        rows.append(n + [n[i] * n[j] if i < j else math.comb(n[i], 2) for i, j in pairs])
        totals.append(sum((values[i] * n[i] for i in range(size)), Fraction(0)))
    return np.array(rows, dtype=np.int64), totals


def moment_bound(
    one_seat: dict[Fraction, Fraction],
    joint: dict[tuple[Fraction, Fraction], Fraction],
    seats: int,
    x: Fraction,
    *,
    upper: bool,
) -> Fraction | None:
    """The certified bound of the module on P(T_K > x) (upper or lower), or None when the programme is too large
    or the solver fails."""
    values = sorted(one_seat)
    size = len(values)
    if math.comb(size + seats - 1, seats) > MAX_MULTISETS:
        return None
    rows, totals = _multisets(values, seats)
    index = {v: i for i, v in enumerate(values)}
    pairs = [(i, j) for i in range(size) for j in range(i, size)]
    pair_index = {p: k for k, p in enumerate(pairs)}
    moments = [seats * one_seat[v] for v in values] + [Fraction(0)] * len(pairs)
    both = math.comb(seats, 2)
    for (a, b), p in joint.items():
        i, j = sorted((index[a], index[b]))
        moments[size + pair_index[(i, j)]] += both * p
    target = np.array([1.0 if t > x else 0.0 for t in totals])
    g = rows.T.astype(np.float64)
    kept = _independent_rows(g)
    found = _simplex_max(g[kept], np.array([float(moments[i]) for i in kept]), target if upper else -target)
    if found is None:
        return None
    indicator = np.array([SCALE if t > x else 0 for t in totals], dtype=object)
    best: Fraction | None = None
    for reduced in found:
        if not np.all(np.isfinite(reduced)) or np.abs(reduced).max() > 1e6:
            continue
        z = np.zeros(len(moments))
        z[kept] = reduced if upper else -reduced
        bound = _certified(rows, z, moments, indicator, upper=upper)
        if best is None or (bound < best if upper else bound > best):
            best = bound
    return best


def _certified(
    rows: npt.NDArray[np.int64],
    z: npt.NDArray[np.float64],
    moments: list[Fraction],
    indicator: npt.NDArray[np.object_],
    *,
    upper: bool,
) -> Fraction:
    """The exact bound that f and h (``z``, rounded to multiples of 1 / SCALE) certify: E[g] moved by g's largest
    violation of the indicator at any multiset (see the module)."""
    scaled = np.round(z * SCALE).astype(np.int64).astype(object)  # exact integers
    g = rows.astype(object) @ scaled  # SCALE * g at every multiset
    slack = (indicator - g) if upper else (g - indicator)
    shift = max(0, int(slack.max()))  # raise (lower) g everywhere by this much
    mean = sum((int(c) * m for c, m in zip(scaled.tolist(), moments, strict=True)), Fraction(0))
    bound = (mean + shift) / SCALE if upper else (mean - shift) / SCALE
    return min(max(bound, Fraction(0)), Fraction(1))
