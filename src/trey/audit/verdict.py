"""The audit's one verdict: the rule of what passes, stated here alone and rendered by the terminal, the JSON and
the report, and read by the exit status.

- **FAIL** when something failed: a line refused, a round id logged twice, a wager mis-paid, a meter that does not
  follow from its table's rounds before;
- else **FLAGGED** when a statistical test is flagged: the card tests, the sharp test of Ante & Play, a seat;
- else **INCOMPLETE** when something was not checked (a jackpot whose meter the audit cannot follow; no rounds
  read at all);
- else **PASS**: a PASS is earned, never the default of an audit that read nothing.

The statistical tests are one family at one stated significance level, ``alpha`` (family-wise), corrected for the
number of tests by Holm's step-down method: valid whatever the tests' dependence, and never flagging more than
``alpha`` of the time when the cards, the decisions and the payments are all as they should be."""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

DEFAULT_ALPHA = Fraction(1, 10**6)  # the level the card tests were flagged at, now for the whole family
MAX_ALPHA = Fraction(1, 2)
SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


class Result(StrEnum):
    PASS = "PASS"  # nothing failed, nothing flagged, nothing left unchecked
    FLAGGED = "FLAGGED"  # nothing failed, but a statistical test is flagged
    FAIL = "FAIL"  # something failed
    INCOMPLETE = "INCOMPLETE"  # nothing failed or flagged, but something was not checked


class Kind(StrEnum):
    """What a finding is: a failure, a flagged test, or something not checked."""

    FAILED = "failed"
    FLAGGED = "flagged"
    NOT_CHECKED = "not_checked"


@dataclass(frozen=True)
class Finding:
    kind: Kind
    says: str  # one line

    def __str__(self) -> str:
        return self.says


# The families of tests, as the statement counts them: (one, many).
FAMILIES = {
    "card": ("card test", "card tests"),
    "sharp": ("the sharp test", "sharp tests"),
    "seat": ("seat", "seats"),
    "deal": ("deal-integrity test", "deal-integrity tests"),
}


@dataclass(frozen=True)
class StatisticalTest:
    """One statistical test of the audit: its family ("card", "sharp", "seat" or "deal"), its name within it, its
    p-value and what the verdict says of it when it is flagged."""

    family: str
    name: str
    p_value: float
    says: str


def holm(p_values: Sequence[float], alpha: Fraction) -> list[bool]:
    """Holm's step-down method: the k-th smallest of m p-values (k from 0) is rejected while each so far is at most
    alpha / (m - k); the first that is not stops it."""
    m = len(p_values)
    flagged = [False] * m
    for rank, index in enumerate(sorted(range(m), key=lambda i: p_values[i])):
        if not p_values[index] <= alpha / (m - rank):
            break
        flagged[index] = True
    return flagged


def alpha_text(alpha: Fraction) -> str:
    """``10⁻⁶`` for a power of ten, else the exact decimal (``0.05``) or, failing that, the fraction (``1/3``)."""
    digits = str(alpha.denominator)
    if alpha.numerator == 1 and digits.startswith("1") and set(digits[1:]) == {"0"}:
        return "10" + f"-{len(digits) - 1}".translate(SUPERSCRIPTS)
    rest = alpha.denominator
    for prime in (2, 5):
        while rest % prime == 0:
            rest //= prime
    if rest == 1:  # a terminating decimal: exact in Decimal
        return format(Decimal(alpha.numerator) / Decimal(alpha.denominator), "f")
    return f"{alpha.numerator}/{alpha.denominator}"


MAX_ALPHA_TEXT = 32  # characters of --alpha read at most


def parse_alpha(text: str) -> Fraction:
    """``--alpha``: a level above 0 and at most 1/2, written as a decimal (``0.001``), in scientific notation
    (``1e-6``) or as a fraction (``1/1000``); ValueError saying what is wrong otherwise."""
    wanted = "give a level above 0 and at most 0.5, such as 1e-6, 0.001 or 1/1000"
    if len(text) > MAX_ALPHA_TEXT:
        raise ValueError(f"{text[:MAX_ALPHA_TEXT]!r}... is not a significance level: {wanted}")
    try:
        alpha = Fraction(text.strip())
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not a significance level: {wanted}") from None
    if not 0 < alpha <= MAX_ALPHA:
        raise ValueError(f"{text!r} is not a significance level: {wanted}")
    return alpha


