"""Pair Plus: the player's three cards alone, over all 22,100 hands."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.engine.hand_table import HANDS, hand_table
from trey.engine.results import WagerAnalysis
from trey.engine.stats import OutcomeRow, distribution_of_rows, stats_of
from trey.hands import ThreeCardCategory, three_card_key
from trey.spec import PAIR_PLUS_OUTCOMES, Paytable, WagerName

LOSE = "lose"
MINI_ROYAL_KEY = three_card_key((48, 44, 40))  # A-K-Q of clubs; suits never change a key
_CATEGORY_OF_OUTCOME = {
    "straight_flush": ThreeCardCategory.STRAIGHT_FLUSH,
    "three_of_a_kind": ThreeCardCategory.THREE_OF_A_KIND,
    "straight": ThreeCardCategory.STRAIGHT,
    "flush": ThreeCardCategory.FLUSH,
    "pair": ThreeCardCategory.PAIR,
}


def pair_plus_outcomes(paytable: Paytable, keys: npt.NDArray[np.int64]) -> list[tuple[str, npt.NDArray[np.bool_]]]:
    """For each paid outcome (paytable order), which hands it pays. A mini-royal not paid apart is a straight flush."""
    categories = keys >> 12
    mini_royal = keys == MINI_ROYAL_KEY
    result = []
    for outcome, _ in paytable:
        if outcome == "mini_royal":
            hits = mini_royal
        else:
            hits = categories == _CATEGORY_OF_OUTCOME[outcome]
            if outcome == "straight_flush" and paytable.get("mini_royal") is not None:
                hits = hits & ~mini_royal
        result.append((outcome, hits))
    return result


def analyze_pair_plus(paytable: Paytable, folds: npt.NDArray[np.bool_] | None = None) -> WagerAnalysis:
    """``folds``: hands on which the player folds the Ante and so loses the Pair Plus (rule ``lost``)."""
    keys = hand_table().keys
    rows = []
    paid = np.zeros(HANDS, dtype=bool)
    for outcome, hits in pair_plus_outcomes(paytable, keys):
        if folds is not None:
            hits = hits & ~folds
        paid |= hits
        odds = paytable.get(outcome)
        assert odds is not None
        rows.append(OutcomeRow(outcome, odds.net, int(hits.sum()), HANDS))
    rows.append(OutcomeRow(LOSE, Fraction(-1), HANDS - int(paid.sum()), HANDS))
    assert [r.outcome for r in rows[:-1]] == [o for o in PAIR_PLUS_OUTCOMES if paytable.get(o) is not None]
    distribution = distribution_of_rows(rows)
    return WagerAnalysis(WagerName.PAIR_PLUS, tuple(rows), distribution, stats_of(distribution))
