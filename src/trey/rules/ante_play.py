"""The rules of an Ante & Play round, stated once: how a round ends (its :class:`Situation`), what the Ante and
the Play net in each (:func:`resolution_table`), which Ante Bonus row a hand is paid by, and how a deal's
situation is decided (:func:`situation_of`, deal by deal; :func:`situation_counts`, the same counted per player
hand). The engine counts with these, the settlement settles with them, and the documents word them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import DEALER_HANDS, HANDS, HandTable
from trey.cards.hands import IntArray
from trey.cards.readings import PLAYER_HAND
from trey.paytable.model import STANDARD_ROUND, Paytable, Rules
from trey.rules.round import FOLD, DealClass, Showdown, settle

BoolArray = npt.NDArray[np.bool_]


class Situation(StrEnum):
    """How an Ante & Play round ends, before the Ante Bonus."""

    FOLD = "fold"
    DEALER_NOT_QUALIFY = "dealer_not_qualify"
    WIN = "win"
    TIE = "tie"
    LOSE = "lose"

    @property
    def label(self) -> str:
        """The situation in words, the one name every document gives it: "Player higher"."""
        return {
            Situation.FOLD: "Player folds",
            Situation.DEALER_NOT_QUALIFY: "Dealer does not qualify",
            Situation.WIN: "Player higher",
            Situation.TIE: "Tie",
            Situation.LOSE: "Dealer higher",
        }[self]


@dataclass(frozen=True)
class Resolution:
    """One row of the rules: what the Ante and the Play net (per Ante) in a situation, and the Ante Bonus."""

    situation: Situation
    ante: Fraction
    play: Fraction | None  # None: there is no Play bet (the player folded)
    bonus_paid: bool

    @property
    def net(self) -> Fraction:
        return self.ante + (self.play if self.play is not None else 0)

    @property
    def staked(self) -> int:
        """Antes bet in all: the Ante alone on a fold, Ante and Play otherwise."""
        return 1 if self.play is None else 2

    def round_net(self, bonus: Fraction) -> Fraction:
        """Net result in Antes for a hand whose Ante Bonus pays ``bonus``."""
        return self.net + (bonus if self.bonus_paid else Fraction(0))


# The deal class each played situation of the standard game stands for (a dealer who does not qualify ends the
# round whatever the showdown: the standard round settles every such deal alike).
_DEAL_OF_SITUATION = {
    Situation.DEALER_NOT_QUALIFY: DealClass(qualifies=False, showdown=Showdown.WIN),
    Situation.WIN: DealClass(qualifies=True, showdown=Showdown.WIN),
    Situation.TIE: DealClass(qualifies=True, showdown=Showdown.TIE),
    Situation.LOSE: DealClass(qualifies=True, showdown=Showdown.LOSE),
}


def resolution_table(rules: Rules) -> dict[Situation, Resolution]:
    """How a round of the standard game is settled under ``rules``, by situation: the standard round's
    :func:`~trey.rules.round.settle` (the one statement of the family's settlement), Ante and Play apart."""
    fold = settle(STANDARD_ROUND, rules, FOLD, _DEAL_OF_SITUATION[Situation.LOSE])
    rows = [Resolution(Situation.FOLD, fold.ante, None, not rules.ante_bonus_requires_play)]
    for situation, deal in _DEAL_OF_SITUATION.items():
        nets = settle(STANDARD_ROUND, rules, 1, deal)
        rows.append(Resolution(situation, nets.ante, nets.play, True))
    return {row.situation: row for row in rows}


@dataclass(frozen=True)
class AntePlayOutcome:
    """How one round of Ante & Play ended: its situation and the Ante Bonus row the player's hand is in."""

    situation: Situation
    bonus: str | None  # the listed Ante Bonus row the hand is paid by, None for no bonus hand

    def __str__(self) -> str:
        return str(self.situation) if self.bonus is None else f"{self.situation} with {self.bonus}"


def bonus_columns(ante_bonus: Paytable) -> tuple[str | None, ...]:
    """The Ante Bonus column a hand can fall in: each listed row, then None (no bonus)."""
    return (*ante_bonus.listed, None)


def bonus_column(ante_bonus: Paytable, classes: IntArray) -> IntArray:
    """Each hand's index into :func:`bonus_columns`, from its ``player_hand`` class: the rarest listed row the
    class belongs to, else the last (no bonus)."""
    paid = PLAYER_HAND.paid_by(ante_bonus.listed)
    lookup = np.array([len(ante_bonus) if row is None else row for row in paid], dtype=np.int64)
    columns: IntArray = lookup[classes]
    return columns


def bonus_pays(ante_bonus: Paytable) -> list[Fraction]:
    """The net Ante Bonus of each column (0 for no bonus)."""
    return [odds.net for _, odds in ante_bonus.all_odds] + [Fraction(0)]


@dataclass(frozen=True, eq=False)
class DealerCounts:
    """Per player hand, how its 18,424 dealer hands split when the player plays."""

    not_qualify: IntArray
    player_higher: IntArray
    tie: IntArray
    dealer_higher: IntArray

    def by_situation(self) -> dict[Situation, IntArray]:
        return {
            Situation.DEALER_NOT_QUALIFY: self.not_qualify,
            Situation.WIN: self.player_higher,
            Situation.TIE: self.tie,
            Situation.LOSE: self.dealer_higher,
        }


def situation_counts(table: HandTable, qualifier_key: int) -> DealerCounts:
    """How many of each player hand's dealer hands end in each situation when the player plays, the dealer
    qualifying at ``qualifier_key`` or better: :func:`situation_of` counted in closed form (a test holds the two
    equal over every deal)."""
    keys = table.keys
    below = table.dealer_hands_below(keys)
    below_or_equal = table.dealer_hands_below(keys + 1)
    not_qualify = table.dealer_hands_below(np.full(HANDS, qualifier_key, dtype=np.int64))
    qualifies_at_player_key = keys >= qualifier_key
    return DealerCounts(
        not_qualify=not_qualify,
        player_higher=np.maximum(below - not_qualify, 0),
        tie=np.where(qualifies_at_player_key, below_or_equal - below, 0),
        dealer_higher=DEALER_HANDS - np.maximum(below_or_equal, not_qualify),
    )


SITUATIONS = tuple(Situation)  # the order of resolution_table's rows and of situation_of's indexes


def situation_of(played: BoolArray, player_keys: IntArray, dealer_keys: IntArray, qualifier_key: int) -> IntArray:
    """Each deal's situation, as an index into :data:`SITUATIONS`: a fold, else a dealer who does not qualify
    (below ``qualifier_key``), else the higher hand (equal keys tie)."""
    qualifies = dealer_keys >= qualifier_key
    index = SITUATIONS.index
    chosen: IntArray = np.select(
        [~played, ~qualifies, player_keys > dealer_keys, player_keys == dealer_keys],
        [index(Situation.FOLD), index(Situation.DEALER_NOT_QUALIFY), index(Situation.WIN), index(Situation.TIE)],
        index(Situation.LOSE),
    )
    return chosen
