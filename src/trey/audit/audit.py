"""``trey audit`` as a library call: played rounds re-settled by the one settlement, every mis-paid round listed
with the reason in the drill's words, and each wager's actual return against its theoretical one."""

from __future__ import annotations

import math
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from trey.audit.cards import MIN_EXPECTED, CardCounts, CardTest
from trey.audit.deals import DealRecords
from trey.audit.expected import HandDues, OutcomeLaw, exact_sum, outcome_laws, played_situations
from trey.audit.integrity import Battery, BatteryState
from trey.audit.log import KEPT, Batch, LogProblem, read_log
from trey.audit.mapping import Mapping
from trey.audit.meters import BREAKS, OPENS, UNKNOWN, MeterFollow, follow
from trey.audit.rounds import PARTS, IntArray, Rounds, cents
from trey.audit.seen import SeenIds
from trey.audit.sources import Source, is_table_source, records_of
from trey.audit.tables import joined_deals, read_table_rounds
from trey.audit.verdict import DEFAULT_ALPHA, MAX_ALPHA, Family, Result, StatisticalTest, Verdict, p_text, z_p_value
from trey.cards.hand_table import DEALER_HANDS, hand_indexes
from trey.cards.readings.player_hand import class_of_hand
from trey.core.errors import TreyError
from trey.core.numbers import fraction_text, rounded_float
from trey.core.version import __version__
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.paytable.model import ANTE_PLAY, GameSpec, SideBet, money_style
from trey.play import pay_lines
from trey.play.pay_lines import Line, answer_lines
from trey.play.payouts import PayRule
from trey.play.settle import SettledWager, Settler
from trey.rules.ante_play import Situation, bonus_column, bonus_pays, resolution_table

__all__ = ["Audit", "Result", "Verdict", "audit", "audit_json"]  # Result and Verdict: stated in trey.audit.verdict

BATCH = 4_096  # rounds simulated at a time (trey simulate --log)
MAX_SEATS = 10_000  # seats whose decisions are followed (a log naming more is not followed past them)

# What is due on one wager depends only on its outcome, its bet and (for a side bet's words) Ante & Play's outcome:
# remembered, since a log repeats the same few of them (the table's bet sizes), and the answer key's words are
# formatted once each.
_DUE_KEPT = 200_000
# (net due in cents, units staked, what is due and why, Ante & Play's parts in cents: ante, play, ante_bonus)
Due = tuple[int, int, str, tuple[int, ...]]
# Dues past this (over a batch) are added as Python integers: a table may pay 10^9 to 1 on a bet of 10^9.
_INT64_SAFE = 1 << 62
_HAND_DUES_KEPT = 64  # Ante & Play's dues by hand, by bet size (a log repeats a few)
LINES_NAMED = 5  # lines a finding names, at most
SHARP = "Ante & Play, these rounds"  # the sharp test's name in the family of tests


@dataclass(frozen=True)
class MisPaid:
    line: int
    round: str
    wager: str
    logged: Fraction
    due: Fraction
    reason: str  # what is due and why, as the drill's answer key says it
    order: int = field(default=0, compare=False, repr=False)  # the wager's place in the paytable, to list in order


class Unchecked(StrEnum):
    """Why a jackpot's payment could not be checked."""

    NO_METER = "not checked: the log does not carry the meter"
    OPENING = "not checked: the meter logged opens its table, nothing before it to follow it from"


@dataclass(frozen=True)
class NotChecked:
    """A wager whose payment the audit could not check: a progressive's meter share paid at a meter nothing gives
    (the round does not log it and no round before it at its table carries it) or that nothing before it checks
    (the meter that opens its table)."""

    line: int
    round: str
    wager: str
    logged: Fraction
    reason: str
    why: Unchecked = Unchecked.NO_METER


def _counted(count: int, one: str, many: str) -> str:
    return f"{count:,} {one if count == 1 else many}"


def _lines_text(lines: list[int], count: int) -> str:
    shown = ", ".join(f"{n:,}" for n in lines[:LINES_NAMED])
    more = ", ..." if count > LINES_NAMED else ""
    return f"line{'s' if count > 1 else ''} {shown}{more}"


@dataclass
class WagerReturn:
    """A wager's totals over the rounds audited. Amounts have at most two decimals (the log's reader refuses
    others), so they are added up in whole hundredths: exact, and no Fraction arithmetic per round.

    Three returns: as *paid* (the nets logged), as *due* (the nets the settlement and the pay rule give), and as
    *expected* (each round's due averaged over the wager's outcome law at the round's bet, paid by the pay rule);
    the paytable's own ``theoretical_rtp`` is at exact odds, unrounded."""

    wager: str
    title: str
    rounds: int = 0
    bet_cents: int = 0  # initial bets
    wagered_cents: int = 0  # everything staked (the Play too)
    net_cents: int = 0  # what the player won (+) or lost, as due
    logged_net_cents: int = 0  # what the player won or lost, as logged (paid)
    theoretical_rtp: Fraction = Fraction(0)  # per unit of the initial bet, at exact odds
    cycle: int = 1  # the outcome law's cycle: the expected sums below are over it
    expected_sum: int = 0  # sum over the rounds of each one's expected due x cycle (cents)
    square_sum: int = 0  # sum over the rounds of each one's expected squared due x cycle (cents²)
    mean_square_sum: int = 0  # sum over the rounds of (each one's expected due x cycle)² (cents²)

    @property
    def bet(self) -> Fraction:
        return Fraction(self.bet_cents, 100)

    @property
    def wagered(self) -> Fraction:
        return Fraction(self.wagered_cents, 100)

    @property
    def net(self) -> Fraction:
        """The players' net, as due."""
        return Fraction(self.net_cents, 100)

    @property
    def paid_net(self) -> Fraction:
        """The players' net, as logged."""
        return Fraction(self.logged_net_cents, 100)

    @property
    def expected_net(self) -> Fraction:
        return Fraction(self.expected_sum, 100 * self.cycle)

    @property
    def variance(self) -> Fraction:
        """The variance of the net due over these rounds (currency units²), their bets as placed."""
        cycle = self.cycle
        return Fraction(self.square_sum * cycle - self.mean_square_sum, cycle * cycle * 10_000)

    def _per_bet(self, net: Fraction) -> Fraction | None:
        return 1 + net / self.bet if self.bet else None

    @property
    def rtp(self) -> Fraction | None:
        """Returned as due per unit of the initial bet, as the theoretical RTP is stated."""
        return self._per_bet(self.net)

    @property
    def paid_rtp(self) -> Fraction | None:
        """Returned as paid (logged) per unit of the initial bet."""
        return self._per_bet(self.paid_net)

    @property
    def expected_rtp(self) -> Fraction | None:
        """The return these bets are expected to have, paid by the table's pay rule."""
        return self._per_bet(self.expected_net)

    @property
    def z_decimal(self) -> Decimal:
        assert self.z is not None
        return Decimal(repr(self.z))

    @property
    def z(self) -> float | None:
        """(net due - expected net) / its standard deviation, the rounds' bets as they were."""
        if self.variance <= 0:
            return None
        return float(self.net - self.expected_net) / math.sqrt(self.variance)


