"""The settlement of rounds against the exact engine's counts and against worked examples."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations

import numpy as np
import pytest

from conftest import STANDARD
from trey.cards.card import parse_cards
from trey.cards.hand_table import HANDS, hand_indexes, hand_table
from trey.cards.hands import best_five_category, colour_outcome
from trey.engine import analyze
from trey.paytable.load import check_data, load_spec
from trey.paytable.model import GameSpec, SideBet, Wagers
from trey.paytable.odds import Odds
from trey.play.settle import Settler
from trey.rules.ante_play import situation_counts

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
    counts = situation_counts(table, SPEC.rules.dealer_qualifier.minimum_key)
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
        # a royal flush not listed is paid as a straight flush (this table lists it; the test below does not)
        expected_six = category if category in six_names else "lose"
        assert six_names[outcomes["six_card_bonus"][k]] == expected_six


def test_a_royal_flush_is_paid_as_a_straight_flush_when_royals_are_not_listed() -> None:
    pays = {"straight_flush": Odds(200), "flush": Odds(15)}
    spec = GameSpec(name="no royal row", wagers=Wagers(side_bets=(SideBet.of_preset("six_card_bonus", pays),)))
    settled = Settler(spec).settle_round(parse_cards("Ah Kh Qh"), parse_cards("Jh Th 2c"))
    assert (settled["six_card_bonus"].outcome, settled["six_card_bonus"].net) == ("straight_flush", 200)


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


def variant_game(rules: dict[str, object], strategy: object = "always-play", **side_bets: object) -> GameSpec:
    data = load_spec(STANDARD).canonical()
    data["rules"] = {**data["rules"], **rules}
    data["wagers"]["ante_play"]["strategy"] = strategy
    if side_bets:
        data["trey"] = 2
        data["side_bets"] = side_bets
    spec = check_data(data, "variant").spec
    assert spec is not None
    return spec


DEALER_BONUS = {"reads": "dealer_hand", "pays": {"mini_royal": 100, "straight_flush": 40, "pair": 1}}


@pytest.mark.parametrize(
    ("rules", "strategy", "player", "dealer", "expected"),
    [
        # Ties go to the player: Ante and Play both win on identical strength.
        ({"ties": "player_wins"}, "always-play", "9s 9d Kc", "9h 9c Kd", {"ante_play": ("tie", 2)}),
        # No qualifier: the dealer's J-high qualifies and loses to Q-high.
        ({"dealer_qualifier": "none"}, "always-play", "Qh 6d 4c", "Jc 3d 5h", {"ante_play": ("win", 2)}),
        # A pair to qualify: the dealer's Q-high does not; the Ante wins 1 to 1 and the Play pushes.
        ({"dealer_qualifier": "pair"}, "always-play", "Ah Kd 9c", "Qc Jd 5h", {"ante_play": ("dealer_not_qualify", 1)}),
        # A pair qualifies and beats A-K-9: both lose.
        ({"dealer_qualifier": "pair"}, "always-play", "Ah Kd 9c", "2c 2d 5h", {"ante_play": ("lose", -2)}),
        # K-high qualifier: the dealer's K-high qualifies and beats Q-high.
        ({"dealer_qualifier": "K-high"}, "always-play", "Qh 6d 4c", "Kc 3d 5h", {"ante_play": ("lose", -2)}),
        # Q-6-4 as the qualifier: Q-6-3 does not qualify.
        (
            {"dealer_qualifier": "Q-6-4"},
            "always-play",
            "2h 4d 7c",
            "Qc 6d 3h",
            {"ante_play": ("dealer_not_qualify", 1)},
        ),
        # A folding player loses the Ante alone; a dealer-hand bet lost on a fold is lost with it...
        (
            {},
            {"play_at_least": "K-8-2"},
            "Qh 6d 4c",
            "As Ks Qs",
            {"ante_play": ("fold", -1), "dealer_bonus": ("lose", -1), "pair_plus": ("lose", -1)},
        ),
        # ... and one that stands is paid on the dealer's mini-royal.
        (
            {"pair_plus_on_fold": "stands"},
            {"play_at_least": "K-8-2"},
            "Qh 6d 4c",
            "As Ks Qs",
            {"ante_play": ("fold", -1), "dealer_bonus_stands": ("mini_royal", 100), "pair_plus": ("lose", -1)},
        ),
        # The Ante Bonus is paid when the dealer does not qualify, and the Ante Bonus table's straight pays on top.
        ({}, "always-play", "4h 5d 6c", "Jc 3d 8h", {"ante_play": ("dealer_not_qualify with straight", 2)}),
    ],
)
def test_settlement_under_every_rule_variant(
    rules: dict[str, object], strategy: object, player: str, dealer: str, expected: dict[str, tuple[str, int]]
) -> None:
    spec = variant_game(
        rules,
        strategy,
        dealer_bonus={**DEALER_BONUS, "on_fold": "lost"},
        dealer_bonus_stands={**DEALER_BONUS, "on_fold": "stands"},
    )
    plays = analyze(spec).ante_play.plays  # type: ignore[union-attr]
    settled = Settler(spec, plays).settle_round(parse_cards(player), parse_cards(dealer))
    for wager, (outcome, net) in expected.items():
        assert (str(settled[wager].outcome), settled[wager].net) == (outcome, net), wager


def test_settle_round_refuses_repeated_cards() -> None:
    with pytest.raises(ValueError, match="six different cards"):
        SETTLER.settle_round(parse_cards("Ah Kh Qh"), parse_cards("Ah 2c 3d"))


def test_ante_play_needs_decisions() -> None:
    with pytest.raises(ValueError, match="decisions"):
        Settler(SPEC)
