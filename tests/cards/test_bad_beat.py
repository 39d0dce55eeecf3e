"""``bad_beat``, the reading of both hands and the showdown that docs/extending.md shows: its rule
(``classify``) equals its closed-form counts over every deal, a plain hand comparison written here agrees with it,
and a paytable paying on it is loaded, analysed and settled like any other."""

from __future__ import annotations

import io
import random
from collections import Counter
from datetime import date
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
from pypdf import PdfReader

import trey
from every_deal import deal_blocks, pattern_sizes, representatives
from plain_hands import strength
from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.cards.readings import READINGS, Deals
from trey.cards.readings.bad_beat import BAD_BEAT, CLASSES
from trey.engine import analyze
from trey.paytable.load import load_spec_bytes
from trey.play.settle import Settler

REPO = Path(__file__).resolve().parents[2]
MODULE = REPO / "src" / "trey" / "cards" / "readings" / "bad_beat.py"


def test_the_reading_is_registered_by_its_module_alone() -> None:
    assert READINGS["bad_beat"] is BAD_BEAT
    assert list(READINGS)[:4] == ["player_hand", "dealer_hand", "six_cards", "colours"]


def test_classify_over_every_deal_equals_the_closed_form() -> None:
    players = representatives()
    weights = pattern_sizes()
    counts = np.zeros(len(CLASSES), dtype=np.int64)
    for step, hands, deals in deal_blocks(players):
        rows, dealers = np.nonzero(deals)
        batch = Deals(*(np.broadcast_to(np.int8(0), (len(rows), 3)),) * 2)
        # The hands' indexes are known: given to the batch, they are not looked up from the cards again.
        batch.__dict__.update(player_hands=hands[rows], dealer_hands=dealers)
        classes = BAD_BEAT.classify(batch)
        counts += np.bincount(classes, weights=weights[step][rows], minlength=len(CLASSES)).astype(np.int64)
    assert tuple(int(n) for n in counts) == BAD_BEAT.class_counts()
    assert sum(BAD_BEAT.class_counts()) == HANDS * DEALER_HANDS == 407_170_400


# --- a brute force written apart from trey's hand keys ----------------------------------------------------------


def brute_class(player: tuple[int, ...], dealer: tuple[int, ...]) -> str:
    mine, theirs = strength(player), strength(dealer)
    if theirs <= mine or mine[0] < 3:
        return "nothing"
    return {5: "straight_flush_beaten", 4: "three_of_a_kind_beaten", 3: "straight_beaten"}[mine[0]]


def test_a_plain_comparison_of_hands_agrees_on_sampled_player_hands() -> None:
    """Every dealer hand against sampled player hands, the strong ones included (these carry every class)."""
    table = hand_table()
    rng = random.Random(20)
    strong = [i for i in range(HANDS) if strength(tuple(int(c) for c in table.cards[i]))[0] >= 3]
    for i in rng.sample(strong, 6) + rng.sample(range(HANDS), 2):
        player = tuple(int(c) for c in table.cards[i])
        dealers = [d for d in combinations(range(52), 3) if not set(d) & set(player)]
        expected = Counter(brute_class(player, d) for d in dealers)
        got = BAD_BEAT.classify(Deals(np.array([player] * len(dealers)), np.array(dealers)))
        assert Counter(CLASSES[c] for c in got.tolist()) == expected, player


PAYTABLE = b"""trey: 2
name: Bad Beat example
side_bets:
  bad_beat_bonus:
    title: Bad Beat Bonus
    reads: bad_beat
    pays:
      straight_flush_beaten: 50000
      three_of_a_kind_beaten: 10000
      straight_beaten: 1000
"""


def test_a_paytable_paying_on_it_is_analysed_and_settled() -> None:
    spec = load_spec_bytes(PAYTABLE, "bad-beat.yaml")
    result = analyze(spec).wagers["bad_beat_bonus"]
    assert {r.outcome: r.combinations for r in result.outcomes} == {
        "straight_flush_beaten": 968,
        "three_of_a_kind_beaten": 3_312,
        "straight_beaten": 270_504,
        "lose": 406_895_616,
    }
    assert result.stats.rtp == Fraction(968 * 50_001 + 3_312 * 10_001 + 270_504 * 1_001, 407_170_400)
    settler = Settler(spec)
    beaten = settler.settle_round((44, 40, 36), (49, 45, 41))["bad_beat_bonus"]  # K-Q-J of clubs, A-K-Q of diamonds
    assert (str(beaten.outcome), beaten.net) == ("straight_flush_beaten", 50_000)
    tie = settler.settle_round((48, 44, 40), (49, 45, 41))["bad_beat_bonus"]  # A-K-Q of clubs and of diamonds
    assert (str(tie.outcome), tie.net) == ("lose", -1)  # a tie is no beat


def test_the_docs_worked_example_is_this_module_and_paytable() -> None:
    page = (REPO / "docs" / "extending.md").read_text(encoding="utf-8")
    section = page[page.index("A worked example") :]
    code = section[section.index("```python\n") + 10 :]
    assert code[: code.index("```")] == MODULE.read_text(encoding="utf-8")
    yaml = section[section.index("```yaml\n") + 8 :]
    assert yaml[: yaml.index("```")].encode() == PAYTABLE


def test_a_bet_on_it_is_simulated_certified_and_drilled_like_any_other() -> None:
    spec = load_spec_bytes(PAYTABLE, "bad-beat.yaml")
    assert trey.simulate(spec, 300_000, 5).wagers["bad_beat_bonus"].passed
    made = trey.certify(PAYTABLE, "bad-beat.yaml", issue_date=date(2026, 1, 1))
    text = " ".join(
        " ".join(page.extract_text().split())
        for page in PdfReader(io.BytesIO(made.files["bad-beat.certificate.pdf"])).pages
    )
    assert "Paid on the player's straight or better against a higher dealer hand;" in text  # its title, not its id
    assert "Bad Beat Bonus counts the player's straight or better against a higher dealer hand over all" in text
    drill = trey.drill(spec, "bad-beat", level="full", effective=date(2026, 1, 1))
    html = drill["bad-beat.drill.html"].decode()
    assert "Bad Beat Bonus" in html and "straight beaten" in html
