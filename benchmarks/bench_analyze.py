"""Speed of `trey analyze` (issue 3): the whole command, the exact computation alone, and a brute force beside it.

.venv/bin/python benchmarks/bench_analyze.py [--skip-brute-force]
"""

from __future__ import annotations

import subprocess
import sys

from common import REPO, TREY, median, report, time_call, time_command

STANDARD = "paytables/standard.yaml"

# The exact computation in a fresh interpreter each time (the engine caches its hand table per process).
ENGINE_ONLY = """
import time
from trey.paytable.load import load_spec
spec = load_spec({path!r})
import trey.engine
start = time.perf_counter()
trey.engine.analyze(spec)
print(time.perf_counter() - start)
"""


def engine_times(runs: int = 5) -> list[float]:
    code = ENGINE_ONLY.format(path=str(REPO / STANDARD))
    return [
        float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]


def main() -> None:
    command = time_command([str(TREY), "analyze", STANDARD, "--format", "json"])
    report("trey analyze paytables/standard.yaml --format json (whole process)", command, limit=0.6)
    engine = engine_times()
    report("exact computation of all four wagers (trey.engine.analyze, cold)", engine, limit=0.25)
    if "--skip-brute-force" in sys.argv:
        return
    from bruteforce_ante_play import brute_force_house_edge
    from trey.engine import analyze
    from trey.paytable.load import load_spec

    edges = []
    brute = time_call(lambda: edges.append(brute_force_house_edge()), runs=1)
    report("plain numpy brute force over all 407,170,400 Ante & Play deals", brute)
    exact = analyze(load_spec(REPO / "paytables" / "ante_bonus" / "5-4-1.yaml")).ante_play
    assert exact is not None
    verdict = "equals" if edges[0] == exact.stats.house_edge else "DIFFERS FROM"
    print(f"brute-force house edge {edges[0]} {verdict} the engine's {exact.stats.house_edge}")
    print(f"exact engine (Ante & Play and three more wagers) is {median(brute) / median(engine):.0f}x faster")


if __name__ == "__main__":
    main()
