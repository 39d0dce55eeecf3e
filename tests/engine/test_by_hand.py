"""Ante & Play as labs and Wizard of Odds detail it (issue 30.4): the outcomes by the player's hand category, the
probability that the dealer qualifies and each hand's expected values, held equal to a brute force written apart
(tests/plain_deals.py: itertools, the plain hand order, numpy comparisons) and to the five situations."""

from __future__ import annotations

from fractions import Fraction

import pytest

from conftest import PAYTABLES, STANDARD
from plain_deals import DEALER_HANDS, hands, patterns, situation_counts
from trey.cards.hand_table import HANDS
from trey.engine import analyze
from trey.engine.ante_play import dealer_counts_at, hand_value
from trey.engine.results import AntePlayAnalysis
from trey.paytable.load import load_spec, load_spec_bytes
from trey.rules.ante_play import Situation, bonus_column, bonus_pays, resolution_table

Q_HIGH = (0, 10, 1, 0)  # Q-3-2, the weakest qualifying hand
CATEGORIES = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")  # plain_hands' 0..5
MINI_ROYAL = (5, 12)  # A-K-Q suited


def _ante_play(text: bytes, name: str) -> AntePlayAnalysis:
    result = analyze(load_spec_bytes(text, name)).ante_play
    assert result is not None
    return result


STANDARD_TEXT = STANDARD.read_bytes()
# Ties to the player, the Ante Bonus paid on a fold too, a mini-royal Ante Bonus row paid apart from the other
# straight flushes, and the fixed rule "mimic the dealer" (a fold in every category the dealer cannot qualify with).
VARIANT_TEXT = (
    b"trey: 2\nname: variant\nrules:\n  ties: player_wins\n  ante_bonus_requires_play: false\n"
    b"wagers:\n  ante_play:\n    ante_bonus: {mini_royal: 50, straight_flush: 5, three_of_a_kind: 4, straight: 1}\n"
    b"    strategy: mimic-dealer\n"
)


def _brute_force_table(
    *, bonus: dict[str, int], tie: int, bonus_on_fold: bool, plays: str
) -> dict[tuple[str, str], tuple[Fraction, int]]:
    """(hand, outcome) -> (net per Ante, deals), over every deal by the suit patterns, with the rules written
    here: Ante and Play nets, the bonus by the plain category, the decision by the plain counts."""
    h = hands()
    first, weight = patterns()
    counts = situation_counts(Q_HIGH)
    table: dict[tuple[str, str], tuple[Fraction, int]] = {}
    for index, w, (not_qualify, higher, ties, lower) in zip(first, weight, counts, strict=True):
        s = h.strengths[index]
        hand = "mini_royal" if s == MINI_ROYAL and "mini_royal" in bonus else CATEGORIES[s[0]]
        paid = bonus.get(hand, 0)
        nets = {"dealer_not_qualify": 1 + paid, "win": 2 + paid, "tie": 2 * tie + paid, "lose": -2 + paid}
        deals = {"dealer_not_qualify": not_qualify, "win": higher, "tie": ties, "lose": lower}
        fold = -1 + (paid if bonus_on_fold else 0)
        # optimal: the better expectation, indifference folding; mimic: what the dealer would qualify with
        optimal = sum(nets[o] * n for o, n in deals.items()) > fold * DEALER_HANDS
        play = optimal if plays == "optimal" else s >= Q_HIGH
        chosen = {o: (n if play else 0) for o, n in deals.items()} | {"fold": 0 if play else DEALER_HANDS}
        for outcome, n in chosen.items():
            net = Fraction(fold if outcome == "fold" else nets[outcome])
            before = table.get((hand, outcome), (net, 0))
            assert before[0] == net
            table[hand, outcome] = (net, before[1] + int(n) * int(w))
    return table


def _engine_table(result: AntePlayAnalysis) -> dict[tuple[str, str], tuple[Fraction, int]]:
    return {(r.hand, str(r.situation)): (r.pays, r.combinations) for r in result.by_hand}


@pytest.mark.parametrize(
    ("text", "rules"),
    [
        (
            STANDARD_TEXT,
            {
                "bonus": {"straight_flush": 5, "three_of_a_kind": 4, "straight": 1},
                "tie": 0,
                "bonus_on_fold": False,
                "plays": "optimal",
            },
        ),
        (
            VARIANT_TEXT,
            {
                "bonus": {"mini_royal": 50, "straight_flush": 5, "three_of_a_kind": 4, "straight": 1},
                "tie": 1,
                "bonus_on_fold": True,
                "plays": "mimic",
            },
        ),
    ],
    ids=["standard", "variant"],
)
def test_the_outcomes_by_hand_equal_a_brute_force_over_every_deal(text: bytes, rules: dict[str, object]) -> None:
    result = _ante_play(text, "game.yaml")
    engine = _engine_table(result)
    brute = _brute_force_table(**rules)  # type: ignore[arg-type]
    assert engine == brute
    # what never happens is listed too, as 0: a straight flush folded under the optimal strategy, tied trips
    assert engine["three_of_a_kind", "tie"][1] == 0
    # strongest first, each hand's five outcomes in the order of the outcome table
    hands_listed = list(dict.fromkeys(r.hand for r in result.by_hand))
    assert hands_listed == [h for h in ("mini_royal", *reversed(CATEGORIES)) if any(k[0] == h for k in brute)]


