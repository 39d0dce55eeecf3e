"""Typed results of the exact engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.engine.stats import NetResult, OutcomeRow, WagerStats
from trey.spec import GameSpec, StrategyKind, WagerName


@dataclass(frozen=True)
class WagerAnalysis:
    """Every figure of one wager, counted over its whole cycle."""

    wager: WagerName
    outcomes: tuple[OutcomeRow, ...]
    net_results: tuple[NetResult, ...]
    stats: WagerStats

    def __post_init__(self) -> None:
        if sum(row.combinations for row in self.outcomes) != self.stats.cycle:
            raise ValueError(f"{self.wager}: the outcomes do not add up to the cycle")
        if sum(r.combinations for r in self.net_results) != self.stats.cycle:
            raise ValueError(f"{self.wager}: the net results do not add up to the cycle")

    @property
    def cycle(self) -> int:
        return self.stats.cycle

    @property
    def largest_win(self) -> Fraction:
        return max(r.net for r in self.net_results)

    @property
    def rarest_win(self) -> OutcomeRow | None:
        """The least likely paying outcome (for the 1-in-100-million award check)."""
        paying = [r for r in self.outcomes if r.pays > 0 and r.combinations]
        return min(paying, key=lambda r: r.probability) if paying else None


@dataclass(frozen=True)
class StrategyReport:
    """The player's play/fold decisions in words and counts."""

    kind: StrategyKind
    rule: str  # "Q-6-4" when the decision is a threshold, else a description
    threshold_key: int | None  # the weakest hand played, when the decision is a threshold
    hands_played: int
    hands_folded: int


@dataclass(frozen=True)
class AntePlayAnalysis(WagerAnalysis):
    strategy: StrategyReport = field(kw_only=True)
    ante_bonus: tuple[OutcomeRow, ...] = field(kw_only=True)
    average_wager: Fraction = field(kw_only=True)
    # plays[i]: does the player play hand i of the hand table (the engine's decisions, reused by the simulator)
    plays: npt.NDArray[np.bool_] = field(kw_only=True, compare=False, repr=False)

    @property
    def element_of_risk(self) -> Fraction:
        return self.stats.house_edge / self.average_wager

    @property
    def rarest_win(self) -> OutcomeRow | None:
        """The least likely award, the Ante Bonus rows included."""
        paying = [r for r in (*self.outcomes, *self.ante_bonus) if r.pays > 0 and r.combinations]
        return min(paying, key=lambda r: r.probability) if paying else None


@dataclass(frozen=True)
class GameAnalysis:
    spec: GameSpec
    wagers: dict[WagerName, WagerAnalysis]

    @property
    def ante_play(self) -> AntePlayAnalysis | None:
        result = self.wagers.get(WagerName.ANTE_PLAY)
        return result if isinstance(result, AntePlayAnalysis) else None
