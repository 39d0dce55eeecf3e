"""The exact engine: every wager's outcome table and figures, counted over every deal, in exact fractions.

Pure functions, no I/O. :func:`analyze` is the one entry point; each wager has its module.
"""

from __future__ import annotations

from trey.engine.ante_play import analyze_ante_play
from trey.engine.pair_plus import analyze_pair_plus
from trey.engine.prime import analyze_prime
from trey.engine.results import AntePlayAnalysis, GameAnalysis, StrategyReport, WagerAnalysis
from trey.engine.six_card import analyze_six_card_bonus
from trey.spec import GameSpec, PairPlusOnFold, WagerName

__all__ = ["AntePlayAnalysis", "GameAnalysis", "StrategyReport", "WagerAnalysis", "analyze"]


def analyze(spec: GameSpec) -> GameAnalysis:
    """Count every deal of every wager the game offers."""
    wagers: dict[WagerName, WagerAnalysis] = {}
    folds = None
    if spec.wagers.ante_play is not None:
        ante_play = analyze_ante_play(spec.wagers.ante_play, spec.rules)
        wagers[WagerName.ANTE_PLAY] = ante_play
        if spec.rules.pair_plus_on_fold is PairPlusOnFold.LOST:
            folds = ~ante_play.plays
    if spec.wagers.pair_plus is not None:
        wagers[WagerName.PAIR_PLUS] = analyze_pair_plus(spec.wagers.pair_plus, folds)
    if spec.wagers.prime is not None:
        wagers[WagerName.PRIME] = analyze_prime(spec.wagers.prime)
    if spec.wagers.six_card_bonus is not None:
        wagers[WagerName.SIX_CARD_BONUS] = analyze_six_card_bonus(spec.wagers.six_card_bonus)
    return GameAnalysis(spec, wagers)
