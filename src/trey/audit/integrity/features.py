"""What the deal-integrity tests count in each round, computed for a batch of rounds (vectorised over decks) and
then summed into the counts of each group the battery runs on (:class:`~trey.audit.integrity.battery.Counts`).

Relative to the input, a deck is read as ``relative[t]``: where the card at deck position t was in the input
(0 = the input's top card), and ``position[i]``: where input card i is in the deck.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from trey.audit.deals import DealRecords
from trey.cards.hand_table import hand_indexes, hand_table
from trey.cards.hands import best_five_categories, key_categories

IntArray = npt.NDArray[np.int64]
Order = npt.NDArray[np.int8]  # (decks, 52) positions 0-51: an eighth of the memory of int64


def _scatter(index: npt.NDArray[np.integer]) -> Order:
    """``out[r, index[r, t]] = t`` for every row r: the inverse of each row's permutation."""
    n, size = index.shape
    flat = (np.arange(n, dtype=np.intp) * size)[:, None] + index.astype(np.intp)
    out = np.empty(n * size, dtype=np.int8)
    out[flat.ravel()] = np.tile(np.arange(size, dtype=np.int8), n)
    return out.reshape(n, size)


def relative_order(decks: npt.NDArray[np.integer], inputs: npt.NDArray[np.integer]) -> Order:
    """``relative[r, t]``: the input position of the card at deck position t."""
    n, size = decks.shape
    where = _scatter(inputs)  # where[r, card]: the card's input position
    flat = (np.arange(n, dtype=np.intp) * size)[:, None] + decks.astype(np.intp)
    result: Order = where.ravel()[flat]
    return result


def inverse(relative: Order) -> Order:
    """``position[r, i]``: the deck position of input card i."""
    return _scatter(relative)


def rising_sequences(position: Order) -> IntArray:
    """The rising sequences of each deck: 1 + how many input cards lie above the one before them in the input."""
    result: IntArray = 1 + (position[:, 1:] < position[:, :-1]).sum(axis=1)
    return result


def turning_points(decks: npt.NDArray[np.integer]) -> IntArray:
    """Each deck's rank turning points: a card whose rank is strictly above both neighbours' or below both."""
    r = decks.astype(np.int8) // 4
    a, b, c = r[:, :-2], r[:, 1:-1], r[:, 2:]
    result: IntArray = (((b > a) & (b > c)) | ((b < a) & (b < c))).sum(axis=1)
    return result


def _highest(x: npt.NDArray[np.uint64]) -> IntArray:
    """The highest set bit of each mask (-1 for none): the exponent of the mask as a float."""
    exponent = x.astype(np.float64).view(np.int64) >> 52  # exact: masks below 2^53 convert exactly
    result: IntArray = np.where(exponent == 0, -1, exponent - 1023)  # 0.0 has exponent bits 0: no bit set
    return result


def _lowest(x: npt.NDArray[np.uint64]) -> IntArray:
    return _highest(x & (~x + np.uint64(1)))


STRATEGIES = ("riffle", "shelf")


def guessing_scores(relative: Order, strategy: str) -> IntArray:
    """How many cards of each deck a guesser names right who knows the input and is shown each card after guessing
    it, always guessing a card not yet shown:

    - ``"riffle"`` (riffled decks are interleaved rising sequences of the input): the next card up in the input
      after the one just shown that is not yet shown, else the lowest not yet shown;
    - ``"shelf"`` (one shelf pass is packets each going down then up in input order, Diaconis–Fulman–Holmes): first
      the input's bottom card; going down (the last card below the one before, or the first), the next card down
      not yet shown, else the next up; going up, the next card up, else the highest not yet shown (a new shelf).
    """
    return guessing_both(relative)[STRATEGIES.index(strategy)]


def guessing_both(relative: Order) -> tuple[IntArray, IntArray]:
    """:func:`guessing_scores` of both strategies, in one pass over the decks.

    On bit masks of the cards not yet shown (card c: bit c): a guess is one bit of them, found with as few steps a
    card as can be, since every step is one pass over the decks. The lowest bit of a mask x is ``x & -x``; the
    highest is read from x as a float (exact: below 2^53), its exponent kept and its mantissa cleared: 2^(highest
    bit) as a float. A guess is right when its bit is the card's (no bit: no guess, never right)."""
    n, size = relative.shape
    if size > 52:
        raise ValueError("a deck of at most 52 cards")
    one = np.uint64(1)
    full = np.uint64((1 << size) - 1)
    bit = one << np.arange(size + 1, dtype=np.uint64)
    bit_float = bit[:size].astype(np.float64)
    above_mask = full & ~(bit[1:] - one)  # the cards above c
    exponent = np.int64(0x7FF << 52)
    columns = np.ascontiguousarray(relative.T).astype(np.intp)
    unseen = np.full(n, full, dtype=np.uint64)
    riffle = np.zeros(n, dtype=np.int64)
    shelf = np.zeros(n, dtype=np.int64)
    last = columns[0]
    riffle += last == 0
    shelf += last == size - 1
    unseen ^= bit[last]
    down = np.ones(n, dtype=bool)
    for t in range(1, size):
        card = columns[t]
        shown = bit[card]
        above = unseen & above_mask[last]  # not yet shown, above the last card shown
        below = unseen ^ above  # and below it (the last card is shown)
        any_above = above != 0
        # riffle: the lowest card above the last, else the lowest of all
        pick = np.where(any_above, above, unseen)
        riffle += (pick & -pick) == shown
        # shelf: going down, the highest card below the last, else the lowest above; going up, the lowest card
        # above, else the highest of all
        lowest_above = (above & -above).astype(np.float64)
        highest_below = (below.astype(np.float64).view(np.int64) & exponent).view(np.float64)
        highest = (unseen.astype(np.float64).view(np.int64) & exponent).view(np.float64)
        going_down = np.where(below != 0, highest_below, lowest_above)
        going_up = np.where(any_above, lowest_above, highest)
        shelf += np.where(down, going_down, going_up) == bit_float[card]
        down = card < last
        unseen ^= shown
        last = card
    return riffle, shelf


