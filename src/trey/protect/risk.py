"""``trey risk`` as a library call: for each wager of a game, under its strategy (the paytable's, another given,
or the informed play of a player who sees a dealer card), how long its edge takes to show, the distribution of a
session's result and the risk of ruin of a bankroll (the mathematics: :mod:`trey.engine.risk`).

Every count a user chooses is bounded: the bankroll (:data:`MAX_BANKROLL` units), the rounds
(:data:`~trey.engine.risk.MAX_ROUNDS`) and the work of each figure (the engine's bounds); a figure beyond its bound
is not computed and says why, the others are.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from typing import Any

from trey.core.errors import TreyError
from trey.core.numbers import fraction_text, outward, rounded_float, sqrt_decimal
from trey.core.version import __version__
from trey.engine import analyze
from trey.engine.results import GameAnalysis
from trey.engine.risk import (
    MAX_ROUNDS,
    EventualRuin,
    NormalSession,
    RiskBoundError,
    RiskFigures,
    RoundsDistribution,
    RuinWithin,
    eventual_ruin,
    normal_session,
    risk_figures,
    rounds_distribution,
    ruin_within,
)
from trey.engine.stats import NetResult
from trey.figures.export import risk_json
from trey.paytable.model import ANTE_PLAY, GameSpec, Strategy, StrategyKind, parse_high_card_hand
from trey.protect.informed import Informed, evaluate
from trey.protect.scenarios import BUILT_IN_CLASSES, card_classes, one_card, two_cards

MAX_BANKROLL = 1_000_000  # units of the initial wager
SESSION_QUANTILES = (Fraction(1, 20), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(19, 20))
SEEN = ("one", "two", *BUILT_IN_CLASSES)  # --seen-card: one dealer card, two, or the class of one


@dataclass(frozen=True)
class WagerRisk:
    """One wager's risk figures under one way of playing it."""

    wager: str
    title: str
    player: str  # how it is played: "the paytable's strategy (optimal)", "one dealer card seen"
    distribution: tuple[NetResult, ...]
    figures: RiskFigures
    session: RoundsDistribution | None
    session_why: str | None  # why the session's distribution is not computed
    ruin: RuinWithin | None
    ruin_why: str | None
    eventual: EventualRuin
    # A session too long to count: the normal approximation with its Berry–Esseen error, and from it a proven
    # lower bound on the ruin within it (the chance of ending the bankroll down, less the error).
    normal: NormalSession | None = None
    ruin_at_least: float | None = None


@dataclass(frozen=True)
class RiskReport:
    spec: GameSpec
    bankroll: Fraction
    rounds: int
    wagers: tuple[WagerRisk, ...]
    loss: Fraction  # the session's loss whose chance is given: P(result <= -loss); the bankroll unless told


def parse_strategy(text: str) -> Strategy:
    """``optimal``, ``mimic-dealer``, ``always-play`` or a high-card hand such as ``Q-6-4`` (play it or better)."""
    kinds = {str(k) for k in StrategyKind if k is not StrategyKind.PLAY_AT_LEAST}
    if text in kinds:
        return Strategy(StrategyKind(text))
    try:
        return Strategy(StrategyKind.PLAY_AT_LEAST, parse_high_card_hand(text))
    except ValueError as exc:
        raise TreyError(
            f"cannot read the strategy {text!r}: {exc}",
            hint=f"give {', '.join(sorted(kinds))} or a high-card hand such as Q-6-4",
        ) from None


