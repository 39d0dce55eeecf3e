"""Game protection of Face Up Ultimate Three Card Poker (issue 31): the hole card seen beyond the face-up one, its
rank, and its class, exactly (about 10 s), with the informed player's figures per Ante.

    .venv/bin/python benchmarks/protect_family.py

The figures are tested in part (sampled contexts against the plain count, the standard game counted as a family
game against the standard protection): this prints the whole, for docs/commands/protect.md.
"""

from __future__ import annotations

import time
from pathlib import Path

from trey.paytable.load import load_spec
from trey.protect.family import protect_family

FACE_UP_ULTIMATE = Path(__file__).resolve().parent.parent / "paytables" / "family" / "face-up-ultimate.yaml"


def main() -> None:
    start = time.perf_counter()
    found = protect_family(load_spec(FACE_UP_ULTIMATE))
    seconds = time.perf_counter() - start
    print(f"{found.spec.name}: house edge {float(found.analysis.house_edge_per_ante):.6%} per Ante ({seconds:.1f} s)")
    for s in found.scenarios:
        print(
            f"  {s.scenario}: player edge {s.stats.mean} = {float(s.stats.mean):+.4%} per Ante, gain "
            f"{float(s.gain):+.4%}, {s.deviations / s.deals:.2%} of {s.deals:,} deals off the optimal strategy, "
            f"options {', '.join(f'{o}x {n / s.deals:.2%}' for o, n in s.by_option)}"
        )


if __name__ == "__main__":
    main()
