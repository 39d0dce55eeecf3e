"""Ruin without a limit: the lattice bounds rho^(b + nu − 1) ≤ ψ ≤ rho^b (Feller's, as Ethier and Khoshnevisan 2002 set
them out) against a dynamic programme over a long horizon written here, apart from the engine's: ψ_N, the ruin
within N rounds, rises to ψ, and ψ ≤ ψ_N + E[rho^(capital after N); not ruined] (from each capital left, ruin later is
at most rho^capital, the upper bound checked on its own against ψ_N). Exact for ±1 steps and for walks whose largest
loss is one unit, where the two bounds meet."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

from conftest import standard_protection
from trey.engine.risk import eventual_ruin
from trey.engine.stats import NetResult

COIN = (NetResult(Fraction(-1), 45), NetResult(Fraction(1), 55))
UP_JUMPS = (NetResult(Fraction(-1), 5), NetResult(Fraction(1), 3), NetResult(Fraction(2), 4))  # nu = 1
TWO_DOWN = (
    NetResult(Fraction(-2), 3),
    NetResult(Fraction(-1), 5),
    NetResult(Fraction(1), 6),
    NetResult(Fraction(3), 4),
)
HALVES = (NetResult(Fraction(-1), 3), NetResult(Fraction(-1, 2), 3), NetResult(Fraction(3, 2), 5))  # g = 1/2, nu = 2


def _dp(distribution: tuple[NetResult, ...], bankroll: Fraction, rounds: int, rho_high: float) -> tuple[float, float]:
    """(ψ_N, ψ_N + E[rho^c_N; alive] + the mass dropped above the cap times rho^cap): capital c in units of the gcd,
    ruined at 0 or below, float64 (errors far below the tests' margins)."""
    g = Fraction(0)
    for r in distribution:
        g = (
            Fraction(
                np.gcd(r.net.numerator * g.denominator, g.numerator * r.net.denominator),
                r.net.denominator * g.denominator,
            )
            if g
            else abs(r.net)
        )
    steps = [int(r.net / g) for r in distribution]
    total = sum(r.combinations for r in distribution)
    probabilities = [r.combinations / total for r in distribution]
    start = -(-bankroll // g)
    cap = int(start) + min(rounds * max(steps), 1_000) + 1  # ruin from above the cap: at most rho^cap
    mass = np.zeros(cap + 1)
    mass[int(start)] = 1.0
    ruined = dropped = 0.0
    for _ in range(rounds):
        new = np.zeros(cap + 1)
        for s, p in zip(steps, probabilities, strict=True):
            shifted = np.zeros(cap + 1)
            if s >= 0:
                shifted[s + 1 :] = mass[1 : cap + 1 - s]
                dropped += p * float(mass[cap + 1 - s :].sum()) if s else 0.0
            else:
                shifted[1 : cap + 1 + s] = mass[1 - s :]
                ruined += p * float(mass[1 : 1 - s].sum())
            new += p * shifted
        mass = new
    capital = np.arange(cap + 1)
    alive = float((mass[1:] * rho_high ** capital[1:]).sum()) + dropped * rho_high**cap
    return ruined, ruined + alive


def _rho_high(ruin_exponent_low: Decimal, distribution: tuple[NetResult, ...]) -> float:
    g = min(abs(r.net) for r in distribution)  # (the gcd in these tests: every net a multiple of the smallest)
    return float((-ruin_exponent_low * Decimal(g.numerator) / Decimal(g.denominator)).exp())


def test_the_lattice_bounds_meet_at_the_coins_closed_form() -> None:
    for bankroll in (1, 5, 20):
        ruin = eventual_ruin(COIN, Fraction(bankroll))
        closed = Fraction(45, 55) ** bankroll
        exact = Decimal(closed.numerator) / Decimal(closed.denominator)
        assert ruin.lattice_lower is not None and ruin.lattice_upper is not None
        assert abs(ruin.lattice_upper - exact) < Decimal("1e-25") and abs(ruin.lattice_lower - exact) < Decimal("1e-25")
        assert ruin.lower is not None and ruin.lower < ruin.lattice_lower  # Lundberg's lower: one unit more


@pytest.mark.parametrize(
    ("distribution", "bankroll", "rounds"),
    [
        (UP_JUMPS, Fraction(3), 600),
        (TWO_DOWN, Fraction(4), 800),
        (HALVES, Fraction(5, 2), 600),
        (TWO_DOWN, Fraction(1), 800),
    ],
)
def test_the_lattice_bounds_hold_the_long_horizons_ruin(
    distribution: tuple[NetResult, ...], bankroll: Fraction, rounds: int
) -> None:
    ruin = eventual_ruin(distribution, bankroll)
    assert ruin.lattice_lower is not None and ruin.lattice_upper is not None and ruin.exponent_low is not None
    within, above = _dp(distribution, bankroll, rounds, _rho_high(ruin.exponent_low, distribution))
    assert above - within < 1e-6  # the horizon is long enough to pin ψ down
    assert float(ruin.lattice_lower) <= above + 1e-12 and within <= float(ruin.lattice_upper) + 1e-12
    assert ruin.lower is not None and ruin.upper is not None
    assert (
        ruin.lower <= ruin.lattice_lower <= ruin.lattice_upper <= ruin.upper + Decimal("1e-25")
    )  # (Lundberg in 28 digits)
    if min(r.net for r in distribution) == -min(abs(r.net) for r in distribution):  # nu = 1: the bounds meet
        assert ruin.lattice_upper - ruin.lattice_lower < Decimal("1e-30")
        assert abs(float(ruin.lattice_upper) - within) < 1e-6


def test_the_informed_players_ruin_within_its_lattice_bounds() -> None:
    """The player who sees one dealer card (+3.48%, SD 1.74, lose 2 units at most): 10 units, 1,500 rounds."""
    protection = standard_protection()
    one = next(s for s in protection.scenarios if s.scenario == "one dealer card")
    distribution = tuple(r for r in one.net_results if r.combinations)
    ruin = eventual_ruin(distribution, Fraction(10))
    assert ruin.lattice_lower is not None and ruin.lattice_upper is not None and ruin.exponent_low is not None
    within, above = _dp(distribution, Fraction(10), 1_500, _rho_high(ruin.exponent_low, distribution))
    assert float(ruin.lattice_lower) <= above and within <= float(ruin.lattice_upper)
    assert ruin.lower is not None and ruin.lower < ruin.lattice_lower  # tighter than Lundberg's below
