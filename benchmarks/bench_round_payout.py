"""A round's payout at a table of K seats (issue 34): for each wager of the standard game, every seat betting one
unit, P(T_K > X) exact for 1 and 2 seats and a proven union bound for 3 to 7 (trey.play.round_payout), against a
simulation written here of K seats dealt from one shuffled deck with one dealer hand, settled by trey's Settler.

    .venv/bin/python benchmarks/bench_round_payout.py [ROUNDS]

ROUNDS (default 1,000,000) rounds of 7 seats; the first K seats of each round are the table of K. For each
(wager, K, X) the script prints the exact probability or the bound, the simulated frequency and its standard error;
an exact figure is flagged when the simulation is more than 4 standard errors from it, a bound when the simulated
frequency exceeds it by more than 4 standard errors. CPU time of the exact counts (the machine may be shared).
"""

from __future__ import annotations

import math
import sys
import time
from fractions import Fraction

import numpy as np

from trey.engine import player_decisions
from trey.paytable.load import load_spec
from trey.play.round_payout import round_payout
from trey.play.settle import Settler

STANDARD = "paytables/standard.yaml"
SEATS = 7
THRESHOLDS = {
    "ante_play": (5, 10, 20, 40),
    "pair_plus": (5, 30, 60, 100),
    "prime": (2, 6, 10, 15),
    "six_card_bonus": (10, 30, 100, 300),
}


def simulate(rounds: int, seed: int = 34) -> dict[str, np.ndarray]:
    """Per wager, (rounds, SEATS) nets of every seat of each round (float: every net here is a whole number)."""
    spec = load_spec(STANDARD)
    settler = Settler(spec, player_decisions(spec))
    nets = {w: np.array([float(n) for n in settler.tables[w].nets]) for w in settler.tables}
    rng = np.random.default_rng(seed)
    out = {w: np.zeros((rounds, SEATS)) for w in nets}
    chunk, done = 200_000, 0
    while done < rounds:
        m = min(chunk, rounds - done)
        deck = np.argsort(rng.random((m, 52)), axis=1)[:, : 3 + 3 * SEATS]
        dealer = np.sort(deck[:, :3], axis=1)
        for s in range(SEATS):
            settled = settler.settle(np.sort(deck[:, 3 + 3 * s : 6 + 3 * s], axis=1), dealer)
            for w in nets:
                out[w][done : done + m, s] = nets[w][settled[w]]
        done += m
    return out


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    spec = load_spec(STANDARD)
    payouts = {}
    for wager in spec.wagers.ids:
        cpu = time.process_time()
        payouts[wager] = round_payout(spec, wager)
        print(f"{wager}: exact one- and two-seat distributions in {time.process_time() - cpu:.1f} s CPU")
    cpu = time.process_time()
    simulated = simulate(rounds)
    print(f"simulated {rounds:,} rounds of {SEATS} seats in {time.process_time() - cpu:.0f} s CPU")
    flagged = 0
    print(f"{'wager':>15} {'K':>2} {'X':>5} {'P(T > X)':>12} {'':>8} {'simulated':>11} {'s.e.':>9}")
    for wager, payout in payouts.items():
        for seats in range(1, SEATS + 1):
            totals = simulated[wager][:, :seats].sum(axis=1)
            for x in THRESHOLDS[wager]:
                figure, exact = payout.tail_bound(seats, Fraction(x))
                share = float((totals > x).mean())
                error = math.sqrt(max(share * (1 - share), 1 / rounds) / rounds)
                bad = abs(share - float(figure)) > 4 * error if exact else share - float(figure) > 4 * error
                flagged += bad
                kind = "exact" if exact else "at most"
                mark = "  <-- FLAGGED" if bad else ""
                print(f"{wager:>15} {seats:>2} {x:>5} {float(figure):12.6g} {kind:>8} {share:11.6g} {error:9.2g}{mark}")
    print(f"flagged: {flagged}")


if __name__ == "__main__":
    main()
