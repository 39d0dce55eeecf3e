"""Colluding seats: the player also knows the three cards of K other players (1 to 6) at the table.

The other seats' hands make the exact count too large (for one colluder, 22,100 x 18,424 x 15,180 deals), so the
deals of the player's and the colluders' cards are sampled, seeded like ``trey simulate`` (one PCG64 stream per
chunk of a SeedSequence, so the same seed gives the same figures however the chunks are run), and inside each
sample the expectation over every dealer hand the remaining cards can make is exact. The gain is the samples'
mean of the informed less the normal expectation (the same samples played both ways, so its error is small), and
the informed edge is the game's exact edge plus that gain (a control variate: the exact part adds no error).
Hit frequency, deviation and average wager are the samples' means.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from trey.cards.hand_table import hand_indexes, hand_table
from trey.core.runner import Plain, Where, run_chunks
from trey.paytable.model import AntePlay, Rules
from trey.protect.informed import Informed

MAX_COLLUDERS = 6  # seven seats at a table: the player and six others
MAX_SAMPLES = 1_000_000
CHUNK_SAMPLES = 250  # samples a step: 250 x 22,100 pairs of hands
CHUNKS_A_TASK = 40  # chunks run together by one worker (10,000 samples)


@dataclass(frozen=True)
class ColluderPlay:
    colluders: int
    samples: int
    seed: int
    gain: float  # the informed edge less the normal one, per Ante: the mean over the samples, played both ways
    gain_error: float  # its standard error
    edge: float  # the informed player's E[net] per Ante: the game's exact edge plus the gain
    edge_error: float  # the same as the gain's: the exact edge adds none
    hit_frequency: float
    std_dev: float
    average_wager: float

    @property
    def scenario(self) -> str:
        return scenario_name(self.colluders)


def scenario_name(colluders: int) -> str:
    """What the informed player knows, in words: "2 colluding seats' hands"."""
    return f"{colluders} colluding seats' hands" if colluders > 1 else "1 colluding seat's hands"


@dataclass(frozen=True)
class SampleFigures:
    """Per sample (the player's and the colluders' cards), exact over the dealer hands left: the informed and the
    normal expectation per Ante, whether the informed player plays, P(net > 0) and E[net^2] as played."""

    informed: np.ndarray
    normal: np.ndarray
    plays: np.ndarray
    hit: np.ndarray
    square: np.ndarray


def sample_figures(informed: Informed, normal_plays: np.ndarray, cards: np.ndarray) -> SampleFigures:
    """``cards``: (n, 3 + 3K), the player's three cards first, then the colluders'."""
    table = hand_table()
    masks = np.bitwise_or.reduce(np.left_shift(np.int64(1), table.cards.astype(np.int64)), axis=1)
    q = informed.rules.dealer_qualifier.minimum_key
    nets = np.array([float(r.ante + (r.play or 0)) for r in informed.played_nets])
    player = hand_indexes(np.sort(cards[:, :3], axis=1))
    known = np.bitwise_or.reduce(np.left_shift(np.int64(1), cards.astype(np.int64)), axis=1)
    possible = (masks[None, :] & known[:, None]) == 0  # (n, 22100): the dealer hands the cards left can make
    mine, theirs = table.keys[player][:, None], table.keys[None, :]
    qualifies = theirs >= q
    split = (~qualifies, qualifies & (mine > theirs), qualifies & (mine == theirs), qualifies & (mine < theirs))
    whole = np.stack([(possible & s).sum(axis=1) for s in split], axis=1).astype(np.int64)  # (n, 4)
    counts = whole.astype(float)
    total = counts.sum(axis=1)
    bonus = np.array([float(b) for b in informed.bonus])[informed.columns[player]]
    fold = np.full(len(cards), float(informed.fold.ante)) + (0.0 if informed.bonus_needs_play else bonus)
    won = nets[None, :] + bonus[:, None]  # each played situation's net, the Ante Bonus included
    play = (counts * won).sum(axis=1) / total
    plays = informed.plays_of(whole, player)  # the engine's decision, exact (indifference folds, as everywhere)
    hit = np.where(plays, (counts * (won > 0)).sum(axis=1) / total, (fold > 0).astype(float))
    square = np.where(plays, (counts * won**2).sum(axis=1) / total, fold**2)
    return SampleFigures(np.where(plays, play, fold), np.where(normal_plays[player], play, fold), plays, hit, square)


@dataclass(frozen=True)
class _Shared:
    informed: Informed
    normal_plays: np.ndarray
    colluders: int
    samples: int
    seed: int


def _chunk_sums(shared: _Shared, first: int, last: int) -> list[np.ndarray]:
    """Chunks ``first`` to ``last - 1``: each one's sums of the informed EV and its square, the normal EV, the gain
    squared, hits, plays and E[net^2] over its samples, drawn from its own stream."""
    result = []
    for number in range(first, last):
        n = min(CHUNK_SAMPLES, shared.samples - number * CHUNK_SAMPLES)
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(shared.seed, spawn_key=(number,))))
        cards = np.argsort(rng.random((n, 52)), axis=1)[:, : 3 + 3 * shared.colluders]
        f = sample_figures(shared.informed, shared.normal_plays, cards)
        gain = f.informed - f.normal
        result.append(
            np.array(
                [
                    f.informed.sum(),
                    (f.informed**2).sum(),
                    f.normal.sum(),
                    (gain**2).sum(),
                    f.hit.sum(),
                    f.plays.sum(),
                    f.square.sum(),
                ]
            )
        )
    return result


SUMS = 7  # a chunk's sums: informed EV and its square, normal EV, gain squared, hits, plays, E[net^2]


def _plain_sums(sums_of_chunks: list[np.ndarray]) -> list[list[float]]:
    """A task's sums as plain data (lists of floats), as they come back from a Dask worker."""
    return [[float(x) for x in sums] for sums in sums_of_chunks]


