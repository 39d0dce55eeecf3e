"""The family engine (issue 31) against figures got another way: the published house edge of Face Up Ultimate Three
Card Poker, the brute force over every deal (benchmarks/bruteforce_family.py, apart from trey), the plain count of
one cell at a time (tests/family_brute.py), and the standard engine on the standard game's shape.

The brute force's figures below are its output, written down: ``.venv/bin/python benchmarks/bruteforce_family.py``
prints them (about a minute); benchmarks/family_against_brute.py compares every one with the engine's.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import pytest

import family_brute as brute
from conftest import PAYTABLES
from family_games import FU_BLIND, FU_GAME, VARIANTS, paytable
from trey.cards.hand_table import hand_table
from trey.cards.hands import describe_key
from trey.core.errors import SpecError
from trey.core.numbers import percent_text
from trey.engine import analyze
from trey.engine.decide import Expectations, deals_per_cell, hidden_counts
from trey.engine.family import FamilyAnalysis, analyze_family, chart_exceptions, family_side_bet
from trey.paytable.load import load_spec, load_spec_bytes
from trey.paytable.model import DealerQualifier, Ties

# The same games as tests/family_brute.py states them, apart from trey.
BRUTE_RULES: dict[str, brute.Rules] = brute.RULE_SETS


RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def by_rank(hands: str) -> dict[str, str]:
    """A hand for each up rank, 2 to ace, from their names separated by spaces."""
    return dict(zip(RANKS, hands.split(" "), strict=True))


@dataclass(frozen=True)
class Brute:
    """What benchmarks/bruteforce_family.py prints of a rules set."""

    house_edge: Fraction  # per Ante
    average_wager: Fraction  # Antes bet in all on a round: the total action
    variance: Fraction  # per Ante squared
    cells_by_option: dict[int, int]
    weakest_played: dict[str, str]  # by up rank, the weakest hand making the smallest Play bet in some cell


BRUTE_FORCE: dict[str, Brute] = {
    "standard": Brute(
        Fraction(686689, 20358520),
        Fraction(370, 221),
        Fraction(1113741108698391, 414469336590400),
        {0: 7200, 1: 14900},
        {"none": "Q-6-4"},
    ),
    "face_up_ultimate": Brute(
        Fraction(1975131, 50896300),
        Fraction(888646, 270725),
        Fraction(13830270387123357, 1295216676845000),
        {0: 248796, 1: 556764, 3: 277340},
        by_rank("9-5-2 9-7-3 9-8-4 9-8-5 9-8-6 9-7-6 9-8-5 9-8-3 10-8-3 J-8-3 Q-8-3 K-8-3 A-8-5"),
    ),
    "face_up_ultimate_k_high": Brute(
        Fraction(9848039, 101792600),
        Fraction(893908, 270725),
        Fraction(106091385064258779, 10361733414760000),
        {0: 227748, 1: 577812, 3: 277340},
        by_rank("8-7-2 9-3-2 9-4-3 9-5-3 9-6-4 9-7-2 9-8-2 9-7-6 10-7-6 J-7-5 Q-7-5 K-8-3 A-8-5"),
    ),
    "face_up_ultimate_blind_50_10_5_2_1": Brute(
        Fraction(440451, 14541800),
        Fraction(888646, 270725),
        Fraction(2006126596495199, 211463947240000),
        {0: 248796, 1: 556764, 3: 277340},
        {"2": "9-5-2", "7": "9-7-6", "A": "A-8-5"},
    ),
    "ante_pushes_no_face_up": Brute(
        Fraction(220959, 783020),
        Fraction(1748, 1105),
        Fraction(15456276805531, 7970564165200),
        {0: 9240, 1: 12860},
        {"none": "Q-J-8"},
    ),
    "face_up_no_raises": Brute(
        Fraction(-443162, 12724075),
        Fraction(101996, 54145),
        Fraction(491146588311406, 161902084605625),
        {0: 125880, 1: 957020},
        {"2": "5-3-2", "J": "5-3-2", "Q": "Q-9-2", "K": "K-9-2", "A": "A-9-2"},
    ),
    "prime_style": Brute(
        Fraction(59821, 5816720),
        Fraction(370, 221),
        Fraction(94687913415967, 33834231558400),
        {0: 7200, 1: 14900},
        {"none": "Q-6-4"},
    ),
    "face_up_ultimate_play_pays_bad_beat": Brute(
        Fraction(-714807, 14541800),
        Fraction(888646, 270725),
        Fraction(2732783420233551, 211463947240000),
        {0: 248796, 1: 556764, 3: 277340},
        by_rank("9-5-2 9-7-3 9-8-4 9-8-5 9-8-6 9-7-6 9-8-5 9-8-3 10-8-3 J-8-3 Q-8-3 K-8-3 A-8-5"),
    ),
    "face_up_10x_pairs_push": Brute(
        Fraction(22170987, 101792600),
        Fraction(47143, 10829),
        Fraction(199857652336245231, 10361733414760000),
        {0: 719760, 10: 363140},
        {"2": "A-4-2"},
    ),
}

_ANALYSES: dict[str, FamilyAnalysis] = {}


def analysis_of(name: str) -> FamilyAnalysis:
    """Each game counted once per process (0.3-0.5 s each)."""
    if name not in _ANALYSES:
        _ANALYSES[name] = analyze_family(VARIANTS[name])
    return _ANALYSES[name]


# --- the published figure -------------------------------------------------------------------------------------------


def test_face_up_ultimate_holds_the_published_3_8807_percent_of_the_ante() -> None:
    """docs/published-figures.md: 3.8807% of the Ante with optimal play (Stephen How; Eliot Jacobson agrees)."""
    found = analysis_of("face_up_ultimate")
    assert percent_text(found.house_edge_per_ante, 4) == "3.8807%"
    assert found.house_edge_per_ante == Fraction(1975131, 50896300)
    assert found.cycle == 22_100 * 49 * 1_128 == 1_221_511_200
    assert (found.cells, found.deals_per_cell) == (52 * 20_825, 1_128)
    # per initial bet: the Ante and the Blind, two Antes; per total action: everything bet on a round
    assert found.initial_bet == 2
    assert found.house_edge_per_initial_bet == Fraction(1975131, 101792600)
    assert found.element_of_risk == Fraction(1975131, 50896300) / Fraction(888646, 270725)


def test_a_face_up_card_without_raises_is_the_published_player_s_edge_of_one_seen_card() -> None:
    """docs/published-figures.md, Game protection: one dealer card seen in the standard game (Ante Bonus 5-4-1) is a
    player edge of 3.4829%, hit frequency 54.2203%, standard deviation 1.7417 (Jacobson); the strategy Q/K/A-9-2 on
    a Q, K or A, every hand on a J or lower (the Wizard of Odds). A face-up card is a card seen by every player."""
    found = analysis_of("face_up_no_raises")
    assert percent_text(-found.house_edge_per_ante, 4) == "3.4829%"
    assert percent_text(found.stats.hit_frequency, 4) == "54.2203%"
    assert f"{found.stats.std_dev:.4f}" == "1.7417"
    weakest = [describe_key(key) if key is not None else None for row in found.chart for key in row.weakest]
    assert weakest == ["5-3-2"] * 10 + ["Q-9-2", "K-9-2", "A-9-2"]


# --- every deal, against the brute force ----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(BRUTE_FORCE))
def test_every_figure_equals_the_brute_force_over_every_deal(name: str) -> None:
    found, expected = analysis_of(name), BRUTE_FORCE[name]
    assert found.house_edge_per_ante == expected.house_edge
    assert found.average_action == expected.average_wager
    assert found.stats.variance == expected.variance
    assert {o.option: o.cells for o in found.options} == expected.cells_by_option
    assert found.cycle == (407_170_400 if found.game.face_up == 0 else 1_221_511_200)
    smallest = found.game.multiples[0]
    weakest = {("none" if row.up_rank is None else RANKS[row.up_rank]): row.weakest[0] for row in found.chart}
    for rank, hand in expected.weakest_played.items():
        key = weakest[rank]
        assert key is not None and describe_key(key) == hand, (rank, smallest)


def test_every_pair_or_better_raises_3x_against_every_face_up_card() -> None:
    """Stephen How's simple strategy (docs/published-figures.md): 3x every pair or better; so does the optimal one,
    with no exception (a pair of 2s is the weakest 3x hand against every rank, and no stronger hand bets less)."""
    found = analysis_of("face_up_ultimate")
    pair_of_twos = hand_table().keys[np.flatnonzero(hand_table().keys >> 12 == 1)].min()
    assert [row.weakest[1] for row in found.chart] == [pair_of_twos] * 13
    assert [row.exceptions[1] for row in found.chart] == [0] * 13


def test_how_s_calls_against_a_queen_king_and_ace_are_the_optimal_ones_but_for_suits() -> None:
    """How plays 1x from Q-8-4, K-8-4 and A-8-5 against a queen, king and ace: the optimal strategy differs from
    that rule in 48, 48 and 0 cells (over the four suits of the up card), where the suits decide (the brute force's
    "exceptions by suits", none "by ranks")."""
    found = analysis_of("face_up_ultimate")
    keys = hand_table().keys
    for rank, weakest, differing in ((10, (10, 6, 2), 48), (11, (11, 6, 2), 48), (12, (12, 6, 3), 0)):
        threshold = (weakest[0] << 8) | (weakest[1] << 4) | weakest[2]
        rule = np.where(keys >= 1 << 12, 3, np.where(keys >= threshold, 1, 0))
        choices = found.choices[rank]  # the up card of clubs of that rank: each stands for four
        cells = choices >= 0
        assert int((choices[cells] != rule[cells]).sum()) * 4 == differing


# --- one cell at a time, against the plain count --------------------------------------------------------------------


def _sample(face_up: int, seed: int, cells: int) -> list[tuple[int, int | None]]:
    rng, table = random.Random(seed), hand_table()
    found: list[tuple[int, int | None]] = []
    while len(found) < cells:
        hand = rng.randrange(len(table.keys))
        up = rng.randrange(52) if face_up else None
        if up is None or up not in table.cards[hand]:
            found.append((hand, up))
    return found


@pytest.mark.parametrize(
    "name", ["face_up_ultimate", "face_up_ultimate_k_high", "face_up_no_raises", "face_up_ultimate_play_pays_bad_beat"]
)
def test_each_option_s_value_and_the_decision_of_sampled_cells_equal_the_plain_count(name: str) -> None:
    spec, rules = VARIANTS[name], BRUTE_RULES[name]
    assert spec.wagers.ante_play is not None
    expect = Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    table = hand_table()
    for hand, up in _sample(1, 31, 12):
        counts = hidden_counts(up, spec.rules.dealer_qualifier.minimum_key)
        player = tuple(int(c) for c in table.cards[hand])
        plain = brute.cell_evs(rules, player, (up,) if up is not None else ())
        assert expect.values(counts[hand], hand) == plain
        assert int(expect.decide(counts[hand : hand + 1], np.array([hand]))[0]) == brute.best(plain)


@pytest.mark.parametrize("name", ["standard", "ante_pushes_no_face_up", "prime_style"])
def test_cells_without_a_face_up_card_equal_the_plain_count(name: str) -> None:
    spec, rules = VARIANTS[name], BRUTE_RULES[name]
    assert spec.wagers.ante_play is not None
    expect = Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    counts = hidden_counts(None, spec.rules.dealer_qualifier.minimum_key)
    table = hand_table()
    for hand, _ in _sample(0, 7, 3):
        plain = brute.cell_evs(rules, tuple(int(c) for c in table.cards[hand]), ())
        assert expect.values(counts[hand], hand) == plain
        assert int(expect.decide(counts)[hand]) == brute.best(plain)


def test_the_engine_s_decisions_are_the_plain_count_s_in_sampled_cells() -> None:
    """The analysis's own choices (clubs up cards, each standing for its rank's four) against the plain optimum."""
    found = analysis_of("face_up_ultimate")
    table = hand_table()
    rng = random.Random(5)
    for _ in range(12):
        rank, hand = rng.randrange(13), rng.randrange(len(table.keys))
        if found.choices[rank, hand] < 0:
            continue
        player = tuple(int(c) for c in table.cards[hand])
        assert int(found.choices[rank, hand]) == brute.optimal_option(brute.FACE_UP_ULTIMATE, player, (rank * 4,))


# --- the vectorised decision against the one statement of a hand's expectation ----------------------------------


def _best(values: dict[int, Fraction]) -> int:
    return max(values, key=lambda option: (values[option], -option))


@pytest.mark.parametrize(
    "blind",
    [
        FU_BLIND,
        # pays whose exact comparison needs every digit: 'N to M' of nine-digit terms, a bonus beyond any real one
        "{mini_royal: 999999999 to 999999998, straight: 1000000000 to 999999999, flush: 333333333 to 999999999}",
    ],
)
@pytest.mark.parametrize(
    "rules", ["{}", "{ties: player_wins, ante_bonus_requires_play: false, dealer_qualifier: pair}"]
)
def test_decide_is_the_best_of_the_values_for_sampled_hands(blind: str, rules: str) -> None:
    bonus = "{straight_flush: 1000000000 to 3, straight: 1 to 999999999}"
    spec = paytable(
        "x", FU_GAME.replace("{BLIND}", blind) + f"rules: {rules}\nwagers: {{ante_play: {{ante_bonus: {bonus}}}}}\n"
    )
    assert spec.wagers.ante_play is not None
    expect = Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    counts = hidden_counts(21, spec.rules.dealer_qualifier.minimum_key)  # the 7 of diamonds up
    decided = expect.decide(counts)
    hands = [h for h in random.Random(3).sample(range(len(counts)), 400) if counts[h].sum()]
    for hand in hands:
        assert int(decided[hand]) == _best(expect.values(counts[hand], hand)), hand


@pytest.mark.parametrize(
    "play",
    [
        "  play_pays: {straight: 3 to 2, pair: 2}\n  play_pays_on_tie: true\n  bad_beat: {flush: 1 to 3}\n",
        # nine-digit odds in every table: the values leave int64, and the decision is taken in Python integers
        "  play_pays: {straight_flush: 999999999 to 999999998, flush: 1000000000 to 999999999}\n"
        "  bad_beat: {pair: 333333333 to 999999997, three_of_a_kind: 1 to 999999991}\n",
    ],
)
def test_decide_is_the_best_of_the_values_with_the_play_paid_by_a_table(play: str) -> None:
    blind = "{mini_royal: 999999999 to 999999998, straight: 1000000000 to 999999999, flush: 1 to 7}"
    spec = paytable("x", FU_GAME.replace("{BLIND}", blind) + play + "wagers: {ante_play: {}}\n")
    assert spec.wagers.ante_play is not None
    expect = Expectations(spec.game, spec.rules, spec.wagers.ante_play.ante_bonus)
    counts = hidden_counts(21, spec.rules.dealer_qualifier.minimum_key)
    decided = expect.decide(counts)
    hands = [h for h in random.Random(4).sample(range(len(counts)), 400) if counts[h].sum()]
    for hand in hands:
        assert int(decided[hand]) == _best(expect.values(counts[hand], hand)), hand


def test_a_dealer_who_does_not_qualify_cannot_both_decide_and_pay_the_play() -> None:
    body = (
        "game: {play_needs_qualifier: false, play_pays_when_dealer_does_not_qualify: true}\nwagers: {ante_play: {}}\n"
    )
    with pytest.raises(SpecError) as raised:
        paytable("x", body)
    [problem] = raised.value.problems
    assert problem.code == "game.play-pays-conflict"
    assert problem.path == ("game", "play_pays_when_dealer_does_not_qualify")


def test_every_cell_is_dealt_the_dealer_s_hidden_cards_once() -> None:
    table = hand_table()
    for up in (0, 23, 51):
        counts = hidden_counts(up, 0)
        holds = (table.cards == up).any(axis=1)
        assert (counts[holds] == 0).all() and (counts[~holds].sum(axis=1) == 1_128).all()
    assert (hidden_counts(None, 0).sum(axis=1) == 18_424).all()
    spec = VARIANTS["face_up_ultimate"]
    assert deals_per_cell(spec.game) == 1_128 and deals_per_cell(VARIANTS["standard"].game) == 18_424


# --- the standard game's shape, against the standard engine ----------------------------------------------------


@pytest.mark.parametrize("table", ["5-4-1", "3-2-1", "no-bonus", "5-4-1 ties to the player, bonus on a fold"])
def test_the_standard_shape_counts_as_the_standard_engine(table: str) -> None:
    spec = load_spec(PAYTABLES / "ante_bonus" / f"{table.split()[0]}.yaml")
    if " " in table:
        rules = replace(spec.rules, ties=Ties.PLAYER_WINS, ante_bonus_requires_play=False)
        spec = replace(spec, rules=replace(rules, dealer_qualifier=DealerQualifier.parse("Q-6-4")))
    standard = analyze(spec).ante_play
    assert standard is not None
    found = analyze_family(spec)
    assert found.stats == standard.stats
    assert found.net_results == standard.net_results
    assert found.average_action == standard.average_wager
    assert found.element_of_risk == standard.element_of_risk
    assert found.house_edge_per_initial_bet == found.house_edge_per_ante == standard.stats.house_edge
    assert (found.choices[0] == standard.plays.astype(np.int64)).all()
    assert [o.cells for o in found.options] == [standard.strategy.hands_folded, standard.strategy.hands_played]


# --- side bets beside a family game -------------------------------------------------------------------------------

PAIR_PLUS = "pair_plus: {straight_flush: 40, three_of_a_kind: 30, straight: 6, flush: 3, pair: 1}"


def test_a_side_bet_lost_on_a_fold_is_lost_in_the_cells_the_strategy_folds() -> None:
    """Beside a face-up card whose 10x Play pushes a pair's win, pairs fold against some up cards: Pair Plus (lost on
    a fold) is paid in the cells the optimal strategy plays, over the 22,100 x 49 cells. The counts are the brute
    force's (benchmarks/family_against_brute.py prints the cells each class of hand is played in, from the brute
    force's choices over all 52 up cards: 49 each mini-royal, 2,156 straight flush, 2,548, 35,280, 53,704, 94,440)."""
    spec = paytable(
        "10x, pairs push, Pair Plus",
        "game: {face_up: 1, options: [{play: 10}], play_pays: {flush: 0, pair: 0}}\n"
        f"wagers: {{ante_play: {{}}, {PAIR_PLUS}}}\n",
    )
    [bet] = spec.wagers.side_bets
    pair_plus = family_side_bet(spec, bet, analysis_of("face_up_10x_pairs_push").choices)  # the same Ante & Play
    assert pair_plus.cycle == 22_100 * 49
    combinations = {row.outcome: row.combinations for row in pair_plus.outcomes}
    played = {"straight_flush": 4 * 49 + 2_156, "three_of_a_kind": 2_548, "straight": 35_280, "flush": 53_704}
    assert combinations == {**played, "pair": 94_440, "lose": 22_100 * 49 - sum(played.values()) - 94_440}
    assert pair_plus.stats.house_edge == 1 - Fraction(
        41 * played["straight_flush"] + 31 * 2_548 + 7 * 35_280 + 4 * 53_704 + 2 * 94_440, 22_100 * 49
    )


