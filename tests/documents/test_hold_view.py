"""The certificate's confidence table of the hold (Appendix D): its ranges are the quantiles of n rounds' result,
here counted again by a plain convolution, step by step (not the engine's one-integer power), and the shipped
report carries them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from conftest import STANDARD
from trey.core.numbers import percent_text
from trey.documents.hold_view import HOLD_CONFIDENCES, HOLD_ROUNDS, hold_rows
from trey.engine import analyze
from trey.paytable.load import load_spec

REPO = Path(__file__).resolve().parents[2]


def _plain_quantiles(nets: list[tuple[int, int]], rounds: int, levels: list[Fraction]) -> list[int]:
    """(net, count) with integer nets: the distribution of the sum of ``rounds`` rounds by one convolution a round,
    and its quantiles (the smallest result whose cumulative share reaches the level)."""
    counts: dict[int, int] = {0: 1}
    for _ in range(rounds):
        step: dict[int, int] = {}
        for total, ways in counts.items():
            for net, c in nets:
                step[total + net] = step.get(total + net, 0) + ways * c
        counts = step
    whole = sum(counts.values())
    found = []
    for level in levels:
        running = 0
        for total in sorted(counts):
            running += counts[total]
            if running >= level * whole:
                found.append(total)
                break
    return found


def test_the_hold_ranges_are_the_quantiles_of_a_plain_convolution_and_the_report_carries_them() -> None:
    analysis = analyze(load_spec(STANDARD))
    prime = analysis.wagers["prime"]
    nets = [(int(r.net), r.combinations) for r in prime.net_results]
    (row,) = hold_rows(prime, (100,))
    assert row["rounds"] == "100" and row["method"] == "exact"
    for confidence, cell in zip(HOLD_CONFIDENCES, row["cells"], strict=True):
        low, high = _plain_quantiles(nets, 100, [(1 - confidence) / 2, (1 + confidence) / 2])
        assert cell == f"{percent_text(Fraction(-high, 100), 2)} to {percent_text(Fraction(-low, 100), 2)}"
    (six,) = hold_rows(analysis.wagers["six_card_bonus"], (10_000,))
    assert six == {"rounds": "10,000", "cells": ["beyond the bound", "beyond the bound"], "method": "not computed"}
    assert HOLD_ROUNDS == (100, 1_000, 10_000)
    html = (REPO / "reports" / "standard.certificate.html").read_text(encoding="utf-8")
    assert "<h2>Appendix D. Range of the realised hold</h2>" in html
    cells = "".join(f'<td class="num">{cell}</td>' for cell in row["cells"])
    assert f'<td class="num">100</td>{cells}<td>exact</td>' in html
