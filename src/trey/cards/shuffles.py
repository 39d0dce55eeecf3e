"""Shuffle models: how a deck leaves a shuffler, for ``trey simulate --shuffle`` and the deal-integrity tests
(issue 32).

A model takes the order the cards were fed in (the *input*) and gives the order they left in (the *deck*); both are
int8 arrays of shape ``(decks, 52)`` whose rows are permutations of the card numbers 0–51 (:mod:`trey.cards.card`).
Models are named as ``--shuffle`` names them, every one vectorised over the decks:

- ``fisher-yates`` (the default): a uniform permutation (numpy's PCG64 generator, ``Generator.permuted``);
- ``riffle:K``: K Gilbert–Shannon–Reeds riffles (the cut binomial, each card dropped from a packet with probability
  proportional to the packet's size: every sequence of 52 packet choices equally likely), the model of Bayer and
  Diaconis (Ann. Appl. Probab. 2(2), 1992), K from 1 to :data:`MAX_RIFFLES`;
- ``shelf:S``: one pass of an S-shelf shuffler as Diaconis, Fulman and Holmes model it (Ann. Appl. Probab. 23(4),
  2013): each card of the input, from the top, goes to a shelf chosen uniformly and onto the top or the bottom of
  the cards already there (probability 1/2 each); the shelves are then unloaded in order, shelf 1 on top. Each
  shelf's packet reads down then up in input order (a "valley"); S from 1 to :data:`MAX_SHELVES`;
- ``naive-swap``: the classic programming error, each position in turn swapped with any position (52⁵² equally
  likely swap sequences, which cannot give the 52! orders equally often);
- ``packet-bias:P``: a uniform deck, then in each 3-card packet the deck deals (positions 1–3, 4–6, …, 49–51) the
  lowest card (by number: rank, then suit) moved to the packet's first position with probability P (a decimal from
  0 to 1): the low card at one position of the hand, as advantage players claim of packet shufflers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from trey.cards.card import DECK_SIZE

Decks = npt.NDArray[np.int8]

MAX_RIFFLES = 64  # riffles a ``riffle:K`` model does at most (beyond 12 it is indistinguishable from uniform)
MAX_SHELVES = 1_000
PACKET = 3  # the cards of a dealt hand: the packet the packet-position bias works on
MODELS = ("fisher-yates", "riffle:K", "shelf:S", "naive-swap", "packet-bias:P")
_WANTED = (
    "use fisher-yates, riffle:K (K riffles, 1 to 64), shelf:S (one pass of S shelves, 1 to 1,000), naive-swap or "
    "packet-bias:P (P from 0 to 1)"
)


@dataclass(frozen=True)
class Shuffle:
    """One shuffle model: ``name`` as ``--shuffle`` writes it (``"fisher-yates"``, ``"riffle:7"``…); a name that
    is no model is refused (ValueError) when the Shuffle is made."""

    name: str

    def __post_init__(self) -> None:
        _parameter(self.name)

    @property
    def model(self) -> str:
        """The model's name without its parameter: ``riffle`` for ``riffle:7``."""
        return self.name.partition(":")[0]

    def shuffle(self, rng: np.random.Generator, inputs: Decks) -> Decks:
        """The decks that leave the shuffler when ``inputs`` (one row per deck) are fed in."""
        inputs = np.asarray(inputs, dtype=np.int8)
        if inputs.ndim != 2 or inputs.shape[1] != DECK_SIZE:
            raise ValueError(f"inputs must be decks of {DECK_SIZE} cards, one a row")
        model, value = self.model, _parameter(self.name)
        if model == "fisher-yates":
            return rng.permuted(inputs, axis=1)
        if model == "riffle":
            decks = inputs
            for _ in range(int(value)):
                decks = riffle(rng, decks)
            return decks
        if model == "shelf":
            return shelf(rng, inputs, int(value))
        if model == "naive-swap":
            return naive_swap(rng, inputs)
        return packet_bias(rng, rng.permuted(inputs, axis=1), value)