def test_side_bets_that_stand_on_a_fold_are_counted_as_beside_the_standard_game() -> None:
    six_card = (
        "six_card_bonus: {royal_flush: 1000, straight_flush: 200, four_of_a_kind: 50, full_house: 25, flush: 20, "
        "straight: 10, three_of_a_kind: 5}"
    )
    body = FU_GAME.replace("{BLIND}", FU_BLIND) + f"wagers: {{ante_play: {{}}, {PAIR_PLUS}, {six_card}}}\n"
    found = analyze_family(paytable("FU and side bets", body))
    standard = analyze(
        load_spec_bytes(f"trey: 2\nname: s\nwagers: {{ante_play: {{}}, {six_card}}}\n".encode(), "s.yaml")
    )
    pair_plus, six = found.side_bets
    assert (
        six.stats == standard.wagers["six_card_bonus"].stats
        and six.outcomes == standard.wagers["six_card_bonus"].outcomes
    )
    # every pair or better is played against every up card: Pair Plus is lost on no paying hand's fold
    assert pair_plus.stats.house_edge == Fraction(402, 5525)  # 7.2760%, as always played (40-30-6-3-1)


def test_a_side_bet_the_engine_cannot_count_beside_a_face_up_card_is_refused_where_it_is_written() -> None:
    body = (
        FU_GAME.replace("{BLIND}", FU_BLIND)
        + "wagers: {ante_play: {}}\nside_bets: {beaten: {reads: bad_beat, on_fold: lost, pays: {straight_beaten: 5}}}\n"
    )
    with pytest.raises(SpecError) as raised:
        paytable("x", body)
    [problem] = raised.value.problems
    assert (problem.code, problem.path) == ("game.side-bets", ("side_bets", "beaten"))
    assert problem.message == (
        "a side bet lost on a fold beside a face-up card is counted only on the player's own cards, without a "
        "progressive or an envy bonus"
    )


