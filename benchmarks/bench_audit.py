"""Speed of audits (issue "Audits of played rounds"): rounds a second through reading, validity, settlement and
statistics.

    .venv/bin/python benchmarks/bench_audit.py [ROUNDS]

A hand history of ROUNDS (default 20,000) correctly settled rounds is written by `trey simulate --log`, then
`trey audit` of it is timed as a whole process (median of 3). Target: 200,000 rounds a second.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from common import TREY, median, report, time_command


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "log.jsonl"
        write = time_command(
            [
                str(TREY),
                "simulate",
                "paytables/standard.yaml",
                "--rounds",
                str(rounds),
                "--seed",
                "1",
                "--log",
                str(log),
            ],
            runs=1,
        )
        report(f"trey simulate --log of {rounds:,} rounds", write)
        times = time_command([str(TREY), "audit", "paytables/standard.yaml", str(log), "--format", "json"], runs=3)
        report(f"trey audit of {rounds:,} rounds", times)
        print(f"  {rounds / median(times):,.0f} rounds a second (target 200,000)")


if __name__ == "__main__":
    main()
