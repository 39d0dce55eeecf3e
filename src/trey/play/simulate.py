"""Seeded Monte Carlo confirmation of the exact figures: shuffle, deal, decide, settle, count.

A game of the family other than the standard one (issue 31) is dealt the same way: the dealer's first card is the
one face up, each round takes its cell's optimal option (:func:`trey.engine.decide.decision_table`) and is settled
by :class:`~trey.play.settle.FamilySettler`; it is checked per Ante, as the engine's figures are
(:func:`~trey.engine.family.analyze_family`), on its distribution of nets.

Rounds are dealt in chunks of fixed size; chunk i draws from its own generator, seeded by
``SeedSequence(seed, spawn_key=(i,))`` (the i-th child of ``SeedSequence(seed)``). The numbers therefore depend
only on the seed and the number of rounds — not on how many worker processes, shards or Dask workers share the
chunks, nor on the order they finish — and any number of rounds runs in constant memory. Each chunk returns only
outcome counts; totals are exact (counts times Fractions).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from itertools import accumulate
from typing import Any

import numpy as np
import numpy.typing as npt

from trey.core.errors import TreyError
from trey.core.numbers import fraction_text, rounded_float
from trey.core.runner import Plain, Where, run_chunks, usable_workers
from trey.core.version import __version__
from trey.engine import GameAnalysis, WagerAnalysis, analyze
from trey.engine.family import FamilyAnalysis, analyze_family
from trey.engine.stats import Z_95, OutcomeRow, net_distribution, stats_of
from trey.paytable.model import ANTE_PLAY, ANTE_PLAY_TITLE, GameSpec, SideBet, money_style
from trey.play.chisquare import chi_square_sf
from trey.play.settle import FamilySettler, OutcomeTable, Settler, net_row

GENERATOR = "numpy PCG64"
CHUNK_ROUNDS = 1 << 20
# The most rounds one simulation deals: about an hour at 3 million rounds a second on two cores. It bounds what a
# typo (or a certificate handed to `trey verify`) can make the machine do.
MAX_ROUNDS = 10**10
Z_LIMIT = 4.0
P_VALUE_LIMIT = 1e-6
# A wager is tested only when at least two of its outcomes are expected this many times: fewer rounds test nothing
# (one round "passes" whatever it deals), and a PASS is earned.
TESTABLE_EXPECTED = 5

SettlerFactory = Callable[[GameSpec, "npt.NDArray[np.bool_] | None"], Settler]
Progress = Callable[[int], None]


def _has_repeat(cards: npt.NDArray[np.int8]) -> npt.NDArray[np.bool_]:
    repeat = np.zeros(len(cards), dtype=bool)
    for i in range(6):
        for j in range(i + 1, 6):
            repeat |= cards[:, i] == cards[:, j]
    return repeat


def deal(rng: np.random.Generator, rounds: int) -> npt.NDArray[np.int8]:
    """``(rounds, 6)`` cards, six different cards per row, uniformly: rows with a repeated card are drawn again
    (about 26% of them the first time), so every ordered deal of six different cards is equally likely."""
    cards = rng.integers(0, 52, size=(rounds, 6), dtype=np.int8)
    pending = np.flatnonzero(_has_repeat(cards))
    while pending.size:
        fresh = rng.integers(0, 52, size=(pending.size, 6), dtype=np.int8)
        cards[pending] = fresh
        pending = pending[_has_repeat(fresh)]
    return cards


def chunk_sizes(rounds: int) -> list[int]:
    """The rounds of each chunk: full chunks of :data:`CHUNK_ROUNDS`, the last one shorter."""
    full, rest = divmod(rounds, CHUNK_ROUNDS)
    return [CHUNK_ROUNDS] * full + ([rest] if rest else [])


@dataclass(frozen=True)
class Chunk:
    """What one chunk of rounds gives back: outcome counts per wager and, for progressive bets, the rounds (by
    position in the chunk) that hit a meter row and which row, so that the meter can be carried in order."""

    counts: dict[str, npt.NDArray[np.int64]]
    meter_hits: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]

    def same(self, other: Chunk) -> bool:
        """The same counts and meter hits (a chunk dealt here against one a cluster or a part claims)."""
        return (
            self.counts.keys() == other.counts.keys()
            and all(np.array_equal(c, other.counts[w]) for w, c in self.counts.items())
            and self.meter_hits.keys() == other.meter_hits.keys()
            and all(
                np.array_equal(p, other.meter_hits[w][0]) and np.array_equal(r, other.meter_hits[w][1])
                for w, (p, r) in self.meter_hits.items()
            )
        )


def same_chunk(here: Chunk, there: Any) -> bool:
    """Whether what a cluster handed back for a chunk is a chunk, and the one dealt here."""
    return isinstance(there, Chunk) and here.same(there)


def chunk_seed(seed: int, index: int) -> np.random.SeedSequence:
    """Chunk ``index``'s stream depends on the seed and its index alone (the i-th child of SeedSequence(seed))."""
    return np.random.SeedSequence(seed, spawn_key=(index,))


