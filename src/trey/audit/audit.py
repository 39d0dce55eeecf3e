"""``trey audit`` as a library call: played rounds re-settled by the one settlement, every mis-paid round listed
with the reason in the drill's words, and each wager's actual return against its theoretical one."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from trey import __version__
from trey.audit.cards import CardCounts, CardTest
from trey.audit.log import PARTS, LoggedRound, LogProblem, read_log
from trey.cards.hand_table import DEALER_HANDS, hand_indexes, hand_table
from trey.cards.readings.player_hand import class_of_hand
from trey.core.numbers import fraction_text, rounded_float
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.floor.drill import Line, answer_lines
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.play.payouts import PayRule
from trey.play.settle import Settler
from trey.play.simulate import Z_LIMIT
from trey.rules.ante_play import Situation, bonus_column, bonus_pays, resolution_table, situation_counts

KEPT = 1_000  # problems and mis-paid rounds listed at most (all are counted)
ANTE_PLAY_PARTS = ("Ante", "Play", "Ante Bonus")  # the answer key's lines of Ante & Play
BATCH = 4_096  # rounds settled at a time


@dataclass(frozen=True)
class MisPaid:
    line: int
    round: str
    wager: str
    logged: Fraction
    due: Fraction
    reason: str  # what is due and why, as the drill's answer key says it


@dataclass
class WagerReturn:
    """A wager's totals over the rounds audited. Amounts have at most two decimals (the log's reader refuses
    others), so they are added up in whole hundredths: exact, and no Fraction arithmetic per round."""

    wager: str
    title: str
    rounds: int = 0
    bet_cents: int = 0  # initial bets
    wagered_cents: int = 0  # everything staked (the Play too)
    net_cents: int = 0  # what the player won (+) or lost, as due
    bet_square_cents: int = 0  # the sum of the squared initial bets, for the z-score
    theoretical_rtp: Fraction = Fraction(0)  # per unit of the initial bet
    variance: Fraction = Fraction(0)

    @property
    def bet(self) -> Fraction:
        return Fraction(self.bet_cents, 100)

    @property
    def wagered(self) -> Fraction:
        return Fraction(self.wagered_cents, 100)

    @property
    def net(self) -> Fraction:
        return Fraction(self.net_cents, 100)

    @property
    def bet_squares(self) -> Fraction:
        return Fraction(self.bet_square_cents, 10_000)

    @property
    def rtp(self) -> Fraction | None:
        """Returned per unit of the initial bet, as the theoretical RTP is stated."""
        return 1 + self.net / self.bet if self.bet else None

    @property
    def z_decimal(self) -> Decimal:
        assert self.z is not None
        return Decimal(repr(self.z))

    @property
    def z(self) -> float | None:
        """(actual net - expected net) / its standard deviation, the rounds' bets as they were."""
        if not self.bet_squares or not self.variance:
            return None
        expected = (self.theoretical_rtp - 1) * self.bet
        return float(self.net - expected) / math.sqrt(float(self.variance * self.bet_squares))


