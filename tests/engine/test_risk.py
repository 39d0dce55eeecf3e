"""Risk figures (trey.engine.risk) against values computed another way: Jacobson's published figures, brute
enumeration of every sequence of rounds, the closed forms of the ±1 gambler's ruin, and a seeded Monte Carlo
written here with a Hoeffding bound (false alarm below one in a billion)."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from conftest import standard_protection
from trey.core.numbers import decimal_text
from trey.engine.risk import (
    RiskBoundError,
    eventual_ruin,
    hold_range,
    risk_figures,
    rounds_distribution,
    ruin_within,
)
from trey.engine.stats import NetResult

TOY = (NetResult(Fraction(-2), 5), NetResult(Fraction(-1), 7), NetResult(Fraction(1, 2), 3), NetResult(Fraction(3), 2))
COIN = (NetResult(Fraction(-1), 45), NetResult(Fraction(1), 55))


def _brute(distribution: tuple[NetResult, ...], rounds: int) -> dict[Fraction, Fraction]:
    """Every sequence of ``rounds`` outcomes, its probability the product of theirs."""
    total = sum(r.combinations for r in distribution)
    found: dict[Fraction, Fraction] = {}
    for sequence in product(distribution, repeat=rounds):
        net = sum((r.net for r in sequence), Fraction(0))
        found[net] = found.get(net, Fraction(0)) + math.prod(Fraction(r.combinations, total) for r in sequence)
    return found


@pytest.mark.parametrize("rounds", [1, 2, 3, 5])
def test_the_exact_convolution_equals_brute_enumeration_and_the_fft_is_within_its_bound(rounds: int) -> None:
    brute = _brute(TOY, rounds)
    exact = rounds_distribution(TOY, rounds, exact=True)
    numeric = rounds_distribution(TOY, rounds, exact=False)
    assert exact.exact and not numeric.exact
    got = {exact.value(k): exact.probability(k) for k in range(exact.points) if exact.counts and exact.counts[k]}
    assert got == brute
    for k in range(numeric.points):
        assert abs(numeric.probability(k) - float(brute.get(numeric.value(k), 0))) <= numeric.point_error
    # P(result < 0), the quantiles and the mode, each from the brute force
    assert exact.below(Fraction(0)) == sum(p for v, p in brute.items() if v < 0)
    assert exact.at_most(Fraction(-2)) == sum(p for v, p in brute.items() if v <= -2)
    median = min(v for v in brute if sum(p for w, p in brute.items() if w <= v) >= Fraction(1, 2))
    assert exact.quantile(Fraction(1, 2)) == median == numeric.quantile(Fraction(1, 2))
    assert exact.most_likely() == max(brute.items(), key=lambda item: (item[1], -item[0]))


def test_the_hold_range_is_made_of_the_quantiles() -> None:
    session = rounds_distribution(TOY, 4, exact=True)
    brute = _brute(TOY, 4)
    r = hold_range(session, Fraction(9, 10))
    inside = sum(p for v, p in brute.items() if -r.high * 4 <= v <= -r.low * 4)
    assert inside >= Fraction(9, 10) and r.exact


def test_one_seen_card_gives_jacobsons_desirability_index_n0_and_most_likely_outcomes() -> None:
    """Jacobson, "Three Card Poker Hole-Card Play: Update #1" (apheat.net, 2015-06-12): one dealer card seen, DI
    19.9966 and the modal outcome "to lose 2 units"; normal play's modal outcome "to lose 1 unit"; N0 = (SD /
    edge)² = (1.7417 / 0.034829)² ≈ 2,501 hands from his rounded figures."""
    protection = standard_protection()
    one = next(s for s in protection.scenarios if s.scenario == "one dealer card")
    informed = risk_figures(one.net_results)
    assert decimal_text(informed.desirability_index, 4) == "19.9966"
    assert [r.net for r in informed.most_likely] == [-2]
    assert informed.n0 == one.stats.variance / one.stats.mean**2
    assert round(informed.n0) == 2501 == round((1.7417 / 0.034829) ** 2)
    ante = protection.analysis.ante_play
    assert ante is not None
    normal = risk_figures(ante.net_results)
    assert [r.net for r in normal.most_likely] == [-1]
    assert normal.desirability_index < 0  # the player's sign: a house-favourable bet
    assert normal.n0 is not None
    assert abs(Decimal(10**6) / normal.desirability_index**2 - Decimal(float(normal.n0))) < Decimal("1e-9")


def _ballot_ruin(p: Fraction, bankroll: int, rounds: int) -> Fraction:
    """±1 steps, win with p: P(first reaching −B at round n) = B/n × C(n, (n+B)/2) q^((n+B)/2) p^((n−B)/2)."""
    q = 1 - p
    return sum(
        (
            Fraction(bankroll, n)
            * math.comb(n, (n + bankroll) // 2)
            * q ** ((n + bankroll) // 2)
            * p ** ((n - bankroll) // 2)
            for n in range(bankroll, rounds + 1)
            if (n + bankroll) % 2 == 0
        ),
        Fraction(0),
    )


@pytest.mark.parametrize(("bankroll", "rounds"), [(1, 1), (3, 10), (5, 40), (7, 60)])
def test_ruin_within_n_rounds_equals_the_gamblers_ruin_closed_form(bankroll: int, rounds: int) -> None:
    exact = ruin_within(COIN, Fraction(bankroll), rounds, exact=True)
    assert exact.probability == _ballot_ruin(Fraction(55, 100), bankroll, rounds)
    numeric = ruin_within(COIN, Fraction(bankroll), rounds, exact=False)
    assert abs(numeric.probability - float(exact.probability)) <= numeric.relative_error * float(exact.probability)


def test_ruin_without_a_limit_is_bounded_by_lundberg_and_exact_for_the_coin() -> None:
    """For ±1 steps the adjustment coefficient is log(p/q) and ψ(B) = (q/p)^B exactly: Lundberg's upper bound is
    attained, the lower one below it."""
    for bankroll in (1, 5, 20):
        ruin = eventual_ruin(COIN, Fraction(bankroll))
        closed = Fraction(45, 55) ** bankroll
        assert ruin.upper is not None and ruin.lower is not None
        assert abs(ruin.upper - Decimal(closed.numerator) / Decimal(closed.denominator)) < Decimal("1e-25")
        assert ruin.lower < ruin.upper
    assert eventual_ruin((NetResult(Fraction(-1), 55), NetResult(Fraction(1), 45)), Fraction(3)).exact == 1
    assert eventual_ruin((NetResult(Fraction(0), 1), NetResult(Fraction(2), 1)), Fraction(3)).exact == 0


def test_ruin_within_n_rounds_against_a_seeded_monte_carlo() -> None:
    """A Monte Carlo written here: 20,000 sessions of 30 rounds of TOY (edge shifted in the player's favour), ruin
    at −5. Hoeffding: |estimate − p| ≤ sqrt(ln(2/α) / 2n) with α = 10⁻⁹, whatever p is."""
    favourable = (*TOY[:3], NetResult(Fraction(3), 9))
    exact = ruin_within(favourable, Fraction(5), 30, exact=True)
    rng = np.random.default_rng(34)
    nets = np.array([float(r.net) for r in favourable])
    weights = np.array([r.combinations for r in favourable], dtype=np.float64)
    sessions = 20_000
    steps = rng.choice(nets, size=(sessions, 30), p=weights / weights.sum())
    ruined = (np.cumsum(steps, axis=1) <= -5).any(axis=1).mean()
    bound = math.sqrt(math.log(2 / 1e-9) / (2 * sessions))
    assert abs(ruined - float(exact.probability)) <= bound
    assert 0.05 < float(exact.probability) < 0.95  # a figure the sample can miss


def test_work_that_input_would_make_unbounded_is_refused() -> None:
    with pytest.raises(RiskBoundError, match="at most 4,194,304 are computed"):
        rounds_distribution(
            (NetResult(Fraction(-1), 1), NetResult(Fraction(0), 1), NetResult(Fraction(1000), 1)), 10_000
        )
    with pytest.raises(RiskBoundError, match="rounds: give 1 to 10,000,000"):
        rounds_distribution(COIN, 0)
    with pytest.raises(RiskBoundError, match="at most 2,000,000,000 are computed"):
        ruin_within(COIN, Fraction(10**6), 10**6)
    assert ruin_within(COIN, Fraction(11), 10).probability == 0  # cannot lose 11 in 10 rounds


def test_the_fft_of_many_rounds_is_within_its_stated_bound_of_the_exact_distribution() -> None:
    """Prime's 100 rounds (501 results), both ways: every probability within the a priori bound, and each
    cumulative one within the bound stated for them."""
    prime = (
        NetResult(Fraction(-1), 311_365_600),
        NetResult(Fraction(3), 86_595_600),
        NetResult(Fraction(4), 9_209_200),
    )
    exact = rounds_distribution(prime, 100, exact=True)
    numeric = rounds_distribution(prime, 100, exact=False)
    assert exact.counts is not None and numeric.floats is not None
    truth = np.array([c / exact.total for c in exact.counts])
    assert np.abs(numeric.floats - truth).max() <= numeric.point_error
    cumulative = np.cumsum([Fraction(c, exact.total) for c in exact.counts])
    assert max(abs(float(numeric.below(exact.value(k + 1))) - float(cumulative[k])) for k in range(501)) <= (
        numeric.cdf_error
    )
