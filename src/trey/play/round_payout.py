"""The distribution of one round's total payout on one wager at a table of K seats sharing the dealer's hand (issue
34: how often a round pays the players more than X, the house's liability when several seats hit at once).

Every seat bets one unit on the wager; Y_i is seat i's net (per unit bet), T_K = Y_1 + ... + Y_K the round's total,
what the house pays out net when positive. Counted, never sampled:

* **one seat, exact**: Y's distribution over every (dealer hand, seat hand) deal;
* **two seats, exact**: Y_1 + Y_2's distribution over every (dealer hand, seat hand, other seat hand) deal. For one
  dealer hand, the pairs of disjoint seat hands with Y_1 = a and Y_2 = b are counted by the whole table's
  inclusion-exclusion over the cards two hands share (:mod:`trey.play.table`), applied to the indicator of each
  value: one column per value the wager can net;
* **K seats, a proven upper bound** on P(T_K > X), the smaller of two union bounds: if every seat's Y_i ≤ X / K
  then T_K ≤ X, so P(T_K > X) ≤ K P(Y > X / K); and the C(K, 2) pair sums Y_i + Y_j add up to (K - 1) T_K, so if
  every one is ≤ 2X / K then T_K ≤ X, and P(T_K > X) ≤ C(K, 2) P(Y_1 + Y_2 > 2X / K) (the seats are exchangeable:
  every pair of seats has the two-seat distribution). For K = 1 and 2 these are the exact figures. A bound, not the
  probability: stated as "at most".

The dealer hands are visited one per suit pattern as in :func:`~trey.play.table.table_moments` (a wager not paid
alike under every suit permutation, Prime, at each coset's image of the pattern's hand).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from trey.cards.hand_table import HANDS, hand_table
from trey.cards.hands import IntArray
from trey.cards.readings.base import ALL_SUIT_PERMUTATIONS, suit_orbits
from trey.engine import player_decisions
from trey.paytable.model import ANTE_PLAY, GameSpec, refuse_other_games
from trey.play.settle import Settler
from trey.play.table import (
    PAIR_DEALS,
    SEAT_DEALS,
    PairCounter,
    Sums,
    _combined,
    _common_unit,
    _hand_permutations,
    _holdings,
    _Nets,
    _right_cosets,
    _symmetries,
    _without,
)


@dataclass(frozen=True)
class RoundPayout:
    """The exact distributions of one seat's net Y and of two seats' Y_1 + Y_2 on ``wager`` per unit bet, as
    {net: probability}, and the bounds for more seats (:meth:`tail_bound`)."""

    wager: str
    one_seat: dict[Fraction, Fraction]
    two_seats: dict[Fraction, Fraction]

    def one_seat_above(self, x: Fraction) -> Fraction:
        """P(Y > x), exact."""
        return sum((p for v, p in self.one_seat.items() if v > x), Fraction(0))

    def two_seats_above(self, x: Fraction) -> Fraction:
        """P(Y_1 + Y_2 > x), exact."""
        return sum((p for v, p in self.two_seats.items() if v > x), Fraction(0))

    def tail_bound(self, seats: int, x: Fraction) -> tuple[Fraction, bool]:
        """(an upper bound on P(T_K > x), whether it is the exact probability): exact for 1 and 2 seats, else the
        smaller of the two union bounds of the module."""
        if not 1 <= seats <= 7:
            raise ValueError(f"a table has 1 to 7 seats, not {seats}")
        if seats == 1:
            return self.one_seat_above(x), True
        if seats == 2:
            return self.two_seats_above(x), True
        by_seat = seats * self.one_seat_above(x / seats)
        by_pair = math.comb(seats, 2) * self.two_seats_above(2 * x / seats)
        return min(Fraction(1), by_seat, by_pair), False


def pair_value_counts(values: IntArray, free: np.ndarray, counter: PairCounter, levels: IntArray) -> IntArray:
    """(len(levels), len(levels)): for one dealer hand, the ordered pairs of disjoint hands (P, Q), both ``free``
    (disjoint from the dealer's), with values[P] = levels[i] and values[Q] = levels[j]: the inclusion-exclusion of
    the table's count over the indicator of each level (``counter`` of the deck's hands)."""
    indicators = ((values[None, :] == levels[:, None]) & free[None, :]).astype(np.int64)  # (levels, hands)
    sums: Sums = counter.packed_sums(indicators, [1] * len(levels))
    return _combined(sums, sums, np.diag(indicators.sum(axis=1)))


def round_payout(spec: GameSpec, wager: str, progress: Callable[[int, int], None] | None = None) -> RoundPayout:
    """The exact one- and two-seat distributions of ``wager`` at the standard game (see the module)."""
    refuse_other_games(spec, "a round's payout", hint="count one seat with trey analyze")
    if wager not in spec.wagers.ids:
        raise ValueError(f"the game offers no wager {wager!r} (it offers {', '.join(spec.wagers.ids)})")
    if wager != ANTE_PLAY and spec.wagers.side_bet(wager).envy:
        raise ValueError(f"{wager} pays an envy bonus on other seats' hands: a round's payout does not count it")
    plays = player_decisions(spec)
    only = _without(spec, lambda w: w == wager)
    assert only is not None
    settler = Settler(only, plays)
    unit = _common_unit([settler.tables[wager].nets])
    nets = _Nets(only, plays, [wager], unit)
    levels = np.unique(nets.columns[wager])
    symmetries = None if wager == ANTE_PLAY else _symmetries(spec.wagers.side_bet(wager))
    cosets = [(0, 1, 2, 3)] if symmetries is None else _right_cosets(symmetries)
    counter = PairCounter(hand_table().cards)
    one = np.zeros(len(levels), dtype=object)
    two = np.zeros((len(levels), len(levels)), dtype=object)
    for dealer, size, values, free in _columns(nets, cosets, progress):
        index = np.searchsorted(levels, values[free])
        one += np.bincount(index, minlength=len(levels)).astype(object) * size
        two += pair_value_counts(values, free, counter, levels).astype(object) * size
        del dealer
    k = len(cosets)
    one_seat = {Fraction(int(v), unit): Fraction(int(n), SEAT_DEALS * k) for v, n in zip(levels, one, strict=True) if n}
    two_seats: dict[Fraction, Fraction] = {}
    for i, a in enumerate(levels.tolist()):
        for j, b in enumerate(levels.tolist()):
            if two[i, j]:
                total = Fraction(a + b, unit)
                two_seats[total] = two_seats.get(total, Fraction(0)) + Fraction(int(two[i, j]), PAIR_DEALS * k)
    return RoundPayout(wager, dict(sorted(one_seat.items())), dict(sorted(two_seats.items())))


def _columns(
    nets: _Nets, cosets: list[tuple[int, int, int, int]], progress: Callable[[int, int], None] | None
) -> Iterator[tuple[int, int, IntArray, np.ndarray]]:
    """(dealer hand, its orbit's size, the wager's value of every hand, the hands disjoint from it) for each suit
    pattern's dealer hand and each coset's image of it (read at t(P), as the table's count does)."""
    representatives, members = suit_orbits(ALL_SUIT_PERMUTATIONS)
    orbit = np.bincount(members, minlength=len(representatives))
    holds = np.ascontiguousarray(_holdings().T)
    permutations = _hand_permutations()
    cards = hand_table().cards
    for done, (dealer, size) in enumerate(zip(representatives.tolist(), orbit.tolist(), strict=True)):
        dealt = cards[dealer].tolist()
        free = ~(holds[dealt[0]] | holds[dealt[1]] | holds[dealt[2]])
        for t in cosets:
            values = nets.against(int(permutations[t][dealer]))[0][permutations[t]]
            yield dealer, size, values * free, free
        if progress is not None:
            progress(done + 1, len(representatives))
    assert len(free) == HANDS
