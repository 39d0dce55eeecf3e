"""Every deal of a game of the Three Card Poker family counted, exactly (issue 31): the figures per Ante, per initial
bet and per total action, and the optimal strategy by face-up card.

A game with one dealer card face up is dealt 52 x 20,825 = 1,082,900 cells (the up card, and a player hand that
does not hold it), each over the 1,128 pairs of the dealer's hidden cards: 1,221,511,200 deals. Without a card up,
the 22,100 player hands are each dealt the 18,424 dealer hands: 407,170,400 deals. Each cell's deals are split by
class (:func:`~trey.engine.decide.hidden_counts`) and settled as the optimal option the cell takes
(:class:`~trey.engine.decide.Expectations`). Suits are symmetric: the four up cards of a rank deal the same
figures (a permutation of the suits maps the cells of one onto those of another, hands' rows and all), so the up
cards of clubs are counted, each four times.

The figures are per Ante, as the family's are published; the initial bet is the Ante and the Blind (two Antes in a
game with a Blind), the total action what is bet in all on a round (the initial bet and the Play bet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import HANDS, hand_indexes, hand_table
from trey.cards.hands import IntArray
from trey.cards.readings import READINGS
from trey.cards.readings.base import Deals, Seat
from trey.engine.decide import Expectations, deals_per_cell, hidden_counts
from trey.engine.results import GameAnalysis, WagerAnalysis
from trey.engine.side_bet import analyze_side_bet, side_bet_of_counts
from trey.engine.stats import NetResult, OutcomeRow, WagerStats, net_distribution, stats_of
from trey.paytable.model import ANTE_PLAY, ANTE_PLAY_TITLE, GameSpec, OnFold, RoundShape, SideBet
from trey.rules.round import DEAL_CLASSES, FOLD, staked

SUITS = 4
RANKS = 13


@dataclass(frozen=True)
class OptionCount:
    """How often an option is taken by the optimal strategy: in how many cells, and over how many deals."""

    option: int  # FOLD (0), or the Play bet in Antes
    cells: int
    deals: int


@dataclass(frozen=True)
class ChartRow:
    """The optimal strategy against one face-up rank (``up_rank`` None: no card is up), over the four suits of the
    up card and every player hand. For each Play bet, ascending: the weakest hand that makes that bet or a larger
    one in some cell (None: none does), and the cells of hands at least as strong that bet less all the same (the
    exceptions the suits make, which a chart by ranks does not show)."""

    up_rank: int | None
    weakest: tuple[int | None, ...]  # strength keys, one per Play bet
    exceptions: tuple[int, ...]  # one per Play bet
    cells: tuple[int, ...]  # one per option, the fold first
    # The chart as a rule by ranks (Stephen How's: "1x from 10-x-x"): per Play bet, the weakest hand from which the
    # rule makes that bet or a larger one, the threshold the optimal choices disagree with in the fewest cells (the
    # weakest such; None: never); and those cells, in both directions (the suits decide them).
    rule: tuple[int | None, ...] = ()
    rule_exceptions: tuple[int, ...] = ()


@dataclass(frozen=True)
class FamilyAnalysis:
    """Every figure of a family game's Ante & Play (and Blind, and Ante Bonus), counted over every deal; ``stats``
    are per Ante: their mean is the player's expected net result per Ante."""

    spec: GameSpec
    stats: WagerStats
    net_results: tuple[NetResult, ...]
    cells: int
    deals_per_cell: int
    options: tuple[OptionCount, ...]
    chart: tuple[ChartRow, ...]
    average_action: Fraction  # Antes bet on a round, on average: the initial bet and the Play bet
    side_bets: tuple[WagerAnalysis, ...]  # the game's side bets, in order, each over its own cycle
    # choices[i, hand]: the option the cell of the i-th counted up card (the clubs, 2 to ace; one row without a card
    # up) and that hand of the hand table takes; -1 for no cell (the hand holds the up card)
    choices: npt.NDArray[np.int64] = field(compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.cells * self.deals_per_cell != self.stats.cycle or sum(o.deals for o in self.options) != self.cycle:
            raise ValueError("a family game's deals do not add up to its cells")

    @property
    def game(self) -> RoundShape:
        return self.spec.game

    def as_wager(self) -> WagerAnalysis:
        """Ante & Play as a wager of the standard game's analyses (for the figures every wager has: house edge, RTP,
        hit frequency, variance, all per Ante): its outcomes are its net results."""
        rows = tuple(OutcomeRow(f"net {r.net}", r.net, r.combinations, self.cycle, staked=1) for r in self.net_results)
        return WagerAnalysis(ANTE_PLAY, ANTE_PLAY_TITLE, rows, self.net_results, self.stats)

    @property
    def side_bet_analysis(self) -> GameAnalysis:
        """The side bets alone, as the standard game's analysis holds its wagers (for their tables and JSON)."""
        return GameAnalysis(self.spec, {bet.wager: bet for bet in self.side_bets})

    @property
    def cycle(self) -> int:
        """Every deal counted."""
        return self.stats.cycle

    @property
    def house_edge_per_ante(self) -> Fraction:
        """The house's expected win per Ante (how the family's house edges are published)."""
        return self.stats.house_edge

    @property
    def initial_bet(self) -> int:
        """Antes bet before the cards are seen: the Ante, and the Blind when the game has one."""
        return self.game.initial_bet

    @property
    def house_edge_per_initial_bet(self) -> Fraction:
        """The house's expected win per unit of the initial bet (Ante and Blind)."""
        return self.house_edge_per_ante / self.initial_bet

    @property
    def element_of_risk(self) -> Fraction:
        """The house's expected win per unit of the total action (every bet of the round, the Play bet included)."""
        return self.house_edge_per_ante / self.average_action


def analyze_family(spec: GameSpec, strategy: npt.NDArray[np.int64] | None = None) -> FamilyAnalysis:
    """Count every deal of ``spec``'s Ante & Play as its round's shape deals it, the player taking the optimal option
    in every cell. The standard game is one such shape: its figures are the standard engine's (a test holds them
    equal). ``strategy``: play these choices instead (:attr:`FamilyAnalysis.choices` of a game of the same round
    and options, another pay's: the solver holds the strategy fixed to find how a pay moves the house edge)."""
    game = spec.wagers.ante_play
    if game is None:
        raise ValueError(f"{spec.name}: a game without Ante & Play has no round to count")
    shape, rules = spec.game, spec.rules
    expect = Expectations(shape, rules, game.ante_bonus)
    qualifier = rules.dealer_qualifier.minimum_key
    keys = hand_table().keys
    options = expect.options
    index_of = {o: i for i, o in enumerate(options)}
    ups: list[int | None] = [rank * SUITS for rank in range(RANKS)] if shape.face_up else [None]
    weight = SUITS if shape.face_up else 1  # each up card of clubs stands for the four of its rank
    deals = np.zeros((len(options) * expect.groups, len(DEAL_CLASSES)), dtype=np.int64)
    cells = np.zeros(len(options), dtype=np.int64)
    choices = np.full((len(ups), HANDS), -1, dtype=np.int64)
    chart = []
    for row, up in enumerate(ups):
        counts = hidden_counts(up, qualifier)
        exists = counts.sum(axis=1) > 0
        choice = expect.decide(counts) if strategy is None else np.where(strategy[row] >= 0, strategy[row], FOLD)
        choices[row, exists] = choice[exists]
        option_index = np.searchsorted(np.array(options), choice)
        np.add.at(deals, (option_index * expect.groups + expect.group_of_hand)[exists], counts[exists])
        taken = np.bincount(option_index[exists], minlength=len(options))
        cells += taken
        chart.append(_chart_row(up, keys, exists, choice, shape.multiples, taken * weight))
    pairs: list[tuple[Fraction, int]] = []
    for flat, by_class in enumerate(deals.tolist()):
        option_position, group = divmod(flat, expect.groups)
        option = options[option_position]
        for deal, n in zip(DEAL_CLASSES, by_class, strict=True):
            if n:
                pairs.append((expect.nets(option, deal, group).total, n * weight))
    distribution = net_distribution(pairs)
    stats = stats_of(distribution)
    per_cell = deals_per_cell(shape)
    taken_by_option = tuple(
        OptionCount(o, int(cells[index_of[o]]) * weight, int(cells[index_of[o]]) * weight * per_cell) for o in options
    )
    action = sum((staked(shape, o.option) * o.deals for o in taken_by_option), 0)
    side_bets = tuple(family_side_bet(spec, bet, choices) for bet in spec.wagers.side_bets)
    return FamilyAnalysis(
        spec,
        stats,
        distribution,
        int(cells.sum()) * weight,
        per_cell,
        taken_by_option,
        tuple(chart),
        Fraction(action, stats.cycle),
        side_bets,
        choices,
    )


@dataclass(frozen=True)
class ChartException:
    """A cell the rule by face-up rank (:attr:`ChartRow.rule`) decides otherwise than the optimal strategy: its
    suits and the up card's decide. ``up_card``: the up card of clubs (each stands for its rank's four, their suits
    permuted; -1 without a card up); ``hand``: its index in the hand table."""

    up_card: int
    hand: int
    rule: int  # the option the rule takes: the largest bet whose weakest hand the hand reaches, else the fold
    option: int  # the option the optimal strategy takes
    # True: the suits decide it (other cells of the same strength against this rank decide otherwise); False: every
    # cell of the hand's strength against this rank decides so, an exception of the ranks the rule does not follow
    by_suits: bool = True


def chart_exceptions(analysis: FamilyAnalysis) -> tuple[ChartException, ...]:
    """Every cell the rule by ranks decides otherwise than the optimal strategy, by up rank, then hand (as protect
    lists the hands a seen card folds at or above the weakest played). Over the four suits of the up card, four
    times as many; :attr:`ChartRow.rule_exceptions` counts them per bet (a cell may break the rule of two bets)."""
    keys = hand_table().keys
    found = []
    for row_index, row in enumerate(analysis.chart):
        choice = analysis.choices[row_index]
        rule = np.full(HANDS, FOLD, dtype=np.int64)
        for multiple, threshold in zip(analysis.game.multiples, row.rule, strict=True):  # ascending: larger wins
            if threshold is not None:
                rule[keys >= threshold] = multiple
        up = row_index * SUITS if row.up_rank is not None else -1
        exists = choice >= 0
        differ = np.flatnonzero(exists & (rule != choice))
        # how many options the cells of each strength take against this rank (over the four suits of the up card,
        # a permutation of the suits maps them onto these cells of the clubs)
        pairs = np.unique(np.stack([keys[exists], choice[exists]], axis=1), axis=0)
        strengths, options_taken = np.unique(pairs[:, 0], return_counts=True)
        decided = dict(zip(strengths.tolist(), options_taken.tolist(), strict=True))
        found += [ChartException(up, int(h), int(rule[h]), int(choice[h]), decided[int(keys[h])] > 1) for h in differ]
    return tuple(found)


def family_side_bet(spec: GameSpec, bet: SideBet, choices: npt.NDArray[np.int64]) -> WagerAnalysis:
    """A side bet beside a family game. The cards it reads do not depend on the player's decision, so a bet that
    stands on a fold is counted as beside the standard game; one lost on a fold is lost in the cells the optimal
    strategy folds: without a card up, the hands it folds (as the standard game's); with one, for a reading of the
    player's own cards, over the 22,100 x 49 cells (a hand and the up card), each hand's class counted in the cells
    it plays. ``choices``: :attr:`FamilyAnalysis.choices`."""
    lost_on_fold = bet.on_fold is OnFold.LOST
    if spec.game.face_up == 0 or not lost_on_fold:
        plays = choices[0] > FOLD if spec.game.face_up == 0 else None
        return analyze_side_bet(bet, plays)
    reading = READINGS[bet.reads]
    if reading.seat is not Seat.PLAYER or bet.progressive is not None or bet.envy:
        raise ValueError(
            f"{bet.id}: lost on a fold beside a face-up card, only a bet on the player's own cards is counted"
        )
    table = hand_table()
    classes = reading.classify(Deals(table.cards, table.cards))  # the dealer's cards are not looked at
    by_class = np.zeros(len(reading.classes), dtype=np.int64)
    np.add.at(by_class, classes, played_cells(choices))
    return side_bet_of_counts(bet, HANDS * (52 - 3), tuple(int(n) for n in by_class))


def played_cells(choices: npt.NDArray[np.int64]) -> IntArray:
    """For each hand of the hand table, the up cards (of all 52) against which the optimal strategy plays it, from
    ``choices`` over the up cards of clubs: the cell (hand h, up card of rank r and suit s) is the cell (hand h with
    suits s and clubs swapped, up card of rank r and clubs), the same deal under a permutation of the suits."""
    table = hand_table()
    playing = (choices > FOLD).sum(axis=0)  # against the clubs, each hand
    total = np.zeros(HANDS, dtype=np.int64)
    for suit in range(SUITS):
        swap = np.arange(52)
        ranks = np.arange(RANKS) * SUITS
        swap[ranks + suit], swap[ranks] = ranks, ranks + suit
        total += playing[hand_indexes(swap[table.cards])]
    return total


def _chart_row(
    up: int | None,
    keys: IntArray,
    exists: npt.NDArray[np.bool_],
    choice: IntArray,
    multiples: tuple[int, ...],
    cells: IntArray,
) -> ChartRow:
    weight = SUITS if up is not None else 1
    weakest: list[int | None] = []
    exceptions = []
    for multiple in multiples:
        playing = exists & (choice >= multiple)
        low = int(keys[playing].min()) if playing.any() else None
        weakest.append(low)
        below = exists & (choice < multiple) & (keys >= low) if low is not None else np.zeros(HANDS, dtype=bool)
        exceptions.append(int(below.sum()) * weight)
    rule: list[int | None] = []
    disagree = []
    for multiple in multiples:
        threshold, misses = _fit(keys[exists], choice[exists] >= multiple)
        rule.append(threshold)
        disagree.append(misses * weight)
    return ChartRow(
        None if up is None else up // SUITS,
        tuple(weakest),
        tuple(exceptions),
        tuple(int(c) for c in cells),
        tuple(rule),
        tuple(disagree),
    )


def _fit(keys: IntArray, bets: npt.NDArray[np.bool_]) -> tuple[int | None, int]:
    """The threshold t of "bet iff the hand's key is at least t" that disagrees with ``bets`` in the fewest cells,
    the weakest such (None: never betting fits best), and the number of cells it disagrees with."""
    levels, level = np.unique(keys, return_inverse=True)
    yes = np.bincount(level[bets], minlength=len(levels))
    no = np.bincount(level[~bets], minlength=len(levels))
    # threshold at levels[i]: the bets below it and the non-bets at or above it; i = len(levels): never
    below = np.concatenate([[0], np.cumsum(yes)])
    at_or_above = no.sum() - np.concatenate([[0], np.cumsum(no)])
    misses = below + at_or_above
    best = int(np.argmin(misses))
    return (int(levels[best]) if best < len(levels) else None), int(misses[best])


__all__ = [
    "FOLD",
    "ChartException",
    "ChartRow",
    "FamilyAnalysis",
    "OptionCount",
    "analyze_family",
    "chart_exceptions",
    "family_side_bet",
    "played_cells",
]
