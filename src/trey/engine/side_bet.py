"""A side bet, whatever its reading: the exact counts of its reading's classes, paid by its paytable."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.cards.readings import READINGS
from trey.engine.results import WagerAnalysis
from trey.engine.stats import OutcomeRow, distribution_of_rows, stats_of
from trey.paytable.model import OnFold, SideBet

LOSE = "lose"  # the row of every deal a side bet does not pay: the one name for it, everywhere


def analyze_side_bet(bet: SideBet, plays: npt.NDArray[np.bool_] | None) -> WagerAnalysis:
    """``plays``: the player's decision per hand (None without Ante & Play). A bet lost on a fold is counted over
    player/dealer deals, the folded ones lost; any other over its reading's own cycle."""
    reading = READINGS[bet.reads]
    if bet.on_fold is OnFold.LOST and plays is not None and not plays.all():
        cycle, counts, _folded = reading.counts_where_played(plays)
    else:
        cycle, counts = reading.cycle, reading.class_counts()
    return side_bet_of_counts(bet, cycle, counts, plays)


def side_bet_of_counts(
    bet: SideBet, cycle: int, counts: tuple[int, ...], plays: npt.NDArray[np.bool_] | None = None
) -> WagerAnalysis:
    """A side bet's analysis from its reading's class counts over ``cycle`` equally likely deals (the deals it is
    lost on a fold in left out of them: they fall in the lose row); ``plays`` as for :func:`analyze_side_bet`, read
    by a progressive's envy alone."""
    reading = READINGS[bet.reads]
    combinations = [0] * len(bet.pays)
    for reading_class, row in enumerate(reading.paid_by(bet.pays.listed)):
        if row is not None:
            combinations[row] += counts[reading_class]
    rows = [OutcomeRow(outcome, bet.net(pay), combinations[i], cycle) for i, (outcome, pay) in enumerate(bet.pays)]
    rows.append(OutcomeRow(LOSE, Fraction(-1), cycle - sum(combinations), cycle))
    distribution = distribution_of_rows(rows)
    progressive = None
    if bet.progressive is not None:
        from trey.engine.progressive import analyze_progressive  # only progressives need it: keep start-up light

        progressive = analyze_progressive(bet, tuple(rows), plays)
    return WagerAnalysis(bet.id, bet.title, tuple(rows), distribution, stats_of(distribution), progressive=progressive)
