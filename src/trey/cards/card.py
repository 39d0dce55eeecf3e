"""Cards: ranks, suits, colours, and parsing of text such as ``"Ah Kd 2c"``.

A card is a number from 0 to 51: ``rank * 4 + suit``, with rank 0 the deuce and 12 the ace, and suits in the
order clubs, diamonds, hearts, spades. The vectorised engine keeps them as plain ints in numpy arrays; the
single-hand and report APIs hand out :class:`Card`, a small typed value that *is* that int (so it goes into an
array as it is) and knows its :class:`Rank`, :class:`Suit`, colour and text.
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


class Rank(IntEnum):
    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def char(self) -> str:
        return RANK_CHARS[self]


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]


class Card(int):
    """One card: the int ``rank * 4 + suit`` with its rank, suit, colour and text (``Card.parse("Ah")``)."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < DECK_SIZE:
            raise ValueError(f"no such card: {value}")
        return super().__new__(cls, value)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise ValueError(f"no such card: rank {rank}, suit {suit}")
        return cls(rank * 4 + suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        return parse_card(text)

    @property
    def rank(self) -> Rank:
        return Rank(self // 4)

    @property
    def suit(self) -> Suit:
        return Suit(self % 4)

    @property
    def colour(self) -> Colour:
        return colour_of(self)

    def __str__(self) -> str:
        return self.rank.char + self.suit.char

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


def card(rank: int, suit: int) -> Card:
    return Card.of(rank, suit)


def cards_of(values: Iterable[int]) -> tuple[Card, ...]:
    """Plain ints (a row of the engine's arrays) as cards."""
    return tuple(Card(int(v)) for v in values)


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


def parse_card(text: str) -> Card:
    t = text.strip()
    if len(t) < 2:
        raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. 'Ah' or '10d')")
    suit = t[-1].lower()
    if suit not in SUIT_CHARS:
        raise ValueError(f"not a suit in {text!r} (use c, d, h or s)")
    return card(rank_from_char(t[:-1]), SUIT_CHARS.index(suit))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse ``"Ah Kd 2c"`` (spaces or commas between cards); a repeated card is an error."""
    cards = tuple(parse_card(part) for part in text.replace(",", " ").split())
    if len(set(cards)) != len(cards):
        raise ValueError(f"a card appears twice in {text!r}")
    return cards


def card_text(c: int) -> str:
    return str(Card(c))


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(card_text(c) for c in cards)


def rank_label(rank: int) -> str:
    """How a rank is written in hand names such as ``Q-6-4`` (the ten as ``10``)."""
    return "10" if rank == 8 else RANK_CHARS[rank]


def ranks_label(ranks: Sequence[int]) -> str:
    return "-".join(rank_label(r) for r in sorted(ranks, reverse=True))
