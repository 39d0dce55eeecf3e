"""Whole tables (issue 34): the exact covariances of every pair of wagers of the standard game, timed, and checked
against a simulation of K seats sharing one deck and one dealer hand, written apart from the engine's counting.

    .venv/bin/python benchmarks/bench_table.py [ROUNDS] [SEATS]

ROUNDS (default 10,000,000) rounds of SEATS (default 7) seats are dealt from shuffled decks (argsort of uniform
draws) and settled by trey's Settler, seat by seat against the one dealer hand; every ordered pair of seats
(i != j) gives a sample of X_w(i) * X_v(j), so the simulated covariance of wager w of one seat with wager v of
another is mean(X_w(i) X_v(j)) - mean(X_w) mean(X_v). The script prints the exact covariance, the simulated one,
its standard error (the rounds are independent: the error of a round's mean of the seat-pair products) and the
z-score; and the exact moments' time (CPU time of this process, then wall time).
"""

from __future__ import annotations

import itertools
import sys
import time

import numpy as np

from trey.engine import player_decisions
from trey.paytable.load import load_spec
from trey.play.settle import Settler
from trey.play.table import table_moments

STANDARD = "paytables/standard.yaml"


def simulate(rounds: int, seats: int, seed: int = 34) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    """(wagers, mean of X_w, per-round mean of X_w(i) X_v(j) over seat pairs: its mean, its variance)."""
    spec = load_spec(STANDARD)
    settler = Settler(spec, player_decisions(spec))
    wagers = list(settler.tables)
    nets = {w: np.array([float(n) for n in settler.tables[w].nets]) for w in wagers}
    n = len(wagers)
    rng = np.random.default_rng(seed)
    total = np.zeros(n)
    product_sum = np.zeros((n, n))
    product_sq = np.zeros((n, n))
    chunk = 200_000
    done = 0
    pairs = seats * (seats - 1)
    while done < rounds:
        m = min(chunk, rounds - done)
        deck = np.argsort(rng.random((m, 52)), axis=1)[:, : 3 + 3 * seats]
        dealer = np.sort(deck[:, :3], axis=1)
        x = np.zeros((seats, m, n))
        for s in range(seats):
            player = np.sort(deck[:, 3 + 3 * s : 6 + 3 * s], axis=1)
            out = settler.settle(player, dealer)
            for k, w in enumerate(wagers):
                x[s, :, k] = nets[w][out[w]]
        total += x.sum(axis=(0, 1))
        seat_sum = x.sum(axis=0)  # (m, n)
        # sum over ordered pairs i != j of x_i x_j^T = (sum x)(sum x)^T - sum x_i x_i^T, per round
        per_round = np.einsum("rw,rv->rwv", seat_sum, seat_sum) - np.einsum("srw,srv->rwv", x, x)
        per_round /= pairs
        product_sum += per_round.sum(axis=0)
        product_sq += (per_round**2).sum(axis=0)
        done += m
    mean = total / (rounds * seats)
    product_mean = product_sum / rounds
    product_var = product_sq / rounds - product_mean**2
    return wagers, mean, product_mean, product_var


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    seats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    spec = load_spec(STANDARD)
    cpu, wall = time.process_time(), time.perf_counter()
    moments = table_moments(spec)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"exact moments of {len(moments.wagers)} wagers ({moments.dealer_patterns} dealer patterns): "
        f"{cpu:.1f} s CPU, {wall:.1f} s wall"
    )
    cpu, wall = time.process_time(), time.perf_counter()
    wagers, mean, product_mean, product_var = simulate(rounds, seats)
    print(
        f"simulated {rounds:,} rounds of {seats} seats: {time.process_time() - cpu:.0f} s CPU, "
        f"{time.perf_counter() - wall:.0f} s wall"
    )
    worst = 0.0
    print(f"{'wager':>16} {'other seat':>16} {'exact cov':>12} {'simulated':>12} {'s.e.':>10} {'z':>6}")
    for (i, w), (j, v) in itertools.product(enumerate(wagers), repeat=2):
        exact = float(moments.covariance_other_seat(w, v))
        simulated = product_mean[i, j] - mean[i] * mean[j]
        error = float(np.sqrt(product_var[i, j] / rounds))
        z = (simulated - exact) / error
        worst = max(worst, abs(z))
        print(f"{w:>16} {v:>16} {exact:12.6f} {simulated:12.6f} {error:10.6f} {z:6.2f}")
    print(f"largest |z| of {len(wagers) ** 2} pairs: {worst:.2f}")


if __name__ == "__main__":
    main()
