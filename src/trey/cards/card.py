"""Cards: ranks, suits, colours, and parsing of text such as ``"Ah Kd 2c"``.

A card is an ``int`` from 0 to 51: ``rank * 4 + suit``, with rank 0 the deuce and 12 the ace, and suits in the
order clubs, diamonds, hearts, spades. Plain integers keep the engine's numpy arrays and the single-hand code on
one representation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"
SUIT_SYMBOLS = "♣♦♥♠"
DECK_SIZE = 52
ACE = 12


class Colour(IntEnum):
    BLACK = 0
    RED = 1


def card(rank: int, suit: int) -> int:
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"no such card: rank {rank}, suit {suit}")
    return rank * 4 + suit


def rank_of(c: int) -> int:
    return c // 4


def suit_of(c: int) -> int:
    return c % 4


RED_SUITS = (1, 2)  # diamonds and hearts


def colour_of(c: int) -> Colour:
    return Colour.RED if suit_of(c) in RED_SUITS else Colour.BLACK


def rank_from_char(text: str) -> int:
    """``"Q"`` → 10; ``"10"`` and ``"T"`` both name the ten."""
    t = text.strip().upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANK_CHARS:
        raise ValueError(f"not a rank: {text!r} (use 2-9, T or 10, J, Q, K, A)")
    return RANK_CHARS.index(t)


def parse_card(text: str) -> int:
    t = text.strip()
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 'Ah' or '10d')")
    suit = t[-1].lower()
    if suit not in SUIT_CHARS:
        raise ValueError(f"not a suit in {text!r} (use c, d, h or s)")
    return card(rank_from_char(t[:-1]), SUIT_CHARS.index(suit))


def parse_cards(text: str) -> tuple[int, ...]:
    """Parse ``"Ah Kd 2c"`` (spaces or commas between cards); a repeated card is an error."""
    cards = tuple(parse_card(part) for part in text.replace(",", " ").split())
    if len(set(cards)) != len(cards):
        raise ValueError(f"a card appears twice in {text!r}")
    return cards


def card_text(c: int) -> str:
    return RANK_CHARS[rank_of(c)] + SUIT_CHARS[suit_of(c)]


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def rank_label(rank: int) -> str:
    """How a rank is written in hand names such as ``Q-6-4`` (the ten as ``10``)."""
    return "10" if rank == 8 else RANK_CHARS[rank]


def ranks_label(ranks: Sequence[int]) -> str:
    return "-".join(rank_label(r) for r in sorted(ranks, reverse=True))