# A wager's totals that parts audited apart add up (trey.audit.distributed): every count and sum of WagerReturn.
RETURN_TOTALS = (
    "rounds",
    "bet_cents",
    "wagered_cents",
    "net_cents",
    "logged_net_cents",
    "expected_sum",
    "square_sum",
    "mean_square_sum",
)


@dataclass
class SeatDecisions:
    """One seat's Ante & Play decisions against the normal strategy, and what its deviations won.

    An informed player deviates where the information pays: such deviations win more than their expectation given
    the player's cards alone. ``z`` measures exactly that (each deviation's gain over the normal decision, against
    its exact expectation and variance given the player's hand): a test of the verdict's family (one-sided), which
    may flag a seat, never accuse it."""

    seat: str
    rounds: int = 0
    plays_below: int = 0  # played a hand the normal strategy folds
    folds_above: int = 0  # folded a hand the normal strategy plays
    # Each batch's sums (floats) added exactly: the totals do not depend on the order the batches are added in (an
    # audit on a Dask cluster adds its parts' as one process adds its batches). Read as floats.
    gain_sum: Fraction = Fraction(0)  # the deviations' gain over the normal decision, per Ante, as dealt
    expected_gain_sum: Fraction = Fraction(0)  # its expectation given the player's hands alone (never above 0)
    variance_sum: Fraction = Fraction(0)

    @property
    def gain(self) -> float:
        return float(self.gain_sum)

    @gain.setter
    def gain(self, value: float) -> None:
        self.gain_sum = Fraction(value)

    @property
    def expected_gain(self) -> float:
        return float(self.expected_gain_sum)

    @expected_gain.setter
    def expected_gain(self, value: float) -> None:
        self.expected_gain_sum = Fraction(value)

    @property
    def variance(self) -> float:
        return float(self.variance_sum)

    @variance.setter
    def variance(self, value: float) -> None:
        self.variance_sum = Fraction(value)

    @property
    def deviations(self) -> int:
        return self.plays_below + self.folds_above

    @property
    def z(self) -> float | None:
        return (self.gain - self.expected_gain) / math.sqrt(self.variance) if self.variance else None


@dataclass
class Trail:
    """Ante & Play's actual net against the expectation of the rounds so far, at most :data:`MAX_POINTS` points
    however long the log: when full, every other point is dropped and the spacing doubles."""

    MAX_POINTS = 512
    every: int = 1
    points: list[tuple[int, float, float]] = field(default_factory=list)  # (rounds, actual - expected, its SD)

    def add(self, rounds: int, difference: float, variance: float) -> None:
        if rounds % self.every:
            return
        self.points.append((rounds, difference, math.sqrt(variance)))
        if len(self.points) >= self.MAX_POINTS:
            self.points = self.points[1::2]
            self.every *= 2


@dataclass
class TrailPart:
    """The trail of one part of the rounds (a log, or a fragment of a Parquet dataset), as a part audited alone
    gives it: its Ante & Play rounds (``decided``), its actual net less its expectation and their variance
    (``difference``, ``variance``: exact, each batch's float sums added exactly), and its points at the part's
    rounds ``i`` where ``i + 1`` is a multiple of ``every`` (a power of two, doubled when :data:`Trail.MAX_POINTS`
    are held). A point keeps its batch's start exactly and the batch's running float sum to it: the audit's trail
    (:func:`trail_of`) is then the same whether the parts were audited in one process or each on its own."""

    decided: int = 0
    every: int = 1
    difference: Fraction = Fraction(0)
    variance: Fraction = Fraction(0)
    # (round in the part, difference at the batch's start, the batch's running sum, the same two of the variance)
    points: list[tuple[int, Fraction, float, Fraction, float]] = field(default_factory=list)

    def add(self, point: tuple[int, Fraction, float, Fraction, float]) -> None:
        self.points.append(point)
        if len(self.points) >= Trail.MAX_POINTS:
            self.keep(2 * self.every)

    def keep(self, every: int) -> None:
        """Only the points at multiples of ``every`` (a power of two, at least the part's)."""
        if every > self.every:
            self.points = [p for p in self.points if (p[0] + 1) % every == 0]
            self.every = every


