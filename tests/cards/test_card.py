"""Cards are small typed values at the single-hand and report APIs, and the plain ints of the engine's arrays."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from trey.cards.card import Card, Rank, Suit, cards_of, parse_cards


@given(st.integers(0, 51))
def test_a_card_is_its_number_and_reads_back_from_its_text(value: int) -> None:
    c = Card(value)
    assert c == value and int(c) == value
    assert c == Card.of(c.rank, c.suit) == Card.parse(str(c))
    assert (c.rank, c.suit) == (Rank(value // 4), Suit(value % 4))


def test_cards_read_and_print_as_a_dealer_writes_them() -> None:
    ace, ten = parse_cards("Ah 10d")
    assert (ace.rank, ace.suit, str(ace), repr(ten)) == (Rank.ACE, Suit.HEARTS, "Ah", "Card('Td')")
    assert ace.colour.name == "RED" and Suit.SPADES.symbol == "♠"
    assert np.array([ace, ten]).tolist() == [50, 33]  # into the engine's arrays as the ints they are
    assert cards_of(np.array([0, 51])) == (Card.parse("2c"), Card.parse("As"))


@pytest.mark.parametrize("value", [-1, 52])
def test_no_such_card(value: int) -> None:
    with pytest.raises(ValueError, match=f"no such card: {value}"):
        Card(value)
