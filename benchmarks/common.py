"""Shared helpers of the benchmark scripts: timing whole commands and functions, median of several runs."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TREY = Path(sys.executable).with_name("trey")


def time_command(args: Sequence[str], runs: int = 5) -> list[float]:
    """Wall-clock seconds of a whole command (interpreter start-up included), ``runs`` times."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(list(args), check=True, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return times


def time_call(function: Callable[[], object], runs: int = 5) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def median(times: list[float]) -> float:
    return statistics.median(times)


def report(label: str, times: list[float], limit: float | None = None) -> None:
    verdict = ""
    if limit is not None:
        verdict = f"  (limit {limit:.2f} s: {'ok' if median(times) <= limit else 'OVER'})"
    runs = ", ".join(f"{t:.3f}" for t in times)
    print(f"{label}: median {median(times):.3f} s over {len(times)} runs [{runs}]{verdict}")
