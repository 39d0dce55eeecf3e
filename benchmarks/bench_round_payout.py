"""A round's payout at a table of K seats (issue 34): for each wager of the standard game, every seat betting one
unit, P(T_K > X) exact for 1 and 2 seats and proven lower and upper bounds for 3 to 7 (trey.play.round_payout),
against the library's seeded simulation of K seats dealt from one shuffled deck with one dealer hand, settled by
trey's Settler (trey.play.table_simulation); then the command's time.

    .venv/bin/python benchmarks/bench_round_payout.py [ROUNDS]

ROUNDS (default 1,000,000) rounds of 7 seats; the first K seats of each round are the table of K. For each
(wager, K, X) the script prints the exact probability or the two bounds, the simulated frequency and its standard
error; an exact figure is flagged when the simulation is more than 4 standard errors from it, a bound when the
simulated frequency is beyond it by more than 4 standard errors. CPU time of the exact counts (the machine may be
shared), and the wall and CPU time of `trey risk --seats 7 --pays-over 100` in a fresh process (every wager counted
and 10^6 rounds simulated).
"""

from __future__ import annotations

import math
import resource
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from trey.paytable.load import load_spec
from trey.play.round_payout import round_payout
from trey.play.table_simulation import simulate_round_totals

STANDARD = "paytables/standard.yaml"
SEATS = 7
SEED = 34
THRESHOLDS = {
    "ante_play": (5, 10, 20, 40),
    "pair_plus": (5, 30, 60, 100),
    "prime": (2, 6, 10, 15),
    "six_card_bonus": (10, 30, 100, 300),
}


def command_time() -> tuple[float, float]:
    """(wall, CPU) seconds of `trey risk --seats 7 --pays-over 100` in a fresh process."""
    trey = Path(sys.executable).with_name("trey")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([str(trey), "risk", STANDARD, "--seats", "7", "--pays-over", "100"], check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    spec = load_spec(STANDARD)
    payouts = {}
    for wager in spec.wagers.ids:
        cpu = time.process_time()
        payouts[wager] = round_payout(spec, wager)
        print(f"{wager}: exact one- and two-seat distributions in {time.process_time() - cpu:.1f} s CPU")
    cpu = time.process_time()
    simulated = simulate_round_totals(spec, list(spec.wagers.ids), SEATS, rounds, SEED)
    print(f"simulated {rounds:,} rounds of {SEATS} seats (seed {SEED}) in {time.process_time() - cpu:.1f} s CPU")
    flagged = 0
    print(f"{'wager':>15} {'K':>2} {'X':>5} {'at least':>12} {'P(T > X)':>12} {'':>8} {'simulated':>11} {'s.e.':>9}")
    for wager, payout in payouts.items():
        for seats in range(1, SEATS + 1):
            for x in THRESHOLDS[wager]:
                lower = payout.lower_bound(seats, Fraction(x)).value
                upper = payout.upper_bound(seats, Fraction(x)).value
                exact = seats <= 2
                share = simulated.over(wager, seats, Fraction(x)) / rounds
                error = math.sqrt(max(share * (1 - share), 1 / rounds) / rounds)
                bad = share - float(upper) > 4 * error or float(lower) - share > 4 * error
                flagged += bad
                kind = "exact" if exact else "at most"
                mark = "  <-- FLAGGED" if bad else ""
                low = "" if exact else f"{float(lower):12.6g}"
                print(
                    f"{wager:>15} {seats:>2} {x:>5} {low:>12} {float(upper):12.6g} {kind:>8} {share:11.6g} "
                    f"{error:9.2g}{mark}"
                )
    print(f"flagged: {flagged}")
    wall, cpu_used = command_time()
    print(f"trey risk {STANDARD} --seats 7 --pays-over 100: {wall:.1f} s wall, {cpu_used:.1f} s CPU (fresh process)")


if __name__ == "__main__":
    main()
