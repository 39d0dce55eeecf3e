"""Figures of one wager from the exact distribution of its net result, per unit of the initial wager.

Definitions (DESIGN.md, "Numbers"): net result X; RTP = 1 + E[X]; house edge = -E[X]; hit frequency = P(X > 0);
variance = Var[X]; volatility index VI = z * SD. Everything is a Fraction except the square roots, which are
computed from the exact variance only when a float is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction

Z_90 = 1.645
Z_95 = 1.960


@dataclass(frozen=True)
class OutcomeRow:
    """One line of a PAR table: an outcome, its net pay per unit staked, and how many deals give it."""

    outcome: str
    pays: Fraction
    combinations: int
    cycle: int
    # False for a bonus paid on top of another outcome (the Ante Bonus): its stake is counted by that outcome.
    returns_stake: bool = True
    staked: int = 1  # units bet in all for this outcome: 2 when the player adds the Play bet

    @property
    def returned(self) -> Fraction:
        """What the player gets back per unit of the initial bet, stakes included."""
        return self.staked + self.pays if self.returns_stake else self.pays

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.cycle)

    @property
    def contribution(self) -> Fraction:
        """This outcome's share of the RTP: what it hands back (stake included) times its probability."""
        return self.probability * (self.pays + 1 if self.returns_stake else self.pays)

    @property
    def expected_net(self) -> Fraction:
        """This outcome's share of the expected net result, the "return" of a PAR sheet: probability × pays. A
        wager's rows add up to E[net] = −house edge (its contributions to RTP, to 1 more)."""
        return self.probability * self.pays

    @property
    def one_in(self) -> Fraction | None:
        """Odds of the outcome as "1 in N" (None when it cannot happen)."""
        return Fraction(self.cycle, self.combinations) if self.combinations else None


@dataclass(frozen=True)
class NetResult:
    net: Fraction
    combinations: int


@dataclass(frozen=True)
class WagerStats:
    cycle: int
    mean: Fraction
    variance: Fraction
    hit_frequency: Fraction

    @property
    def rtp(self) -> Fraction:
        return 1 + self.mean

    @property
    def house_edge(self) -> Fraction:
        return -self.mean

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    def volatility_index(self, z: float) -> float:
        return z * self.std_dev


def net_distribution(pairs: Iterable[tuple[Fraction, int]]) -> tuple[NetResult, ...]:
    """Merge (net, combinations) pairs into a distribution sorted by net, dropping empty results."""
    merged: dict[Fraction, int] = {}
    for net, count in pairs:
        if count:
            merged[net] = merged.get(net, 0) + int(count)
    return tuple(NetResult(net, merged[net]) for net in sorted(merged))


def stats_of(distribution: Iterable[NetResult] | Mapping[Fraction, int]) -> WagerStats:
    items = (
        list(distribution.items())
        if isinstance(distribution, Mapping)
        else [(r.net, r.combinations) for r in distribution]
    )
    cycle = sum(count for _, count in items)
    if cycle <= 0:
        raise ValueError("a distribution needs at least one deal")
    mean = sum((net * count for net, count in items), Fraction(0)) / cycle
    second = sum((net * net * count for net, count in items), Fraction(0)) / cycle
    hits = sum(count for net, count in items if net > 0)
    return WagerStats(cycle, mean, second - mean * mean, Fraction(hits, cycle))


def distribution_of_rows(rows: Iterable[OutcomeRow]) -> tuple[NetResult, ...]:
    return net_distribution((row.pays, row.combinations) for row in rows)
