"""The figures of a wager, each stated once: its name (the JSON key and the column's stem), its words, its unit,
how it is rounded for people and what it means (the analysis schema's description).

Every output that prints a figure takes it from here: the JSON of ``trey analyze`` (:mod:`trey.figures.export`),
the CSV and XLSX, the terminal, ``trey compare`` and the certificate. Exact figures are Fractions; the standard
deviation and the volatility indexes, which are irrational, are square roots of the exact variance taken in
40-digit decimal arithmetic (:func:`~trey.core.numbers.sqrt_decimal`), the same everywhere, rounded once when
rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from trey.core.numbers import decimal_text, fraction_text, percent_text, rounded_float, sqrt_decimal, to_decimal
from trey.engine.results import AntePlayAnalysis, WagerAnalysis
from trey.engine.stats import Z_90, Z_95, WagerStats
from trey.paytable.odds import net_odds_text

Value = Fraction | Decimal | int


class Unit(StrEnum):
    """What a figure counts."""

    DEALS = "deals"
    SHARE = "share of the initial wager"  # printed as a percentage
    STAKES = "units of the initial wager"  # Antes for Ante & Play
    STAKES_SQUARED = "units of the initial wager, squared"


@dataclass(frozen=True)
class Figure:
    name: str  # the JSON key, and the stem of a CSV column
    label: str  # in tables and spreadsheet headers: "House edge"
    unit: Unit
    places: int  # decimals when rounded for people (of the percentage, for a share)
    meaning: str  # one sentence: the analysis schema's description
    value: Callable[[WagerAnalysis], Value | None]  # None: the figure does not apply to this wager
    exact: bool = True  # False: irrational, from the exact variance
    title: str = ""  # in documents, when it differs from the label: "Return to player (RTP)"
    words: Callable[[Any], str] | None = None  # a rendering of its own ("35 to 1" for the largest win)
    # False for a figure added after certificates were first issued: the analysis always gives it, but the schema
    # does not require it, so that a certificate issued without it still reads (and verifies).
    required: bool = True

    def of(self, result: WagerAnalysis) -> Value | None:
        return self.value(result)

    def json_of(self, value: Value | None) -> str | float | int | None:
        """As the JSON contracts give it: an int, a fraction in lowest terms, or an irrational figure rounded once."""
        if value is None or isinstance(value, int):
            return value
        if isinstance(value, Fraction):
            return fraction_text(value)
        return rounded_float(value, self.places)

    def text_of(self, value: Value | None) -> str:
        """For people, rounded once: ``3.3730%``, ``1.6740``, ``22,100``; empty when it does not apply."""
        if value is None:
            return ""
        if self.words is not None:
            return self.words(value)
        if isinstance(value, int):
            return f"{value:,}"
        if self.unit is Unit.SHARE:
            assert isinstance(value, Fraction)
            return percent_text(value, self.places)
        return decimal_text(value, self.places)

    def number_text_of(self, value: Value | None) -> str:
        """For a CSV cell, rounded once: a share as a number of percent (``3.3730``), others as :meth:`text_of`."""
        if value is None:
            return ""
        if isinstance(value, int):
            return str(value)
        return decimal_text(value * 100 if self.unit is Unit.SHARE else value, self.places)

    def json(self, result: WagerAnalysis) -> str | float | int | None:
        return self.json_of(self.of(result))

    def text(self, result: WagerAnalysis) -> str:
        return self.text_of(self.of(result))

    def exact_text(self, result: WagerAnalysis) -> str:
        """The exact value as a fraction (empty for an irrational figure or one that does not apply)."""
        value = self.of(result)
        return fraction_text(value) if isinstance(value, Fraction) else ""

    @property
    def csv_column(self) -> str:
        """Its column in ``trey compare --format csv``: a share's says it is in percent."""
        return f"{self.name}_percent" if self.unit is Unit.SHARE else self.name

    @property
    def heading(self) -> str:
        """The label inside a sentence or a spreadsheet header: "house edge", "RTP"."""
        first = self.label.split(" ", 1)[0]
        return self.label if first.isupper() else self.label[0].lower() + self.label[1:]

    @property
    def document_title(self) -> str:
        return self.title or self.label

    def schema(self) -> dict[str, Any]:
        """The figure's place in the analysis schema."""
        if self.unit is Unit.DEALS:
            return {"type": "integer", "minimum": 1, "description": self.meaning}
        if self.exact:
            return {"$ref": "#/$defs/fraction", "description": self.meaning}
        return {"type": "number", "minimum": 0, "description": self.meaning}


def _std_dev(result: WagerAnalysis) -> Decimal:
    return sqrt_decimal(result.stats.variance)


def _ante_play(read: Callable[[AntePlayAnalysis], Fraction]) -> Callable[[WagerAnalysis], Fraction | None]:
    return lambda result: read(result) if isinstance(result, AntePlayAnalysis) else None


