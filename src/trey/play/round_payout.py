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
from functools import cached_property, lru_cache

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

MAX_SEATS = 7  # a Three Card Poker table's seats


@dataclass(frozen=True)
class Bound:
    """A proven bound on a probability and the rule that gives it (a sentence, for the reader)."""

    value: Fraction
    rule: str


@dataclass(frozen=True)
class RoundPayout:
    """The exact distribution of one seat's net Y on ``wager`` per unit bet, and the exact joint distribution of
    two seats' (Y_1, Y_2), as {value: probability}; from them, P(T_K > x) exact for one and two seats and proven
    bounds for more (:meth:`tail_bound`, :meth:`upper_bound`, :meth:`lower_bound`)."""

    wager: str
    one_seat: dict[Fraction, Fraction]
    joint: dict[tuple[Fraction, Fraction], Fraction]

    @cached_property
    def two_seats(self) -> dict[Fraction, Fraction]:
        """Y_1 + Y_2's distribution, exact."""
        sums: dict[Fraction, Fraction] = {}
        for (a, b), p in self.joint.items():
            sums[a + b] = sums.get(a + b, Fraction(0)) + p
        return dict(sorted(sums.items()))

    @property
    def lowest(self) -> Fraction:
        """The most a seat can lose (per unit bet), as a net: -1 for a side bet, -2 for Ante & Play per Ante."""
        return min(self.one_seat)

    @property
    def highest(self) -> Fraction:
        return max(self.one_seat)

    def one_seat_above(self, x: Fraction) -> Fraction:
        """P(Y > x), exact."""
        return sum((p for v, p in self.one_seat.items() if v > x), Fraction(0))

    def two_seats_above(self, x: Fraction) -> Fraction:
        """P(Y_1 + Y_2 > x), exact."""
        return sum((p for v, p in self.two_seats.items() if v > x), Fraction(0))

    def _one_in(self, low: Fraction, high: Fraction | None) -> Fraction:
        """P(low < Y < high) (high None: no upper end)."""
        return sum((p for v, p in self.one_seat.items() if low < v and (high is None or v < high)), Fraction(0))

    def _both_in(self, low: Fraction, high: Fraction | None) -> Fraction:
        """P(low < Y_1 < high and low < Y_2 < high)."""
        return sum(
            (p for (a, b), p in self.joint.items() if low < min(a, b) and (high is None or max(a, b) < high)),
            Fraction(0),
        )

    def _pair_in(self, low: Fraction, high: Fraction | None) -> Fraction:
        """P(Y_1 + Y_2 > low, Y_1 < high and Y_2 < high)."""
        return sum(
            (p for (a, b), p in self.joint.items() if a + b > low and (high is None or max(a, b) < high)),
            Fraction(0),
        )

    def tail_bound(self, seats: int, x: Fraction) -> tuple[Fraction, bool]:
        """(P(T_K > x) for 1 and 2 seats, exact; else the upper bound of :meth:`upper_bound`, whether it is the exact
        probability)."""
        _check_seats(seats)
        if seats == 1:
            return self.one_seat_above(x), True
        if seats == 2:
            return self.two_seats_above(x), True
        return self.upper_bound(seats, x).value, False

    def upper_bound(self, seats: int, x: Fraction) -> Bound:
        """A proven upper bound on P(T_K > x), the smallest of the module's (for K = 1, 2 the exact figure)."""
        _check_seats(seats)
        if seats <= 2:
            return Bound(self.tail_bound(seats, x)[0], "exact")
        k, pairs = seats, math.comb(seats, 2)
        best = Bound(Fraction(1), "a probability is at most 1")
        if k * self.highest <= x:
            return Bound(Fraction(0), f"{k} seats never net more than {k} x {self.highest} = {k * self.highest}")
        tops: list[Fraction | None] = [None, *sorted(v for v in self.one_seat if v > x / k)]
        for top in tops:  # the seats netting top or more counted apart; the others net at most `cap`
            at_top = Fraction(0) if top is None else sum((p for v, p in self.one_seat.items() if v >= top), Fraction(0))
            alone = k * at_top
            if alone >= best.value:
                continue
            cap = max(v for v in self.one_seat if top is None or v < top)
            split = "" if top is None else f"K P(Y >= {top}) + "
            if k * cap <= x:
                best = min(best, Bound(alone, f"K P(Y >= {top}): below it {k} seats net at most {k * cap}"), key=_value)
                continue
            for t in sorted({*(v for v in self.one_seat if v <= x / k), x / k}):
                need = math.floor((x - k * t) / (cap - t)) + 1  # seats netting more than t the total needs
                band = f"Y > {t}" if top is None else f"{t} < Y < {top}"
                by = "" if need == 1 else f" / {need}"
                rule = f"{split}K P({band}){by}"
                best = min(best, Bound(alone + k * self._one_in(t, top) / need, rule), key=_value)
                if need >= 2:
                    both_band = f"Y_1 > {t} and Y_2 > {t}" if top is None else f"Y_1 and Y_2 both in ({t}, {top})"
                    by = "" if need == 2 else f" / C({need}, 2)"
                    rule = f"{split}C(K, 2) P({both_band}){by}"
                    both = self._both_in(t, top)
                    best = min(best, Bound(alone + pairs * both / math.comb(need, 2), rule), key=_value)
            pair_sums = {a + b for a, b in self.joint if top is None or max(a, b) < top}
            for s in sorted({*(v for v in pair_sums if pairs * v <= (k - 1) * x), 2 * x / k}):
                need = math.floor(((k - 1) * x - pairs * s) / (2 * cap - s)) + 1
                by = "" if need == 1 else f" / {need}"
                below = "" if top is None else f", Y_1 and Y_2 < {top}"
                rule = f"{split}C(K, 2) P(Y_1 + Y_2 > {s}{below}){by}"
                best = min(best, Bound(alone + pairs * self._pair_in(s, top) / need, rule), key=_value)
        return Bound(min(best.value, Fraction(1)), best.rule)

    def lower_bound(self, seats: int, x: Fraction) -> Bound:
        """A proven lower bound on P(T_K > x), the larger of the module's two (for K = 1, 2 the exact figure)."""
        _check_seats(seats)
        if seats <= 2:
            return Bound(self.tail_bound(seats, x)[0], "exact")
        k, low = seats, self.lowest
        a = x - (k - 1) * low  # a seat netting more than a makes the round's total more than x
        s1 = k * self.one_seat_above(a)
        s2 = math.comb(k, 2) * self._both_in(a, None)
        best = Bound(Fraction(0), "a probability is at least 0")
        if s1:
            j = 1 + math.floor(2 * s2 / s1)
            ds = 2 * s1 / (j + 1) - 2 * s2 / (j * (j + 1))
            rule = f"Dawson-Sankoff on the K events Y_i > {a} (each makes T > x: the others lose at most {-low})"
            best = max(best, Bound(ds, rule), key=_value)
        b = x - (k - 2) * low
        pair = self.two_seats_above(b)
        best = max(best, Bound(pair, f"P(Y_1 + Y_2 > {b}): the other seats lose at most {-low} each"), key=_value)
        return best


