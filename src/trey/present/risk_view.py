"""``trey risk`` on the terminal: each wager's risk figures, or a round's payout at a table (``--seats``), as
``label  value`` pairs (fits 80 columns)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from rich.console import Console

from trey.core.numbers import decimal_text, fraction_text, one_in_text, outward, percent_text, sqrt_decimal, to_decimal
from trey.play.table_round import CONFIDENCE, INTERVAL, TOTAL, TableRoundReport, WagerRound
from trey.present.layout import TextTable, label, print_table, say, terminal_console
from trey.present.protection_view import net_words
from trey.protect.risk import SESSION_QUANTILES, RiskReport, WagerRisk


def _chance(value: Fraction | float, error: float = 0.0) -> str:
    """A probability as a percentage: 4 decimals, or 3 significant digits below 0.01% (never a bare 0.0000%); a
    numerical one within its ``error`` of 0 as "below" the error, else with it."""
    if isinstance(value, float) and error and value <= error:
        return f"below {100 * error:.1g}%"
    if value == 0:
        text = "0%"
    elif value * 100 < Fraction(1, 100):
        text = f"{100 * float(value):.3g}%"
    else:
        text = percent_text(value) if isinstance(value, Fraction) else f"{100 * value:.4f}%"
    return f"{text} ±{100 * error:.1g} pt" if error else text


def units(value: Fraction) -> str:
    """``250``, ``12.5``: a number of units as it was given (a fraction when it has no short decimal)."""
    if value.denominator == 1:
        return f"{value.numerator:,}"
    places = next((p for p in range(1, 7) if (value * 10**p).denominator == 1), None)
    return decimal_text(value, places, grouping=True) if places is not None else fraction_text(value)


def _share(count: int, cycle: int) -> str:
    return percent_text(Fraction(count, cycle), 2)


def _result(value: Fraction) -> str:
    return f"{'+' if value > 0 else ''}{fraction_text(value)}"


def _bound(value: Decimal | None, *, up: bool | None = None) -> str:
    """A probability as a percentage to 4 significant digits; a bound rounded outward (``up`` for an upper one)."""
    if value is None:
        return ""
    percent = value * 100
    shown = (
        outward(percent, 4, up=up) if up is not None else percent.quantize(Decimal(1).scaleb(percent.adjusted() - 3))
    )
    return f"{shown:f}%"


def wager_rows(w: WagerRisk, report: RiskReport) -> list[tuple[str, str]]:
    f = w.figures
    rows = [
        ("Played", w.player),
        ("Player edge", f"{percent_text(f.stats.mean)} (SD {decimal_text(sqrt_decimal(f.stats.variance), 4)})"),
        ("N0 (SD / edge)²", decimal_text(f.n0, 1, grouping=True) + " rounds" if f.n0 is not None else "never"),
        ("Desirability index", decimal_text(f.desirability_index, 4)),
        (
            "Most likely round",
            ", ".join(f"{net_words(r.net)} ({_share(r.combinations, f.stats.cycle)})" for r in f.most_likely),
        ),
    ]
    n = f"{report.rounds:,} rounds"
    if w.session is not None:
        s = w.session
        how = "exact" if s.exact else f"FFT, chances ±{100 * s.cdf_error:.1g} pt"
        mode, chance = s.most_likely()
        quantiles = ", ".join(f"{int(p * 100)}%: {_result(s.quantile(p))}" for p in SESSION_QUANTILES)
        rows += [
            (f"Result of {n}", f"quantiles {quantiles} ({how})"),
            ("Most likely result", f"{_result(mode)} ({_chance(chance, s.cdf_error)})"),
            ("Ending behind", _chance(s.below(Fraction(0)), s.cdf_error)),
            (f"Ending {units(report.loss)} units down", _chance(s.at_most(-report.loss), s.cdf_error)),
        ]
    elif w.normal is not None:  # too long to count: the normal approximation, each chance within its error
        approx, error = w.normal, w.normal.error

        def bracket(p: Fraction) -> str:
            low, high = approx.quantile_bracket(p)
            shown = [f"{v:+,.0f}" if v is not None else "?" for v in (low, high)]
            return f"{int(p * 100)}%: {shown[0]} to {shown[1]}"

        quantiles = ", ".join(bracket(p) for p in (Fraction(1, 20), Fraction(1, 2), Fraction(19, 20)))
        rows += [
            (f"Result of {n}", f"normal approx. (too long to count), Berry–Esseen: chances ±{100 * error:.2g} pt"),
            ("  quantiles", f"{quantiles} (each between)"),
            ("Ending behind", _chance(approx.at_most(Fraction(0)), error)),
            (f"Ending {units(report.loss)} units down", _chance(approx.at_most(-report.loss), error)),
        ]
    else:
        rows.append((f"Result of {n}", f"not computed: {w.session_why}"))
    ruin_label = f"Ruin of {units(report.bankroll)} units in {n}"
    if w.ruin is not None:
        error = w.ruin.relative_error * float(w.ruin.probability)
        rows.append((ruin_label, _chance(w.ruin.probability, error) + (" (exact)" if w.ruin.exact else "")))
    elif w.ruin_at_least is not None:  # between ending the bankroll down (less the error) and ruin with no limit
        e = w.eventual
        most = percent_text(e.exact, 0) if e.exact is not None else _bound(e.lattice_upper, up=True)
        rows.append((ruin_label, f"{_chance(w.ruin_at_least)} to {most} (proven: ending it down, ruin with no limit)"))
    else:
        rows.append((ruin_label, f"not computed: {w.ruin_why}"))
    e = w.eventual
    if e.exact is not None:
        rows.append(("Ruin, no limit", f"{percent_text(e.exact, 0)} (exact)"))
    else:
        rows += [
            (
                "Ruin, no limit",
                f"{_bound(e.lattice_lower, up=False)} to {_bound(e.lattice_upper, up=True)} (proven lattice bounds)",
            ),
            ("  Lundberg's bounds", f"{_bound(e.lower, up=False)} to {_bound(e.upper, up=True)} (proven, wider)"),
            ("  diffusion approx.", f"{_bound(e.diffusion)} (an approximation, no bound)"),
        ]
    return rows


def print_risk(report: RiskReport, console: Console | None = None) -> None:
    console = console or terminal_console()
    say(console, f"{report.spec.name}: risk (per unit of the initial wager; per Ante for Ante & Play)", bold=True)
    say(console, "Ruin: the running result falls to minus the bankroll or below at the end of a round.")
    for w in report.wagers:
        say(console, "")
        print_table(console, TextTable((label(bold=True), label()), wager_rows(w, report), title=w.title, pairs=True))


def probability_text(value: Fraction, *, up: bool | None = None) -> str:
    """A probability as a percentage to 4 significant digits (a bound rounded outward: ``up`` for an upper one),
    "0%" for 0."""
    if value == 0:
        return "0%"
    percent = to_decimal(value) * 100
    shown = percent.quantize(Decimal(1).scaleb(percent.adjusted() - 3)) if up is None else outward(percent, 4, up=up)
    return f"{shown:f}%"


def _float_percent(value: float, *, up: bool) -> str:
    return probability_text(Fraction(value), up=up) if value else "0%"


def table_round_rows(w: WagerRound, report: TableRoundReport) -> list[tuple[str, str]]:
    x = units(report.pays_over)
    event = f"P(T > {x})"
    rows: list[tuple[str, str]] = []
    if w.exact is not None:
        one_in = f" = {one_in_text(1 / w.exact, 0)}" if w.exact else ""
        rows += [(event, f"{probability_text(w.exact)}{one_in} (exact)"), ("  exact fraction", fraction_text(w.exact))]
    if w.upper is not None and w.lower is not None:
        rows += [
            (event, f"at most {probability_text(w.upper.value, up=True)} (proven upper bound)"),
            ("  fraction", fraction_text(w.upper.value)),
            ("  rule", w.upper.rule),
            (event, f"at least {probability_text(w.lower.value, up=False)} (proven lower bound)"),
            ("  fraction", fraction_text(w.lower.value)),
            ("  rule", w.lower.rule),
        ]
    s = w.simulated
    if s is not None:
        rows += [
            (
                "simulated",
                f"{s.over:,} of {s.rounds:,} rounds (seed {s.seed}): {probability_text(Fraction(s.over, s.rounds))}",
            ),
            (
                f"  {int(CONFIDENCE * 100)}% interval",
                f"{_float_percent(s.low, up=False)} to {_float_percent(s.high, up=True)} ({INTERVAL})",
            ),
        ]
    return rows


def print_table_round(report: TableRoundReport, console: Console | None = None) -> None:
    console = console or terminal_console()
    seats = f"{report.seats} seat{'s' if report.seats > 1 else ''}"
    say(console, f"{report.spec.name}: one round's payout at a table of {seats}", bold=True)
    say(console, f"{TOTAL}.")
    if report.seats > 2:
        say(
            console,
            "More than two seats are not counted exactly: proven bounds from the exact one- and two-seat figures.",
        )
    for w in report.wagers:
        say(console, "")
        rows = table_round_rows(w, report)
        print_table(console, TextTable((label(bold=True), label()), rows, title=w.title, pairs=True))
