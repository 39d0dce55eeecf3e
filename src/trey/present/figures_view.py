"""The rows every view of an analysis shows — the terminal's tables (``trey analyze``) and the workbench's page
(``trey serve``) — as plain text: which figures, in which order, with which words, stated once."""

from __future__ import annotations

from fractions import Fraction

from trey.core.numbers import MoneyStyle, break_even_text, fraction_text, one_in_text, percent_text
from trey.engine.progressive import ProgressiveAnalysis
from trey.engine.results import AntePlayAnalysis, WagerAnalysis
from trey.figures.registry import (
    AVERAGE_WAGER,
    DEALER_QUALIFIES,
    ELEMENT_OF_RISK,
    HIT_FREQUENCY,
    HOUSE_EDGE,
    RTP,
    STD_DEV,
    VARIANCE,
    VOLATILITY_INDEX_90,
    VOLATILITY_INDEX_95,
    Figure,
)
from trey.figures.theo import TheoreticalWin, theo_sentence
from trey.paytable.pays import percent_text_exact
from trey.present.labels import hand_label

OUTCOME_COLUMNS = ("outcome", "pays", "combinations", "probability", "1 in", "contribution")
HAND_COLUMNS = ("player's hand", "outcome", "pays", "combinations", "probability", "return")
ENVY_COLUMNS = ("other bettors", "RTP at reset", "break-even meter", "long-run RTP")


def figure_text(value: Fraction, exact: bool) -> str:
    text = percent_text(value)
    return f"{text}  ({fraction_text(value)})" if exact else text


def shown(figure: Figure, result: WagerAnalysis, exact: bool) -> str:
    """A figure rounded once, with its exact fraction after it when asked and when it has one."""
    fraction = figure.exact_text(result) if exact else ""
    return f"{figure.text(result)}  ({fraction})" if fraction else figure.text(result)


def outcome_name(name: str) -> str:
    return name.replace("_", " ")


def outcome_rows(result: WagerAnalysis, *, exact: bool = False) -> list[tuple[str, str, str, str, str, str]]:
    """The outcome table: outcome, pays, combinations, probability, 1 in, contribution (the Ante Bonus after)."""
    rows = list(result.outcomes)
    if isinstance(result, AntePlayAnalysis):
        rows += [r for r in result.ante_bonus]
    table = []
    for row in rows:
        name = outcome_name(row.outcome)
        if not row.returns_stake:
            name = f"Ante Bonus: {name}"
        table.append(
            (
                name,
                fraction_text(row.pays),
                f"{row.combinations:,}",
                figure_text(row.probability, exact),
                one_in_text(row.one_in).removeprefix("1 in "),
                figure_text(row.contribution, exact),
            )
        )
    return table


def hand_outcome_rows(result: AntePlayAnalysis, *, exact: bool = False) -> list[tuple[str, str, str, str, str, str]]:
    """Ante & Play's outcomes by the player's hand (:data:`HAND_COLUMNS`), the rows that happen under the strategy:
    the hand, how the round ends, the net of Ante, Play and Ante Bonus per Ante, combinations, probability and
    return (probability × pays). One call for every view that shows the table."""
    return [
        (
            hand_label(row.hand),
            row.situation.label,
            fraction_text(row.pays),
            f"{row.combinations:,}",
            figure_text(row.probability, exact),
            figure_text(row.expected_net, exact),
        )
        for row in result.by_hand
        if row.combinations
    ]


def summary_rows(
    result: WagerAnalysis,
    *,
    exact: bool = False,
    style: MoneyStyle | None = None,
    theo: TheoreticalWin | None = None,
) -> list[tuple[str, str]]:
    """A wager's figures: RTP, house edge, hit frequency, variance, SD, volatility index; for Ante & Play the
    strategy, average wager and element of risk; the theoretical win."""
    rows = []
    at_reset = " (at the reset, lone bettor)" if result.progressive is not None else ""
    for figure in (RTP, HOUSE_EDGE, HIT_FREQUENCY, VARIANCE, STD_DEV):
        label = figure.label + (at_reset if figure in (RTP, HOUSE_EDGE) else "")
        rows.append((label, shown(figure, result, exact)))
    rows.append(
        ("Volatility index", f"{VOLATILITY_INDEX_90.text(result)} (90%), {VOLATILITY_INDEX_95.text(result)} (95%)")
    )
    if isinstance(result, AntePlayAnalysis):
        strategy = result.strategy
        rows.append(
            (
                "Strategy",
                f"{strategy.kind}: {strategy.sentence} ({strategy.hands_played:,} hands played, "
                f"{strategy.hands_folded:,} folded)",
            )
        )
        rows.append((AVERAGE_WAGER.label, AVERAGE_WAGER.text(result) + " Antes"))
        rows.append((ELEMENT_OF_RISK.label, shown(ELEMENT_OF_RISK, result, exact)))
        rows.append((DEALER_QUALIFIES.label, shown(DEALER_QUALIFIES, result, exact) + " of all deals"))
    if theo is not None:
        rows.append(("Theoretical win", theo_sentence(theo, style or MoneyStyle())))
    return rows


def progressive_rows(
    p: ProgressiveAnalysis, *, style: MoneyStyle, meter: Fraction | None = None, exact: bool = False
) -> list[tuple[str, str]]:
    """The RTP of a progressive against its meter: the formula's exact coefficients, reset, break-even, envy."""
    money = style.money
    rows = [
        (
            "RTP against the meter M",
            f"{fraction_text(p.fixed)} + {fraction_text(p.meter_coefficient)} × M"
            + (f" + {fraction_text(p.envy_per_bettor)} per other bettor" if p.envy_per_bettor else ""),
        ),
        (f"RTP at the reset ({money(p.reset)}), lone bettor", figure_text(p.rtp_at_reset, exact)),
    ]
    if meter is not None:
        rows.append((f"RTP at {money(meter)}, lone bettor", figure_text(p.rtp_at(meter), exact)))
    break_even = p.break_even()
    exact_break_even = f" ({fraction_text(break_even)})" if break_even is not None and break_even >= p.reset else ""
    rows.append(("Break-even meter, lone bettor", break_even_text(break_even, p.reset, money) + exact_break_even))
    rows.append(
        (
            "Long-run RTP, lone bettor",
            figure_text(p.long_run_rtp, exact)
            + f" (the meter fed {percent_text_exact(p.increment)} of stakes, reseeded to {money(p.reset)})",
        )
    )
    rows.append(("Other bettors assumed", str(p.other_bettors)))
    if p.other_bettors:
        envied = f"with {p.other_bettors} other bettors' envy"
        rows.append((f"RTP at the reset, {envied}", figure_text(p.rtp_at_reset_with_envy, exact)))
        rows.append((f"Long-run RTP, {envied}", figure_text(p.long_run_rtp_with_envy, exact)))
    return rows


def envy_rows(p: ProgressiveAnalysis, *, style: MoneyStyle) -> list[tuple[str, str, str, str]]:
    return [
        (
            str(row.other_bettors),
            percent_text(row.rtp_at_reset),
            break_even_text(row.break_even_meter, p.reset, style.money),
            percent_text(row.long_run_rtp),
        )
        for row in p.envy_table()
    ]
