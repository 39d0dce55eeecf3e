"""Hand values: 3-card strength and category, best five of six cards, and colour outcomes.

One statement of hand ranking, used by the exact engine (vectorised over numpy arrays), by the settlement of a
single round and by the simulator. A 3-card hand's *key* is an ``int`` that orders hands exactly as the game
does: a larger key is a stronger hand, equal keys tie (suits never break ties).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from enum import IntEnum
from functools import cache
from itertools import combinations, combinations_with_replacement

import numpy as np
import numpy.typing as npt

from trey.cards.card import ACE, Colour, colour_of, rank_of, ranks_label, suit_of

IntArray = npt.NDArray[np.int64]


class _Category(IntEnum):
    """A hand category: ordered by strength, named in files by its slug."""

    @property
    def slug(self) -> str:
        return self.name.lower()

    @property
    def display_name(self) -> str:
        return self.name.replace("_", " ").capitalize()


class ThreeCardCategory(_Category):
    """3-card categories, weakest first. A straight beats a flush."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5


class SixCardCategory(_Category):
    """Best five-card poker hand out of six cards, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


class ColourOutcome(IntEnum):
    """Prime: how many of the cards share one colour."""

    MIXED = 0
    THREE_SAME_COLOUR = 1
    SIX_SAME_COLOUR = 2


# Key layout: category in bits 12+, then up to three ranks (0..12) of 4 bits each, most significant first.
_CATEGORY_SHIFT = 12


def _pack(category: int, r1: int, r2: int = 0, r3: int = 0) -> int:
    return (category << _CATEGORY_SHIFT) | (r1 << 8) | (r2 << 4) | r3


def key_category(key: int) -> ThreeCardCategory:
    return ThreeCardCategory(key >> _CATEGORY_SHIFT)


def three_card_key(cards: Sequence[int]) -> int:
    """The strength key of one 3-card hand."""
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ValueError(f"a 3-card hand needs three different cards, got {list(cards)}")
    r1, r2, r3 = sorted((rank_of(c) for c in cards), reverse=True)
    flush = len({suit_of(c) for c in cards}) == 1
    if r1 == r2 == r3:
        return _pack(ThreeCardCategory.THREE_OF_A_KIND, r1)
    if r1 == r2 or r2 == r3:
        pair, kicker = (r1, r3) if r1 == r2 else (r2, r1)
        return _pack(ThreeCardCategory.PAIR, pair, kicker)
    top = None
    if r1 - r3 == 2:
        top = r1
    elif (r1, r2, r3) == (ACE, 1, 0):  # A-3-2: the lowest straight, 3-high
        top = 1
    if top is not None:
        category = ThreeCardCategory.STRAIGHT_FLUSH if flush else ThreeCardCategory.STRAIGHT
        return _pack(category, top)
    category = ThreeCardCategory.FLUSH if flush else ThreeCardCategory.HIGH_CARD
    return _pack(category, r1, r2, r3)


def key_categories(keys: IntArray) -> IntArray:
    """Vectorised :func:`key_category`: each key's :class:`ThreeCardCategory` as an int."""
    categories: IntArray = keys >> _CATEGORY_SHIFT
    return categories


def three_card_category(cards: Sequence[int]) -> ThreeCardCategory:
    return key_category(three_card_key(cards))


def is_mini_royal(cards: Sequence[int]) -> bool:
    """A-K-Q suited."""
    return three_card_key(cards) == _pack(ThreeCardCategory.STRAIGHT_FLUSH, ACE)


def high_card_key(ranks: Sequence[int]) -> int:
    """The key of an unsuited high-card hand such as Q-6-4 (ranks 0..12 in any order)."""
    r1, r2, r3 = sorted(ranks, reverse=True)
    if len({r1, r2, r3}) != 3:
        raise ValueError(f"{ranks_label(ranks)} is not a high-card hand: its ranks must differ")
    if r1 - r3 == 2 or (r1, r2, r3) == (ACE, 1, 0):
        raise ValueError(f"{ranks_label(ranks)} is a straight, not a high-card hand")
    return _pack(ThreeCardCategory.HIGH_CARD, r1, r2, r3)


def lowest_key(category: ThreeCardCategory) -> int:
    """The key of the weakest hand of a category (every hand of the category has a key at least this)."""
    return _pack(category, 0)


