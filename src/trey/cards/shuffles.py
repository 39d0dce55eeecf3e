"""Shuffle models: how a deck leaves a shuffler, for ``trey simulate --shuffle`` and the deal-integrity tests
(issue 32).

A model takes the order the cards were fed in (the *input*) and gives the order they left in (the *deck*); both are
int8 arrays of shape ``(decks, 52)`` whose rows are permutations of the card numbers 0–51 (:mod:`trey.cards.card`).
Models are a registry, named as ``--shuffle`` names them: ``fisher-yates`` (the default, a uniform permutation),
``riffle:K``, ``shelf:S``, ``naive-swap`` and a packet-position bias.

Interface agreed between the simulator (table rounds) and the randomness battery; the models other than
``fisher-yates`` are filled in with the battery.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from trey.cards.card import DECK_SIZE

Decks = npt.NDArray[np.int8]


@dataclass(frozen=True)
class Shuffle:
    """One shuffle model: ``name`` as ``--shuffle`` writes it (``"fisher-yates"``, ``"riffle:7"``…)."""

    name: str

    def shuffle(self, rng: np.random.Generator, inputs: Decks) -> Decks:
        """The decks that leave the shuffler when ``inputs`` (one row per deck) are fed in."""
        if self.name != "fisher-yates":
            raise ValueError(f"no shuffle model named {self.name!r}")
        return rng.permuted(inputs, axis=1)


def parse_shuffle(text: str) -> Shuffle:
    """The model ``text`` names (``--shuffle``'s value); ValueError saying what is accepted otherwise."""
    if text != "fisher-yates":
        raise ValueError(f"no shuffle model named {text!r}: use fisher-yates")
    return Shuffle(text)


def new_deck_order(decks: int) -> Decks:
    """``decks`` rows of the cards in number order (0–51), an input for a shuffler fed a new deck."""
    return np.tile(np.arange(DECK_SIZE, dtype=np.int8), (decks, 1))
