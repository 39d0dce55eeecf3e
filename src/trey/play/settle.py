"""The settlement of rounds: cards and decisions in, the outcome of every wager out.

This is the one statement of how a round is settled. A game of the Three Card Poker family other than the standard
one (issue 31) is settled by :class:`FamilySettler`, which reads every net from :func:`trey.rules.round.settle` and
every decision from :func:`trey.engine.decide.decision_table`. The simulator settles millions of rounds at once with it,
and the dealer sheet's worked hands settle one round with it. Each wager's possible outcomes are listed in an
:class:`OutcomeTable` with their exact net pays; settling a round gives an index into that table, so totals
stay exact (counts times Fractions).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import hand_table
from trey.cards.hands import IntArray
from trey.cards.readings import READINGS, Deals
from trey.cards.readings.base import Reading
from trey.cards.readings.player_hand import class_of_hand
from trey.engine.decide import NO_CELL, Expectations, decision_table
from trey.engine.side_bet import LOSE
from trey.paytable.model import ANTE_PLAY, GameSpec, OnFold, SideBet
from trey.play.payouts import PayRule
from trey.rules import round as family_round
from trey.rules.ante_play import (
    AntePlayOutcome,
    bonus_column,
    bonus_columns,
    bonus_pays,
    resolution_table,
    situation_of,
)

BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class FamilyOutcome:
    """How a round of a family game's Ante & Play ended: the option taken (:data:`~trey.rules.round.FOLD` or the
    Play bet in Antes), the deal's class (None on a fold) and the hand's group (its Blind and Ante Bonus rows,
    :class:`~trey.engine.decide.Expectations`)."""

    option: int
    deal: family_round.DealClass | None
    group: int

    @property
    def words(self) -> str:
        """For people: ``played 3x, the dealer qualifies, the player's hand higher``."""
        if self.deal is None:
            return "folded"
        qualifies = "the dealer qualifies" if self.deal.qualifies else "the dealer does not qualify"
        showdown = {"LOSE": "lower", "TIE": "equal", "WIN": "higher"}[self.deal.showdown.name]
        return f"played {self.option}x, {qualifies}, the player's hand {showdown}"

    def __str__(self) -> str:
        if self.deal is None:
            return f"fold/{self.group}"
        qualifies = "qualifies" if self.deal.qualifies else "does_not_qualify"
        return f"{self.option}x/{qualifies}/{self.deal.showdown.name.lower()}/{self.group}"


# What a round of one wager ended in: Ante & Play's situation and bonus row (a family game's FamilyOutcome), or a
# side bet's paid outcome (or lose).
RoundOutcome = AntePlayOutcome | FamilyOutcome | str


@dataclass(frozen=True)
class OutcomeTable:
    """Every way one wager can end, with its exact net pay and stake per unit of the initial bet."""

    wager: str
    outcomes: tuple[RoundOutcome, ...]
    nets: tuple[Fraction, ...]
    staked: tuple[int, ...]  # units bet in all: 2 for a played Ante & Play (Ante + Play), else 1
    rows: tuple[str, ...]  # the engine's outcome row each outcome is counted in

    def __post_init__(self) -> None:
        if not len(self.outcomes) == len(self.nets) == len(self.staked) == len(self.rows):
            raise ValueError("an outcome table needs a net, a stake and a row for every outcome")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(str(o) for o in self.outcomes)


@dataclass(frozen=True)
class SettledWager:
    """One wager of one round, for people: what happened and what a unit bet nets."""

    wager: str
    outcome: RoundOutcome
    net: Fraction
    staked: int


def _side_bet_table(bet: SideBet, meter: Fraction | None) -> tuple[OutcomeTable, IntArray]:
    """The outcome table of a side bet (meter shares valued at ``meter``, default the reset) and, per class of its
    reading, the outcome it is settled as."""
    outcomes = (*bet.pays.listed, LOSE)
    nets = (*(bet.net(pay, meter) for _, pay in bet.pays), Fraction(-1))
    lose = len(outcomes) - 1
    paid = READINGS[bet.reads].paid_by(bet.pays.listed)
    by_class = np.array([lose if row is None else row for row in paid], dtype=np.int64)
    return OutcomeTable(bet.id, outcomes, nets, (1,) * len(outcomes), outcomes), by_class


@cache
def _every_hand() -> IntArray:
    every = np.arange(len(hand_table().cards))
    every.setflags(write=False)
    return every