def risk(
    spec: GameSpec,
    *,
    bankroll: Fraction,
    rounds: int,
    wager: str | None = None,
    seen: str | None = None,
    strategy: Strategy | None = None,
    loss: Fraction | None = None,
) -> RiskReport:
    """The risk figures of every wager of ``spec`` (or of ``wager``) for a session of ``rounds`` rounds and a
    bankroll of ``bankroll`` units; ``strategy`` replaces the paytable's, ``seen`` (one of :data:`SEEN`) plays Ante
    & Play as a player who sees that much of the dealer's hand (:mod:`trey.protect.informed`); ``loss``: the loss
    whose chance of ending the session at or beyond it is given (the bankroll by default)."""
    if not 0 < bankroll <= MAX_BANKROLL:
        raise TreyError(f"a bankroll of {bankroll} units", hint=f"give more than 0 and at most {MAX_BANKROLL:,} units")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise TreyError(f"{rounds:,} rounds", hint=f"give 1 to {MAX_ROUNDS:,} rounds")
    if loss is not None and not 0 < loss <= MAX_BANKROLL:
        raise TreyError(f"a loss of {loss} units", hint=f"give more than 0 and at most {MAX_BANKROLL:,} units")
    ids = spec.wagers.ids
    if wager is not None and wager not in ids:
        raise TreyError(f"the game has no wager {wager!r}", hint=f"give one of {', '.join(ids)}")
    game = spec.wagers.ante_play
    if (seen is not None or strategy is not None) and game is None:
        raise TreyError(
            "the game has no Ante & Play: no decision to play otherwise", hint="leave out --seen-card and --strategy"
        )
    if seen is not None and strategy is not None:
        raise TreyError("--seen-card plays the informed strategy", hint="give --seen-card or --strategy, not both")
    if seen is not None and wager not in (None, ANTE_PLAY):
        raise TreyError(
            f"a seen dealer card changes Ante & Play's decisions, not {wager}", hint=f"give --wager {ANTE_PLAY}"
        )
    if seen is not None and seen not in SEEN:
        raise TreyError(f"--seen-card {seen!r}", hint=f"give one of {', '.join(SEEN)}")
    if strategy is not None:
        assert game is not None
        spec = replace(spec, wagers=replace(spec.wagers, ante_play=replace(game, strategy=strategy)))
    analysis = analyze(spec)
    chosen = [ANTE_PLAY] if seen is not None else [wager] if wager is not None else list(analysis.wagers)
    results = []
    for name in chosen:
        result = analysis.wagers[name]
        distribution = result.net_results
        player = "every deal counted" if name != ANTE_PLAY else f"strategy: {_strategy_label(spec)}"
        if seen is not None:
            distribution, player = _informed(spec, analysis, seen), _seen_words(seen)
        results.append(_wager_risk(name, result.title, player, distribution, bankroll, rounds))
    return RiskReport(spec, bankroll, rounds, tuple(results), bankroll if loss is None else loss)


def _strategy_label(spec: GameSpec) -> str:
    assert spec.wagers.ante_play is not None
    return spec.wagers.ante_play.strategy.label


def _seen_words(seen: str) -> str:
    if seen == "one":
        return "informed: one dealer card seen"
    if seen == "two":
        return "informed: two dealer cards seen"
    return f"informed: the class of one dealer card ({seen})"


def _informed(spec: GameSpec, analysis: GameAnalysis, seen: str) -> tuple[NetResult, ...]:
    game = spec.wagers.ante_play
    assert game is not None
    ante = analysis.ante_play
    assert ante is not None
    q = spec.rules.dealer_qualifier.minimum_key
    batches = (
        one_card(q) if seen == "one" else two_cards(q) if seen == "two" else card_classes(q, BUILT_IN_CLASSES[seen])
    )
    return evaluate(seen, Informed(game, spec.rules), batches, ante.plays, ante.stats).net_results


def _wager_risk(
    name: str, title: str, player: str, distribution: tuple[NetResult, ...], bankroll: Fraction, rounds: int
) -> WagerRisk:
    session = ruin = None
    session_why = ruin_why = None
    try:
        session = rounds_distribution(distribution, rounds)
    except RiskBoundError as exc:
        session_why = str(exc)
    try:
        ruin = ruin_within(distribution, bankroll, rounds)
    except RiskBoundError as exc:
        ruin_why = str(exc)
    normal = normal_session(distribution, rounds) if session is None else None
    at_least = None
    if ruin is None and normal is not None:
        at_least = max(0.0, normal.at_most(-bankroll) - normal.error)
    return WagerRisk(
        name,
        title,
        player,
        distribution,
        risk_figures(distribution),
        session,
        session_why,
        ruin,
        ruin_why,
        eventual_ruin(distribution, bankroll),
        normal,
        at_least,
    )