def _value(bound: Bound) -> Fraction:
    return bound.value


def _check_seats(seats: int) -> None:
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"a table has 1 to {MAX_SEATS} seats, not {seats}")


def pair_value_counts(values: IntArray, free: np.ndarray, counter: PairCounter, levels: IntArray) -> IntArray:
    """(len(levels), len(levels)): for one dealer hand, the ordered pairs of disjoint hands (P, Q), both ``free``
    (disjoint from the dealer's), with values[P] = levels[i] and values[Q] = levels[j]: the inclusion-exclusion of
    the table's count over the indicator of each level (``counter`` of the deck's hands)."""
    indicators = ((values[None, :] == levels[:, None]) & free[None, :]).astype(np.int64)  # (levels, hands)
    sums: Sums = counter.packed_sums(indicators, [1] * len(levels))
    return _combined(sums, sums, np.diag(indicators.sum(axis=1)))


def round_payout(spec: GameSpec, wager: str, progress: Callable[[int, int], None] | None = None) -> RoundPayout:
    """The exact one-seat and joint two-seat distributions of ``wager`` at the standard game (see the module),
    counted once per process for each (game, wager): a second call returns the first one's figures."""
    refuse_other_games(spec, "a round's payout", hint="count one seat with trey analyze")
    if wager not in spec.wagers.ids:
        raise ValueError(f"the game offers no wager {wager!r} (it offers {', '.join(spec.wagers.ids)})")
    if wager != ANTE_PLAY and spec.wagers.side_bet(wager).envy:
        raise ValueError(f"{wager} pays an envy bonus on other seats' hands: a round's payout does not count it")
    return _counted(spec, wager, progress)