def run_chunk(settler: Settler, seed: int, index: int, rounds: int) -> Chunk:
    """Deal and settle chunk ``index`` of a simulation: ``rounds`` rounds from its own stream."""
    rng = np.random.Generator(np.random.PCG64(chunk_seed(seed, index)))
    cards = deal(rng, rounds)
    outcomes = settler.settle(cards[:, :3], cards[:, 3:])
    counts = {
        wager: np.bincount(index, minlength=len(settler.tables[wager].names)) for wager, index in outcomes.items()
    }
    hits = {}
    for wager, rows in settler.meter_rows.items():
        positions = np.flatnonzero(np.isin(outcomes[wager], rows))
        hits[wager] = (positions, outcomes[wager][positions])
    return Chunk(counts, hits)


def plain_chunk(chunk: Chunk) -> dict[str, Any]:
    """A chunk as plain data (lists of whole numbers), as it comes back from a Dask worker (:class:`Plain`)."""
    return {
        "counts": {wager: counts.tolist() for wager, counts in chunk.counts.items()},
        "meter_hits": {wager: [p.tolist(), r.tolist()] for wager, (p, r) in chunk.meter_hits.items()},
    }


def chunk_from_plain(settler: Settler, args: tuple[Any, ...], data: Any) -> Chunk:
    """The chunk a cluster's plain data stands for, held to what a chunk of ``args``'s rounds can be: the settler's
    wagers, each with a whole count of each of its outcomes adding up to the rounds, and each progressive's meter hits
    on rounds of the chunk in their order, on meter rows, as many of each row as its count. A ValueError for any other
    data: what is added up is never shaped by the cluster."""
    _, _, rounds = args
    if not isinstance(data, dict) or set(data) != {"counts", "meter_hits"}:
        raise ValueError("not a chunk")
    given, hits = data["counts"], data["meter_hits"]
    if not isinstance(given, dict) or set(given) != set(settler.tables):
        raise ValueError("not the settler's wagers")
    if not isinstance(hits, dict) or set(hits) != set(settler.meter_rows):
        raise ValueError("not the settler's progressives")
    counts = {}
    for wager, table in settler.tables.items():
        found = _whole_numbers(given[wager], rounds)
        if len(found) != len(table.names) or int(found.sum()) != rounds:
            raise ValueError(f"{wager}: not a count of each outcome adding up to the rounds")
        counts[wager] = found
    meter_hits = {}
    for wager, rows in settler.meter_rows.items():
        pair = hits[wager]
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise ValueError(f"{wager}: not positions and rows")
        positions, hit_rows = _whole_numbers(pair[0], rounds - 1), _whole_numbers(pair[1], len(counts[wager]) - 1)
        tally = np.bincount(hit_rows, minlength=len(counts[wager]))
        if (
            len(positions) != len(hit_rows)
            or not np.isin(hit_rows, rows).all()
            or (np.diff(positions) <= 0).any()
            or not np.array_equal(tally[rows], counts[wager][rows])
        ):
            raise ValueError(f"{wager}: not the chunk's rounds of its meter rows")
        meter_hits[wager] = (positions, hit_rows)
    return Chunk(counts, meter_hits)


