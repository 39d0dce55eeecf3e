"""The player's decision and a hand's expectation in any game of the Three Card Poker family, stated once (issue 31).

A *cell* is what the player knows when deciding: the player's three cards and the dealer's face-up card, if the
game shows one. Over the dealer's hidden cards, each set equally likely, a cell's deals split into the six
:data:`~trey.rules.round.DEAL_CLASSES` (the dealer qualifies or not; the player's hand higher, equal or lower).
:func:`hidden_counts` counts them for every player hand at once by the hand table's inclusion-exclusion: among all
the dealer hands disjoint from the player's (no card up, 18,424 each), or among those holding the up card (1,128
each), as ``trey protect`` counts a seen card (:meth:`~trey.cards.hand_table.HandTable.dealer_hands_holding_below`).

:class:`Expectations` gives a cell's exact expected value per Ante for every option open to the hand
(:meth:`Expectations.values`: the deals of each class times what :func:`~trey.rules.round.settle` nets in it, the
one statement of a hand's expectation) and the optimal option: the highest expectation, the smaller bet on equal
ones (the fold before any Play bet). :meth:`Expectations.decide` takes that decision for many cells at once, in
exact integer arithmetic (a test holds it equal to the best of :meth:`~Expectations.values`): what every wager
nets a hand in each class depends only on the hand's *group* (its row in each of the game's tables: the Blind, the
Ante Bonus, the Play's and the bad beat's), so per group every option's nets, times their common denominator, are
integers, and an option's value in a cell is the integer dot product of the cell's counts with them.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from trey.cards.hand_table import HANDS, hand_table
from trey.cards.hands import IntArray
from trey.cards.readings import PLAYER_HAND
from trey.cards.readings.player_hand import class_of_hand
from trey.paytable.model import BLIND_OUTCOMES, PLAY_OUTCOMES, Paytable, RoundShape, Rules
from trey.rules.ante_play import bonus_column, bonus_pays
from trey.rules.round import DEAL_CLASSES, FOLD, DealClass, Nets, settle

_ABOVE_EVERY_KEY = 1 << 16
_LIMIT = 2**62  # int64 holds every integer a decision compares below it (see Expectations.scaled_nets)
_MOST_DEALS = math.comb(49, 3)  # the most sets of the dealer's hidden cards a cell is counted over


def deals_per_cell(shape: RoundShape) -> int:
    """The sets of the dealer's hidden cards a cell is counted over: C(49, 3) = 18,424 without a card up, C(48, 2)
    = 1,128 with one."""
    return math.comb(49 - shape.face_up, 3 - shape.face_up)


@lru_cache(maxsize=32)  # 1 MB each: the 13 up cards of one game and its qualifier, and a few more
def hidden_counts(up_card: int | None, qualifier_key: int) -> IntArray:
    """(22100, 6): for every player hand of the hand table, the dealer's hidden-card sets (disjoint from the hand;
    holding ``up_card`` when one is up) by :data:`~trey.rules.round.DEAL_CLASSES`, the dealer qualifying at
    ``qualifier_key`` or better. A hand holding the up card is no cell: its row is 0.

    Six counts of dealer hands below a threshold make them: below the player's key (the player wins), one above
    (wins or ties), the qualifier (the dealer does not qualify), the lower of the two (both), and all."""
    counts = _class_counts(() if up_card is None else (up_card,), qualifier_key)
    counts.setflags(write=False)  # shared by every caller of the cache
    return counts


def _class_counts(seen: tuple[int, ...], qualifier_key: int) -> IntArray:
    """(22100, 6): the dealer hands disjoint from each player hand (holding every card of ``seen``) by class, from
    six counts of dealer hands below a threshold (see :func:`hidden_counts`)."""
    table = hand_table()
    keys = table.keys
    qualifier = np.full(HANDS, qualifier_key, dtype=np.int64)
    thresholds = np.stack(
        [
            keys,
            keys + 1,
            qualifier,
            np.minimum(keys, qualifier),
            np.minimum(keys + 1, qualifier),
            np.full(HANDS, _ABOVE_EVERY_KEY, dtype=np.int64),
        ],
        axis=1,
    )
    below = table.dealer_hands_holding_below(seen, thresholds) if seen else table.dealer_hands_below(thresholds)
    win, win_or_tie, short, short_win, short_win_or_tie, total = below.T  # short: the dealer does not qualify
    counts: IntArray = np.stack(
        [
            short - short_win_or_tie,  # the dealer does not qualify; the player's hand is lower
            short_win_or_tie - short_win,  # ... equal
            short_win,  # ... higher
            total - win_or_tie - (short - short_win_or_tie),  # the dealer qualifies; lower
            win_or_tie - win - (short_win_or_tie - short_win),  # ... equal
            win - short_win,  # ... higher
        ],
        axis=1,
    )
    return counts


def _pay_columns(table: Paytable) -> IntArray:
    """Each hand's row of a table read on the player's hand (the rarest listed row it belongs to), or the table's
    length for a hand no row pays."""
    paid = PLAYER_HAND.paid_by(table.listed)
    lookup = np.array([len(table) if row is None else row for row in paid], dtype=np.int64)
    columns: IntArray = lookup[class_of_hand()]
    return columns


class Expectations:
    """A game's options and what each is worth to a cell, exactly: the one statement of a hand's expectation and of
    the optimal decision, for the engine (and, as the tools deal the family, the settlement, protect and the audit).

    ``options`` are :data:`~trey.rules.round.FOLD` and the Play bets, ascending. Each hand belongs to a *group*: its
    row in the Blind's table, the Ante Bonus's, the Play's and the bad beat's (each table's length for a hand it
    does not list), which fix what those pay it: ``group = ((blind row x bonus rows + bonus row) x play rows + play
    row) x bad-beat rows + bad-beat row``, so that in a game without a Play table or a bad beat it is ``blind row x
    bonus rows + bonus row``."""

    def __init__(self, shape: RoundShape, rules: Rules, ante_bonus: Paytable) -> None:
        self.shape = shape
        self.rules = rules
        self.options: tuple[int, ...] = (FOLD, *shape.multiples)
        self.minimum_keys = np.array([0, *(o.minimum_key for o in shape.options)], dtype=np.int64)
        self.bonus_pays = bonus_pays(ante_bonus)
        empty = Paytable(BLIND_OUTCOMES, ())
        blind = shape.blind if shape.blind is not None else empty
        play = shape.play_pays if shape.play_pays is not None else Paytable(PLAY_OUTCOMES, ())
        bad_beat = shape.bad_beat if shape.bad_beat is not None else Paytable(PLAY_OUTCOMES, ())
        self.blind_pays: list[Fraction | None] = [odds.net for _, odds in blind.all_odds] + [None]
        self.play_pays: list[Fraction | None] = [odds.net for _, odds in play.all_odds] + [None]
        self.bad_beat_pays: list[Fraction | None] = [odds.net for _, odds in bad_beat.all_odds] + [None]
        self.groups = len(self.blind_pays) * len(self.bonus_pays) * len(self.play_pays) * len(self.bad_beat_pays)
        classes = class_of_hand()
        group: IntArray = _pay_columns(blind) * len(self.bonus_pays) + bonus_column(ante_bonus, classes)
        group = (group * len(self.play_pays) + _pay_columns(play)) * len(self.bad_beat_pays) + _pay_columns(bad_beat)
        self.group_of_hand: IntArray = group
        self._scaled: dict[int, tuple[int, IntArray]] = {}
        self._by_hand: tuple[IntArray, npt.NDArray[np.bool_]] | tuple[()] | None = None

    def pays_of_group(self, group: int) -> tuple[Fraction | None, Fraction]:
        """What the Blind (None: no row pays) and the Ante Bonus pay the hands of a group."""
        blind_and_bonus = group // (len(self.play_pays) * len(self.bad_beat_pays))
        blind, bonus = divmod(blind_and_bonus, len(self.bonus_pays))
        return self.blind_pays[blind], self.bonus_pays[bonus]

    def play_pays_of_group(self, group: int) -> tuple[Fraction | None, Fraction | None]:
        """What the Play's table and the bad beat's pay the hands of a group, per unit (None: no row)."""
        play, bad_beat = divmod(group % (len(self.play_pays) * len(self.bad_beat_pays)), len(self.bad_beat_pays))
        return self.play_pays[play], self.bad_beat_pays[bad_beat]

    def nets(self, option: int, deal: DealClass, group: int) -> Nets:
        """What each wager nets a hand of ``group`` taking ``option`` on a deal of class ``deal``
        (:func:`~trey.rules.round.settle` with the group's pays)."""
        blind_pay, bonus = self.pays_of_group(group)
        play_pay, bad_beat_pay = self.play_pays_of_group(group)
        return settle(
            self.shape,
            self.rules,
            option,
            deal,
            blind_pay=blind_pay,
            bonus=bonus,
            play_pay=play_pay,
            bad_beat_pay=bad_beat_pay,
        )

    def scaled_nets(self, group: int) -> tuple[int, IntArray]:
        """``(scale, nets)``: the total each option nets a hand of ``group`` in each class, ``nets[option index,
        class] / scale`` exactly, with ``scale`` the least common denominator; ``nets`` int64 when every value a
        cell can reach (18,424 deals at most) stays below 2^62, else Python integers."""
        if group in self._scaled:
            return self._scaled[group]
        totals = [[self.nets(option, deal, group).total for deal in DEAL_CLASSES] for option in self.options]
        scale = math.lcm(*(net.denominator for row in totals for net in row))
        whole = [[int(net * scale) for net in row] for row in totals]
        largest = max(abs(n) for row in whole for n in row)
        dtype: type | np.dtype[np.int64] = np.dtype(np.int64) if largest * _MOST_DEALS < _LIMIT else object
        self._scaled[group] = scale, np.array(whole, dtype=dtype)
        return self._scaled[group]

    def allowed(self, key: int) -> tuple[int, ...]:
        """The options open to a hand of strength ``key``: the fold, and each Play bet whose requirement it meets."""
        return tuple(o for o, minimum in zip(self.options, self.minimum_keys, strict=True) if key >= minimum)

    def values(self, counts: IntArray | list[int], hand: int) -> dict[int, Fraction]:
        """The exact expected value per Ante of every option open to hand ``hand`` (of the hand table) in a cell
        whose hidden-card sets split as ``counts`` (by :data:`~trey.rules.round.DEAL_CLASSES`)."""
        deals = [int(n) for n in counts]
        total = sum(deals)
        if total <= 0:
            raise ValueError("a cell needs at least one set of the dealer's hidden cards")
        group = int(self.group_of_hand[hand])
        key = int(hand_table().keys[hand])
        return {
            option: sum(
                (n * self.nets(option, deal, group).total for deal, n in zip(DEAL_CLASSES, deals, strict=True)),
                Fraction(0),
            )
            / total
            for option in self.allowed(key)
        }

    def _hand_nets(self) -> tuple[IntArray, npt.NDArray[np.bool_]] | None:
        """``(nets, open)``: each hand's :meth:`scaled_nets` (its group's), (22100, options, 6), and whether the hand
        may take each option, (22100, options); None when some group's nets are not int64."""
        if self._by_hand is None:
            present = np.unique(self.group_of_hand).tolist()  # the groups some hand belongs to
            tables = [self.scaled_nets(group)[1] for group in present]
            if any(t.dtype != np.int64 for t in tables):
                self._by_hand = ()
            else:
                nets: IntArray = np.stack(tables)[np.searchsorted(present, self.group_of_hand)]
                allowed = hand_table().keys[:, None] >= self.minimum_keys[None, :]
                self._by_hand = (nets, allowed)
        return self._by_hand or None

    def decide(self, counts: IntArray, hands: IntArray | None = None) -> IntArray:
        """The optimal option of each cell: ``counts`` (n, 6) its hidden-card sets by class, ``hands`` (n,) its
        player hand (default: the 22,100 hands in order). A row of zeros (no cell) folds.

        Exact: each option's value in a cell times the cell's deals and the scale of the hand's group is the integer
        dot product of the cell's counts with the group's :meth:`scaled_nets` (int64, each hand's row of them taken
        at once; group by group in Python integers when they do not fit); the highest is taken among the options
        the hand may take, the smaller bet on equal values (the fold first)."""
        if hands is None:
            hands = np.arange(HANDS)
        by_hand = self._hand_nets()
        if by_hand is None:
            return self._decide_by_group(counts, hands)
        nets, allowed = by_hand
        options = np.array(self.options, dtype=np.int64)
        cells = len(hands)
        tiled = cells % HANDS == 0 and cells > 0 and _tiles_every_hand(hands)
        if len(self.options) == 2:
            # One Play bet, taken when its value is higher: the difference of two dot products, each below 2^62 in
            # size (scaled_nets), fits int64.
            difference = nets[:, 1, :] - nets[:, 0, :]
            if tiled:
                gain = np.einsum("chk,hk->ch", counts.reshape(-1, HANDS, 6), difference).reshape(-1)
                takes = (gain > 0).reshape(-1, HANDS) & allowed[None, :, 1]
            else:
                takes = (np.einsum("ik,ik->i", counts, difference[hands]) > 0) & allowed[hands, 1]
            chosen: IntArray = np.where(takes.reshape(-1), options[1], options[0])
        else:
            if tiled:
                value = np.einsum("chk,hok->cho", counts.reshape(-1, HANDS, 6), nets).reshape(cells, -1)
                open_ = np.broadcast_to(allowed, (cells // HANDS, *allowed.shape)).reshape(cells, -1)
            else:
                value = np.einsum("ik,iok->io", counts, nets[hands])  # (cells, options)
                open_ = allowed[hands]
            value = np.where(open_, value, np.iinfo(np.int64).min)
            chosen = options[np.argmax(value, axis=1)]  # the first of the highest: the smaller bet on equal values
        return chosen  # a row of zeros values every option at 0: it folds (the first of the highest)

    def _decide_by_group(self, counts: IntArray, hands: IntArray) -> IntArray:
        """:meth:`decide` in Python integers, group by group, for a game whose nets do not all fit int64."""
        keys = hand_table().keys[hands]
        groups = self.group_of_hand[hands]
        chosen = np.full(len(hands), FOLD, dtype=np.int64)
        for group in np.unique(groups).tolist():
            here = np.flatnonzero(groups == group)
            _, nets = self.scaled_nets(int(group))
            cell_counts = counts[here] if nets.dtype == np.int64 else counts[here].astype(object)
            value = cell_counts @ nets.T  # (cells, options)
            best = np.zeros(len(here), dtype=np.int64)  # the option's index; the fold is open to every hand
            best_value = value[:, 0]
            for index in range(1, len(self.options)):
                better = (keys[here] >= self.minimum_keys[index]) & (value[:, index] > best_value)
                best[better] = index
                best_value = np.where(better, value[:, index], best_value)
            chosen[here] = np.array(self.options, dtype=np.int64)[best]
        chosen[counts.sum(axis=1) == 0] = FOLD
        return chosen


def _tiles_every_hand(hands: IntArray) -> bool:
    """Whether ``hands`` are the 22,100 hands in order, once or more times over."""
    return bool((hands.reshape(-1, HANDS) == np.arange(HANDS)).all())


_SUITS = 4
_RANKS = 13
NO_CELL = -1  # in a decision table: the player's hand holds the up card


@lru_cache(maxsize=4)
def _suit_swaps() -> tuple[IntArray, ...]:
    """For each suit s, the hand-table index of every hand with its clubs and its suit-s cards swapped."""
    from trey.cards.hand_table import hand_indexes  # (below the statements above: added for issue 31's tools)

    table = hand_table()
    swaps = []
    for suit in range(_SUITS):
        cards = table.cards.copy()
        ranks, suits = cards // _SUITS, cards % _SUITS
        swapped = np.where(suits == 0, suit, np.where(suits == suit, 0, suits))
        swaps.append(hand_indexes(ranks * _SUITS + swapped))
    return tuple(swaps)


def decision_table(shape: RoundShape, rules: Rules, ante_bonus: Paytable) -> IntArray:
    """The optimal option of every cell, for the settlement of dealt rounds (issue 31): ``(52, 22100)`` with one
    card face up (row: the up card, column: the player's hand of the hand table), ``(1, 22100)`` without; a hand
    holding the up card is :data:`NO_CELL`. Each entry is :meth:`Expectations.decide`'s: the 13 up cards of clubs
    are decided, and the others read by the suits' symmetry (a cell with the up card of suit s takes the option of
    the cell with clubs and suit s swapped in the hand and the up card)."""
    expect = Expectations(shape, rules, ante_bonus)
    qualifier = rules.dealer_qualifier.minimum_key
    if not shape.face_up:
        table: IntArray = expect.decide(hidden_counts(None, qualifier))[None, :].copy()
        return table
    swaps = _suit_swaps()
    table = np.full((_RANKS * _SUITS, HANDS), NO_CELL, dtype=np.int64)
    for rank in range(_RANKS):
        counts = hidden_counts(rank * _SUITS, qualifier)
        chosen = np.where(counts.sum(axis=1) > 0, expect.decide(counts), NO_CELL)
        for suit in range(_SUITS):
            table[rank * _SUITS + suit] = chosen[swaps[suit]]
    table.setflags(write=False)
    return table


def cell_counts(up_cards: IntArray | None, hands: IntArray, qualifier_key: int) -> IntArray:
    """(n, 6): :func:`hidden_counts`' row of each cell, its player hand ``hands[i]`` (of the hand table) against the
    up card ``up_cards[i]`` (None: no card is up), read through the suits' symmetry from the 13 up cards of clubs (so
    that cells of every up card share 13 of the counts' cache)."""
    if up_cards is None:
        rows: IntArray = hidden_counts(None, qualifier_key)[hands]
        return rows
    swaps = _suit_swaps()
    counts = np.zeros((len(hands), 6), dtype=np.int64)
    ranks, suits = up_cards // _SUITS, up_cards % _SUITS
    for rank in np.unique(ranks).tolist():
        table = hidden_counts(int(rank) * _SUITS, qualifier_key)
        for suit in np.unique(suits[ranks == rank]).tolist():
            at = np.flatnonzero((ranks == rank) & (suits == suit))
            counts[at] = table[swaps[int(suit)][hands[at]]]
    return counts


def seen_cell_counts(seen: tuple[int, ...], qualifier_key: int) -> IntArray:
    """(22100, 6): as :func:`hidden_counts`, among the dealer hands holding every card of ``seen`` (one or two: the
    up card and a hole card seen beyond it, for ``trey protect``); ``seen_cell_counts((u,), q)`` is
    ``hidden_counts(u, q)`` (a test holds it). A hand holding a seen card is no cell: its row is 0."""
    return _class_counts(seen, qualifier_key)


def suit_swap(first: int, second: int) -> IntArray:
    """The hand-table index of every hand with its cards of suits ``first`` and ``second`` swapped (the suits'
    symmetry: a cell and its image take the same option and count the same deals)."""
    from trey.cards.hand_table import hand_indexes

    cards = hand_table().cards
    ranks, suits = cards // _SUITS, cards % _SUITS
    swapped = np.where(suits == first, second, np.where(suits == second, first, suits))
    index: IntArray = hand_indexes(ranks * _SUITS + swapped)
    return index
