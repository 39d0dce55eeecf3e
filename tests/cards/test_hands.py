from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trey.cards.card import cards_text, colour_of, parse_cards
from trey.cards.hands import (
    ColourOutcome,
    SixCardCategory,
    ThreeCardCategory,
    best_five_categories,
    best_five_category,
    colour_outcome,
    describe_key,
    high_card_key,
    is_mini_royal,
    three_card_category,
    three_card_key,
    three_card_keys,
)

ALL_HANDS = list(combinations(range(52), 3))


def key(text: str) -> int:
    return three_card_key(parse_cards(text))


def test_three_card_category_counts_match_published_figures() -> None:
    counts = Counter(three_card_category(h) for h in ALL_HANDS)
    assert counts == {
        ThreeCardCategory.STRAIGHT_FLUSH: 48,
        ThreeCardCategory.THREE_OF_A_KIND: 52,
        ThreeCardCategory.STRAIGHT: 720,
        ThreeCardCategory.FLUSH: 1096,
        ThreeCardCategory.PAIR: 3744,
        ThreeCardCategory.HIGH_CARD: 16440,
    }
    assert sum(is_mini_royal(h) for h in ALL_HANDS) == 4


def test_vectorised_keys_equal_single_hand_keys_for_every_hand() -> None:
    vectorised = three_card_keys(np.array(ALL_HANDS))
    assert vectorised.tolist() == [three_card_key(h) for h in ALL_HANDS]


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("Qh Kh Ah", "2c 2d 2h"),  # mini-royal over trips
        ("2s 3s 4s", "Ac Ad Ah"),  # straight flush over trips
        ("Ac Ad Ah", "Ks Qd Jc"),  # trips over straight
        ("4c 3d 2h", "Ks Js 9s"),  # a straight beats a flush
        ("3c 2d Ah", "Ks Js 9s"),  # even the lowest straight, A-2-3
        ("4c 3d 2h", "3c 2d Ah"),  # A-2-3 is the lowest straight (3-high)
        ("Ac Kd Qh", "Kc Qd Jh"),  # A-K-Q is the highest
        ("5s 3s 2s", "Ac Ad Kh"),  # flush over pair
        ("Ac Ad 2h", "Kc Kd Ah"),  # pairs by the pair first
        ("8c 8d 5h", "8h 8s 4c"),  # then the kicker
        ("2c 2d 3h", "Ac Kd Jh"),  # pair over high card
        ("Ah 7d 6c", "Kc Qd 10h"),  # high cards: highest first
        ("Qh 6d 4c", "Qc 6s 3d"),  # then the next
        ("Qh 6d 4c", "Qc 5s 4d"),
    ],
)
def test_hand_order(stronger: str, weaker: str) -> None:
    assert key(stronger) > key(weaker)


def test_suits_never_break_ties() -> None:
    assert key("Ah Kd 9c") == key("As Kc 9d")
    assert key("Qh Jh 10h") == key("Qs Js 10s")
    assert key("7c 7d 2h") == key("7h 7s 2c")


def test_named_hands() -> None:
    assert describe_key(high_card_key((10, 4, 2))) == "Q-6-4"
    assert describe_key(key("Qh 6d 4c")) == "Q-6-4"
    assert describe_key(key("8c 8d 5h")) == "pair of 8s, 5 kicker"
    assert describe_key(key("3c 2d Ah")) == "straight, 3-high"
    assert describe_key(key("10s 5s 2s")) == "flush 10-5-2"
    with pytest.raises(ValueError, match="straight"):
        high_card_key((12, 1, 0))
    with pytest.raises(ValueError, match="must differ"):
        high_card_key((12, 12, 0))


# An independent best-five evaluator: rank every five-card subset the textbook way and keep the best.


