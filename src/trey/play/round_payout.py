"""The distribution of one round's total payout on one wager at a table of K seats sharing the dealer's hand (issue
34: how often a round pays the players more than X, the house's liability when several seats hit at once).

Every seat bets one unit on the wager; Y_i is seat i's net (per unit bet), T_K = Y_1 + ... + Y_K the round's total,
what the house pays out net when positive. Counted, never sampled:

* **one seat, exact**: Y's distribution over every (dealer hand, seat hand) deal;
* **two seats, exact**: Y_1 + Y_2's distribution over every (dealer hand, seat hand, other seat hand) deal. For one
  dealer hand, the pairs of disjoint seat hands with Y_1 = a and Y_2 = b are counted by the whole table's
  inclusion-exclusion over the cards two hands share (:mod:`trey.play.table`), applied to the indicator of each
  value: one column per value the wager can net;
* **two seats' joint distribution, exact**: P(Y_1 = a, Y_2 = b), the same count kept per pair of values.

For K = 3 to 7 seats P(T_K > X) is not counted; it is bounded, both ways, by inequalities that hold for any
exchangeable seats, evaluated exactly on the one- and two-seat figures (every pair of seats of a round has the
two-seat distribution). m is the most a seat can lose (-1 for a side bet, -2 per Ante for Ante & Play), M the most
it can win.

**Upper bounds** (the smallest is given, with its rule). Choose a level R (or none) and t ≤ X / K; the seats netting
R or more are counted apart, the others net at most c, the largest value below R. Then

* P(T_K > X) ≤ K P(Y ≥ R) + P(N ≥ r), with N the seats netting more than t (and less than R): if every seat nets
  less than R, T_K ≤ N c + (K - N) t, so T_K > X needs N ≥ r = floor((X - K t) / (c - t)) + 1; and P(N ≥ r) ≤
  E[N] / r = K P(t < Y < R) / r (Markov) or ≤ E[C(N, 2)] / C(r, 2) = C(K, 2) P(both seats in (t, R)) / C(r, 2);
* the same over the C(K, 2) pair sums, which add up to (K - 1) T_K: with N' the pairs summing more than s
  (s ≤ 2X / K, both below R), T_K > X needs N' ≥ floor(((K - 1) X - C(K, 2) s) / (2c - s)) + 1, and P ≤ K P(Y ≥ R) +
  C(K, 2) P(Y_1 + Y_2 > s, both below R) / that;
* 0 when K c ≤ X (K seats below R never net more than X);
* K P(Y ≥ R) + Cantelli's inequality on S, the sum of the seats' nets clipped to [f, c] (T_K ≤ S when no seat
  reaches R): P(S > X) ≤ Var S / (Var S + (X - E S)²) for X > E S, E S and Var S exact from the one- and two-seat
  distributions;
* the best of them all: any g = Σ_i f(Y_i) + Σ_{i<j} h(Y_i, Y_j) at least 1{T_K > X} at every multiset of K values
  bounds P(T_K > X) by E[g], exact from the counted distributions, and a linear programme finds the best f and h
  (:mod:`trey.play.moment_bounds`: solved in floats, then certified exactly). Every bound above is such a g, so
  this one is never looser, up to the certificate's rounding (the smallest is given).

With R none and t = X / K these are the plain union bounds K P(Y > X / K) and C(K, 2) P(Y_1 + Y_2 > 2X / K): the
bound given is never looser than them. Every choice of R among the values above X / K, of t among the values at
most X / K, and of s among the pair sums is tried.

**Lower bounds** (the larger is given). The other seats lose at most m each, so

* a seat netting more than a = X - (K - 1) m makes T_K > X: P(T_K > X) ≥ P(at least one of the K events Y_i > a),
  bounded below from S1 = K P(Y > a) and S2 = C(K, 2) P(Y_1 > a, Y_2 > a) by Dawson and Sankoff's inequality
  (1967), 2 S1 / (j + 1) - 2 S2 / (j (j + 1)) with j = 1 + floor(2 S2 / S1) (at j = 1, Bonferroni's S1 - S2);
* two seats netting more than X - (K - 2) m in all make T_K > X: P(T_K > X) ≥ P(Y_1 + Y_2 > X - (K - 2) m);
* the linear programme's best g ≤ 1{T_K > X} at every multiset (P(T_K > X) ≥ E[g]; Dawson and Sankoff's is one).

Bounds, not the probability: stated as "at most" and "at least". :mod:`trey.play.table_simulation` deals the table
to show where in between the probability falls.

A wager that reads the seat's own cards alone (Pair Plus) does not depend on the dealer's hand: its two seats are
counted over every ordered pair of disjoint hands at once, without the dealer loop (0.06 s instead of 1.6 s). The
counts are made once per process for each (game, wager).

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
from trey.play.moment_bounds import moment_bound
from trey.play.settle import Settler
from trey.play.table import (
    PAIR_DEALS,
    SEAT_DEALS,
    PairCounter,
    _common_unit,
    _hand_permutations,
    _holdings,
    _Nets,
    _right_cosets,
    _symmetries,
    _without,
)

MAX_SEATS = 7  # a Three Card Poker table's seats
PROGRAMME = "a linear programme over the one- and two-seat figures (the sharpest they allow), certified exactly"


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
            for floor in sorted(v for v in self.one_seat if v <= cap):
                cantelli = self._cantelli(k, x, floor, cap)
                if cantelli is not None and alone + cantelli < best.value:
                    clipped = f"clipped to [{floor}, {cap}]"
                    rule = f"{split}Cantelli on the sum of the seats' nets {clipped}: s^2 / (s^2 + (X - mean)^2)"
                    best = Bound(alone + cantelli, rule)
        programme = moment_bound(self.one_seat, self.joint, k, x, upper=True)
        if programme is not None and programme < best.value:
            best = Bound(programme, PROGRAMME)
        return Bound(min(best.value, Fraction(1)), best.rule)

    def _cantelli(self, k: int, x: Fraction, floor: Fraction, cap: Fraction) -> Fraction | None:
        """Cantelli's bound on P(S > x), S = the sum over K seats of min(max(Y_i, floor), cap) (when every seat nets
        at most ``cap``, T <= S): its mean and variance are exact from the one-seat and joint two-seat
        distributions. None when x is not above S's mean."""

        def clip(v: Fraction) -> Fraction:
            return min(max(v, floor), cap)

        mean = sum((clip(v) * p for v, p in self.one_seat.items()), Fraction(0))
        square = sum((clip(v) ** 2 * p for v, p in self.one_seat.items()), Fraction(0))
        cross = sum((clip(a) * clip(b) * p for (a, b), p in self.joint.items()), Fraction(0))
        total = k * mean
        if x <= total:
            return None
        variance = k * (square - mean**2) + k * (k - 1) * (cross - mean**2)
        return variance / (variance + (x - total) ** 2)

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
            j = max(1, 1 + math.floor(2 * s2 / s1))  # any j >= 1 gives a bound; this one the best
            ds = 2 * s1 / (j + 1) - 2 * s2 / (j * (j + 1))
            rule = f"Dawson-Sankoff on the K events Y_i > {a} (each makes T > X: the others lose at most {-low})"
            best = max(best, Bound(ds, rule), key=_value)
        b = x - (k - 2) * low
        pair = self.two_seats_above(b)
        best = max(best, Bound(pair, f"P(Y_1 + Y_2 > {b}): the other seats lose at most {-low} each"), key=_value)
        programme = moment_bound(self.one_seat, self.joint, k, x, upper=False)
        if programme is not None and programme > best.value:
            best = Bound(programme, PROGRAMME)
        elif programme is not None and best.value == 0:
            best = Bound(
                best.value,
                "a probability is at least 0 (the linear programme over the one- and two-seat figures finds no more)",
            )
        return best


