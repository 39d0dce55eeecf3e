"""Speed of audits of table rounds (issue 32): seats a second through reading, the whole-round checks, settlement
and statistics, from JSON Lines and from Parquet, and the peak memory of two log sizes.

`simulated_table_log` writes 5,000 table rounds of 5 seats with their deck and input; copies of them under other
round ids make logs of ROUNDS (default 40,000 rounds, 200,000 seats). The library's audit of each is timed after a
first audit of a short log of each kind (the paytable's analysis, imports: what a process does once): seats a
second = seats / time, by the wall clock and, for a machine others share, by the process's CPU time (both cores:
the reading runs ahead on a second thread, JSON Lines parsed there, Parquet read and proven there). Target:
200,000. For comparison on the same machine at the same time (its speed drifts), the audit of as many seat lines
(format 1, the rounds `trey simulate --log` writes), whose whole-process figure is in docs/speed.md; RUNS (default
3) runs of the three, alternated, each figure their median.

    .venv/bin/python benchmarks/bench_table_rounds.py [ROUNDS] [RUNS]
    .venv/bin/python benchmarks/bench_table_rounds.py --memory [SEATS ...]

`--memory`: the peak memory of an audit of table rounds (5 seats each, with their deck and input, labelled by 4
shufflers, 10 dealers and 3 shifts) against the log's length, SEATS seats (default 200,000 and 1,000,000): each
log written as JSON Lines, then audited by the library in a process of its own, which prints its peak resident
memory (``ru_maxrss``) before the audit (imports and the paytable's analysis) and after it. The deal-integrity
battery counts each batch into a state of fixed size, so the peak should not grow with the log (what grows: the
set of round ids, 16 bytes a round, on disk past 32 MB). ``PYTHONPATH=other/src`` measures another checkout.

    .venv/bin/python benchmarks/bench_table_rounds.py --scheduler [ROUNDS] [PARTS] [RUNS]

`--scheduler`: ROUNDS table rounds (default 40,000: 200,000 seats) as a partitioned Parquet dataset of PARTS
fragments (default 4) and as PARTS JSON Lines logs, each audited in one process and with ``scheduler=`` on a
LocalCluster of 2 worker processes (started, and warmed by a first audit, before the timing: what a running cluster
is), RUNS (default 3) runs alternated, each figure their median; the two audits' JSON must be equal (asserted), the
speeds are printed, never asserted. On 2 cores shared with the client (it plans the parts, reads the dataset's round
column, checks and merges the states), expect no more than about twice one process.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from common import REPO, median
from trey.audit.audit import audit
from trey.audit.simulated import simulated_log, simulated_table_log
from trey.engine import analyze
from trey.paytable.load import load_spec

BASE = 5_000
SEATS = 5


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 40_000
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    spec = load_spec(REPO / "paytables" / "standard.yaml")
    analysis = analyze(spec)
    base = [json.loads(line) for line in simulated_table_log(spec, BASE, 3, seats=SEATS)]
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "rounds.jsonl"
        rows = []
        with log.open("w") as out:
            for copy in range(-(-rounds // BASE)):
                for r in base[: rounds - copy * BASE]:
                    r = dict(r, round=f"{r['round']}-{copy}")
                    out.write(json.dumps(r) + "\n")
                    for s in r["seats"]:
                        row = {k: r[k] for k in ("round", "table", "dealer", "shuffler", "shift", "table_seats")}
                        row |= {"dealer_cards": " ".join(r["dealer_cards"]), "deck": " ".join(r["deck"])}
                        row |= {"input": " ".join(r["input"]), "seat": s["seat"], "player": " ".join(s["player"])}
                        row |= {"decision": s["decision"], **{f"bet_{w}": v for w, v in s["bets"].items()}}
                        row |= {f"net_{w}": v for w, v in s["net"].items()} | s["parts"]
                        rows.append(row)
        parquet = Path(folder) / "rounds.parquet"
        pq.write_table(pa.Table.from_pylist(rows), parquet)
        seats = len(rows)
        short = Path(folder) / "short.jsonl"
        short.write_text(json.dumps(base[0]) + "\n")
        pq.write_table(pa.Table.from_pylist(rows[:SEATS]), Path(folder) / "short.parquet")
        del rows
        audit(spec, [short], analysis)
        audit(spec, [Path(folder) / "short.parquet"], analysis)
        seat_lines = Path(folder) / "seats.jsonl"
        base_lines = list(simulated_log(spec, 20_000, 3))
        with seat_lines.open("w") as out:
            for copy in range(-(-seats // len(base_lines))):
                for line in base_lines[: seats - copy * len(base_lines)]:
                    out.write(line.replace('"T1-', f'"T{copy}-', 1) + "\n")
        sources = (("seat lines (JSON Lines)", seat_lines), ("JSON Lines", log), ("Parquet", parquet))
        walls: dict[str, list[float]] = {name: [] for name, _ in sources}
        cpus: dict[str, list[float]] = {name: [] for name, _ in sources}
        for _ in range(runs):
            for name, source in sources:
                start, start_cpu = time.perf_counter(), time.process_time()
                found = audit(spec, [source], analysis)
                walls[name].append(time.perf_counter() - start)
                cpus[name].append(time.process_time() - start_cpu)
                assert found.rounds == seats and found.problem_count == 0, found.problems[:3]
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        for name, source in sources:
            kind = "seats" if source != seat_lines else "seat lines"
            took, busy = median(walls[name]), median(cpus[name])
            print(
                f"{name}: {seats:,} {kind} in {took:.2f} s: {seats / took:,.0f} {kind} a second "
                f"(CPU {busy:.2f} s: {seats / busy:,.0f} a CPU second)"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of the process: {peak:,.0f} MB")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kilobytes on Linux


def _labelled(base: list[dict[str, object]], seats: int) -> Iterator[str]:
    """Rounds of the base log under new ids, labelled, until ``seats`` seats."""
    for copy in range(-(-seats // (len(base) * SEATS))):
        for i, r in enumerate(base):
            number = copy * len(base) + i
            if number * SEATS >= seats:
                return
            labels = {"shuffler": f"S{number % 4}", "dealer": f"D{number % 10}", "shift": f"{number % 3}"}
            yield json.dumps(dict(r, round=f"{r['round']}-{copy}", **labels))


def peak(log: Path) -> None:
    """In a process of its own: the peak memory before and after auditing ``log``."""
    spec = load_spec(REPO / "paytables" / "standard.yaml")
    analysis = analyze(spec)
    before = _peak_mb()
    start = time.process_time()
    found = audit(spec, [log], analysis)
    cpu = time.process_time() - start
    assert found.problem_count == 0 and found.integrity is not None, found.problems[:3]
    after = _peak_mb()
    print(f"{found.rounds:,} seats: peak {before:,.0f} MB before the audit, {after:,.0f} MB after ({cpu:.1f} s CPU)")


def memory(sizes: list[int]) -> None:
    spec = load_spec(REPO / "paytables" / "standard.yaml")
    base = [json.loads(line) for line in simulated_table_log(spec, BASE, 3, seats=SEATS)]
    with tempfile.TemporaryDirectory() as folder:
        for seats in sizes:
            log = Path(folder) / f"rounds-{seats}.jsonl"
            with log.open("w") as out:
                for line in _labelled(base, seats):
                    out.write(line + "\n")
            subprocess.run([sys.executable, __file__, "--peak", str(log)], check=True)
            log.unlink()


def on_dask(rounds: int, parts: int, runs: int) -> None:
    import logging

    import dask.distributed

    from trey.audit.audit import audit_json

    spec = load_spec(REPO / "paytables" / "standard.yaml")
    analysis = analyze(spec)
    base = [json.loads(line) for line in simulated_table_log(spec, BASE, 3, seats=SEATS)]
    with tempfile.TemporaryDirectory() as folder:
        dataset, logs = Path(folder) / "dataset", [Path(folder) / f"log-{k}.jsonl" for k in range(parts)]
        each = -(-rounds // parts)
        for k in range(parts):
            rows, lines = [], []
            for number in range(k * each, min(rounds, (k + 1) * each)):
                r = dict(base[number % BASE], round=f"R{number}")
                lines.append(json.dumps(r) + "\n")
                for s in r["seats"]:
                    row = {f: r[f] for f in ("round", "table", "dealer", "shuffler", "shift", "table_seats")}
                    row |= {"dealer_cards": " ".join(r["dealer_cards"]), "deck": " ".join(r["deck"])}
                    row |= {"input": " ".join(r["input"]), "seat": s["seat"], "player": " ".join(s["player"])}
                    row |= {"decision": s["decision"], **{f"bet_{w}": v for w, v in s["bets"].items()}}
                    row |= {f"net_{w}": v for w, v in s["net"].items()} | s["parts"]
                    rows.append(row)
            logs[k].write_text("".join(lines))
            dataset.mkdir(exist_ok=True)
            pq.write_table(pa.Table.from_pylist(rows), dataset / f"part-{k:03d}.parquet")
        seats = rounds * SEATS
        with (
            dask.distributed.LocalCluster(
                n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=logging.ERROR
            ) as cluster,
            dask.distributed.Client(cluster),
        ):
            address = cluster.scheduler_address
            kinds = (("Parquet dataset", [dataset]), ("JSON Lines logs", logs))
            for _, sources in kinds:  # warm: the paytable's analysis on each worker, imports
                audit(spec, sources, analysis, scheduler=address)
            times: dict[tuple[str, str], list[float]] = {}
            for _ in range(runs):
                for name, sources in kinds:
                    for where, scheduler in (("one process", None), ("2 Dask workers", address)):
                        start = time.perf_counter()
                        found = audit(spec, sources, analysis, scheduler=scheduler)
                        times.setdefault((name, where), []).append(time.perf_counter() - start)
                        if scheduler is None:
                            here = json.dumps(audit_json(found))
                        else:
                            assert found.ran.startswith("audited on the Dask cluster"), found.ran
                            assert json.dumps(audit_json(found)) == here
        print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} cores")
        for (name, where), took in times.items():
            wall = median(took)
            said = f"{seats:,} seats in {wall:.2f} s: {seats / wall:,.0f} seats a second"
            print(f"{name}, {parts} parts, {where}: {said}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--scheduler"]:
        numbers = [int(n) for n in sys.argv[2:]]
        on_dask(*(numbers + [40_000, 4, 3][len(numbers) :]))
    elif sys.argv[1:2] == ["--peak"]:
        peak(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["--memory"]:
        memory([int(n) for n in sys.argv[2:]] or [200_000, 1_000_000])
    else:
        main()
