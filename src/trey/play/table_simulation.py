"""Seeded simulation of whole tables: K seats and the dealer dealt from one shuffled deck each round, every seat
settled by trey's :class:`~trey.play.settle.Settler`, the round's total net per wager counted (issue 34: how often a
round pays more than X).

Each round deals 3 (K + 1) different cards, uniformly: the first three are the dealer's, then three for each seat
(a partial Fisher-Yates shuffle, vectorized over the rounds). Rounds are dealt in chunks of :data:`CHUNK_ROUNDS`,
chunk i from its own generator seeded by ``SeedSequence(seed, spawn_key=(i,))`` as :mod:`trey.play.simulate` does:
the figures depend on the seed and the number of rounds alone. The first k seats of a round are a table of k seats
(the deal is exchangeable), so one simulation of K seats gives the tables of 1 to K seats.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.engine import player_decisions
from trey.paytable.model import GameSpec
from trey.play.settle import Settler
from trey.play.simulate import GENERATOR, chunk_seed
from trey.play.table import _common_unit, _without

CHUNK_ROUNDS = 1 << 17
MAX_TABLE_ROUNDS = 10**7  # the most rounds one simulation of a table deals (a minute or so of CPU for 7 seats)


def deal_table(rng: np.random.Generator, rounds: int, hands: int) -> npt.NDArray[np.int8]:
    """``(rounds, 3 * hands)`` cards, all different in each row, every ordered deal equally likely: the first
    3 * hands cards of a uniformly shuffled deck (a partial Fisher-Yates shuffle of each row)."""
    cards = 3 * hands
    if not 1 <= cards <= 52:
        raise ValueError(f"{hands} hands of three cards from one deck")
    deck = np.tile(np.arange(52, dtype=np.int8), (rounds, 1))
    rows = np.arange(rounds)
    for j in range(cards):
        pick = j + rng.integers(0, 52 - j, size=rounds)
        chosen = deck[rows, pick]
        deck[rows, pick] = deck[:, j]
        deck[:, j] = chosen
    return deck[:, :cards].copy()


@dataclass(frozen=True)
class RoundTotals:
    """Of a simulation of ``rounds`` rounds at ``seats`` seats, each seat betting one unit on each wager: for each
    wager and each k = 1 .. seats, how many rounds' first k seats netted each total (per unit bet)."""

    seats: int
    rounds: int
    seed: int
    totals: dict[str, tuple[Counter[Fraction], ...]]

    def over(self, wager: str, seats: int, x: Fraction) -> int:
        """The rounds whose first ``seats`` seats netted more than ``x`` in all on ``wager``."""
        return sum(n for total, n in self.totals[wager][seats - 1].items() if total > x)


def simulate_round_totals(
    spec: GameSpec,
    wagers: Sequence[str],
    seats: int,
    rounds: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> RoundTotals:
    """Deal ``rounds`` rounds of ``seats`` seats and the dealer from one deck each (see the module) and count the
    totals of the first 1 .. ``seats`` seats on each of ``wagers`` (the paytable's strategy for Ante & Play)."""
    if not 1 <= seats <= 7:
        raise ValueError(f"a table has 1 to 7 seats, not {seats}")
    if not 0 <= rounds <= MAX_TABLE_ROUNDS:
        raise ValueError(f"{rounds:,} rounds (at most {MAX_TABLE_ROUNDS:,})")
    only = _without(spec, lambda w: w in wagers)
    if only is None:
        raise ValueError("no wager to simulate")
    settler = Settler(only, player_decisions(spec))
    units = {w: _common_unit([settler.tables[w].nets]) for w in wagers}
    nets = {w: np.array([int(n * units[w]) for n in settler.tables[w].nets], dtype=np.int64) for w in wagers}
    counts: dict[str, list[Counter[int]]] = {w: [Counter() for _ in range(seats)] for w in wagers}
    chunks = [min(CHUNK_ROUNDS, rounds - start) for start in range(0, rounds, CHUNK_ROUNDS)]
    for index, size in enumerate(chunks):
        rng = np.random.Generator(np.random.PCG64(chunk_seed(seed, index)))
        cards = deal_table(rng, size, seats + 1)
        dealer = cards[:, :3]
        running = {w: np.zeros(size, dtype=np.int64) for w in wagers}
        for seat in range(seats):
            settled = settler.settle(cards[:, 3 + 3 * seat : 6 + 3 * seat], dealer)
            for w in wagers:
                running[w] += nets[w][settled[w]]
                values, found = np.unique(running[w], return_counts=True)
                counts[w][seat].update(dict(zip(values.tolist(), found.tolist(), strict=True)))
        if progress is not None:
            progress(index + 1, len(chunks))
    totals = {w: tuple(Counter({Fraction(t, units[w]): n for t, n in c.items()}) for c in counts[w]) for w in wagers}
    return RoundTotals(seats, rounds, seed, totals)


__all__ = ["CHUNK_ROUNDS", "GENERATOR", "MAX_TABLE_ROUNDS", "RoundTotals", "deal_table", "simulate_round_totals"]
