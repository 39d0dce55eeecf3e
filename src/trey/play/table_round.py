"""``trey risk --seats K --pays-over X`` as a library call: for each wager of the standard game, every one of K
seats betting one unit on it, P(T_K > X), the chance that one round's total net to the players is more than X units
(the house's liability when several seats hit at once).

Counted (:mod:`trey.play.round_payout`): for K = 1 and 2 the exact probability; for K = 3 to 7 a proven upper bound
and a proven lower bound. Dealt (:mod:`trey.play.table_simulation`): a seeded simulation of K seats and the dealer
from one deck, with its Clopper-Pearson interval (:mod:`trey.play.binomial`). The simulated rounds are bounded
(:data:`~trey.play.table_simulation.MAX_TABLE_ROUNDS`); nothing in the input chooses unbounded work.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from trey.core.errors import TreyError
from trey.core.numbers import fraction_text, outward, rounded_float, to_decimal
from trey.core.version import __version__
from trey.paytable.model import ANTE_PLAY, GameSpec
from trey.play.binomial import clopper_pearson
from trey.play.round_payout import MAX_SEATS, Bound, round_payout
from trey.play.simulate import GENERATOR
from trey.play.table_simulation import MAX_TABLE_ROUNDS, simulate_round_totals

DEFAULT_ROUNDS = 10**6
CONFIDENCE = Fraction(99, 100)
INTERVAL = "Clopper-Pearson (exact binomial)"
TOTAL = (
    "T: the round's total net to the players, every seat betting one unit on the wager (Ante & Play: one Ante, and "
    "the Play when the paytable's strategy plays)"
)


@dataclass(frozen=True)
class Simulated:
    """``over`` of ``rounds`` simulated rounds paid more than X; its Clopper-Pearson interval at :data:`CONFIDENCE`."""

    rounds: int
    seed: int
    over: int
    low: float
    high: float

    @property
    def estimate(self) -> float:
        return self.over / self.rounds


@dataclass(frozen=True)
class WagerRound:
    """One wager's P(T_K > X): ``exact`` for one and two seats, else ``lower`` and ``upper`` bounds; ``simulated``
    unless no rounds were asked for."""

    wager: str
    title: str
    exact: Fraction | None
    lower: Bound | None
    upper: Bound | None
    simulated: Simulated | None


@dataclass(frozen=True)
class TableRoundReport:
    spec: GameSpec
    seats: int
    pays_over: Fraction
    rounds: int
    seed: int
    wagers: tuple[WagerRound, ...]


def table_round(
    spec: GameSpec,
    *,
    seats: int,
    pays_over: Fraction,
    wager: str | None = None,
    rounds: int = DEFAULT_ROUNDS,
    seed: int,
    progress: Callable[[str], None] | None = None,
) -> TableRoundReport:
    """P(T > ``pays_over``) at a table of ``seats`` seats for every wager of ``spec`` (or ``wager``): counted, and
    simulated over ``rounds`` rounds (0: not simulated) from ``seed``."""
    if not 1 <= seats <= MAX_SEATS:
        raise TreyError(f"a table of {seats} seats", hint=f"give 1 to {MAX_SEATS} seats")
    if not 0 <= rounds <= MAX_TABLE_ROUNDS:
        raise TreyError(
            f"{rounds:,} simulated rounds", hint=f"give 0 to {MAX_TABLE_ROUNDS:,} rounds (0: no simulation)"
        )
    ids = spec.wagers.ids
    if wager is not None and wager not in ids:
        raise TreyError(f"the game has no wager {wager!r}", hint=f"give one of {', '.join(ids)}")
    chosen = [wager] if wager is not None else list(ids)
    for name in chosen:
        if name != ANTE_PLAY and spec.wagers.side_bet(name).envy:
            raise TreyError(
                f"{name} pays an envy bonus on other seats' hands: a round's payout does not count it",
                hint="give --wager with another wager",
            )
    counted = {}
    for name in chosen:
        if progress is not None:
            progress(f"counting {name}")
        counted[name] = round_payout(spec, name)
    dealt = None
    if rounds:
        if progress is not None:
            progress(f"simulating {rounds:,} rounds")
        dealt = simulate_round_totals(spec, chosen, seats, rounds, seed)
    results = []
    for name in chosen:
        payout = counted[name]
        exact = payout.tail_bound(seats, pays_over)[0] if seats <= 2 else None
        lower = payout.lower_bound(seats, pays_over) if seats > 2 else None
        upper = payout.upper_bound(seats, pays_over) if seats > 2 else None
        simulated = None
        if dealt is not None:
            over = dealt.over(name, seats, pays_over)
            low, high = clopper_pearson(over, rounds, CONFIDENCE)
            simulated = Simulated(rounds, seed, over, low, high)
        results.append(WagerRound(name, spec.wagers.title(name), exact, lower, upper, simulated))
    return TableRoundReport(spec, seats, pays_over, rounds, seed, tuple(results))


def rounded_bound(value: Fraction, *, up: bool) -> float:
    """A bound as a float of 7 significant digits, rounded away from inside it (up for an upper bound)."""
    return float(outward(to_decimal(value), 7, up=up)) if value else 0.0


def _probability_json(value: Fraction) -> dict[str, Any]:
    return {
        "kind": "exact",
        "exact": fraction_text(value),
        "value": rounded_float(value, 12),
        "one_in": float(round(Decimal(value.denominator) / Decimal(value.numerator), 2)) if value else None,
    }


def _bound_json(bound: Bound, *, up: bool) -> dict[str, Any]:
    return {
        "kind": "upper bound" if up else "lower bound",
        "exact": fraction_text(bound.value),
        "value": rounded_bound(bound.value, up=up),
        "rule": bound.rule,
    }


def _simulated_json(s: Simulated) -> dict[str, Any]:
    return {
        "kind": "simulated",
        "rounds": s.rounds,
        "seed": s.seed,
        "generator": GENERATOR,
        "rounds_over": s.over,
        "estimate": s.estimate,
        "interval": {
            "confidence": fraction_text(CONFIDENCE),
            "method": INTERVAL,
            "low": s.low,
            "high": s.high,
        },
    }


def table_round_json(report: TableRoundReport) -> dict[str, Any]:
    """``trey risk --seats K --pays-over X --format json``."""
    return {
        "trey_version": __version__,
        "spec_sha256": report.spec.sha256,
        "name": report.spec.name,
        "table_round": {
            "seats": report.seats,
            "pays_over": fraction_text(report.pays_over),
            "total": TOTAL,
            "wagers": [
                {
                    "wager": w.wager,
                    "title": w.title,
                    "exact": _probability_json(w.exact) if w.exact is not None else None,
                    "lower_bound": _bound_json(w.lower, up=False) if w.lower is not None else None,
                    "upper_bound": _bound_json(w.upper, up=True) if w.upper is not None else None,
                    "simulated": _simulated_json(w.simulated) if w.simulated is not None else None,
                }
                for w in report.wagers
            ],
        },
    }
