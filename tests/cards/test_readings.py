"""Card readings: each reading's one classification agrees with its closed-form counts over every deal, a deal is
paid by the rarest listed outcome it belongs to, and counts over the deals a player plays are exact."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from conftest import STANDARD
from trey.cards.card import parse_cards
from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.cards.hands import best_five_category, colour_outcome, three_card_key
from trey.cards.readings import COLOURS, DEALER_HAND, PLAYER_HAND, READINGS, SIX_CARDS, Deals
from trey.cards.readings.base import _folded_counts, _folded_dealer_counts
from trey.engine import analyze
from trey.paytable.load import load_spec
from trey.paytable.model import GameSpec, OnFold, Paytable, SideBet, Wagers
from trey.paytable.odds import Odds
from trey.play.simulate import deal

OPTIMAL_PLAYS = analyze(load_spec(STANDARD)).ante_play.plays  # type: ignore[union-attr]


def classes_of(reading_name: str, player: str, dealer: str) -> str:
    reading = READINGS[reading_name]
    index = reading.classify(Deals(np.array([parse_cards(player)]), np.array([parse_cards(dealer)])))
    return reading.classes[int(index[0])]


# --- classify == class_counts over every deal ----------------------------------------------------------------


@pytest.mark.parametrize("reading", [PLAYER_HAND, DEALER_HAND], ids=lambda r: r.name)
def test_three_card_readings_classify_every_hand_as_counted(reading: object) -> None:
    cards = hand_table().cards
    assert reading is not None
    counted = reading.class_counts()  # type: ignore[attr-defined]
    classified = np.bincount(reading.classify(Deals(cards, cards)), minlength=len(counted))  # type: ignore[attr-defined]
    assert tuple(classified) == counted
    # published: SF 48 (4 mini-royals), trips 52, straight 720, flush 1,096, pair 3,744, high card 16,440
    assert counted == (1, 1, 1, 1, 44, 52, 720, 1096, 3744, 16440)


def test_colours_classified_over_every_player_and_dealer_deal_as_counted() -> None:
    """Every one of the 407,170,400 deals: the dealer's 18,424 hands against one player hand of each colour
    pattern, weighted by the hands sharing it (classify does the work; the closed form uses C(23, 3))."""
    everything_folded = np.zeros(HANDS, dtype=bool)
    assert _folded_counts(COLOURS, everything_folded) == COLOURS.class_counts()
    assert COLOURS.class_counts() == (9_209_200, 86_595_600, 311_365_600)


def test_six_cards_sampled_sets_agree_with_the_counts() -> None:
    """2,000,000 random six-card sets classified: each class within 4.5 sigma of its exact share, and each of
    20,000 of them classified again, one by one, by the single-hand rule."""
    rng = np.random.default_rng(20261130)
    n = 2_000_000
    sample = deal(rng, n)  # six different cards a row, uniformly, as int8 (the simulator's dealing, and its dtype)
    classes = SIX_CARDS.classify(Deals(sample[:, :3], sample[:, 3:]))
    observed = np.bincount(classes, minlength=len(SIX_CARDS.classes))
    for name, count, seen in zip(SIX_CARDS.classes, SIX_CARDS.class_counts(), observed, strict=True):
        p = count / SIX_CARDS.cycle
        assert abs(seen - n * p) <= 4.5 * (n * p * (1 - p)) ** 0.5 + 1, name
    for row in range(20_000):
        cards = sample[row].tolist()
        name = SIX_CARDS.classes[classes[row]]
        category = best_five_category(cards).slug
        if category == "royal_flush":
            suit = Counter(c % 4 for c in cards).most_common(1)[0][0]
            assert name == "royal_flush_" + ("clubs", "diamonds", "hearts", "spades")[suit]
        elif category == "straight_flush":
            assert name == "other_straight_flush"
        else:
            assert name == ("nothing" if category == "high_card" else category)


@pytest.mark.slow
def test_six_cards_classify_every_set_as_counted() -> None:
    """All 20,358,520 six-card sets classified (about 30 s; the sampled test above covers the same code)."""
    counts = np.zeros(len(SIX_CARDS.classes), dtype=np.int64)
    for first in range(47):
        rest = np.array(list(combinations(range(first + 1, 52), 5)), dtype=np.int8).reshape(-1, 5)
        sets = np.column_stack([np.full(len(rest), first, dtype=np.int8), rest])
        counts += np.bincount(SIX_CARDS.classify(Deals(sets[:, :3], sets[:, 3:])), minlength=len(counts))
    assert tuple(counts) == SIX_CARDS.class_counts()


def test_six_card_counts_are_the_published_ones() -> None:
    counts = dict(zip(SIX_CARDS.classes, SIX_CARDS.class_counts(), strict=True))
    assert sum(counts[f"royal_flush_{s}"] for s in ("spades", "hearts", "diamonds", "clubs")) == 188
    assert (counts["other_straight_flush"], counts["four_of_a_kind"], counts["full_house"]) == (1656, 14664, 165984)
    assert (counts["flush"], counts["straight"], counts["three_of_a_kind"]) == (205792, 361620, 732160)
    assert (counts["two_pair"], counts["pair"], counts["nothing"]) == (2532816, 9730740, 6612900)


# --- rarest listed outcome -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("listed", "paid"),
    [
        (("mini_royal_spades", "mini_royal", "straight_flush"), "mini_royal_spades"),
        (("mini_royal_hearts", "mini_royal", "straight_flush"), "mini_royal"),
        (("straight_flush", "pair"), "straight_flush"),
        (("pair",), None),
    ],
)
def test_a_spade_mini_royal_is_paid_by_the_rarest_listed_outcome(listed: tuple[str, ...], paid: str | None) -> None:
    spade_royal = PLAYER_HAND.classes.index("mini_royal_spades")
    row = PLAYER_HAND.paid_by(listed)[spade_royal]
    assert (listed[row] if row is not None else None) == paid


@pytest.mark.parametrize(
    ("listed", "paid"),
    [
        (("royal_flush_diamonds", "royal_flush", "straight_flush"), "royal_flush_diamonds"),
        (("royal_flush_spades", "royal_flush", "straight_flush"), "royal_flush"),
        (("royal_flush_spades", "straight_flush", "flush"), "straight_flush"),
    ],
)
def test_a_diamond_royal_flush_is_paid_by_the_rarest_listed_outcome(listed: tuple[str, ...], paid: str) -> None:
    assert classes_of("six_cards", "Ad Kd Qd", "Jd Td 2c") == "royal_flush_diamonds"
    row = SIX_CARDS.paid_by(listed)[SIX_CARDS.classes.index("royal_flush_diamonds")]
    assert row is not None and listed[row] == paid


@pytest.mark.parametrize(
    ("reading", "player", "dealer", "expected"),
    [
        ("player_hand", "As Ks Qs", "2c 3c 4c", "mini_royal_spades"),
        ("player_hand", "Ac Kc Qc", "2d 3c 4c", "mini_royal_clubs"),
        ("player_hand", "Jh Qh Kh", "2c 3c 4c", "other_straight_flush"),
        ("player_hand", "As 2d 3c", "2c 3h 4c", "straight"),
        ("dealer_hand", "2c 3c 4c", "Ah Kh Qh", "mini_royal_hearts"),
        ("dealer_hand", "As Ks Qs", "7h 7d 2c", "pair"),
        ("dealer_hand", "As Ks Qs", "7h 9d 2c", "nothing"),
        ("six_cards", "As Ks Qs", "Js Ts 2c", "royal_flush_spades"),
        ("six_cards", "9s Ks Qs", "Js Ts 2c", "other_straight_flush"),
        ("six_cards", "9s 9d 9c", "9h Ts 2c", "four_of_a_kind"),
        ("six_cards", "9s 9d 2c", "2h Ts 3c", "two_pair"),
        ("colours", "2c 5s 9c", "3s 4c Ks", "six_same_colour"),
        ("colours", "2c 5s 9c", "3s 4c Kh", "three_same_colour_only"),
        ("colours", "2c 5s 9d", "3s 4c Ks", "nothing"),
    ],
)
def test_hand_picked_deals(reading: str, player: str, dealer: str, expected: str) -> None:
    assert classes_of(reading, player, dealer) == expected


def test_colours_agree_with_the_single_hand_rule() -> None:
    rng = np.random.default_rng(5)
    deals = np.argsort(rng.random((5000, 52)), axis=1)[:, :6]
    classes = COLOURS.classify(Deals(deals[:, :3], deals[:, 3:]))
    names = {0: "nothing", 1: "three_same_colour_only", 2: "six_same_colour"}
    for row, cls in zip(deals.tolist(), classes.tolist(), strict=True):
        assert COLOURS.classes[cls] == names[colour_outcome(row[:3], row[3:])]


# --- counts over the deals a player plays (side bets lost on a fold) -------------------------------------------


def test_dealer_hand_counts_where_folded_agree_by_two_methods() -> None:
    """Inclusion-exclusion over the player's cards against enumeration per suit pattern: the same numbers."""
    assert _folded_dealer_counts(DEALER_HAND, OPTIMAL_PLAYS) == _folded_counts(DEALER_HAND, OPTIMAL_PLAYS)