def _whole_numbers(values: Any, most: int) -> npt.NDArray[np.int64]:
    if not isinstance(values, list | tuple) or not all(type(v) is int and 0 <= v <= most for v in values):
        raise ValueError("not whole numbers within the chunk's bounds")
    return np.array(values, dtype=np.int64)


# How a simulation's chunks come back from a Dask cluster.
PLAIN_CHUNK = Plain(plain_chunk, chunk_from_plain)


@dataclass
class MeterRun:
    """A progressive meter carried through the simulated rounds in order: start at reset, add the increment of
    every stake, pay the share on a hit (a 100% share resets it).

    A share is paid as a casino's meter pays it, in whole minor units of the currency (cents), rounded down; the
    rest stays on the meter. So the meter's value never needs a finer unit than a stake's contribution and a cent,
    and a run costs the same per round however long it is (exact fractions of fractions would grow without end)."""

    bet: SideBet
    meter: Fraction
    minor_unit: Fraction
    through: int = 0  # rounds whose stake has been added to the meter
    jackpots: int = 0  # hits of a meter row
    paid: Fraction = Fraction(0)  # paid from the meter
    largest: Fraction = Fraction(0)
    reseeded: Fraction = Fraction(0)  # added by the house after 100% jackpots

    def play(self, start: int, positions: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]) -> None:
        """Carry the meter through one chunk's hits (``positions`` in the chunk starting at round ``start``)."""
        assert self.bet.progressive is not None and self.bet.stake is not None
        reset = self.bet.progressive.reset
        per_round = self.bet.progressive.increment * self.bet.stake
        # The same sums in whole ticks of 1/scale, a unit in which the meter, the increment, the reset and a cent
        # are all integers (so is every amount paid): exact as Fractions, without a Fraction per hit.
        scale = math.lcm(*(x.denominator for x in (self.meter, per_round, reset, self.minor_unit, self.paid)))
        scale = math.lcm(scale, self.largest.denominator, self.reseeded.denominator)
        meter, step, cent = int(self.meter * scale), int(per_round * scale), int(self.minor_unit * scale)
        reset_ticks = int(reset * scale)
        shares = [
            (pay.resets_meter, pay.meter_share.numerator, pay.meter_share.denominator * cent)
            for _, pay in self.bet.pays.rows
        ]
        paid = largest = resets = 0
        through = self.through
        for position, row in zip(positions.tolist(), rows.tolist(), strict=True):
            at = start + position
            meter += step * (at + 1 - through)
            through = at + 1
            whole, share, per = shares[row]
            won = meter if whole else share * meter // per * cent
            paid += won
            largest = max(largest, won)
            if whole:
                resets += 1
                meter = reset_ticks
            else:
                meter -= won
        self.jackpots += len(positions)
        self.through = through
        self.meter = Fraction(meter, scale)
        self.paid += Fraction(paid, scale)
        self.largest = max(self.largest, Fraction(largest, scale))
        self.reseeded += resets * reset

    def finish(self, rounds: int) -> None:
        assert self.bet.progressive is not None and self.bet.stake is not None
        self.meter += self.bet.progressive.increment * self.bet.stake * (rounds - self.through)
        self.through = rounds


@dataclass(frozen=True)
class OutcomeCheck:
    """One outcome of a wager: how often the simulation dealt it, and how often it was expected to."""

    outcome: str
    observed: int
    expected: Fraction


