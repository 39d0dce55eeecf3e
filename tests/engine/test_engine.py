"""The exact engine against published figures and against brute-force counts computed another way."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from conftest import PAYTABLES, STANDARD
from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.cards.hands import colour_outcome, three_card_keys
from trey.cards.readings.six_cards import SIX_CARD_SETS
from trey.core.numbers import decimal_text, percent_text
from trey.engine import analyze
from trey.engine.side_bet import analyze_side_bet
from trey.paytable.load import check_data, load_spec
from trey.paytable.model import (
    ANTE_BONUS_OUTCOMES,
    AntePlay,
    DealerQualifier,
    GameSpec,
    Paytable,
    Rules,
    SideBet,
    Strategy,
    StrategyKind,
    Ties,
    Wagers,
)
from trey.paytable.odds import Odds
from trey.rules.ante_play import situation_counts

# The rows of the format-1 presets (the suit-specific rows of format 2 apart).
PAIR_PLUS_OUTCOMES = ("mini_royal", "straight_flush", "three_of_a_kind", "straight", "flush", "pair")
SIX_CARD_OUTCOMES = (
    "royal_flush",
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "flush",
    "straight",
    "three_of_a_kind",
)


def pct(value: Fraction, places: int = 2) -> str:
    return percent_text(value, places)


# --- Published figures (docs/published-figures.md), at their published rounding ---------------------

PAIR_PLUS_EDGES = {
    "40-30-6-4-1": "2.32%",
    "35-33-6-4-1": "2.70%",
    "40-25-6-4-1": "3.49%",
    "35-25-6-4-1": "4.58%",
    "50-30-6-3-1": "5.10%",
    "40-30-5-4-1": "5.57%",
    "40-25-5-4-1": "6.75%",
    "40-30-6-3-1": "7.28%",
    "40-30-6-3-1-mini-royal-50": "7.10%",
    "40-30-5-4-1-mini-royal-50": "5.39%",
    "40-30-5-4-1-mini-royal-100": "4.49%",
}


@pytest.mark.parametrize(("stem", "edge"), PAIR_PLUS_EDGES.items())
def test_pair_plus_house_edges(stem: str, edge: str) -> None:
    result = analyze(load_spec(PAYTABLES / "pair_plus" / f"{stem}.yaml")).wagers["pair_plus"]
    assert pct(result.stats.house_edge) == edge
    assert result.cycle == 22_100


ANTE_EDGES = {
    "5-4-1": ("3.37%", "2.01%"),
    "4-3-1": ("3.83%", "2.28%"),
    "3-2-1": ("4.28%", "2.56%"),
    "5-3-1": ("3.61%", "2.16%"),
    "no-bonus": ("8.66%", None),
    "5-4-1-mimic-dealer": ("3.45%", None),
    "5-4-1-always-play": ("7.65%", None),
}


@pytest.mark.parametrize(("stem", "figures"), ANTE_EDGES.items())
def test_ante_play_house_edges_and_elements_of_risk(stem: str, figures: tuple[str, str | None]) -> None:
    result = analyze(load_spec(PAYTABLES / "ante_bonus" / f"{stem}.yaml")).ante_play
    assert result is not None
    edge, risk = figures
    assert pct(result.stats.house_edge) == edge
    if risk is not None:
        assert pct(result.element_of_risk) == risk
    assert result.cycle == 407_170_400


def test_standard_ante_play_strategy_wager_and_deviation() -> None:
    result = analyze(load_spec(STANDARD)).ante_play
    assert result is not None
    assert result.strategy.rule == "Q-6-4"
    assert (result.strategy.hands_played, result.strategy.hands_folded) == (14_900, 7_200)
    assert decimal_text(result.average_wager, 3) == "1.674"
    assert decimal_text(Fraction(result.stats.std_dev).limit_denominator(10**6), 2) == "1.64"


def test_optimal_strategy_does_not_depend_on_the_ante_bonus_table() -> None:
    rules = [analyze(load_spec(p)).ante_play for p in sorted((PAYTABLES / "ante_bonus").glob("[0-9]-[0-9]-[0-9].yaml"))]
    no_bonus = analyze(load_spec(PAYTABLES / "ante_bonus" / "no-bonus.yaml")).ante_play
    assert {r.strategy.rule for r in [*rules, no_bonus] if r is not None} == {"Q-6-4"}


@pytest.mark.parametrize(("stem", "edge"), [("1000-200-100-20-15-10-7", "8.56%"), ("1000-200-50-25-20-10-5", "10.22%")])
def test_six_card_bonus_house_edges(stem: str, edge: str) -> None:
    result = analyze(load_spec(PAYTABLES / "six_card_bonus" / f"{stem}.yaml")).wagers["six_card_bonus"]
    assert pct(result.stats.house_edge) == edge
    assert result.cycle == SIX_CARD_SETS == 20_358_520
    # "Trips or better hits slightly over 7.2% of the time"
    assert Fraction(72, 1000) < result.stats.hit_frequency < Fraction(73, 1000)


def test_prime_house_edge() -> None:
    result = analyze(load_spec(PAYTABLES / "prime" / "3-4.yaml")).wagers["prime"]
    assert pct(result.stats.house_edge) == "3.62%"
    assert result.cycle == 407_170_400


# --- Brute force: a sample of player hands against all 18,424 dealer hands each -------------------------------


def brute_dealer_outcomes(player: tuple[int, ...], qualifier: int) -> tuple[int, int, int, int]:
    """(not qualify, player higher, tie, dealer higher) by comparing with every dealer hand."""
    rest = [c for c in range(52) if c not in player]
    dealer = three_card_keys(np.array(list(combinations(rest, 3))))
    assert dealer.size == DEALER_HANDS
    mine = int(three_card_keys(np.array([player]))[0])
    qualifies = dealer >= qualifier
    return (
        int((~qualifies).sum()),
        int((qualifies & (dealer < mine)).sum()),
        int((qualifies & (dealer == mine)).sum()),
        int((qualifies & (dealer > mine)).sum()),
    )


QUALIFIERS = ["Q-high", "none", "J-high", "A-high", "pair", "Q-6-4"]


@pytest.mark.parametrize("qualifier", QUALIFIERS)
def test_dealer_counts_equal_brute_force_on_sampled_hands(qualifier: str) -> None:
    table = hand_table()
    q = DealerQualifier.parse(qualifier).minimum_key
    counts = situation_counts(table, q)
    rng = random.Random(qualifier)
    # a random sample, plus the hands around the qualifier and the strongest and weakest hands
    near = np.argsort(np.abs(table.keys - q))[:4].tolist()
    sample = rng.sample(range(HANDS), 12) + near + [int(table.keys.argmax()), int(table.keys.argmin())]
    for i in sample:
        player = tuple(int(c) for c in table.cards[i])
        expected = brute_dealer_outcomes(player, q)
        got = (counts.not_qualify[i], counts.player_higher[i], counts.tie[i], counts.dealer_higher[i])
        assert tuple(int(x) for x in got) == expected, player


def test_optimal_decisions_agree_with_brute_force_expected_values() -> None:
    spec = load_spec(PAYTABLES / "ante_bonus" / "5-4-1.yaml")
    result = analyze(spec).ante_play
    assert result is not None
    table = hand_table()
    q = spec.rules.dealer_qualifier.minimum_key
    bonus = {3 << 12: 1, 4 << 12: 4, 5 << 12: 5}  # category bits of straight, trips, straight flush
    rng = random.Random(7)
    for i in rng.sample(range(HANDS), 25):
        player = tuple(int(c) for c in table.cards[i])
        nq, win, _tie, lose = brute_dealer_outcomes(player, q)
        category_bits = int(table.keys[i]) & ~0xFFF
        play_ev = Fraction(nq + 2 * win - 2 * lose, DEALER_HANDS) + bonus.get(category_bits, 0)
        assert bool(result.plays[i]) == (play_ev > -1), player


def test_prime_counts_equal_a_brute_force_by_colour_class() -> None:
    """Six-colour and three-colour deals, counted from one representative player hand per colour class."""
    cards = np.array(list(combinations(range(52), 3)))
    red = np.isin(cards % 4, (1, 2)).sum(axis=1)
    six = three = 0
    for reds in range(4):
        hands_in_class = int((red == reds).sum())
        player = tuple(int(c) for c in cards[np.argmax(red == reds)])
        rest = [c for c in range(52) if c not in player]
        outcomes = Counter(colour_outcome(player, d) for d in combinations(rest, 3))
        six += hands_in_class * outcomes[2]
        three += hands_in_class * outcomes[1]
    result = analyze(load_spec(PAYTABLES / "prime" / "3-4.yaml")).wagers["prime"]
    assert [(r.outcome, r.combinations) for r in result.outcomes] == [
        ("six_same_colour", six),
        ("three_same_colour", three),
        ("lose", HANDS * DEALER_HANDS - six - three),
    ]


# --- Exact statistics computed by hand ------------------------------------------------------------------------


def test_pair_plus_statistics_by_hand() -> None:
    result = analyze(load_spec(PAYTABLES / "pair_plus" / "40-30-6-3-1.yaml")).wagers["pair_plus"]
    pays = {40: 48, 30: 52, 6: 720, 3: 1096, 1: 3744, -1: 16440}
    mean = Fraction(sum(p * n for p, n in pays.items()), 22100)
    second = Fraction(sum(p * p * n for p, n in pays.items()), 22100)
    assert result.stats.mean == mean
    assert result.stats.variance == second - mean * mean
    assert result.stats.hit_frequency == Fraction(22100 - 16440, 22100)
    assert result.stats.rtp == 1 + mean
    assert sum(row.contribution for row in result.outcomes) == result.stats.rtp
    assert f"{result.stats.std_dev:.4f}" == "2.8496"


def test_ante_play_contributions_add_up_to_the_rtp() -> None:
    result = analyze(load_spec(STANDARD)).ante_play
    assert result is not None
    total = sum(r.contribution for r in result.outcomes) + sum(r.contribution for r in result.ante_bonus)
    assert total == result.stats.rtp
    assert result.element_of_risk == result.stats.house_edge / result.average_wager
    assert result.average_wager == 1 + Fraction(14_900, 22_100)
    assert result.largest_win == 7  # win (2) + straight flush bonus (5)
    # every straight or better is played, so each bonus hand is paid against all 18,424 dealer hands
    assert [(r.outcome, r.combinations) for r in result.ante_bonus] == [
        ("straight_flush", 48 * 18_424),
        ("three_of_a_kind", 52 * 18_424),
        ("straight", 720 * 18_424),
    ]


def test_ties_to_the_player_lower_the_edge_by_about_013_points() -> None:
    spec = load_spec(PAYTABLES / "ante_bonus" / "5-4-1.yaml")
    player_ties = replace(spec, rules=replace(spec.rules, ties=Ties.PLAYER_WINS))
    base, better = analyze(spec).ante_play, analyze(player_ties).ante_play
    assert base is not None and better is not None
    difference = base.stats.house_edge - better.stats.house_edge
    assert decimal_text(difference * 100, 2) in ("0.12", "0.13", "0.14")


def test_pair_plus_lost_on_a_fold_is_honoured() -> None:
    bet = load_spec(PAYTABLES / "pair_plus" / "40-30-6-3-1.yaml").wagers.side_bet("pair_plus")
    folds = np.zeros(HANDS, dtype=bool)
    folds[hand_table().keys >> 12 == 1] = True  # a player who folds every pair
    result = analyze_side_bet(bet, ~folds)
    assert dict((r.outcome, r.combinations) for r in result.outcomes)["pair"] == 0
    assert dict((r.outcome, r.combinations) for r in result.outcomes)["lose"] == 16440 + 3744


def test_only_offered_wagers_are_analysed() -> None:
    analysis = analyze(load_spec(PAYTABLES / "prime" / "3-4.yaml"))
    assert list(analysis.wagers) == ["prime"]


# --- Properties ------------------------------------------------------------------------------------------------

odds_values = st.integers(0, 60).map(Odds) | st.tuples(st.integers(0, 30), st.integers(1, 4)).map(lambda t: Odds(*t))


def game(ante_play: AntePlay | None = None, **side_bets: dict[str, Odds]) -> GameSpec:
    """A game with these wagers; side bets are presets given by their pays."""
    bets = tuple(SideBet.of_preset(name, pays) for name, pays in side_bets.items())
    return GameSpec(name="property", wagers=Wagers(ante_play=ante_play, side_bets=bets))


def paytable(outcomes: tuple[str, ...], pays: dict[str, Odds]) -> Paytable:
    return Paytable.from_mapping(outcomes, pays)


pair_plus_tables = st.dictionaries(st.sampled_from(PAIR_PLUS_OUTCOMES), odds_values, min_size=1)
six_card_tables = st.dictionaries(st.sampled_from(SIX_CARD_OUTCOMES), odds_values, min_size=1)


@settings(max_examples=40, deadline=None)
@given(pair_plus_tables, six_card_tables, st.data())
def test_raising_a_pay_never_lowers_the_rtp_and_player_only_wagers_are_linear(
    pp: dict[str, Odds], six: dict[str, Odds], data: st.DataObject
) -> None:
    for wager, pays in (("pair_plus", pp), ("six_card_bonus", six)):
        outcome = data.draw(st.sampled_from(sorted(pays)))
        raise_by = data.draw(st.integers(1, 20))
        higher = dict(
            pays,
            **{
                outcome: Odds(pays[outcome].numerator + raise_by * pays[outcome].denominator, pays[outcome].denominator)
            },
        )
        before = analyze(game(**{wager: pays})).wagers[wager]
        after = analyze(game(**{wager: higher})).wagers[wager]
        assert after.stats.rtp >= before.stats.rtp
        row = next(r for r in before.outcomes if r.outcome == outcome)
        assert after.stats.rtp - before.stats.rtp == raise_by * row.probability


ante_bonus_tables = st.dictionaries(st.sampled_from(ANTE_BONUS_OUTCOMES), odds_values)
rule_sets = st.builds(
    Rules,
    dealer_qualifier=st.sampled_from(QUALIFIERS).map(DealerQualifier.parse),
    ties=st.sampled_from(list(Ties)),
    ante_bonus_requires_play=st.booleans(),
)
fixed_strategies = st.sampled_from(
    [Strategy(StrategyKind.ALWAYS_PLAY), Strategy(StrategyKind.MIMIC_DEALER)]
    + [Strategy(StrategyKind.PLAY_AT_LEAST, r) for r in ((10, 4, 2), (11, 6, 0), (7, 5, 1), (12, 11, 9))]
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ante_bonus_tables, rule_sets, fixed_strategies)
def test_optimal_strategy_is_never_beaten_by_a_fixed_one(bonus: dict[str, Odds], rules: Rules, fixed: Strategy) -> None:
    table = paytable(ANTE_BONUS_OUTCOMES, bonus)
    optimal = analyze(replace(game(ante_play=AntePlay(table)), rules=rules)).ante_play
    other = analyze(replace(game(ante_play=AntePlay(table, fixed)), rules=rules)).ante_play
    assert optimal is not None and other is not None
    assert optimal.stats.rtp >= other.stats.rtp


@settings(max_examples=15, deadline=None)
@given(ante_bonus_tables, st.data())
def test_raising_an_ante_bonus_pay_never_lowers_the_rtp(bonus: dict[str, Odds], data: st.DataObject) -> None:
    # A row that is listed: adding a row can lower the return (a mini-royal row paying less than the straight
    # flush row it is taken from), raising one never does.
    assume(bonus)
    outcome = data.draw(st.sampled_from(sorted(bonus)))
    current = bonus[outcome]
    higher = dict(bonus, **{outcome: Odds(current.numerator + current.denominator, current.denominator)})
    before = analyze(game(ante_play=AntePlay(paytable(ANTE_BONUS_OUTCOMES, bonus)))).ante_play
    after = analyze(game(ante_play=AntePlay(paytable(ANTE_BONUS_OUTCOMES, higher)))).ante_play
    assert before is not None and after is not None
    assert after.stats.rtp >= before.stats.rtp


def test_variant_file_analyses() -> None:
    data = load_spec(STANDARD).canonical()
    data["rules"] = {"dealer_qualifier": "none", "ties": "player_wins"}
    spec = check_data(data, "variant").spec
    assert spec is not None
    result = analyze(spec).ante_play
    assert result is not None
    # with no qualifier the dealer always qualifies
    assert dict((r.outcome, r.combinations) for r in result.outcomes)["dealer_not_qualify"] == 0


@pytest.mark.parametrize(
    ("wager", "outcomes"),
    [
        ("pair_plus", PAIR_PLUS_OUTCOMES),
        ("six_card_bonus", SIX_CARD_OUTCOMES),
        ("ante_play", ANTE_BONUS_OUTCOMES),
    ],
)
def test_paytable_rows_are_listed_rarest_first(wager: str, outcomes: tuple[str, ...]) -> None:
    """The loader's "a rarer hand pays less" warning relies on this order."""
    table = paytable(outcomes, {o: Odds(1) for o in outcomes})
    if wager == "ante_play":
        result = analyze(game(ante_play=AntePlay(table, Strategy(StrategyKind.ALWAYS_PLAY)))).ante_play
        assert result is not None
        counts = [row.combinations for row in result.ante_bonus]
    else:
        pays = {o: Odds(1) for o in outcomes}
        counts = [row.combinations for row in analyze(game(**{wager: pays})).wagers[wager].outcomes[:-1]]
    assert counts == sorted(counts) and len(set(counts)) == len(counts)