class Settler:
    """Settles rounds of one game. ``plays`` is the player's decision for each hand of the hand table (the
    engine's :attr:`~trey.engine.AntePlayAnalysis.plays`); it is required when the game offers Ante & Play.
    ``meters`` values the meter shares of progressive bets (by id; default: each meter's reset)."""

    def __init__(
        self, spec: GameSpec, plays: BoolArray | None = None, meters: Mapping[str, Fraction] | None = None
    ) -> None:
        if spec.wagers.ante_play is not None and plays is None:
            raise ValueError("settling Ante & Play needs the player's decisions")
        self.spec = spec
        self.plays = plays
        self.tables: dict[str, OutcomeTable] = {}
        self._by_class: dict[str, IntArray] = {}
        # For each progressive bet, the outcome indexes that pay a share of its meter.
        self.meter_rows: dict[str, IntArray] = {}
        if spec.wagers.ante_play is not None:
            self.tables[ANTE_PLAY] = self._ante_play_table()
        for bet in spec.wagers.side_bets:
            self.tables[bet.id], self._by_class[bet.id] = _side_bet_table(bet, (meters or {}).get(bet.id))
            if bet.meter_rows:
                self.meter_rows[bet.id] = np.array([bet.pays.listed.index(o) for o in bet.meter_rows], dtype=np.int64)

    def _ante_play_table(self) -> OutcomeTable:
        game = self.spec.wagers.ante_play
        assert game is not None
        outcomes, values, staked, rows = [], [], [], []
        for situation, resolution in resolution_table(self.spec.rules).items():
            for column, pay in zip(bonus_columns(game.ante_bonus), bonus_pays(game.ante_bonus), strict=True):
                outcomes.append(AntePlayOutcome(situation, column))
                values.append(resolution.round_net(pay))
                staked.append(resolution.staked)
                rows.append(str(situation))
        return OutcomeTable(ANTE_PLAY, tuple(outcomes), tuple(values), tuple(staked), tuple(rows))

    def settle(
        self, player: npt.NDArray[np.integer], dealer: npt.NDArray[np.integer], played: BoolArray | None = None
    ) -> dict[str, IntArray]:
        """Outcome index (into ``self.tables[wager].outcomes``) of every wager for ``(n, 3)`` player and dealer
        cards; ``played``: each round's decision as it was taken (an audit), else the strategy's."""
        deals = Deals(player, dealer)
        return self._settle(deals, played, lambda reading: reading.classify(deals))

    def settle_against(self, dealer: int) -> dict[str, IntArray]:
        """:meth:`settle` of every hand of the hand table, in its order, against the one dealer hand ``dealer`` (its
        index in the hand table), played by the strategy: the rows of hands sharing a card with the dealer's are no
        rounds and mean nothing (the whole table's count leaves them out). The side bets read the cards by
        :meth:`~trey.cards.readings.base.Reading.classify_against`."""
        table = hand_table()
        dealt = np.broadcast_to(table.cards[dealer], table.cards.shape)
        deals = Deals(table.cards, dealt, player_hands=_every_hand(), dealer_hands=np.full(len(dealt), dealer))
        return self._settle(deals, None, lambda reading: reading.classify_against(dealer))

    def _settle(
        self, deals: Deals, played: BoolArray | None, classify: Callable[[Reading], IntArray]
    ) -> dict[str, IntArray]:
        table = hand_table()
        player_index = deals.player_hands
        if played is None:
            played = self.plays[player_index] if self.plays is not None else None
        result: dict[str, IntArray] = {}
        game = self.spec.wagers.ante_play
        if game is not None:
            assert played is not None
            player_keys = table.keys[player_index]
            dealer_keys = table.keys[deals.dealer_hands]
            main = situation_of(played, player_keys, dealer_keys, self.spec.rules.dealer_qualifier.minimum_key)
            columns = bonus_column(game.ante_bonus, class_of_hand()[player_index])
            result[ANTE_PLAY] = main * (len(game.ante_bonus) + 1) + columns
        for bet in self.spec.wagers.side_bets:
            index = self._by_class[bet.id][classify(READINGS[bet.reads])]
            if played is not None and bet.on_fold is OnFold.LOST:
                index[~played] = len(self.tables[bet.id].outcomes) - 1  # lose
            result[bet.id] = index
        return result

    def settle_round(self, player: Sequence[int], dealer: Sequence[int]) -> dict[str, SettledWager]:
        """Settle one round (for worked examples): each wager's outcome and net per unit bet."""
        if len(set(player) | set(dealer)) != 6:
            raise ValueError("a round needs six different cards")
        return self.settled(self.settle(np.array([player]), np.array([dealer])), 0)

    def settled(self, outcomes: dict[str, IntArray], row: int) -> dict[str, SettledWager]:
        """Round ``row`` of the result of :meth:`settle`, as typed outcomes and exact nets."""
        result = {}
        for wager, index in outcomes.items():
            table = self.tables[wager]
            i = int(index[row])
            result[wager] = SettledWager(wager, table.outcomes[i], table.nets[i], table.staked[i])
        return result


