"""The settlement of rounds: cards and decisions in, the outcome of every wager out.

This is the one statement of how a round is settled. The simulator settles millions of rounds at once with it,
and the dealer sheet's worked hands settle one round with it. Each wager's possible outcomes are listed in an
:class:`OutcomeTable` with their exact net pays; settling a round gives an index into that table, so totals
stay exact (counts times Fractions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from trey.cards import RED_SUITS
from trey.engine.ante_play import (
    BONUS_COLUMNS,
    DEALER_NOT_QUALIFY,
    FOLD,
    LOSE,
    NO_BONUS,
    OUTCOMES,
    TIE,
    WIN,
    bonus_column,
    round_net,
    staked_units,
)
from trey.engine.hand_table import hand_table
from trey.engine.pair_plus import pair_plus_outcomes
from trey.engine.six_card import paid_outcome
from trey.hands import IntArray, SixCardCategory, best_five_categories
from trey.spec import GameSpec, PairPlusOnFold, Paytable, WagerName

BoolArray = npt.NDArray[np.bool_]
_IS_RED = np.array([c % 4 in RED_SUITS for c in range(52)], dtype=np.int8)


@dataclass(frozen=True)
class OutcomeTable:
    """Every way one wager can end, with its exact net pay and stake per unit of the initial bet."""

    wager: WagerName
    names: tuple[str, ...]
    nets: tuple[Fraction, ...]
    staked: tuple[int, ...]  # units bet in all: 2 for a played Ante & Play (Ante + Play), else 1
    rows: tuple[str, ...]  # the engine's outcome row each outcome is counted in

    def __post_init__(self) -> None:
        if not len(self.names) == len(self.nets) == len(self.staked) == len(self.rows):
            raise ValueError("an outcome table needs a net, a stake and a row for every outcome")


@dataclass(frozen=True)
class SettledWager:
    """One wager of one round, for people: what happened and what a unit bet nets."""

    wager: WagerName
    outcome: str
    net: Fraction
    staked: int


@cache
def _hand_index_lookup() -> IntArray:
    """Hand-table index of every ordered triple of cards, by ``a * 2704 + b * 52 + c`` (-1 for repeated cards)."""
    lookup = np.full(52**3, -1, dtype=np.int64)
    cards = hand_table().cards
    index = np.arange(len(cards), dtype=np.int64)
    for a, b, c in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        lookup[cards[:, a] * 2704 + cards[:, b] * 52 + cards[:, c]] = index
    return lookup


def hand_indexes(cards: npt.NDArray[np.integer]) -> IntArray:
    """Hand-table index of each row of an ``(n, 3)`` array of cards."""
    c = cards.astype(np.int64)
    indexes: IntArray = _hand_index_lookup()[c[:, 0] * 2704 + c[:, 1] * 52 + c[:, 2]]
    return indexes


class Settler:
    """Settles rounds of one game. ``plays`` is the player's decision for each hand of the hand table (the
    engine's :attr:`~trey.engine.AntePlayAnalysis.plays`); it is required when the game offers Ante & Play."""

    def __init__(self, spec: GameSpec, plays: BoolArray | None = None) -> None:
        if spec.wagers.ante_play is not None and plays is None:
            raise ValueError("settling Ante & Play needs the player's decisions")
        self.spec = spec
        self.plays = plays
        self.tables: dict[WagerName, OutcomeTable] = {}
        if spec.wagers.ante_play is not None:
            self.tables[WagerName.ANTE_PLAY] = self._ante_play_table()
        for wager in (WagerName.PAIR_PLUS, WagerName.PRIME, WagerName.SIX_CARD_BONUS):
            paytable: Paytable | None = getattr(spec.wagers, wager.value)
            if paytable is not None:
                names = (*(name for name, _ in paytable), "lose")
                nets = (*(odds.net for _, odds in paytable), Fraction(-1))
                self.tables[wager] = OutcomeTable(wager, names, nets, (1,) * len(names), names)
        if spec.wagers.six_card_bonus is not None:
            names = self.tables[WagerName.SIX_CARD_BONUS].names
            self._six_card_index = np.array(
                [names.index(paid_outcome(spec.wagers.six_card_bonus, c) or "lose") for c in SixCardCategory]
            )

    def _ante_play_table(self) -> OutcomeTable:
        game = self.spec.wagers.ante_play
        assert game is not None
        names, values, staked, rows = [], [], [], []
        for outcome in OUTCOMES:
            for column in BONUS_COLUMNS:
                odds = game.ante_bonus.get(column) if column != NO_BONUS else None
                names.append(outcome if column == NO_BONUS else f"{outcome}+{column}")
                values.append(round_net(self.spec.rules, outcome, odds.net if odds is not None else Fraction(0)))
                staked.append(staked_units(outcome))
                rows.append(outcome)
        return OutcomeTable(WagerName.ANTE_PLAY, tuple(names), tuple(values), tuple(staked), tuple(rows))

    def settle(self, player: npt.NDArray[np.integer], dealer: npt.NDArray[np.integer]) -> dict[WagerName, IntArray]:
        """Outcome index (into ``self.tables[wager].names``) of every wager for ``(n, 3)`` player and dealer cards."""
        table = hand_table()
        player_index = hand_indexes(player)
        player_keys = table.keys[player_index]
        played = self.plays[player_index] if self.plays is not None else None
        result: dict[WagerName, IntArray] = {}
        if WagerName.ANTE_PLAY in self.tables:
            assert played is not None
            dealer_keys = table.keys[hand_indexes(dealer)]
            qualifies = dealer_keys >= self.spec.rules.dealer_qualifier.minimum_key
            main = np.select(
                [~played, ~qualifies, player_keys > dealer_keys, player_keys == dealer_keys],
                [OUTCOMES.index(o) for o in (FOLD, DEALER_NOT_QUALIFY, WIN, TIE)],
                OUTCOMES.index(LOSE),
            )
            result[WagerName.ANTE_PLAY] = main * len(BONUS_COLUMNS) + bonus_column(player_keys)
        if self.spec.wagers.pair_plus is not None:
            outcomes = pair_plus_outcomes(self.spec.wagers.pair_plus, player_keys)
            index = np.full(len(player_keys), len(outcomes), dtype=np.int64)  # lose
            for i, (_, hits) in reversed(list(enumerate(outcomes))):
                index[hits] = i
            if played is not None and self.spec.rules.pair_plus_on_fold is PairPlusOnFold.LOST:
                index[~played] = len(outcomes)
            result[WagerName.PAIR_PLUS] = index
        if self.spec.wagers.prime is not None:
            result[WagerName.PRIME] = self._prime(player, dealer)
        if self.spec.wagers.six_card_bonus is not None:
            categories = best_five_categories(np.concatenate([player, dealer], axis=1))
            result[WagerName.SIX_CARD_BONUS] = self._six_card_index[categories]
        return result

    def _prime(self, player: npt.NDArray[np.integer], dealer: npt.NDArray[np.integer]) -> IntArray:
        names = self.tables[WagerName.PRIME].names
        player_red = _IS_RED[player].sum(axis=1)
        dealer_red = _IS_RED[dealer].sum(axis=1)
        one_colour = (player_red == 0) | (player_red == 3)
        six = one_colour & (dealer_red == player_red)
        index = np.full(len(player), names.index("lose"), dtype=np.int64)
        if "three_same_colour" in names:
            index[one_colour] = names.index("three_same_colour")
        if "six_same_colour" in names:
            index[six] = names.index("six_same_colour")
        return index

    def settle_round(self, player: Sequence[int], dealer: Sequence[int]) -> dict[WagerName, SettledWager]:
        """Settle one round (for worked examples): each wager's outcome and net per unit bet."""
        if len(set(player) | set(dealer)) != 6:
            raise ValueError("a round needs six different cards")
        return self.settled(self.settle(np.array([player]), np.array([dealer])), 0)

    def settled(self, outcomes: dict[WagerName, IntArray], row: int) -> dict[WagerName, SettledWager]:
        """Round ``row`` of the result of :meth:`settle`, in words and exact nets."""
        result = {}
        for wager, index in outcomes.items():
            table = self.tables[wager]
            i = int(index[row])
            result[wager] = SettledWager(wager, table.names[i], table.nets[i], table.staked[i])
        return result