@dataclass(frozen=True)
class MeterSummary:
    """A progressive's meter carried through the rounds: the jackpots paid from it, the largest, the meter at the
    end, what the house reseeded, and the RTP actually paid."""

    jackpots: int
    paid_from_meter: Fraction
    largest_jackpot: Fraction
    final_meter: Fraction
    reseeded: Fraction
    paid_rtp: Fraction  # what was actually paid (meter shares at the meter's value then) over what was staked


@dataclass(frozen=True)
class WagerSimulation:
    """One wager's simulated rounds against its exact figures: the totals, the observed and exact RTP, and the
    outcome counts the chi-square test reads."""

    wager: str  # the wager's id
    title: str
    rounds: int
    total_wagered: Fraction  # in units of the initial bet (Ante & Play: Antes, Play bets included)
    total_returned: Fraction  # stakes returned included
    observed_rtp: Fraction  # per unit of the initial bet, like the exact RTP
    exact_rtp: Fraction
    exact_std_dev: float
    sample_std_dev: float
    outcomes: tuple[OutcomeCheck, ...]
    meter: MeterSummary | None = None  # for a progressive: its observed_rtp and exact_rtp are long-run

    @property
    def std_error(self) -> float:
        """The standard error of the observed RTP, from the rounds' own spread."""
        return self.sample_std_dev / math.sqrt(self.rounds)

    @property
    def interval_95(self) -> tuple[float, float]:
        """The observed RTP's 95% interval."""
        half = Z_95 * self.std_error
        return float(self.observed_rtp) - half, float(self.observed_rtp) + half

    @property
    def z_score(self) -> float:
        """How many exact standard errors the observed RTP lies from the exact RTP.

        A wager whose every round ends alike (zero variance) has no spread to measure against: z is 0 when the
        observed RTP is the exact one and infinite otherwise."""
        difference = float(self.observed_rtp - self.exact_rtp)
        if self.exact_std_dev == 0:
            return 0.0 if self.observed_rtp == self.exact_rtp else math.copysign(math.inf, difference)
        return difference / (self.exact_std_dev / math.sqrt(self.rounds))

    @property
    def chi_square(self) -> float:
        """The chi-square of the outcome counts against the exact probabilities."""
        return sum(float((c.observed - c.expected) ** 2 / c.expected) for c in self.outcomes if c.expected > 0)

    @property
    def degrees_of_freedom(self) -> int:
        """The chi-square's degrees of freedom: the outcomes that can happen, less one."""
        return max(1, sum(1 for c in self.outcomes if c.expected > 0) - 1)

    @property
    def p_value(self) -> float:
        """The chi-square's p-value (0 when an outcome that cannot happen was dealt)."""
        if any(c.observed and not c.expected for c in self.outcomes):
            return 0.0  # an outcome the mathematics says cannot happen
        return chi_square_sf(self.chi_square, self.degrees_of_freedom)

    @property
    def tested(self) -> bool:
        """Whether the rounds are enough to test the wager: two of its outcomes expected at least
        :data:`TESTABLE_EXPECTED` times each (a wager with a single possible outcome, zero variance, is tested when
        that outcome is expected so often: any other outcome observed is then a disagreement)."""
        possible = sum(1 for c in self.outcomes if c.expected > 0)
        return sum(1 for c in self.outcomes if c.expected >= TESTABLE_EXPECTED) >= min(2, possible)

    @property
    def agrees(self) -> bool:
        """The observed figures lie within the limits of the exact ones (|z| <= 4, chi-square p >= 1e-6)."""
        return abs(self.z_score) <= Z_LIMIT and self.p_value >= P_VALUE_LIMIT

    @property
    def passed(self) -> bool:
        """Tested, and in agreement: never a pass over rounds too few to test anything."""
        return self.tested and self.agrees

    @property
    def result(self) -> str:
        """The wager's result in a word: PASS, FAIL, or "not tested" (too few rounds)."""
        if not self.agrees:
            return "FAIL"
        return "PASS" if self.tested else "not tested"