def _sums_from_plain(shared: _Shared, args: tuple[Any, ...], data: Any) -> list[np.ndarray]:  # noqa: ARG001
    """A task's sums from a cluster's plain data: one list of :data:`SUMS` finite numbers for each of its chunks;
    a ValueError for anything else."""
    first, last = args
    if not isinstance(data, list | tuple) or len(data) != last - first:
        raise ValueError("not a sum for each chunk")
    for sums in data:
        if not isinstance(sums, list | tuple) or len(sums) != SUMS:
            raise ValueError("not the sums of a chunk")
        if not all(type(x) is float and math.isfinite(x) for x in sums):
            raise ValueError("not finite numbers")
    return [np.array(sums, dtype=np.float64) for sums in data]


PLAIN_SUMS = Plain(_plain_sums, _sums_from_plain)


def colluders(
    game: AntePlay,
    rules: Rules,
    normal_plays: np.ndarray,
    normal_edge: Fraction,
    *,
    colluders: int,
    samples: int,
    seed: int,
    where: Where | None = None,
    advance: Callable[[int], None] | None = None,
) -> ColluderPlay:
    """The informed player's figures; the chunks of samples run where ``where`` says (this process by default),
    with the same figures anywhere; ``advance`` is told the samples of each task as it ends (a progress bar)."""
    if not 1 <= colluders <= MAX_COLLUDERS:
        raise ValueError(f"1 to {MAX_COLLUDERS} colluders")
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"1 to {MAX_SAMPLES:,} samples")
    informed = Informed(game, rules)
    count = math.ceil(samples / CHUNK_SAMPLES)
    tasks = [(start, min(start + CHUNKS_A_TASK, count)) for start in range(0, count, CHUNKS_A_TASK)]
    shared = _Shared(informed, normal_plays, colluders, samples, seed)
    by_chunk: dict[int, np.ndarray] = {}
    for task, sums_of_chunks in run_chunks(_chunk_sums, shared, tasks, where or Where(), PLAIN_SUMS):
        start, end = tasks[task]
        by_chunk.update(enumerate(sums_of_chunks, start))
        if advance is not None:
            advance(min(end * CHUNK_SAMPLES, samples) - start * CHUNK_SAMPLES)
    sums = np.zeros(SUMS)  # informed EV and its square, normal EV, gain squared, hits, plays, E[net^2]
    for number in range(count):  # in the order of the chunks, wherever they ran: the same float sums
        sums += by_chunk[number]
    mean, gain = sums[0] / samples, (sums[0] - sums[2]) / samples
    gain_error = math.sqrt(max(sums[3] / samples - gain**2, 0.0) / samples)
    return ColluderPlay(
        colluders,
        samples,
        seed,
        gain,
        gain_error,
        float(normal_edge) + gain,
        gain_error,
        sums[4] / samples,
        math.sqrt(max(sums[6] / samples - mean**2, 0.0)),
        1 + sums[5] / samples,
    )
