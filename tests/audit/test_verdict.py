"""The verdict's one rule: FAIL over FLAGGED over INCOMPLETE over PASS; the statistical tests one family, Holm's
step-down method at one stated level."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trey.audit.verdict import Family, Result, StatisticalTest, Verdict, alpha_text, holm, parse_alpha

ALPHA = Fraction(1, 20)


def _holm_by_definition(p_values: list[float], alpha: Fraction) -> list[bool]:
    """Holm (1979): order the p-values; reject H(1)..H(k-1) for the least k with p(k) > alpha / (m + 1 - k)."""
    m = len(p_values)
    ordered = sorted(range(m), key=lambda i: (p_values[i], i))
    rejected = [False] * m
    for k, index in enumerate(ordered, 1):
        if p_values[index] > alpha / (m + 1 - k):
            break
        rejected[index] = True
    return rejected


@given(st.lists(st.floats(min_value=0, max_value=1), max_size=30))
def test_holm_is_the_step_down_method(p_values: list[float]) -> None:
    assert holm(p_values, ALPHA) == _holm_by_definition(p_values, ALPHA)


def test_holm_stops_at_the_first_p_value_above_its_bound() -> None:
    # bounds 0.05/4, 0.05/3, 0.05/2, 0.05: 0.01 and 0.015 are rejected, 0.03 is not (above 0.025), nor 0.04
    assert holm([0.04, 0.01, 0.03, 0.015], ALPHA) == [False, True, False, True]
    assert holm([0.04, 0.001, 0.02, 0.013], ALPHA) == [True, True, True, True]
    assert holm([], ALPHA) == []


def _family(*p_values: float) -> Family:
    tests = [StatisticalTest("card", f"test {i}", p, f"test {i}: p = {p}") for i, p in enumerate(p_values)]
    return Family.of(tests, Fraction(1, 10**6))


@pytest.mark.parametrize(
    ("failed", "not_checked", "p_values", "result", "headline"),
    [
        ([], [], (0.5,), Result.PASS, "PASS: every line read, every round paid as due, no test flagged"),
        (
            [],
            ["no rounds read (nothing to check)"],
            (),
            Result.INCOMPLETE,
            "INCOMPLETE: no rounds read (nothing to check)",
        ),
        ([], ["not checked: x"], (1e-9,), Result.FLAGGED, "FLAGGED: 2 findings"),
        (["1 line refused"], ["not checked: x"], (1e-9,), Result.FAIL, "FAIL: 3 findings"),
        (["1 line refused"], [], (0.5,), Result.FAIL, "FAIL: 1 line refused"),
        ([], [], (1e-9, 0.5), Result.FLAGGED, "FLAGGED: test 0: p = 1e-09"),
    ],
)
def test_the_verdict_is_fail_then_flagged_then_incomplete_then_pass(
    failed: list[str], not_checked: list[str], p_values: tuple[float, ...], result: Result, headline: str
) -> None:
    verdict = Verdict.of(failed, not_checked, _family(*p_values))
    assert (verdict.result, verdict.headline, verdict.passed) == (result, headline, result is Result.PASS)
    kinds = [f.kind for f in verdict.findings]
    assert kinds == sorted(kinds, key=["failed", "flagged", "not_checked"].index)  # failed first, not checked last
    lines = verdict.lines
    assert lines[0] == headline and lines[-1] == verdict.family.statement
    assert lines[1:-1] == ([f"- {f}" for f in verdict.findings] if len(verdict.findings) > 1 else [])


def test_the_level_states_the_family_it_corrects_for() -> None:
    tests = [
        *(StatisticalTest("card", f"c{i}", 0.5, "") for i in range(10)),
        StatisticalTest("sharp", "sharp", 0.5, ""),
        *(StatisticalTest("seat", f"s{i}", 0.5, "") for i in range(3)),
    ]
    family = Family.of(tests, Fraction(1, 10**6))
    assert family.statement == "α = 10⁻⁶ family-wise, Holm over 14 tests (10 card tests, the sharp test, 3 seats)"
    assert Family.of(tests[10:12], Fraction(1, 1000)).statement == (
        "α = 10⁻³ family-wise, Holm over 2 tests (the sharp test, 1 seat)"
    )
    assert Family.of([], Fraction(1, 20)).statement == "no statistical test ran (α = 0.05 family-wise)"


@pytest.mark.parametrize(
    ("text", "alpha", "shown"),
    [
        ("1e-6", Fraction(1, 10**6), "10⁻⁶"),
        ("0.001", Fraction(1, 1000), "10⁻³"),
        ("1/1000", Fraction(1, 1000), "10⁻³"),
        (" 0.05 ", Fraction(1, 20), "0.05"),
        ("5e-7", Fraction(5, 10**7), "0.0000005"),
        ("1/3", Fraction(1, 3), "1/3"),
        ("0.5", Fraction(1, 2), "0.5"),
    ],
)
def test_alpha_is_read_exactly_and_shown_as_written(text: str, alpha: Fraction, shown: str) -> None:
    assert parse_alpha(text) == alpha and alpha_text(alpha) == shown


@pytest.mark.parametrize("text", ["0", "-0.01", "0.51", "1", "nan", "1/0", "ten", "", "1" + "0" * 40])
def test_a_level_that_is_none_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"is not a significance level: give a level above 0 and at most 0\.5"):
        parse_alpha(text)
