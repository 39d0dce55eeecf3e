"""The figures of a game of the Three Card Poker family (issue 31), each stated once: its name (the JSON key), its
words, what it is per, its rounding and its meaning (the analysis schema's description); and the analysis as
JSON-ready data, the ``game`` part of ``trey analyze --format json`` (schemas/analysis.schema.json).

A family game's figures are per Ante, as the family's house edges are published, and say so in their names; the
house edge is also given per initial bet (the Ante and the Blind) and per total action (the element of risk).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from typing import Any

from trey.cards.card import ACE, RANK_CHARS, card_text, cards_text, rank_label, ranks_label
from trey.cards.hand_table import hand_table
from trey.cards.hands import ThreeCardCategory, describe_key, key_category, lowest_key
from trey.core.numbers import decimal_text, fraction_text, percent_text, rounded_float, sqrt_decimal
from trey.core.version import __version__
from trey.engine.family import FamilyAnalysis, chart_exceptions
from trey.rules.round import FOLD

Value = Fraction | Decimal | int


class Per(StrEnum):
    """What a family figure counts, or what it is a share of."""

    DEALS = "deals"
    CELLS = "cells"
    ANTE = "share of the Ante"
    INITIAL_BET = "share of the initial bet"
    TOTAL_ACTION = "share of the total action"
    ROUNDS = "share of the rounds"
    ANTES = "Antes"
    ANTES_SQUARED = "Antes squared"


SHARES = (Per.ANTE, Per.INITIAL_BET, Per.TOTAL_ACTION, Per.ROUNDS)


@dataclass(frozen=True)
class FamilyFigure:
    name: str  # the JSON key
    label: str  # in tables
    per: Per
    places: int  # decimals when rounded for people (of the percentage, for a share)
    meaning: str
    value: Callable[[FamilyAnalysis], Value]
    exact: bool = True  # False: irrational (a square root of the exact variance)

    def text(self, analysis: FamilyAnalysis, *, exact: bool = False) -> str:
        """For people, rounded once: ``3.8807%``, ``3.2825 Antes``, ``1,221,511,200``; with ``exact``, the fraction
        beside."""
        value = self.value(analysis)
        if isinstance(value, int):
            unit = ("Ante" if value == 1 else "Antes") if self.per is Per.ANTES else ""
            return f"{value:,}" + (f" {unit}" if unit else "")
        if self.per in SHARES:
            assert isinstance(value, Fraction)
            text = percent_text(value, self.places)
        else:
            text = decimal_text(value, self.places) + (f" {self.per}" if self.per is Per.ANTES else "")
        return f"{text}  ({fraction_text(value)})" if exact and isinstance(value, Fraction) else text

    def json(self, analysis: FamilyAnalysis) -> str | float | int:
        value = self.value(analysis)
        if isinstance(value, int):
            return value
        if isinstance(value, Fraction):
            return fraction_text(value)
        return rounded_float(value, self.places)

    def schema(self) -> dict[str, Any]:
        if self.per in (Per.DEALS, Per.CELLS) or self.name == "initial_bet":
            return {"type": "integer", "minimum": 1, "description": self.meaning}
        if self.exact:
            return {"$ref": "#/$defs/fraction", "description": self.meaning}
        return {"type": "number", "minimum": 0, "description": self.meaning}


FAMILY_FIGURES: tuple[FamilyFigure, ...] = (
    FamilyFigure(
        "cycle",
        "Deals counted",
        Per.DEALS,
        0,
        "Every deal of the game, each equally likely: the cells times the dealer's hidden cards of each.",
        lambda a: a.cycle,
    ),
    FamilyFigure(
        "cells",
        "Cells",
        Per.CELLS,
        0,
        "What the player may know when deciding: a player hand and the dealer's face-up card (the player hand "
        "alone without one).",
        lambda a: a.cells,
    ),
    FamilyFigure(
        "house_edge_per_ante",
        "House edge per Ante",
        Per.ANTE,
        4,
        "The house's expected win per Ante, the player taking the optimal option in every cell (the family's house "
        "edges are published so).",
        lambda a: a.house_edge_per_ante,
    ),
    FamilyFigure(
        "house_edge_per_initial_bet",
        "House edge per initial bet",
        Per.INITIAL_BET,
        4,
        "The house's expected win per unit of the initial bet: the Ante, and the Blind when the game has one.",
        lambda a: a.house_edge_per_initial_bet,
    ),
    FamilyFigure(
        "element_of_risk",
        "Element of risk",
        Per.TOTAL_ACTION,
        4,
        "The house's expected win per unit of the total action: every bet of the round, the Play bet included.",
        lambda a: a.element_of_risk,
    ),
    FamilyFigure(
        "initial_bet",
        "Initial bet",
        Per.ANTES,
        0,
        "The Antes bet before the cards are seen: 1 (the Ante), 2 with a Blind.",
        lambda a: a.initial_bet,
    ),
    FamilyFigure(
        "average_action",
        "Average total action",
        Per.ANTES,
        4,
        "The Antes bet on a round, on average: the initial bet and the Play bet.",
        lambda a: a.average_action,
    ),
    FamilyFigure(
        "hit_frequency",
        "Hit frequency",
        Per.ROUNDS,
        4,
        "The share of the rounds whose net result is above 0.",
        lambda a: a.stats.hit_frequency,
    ),
    FamilyFigure(
        "variance_per_ante",
        "Variance per Ante",
        Per.ANTES_SQUARED,
        4,
        "The variance of a round's net result, in Antes squared.",
        lambda a: a.stats.variance,
    ),
    FamilyFigure(
        "std_dev_per_ante",
        "Standard deviation per Ante",
        Per.ANTES,
        4,
        "The standard deviation of a round's net result, in Antes.",
        lambda a: sqrt_decimal(a.stats.variance),
        exact=False,
    ),
)


def option_name(option: int) -> str:
    """``fold``, ``1x``, ``3x``: an option as the JSON and the tables name it."""
    return "fold" if option == FOLD else f"{option}x"


def up_rank_name(rank: int | None) -> str:
    """A face-up card's rank as a chart names it (``none`` without a card up)."""
    return "none" if rank is None else RANK_CHARS[rank].replace("T", "10")