@dataclass
class SeatDecisions:
    """One seat's Ante & Play decisions against the normal strategy, and what its deviations won.

    An informed player deviates where the information pays: such deviations win more than their expectation given
    the player's cards alone. ``z`` measures exactly that (each deviation's gain over the normal decision, against
    its exact expectation and variance given the player's hand); a seat is flagged from 4, never accused."""

    seat: str
    rounds: int = 0
    plays_below: int = 0  # played a hand the normal strategy folds
    folds_above: int = 0  # folded a hand the normal strategy plays
    gain: float = 0.0  # the deviations' gain over the normal decision, per Ante, as dealt
    expected_gain: float = 0.0  # its expectation given the player's hands alone (never above 0)
    variance: float = 0.0

    @property
    def deviations(self) -> int:
        return self.plays_below + self.folds_above

    @property
    def z(self) -> float | None:
        return (self.gain - self.expected_gain) / math.sqrt(self.variance) if self.variance else None

    @property
    def flagged(self) -> bool:
        return self.z is not None and self.z >= Z_LIMIT


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
class Audit:
    spec: GameSpec
    lines: int = 0
    rounds: int = 0  # valid rounds audited
    problems: list[LogProblem] = field(default_factory=list)
    problem_count: int = 0
    mispaid: list[MisPaid] = field(default_factory=list)
    mispaid_count: int = 0
    overpaid: Fraction = Fraction(0)  # paid beyond what was due, in all
    underpaid: Fraction = Fraction(0)
    returns: dict[str, WagerReturn] = field(default_factory=dict)
    cards: CardCounts = field(default_factory=CardCounts)
    seats: dict[str, SeatDecisions] = field(default_factory=dict)
    # Ante & Play's expectation for these very rounds, given each round's cards and logged decision (per the bets
    # as placed), and its variance: the sharp test of the return.
    expected_net: Fraction = Fraction(0)
    expected_variance: float = 0.0
    due_cache: dict[tuple[str, int, Fraction, int | None], Any] = field(default_factory=dict, repr=False)
    trail: Trail = field(default_factory=Trail)
    decided: int = 0  # Ante & Play rounds counted in the trail
    actual_net: Fraction = Fraction(0)  # Ante & Play's, as due, over the rounds in the trail

    @property
    def clean(self) -> bool:
        return self.problem_count == 0 and self.mispaid_count == 0

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


def _batches(items: Iterable[LoggedRound | LogProblem], audit: Audit) -> Iterator[list[LoggedRound]]:
    batch: list[LoggedRound] = []
    for item in items:
        audit.lines += 1
        if isinstance(item, LogProblem):
            audit.problem_count += 1
            if len(audit.problems) < KEPT:
                audit.problems.append(item)
            continue
        batch.append(item)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


@dataclass(frozen=True)
class HandExpectations:
    """Per player hand, Ante & Play's net per Ante given that hand alone: played (mean and variance over its
    18,424 dealer hands) and folded (certain). Played, the Ante and Play net a whole number of Antes in every
    situation and the Ante Bonus is paid in each: the mean is ``whole / 18,424 + bonus``, the bonus adding nothing
    to the variance."""

    whole: list[int]  # the Ante and Play nets over the 18,424 dealer hands, played
    bonus: list[Fraction]
    play_variance: list[float]
    fold: list[Fraction]

    def play(self, hand: int) -> Fraction:
        return Fraction(self.whole[hand], DEALER_HANDS) + self.bonus[hand]


def hand_expectations(spec: GameSpec) -> HandExpectations:
    game = spec.wagers.ante_play
    assert game is not None
    counts = situation_counts(hand_table(), spec.rules.dealer_qualifier.minimum_key).by_situation()
    resolution = resolution_table(spec.rules)
    base = {s: int(resolution[s].ante + (resolution[s].play or 0)) for s in counts}
    stacked = np.stack([counts[s].astype(np.int64) for s in counts])  # (situations, hands)
    nets = np.array([base[s] for s in counts], dtype=np.int64)[:, None]
    whole = (stacked * nets).sum(axis=0)
    variance = (stacked * nets**2).sum(axis=0) / DEALER_HANDS - (whole / DEALER_HANDS) ** 2
    pays = bonus_pays(game.ante_bonus)
    bonus = [pays[c] for c in bonus_column(game.ante_bonus, class_of_hand()).tolist()]
    fold = resolution[Situation.FOLD]
    return HandExpectations(whole.tolist(), bonus, variance.tolist(), [fold.round_net(b) for b in bonus])


def audit(spec: GameSpec, logs: list[Path], analysis: GameAnalysis | None = None) -> Audit:
    """Every log's rounds, streamed: checked, re-settled with the decision each round logs, and totalled."""
    analysis = analysis or analyze(spec)
    plays = analysis.ante_play.plays if analysis.ante_play is not None else None
    settler = Settler(spec, plays)
    rule = PayRule.of(spec.table)
    found = Audit(spec)
    for wager, result in analysis.wagers.items():
        found.returns[wager] = WagerReturn(
            wager, spec.wagers.title(wager), theoretical_rtp=result.stats.rtp, variance=result.stats.variance
        )
    expectations = hand_expectations(spec) if spec.wagers.ante_play is not None else None
    for path in logs:
        for batch in _batches(read_log(path, spec), found):
            settled = _settle(batch, settler, rule, found)
            if expectations is not None:
                _decisions(batch, settled, settler, expectations, found)
    return found


