"""Whole tables: the sums over pairs of disjoint hands against a brute force on a small deck, the suit symmetries,
the own-cards moments against the single-seat engine, and the table's variance against an enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from trey.cards.hand_table import hand_table
from trey.cards.readings.base import ALL_SUIT_PERMUTATIONS
from trey.engine import analyze
from trey.engine.table import Seating, TableMoments, round_variance, seat_mean
from trey.paytable.load import load_spec
from trey.play.table import PairCounter, _compose, _inverse, _moved, _right_cosets, table_moments

PAYTABLES = Path(__file__).resolve().parents[2] / "paytables"


def _brute_pair_sums(deck: int, value: dict[tuple[frozenset[int], frozenset[int]], tuple[int, ...]]) -> list[list[int]]:
    """Sum over every (dealer, seat, other seat) deal of three pairwise disjoint hands of value(seat, dealer)_w *
    value(other, dealer)_v, one deal at a time."""
    hands = [frozenset(h) for h in itertools.combinations(range(deck), 3)]
    width = len(next(iter(value.values())))
    total = [[0] * width for _ in range(width)]
    for d in hands:
        for p in hands:
            if p & d:
                continue
            for q in hands:
                if q & d or q & p:
                    continue
                x, y = value[(p, d)], value[(q, d)]
                for w in range(width):
                    for v in range(width):
                        total[w][v] += x[w] * y[v]
    return total


@pytest.mark.parametrize("deck", [9, 10])
def test_pair_sums_equal_a_brute_force_on_a_small_deck(deck: int) -> None:
    rng = np.random.default_rng(deck)
    hands = list(itertools.combinations(range(deck), 3))
    cards = np.array(hands, dtype=np.int64)
    value = {
        (frozenset(p), frozenset(d)): tuple(int(x) for x in rng.integers(-5, 40, size=3))
        for p in hands
        for d in hands
        if not set(p) & set(d)
    }
    counter = PairCounter(cards, deck)
    counted = np.zeros((3, 3), dtype=np.int64)
    for d in hands:
        values = np.zeros((len(hands), 3), dtype=np.int64)
        for i, p in enumerate(hands):
            if not set(p) & set(d):
                values[i] = value[(frozenset(p), frozenset(d))]
        sums = counter.sums(values)
        counted += counter.combine(values, sums, values, sums)
    assert counted.tolist() == _brute_pair_sums(deck, value)


def test_moved_sums_are_the_sums_of_the_moved_values() -> None:
    rng = np.random.default_rng(1)
    counter = PairCounter(hand_table().cards)
    values = rng.integers(-3, 100, size=(22_100, 2)).astype(np.int64)
    sums = counter.sums(values)
    for perm in ((1, 0, 3, 2), (2, 3, 1, 0)):
        moved, moved_sums = _moved(values, sums, perm)
        direct = counter.sums(moved)
        assert np.array_equal(moved_sums.cards, direct.cards)
        assert np.array_equal(moved_sums.pairs, direct.pairs)
        assert np.array_equal(moved_sums.total, direct.total)


def test_cosets_of_the_colour_preserving_permutations() -> None:
    black, red = {0, 3}, {1, 2}  # clubs and spades, diamonds and hearts
    colours = frozenset(
        p
        for p in ALL_SUIT_PERMUTATIONS
        if {p[s] for s in black} in (black, red) and {p[s] for s in red} in (black, red)
    )
    assert len(colours) == 8
    cosets = _right_cosets(colours)
    assert len(cosets) == 3
    covered = {_compose(h, t) for t in cosets for h in colours}
    assert covered == set(ALL_SUIT_PERMUTATIONS)
    assert all(_compose(p, _inverse(p)) == (0, 1, 2, 3) for p in ALL_SUIT_PERMUTATIONS)


@pytest.fixture(scope="module")
def pair_plus() -> TableMoments:
    return table_moments(load_spec(PAYTABLES / "pair_plus" / "40-30-6-3-1.yaml"))


def test_own_cards_moments_agree_with_the_single_seat_engine(pair_plus: TableMoments) -> None:
    stats = analyze(load_spec(PAYTABLES / "pair_plus" / "40-30-6-3-1.yaml")).wagers["pair_plus"].stats
    assert pair_plus.mean == (stats.mean,)
    assert pair_plus.variance("pair_plus") == stats.variance
    # Two seats' hands never share a card: a little more likely to pay together than independent hands (> 0).
    assert 0 < pair_plus.covariance_other_seat("pair_plus", "pair_plus") < Fraction(1, 100)


def test_two_seats_of_pair_plus_by_brute_force_over_the_other_seat() -> None:
    """E[X Y] of two seats' Pair Plus, counted another way: for each class of the first hand, the classes of the
    hands disjoint from it (the reading's own inclusion-exclusion of the dealer's hands, reused for another seat)."""
    spec = load_spec(PAYTABLES / "pair_plus" / "40-30-6-3-1.yaml")
    moments = table_moments(spec)
    from trey.cards.readings import PLAYER_HAND, Deals

    table = hand_table()
    classes = PLAYER_HAND.classify(Deals(table.cards, table.cards))
    bet = spec.wagers.side_bet("pair_plus")
    paid = PLAYER_HAND.paid_by(bet.pays.listed)
    nets = [bet.net(bet.pays.rows[row][1]) if row is not None else Fraction(-1) for row in paid]
    total = Fraction(0)
    for c in range(len(PLAYER_HAND.classes)):
        plays = classes != c  # "folded" exactly on class c: the other seat's classes over those hands
        others = PLAYER_HAND.other_hands_where_folded(plays)
        total += nets[c] * sum(n * nets[k] for k, n in enumerate(others))
    assert moments.other_seat[0][0] == total / (22_100 * 18_424)


def _enumerated_round_variance(seats: int, occupancy: Fraction, share: Fraction) -> tuple[Fraction, TableMoments]:
    """A toy table enumerated outcome by outcome: a shared "dealer" d in {0, 1}, each seat's card c in {0, 1, 2}
    independent given d; wager A pays a(d, c), wager B b(c); a seat sits with probability ``occupancy`` and bets B
    with probability ``share``. Returns Var[T] by enumeration and the moments the formulas need."""
    a = {(0, 0): 3, (0, 1): -1, (0, 2): -2, (1, 0): -1, (1, 1): -1, (1, 2): 5}
    b = {0: -1, 1: 2, 2: -1}
    pd = {0: Fraction(1, 3), 1: Fraction(2, 3)}
    pc = {
        0: {0: Fraction(1, 2), 1: Fraction(1, 4), 2: Fraction(1, 4)},
        1: {0: Fraction(1, 5), 1: Fraction(2, 5), 2: Fraction(2, 5)},
    }
    bets = {"a": Fraction(2), "b": Fraction(3)}
    first = second = Fraction(0)
    for d in (0, 1):
        for cs in itertools.product(range(3), repeat=seats):
            for sat in itertools.product((0, 1), repeat=seats):
                for on_b in itertools.product((0, 1), repeat=seats):
                    p = pd[d]
                    for c, s, o in zip(cs, sat, on_b, strict=True):
                        p *= pc[d][c] * (occupancy if s else 1 - occupancy) * (share if o else 1 - share)
                    t = sum(
                        s * (bets["a"] * a[(d, c)] + o * bets["b"] * b[c])
                        for c, s, o in zip(cs, sat, on_b, strict=True)
                    )
                    first += p * t
                    second += p * t * t
    values = {"a": lambda d, c: a[(d, c)], "b": lambda _d, c: b[c]}
    names = ("a", "b")
    mean = tuple(sum(pd[d] * pc[d][c] * values[w](d, c) for d in (0, 1) for c in range(3)) for w in names)
    same = tuple(
        tuple(
            sum(pd[d] * pc[d][c] * values[w](d, c) * values[v](d, c) for d in (0, 1) for c in range(3)) for v in names
        )
        for w in names
    )
    other = tuple(
        tuple(
            sum(
                pd[d] * pc[d][c] * pc[d][e] * values[w](d, c) * values[v](d, e)
                for d in (0, 1)
                for c in range(3)
                for e in range(3)
            )
            for v in names
        )
        for w in names
    )
    return second - first**2, TableMoments(names, mean, same, other, 0)


@pytest.mark.parametrize(
    ("seats", "occupancy", "share"), [(1, Fraction(1), Fraction(1)), (3, Fraction(3, 4), Fraction(2, 5))]
)
def test_round_variance_equals_an_enumeration(seats: int, occupancy: Fraction, share: Fraction) -> None:
    expected, moments = _enumerated_round_variance(seats, occupancy, share)
    seating = Seating((("a", Fraction(1), Fraction(2)), ("b", share, Fraction(3))))
    assert round_variance(moments, seating, seats, occupancy) == expected
    assert seat_mean(moments, seating) == 2 * moments.mean[0] + share * 3 * moments.mean[1]


def test_bad_seating_is_refused() -> None:
    with pytest.raises(ValueError, match="share of seats on pair_plus must be between 0 and 1"):
        Seating((("pair_plus", Fraction(3, 2), Fraction(5)),))
    _, moments = _enumerated_round_variance(1, Fraction(1), Fraction(1))
    with pytest.raises(ValueError, match="a table has 1 to 7 seats, not 8"):
        round_variance(moments, Seating((("a", Fraction(1), Fraction(1)),)), 8)


def test_the_dealer_loop_equals_each_dealer_hand_counted_directly(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suit patterns, the cosets of Prime's colour permutations and the moved sums, against every dealer hand
    of a pattern settled and summed directly, one hand at a time (the standard game's four wagers)."""
    import trey.play.table as table_module
    from trey.cards.readings.base import suit_orbits
    from trey.engine import player_decisions
    from trey.play.settle import Settler
    from trey.play.table import PAIR_DEALS, SEAT_DEALS

    spec = load_spec(PAYTABLES / "standard.yaml")
    representatives, members = suit_orbits(ALL_SUIT_PERMUTATIONS)
    chosen = [200]  # a suit pattern of 12 dealer hands
    dealers = [np.flatnonzero(members == p) for p in chosen]
    renumbered = np.concatenate([np.full(len(d), i) for i, d in enumerate(dealers)])
    monkeypatch.setattr(table_module, "suit_orbits", lambda _s: (representatives[chosen], np.sort(renumbered)))
    moments = table_moments(spec)
    settler = Settler(spec, player_decisions(spec))
    wagers = spec.wagers.ids
    cards = hand_table().cards
    counter = PairCounter(cards)
    first = np.zeros(4, dtype=np.int64)
    same = np.zeros((4, 4), dtype=np.int64)
    cross = np.zeros((4, 4), dtype=np.int64)
    for dealer in np.concatenate(dealers).tolist():
        free = np.flatnonzero(~np.isin(cards, cards[dealer]).any(axis=1))
        outcomes = settler.settle(cards[free], np.repeat(cards[dealer : dealer + 1], len(free), axis=0))
        values = np.zeros((22_100, 4), dtype=np.int64)
        for i, w in enumerate(wagers):
            values[free, i] = np.array([int(n) for n in settler.tables[w].nets], dtype=np.int64)[outcomes[w]]
        sums = counter.sums(values)
        first += values.sum(axis=0)
        same += values.T @ values
        cross += counter.combine(values, sums, values, sums)
    assert moments.mean == tuple(Fraction(int(x), SEAT_DEALS) for x in first)
    assert moments.same_seat == tuple(tuple(Fraction(int(x), SEAT_DEALS) for x in row) for row in same)
    assert moments.other_seat == tuple(tuple(Fraction(int(x), PAIR_DEALS) for x in row) for row in cross)
