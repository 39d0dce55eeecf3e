"""Dask's cost (issue "Beyond one machine"): `trey simulate` of ROUNDS rounds on `--workers 1`, `--workers 2` and
`--scheduler local:2` (a LocalCluster of two worker processes, started by the command), whole processes, median
of 3; the start of a LocalCluster (a 100-round run on local:2 less one without); and Dask's overhead per chunk
of 2^20 rounds, (local:2 - start - workers 2) / chunks. The rounds a second of one
worker are what a Dask worker of a cluster of such machines deals.

    .venv/bin/python benchmarks/bench_dask.py [ROUNDS]
"""

from __future__ import annotations

import math
import sys

from common import TREY, median, report, time_command

CHUNK_ROUNDS = 1 << 20


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 40_000_000
    base = [str(TREY), "simulate", "paytables/standard.yaml", "--rounds", str(rounds), "--format", "json"]
    runs = {
        "--workers 1": time_command([*base, "--workers", "1"], runs=3),
        "--workers 2": time_command([*base, "--workers", "2"], runs=3),
        "--scheduler local:2": time_command([*base, "--scheduler", "local:2"], runs=3),
    }
    for label, times in runs.items():
        report(f"trey simulate {rounds:,} rounds {label}", times)
        print(f"  {rounds / median(times) / 1e6:.2f} M rounds a second")
    chunks = math.ceil(rounds / CHUNK_ROUNDS)
    tiny = [str(TREY), "simulate", "paytables/standard.yaml", "--rounds", "100", "--format", "json"]
    start = median(time_command([*tiny, "--scheduler", "local:2"], runs=3)) - median(time_command(tiny, runs=3))
    print(f"starting a LocalCluster of 2 workers: {start:.2f} s")
    overhead = (median(runs["--scheduler local:2"]) - start - median(runs["--workers 2"])) / chunks
    print(f"Dask's overhead: {overhead * 1000:+.0f} ms a chunk of {CHUNK_ROUNDS:,} rounds, over {chunks} chunks")


if __name__ == "__main__":
    main()