def trail_spacing(parts: list[TrailPart]) -> int:
    """The trail's spacing: the smallest power of two at whose multiples the parts hold fewer than
    :data:`Trail.MAX_POINTS` points, chosen from their sizes alone (so however they were audited)."""
    every = 1
    while sum(p.decided // every for p in parts) >= Trail.MAX_POINTS:
        every *= 2
    return every


def trail_of(parts: list[TrailPart]) -> Trail:
    """The audit's trail from its parts' (in their order): each point at its round counted over all the parts, its
    values the exact offset of the parts before it with the part's own."""
    every = trail_spacing(parts)
    trail = Trail(every=every)
    done, difference, variance = 0, Fraction(0), Fraction(0)
    for part in parts:
        for i, start, run, start_variance, run_variance in part.points:
            if (i + 1) % every == 0:
                at = float(difference + start) + run
                spread = float(variance + start_variance) + run_variance
                trail.points.append((done + i + 1, at, math.sqrt(max(spread, 0.0))))
        done += part.decided
        difference += part.difference
        variance += part.variance
    return trail


@dataclass
class Audit:
    spec: GameSpec
    lines: int = 0
    rounds: int = 0  # valid rounds audited
    problems: list[LogProblem] = field(default_factory=list)
    problem_count: int = 0  # lines refused and round ids logged twice
    duplicates: int = 0  # round ids logged twice (their rounds are audited all the same)
    mispaid: list[MisPaid] = field(default_factory=list)
    mispaid_count: int = 0
    overpaid: Fraction = Fraction(0)  # paid beyond what was due, in all
    underpaid: Fraction = Fraction(0)
    not_checked: list[NotChecked] = field(default_factory=list)
    not_checked_count: int = 0
    not_checked_by: dict[Unchecked, int] = field(default_factory=dict)  # how many, by why
    not_checked_lines: dict[Unchecked, list[int]] = field(default_factory=dict)  # the first lines, by why
    meters: MeterFollow = field(default_factory=MeterFollow)
    alpha: Fraction = DEFAULT_ALPHA  # the statistical tests' family-wise level
    returns: dict[str, WagerReturn] = field(default_factory=dict)
    cards: CardCounts = field(default_factory=CardCounts)
    # Ante & Play's expectation for these very rounds, given each round's cards and logged decision (per the bets
    # as placed), and its variance: the sharp test of the return.
    expected_net: Fraction = Fraction(0)
    variance_sum: Fraction = Fraction(0)  # its variance: each batch's float sum added exactly (expected_variance)
    due_cache: dict[tuple[object, ...], Due] = field(default_factory=dict, repr=False)
    laws: dict[str, OutcomeLaw] = field(default_factory=dict, repr=False)
    moments: dict[tuple[str, int], tuple[int, int]] = field(default_factory=dict, repr=False)  # (wager, bet cents)
    hand_dues: dict[int, HandDues] = field(default_factory=dict, repr=False)  # Ante & Play's, by bet in cents
    seat_codes: dict[str, int] = field(default_factory=dict, repr=False)
    seat_order: list[SeatDecisions] = field(default_factory=list, repr=False)  # as seat_codes number them
    seats_not_followed: int = 0  # Ante & Play rounds of seats beyond MAX_SEATS
    trail: Trail = field(default_factory=Trail)
    trail_parts: list[TrailPart] = field(default_factory=list, repr=False)  # the trail's parts (trail_of)
    decided: int = 0  # Ante & Play rounds counted in the trail
    actual_net: Fraction = Fraction(0)  # Ante & Play's, as due, over the rounds in the trail
    table_rounds: int = 0  # table rounds read (hand-history format 2), each of whose seats is one of ``rounds``
    # The dealt cards of every table round: kept only when the audit is asked to (``keep_deals``); each batch is
    # handed to ``audit(deals=...)`` as it is read, and counted into ``deal_counts``, whatever the log's length.
    deals: DealRecords | None = None
    # The deal-integrity battery's counts of the table rounds read so far: a size fixed whatever their number.
    deal_counts: BatteryState = field(default_factory=BatteryState, repr=False)
    # The deal-integrity battery on the table rounds read (issue 32): None when the log has no table rounds.
    integrity: Battery | None = None
    ran: str = field(default="", repr=False)  # where it ran, when asked to run on a Dask cluster

    @property
    def family(self) -> Family:
        """The audit's statistical tests, flagged together at ``alpha`` (Holm): the card tests, the sharp test of
        Ante & Play, and each seat with a decision off the normal strategy."""
        tests = []
        for t in self.card_tests:
            if not t.runs:
                continue
            says = f"{t.name}: {t.departure} (chi-square {t.statistic:,.2f}, df {t.degrees_of_freedom}, "
            tests.append(StatisticalTest("card", t.name, t.p_value, says + f"{p_text(t.p_value)})"))
        z = self.rounds_z
        if z is not None:
            p = z_p_value(z, two_sided=True)
            says = f"Ante & Play against the exact expectation of these rounds (their cards and decisions): z = {z:.2f}"
            tests.append(StatisticalTest("sharp", SHARP, p, f"{says} ({p_text(p)})"))
        for d in self.seat_order:
            if d.z is not None:
                p = z_p_value(d.z, two_sided=False)
                says = (
                    f"{d.seat}: {_counted(d.deviations, 'decision', 'decisions')} off the normal strategy won more "
                    f"than the player's cards explain: z = {d.z:.2f} ({p_text(p)})"
                )
                tests.append(StatisticalTest("seat", d.seat, p, says))
        if self.integrity is not None:
            tests.extend(self.integrity.statistical_tests())
        return Family.of(tests, self.alpha)

    @property
    def verdict(self) -> Verdict:
        """The verdict (every output and the exit status read it), by :meth:`Verdict.of`'s rule. ``KEPT`` problems,
        mis-paid and unchecked wagers are listed at most; the verdict counts them all."""
        money = money_style(self.spec.table).money
        failed = []
        refused = self.problem_count - self.duplicates
        if refused:
            failed.append(_counted(refused, "line refused", "lines refused"))
        if self.duplicates:
            failed.append(_counted(self.duplicates, "round id logged twice", "round ids logged twice"))
        if self.mispaid_count:
            failed.append(
                f"{_counted(self.mispaid_count, 'wager', 'wagers')} mis-paid ({money(self.overpaid)} overpaid, "
                f"{money(self.underpaid)} underpaid)"
            )
        meters = self.meters
        if meters.break_count:
            first = meters.breaks[0]
            follow = "does not follow" if meters.break_count == 1 else "do not follow"
            their = "its" if meters.break_count == 1 else "their"
            failed.append(
                f"{_counted(meters.break_count, 'meter', 'meters')} logged that {follow} from the rounds before "
                f"at {their} table (first: line {first.line:,}, {money(first.logged)} logged where the meter carried "
                f"from line {first.since:,} stands at {money(first.carried)})"
            )
        unchecked = []
        if not self.rounds:
            unchecked.append("no rounds read (nothing to check)")
        short = [t.name for t in self.card_tests if not t.runs]
        if short:
            unchecked.append(
                f"not checked: {_counted(len(short), 'card test', 'card tests')} for too few rounds (a count expected "
                f"fewer than {MIN_EXPECTED} times): {'; '.join(short)}"
            )
        if self.integrity is not None:
            unchecked.extend(self.integrity.not_checked)
        for why, count in self.not_checked_by.items():
            jackpots = _counted(count, "jackpot", "jackpots")
            where = _lines_text(self.not_checked_lines[why], count)
            if why is Unchecked.NO_METER:
                said = f"not checked: {jackpots} paid from a progressive meter the log does not carry ({where})"
                unchecked.append(said)
            else:
                unchecked.append(
                    f"not checked: {jackpots} paid at the meter that opens its table, nothing before it to follow "
                    f"it from ({where})"
                )
        return Verdict.of(failed, unchecked, self.family)

    @property
    def expected_variance(self) -> float:
        return float(self.variance_sum)

    @expected_variance.setter
    def expected_variance(self, value: float) -> None:
        self.variance_sum = Fraction(value)

    def new_trail_part(self) -> None:
        """The rounds from here on are another part's (a log, a fragment of a dataset): its trail starts; the
        parts' points past the trail's spacing so far are dropped (memory bounded however many parts)."""
        every = trail_spacing(self.trail_parts)
        for part in self.trail_parts:
            part.keep(every)
        self.trail_parts.append(TrailPart())

    @property
    def clean(self) -> bool:
        """The verdict is PASS."""
        return self.verdict.passed

    @property
    def seats(self) -> dict[str, SeatDecisions]:
        """Each seat followed, by its name ("T1 seat 1")."""
        return {d.seat: d for d in self.seat_order}

    @property
    def card_tests(self) -> list[CardTest]:
        return self.cards.tests()

    @property
    def rounds_z(self) -> float | None:
        """Ante & Play's actual net against the expectation of these rounds, in standard deviations."""
        ante = self.returns.get(ANTE_PLAY)
        if ante is None or not self.expected_variance:
            return None
        return float(ante.net - self.expected_net) / math.sqrt(self.expected_variance)


@dataclass(frozen=True)
class HandExpectations:
    """Per player hand, Ante & Play's net per Ante given that hand alone: played (mean and variance over its
    18,424 dealer hands) and folded (certain). Played, the Ante and Play net a whole number of Antes in every
    situation and the Ante Bonus is paid in each: the mean is ``whole / 18,424 + bonus``, the bonus adding nothing
    to the variance; folded, the net depends on the hand's Ante Bonus column only."""

    whole: IntArray  # the Ante and Play nets over the 18,424 dealer hands, played
    column: IntArray  # the hand's Ante Bonus column
    bonus: list[Fraction]  # by column: the Ante Bonus net
    fold: list[Fraction]  # by column: the net folded
    play_variance: npt.NDArray[np.float64]
    play_mean: npt.NDArray[np.float64]  # as floats, for the chart and the deviations' z
    fold_mean: npt.NDArray[np.float64]

    def play(self, hand: int) -> Fraction:
        return Fraction(int(self.whole[hand]), DEALER_HANDS) + self.bonus[int(self.column[hand])]


def hand_expectations(spec: GameSpec) -> HandExpectations:
    game = spec.wagers.ante_play
    assert game is not None
    counts = played_situations(spec.rules.dealer_qualifier.minimum_key)
    resolution = resolution_table(spec.rules)
    base = {s: int(resolution[s].ante + (resolution[s].play or 0)) for s in counts}
    stacked = np.stack([counts[s].astype(np.int64) for s in counts])  # (situations, hands)
    nets = np.array([base[s] for s in counts], dtype=np.int64)[:, None]
    whole = (stacked * nets).sum(axis=0)
    variance = (stacked * nets**2).sum(axis=0) / DEALER_HANDS - (whole / DEALER_HANDS) ** 2
    bonus = bonus_pays(game.ante_bonus)
    column = bonus_column(game.ante_bonus, class_of_hand())
    fold = [resolution[Situation.FOLD].round_net(b) for b in bonus]
    bonus_float = np.array([float(b) for b in bonus])
    return HandExpectations(
        whole,
        column,
        bonus,
        fold,
        variance,
        whole / DEALER_HANDS + bonus_float[column],
        np.array([float(f) for f in fold])[column],
    )


def audit(
    spec: GameSpec,
    logs: list[Path] | list[Source],
    analysis: GameAnalysis | None = None,
    *,
    columnar: bool = True,
    alpha: Fraction = DEFAULT_ALPHA,
    mapping: Mapping | None = None,
    deals: Callable[[DealRecords], None] | None = None,
    keep_deals: bool = False,
    scheduler: str | None = None,
) -> Audit:
    """Every log's rounds, streamed: checked, re-settled with the decision each round logs, and totalled.
    ``columnar``: as :func:`~trey.audit.log.read_log` (the same audit either way, faster with it); ``alpha``: the
    family-wise level of the statistical tests (:mod:`trey.audit.verdict`).

    ``logs``: seat lines (JSON Lines, CSV) or table rounds (:mod:`trey.audit.tables`: JSON Lines, CSV, Parquet, a
    :class:`~trey.audit.sources.SqlSource`), read through ``mapping`` (:mod:`trey.audit.mapping`) when given.
    ``deals``: called with each batch's :class:`~trey.audit.deals.DealRecords` as it is read (memory bounded);
    ``keep_deals``: keep them all in ``Audit.deals`` as well. ``scheduler``: audit the logs, and the fragments of a
    Parquet dataset, on that Dask cluster (:mod:`trey.audit.distributed`): the same audit."""
    if not 0 < alpha <= MAX_ALPHA:
        raise ValueError(f"alpha must be above 0 and at most {MAX_ALPHA}")
    if not spec.game.is_standard:  # a game of the family with another round: its own reading of the rounds
        from trey.audit.family import audit_family

        files = [log for log in logs if isinstance(log, Path)]
        if mapping is not None or len(files) < len(logs):
            raise TreyError(
                f"{spec.name}: a game of the family is audited from seat lines in JSON Lines or CSV files",
                hint="table rounds, databases and mappings are read for standard Three Card Poker",
            )
        if scheduler is not None:
            raise TreyError(
                f"{spec.name}: a game of the family is audited on this machine",
                hint="trey audit without --scheduler audits it here",
            )
        return audit_family(spec, files, alpha=alpha)
    if scheduler is not None:
        from trey.audit.distributed import audit_on_dask

        if deals is not None or keep_deals or not columnar:
            raise ValueError("an audit on Dask keeps no deals and reads with the fast reader")
        return audit_on_dask(spec, logs, analysis, alpha=alpha, mapping=mapping, scheduler=scheduler)
    found, settler, rule, expectations = prepared(spec, analysis, alpha)
    # One set of round ids for all the logs (a round in two of them is logged twice), its temporary runs removed
    # however the audit ends: an error, Ctrl-C, SIGTERM or SIGHUP.
    with SeenIds() as seen:
        for path in logs:
            _audit_log(
                found,
                path,
                settler,
                rule,
                expectations,
                seen,
                columnar=columnar,
                mapping=mapping,
                deals=deals,
                keep_deals=keep_deals,
            )
    return finished(found)


def finished(found: Audit) -> Audit:
    """The audit's trail and deal-integrity battery, from its parts' trails and its counts."""
    found.trail = trail_of(found.trail_parts)
    if found.deal_counts.rounds:  # table rounds: the shuffle's randomness tested
        found.integrity = found.deal_counts.battery()
    return found


def prepared(
    spec: GameSpec, analysis: GameAnalysis | None, alpha: Fraction
) -> tuple[Audit, Settler, PayRule, HandExpectations | None]:
    """A fresh audit of standard Three Card Poker, with what settles and totals its rounds."""
    analysis = analysis or analyze(spec)
    settler = Settler(spec, analysis.plays)
    rule = PayRule.of(spec.table)
    found = Audit(spec, alpha=alpha)
    found.laws = outcome_laws(spec, analysis, settler)
    for wager, result in analysis.wagers.items():
        found.returns[wager] = WagerReturn(
            wager, spec.wagers.title(wager), theoretical_rtp=result.stats.rtp, cycle=found.laws[wager].cycle
        )
    expectations = hand_expectations(spec) if spec.wagers.ante_play is not None else None
    return found, settler, rule, expectations


def audit_deals(found: Audit, records: DealRecords) -> None:
    """The table rounds ``records`` counted in with those before, and the deal-integrity battery (issue 32) on
    them all, into ``found``: its tests join the audit's one Holm family, those short of data its not-checked
    findings."""
    found.deal_counts.add(records)
    found.integrity = found.deal_counts.battery()


# What is due on each wager's outcome at each bet size, by game: the same for every audit of a game (the tests audit
# one game hundreds of times), forgotten with the game.
_AMOUNTS: weakref.WeakKeyDictionary[GameSpec, dict[tuple[str, int, int], int]] = weakref.WeakKeyDictionary()


def _due_at(found: Audit, settler: Settler, rule: PayRule, wager: str, index: int, size: int) -> int:
    """What is due on a wager's outcome ``index`` at a bet of ``size`` cents, in cents (alone: a side bet's due
    does not depend on Ante & Play's words)."""
    amounts = _AMOUNTS.setdefault(found.spec, {})
    key = (wager, index, size)
    if key not in amounts:
        if len(amounts) > _DUE_KEPT:
            amounts.clear()
        table = settler.tables[wager]
        settled = {wager: SettledWager(wager, table.outcomes[index], table.nets[index], table.staked[index])}
        amounts[key] = _due(found.spec, settled, wager, Fraction(size, 100), rule)[0]
    return amounts[key]


def _moments(found: Audit, settler: Settler, rule: PayRule, wager: str, size: int) -> tuple[int, int]:
    """The wager's due at ``size`` cents summed over its outcome law's cycle, and its square: a meter share's
    outcomes left out (they are counted at each round's meter)."""
    key = (wager, size)
    if key not in found.moments:
        if len(found.moments) > _DUE_KEPT:
            found.moments.clear()
        metered = set(settler.meter_rows.get(wager, np.zeros(0, dtype=np.int64)).tolist())
        law = found.laws[wager]
        dues = [0 if i in metered else _due_at(found, settler, rule, wager, i, size) for i in range(len(law.counts))]
        found.moments[key] = law.moments(dues)
    return found.moments[key]


def _hand_dues(found: Audit, settler: Settler, rule: PayRule, size: int) -> HandDues:
    dues = found.hand_dues.get(size)
    if dues is None:
        if len(found.hand_dues) >= _HAND_DUES_KEPT:
            found.hand_dues.clear()
        dues = found.hand_dues[size] = HandDues.at(
            found.spec, size, lambda index, bet: _due_at(found, settler, rule, ANTE_PLAY, index, bet)
        )
    return dues


def _audit_log(
    found: Audit,
    path: Source,
    settler: Settler,
    rule: PayRule,
    expectations: HandExpectations | None,
    seen: SeenIds,
    *,
    columnar: bool,
    mapping: Mapping | None = None,
    deals: Callable[[DealRecords], None] | None = None,
    keep_deals: bool = False,
    fragment: tuple[int, int] | None = None,
) -> list[tuple[int | None, bool | None]]:
    """One log's rounds, block by block, added to ``found`` (``fragment``: of a Parquet dataset, that fragment
    alone, its rounds numbered on from the count given). Returns each batch's fragment and whether the source's
    rounds have a deck (:class:`~trey.audit.log.Batch`)."""
    room = lambda: KEPT - len(found.problems)  # noqa: E731
    batches: Iterator[Batch]
    said: list[tuple[int | None, bool | None]] = []
    if is_table_source(path, mapping):
        name, records = records_of(path, found.spec, mapping, columnar=columnar, fragment=fragment)
        batches = read_table_rounds(records, name, found.spec, seen=seen, room=room)
    else:
        assert isinstance(path, Path)
        batches = read_log(path, found.spec, columnar=columnar, seen=seen, room=room)
    kept: list[DealRecords] = [found.deals] if found.deals is not None else []
    found.new_trail_part()  # each log, and each fragment of a Parquet dataset, is a part of the trail
    part: int | None = None
    for batch in batches:
        if batch.part is not None and part is not None and batch.part != part:
            found.new_trail_part()
        part = batch.part if batch.part is not None else part
        if batch.lines:
            said.append((batch.part, batch.with_deck))
        if batch.deals is not None:
            found.table_rounds += batch.deals.rounds
            if batch.deals.rounds:
                found.deal_counts.add(batch.deals)
                if deals is not None:
                    deals(batch.deals)
            if keep_deals:
                kept.append(batch.deals)
        rounds = batch.rounds
        found.lines += batch.lines
        found.problem_count += batch.problem_count
        found.duplicates += batch.duplicates
        found.problems += batch.problems[: max(0, KEPT - len(found.problems))]
        if not len(rounds):
            continue
        due = _settle(rounds, settler, rule, found)
        if expectations is not None and ANTE_PLAY in due:
            _decisions(rounds, due[ANTE_PLAY], settler, rule, expectations, found)
    if keep_deals:
        found.deals = joined_deals(kept)
    return said


def _decisions(
    rounds: Rounds,
    due: npt.NDArray[Any],
    settler: Settler,
    rule: PayRule,
    expected: HandExpectations,
    found: Audit,
) -> None:
    """The sharp test of Ante & Play's return, and each seat's deviations from the normal strategy; ``due``: what
    is due on the Ante & Play of each round that has one, in cents."""
    ante = np.flatnonzero(rounds.ante_rows)
    if not len(ante):
        return
    assert settler.plays is not None
    player, dealer = rounds.player[ante], rounds.dealer[ante]
    hands = hand_indexes(np.sort(player, axis=1))
    played = rounds.plays[ante]
    bet = rounds.bets[ANTE_PLAY][ante]  # cents
    # Exactly: each round's due averaged over the dealer hands its cards leave (played) or its fold, at its bet and
    # paid by the pay rule, summed by bet size, which a log repeats.
    sizes, by_size = np.unique(bet, return_inverse=True)
    mean = np.zeros(len(ante))
    variance = np.zeros(len(ante))
    expected_cents = 0  # x 18,424
    for k, size in enumerate(sizes.tolist()):
        dues = _hand_dues(found, settler, rule, size)
        at = np.flatnonzero(by_size == k)
        h, p = hands[at], played[at]
        expected_cents += exact_sum(dues.played[h[p]]) + DEALER_HANDS * exact_sum(dues.folded[h[~p]])
        mean[at] = np.where(p, dues.mean[h], dues.folded[h].astype(np.float64) / 100)
        variance[at] = np.where(p, dues.variance[h], 0.0)
    if not found.trail_parts:
        found.new_trail_part()
    part = found.trail_parts[-1]
    batch_expected = Fraction(expected_cents, DEALER_HANDS * 100)
    batch_actual = Fraction(int(due.sum()), 100)
    batch_variance = Fraction(float(variance.sum()))
    found.expected_net += batch_expected
    found.variance_sum += batch_variance
    found.actual_net += batch_actual
    differences = np.cumsum(due.astype(np.float64) / 100 - mean)
    variances = np.cumsum(variance)
    start = part.decided
    i = part.every - 1 - start % part.every
    while i < len(ante):
        part.add((start + i, part.difference, float(differences[i]), part.variance, float(variances[i])))
        i = ((start + i + 1) // part.every + 1) * part.every - 1 - start
    part.decided += len(ante)
    part.difference += batch_actual - batch_expected
    part.variance += batch_variance
    found.decided += len(ante)

    seats = _seat_codes(rounds, ante, found)
    known = seats >= 0
    counted = np.bincount(seats[known], minlength=len(found.seat_order))
    for code in np.flatnonzero(counted).tolist():
        found.seat_order[code].rounds += int(counted[code])
    normal = settler.plays[hands]
    deviates = np.flatnonzero((played != normal) & known)
    if not len(deviates):
        return
    as_played = settler.settle(player[deviates], dealer[deviates], np.ones(len(deviates), dtype=bool))[ANTE_PLAY]
    nets = np.array([float(n) for n in settler.tables[ANTE_PLAY].nets])
    h = hands[deviates]
    sign = np.where(played[deviates], 1.0, -1.0)  # the gain of playing over folding, or of folding over playing
    fold_mean = expected.fold_mean[h]
    at = seats[deviates]
    n = len(found.seat_order)
    gain = np.bincount(at, sign * (nets[as_played] - fold_mean), minlength=n)
    expected_gain = np.bincount(at, sign * (expected.play_mean[h] - fold_mean), minlength=n)
    spread = np.bincount(at, expected.play_variance[h], minlength=n)
    below = np.bincount(at[played[deviates]], minlength=n)
    above = np.bincount(at[~played[deviates]], minlength=n)
    for c in np.flatnonzero(below + above).tolist():
        seat = found.seat_order[c]
        seat.plays_below += int(below[c])
        seat.folds_above += int(above[c])
        seat.gain_sum += Fraction(float(gain[c]))
        seat.expected_gain_sum += Fraction(float(expected_gain[c]))
        seat.variance_sum += Fraction(float(spread[c]))


def _seat_codes(rounds: Rounds, rows: IntArray, found: Audit) -> IntArray:
    """Each row's seat as an index into ``found.seat_order`` (-1 past :data:`MAX_SEATS` seats followed)."""
    picked = pa.array(rows, type=pa.int64())
    table = rounds.tables.take(picked)
    table = pc.if_else(pc.equal(table, ""), None, table).fill_null("-")
    seat = rounds.seats.take(picked).cast(pa.string()).fill_null("-")
    keys = pc.dictionary_encode(pc.binary_join_element_wise(table, seat, " seat "))
    codes = []
    for key in keys.dictionary.to_pylist():
        code = found.seat_codes.get(key)
        if code is None and len(found.seat_order) < MAX_SEATS:
            code = found.seat_codes[key] = len(found.seat_order)
            found.seat_order.append(SeatDecisions(key))
        codes.append(-1 if code is None else code)
    seats: IntArray = np.array([*codes, -1], dtype=np.int64)[keys.indices.to_numpy(zero_copy_only=False)]
    found.seats_not_followed += int((seats < 0).sum())
    return seats


def lines_of(spec: GameSpec, lines: list[Line], wager: str) -> list[Line]:  # noqa: ARG001
    """The answer key's lines of one wager, by its id (trey.play.pay_lines)."""
    return pay_lines.lines_of(lines, wager)


def parts_of(lines: list[Line]) -> dict[str, Fraction]:
    """Ante & Play's net split as a log writes it: ante, play, ante_bonus, by the parts' names."""
    return pay_lines.parts_of(lines, PARTS)


def _due(
    spec: GameSpec,
    settled: dict[str, Any],
    wager: str,
    bet: Fraction,
    rule: PayRule,
    meters: dict[str, Fraction] | None = None,
) -> Due:
    parts = lines_of(spec, answer_lines(spec, settled, {w: bet for w in settled}, rule, meters), wager)
    reason = "; ".join(f"{line.part}: {line.reason}" for line in parts)
    due = sum((line.amount for line in parts), Fraction(0))
    split = tuple(cents(v) for v in parts_of(parts).values())
    return cents(due), settled[wager].staked, reason, split


def _settle(rounds: Rounds, settler: Settler, rule: PayRule, found: Audit) -> dict[str, npt.NDArray[Any]]:
    """Settle a batch with its logged decisions, total what is due and list what was mis-paid; returns, per wager,
    what is due on each round that bets it (in cents, in the order of those rounds: int64, or Python integers past
    what 64 bits hold)."""
    spec = found.spec
    outcomes = settler.settle(rounds.player, rounds.dealer, rounds.plays if spec.wagers.ante_play else None)
    # One deal of six cards a line: a table round's seats share its line and its dealer's cards, so its first seat
    # and the dealer are what these tests read (their nulls are those of one deal; the battery reads every seat).
    first = np.ones(len(rounds), dtype=bool)
    first[1:] = rounds.lines[1:] != rounds.lines[:-1]
    if first.all():
        found.cards.add(np.concatenate([rounds.player, rounds.dealer], axis=1), rounds.tables)
    else:
        taken = pa.array(np.flatnonzero(first), type=pa.int64())
        found.cards.add(np.concatenate([rounds.player[first], rounds.dealer[first]], axis=1), rounds.tables.take(taken))
    found.rounds += len(rounds)
    ante_on = rounds.ante_rows
    cache = found.due_cache
    if len(cache) > _DUE_KEPT:
        cache.clear()
    dues: dict[str, npt.NDArray[Any]] = {}
    listed: list[MisPaid] = []
    room = KEPT - len(found.mispaid)
    meters_of = {
        bet.id: _follow_meter(rounds, bet, outcomes[bet.id], rule, found)
        for bet in spec.wagers.side_bets
        if bet.progressive is not None
    }
    for order, wager in enumerate(spec.wagers.ids):
        rows = np.flatnonzero(rounds.bet_on[wager])
        if not len(rows):
            continue
        bet = rounds.bets[wager][rows]
        outcome = outcomes[wager][rows]
        # A side bet's due and words depend on Ante & Play only through the fold (lost with the Ante): its key holds
        # whether the round folded (-1 without an Ante); Ante & Play's own outcome is its key already.
        if wager == ANTE_PLAY:
            with_ante = np.full(len(rows), -1)
        else:
            with_ante = np.where(ante_on[rows], (~rounds.plays[rows]).astype(np.int64), -1)
        unique, first, inverse, counts = _distinct(bet, with_ante, outcome)
        table = []
        for (size, folded, index), row in zip(unique, first.tolist(), strict=True):
            key = (wager, index, size, folded)
            if key not in cache:
                cache[key] = _due(
                    spec, _settled(settler, outcomes, int(rows[row]), wager, folded), wager, Fraction(size, 100), rule
                )
            table.append(cache[key])
        largest = max(max(abs(t[0]), *(abs(p) for p in t[3])) for t in table)
        exact = np.int64 if largest * len(rows) < _INT64_SAFE else object  # sums of a batch stay within 64 bits
        due = np.array([t[0] for t in table], dtype=exact)[inverse]
        totals = found.returns[wager]
        totals.rounds += len(rows)
        by_size: dict[int, int] = {}
        for (size, _, _), count, (due_one, staked, _, _) in zip(unique, counts.tolist(), table, strict=True):
            totals.bet_cents += size * count
            totals.wagered_cents += size * staked * count
            totals.net_cents += due_one * count
            by_size[size] = by_size.get(size, 0) + count
        logged = rounds.net[wager][rows]
        totals.logged_net_cents += sum(logged.tolist())
        metered = meters_of.get(wager)
        for size, count in by_size.items():  # the expectation of these bets, a meter's share aside
            mean_sum, square_sum = _moments(found, settler, rule, wager, size)
            totals.expected_sum += count * mean_sum
            totals.square_sum += count * square_sum
            if metered is None:
                totals.mean_square_sum += count * mean_sum * mean_sum
        reasons: dict[int, str] = {}
        if metered is not None:
            _meter_expectation(found, rounds, rows, metered[0], settler, rule, wager)
            jackpots = np.flatnonzero(np.isin(outcome, settler.meter_rows.get(wager, [])))
            if len(jackpots):
                _jackpots(rounds, rows, jackpots, due, logged, reasons, settler, outcomes, rule, found, wager, metered)
        wrong = np.flatnonzero(logged != due)
        if len(wrong):
            found.mispaid_count += len(wrong)
            difference = (logged[wrong] - due[wrong]).tolist()
            found.overpaid += Fraction(sum(d for d in difference if d > 0), 100)
            found.underpaid += Fraction(-sum(d for d in difference if d < 0), 100)
            for i in wrong[: max(0, room)].tolist():
                row = int(rows[i])
                reason = reasons.get(i, table[inverse[i]][2])
                listed.append(_mispaid(rounds, row, wager, int(logged[i]), int(due[i]), reason, order))
        if wager == ANTE_PLAY:
            split = np.array([t[3] for t in table], dtype=exact).reshape(-1, len(PARTS))[inverse]
            right_total = rounds.has_parts[rows] & (logged == due)
            misplaced = np.flatnonzero(right_total & (rounds.parts[rows] != split).any(axis=1))
            found.mispaid_count += len(misplaced)  # the total is right, its parts are not: paid on the wrong spot
            for i in misplaced[: max(0, room)].tolist():
                row = int(rows[i])
                said = ", ".join(
                    f"{k} {fraction_text(Fraction(int(rounds.parts[row, j]), 100))} logged, "
                    f"{fraction_text(Fraction(int(split[i, j]), 100))} due"
                    for j, k in enumerate(PARTS)
                )
                listed.append(_mispaid(rounds, row, wager, int(logged[i]), int(due[i]), f"parts: {said}", order))
        dues[wager] = due
    listed.sort(key=lambda m: (m.line, m.order))
    found.mispaid += listed[: max(0, room)]
    return dues


def _settled(settler: Settler, outcomes: dict[str, IntArray], row: int, wager: str, folded: int) -> dict[str, Any]:
    """Round ``row`` settled, as much of it as a wager's due depends on: the wager, and Ante & Play when the round
    bets an Ante (``folded`` at least 0)."""
    names = (wager, ANTE_PLAY) if folded >= 0 else (wager,)
    return {w: s for w, s in settler.settled(outcomes, row).items() if w in names}


def _follow_meter(
    rounds: Rounds, bet: SideBet, outcome: IntArray, rule: PayRule, found: Audit
) -> tuple[IntArray, IntArray]:
    """A progressive's meter followed along the batch (:func:`trey.audit.meters.follow`)."""
    rows = bet.pays.listed
    share_of = {rows.index(name): bet.pays.get(name).meter_share for name in bet.meter_rows}  # type: ignore[union-attr]
    bets = rounds.bets[bet.id]

    def won_at(row: int, meter: int) -> int:
        pay = bet.pays.get(rows[int(outcome[row])])
        assert pay is not None
        paid = rule.pay(Fraction(int(bets[row]), 100), pay, meter=Fraction(meter, 100), progressive=True)
        return cents(paid.amount)

    return follow(found.meters, rounds, bet, outcome, share_of, won_at, KEPT)


def _meter_expectation(
    found: Audit, rounds: Rounds, rows: IntArray, meter_at: IntArray, settler: Settler, rule: PayRule, wager: str
) -> None:
    """The expectation of a progressive's meter shares, each round's at the meter it was dealt at (logged or
    carried; the reset where neither gives it), paid by the pay rule, added to the wager's expected sums."""
    bet = found.spec.wagers.side_bet(wager)
    assert bet.progressive is not None
    law = found.laws[wager]
    names = bet.pays.listed
    shares = [(i, bet.pays.get(n)) for i, n in enumerate(names) if n in bet.meter_rows]
    reset = cents(bet.progressive.reset)
    meter = np.where(meter_at[rows] >= 0, meter_at[rows], reset)
    sizes = rounds.bets[wager][rows]
    totals = found.returns[wager]
    keys, counts = np.unique(np.stack([sizes, meter], axis=1), axis=0, return_counts=True)
    for (size, at), count in zip(keys.tolist(), counts.tolist(), strict=True):
        first, _ = _moments(found, settler, rule, wager, size)
        extra_first = extra_second = 0
        for index, pay in shares:
            assert pay is not None
            net = rule.net(Fraction(size, 100), pay, meter=Fraction(at, 100), progressive=True)
            due = cents(net)
            extra_first += law.counts[index] * due
            extra_second += law.counts[index] * due * due
        totals.expected_sum += count * extra_first
        totals.square_sum += count * extra_second
        totals.mean_square_sum += count * (first + extra_first) ** 2


def _unchecked(found: Audit, why: Unchecked, rounds: Rounds, row: int, wager: str, logged: int, reason: str) -> None:
    found.not_checked_count += 1
    found.not_checked_by[why] = found.not_checked_by.get(why, 0) + 1
    lines = found.not_checked_lines.setdefault(why, [])
    if len(lines) < LINES_NAMED:
        lines.append(int(rounds.lines[row]))
    if len(found.not_checked) < KEPT:
        found.not_checked.append(
            NotChecked(int(rounds.lines[row]), rounds.id_of(row), wager, Fraction(logged, 100), reason, why)
        )


def _jackpots(
    rounds: Rounds,
    rows: IntArray,
    jackpots: IntArray,
    due: npt.NDArray[Any],
    logged: IntArray,
    reasons: dict[int, str],
    settler: Settler,
    outcomes: dict[str, IntArray],
    rule: PayRule,
    found: Audit,
    wager: str,
    metered: tuple[IntArray, IntArray],
) -> None:
    """A progressive's wagers paid a share of its meter (``jackpots``: their places in ``rows``). What is due was
    counted at the reset; it is due at the meter the round was dealt at, as :mod:`trey.audit.meters` follows it:
    ``due``, ``reasons`` and the totals are set to it. A jackpot without a meter to pay it at cannot be checked: it
    is listed as not checked and its logged net counted as it is; one paid at the meter that opens its table is
    checked against that meter and listed as not checked (nothing checks the meter)."""
    spec = found.spec
    totals = found.returns[wager]
    meter_at, status = metered
    for i in jackpots.tolist():
        row = int(rows[i])
        at_reset = int(due[i])
        row_name = str(settler.tables[wager].outcomes[int(outcomes[wager][row])])
        share = spec.wagers.side_bet(wager).pays.get(row_name)
        meter = int(meter_at[row])
        if meter != UNKNOWN:
            folded = int(not rounds.plays[row]) if rounds.ante_rows[row] else -1
            key = (wager, int(outcomes[wager][row]), int(rounds.bets[wager][row]), folded, meter)
            cache = found.due_cache
            if key not in cache:
                settled = _settled(settler, outcomes, row, wager, folded)
                size = Fraction(int(rounds.bets[wager][row]), 100)
                cache[key] = _due(spec, settled, wager, size, rule, {wager: Fraction(meter, 100)})
            owed, _, reasons[i], _ = cache[key]
            if status[row] == BREAKS:
                reasons[i] += " (the meter carried along its table, not the one logged)"
            elif status[row] == OPENS:
                at = rule.money(Fraction(meter, 100))
                reason = f"{row_name.replace('_', ' ')}: {share} at {at}, {Unchecked.OPENING}"
                _unchecked(found, Unchecked.OPENING, rounds, row, wager, int(logged[i]), reason)
        else:
            owed = int(logged[i])  # a claim: counted as logged, never as paid as due
            reason = f"{row_name.replace('_', ' ')}: {share}, {Unchecked.NO_METER}"
            _unchecked(found, Unchecked.NO_METER, rounds, row, wager, owed, reason)
        due[i] = owed
        totals.net_cents += owed - at_reset


def _distinct(
    bet: IntArray, ante: IntArray, outcome: IntArray
) -> tuple[list[tuple[int, int, int]], IntArray, IntArray, IntArray]:
    """The distinct (bet, folded or -1, outcome) of a wager's rounds: each once, the row where it is
    first met, each row's index among them, and how many rounds have it."""
    outcomes = int(outcome.max()) + 1
    antes = int(ante.max()) + 2
    if int(bet.max()) < (1 << 62) // (outcomes * antes):  # one integer key: a sort of numbers, not of rows
        key = (bet * antes + (ante + 1)) * outcomes + outcome
        keys = np.unique(key)  # a log has few: a binary search finds each row's
        inverse = np.searchsorted(keys, key)
        counts = np.bincount(inverse, minlength=len(keys))
        first = np.zeros(len(keys), dtype=np.int64)
        first[inverse[::-1]] = np.arange(len(key) - 1, -1, -1)  # the last write of a place wins: the first row
        rest, index = np.divmod(keys, outcomes)
        size, ante_plus = np.divmod(rest, antes)
        unique = list(zip(size.tolist(), (ante_plus - 1).tolist(), index.tolist(), strict=True))
        return unique, first, inverse.reshape(-1), counts
    stacked = np.stack([bet, ante, outcome], axis=1)
    rows, first, inverse, counts = np.unique(
        stacked, axis=0, return_index=True, return_inverse=True, return_counts=True
    )
    return [tuple(r) for r in rows.tolist()], first, inverse.reshape(-1), counts


def _mispaid(rounds: Rounds, row: int, wager: str, logged: int, due: int, reason: str, order: int) -> MisPaid:
    return MisPaid(
        int(rounds.lines[row]), rounds.id_of(row), wager, Fraction(logged, 100), Fraction(due, 100), reason, order
    )


def _rtp_text(value: Fraction | None) -> str | None:
    return fraction_text(value) if value is not None else None


def audit_json(found: Audit) -> dict[str, Any]:
    """``trey audit --format json`` (schemas/audit.schema.json)."""
    verdict = found.verdict
    family = verdict.family
    sharp = found.rounds_z
    document = {
        "trey_version": __version__,
        "spec_sha256": found.spec.sha256,
        "name": found.spec.name,
        "lines": found.lines,
        "rounds": found.rounds,
        "clean": verdict.passed,
        "verdict": {
            "result": str(verdict.result),
            "says": verdict.headline,
            "lines": verdict.lines,
            "findings": [{"kind": str(f.kind), "says": f.says} for f in verdict.findings],
            "alpha": fraction_text(family.alpha),
            "tests": len(family.tests),
            "level": family.statement,
        },
        "problems": {
            "count": found.problem_count,
            "logged_twice": found.duplicates,
            "listed": [
                {"file": p.file, "line": p.line, "round": p.round, "code": p.code, "message": p.message}
                for p in found.problems
            ],
        },
        "mispaid": {
            "count": found.mispaid_count,
            "overpaid": fraction_text(found.overpaid),
            "underpaid": fraction_text(found.underpaid),
            "listed": [
                {
                    "line": m.line,
                    "round": m.round,
                    "wager": m.wager,
                    "logged": fraction_text(m.logged),
                    "due": fraction_text(m.due),
                    "reason": m.reason,
                }
                for m in found.mispaid
            ],
        },
        "not_checked": {
            "count": found.not_checked_count,
            "listed": [
                {
                    "line": c.line,
                    "round": c.round,
                    "wager": c.wager,
                    "logged": fraction_text(c.logged),
                    "reason": c.reason,
                }
                for c in found.not_checked
            ],
        },
        "meters": {
            "tables_opened": found.meters.opened,
            "rounds_not_followed": found.meters.not_followed,
            "breaks": found.meters.break_count,
            "listed": [
                {
                    "line": b.line,
                    "round": b.round,
                    "wager": b.wager,
                    "table": b.table,
                    "logged": fraction_text(b.logged),
                    "carried": fraction_text(b.carried),
                    "carried_from_line": b.since,
                }
                for b in found.meters.breaks
            ],
        },
        "ante_play_these_rounds": None
        if sharp is None
        else {
            "expected_net": fraction_text(found.expected_net),
            "z": rounded_float(Fraction(sharp), 4),
            "p_value": float(f"{z_p_value(sharp, two_sided=True):.6g}"),
            "flagged": family.is_flagged("sharp", SHARP),
        },
        "cards": [
            {
                "test": t.name,
                "statistic": rounded_float(Fraction(t.statistic), 4),
                "degrees_of_freedom": t.degrees_of_freedom,
                "p_value": float(f"{t.p_value:.6g}"),
                "observations": t.observations,
                "runs": t.runs,
                "furthest": t.departure,
                "flagged": family.is_flagged("card", t.name),
            }
            for t in found.card_tests
        ],
        "seats": [
            {
                "seat": d.seat,
                "rounds": d.rounds,
                "plays_below_normal": d.plays_below,
                "folds_above_normal": d.folds_above,
                "z": rounded_float(Fraction(d.z), 4) if d.z is not None else None,
                "flagged": family.is_flagged("seat", d.seat),
            }
            for d in sorted(found.seats.values(), key=lambda d: d.seat)[:KEPT]
        ],
        "ante_play_rounds_of_seats_not_followed": found.seats_not_followed,
        "returns": [
            {
                "wager": r.wager,
                "title": r.title,
                "rounds": r.rounds,
                "bet": fraction_text(r.bet),
                "wagered": fraction_text(r.wagered),
                "net": fraction_text(r.net),
                "paid_net": fraction_text(r.paid_net),
                "expected_net": fraction_text(r.expected_net),
                "rtp": _rtp_text(r.rtp),
                "paid_rtp": _rtp_text(r.paid_rtp),
                "expected_rtp": _rtp_text(r.expected_rtp),
                "theoretical_rtp": fraction_text(r.theoretical_rtp),
                "z": rounded_float(Fraction(r.z), 4) if r.z is not None else None,
            }
            for r in found.returns.values()
        ],
    }
    if found.integrity is not None:
        document["deal_integrity"] = _integrity_json(found.integrity, family)
    return document


def _integrity_json(battery: Battery, family: Family) -> dict[str, Any]:
    return {
        "rounds": battery.rounds,
        "missing": list(battery.missing),
        "groups_left": list(battery.groups_left),
        "tests": [
            {
                "test": o.test,
                "group": o.group,
                "unit": o.unit,
                "sample": o.sample,
                "needed": o.needed,
                "method": o.method,
                "degrees_of_freedom": o.df,
                "statistic": rounded_float(Fraction(o.statistic), 4),
                "p_value": float(f"{o.p_value:.6g}") if o.p_value is not None else None,
                "counts": o.counts,
                "observed": fraction_text(o.observed),
                "expected": fraction_text(o.expected),
                "flagged": family.is_flagged("deal", o.name),
            }
            for o in battery.outcomes
        ],
    }