def test_the_rows_add_up_to_the_five_situations_and_to_the_house_edge() -> None:
    for path in (STANDARD, *sorted((PAYTABLES / "ante_bonus").glob("*.yaml"))):
        result = _ante_play(path.read_bytes(), path.name)
        for row in result.outcomes:
            assert sum(r.combinations for r in result.by_hand if str(r.situation) == row.outcome) == row.combinations
        assert sum((r.expected_net for r in result.by_hand), Fraction(0)) == -result.stats.house_edge
        assert sum((r.contribution for r in result.by_hand), Fraction(0)) == result.stats.rtp
        distribution: dict[Fraction, int] = {}
        for r in result.by_hand:
            distribution[r.pays] = distribution.get(r.pays, 0) + r.combinations
        assert {n.net: n.combinations for n in result.net_results} == {k: v for k, v in distribution.items() if v}


def test_a_table_whose_rows_do_not_add_up_is_refused() -> None:
    from dataclasses import replace

    result = _ante_play(STANDARD_TEXT, "standard.yaml")
    rows = list(result.by_hand)
    rows[1] = replace(rows[1], combinations=rows[1].combinations + 1)
    with pytest.raises(ValueError, match="ante_play: the outcomes by hand do not add up to dealer_not_qualify"):
        replace(result, by_hand=tuple(rows))


def test_the_dealer_qualifies_as_published() -> None:
    """docs/published-figures.md: Q-high or better 69.6% of the time (Grochowski); exactly 769/1105, counted apart
    as the share of the 22,100 hands that qualify."""
    result = _ante_play(STANDARD_TEXT, "standard.yaml")
    q = hands().rank_of(Q_HIGH)
    assert result.dealer_qualifies == Fraction(int((hands().rank >= q).sum()), HANDS) == Fraction(769, 1105)
    assert round(float(result.dealer_qualifies) * 100, 1) == 69.6
    pair = _ante_play(STANDARD_TEXT.replace(b"dealer_qualifier: Q-high", b"dealer_qualifier: pair"), "pair.yaml")
    assert pair.dealer_qualifies == Fraction(int((hands().category >= 1).sum()), HANDS)  # a pair or better: 5,660


def test_a_hands_expected_values_equal_the_brute_force_and_decide_as_the_engine() -> None:
    """hand_value, the one statement of a hand's expectation, on every suit pattern's hand: its values equal the
    plain counts' and its decision is the optimal strategy's (whose integer comparison is stated apart)."""
    spec = load_spec(STANDARD)
    game = spec.wagers.ante_play
    assert game is not None
    resolution = resolution_table(spec.rules)
    counts = dealer_counts_at(spec.rules.dealer_qualifier.minimum_key).by_situation()
    from trey.cards.readings.player_hand import class_of_hand

    column = bonus_column(game.ante_bonus, class_of_hand())
    bonus = bonus_pays(game.ante_bonus)
    plays = analyze(spec).plays
    assert plays is not None
    first, _ = patterns()
    plain = situation_counts(Q_HIGH)
    plain_bonus = {5: 5, 4: 4, 3: 1}
    for index, (not_qualify, higher, ties, lower) in zip(first, plain, strict=True):
        value = hand_value({s: int(c[index]) for s, c in counts.items()}, resolution, bonus[column[index]])
        paid = plain_bonus.get(hands().strengths[index][0], 0)
        play = Fraction((1 + paid) * not_qualify + (2 + paid) * higher + paid * ties + (paid - 2) * lower, DEALER_HANDS)
        assert (value.play, value.fold) == (play, -1)
        assert value.plays == bool(plays[index]) == (play > -1)
    with pytest.raises(ValueError, match="at least one dealer hand"):
        hand_value(dict.fromkeys(Situation, 0), resolution, Fraction(0))


def test_q_6_4_plays_and_q_6_3_folds_by_their_margins() -> None:
    """docs/published-figures.md: play Q-6-4 or better, fold worse; Q-6-4 is not a money-making hand (playing
    loses less than the folded Ante). Averaged over their 60 suit combinations each."""
    spec = load_spec(STANDARD)
    resolution = resolution_table(spec.rules)
    counts = dealer_counts_at(spec.rules.dealer_qualifier.minimum_key).by_situation()
    h = hands()
    for ranks, plays in (((10, 4, 2), True), ((10, 4, 1), False)):
        index = [i for i, s in enumerate(h.strengths) if s == (0, *ranks)]
        assert len(index) == 60
        values = [hand_value({s: int(c[i]) for s, c in counts.items()}, resolution, Fraction(0)) for i in index]
        assert all(v.plays is plays for v in values)
        assert all(-1 < v.play < 0 for v in values) is plays