def _five_card_category(cards: tuple[int, ...]) -> SixCardCategory:
    ranks = sorted((c // 4 for c in cards), reverse=True)
    flush = len({c % 4 for c in cards}) == 1
    distinct = sorted(set(ranks))
    straight = len(distinct) == 5 and (distinct[-1] - distinct[0] == 4 or distinct == [0, 1, 2, 3, 12])
    shape = sorted(Counter(ranks).values(), reverse=True)
    if straight and flush:
        return SixCardCategory.ROYAL_FLUSH if distinct[0] == 8 else SixCardCategory.STRAIGHT_FLUSH
    if shape[0] == 4:
        return SixCardCategory.FOUR_OF_A_KIND
    if shape[:2] == [3, 2]:
        return SixCardCategory.FULL_HOUSE
    if flush:
        return SixCardCategory.FLUSH
    if straight:
        return SixCardCategory.STRAIGHT
    if shape[0] == 3:
        return SixCardCategory.THREE_OF_A_KIND
    if shape[:2] == [2, 2]:
        return SixCardCategory.TWO_PAIR
    return SixCardCategory.PAIR if shape[0] == 2 else SixCardCategory.HIGH_CARD


def brute_best_five(cards: tuple[int, ...]) -> SixCardCategory:
    return max(_five_card_category(five) for five in combinations(cards, 5))


six_cards = st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True).map(tuple)


def test_best_five_agrees_with_brute_force_over_a_sample_and_every_one_suit_hand() -> None:
    """3,000 seeded random hands, and the 1,716 hands of six clubs and the 1,716 of six spades (every flush,
    straight flush and royal flush shape), in a plain loop: hypothesis took 7 s of CPU to generate 3,000 examples."""
    rng = random.Random(20261202)
    sample = [tuple(rng.sample(range(52), 6)) for _ in range(3000)]
    one_suit = [tuple(4 * rank + suit for rank in ranks) for suit in (0, 3) for ranks in combinations(range(13), 6)]
    for cards in sample + one_suit:
        assert best_five_category(cards) == brute_best_five(cards), cards_text(cards)


@settings(max_examples=200, deadline=None)
@given(six_cards)
def test_best_five_agrees_with_brute_force(cards: tuple[int, ...]) -> None:
    """Hypothesis's own search (small cards, near-duplicates) and its shrinking to the simplest failing hand."""
    assert best_five_category(cards) == brute_best_five(cards), cards_text(cards)


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("As Ks Qs Js 10s 9s", SixCardCategory.ROYAL_FLUSH),
        ("Ah Kh Qh Jh 10h 10c", SixCardCategory.ROYAL_FLUSH),
        ("Ah 2h 3h 4h 5h Ad", SixCardCategory.STRAIGHT_FLUSH),
        ("9c 9d 9h 9s Ah Kh", SixCardCategory.FOUR_OF_A_KIND),
        ("9c 9d 9h Ks Kh 2c", SixCardCategory.FULL_HOUSE),
        ("9c 9d 9h Ks Kh Kc", SixCardCategory.FULL_HOUSE),
        ("2h 5h 7h 9h Jh 3c", SixCardCategory.FLUSH),
        ("Ac 2d 3h 4s 5c 5d", SixCardCategory.STRAIGHT),
        ("9c 9d 9h 2s 5h Jc", SixCardCategory.THREE_OF_A_KIND),
        ("9c 9d 2h 2s 5h 5c", SixCardCategory.TWO_PAIR),
        ("9c 9d 2h 3s 5h Jc", SixCardCategory.PAIR),
        ("9c 7d 2h 3s 5h Jc", SixCardCategory.HIGH_CARD),
    ],
)
def test_best_five_examples(text: str, category: SixCardCategory) -> None:
    cards = parse_cards(text)
    assert best_five_category(cards) is category
    assert brute_best_five(cards) is category


def test_vectorised_best_five_agrees_on_a_random_sample() -> None:
    rng = random.Random(20261129)
    sample = [tuple(rng.sample(range(52), 6)) for _ in range(20_000)]
    vectorised = best_five_categories(np.array(sample)).tolist()
    assert vectorised == [best_five_category(s) for s in sample]


def test_colours() -> None:
    assert [colour_of(c) for c in parse_cards("2c 2d 2h 2s")] == [0, 1, 1, 0]
    red, black = parse_cards("2d 5h 9d"), parse_cards("2c 5s 9c")
    assert colour_outcome(red, parse_cards("Ah Kd 3h")) is ColourOutcome.SIX_SAME_COLOUR
    assert colour_outcome(red, black) is ColourOutcome.THREE_SAME_COLOUR
    assert colour_outcome(parse_cards("2d 5h 9c"), red) is ColourOutcome.MIXED


def test_card_parsing() -> None:
    assert cards_text(parse_cards("Ah 10d 2c")) == "Ah Td 2c"
    for bad in ("Ah Ah", "Xh", "A", "Ax"):
        with pytest.raises(ValueError):
            parse_cards(bad)
