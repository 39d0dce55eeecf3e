"""Speed of choosing a paytable (issue "Choosing a paytable"): compare and solve grids, whole commands.

    .venv/bin/python benchmarks/bench_choosing.py

- `trey compare` of the 11 Pair Plus tables (median of 5);
- `trey solve --grid` of 2,000 Ante Bonus combinations (straight flush 1..20, trips 1..10, straight 0..9), each with
  its optimal strategy re-derived (median of 3);
- the same size of grid on Pair Plus rows, linear in the pays (median of 3).
"""

from __future__ import annotations

from common import REPO, TREY, report, time_command


def main() -> None:
    pair_plus = sorted(str(p.relative_to(REPO)) for p in (REPO / "paytables" / "pair_plus").glob("*.yaml"))
    report(
        f"trey compare of the {len(pair_plus)} Pair Plus tables --wager pair_plus",
        time_command([str(TREY), "compare", *pair_plus, "--wager", "pair_plus", "--format", "json"]),
    )
    for wager, grid, what in (
        ("ante_play", "straight_flush=1..20,three_of_a_kind=1..10,straight=0..9", "2,000 analyses"),
        ("pair_plus", "straight=1..20,flush=1..10,pair=0..9", "2,000 combinations"),
    ):
        args = [str(TREY), "solve", "paytables/standard.yaml", "--wager", wager, "--grid", grid, "--format", "json"]
        report(f"trey solve --wager {wager} --grid {grid} ({what})", time_command(args, runs=3))


if __name__ == "__main__":
    main()