@functools.cache
def _categories() -> IntArray:
    """The ThreeCardCategory of every hand of the hand table."""
    return key_categories(hand_table().keys)


def three_card_categories(hands: npt.NDArray[np.integer]) -> IntArray:
    """The category of each row of an ``(n, 3)`` array of cards, by the hand table's look-up."""
    result: IntArray = _categories()[hand_indexes(hands)]
    return result


@dataclass(frozen=True)
class RoundFeatures:
    """Per round (decks and inputs, when logged) and per seat, what the tests count."""

    records: DealRecords
    position: Order | None  # (rounds, 52): where each input card is in the deck, with decks and inputs
    first_source: IntArray | None  # (rounds,): the input position of the deck's first card
    rising: IntArray | None
    turning: IntArray | None
    adjacent: IntArray | None  # input neighbours still next to each other in the deck
    guess_riffle: IntArray | None
    guess_shelf: IntArray | None
    packet_pairs: IntArray | None  # input neighbours dealt into one hand (inputs and hands)
    hands: IntArray  # (rounds,) hands dealt in the round: its seats and the dealer
    seat_category: IntArray  # (seats,) ThreeCardCategory of each seat's hand
    dealer_category: IntArray  # (rounds,)
    six_category: IntArray  # (seats,) SixCardCategory of each seat's and the dealer's six cards
    seat_lowest: IntArray  # (seats,) position (0-2) of the lowest card in the hand as dealt
    dealer_lowest: IntArray  # (rounds,)


CHUNK = 1 << 16  # rounds whose features are computed at once: what they need of memory, bounded


def _part(records: DealRecords, start: int, stop: int) -> dict[str, npt.NDArray[Any]]:
    """The features of rounds ``start`` to ``stop`` (their seats are contiguous: ``seat_round`` is in order)."""
    decks = None if records.decks is None else records.decks[start:stop]
    inputs = None if records.inputs is None else records.inputs[start:stop]
    first, last = np.searchsorted(records.seat_round, [start, stop])
    seat_round = records.seat_round[first:last] - start
    seat_cards = records.seats[first:last]
    dealer = records.dealer[start:stop]
    rounds = stop - start
    out: dict[str, npt.NDArray[Any]] = {}
    if decks is not None:
        out["turning"] = turning_points(decks)
        if inputs is not None:
            relative = relative_order(decks, inputs)
            position = inverse(relative)
            out["position"] = position
            out["first_source"] = relative[:, 0].astype(np.int64)
            out["rising"] = rising_sequences(position)
            out["adjacent"] = (np.abs(np.diff(position, axis=1)) == 1).sum(axis=1).astype(np.int64)
            out["guess_riffle"], out["guess_shelf"] = guessing_both(relative)
    if inputs is not None:
        # Each card's hand in its round (-1: not dealt), then whether input neighbours share one.
        hand_of = np.full((rounds, 52), -1, dtype=np.int16)
        hand_of[np.arange(rounds)[:, None], dealer.astype(np.intp)] = 0
        seat_index = np.arange(len(seat_round)) - np.searchsorted(seat_round, seat_round)
        hand_of[seat_round[:, None], seat_cards.astype(np.intp)] = (1 + seat_index)[:, None]
        in_order = np.take_along_axis(hand_of, inputs.astype(np.intp), axis=1)
        same = (in_order[:, 1:] == in_order[:, :-1]) & (in_order[:, 1:] >= 0)
        out["packet_pairs"] = same.sum(axis=1).astype(np.int64)
    six = np.concatenate([seat_cards, dealer[seat_round]], axis=1)
    out["seat_category"] = three_card_categories(seat_cards)
    out["dealer_category"] = three_card_categories(dealer)
    out["six_category"] = best_five_categories(six) if len(six) else np.zeros(0, dtype=np.int64)
    out["seat_lowest"] = seat_cards.argmin(axis=1).astype(np.int64)
    out["dealer_lowest"] = dealer.argmin(axis=1).astype(np.int64)
    return out


def features(records: DealRecords) -> RoundFeatures:
    """Every round's features, computed :data:`CHUNK` rounds at a time."""
    parts = [_part(records, a, min(a + CHUNK, records.rounds)) for a in range(0, records.rounds, CHUNK)]
    joined = {key: np.concatenate([p[key] for p in parts]) for key in (parts[0] if parts else {})}
    empty = np.zeros(0, dtype=np.int64)
    return RoundFeatures(
        records=records,
        position=joined.get("position"),
        first_source=joined.get("first_source"),
        rising=joined.get("rising"),
        turning=joined.get("turning"),
        adjacent=joined.get("adjacent"),
        guess_riffle=joined.get("guess_riffle"),
        guess_shelf=joined.get("guess_shelf"),
        packet_pairs=joined.get("packet_pairs"),
        hands=1 + np.bincount(records.seat_round, minlength=records.rounds).astype(np.int64),
        seat_category=joined.get("seat_category", empty),
        dealer_category=joined.get("dealer_category", empty),
        six_category=joined.get("six_category", empty),
        seat_lowest=joined.get("seat_lowest", empty),
        dealer_lowest=joined.get("dealer_lowest", empty),
    )
