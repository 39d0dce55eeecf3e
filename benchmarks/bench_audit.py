"""Speed and memory of audits (issue "Audits of played rounds"): rounds a second through reading, validity,
settlement and statistics, and the peak memory of two log sizes.

    .venv/bin/python benchmarks/bench_audit.py [ROUNDS]

`trey simulate --log` writes 100,000 correctly settled rounds; copies of them under other table names (other
round ids) make logs of 200,000 and ROUNDS (default 2,000,000) rounds. `trey audit --format json` of each is timed
as a whole process, and of a one-round log for the fixed cost (start-up, the paytable's analysis):
rounds a second = rounds / (time - fixed cost). Target: 200,000 rounds a second. For comparison, the library's
audit of 50,000 rounds with every line read strictly one at a time (`columnar=False`) and with the columnar reader.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import REPO, TREY

BASE = 100_000


def _log(folder: Path, base: bytes, rounds: int) -> Path:
    path = folder / f"log-{rounds}.jsonl"
    with path.open("wb") as out:
        for copy in range(-(-rounds // BASE)):
            part = base if copy == 0 else base.replace(b'"T1', f'"C{copy}'.encode())
            keep = min(BASE, rounds - copy * BASE)
            out.write(part if keep == BASE else b"".join(part.splitlines(keepends=True)[:keep]))
    return path


def _audit(log: Path, *extra: str) -> tuple[float, int]:
    """Seconds of a whole `trey audit`, and its peak resident memory in MB."""
    start = time.perf_counter()
    child = subprocess.Popen(
        [str(TREY), "audit", "paytables/standard.yaml", str(log), "--format", "json", *extra],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    if status not in (0, 256):  # 1: a finding (none here)
        raise SystemExit(f"trey audit failed on {log}")
    return seconds, usage.ru_maxrss // 1024


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        simulated = folder / "simulated.jsonl"
        subprocess.run(
            [
                str(TREY),
                "simulate",
                "paytables/standard.yaml",
                "--rounds",
                str(BASE),
                "--seed",
                "1",
                "--log",
                str(simulated),
            ],
            cwd=REPO,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        base = simulated.read_bytes()
        fixed = min(_audit(_log(folder, base, 1))[0] for _ in range(3))
        print(f"trey audit of 1 round: {fixed:.2f} s (start-up and the paytable's analysis)")
        for size in (200_000, rounds):
            log = _log(folder, base, size)
            seconds, memory = min(_audit(log) for _ in range(2))
            rate = size / (seconds - fixed)
            print(
                f"trey audit of {size:,} rounds ({log.stat().st_size / 1e6:,.0f} MB): {seconds:.2f} s, "
                f"{rate:,.0f} rounds a second (target 200,000), peak memory {memory:,} MB"
            )
            log.unlink()
        short = _log(folder, base, 50_000)
        for columnar in (False, True):
            seconds = _library(short, columnar)
            print(
                f"library audit of 50,000 rounds, columnar={columnar}: "
                f"{seconds:.2f} s, {50_000 / seconds:,.0f} a second"
            )


def _library(log: Path, columnar: bool) -> float:
    from trey.audit.audit import audit
    from trey.engine import analyze
    from trey.paytable.load import load_spec

    spec = load_spec(REPO / "paytables" / "standard.yaml")
    analysis = analyze(spec)
    start = time.perf_counter()
    audit(spec, [log], analysis, columnar=columnar)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