def ante_play_parts(settled: SettledWager, spec: GameSpec) -> dict[str, Fraction | None]:
    """Ante, Play and Ante Bonus results (per unit Ante) of a settled Ante & Play round, read from the rules'
    resolution table. None for the Play when the player folded, and for the Ante Bonus when none is paid."""
    outcome = settled.outcome
    game = spec.wagers.ante_play
    assert isinstance(outcome, AntePlayOutcome) and game is not None
    resolution = resolution_table(spec.rules)[outcome.situation]
    bonus_odds = game.ante_bonus.odds(outcome.bonus) if outcome.bonus is not None else None
    bonus = bonus_odds.net if bonus_odds is not None and resolution.bonus_paid else None
    if resolution.round_net(bonus or Fraction(0)) != settled.net:  # the settlement's own sum, as a check
        raise AssertionError(f"the rules and the settlement disagree on {outcome}")
    return {"Ante": resolution.ante, "Play": resolution.play, "Ante Bonus": bonus}


def net_row(net: Fraction) -> str:
    """The outcome row a family game's Ante & Play round is counted in: its net per Ante (``net -5``, ``net 9/2``).
    The exact figures of a family game are its distribution of nets, the row a simulation is checked on."""
    return f"net {net.numerator}" if net.denominator == 1 else f"net {net.numerator}/{net.denominator}"