def rounds_to_test(analysis: GameAnalysis) -> int:
    """The fewest rounds that test every wager of ``analysis`` (:attr:`WagerSimulation.tested`): two of each
    wager's outcomes (its only one, for a wager of zero variance) expected :data:`TESTABLE_EXPECTED` times or more."""
    needed = 1
    for wager in analysis.wagers.values():
        probabilities = sorted((row.probability for row in wager.outcomes if row.probability > 0), reverse=True)
        if probabilities:
            needed = max(needed, math.ceil(TESTABLE_EXPECTED / probabilities[min(1, len(probabilities) - 1)]))
    return needed


@dataclass(frozen=True)
class SimulationResult:
    """What :func:`simulate` returns: the rounds, the seed and the generator, and each wager's check."""

    rounds: int
    seed: int
    workers: int
    generator: str
    wagers: dict[str, WagerSimulation]

    @property
    def passed(self) -> bool:
        """Every wager was tested and agrees with its exact figures."""
        return all(w.passed for w in self.wagers.values())

    @property
    def verdict(self) -> str:
        """The verdict line of the simulation (FAIL before "not tested": a disagreement is worth saying first)."""
        if not all(w.agrees for w in self.wagers.values()):
            return "FAIL: the simulation disagrees with the exact figures (|z| > 4 or p < 1e-6)"
        untested = [w.title for w in self.wagers.values() if not w.tested]
        if untested:
            rounds = "1 round is" if self.rounds == 1 else f"{self.rounds:,} rounds are"
            return (
                f"NOT TESTED: {rounds} too few to test {', '.join(untested)} (a wager is tested when two of its "
                f"outcomes are expected {TESTABLE_EXPECTED} times or more: deal more rounds)"
            )
        return "PASS: the simulation agrees with the exact figures"


def _summarise(
    table: OutcomeTable,
    counts: npt.NDArray[np.int64],
    rounds: int,
    analysis: GameAnalysis,
    meter: MeterRun | None = None,
) -> WagerSimulation:
    exact = analysis.wagers[table.wager]
    n = [int(c) for c in counts]
    # A progressive is checked on each round's long-run return (its fixed pay, the increment its stake feeds the
    # meter, the house's reseed after a 100% jackpot): independent from round to round, with an exact mean and
    # variance, whereas the meter's path makes the amounts paid depend on each other.
    nets = exact.progressive.long_run_nets if exact.progressive is not None else table.nets
    exact_stats = exact.progressive.long_run_stats if exact.progressive is not None else exact.stats
    observed = stats_of(net_distribution(zip(nets, n, strict=True)))  # the engine's definitions
    wagered = Fraction(sum(c * s for c, s in zip(n, table.staked, strict=True)))
    observed_rows: dict[str, int] = {}
    for row, c in zip(table.rows, n, strict=True):
        observed_rows[row] = observed_rows.get(row, 0) + c
    checks = tuple(
        OutcomeCheck(row.outcome, observed_rows.get(row.outcome, 0), row.probability * rounds) for row in exact.outcomes
    )
    return WagerSimulation(
        wager=table.wager,
        title=exact.title,
        rounds=rounds,
        total_wagered=wagered,
        total_returned=wagered + observed.mean * rounds,
        observed_rtp=observed.rtp,
        exact_rtp=exact_stats.rtp,
        exact_std_dev=exact_stats.std_dev,
        sample_std_dev=observed.std_dev,
        outcomes=checks,
        meter=_meter_summary(meter, table, n, rounds) if meter is not None else None,
    )


def _meter_summary(run: MeterRun, table: OutcomeTable, counts: list[int], rounds: int) -> MeterSummary:
    """What the meter actually paid, and the RTP actually paid over the rounds dealt."""
    assert run.bet.stake is not None
    fixed_paid = Fraction(0)
    for (_, pay), net, count in zip(run.bet.pays, table.nets, counts, strict=False):
        if not pay.reads_meter:
            fixed_paid += (net + 1) * run.bet.stake * count
    paid = fixed_paid + run.paid
    return MeterSummary(
        jackpots=run.jackpots,
        paid_from_meter=run.paid,
        largest_jackpot=run.largest,
        final_meter=run.meter,
        reseeded=run.reseeded,
        paid_rtp=paid / (rounds * run.bet.stake),
    )