def _parameter(name: str) -> Fraction:
    """The model's parameter (1 for the models without one); ValueError saying what is accepted otherwise."""
    if len(name) > 40:
        raise ValueError(f"no shuffle model named {name[:40]!r}...: {_WANTED}")
    model, colon, text = name.partition(":")
    if model in ("fisher-yates", "naive-swap") and not colon:
        return Fraction(1)
    if model in ("riffle", "shelf") and colon and text.isdecimal() and text.isascii():
        count = int(text)
        top = MAX_RIFFLES if model == "riffle" else MAX_SHELVES
        if 1 <= count <= top:
            return Fraction(count)
    if model == "packet-bias" and colon and text and set(text) <= set("0123456789."):
        try:
            p = Fraction(text)
        except ValueError:
            p = Fraction(-1)
        if 0 <= p <= 1:
            return p
    raise ValueError(f"no shuffle model named {name!r}: {_WANTED}")


def parse_shuffle(text: str) -> Shuffle:
    """The model ``text`` names (``--shuffle``'s value); ValueError saying what is accepted otherwise."""
    return Shuffle(text.strip())


def new_deck_order(decks: int) -> Decks:
    """``decks`` rows of the cards in number order (0–51), an input for a shuffler fed a new deck."""
    return np.tile(np.arange(DECK_SIZE, dtype=np.int8), (decks, 1))


def riffle(rng: np.random.Generator, decks: Decks) -> Decks:
    """One Gilbert–Shannon–Reeds riffle of every deck: a uniform sequence of 52 bits says which packet each position
    of the result takes its card from; the zeros' count is the cut (binomial), and every interleaving of the two
    packets is equally likely given it."""
    bits = rng.integers(0, 2, size=decks.shape, dtype=np.int8)
    where = np.argsort(bits, axis=1, kind="stable")  # the top packet's positions, then the bottom packet's
    out = np.empty_like(decks)
    np.put_along_axis(out, where, decks, axis=1)
    return out


def shelf(rng: np.random.Generator, decks: Decks, shelves: int) -> Decks:
    """One pass of a ``shelves``-shelf shuffler (Diaconis–Fulman–Holmes): input card i (from the top) goes to a
    uniform shelf, on top of that shelf's cards or under them with probability 1/2; the shelves are unloaded in
    order. On a shelf the cards put on top come first, the latest first, then those put under, the earliest first."""
    n, size = decks.shape
    on = rng.integers(0, shelves, size=(n, size), dtype=np.int64)
    top = rng.integers(0, 2, size=(n, size), dtype=np.int64).astype(bool)
    i = np.arange(size, dtype=np.int64)
    key = on * (2 * size) + np.where(top, size - 1 - i, size + i)
    return np.take_along_axis(decks, np.argsort(key, axis=1), axis=1)


def naive_swap(rng: np.random.Generator, decks: Decks) -> Decks:
    """Each position i in turn swapped with a uniform position among all 52 (not among i to 51)."""
    out = decks.copy()
    n, size = out.shape
    rows = np.arange(n)
    swaps = rng.integers(0, size, size=(size, n))
    for i in range(size):
        j = swaps[i]
        held = out[rows, i].copy()
        out[rows, i] = out[rows, j]
        out[rows, j] = held
    return out


def packet_bias(rng: np.random.Generator, decks: Decks, p: Fraction | float) -> Decks:
    """In each full 3-card packet of every deck, the lowest card moved to the packet's first position (swapped
    with the card there) with probability ``p``."""
    out = decks.copy()
    n, size = out.shape
    packets = size // PACKET
    view = out[:, : packets * PACKET].reshape(n, packets, PACKET).copy()
    low = view.argmin(axis=2)
    move = rng.random((n, packets)) < float(p)
    r, k = np.nonzero(move)
    first = view[r, k, 0].copy()
    view[r, k, 0] = view[r, k, low[r, k]]
    view[r, k, low[r, k]] = first
    out[:, : packets * PACKET] = view.reshape(n, packets * PACKET)
    return out