def describe_key(key: int) -> str:
    """Name a strength as a person would: ``Q-6-4``, ``pair of 8s``, ``straight, 3-high``."""
    category = key_category(key)
    r1, r2, r3 = (key >> 8) & 15, (key >> 4) & 15, key & 15
    if category in (ThreeCardCategory.HIGH_CARD, ThreeCardCategory.FLUSH):
        text = ranks_label((r1, r2, r3))
        return text if category is ThreeCardCategory.HIGH_CARD else f"flush {text}"
    if category is ThreeCardCategory.PAIR:
        return f"pair of {ranks_label((r1,))}s, {ranks_label((r2,))} kicker"
    return f"{category.display_name.lower()}, {ranks_label((r1,))}-high"


def three_card_keys(cards: npt.NDArray[np.integer]) -> IntArray:
    """Vectorised :func:`three_card_key` for an ``(n, 3)`` array of cards."""
    ranks = np.sort(cards // 4, axis=1)[:, ::-1].astype(np.int64)
    suits = cards % 4
    r1, r2, r3 = ranks[:, 0], ranks[:, 1], ranks[:, 2]
    flush = (suits[:, 0] == suits[:, 1]) & (suits[:, 1] == suits[:, 2])
    trips = (r1 == r2) & (r2 == r3)
    pair = ~trips & ((r1 == r2) | (r2 == r3))
    distinct = ~trips & ~pair
    wheel = distinct & (r1 == ACE) & (r2 == 1) & (r3 == 0)
    straight = distinct & ((r1 - r3 == 2) | wheel)
    top = np.where(wheel, 1, r1)

    keys = (np.where(flush, ThreeCardCategory.FLUSH, ThreeCardCategory.HIGH_CARD) << _CATEGORY_SHIFT) | (
        (r1 << 8) | (r2 << 4) | r3
    )
    pair_rank = np.where(r1 == r2, r1, r2)
    kicker = np.where(r1 == r2, r3, r1)
    keys = np.where(pair, (ThreeCardCategory.PAIR << _CATEGORY_SHIFT) | (pair_rank << 8) | (kicker << 4), keys)
    straight_category = np.where(flush, ThreeCardCategory.STRAIGHT_FLUSH, ThreeCardCategory.STRAIGHT)
    keys = np.where(straight, (straight_category << _CATEGORY_SHIFT) | (top << 8), keys)
    keys = np.where(trips, (ThreeCardCategory.THREE_OF_A_KIND << _CATEGORY_SHIFT) | (r1 << 8), keys)
    return keys.astype(np.int64)


# The rank sets of the ten five-card straights, wheel (A-2-3-4-5) first, as bit masks over ranks 0..12.
STRAIGHT_MASKS: tuple[int, ...] = (0b1_0000_0000_1111, *(0b11111 << low for low in range(9)))
ROYAL_MASK = 0b11111 << 8


def _has_straight(rank_mask: int) -> bool:
    return any(rank_mask & m == m for m in STRAIGHT_MASKS)


def five_card_rank_category(rank_counts: Sequence[int]) -> SixCardCategory:
    """The best hand six cards make from their ranks alone (no flush), given the count of each rank."""
    counts = sorted((n for n in rank_counts if n), reverse=True)
    if counts[0] >= 4:
        return SixCardCategory.FOUR_OF_A_KIND
    if counts[0] == 3 and counts[1] >= 2:
        return SixCardCategory.FULL_HOUSE
    mask = sum(1 << r for r, n in enumerate(rank_counts) if n)
    if _has_straight(mask):
        return SixCardCategory.STRAIGHT
    if counts[0] == 3:
        return SixCardCategory.THREE_OF_A_KIND
    if counts[0] == 2:
        return SixCardCategory.TWO_PAIR if counts[1] == 2 else SixCardCategory.PAIR
    return SixCardCategory.HIGH_CARD


def suited_category(suited_mask: int) -> SixCardCategory:
    """The best hand made by five or six cards of one suit, given their ranks as a bit mask."""
    if suited_mask & ROYAL_MASK == ROYAL_MASK:
        return SixCardCategory.ROYAL_FLUSH
    if _has_straight(suited_mask):
        return SixCardCategory.STRAIGHT_FLUSH
    return SixCardCategory.FLUSH


def best_five_category(cards: Sequence[int]) -> SixCardCategory:
    """The category of the best five-card poker hand among six cards."""
    if len(cards) != 6 or len(set(cards)) != 6:
        raise ValueError(f"six different cards needed, got {list(cards)}")
    suits = Counter(suit_of(c) for c in cards)
    suit, n = suits.most_common(1)[0]
    if n >= 5:
        # Five or six cards of one suit leave room for one pair at most, so nothing but a flush
        # (or better) can be the best hand.
        return suited_category(sum(1 << rank_of(c) for c in cards if suit_of(c) == suit))
    rank_counts = [0] * 13
    for c in cards:
        rank_counts[rank_of(c)] += 1
    return five_card_rank_category(rank_counts)


_STRAIGHT_MASK_ARRAY = np.array(STRAIGHT_MASKS, dtype=np.int64)
_RANK_BITS = 1 << np.arange(13, dtype=np.int64)


def _has_straights(rank_masks: IntArray) -> npt.NDArray[np.bool_]:
    has: npt.NDArray[np.bool_] = ((rank_masks[:, None] & _STRAIGHT_MASK_ARRAY) == _STRAIGHT_MASK_ARRAY).any(axis=1)
    return has


def rank_categories(rank_counts: npt.NDArray[np.integer]) -> IntArray:
    """Vectorised :func:`five_card_rank_category` for an ``(n, 13)`` array of rank counts of six cards."""
    ordered = -np.sort(-rank_counts, axis=1)
    first, second = ordered[:, 0], ordered[:, 1]
    straight = _has_straights((rank_counts > 0).astype(np.int64) @ _RANK_BITS)
    return np.select(
        [
            first >= 4,
            (first == 3) & (second >= 2),
            straight,
            first == 3,
            (first == 2) & (second == 2),
            first == 2,
        ],
        [
            SixCardCategory.FOUR_OF_A_KIND,
            SixCardCategory.FULL_HOUSE,
            SixCardCategory.STRAIGHT,
            SixCardCategory.THREE_OF_A_KIND,
            SixCardCategory.TWO_PAIR,
            SixCardCategory.PAIR,
        ],
        SixCardCategory.HIGH_CARD,
    ).astype(np.int64)


def suited_categories(suited_masks: IntArray) -> IntArray:
    """Vectorised :func:`suited_category` for rank bit masks of five or six suited cards."""
    royal = (suited_masks & ROYAL_MASK) == ROYAL_MASK
    straight = _has_straights(suited_masks)
    return np.select(
        [royal, straight],
        [SixCardCategory.ROYAL_FLUSH, SixCardCategory.STRAIGHT_FLUSH],
        SixCardCategory.FLUSH,
    ).astype(np.int64)


# Vectorised best-five: the rank category of six cards depends only on how many distinct ranks they hold, how many
# pairs of cards share a rank (0 for 111111, 1 for 21111, ..., 7 for 42) and whether the distinct ranks hold a
# straight. The table from those three to the category is derived from rank_categories over every multiset of
# ranks, so it restates nothing.
_RANK_BIT = np.array([1 << (c // 4) for c in range(52)], dtype=np.int64)
_SUIT_NIBBLE = np.array([1 << (4 * (c % 4)) for c in range(52)], dtype=np.int64)
_ALL_MASKS = np.arange(1 << 13, dtype=np.int64)
_POPCOUNT = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)
_RANK_BIT_32, _SUIT_NIBBLE_32, _POPCOUNT_32 = (t.astype(np.int32) for t in (_RANK_BIT, _SUIT_NIBBLE, _POPCOUNT))


@cache
def _shape_table() -> IntArray:
    """category[distinct ranks * 32 + equal-rank card pairs * 2 + straight] for six cards."""
    ranks = np.array(list(combinations_with_replacement(range(13), 6)), dtype=np.int64)
    counts = (ranks[:, :, None] == np.arange(13)).sum(axis=1)
    counts = counts[counts.max(axis=1) <= 4]
    presence = (counts > 0).astype(np.int64) @ (1 << np.arange(13, dtype=np.int64))
    shape = _POPCOUNT[presence] * 32 + (counts * (counts - 1) // 2).sum(axis=1) * 2 + _has_straights(presence)
    categories = rank_categories(counts)
    table = np.full(7 * 32, -1, dtype=np.int64)
    table[shape] = categories
    if not np.array_equal(table[shape], categories):
        raise AssertionError("the shape of six ranks does not decide their category")
    return table


@cache
def _straight_table() -> npt.NDArray[np.bool_]:
    return _has_straights(_ALL_MASKS)


@cache
def _suited_table() -> IntArray:
    """The suited category of every 13-bit rank mask (meaningful for masks of five or six ranks)."""
    return suited_categories(_ALL_MASKS)


def best_five_categories(cards: npt.NDArray[np.integer]) -> IntArray:
    """Vectorised :func:`best_five_category` for an ``(n, 6)`` array of cards, by table look-ups."""
    return categories_of_parts(*six_card_parts(cards), lambda rows: cards[rows])


Int32Array = npt.NDArray[np.int32]


def six_card_parts(cards: npt.NDArray[np.integer]) -> tuple[Int32Array, Int32Array, Int32Array]:
    """What :func:`categories_of_parts` reads of ``(n, k)`` cards (k = 6 for six cards; any k for a part of them):
    the mask of ranks present, the number of pairs of cards of equal rank and the suits' code (a nibble per suit
    counting its cards). Of two parts of six cards, the masks OR, the codes add and the pairs add with the pairs
    of equal rank across the parts (a test holds this equal to the six cards' own parts)."""
    # In 32 bits: every mask, count and code below fits (13 rank bits, six nibbles' sums), in half the memory traffic.
    columns = [cards[:, i] for i in range(cards.shape[1])]
    presence = np.zeros(len(cards), dtype=np.int32)
    for c in columns:
        presence = presence | _RANK_BIT_32[c]
    ranks = [c // 4 for c in columns]
    equal_pairs = np.zeros(len(cards), dtype=np.int32)
    for i, j in combinations(range(len(ranks)), 2):
        equal_pairs += ranks[i] == ranks[j]
    suit_code = np.zeros(len(cards), dtype=np.int32)
    for c in columns:
        suit_code += _SUIT_NIBBLE_32[c]
    return presence, equal_pairs, suit_code


def categories_of_parts(
    presence: npt.NDArray[np.int32],
    equal_pairs: npt.NDArray[np.int32],
    suit_code: npt.NDArray[np.int32],
    cards_of: Callable[[IntArray], npt.NDArray[np.integer]],
) -> IntArray:
    """The best-five category of six cards from their :func:`six_card_parts`; ``cards_of(rows)`` gives the six
    cards of the given rows (read only for the rows holding five cards of a suit, which decide by their suited
    cards)."""
    shape = _POPCOUNT_32[presence] * 32 + equal_pairs * 2 + _straight_table()[presence]
    result: IntArray = _shape_table()[shape]
    # A suit holds five or more cards when its nibble reaches 5: adding 3 then sets the nibble's top bit.
    flush_rows = np.flatnonzero((suit_code + 0x3333) & 0x8888)
    if flush_rows.size:
        nibbles = (suit_code[flush_rows, None] >> (4 * np.arange(4))) & 15
        flush_suit = nibbles.argmax(axis=1)
        chosen = np.asarray(cards_of(flush_rows)).astype(np.int64)
        suited = np.where(chosen % 4 == flush_suit[:, None], np.int64(1) << (chosen // 4), 0)
        mask = np.bitwise_or.reduce(suited, axis=1)  # (an OR: a row of repeated cards stays a mask)
        result[flush_rows] = _suited_table()[mask]
    return result


def colour_outcome(player: Sequence[int], dealer: Sequence[int]) -> ColourOutcome:
    colours = {colour_of(c) for c in player}
    if len(colours) != 1:
        return ColourOutcome.MIXED
    (colour,) = colours
    if all(colour_of(c) == colour for c in dealer):
        return ColourOutcome.SIX_SAME_COLOUR
    return ColourOutcome.THREE_SAME_COLOUR


__all__ = [
    "Colour",
    "ColourOutcome",
    "SixCardCategory",
    "ThreeCardCategory",
    "best_five_category",
    "colour_outcome",
    "high_card_key",
    "three_card_category",
    "three_card_key",
    "three_card_keys",
]