class Tally:
    """A simulation's chunks added up: counts in any order, each progressive's meter carried through the chunks in
    their order (a chunk's meter hits wait until the chunks before it are in). The one way a run, or the merge of
    its shards, becomes a result."""

    def __init__(self, spec: GameSpec, settler: Settler, rounds: int) -> None:
        self.settler = settler
        self.rounds = rounds
        self.sizes = chunk_sizes(rounds)
        self.starts = [0, *accumulate(self.sizes)][:-1]  # the first round of each chunk
        self.totals = {wager: np.zeros(len(table.names), dtype=np.int64) for wager, table in settler.tables.items()}
        self.meters = {
            bet.id: MeterRun(bet, bet.progressive.reset, money_style(spec.table).minor_unit)
            for bet in spec.wagers.side_bets
            if bet.progressive is not None and bet.id in settler.meter_rows
        }
        self.pending: dict[int, dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]] = {}
        self.next_chunk = 0

    def add_counts(self, counts: dict[str, npt.NDArray[np.int64]]) -> None:
        for wager, c in counts.items():
            self.totals[wager] += c

    def add_hits(self, index: int, hits: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]) -> None:
        self.pending[index] = hits
        while self.next_chunk in self.pending:
            done = self.pending.pop(self.next_chunk)
            for wager, run in self.meters.items():
                run.play(self.starts[self.next_chunk], *done[wager])
            self.next_chunk += 1

    def add(self, index: int, chunk: Chunk) -> None:
        self.add_counts(chunk.counts)
        self.add_hits(index, chunk.meter_hits)

    def result(self, analysis: GameAnalysis, seed: int, workers: int) -> SimulationResult:
        assert self.next_chunk == len(self.sizes), "every chunk is added before the result"
        for run in self.meters.values():
            run.finish(self.rounds)
        wagers = {
            wager: _summarise(
                self.settler.tables[wager], self.totals[wager], self.rounds, analysis, self.meters.get(wager)
            )
            for wager in self.settler.tables
        }
        return SimulationResult(self.rounds, seed, workers, GENERATOR, wagers)


def checked_rounds(rounds: int) -> None:
    if rounds < 1:
        raise ValueError("simulate at least one round")
    if rounds > MAX_ROUNDS:
        raise TreyError(f"{rounds:,} rounds are more than one simulation deals", hint=f"give at most {MAX_ROUNDS:,}")


def run_chunks_of(
    settler: Settler, rounds: int, seed: int, indexes: list[int], where: Where, progress: Progress | None
) -> Iterator[tuple[int, Chunk]]:
    """Chunks ``indexes`` of a simulation of ``rounds`` rounds, as they finish, wherever ``where`` runs them."""
    sizes = chunk_sizes(rounds)
    tasks = [(seed, i, sizes[i]) for i in indexes]
    for position, chunk in run_chunks(run_chunk, settler, tasks, where, PLAIN_CHUNK, same_chunk):
        if progress is not None:
            progress(sizes[indexes[position]])
        yield indexes[position], chunk


def family_game_analysis(spec: GameSpec, family: FamilyAnalysis | None = None) -> GameAnalysis:
    """The exact figures a simulation of a family game is checked against, as a game's analysis: its Ante & Play
    per Ante, each outcome row one net result (:func:`~trey.play.settle.net_row`), and its side bets as
    :func:`~trey.engine.family.analyze_family` counts them beside the family's optimal strategy."""
    family = family or analyze_family(spec)
    cycle = family.cycle
    rows = tuple(OutcomeRow(net_row(r.net), r.net, r.combinations, cycle) for r in family.net_results)
    wager = WagerAnalysis(ANTE_PLAY, ANTE_PLAY_TITLE, rows, family.net_results, family.stats)
    return GameAnalysis(spec, {ANTE_PLAY: wager, **{bet.wager: bet for bet in family.side_bets}})