RANK_WORDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")
_LOWEST_PAIR = lowest_key(ThreeCardCategory.PAIR) + (1 << 4)  # a pair of 2s with a 3 kicker


def rule_hand(key: int) -> str:
    """The weakest hand of a rule as Stephen How writes it: a card that does not matter is ``x`` (``10-x-x`` for
    10-3-2, the weakest 10-high; ``9-8-x`` for 9-8-2; ``A-x-x`` for A-4-2, A-3-2 being a straight)."""
    if key == _LOWEST_PAIR:
        return "any pair"
    if key_category(key) is not ThreeCardCategory.HIGH_CARD:
        return describe_key(key)
    r1, r2, r3 = (key >> 8) & 15, (key >> 4) & 15, key & 15
    lowest_second = 2 if r1 == ACE else 1  # the lowest second card of a high card topped by r1
    if (r2, r3) == (lowest_second, 0):
        return f"{rank_label(r1)}-x-x"
    if r3 == 0:
        return f"{rank_label(r1)}-{rank_label(r2)}-x"
    return ranks_label((r1, r2, r3))


def _on(rank: int) -> str:
    word = RANK_WORDS[rank]
    return f"an {word}" if word[0] in "8a" else f"a {word}"


def strategy_sentence(analysis: FamilyAnalysis) -> str:
    """The optimal strategy as a rule by face-up rank, in Stephen How's words: ``3x every pair or better; 1x from
    9-8-x on a 2, 10-x-x on a 3, ..., A-8-5 on an ace; otherwise fold.`` The largest bet first; ranks sharing a
    threshold are named together. The cells the suits decide otherwise are :func:`chart_exceptions`'."""
    parts = []
    for index in reversed(range(len(analysis.game.multiples))):
        multiple = analysis.game.multiples[index]
        by_threshold: dict[int | None, list[int | None]] = {}
        for row in analysis.chart:
            by_threshold.setdefault(row.rule[index], []).append(row.up_rank)
        if list(by_threshold) == [None]:
            continue
        if len(by_threshold) == 1:
            [key] = by_threshold
            assert key is not None
            every = "every pair or better" if key == _LOWEST_PAIR else f"{rule_hand(key)} or better"
            parts.append(f"{multiple}x {every}")
            continue
        pieces = []
        for key, ranks in by_threshold.items():
            on = " or ".join(_on(rank) for rank in ranks if rank is not None)
            pieces.append(f"never on {on}" if key is None else f"{rule_hand(key)} on {on}")
        parts.append(f"{multiple}x from " + ", ".join(pieces))
    return "; ".join(parts) + ("; otherwise fold." if parts else "Fold every hand.")