class FamilySettler(Settler):
    """Settles rounds of a game of the Three Card Poker family whose round is not the standard one (issue 31).

    The dealer's first card is the one dealt face up when the game shows one. Each round's option is the optimal
    one of its cell (``choices``: :func:`~trey.engine.decide.decision_table`, computed once per game when not
    given), or, for an audit, the option logged; its nets are :func:`trey.rules.round.settle`'s, per Ante. An
    outcome's index is ``group * (1 + 6 P) + 0`` for a fold, ``+ 1 + 6 p + c`` for the p-th Play bet (from 0) in
    deal class c (:data:`~trey.rules.round.DEAL_CLASSES`), P Play bets offered. A side bet beside it is settled as
    beside the standard game, on its own reading (meter shares valued at ``meters``, by id; default each meter's
    reset), and lost on a fold when its ``on_fold`` says so, the round's option deciding the fold."""

    def __init__(
        self, spec: GameSpec, choices: IntArray | None = None, meters: Mapping[str, Fraction] | None = None
    ) -> None:
        game = spec.wagers.ante_play
        if game is None:
            raise ValueError(f"{spec.name}: a family game is settled through its Ante & Play")
        self.spec = spec
        self.plays = None
        self.shape = spec.game
        self.expect = Expectations(spec.game, spec.rules, game.ante_bonus)
        self.choices = choices if choices is not None else decision_table(spec.game, spec.rules, game.ante_bonus)
        self.meter_rows = {}
        self._by_class = {}
        side_tables = {}
        for bet in spec.wagers.side_bets:
            side_tables[bet.id], self._by_class[bet.id] = _side_bet_table(bet, (meters or {}).get(bet.id))
            if bet.meter_rows:
                self.meter_rows[bet.id] = np.array([bet.pays.listed.index(o) for o in bet.meter_rows], dtype=np.int64)
        self.span = 1 + len(family_round.DEAL_CLASSES) * len(self.shape.multiples)
        outcomes: list[RoundOutcome] = []
        nets: list[Fraction] = []
        staked: list[int] = []
        self.parts: list[family_round.Nets] = []  # by outcome: what each base wager nets, per Ante
        for group in range(self.expect.groups):
            for option in self.expect.options:
                deals = (None,) if option == family_round.FOLD else family_round.DEAL_CLASSES
                for deal in deals:
                    settled = self.expect.nets(option, deal or family_round.DEAL_CLASSES[0], group)
                    outcomes.append(FamilyOutcome(option, deal, group))
                    self.parts.append(settled)
                    nets.append(settled.total)
                    staked.append(family_round.staked(self.shape, option))
        rows = tuple(net_row(net) for net in nets)
        self.tables = {ANTE_PLAY: OutcomeTable(ANTE_PLAY, tuple(outcomes), tuple(nets), tuple(staked), rows)}
        self.tables.update(side_tables)

    def settle_against(self, dealer: int) -> dict[str, IntArray]:
        """Not offered: a family game's rounds are settled by :meth:`settle` (the whole table's count, its only
        caller, refuses other games)."""
        raise NotImplementedError("a family game's rounds are settled by settle()")

    def options_of(self, player: npt.NDArray[np.integer], dealer: npt.NDArray[np.integer]) -> IntArray:
        """The optimal option of each round's cell (``(n, 3)`` player and dealer cards, the dealer's first card
        the one up when the game shows one)."""
        hands = Deals(player, dealer).player_hands
        rows = np.asarray(dealer[:, 0], dtype=np.int64) if self.shape.face_up else np.zeros(len(hands), np.int64)
        options: IntArray = self.choices[rows, hands]
        if (options == NO_CELL).any():
            raise ValueError("a round whose player holds the dealer's up card")
        return options

    def settle(
        self,
        player: npt.NDArray[np.integer],
        dealer: npt.NDArray[np.integer],
        played: npt.NDArray[np.integer] | None = None,  # type: ignore[override]
    ) -> dict[str, IntArray]:
        """Outcome index (into ``self.tables[wager].outcomes``) of each round's wagers; ``played``: each round's
        option as it was taken (an audit: every one must be open to its hand, :meth:`Expectations.allowed`), else
        the optimal one. A side bet lost on a fold is lost on the rounds whose option is the fold."""
        table = hand_table()
        deals = Deals(player, dealer)
        hands = deals.player_hands
        options = self.options_of(player, dealer) if played is None else np.asarray(played, dtype=np.int64)
        player_keys = table.keys[hands]
        dealer_keys = table.keys[deals.dealer_hands]
        option_index = np.searchsorted(np.array(self.expect.options), options)
        known = option_index < len(self.expect.options)
        known[known] = np.array(self.expect.options)[option_index[known]] == options[known]
        allowed = known & (
            player_keys >= self.expect.minimum_keys[np.minimum(option_index, len(self.expect.options) - 1)]
        )
        if not allowed.all():
            raise ValueError("a round's option is not open to its hand")
        qualifies = dealer_keys >= self.spec.rules.dealer_qualifier.minimum_key
        showdown = np.sign(player_keys - dealer_keys)
        deal_class = qualifies.astype(np.int64) * 3 + showdown + 1
        within = np.where(
            options == family_round.FOLD, 0, 1 + (option_index - 1) * len(family_round.DEAL_CLASSES) + deal_class
        )
        result = {ANTE_PLAY: self.expect.group_of_hand[hands] * self.span + within}
        folded = options == family_round.FOLD
        for bet in self.spec.wagers.side_bets:
            index = self._by_class[bet.id][READINGS[bet.reads].classify(deals)]
            if bet.on_fold is OnFold.LOST:
                index[folded] = len(self.tables[bet.id].outcomes) - 1  # lose
            result[bet.id] = index
        return result

    def dues(self, index: int, bet: Fraction, rule: PayRule) -> dict[str, Fraction]:
        """What the dealer pays on outcome ``index`` at an Ante of ``bet``, part by part (:data:`FAMILY_PARTS`): the
        Ante and the Play win or lose whole bets; a Blind or Ante Bonus win is paid by the table's pay rule (rounded
        down to its smallest chip, held to its cap), as every paytable's win is."""
        nets = self.parts[index]
        due = {"ante": nets.ante * bet, "play": nets.play * bet}
        if self.shape.blind is not None:
            due["blind"] = rule.pay(bet, nets.blind).amount if nets.blind > 0 else nets.blind * bet
        due["ante_bonus"] = rule.pay(bet, nets.bonus).amount if nets.bonus > 0 else nets.bonus * bet
        return due


# A family round's net, part by part, as a hand history logs it (the Blind only in a game that has one).
FAMILY_PARTS = ("ante", "play", "blind", "ante_bonus")
