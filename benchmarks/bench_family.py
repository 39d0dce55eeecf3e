"""Speed of the family's exact analysis (issue 31): a game with one dealer card face up, 1,221,511,200 deals.

    .venv/bin/python benchmarks/bench_family.py

- `trey analyze paytables/family/face-up-ultimate.yaml` (the whole process, terminal tables and JSON), target 3 s;
- the exact computation alone in a fresh interpreter (trey.engine.family.analyze_family, its hand table and every
  up card's counts built there);
- the standard game's `trey analyze` beside it, which must not be slower than before the family came.
"""

from __future__ import annotations

import subprocess
import sys

from common import REPO, TREY, report, time_command

FACE_UP_ULTIMATE = "paytables/family/face-up-ultimate.yaml"

ENGINE_ONLY = """
import time
from trey.paytable.load import load_spec
spec = load_spec({path!r})
from trey.engine.family import analyze_family
start = time.perf_counter()
analyze_family(spec)
print(time.perf_counter() - start)
"""


def engine_times(runs: int = 5) -> list[float]:
    code = ENGINE_ONLY.format(path=str(REPO / FACE_UP_ULTIMATE))
    return [
        float(subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]


def main() -> None:
    for fmt in ("json", "table"):
        times = time_command([str(TREY), "analyze", FACE_UP_ULTIMATE, "--format", fmt])
        report(f"trey analyze {FACE_UP_ULTIMATE} --format {fmt} (whole process)", times, limit=3.0)
    report("exact count of every deal (trey.engine.family.analyze_family, cold)", engine_times(), limit=2.0)
    standard = time_command([str(TREY), "analyze", "paytables/standard.yaml", "--format", "json"])
    report("trey analyze paytables/standard.yaml --format json (whole process), beside it", standard)


if __name__ == "__main__":
    main()
