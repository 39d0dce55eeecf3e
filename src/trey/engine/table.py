"""Whole tables: what the exact moments of the wagers of seats sharing one round say of a table's round.

:func:`trey.play.table.table_moments` counts, for every pair of wagers, E[X_w X_v] for one seat and E[X_w Y_v] for two
seats of one round (every (dealer hand, seat hand, other seat hand) deal); this module holds those moments
(:class:`TableMoments`) and what follows from them: a seat's mean and variance under a :class:`Seating` (what it
bets), the covariance of two seats and the variance of a round of K seats with a given occupancy. Pure, exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

MAX_SEATS = 7


@dataclass(frozen=True)
class TableMoments:
    """Exact first and second moments of the wagers of a round shared by several seats (see the module)."""

    wagers: tuple[str, ...]
    mean: tuple[Fraction, ...]  # E[X_w] per unit bet
    same_seat: tuple[tuple[Fraction, ...], ...]  # E[X_w X_v], one seat
    other_seat: tuple[tuple[Fraction, ...], ...]  # E[X_w Y_v], two seats of one round
    dealer_patterns: int  # dealer hands visited (one per suit pattern)

    def index(self, wager: str) -> int:
        return self.wagers.index(wager)

    def covariance_same_seat(self, w: str, v: str) -> Fraction:
        i, j = self.index(w), self.index(v)
        return self.same_seat[i][j] - self.mean[i] * self.mean[j]

    def covariance_other_seat(self, w: str, v: str) -> Fraction:
        i, j = self.index(w), self.index(v)
        return self.other_seat[i][j] - self.mean[i] * self.mean[j]

    def variance(self, w: str) -> Fraction:
        return self.covariance_same_seat(w, w)

    def correlation_other_seat(self, w: str, v: str) -> float:
        """Pearson correlation of wager w of one seat with wager v of another seat (a float: square roots)."""
        denominator = math.sqrt(self.variance(w) * self.variance(v))
        return float(self.covariance_other_seat(w, v)) / denominator if denominator else 0.0


@dataclass(frozen=True)
class Seating:
    """What one seat bets, per round, in money: for each wager the share of seats on it and their average bet
    (a seat's bets independent of the cards and of each other; two seats' independent of each other)."""

    bets: tuple[tuple[str, Fraction, Fraction], ...]  # (wager, share of seats on it, average bet when on it)

    def __post_init__(self) -> None:
        for wager, share, bet in self.bets:
            if not 0 <= share <= 1:
                raise ValueError(f"the share of seats on {wager} must be between 0 and 1, not {share}")
            if bet < 0:
                raise ValueError(f"the average bet on {wager} must not be negative")
        if len({w for w, _, _ in self.bets}) != len(self.bets):
            raise ValueError("each wager is listed once")


def seat_mean(moments: TableMoments, seating: Seating) -> Fraction:
    """E[S]: one seat's expected net result per round, in money (negative: the house wins)."""
    return sum((s * b * moments.mean[moments.index(w)] for w, s, b in seating.bets), Fraction(0))


def seat_variance(moments: TableMoments, seating: Seating) -> Fraction:
    """Var[S] of one seat's round: S = sum_w I_w b_w X_w with I_w an independent Bernoulli(share_w)."""
    second = Fraction(0)
    for w, s, b in seating.bets:
        for v, t, c in seating.bets:
            e = moments.same_seat[moments.index(w)][moments.index(v)]
            second += (s if w == v else s * t) * b * c * e
    return second - seat_mean(moments, seating) ** 2


def seat_covariance(moments: TableMoments, seating: Seating) -> Fraction:
    """Cov[S, S'] of two seats of one round."""
    return sum(
        (s * t * b * c * moments.covariance_other_seat(w, v) for w, s, b in seating.bets for v, t, c in seating.bets),
        Fraction(0),
    )


def round_variance(moments: TableMoments, seating: Seating, seats: int, occupancy: Fraction = Fraction(1)) -> Fraction:
    """Var[T] of a round's total net over ``seats`` seats each occupied with probability ``occupancy`` (the number
    occupied N binomial): E[N] Var[S] + E[N (N - 1)] Cov[S, S'] + Var[N] E[S]^2."""
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"a table has 1 to {MAX_SEATS} seats, not {seats}")
    if not 0 <= occupancy <= 1:
        raise ValueError("occupancy is a share between 0 and 1")
    mean_n = seats * occupancy
    pairs = seats * (seats - 1) * occupancy**2
    var_n = seats * occupancy * (1 - occupancy)
    mu = seat_mean(moments, seating)
    return mean_n * seat_variance(moments, seating) + pairs * seat_covariance(moments, seating) + var_n * mu**2
