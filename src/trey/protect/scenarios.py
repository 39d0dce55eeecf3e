"""What an informed player may know, as batches of contexts for :func:`~trey.protect.informed.evaluate`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np

from trey.cards.card import Card, rank_label
from trey.cards.hands import IntArray
from trey.protect.informed import ContextCounts, seen_counts

RANKS_HIGH_FIRST = tuple(range(12, -1, -1))
ONE_CARD_CONTEXTS = 52  # the contexts of each scenario, for a progress bar: every card
TWO_CARD_CONTEXTS = 52 * 51 // 2  # every pair of cards


@dataclass(frozen=True)
class CardClasses:
    """A partition of the thirteen ranks into the classes a player can tell one dealer card apart by."""

    name: str
    classes: tuple[tuple[int, ...], ...]  # ranks of each class, highest first

    @property
    def contexts(self) -> int:
        """One context per class."""
        return len(self.classes)

    @property
    def labels(self) -> tuple[str, ...]:
        return tuple(",".join(rank_label(r) for r in ranks) for ranks in self.classes)


ACE_FACE_OTHER = CardClasses("ace-face-other", ((12,), (11, 10, 9), tuple(range(8, -1, -1))))
HIGH_LOW = CardClasses("high-low", ((12, 11, 10), tuple(range(9, -1, -1))))
BUILT_IN_CLASSES = {c.name: c for c in (ACE_FACE_OTHER, HIGH_LOW)}


@cache
def _one_card(card: int, qualifier_key: int) -> IntArray:
    counts = seen_counts((card,), qualifier_key)
    counts.setflags(write=False)
    return counts


def _batch(counts: list[IntArray], seen: tuple[tuple[int, ...], ...] = ()) -> ContextCounts:
    stacked = np.stack(counts)
    return ContextCounts(stacked, stacked.sum(axis=2), seen)


def one_card_contexts() -> Iterator[tuple[str, list[tuple[int, ...]]]]:
    """One dealer card seen exactly: a chart line per rank, its four suits' contexts."""
    for rank in RANKS_HIGH_FIRST:
        yield rank_label(rank), [(Card.of(rank, suit),) for suit in range(4)]


def one_card(qualifier_key: int) -> Iterator[tuple[str, ContextCounts]]:
    """One dealer card seen exactly: a batch per rank (its four suits)."""
    for label, seen in one_card_contexts():
        yield label, _batch([_one_card(card, qualifier_key) for (card,) in seen], tuple(seen))


def card_classes(qualifier_key: int, partition: CardClasses) -> Iterator[tuple[str, ContextCounts]]:
    """Only the class of one dealer card known: one context per class, its cards' counts added (each of them is
    the seen card as often as any other)."""
    for label, ranks in zip(partition.labels, partition.classes, strict=True):
        total = sum(_one_card(Card.of(rank, suit), qualifier_key) for rank in ranks for suit in range(4))
        yield label, _batch([np.asarray(total)])


def two_card_contexts() -> Iterator[tuple[str, list[tuple[int, ...]]]]:
    """Two dealer cards seen: a chart line per pair of ranks, suited and offsuit apart, with its contexts."""
    for high in RANKS_HIGH_FIRST:
        for low in range(high, -1, -1):
            kinds = [("", False)] if high == low else [(" suited", True), (" offsuit", False)]
            for words, suited in kinds:
                seen: list[tuple[int, ...]] = [
                    (Card.of(high, s), Card.of(low, u))
                    for s in range(4)
                    for u in range(4)
                    if (s == u) == suited and (high != low or s < u)
                ]
                yield f"{rank_label(high)}-{rank_label(low)}{words}", seen


def two_cards(qualifier_key: int) -> Iterator[tuple[str, ContextCounts]]:
    """Two dealer cards seen: a batch per pair of ranks, suited and offsuit apart."""
    for label, seen in two_card_contexts():
        yield label, _batch([seen_counts(pair, qualifier_key) for pair in seen], tuple(seen))
