"""Risk figures of one wager from the exact distribution of its net result: how long its edge takes to show, the
distribution of a session's result and the risk of ruin of a bankroll. Pure, no I/O.

Per unit of the initial wager, X the net result of one round (:class:`~trey.engine.stats.NetResult`), S_N the sum
of N independent rounds:

- **N0** = Var[X] / E[X]² = (SD / edge)², exact: the rounds after which the expected result equals one standard
  deviation of the result (Jacobson's "N0"); None when E[X] = 0.
- **desirability index** DI = 1000 × E[X] / SD (Jacobson's convention, with the player's sign: negative for a
  house-favourable bet; it ranks advantage plays, and N0 = 10⁶ / DI²). Irrational: 40-digit decimals.
- **most likely outcome** of one round (exact) and of N rounds (the mode of S_N).
- **the distribution of S_N**: every outcome is low + step × k (k an integer, step the gcd of the differences), so
  S_N = N × low + step × K and K's distribution is the N-th power of a polynomial with integer coefficients.
  *Exact* while the work is small (:data:`EXACT_BITS`): the power is taken on one Python integer (Kronecker
  substitution: the coefficients packed ``b`` bits apart, ``b`` more than the bits of cycle^N, so none
  overlaps). *Numerical* beyond, up to :data:`NUMERIC_POINTS` lattice points: one FFT, the characteristic function
  raised to the N-th power, one inverse FFT, in float64; the error is bounded a priori following Higham (*Accuracy
  and Stability of Numerical Algorithms*, 2002, Thm 24.2, η = 5u for the FFT): every probability is within
  ((N + 1) × 5 log₂M + 2N) × u of the true one (u = 2⁻⁵³, M the FFT's length), a sum of n of them within √n times
  that. Beyond :data:`NUMERIC_POINTS`, refused (no input chooses unbounded work).
- **risk of ruin within N rounds** of a bankroll of B units: the probability that the running result falls to −B
  or below (the bankroll is gone) at the end of some round 1..N. Dynamic programming over the capital, in lattice
  units of the gcd g of the outcomes; capital above N × (largest loss) cannot be ruined in what remains and is
  dropped. *Exact* (integers, over cycle^N) while small (:data:`EXACT_RUIN_WORK`); *numerical* (float64) up to
  :data:`NUMERIC_RUIN_WORK`: every step adds non-negative products, so the result's relative error is at most
  gamma_n = n u / (1 − n u) with n = N × (2k + 2) + L + 2, k the number of outcomes and L the largest loss in
  lattice units (each entry a sum of at most k rounded products of rounded probabilities, every round; the ruined
  mass a sum of N × k of them, each a sum of at most L entries: Higham, §3.1) — a proven bound.
- **risk of ruin without a limit**: exactly 1 when E[X] ≤ 0 (and some outcome loses); 0 when no outcome loses.
  Otherwise Lundberg's bounds, proven: with R > 0 the root of E[e^(−R X)] = 1 (the adjustment coefficient,
  bracketed by bisection in 50-digit decimals), e^(−R (B + L)) ≤ ψ(B) ≤ e^(−R B), L the largest loss (the
  martingale e^(−R S_n) stopped at ruin, where the overshoot is less than L). And the diffusion approximation
  ψ(B) ≈ exp(−2 E[X] B / Var[X]), named as an approximation, neither bound.
  Sharper, the **lattice bounds** (Feller's, the W-unlimited case of those Ethier and Khoshnevisan start from:
  "Bounds on gambler's ruin probabilities in terms of moments", Methodology and Computing in Applied Probability
  4 (2002) 55–68, §1, with X in [−nu, µ] and rho0 the root in (0, 1) of E[rho^X] = 1): in units of the gcd g of the
  outcomes, b = ceil(B / g) the bankroll and nu = L / g the largest loss, rho = e^(−R g) is that root, and the bounded
  martingale rho^(capital) stopped at ruin, where the capital lies in [1 − nu, 0], gives
  rho^(b + nu − 1) ≤ ψ(B) ≤ rho^b — equal for nu = 1 (the ±1 coin's (q/p)^B exactly), and tighter than
  Lundberg's on both sides. Their moment bounds on rho0 itself are not used: R is bracketed by bisection, which is
  tighter.
- **a session too long to count** (beyond :data:`NUMERIC_POINTS`): the **normal approximation** of S_N, with its
  error proven by the Berry–Esseen theorem for i.i.d. rounds: sup_x |P(S_N ≤ x) − Phi((x − N mean) / (sd sqrt N))|
  ≤ C rho / (sd³ sqrt N), rho = E|X − mean|³ exact, C = 0.4748 (I. Shevtsova, "On the absolute constants in the
  Berry–Esseen type inequalities for identically distributed summands", 2011). Every chance is given ± that error,
  and each quantile as the bracket of the normal law's quantiles at p ∓ the error (where the true one lies). The
  ruin within N rounds is bounded below by the chance of ending B down (ending there is being ruined on the way):
  its normal figure less the error.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from functools import reduce

import numpy as np
import numpy.typing as npt

from trey.core.numbers import sqrt_decimal, to_decimal
from trey.engine.stats import NetResult, WagerStats, stats_of

FloatArray = npt.NDArray[np.float64]

UNIT_ROUNDOFF = 2.0**-53
FFT_ETA = 5 * UNIT_ROUNDOFF  # Higham, Thm 24.2: the FFT's error constant with accurate twiddle factors

MAX_ROUNDS = 10_000_000  # rounds of a session, at most
# The exact N-round distribution while (lattice points) × (bits of each coefficient) stays under this: one integer
# of that many bits, raised to the N-th power by Python's (Karatsuba) multiplication.
EXACT_BITS = 1 << 22
NUMERIC_POINTS = 1 << 22  # the numerical N-round distribution up to this many lattice points (N × span + 1)
# Risk of ruin within N rounds: exact while (rounds × capital states × outcomes × 64-bit words of a count) stays under
# EXACT_RUIN_WORK, numerical while (rounds × states × outcomes) stays under NUMERIC_RUIN_WORK.
EXACT_RUIN_WORK = 100_000_000
NUMERIC_RUIN_WORK = 2_000_000_000

_DECIMALS = Context(prec=50)


class RiskBoundError(ValueError):
    """The figure asked for needs more work than the stated bound allows."""


def _reduced(distribution: Iterable[NetResult]) -> tuple[tuple[Fraction, int], ...]:
    """The distribution's (net, count) pairs, counts divided by their gcd (the probabilities unchanged)."""
    pairs = tuple((r.net, r.combinations) for r in distribution if r.combinations)
    if not pairs:
        raise ValueError("a distribution needs at least one deal")
    common = reduce(math.gcd, (c for _, c in pairs))
    return tuple(sorted((net, c // common) for net, c in pairs))


def _fraction_gcd(values: Iterable[Fraction]) -> Fraction:
    """The largest g with every value an integer multiple of g (0 for no non-zero value)."""
    g = Fraction(0)
    for v in values:
        if v:
            v = abs(v)
            g = (
                v
                if not g
                else Fraction(
                    math.gcd(v.numerator * g.denominator, g.numerator * v.denominator), v.denominator * g.denominator
                )
            )
    return g


@dataclass(frozen=True)
class Lattice:
    """A distribution on the lattice ``low + step × k``, k = 0..span: ``weights[k]`` integers adding to ``total``."""

    low: Fraction
    step: Fraction  # 1 when there is one outcome only
    weights: tuple[int, ...]
    total: int

    @property
    def span(self) -> int:
        return len(self.weights) - 1

    @classmethod
    def of(cls, distribution: Iterable[NetResult]) -> Lattice:
        pairs = _reduced(distribution)
        low = pairs[0][0]
        step = _fraction_gcd(net - low for net, _ in pairs) or Fraction(1)
        weights = [0] * (int((pairs[-1][0] - low) / step) + 1)
        for net, count in pairs:
            weights[int((net - low) / step)] += count
        return cls(low, step, tuple(weights), sum(weights))


@dataclass(frozen=True)
class RiskFigures:
    """The figures of one round: the player's edge (E[X]), N0, the desirability index and the most likely
    outcomes (every outcome of the largest probability)."""

    stats: WagerStats
    n0: Fraction | None
    desirability_index: Decimal
    most_likely: tuple[NetResult, ...]

    @property
    def most_likely_probability(self) -> Fraction:
        return Fraction(self.most_likely[0].combinations, self.stats.cycle)


def rounds_to_show(variance: Fraction, edge: Fraction) -> Fraction | None:
    """N0 = (SD / edge)² = Var / edge², exact: the rounds after which an edge equals one standard deviation of the
    result; None for no edge (it never shows)."""
    return variance / (edge * edge) if edge else None


def n0(stats: WagerStats) -> Fraction | None:
    """(SD / edge)² = Var / E², exact; None when the mean is 0 (the edge never shows)."""
    return rounds_to_show(stats.variance, stats.mean)


def desirability_index(stats: WagerStats) -> Decimal:
    """1000 × E[X] / SD, the player's sign (negative for a house-favourable bet); 0 for a certain result."""
    if not stats.variance:
        return Decimal(0)
    return _DECIMALS.divide(to_decimal(1000 * stats.mean), sqrt_decimal(stats.variance))


def most_likely(distribution: Iterable[NetResult]) -> tuple[NetResult, ...]:
    """The outcomes of the largest probability, lowest first (usually one)."""
    results = [r for r in distribution if r.combinations]
    top = max(r.combinations for r in results)
    return tuple(sorted((r for r in results if r.combinations == top), key=lambda r: r.net))


def risk_figures(distribution: Sequence[NetResult]) -> RiskFigures:
    """N0, the desirability index and the most likely outcome of one round, exactly."""
    stats = stats_of(distribution)
    return RiskFigures(stats, n0(stats), desirability_index(stats), most_likely(distribution))


# --- the distribution after N rounds -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundsDistribution:
    """S_N, the result of N rounds: P(S_N = low + step × k) for k = 0..len-1. Exact (``counts`` over ``total``) or
    numerical (``floats``, each within ``point_error`` of the true probability)."""

    rounds: int
    low: Fraction
    step: Fraction
    counts: tuple[int, ...] | None
    total: int
    floats: FloatArray | None
    point_error: float  # 0 when exact

    @property
    def exact(self) -> bool:
        return self.counts is not None

    @property
    def points(self) -> int:
        return len(self.counts) if self.counts is not None else len(self.floats)  # type: ignore[arg-type]

    def value(self, k: int) -> Fraction:
        return self.low + self.step * k

    @property
    def cdf_error(self) -> float:
        """A bound on the error of any probability summed over lattice points (√points × each point's)."""
        return 0.0 if self.exact else self.point_error * math.sqrt(self.points) + self.points * UNIT_ROUNDOFF

    def probability(self, k: int) -> Fraction | float:
        if self.counts is not None:
            return Fraction(self.counts[k], self.total)
        assert self.floats is not None
        return float(self.floats[k])

    def _index_below(self, x: Fraction) -> int:
        """How many lattice points lie strictly below x."""
        k = (x - self.low) / self.step
        below = math.ceil(k)
        return min(max(below, 0), self.points)

    def below(self, x: Fraction) -> Fraction | float:
        """P(S_N < x): exact, or a float within :attr:`cdf_error`."""
        n = self._index_below(x)
        if self.counts is not None:
            return Fraction(sum(self.counts[:n]), self.total)
        assert self.floats is not None
        return float(min(max(self.floats[:n].sum(), 0.0), 1.0))

    def at_most(self, x: Fraction) -> Fraction | float:
        """P(S_N ≤ x)."""
        k = math.floor((x - self.low) / self.step)
        return self.below(self.value(k + 1)) if k >= 0 else self.below(self.low)

    def quantile(self, p: Fraction) -> Fraction:
        """The smallest result x with P(S_N ≤ x) ≥ p (0 < p ≤ 1). Numerical: a cumulative probability within
        :attr:`cdf_error` of p may put it one lattice point off."""
        if not 0 < p <= 1:
            raise ValueError("a quantile's probability is in (0, 1]")
        if self.counts is not None:
            target = p * self.total
            running = 0
            for k, c in enumerate(self.counts):
                running += c
                if running >= target:
                    return self.value(k)
            return self.value(self.points - 1)
        assert self.floats is not None
        cumulative = np.cumsum(self.floats)
        k = int(np.searchsorted(cumulative, float(p), side="left"))
        return self.value(min(k, self.points - 1))

    def most_likely(self) -> tuple[Fraction, Fraction | float]:
        """The mode of S_N and its probability (the lowest of equal ones)."""
        if self.counts is not None:
            k = max(range(self.points), key=lambda i: (self.counts[i], -i))  # type: ignore[index]
        else:
            assert self.floats is not None
            k = int(np.argmax(self.floats))
        return self.value(k), self.probability(k)

    def mean(self) -> Fraction | float:
        if self.counts is not None:
            return sum((self.value(k) * c for k, c in enumerate(self.counts)), Fraction(0)) / self.total
        assert self.floats is not None
        ks = np.arange(self.points, dtype=np.float64)
        return float(self.low) + float(self.step) * float((ks * self.floats).sum())


def exact_cost(lattice: Lattice, rounds: int) -> int:
    """The bits of the one integer the exact N-round distribution is computed on."""
    return (rounds * lattice.span + 1) * (rounds * lattice.total.bit_length() + 8)


def rounds_distribution(
    distribution: Iterable[NetResult], rounds: int, *, exact: bool | None = None
) -> RoundsDistribution:
    """The distribution of the result of ``rounds`` independent rounds: exact while :func:`exact_cost` stays
    under :data:`EXACT_BITS` (or when ``exact`` is True), else by FFT up to :data:`NUMERIC_POINTS` lattice points
    (``exact=False`` forces it); :class:`RiskBoundError` beyond."""
    if not 1 <= rounds <= MAX_ROUNDS:
        raise RiskBoundError(f"{rounds:,} rounds: give 1 to {MAX_ROUNDS:,}")
    lattice = Lattice.of(distribution)
    points = rounds * lattice.span + 1
    want_exact = exact if exact is not None else exact_cost(lattice, rounds) <= EXACT_BITS
    if want_exact:
        if exact_cost(lattice, rounds) > 8 * EXACT_BITS:
            raise RiskBoundError(
                f"the exact distribution of {rounds:,} rounds needs {exact_cost(lattice, rounds):,} bits"
            )
        counts = _power_exact(lattice.weights, rounds)
        return RoundsDistribution(rounds, rounds * lattice.low, lattice.step, counts, lattice.total**rounds, None, 0.0)
    if points > NUMERIC_POINTS:
        raise RiskBoundError(
            f"{rounds:,} rounds of outcomes {lattice.span:,} steps apart make {points:,} results: at most "
            f"{NUMERIC_POINTS:,} are computed"
        )
    floats, error = _power_fft(lattice, rounds)
    return RoundsDistribution(rounds, rounds * lattice.low, lattice.step, None, lattice.total**rounds, floats, error)


def _power_exact(weights: Sequence[int], rounds: int) -> tuple[int, ...]:
    """The coefficients of (Σ weights[k] x^k)^rounds, exactly: Kronecker substitution on one integer."""
    total = sum(weights)
    width = (rounds * total.bit_length() + 8 + 7) // 8  # bytes per coefficient: more than cycle^N's bits
    packed = int.from_bytes(b"".join(w.to_bytes(width, "little") for w in weights), "little")
    powered = packed**rounds
    points = rounds * (len(weights) - 1) + 1
    data = powered.to_bytes(points * width, "little")
    return tuple(int.from_bytes(data[k * width : (k + 1) * width], "little") for k in range(points))


def fft_point_error(rounds: int, length: int) -> float:
    """The a priori bound on each probability of the FFT's N-round distribution (module docstring)."""
    log_m = math.log2(length)
    return ((rounds + 1) * 5 * log_m + 2 * rounds) * UNIT_ROUNDOFF * 1.01  # 1.01: second-order terms


def _power_fft(lattice: Lattice, rounds: int) -> tuple[FloatArray, float]:
    points = rounds * lattice.span + 1
    length = 1 << max(1, (points - 1).bit_length())
    p = np.zeros(length, dtype=np.float64)
    p[: len(lattice.weights)] = [w / lattice.total for w in lattice.weights]
    phi = np.fft.rfft(p)
    result = np.fft.irfft(phi**rounds, n=length)[:points]
    return np.clip(result, 0.0, 1.0), fft_point_error(rounds, length)


# --- risk of ruin -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuinWithin:
    """P(the running result falls to −bankroll or below within ``rounds``): exact (a Fraction) or a float within
    ``relative_error`` × itself."""

    bankroll: Fraction
    rounds: int
    probability: Fraction | float
    relative_error: float  # 0 when exact

    @property
    def exact(self) -> bool:
        return isinstance(self.probability, Fraction)


def _ruin_units(distribution: Iterable[NetResult], bankroll: Fraction) -> tuple[list[int], list[int], int, int]:
    """Each outcome in units of the gcd g of the outcomes (steps), its weight, the starting capital ceil(B / g)
    (ruined at 0 or below) and the reduced total."""
    pairs = _reduced(distribution)
    g = _fraction_gcd(net for net, _ in pairs) or Fraction(1)
    steps = [int(net / g) for net, _ in pairs]
    weights = [c for _, c in pairs]
    return steps, weights, math.ceil(bankroll / g), sum(weights)


def ruin_work(distribution: Iterable[NetResult], bankroll: Fraction, rounds: int) -> tuple[int, int]:
    """(numerical work, exact work) of :func:`ruin_within`, in the units of the bounds."""
    steps, _, _, total = _ruin_units(distribution, bankroll)
    states = rounds * max(0, -min(steps))  # the capital levels the dynamic programme keeps
    work = rounds * max(states, 1) * len(steps)
    return work, work * max(1, (rounds * total.bit_length()) // 64)


def ruin_within(
    distribution: Iterable[NetResult], bankroll: Fraction, rounds: int, *, exact: bool | None = None
) -> RuinWithin:
    """The risk of ruin of ``bankroll`` units within ``rounds`` rounds (module docstring): exact while small, else
    float64 with a proven relative error; :class:`RiskBoundError` beyond :data:`NUMERIC_RUIN_WORK`."""
    if bankroll <= 0:
        raise ValueError("a bankroll is more than 0")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise RiskBoundError(f"{rounds:,} rounds: give 1 to {MAX_ROUNDS:,}")
    distribution = tuple(distribution)
    steps, weights, start, total = _ruin_units(distribution, bankroll)
    loss = max(0, -min(steps))
    if start > rounds * loss:  # cannot lose that much in so few rounds
        return RuinWithin(bankroll, rounds, Fraction(0), 0.0)
    numeric_work, exact_work = ruin_work(distribution, bankroll, rounds)
    want_exact = exact if exact is not None else exact_work <= EXACT_RUIN_WORK
    if want_exact and exact_work > 16 * EXACT_RUIN_WORK:
        raise RiskBoundError(f"the exact risk of ruin needs {exact_work:,} word operations")
    if not want_exact and numeric_work > NUMERIC_RUIN_WORK:
        raise RiskBoundError(
            f"a bankroll of {bankroll} over {rounds:,} rounds needs {numeric_work:,} steps: at most "
            f"{NUMERIC_RUIN_WORK:,} are computed"
        )
    cap = rounds * loss  # capital above (rounds left) × loss is safe: above cap, dropped
    if want_exact:
        return RuinWithin(bankroll, rounds, _ruin_exact(steps, weights, start, cap, rounds, total), 0.0)
    n = rounds * (2 * len(steps) + 2) + loss + 2
    gamma = n * UNIT_ROUNDOFF / (1 - n * UNIT_ROUNDOFF)
    return RuinWithin(bankroll, rounds, _ruin_float(steps, weights, start, cap, rounds, total), gamma)


def _ruin_exact(steps: list[int], weights: list[int], start: int, cap: int, rounds: int, total: int) -> Fraction:
    # mass[c] for capital c = 1..cap (index c); sequences weighted by their counts, over total^t after t rounds.
    mass: npt.NDArray[np.object_] = np.zeros(cap + 1, dtype=object)
    mass[start] = 1
    ruined = 0
    for t in range(rounds):
        new: npt.NDArray[np.object_] = np.zeros(cap + 1, dtype=object)
        for s, w in zip(steps, weights, strict=True):
            # from capital c to c + s: targets 1..cap kept, <= 0 ruined, > cap safe
            lo_src, hi_src = max(1, 1 - s), min(cap, cap - s)
            if lo_src <= hi_src:
                new[lo_src + s : hi_src + s + 1] += mass[lo_src : hi_src + 1] * w
            if s < 0:
                ruin_hi = min(cap, -s)
                if ruin_hi >= 1:
                    ruined += int(sum(mass[1 : ruin_hi + 1])) * w * total ** (rounds - t - 1)
        mass = new
    return Fraction(ruined, total**rounds)


def _ruin_float(steps: list[int], weights: list[int], start: int, cap: int, rounds: int, total: int) -> float:
    probabilities = [w / total for w in weights]
    mass = np.zeros(cap + 1, dtype=np.float64)
    mass[start] = 1.0
    ruined = 0.0
    for _ in range(rounds):
        new = np.zeros(cap + 1, dtype=np.float64)
        for s, p in zip(steps, probabilities, strict=True):
            lo_src, hi_src = max(1, 1 - s), min(cap, cap - s)
            if lo_src <= hi_src:
                new[lo_src + s : hi_src + s + 1] += mass[lo_src : hi_src + 1] * p
            if s < 0:
                ruin_hi = min(cap, -s)
                if ruin_hi >= 1:
                    ruined += float(mass[1 : ruin_hi + 1].sum()) * p
        mass = new
    return min(ruined, 1.0)


@dataclass(frozen=True)
class EventualRuin:
    """The risk of ruin of ``bankroll`` units without a limit on the rounds. ``exact`` when it is known exactly
    (1 for an edge ≤ 0, 0 when nothing loses); else Lundberg's proven ``lower`` ≤ ψ ≤ ``upper``, from the
    adjustment coefficient bracketed in [``exponent_low``, ``exponent_high``]; the lattice bounds ``lattice_lower``
    ≤ ψ ≤ ``lattice_upper`` (proven, sharper: the module's docstring) from the same bracket; ``diffusion`` is the
    diffusion approximation exp(−2 E[X] B / Var[X]), neither bound."""

    bankroll: Fraction
    exact: Fraction | None
    exponent_low: Decimal | None
    exponent_high: Decimal | None
    lower: Decimal | None
    upper: Decimal | None
    diffusion: Decimal | None
    lattice_lower: Decimal | None = None
    lattice_upper: Decimal | None = None


def adjustment_coefficient(distribution: Iterable[NetResult]) -> tuple[Decimal, Decimal]:
    """[low, high] around R > 0 with E[e^(−R X)] = 1, for a distribution of positive mean with a losing outcome:
    bisection on the convex function in 50-digit decimals, to 40 significant digits."""
    with localcontext(_DECIMALS):
        return _bisect(_reduced(distribution))


def _bisect(pairs: tuple[tuple[Fraction, int], ...]) -> tuple[Decimal, Decimal]:
    total = sum(c for _, c in pairs)
    terms = [(to_decimal(net), Decimal(c) / Decimal(total)) for net, c in pairs]

    def excess(r: Decimal) -> Decimal:
        return sum(((p * (-r * x).exp(_DECIMALS)) for x, p in terms), Decimal(0)) - 1

    high = Decimal(1)
    while excess(high) <= 0:
        high *= 2
    low = Decimal(0)
    # excess < 0 on (0, R), > 0 beyond: keep low in the first part, high in the second.
    for _ in range(200):
        middle = (low + high) / 2
        if excess(middle) < 0:
            low = middle
        else:
            high = middle
        if high - low <= high * Decimal("1e-40"):
            break
    return low, high


def eventual_ruin(distribution: Iterable[NetResult], bankroll: Fraction) -> EventualRuin:
    """The risk of ruin of ``bankroll`` units without a limit (module docstring)."""
    if bankroll <= 0:
        raise ValueError("a bankroll is more than 0")
    results = tuple(r for r in distribution if r.combinations)
    stats = stats_of(results)
    worst = min(r.net for r in results)
    if worst >= 0:
        return EventualRuin(bankroll, Fraction(0), None, None, None, None, None)
    if stats.mean <= 0:
        return EventualRuin(bankroll, Fraction(1), None, None, None, None, None)
    low, high = adjustment_coefficient(results)
    b = to_decimal(bankroll)
    upper = (-low * b).exp(_DECIMALS)
    lower = (-high * (b + to_decimal(-worst))).exp(_DECIMALS)
    diffusion = (to_decimal(-2 * stats.mean * bankroll / stats.variance)).exp(_DECIMALS)
    # The lattice bounds: capital in units of g, ruined at 0 or below, from ceil(B / g), never below 1 - nu.
    steps, _, start, _ = _ruin_units(results, bankroll)
    unit = to_decimal(_fraction_gcd(r.net for r in results) or Fraction(1))
    with localcontext(_DECIMALS):
        lattice_upper = (-low * unit * start).exp()
        lattice_lower = (-high * unit * (start - min(steps) - 1)).exp()
    lattice_upper = min(lattice_upper, Decimal(1))
    upper = min(upper, Decimal(1))
    return EventualRuin(bankroll, None, low, high, lower, upper, diffusion, lattice_lower, lattice_upper)


@dataclass(frozen=True)
class HoldRange:
    """Where the realised hold (the house's win ÷ the initial wagers) of N rounds falls at ``confidence``: between
    ``low`` and ``high`` in at least that share of sessions, from the quantiles of S_N (exact or numerical)."""

    rounds: int
    confidence: Fraction
    low: Fraction
    high: Fraction
    exact: bool


def hold_range(session: RoundsDistribution, confidence: Fraction) -> HoldRange:
    """The central range of the hold −S_N / N: S_N between its (1 − c)/2 and (1 + c)/2 quantiles, which holds with
    probability at least c (exactly; numerically, up to the distribution's :attr:`~RoundsDistribution.cdf_error`)."""
    low_result = session.quantile((1 - confidence) / 2)
    high_result = session.quantile((1 + confidence) / 2)
    n = session.rounds
    return HoldRange(n, confidence, -high_result / n, -low_result / n, session.exact)


BERRY_ESSEEN = 0.4748  # Shevtsova (2011): the Berry–Esseen constant for identically distributed summands


def normal_cdf(z: float) -> float:
    """Phi(z), the standard normal law's distribution function."""
    return 0.5 * math.erfc(-z / math.sqrt(2))


def normal_upper_quantile(q: float) -> float:
    """The z above which the standard normal law leaves ``q`` (0 < q ≤ 1/2), by bisection of the upper tail itself:
    1 − q would lose a q below 1e-16 in float (to 1e-12 in z)."""
    low, high = 0.0, 40.0
    for _ in range(200):
        mid = (low + high) / 2
        if 0.5 * math.erfc(mid / math.sqrt(2)) > q:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def normal_quantile(p: float) -> float:
    """The inverse of Phi at p, 0 < p < 1: from the nearer tail."""
    return -normal_upper_quantile(p) if p < 0.5 else normal_upper_quantile(1 - p)


@dataclass(frozen=True)
class NormalSession:
    """The result of ``rounds`` rounds by the normal approximation, every chance within ``error`` of the true one
    (Berry–Esseen, see the module): for a session too long to count."""

    rounds: int
    mean: float  # of one round
    sd: float  # of one round
    error: float  # C rho / (sd³ √N), the bound on every chance

    def _z(self, x: float) -> float:
        return (x - self.rounds * self.mean) / (self.sd * math.sqrt(self.rounds))

    def at_most(self, x: Fraction) -> float:
        """P(S_N ≤ x), within :attr:`error` (as P(S_N < x): the bound holds for the left limits too)."""
        return normal_cdf(self._z(float(x)))

    def quantile_bracket(self, p: Fraction) -> tuple[float | None, float | None]:
        """Where the true p-quantile lies: between the normal law's quantiles at p − error and p + error (None:
        beyond what the error leaves of (0, 1))."""
        spread = self.sd * math.sqrt(self.rounds)
        low, high = float(p) - self.error, float(p) + self.error
        at = self.rounds * self.mean
        return (
            at + spread * normal_quantile(low) if low > 0 else None,
            at + spread * normal_quantile(high) if high < 1 else None,
        )


def normal_session(distribution: Sequence[NetResult], rounds: int) -> NormalSession:
    """The normal approximation of a session of ``rounds`` rounds and its Berry–Esseen error (rho counted exactly)."""
    stats = stats_of(distribution)
    mean = stats.mean
    total = sum(r.combinations for r in distribution)
    third = sum((abs(r.net - mean) ** 3 * r.combinations for r in distribution), Fraction(0)) / total
    sd = math.sqrt(stats.variance)
    error = BERRY_ESSEEN * float(third) / (sd**3 * math.sqrt(rounds))
    return NormalSession(rounds, float(mean), sd, min(1.0, error))
