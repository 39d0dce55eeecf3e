"""The risk of ruin within N rounds (trey.engine.risk's dynamic programme) against a Monte Carlo written here,
apart from it: sessions of N rounds, each round's net result drawn from the wager's exact distribution (numpy's
PCG64, seeded), ruined when the running result reaches minus the bankroll. Prints, per case, the dynamic programme's
figure, the share of sessions ruined and Hoeffding's 99.9% interval around it (|share - p| <= sqrt(ln(2/0.001) / 2n),
whatever p is), and whether the figure is inside.

    .venv/bin/python benchmarks/risk_monte_carlo.py [SESSIONS]    # default 40,000 a case; a minute or two
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

import numpy as np

from common import REPO
from trey.engine import analyze
from trey.engine.risk import eventual_ruin, ruin_within
from trey.engine.stats import NetResult
from trey.paytable.load import load_spec
from trey.protect.informed import Informed, evaluate
from trey.protect.scenarios import one_card


def ruined_share(distribution: tuple[NetResult, ...], bankroll: int, rounds: int, sessions: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    nets = np.array([float(r.net) for r in distribution])
    weights = np.array([r.combinations for r in distribution], dtype=np.float64)
    ruined = 0
    chunk = max(1, 20_000_000 // rounds)
    for start in range(0, sessions, chunk):
        n = min(chunk, sessions - start)
        steps = rng.choice(nets, size=(n, rounds), p=weights / weights.sum())
        ruined += int((np.cumsum(steps, axis=1) <= -bankroll).any(axis=1).sum())
    return ruined / sessions


def main() -> None:
    sessions = int(sys.argv[1]) if len(sys.argv) > 1 else 40_000
    spec = load_spec(REPO / "paytables" / "standard.yaml")
    analysis = analyze(spec)
    ante = analysis.ante_play
    assert ante is not None and spec.wagers.ante_play is not None
    informed = evaluate(
        "one",
        Informed(spec.wagers.ante_play, spec.rules),
        one_card(spec.rules.dealer_qualifier.minimum_key),
        ante.plays,
        ante.stats,
    ).net_results
    cases = [
        ("Ante & Play, normal play", ante.net_results, 250, 2500),
        ("Ante & Play, one dealer card seen", informed, 50, 2500),
        ("Pair Plus", analysis.wagers["pair_plus"].net_results, 100, 1000),
        ("Six Card Bonus", analysis.wagers["six_card_bonus"].net_results, 100, 1000),
    ]
    half = math.sqrt(math.log(2 / 0.001) / (2 * sessions))
    print(f"{sessions:,} sessions a case; Hoeffding's 99.9% half-width {half:.4f}")
    for seed, (name, distribution, bankroll, rounds) in enumerate(cases, 1):
        figure = ruin_within(distribution, Fraction(bankroll), rounds)
        p = float(figure.probability)
        share = ruined_share(distribution, bankroll, rounds, sessions, seed)
        inside = abs(share - p) <= half
        how = "exact" if figure.exact else f"float, relative error <= {figure.relative_error:.1e}"
        print(
            f"{name}: ruin of {bankroll} units in {rounds:,} rounds {p:.6f} ({how}); "
            f"simulated {share:.6f} (seed {seed}) -> {'inside' if inside else 'OUTSIDE'}"
        )
    e = eventual_ruin(informed, Fraction(50))
    long_run = ruin_within(informed, Fraction(50), 5_000)
    print(
        f"one card seen, 50 units, no limit: lattice bounds {float(e.lattice_lower or 0):.6f} to "
        f"{float(e.lattice_upper or 0):.6f}, Lundberg {float(e.lower or 0):.6f} to {float(e.upper or 0):.6f}, "
        f"diffusion {float(e.diffusion or 0):.6f}; within 5,000 rounds {float(long_run.probability):.6f} "
        "(at most the unlimited figure)"
    )


if __name__ == "__main__":
    main()