def _value(bound: Bound) -> Fraction:
    return bound.value


def _check_seats(seats: int) -> None:
    if not 1 <= seats <= MAX_SEATS:
        raise ValueError(f"a table has 1 to {MAX_SEATS} seats, not {seats}")


class ValueCounter:
    """For one deck's hands and the values a wager can take (``levels``, ascending integers): of one dealer hand's
    values of every hand, the count of the free hands at each level and of the ordered pairs of disjoint free hands
    at each pair of levels (:meth:`counts`), by the inclusion-exclusion of :mod:`trey.play.table` over the
    indicator of each level.

    The indicators' sums over the hands holding each pair of cards x < y are one bincount over (pair, level): each
    hand adds 1 at its three pairs of cards and its level (a hand that is not free at an extra level, dropped). Every
    sum is a count below 2**53, and so is every product of two of them summed over the pairs of cards (at most
    deck**2 * hands**2 here): the products are float64 matrix products, exact."""

    def __init__(self, counter: PairCounter, levels: IntArray) -> None:
        self.width = len(levels)
        self.deck = counter.deck
        self.low = int(levels[0])
        self.lookup = np.full(int(levels[-1]) - self.low + 1, -1, dtype=np.int64)  # value - low -> its level
        self.lookup[levels - self.low] = np.arange(self.width)
        self.bins = self.width + 1  # the last: hands that are not free
        self.pair_ids = counter.pair_ids.reshape(-1, 3) * self.bins
        cards = np.stack([counter.pair_ids // self.deck, counter.pair_ids % self.deck]).reshape(2, -1, 3)
        self.card_ids = np.concatenate([cards[0][:, [0, 2]], cards[1][:, 2:]], axis=1) * self.bins  # its cards a, b, c

    def counts(self, values: IntArray, free: np.ndarray) -> tuple[IntArray, IntArray]:
        """(levels,) free hands at each level; (levels, levels) ordered pairs of disjoint free hands."""
        width, bins, deck = self.width, self.bins, self.deck
        index = np.where(free, self.lookup[values - self.low], width)
        upper = np.bincount((self.pair_ids + index[:, None]).reshape(-1), minlength=deck * deck * bins)
        upper = upper.reshape(deck * deck, bins)[:, :width].astype(np.float64)
        cards = np.bincount((self.card_ids + index[:, None]).reshape(-1), minlength=deck * bins)
        cards = cards.reshape(deck, bins)[:, :width].astype(np.float64)
        one = np.bincount(index, minlength=bins)[:width]
        by_pairs = np.rint(upper.T @ upper).astype(np.int64)  # the unordered pairs of cards x < y
        by_cards = np.rint(cards.T @ cards).astype(np.int64)
        two: IntArray = np.outer(one, one) - by_cards + by_pairs - np.diag(one)
        return one, two


def pair_value_counts(values: IntArray, free: np.ndarray, counter: PairCounter, levels: IntArray) -> IntArray:
    """(len(levels), len(levels)): for one dealer hand, the ordered pairs of disjoint hands (P, Q), both ``free``
    (disjoint from the dealer's), with values[P] = levels[i] and values[Q] = levels[j] (:class:`ValueCounter`)."""
    return ValueCounter(counter, levels).counts(values, free)[1]


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
    counter = ValueCounter(PairCounter(hand_table().cards), levels)
    if wager in nets.own:  # the seat's own cards alone: every ordered pair of disjoint hands alike, no dealer loop
        one_counts, two_counts = counter.counts(nets.own[wager], np.ones(HANDS, dtype=bool))
        one, two = one_counts.astype(object), two_counts.astype(object)
        seat_deals, pair_deals = HANDS, HANDS * math.comb(49, 3)
    else:
        symmetries = None if wager == ANTE_PLAY else _symmetries(spec.wagers.side_bet(wager))
        cosets = [(0, 1, 2, 3)] if symmetries is None else _right_cosets(symmetries)
        one = np.zeros(len(levels), dtype=object)
        two = np.zeros((len(levels), len(levels)), dtype=object)
        for size, values, free in _columns(nets, cosets, progress):
            one_counts, two_counts = counter.counts(values, free)
            one += one_counts.astype(object) * size
            two += two_counts.astype(object) * size
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