CYCLE = Figure(
    "cycle",
    "Cycle",
    Unit.DEALS,
    0,
    "The number of equally likely deals the figures are counted over.",
    lambda r: r.cycle,
)
RTP = Figure(
    "rtp",
    "RTP",
    Unit.SHARE,
    4,
    "Return to player per unit of the initial wager: 1 + E[net].",
    lambda r: r.stats.rtp,
    title="Return to player (RTP)",
)
HOUSE_EDGE = Figure(
    "house_edge", "House edge", Unit.SHARE, 4, "-E[net] per unit of the initial wager.", lambda r: r.stats.house_edge
)
HIT_FREQUENCY = Figure("hit_frequency", "Hit frequency", Unit.SHARE, 4, "P(net > 0).", lambda r: r.stats.hit_frequency)
VARIANCE = Figure(
    "variance",
    "Variance",
    Unit.STAKES_SQUARED,
    4,
    "Var[net] per unit of the initial wager squared.",
    lambda r: r.stats.variance,
)
STD_DEV = Figure(
    "std_dev",
    "Standard deviation",
    Unit.STAKES,
    4,
    "sqrt(variance), rounded once to 4 decimals.",
    _std_dev,
    exact=False,
)
VOLATILITY_INDEX_90 = Figure(
    "volatility_index_90",
    "Volatility index (90%)",
    Unit.STAKES,
    4,
    "1.645 x standard deviation, 4 decimals.",
    lambda r: _std_dev(r) * Decimal(str(Z_90)),
    exact=False,
    title="Volatility index, 90%",
)
VOLATILITY_INDEX_95 = Figure(
    "volatility_index_95",
    "Volatility index (95%)",
    Unit.STAKES,
    4,
    "1.960 x standard deviation, 4 decimals.",
    lambda r: _std_dev(r) * Decimal(str(Z_95)),
    exact=False,
    title="Volatility index, 95%",
)
LARGEST_WIN = Figure(
    "largest_win",
    "Largest win",
    Unit.STAKES,
    4,
    "The largest net result per unit of the initial wager.",
    lambda r: r.largest_win,
    words=net_odds_text,
)
AVERAGE_WAGER = Figure(
    "average_wager",
    "Average wager",
    Unit.STAKES,
    4,
    "Average total wagered per Ante: 1 + P(play).",
    _ante_play(lambda r: r.average_wager),
)
ELEMENT_OF_RISK = Figure(
    "element_of_risk",
    "Element of risk",
    Unit.SHARE,
    4,
    "House edge / average wager.",
    _ante_play(lambda r: r.element_of_risk),
)
LONG_RUN_RTP = Figure(
    "long_run_rtp",
    "Long-run RTP",
    Unit.SHARE,
    4,
    "A progressive's RTP over the meter's cycles, for a lone bettor.",
    lambda r: r.progressive.long_run_rtp if r.progressive is not None else None,
)

DEALER_QUALIFIES = Figure(
    "dealer_qualifies",
    "Dealer qualifies",
    Unit.SHARE,
    4,
    "P(the dealer qualifies), over every deal whatever the player decides.",
    _ante_play(lambda r: r.dealer_qualifies),
    title="Probability the dealer qualifies",
    required=False,
)

# Every wager's figures, in the order of the JSON contract.
WAGER_FIGURES = (
    CYCLE,
    RTP,
    HOUSE_EDGE,
    HIT_FREQUENCY,
    VARIANCE,
    STD_DEV,
    VOLATILITY_INDEX_90,
    VOLATILITY_INDEX_95,
    LARGEST_WIN,
)
ANTE_PLAY_FIGURES = (AVERAGE_WAGER, ELEMENT_OF_RISK, DEALER_QUALIFIES)  # Ante & Play's own
FIGURES: dict[str, Figure] = {f.name: f for f in (*WAGER_FIGURES, *ANTE_PLAY_FIGURES, LONG_RUN_RTP)}

# The range of the realised RTP after a session of so many rounds, in so many sessions of a hundred: what labs'
# PAR sheets tabulate beside the volatility index.
RANGE_ROUNDS = (1_000, 10_000, 100_000, 1_000_000, 10_000_000)
RANGE_CONFIDENCE = ((90, Z_90), (95, Z_95))  # percent of sessions, and the normal quantile of the volatility index
RANGE_PLACES = 6  # of the RTP as a share: 4 decimals of its percentage, as the RTP is printed


@dataclass(frozen=True)
class RtpRange:
    """The range of the realised RTP after ``rounds`` rounds in ``confidence`` percent of sessions: the RTP ± z ×
    standard deviation / √rounds (the normal approximation), from the exact variance in 40-digit arithmetic."""

    rounds: int
    confidence: int
    low: Decimal
    high: Decimal


def rtp_ranges(stats: WagerStats) -> tuple[RtpRange, ...]:
    """The realised RTP's range for every count of :data:`RANGE_ROUNDS`, at each confidence, in that order."""
    rtp = to_decimal(stats.rtp)
    ranges = []
    for rounds in RANGE_ROUNDS:
        spread = sqrt_decimal(stats.variance / rounds)
        for confidence, z in RANGE_CONFIDENCE:
            half = Decimal(str(z)) * spread
            ranges.append(RtpRange(rounds, confidence, rtp - half, rtp + half))
    return tuple(ranges)
