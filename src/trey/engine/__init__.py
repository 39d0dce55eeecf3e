"""The exact engine: every wager's outcome table and figures, counted over every deal, in exact fractions.

Pure functions, no I/O. :func:`analyze` is the one entry point: Ante & Play has its module, every side bet is
counted by :mod:`trey.engine.side_bet` from its reading.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from trey.engine.ante_play import analyze_ante_play
from trey.engine.results import AntePlayAnalysis, Decision, GameAnalysis, StrategyReport, WagerAnalysis
from trey.engine.side_bet import analyze_side_bet
from trey.paytable.model import ANTE_PLAY, GameSpec, refuse_other_games

# What the standard game's engine says of another game of the family, which it would count wrongly.
OTHER_GAMES_HINT = "trey.engine.family.analyze_family counts it (trey analyze)"

__all__ = [
    "AntePlayAnalysis",
    "Decision",
    "GameAnalysis",
    "StrategyReport",
    "WagerAnalysis",
    "analyze",
    "analyze_side_bet",
    "player_decisions",
]


def analyze(
    spec: GameSpec, checkpoint: Callable[[], None] | None = None, *, reuse: GameAnalysis | None = None
) -> GameAnalysis:
    """Count every deal of every wager the game offers. ``checkpoint``, when given, is called before each wager is
    counted and may raise to abandon the analysis (the workbench's, when its client has gone). ``reuse``, when
    given, is an analysis made before: a wager counted from the same things is taken from it rather than counted
    again (Ante & Play of an equal Ante & Play under equal rules; a side bet equal to one of its own, under an equal
    Ante & Play and rules, which decide its folds): the workbench's edit changes one wager of several. A game other
    than standard Three Card Poker is refused (:func:`~trey.engine.family.analyze_family` counts it)."""
    refuse_other_games(spec, "the standard game's analysis", hint=OTHER_GAMES_HINT)
    wagers: dict[str, WagerAnalysis] = {}
    plays = None
    counted = reuse.wagers if reuse is not None else {}
    before = reuse.spec if reuse is not None else None
    # A side bet lost on a fold is counted with the player's decisions: the same only with the same Ante & Play.
    same_plays = (
        before is not None
        and before.wagers.ante_play == spec.wagers.ante_play
        and (spec.wagers.ante_play is None or before.rules == spec.rules)
    )
    if checkpoint is not None:
        checkpoint()
    if spec.wagers.ante_play is not None:
        known = counted.get(ANTE_PLAY) if same_plays else None
        if isinstance(known, AntePlayAnalysis):
            ante_play = known
        else:
            ante_play = analyze_ante_play(spec.wagers.ante_play, spec.rules)
        wagers[ANTE_PLAY] = ante_play
        plays = ante_play.plays
    bets_before = {bet.id: bet for bet in before.wagers.side_bets} if same_plays and before is not None else {}
    for bet in spec.wagers.side_bets:
        if checkpoint is not None:
            checkpoint()
        if bets_before.get(bet.id) == bet and bet.id in counted:
            wagers[bet.id] = counted[bet.id]
        else:
            wagers[bet.id] = analyze_side_bet(bet, plays)
    return GameAnalysis(spec, wagers)


def player_decisions(spec: GameSpec) -> npt.NDArray[np.bool_] | None:
    """The player's play/fold decision per hand, as :func:`analyze` derives it (None without Ante & Play): the
    side bets lost on a fold are counted with it, so whoever counts one side bet alone must pass it. A game other
    than standard Three Card Poker is refused: its decisions are not one per hand."""
    refuse_other_games(spec, "the standard game's decisions", hint=OTHER_GAMES_HINT)
    if spec.wagers.ante_play is None:
        return None
    return analyze_ante_play(spec.wagers.ante_play, spec.rules).plays