def test_extreme_odds_stay_exact() -> None:
    """The largest odds a file may hold, with awkward denominators: exact figures, no overflow."""
    bonus = {
        "straight_flush": Odds(1_000_000_000, 999_999_937),
        "three_of_a_kind": Odds(999_999_929, 7),
        "straight": Odds(1, 999_999_893),
    }
    result = analyze(game(ante_play=AntePlay(paytable(ANTE_BONUS_OUTCOMES, bonus)))).ante_play
    no_bonus = analyze(load_spec(PAYTABLES / "ante_bonus" / "no-bonus.yaml")).ante_play
    assert result is not None and no_bonus is not None
    # Bonus hands are played anyway, so the decisions and the Ante & Play part are the no-bonus game's; each
    # bonus hand adds its pay against all 18,424 dealer hands.
    assert result.strategy.rule == "Q-6-4"
    hands = {"straight_flush": 48, "three_of_a_kind": 52, "straight": 720}
    added = sum((Fraction(hands[o], 22_100) * odds.net for o, odds in bonus.items()), Fraction(0))
    assert result.stats.mean == no_bonus.stats.mean + added


def test_a_checkpoint_before_each_wager_can_abandon_the_analysis() -> None:
    """The workbench drops the analysis of a client that has gone: its checkpoint raises before the next wager."""
    spec = load_spec(STANDARD)
    calls: list[int] = []

    def checkpoint() -> None:
        calls.append(len(calls))
        if len(calls) == 3:
            raise LookupError("gone")

    with pytest.raises(LookupError, match="gone"):
        analyze(spec, checkpoint)
    assert calls == [0, 1, 2]  # Ante & Play and Pair Plus counted, stopped before Prime
    calls.clear()
    assert analyze(spec, lambda: calls.append(0)) == analyze(spec) and len(calls) == len(spec.wagers.ids)


def _edited(spec: GameSpec, path: tuple[str, ...], value: object) -> GameSpec:
    data = spec.canonical()
    at = data
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    checked = check_data(data, "edited")
    assert checked.spec is not None, checked.problems
    return checked.spec


def test_an_analysis_reused_lends_only_the_wagers_counted_from_the_same_things() -> None:
    """The workbench's edit of one pay: the wagers it left as they were are taken from the analysis before, and the
    result is the analysis counted afresh; a rule changed (the player's decisions, hence every fold) lends none."""
    spec = load_spec(STANDARD)
    before = analyze(spec)
    pay = _edited(spec, ("wagers", "pair_plus", "flush"), 4)
    reused = analyze(pay, reuse=before)
    assert reused == analyze(pay)
    assert reused.wagers["pair_plus"] != before.wagers["pair_plus"]
    lent = [w for w in reused.wagers if reused.wagers[w] is before.wagers[w]]
    assert lent == ["ante_play", "prime", "six_card_bonus"]
    rule = _edited(spec, ("rules", "dealer_qualifier"), "Q-6-4")
    reused = analyze(rule, reuse=before)
    assert reused == analyze(rule)
    assert not any(reused.wagers[w] is before.wagers[w] for w in reused.wagers)
