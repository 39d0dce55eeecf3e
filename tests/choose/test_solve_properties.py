"""``solve`` hits its target exactly: the exact pay it finds, written into the paytable, gives the house edge asked
for (checked by analysing the changed paytable, not by solve's own arithmetic)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from trey.choose.solve import solve, with_pay
from trey.engine import analyze
from trey.paytable.load import load_spec

SPEC = load_spec(Path(__file__).resolve().parents[2] / "paytables" / "standard.yaml")


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["pair", "flush", "straight"]), st.integers(100, 1500))
def test_the_exact_pay_gives_the_target_house_edge(row: str, basis_points: int) -> None:
    target = Fraction(basis_points, 10_000)
    solution = solve(SPEC, "pair_plus", row, target)
    changed = with_pay(SPEC, "pair_plus", row, solution.exact_pay)
    assert analyze(changed).wagers["pair_plus"].stats.house_edge == target
