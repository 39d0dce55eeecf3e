"""Settlement equals the engine's counts under any rules: a player hand settled against every dealer hand it can
meet ends in each outcome row as often as the engine counts, whatever the qualifier, the ties and the Ante Bonus
rule, and with the player's own decision."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from trey.cards.hand_table import DEALER_HANDS, HANDS, hand_table
from trey.engine import analyze
from trey.paytable.load import load_spec
from trey.paytable.model import DealerQualifier, Rules, Ties
from trey.play.settle import Settler
from trey.rules.ante_play import situation_counts

SPEC = load_spec(Path(__file__).resolve().parents[2] / "paytables" / "standard.yaml")
rules = st.builds(
    Rules,
    st.sampled_from(["none", "J-high", "Q-high", "Q-6-4", "A-high", "pair"]).map(DealerQualifier.parse),
    st.sampled_from(list(Ties)),
    st.booleans(),
)


@settings(max_examples=12, deadline=None)
@given(rules, st.integers(0, HANDS - 1))
def test_a_hand_settled_against_every_dealer_hand_lands_in_the_engines_counts(rule: Rules, hand: int) -> None:
    spec = replace(SPEC, rules=rule)
    analysis = analyze(spec)
    assert analysis.ante_play is not None
    settler = Settler(spec, analysis.ante_play.plays)
    table = hand_table()
    player = table.cards[hand]
    dealers = np.array([d for d in combinations(range(52), 3) if not set(d) & set(player.tolist())])
    assert len(dealers) == DEALER_HANDS
    outcomes = settler.settle(np.tile(player, (DEALER_HANDS, 1)), dealers)["ante_play"]
    rows = settler.tables["ante_play"].rows
    tally = Counter(rows[o] for o in outcomes.tolist())
    if not analysis.ante_play.plays[hand]:
        assert tally == {"fold": DEALER_HANDS}
        return
    counts = situation_counts(table, rule.dealer_qualifier.minimum_key).by_situation()
    assert {row: n for row, n in tally.items()} == {
        str(situation): int(count[hand]) for situation, count in counts.items() if count[hand]
    }
