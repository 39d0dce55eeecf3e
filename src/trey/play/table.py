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
under every permutation (Prime reads colours) is settled at the representative's images under a few permutations
(one per coset of the permutations it respects); the others are read from the representative by permuting hands.
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
from trey.engine.money import ChosenMix, TableMoney, choose_mix, parse_share, table_mix, table_money
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

    @staticmethod
    def combine(x: IntArray, xs: Sums, y: IntArray, ys: Sums) -> IntArray:
        """sum over ordered pairs of disjoint hands (P, Q) of x[P, w] * y[Q, v], for every (w, v), from the sums
        of x and y (``x`` and ``y`` zero on hands to be left out). Integer products (exact; no BLAS threads)."""
        pairs = xs.pairs.T @ ys.pairs  # each unordered pair of cards twice
        result: IntArray = np.outer(xs.total, ys.total) - xs.cards.T @ ys.cards + pairs // 2 - x.T @ y
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
        self.wagers = tuple(wagers)
        self.plays = plays
        self.columns = columns
        cards = hand_table().cards
        own_spec = _without(spec, lambda w: w in own)
        outcomes = {} if own_spec is None else Settler(own_spec, plays).settle(cards, cards, played=plays)
        self.own = {w: columns[w][outcomes[w]] for w in own}  # (the dealer's cards are not read)
        dealt_spec = _without(spec, lambda w: w in self.dealt)
        self.settler = Settler(dealt_spec, plays) if dealt_spec is not None else None

    def at(self, dealer: int, disjoint: IntArray) -> IntArray:
        return self.at_each([dealer], [disjoint])

    def at_each(self, dealers: Sequence[int], disjoint: Sequence[IntArray]) -> IntArray:
        """The values against each dealer hand side by side: (hands, len(dealers) x wagers), settled at once."""
        table = hand_table()
        width = len(self.wagers)
        values = np.zeros((HANDS, len(dealers) * width), dtype=np.int64)
        outcomes: dict[str, IntArray] = {}
        if self.settler is not None:
            hands = np.concatenate(disjoint)
            played = self.plays[hands] if self.plays is not None else None
            dealt = np.repeat(table.cards[np.array(dealers)], [len(d) for d in disjoint], axis=0)
            outcomes = self.settler.settle(table.cards[hands], dealt, played=played)
        start = 0
        for k, rows in enumerate(disjoint):
            for i, wager in enumerate(self.wagers):
                if wager in self.own:
                    values[rows, k * width + i] = self.own[wager][rows]
                else:
                    values[rows, k * width + i] = self.columns[wager][outcomes[wager][start : start + len(rows)]]
            start += len(rows)
        return values


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
    n, na = len(wagers), len(alike)
    first = np.zeros(n, dtype=object)
    same = np.zeros((n, n), dtype=object)
    cross = np.zeros((n, n), dtype=object)
    for done, (dealer, size) in enumerate(zip(representatives.tolist(), orbit.tolist(), strict=True)):
        first_d = np.zeros(n, dtype=np.int64)
        same_d = np.zeros((n, n), dtype=np.int64)
        cross_d = np.zeros((n, n), dtype=np.int64)
        if alike_nets is not None:
            base = alike_nets.at(dealer, _disjoint(dealer))
            base_sums = counter.sums(base)
            # Paid alike under every permutation: the same at each coset's image of the dealer's hand.
            first_d[:na] = k * base_sums.total
            same_d[:na, :na] = k * (base.T @ base)
            cross_d[:na, :na] = k * counter.combine(base, base_sums, base, base_sums)
        if other_nets is not None:
            images = [int(permutations[t][dealer]) for t in cosets]  # each coset's t applied to the dealer's hand
            every = other_nets.at_each(images, [_disjoint(image) for image in images])
            every_sums = counter.sums(every)
            no = len(other)
            for c, t in enumerate(cosets):
                part = slice(c * no, (c + 1) * no)
                values = every[:, part]
                sums = Sums(every_sums.total[part], every_sums.cards[:, part], every_sums.pairs[:, part])
                first_d[na:] += sums.total
                same_d[na:, na:] += values.T @ values
                cross_d[na:, na:] += counter.combine(values, sums, values, sums)
                if alike_nets is not None:  # X(P, tD) = X(t^-1 P, D) for a wager every permutation leaves alike
                    moved, moved_sums = (base, base_sums) if t == IDENTITY else _moved(base, base_sums, _inverse(t))
                    same_d[:na, na:] += moved.T @ values
                    cross_d[:na, na:] += counter.combine(moved, moved_sums, values, sums)
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


def _disjoint(dealer: int) -> IntArray:
    """The hands that share no card with the dealer's hand ``dealer``."""
    free = np.ones(HANDS, dtype=bool)
    for card in hand_table().cards[dealer].tolist():
        free[_hands_holding()[card]] = False
    found: IntArray = np.flatnonzero(free)
    return found


@cache
def _hands_holding() -> tuple[IntArray, ...]:
    """The hands holding each card."""
    holds = _holdings()
    return tuple(np.flatnonzero(holds[:, card]) for card in range(52))


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
        chosen = choose_mix(
            spec, mix, seats, parse_share(occupancy) if occupancy is not None else None, decisions_per_hour
        )
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
