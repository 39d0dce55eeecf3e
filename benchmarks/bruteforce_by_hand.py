"""The full brute force of Ante & Play's outcomes by the player's hand (issue 30.4): every one of the 22,100 player
hands against every one of its 18,424 dealer hands, 407,170,400 deals, with nothing of trey's counting — the hands
listed by itertools and ranked by the plain hand order of tests/plain_hands.py, each deal's situation by comparing
ranks, the decision by each hand's own counts — and the resulting table compared with ``trey analyze``'s, row by
row. The tests (tests/engine/test_by_hand.py) count the same deals by suit pattern, which relies on suits never
deciding a round; this run does not.

.venv/bin/python benchmarks/bruteforce_by_hand.py
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from plain_deals import DEALER_HANDS, hands, situation_counts
from trey.engine import analyze
from trey.paytable.load import load_spec

STANDARD = Path(__file__).resolve().parent.parent / "paytables" / "standard.yaml"
Q_HIGH = (0, 10, 1, 0)  # Q-3-2
CATEGORIES = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")
BONUS = {5: 5, 4: 4, 3: 1}  # the standard Ante Bonus, by plain category


def brute_force_table() -> dict[tuple[str, str], tuple[Fraction, int]]:
    """(hand, outcome) -> (net per Ante, deals) over all 407,170,400 deals, optimal decisions, ties push."""
    h = hands()
    counts = situation_counts(Q_HIGH, tuple(range(len(h.cards))))  # every player hand, every dealer hand
    table: dict[tuple[str, str], tuple[Fraction, int]] = {}
    for index, (not_qualify, higher, ties, lower) in enumerate(counts):
        category = int(h.category[index])
        paid = BONUS.get(category, 0)
        nets = {"dealer_not_qualify": 1 + paid, "win": 2 + paid, "tie": paid, "lose": paid - 2}
        deals = {"dealer_not_qualify": not_qualify, "win": higher, "tie": ties, "lose": lower}
        play = sum(nets[o] * n for o, n in deals.items()) > -DEALER_HANDS  # folding loses the Ante
        chosen = {o: (int(n) if play else 0) for o, n in deals.items()} | {"fold": 0 if play else DEALER_HANDS}
        for outcome, n in chosen.items():
            net = Fraction(-1 if outcome == "fold" else nets[outcome])
            _, before = table.get((CATEGORIES[category], outcome), (net, 0))
            table[CATEGORIES[category], outcome] = (net, before + n)
    return table


def main() -> None:
    start = time.perf_counter()
    brute = brute_force_table()
    took = time.perf_counter() - start
    result = analyze(load_spec(STANDARD)).ante_play
    assert result is not None
    engine = {(r.hand, str(r.situation)): (r.pays, r.combinations) for r in result.by_hand}
    deals = sum(n for _, n in brute.values())
    assert deals == 22_100 * DEALER_HANDS, deals
    assert engine == brute, sorted(set(engine.items()) ^ set(brute.items()))
    edge = -sum((net * n for net, n in brute.values()), Fraction(0)) / deals
    assert edge == result.stats.house_edge
    print(f"{deals:,} deals counted one by one in {took:.1f} s: the {len(brute)} rows by hand equal trey analyze's")
    qualifies = np.mean(hands().rank >= hands().rank_of(Q_HIGH))
    print(f"house edge {edge} = {float(edge):.6%}; the dealer qualifies with {qualifies:.6%} of the hands")


if __name__ == "__main__":
    main()