@lru_cache(maxsize=16)
def _counted_once(spec: GameSpec, wager: str) -> RoundPayout:
    return _count(spec, wager, None)


def _counted(spec: GameSpec, wager: str, progress: Callable[[int, int], None] | None) -> RoundPayout:
    if progress is None:
        return _counted_once(spec, wager)
    return _count(spec, wager, progress)


def _count(spec: GameSpec, wager: str, progress: Callable[[int, int], None] | None) -> RoundPayout:
    plays = player_decisions(spec)
    only = _without(spec, lambda w: w == wager)
    assert only is not None
    settler = Settler(only, plays)
    unit = _common_unit([settler.tables[wager].nets])
    nets = _Nets(only, plays, [wager], unit)
    levels = np.unique(nets.columns[wager])
    counter = PairCounter(hand_table().cards)
    if wager in nets.own:  # the seat's own cards alone: every ordered pair of disjoint hands alike, no dealer loop
        values = nets.own[wager]
        one = np.bincount(np.searchsorted(levels, values), minlength=len(levels)).astype(object)
        two = pair_value_counts(values, np.ones(HANDS, dtype=bool), counter, levels).astype(object)
        seat_deals, pair_deals = HANDS, HANDS * math.comb(49, 3)
    else:
        symmetries = None if wager == ANTE_PLAY else _symmetries(spec.wagers.side_bet(wager))
        cosets = [(0, 1, 2, 3)] if symmetries is None else _right_cosets(symmetries)
        one = np.zeros(len(levels), dtype=object)
        two = np.zeros((len(levels), len(levels)), dtype=object)
        for size, values, free in _columns(nets, cosets, progress):
            index = np.searchsorted(levels, values[free])
            one += np.bincount(index, minlength=len(levels)).astype(object) * size
            two += pair_value_counts(values, free, counter, levels).astype(object) * size
        seat_deals, pair_deals = SEAT_DEALS * len(cosets), PAIR_DEALS * len(cosets)
    values_of = [Fraction(int(v), unit) for v in levels.tolist()]
    one_seat = {v: Fraction(int(n), seat_deals) for v, n in zip(values_of, one, strict=True) if n}
    joint = {
        (a, b): Fraction(int(two[i, j]), pair_deals)
        for i, a in enumerate(values_of)
        for j, b in enumerate(values_of)
        if two[i, j]
    }
    return RoundPayout(wager, one_seat, joint)


def _columns(
    nets: _Nets, cosets: list[tuple[int, int, int, int]], progress: Callable[[int, int], None] | None
) -> Iterator[tuple[int, IntArray, np.ndarray]]:
    """(the dealer hand's orbit's size, the wager's value of every hand, the hands disjoint from it) for each suit
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
            yield size, values * free, free
        if progress is not None:
            progress(done + 1, len(representatives))
    assert len(free) == HANDS