def _decisions(
    batch: list[LoggedRound],
    settled: dict[str, list[int]],
    settler: Settler,
    expected: HandExpectations,
    found: Audit,
) -> None:
    """The sharp test of Ante & Play's return, and each seat's deviations from the normal strategy; ``settled``:
    the batch's outcomes as :func:`_settle` settled them, with the logged decisions."""
    rows = [i for i, r in enumerate(batch) if ANTE_PLAY in r.bets]
    if not rows:
        return
    rounds = [batch[i] for i in rows]
    assert settler.plays is not None
    player = np.array([r.player for r in rounds], dtype=np.int64)
    dealer = np.array([r.dealer for r in rounds], dtype=np.int64)
    hands = hand_indexes(np.sort(player, axis=1)).tolist()
    # Each round settled as if played, per Ante: what playing won (or would have won) with these very cards.
    as_played = settler.settle(player, dealer, np.ones(len(rounds), dtype=bool))[ANTE_PLAY].tolist()
    nets = settler.tables[ANTE_PLAY].nets
    columns = [settled[ANTE_PLAY][i] for i in rows]
    for row, (logged, hand, outcome) in enumerate(zip(rounds, hands, as_played, strict=True)):
        bet = logged.bets[ANTE_PLAY]
        played = bool(logged.plays)
        mean = expected.play(hand) if played else expected.fold[hand]
        found.expected_net += mean * bet
        found.expected_variance += (expected.play_variance[hand] if played else 0.0) * float(bet * bet)
        found.actual_net += found.due_cache[(ANTE_PLAY, columns[row], bet, columns[row])][0]
        found.trail.add(found.decided, float(found.actual_net - found.expected_net), found.expected_variance)
        found.decided += 1
        key = f"{logged.table or '-'} seat {logged.seat if logged.seat is not None else '-'}"
        seat = found.seats.setdefault(key, SeatDecisions(key))
        seat.rounds += 1
        normal = bool(settler.plays[hand])
        if played == normal:
            continue
        sign = 1 if played else -1  # the gain of playing over folding, or of folding over playing
        if played:
            seat.plays_below += 1
        else:
            seat.folds_above += 1
        seat.gain += sign * float(nets[outcome] - expected.fold[hand])
        seat.expected_gain += sign * float(expected.play(hand) - expected.fold[hand])
        seat.variance += expected.play_variance[hand]


# What is due on one wager depends only on its outcome, its bet and (for a side bet's words) whether the player
# folded: remembered, since a log repeats the same few of them (the table's bet sizes), and the answer key's words
# are formatted once each.
_DUE_KEPT = 200_000
# (net due, units staked, what is due and why, Ante & Play's parts: ante, play, ante_bonus)
Due = tuple[Fraction, int, str, dict[str, Fraction]]


def lines_of(spec: GameSpec, lines: list[Line], wager: str) -> list[Line]:
    """The answer key's lines of one wager: Ante, Play and Ante Bonus are Ante & Play's, a side bet's its title."""
    title = spec.wagers.title(wager)
    return [x for x in lines if (x.part in ANTE_PLAY_PARTS if wager == ANTE_PLAY else x.part == title)]


def parts_of(lines: list[Line]) -> dict[str, Fraction]:
    """Ante & Play's net split as a log writes it: ante, play, ante_bonus."""
    split = {name: Fraction(0) for name in PARTS}
    for line in lines:
        if line.part in ANTE_PLAY_PARTS:
            split[PARTS[ANTE_PLAY_PARTS.index(line.part)]] += line.amount
    return split


def _due(spec: GameSpec, settled: dict[str, Any], wager: str, bet: Fraction, rule: PayRule) -> Due:
    parts = lines_of(spec, answer_lines(spec, settled, {w: bet for w in settled}, rule), wager)
    reason = "; ".join(f"{line.part}: {line.reason}" for line in parts)
    return sum((line.amount for line in parts), Fraction(0)), settled[wager].staked, reason, parts_of(parts)