def chance_json(value: Fraction | float) -> dict[str, Any]:
    """A probability: ``value`` a float (12 decimals), ``exact`` its fraction when it is exact (long: its
    denominator is a power of the cycle), else null."""
    exact = fraction_text(value) if isinstance(value, Fraction) else None
    return {"value": rounded_float(Fraction(value), 12), "exact": exact}


def session_json(session: RoundsDistribution, loss: Fraction) -> dict[str, Any]:
    """The distribution of a session's result: exact (fractions) or numerical (floats, with the error bound)."""
    mode, mode_probability = session.most_likely()
    return {
        "exact": session.exact,
        "method": "exact convolution" if session.exact else "FFT (float64)",
        "error_bound": 0 if session.exact else float(f"{session.cdf_error:.3g}"),
        "quantiles": [
            {"probability": fraction_text(p), "result": fraction_text(session.quantile(p))} for p in SESSION_QUANTILES
        ],
        "most_likely": {"result": fraction_text(mode), "probability": chance_json(mode_probability)},
        "behind": chance_json(session.below(Fraction(0))),
        "loss": fraction_text(loss),
        "ending_at_loss": chance_json(session.at_most(-loss)),
    }


def normal_session_json(session: NormalSession, loss: Fraction) -> dict[str, Any]:
    """A session too long to count, by the normal approximation: every chance within ``error_bound``, each quantile
    as the bracket the true one lies in."""

    def bracket(p: Fraction) -> dict[str, Any]:
        low, high = session.quantile_bracket(p)
        return {
            "probability": fraction_text(p),
            "at_least": None if low is None else round(low, 1),
            "at_most": None if high is None else round(high, 1),
        }

    return {
        "method": "normal approximation, error by the Berry-Esseen theorem (C = 0.4748)",
        "error_bound": float(f"{session.error:.3g}"),
        "quantiles": [bracket(p) for p in SESSION_QUANTILES],
        "behind": rounded_float(Fraction(session.at_most(Fraction(0))), 12),
        "ending_at_loss": rounded_float(Fraction(session.at_most(-loss)), 12),
    }


def _bound_json(value: Decimal | None, *, up: bool | None = None) -> float | None:
    if value is None:
        return None
    return float(
        outward(value, 7, up=up) if up is not None else value.quantize(Decimal(1).scaleb(value.adjusted() - 6))
    )


def risk_report_json(report: RiskReport) -> dict[str, Any]:
    """``trey risk --format json``."""
    wagers = []
    for w in report.wagers:
        e = w.eventual
        wagers.append(
            {
                "wager": w.wager,
                "title": w.title,
                "player": w.player,
                "player_edge": fraction_text(w.figures.stats.mean),
                "std_dev": rounded_float(sqrt_decimal(w.figures.stats.variance), 4),
                **risk_json(w.figures),
                "session": session_json(w.session, report.loss) if w.session is not None else None,
                "session_not_computed": w.session_why,
                "session_normal": normal_session_json(w.normal, report.loss) if w.normal is not None else None,
                "ruin_within": None
                if w.ruin is None
                else {
                    "exact": w.ruin.exact,
                    "probability": chance_json(w.ruin.probability),
                    "relative_error_bound": float(f"{w.ruin.relative_error:.3g}"),
                },
                "ruin_within_not_computed": w.ruin_why,
                "ruin_within_at_least": None
                if w.ruin_at_least is None
                else rounded_float(Fraction(w.ruin_at_least), 12),
                "ruin_unlimited": {
                    "exact": fraction_text(e.exact) if e.exact is not None else None,
                    "lundberg_lower": _bound_json(e.lower, up=False),
                    "lundberg_upper": _bound_json(e.upper, up=True),
                    "lattice_lower": _bound_json(e.lattice_lower, up=False),
                    "lattice_upper": _bound_json(e.lattice_upper, up=True),
                    "adjustment_coefficient": _bound_json(e.exponent_low),
                    "diffusion_approximation": _bound_json(e.diffusion),
                },
            }
        )
    return {
        "trey_version": __version__,
        "spec_sha256": report.spec.sha256,
        "name": report.spec.name,
        "bankroll": fraction_text(report.bankroll),
        "rounds": report.rounds,
        "ruin": "the running result falls to minus the bankroll or below at the end of a round",
        "wagers": wagers,
    }
