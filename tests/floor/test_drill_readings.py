"""A full payout drill covers every outcome of a side bet on any registered reading, the rare ones included
(each reading shows the deals random deals miss)."""

from __future__ import annotations

import pytest

from trey.cards.readings import READINGS
from trey.engine import analyze
from trey.floor.drill import Level, make_drill, uncovered
from trey.paytable.load import load_spec_bytes


@pytest.mark.parametrize("reading", list(READINGS))
def test_a_full_drill_shows_every_outcome_of_a_bet_on_each_reading(reading: str) -> None:
    outcomes = READINGS[reading].outcome_slugs
    pays = "\n".join(f"      {slug}: {len(outcomes) - i}" for i, slug in enumerate(outcomes))
    text = f"trey: 2\nname: every outcome\nside_bets:\n  every:\n    reads: {reading}\n    pays:\n{pays}\n"
    spec = load_spec_bytes(text.encode(), "every.yaml")
    drill = make_drill(spec, analyze(spec), hands=4, seed=1, level=Level.FULL)
    assert uncovered(drill) == []
    # Every listed row some deal is paid by (a mini-royal row, when each suit's is listed, is paid by none).
    counts, paid = READINGS[reading].class_counts(), READINGS[reading].paid_by(outcomes)
    payable = {outcomes[row] for row, n in zip(paid, counts, strict=True) if row is not None and n}
    shown = {feature for hand in drill.hands for feature in hand.teaches}
    assert {f"every:{slug}" for slug in payable} <= shown
    assert len(payable) >= len(outcomes) - 1