def _settle(batch: list[LoggedRound], settler: Settler, rule: PayRule, found: Audit) -> dict[str, list[int]]:
    """Settle a batch with its logged decisions and total what is due; returns each wager's outcome per round."""
    spec = found.spec
    player = np.array([r.player for r in batch], dtype=np.int64)
    dealer = np.array([r.dealer for r in batch], dtype=np.int64)
    played = np.array([bool(r.plays) for r in batch]) if spec.wagers.ante_play is not None else None
    outcomes = settler.settle(player, dealer, played)
    found.cards.add(np.concatenate([player, dealer], axis=1), [r.table for r in batch])
    columns = {wager: index.tolist() for wager, index in outcomes.items()}
    cache = found.due_cache
    if len(cache) > _DUE_KEPT:
        cache.clear()
    for row, logged in enumerate(batch):
        found.rounds += 1
        ante = columns[ANTE_PLAY][row] if ANTE_PLAY in logged.bets else None
        for wager, bet in logged.bets.items():
            key = (wager, columns[wager][row], bet, ante)
            if key not in cache:
                names = (wager, ANTE_PLAY) if ante is not None and wager != ANTE_PLAY else (wager,)
                settled = {w: s for w, s in settler.settled(outcomes, row).items() if w in names}
                cache[key] = _due(spec, settled, wager, bet, rule)
            due, staked, reason, split = cache[key]
            logged_net = logged.net[wager]
            if wager == ANTE_PLAY and logged.parts is not None and logged.parts != split and logged_net == due:
                found.mispaid_count += 1  # the total is right, its parts are not: paid on the wrong spot
                if len(found.mispaid) < KEPT:
                    said = ", ".join(f"{k} {logged.parts[k]} logged, {split[k]} due" for k in PARTS)
                    found.mispaid.append(MisPaid(logged.line, logged.round, wager, logged_net, due, f"parts: {said}"))
            totals = found.returns[wager]
            cents = bet.numerator * 100 // bet.denominator
            totals.rounds += 1
            totals.bet_cents += cents
            totals.bet_square_cents += cents * cents
            totals.wagered_cents += cents * staked
            due_cents, rest = divmod(due.numerator * 100, due.denominator)
            assert rest == 0, "a due amount finer than the currency's cents"  # the table pays in chips of cents
            totals.net_cents += due_cents
            if logged_net != due:
                found.mispaid_count += 1
                if logged_net > due:
                    found.overpaid += logged_net - due
                else:
                    found.underpaid += due - logged_net
                if len(found.mispaid) < KEPT:
                    found.mispaid.append(MisPaid(logged.line, logged.round, wager, logged_net, due, reason))
    return columns


def audit_json(found: Audit) -> dict[str, Any]:
    """``trey audit --format json`` (schemas/audit.schema.json)."""
    return {
        "trey_version": __version__,
        "spec_sha256": found.spec.sha256,
        "name": found.spec.name,
        "lines": found.lines,
        "rounds": found.rounds,
        "clean": found.clean,
        "problems": {
            "count": found.problem_count,
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
        "ante_play_these_rounds": None
        if found.rounds_z is None
        else {
            "expected_net": fraction_text(found.expected_net),
            "z": rounded_float(Fraction(found.rounds_z), 4),
        },
        "cards": [
            {
                "test": t.name,
                "statistic": rounded_float(Fraction(t.statistic), 4),
                "degrees_of_freedom": t.degrees_of_freedom,
                "p_value": float(f"{t.p_value:.6g}"),
                "observations": t.observations,
                "flagged": t.flagged,
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
                "flagged": d.flagged,
            }
            for d in sorted(found.seats.values(), key=lambda d: d.seat)[:KEPT]
        ],
        "returns": [
            {
                "wager": r.wager,
                "title": r.title,
                "rounds": r.rounds,
                "bet": fraction_text(r.bet),
                "wagered": fraction_text(r.wagered),
                "net": fraction_text(r.net),
                "rtp": fraction_text(r.rtp) if r.rtp is not None else None,
                "theoretical_rtp": fraction_text(r.theoretical_rtp),
                "z": rounded_float(Fraction(r.z), 4) if r.z is not None else None,
            }
            for r in found.returns.values()
        ],
    }
