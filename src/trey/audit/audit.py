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
from trey.audit.log import LoggedRound, LogProblem, read_log
from trey.core.numbers import fraction_text, rounded_float
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.floor.drill import answer_lines
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.play.payouts import PayRule
from trey.play.settle import Settler

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
    wager: str
    title: str
    rounds: int = 0
    bet: Fraction = Fraction(0)  # initial bets
    wagered: Fraction = Fraction(0)  # everything staked (the Play too)
    net: Fraction = Fraction(0)  # what the player won (+) or lost, as due
    bet_squares: Fraction = Fraction(0)  # the sum of the squared initial bets, for the z-score
    theoretical_rtp: Fraction = Fraction(0)  # per unit of the initial bet
    variance: Fraction = Fraction(0)

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

    @property
    def clean(self) -> bool:
        return self.problem_count == 0 and self.mispaid_count == 0


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
    for path in logs:
        for batch in _batches(read_log(path, spec), found):
            _settle(batch, settler, rule, found)
    return found


def _settle(batch: list[LoggedRound], settler: Settler, rule: PayRule, found: Audit) -> None:
    spec = found.spec
    player = np.array([r.player for r in batch], dtype=np.int64)
    dealer = np.array([r.dealer for r in batch], dtype=np.int64)
    played = np.array([bool(r.plays) for r in batch]) if spec.wagers.ante_play is not None else None
    outcomes = settler.settle(player, dealer, played)
    for row, logged in enumerate(batch):
        settled = {w: s for w, s in settler.settled(outcomes, row).items() if w in logged.bets}
        lines = answer_lines(spec, settled, logged.bets, rule)
        found.rounds += 1
        for wager, bet in logged.bets.items():
            title = spec.wagers.title(wager)
            parts = [x for x in lines if (x.part in ANTE_PLAY_PARTS if wager == ANTE_PLAY else x.part == title)]
            due = sum((line.amount for line in parts), Fraction(0))
            logged_net = logged.net[wager]
            totals = found.returns[wager]
            totals.rounds += 1
            totals.bet += bet
            totals.bet_squares += bet * bet
            totals.wagered += bet * settled[wager].staked
            totals.net += due
            if logged_net != due:
                found.mispaid_count += 1
                if logged_net > due:
                    found.overpaid += logged_net - due
                else:
                    found.underpaid += due - logged_net
                if len(found.mispaid) < KEPT:
                    reason = "; ".join(f"{line.part}: {line.reason}" for line in parts)
                    found.mispaid.append(MisPaid(logged.line, logged.round, wager, logged_net, due, reason))


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
