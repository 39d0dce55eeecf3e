"""The Ante & Play return of a player who knows something of the dealer's cards, exactly.

What the player knows is a *context*: a seen dealer card (one of 52), two seen cards, or the class of one card
(an ace, a face card or another). For each context and each player hand, the dealer hands the player can still
be facing are split by situation (:meth:`~trey.cards.hand_table.HandTable.dealer_hands_holding_below`, the hand
table's inclusion-exclusion among the hands that hold the seen cards). The informed player plays exactly when
playing has the larger expected value given that knowledge (indifference folds, as the engine's optimal
strategy does): the engine's decision, :meth:`trey.engine.decide.Expectations.decide`, stated once. The return
counts every (player hand, dealer hand, seen card) equally, the seen card being any one of the dealer's three.

A context's gain from playing is an integer per hand plus the Ante Bonus: the Ante and Play nets of every
situation are whole numbers of Antes, and the bonus, paid in every played situation, adds ``bonus x hands`` when
it needs the Play bet. So each decision is an exact integer comparison and every figure an exact Fraction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import HANDS, HandTable, hand_table
from trey.cards.hands import IntArray
from trey.cards.readings.player_hand import class_of_hand
from trey.engine.decide import Expectations
from trey.engine.stats import NetResult, WagerStats, net_distribution, stats_of
from trey.paytable.model import STANDARD_ROUND, AntePlay, Rules
from trey.rules.ante_play import Situation, bonus_column, bonus_pays, resolution_table
from trey.rules.round import DEAL_CLASSES, FOLD

BoolArray = npt.NDArray[np.bool_]
PLAYED = (Situation.DEALER_NOT_QUALIFY, Situation.WIN, Situation.TIE, Situation.LOSE)


@dataclass(frozen=True)
class ContextCounts:
    """For a batch of contexts: per context and player hand, the dealer hands by situation when the player plays
    (``counts[context, hand, i]`` for ``PLAYED[i]``) and in all (``totals``; 0 where the context and the hand
    share a card)."""

    counts: IntArray  # (contexts, 22100, 4)
    totals: IntArray  # (contexts, 22100)
    seen: tuple[tuple[int, ...], ...] = ()  # each context's seen cards (empty: a class, no one card)


def situation_split(below: Callable[[IntArray], IntArray], table: HandTable, qualifier_key: int) -> IntArray:
    """(22100, 4): the dealer hands counted by ``below`` (hands with a key under each threshold) split by
    situation, as :func:`~trey.rules.ante_play.situation_counts` splits all of them."""
    keys = table.keys
    total = below(np.full(HANDS, 1 << 16, dtype=np.int64))
    under = below(keys)
    up_to = below(keys + 1)
    not_qualify = below(np.full(HANDS, qualifier_key, dtype=np.int64))
    return np.stack(
        [
            not_qualify,
            np.maximum(under - not_qualify, 0),
            np.where(keys >= qualifier_key, up_to - under, 0),
            total - np.maximum(up_to, not_qualify),
        ],
        axis=1,
    )


def seen_counts(seen: tuple[int, ...], qualifier_key: int) -> IntArray:
    """(22100, 4) for one context of seen cards."""
    table = hand_table()
    return situation_split(lambda t: table.dealer_hands_holding_below(seen, t), table, qualifier_key)


@dataclass(frozen=True)
class Decisions:
    """The informed decisions of a batch of contexts and what they return."""

    plays: BoolArray  # (contexts, 22100)
    pairs: list[tuple[Fraction, int]]  # (net per Ante, how many (hand, dealer hand, seen card) deals give it)
    played: int  # deals on which the player plays
    total: int  # deals counted


class Informed:
    """Decides and counts for one game's Ante & Play under its rules."""

    def __init__(self, game: AntePlay, rules: Rules) -> None:
        self.rules = rules
        self.columns = bonus_column(game.ante_bonus, class_of_hand())  # each hand's Ante Bonus column
        self.bonus = bonus_pays(game.ante_bonus)
        resolution = resolution_table(rules)
        self.fold = resolution[Situation.FOLD]
        self.played_nets = [resolution[s] for s in PLAYED]
        # Whole Antes won or lost by Ante and Play together, per played situation, and on a fold.
        self.base = np.array([int(r.ante + (r.play or 0)) for r in self.played_nets], dtype=np.int64)
        self.bonus_needs_play = not self.fold.bonus_paid
        self.expectations = Expectations(STANDARD_ROUND, rules, game.ante_bonus)

    def plays_of(self, counts: IntArray, hands: IntArray) -> BoolArray:
        """Whether the informed player plays each cell: ``counts`` (n, 4) its dealer hands by :data:`PLAYED`
        situation, ``hands`` (n,) its player hand. The decision is the engine's, the one statement of it
        (:meth:`trey.engine.decide.Expectations.decide`, issue 31): the situations are its deal classes, a dealer who
        does not qualify counted in one of them (the standard round nets the same whatever the showdown then)."""
        classes = np.zeros((len(counts), len(DEAL_CLASSES)), dtype=np.int64)
        classes[:, 0] = counts[:, 0]  # the dealer does not qualify
        classes[:, 5], classes[:, 4], classes[:, 3] = counts[:, 1], counts[:, 2], counts[:, 3]  # win, tie, lose
        chosen = self.expectations.decide(classes, hands)
        plays: BoolArray = chosen != FOLD
        return plays

    def decide(self, batch: ContextCounts) -> Decisions:
        counts, totals = batch.counts, batch.totals
        contexts = len(totals)
        hands = np.tile(np.arange(HANDS, dtype=np.int64), contexts)
        plays = self.plays_of(counts.reshape(-1, len(PLAYED)), hands).reshape(contexts, HANDS)
        plays &= totals > 0
        played_by_hand = np.einsum("chi,ch->hi", counts, plays)  # (22100, 4): each hand's played deals by situation
        folded_by_hand = np.where(plays, 0, totals).sum(axis=0)
        pairs: list[tuple[Fraction, int]] = []
        for column, pay in enumerate(self.bonus):
            in_column = self.columns == column
            played_here = played_by_hand[in_column].sum(axis=0)
            for i, resolution in enumerate(self.played_nets):
                pairs.append((resolution.round_net(pay), int(played_here[i])))
            pairs.append((self.fold.round_net(pay), int(folded_by_hand[in_column].sum())))
        return Decisions(plays, pairs, int(totals[plays].sum()), int(totals.sum()))


