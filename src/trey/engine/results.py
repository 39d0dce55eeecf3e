"""Typed results of the exact engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from trey.cards.hands import ThreeCardCategory, describe_key, key_category
from trey.engine.stats import NetResult, OutcomeRow, WagerStats
from trey.paytable.model import ANTE_PLAY, GameSpec, StrategyKind
from trey.rules.ante_play import Situation

if TYPE_CHECKING:
    from trey.engine.progressive import ProgressiveAnalysis


@dataclass(frozen=True)
class WagerAnalysis:
    """Every figure of one wager, counted over its whole cycle. A progressive's ``stats`` are with its meter at the
    reset, for a lone bettor (no envy): its ``rtp`` is :attr:`ProgressiveAnalysis.rtp_at_reset`."""

    wager: str  # its id: ante_play, pair_plus, or a side bet's
    title: str
    outcomes: tuple[OutcomeRow, ...]
    net_results: tuple[NetResult, ...]
    stats: WagerStats
    progressive: ProgressiveAnalysis | None = field(default=None, kw_only=True)

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


class Decision(StrEnum):
    """The shape of the player's decisions over the 22,100 hands."""

    EVERY_HAND = "every_hand"  # play every hand
    NO_HAND = "no_hand"  # fold every hand
    AT_LEAST = "at_least"  # play a hand exactly when it is at least as strong as one threshold hand
    HAND_BY_HAND = "hand_by_hand"  # no single threshold


@dataclass(frozen=True)
class StrategyReport:
    """The player's play/fold decisions, structured (the words are :attr:`rule` and :attr:`sentence`, here only)."""

    kind: StrategyKind
    decision: Decision
    threshold_key: int | None  # the weakest hand played, for AT_LEAST
    hands_played: int
    hands_folded: int

    def __post_init__(self) -> None:
        if (self.decision is Decision.AT_LEAST) != (self.threshold_key is not None):
            raise ValueError("a threshold goes with AT_LEAST, and only with it")

    @property
    def rule(self) -> str:
        """Short: ``Q-6-4``, ``pair of 8s, 2 kicker or better``, ``play every hand``."""
        if self.decision is Decision.AT_LEAST:
            assert self.threshold_key is not None
            text = describe_key(self.threshold_key)
            return text if key_category(self.threshold_key) is ThreeCardCategory.HIGH_CARD else f"{text} or better"
        return {
            Decision.EVERY_HAND: "play every hand",
            Decision.NO_HAND: "fold every hand",
            Decision.HAND_BY_HAND: "hand by hand (no single threshold)",
        }[self.decision]

    @property
    def sentence(self) -> str:
        """For a certificate: ``play Q-6-4 or better and fold the rest``."""
        if self.decision is Decision.AT_LEAST:
            assert self.threshold_key is not None
            return f"play {describe_key(self.threshold_key)} or better and fold the rest"
        return {
            Decision.EVERY_HAND: "play every hand",
            Decision.NO_HAND: "fold every hand",
            Decision.HAND_BY_HAND: "decide hand by hand (no single threshold hand)",
        }[self.decision]


@dataclass(frozen=True)
class HandOutcome:
    """One row of Ante & Play's outcomes by the player's hand, as labs' PAR sheets give them: a hand category (the
    mini-royal apart when the Ante Bonus pays it apart), how the round ends, and its net result per Ante with the
    Ante Bonus included."""

    hand: str  # the category's slug (straight_flush ... high_card), or the Ante Bonus row paid apart (mini_royal)
    situation: Situation
    pays: Fraction  # Ante, Play and Ante Bonus together, per Ante
    combinations: int
    cycle: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.cycle)

    @property
    def contribution(self) -> Fraction:
        """Its share of the RTP: probability × (1 + pays), the Ante's stake returned with the net."""
        return self.probability * (1 + self.pays)

    @property
    def expected_net(self) -> Fraction:
        """Probability × pays: the rows add up to E[net] = −house edge."""
        return self.probability * self.pays

    @property
    def one_in(self) -> Fraction | None:
        return Fraction(self.cycle, self.combinations) if self.combinations else None


@dataclass(frozen=True)
class AntePlayAnalysis(WagerAnalysis):
    """Ante & Play's analysis: a wager's, with the player's strategy, the Ante Bonus rows, the average wager and
    the outcomes by the player's hand."""

    strategy: StrategyReport = field(kw_only=True)
    ante_bonus: tuple[OutcomeRow, ...] = field(kw_only=True)
    average_wager: Fraction = field(kw_only=True)
    # Every (hand category, situation) of the strategy's decisions, rows that never happen included: by situation
    # they add up to the outcomes, exactly (checked below).
    by_hand: tuple[HandOutcome, ...] = field(kw_only=True)
    dealer_qualifies: Fraction = field(kw_only=True)  # over every deal, whatever the player decides
    # plays[i]: does the player play hand i of the hand table (the engine's decisions, reused by the simulator)
    plays: npt.NDArray[np.bool_] = field(kw_only=True, compare=False, repr=False)

    def __post_init__(self) -> None:
        super().__post_init__()
        for row in self.outcomes:
            counted = sum(r.combinations for r in self.by_hand if str(r.situation) == row.outcome)
            if counted != row.combinations:
                raise ValueError(f"{self.wager}: the outcomes by hand do not add up to {row.outcome}")

    @property
    def element_of_risk(self) -> Fraction:
        """The house edge per unit of everything wagered (the Ante and the Play)."""
        return self.stats.house_edge / self.average_wager

    @property
    def rarest_win(self) -> OutcomeRow | None:
        """The least likely award, the Ante Bonus rows included."""
        paying = [r for r in (*self.outcomes, *self.ante_bonus) if r.pays > 0 and r.combinations]
        return min(paying, key=lambda r: r.probability) if paying else None


@dataclass(frozen=True)
class GameAnalysis:
    """Every wager of a game counted exactly: what :func:`trey.analyze` returns."""

    spec: GameSpec
    wagers: dict[str, WagerAnalysis]  # by wager id, in the game's order

    @property
    def ante_play(self) -> AntePlayAnalysis | None:
        """Ante & Play's analysis, or None when the game does not offer it."""
        result = self.wagers.get(ANTE_PLAY)
        return result if isinstance(result, AntePlayAnalysis) else None

    @property
    def plays(self) -> npt.NDArray[np.bool_] | None:
        """The strategy's decision for each of the 22,100 player hands (None without Ante & Play): what a
        settlement of dealt rounds plays by."""
        ante = self.ante_play
        return ante.plays if ante is not None else None
