"""Whole tables: the seats of one round share the deck and the dealer's hand, so their results are not independent.

For a table of K seats, every seat's hand and the dealer's are dealt from one deck. The exact moments counted here:

* ``same_seat[w][v]`` = E[X_w X_v] for two wagers of one seat (a seat's own Ante & Play and its Pair Plus);
* ``other_seat[w][v]`` = E[X_w Y_v] for wager w of one seat and wager v of another seat of the same round,

per unit bet, counted over every (dealer hand, seat hand, other seat hand) deal, never sampled: 22,100 dealer
hands x 18,424 x 15,180 ordered pairs of seat hands. Two seats' results are independent given neither the deck nor
the dealer, so their covariance E[X Y] - E[X] E[Y] is what the shared cards make of it: the Dealer Bonus pays
every seat at once, the Six Card Bonus of two seats reads the same dealer cards, and two seats' hands never share a
card. Any two seats of a round are alike (the deal is exchangeable), so one covariance per pair of wagers describes
all K (K - 1) ordered pairs of seats.

How it is counted, for one dealer hand D with f(P) = X_w(P, D) and g(P) = X_v(P, D) (zero for hands P that hold a
card of D): the sum over ordered pairs of disjoint hands is, by inclusion-exclusion over the cards they share,

    sum_{P,Q disjoint} f(P) g(Q) = F G - sum_x F_x G_x + sum_{xy} F_xy G_xy - sum_P f(P) g(P)

where F is the sum of f over all hands, F_x over the hands holding card x, F_xy over those holding cards x and y
(two hands sharing k cards are counted 1 - k + C(k, 2) - [k = 3] times: once when k = 0, never otherwise). The sums
are integer matrix products over the 22,100 hands, done for every pair of wagers at once.

The dealer hands are visited one per suit pattern: a suit permutation that changes no wager's pay maps a dealer
hand's sums onto another's, so each pattern's representative counts for its orbit. A wager that is not paid alike
under every permutation (Prime reads colours) is settled at the representative's images tD under a few
permutations t (one per coset of the permutations it respects) and read at t(P), so that every column of one
matrix belongs to the representative's hands and one set of sums serves them all.

How fast (issue 34: every pair of the standard game's wagers in 10 s or less): every hand is settled against one
dealer hand at once (:meth:`~trey.play.settle.Settler.settle_against`, the Six Card Bonus from parts of each hand
made once); the sums over pairs of cards pack several columns into one float64 word per hand
(:meth:`PairCounter.packed_sums`), and the products of two columns over the hands are float64 BLAS products while
they stay exact. See docs/speed.md for the figure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_indexes, hand_table
from trey.cards.hands import IntArray
from trey.cards.readings import READINGS, Seat
from trey.cards.readings.base import ALL_SUIT_PERMUTATIONS, Reading, suit_orbits
from trey.engine import player_decisions
from trey.engine.money import ChosenMix, TableMoney, choose_mix, occupancy_option, table_mix, table_money
from trey.engine.results import GameAnalysis
from trey.engine.table import TableMoments
from trey.paytable.model import ANTE_PLAY, GameSpec, SideBet, Wagers, refuse_other_games
from trey.play.settle import Settler

Perm = tuple[int, int, int, int]
IDENTITY: Perm = (0, 1, 2, 3)
OTHER_HANDS = math.comb(46, 3)  # another seat's hands, once the dealer's and one seat's are dealt: 15,180
SEAT_DEALS = HANDS * DEALER_HANDS  # (dealer hand, seat hand) deals: 407,170,400
PAIR_DEALS = SEAT_DEALS * OTHER_HANDS  # (dealer hand, seat hand, other seat hand) deals


def _common_unit(tables: Sequence[Sequence[Fraction]]) -> int:
    return math.lcm(*(n.denominator for nets in tables for n in nets))


@cache
def _hand_permutations() -> dict[Perm, IntArray]:
    """For each suit permutation s, the hand-table index of s(hand) for every hand."""
    cards = hand_table().cards
    result = {}
    for perm in ALL_SUIT_PERMUTATIONS:
        mapped = np.sort((cards // 4) * 4 + np.array(perm)[cards % 4], axis=1)
        result[perm] = hand_indexes(mapped)
    return result


@cache
def _holdings() -> npt.NDArray[np.bool_]:
    """(hands, 52): whether each hand holds each card."""
    cards = hand_table().cards
    holds = np.zeros((HANDS, 52), dtype=bool)
    holds[np.arange(HANDS)[:, None], cards] = True
    return holds


@dataclass(frozen=True)
class Sums:
    """Of a (hands, W) matrix of values: the column totals, the sums over the hands holding each card (deck, W)
    and over those holding each ordered pair of cards (deck * deck, W; (x, y) and (y, x) both)."""

    total: IntArray
    cards: IntArray
    pairs: IntArray


class PairCounter:
    """Sums over ordered pairs of card-disjoint hands of a deck, by the inclusion-exclusion of the module.

    ``hand_cards`` (hands, 3): every hand's cards, each row ascending, from a deck of ``deck`` cards (any deck: the
    tests use a small one). Sums are bincounts (float64, exact below 2**53), products int64 (exact below 2**63):
    :meth:`exact_for` says whether values of a given size stay within both."""

    def __init__(self, hand_cards: IntArray, deck: int = 52) -> None:
        self.deck = deck
        self.hands = len(hand_cards)
        a, b, c = hand_cards[:, 0], hand_cards[:, 1], hand_cards[:, 2]
        self._ids: dict[int, IntArray] = {}
        self.pair_ids = np.stack([a * deck + b, a * deck + c, b * deck + c], axis=1).reshape(-1)  # x < y

    def exact_for(self, largest: int) -> bool:
        """Whether values of at most ``largest`` in size keep every sum exact."""
        return largest * self.hands < 2**53 and (largest * self.hands) ** 2 * 4 < 2**63

    def sums(self, values: IntArray) -> Sums:
        """The :class:`Sums` of ``values``: one bincount over the hands' pairs of cards x < y, made symmetric (a hand
        holding x adds to the pairs (x, y) of its two other cards y, so the sum over x's pairs is twice x's sum)."""
        width = values.shape[1]
        ids = self._ids.get(width)
        if ids is None:
            ids = self._ids[width] = (self.pair_ids[:, None] * width + np.arange(width)).reshape(-1)
        weights = np.repeat(values.astype(np.float64), 3, axis=0).reshape(-1)
        upper = np.bincount(ids, weights, self.deck * self.deck * width).reshape(self.deck, self.deck, width)
        exact = np.rint(upper).astype(np.int64)  # sums of at most hands * largest: exact in float64
        exact = exact + exact.transpose(1, 0, 2)
        cards = exact.sum(axis=1) // 2
        exact = exact.reshape(self.deck * self.deck, width)
        return Sums(values.sum(axis=0), cards, exact)

    def packed_sums(self, values: IntArray, largest: Sequence[int]) -> Sums:
        """:meth:`sums` of ``values`` given column by column, ``(W, hands)``, each column at most ``largest[w]`` in
        size, in fewer passes: columns are packed into one float64 word per hand, ``sum_i v_i B_0 ... B_(i-1)``
        with ``B_i = 2 (deck - 2) largest_i + 1``, as many as keep the product of the B's below 2**53. A pair of
        cards is held by deck - 2 hands, so each column's sum over a pair's hands (and every partial sum of it) is
        below B_i / 2 in size: the words' sums are integers below 2**53, exact in float64, and their balanced
        base-B digits are the columns' sums. The same sums as :meth:`sums` (a test holds it)."""
        width, count = values.shape
        bound = [(self.deck - 2) * int(x) for x in largest]
        bases = [2 * b + 1 for b in bound]
        groups: list[list[int]] = []
        product = 2**53
        for column, base in enumerate(bases):
            if base >= 2**53:
                raise ValueError("values too large for exact float64 sums")
            if product * base >= 2**53:
                groups.append([])
                product = 1
            groups[-1].append(column)
            product *= base
        positions = self._positions()
        upper = np.zeros((self.deck * self.deck, width), dtype=np.int64)
        for group in groups:
            word = np.zeros(count, dtype=np.float64)
            scale = 1
            for column in group:
                word += values[column] * float(scale)
                scale *= bases[column]
            summed = sum(np.bincount(ids, word, self.deck * self.deck) for ids in positions)
            packed = np.rint(summed).astype(np.int64)
            for column in group:  # the balanced digits, lowest first
                digit = (packed + bound[column]) % bases[column] - bound[column]
                upper[:, column] = digit
                packed = (packed - digit) // bases[column]
        pairs = upper.reshape(self.deck, self.deck, width)
        pairs = pairs + pairs.transpose(1, 0, 2)
        cards = pairs.sum(axis=1) // 2
        return Sums(cards.sum(axis=0) // 3, cards, pairs.reshape(self.deck * self.deck, width))

    def _positions(self) -> tuple[IntArray, IntArray, IntArray]:
        """Each hand's pairs of cards (x, y), x < y, as x * deck + y: its first two cards, first and last, last two."""
        ids = self.pair_ids.reshape(-1, 3)
        return ids[:, 0].copy(), ids[:, 1].copy(), ids[:, 2].copy()

    @staticmethod
    def combine(x: IntArray, xs: Sums, y: IntArray, ys: Sums) -> IntArray:
        """sum over ordered pairs of disjoint hands (P, Q) of x[P, w] * y[Q, v], for every (w, v), from the sums
        of x and y (``x`` and ``y`` zero on hands to be left out). Integer products (exact; no BLAS threads)."""
        return _combined(xs, ys, x.T @ y)


def _combined(xs: Sums, ys: Sums, products: IntArray) -> IntArray:
    """The inclusion-exclusion of the module: sum over ordered pairs of disjoint hands of x[P] y[Q] from the sums of
    x and y and ``products``, the sum over hands of x[P] y[P] (the pairs of a hand with itself)."""
    pairs = xs.pairs.T @ ys.pairs  # each unordered pair of cards twice
    result: IntArray = np.outer(xs.total, ys.total) - xs.cards.T @ ys.cards + pairs // 2 - products
    return result


def disjoint_pair_sums(values: IntArray, hand_cards: IntArray, deck: int = 52) -> IntArray:
    """sum over ordered pairs of card-disjoint hands (P, Q) of values[P, w] * values[Q, v], for every (w, v)
    (:class:`PairCounter`, once)."""
    counter = PairCounter(hand_cards, deck)
    if not counter.exact_for(int(np.abs(values).max()) if values.size else 0):
        raise ValueError("values too large for exact float64 sums")
    sums = counter.sums(values)
    return counter.combine(values, sums, values, sums)


def _symmetries(bet: SideBet) -> frozenset[Perm]:
    """The suit permutations under which the bet pays every deal alike."""
    reading: Reading = READINGS[bet.reads]
    symmetries = frozenset(reading.symmetries)
    paid = reading.paid_by(bet.pays.listed)
    for group in reading.suit_groups:  # classes these permutations exchange: alike only if paid alike
        if len({paid[c] for c in group}) > 1:
            return frozenset({(0, 1, 2, 3)})
    return symmetries


def _compose(a: Perm, b: Perm) -> Perm:
    """a after b, as maps of suits."""
    return (a[b[0]], a[b[1]], a[b[2]], a[b[3]])


def _right_cosets(group: frozenset[Perm]) -> list[Perm]:
    """One permutation t of each right coset {h t : h in group} of the suit permutations."""
    seen: set[Perm] = set()
    representatives = []
    for t in ALL_SUIT_PERMUTATIONS:
        if t in seen:
            continue
        representatives.append(t)
        seen |= {_compose(h, t) for h in group}
    return representatives


def _without(spec: GameSpec, keep: Callable[[str], bool]) -> GameSpec | None:
    ante_play = spec.wagers.ante_play if keep(ANTE_PLAY) else None
    side_bets = tuple(b for b in spec.wagers.side_bets if keep(b.id))
    if ante_play is None and not side_bets:
        return None
    return replace(spec, wagers=Wagers(ante_play, side_bets))


class _Nets:
    """Integer nets (in 1/unit of a bet) of some of a game's wagers for every seat hand against one dealer hand.
    A wager that reads the seat's own cards alone is settled once for every hand; the others at each dealer hand."""

    def __init__(self, spec: GameSpec, plays: npt.NDArray[np.bool_] | None, wagers: Sequence[str], unit: int) -> None:
        settler = Settler(spec, plays)
        columns = {w: np.array([int(n * unit) for n in settler.tables[w].nets], dtype=np.int64) for w in wagers}
        own = [w for w in wagers if w != ANTE_PLAY and READINGS[spec.wagers.side_bet(w).reads].seat is Seat.PLAYER]
        self.dealt = [w for w in wagers if w not in own]
        self.largest = {w: int(np.abs(columns[w]).max()) for w in wagers}
        self.wagers = tuple(wagers)
        self.plays = plays
        self.columns = columns
        cards = hand_table().cards
        own_spec = _without(spec, lambda w: w in own)
        outcomes = {} if own_spec is None else Settler(own_spec, plays).settle(cards, cards, played=plays)
        self.own = {w: columns[w][outcomes[w]] for w in own}  # (the dealer's cards are not read)
        dealt_spec = _without(spec, lambda w: w in self.dealt)
        self.settler = Settler(dealt_spec, plays) if dealt_spec is not None else None

    def against(self, dealer: int) -> IntArray:
        """(wagers, hands): the values of every hand of the hand table against the dealer hand ``dealer``
        (:meth:`~trey.play.settle.Settler.settle_against`; the rows of hands meeting it mean nothing)."""
        outcomes = self.settler.settle_against(dealer) if self.settler is not None else {}
        return np.stack([self.own[w] if w in self.own else self.columns[w][outcomes[w]] for w in self.wagers])


def moments_are_quick(spec: GameSpec) -> bool:
    """Whether the whole table's moments are counted in a fraction of a second: side bets on the player's own
    cards alone (no dealer's hand shared between the seats, only the deck); with Ante & Play they take half a
    minute of CPU."""
    return spec.wagers.ante_play is None and all(READINGS[b.reads].seat is Seat.PLAYER for b in spec.wagers.side_bets)


def table_moments(spec: GameSpec, progress: Callable[[int, int], None] | None = None) -> TableMoments:
    """The exact moments of every wager of ``spec`` for one seat and for two seats of one round (see the module).

    ``progress(done, total)`` is called after each dealer pattern. Refused: a game other than standard Three Card
    Poker, and side bets whose pay depends on another seat's hand (envy bonuses: not counted here)."""
    refuse_other_games(spec, "the whole table's covariance", hint="count one seat with trey analyze")
    for bet in spec.wagers.side_bets:
        if bet.envy:
            raise ValueError(f"{bet.id} pays an envy bonus on other seats' hands: the table's moments do not count it")
    plays = player_decisions(spec)
    wagers = spec.wagers.ids
    settler = Settler(spec, plays)
    unit = _common_unit([settler.tables[w].nets for w in wagers])
    largest = max(abs(int(n * unit)) for w in wagers for n in settler.tables[w].nets)
    if moments_are_quick(spec):
        return _own_cards_moments(spec, settler, unit, largest)
    symmetries = {w: _symmetries(spec.wagers.side_bet(w)) if w != ANTE_PLAY else None for w in wagers}
    group = frozenset(ALL_SUIT_PERMUTATIONS)
    for s in symmetries.values():
        if s is not None:
            group &= s
    alike = [w for w in wagers if symmetries[w] is None or symmetries[w] == frozenset(ALL_SUIT_PERMUTATIONS)]
    other = [w for w in wagers if w not in alike]
    # Wagers paid alike under every permutation, at the representative; the others at each coset's image.
    alike_spec = _without(spec, lambda w: w in alike)
    other_spec = _without(spec, lambda w: w in other)
    alike_nets = _Nets(alike_spec, plays, alike, unit) if alike_spec is not None else None
    other_nets = _Nets(other_spec, plays, other, unit) if other_spec is not None else None
    cosets = _right_cosets(group)
    k = len(cosets)
    order = [wagers.index(w) for w in (*alike, *other)]  # the wager in each column of the stacked values
    position = np.argsort(np.array(order))
    representatives, members = suit_orbits(ALL_SUIT_PERMUTATIONS)
    orbit = np.bincount(members, minlength=len(representatives))
    counter = PairCounter(hand_table().cards)
    if not counter.exact_for(largest):
        raise ValueError(f"a pay of {largest}/{unit} units is too large for the table's exact sums")
    permutations = _hand_permutations()
    holds = np.ascontiguousarray(_holdings().T)  # (52, hands): each card's row
    n, na, no = len(wagers), len(alike), len(other)
    # The columns of each dealer hand D: the alike wagers at D, then for each coset's t the other wagers at tD read
    # at t(P): X(t P, t D) for hand P. Summed over the cosets these are every image's moments (an alike wager pays
    # X(t P, t D) = X(P, D)), so one matrix and one set of sums per dealer pattern hold them all.
    blocks = [slice(na + c * no, na + (c + 1) * no) for c in range(k)]
    sizes = [alike_nets.largest[w] for w in alike] if alike_nets is not None else []
    sizes += [other_nets.largest[w] for w in other] * k if other_nets is not None else []
    # Products of two columns summed over the hands are below 2**53 in size when the hands times the two largest
    # values are: exact in float64, whose products are BLAS's (one thread's worth: (W, hands) by (hands, W)).
    in_floats = HANDS * max(sizes) ** 2 < 2**53
    first = np.zeros(n, dtype=object)
    same = np.zeros((n, n), dtype=object)
    cross = np.zeros((n, n), dtype=object)
    for done, (dealer, size) in enumerate(zip(representatives.tolist(), orbit.tolist(), strict=True)):
        dealt = hand_table().cards[dealer].tolist()
        free = ~(holds[dealt[0]] | holds[dealt[1]] | holds[dealt[2]])
        columns = [alike_nets.against(dealer)] if alike_nets is not None else []
        if other_nets is not None:
            for t in cosets:
                columns.append(other_nets.against(int(permutations[t][dealer]))[:, permutations[t]])
        values = np.concatenate(columns, axis=0) * free  # (W, hands)
        sums = counter.packed_sums(values, sizes)
        if in_floats:
            floats = values.astype(np.float64)
            products = np.rint(floats @ floats.T).astype(np.int64)
        else:
            products = values @ values.T
        pairs = _combined(sums, sums, products)
        first_d = np.zeros(n, dtype=np.int64)
        same_d = np.zeros((n, n), dtype=np.int64)
        cross_d = np.zeros((n, n), dtype=np.int64)
        # Paid alike under every permutation: the same at each coset's image of the dealer's hand.
        first_d[:na] = k * sums.total[:na]
        same_d[:na, :na] = k * products[:na, :na]
        cross_d[:na, :na] = k * pairs[:na, :na]
        for part in blocks:
            first_d[na:] += sums.total[part]
            same_d[na:, na:] += products[part, part]
            cross_d[na:, na:] += pairs[part, part]
            same_d[:na, na:] += products[:na, part]
            cross_d[:na, na:] += pairs[:na, part]
        same_d[na:, :na] = same_d[:na, na:].T
        cross_d[na:, :na] = cross_d[:na, na:].T
        first += first_d.astype(object) * size
        same += same_d.astype(object) * size
        cross += cross_d.astype(object) * size
        if progress is not None:
            progress(done + 1, len(representatives))
    first, same, cross = first[position], same[np.ix_(position, position)], cross[np.ix_(position, position)]
    return TableMoments(
        wagers=wagers,
        mean=tuple(Fraction(int(x), SEAT_DEALS * unit * k) for x in first),
        same_seat=tuple(tuple(Fraction(int(x), SEAT_DEALS * unit * unit * k) for x in row) for row in same),
        other_seat=tuple(tuple(Fraction(int(x), PAIR_DEALS * unit * unit * k) for x in row) for row in cross),
        dealer_patterns=len(representatives),
    )


def _own_cards_moments(spec: GameSpec, settler: Settler, unit: int, largest: int) -> TableMoments:
    """The moments of a game whose every wager reads the seat's own cards alone: a seat's result is a function of
    its hand, and every pair of disjoint seat hands leaves C(46, 3) dealer hands (one pass, no dealer loop)."""
    wagers = spec.wagers.ids
    cards = hand_table().cards
    outcomes = settler.settle(cards, cards)  # the dealer's cards are not looked at
    values = np.stack(
        [np.array([int(n * unit) for n in settler.tables[w].nets], dtype=np.int64)[outcomes[w]] for w in wagers],
        axis=1,
    )
    counter = PairCounter(cards)
    if not counter.exact_for(largest):
        raise ValueError(f"a pay of {largest}/{unit} units is too large for the table's exact sums")
    sums = counter.sums(values)
    cross = counter.combine(values, sums, values, sums)
    same = values.T @ values
    n = len(wagers)
    return TableMoments(
        wagers=wagers,
        mean=tuple(Fraction(int(sums.total[i]), HANDS * unit) for i in range(n)),
        same_seat=tuple(tuple(Fraction(int(same[i, j]), HANDS * unit * unit) for j in range(n)) for i in range(n)),
        other_seat=tuple(
            tuple(Fraction(int(cross[i, j]), HANDS * DEALER_HANDS * unit * unit) for j in range(n)) for i in range(n)
        ),
        dealer_patterns=0,
    )


def _inverse(p: Perm) -> Perm:
    q = [0, 0, 0, 0]
    for suit, image in enumerate(p):
        q[image] = suit
    return (q[0], q[1], q[2], q[3])


@cache
def _card_permutation(p: Perm) -> tuple[IntArray, IntArray]:
    """(p(x) for each card x, p on ordered pairs x * 52 + y)."""
    cards = np.arange(52)
    mapped = (cards // 4) * 4 + np.array(p)[cards % 4]
    pairs = (mapped[:, None] * 52 + mapped[None, :]).reshape(-1)
    return mapped, pairs


def _moved(values: IntArray, sums: Sums, p: Perm) -> tuple[IntArray, Sums]:
    """values'(P) = values(p(P)) and its sums, read from those of values: the sum over hands holding x of values'
    is the sum over hands holding p(x) of values."""
    cards, pairs = _card_permutation(p)
    return values[_hand_permutations()[p]], Sums(sums.total, sums.cards[cards], sums.pairs[pairs])


def money_of_table(
    spec: GameSpec,
    analysis: GameAnalysis,
    mix: Sequence[str] | None,
    seats: int | None = None,
    occupancy: str | None = None,
    decisions_per_hour: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[TableMoney, ChosenMix] | None:
    """``trey analyze``'s table money: the bet mix from ``--mix`` and the options given, each part the command line
    leaves out from the paytable's ``table:`` (else the default; :func:`trey.engine.money.choose_mix`), a
    :class:`~trey.core.errors.TreyError` with a hint when one is wrong; the whole table's moments counted
    (``progress`` as :func:`table_moments`) and the money made of them. None: no bet mix, neither given nor in
    the paytable."""
    from trey.core.errors import TreyError

    where = "--mix" if mix else f"{spec.name}: table:"
    try:
        chosen = choose_mix(spec, mix, seats, occupancy_option(occupancy), decisions_per_hour)
        if chosen is None:
            return None
        table_money(analysis, chosen.mix)  # the wagers checked before the table is counted
        moments = table_moments(spec, progress)
    except ValueError as exc:
        raise TreyError(f"{where}: {exc}", hint="e.g. --mix ante_play=25 --mix pair_plus=60%@10") from None
    return table_money(analysis, chosen.mix, moments), chosen


def money_of_paytable(spec: GameSpec, analysis: GameAnalysis, *, with_range: bool = True) -> TableMoney | None:
    """The money of the bet mix the paytable's ``table:`` describes, with the hour's range (the whole table's
    moments: a fraction of a second for side bets on the player's own cards, half a minute of CPU with Ante &
    Play); None when the table describes no mix or the game is not standard Three Card Poker. What the
    certificate and the workbench show: the same figures as ``trey analyze``'s. Without ``with_range`` the
    whole table is not counted (the blended edge and the theoretical win alone)."""
    mix = table_mix(spec)
    if mix is None or not spec.is_standard_game:
        return None
    return table_money(analysis, mix, table_moments(spec) if with_range else None)