@dataclass(frozen=True)
class Tell:
    """Decisions of the informed player that differ from the normal strategy's, for one seen card or class."""

    seen: str  # the seen card's rank, or the class, in words
    plays_below: int  # deals where the informed player plays a hand the normal strategy folds
    folds_above: int  # deals where the informed player folds a hand the normal strategy plays


@dataclass(frozen=True)
class Chart:
    """The informed strategy for one seen card (any suit) or class: the weakest hand played, and how many of the
    hands above it are folded anyway (card removal: 0 for a plain threshold). No hand is played below the weakest
    played, by its definition: there is no count of those (trey 0.4.0 wrote one, always 0)."""

    seen: str
    weakest_played: int | None  # a key; None when nothing is played
    folded_above: int  # (context, hand) pairs at or above the weakest played hand that fold


@dataclass(frozen=True)
class InformedPlay:
    scenario: str
    stats: WagerStats  # per Ante: mean = the player's edge, over every (player, dealer, seen card) deal
    average_wager: Fraction  # Ante and Play per Ante: 1 + P(play)
    normal: WagerStats  # the game's own figures, for the gain
    tells: tuple[Tell, ...]
    chart: tuple[Chart, ...]
    # Per player hand, over every context: the deals counted, and those on which the informed player plays.
    hand_deals: IntArray
    hand_played: IntArray
    # The decisions of every context of seen cards (what a side bet lost on a fold returns follows from them).
    seen: tuple[tuple[int, ...], ...] = ()
    plays: BoolArray | None = None
    # The distribution of the informed player's net result per Ante (its risk figures: trey.engine.risk).
    net_results: tuple[NetResult, ...] = ()

    @property
    def gain(self) -> Fraction:
        """What the information is worth, per Ante: the informed return less the normal one."""
        return self.stats.mean - self.normal.mean


def evaluate(
    scenario: str,
    informed: Informed,
    batches: Iterator[tuple[str, ContextCounts]],
    normal_plays: BoolArray,
    normal: WagerStats,
    advance: Callable[[int], None] | None = None,
) -> InformedPlay:
    """Decide every batch of contexts (a batch: the contexts one chart line covers, such as the four suits of a
    seen rank) and gather the exact figures, the chart and the tells; ``advance`` is told the number of contexts
    of each batch when it is done (a progress bar)."""
    keys = hand_table().keys
    pairs: list[tuple[Fraction, int]] = []
    played = total = 0
    tells, charts = [], []
    hand_deals = np.zeros(HANDS, dtype=np.int64)
    hand_played = np.zeros(HANDS, dtype=np.int64)
    seen: list[tuple[int, ...]] = []
    all_plays: list[BoolArray] = []
    for label, batch in batches:
        decisions = informed.decide(batch)
        pairs += decisions.pairs
        played += decisions.played
        total += decisions.total
        valid = batch.totals > 0
        plays, weight = decisions.plays, batch.totals
        hand_deals += weight.sum(axis=0)
        hand_played += np.where(plays, weight, 0).sum(axis=0)
        if batch.seen:
            seen += batch.seen
            all_plays.append(plays)
        tells.append(
            Tell(
                label,
                int(weight[plays & ~normal_plays & valid].sum()),
                int(weight[~plays & normal_plays & valid].sum()),
            )
        )
        weakest = int(keys[np.nonzero(plays)[1]].min()) if plays.any() else None
        at_or_above = keys >= weakest if weakest is not None else np.zeros(HANDS, dtype=bool)
        charts.append(Chart(label, weakest, int((~plays & at_or_above & valid).sum())))
        if advance is not None:
            advance(len(batch.totals))
    distribution = net_distribution(pairs)
    stats = stats_of(distribution)
    average = 1 + Fraction(played, total)
    decisions_kept = np.concatenate(all_plays) if all_plays else None
    return InformedPlay(
        scenario,
        stats,
        average,
        normal,
        tuple(tells),
        tuple(charts),
        hand_deals,
        hand_played,
        tuple(seen),
        decisions_kept,
        distribution,
    )
