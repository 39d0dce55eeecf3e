"""The analysis as JSON-ready data: the ``trey analyze --format json`` contract (schemas/analysis.schema.json).

Every exact figure is a fraction string in lowest terms; the few irrational figures (standard deviation,
volatility index) are numbers rounded once to 4 decimals.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from trey.core.numbers import fraction_text, rounded_float, sqrt_decimal
from trey.core.version import __version__
from trey.engine.results import AntePlayAnalysis, GameAnalysis, HandOutcome, WagerAnalysis
from trey.engine.risk import RiskFigures, risk_figures
from trey.engine.stats import OutcomeRow, WagerStats
from trey.figures.registry import ANTE_PLAY_FIGURES, RANGE_PLACES, STD_DEV, WAGER_FIGURES, rtp_ranges
from trey.figures.theo import TheoreticalWin, theoretical_win

if TYPE_CHECKING:
    from trey.engine.progressive import ProgressiveAnalysis


def outcome_json(row: OutcomeRow) -> dict[str, Any]:
    return {
        "outcome": row.outcome,
        "pays": fraction_text(row.pays),
        "combinations": row.combinations,
        "probability": fraction_text(row.probability),
    }


def hand_outcome_json(row: HandOutcome) -> dict[str, Any]:
    return {
        "hand": row.hand,
        "outcome": str(row.situation),
        "pays": fraction_text(row.pays),
        "combinations": row.combinations,
        "probability": fraction_text(row.probability),
    }


def rtp_range_json(stats: WagerStats) -> list[dict[str, Any]]:
    """The realised RTP's range after each session length, at 90% and 95% (schemas/analysis.schema.json)."""
    return [
        {
            "rounds": r.rounds,
            "confidence": r.confidence,
            "low": rounded_float(r.low, RANGE_PLACES),
            "high": rounded_float(r.high, RANGE_PLACES),
        }
        for r in rtp_ranges(stats)
    ]


def wager_json(result: WagerAnalysis, meter: Fraction | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "title": result.title,
        **{figure.name: figure.json(result) for figure in WAGER_FIGURES},
        "outcomes": [outcome_json(row) for row in result.outcomes],
        "net_results": [{"net": fraction_text(r.net), "combinations": r.combinations} for r in result.net_results],
        "rtp_range": rtp_range_json(result.stats),
        "risk": risk_json(risk_figures(result.net_results)),
    }
    if result.progressive is not None:
        data["progressive"] = progressive_json(result.progressive)
        if meter is not None:
            data["progressive"]["at_meter"] = {
                "meter": fraction_text(meter),
                "rtp_at_meter": fraction_text(result.progressive.rtp_at(meter)),
            }
    if isinstance(result, AntePlayAnalysis):
        data["ante_bonus"] = [outcome_json(row) for row in result.ante_bonus]
        data.update({figure.name: figure.json(result) for figure in ANTE_PLAY_FIGURES})
        data["by_hand"] = [hand_outcome_json(row) for row in result.by_hand]
        data["strategy"] = {
            "kind": str(result.strategy.kind),
            "decision": str(result.strategy.decision),
            "rule": result.strategy.rule,
            "hands_played": result.strategy.hands_played,
            "hands_folded": result.strategy.hands_folded,
        }
    return data


def risk_json(figures: RiskFigures) -> dict[str, Any]:
    """A wager's ``risk`` section (schemas/analysis.schema.json): N0, the desirability index, the most likely
    outcome of one round."""
    cycle = figures.stats.cycle
    return {
        "n0": fraction_text(figures.n0) if figures.n0 is not None else None,
        "desirability_index": rounded_float(figures.desirability_index, 4),
        "most_likely": [
            {"net": fraction_text(r.net), "probability": fraction_text(Fraction(r.combinations, cycle))}
            for r in figures.most_likely
        ],
    }


def _stats_json(stats: WagerStats) -> dict[str, Any]:
    return {
        "rtp": fraction_text(stats.rtp),
        "hit_frequency": fraction_text(stats.hit_frequency),
        "variance": fraction_text(stats.variance),
        "std_dev": rounded_float(sqrt_decimal(stats.variance), STD_DEV.places),
    }


def progressive_json(p: ProgressiveAnalysis) -> dict[str, Any]:
    """A progressive's figures against its meter (schemas/analysis.schema.json, ``progressive``)."""

    def maybe(value: Fraction | None) -> str | None:
        return fraction_text(value) if value is not None else None

    return {
        "stake": fraction_text(p.stake),
        "reset": fraction_text(p.reset),
        "increment": fraction_text(p.increment),
        "other_bettors": p.other_bettors,
        "rtp_formula": {
            "fixed": fraction_text(p.fixed),
            "envy_per_other_bettor": fraction_text(p.envy_per_bettor),
            "per_unit_of_meter": fraction_text(p.meter_coefficient),
        },
        "rtp_at_reset": fraction_text(p.rtp_at_reset),
        "rtp_at_reset_with_envy": fraction_text(p.rtp_at_reset_with_envy),
        "break_even_meter": maybe(p.break_even()),
        "break_even_meter_with_envy": maybe(p.break_even(p.other_bettors)),
        "long_run_rtp": fraction_text(p.long_run_rtp),
        "long_run_rtp_with_envy": fraction_text(p.long_run_rtp_with_envy),
        "jackpot_probability": fraction_text(p.jackpot_probability),
        "at_reset": _stats_json(p.stats_at_reset),
        "at_break_even": _stats_json(p.stats_at_break_even) if p.stats_at_break_even is not None else None,
        "envy_table": [
            {
                "other_bettors": row.other_bettors,
                "rtp_at_reset": fraction_text(row.rtp_at_reset),
                "break_even_meter": maybe(row.break_even_meter),
                "long_run_rtp": fraction_text(row.long_run_rtp),
            }
            for row in p.envy_table()
        ],
    }


def theo_json(theo: TheoreticalWin) -> dict[str, Any]:
    data: dict[str, Any] = {
        "average_bet": fraction_text(theo.average_bet),
        "average_bet_given": theo.average_bet_given,
        "decisions_per_hour": theo.decisions_per_hour,
        "decisions_per_hour_default": theo.decisions_per_hour_default,
        "per_hour": fraction_text(theo.per_hour),
    }
    if theo.average_action is not None:
        data["average_action"] = fraction_text(theo.average_action)
    return data


def analysis_json(analysis: GameAnalysis, meter: Fraction | None = None) -> dict[str, Any]:
    return {
        "trey_version": __version__,
        "spec_sha256": analysis.spec.sha256,
        "name": analysis.spec.name,
        "wagers": {
            str(name): {**wager_json(result, meter), "theoretical_win": theo_json(theoretical_win(result, analysis))}
            for name, result in analysis.wagers.items()
        },
    }