def p_figure(p: float) -> str:
    """A p-value as a table's cell: three significant figures; ``≈ 0`` below what a float holds (never "0")."""
    return "≈ 0" if p == 0 else f"{p:.3g}"


def p_text(p: float) -> str:
    """A p-value in words: ``p = 0.0123``; ``p ≈ 0`` below what a float holds."""
    return "p ≈ 0" if p == 0 else f"p = {p_figure(p)}"


def z_p_value(z: float, *, two_sided: bool) -> float:
    """The normal law's tail beyond ``z``: both tails, or the upper one."""
    return math.erfc(abs(z) / math.sqrt(2)) if two_sided else math.erfc(z / math.sqrt(2)) / 2


@dataclass(frozen=True)
class Family:
    """The audit's statistical tests, corrected together: ``flagged[i]`` is Holm's verdict on ``tests[i]``."""

    alpha: Fraction
    tests: tuple[StatisticalTest, ...]
    flagged: tuple[bool, ...]

    @classmethod
    def of(cls, tests: Sequence[StatisticalTest], alpha: Fraction) -> Family:
        return cls(alpha, tuple(tests), tuple(holm([t.p_value for t in tests], alpha)))

    @functools.cached_property
    def _flagged(self) -> frozenset[tuple[str, str]]:
        return frozenset((t.family, t.name) for t, f in zip(self.tests, self.flagged, strict=True) if f)

    def is_flagged(self, family: str, name: str) -> bool:
        return (family, name) in self._flagged

    @property
    def statement(self) -> str:
        """``α = 10⁻⁶ family-wise, Holm over 12 tests (10 card tests, the sharp test, 1 seat)``."""
        counts = Counter(t.family for t in self.tests)
        parts = []
        for family, (one, many) in FAMILIES.items():
            if counts[family] == 1 and one.startswith("the "):
                parts.append(one)
            elif counts[family]:
                parts.append(f"{counts[family]:,} {one if counts[family] == 1 else many}")
        if not self.tests:
            return f"no statistical test ran (α = {alpha_text(self.alpha)} family-wise)"
        tests = f"{len(self.tests):,} {'test' if len(self.tests) == 1 else 'tests'}"
        return f"α = {alpha_text(self.alpha)} family-wise, Holm over {tests}" + (
            f" ({', '.join(parts)})" if parts else ""
        )


@dataclass(frozen=True)
class Verdict:
    """The audit's one verdict, behind the terminal's first line, the report's first page, the JSON's
    ``verdict`` and the exit status (0 only on PASS). Made by :meth:`of`, the one statement of the rule."""

    result: Result
    findings: tuple[Finding, ...]  # in order: what failed, what was flagged, what was not checked
    family: Family

    @classmethod
    def of(cls, failed: Sequence[str], not_checked: Sequence[str], family: Family) -> Verdict:
        """FAIL when something failed; else FLAGGED when a test is flagged; else INCOMPLETE when something was not
        checked; else PASS."""
        flagged = [t.says for t, f in zip(family.tests, family.flagged, strict=True) if f]
        findings = (
            *(Finding(Kind.FAILED, s) for s in failed),
            *(Finding(Kind.FLAGGED, s) for s in flagged),
            *(Finding(Kind.NOT_CHECKED, s) for s in not_checked),
        )
        if failed:
            result = Result.FAIL
        elif flagged:
            result = Result.FLAGGED
        elif not_checked:
            result = Result.INCOMPLETE
        else:
            result = Result.PASS
        return cls(result, findings, family)

    @property
    def passed(self) -> bool:
        return self.result is Result.PASS

    @property
    def headline(self) -> str:
        """The first line: PASS and what it covers, or the result and its one finding or how many."""
        if self.passed:
            return "PASS: every line read, every round paid as due, no test flagged"
        if len(self.findings) == 1:
            return f"{self.result}: {self.findings[0]}"
        return f"{self.result}: {len(self.findings):,} findings"

    @property
    def lines(self) -> list[str]:
        """The headline, each finding in a line of its own (when more than one), and the tests' level."""
        listed = [f"- {f}" for f in self.findings] if len(self.findings) > 1 else []
        return [self.headline, *listed, self.family.statement]

    def __str__(self) -> str:
        return self.headline
