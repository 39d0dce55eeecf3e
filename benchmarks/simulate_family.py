"""The family's games simulated at length against their exact figures (issue 31): 10^7 rounds of each, z-scores.

    .venv/bin/python benchmarks/simulate_family.py [ROUNDS]

Deals Face Up Ultimate Three Card Poker as shipped, and the same game with a K-high qualifier, through
:func:`trey.play.simulate.simulate` (each round takes its cell's optimal option, settled by the one statement of the
rules) and prints, per game, the observed and exact RTP per Ante, the z-score and the chi-square of the nets.
"""

from __future__ import annotations

import sys
from pathlib import Path

from trey.paytable.load import load_spec, load_spec_bytes
from trey.play.simulate import simulate

FACE_UP_ULTIMATE = Path(__file__).resolve().parent.parent / "paytables" / "family" / "face-up-ultimate.yaml"


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    text = FACE_UP_ULTIMATE.read_text()
    games = {
        "Face Up Ultimate (shipped)": load_spec(FACE_UP_ULTIMATE),
        "Face Up Ultimate, K-high qualifier": load_spec_bytes(
            text.replace("dealer_qualifier: Q-high", "dealer_qualifier: K-high").encode(), "k-high.yaml"
        ),
    }
    for name, spec in games.items():
        result = simulate(spec, rounds, seed=2026, workers=2)
        wager = result.wagers["ante_play"]
        print(
            f"{name}: {rounds:,} rounds, observed RTP per Ante {float(wager.observed_rtp):.6%}, exact "
            f"{float(wager.exact_rtp):.6%}, z = {wager.z_score:+.3f}, chi-square {wager.chi_square:.2f} "
            f"({wager.degrees_of_freedom} df, p = {wager.p_value:.4g}): {wager.result}"
        )


if __name__ == "__main__":
    main()
