"""The settlement of rounds against the exact engine's counts and against worked examples."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest

from conftest import STANDARD
from trey.cards import parse_cards
from trey.engine import analyze
from trey.engine.ante_play import dealer_counts
from trey.hand_table import HANDS, hand_table
from trey.hands import best_five_category, colour_outcome
from trey.loader import load_spec
from trey.settle import Settler, hand_indexes

SPEC = load_spec(STANDARD)
ANALYSIS = analyze(SPEC)
assert ANALYSIS.ante_play is not None
SETTLER = Settler(SPEC, ANALYSIS.ante_play.plays)


def test_hand_indexes_find_every_hand_in_every_order() -> None:
    cards = hand_table().cards
    for order in permutations(range(3)):
        assert (hand_indexes(cards[:, order]) == np.arange(HANDS)).all()


def test_ante_play_settlement_matches_the_engines_dealer_counts() -> None:
    table = hand_table()
    counts = dealer_counts(table, SPEC.rules.dealer_qualifier.minimum_key)
    rows = SETTLER.tables["ante_play"].rows
    for i in random.Random(4).sample(range(HANDS), 20):
        player = table.cards[i]
        rest = [c for c in range(52) if c not in player]
        dealer = np.array(list(combinations(rest, 3)))
        outcomes = SETTLER.settle(np.tile(player, (len(dealer), 1)), dealer)["ante_play"]
        tally = Counter(rows[o] for o in outcomes.tolist())
        if not ANALYSIS.ante_play.plays[i]:  # type: ignore[union-attr]
            assert tally == {"fold": 18_424}
            continue
        expected = {
            "dealer_not_qualify": int(counts.not_qualify[i]),
            "win": int(counts.player_higher[i]),
            "tie": int(counts.tie[i]),
            "lose": int(counts.dealer_higher[i]),
        }
        assert {k: tally.get(k, 0) for k in expected} == expected


def test_pair_plus_settlement_over_every_player_hand_matches_the_engine() -> None:
    cards = hand_table().cards
    dealer = np.array([[c for c in range(52) if c not in row][:3] for row in cards.tolist()])
    outcomes = SETTLER.settle(cards, dealer)["pair_plus"]
    names = SETTLER.tables["pair_plus"].names
    settled = Counter(names[o] for o in outcomes.tolist())
    engine = {row.outcome: row.combinations for row in ANALYSIS.wagers["pair_plus"].outcomes}
    assert settled == engine


def test_prime_and_six_card_settlement_agree_with_the_single_hand_rules() -> None:
    rng = random.Random(11)
    deals = [rng.sample(range(52), 6) for _ in range(3000)]
    cards = np.array(deals)
    outcomes = SETTLER.settle(cards[:, :3], cards[:, 3:])
    prime_names = SETTLER.tables["prime"].names
    six_names = SETTLER.tables["six_card_bonus"].names
    for k, d in enumerate(deals):
        colour = colour_outcome(d[:3], d[3:])
        expected_prime = ["lose", "three_same_colour", "six_same_colour"][colour]
        assert prime_names[outcomes["prime"][k]] == expected_prime
        category = best_five_category(d).slug
        expected_six = category if category in six_names else "lose"
        assert six_names[outcomes["six_card_bonus"][k]] == expected_six


@pytest.mark.parametrize(
    ("player", "dealer", "expected"),
    [
        # A mini-royal against a qualifying straight: Ante and Play win, Ante Bonus 5 to 1.
        (
            "Ah Kh Qh",
            "2h 3d 4h",
            {
                "ante_play": ("win with straight_flush", 7),
                "pair_plus": ("straight_flush", 40),
                "prime": ("six_same_colour", 4),
                "six_card_bonus": ("flush", 15),
            },
        ),
        # Q-6-3 is below Q-6-4: the player folds and loses the Ante and, under the 'lost' rule, the Pair Plus.
        (
            "Qh 6d 3c",
            "Jh 3d 4h",
            {
                "ante_play": ("fold", -1),
                "pair_plus": ("lose", -1),
                "prime": ("lose", -1),
                "six_card_bonus": ("lose", -1),
            },
        ),
        # Dealer J-high does not qualify: the Ante wins, the Play pushes.
        (
            "Qh 6d 4c",
            "Jc 3d 5h",
            {
                "ante_play": ("dealer_not_qualify", 1),
                "pair_plus": ("lose", -1),
                "prime": ("lose", -1),
                "six_card_bonus": ("lose", -1),
            },
        ),
        # Identical strength: a push, whatever the suits.
        (
            "9s 9d Kc",
            "9h 9c Kd",
            {
                "ante_play": ("tie", 0),
                "pair_plus": ("pair", 1),
                "prime": ("lose", -1),
                "six_card_bonus": ("four_of_a_kind", 100),
            },
        ),
        # Trips lose to a straight flush, but the Ante Bonus is paid whatever the dealer holds.
        (
            "7h 7d 7s",
            "8c 9c 10c",
            {
                "ante_play": ("lose with three_of_a_kind", 2),
                "pair_plus": ("three_of_a_kind", 30),
                "prime": ("lose", -1),
                "six_card_bonus": ("three_of_a_kind", 7),
            },
        ),
    ],
)
def test_worked_rounds(player: str, dealer: str, expected: dict[str, tuple[str, int]]) -> None:
    settled = SETTLER.settle_round(parse_cards(player), parse_cards(dealer))
    assert {w: (str(s.outcome), s.net) for w, s in settled.items()} == {
        w: (o, Fraction(n)) for w, (o, n) in expected.items()
    }


def test_settle_round_refuses_repeated_cards() -> None:
    with pytest.raises(ValueError, match="six different cards"):
        SETTLER.settle_round(parse_cards("Ah Kh Qh"), parse_cards("Ah 2c 3d"))


def test_ante_play_needs_decisions() -> None:
    with pytest.raises(ValueError, match="decisions"):
        Settler(SPEC)