@pytest.mark.parametrize("reading", [SIX_CARDS, COLOURS], ids=lambda r: r.name)
@pytest.mark.parametrize("weakest", ["Q-6-3", "7-5-2"])
def test_folded_counts_equal_a_brute_force(reading: object, weakest: str) -> None:
    """A player who folds exactly the hands of one strength (whatever their suits): every one of those hands
    against each of its 18,424 dealer hands, classified one deal at a time, against the suit-pattern count."""
    table = hand_table()
    key = three_card_key(parse_cards(" ".join(f"{r}{s}" for r, s in zip(weakest.split("-"), "cdh", strict=True))))
    plays = table.keys != key
    expected: Counter[int] = Counter()
    for hand in np.flatnonzero(~plays):
        player = table.cards[hand]
        dealers = np.array(list(combinations([c for c in range(52) if c not in player], 3)))
        expected.update(reading.classify(Deals(np.tile(player, (len(dealers), 1)), dealers)).tolist())  # type: ignore[attr-defined]
    folded = _folded_counts(reading, plays)  # type: ignore[arg-type]
    assert folded == tuple(expected.get(c, 0) for c in range(len(folded)))
    assert sum(folded) == int((~plays).sum()) * DEALER_HANDS


@pytest.mark.parametrize("reading", [DEALER_HAND, SIX_CARDS, COLOURS], ids=lambda r: r.name)
def test_played_and_folded_deals_make_up_the_cycle(reading: object) -> None:
    cycle, played, folded = reading.counts_where_played(OPTIMAL_PLAYS)  # type: ignore[attr-defined]
    assert cycle == HANDS * DEALER_HANDS
    assert sum(played) + folded == cycle
    assert folded == 7_200 * DEALER_HANDS


# --- a dealer-hand bet has the figures of the same table as Pair Plus -------------------------------------------


def test_a_dealer_bonus_has_the_figures_of_the_same_pair_plus_table() -> None:
    pays = {"straight_flush": Odds(40), "three_of_a_kind": Odds(30), "straight": Odds(6), "flush": Odds(3)}
    pays["pair"] = Odds(1)
    table = Paytable.from_mapping(DEALER_HAND.outcome_slugs, pays)
    dealer_bonus = SideBet("dealer_bonus", "Dealer Bonus", "dealer_hand", table, OnFold.STANDS)
    pair_plus = SideBet.of_preset("pair_plus", pays, OnFold.STANDS)
    spec = GameSpec(name="x", wagers=Wagers(side_bets=(pair_plus, dealer_bonus)))
    analysis = analyze(spec)
    a, b = analysis.wagers["pair_plus"], analysis.wagers["dealer_bonus"]
    assert a.stats == b.stats
    assert [(r.outcome, r.combinations) for r in a.outcomes] == [(r.outcome, r.combinations) for r in b.outcomes]
    assert a.stats.house_edge == Fraction(402, 5525)  # (48*40 + 52*30 + 720*6 + 1096*3 + 3744 - 16440) / 22100
