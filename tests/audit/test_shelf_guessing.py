"""The shelf guesser against a published law: after one pass of a *single* shelf, the optimal guesser with complete
feedback names 3n/4 cards right on average, with variance n/16 (M. Kuba, "On card guessing after a single shelf
shuffle", 2026). trey's guesser is checked on every one of the 2^n placements (each card on top or under), so the
figures are exact fractions, not a sample."""

import itertools
from fractions import Fraction

import numpy as np
import pytest

from trey.audit.integrity.features import guessing_scores


def _every_single_shelf_deck(n: int) -> np.ndarray:
    """Every deck one shelf makes of the input 0..n-1, once per placement: a card put on top comes out before those
    already there (the latest first), a card put under comes out after them (the earliest first)."""
    on_top = np.array(list(itertools.product((True, False), repeat=n)))
    card = np.arange(n)
    order_key = np.where(on_top, n - 1 - card, n + card)
    return np.argsort(order_key, axis=1)


@pytest.mark.parametrize("n", [3, 7, 12])
def test_the_shelf_guesser_is_kubas_optimal_guesser_on_one_shelf(n: int) -> None:
    scores = guessing_scores(_every_single_shelf_deck(n), "shelf").astype(object)
    placements = 2**n
    mean = Fraction(int(scores.sum()), placements)
    variance = Fraction(int((scores * scores).sum()), placements) - mean * mean
    assert (mean, variance) == (Fraction(3 * n, 4), Fraction(n, 16))
