"""The PAR tables of a game of the Three Card Poker family (issue 31), for its certificate: every deal the engine
counted, split by the option the optimal strategy takes and the situation it ends in, and the deals on which the
Blind's and the Ante Bonus's tables pay, row by row.

The split is the engine's own: the decisions of :func:`~trey.engine.family.analyze_family` (its ``choices``) over
the hidden-card counts of every cell (:func:`~trey.engine.decide.hidden_counts`), each deal's nets from
:func:`~trey.rules.round.settle`. Every deal lands in one row; the rows' returns add up to minus the house edge per
Ante, and their net results to the engine's distribution (a test holds both).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from trey.core.numbers import fraction_text
from trey.engine.decide import Expectations, hidden_counts
from trey.engine.family import RANKS, SUITS, FamilyAnalysis
from trey.figures.family import option_name
from trey.rules.round import DEAL_CLASSES, FOLD, DealClass, Showdown


def situation_slug(deal: DealClass | None) -> str:
    """``fold``, ``qualifies_player_higher``, ``does_not_qualify_tie``: a situation as JSON names it."""
    if deal is None:
        return "fold"
    player = {Showdown.WIN: "player_higher", Showdown.TIE: "tie", Showdown.LOSE: "player_lower"}[deal.showdown]
    return f"{'qualifies' if deal.qualifies else 'does_not_qualify'}_{player}"


BELOW_THE_TABLE = "below_the_table"  # a winning Blind whose hand no row pays: it pushes


@dataclass(frozen=True)
class SituationRow:
    """The deals of one option in one situation (``deal`` None: the fold) and what they net the player, in all."""

    option: int
    deal: DealClass | None
    combinations: int
    cycle: int
    net: Fraction  # the sum of the nets of its deals, per Ante

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.cycle)

    @property
    def expected_net(self) -> Fraction:
        """Its share of the player's expected net result per Ante (the rows add up to minus the house edge)."""
        return self.net / self.cycle

    @property
    def average_net(self) -> Fraction | None:
        """What a deal of the row nets on average, per Ante (None: the row never happens)."""
        return self.net / self.combinations if self.combinations else None


@dataclass(frozen=True)
class TableRow:
    """A row of the Blind's or the Ante Bonus's table: how many deals it pays on (``pays`` None: a winning hand
    below the table, which pushes)."""

    row: str
    pays: Fraction | None
    combinations: int
    cycle: int

    @property
    def probability(self) -> Fraction:
        return Fraction(self.combinations, self.cycle)


@dataclass(frozen=True)
class FamilyPar:
    situations: tuple[SituationRow, ...]
    blind: tuple[TableRow, ...]  # empty without a Blind
    ante_bonus: tuple[TableRow, ...]  # the paying rows; empty without an Ante Bonus
    cycle: int


def family_par(family: FamilyAnalysis) -> FamilyPar:
    """Every deal ``family`` counted, by option and situation, and by the rows of its tables."""
    spec = family.spec
    shape, rules = spec.game, spec.rules
    game = spec.wagers.ante_play
    assert game is not None
    expect = Expectations(shape, rules, game.ante_bonus)
    options = expect.options
    ups: list[int | None] = [rank * SUITS for rank in range(RANKS)] if shape.face_up else [None]
    weight = SUITS if shape.face_up else 1
    deals = np.zeros((len(options), expect.groups, len(DEAL_CLASSES)), dtype=np.int64)
    qualifier = rules.dealer_qualifier.minimum_key
    for row, up in enumerate(ups):
        counts = hidden_counts(up, qualifier)
        choice = family.choices[row]
        exists = choice >= 0
        option_index = np.searchsorted(np.array(options), choice[exists])
        np.add.at(deals, (option_index, expect.group_of_hand[exists]), counts[exists])
    deals *= weight
    cycle = family.cycle
    situations = []
    bonus_rows = len(expect.bonus_pays)
    blind_deals = np.zeros(len(expect.blind_pays), dtype=np.int64)
    bonus_deals = np.zeros(bonus_rows, dtype=np.int64)
    wins = np.array([deal.showdown is Showdown.WIN for deal in DEAL_CLASSES])
    for index, option in enumerate(options):
        by_group = deals[index]  # (groups, classes)
        classes: list[DealClass | None] = [None] if option == FOLD else list(DEAL_CLASSES)
        for deal in classes:
            columns = slice(None) if deal is None else DEAL_CLASSES.index(deal)
            combinations, net = 0, Fraction(0)
            for group, n in enumerate(by_group[:, columns].sum(axis=1) if deal is None else by_group[:, columns]):
                if n:
                    nets = expect.nets(option, deal or DEAL_CLASSES[0], group)
                    combinations += int(n)
                    net += int(n) * nets.total
            situations.append(SituationRow(option, deal, combinations, cycle, net))
        per_group = by_group.sum(axis=1)
        if option != FOLD:
            blind_deals += by_group[:, wins].sum(axis=1).reshape(-1, bonus_rows).sum(axis=1)
        if option != FOLD or not rules.ante_bonus_requires_play:
            bonus_deals += per_group.reshape(-1, bonus_rows).sum(axis=0)
    blind: tuple[TableRow, ...] = ()
    if shape.blind is not None:
        names = [name for name, _ in shape.blind.all_odds] + [BELOW_THE_TABLE]
        blind = tuple(
            TableRow(name, pay, int(n), cycle)
            for name, pay, n in zip(names, expect.blind_pays, blind_deals.tolist(), strict=True)
        )
    bonus_names = [name for name, _ in game.ante_bonus.all_odds]
    ante_bonus = tuple(
        TableRow(name, pay, int(n), cycle)
        for name, pay, n in zip(bonus_names, expect.bonus_pays, bonus_deals.tolist(), strict=False)
    )
    par = FamilyPar(tuple(situations), blind, ante_bonus, cycle)
    if sum(r.combinations for r in par.situations) != cycle:
        raise ValueError("a family game's PAR rows do not add up to its cycle")
    return par


def family_par_json(par: FamilyPar) -> dict[str, Any]:
    """The certificate's ``outcomes`` of a family game (schemas/certificate.schema.json)."""
    return {
        "situations": [
            {
                "option": option_name(r.option),
                "situation": situation_slug(r.deal),
                "combinations": r.combinations,
                "net": fraction_text(r.net),
            }
            for r in par.situations
        ],
        "blind": [
            {"row": r.row, "pays": None if r.pays is None else fraction_text(r.pays), "combinations": r.combinations}
            for r in par.blind
        ],
        "ante_bonus": [
            {"row": r.row, "pays": fraction_text(r.pays or Fraction(0)), "combinations": r.combinations}
            for r in par.ante_bonus
        ],
    }
