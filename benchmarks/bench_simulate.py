"""Throughput of `trey simulate` (issue 6): rounds per second, all four wagers settled, 1 and 2 workers.

    .venv/bin/python benchmarks/bench_simulate.py [ROUNDS]

Times the whole command (start-up and the exact analysis included), median of 3 runs per worker count.
"""

from __future__ import annotations

import sys

from common import TREY, median, report, time_command

STANDARD = "paytables/standard.yaml"


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000_000
    rates = {}
    for workers in (1, 2):
        args = [str(TREY), "simulate", STANDARD, "--rounds", str(rounds), "--seed", "1"]
        times = time_command([*args, "--workers", str(workers), "--format", "json"], runs=3)
        report(f"trey simulate {STANDARD} --rounds {rounds:,} --workers {workers}", times)
        rates[workers] = rounds / median(times)
        print(f"  {rates[workers] / 1e6:.2f} million rounds per second")
    print(f"scaling from 1 to 2 workers: x{rates[2] / rates[1]:.2f} (target: at least 2 million rounds/s with 2)")


if __name__ == "__main__":
    main()
