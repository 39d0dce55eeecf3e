"""The pay lines below the drill and the audit (issue 31): each line names its wager by id and its part by name, so
that a reader matching lines never goes by the words a document shows (a side bet titled "Ante Bonus" stays the side
bet's)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from conftest import PAYTABLES
from trey.audit.audit import lines_of, parts_of
from trey.engine import analyze
from trey.paytable.load import load_spec_bytes
from trey.paytable.model import ANTE_PLAY
from trey.play import pay_lines
from trey.play.payouts import PayRule
from trey.play.settle import Settler
from trey.play.simulate import deal

TITLED = (PAYTABLES / "side_bets" / "dealer-bonus.yaml").read_text().replace("title: Dealer Bonus", "title: Ante Bonus")


def test_lines_are_matched_by_wager_id_and_part_name_never_by_title() -> None:
    spec = load_spec_bytes(TITLED.encode(), "titled.yaml")
    settler = Settler(spec, analyze(spec).plays)
    rule = PayRule.of(spec.table)
    cards = deal(np.random.Generator(np.random.PCG64(5)), 400)
    outcomes = settler.settle(cards[:, :3], cards[:, 3:])
    bets = {w: Fraction(10) for w in spec.wagers.ids}
    checked = 0
    for row in range(len(cards)):
        settled = settler.settled(outcomes, row)
        lines = pay_lines.answer_lines(spec, settled, bets, rule)
        side = [line for line in lines if line.wager == "dealer_bonus"]
        assert [line.part for line in side] == ["Ante Bonus"] and [line.piece for line in side] == ["dealer_bonus"]
        ours = lines_of(spec, lines, ANTE_PLAY)
        assert all(line.wager == ANTE_PLAY for line in ours) and side[0] not in ours
        assert lines_of(spec, lines, "dealer_bonus") == side
        split = parts_of(ours)
        assert sum(split.values()) == sum((line.amount for line in ours), Fraction(0))
        # what the settlement nets Ante & Play, in money (no rounding at a bet of 10 and whole-number odds)
        assert sum(split.values()) == settled[ANTE_PLAY].net * 10
        checked += side[0].amount > 0
    assert checked  # some round paid the side bet titled like Ante & Play's part
