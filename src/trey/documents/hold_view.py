"""The certificate's confidence table of the hold (issue 34): where the realised hold (the house's win ÷ the
initial wagers) of n rounds of each wager falls in 90% and 95% of sessions, from the distribution of n rounds'
result (exact, or numerical with its error; :mod:`trey.engine.risk`). Its own partial of the certificate,
``_hold_confidence.html.j2``; this gives it formatted strings."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any

from trey.core.numbers import percent_text
from trey.engine.results import GameAnalysis, WagerAnalysis
from trey.engine.risk import RiskBoundError, hold_range, rounds_distribution
from trey.engine.stats import NetResult

HOLD_ROUNDS = (100, 1_000, 10_000)
HOLD_CONFIDENCES = (Fraction(9, 10), Fraction(19, 20))


@lru_cache(maxsize=64)
def _cells(distribution: tuple[NetResult, ...], rounds: int) -> tuple[tuple[str, ...], str]:
    try:
        session = rounds_distribution(distribution, rounds)
    except RiskBoundError:
        return tuple("beyond the bound" for _ in HOLD_CONFIDENCES), "not computed"
    cells = []
    for confidence in HOLD_CONFIDENCES:
        r = hold_range(session, confidence)
        cells.append(f"{percent_text(r.low, 2)} to {percent_text(r.high, 2)}")
    method = "exact" if session.exact else f"FFT, ±{session.cdf_error:.0e}"
    return tuple(cells), method


def hold_rows(result: WagerAnalysis, rounds: tuple[int, ...] = HOLD_ROUNDS) -> list[dict[str, Any]]:
    """One wager's rows: its ranges after each of ``rounds``, and how they were counted."""
    rows = []
    for n in rounds:
        cells, method = _cells(tuple(result.net_results), n)
        rows.append({"rounds": f"{n:,}", "cells": list(cells), "method": method})
    return rows


def hold_confidence(analysis: GameAnalysis) -> dict[str, Any]:
    """The table's rows (a wager's rounds each) and its column headings."""
    wagers = [
        {"title": result.title, "hold": percent_text(result.stats.house_edge), "rows": hold_rows(result)}
        for result in analysis.wagers.values()
    ]
    return {"confidences": [percent_text(c, 0) for c in HOLD_CONFIDENCES], "wagers": wagers}
