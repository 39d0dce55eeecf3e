"""The whole table's fast paths (issue 34's speed) against the ways they replace: each hand settled against one
dealer hand against :meth:`Settler.settle` of those deals, every reading's :meth:`classify_against` against its
:meth:`classify`, the six-card parts of two halves against the six cards', and the packed sums against the
bincount ones."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trey.cards.hand_table import HANDS, hand_indexes, hand_table
from trey.cards.hands import best_five_categories, categories_of_parts, six_card_parts
from trey.cards.readings import READINGS, Deals
from trey.cards.readings.base import Reading
from trey.engine import player_decisions
from trey.paytable.load import load_spec
from trey.play.settle import Settler
from trey.play.table import PairCounter

PAYTABLES = Path(__file__).resolve().parents[2] / "paytables"
# A royal flush's dealer hand (J-10 of clubs and a card: the player's A-K-Q of clubs makes one), a flush-rich one,
# a pair, and two more.
DEALERS = (*(int(i) for i in hand_indexes(np.array([(32, 36, 0), (0, 4, 8), (48, 49, 20)]))), 7_001, 21_999)


def _free(dealer: int) -> np.ndarray:
    cards = hand_table().cards
    return np.asarray(~np.isin(cards, cards[dealer]).any(axis=1))


@pytest.mark.parametrize("name", sorted(READINGS))
def test_classify_against_one_dealer_hand_equals_classify(name: str) -> None:
    reading = READINGS[name]
    cards = hand_table().cards
    for dealer in DEALERS:
        free = _free(dealer)
        deals = Deals(cards[free], np.repeat(cards[dealer : dealer + 1], int(free.sum()), axis=0))
        assert np.array_equal(reading.classify_against(dealer)[free], reading.classify(deals))
        assert np.array_equal(Reading.classify_against(reading, dealer)[free], reading.classify(deals))


def test_the_six_cards_of_two_parts_are_classified_as_the_six_cards() -> None:
    rng = np.random.default_rng(6)
    six = np.argsort(rng.random((3_000, 52)), axis=1)[:, :6]
    first, second = six_card_parts(six[:, :3]), six_card_parts(six[:, 3:])
    across = sum((six[:, i] // 4 == six[:, j] // 4).astype(np.int32) for i in range(3) for j in range(3, 6))
    parts = (first[0] | second[0], first[1] + second[1] + across, first[2] + second[2])
    assert all(np.array_equal(a, b) for a, b in zip(parts, six_card_parts(six), strict=True))
    assert np.array_equal(categories_of_parts(*parts, lambda rows: six[rows]), best_five_categories(six))


def test_settle_against_one_dealer_hand_equals_settle() -> None:
    spec = load_spec(PAYTABLES / "standard.yaml")
    settler = Settler(spec, player_decisions(spec))
    cards = hand_table().cards
    for dealer in DEALERS[:2]:
        free = _free(dealer)
        against = settler.settle_against(dealer)
        dealt = settler.settle(cards[free], np.repeat(cards[dealer : dealer + 1], int(free.sum()), axis=0))
        assert set(against) == set(dealt)
        for wager, outcomes in dealt.items():
            assert np.array_equal(against[wager][free], outcomes), wager


@pytest.mark.parametrize("largest", [(3, 40, 1000, 4, 4, 4), (2**40, 1), (7,)])
def test_packed_sums_equal_the_bincount_sums(largest: tuple[int, ...]) -> None:
    rng = np.random.default_rng(len(largest))
    counter = PairCounter(hand_table().cards)
    values = np.stack([rng.integers(-x, x + 1, size=HANDS) for x in largest]).astype(np.int64)
    values[:, :50] = np.array(largest)[:, None]  # the extremes, at once on a pair's hands
    values[:, 50:100] = -np.array(largest)[:, None]
    packed = counter.packed_sums(values, largest)
    direct = counter.sums(values.T.copy()) if max(largest) < 2**20 else None
    if direct is not None:
        assert np.array_equal(packed.total, direct.total)
        assert np.array_equal(packed.cards, direct.cards)
        assert np.array_equal(packed.pairs, direct.pairs)
    pairs = packed.pairs.reshape(52, 52, -1)
    a, b, c = hand_table().cards.T
    for column in range(len(largest)):  # one pair's sum, from its 50 hands
        held = (a == 0) & (b == 1) | (a == 0) & (c == 1) | (b == 0) & (c == 1)
        assert pairs[0, 1, column] == int(values[column, held].sum())
        assert packed.total[column] == int(values[column].sum())


def test_packed_sums_refuse_values_too_large() -> None:
    counter = PairCounter(hand_table().cards)
    with pytest.raises(ValueError, match="values too large for exact float64 sums"):
        counter.packed_sums(np.zeros((1, HANDS), dtype=np.int64), [2**48])
