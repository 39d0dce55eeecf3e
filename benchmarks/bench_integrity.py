"""Speed of the deal-integrity battery (issue 32): decks a second through every test of decks and inputs, and the
false-alarm rate of Fisher–Yates decks over many seeds.

    .venv/bin/python benchmarks/bench_integrity.py [DECKS] [SEEDS]

1. Speed: DECKS (default 200,000) Fisher–Yates decks, fed in shuffled, dealt to six seats and the dealer
   (``trey.audit.integrity.deal``), the battery run on all the rounds (every test of decks, inputs and hands), then
   again with every round labelled by one of 4 shufflers, 10 dealers and 3 shifts (the battery run on all the rounds
   and on each group: 18 runs). Decks a second = decks / seconds (median of 3; wall clock and, for a busy machine,
   the process's CPU time). Target: 100,000 decks a second.
2. False alarms: SEEDS (default 200) seeds of 3,000 Fisher–Yates decks each, the battery's family flagged at
   α = 10⁻⁶, 10⁻², 5·10⁻² (Holm): how many seeds are flagged (at most about α × SEEDS), and each test's share of
   p-values below 0.01 and 0.05 (about 1% and 5% when its null law is right).
"""

from __future__ import annotations

import sys
import time
from fractions import Fraction

import numpy as np

from common import median
from trey.audit.integrity import deal_integrity
from trey.audit.integrity.battery import OVERALL
from trey.audit.integrity.deal import deal
from trey.audit.verdict import Family
from trey.cards.shuffles import Shuffle, new_deck_order


def _records(decks: int, seed: int, *, labelled: bool) -> object:
    rng = np.random.default_rng(seed)
    inputs = rng.permuted(new_deck_order(decks), axis=1)
    shuffled = Shuffle("fisher-yates").shuffle(rng, inputs)
    labels = None
    if labelled:
        i = np.arange(decks)
        labels = {
            "shuffler": np.array([f"S{k}" for k in i % 4], dtype=object),
            "dealer": np.array([f"D{k}" for k in i % 10], dtype=object),
            "shift": np.array([f"{k}" for k in i % 3], dtype=object),
        }
    return deal(shuffled, seats=6, inputs=inputs, labels=labels)


def speed(decks: int) -> None:
    deal_integrity(_records(1000, 0, labelled=False))  # the exact laws, computed once
    for labelled in (False, True):
        records = _records(decks, 1, labelled=labelled)
        times, cpu = [], []
        for _ in range(3):
            start, start_cpu = time.perf_counter(), time.process_time()
            deal_integrity(records)  # type: ignore[arg-type]
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        seconds, busy = median(times), median(cpu)
        what = "all rounds and 17 groups" if labelled else "all rounds"
        print(
            f"battery on {decks:,} decks ({what}): {seconds:.2f} s, {decks / seconds:,.0f} decks a second "
            f"(CPU {busy:.2f} s: {decks / busy:,.0f} decks a CPU second)"
        )


def false_alarms(seeds: int, decks: int = 3_000) -> None:
    levels = (Fraction(1, 10**6), Fraction(1, 100), Fraction(1, 20))
    flagged = dict.fromkeys(levels, 0)
    below: dict[str, list[int]] = {}
    for seed in range(seeds):
        battery = deal_integrity(_records(decks, 1000 + seed, labelled=False))  # type: ignore[arg-type]
        tests = battery.statistical_tests()
        for alpha in levels:
            flagged[alpha] += any(Family.of(tests, alpha).flagged)
        for o in battery.outcomes:
            if o.group == OVERALL and o.p_value is not None:
                counts = below.setdefault(o.test, [0, 0, 0])
                counts[0] += 1
                counts[1] += o.p_value < 0.01
                counts[2] += o.p_value < 0.05
    print(f"Fisher–Yates, {seeds} seeds of {decks:,} decks:")
    for alpha in levels:
        print(f"  flagged at alpha {float(alpha):g}: {flagged[alpha]} of {seeds} seeds")
    for test, (runs, one, five) in below.items():
        print(f"  {test}: p < 0.01 in {one / runs:.1%}, p < 0.05 in {five / runs:.1%} of {runs} runs")


if __name__ == "__main__":
    decks = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    seeds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    if decks:
        speed(decks)
    if seeds:
        false_alarms(seeds)