def prepare(
    spec: GameSpec, analysis: GameAnalysis | None = None, settler_factory: SettlerFactory = Settler
) -> tuple[GameAnalysis, Settler]:
    """The exact figures a simulation of ``spec`` is checked against, and the settler of its rounds: the standard
    engine's and :class:`Settler` for standard Three Card Poker, the family's and :class:`FamilySettler` for another
    game of the family (its side bets settled beside it, on the same decisions)."""
    if spec.game.is_standard:
        analysis = analysis or analyze(spec)
        return analysis, settler_factory(spec, analysis.plays)
    return analysis or family_game_analysis(spec), FamilySettler(spec)


def simulate(
    spec: GameSpec,
    rounds: int,
    seed: int,
    *,
    workers: int = 1,
    scheduler: str | None = None,
    analysis: GameAnalysis | None = None,
    settler_factory: SettlerFactory = Settler,
    progress: Progress | None = None,
    recheck: int = 0,
) -> SimulationResult:
    """Deal ``rounds`` rounds and compare every wager with the exact engine's figures; the chunks run on
    ``workers`` local processes, or on the Dask ``scheduler`` (:mod:`trey.core.runner`), with the same result.
    ``recheck``: chunks a scheduler at an address dealt, chosen at random, dealt again here and compared."""
    where = Where(workers, scheduler, recheck)
    checked_rounds(rounds)
    analysis, settler = prepare(spec, analysis, settler_factory)
    tally = Tally(spec, settler, rounds)
    for index, chunk in run_chunks_of(settler, rounds, seed, list(range(len(tally.sizes))), where, progress):
        tally.add(index, chunk)
    return tally.result(analysis, seed, usable_workers(workers))


def simulation_json(result: SimulationResult, spec: GameSpec) -> dict[str, Any]:
    """The ``trey simulate --format json`` contract (schemas/simulation.schema.json)."""
    wagers: dict[str, Any] = {}
    for name, w in result.wagers.items():
        low, high = w.interval_95
        wagers[str(name)] = {
            "rounds": w.rounds,
            "total_wagered": fraction_text(w.total_wagered),
            "total_returned": fraction_text(w.total_returned),
            "observed_rtp": fraction_text(w.observed_rtp),
            "exact_rtp": fraction_text(w.exact_rtp),
            "std_error": rounded_float(Decimal(repr(w.std_error)), 8),
            "interval_95": [rounded_float(Decimal(repr(low)), 8), rounded_float(Decimal(repr(high)), 8)],
            "z_score": rounded_float(Decimal(repr(w.z_score)), 4) if math.isfinite(w.z_score) else None,
            "chi_square": rounded_float(Decimal(repr(w.chi_square)), 4),
            "degrees_of_freedom": w.degrees_of_freedom,
            "p_value": float(f"{w.p_value:.6g}"),
            "passed": w.passed,
            "outcomes": [
                {"outcome": c.outcome, "observed": c.observed, "expected": fraction_text(c.expected)}
                for c in w.outcomes
            ],
        }
        if w.meter is not None:
            wagers[str(name)]["meter"] = {
                "jackpots": w.meter.jackpots,
                "paid_from_meter": fraction_text(w.meter.paid_from_meter),
                "largest_jackpot": fraction_text(w.meter.largest_jackpot),
                "reseeded": fraction_text(w.meter.reseeded),
                "final_meter": fraction_text(w.meter.final_meter),
                "paid_rtp": fraction_text(w.meter.paid_rtp),
            }
    return {
        "trey_version": __version__,
        "spec_sha256": spec.sha256,
        "name": spec.name,
        "rounds": result.rounds,
        "seed": result.seed,
        "workers": result.workers,
        "generator": result.generator,
        "passed": result.passed,
        "wagers": wagers,
    }
