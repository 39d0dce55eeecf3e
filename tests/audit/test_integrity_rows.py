"""The battery's check that every deck and input is a permutation (``battery._distinct_rows``, a sum of powers of
two) against the plain count of distinct cards in each row."""

from __future__ import annotations

import numpy as np

from trey.audit.integrity.battery import _PERMUTATION_ROWS, _distinct_rows


def test_rows_are_permutations_exactly_when_their_cards_are_distinct() -> None:
    rng = np.random.default_rng(7)
    rows = rng.permuted(np.tile(np.arange(52, dtype=np.int8), (_PERMUTATION_ROWS + 300, 1)), axis=1)
    assert _distinct_rows(rows) and _distinct_rows(rows[:0])
    for row in (0, _PERMUTATION_ROWS - 1, _PERMUTATION_ROWS, _PERMUTATION_ROWS + 299):
        for _ in range(20):  # a card written over another
            bad = rows.copy()
            a, b = rng.choice(52, size=2, replace=False)
            bad[row, a] = bad[row, b]
            assert len(set(bad[row].tolist())) == 51 and not _distinct_rows(bad)
        bad = rows.copy()
        where = {int(c): i for i, c in enumerate(bad[row])}
        bad[row, where[1]], bad[row, where[3]] = 2, 2  # three 2s in the row, no 1 or 3
        assert not _distinct_rows(bad)
