"""This tree against an earlier release, in one run (reorganising must not slow anything: the redesign of
issue 20 was measured against release 0.2.0, issues 29 and 30 against 0.4.0).

    .venv/bin/python benchmarks/bench_against_release.py [REV] [ROUNDS]

REV (default 6e13187, the last commit of release 0.4.0; bfbd7d1 is 0.2.0's, b9faead 0.1.0's, 590f41a the tree
before issue 20's redesign) is exported with ``git archive`` into a temporary folder and run with the same
interpreter and packages, so that only trey's own code differs; both trees run byte-compiled (``make bench``
compiles this one). The two are timed alternately, run by run, so that the machine's drift (it varies by up to half
from minute to minute) falls on both alike: `trey analyze paytables/standard.yaml --format json` as a whole process
(median of 9), `trey certify` of it (median of 5; the releases' certificates differ in what they say), and `trey
simulate` of ROUNDS (default 20,000,000) rounds with --workers 2, all wagers settled (median of 3).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from common import REPO, median

RELEASE = "6e13187"
STANDARD = "paytables/standard.yaml"
RUN_CLI = "import sys; from trey.cli import main; sys.argv[0] = 'trey'; main()"


def export_release(rev: str, into: Path) -> Path:
    archive = subprocess.run(["git", "archive", rev, "src"], cwd=REPO, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into / "src")], check=True)
    return into / "src"


def timed(source: Path, args: list[str]) -> float:
    env = dict(os.environ, PYTHONPATH=str(source))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", RUN_CLI, *args], cwd=REPO, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def compare(label: str, trees: dict[str, Path], args: list[str], runs: int) -> dict[str, float]:
    times: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(runs):
        for name, source in trees.items():
            times[name].append(timed(source, args))
    medians = {name: median(t) for name, t in times.items()}
    print(label)
    for name, t in times.items():
        print(f"  {name:>8}: median {medians[name]:.3f} s over {runs} runs [{', '.join(f'{x:.3f}' for x in t)}]")
    return medians


def main() -> None:
    rev = sys.argv[1] if len(sys.argv) > 1 else RELEASE
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000_000
    with tempfile.TemporaryDirectory() as folder:
        trees = {rev: export_release(rev, Path(folder)), "this": REPO / "src"}
        analyze = compare(f"trey analyze {STANDARD} --format json", trees, ["analyze", STANDARD, "--format", "json"], 9)
        print(f"  this tree / {rev}: x{analyze['this'] / analyze[rev]:.2f} (1.00 or less: no slower)")
        with tempfile.TemporaryDirectory() as out:
            args = ["certify", STANDARD, "--out", out, "--date", "2026-01-01", "--force"]
            certify = compare(f"trey certify {STANDARD}", trees, args, 5)
        print(f"  this tree / {rev}: x{certify['this'] / certify[rev]:.2f} (1.00 or less: no slower)")
        args = ["simulate", STANDARD, "--rounds", str(rounds), "--seed", "1", "--workers", "2", "--format", "json"]
        simulate = compare(f"trey simulate {STANDARD} --rounds {rounds:,} --workers 2", trees, args, 3)
        for name, seconds in simulate.items():
            print(f"  {name:>8}: {rounds / seconds / 1e6:.2f} million rounds per second (target 5 with 2 workers)")


if __name__ == "__main__":
    main()