def family_game_json(analysis: FamilyAnalysis) -> dict[str, Any]:
    """The ``game`` part of ``trey analyze --format json`` for a family game (schemas/analysis.schema.json)."""
    multiples = analysis.game.multiples
    return {
        "title": "Ante & Play",
        "round": analysis.game.canonical(),
        **{figure.name: figure.json(analysis) for figure in FAMILY_FIGURES},
        "deals_per_cell": analysis.deals_per_cell,
        "options": [
            {"option": option_name(o.option), "play": o.option, "cells": o.cells, "deals": o.deals}
            for o in analysis.options
        ],
        "net_results": [{"net": fraction_text(r.net), "combinations": r.combinations} for r in analysis.net_results],
        "strategy": {
            "kind": "optimal",
            "rule": strategy_sentence(analysis),
            "by_face_up_card": [
                {
                    "up_rank": up_rank_name(row.up_rank),
                    "weakest": {
                        option_name(m): None if key is None else {"key": key, "hand": describe_key(key)}
                        for m, key in zip(multiples, row.weakest, strict=True)
                    },
                    "exceptions": {option_name(m): n for m, n in zip(multiples, row.exceptions, strict=True)},
                    "cells": {option_name(o.option): n for o, n in zip(analysis.options, row.cells, strict=True)},
                    "rule": {
                        option_name(m): None if key is None else {"key": key, "hand": rule_hand(key)}
                        for m, key in zip(multiples, row.rule, strict=True)
                    },
                    "rule_exceptions": {option_name(m): n for m, n in zip(multiples, row.rule_exceptions, strict=True)},
                }
                for row in analysis.chart
            ],
            "rule_exceptions": [
                {
                    "up_card": None if e.up_card < 0 else card_text(e.up_card),
                    "hand": cards_text(hand_table().cards[e.hand]),
                    "rule": option_name(e.rule),
                    "optimal": option_name(e.option),
                    "decided_by": "suits" if e.by_suits else "ranks",
                }
                for e in chart_exceptions(analysis)
            ],
        },
    }


def family_analysis_json(analysis: FamilyAnalysis, meter: Fraction | None = None) -> dict[str, Any]:
    """``trey analyze --format json`` of a family game: its figures under ``game`` (a standard game's are under
    ``wagers``), its side bets under ``game.side_bets``, each as a standard game's wager."""
    from trey.figures.export import theo_json, wager_json
    from trey.figures.theo import theoretical_win

    game = family_game_json(analysis)
    sides = analysis.side_bet_analysis
    if sides.wagers:
        game["side_bets"] = {
            wager: {**wager_json(result, meter), "theoretical_win": theo_json(theoretical_win(result, sides))}
            for wager, result in sides.wagers.items()
        }
    return {
        "trey_version": __version__,
        "spec_sha256": analysis.spec.sha256,
        "name": analysis.spec.name,
        "game": game,
    }