# --- the strategy as a rule by face-up card --------------------------------------------------------------------------


def test_the_rule_by_face_up_card_is_the_brute_force_s_fitted_rule_in_how_s_words() -> None:
    """benchmarks/bruteforce_family.py fits the same rule (per rank and bet, the threshold the optimal choices
    disagree with in the fewest cells, the weakest such) and prints its cells: 360 + 636 against a 2, 180 + 132
    against a 3, ... none against an ace (exceptions by ranks and by suits, over the four suits of the up card)."""
    from trey.figures.family import strategy_sentence

    found = analysis_of("face_up_ultimate")
    assert [describe_key(row.rule[0]) for row in found.chart if row.rule[0] is not None] == (
        [
            "9-8-2",
            "10-3-2",
            "10-4-2",
            "10-5-2",
            "10-6-2",
            "10-7-2",
            "9-8-6",
            "9-8-4",
            "10-8-4",
            "J-8-4",
            "Q-8-4",
            "K-8-4",
            "A-8-5",
        ]
    )
    assert [row.rule_exceptions for row in found.chart] == [
        (n, 0) for n in (996, 312, 120, 192, 336, 504, 876, 48, 48, 84, 48, 48, 0)
    ]
    assert {describe_key(row.rule[1]) for row in found.chart if row.rule[1] is not None} == {"pair of 2s, 3 kicker"}
    assert strategy_sentence(found) == (
        "3x every pair or better; 1x from 9-8-x on a 2, 10-x-x on a 3, 10-4-x on a 4, 10-5-x on a 5, 10-6-x on a 6, "
        "10-7-x on a 7, 9-8-6 on an 8, 9-8-4 on a 9, 10-8-4 on a 10, J-8-4 on a jack, Q-8-4 on a queen, K-8-4 on a "
        "king, A-8-5 on an ace; otherwise fold."
    )
    exceptions = chart_exceptions(found)
    assert len(exceptions) * 4 == sum(row.rule_exceptions[0] for row in found.chart)  # no cell breaks the 3x rule
    first = exceptions[0]  # the brute force's first "by suits": 2d-5c-9c vs 2c: optimal 1x, rule fold
    assert (first.up_card, sorted(hand_table().cards[first.hand].tolist()), first.rule, first.option) == (
        0,
        [1, 12, 28],
        0,
        1,
    )
    assert strategy_sentence(analysis_of("standard")) == "1x Q-6-4 or better; otherwise fold."
    # by ranks (every suit pattern of the hand decides so) and by suits, as the brute force splits them
    split: dict[tuple[int, bool], int] = {}
    for e in exceptions:
        split[e.up_card // 4, e.by_suits] = split.get((e.up_card // 4, e.by_suits), 0) + 4
    assert {k: n for k, n in split.items() if not k[1]} == {(0, False): 360, (1, False): 180, (5, False): 180}
    assert [split.get((rank, True), 0) for rank in range(13)] == [
        636,
        132,
        120,
        192,
        336,
        324,
        876,
        48,
        48,
        84,
        48,
        48,
        0,
    ]
