"""The shuffle models: each gives permutations, each has the structure its model says, names are checked."""

from __future__ import annotations

import numpy as np
import pytest

from trey.cards.shuffles import Shuffle, new_deck_order, parse_shuffle

MODELS = ("fisher-yates", "riffle:1", "riffle:7", "shelf:10", "naive-swap", "packet-bias:0.5")


@pytest.mark.parametrize("name", MODELS)
def test_every_model_gives_permutations_of_its_input(name: str) -> None:
    rng = np.random.default_rng(3)
    inputs = rng.permuted(new_deck_order(50), axis=1)
    decks = Shuffle(name).shuffle(rng, inputs)
    assert decks.dtype == np.int8 and decks.shape == (50, 52)
    assert (np.sort(decks, axis=1) == np.arange(52)).all()


def _input_positions(decks: np.ndarray) -> np.ndarray:
    return decks.astype(np.int64)  # fed a new deck: a card's number is its input position


def test_one_riffle_is_two_interleaved_rising_sequences() -> None:
    """After one riffle every input card but the cut's first lies below the one before it in the input."""
    decks = _input_positions(Shuffle("riffle:1").shuffle(np.random.default_rng(1), new_deck_order(200)))
    rising = 1 + (np.diff(np.argsort(decks, axis=1), axis=1) < 0).sum(axis=1)
    assert rising.max() == 2


def test_one_shelf_pass_is_at_most_s_valleys() -> None:
    """Each shelf's packet reads down then up in input order: a deck of at most S such runs."""
    decks = _input_positions(Shuffle("shelf:4").shuffle(np.random.default_rng(2), new_deck_order(200)))
    for deck in decks:
        valleys, going_up = 1, False
        for a, b in zip(deck[:-1].tolist(), deck[1:].tolist(), strict=True):
            if b > a:
                going_up = True
            elif going_up:  # down after up: a new shelf
                valleys, going_up = valleys + 1, False
        assert valleys <= 4


def test_packet_bias_of_one_puts_every_packets_lowest_card_first() -> None:
    decks = Shuffle("packet-bias:1").shuffle(np.random.default_rng(4), new_deck_order(100))
    packets = decks[:, :51].reshape(100, 17, 3)
    assert (packets.argmin(axis=2) == 0).all()
    assert not (
        Shuffle("packet-bias:0")
        .shuffle(np.random.default_rng(4), new_deck_order(100))[:, :51]
        .reshape(100, 17, 3)
        .argmin(axis=2)
        == 0
    ).all()


def test_the_naive_swap_is_not_uniform_on_three_cards() -> None:
    """On three cards the 27 swap sequences give the six orders 4, 5, 5, 5, 4, 4 times (counted one by one)."""
    from collections import Counter
    from itertools import product

    counts: Counter[tuple[int, ...]] = Counter()
    for swaps in product(range(3), repeat=3):
        deck = [0, 1, 2]
        for i, j in enumerate(swaps):
            deck[i], deck[j] = deck[j], deck[i]
        counts[tuple(deck)] += 1
    assert sorted(counts.values()) == [4, 4, 4, 5, 5, 5]
    rng = np.random.default_rng(5)
    from trey.cards.shuffles import naive_swap

    decks = naive_swap(rng, np.tile(np.arange(3, dtype=np.int8), (27_000, 1)))
    seen = Counter(tuple(int(c) for c in d) for d in decks)
    for order, ways in counts.items():
        assert abs(seen[order] - 1000 * ways) < 5 * (1000 * ways) ** 0.5


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "riffle",
            "no shuffle model named 'riffle': use fisher-yates, riffle:K (K riffles, 1 to 64), shelf:S "
            "(one pass of S shelves, 1 to 1,000), naive-swap or packet-bias:P (P from 0 to 1)",
        ),
        ("riffle:0", None),
        ("riffle:65", None),
        ("shelf:x", None),
        ("packet-bias:2", None),
        ("fisher-yates:3", None),
        ("x" * 100, None),
    ],
)
def test_a_name_that_is_no_model_is_refused_saying_what_is(text: str, message: str | None) -> None:
    with pytest.raises(ValueError, match="no shuffle model named") as caught:
        parse_shuffle(text)
    if message is not None:
        assert str(caught.value) == message
    assert "use fisher-yates" in str(caught.value)
